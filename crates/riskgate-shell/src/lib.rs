//! Shell normalization: bash text → [`ParsedCommand`], every simple command that would run,
//! with canonical argv (see ../shared/DESIGN.md, "Shell normalization").
//!
//! Modules: [`walk`](crate) (the AST walk), `words` (expansion), `command` (one simple
//! command: unwrap, canonicalize, follow), `unwrap` (wrappers), `canon` + `aliases` (canonical
//! argv and the alias table), `interp` (interpreter and database one-liners), `payload`
//! (pipelines, downloads, decoded payloads), `escapes` (`$'…'`, printf, echo -e), `fallback`
//! (best-effort splits on a syntax error or past a bound), `flat` (the linear scan past a
//! bound), `limits` (the bounds and the pre-scans that keep the bash parser safe), `watchdog`
//! (the deadline that does not need the parser's cooperation).

mod aliases;
mod braces;
mod canon;
mod command;
mod ctx;
mod embedded;
mod escapes;
mod expect;
mod fallback;
mod flat;
mod globs;
mod interp;
mod limits;
mod listing;
mod model;
mod payload;
mod progword;
mod script;
mod unwrap;
mod walk;
mod watchdog;
mod words;

pub use model::*;
pub use watchdog::runaway_workers;

use std::time::Duration;

use ctx::{Frame, Norm};

/// Whether `c` writes data received from elsewhere to its standard output: a downloader
/// (`curl`, `wget` …), or a copy from a bucket, another host, a remote repository or a
/// container to stdout (`aws s3 cp s3://b/k -`, `gsutil cat`, `git archive --remote`,
/// `docker cp c:/f -`). A command run on another host (`ssh h cat f`) has
/// [`SimpleCommand::remote`] instead.
pub fn is_download(c: &SimpleCommand) -> bool {
    payload::is_downloader(c)
}

/// Bounds on normalization work. Every bound that is hit is reported as a
/// [`ParseIssue::Limit`] naming it (and the result is not [`ParsedCommand::fully_parsed`]);
/// what lies past it is still scanned by a linear splitter, so the commands that are visible
/// are found (see `fallback::split_flat`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest input given to the bash parser, in bytes. A larger input is split by the
    /// fallback splitters only.
    pub max_input_bytes: usize,
    /// Largest input read at all, in bytes (by the linear splitter); the rest is ignored.
    pub max_scan_bytes: usize,
    /// Deepest nesting of shells, substitutions and wrappers followed.
    pub max_depth: u32,
    /// Most simple commands fully analyzed; past it, only commands not seen before are
    /// recorded, up to twice this.
    pub max_commands: usize,
    /// Time budget (400 ms; 4 s in a debug build): past it the bash parser is no longer used
    /// and the input is scanned by the linear splitter.
    pub max_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 * 1024,
            max_scan_bytes: 16 * 1024 * 1024,
            max_depth: 16,
            max_commands: 4096,
            // Unoptimized builds (tests) are about ten times slower: the same margin.
            max_time: Duration::from_millis(if cfg!(debug_assertions) { 4000 } else { 400 }),
        }
    }
}

/// Normalize `input` with default [`Limits`].
pub fn parse(input: &str) -> ParsedCommand {
    parse_with(input, &Limits::default())
}

/// Normalize `input` within `limits`. Never panics (a bug that would is contained: the result
/// then says it is incomplete) and never takes much longer than [`Limits::max_time`] (past it,
/// the linear scan alone answers: see [`watchdog`]); past a bound the result says so in
/// [`ParsedCommand::issues`].
pub fn parse_with(input: &str, limits: &Limits) -> ParsedCommand {
    match watchdog::run(input, limits, guarded) {
        Ok(parsed) => parsed,
        Err(watchdog::Stopped::Deadline) => {
            let why = format!(
                "the bash parser did not finish within {} ms",
                watchdog::deadline(limits).as_millis()
            );
            flat_only(input, limits, why)
        }
        Err(watchdog::Stopped::Busy) => flat_only(
            input,
            limits,
            "earlier inputs still hold the bash parser past their time budget".into(),
        ),
    }
}

/// Normalization with a panic contained.
fn guarded(input: &str, limits: &Limits) -> ParsedCommand {
    std::panic::catch_unwind(|| parse_here(input, limits))
        .unwrap_or_else(|_| flat_only(input, limits, "internal error during normalization".into()))
}

fn parse_here(input: &str, limits: &Limits) -> ParsedCommand {
    let mut n = Norm::new(input, *limits);
    let top = Frame::top();
    if input.len() > limits.max_input_bytes {
        n.limit(format!(
            "input larger than {} bytes (not given to the bash parser)",
            limits.max_input_bytes
        ));
        let cut = floor_char_boundary(input, limits.max_input_bytes);
        // The head split with quotes, then all of it (up to `max_scan_bytes`) linearly.
        let _ = n.fallback_only(input.get(..cut).unwrap_or(""), &top);
        let _ = n.flat_extract(input, &top);
        return n.finish();
    }
    let _ = n.parse_text(input, &top);
    n.walk_uncalled_functions();
    if n.limits_hit > 0 {
        // A bound was hit somewhere (out of time, a word refused, too deep …): the whole input
        // is scanned linearly too, so that nothing visible is lost.
        let _ = n.flat_extract(input, &top);
    }
    n.finish()
}

/// The linear split alone, itself guarded, with `why` as the bound that was hit: the result
/// when normalization panicked (a bug) or ran past its deadline.
fn flat_only(input: &str, limits: &Limits, why: String) -> ParsedCommand {
    let flat = std::panic::catch_unwind(|| {
        let mut n = Norm::new(input, *limits);
        n.brush_off = true;
        n.limit(why.clone());
        let _ = n.flat_extract(input, &Frame::top());
        n.finish()
    });
    flat.unwrap_or_else(|_| ParsedCommand {
        source: input.to_string(),
        commands: Vec::new(),
        nested: Vec::new(),
        signals: Vec::new(),
        scripts: Vec::new(),
        fully_parsed: false,
        issues: vec![ParseIssue::Limit { message: why }],
    })
}

/// The largest char boundary of `s` at or below `at`.
pub(crate) fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut cut = at.min(s.len());
    while cut > 0 && !s.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}
