//! `expect` scripts followed as expect runs them: `spawn`, `exec` and `system` run commands
//! here; `send` types into what was spawned. Sent text is a command line when the spawned
//! program is a shell (`bash`, `su`, `sudo -i`, `ssh HOST` without a command — then it runs on
//! that host —, `docker exec -it C sh`), code or SQL when it is an interpreter or a database
//! client, and mere input otherwise (`spawn npm login; send "bot\r"`); an answer to a password
//! prompt is never a command. Tcl's `;` separators, quotes, braces (`expect { … }` bodies,
//! `if`, `while`, `proc`), `set NAME VALUE` and `$NAME` are read; other Tcl substitutions stay
//! unknown words.
//!
//! Bounded: the script is read once per nesting level, at most [`MAX_DEPTH`] brace levels and
//! [`MAX_VARS`] variables.

use std::collections::HashMap;

use crate::canon::program_name;
use crate::ctx::{Frame, Norm};
use crate::{NestedInput, NestedLanguage, SimpleCommand, Wrapper, interp, unwrap};

/// Deepest brace nesting followed.
const MAX_DEPTH: usize = 8;
/// Most Tcl variables remembered.
const MAX_VARS: usize = 64;
/// Longest text one session collects.
const MAX_SESSION_BYTES: usize = 64 * 1024;

/// What `send` types into.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// A shell: on `remote` when set, privileged when `root`.
    Shell { remote: Option<String>, root: bool },
    /// An interpreter or a database client.
    Lang(NestedLanguage, String),
    /// Anything else: sent text is input.
    Input,
}

/// One Tcl word: its text (quotes and escapes removed) and whether it was a `{…}` body.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TclWord {
    text: String,
    braced: bool,
}

/// Split a Tcl script into commands (at `;` and newlines outside quotes, braces and brackets).
fn tcl_commands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut bracket, mut quoted, mut esc) = (0usize, 0usize, false, false);
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if esc {
            esc = false;
            continue;
        }
        match c {
            '\\' => esc = true,
            '"' if depth == 0 => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth = depth.saturating_sub(1),
            '[' if !quoted && depth == 0 => bracket += 1,
            ']' if !quoted && depth == 0 => bracket = bracket.saturating_sub(1),
            ';' | '\n' if depth == 0 && bracket == 0 && !quoted => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.retain(|c| {
        let t = c.trim();
        !t.is_empty() && !t.starts_with('#')
    });
    out
}

/// A Tcl variable or command substitution becomes an unknown shell word.
const UNKNOWN: &str = "$EXPECT_VALUE";

/// The words of one Tcl command, with `$NAME` replaced by known values.
fn tcl_words(cmd: &str, vars: &HashMap<String, String>) -> Vec<TclWord> {
    let mut out = Vec::new();
    let mut chars = cmd.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '{' {
            chars.next();
            let mut depth = 1usize;
            let mut text = String::new();
            let mut esc = false;
            for c in chars.by_ref() {
                if esc {
                    text.push(c);
                    esc = false;
                    continue;
                }
                match c {
                    '\\' => {
                        esc = true;
                        text.push(c);
                        continue;
                    }
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                text.push(c);
            }
            out.push(TclWord { text, braced: true });
            continue;
        }
        let quoted = c == '"';
        if quoted {
            chars.next();
        }
        let mut text = String::new();
        while let Some(&c) = chars.peek() {
            if quoted && c == '"' {
                chars.next();
                break;
            }
            if !quoted && c.is_whitespace() {
                break;
            }
            chars.next();
            match c {
                '\\' => match chars.next() {
                    Some('r' | 'n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some(o) => text.push(o),
                    None => {}
                },
                '$' => {
                    let mut name = String::new();
                    if chars.peek() == Some(&'{') {
                        chars.next();
                        for c in chars.by_ref() {
                            if c == '}' {
                                break;
                            }
                            name.push(c);
                        }
                    } else {
                        while let Some(&n) = chars.peek() {
                            if n.is_ascii_alphanumeric() || n == '_' || n == ':' {
                                name.push(n);
                                chars.next();
                            } else {
                                break;
                            }
                        }
                        // `$env(NAME)` is the environment variable, as the shell's `$NAME`
                        // (`$env(HOME)` is the home directory); `$arr(key)` is unknown.
                        if chars.peek() == Some(&'(') {
                            let mut key = String::new();
                            for c in chars.by_ref() {
                                if c == ')' {
                                    break;
                                }
                                key.push(c);
                            }
                            let key = key.trim_start_matches('(');
                            if name == "env"
                                && !key.is_empty()
                                && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                            {
                                text.push('$');
                                text.push_str(key);
                                continue;
                            }
                            name.clear();
                        }
                    }
                    match vars.get(&name) {
                        Some(v) => text.push_str(v),
                        None => text.push_str(UNKNOWN),
                    }
                }
                '[' => {
                    // A command substitution: `[exec CMD]` is the shell's `$(CMD)` (when CMD
                    // is plain words); any other value is unknown.
                    let mut depth = 1usize;
                    let mut inner = String::new();
                    for c in chars.by_ref() {
                        match c {
                            '[' => depth += 1,
                            ']' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        inner.push(c);
                    }
                    if let Some(chan) = socket_channel(&inner).or_else(|| file_read(&inner, vars)) {
                        text.push_str(&chan);
                        continue;
                    }
                    match inner
                        .trim()
                        .strip_prefix("exec ")
                        .filter(|r| !r.contains(['[', ']', '\'', '(', ')', '`', '\\']))
                    {
                        // plain words, variables read as `set` left them (one level: no
                        // substitution nests here)
                        Some(cmd) if !cmd.trim().is_empty() => {
                            let argv: Vec<String> = if cmd.contains('$') {
                                tcl_words(cmd, vars).into_iter().map(|w| w.text).collect()
                            } else {
                                cmd.split_whitespace().map(String::from).collect()
                            };
                            if argv.iter().any(|w| w.contains(UNKNOWN)) {
                                text.push_str(UNKNOWN);
                            } else {
                                text.push_str(&format!("$({})", shell_line(&argv)));
                            }
                        }
                        _ => text.push_str(UNKNOWN),
                    }
                }
                _ => text.push(c),
            }
        }
        out.push(TclWord {
            text,
            braced: false,
        });
    }
    out
}

/// Tcl words as one shell command line (a word with blanks quoted).
/// `socket [-async] HOST PORT`: a connection, written as the shell's `$(nc HOST PORT)` so
/// that what is read from it (`gets $s cmd`) is the remote's text and what is written to it
/// (`puts $s …`) is sent there.
fn socket_channel(inner: &str) -> Option<String> {
    let words: Vec<&str> = inner.split_whitespace().collect();
    if words.first() != Some(&"socket") || words.contains(&"-server") {
        return None;
    }
    let [host, port] = words.get(words.len().checked_sub(2)?..)? else {
        return None;
    };
    let plain = |w: &str| {
        !w.is_empty()
            && !w.starts_with('-')
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-_:".contains(&b))
    };
    (words.len() >= 3 && plain(host) && plain(port)).then(|| format!("$(nc {host} {port})"))
}

/// The top-level `[…]` command substitutions of a braced condition (`[catch {…} r]` of
/// `{[catch {…} r]}`), at most a few: each is a command of its own.
fn bracket_groups(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'[' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            b']' if depth > 0 => {
                depth -= 1;
                if depth == 0 && out.len() < 8 {
                    out.push(&text[start..i]);
                }
            }
            _ => {}
        }
    }
    out
}

/// `open PATH` (for reading) or `read CHANNEL` of such a channel: the file's content, written
/// as the shell's `$(cat PATH)` (`puts $s [read [open ~/.netrc]]` sends the file).
fn file_read(inner: &str, vars: &HashMap<String, String>) -> Option<String> {
    file_read_at(inner, vars, 0)
}

fn file_read_at(inner: &str, vars: &HashMap<String, String>, depth: usize) -> Option<String> {
    if depth > 4 {
        return None;
    }
    let inner = inner.trim();
    if let Some(rest) = inner.strip_prefix("open ") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let reading = match words.get(1) {
            None => true,
            Some(m) => matches!(*m, "r" | "\"r\"" | "RDONLY" | "{RDONLY}"),
        };
        let path = words.first()?.trim_matches('"');
        let plain = !path.is_empty()
            && !path.contains(['[', ']', '$', '\'', '(', ')', '`', '\\', ';', '|', '&'])
            && !path.starts_with('|');
        return (reading && plain && words.len() <= 2).then(|| format!("$(cat {path})"));
    }
    let chan = inner.strip_prefix("read ")?.trim();
    let chan = chan.strip_prefix("-nonewline ").unwrap_or(chan).trim();
    let value = if let Some(nested) = chan.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
        file_read_at(nested, &HashMap::new(), depth + 1)?
    } else {
        vars.get(chan.strip_prefix('$')?)?.clone()
    };
    value.starts_with("$(cat ").then_some(value)
}

/// The host and port of a channel [`socket_channel`] wrote.
fn channel_peer(chan: &str) -> Option<&str> {
    chan.strip_prefix("$(nc ")?.strip_suffix(')')
}

fn shell_line(argv: &[String]) -> String {
    argv.iter()
        .map(|w| {
            // a command substitution Tcl's `[exec …]` became stays one
            let subst = w.starts_with("$(") && w.ends_with(')') && !w.contains('\'');
            if !subst && (w.is_empty() || w.contains(char::is_whitespace)) {
                format!("'{}'", w.replace('\'', "'\\''"))
            } else {
                w.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether an expect pattern is a prompt for a secret (the answer is not a command).
fn secret_prompt(pattern: &str) -> bool {
    let p = pattern.to_ascii_lowercase();
    [
        "assword",
        "passphrase",
        "pin:",
        "token",
        "secret",
        "otp",
        "verification code",
    ]
    .iter()
    .any(|k| p.contains(k))
}

/// What a spawned argv types into.
fn target_of(words: &[String]) -> Target {
    let Some(first) = words.first() else {
        return Target::Input;
    };
    if first.starts_with('$') {
        // Unknown program: its input may be a shell.
        return Target::Shell {
            remote: None,
            root: false,
        };
    }
    let prog = program_name(first);
    let rest: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
    let operands: Vec<&str> = rest
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    match prog.as_str() {
        p if unwrap::is_shell(p) => {
            if rest.iter().any(|a| a.starts_with('-') && a.contains('c')) || !operands.is_empty() {
                Target::Input
            } else {
                Target::Shell {
                    remote: None,
                    root: false,
                }
            }
        }
        "su" if !rest
            .iter()
            .any(|a| *a == "-c" || a.starts_with("--command")) =>
        {
            Target::Shell {
                remote: None,
                root: operands.first().is_none_or(|u| *u == "root" || *u == "-"),
            }
        }
        "sudo" | "doas" => {
            let shell = rest
                .iter()
                .any(|a| matches!(*a, "-i" | "-s" | "--login" | "--shell"))
                || operands.first().is_some_and(|p| {
                    let p = program_name(p);
                    p == "su" || unwrap::is_shell(&p)
                });
            if shell {
                Target::Shell {
                    remote: None,
                    root: true,
                }
            } else {
                target_of(&words[1..])
            }
        }
        "ssh" | "slogin" | "mosh" => {
            let with_value = [
                "-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-m",
                "-O", "-Q", "-S", "-W", "-w", "-B", "-I",
            ];
            let mut i = 0;
            let mut host = None;
            let mut after = 0;
            while let Some(a) = rest.get(i) {
                if with_value.contains(a) {
                    i += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    host = Some(a.to_string());
                    after = rest.len() - i - 1;
                    break;
                }
                i += 1;
            }
            match host {
                Some(h) if after == 0 => Target::Shell {
                    remote: Some(h),
                    root: false,
                },
                _ => Target::Input,
            }
        }
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc" => {
            let last = words.last().map(|w| program_name(w)).unwrap_or_default();
            if rest
                .first()
                .is_some_and(|s| *s == "exec" || *s == "attach" || *s == "run")
                && unwrap::is_shell(&last)
            {
                Target::Shell {
                    remote: None,
                    root: false,
                }
            } else {
                Target::Input
            }
        }
        p => match interp::language(p) {
            Some(l) => Target::Lang(l, p.to_string()),
            None => Target::Input,
        },
    }
}

/// The state of one expect script being followed.
struct Session {
    target: Target,
    typed: String,
    vars: HashMap<String, String>,
    /// Shell texts to run here (`spawn`, `exec`, `system`) and sessions to run: (text, target).
    runs: Vec<(String, Target)>,
    /// Code and SQL typed into interpreters and clients: (language, program, text).
    code: Vec<(NestedLanguage, String, String)>,
    /// A bound stopped the reading (nesting, typed text): the result is incomplete.
    truncated: bool,
}

impl Session {
    fn flush(&mut self) {
        let typed = std::mem::take(&mut self.typed);
        if typed.trim().is_empty() {
            return;
        }
        match &self.target {
            Target::Shell { .. } => self.runs.push((typed, self.target.clone())),
            Target::Lang(l, p) => self.code.push((*l, p.clone(), typed)),
            Target::Input => {}
        }
    }

    fn script(&mut self, s: &str, depth: usize, secret: bool) {
        if depth > MAX_DEPTH {
            self.truncated = true;
            return;
        }
        for cmd in tcl_commands(s) {
            let words = tcl_words(cmd, &self.vars);
            self.command(&words, depth, secret);
        }
    }

    fn command(&mut self, words: &[TclWord], depth: usize, secret: bool) {
        let Some(first) = words.first() else {
            return;
        };
        // The words after the command's own leading options (`spawn -noecho`, `send --`).
        let operands = |with_value: &[&str]| -> Vec<String> {
            let mut i = 1;
            while let Some(w) = words.get(i) {
                if w.braced || !w.text.starts_with('-') {
                    break;
                }
                i += if with_value.contains(&w.text.as_str()) {
                    2
                } else {
                    1
                };
                if w.text == "--" {
                    break;
                }
            }
            words.iter().skip(i).map(|w| w.text.clone()).collect()
        };
        match first.text.as_str() {
            "spawn" => {
                self.flush();
                let argv = operands(&["-open", "-leaveopen", "-ignore"]);
                self.runs.push((shell_line(&argv), Target::Input));
                self.target = target_of(&argv);
            }
            "exec" | "system" => {
                let argv = operands(&[]);
                self.runs.push((shell_line(&argv), Target::Input));
            }
            // Tcl's own file commands, read as the shell commands that do the same:
            // `file delete -force P` is `rm -rf P`, `file rename A B` is `mv A B`
            "file" => {
                let sub = words.get(1).map(|w| w.text.as_str());
                let rest: Vec<&TclWord> = words.iter().skip(2).collect();
                let force = rest.iter().any(|w| w.text == "-force");
                let paths: Vec<String> = rest
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                    .map(|w| w.text.clone())
                    .collect();
                let program: Option<Vec<String>> = match sub {
                    Some("delete") if force => Some(vec!["rm".into(), "-rf".into()]),
                    Some("delete") => Some(vec!["rm".into(), "-r".into()]),
                    Some("rename") if force => Some(vec!["mv".into(), "-f".into()]),
                    Some("rename") => Some(vec!["mv".into()]),
                    _ => None,
                };
                if let Some(mut argv) = program
                    && !paths.is_empty()
                {
                    argv.extend(paths);
                    self.runs.push((shell_line(&argv), Target::Input));
                }
            }
            "send" | "exp_send" | "send_slow" | "send_human" => {
                if secret {
                    return;
                }
                if let Some(w) = operands(&["-i"]).first() {
                    if self.typed.len() + w.len() > MAX_SESSION_BYTES {
                        self.truncated = true;
                    } else {
                        self.typed.push_str(w);
                    }
                }
            }
            // `gets $sock cmd`: the variable holds what the remote sent
            "gets" | "read" if words.len() == 3 && channel_peer(&words[1].text).is_some() => {
                if self.vars.len() < MAX_VARS || self.vars.contains_key(&words[2].text) {
                    self.vars
                        .insert(words[2].text.clone(), words[1].text.clone());
                }
            }
            // `puts $sock [exec cat ~/.ssh/id_rsa]`: the text is sent to the remote
            "puts" if words.len() >= 3 => {
                let n = words.len();
                if let Some(peer) = channel_peer(&words[n - 2].text) {
                    let data = shell_line(std::slice::from_ref(&words[n - 1].text));
                    self.runs
                        .push((format!("printf %s {data} | nc {peer}"), Target::Input));
                } else {
                    self.substituted(&words[1..]);
                }
            }
            "set" => {
                if let (Some(n), Some(v)) = (words.get(1), words.get(2))
                    && (self.vars.len() < MAX_VARS || self.vars.contains_key(&n.text))
                {
                    self.vars.insert(n.text.clone(), v.text.clone());
                    self.substituted(&words[2..]);
                }
            }
            // `foreach p [exec pgrep x] { exec kill $p }`: the variable takes each word of
            // the command's output, as a shell loop over `$(pgrep x)` does
            "foreach" if words.len() == 4 && words[3].braced => {
                let (var, list) = (&words[1], &words[2]);
                if !var.braced && (self.vars.len() < MAX_VARS || self.vars.contains_key(&var.text))
                {
                    self.vars.insert(var.text.clone(), list.text.clone());
                }
                self.substituted(&words[2..3]);
                self.script(&words[3].text, depth + 1, secret);
            }
            "expect" | "expect_before" | "expect_after" | "interact" => {
                // `expect PATTERN [BODY] …` or `expect { PATTERN BODY … }`.
                let rest: Vec<&TclWord> = words.iter().skip(1).collect();
                if let [only] = rest.as_slice()
                    && only.braced
                {
                    let inner = tcl_words(&only.text, &self.vars);
                    self.pairs(&inner.iter().collect::<Vec<_>>(), depth);
                } else {
                    self.pairs(&rest, depth);
                }
            }
            _ => {
                // `puts [exec cat /etc/shadow]`: the substitution runs
                self.substituted(&words[1..]);
                // `if {…} {body} else {body}`, `while`, `for`, `foreach`, `proc`, `catch`;
                // a condition's substitutions run too (`if {[catch {exec …}]} {}`)
                for w in words.iter().skip(1).filter(|w| w.braced) {
                    for inner in bracket_groups(&w.text) {
                        self.script(inner, depth + 1, secret);
                    }
                    self.script(&w.text, depth + 1, secret);
                }
            }
        }
    }

    /// The `[exec …]` substitutions in `words` run here (`set out [exec rm -rf /x]`).
    fn substituted(&mut self, words: &[TclWord]) {
        for w in words.iter().filter(|w| !w.braced && w.text.contains("$(")) {
            self.runs.push((
                format!(": {}", shell_line(std::slice::from_ref(&w.text))),
                Target::Input,
            ));
        }
    }

    /// Pattern-action pairs of `expect`: an action answering a secret prompt types a secret.
    fn pairs(&mut self, words: &[&TclWord], depth: usize) {
        let mut pattern = "";
        for w in words {
            if w.braced {
                self.script(&w.text, depth + 1, secret_prompt(pattern));
                pattern = "";
            } else if !w.text.starts_with('-') {
                pattern = &w.text;
            }
        }
    }
}

impl Norm<'_> {
    /// `expect -c SCRIPT`, `expect FILE`, `expect -f FILE`, or a script on stdin.
    pub(crate) fn follow_expect(
        &mut self,
        idx: usize,
        cmd: &SimpleCommand,
        stdin: Option<&(String, bool)>,
        base: &Frame,
    ) {
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let script = if let Some(k) = raw.iter().position(|t| *t == "-c") {
            raw.get(k + 1).map(|s| s.to_string())
        } else if let Some(f) = raw.iter().skip(1).find(|t| !t.starts_with('-')) {
            self.file_content(f)
        } else {
            stdin.map(|(b, _)| b.clone())
        };
        let Some(script) = script else {
            return;
        };
        let mut s = Session {
            target: Target::Input,
            typed: String::new(),
            vars: HashMap::new(),
            runs: Vec::new(),
            code: Vec::new(),
            truncated: false,
        };
        s.script(&script, 0, false);
        s.flush();
        if s.truncated {
            self.limit(format!(
                "expect script nested deeper than {MAX_DEPTH} or typing more than {MAX_SESSION_BYTES} bytes"
            ));
        }
        for (text, target) in s.runs {
            let mut f = base.clone();
            let arg = match &target {
                Target::Shell { remote, root } => {
                    if let Some(h) = remote {
                        f.remote = Some(h.clone());
                        f.wrappers.push(Wrapper {
                            name: "ssh".into(),
                            args: vec![h.clone()],
                        });
                    }
                    f.privileged |= *root && remote.is_none();
                    "send"
                }
                _ => "",
            };
            let _ = self.run_text(&text, "expect", arg, &f);
        }
        for (language, program, text) in s.code {
            self.nested.push(NestedInput {
                language,
                text,
                program,
                command_index: idx,
                literal: true,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str) -> Session {
        let mut s = Session {
            target: Target::Input,
            typed: String::new(),
            vars: HashMap::new(),
            runs: Vec::new(),
            code: Vec::new(),
            truncated: false,
        };
        s.script(script, 0, false);
        s.flush();
        s
    }

    fn typed(script: &str) -> Vec<String> {
        session(script)
            .runs
            .into_iter()
            .filter(|(_, t)| matches!(t, Target::Shell { .. }))
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn sends_to_a_shell_are_commands() {
        assert_eq!(
            typed("spawn ssh root@db1; expect \"# \"; send \"rm -rf /var/lib/mysql\\r\""),
            ["rm -rf /var/lib/mysql\n"]
        );
        let s = session("spawn -noecho ssh -p 2222 ops@web; send {uptime\\r}");
        assert_eq!(
            s.runs.last().map(|(_, t)| t.clone()),
            Some(Target::Shell {
                remote: Some("ops@web".into()),
                root: false
            })
        );
        assert_eq!(
            typed("set c \"reboot\"\nspawn bash\nsend \"$c\\r\""),
            ["reboot\n"]
        );
        assert_eq!(
            typed(
                "spawn su -\nexpect {\n  \"Password:\" { send \"$env(PW)\\r\"; exp_continue }\n  \"#\" { send \"userdel -r bob\\r\" }\n}"
            ),
            ["userdel -r bob\n"]
        );
        assert_eq!(
            typed("spawn docker exec -it api sh; send \"rm -rf /data\\r\""),
            ["rm -rf /data\n"]
        );
    }

    #[test]
    fn sends_to_other_programs_are_input() {
        assert!(typed("spawn npm login; expect \"Username:\"; send \"bot\\r\"").is_empty());
        assert!(typed("spawn passwd; expect \"New password:\"; send \"rm -rf /\\r\"").is_empty());
        assert!(typed("spawn ssh host uptime; send \"rm -rf /\\r\"").is_empty());
        let s = session("spawn mysql -u root; send \"DROP DATABASE shop;\\r\"");
        assert_eq!(s.code.len(), 1);
        // spawn, exec and system run their command lines here.
        let s = session("spawn rm -rf /tmp/x; exec ls");
        assert_eq!(s.runs.len(), 2);
    }

    #[test]
    fn tcl_is_split_and_bounded() {
        assert_eq!(tcl_commands("a; b {c; d}\n# x\ne \"f;g\"").len(), 3);
        let deep = "if {1} {".repeat(50) + &"}".repeat(50);
        assert!(session(&deep).truncated);
        assert!(!session("if {1} { send x }").truncated);
        let _ = tcl_words("\"unterminated {[$", &HashMap::new());
    }
}
