//! Matching one rule against one simple command (structured rules) or one text (pattern rules).
//!
//! A [`CommandView`] is computed once per simple command (positionals, flags, write redirect
//! targets, canonical form) and shared by every candidate rule.

use std::borrow::Cow;

use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

use crate::predicate::CPred;
use crate::rule::{CommandMatch, Matcher, Rule, Text};

/// One positional argument.
#[derive(Debug, Clone)]
pub(crate) struct Positional<'a> {
    /// The word, with `.`/`..` segments and repeated slashes of a path resolved lexically
    /// (`/tmp/../home` → `/home`, `/./` → `/`).
    pub(crate) text: Cow<'a, str>,
    /// The argument before it is a flag without `=value` (it may be that flag's value).
    pub(crate) after_flag: bool,
}

/// What the matcher needs of one simple command, computed once.
#[derive(Debug)]
pub(crate) struct CommandView<'a> {
    pub(crate) index: usize,
    pub(crate) cmd: &'a SimpleCommand,
    pub(crate) flags: Vec<&'a str>,
    pub(crate) positionals: Vec<Positional<'a>>,
    pub(crate) write_targets: Vec<&'a str>,
    /// `--help` before any `--`: the command only prints help.
    pub(crate) help: bool,
    pub(crate) canonical: String,
    /// Program of the command that pipes into this one's stdin.
    pub(crate) stdin_program: Option<&'a str>,
    /// Its output is piped into a program that consumes it (`… | docker login
    /// --password-stdin`), not one that passes it on to the terminal (`cat`, `base64`, `tee` …).
    pub(crate) stdout_consumed: bool,
    /// It downloads a file that a later command checks against a hash written in the script.
    pub(crate) download_verified: bool,
}

/// Options whose value is a file the program reads as its input.
const INPUT_FILE_FLAGS: &[&str] = &[
    "-in",
    "--in",
    "-infile",
    "--infile",
    "--input",
    "--input-file",
];

/// Run by `xargs -a FILE` / `--arg-file=FILE`: its words come from a file.
fn reads_arg_file(cmd: &SimpleCommand) -> bool {
    cmd.wrappers.iter().any(|w| {
        w.name == "xargs"
            && w.args.iter().any(|a| {
                a == "-a"
                    || a == "--arg-file"
                    || a.starts_with("--arg-file=")
                    || (a.starts_with("-a") && a.len() > 2)
            })
    })
}

impl<'a> CommandView<'a> {
    pub(crate) fn new(parsed: &'a ParsedCommand, index: usize, cmd: &'a SimpleCommand) -> Self {
        let mut flags = Vec::new();
        let mut positionals = Vec::new();
        let mut after_dashdash = false;
        let mut prev_flag = false;
        let pattern = search_pattern_index(cmd);
        for (i, a) in cmd.args.iter().enumerate() {
            let t = a.text.as_str();
            // a search program's pattern is text to look for, not a file it reads
            if Some(i) == pattern {
                prev_flag = false;
                continue;
            }
            if after_dashdash {
                positionals.push(Positional {
                    text: normalize_path(t),
                    after_flag: false,
                });
                continue;
            }
            if t == "--" {
                after_dashdash = true;
                prev_flag = false;
            } else if t.len() > 1 && t.starts_with('-') {
                flags.push(t);
                // `openssl base64 -in FILE`: an input-file option's value is read like a
                // positional, not merely used.
                prev_flag = !t.contains('=') && !INPUT_FILE_FLAGS.contains(&t);
            } else {
                positionals.push(Positional {
                    text: normalize_path(t),
                    after_flag: prev_flag,
                });
                prev_flag = false;
            }
        }
        let write_targets = cmd
            .redirects
            .iter()
            .filter(|r| is_write_redirect(&r.op, &r.target.text))
            .map(|r| r.target.text.as_str())
            .collect();
        let stdin_program = match &cmd.stdin {
            Some(StdinSource::Pipe { index }) => {
                parsed.commands.get(*index).map(|c| c.program.as_str())
            }
            // a file a shell reads its script from (`ssh h 'bash -s' < step.sh`) is a script
            // run, whose commands are read on their own, not data sent
            Some(StdinSource::File { .. }) if riskgate_shell::runs_stdin_as_script(cmd) => None,
            // a file read as input (`xargs rm -rf < list`) feeds what `cat list |` would
            Some(StdinSource::File { path }) if path != "/dev/null" => Some("cat"),
            _ => None,
        }
        .or_else(|| reads_arg_file(cmd).then_some("cat"));
        let stdout_consumed = parsed.commands.iter().any(|d| {
            matches!(&d.stdin, Some(StdinSource::Pipe { index: i }) if *i == index)
                && !matches!(
                    d.program.as_str(),
                    "cat"
                        | "tee"
                        | "base64"
                        | "xxd"
                        | "od"
                        | "hexdump"
                        | "head"
                        | "tail"
                        | "tr"
                        | "sed"
                        | "awk"
                        | "rev"
                        | "fold"
                        | "cut"
                        | "sort"
                        | "less"
                        | "more"
                )
        });
        CommandView {
            index,
            cmd,
            stdout_consumed,
            download_verified: crate::flow::download_verified(parsed, index),
            help: flags.contains(&"--help"),
            flags,
            positionals,
            write_targets,
            canonical: cmd.canonical(),
            stdin_program,
        }
    }

    /// True when a flag spec is present (`--force` also matches `--force=…`; `*` is a wildcard).
    pub(crate) fn has_flag(&self, spec: &str) -> bool {
        self.flags.iter().any(|f| flag_matches(spec, f))
    }
}

/// Search programs whose first operand is the pattern, with their options that take a value.
const SEARCH_PROGRAMS: &[(&str, &[&str])] = &[
    ("grep", GREP_VALUE_FLAGS),
    ("egrep", GREP_VALUE_FLAGS),
    ("fgrep", GREP_VALUE_FLAGS),
    ("zgrep", GREP_VALUE_FLAGS),
    (
        "rg",
        &[
            "-A",
            "-B",
            "-C",
            "-m",
            "-M",
            "-j",
            "-g",
            "-t",
            "-T",
            "-E",
            "--glob",
            "--iglob",
            "--type",
            "--type-not",
            "--max-depth",
            "--max-count",
            "--context",
            "--encoding",
        ],
    ),
    ("ag", &["-A", "-B", "-C", "-m", "-G", "--ignore", "--depth"]),
    ("ack", &["-A", "-B", "-C", "-m", "--type", "--ignore-dir"]),
];
const GREP_VALUE_FLAGS: &[&str] = &[
    "-A",
    "-B",
    "-C",
    "-m",
    "-d",
    "-D",
    "--max-count",
    "--context",
    "--after-context",
    "--before-context",
    "--include",
    "--exclude",
    "--exclude-dir",
    "--label",
    "--directories",
    "--devices",
    "--binary-files",
    "--color",
    "--colour",
];

/// The index (in `cmd.args`) of a search program's pattern operand: the first operand when the
/// pattern is not given by `-e`/`-f`/`--regexp`/`--file` (`grep -rn 'process.env' src/`).
pub(crate) fn search_pattern_index(cmd: &SimpleCommand) -> Option<usize> {
    let (_, value_flags) = SEARCH_PROGRAMS.iter().find(|(p, _)| *p == cmd.program)?;
    let by_option = |t: &str| {
        matches!(t, "-e" | "-f" | "--regexp" | "--file")
            || t.starts_with("--regexp=")
            || t.starts_with("--file=")
            || (t.starts_with("-e") && !t.starts_with("--") && t.len() > 2)
    };
    if cmd.args.iter().any(|a| by_option(&a.text)) {
        return None;
    }
    let mut skip_next = false;
    for (i, a) in cmd.args.iter().enumerate() {
        let t = a.text.as_str();
        if skip_next {
            skip_next = false;
            continue;
        }
        if t == "--" {
            return (i + 1 < cmd.args.len()).then_some(i + 1);
        }
        if t.len() > 1 && t.starts_with('-') {
            skip_next = value_flags.contains(&t);
            continue;
        }
        return Some(i);
    }
    None
}

/// Resolve `.` and `..` segments and repeated slashes of a path-looking word lexically
/// (`/tmp/../home` → `/home`, `//` → `/`, `/usr/../*` → `/*`, `a/./b` → `a/b`). `..` above the
/// root stays at the root; a leading `..` of a relative path and `~/..` are kept. URLs are
/// left alone.
pub(crate) fn normalize_path(word: &str) -> Cow<'_, str> {
    let needs = word.contains("//")
        || word.contains("/./")
        || word.contains("/../")
        || word.ends_with("/.")
        || word.ends_with("/..");
    // URLs, and Windows device paths (`//./PhysicalDrive0`, `//?/Volume{…}`), stay as written.
    if !needs || word.contains("://") || word.starts_with("//./") || word.starts_with("//?/") {
        return Cow::Borrowed(word);
    }
    let absolute = word.starts_with('/');
    let trailing = word.ends_with('/') && word.len() > 1;
    let mut parts: Vec<&str> = Vec::new();
    for seg in word.split('/') {
        match seg {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." && last != "~" => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            s => parts.push(s),
        }
    }
    let mut out = String::with_capacity(word.len());
    if absolute {
        out.push('/');
    }
    out.push_str(&parts.join("/"));
    if trailing && !out.ends_with('/') {
        out.push('/');
    }
    if out.is_empty() {
        out.push('.');
    }
    Cow::Owned(out)
}

/// Whether a redirection writes to a file (`>`, `>>`, `>|`, `&>`, `2>` …; not `2>&1`).
fn is_write_redirect(op: &str, target: &str) -> bool {
    if !op.contains('>') {
        return false;
    }
    if op.ends_with('&') || op == ">&" {
        return !(target == "-" || target.bytes().all(|b| b.is_ascii_digit()));
    }
    true
}

/// `--force` matches `--force` and `--force=x`; a spec with `*` is a wildcard pattern.
pub(crate) fn flag_matches(spec: &str, flag: &str) -> bool {
    if spec.contains('*') {
        return wildcard(spec.as_bytes(), flag.as_bytes());
    }
    flag == spec
        || (spec.starts_with("--")
            && !spec.contains('=')
            && flag
                .strip_prefix(spec)
                .and_then(|r| r.strip_prefix('='))
                .is_some_and(|v| !turns_off(v)))
}

/// A value that switches a flag off (`--dry-run=none`, `--force=false`): the flag so set is
/// not the flag.
fn turns_off(value: &str) -> bool {
    matches!(
        value
            .trim_matches(['"', '\''])
            .to_ascii_lowercase()
            .as_str(),
        "none" | "false" | "0" | "no" | "off"
    )
}

/// `*`-only wildcard match, linear in practice (greedy with backtrack to the last star).
fn wildcard(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, si));
            pi += 1;
        } else if pi < p.len() && p[pi] == s[si] {
            pi += 1;
            si += 1;
        } else if let Some((sp, ss)) = star {
            pi = sp + 1;
            si = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

/// Match the subcommand words; the index in `positionals` after them.
fn match_subcommand(words: &[Text], positionals: &[Positional<'_>]) -> Option<usize> {
    let mut i = 0usize;
    for w in words {
        loop {
            let p = positionals.get(i)?;
            if w.split('|').any(|alt| alt == p.text.as_ref()) {
                i += 1;
                break;
            }
            // A flag's value may sit between the program and its subcommand
            // (`git -C dir push`, `kubectl -n prod delete`): skip it.
            if p.after_flag {
                i += 1;
                continue;
            }
            return None;
        }
    }
    Some(i)
}

/// Whether a structured condition holds for a command.
pub(crate) fn command_matches(rule: &Rule, m: &CommandMatch, view: &CommandView<'_>) -> bool {
    let cmd = view.cmd;
    if view.help {
        return false;
    }
    if !m.program.is_empty() && !m.program.iter().any(|p| p.as_ref() == cmd.program) {
        return false;
    }
    if let Some(p) = m.privileged
        && p != cmd.privileged
    {
        return false;
    }
    if let Some(r) = m.remote
        && r != cmd.remote.is_some()
    {
        return false;
    }
    if !m.stdin.is_empty() {
        let kind = match &cmd.stdin {
            None => "terminal",
            Some(StdinSource::File { path })
                if matches!(path.as_str(), "/dev/tty" | "/dev/stdin" | "/dev/fd/0") =>
            {
                "terminal"
            }
            Some(StdinSource::File { .. }) => "file",
            Some(StdinSource::Heredoc) => "heredoc",
            Some(StdinSource::Pipe { .. }) => "pipe",
        };
        if !m.stdin.iter().any(|k| k.as_ref() == kind) {
            return false;
        }
    }
    if !m.stdin_from.is_empty()
        && !view
            .stdin_program
            .is_some_and(|sp| m.stdin_from.iter().any(|p| p.as_ref() == sp))
    {
        return false;
    }
    if !m.flags_all.iter().all(|f| view.has_flag(f)) {
        return false;
    }
    if !m.flags_any.is_empty() && !m.flags_any.iter().any(|f| view.has_flag(f)) {
        return false;
    }
    if m.flags_none.iter().any(|f| view.has_flag(f)) {
        return false;
    }
    let Some(start) = match_subcommand(&m.subcommand, &view.positionals) else {
        return false;
    };
    let rest = view.positionals.get(start..).unwrap_or(&[]);
    if m.args_any.is_empty()
        && m.args_all.is_empty()
        && m.args_none.is_empty()
        && m.args_first.is_empty()
        && m.args_last.is_empty()
        && m.redirect_to.is_empty()
    {
        return true;
    }
    // Conditions that cannot hold without compiling anything: most commands have no write
    // redirection, many no arguments left after the subcommand.
    if !m.redirect_to.is_empty() && view.write_targets.is_empty() {
        return false;
    }
    let needs_args = !m.args_any.is_empty()
        || !m.args_all.is_empty()
        || !m.args_first.is_empty()
        || !m.args_last.is_empty();
    if needs_args && rest.is_empty() {
        return false;
    }
    let c = rule.compiled();
    let any = |preds: &[CPred], w: &str| preds.iter().any(|p| p.matches(w));
    let kept: Vec<&str> = rest
        .iter()
        .map(|p| p.text.as_ref())
        .filter(|t| !any(&c.args_except, t))
        .collect();
    if !c.args_any.is_empty() && !kept.iter().any(|t| any(&c.args_any, t)) {
        return false;
    }
    if !c.args_all.is_empty() && (kept.is_empty() || !kept.iter().all(|t| any(&c.args_all, t))) {
        return false;
    }
    if !c.args_none.is_empty() && kept.iter().any(|t| any(&c.args_none, t)) {
        return false;
    }
    if !c.args_first.is_empty() && !rest.first().is_some_and(|p| any(&c.args_first, &p.text)) {
        return false;
    }
    if !c.args_last.is_empty() && !rest.last().is_some_and(|p| any(&c.args_last, &p.text)) {
        return false;
    }
    if !c.redirect_to.is_empty() && !view.write_targets.iter().any(|t| any(&c.redirect_to, t)) {
        return false;
    }
    true
}

/// What a rule matched.
#[derive(Debug, Clone)]
pub(crate) enum Hit {
    /// A structured rule or a canonical pattern on the command at this view index.
    Command(usize),
    /// A raw pattern, span in the source.
    Raw((usize, usize)),
    /// A raw pattern in one of the nested shell texts ([`ParsedCommand::scripts`]): its
    /// index and the span in it.
    Script(usize, (usize, usize)),
}

/// Evaluate a rule of any kind against one command view (raw patterns are not evaluated here).
pub(crate) fn rule_matches_command(rule: &Rule, view: &CommandView<'_>) -> Option<Hit> {
    if prints_only(rule) && (stdout_to_file(view.cmd) || view.stdout_consumed) {
        return None;
    }
    if unverified_only(rule) && view.download_verified {
        return None;
    }
    match &rule.matcher {
        Matcher::Command(m) => command_matches(rule, m, view).then_some(Hit::Command(view.index)),
        Matcher::Pattern(p) if p.on == crate::rule::Target::Canonical => {
            if view.help {
                return None;
            }
            let pat = rule.compiled().pattern.as_ref()?;
            pat.find(&view.canonical).map(|_| Hit::Command(view.index))
        }
        Matcher::Pattern(_) => None,
    }
}

/// Evaluate a raw pattern rule against the source text.
pub(crate) fn rule_matches_raw(rule: &Rule, source: &str) -> Option<Hit> {
    match &rule.matcher {
        Matcher::Pattern(p) if p.on == crate::rule::Target::Raw => {
            let pat = rule.compiled().pattern.as_ref()?;
            pat.find(source).map(Hit::Raw)
        }
        _ => None,
    }
}

/// Whether `rule` triggers anywhere in `parsed` (for example tests).
pub(crate) fn rule_triggers(rule: &Rule, parsed: &ParsedCommand) -> bool {
    if rule_matches_raw(rule, &parsed.source).is_some()
        || parsed
            .scripts
            .iter()
            .any(|s| rule_matches_raw(rule, s).is_some())
    {
        return true;
    }
    parsed
        .commands
        .iter()
        .enumerate()
        .any(|(i, c)| rule_matches_command(rule, &CommandView::new(parsed, i, c)).is_some())
}

/// A rule tagged `terminal-output` is about what a command prints (a secret reaching the
/// terminal, a transcript or a CI log): it does not fire when the command's output goes to a
/// file instead (`echo "…$TOKEN" > ~/.npmrc`; what that write does is rated by its effect), or
/// into a program that consumes it (`echo "$PASS" | docker login --password-stdin`).
fn prints_only(r: &Rule) -> bool {
    r.tags().iter().any(|t| t == "terminal-output")
}

/// A rule tagged `unverified-download` is about a download nobody checked: it does not fire
/// when a later command checks the downloaded file against a hash written in the script
/// (`echo "<sha256>  FILE" | sha256sum -c -`, see `flow::verify`).
fn unverified_only(r: &Rule) -> bool {
    r.tags().iter().any(|t| t == "unverified-download")
}

/// Whether `c`'s standard output is redirected to a file (not a `/dev/` device).
fn stdout_to_file(c: &riskgate_shell::SimpleCommand) -> bool {
    c.redirects.iter().any(|r| {
        matches!(
            r.op.as_str(),
            ">" | ">>" | ">|" | "1>" | "1>>" | "&>" | "&>>"
        ) && !r.target.text.starts_with("/dev/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_wildcards() {
        assert!(flag_matches("--force", "--force"));
        assert!(flag_matches("--force", "--force=yes"));
        assert!(!flag_matches("--force", "--force-with-lease"));
        assert!(flag_matches(
            "--force-with-lease*",
            "--force-with-lease=main"
        ));
        assert!(flag_matches("--prune=now", "--prune=now"));
        assert!(!flag_matches("--prune=now", "--prune=2.weeks"));
        assert!(wildcard(b"a*b*c", b"axxbyyc") && !wildcard(b"a*b", b"axxc"));
    }

    #[test]
    fn paths_are_resolved_lexically() {
        for (w, n) in [
            ("/tmp/../home", "/home"),
            ("//", "/"),
            ("/./", "/"),
            ("/usr/../*", "/*"),
            ("/../..", "/"),
            ("a/./b", "a/b"),
            ("src/../..", ".."),
            ("~/../x", "~/../x"),
            ("node_modules", "node_modules"),
            ("https://x.example//a", "https://x.example//a"),
        ] {
            assert_eq!(normalize_path(w), n, "{w}");
        }
    }

    #[test]
    fn redirect_kinds() {
        assert!(is_write_redirect(">", "/etc/passwd"));
        assert!(is_write_redirect("&>", "log"));
        assert!(!is_write_redirect(">&", "1"));
        assert!(!is_write_redirect("2>&", "1"));
        assert!(!is_write_redirect("<", "in"));
    }

    #[test]
    fn subcommand_skips_flag_values() {
        let pos = |v: &[(&'static str, bool)]| -> Vec<Positional<'static>> {
            v.iter()
                .map(|&(text, after_flag)| Positional {
                    text: Cow::Borrowed(text),
                    after_flag,
                })
                .collect()
        };
        let words: Vec<Text> = vec!["push".into()];
        assert_eq!(
            match_subcommand(&words, &pos(&[("/repo", true), ("push", false)])),
            Some(2)
        );
        assert_eq!(
            match_subcommand(&words, &pos(&[("commit", false), ("push", false)])),
            None
        );
        let words: Vec<Text> = vec!["stash".into(), "drop|clear".into()];
        assert_eq!(
            match_subcommand(&words, &pos(&[("stash", false), ("clear", false)])),
            Some(2)
        );
    }
}
