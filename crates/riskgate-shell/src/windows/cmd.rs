//! cmd.exe: command lines split on `&`, `&&`, `||`, `|`, newlines and parenthesized blocks,
//! `^` escapes and `"` quoting, `%VAR%` (well-known variables and those `set` before),
//! `@`, `call`, `start`, `if …`, `for … do …`, `cmd /c …` (nested), `rem`/`::` comments,
//! redirections (`>nul` is `/dev/null`). The builtins that act on files are recorded as the
//! cmdlets that do the same, so one rule reads both: `rd /s /q X` and `del /f /s /q X` are
//! `Remove-Item X -Recurse -Force`, `copy A B` is `Copy-Item A B`, `type F` is `Get-Content F`,
//! `dir /s X` is `Get-ChildItem X -Recurse`. Other programs go through the bash side's
//! unwrapping and canonicalization (Windows programs' `/x` switches read as `-x`).

use riskgate_model::Span;

use crate::ctx::{Feed, Frame, Norm, Pending, Range, XWord, join};
use crate::{Origin, Redirect, Word, Wrapper};

pub(crate) use super::cmdtext::diskpart_commands;
use super::cmdtext::{for_bodies, var_op};
use super::ps::Input;
use super::syntax::{is_cmd_switch, native_program};
use super::winpath;

/// Longest cmd.exe text read (past it: incomplete).
const MAX_CMD_COMMANDS: usize = 4096;

/// One command of a cmd.exe line: words (quotes and `^` removed), redirections.
#[derive(Debug, Default, Clone)]
struct CmdLine {
    words: Vec<String>,
    redirects: Vec<(String, String)>,
}

/// Split cmd.exe text into commands.
fn split(text: &str) -> Vec<CmdLine> {
    let mut out = Vec::new();
    let mut cur = CmdLine::default();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut pending_redirect: Option<String> = None;
    // Open parenthesized blocks (`if … (…) else (…)`, `for … do (…)`, `(a & b)`).
    let mut blocks = 0usize;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let end_word =
        |cur: &mut CmdLine, word: &mut String, in_word: &mut bool, pr: &mut Option<String>| {
            if *in_word {
                let w = std::mem::take(word);
                match pr.take() {
                    Some(op) => cur.redirects.push((op, w)),
                    None => cur.words.push(w),
                }
                *in_word = false;
            }
        };
    while i < chars.len() {
        let c = chars[i];
        if quoted {
            if c == '"' {
                quoted = false;
            } else if c == '\n' {
                quoted = false;
                end_word(&mut cur, &mut word, &mut in_word, &mut pending_redirect);
                out.push(std::mem::take(&mut cur));
            } else {
                word.push(c);
            }
            i += 1;
            continue;
        }
        match c {
            '^' => {
                if let Some(n) = chars.get(i + 1)
                    && *n != '\n'
                    && *n != '\r'
                {
                    word.push(*n);
                    in_word = true;
                }
                i += 2;
                continue;
            }
            '"' => {
                quoted = true;
                in_word = true;
            }
            // `(` opens a block at the start of a command or after `if …`, `else`, `do`;
            // `)` closes one; elsewhere they are text (`icacls x /grant Users:(OI)(CI)F`).
            '(' if !opens_block(&cur.words, in_word) => {
                word.push(c);
                in_word = true;
            }
            ')' if blocks == 0 => {
                word.push(c);
                in_word = true;
            }
            '&' | '|' | '\n' | '(' | ')' => {
                if c == '(' {
                    blocks += 1;
                } else if c == ')' {
                    blocks = blocks.saturating_sub(1);
                }
                end_word(&mut cur, &mut word, &mut in_word, &mut pending_redirect);
                out.push(std::mem::take(&mut cur));
                if (c == '&' || c == '|') && chars.get(i + 1) == Some(&c) {
                    i += 1;
                }
            }
            '>' | '<' => {
                end_word(&mut cur, &mut word, &mut in_word, &mut pending_redirect);
                let mut op = String::new();
                // a digit right before: `2>`
                if let Some(last) = cur.words.last()
                    && last.len() == 1
                    && last.chars().all(|d| d.is_ascii_digit())
                    && i > 0
                    && chars[i - 1].is_ascii_digit()
                {
                    op = cur.words.pop().unwrap_or_default();
                }
                op.push(c);
                if chars.get(i + 1) == Some(&'>') {
                    op.push('>');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&')
                    && chars.get(i + 2).is_some_and(|d| d.is_ascii_digit())
                {
                    // `2>&1`: a merge, no file
                    i += 3;
                    continue;
                }
                pending_redirect = Some(op);
            }
            c if c.is_whitespace() => {
                end_word(&mut cur, &mut word, &mut in_word, &mut pending_redirect);
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
        i += 1;
        if out.len() > MAX_CMD_COMMANDS {
            break;
        }
    }
    end_word(&mut cur, &mut word, &mut in_word, &mut pending_redirect);
    out.push(cur);
    out.into_iter().filter(|c| !c.words.is_empty()).collect()
}

/// Whether `(` here opens a block: at the start of a command, or after `if …`, `for …`,
/// `else`, `do`.
fn opens_block(words: &[String], in_word: bool) -> bool {
    if in_word {
        return false;
    }
    let first = words
        .first()
        .map(|w| w.to_ascii_lowercase().trim_start_matches('@').to_string());
    let last = words.last().map(|w| w.to_ascii_lowercase());
    words.is_empty()
        || matches!(first.as_deref(), Some("if" | "else" | "do" | "for"))
        || matches!(last.as_deref(), Some("do" | "else"))
}

/// `%VAR%` replaced where the value is known.
fn expand(text: &str, vars: &std::collections::HashMap<String, String>) -> String {
    expand_with(text, vars, '%')
}

/// `VAR` between two `mark`s (`%VAR%`, and `!VAR!` for delayed expansion) replaced where the
/// value is known.
fn expand_with(text: &str, vars: &std::collections::HashMap<String, String>, mark: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(mark) {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        match after.find(mark) {
            Some(e) if e > 0 && !after[..e].contains([' ', '\n', '"']) => {
                let name = &after[..e];
                // `%VAR:~a,b%` (a substring), `%VAR:old=new%` (replaced)
                let (base, op) = name.split_once(':').unwrap_or((name, ""));
                let l = base.to_ascii_lowercase();
                let value = vars
                    .get(&l)
                    .map(String::as_str)
                    .or_else(|| winpath::known_env(base));
                if let Some(v) = value.and_then(|v| var_op(v, op)) {
                    out.push_str(&v);
                } else {
                    out.push(mark);
                    out.push_str(name);
                    out.push(mark);
                }
                rest = &after[e + 1..];
            }
            _ => {
                out.push(mark);
                rest = after;
            }
        }
        if out.len() > 1 << 20 {
            break;
        }
    }
    out.push_str(rest);
    out
}

/// The command `forfiles /p DIR /s /m MASK /c "CMD"` runs for every file: CMD with `@path`
/// (and `@file`, `@fname`) standing for each file under DIR, `DIR/**` with `/s`, else `DIR/*`.
fn forfiles_command(words: &[String]) -> Option<String> {
    let mut dir = ".".to_string();
    let mut recurse = false;
    let mut command = None;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let l = w.to_ascii_lowercase();
        match l.as_str() {
            "/p" | "-p" => {
                dir = words.get(i + 1)?.trim_matches('"').to_string();
                i += 1;
            }
            "/s" | "-s" => recurse = true,
            "/c" | "-c" => {
                command = words.get(i + 1).map(|c| c.trim_matches('"').to_string());
                i += 1;
            }
            "/m" | "-m" | "/d" | "-d" => i += 1,
            _ => {}
        }
        i += 1;
    }
    let each = format!(
        "\"{}\\{}\"",
        dir.trim_end_matches(['\\', '/']),
        if recurse { "**" } else { "*" }
    );
    let command = command.unwrap_or_else(|| "cmd /c echo @file".to_string());
    let lower = command.to_ascii_lowercase();
    let mut out = String::with_capacity(command.len());
    let mut k = 0;
    while k < command.len() {
        let hit = ["@relpath", "@fname", "@path", "@file"]
            .iter()
            .find(|t| lower.get(k..).is_some_and(|r| r.starts_with(**t)));
        if let Some(t) = hit {
            out.push_str(&each);
            k += t.len();
            continue;
        }
        let Some(c) = command.get(k..).and_then(|r| r.chars().next()) else {
            break;
        };
        out.push(c);
        k += c.len_utf8();
    }
    Some(out)
}

fn is_dynamic(w: &str) -> bool {
    w.contains('%') || w.contains('!')
}

impl Norm<'_> {
    /// Walk `text` as cmd.exe would run it, under `frame`.
    pub(crate) fn cmd_text(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        if frame.depth > 0 {
            self.note_script(text);
        }
        if frame.depth > self.limits.max_depth {
            let m = format!("nesting deeper than {}", self.limits.max_depth);
            self.limit(m);
            return None;
        }
        if self.over_time() || !self.spend(text.len()) {
            return None;
        }
        let span = frame
            .span
            .unwrap_or(Span::new(0, text.len().min(self.src.len())));
        let mut r = None;
        for line in super::cmdtext::logical_lines(text) {
            let line = expand(&line, &self.ps.cmd_vars);
            // `for [/d|/r DIR] %%X in (SET) do CMD`: CMD once per item of SET
            let line = for_bodies(&line).unwrap_or(line);
            for c in split(&line) {
                if self.over_time() {
                    return r;
                }
                r = join(r, self.cmd_one(c, frame, span));
            }
        }
        r
    }

    fn cmd_one(&mut self, c: CmdLine, frame: &Frame, span: Span) -> Option<Range> {
        let mut words: Vec<String> = c.words;
        // `call` expands `%VAR%` a second time, when the command runs (`set x=vssadmin&& call
        // %x% delete shadows`: the first expansion, of the whole line, came before the `set`).
        let mut called = false;
        // Prefixes that do not change what runs.
        loop {
            let first = words.first()?;
            let l = first.trim_start_matches('@').to_ascii_lowercase();
            if first.starts_with('@') && l.is_empty() {
                words.remove(0);
                continue;
            }
            if first.starts_with('@') {
                words[0] = first.trim_start_matches('@').to_string();
            }
            match l.as_str() {
                "rem" | "::" | "goto" | ":" | "setlocal" | "endlocal" | "pause" | "exit"
                | "shift" | "title" | "color" | "cls" | "ver" | "prompt" => return None,
                _ if l.starts_with("::") || l.starts_with(':') => return None,
                "call" | "do" | "else" => {
                    called |= l == "call";
                    words.remove(0);
                }
                // `conhost.exe [--headless] cmd /c …`: the console host runs the command
                "conhost" | "conhost.exe" => {
                    words.remove(0);
                    while words.first().is_some_and(|w| w.starts_with("--")) {
                        words.remove(0);
                    }
                }
                "for" => return None,
                "if" => {
                    words.remove(0);
                    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("/i")) {
                        words.remove(0);
                    }
                    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("not")) {
                        words.remove(0);
                    }
                    let n = match words.first().map(|w| w.to_ascii_lowercase()) {
                        Some(w)
                            if matches!(
                                w.as_str(),
                                "exist" | "defined" | "errorlevel" | "cmdextversion"
                            ) =>
                        {
                            2
                        }
                        Some(w) if w.contains("==") => 1,
                        _ if words.get(1).is_some_and(|o| {
                            matches!(
                                o.to_ascii_uppercase().as_str(),
                                "EQU" | "NEQ" | "LSS" | "LEQ" | "GTR" | "GEQ"
                            )
                        }) =>
                        {
                            3
                        }
                        _ => 1,
                    };
                    for _ in 0..n.min(words.len()) {
                        words.remove(0);
                    }
                }
                "start" => {
                    words.remove(0);
                    // a title in quotes was unquoted: `start "" x` leaves an empty word
                    while let Some(w) = words.first() {
                        let wl = w.to_ascii_lowercase();
                        if w.is_empty() || is_cmd_switch(w) {
                            let takes = wl == "/d" || wl == "/node" || wl == "/affinity";
                            words.remove(0);
                            if takes && !words.is_empty() {
                                words.remove(0);
                            }
                            continue;
                        }
                        break;
                    }
                }
                _ => break,
            }
            if words.is_empty() {
                return None;
            }
        }
        // `!VAR!` (delayed expansion, `cmd /v:on`) is expanded when the command runs; read so
        // whether or not delayed expansion is on (unexpanded, the word is no program either).
        // A value expanded in is split into words again, as cmd reads the expanded line
        // (`set b=delete shadows /all&& call %a% %b%`): quotes in it are not followed.
        let mut expanded: Vec<String> = Vec::with_capacity(words.len());
        for w in words.drain(..) {
            let mut w2 = w.clone();
            if called && w2.contains('%') {
                w2 = expand(&w2, &self.ps.cmd_vars);
            }
            if w2.contains('!') {
                w2 = expand_with(&w2, &self.ps.cmd_vars, '!');
            }
            if w2 != w && !w2.contains('"') && w2.contains([' ', '\t']) {
                expanded.extend(w2.split_whitespace().map(str::to_string));
            } else {
                expanded.push(w2);
            }
        }
        words = expanded;
        let prog = words.first().cloned().unwrap_or_default();
        let lower = native_program(&prog).to_ascii_lowercase();
        let redirects: Vec<Redirect> = c
            .redirects
            .iter()
            .map(|(op, t)| Redirect {
                op: op.clone(),
                target: Word {
                    text: if t.eq_ignore_ascii_case("nul") {
                        "/dev/null".into()
                    } else {
                        winpath::canonical(t)
                    },
                    dynamic: is_dynamic(t),
                },
            })
            .collect();
        match lower.as_str() {
            "set" => {
                let rest = words.get(1..).unwrap_or(&[]).join(" ");
                let rest = rest.trim_start_matches("/a ").trim_start_matches("/A ");
                if let Some((n, v)) = rest.trim_matches('"').split_once('=')
                    && !n.starts_with('/')
                    && self.ps.cmd_vars.len() < 4096
                {
                    self.ps
                        .cmd_vars
                        .insert(n.trim().to_ascii_lowercase(), v.to_string());
                }
                return None;
            }
            "cmd" => {
                // `cmd /c TEXT`, `cmd /k TEXT`, `cmd /s /c "TEXT"`
                if let Some(k) = words.iter().position(|w| {
                    let l = w.to_ascii_lowercase();
                    // `//c`: Git Bash's spelling of `/c`
                    matches!(l.trim_start_matches('/'), "c" | "k" | "r") && l.starts_with('/')
                }) {
                    let inner = super::cmdtext::cmd_c_line(words.get(k + 1..).unwrap_or(&[]));
                    let mut f = frame.clone();
                    f.depth += 1;
                    f.origin = Origin::ShellString;
                    f.span = Some(span);
                    f.wrappers.push(Wrapper {
                        name: "cmd /c".into(),
                        args: vec![],
                    });
                    return self.cmd_text(&inner, &f);
                }
                return None;
            }
            "forfiles" => {
                if let Some(inner) = forfiles_command(&words) {
                    let mut f = frame.clone();
                    f.depth += 1;
                    f.origin = Origin::ShellString;
                    f.span = Some(span);
                    f.wrappers.push(Wrapper {
                        name: "forfiles /c".into(),
                        args: vec![],
                    });
                    let r = self.cmd_text(&inner, &f);
                    if f.depth <= self.limits.max_depth {
                        return r;
                    }
                }
            }
            _ => {}
        }
        // Windows' `shutdown /a` aborts a pending shutdown: Unix's `shutdown -c`
        if words.first().is_some_and(|w| {
            let l = w.to_ascii_lowercase();
            l == "shutdown" || l == "shutdown.exe"
        }) {
            for w in words.iter_mut().skip(1) {
                if w.eq_ignore_ascii_case("/a") || w.eq_ignore_ascii_case("-a") {
                    *w = "-c".into();
                }
            }
        }
        let argv: Vec<Word> = words
            .iter()
            .map(|w| Word {
                text: w.clone(),
                dynamic: is_dynamic(w),
            })
            .collect();
        if let Some(r) = self.cmd_builtin_words(argv.clone(), redirects.clone(), frame, span) {
            return Some(r);
        }
        let p = Pending {
            argv: argv
                .into_iter()
                .enumerate()
                .map(|(k, w)| XWord {
                    w: if k == 0 {
                        Word {
                            text: native_program(&w.text),
                            dynamic: w.dynamic,
                        }
                    } else {
                        w
                    },
                    feed: Feed::default(),
                })
                .collect(),
            redirects,
            span,
            ..Pending::default()
        };
        let r = self.finish_simple(p, frame);
        self.keep_program_path(r, &prog);
        r
    }

    /// A cmd.exe builtin that acts on files, recorded as the cmdlet that does the same; `None`
    /// when `argv` is not one.
    pub(crate) fn cmd_builtin_words(
        &mut self,
        argv: Vec<Word>,
        redirects: Vec<Redirect>,
        frame: &Frame,
        span: Span,
    ) -> Option<Range> {
        let name = argv.first()?.text.to_ascii_lowercase();
        let cmdlet = match name.as_str() {
            "del" | "erase" => "Remove-Item",
            "rd" | "rmdir" => "Remove-Item",
            "copy" => "Copy-Item",
            "move" => "Move-Item",
            "ren" | "rename" => "Rename-Item",
            "type" => "Get-Content",
            "dir" => "Get-ChildItem",
            "cd" | "chdir" => "Set-Location",
            "md" | "mkdir" => "New-Item",
            "echo" => "Write-Output",
            _ => return None,
        };
        let mut paths: Vec<Word> = Vec::new();
        let mut flags: Vec<&str> = Vec::new();
        for w in argv.iter().skip(1) {
            let l = w.text.to_ascii_lowercase();
            if cmdlet != "Write-Output" && is_cmd_switch(&w.text) {
                let f = match (name.as_str(), l.split(':').next().unwrap_or("")) {
                    ("del" | "erase", "/s") | ("rd" | "rmdir", "/s") | ("dir", "/s") => "-Recurse",
                    ("del" | "erase", "/f" | "/q")
                    | ("rd" | "rmdir", "/q")
                    | ("move" | "copy", "/y") => "-Force",
                    _ => continue,
                };
                if !flags.contains(&f) {
                    flags.push(f);
                }
                continue;
            }
            let text = if w.dynamic || cmdlet == "Write-Output" {
                w.text.clone()
            } else {
                winpath::canonical(&w.text)
            };
            paths.push(Word {
                text,
                dynamic: w.dynamic,
            });
        }
        if cmdlet == "Write-Output"
            && paths
                .first()
                .is_some_and(|w| matches!(w.text.to_ascii_lowercase().as_str(), "off" | "on"))
        {
            return None;
        }
        let mut args = paths;
        if cmdlet == "New-Item" {
            args.push(Word {
                text: "-ItemType=Directory".into(),
                dynamic: false,
            });
        }
        for f in flags {
            args.push(Word {
                text: f.to_string(),
                dynamic: false,
            });
        }
        let idx = self.push_ps_cmd(cmdlet, args, argv, redirects, &Input::None, frame, span)?;
        Some(Range {
            first: idx,
            last: idx,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &str) -> Vec<Vec<String>> {
        split(t).into_iter().map(|c| c.words).collect()
    }

    #[test]
    fn splits_like_cmd() {
        assert_eq!(
            words("cd C:\\x && rd /s /q build & echo done"),
            vec![
                vec!["cd".to_string(), "C:\\x".into()],
                vec!["rd".into(), "/s".into(), "/q".into(), "build".into()],
                vec!["echo".into(), "done".into()],
            ]
        );
        assert_eq!(
            words("r^d /s \"C:\\Program Files\\x\""),
            vec![vec![
                "rd".to_string(),
                "/s".into(),
                "C:\\Program Files\\x".into()
            ]]
        );
        assert_eq!(
            words("echo a^&b"),
            vec![vec!["echo".to_string(), "a&b".into()]]
        );
        let c = split("dir > out.txt 2>&1");
        assert_eq!(c[0].words, ["dir"]);
        assert_eq!(
            c[0].redirects,
            vec![(">".to_string(), "out.txt".to_string())]
        );
        assert_eq!(words("if exist x (del x) else (echo no)").len(), 4);
    }

    #[test]
    fn expands_variables() {
        let mut vars = std::collections::HashMap::new();
        vars.insert("target".to_string(), "C:\\Windows".to_string());
        assert_eq!(expand("rd /s /q %TARGET%", &vars), "rd /s /q C:\\Windows");
        assert_eq!(expand("del %SystemRoot%\\x", &vars), "del C:/Windows\\x");
        assert_eq!(expand("echo %unknown% 100%", &vars), "echo %unknown% 100%");
        // delayed expansion's marks
        vars.insert("a".to_string(), "shut".to_string());
        vars.insert("b".to_string(), "down".to_string());
        assert_eq!(expand_with("!a!!b! /s", &vars, '!'), "shutdown /s");
        assert_eq!(expand_with("echo hi!", &vars, '!'), "echo hi!");
    }

    #[test]
    fn forfiles_runs_its_command_for_each_file() {
        let w = |t: &str| -> Vec<String> { words(t).into_iter().next().unwrap_or_default() };
        assert_eq!(
            forfiles_command(&w(
                "forfiles /p C:\\logs /s /m *.log /c \"cmd /c del @path\""
            ))
            .as_deref(),
            Some("cmd /c del \"C:\\logs\\**\"")
        );
        assert_eq!(
            forfiles_command(&w("forfiles /P D:\\x /C \"cmd /c echo @FILE\"")).as_deref(),
            Some("cmd /c echo \"D:\\x\\*\"")
        );
        // no /c: forfiles lists the files
        assert_eq!(
            forfiles_command(&w("forfiles /s")).as_deref(),
            Some("cmd /c echo \".\\**\"")
        );
    }
}
