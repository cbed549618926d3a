//! Policy patterns (extra patterns, the blocklist, overrides) matched against the *parsed*
//! command: program, subcommands and options in any spelling, not the raw text.
//!
//! A pattern of two words or more that reads as one simple command (`git push --force`,
//! `npm install --save-dev`, `sudo rm -rf /`, `kubectl * --context prod*`) is parsed once, by the same normalizer as the
//! commands it is matched against ([`riskgate_shell::parse`]): its options take their
//! canonical spelling from the shell's flag alias table (`-f` and `--force` are one option,
//! `-D` is `--save-dev` for npm), short clusters are split (`-rf` is `-r` and `-f`), and options
//! match in any order. A command line matches through its simple commands, wherever they
//! run: after `cd x &&`, under `sudo`, inside `bash -c '…'` or `$(…)`. Text that is only data
//! (a commit message, a grep pattern, an echo) is not a command, so it does not match.
//!
//! - **Raising** patterns (extra patterns, the blocklist) match when ANY simple command has
//!   the pattern's program, every option of the pattern, and the pattern's other words in
//!   order among its own (`git push --force` matches `git push origin main -f`). For existing
//!   policies, a command whose words as written *start with* the pattern's words still
//!   matches (`rm -rf /` matches `rm -rf /tmp/x`, as the text pattern did), so does a command
//!   whose subcommand is the pattern's first word (`push --force` matches `git push -f`), and
//!   so does code or SQL that a command runs (`psql -c "DROP TABLE t"` for `DROP TABLE`). A
//!   program only known at run time (`$GIT push -f`) may be any program. A command line that
//!   could not be fully parsed, or hides something (a dynamic program, eval of unknown text, a
//!   payload run by a shell), is also matched as text: a blocklist never fails open.
//! - **Lowering** patterns (overrides) must cover EVERY simple command of the line (each by
//!   some override; `cd`, `pushd`, `popd`, `true` and `:` need none), so that
//!   `npm install --save-dev jest && rm -rf /` is never lowered by an `npm install --save-dev`
//!   entry. A covered command has the pattern's program and options, no option the pattern
//!   lacks, and exactly the pattern's other words — unless the pattern is *open*: its last
//!   word is an option (`npm install --save-dev`) or ends with `*` (`npm test*`, `cp * *`);
//!   then more words may follow. It may not add privilege (sudo, unless the pattern says
//!   sudo), a remote host, an environment assignment, a redirection other than to `/dev/null`
//!   or between descriptors, or a wrapper that changes what runs (xargs, eval, find -exec,
//!   ssh, docker exec …). A line with a dynamic program or eval, or not fully parsed, is not
//!   lowered by a command pattern.
//!
//! A pattern written `raw: TEXT` is matched as text, as before (see [`crate::pattern`]), and
//! so is a pattern that is not one simple command (`curl * | sh`, `make && make install`), or
//! any pattern applied to an action that is not a shell command (SQL, a path, a URL).

use std::cell::OnceCell;
use std::sync::Arc;

use riskgate_model::{Action, ActionKind};
use riskgate_shell::{ParsedCommand, SimpleCommand, Word};

use crate::pattern::{MatchMode, Pattern};

/// The prefix that asks for text matching.
pub const RAW_PREFIX: &str = "raw:";

/// Longest command line parsed for the patterns (the engine has rated it already; a longer
/// one is matched as text).
pub const MAX_PARSED_BYTES: usize = 64 * 1024;

/// Commands that need no override to be covered: they change nothing themselves.
const NEUTRAL_COMMANDS: &[&str] = &["cd", "pushd", "popd", "true", ":"];

/// Wrappers that run the same argv here, as the same user: they never stop a command from
/// being covered.
const NEUTRAL_WRAPPERS: &[&str] = &[
    "env", "nice", "time", "gtime", "timeout", "gtimeout", "stdbuf", "ionice", "builtin", "exec",
    "command", "taskset", "bash -c", "sh -c", "zsh -c", "dash -c", "ksh -c",
];

/// Wrappers that raise privilege: a command under them is covered only by a pattern that
/// says so (`sudo apt-get install*`).
const PRIVILEGE_WRAPPERS: &[&str] = &["sudo", "doas", "pkexec", "run0", "runuser", "su"];

/// Programs whose arguments are text to print or search, never a subcommand: a pattern
/// written from a subcommand on (`push --force`) does not match their words.
const TEXT_PROGRAMS: &[&str] = &[
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "logger",
];

/// Which way a pattern moves the level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Extra patterns and the blocklist: a floor (any command of the line may match).
    Raise,
    /// Overrides: the level of the whole line (every command must be covered).
    Lower,
}

/// One policy pattern: as written, as text, and as a command when it reads as one.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyPattern {
    written: String,
    text: Pattern,
    command: Option<CommandPattern>,
    direction: Direction,
}

/// A pattern parsed as one simple command.
#[derive(Debug, Clone, PartialEq)]
struct CommandPattern {
    program: String,
    privileged: bool,
    assignments: Vec<(String, String)>,
    positionals: Vec<String>,
    flags: Vec<String>,
    /// More words may follow (lowering).
    open: bool,
    /// The words as written, for the prefix match of raising patterns.
    prefix: Pattern,
}

impl PolicyPattern {
    /// Compile `written` for `direction`: as a command when it reads as one simple command
    /// and does not start with [`RAW_PREFIX`], else as text (substring for raising patterns,
    /// whole and bounded for lowering ones).
    pub fn new(written: &str, direction: Direction) -> PolicyPattern {
        let trimmed = written.trim_start();
        let (raw, body) = match trimmed.strip_prefix(RAW_PREFIX) {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        let mode = match direction {
            Direction::Raise => MatchMode::Substring,
            Direction::Lower => MatchMode::Whole,
        };
        let text = Pattern::new(body, mode);
        let command = if raw {
            None
        } else {
            CommandPattern::parse(text.as_str())
        };
        let written = if raw {
            format!("{RAW_PREFIX} {}", text.as_str())
        } else {
            text.as_str().to_string()
        };
        PolicyPattern {
            written,
            text,
            command,
            direction,
        }
    }

    /// The pattern as shown (normalized; `raw: …` for a raw one).
    pub fn as_str(&self) -> &str {
        &self.written
    }

    /// `command` when matched against parsed commands, else `text`.
    pub fn match_kind(&self) -> &'static str {
        if self.command.is_some() {
            "command"
        } else {
            "text"
        }
    }

    /// True for a pattern matched against parsed commands.
    pub fn is_command(&self) -> bool {
        self.command.is_some()
    }

    /// Whether this pattern matches `subject`. A lowering pattern matches when it covers every
    /// command of the line by itself ([`covering_levels`] combines several).
    pub fn matches(&self, subject: &Subject) -> bool {
        let parsed = match (&self.command, subject.parsed()) {
            (Some(_), Some(p)) => p,
            _ => return self.text.matches(&subject.text, subject.kind),
        };
        match self.direction {
            Direction::Raise => self.raises(parsed, subject),
            Direction::Lower => {
                lowerable(parsed) && {
                    let cover = to_cover(parsed);
                    !cover.is_empty() && cover.iter().all(|c| self.covers(c))
                }
            }
        }
    }

    fn raises(&self, parsed: &ParsedCommand, subject: &Subject) -> bool {
        let Some(cp) = &self.command else {
            return false;
        };
        // a line not fully parsed, or with something hidden (a dynamic program, eval of unknown
        // text, a payload run by a shell …), is matched as text too: never fail open
        let unsure = !parsed.fully_parsed || !parsed.signals.is_empty();
        let words = subject.words();
        parsed
            .commands
            .iter()
            .zip(words)
            .any(|(c, w)| cp.raises(c, w))
            || parsed
                .nested
                .iter()
                .any(|n| self.text.matches(&n.text, n_kind()))
            || (unsure && self.text.matches(&subject.text, subject.kind))
    }

    /// Whether this (lowering) pattern covers the simple command `c` of a line that can be
    /// lowered at all (see [`lowerable`]); a text pattern covers a command only through the
    /// whole line ([`PolicyPattern::matches`]).
    fn covers(&self, c: &SimpleCommand) -> bool {
        self.command.as_ref().is_some_and(|cp| cp.covers(c))
    }
}

/// The kind nested code and SQL is matched as: text with no separators to stop a star.
fn n_kind() -> ActionKind {
    ActionKind::Fetch
}

/// The subject of an action, parsed on first use when it is a shell command.
#[derive(Debug)]
pub struct Subject {
    text: String,
    kind: ActionKind,
    parsed: OnceCell<Option<Arc<ParsedCommand>>>,
    /// Per command of the parsed line, its words as the raising patterns read them.
    words: OnceCell<Vec<CommandWords>>,
}

/// The words of one simple command, split once for every raising pattern.
#[derive(Debug)]
struct CommandWords {
    /// Canonical arguments: positionals and options (clusters split).
    positionals: Vec<String>,
    flags: Vec<String>,
    /// The words as written, joined by spaces.
    written: String,
    /// The words as written after the program: positionals and options.
    written_positionals: Vec<String>,
    written_flags: Vec<String>,
}

impl CommandWords {
    fn of(c: &SimpleCommand) -> CommandWords {
        let (positionals, flags) = split_words(&c.args);
        let written: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let (written_positionals, written_flags) =
            split_words(c.raw_argv.get(1..).unwrap_or_default());
        CommandWords {
            positionals,
            flags,
            written: written.join(" "),
            written_positionals,
            written_flags,
        }
    }
}

impl Subject {
    /// The subject of `action`.
    pub fn new(action: &Action) -> Subject {
        Subject {
            text: action.subject(),
            kind: action.kind(),
            parsed: OnceCell::new(),
            words: OnceCell::new(),
        }
    }

    /// The subject's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The action's kind.
    pub fn kind(&self) -> ActionKind {
        self.kind
    }

    /// The parsed command line (`None` for an action that is not a shell command, or one
    /// longer than [`MAX_PARSED_BYTES`]: then patterns match its text, raising ones anywhere
    /// in it, which never lets more through). The engine's reading of the same line is
    /// reused when this thread just made it ([`riskgate_shell::parse_shared`]).
    pub fn parsed(&self) -> Option<&ParsedCommand> {
        self.parsed
            .get_or_init(|| {
                (self.kind == ActionKind::Command && self.text.len() <= MAX_PARSED_BYTES)
                    .then(|| riskgate_shell::parse_shared(&self.text, None))
            })
            .as_deref()
    }
}

impl Subject {
    /// [`CommandWords`] of every command of [`Subject::parsed`] (none when not parsed).
    fn words(&self) -> &[CommandWords] {
        self.words.get_or_init(|| {
            self.parsed()
                .map(|p| p.commands.iter().map(CommandWords::of).collect())
                .unwrap_or_default()
        })
    }
}

/// Whether a line may be lowered by command patterns at all: fully parsed, with no dynamic
/// program, eval of unknown text, download or decoded payload run by a shell.
fn lowerable(parsed: &ParsedCommand) -> bool {
    parsed.fully_parsed
        && parsed.signals.is_empty()
        && !parsed.commands.is_empty()
        && parsed.commands.iter().all(|c| !c.program_dynamic)
}

/// The commands of a line an override must cover: all but the neutral ones (all of them
/// when every one is neutral).
fn to_cover(parsed: &ParsedCommand) -> Vec<&SimpleCommand> {
    let busy: Vec<&SimpleCommand> = parsed.commands.iter().filter(|c| !neutral(c)).collect();
    if busy.is_empty() {
        parsed.commands.iter().collect()
    } else {
        busy
    }
}

fn neutral(c: &SimpleCommand) -> bool {
    NEUTRAL_COMMANDS.contains(&c.program.as_str())
        && !c.program_dynamic
        && c.redirects.is_empty()
        && c.assignments.is_empty()
        && c.wrappers.is_empty()
        && !c.privileged
        && c.remote.is_none()
}

/// The level the overrides give a line, and the overrides that decided it: for a shell
/// command, every command of the line (but the neutral ones) covered by the highest-layer
/// override that covers it, the level the highest of theirs; a text override covers the line
/// when it matches the whole of it. `None` when some command is not covered. `overrides` are
/// lowest layer first.
pub fn covering_levels<'a, T>(
    overrides: &'a [T],
    pattern: impl Fn(&T) -> &PolicyPattern,
    subject: &Subject,
) -> Option<Vec<&'a T>> {
    let Some(parsed) = subject.parsed() else {
        return overrides
            .iter()
            .rev()
            .find(|o| pattern(*o).matches(subject))
            .map(|o| vec![o]);
    };
    // text overrides that match the whole line cover all of it
    let whole = overrides
        .iter()
        .rposition(|o| !pattern(o).is_command() && pattern(o).matches(subject));
    let can_lower = lowerable(parsed);
    let mut used: Vec<usize> = Vec::new();
    for c in to_cover(parsed) {
        let by_command = if can_lower {
            overrides.iter().rposition(|o| pattern(o).covers(c))
        } else {
            None
        };
        let chosen = match (by_command, whole) {
            (Some(a), Some(b)) => a.max(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => return None,
        };
        if !used.contains(&chosen) {
            used.push(chosen);
        }
    }
    if used.is_empty() {
        return whole.and_then(|i| overrides.get(i)).map(|o| vec![o]);
    }
    used.sort_unstable();
    Some(used.iter().filter_map(|&i| overrides.get(i)).collect())
}

impl CommandPattern {
    /// The pattern as a command, when `text` (normalized) is exactly one simple command with
    /// a literal program, no redirection, and no wrapper but sudo-like ones.
    fn parse(text: &str) -> Option<CommandPattern> {
        if text.is_empty() {
            return None;
        }
        let parsed = riskgate_shell::parse(text);
        if !parsed.fully_parsed || !parsed.signals.is_empty() || !parsed.nested.is_empty() {
            return None;
        }
        let [c] = parsed.commands.as_slice() else {
            return None;
        };
        // one word (`curl`, `.env`, `--force`) stays a text pattern: it may be any part of a
        // command, as before
        if c.raw_argv.len() < 2
            || c.program.is_empty()
            || c.program_dynamic
            || c.origin != riskgate_shell::Origin::Script
            || !c.redirects.is_empty()
            || c.remote.is_some()
            || c.stdin.is_some()
            || c.wrappers
                .iter()
                .any(|w| !PRIVILEGE_WRAPPERS.contains(&w.name.as_str()))
        {
            return None;
        }
        let (mut positionals, flags) = split_words(&c.args);
        let last_written = c
            .raw_argv
            .get(1..)
            .and_then(|rest| rest.last())
            .map(|w| w.text.as_str());
        let open = last_written.is_some_and(|w| w.starts_with('-') || w.ends_with('*'));
        // a last `*` word stands for "whatever follows", possibly nothing
        if positionals.last().is_some_and(|p| p == "*") && last_written == Some("*") {
            positionals.pop();
        }
        let words: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
        Some(CommandPattern {
            program: c.program.clone(),
            privileged: c.privileged,
            assignments: c
                .assignments
                .iter()
                .map(|(k, v)| (k.clone(), v.text.clone()))
                .collect(),
            positionals,
            flags,
            open,
            prefix: Pattern::new(&words.join(" "), MatchMode::Prefix),
        })
    }

    fn raises(&self, c: &SimpleCommand, words: &CommandWords) -> bool {
        if self.privileged && !c.privileged {
            return false;
        }
        let (positionals, flags) = (&words.positionals, &words.flags);
        // a program only known at run time may be the pattern's: its words are read as the
        // pattern's program would read them (`$GIT push -f` has `--force`)
        if c.program_dynamic && self.within_as_ours(c) {
            return true;
        }
        if glob_eq(&self.program, &c.program, true) && self.within(positionals, flags) {
            return true;
        }
        if self.prefix.matches(&words.written, ActionKind::Command) {
            return true;
        }
        // a pattern written from the subcommand on (`push --force` for `git push -f`), as a
        // text pattern matched it: against the canonical words, and as written; the words of
        // a program that only prints or searches text are data
        if TEXT_PROGRAMS.contains(&c.program.as_str()) {
            return false;
        }
        let (wpos, wflags) = (&words.written_positionals, &words.written_flags);
        [(positionals, flags), (wpos, wflags)]
            .iter()
            .any(|(pos, fl)| {
                pos.split_first().is_some_and(|(sub, rest)| {
                    glob_eq(&self.program, sub, true) && self.within(rest, fl.as_slice())
                })
            })
    }

    /// Whether `c`'s words, given to the pattern's program, are within the pattern.
    fn within_as_ours(&self, c: &SimpleCommand) -> bool {
        let mut line = crate::decide::shell_quote(&self.program);
        for w in c.raw_argv.iter().skip(1) {
            line.push(' ');
            line.push_str(&crate::decide::shell_quote(&w.text));
        }
        let parsed = riskgate_shell::parse(&line);
        parsed.commands.first().is_some_and(|first| {
            let (positionals, flags) = split_words(&first.args);
            self.within(&positionals, &flags)
        })
    }

    /// Every option of the pattern among `flags`, its other words in order among
    /// `positionals` (ignoring case).
    fn within(&self, positionals: &[String], flags: &[String]) -> bool {
        self.flags
            .iter()
            .all(|pf| flags.iter().any(|f| flag_eq(pf, f, true)))
            && subsequence(&self.positionals, positionals)
    }

    fn covers(&self, c: &SimpleCommand) -> bool {
        if c.program_dynamic || c.remote.is_some() || (c.privileged && !self.privileged) {
            return false;
        }
        if !glob_eq(&self.program, &c.program, false) {
            return false;
        }
        let wrappers_ok = c.wrappers.iter().all(|w| {
            let name = w.name.as_str();
            NEUTRAL_WRAPPERS.contains(&name)
                || (self.privileged && PRIVILEGE_WRAPPERS.contains(&name))
        });
        if !wrappers_ok || !c.redirects.iter().all(harmless_redirect) {
            return false;
        }
        let assignments_ok = c.assignments.iter().all(|(k, v)| {
            self.assignments
                .iter()
                .any(|(pk, pv)| pk == k && glob_eq(pv, &v.text, false))
        });
        if !assignments_ok {
            return false;
        }
        let (positionals, flags) = split_words(&c.args);
        if !self
            .flags
            .iter()
            .all(|pf| flags.iter().any(|f| flag_eq(pf, f, false)))
        {
            return false;
        }
        if positionals.len() < self.positionals.len()
            || !self
                .positionals
                .iter()
                .zip(&positionals)
                .all(|(p, w)| glob_eq(p, w, false))
        {
            return false;
        }
        self.open
            || (positionals.len() == self.positionals.len()
                && flags
                    .iter()
                    .all(|f| self.flags.iter().any(|pf| flag_eq(pf, f, false))))
    }
}

/// A redirection that writes nothing: to or from `/dev/null`, or between descriptors
/// (`2>&1`, `>&2`).
fn harmless_redirect(r: &riskgate_shell::Redirect) -> bool {
    let target = r.target.text.as_str();
    if r.target.dynamic || r.op.starts_with("<<") {
        return false;
    }
    target == "/dev/null"
        || (r.op.ends_with('&')
            && !target.is_empty()
            && (target == "-" || target.chars().all(|c| c.is_ascii_digit())))
}

/// Canonical words split into positionals (in order) and options (short clusters such as
/// `-rf` split into `-r`, `-f`).
fn split_words(args: &[Word]) -> (Vec<String>, Vec<String>) {
    let mut positionals = Vec::new();
    let mut flags = Vec::new();
    for w in args {
        let t = w.text.as_str();
        if !t.starts_with('-') || t == "-" {
            positionals.push(t.to_string());
        } else if is_cluster(t) {
            flags.extend(t.chars().skip(1).map(|c| format!("-{c}")));
        } else {
            flags.push(t.to_string());
        }
    }
    (positionals, flags)
}

/// `-rf`: one dash and two or more letters.
fn is_cluster(t: &str) -> bool {
    t.len() > 2 && !t.starts_with("--") && t.chars().skip(1).all(|c| c.is_ascii_alphabetic())
}

/// Whether option `pattern` matches option `word`: equal (with `*` globs), or `word` is the
/// same option with a value (`--grace-period` matches `--grace-period=0`).
fn flag_eq(pattern: &str, word: &str, ignore_case: bool) -> bool {
    glob_eq(pattern, word, ignore_case)
        || (!pattern.contains('=')
            && word
                .split_once('=')
                .is_some_and(|(name, _)| glob_eq(pattern, name, ignore_case)))
}

/// Whether `pattern` is an ordered subsequence of `words` (each by glob, ignoring case).
fn subsequence(pattern: &[String], words: &[String]) -> bool {
    let mut it = words.iter();
    pattern
        .iter()
        .all(|p| it.by_ref().any(|w| glob_eq(p, w, true)))
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters. Linear
/// backtracking to the last star only: O(len(pattern) × len(text)) at worst.
pub(crate) fn glob_eq(pattern: &str, text: &str, ignore_case: bool) -> bool {
    if pattern.is_ascii() && text.is_ascii() {
        // ASCII folds byte for byte: the same match without collecting characters
        return glob_ascii(pattern.as_bytes(), text.as_bytes(), ignore_case);
    }
    let fold = |s: &str| -> Vec<char> {
        if ignore_case {
            s.chars().flat_map(char::to_lowercase).collect()
        } else {
            s.chars().collect()
        }
    };
    let p = fold(pattern);
    let t = fold(text);
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi).copied() {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(c) if t.get(ti) == Some(&c) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|&c| c == '*'))
}

/// [`glob_eq`] of ASCII text: the same walk over bytes.
fn glob_ascii(p: &[u8], t: &[u8], ignore_case: bool) -> bool {
    let eq = |a: u8, b: u8| {
        if ignore_case {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    };
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while let Some(&tc) = t.get(ti) {
        match p.get(pi).copied() {
            Some(b'*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(c) if eq(c, tc) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|&c| c == b'*'))
}

#[cfg(test)]
mod tests;
