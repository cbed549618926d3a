//! The linear scan of text past a bound (too large, too deep, too many tokens, out of time, a
//! shape the bash parser mishandles): [`crate::fallback::split_flat`] cuts it at every quote,
//! bracket and operator, and each piece is recorded as a command (unwrapped and canonicalized
//! like any other), so that the commands that are visible still reach the rules. Commands
//! already recorded are not recorded again.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use riskgate_model::Span;

use crate::ctx::{Feed, Frame, Norm, Pending, Range, XWord, join};
use crate::fallback::{self, FlatEnd};
use crate::{Word, floor_char_boundary};

/// Levels of nested text scanned past [`crate::Limits::max_depth`] (`eval eval … rm`).
const FLAT_EXTRA_DEPTH: u32 = 16;

impl Norm<'_> {
    /// Scan `text` linearly and record the commands in it. Text nested deeper than
    /// [`FLAT_EXTRA_DEPTH`] levels past the bound (`eval eval … rm`) is queued and scanned by
    /// the outermost call, so the stack does not grow with the input.
    pub(crate) fn flat_extract(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        let deepest = self.limits.max_depth.saturating_add(FLAT_EXTRA_DEPTH);
        if frame.depth > deepest {
            if self.flat_spend(text.len()) {
                self.flat_queue.push((text.to_string(), frame.clone()));
            }
            return None;
        }
        let mut r = self.flat_scan(text, frame);
        if !self.flat_draining {
            self.flat_draining = true;
            while let Some((t, mut f)) = self.flat_queue.pop() {
                if self.commands.len() >= self.hard_command_cap() {
                    break;
                }
                f.depth = self.limits.max_depth.saturating_add(1);
                r = join(r, self.flat_scan(&t, &f));
            }
            self.flat_queue.clear();
            self.flat_draining = false;
        }
        r
    }

    fn flat_scan(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        let cut = floor_char_boundary(text, self.limits.max_scan_bytes);
        if cut < text.len() {
            let m = format!(
                "input larger than {} bytes (the rest was not read)",
                self.limits.max_scan_bytes
            );
            self.limit(m);
        }
        let text = text.get(..cut).unwrap_or("");
        if !self.flat_spend(text.len()) {
            return None;
        }
        let was = std::mem::replace(&mut self.flat_active, true);
        let mut r = None;
        let mut elems: Vec<Option<Range>> = Vec::new();
        // The same words give the same command: skipped before any work (10 MiB of `true;`).
        let hasher = RandomState::new();
        let mut seen: HashSet<u64> = HashSet::new();
        fallback::split_flat(text, |words, start, end, how| {
            if !seen.insert(hasher.hash_one(words)) {
                if how == FlatEnd::Other && !elems.is_empty() {
                    r = join(r, self.pipeline_done(&elems, frame));
                    elems.clear();
                }
                return true;
            }
            let span = frame.span.unwrap_or(Span::new(start, end));
            let argv = words
                .iter()
                .map(|w| XWord {
                    w: Word {
                        text: w.clone(),
                        dynamic: w.contains('$'),
                    },
                    feed: Feed::default(),
                })
                .collect();
            let p = Pending {
                argv,
                span,
                ..Pending::default()
            };
            elems.push(self.finish_simple(p, frame));
            if how == FlatEnd::Other {
                r = join(r, self.pipeline_done(&elems, frame));
                elems.clear();
            }
            self.commands.len() < self.hard_command_cap()
        });
        if !elems.is_empty() {
            r = join(r, self.pipeline_done(&elems, frame));
        }
        self.flat_active = was;
        r
    }
}
