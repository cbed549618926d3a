//! The normalization context: output being built, variable environment, bounds, and the
//! per-nesting [`Frame`] inherited by nested scripts (wrappers, privilege, remote host, span).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::time::Instant;

use riskgate_model::Span;

use crate::{
    Limits, NestedInput, Origin, ParseIssue, ParsedCommand, Redirect, Signal, SimpleCommand,
    StdinSource, Word, Wrapper,
};

/// Longest literal value kept for a variable; longer values become dynamic.
pub(crate) const MAX_VAR_LEN: usize = 8 * 1024;

/// Known variable values: `Some(text)` literal, `None` assigned but dynamic.
pub(crate) type Env = HashMap<String, Option<String>>;

/// What fed a word: command or process substitutions whose commands are already recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Feed {
    /// A downloader (curl, wget …) ran inside the substitution.
    pub downloader: Option<usize>,
    /// A decoder (base64 -d …) ran inside the substitution.
    pub decoder: Option<usize>,
    /// The word is (or contains) a substitution.
    pub subst: bool,
    /// A process substitution `<(…)` whose output is known: index into [`Norm::subst_texts`].
    pub subst_out: Option<usize>,
}

impl Feed {
    pub(crate) fn merge(&mut self, o: Feed) {
        self.downloader = self.downloader.or(o.downloader);
        self.decoder = self.decoder.or(o.decoder);
        self.subst |= o.subst;
        self.subst_out = self.subst_out.or(o.subst_out);
    }
}

/// An expanded word together with what fed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct XWord {
    pub w: Word,
    pub feed: Feed,
}

impl XWord {
    pub(crate) fn lit(s: &str) -> XWord {
        XWord {
            w: Word {
                text: s.to_string(),
                dynamic: false,
            },
            feed: Feed::default(),
        }
    }
    pub(crate) fn text(&self) -> &str {
        &self.w.text
    }
}

/// A simple command being assembled before unwrapping and canonicalization.
#[derive(Clone, Debug)]
pub(crate) struct Pending {
    pub argv: Vec<XWord>,
    pub assignments: Vec<(String, Word)>,
    pub redirects: Vec<Redirect>,
    pub stdin: Option<StdinSource>,
    /// Body of a heredoc or here-string on stdin, and whether it is literal.
    pub stdin_text: Option<(String, bool)>,
    /// What fed the here-string (`sh <<< "$(curl …)"`).
    pub stdin_feed: Feed,
    pub span: Span,
    /// The listing this command runs over (`kill $(pgrep x)`, `ps … | xargs kill`).
    pub listing: Option<crate::Listing>,
    /// Known output of the pipeline before it, for `xargs`.
    pub pipe_text: Option<String>,
}

impl Default for Pending {
    fn default() -> Self {
        Pending {
            argv: Vec::new(),
            assignments: Vec::new(),
            redirects: Vec::new(),
            stdin: None,
            stdin_text: None,
            stdin_feed: Feed::default(),
            span: Span::new(0, 0),
            listing: None,
            pipe_text: None,
        }
    }
}

/// Inherited by everything nested under a point of the script.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub depth: u32,
    pub origin: Origin,
    pub wrappers: Vec<Wrapper>,
    pub privileged: bool,
    pub remote: Option<String>,
    /// For nested text: the span in the top-level source every command gets.
    pub span: Option<Span>,
}

impl Frame {
    pub(crate) fn top() -> Frame {
        Frame {
            depth: 0,
            origin: Origin::Script,
            wrappers: Vec::new(),
            privileged: false,
            remote: None,
            span: None,
        }
    }

    /// A frame for text nested one level deeper, with `span` fixed.
    pub(crate) fn nested(&self, origin: Origin, span: Span) -> Frame {
        Frame {
            depth: self.depth + 1,
            origin,
            wrappers: self.wrappers.clone(),
            privileged: self.privileged,
            remote: self.remote.clone(),
            span: Some(self.span.unwrap_or(span)),
        }
    }
}

/// Commands recorded for one syntactic element: first and last top-level ("main") indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub first: usize,
    pub last: usize,
}

pub(crate) fn join(a: Option<Range>, b: Option<Range>) -> Option<Range> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Range {
            first: a.first.min(b.first),
            last: b.last.max(a.last),
        }),
        (x, None) | (None, x) => x,
    }
}

/// The normalizer: one per call to [`crate::parse_with`].
pub(crate) struct Norm<'s> {
    pub src: &'s str,
    /// Byte offset of each char index (brush positions count chars), when the source is not ASCII.
    pub char_bytes: Option<Vec<usize>>,
    pub limits: Limits,
    pub commands: Vec<SimpleCommand>,
    pub nested: Vec<NestedInput>,
    pub signals: Vec<Signal>,
    pub issues: Vec<ParseIssue>,
    pub fully: bool,
    pub env: Env,
    /// Bytes of text parsed so far (nested texts included), bounded by `work_budget`.
    pub work: usize,
    pub work_budget: usize,
    /// Literal outputs of read process substitutions (`<(echo 'DROP TABLE t')`).
    pub subst_texts: Vec<String>,
    /// The working directory after a literal `cd` (`cd /srv/backups && rm -f *.gz`).
    pub cwd: Option<String>,
    /// The nested text being walked (`bash -c '…'`), whose own offsets brush reports.
    pub nested_src: Option<String>,
    /// How many times a bound was hit.
    pub limits_hit: usize,
    /// When the time budget ([`Limits::max_time`]) runs out.
    deadline: Option<Instant>,
    /// The time budget ran out: the bash parser is no longer used, and the whole input is
    /// scanned by the linear splitter at the end.
    pub brush_off: bool,
    /// Bytes scanned by the linear splitter ([`crate::fallback::split_flat`]).
    pub flat_work: usize,
    /// Inside a linear scan: a command already recorded is not recorded again.
    pub flat_active: bool,
    /// Nested text queued by the linear scan, and whether the outermost scan is draining it.
    pub flat_queue: Vec<(String, Frame)>,
    pub flat_draining: bool,
    /// Hashes of the raw argv of recorded commands (`seen_upto` of them), for deduplication.
    seen: HashSet<u64>,
    seen_upto: usize,
    hasher: RandomState,
    /// Nested shell texts, for [`ParsedCommand::scripts`].
    pub scripts: Vec<String>,
    /// What the script defined so far (functions, aliases, files …).
    pub script: crate::script::State,
    /// What PowerShell and cmd.exe text defined so far (variables, aliases, functions).
    pub ps: crate::windows::PsState,
    /// Commands whose arguments or input carry downloaded or decoded text (`echo "$payload"`
    /// after `payload=$(curl …)`): (command index, what fed them).
    pub arg_feed: Vec<(usize, Feed)>,
    /// Per branch being walked (innermost last): the variables it set, with their values
    /// before it.
    pub branches: Vec<Vec<(String, Option<Option<String>>)>>,
    /// Inside a subshell or a pipeline element: assignments do not outlive it.
    pub scoped: u32,
    /// The standard input of a wrapper whose shell string is being read (`ssh h 'bash -s'
    /// <<EOF`, `sh -c 'python3 -' < f`): the first command of the string without input of
    /// its own reads it.
    pub inherited_stdin: Option<Inherited>,
}

/// Standard input a shell string's commands inherit from the wrapper that runs it.
#[derive(Clone, Debug)]
pub(crate) struct Inherited {
    pub stdin: Option<StdinSource>,
    pub stdin_text: Option<(String, bool)>,
    pub stdin_feed: Feed,
}

impl<'s> Norm<'s> {
    pub(crate) fn new(src: &'s str, limits: Limits) -> Norm<'s> {
        // Only text the bash parser sees needs the char → byte table (8 bytes a char).
        let char_bytes = if src.len() > limits.max_input_bytes || src.is_ascii() {
            None
        } else {
            let mut v: Vec<usize> = src.char_indices().map(|(b, _)| b).collect();
            v.push(src.len());
            Some(v)
        };
        Norm {
            src,
            char_bytes,
            limits,
            commands: Vec::new(),
            nested: Vec::new(),
            signals: Vec::new(),
            issues: Vec::new(),
            fully: true,
            env: Env::new(),
            work: 0,
            work_budget: limits.max_input_bytes.saturating_mul(8).max(4096),
            subst_texts: Vec::new(),
            cwd: None,
            nested_src: None,
            limits_hit: 0,
            deadline: Instant::now().checked_add(limits.max_time),
            brush_off: false,
            flat_work: 0,
            flat_active: false,
            flat_queue: Vec::new(),
            flat_draining: false,
            seen: HashSet::new(),
            seen_upto: 0,
            hasher: RandomState::new(),
            scripts: Vec::new(),
            script: crate::script::State::default(),
            ps: crate::windows::PsState::default(),
            arg_feed: Vec::new(),
            branches: Vec::new(),
            scoped: 0,
            inherited_stdin: None,
        }
    }

    pub(crate) fn finish(self) -> ParsedCommand {
        ParsedCommand {
            source: self.src.to_string(),
            commands: self.commands,
            nested: self.nested,
            signals: self.signals,
            scripts: self.scripts,
            fully_parsed: self.fully && self.issues.is_empty(),
            issues: self.issues,
        }
    }

    /// Byte offset of brush char index `i` in the top-level source.
    pub(crate) fn byte_at(&self, i: usize) -> usize {
        match &self.char_bytes {
            None => i.min(self.src.len()),
            Some(v) => v.get(i).copied().unwrap_or(self.src.len()),
        }
    }

    pub(crate) fn span_of(&self, loc: &brush_parser::SourceSpan) -> Span {
        Span::new(self.byte_at(loc.start.index), self.byte_at(loc.end.index))
    }

    pub(crate) fn issue(&mut self, issue: ParseIssue) {
        self.fully = false;
        if self.issues.len() < 32 && !self.issues.contains(&issue) {
            self.issues.push(issue);
        }
    }

    /// Record that a bound was hit (once per bound message).
    pub(crate) fn limit(&mut self, message: String) {
        self.limits_hit += 1;
        self.issue(ParseIssue::Limit { message });
    }

    /// Whether the command `argv` is not to be recorded: past [`Limits::max_commands`] only
    /// commands not seen before are (so the one that differs is not lost after thousands of
    /// the same), and none past twice that; inside a linear scan, only new ones.
    pub(crate) fn at_command_limit(&mut self, argv: &[XWord]) -> bool {
        let n = self.commands.len();
        let soft = self.limits.max_commands;
        if n >= soft {
            let m = format!("more than {soft} commands");
            self.limit(m);
            if n >= self.hard_command_cap() {
                return true;
            }
        }
        (n >= soft || self.flat_active) && self.seen_before(argv)
    }

    /// Most commands recorded at all.
    pub(crate) fn hard_command_cap(&self) -> usize {
        self.limits.max_commands.saturating_mul(2)
    }

    fn argv_hash<'a>(&self, words: impl Iterator<Item = &'a str>) -> u64 {
        let mut joined = String::new();
        for w in words {
            joined.push_str(w);
            joined.push('\0');
        }
        self.hasher.hash_one(joined)
    }

    /// Whether a command with this raw argv was recorded already.
    fn seen_before(&mut self, argv: &[XWord]) -> bool {
        while let Some(c) = self.commands.get(self.seen_upto) {
            let h = self.argv_hash(c.raw_argv.iter().map(|w| w.text.as_str()));
            self.seen.insert(h);
            self.seen_upto += 1;
        }
        let h = self.argv_hash(argv.iter().map(|w| w.w.text.as_str()));
        self.seen.contains(&h)
    }

    /// True once the time budget is spent (recorded once as a [`ParseIssue::Limit`]); from
    /// then on the bash parser is not used.
    pub(crate) fn over_time(&mut self) -> bool {
        if self.brush_off {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            let m = format!(
                "analysis took longer than {} ms",
                self.limits.max_time.as_millis()
            );
            self.limit(m);
            self.brush_off = true;
        }
        self.brush_off
    }

    /// Account for scanning `len` more bytes with the linear splitter; false (and an issue)
    /// past twice [`Limits::max_scan_bytes`].
    pub(crate) fn flat_spend(&mut self, len: usize) -> bool {
        self.flat_work = self.flat_work.saturating_add(len).saturating_add(16);
        let budget = self.limits.max_scan_bytes.saturating_mul(2);
        if self.flat_work > budget {
            self.limit(format!("more than {budget} bytes scanned"));
            return false;
        }
        true
    }

    /// Account for parsing `len` more bytes; false (and an issue) past the budget.
    pub(crate) fn spend(&mut self, len: usize) -> bool {
        self.work = self.work.saturating_add(len).saturating_add(16);
        if self.work > self.work_budget {
            let m = format!("more than {} bytes of nested text", self.work_budget);
            self.limit(m);
            return false;
        }
        true
    }

    /// Start walking text that may not run (the right side of `&&`/`||`, an `if` or `case`
    /// branch, a loop body).
    pub(crate) fn begin_branch(&mut self) {
        self.branches.push(Vec::new());
    }

    /// End such text: a variable it changed from one known value to another may hold either
    /// afterwards, so it is no longer known (`X=/etc; [ "$1" = y ] && X=/tmp/a; rm -rf $X` may
    /// delete `/etc`). One the branch set where it had no known value keeps what the branch
    /// gave it (`[ -n "$1" ] && D=/; rm -rf "$D"`, `true && x=rm; $x -rf /`): the other
    /// possibility is an empty or unknown value, which tells less.
    pub(crate) fn end_branch(&mut self) {
        let Some(changed) = self.branches.pop() else {
            return;
        };
        for (name, before) in changed {
            let now = self.env.get(&name).cloned();
            if matches!(before, Some(Some(_))) && now != before {
                self.env.insert(name.clone(), None);
                self.script.var_shape.remove(&name);
            }
            // the enclosing branch saw the value before this one
            if let Some(top) = self.branches.last_mut()
                && !top.iter().any(|(n, _)| *n == name)
            {
                top.push((name, before));
            }
        }
    }

    /// End a subshell begun with `begin_branch`: the variables it set get their values from
    /// before it back, as bash's subshells leave them.
    pub(crate) fn end_scope(&mut self) {
        let Some(changed) = self.branches.pop() else {
            return;
        };
        for (name, before) in changed {
            match before {
                Some(v) => {
                    self.env.insert(name.clone(), v);
                }
                None => {
                    self.env.remove(&name);
                }
            }
            // back to its value before the subshell: nothing changed for an enclosing branch
            self.script.var_shape.remove(&name);
            self.script.certain.remove(&name);
        }
    }

    pub(crate) fn signal(&mut self, s: Signal) {
        if !self.signals.contains(&s) {
            self.signals.push(s);
        }
    }

    /// Set a variable, bounding its size.
    pub(crate) fn set_var(&mut self, name: &str, value: Option<String>) {
        let value = value.filter(|v| v.len() <= MAX_VAR_LEN);
        self.script.certain.remove(name);
        // inside a branch that may not run: remember the value before it (see `end_branch`)
        if let Some(top) = self.branches.last_mut()
            && !top.iter().any(|(n, _)| n == name)
            && top.len() < 4096
        {
            top.push((name.to_string(), self.env.get(name).cloned()));
        }
        self.script.var_shape.remove(name);
        if self.env.len() < 4096 || self.env.contains_key(name) {
            self.env.insert(name.to_string(), value);
        }
    }
}
