//! The wrappers: ways of running a command that do not change what bash runs, each with the
//! conditions under which that holds ([`Need`]). A wrapper whose condition a command fails is
//! skipped for that command, and the reason is counted and printed by the test.

use super::shape::Shape;

/// A condition a command must meet for a wrapper to keep its meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Need {
    /// A program runner (`sudo`, `nice`, `xargs` …) takes one simple command, not a list, a
    /// pipeline, a compound command or a heredoc.
    Simple,
    /// A program runner execs a program: a shell builtin (`cd`, `set`, `export`, `eval` …)
    /// does not exist under it (`sudo cd /srv`: "command not found").
    NotBuiltin,
    /// `VAR=value cmd`: only `sudo` and `env` take assignments as operands; under `nice`,
    /// `timeout`, `doas`, `xargs` … the first assignment would be taken for the program.
    NoAssign,
    /// `builtin` only runs builtins (`builtin rm` fails).
    Builtin,
    /// A change of directory (`cd /srv &&`, `sudo -D`, `env -C`) keeps the meaning only when
    /// every path is absolute: relative paths then name other files.
    AbsolutePaths,
    /// Text after the command on its own line (`C || true`) ends a heredoc's body wrongly and
    /// is swallowed by a comment; the command must not hold a heredoc nor end with `;`/`&`.
    Appendable,
    /// Text after the command on the same line must not be swallowed by a `# comment`.
    NoComment,
    /// A one-line shell string (`parallel ::: 'C'`): its argument is one line.
    OneLine,
    /// `env -S STRING` splits without quotes, expansions or globs: plain words only.
    PlainWords,
    /// brush-parser, the bash parser riskgate builds on, ends an unquoted `$(…)` at the `)`
    /// of a case pattern (`x=$(case a in a) …;; esac)`), where bash reads on: the line becomes
    /// a syntax error, rated on a best-effort split (MEDIUM or more, never SAFE). Quoted
    /// (`"$(…)"`), in backticks or anywhere else, `case` is followed.
    NoCaseInUnquotedSubst,
    /// `find -exec C \;` substitutes `{}` and ends at `;`/`+`: the command holds neither.
    NoFindMarkers,
}

impl Need {
    pub fn met(self, s: &Shape) -> bool {
        match self {
            Need::Simple => s.simple,
            Need::NotBuiltin => !s.builtin,
            Need::NoAssign => !s.assigns,
            Need::Builtin => s.builtin && s.simple && !s.assigns,
            Need::AbsolutePaths => s.absolute_only,
            Need::Appendable => !s.heredoc && !s.open_end,
            Need::NoComment => !s.comment,
            Need::OneLine => !s.multiline,
            Need::PlainWords => s.plain_words,
            Need::NoCaseInUnquotedSubst => !s.case_command,
            Need::NoFindMarkers => !s.find_markers,
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Need::Simple => "not one simple command (a list, pipeline, compound or heredoc)",
            Need::NotBuiltin => "a shell builtin does not exist under a program runner",
            Need::NoAssign => "leading VAR=value would be taken for the program",
            Need::Builtin => "`builtin` runs builtins only",
            Need::AbsolutePaths => "relative paths name other files after a change of directory",
            Need::Appendable => "text appended after a heredoc or a trailing ;/& breaks it",
            Need::NoComment => "a # comment would swallow the wrapper's closing words",
            Need::OneLine => "a one-line shell string cannot hold a newline",
            Need::PlainWords => "env -S does not do quotes, expansions or globs",
            Need::NoCaseInUnquotedSubst => {
                "brush-parser cuts an unquoted $(…) at a case pattern's `)`"
            }
            Need::NoFindMarkers => "find -exec would take {} / ; / + as its own",
        }
    }
}

/// How a wrapper builds its text around the command.
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// `PREFIX C`.
    Prefix(&'static str),
    /// `PREFIX 'C'` (single-quoted) then `SUFFIX`.
    Quoted(&'static str, &'static str),
    /// `PREFIX "C"` (double-quoted).
    DoubleQuoted(&'static str, &'static str),
    /// `PREFIX C SUFFIX` (the suffix on the command's last line).
    Around(&'static str, &'static str),
    /// `` PREFIX `C` SUFFIX ``.
    Backticks(&'static str, &'static str),
    /// `PREFIX <<'DELIM'` + newline + C + newline + DELIM.
    Heredoc(&'static str),
}

pub struct Wrapper {
    pub name: &'static str,
    pub form: Form,
    pub needs: &'static [Need],
}

/// Single-quote `s` for bash: `'…'` with every `'` written `'\''`.
pub fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Double-quote `s` for bash: `\`, `"`, `$` and `` ` `` escaped.
pub fn dq(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Inside backticks, `\` and `` ` `` are special: escape both.
fn bq(s: &str) -> String {
    format!("`{}`", s.replace('\\', r"\\").replace('`', r"\`"))
}

impl Wrapper {
    pub fn wrap(&self, cmd: &str) -> String {
        match self.form {
            Form::Prefix(p) => format!("{p} {cmd}"),
            Form::Quoted(p, s) => format!("{p} {}{s}", sq(cmd)),
            Form::DoubleQuoted(p, s) => format!("{p} {}{s}", dq(cmd)),
            Form::Around(p, s) => format!("{p}{cmd}{s}"),
            Form::Backticks(p, s) => format!("{p}{}{s}", bq(cmd)),
            Form::Heredoc(p) => {
                let mut delim = String::from("RG_EOF");
                while cmd.contains(&delim) {
                    delim.push('_');
                }
                format!("{p} <<'{delim}'\n{cmd}\n{delim}")
            }
        }
    }

    /// The first need `shape` fails, if any.
    pub fn unmet(&self, shape: &Shape) -> Option<Need> {
        self.needs.iter().copied().find(|n| !n.met(shape))
    }
}

use Form::*;
use Need::*;

/// A program runner: one simple command, no builtin, no leading assignment.
const RUNNER: &[Need] = &[Simple, NotBuiltin, NoAssign];
/// sudo and env also take leading `VAR=value` operands.
const RUNNER_ASSIGN: &[Need] = &[Simple, NotBuiltin];
const RUNNER_ASSIGN_CHDIR: &[Need] = &[Simple, NotBuiltin, AbsolutePaths];

macro_rules! w {
    ($name:expr, $form:expr, $needs:expr) => {
        Wrapper {
            name: $name,
            form: $form,
            needs: $needs,
        }
    };
}

/// Every wrapper the test applies.
pub static WRAPPERS: &[Wrapper] = &[
    // Privilege: sudo and doas with their options, sudo's own VAR=value operands.
    w!("sudo", Prefix("sudo"), RUNNER_ASSIGN),
    w!("sudo -u root", Prefix("sudo -u root"), RUNNER_ASSIGN),
    w!(
        "sudo -E -H -n --",
        Prefix("sudo -E -H -n --"),
        RUNNER_ASSIGN
    ),
    w!(
        "sudo -u admin -g wheel -C 3 -p PROMPT -T 30",
        Prefix("sudo -u admin -g wheel -C 3 -p 'pw: ' -T 30"),
        RUNNER_ASSIGN
    ),
    w!(
        "sudo --user=root --preserve-env=PATH",
        Prefix("sudo --user=root --preserve-env=PATH"),
        RUNNER_ASSIGN
    ),
    w!("sudo LC_ALL=C", Prefix("sudo LC_ALL=C"), RUNNER_ASSIGN),
    w!("sudo -D /srv", Prefix("sudo -D /srv"), RUNNER_ASSIGN_CHDIR),
    w!("doas", Prefix("doas"), RUNNER),
    w!("doas -u root", Prefix("doas -u root"), RUNNER),
    w!("doas -n --", Prefix("doas -n --"), RUNNER),
    // env with its options.
    w!("env", Prefix("env"), RUNNER_ASSIGN),
    w!(
        "env -i PATH=…",
        Prefix("env -i PATH=/usr/bin:/bin"),
        RUNNER_ASSIGN
    ),
    w!("env -u HOME", Prefix("env -u HOME"), RUNNER_ASSIGN),
    w!(
        "env --unset=HOME -v",
        Prefix("env --unset=HOME -v"),
        RUNNER_ASSIGN
    ),
    w!("env -- X=1", Prefix("env -- X=1"), RUNNER_ASSIGN),
    w!("env -C /srv", Prefix("env -C /srv"), RUNNER_ASSIGN_CHDIR),
    w!(
        "env --chdir=/srv",
        Prefix("env --chdir=/srv"),
        RUNNER_ASSIGN_CHDIR
    ),
    w!(
        "env -S",
        Quoted("env -S", ""),
        &[Simple, NotBuiltin, PlainWords]
    ),
    w!(
        "env --split-string",
        Quoted("env --split-string", ""),
        &[Simple, NotBuiltin, PlainWords]
    ),
    // Builtins that run a command.
    w!("command", Prefix("command"), &[Simple, NoAssign]),
    w!("command -p", Prefix("command -p"), &[Simple, NoAssign]),
    w!("builtin", Prefix("builtin"), &[Builtin]),
    w!("exec", Prefix("exec"), RUNNER),
    w!("time", Prefix("time"), &[]),
    w!("time -p", Prefix("time -p"), &[]),
    // Scheduling and buffering.
    w!("nice", Prefix("nice"), RUNNER),
    w!("nice -n 10", Prefix("nice -n 10"), RUNNER),
    w!("nice -5", Prefix("nice -5"), RUNNER),
    w!("nice --adjustment=5", Prefix("nice --adjustment=5"), RUNNER),
    w!("nohup", Prefix("nohup"), RUNNER),
    w!("timeout 10", Prefix("timeout 10"), RUNNER),
    w!(
        "timeout -s KILL -k 5 30",
        Prefix("timeout -s KILL -k 5 30"),
        RUNNER
    ),
    w!(
        "timeout --preserve-status --foreground 1m",
        Prefix("timeout --preserve-status --foreground 1m"),
        RUNNER
    ),
    w!("stdbuf -oL", Prefix("stdbuf -oL"), RUNNER),
    w!(
        "stdbuf -i0 -o L -e 0",
        Prefix("stdbuf -i0 -o L -e 0"),
        RUNNER
    ),
    w!("stdbuf --output=L", Prefix("stdbuf --output=L"), RUNNER),
    w!("ionice -c 3", Prefix("ionice -c 3"), RUNNER),
    w!("ionice -c2 -n7", Prefix("ionice -c2 -n7"), RUNNER),
    w!("ionice -t -c 3", Prefix("ionice -t -c 3"), RUNNER),
    w!("chrt -i 0", Prefix("chrt -i 0"), RUNNER),
    w!("chrt -f 10", Prefix("chrt -f 10"), RUNNER),
    w!("chrt --idle 0", Prefix("chrt --idle 0"), RUNNER),
    w!("setsid", Prefix("setsid"), RUNNER),
    w!("setsid -f", Prefix("setsid -f"), RUNNER),
    w!("setsid -w", Prefix("setsid -w"), RUNNER),
    w!("flock /tmp/rg.lock", Prefix("flock /tmp/rg.lock"), RUNNER),
    // xargs with empty input runs the command once (no -r, no -I); `-a` keeps stdin.
    w!("xargs -a /dev/null", Prefix("xargs -a /dev/null"), RUNNER),
    w!(
        "xargs -0 -a /dev/null",
        Prefix("xargs -0 -a /dev/null"),
        RUNNER
    ),
    w!(
        "xargs -a /dev/null -n 1 -P 4",
        Prefix("xargs -a /dev/null -n 1 -P 4"),
        RUNNER
    ),
    w!(
        "xargs -a /dev/null -L 1 -s 4096 -t -x",
        Prefix("xargs -a /dev/null -L 1 -s 4096 -t -x"),
        RUNNER
    ),
    w!(
        "xargs -a /dev/null -d '\\n' -E END",
        Prefix("xargs -a /dev/null -d '\\n' -E END"),
        RUNNER
    ),
    w!(
        "find / -maxdepth 0 -exec C \\;",
        Around("find / -maxdepth 0 -exec ", " \\;"),
        &[Simple, NotBuiltin, NoAssign, NoFindMarkers, NoComment]
    ),
    // parallel runs each argument after ::: as a shell command line.
    w!("parallel ::: 'C'", Quoted("parallel :::", ""), &[OneLine]),
    w!(
        "parallel -j 2 --halt now,fail=1 ::: 'C'",
        Quoted("parallel -j 2 --halt now,fail=1 :::", ""),
        &[OneLine]
    ),
    // Shells given the command as a string.
    w!("bash -c", Quoted("bash -c", ""), &[]),
    w!("sh -c", Quoted("sh -c", ""), &[]),
    w!("bash -lc", Quoted("bash -lc", ""), &[]),
    w!(
        "/bin/bash --norc -c",
        Quoted("/bin/bash --norc -c", ""),
        &[]
    ),
    w!("sh -c 'C' sh", Quoted("sh -c", " sh"), &[]),
    w!("sudo bash -c", Quoted("sudo bash -c", ""), &[]),
    w!("sudo -u root sh -c", Quoted("sudo -u root sh -c", ""), &[]),
    w!(
        "nohup sh -c … &",
        Quoted("nohup sh -c", " >/dev/null 2>&1 &"),
        &[]
    ),
    w!("eval '…'", Quoted("eval", ""), &[]),
    w!("eval \"…\"", DoubleQuoted("eval", ""), &[]),
    // Substitutions.
    w!("echo \"$(…)\"", Around("echo \"$(\n", "\n)\""), &[]),
    w!("x=$(…)", Around("x=$(\n", "\n)"), &[NoCaseInUnquotedSubst]),
    w!(": $(…)", Around(": $(\n", "\n)"), &[NoCaseInUnquotedSubst]),
    w!("echo `…`", Backticks("echo ", ""), &[]),
    // Subshells, groups, compound commands, functions.
    w!("( … )", Around("(\n", "\n)"), &[]),
    w!("{ …; }", Around("{\n", "\n}"), &[]),
    w!("{ …; } &", Around("{\n", "\n} &"), &[]),
    w!("if true; then", Around("if true; then\n", "\nfi"), &[]),
    w!(
        "if ! false; then … else",
        Around("if ! false; then\n", "\nelse :\nfi"),
        &[]
    ),
    w!(
        "while true; do … break",
        Around("while true; do\n", "\nbreak\ndone"),
        &[]
    ),
    w!(
        "until false; do … break",
        Around("until false; do\n", "\nbreak\ndone"),
        &[]
    ),
    w!("for i in 1", Around("for i in 1; do\n", "\ndone"), &[]),
    w!(
        "for ((…))",
        Around("for ((i = 0; i < 1; i++)); do\n", "\ndone"),
        &[]
    ),
    w!("case", Around("case x in\nx)\n", "\n;;\nesac"), &[]),
    w!("f() { … }; f", Around("f() {\n", "\n}\nf"), &[]),
    w!(
        "function g { … }; g",
        Around("function g {\n", "\n}\ng"),
        &[]
    ),
    // Chains.
    w!("true &&", Prefix("true &&"), &[]),
    w!("false ||", Prefix("false ||"), &[]),
    w!("true;", Prefix("true;"), &[]),
    w!("echo start;", Prefix("echo start;"), &[]),
    w!("… || true", Around("", " || true"), &[Appendable]),
    w!("…; echo done", Around("", "; echo done"), &[Appendable]),
    // Another directory first: only before absolute paths.
    w!("cd /srv &&", Prefix("cd /srv &&"), &[AbsolutePaths]),
    w!("cd /tmp;", Prefix("cd /tmp;"), &[AbsolutePaths]),
    w!(
        "pushd /opt >/dev/null &&",
        Prefix("pushd /opt >/dev/null &&"),
        &[AbsolutePaths]
    ),
    // The command as a script on stdin or from a file descriptor.
    w!("sh <<'EOF'", Heredoc("sh"), &[]),
    w!("bash -s <<'EOF'", Heredoc("bash -s"), &[]),
    w!("printf … | bash", Quoted("printf '%s\\n'", " | bash"), &[]),
    w!(
        "source <(printf …)",
        Quoted("source <(printf '%s\\n'", ")"),
        &[]
    ),
    w!(". <(printf …)", Quoted(". <(printf '%s\\n'", ")"), &[]),
];
