//! What code hands to other interpreters: shell commands (subprocess argv, `os.system`
//! strings, `child_process`, `execa`, zx `$\`…\``, shelljs), SQL (strings given to
//! `execute`/`query`/…), and code given to `exec`/`eval`/`new Function` or to `python -c`,
//! `node -e`, `sh -c` inside a command — the latter analyzed in turn, up to a depth bound.

use riskgate_model::Language;

use super::analysis::{
    Analysis, ArgValue, Call, EmbeddedCommand, EmbeddedSql, MAX_DEPTH, ShellCommand, Store,
};
use super::shell_words;

const SHELL_TEXT: [&str; 12] = [
    "os.system",
    "os.popen",
    "os.popen2",
    "os.popen3",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "commands.getoutput",
    "commands.getstatusoutput",
    "asyncio.create_subprocess_shell",
    "pexpect.run",
    "pexpect.spawn",
    "child_process.exec",
];

const SHELL_TEXT_JS: [&str; 6] = [
    "child_process.execSync",
    "execa.command",
    "execa.commandSync",
    "execa.execaCommand",
    "execa.execaCommandSync",
    "shelljs.exec",
];

const ARGV_OR_TEXT: [&str; 6] = [
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
    "pty.spawn",
];

const JS_SPAWN: [&str; 11] = [
    "child_process.spawn",
    "child_process.spawnSync",
    "child_process.execFile",
    "child_process.execFileSync",
    "execa",
    "execa.execa",
    "execa.sync",
    "execa.execaSync",
    "Deno.Command",
    "Bun.spawn",
    "Bun.spawnSync",
];

/// Methods that take SQL text as their first argument (only literal text that looks like SQL
/// is taken).
const SQL_METHODS: [&str; 24] = [
    "execute",
    "executemany",
    "executescript",
    "exec_driver_sql",
    "query",
    "raw",
    "sql",
    "text",
    "exec",
    "run",
    "prepare",
    "all",
    "get",
    "each",
    "none",
    "one",
    "any",
    "many",
    "oneOrNone",
    "unsafe",
    "$queryRaw",
    "$executeRaw",
    "$queryRawUnsafe",
    "$executeRawUnsafe",
];

const SQL_KEYWORDS: [&str; 19] = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "DROP", "CREATE", "ALTER", "TRUNCATE", "GRANT",
    "REVOKE", "REPLACE", "MERGE", "WITH", "PRAGMA", "ATTACH", "COPY", "VACUUM", "RENAME", "UPSERT",
];

/// True when `text` starts with an SQL statement keyword followed by whitespace.
pub fn looks_like_sql(text: &str) -> bool {
    let t = text.trim_start().trim_start_matches('(');
    let word: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    let rest = t.get(word.len()..).unwrap_or("");
    SQL_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(&word))
        && rest.starts_with(|c: char| c.is_whitespace())
}

/// At most this many string literals are read as commands a run-time value may hold.
const MAX_POSSIBLE: usize = 64;

/// A command that is wholly a run-time value: its program (or the text a shell's `-c` runs)
/// is `$ARG`.
fn runs_a_value(c: &EmbeddedCommand) -> bool {
    match &c.argv {
        Some(argv) => {
            argv.first().is_some_and(|w| w.starts_with("$ARG"))
                || argv
                    .windows(2)
                    .any(|p| p[0] == "-c" && p[1].starts_with("$ARG"))
        }
        None => c.text.trim_start().starts_with("$ARG"),
    }
}

/// Code that runs a command it only knows at run time (`execSync(cmd)` in a loop over a table
/// of steps, `subprocess.run(step, shell=True)`) may run any text it holds: each literal that
/// reads as a command line is added as a command the code may run (`via` says so), so the
/// table's worst step is rated, not only the unknown value.
fn possible_commands(a: &mut Analysis) {
    let Some(runner) = a.commands.iter().find(|c| c.dynamic && runs_a_value(c)) else {
        return;
    };
    let via = format!("{} (a value the code holds)", runner.via);
    let mut extra: Vec<EmbeddedCommand> = Vec::new();
    for s in &a.strings {
        if extra.len() >= MAX_POSSIBLE {
            a.incomplete = true;
            break;
        }
        let v = s.value.trim();
        if s.dynamic || v.is_empty() || v.len() > 16 * 1024 || !reads_as_command(v) {
            continue;
        }
        if a.commands.iter().chain(&extra).any(|c| c.text == v) {
            continue;
        }
        extra.push(EmbeddedCommand {
            argv: None,
            text: v.to_string(),
            dynamic: false,
            via: via.clone(),
            span: s.span,
            line: s.line,
        });
    }
    a.commands.extend(extra);
}

/// Text whose first word can be a program name, with arguments or more lines after it
/// (`uname -a`, `aws rds delete-db-instance …`): not prose, a path alone or a format string.
fn reads_as_command(v: &str) -> bool {
    let first = v.split_whitespace().next().unwrap_or("");
    // a script may open with an assignment (`SRC="${SRC:-/srv/empty}"`)
    if let Some((name, _)) = first.split_once('=')
        && !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        return v.contains(char::is_whitespace);
    }
    let name_like = !first.is_empty()
        && first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '=' | '~'))
        && !first.ends_with('.');
    name_like && v.contains(char::is_whitespace) && !v.contains('%')
}

/// Fill `a.commands`, `a.sql` and `a.dynamic_code`, and merge nested analyses.
pub(crate) fn extract(a: &mut Analysis, _code: &str, depth: usize) {
    let calls = a.calls.clone();
    let mut nested: Vec<(Analysis, Call)> = Vec::new();
    for call in &calls {
        if let Some(cmd) = command_of(call) {
            a.commands.push(cmd);
        }
        if let Some(sql) = sql_of(call) {
            a.sql.push(sql);
        }
        match code_of(call, a.language) {
            Some(CodeArg::Literal(lang, text)) => {
                if depth < MAX_DEPTH {
                    nested.push((Analysis::at_depth(&text, lang, depth + 1), call.clone()));
                } else {
                    a.incomplete = true;
                }
            }
            Some(CodeArg::Dynamic) => a.dynamic_code.push(call.clone()),
            None => {}
        }
    }
    let writes = shell_writes(&calls);
    a.commands.extend(writes);
    possible_commands(a);
    // interpreters inside commands: `python -c CODE`, `node -e CODE`, `sh -c TEXT`
    let commands = a.commands.clone();
    for cmd in &commands {
        let simple: Vec<Vec<String>> = match &cmd.argv {
            Some(argv) => vec![argv.clone()],
            None => shell_words::split(&cmd.text)
                .commands
                .into_iter()
                .map(|c| c.words)
                .collect(),
        };
        for words in simple {
            if let Some((lang, text)) = interpreter_code(&words) {
                if depth < MAX_DEPTH {
                    let pseudo = Call {
                        name: cmd.via.clone(),
                        candidates: Vec::new(),
                        method: cmd.via.clone(),
                        unresolved_receiver: false,
                        args: Vec::new(),
                        span: cmd.span,
                        line: cmd.line,
                        text: cmd.text.clone(),
                        context: None,
                    };
                    let mut inner = Analysis::at_depth(&text, lang, depth + 1);
                    if lang == Language::Sh && cmd.argv.is_some() {
                        // `sh -c TEXT` given as argv: its commands replace nothing, they add
                        inner.calls.clear();
                    }
                    nested.push((inner, pseudo));
                } else {
                    a.incomplete = true;
                }
            }
        }
    }
    // simple commands, and what they feed to database clients
    // shell code: its simple commands were recorded as they were split
    let mut shell = std::mem::take(&mut a.shell);
    for sc in &shell {
        if let Some((store, text)) = database_input(&sc.words, &sc.heredocs) {
            let dynamic = sc.words.iter().any(|w| w.contains('$'));
            a.sql.push(EmbeddedSql {
                store,
                text,
                dynamic,
                via: sc.words.first().cloned().unwrap_or_default(),
                span: sc.span,
                line: sc.line,
            });
        }
    }
    for cmd in &commands {
        if cmd.via == "sh" {
            continue;
        }
        let simple: Vec<ShellCommand> = match &cmd.argv {
            Some(argv) => vec![ShellCommand {
                words: argv.clone(),
                redirects: Vec::new(),
                piped: cmd.text.starts_with("| "),
                heredocs: Vec::new(),
                via: cmd.via.clone(),
                span: cmd.span,
                line: cmd.line,
            }],
            None => shell_words::split(&cmd.text)
                .commands
                .into_iter()
                .map(|c| ShellCommand {
                    words: c.words,
                    redirects: c.redirects,
                    piped: c.piped,
                    heredocs: c.heredocs,
                    via: cmd.via.clone(),
                    span: cmd.span,
                    line: cmd.line,
                })
                .collect(),
        };
        for sc in &simple {
            if let Some((store, text)) = database_input(&sc.words, &sc.heredocs) {
                a.sql.push(EmbeddedSql {
                    store,
                    text,
                    dynamic: cmd.dynamic,
                    via: sc.words.first().cloned().unwrap_or_default(),
                    span: cmd.span,
                    line: cmd.line,
                });
            }
        }
        shell.extend(simple);
    }
    a.shell = shell;
    for (inner, outer) in nested {
        let context = format!("code run by {} (line {})", outer.name, outer.line);
        a.incomplete |= inner.incomplete;
        a.imports.extend(inner.imports);
        for mut c in inner.calls {
            c.span = outer.span;
            c.line = outer.line;
            c.context = Some(
                c.context
                    .map_or(context.clone(), |x| format!("{x} < {context}")),
            );
            a.calls.push(c);
        }
        for mut c in inner.commands {
            c.span = outer.span;
            c.line = outer.line;
            a.commands.push(c);
        }
        for mut c in inner.shell {
            c.span = outer.span;
            c.line = outer.line;
            a.shell.push(c);
        }
        for mut s in inner.sql {
            s.span = outer.span;
            s.line = outer.line;
            a.sql.push(s);
        }
        for mut s in inner.strings {
            s.span = outer.span;
            s.line = outer.line;
            a.strings.push(s);
        }
        for mut c in inner.dynamic_code {
            c.span = outer.span;
            c.line = outer.line;
            a.dynamic_code.push(c);
        }
        for mut x in inner.assignments {
            x.span = outer.span;
            x.line = outer.line;
            a.assignments.push(x);
        }
    }
}

/// A word of an argv from an argument value (`$ARG` for what is only known at run time).
fn word(v: &ArgValue) -> (String, bool) {
    match v {
        ArgValue::Str(s) => (s.clone(), false),
        ArgValue::Dynamic(s) => (s.replace("{}", "$ARG"), true),
        ArgValue::Num(n) => (n.clone(), false),
        _ => ("$ARG".to_string(), true),
    }
}

fn list_words(v: &ArgValue) -> Option<(Vec<String>, bool)> {
    match v {
        ArgValue::List(items) => {
            let mut dynamic = false;
            let words = items
                .iter()
                .map(|i| {
                    let (w, d) = word(i);
                    dynamic |= d;
                    w
                })
                .collect();
            Some((words, dynamic))
        }
        _ => None,
    }
}

fn command_of(call: &Call) -> Option<EmbeddedCommand> {
    let mk = |argv: Option<Vec<String>>, text: String, dynamic: bool| EmbeddedCommand {
        argv,
        text,
        dynamic,
        via: call.name.clone(),
        span: call.span,
        line: call.line,
    };
    let text_cmd = |v: &ArgValue| -> Option<EmbeddedCommand> {
        match v {
            ArgValue::Str(s) => Some(mk(None, s.clone(), false)),
            ArgValue::Dynamic(s) => Some(mk(None, s.replace("{}", "$ARG"), true)),
            ArgValue::List(_) => {
                list_words(v).map(|(w, d)| mk(Some(w.clone()), shell_words::join_argv(&w), d))
            }
            _ => Some(mk(None, "$ARG".into(), true)),
        }
    };
    // a command's output run as a command: `os.system(os.popen("curl …").read())`
    let output_run = |a: &super::analysis::Arg| -> Option<EmbeddedCommand> {
        if !matches!(a.value, ArgValue::Call(_) | ArgValue::Other(_)) {
            return None;
        }
        output_of(&a.text).map(|inner| mk(None, format!("{inner} | sh"), false))
    };
    if call.is(&SHELL_TEXT) || call.is(&SHELL_TEXT_JS) {
        let a = call.param(0, "cmd").or_else(|| call.arg(0))?;
        return output_run(a).or_else(|| text_cmd(&a.value));
    }
    if call.is(&ARGV_OR_TEXT) {
        let a = call.param(0, "args")?;
        return output_run(a).or_else(|| text_cmd(&a.value));
    }
    if call.is(&JS_SPAWN) {
        let first = call.arg(0)?;
        if let Some((w, d)) = list_words(&first.value) {
            return Some(mk(Some(w.clone()), shell_words::join_argv(&w), d));
        }
        let (prog, mut dynamic) = word(&first.value);
        let mut argv = vec![prog];
        if let Some((w, d)) = call.arg(1).and_then(|a| list_words(&a.value)) {
            argv.extend(w);
            dynamic |= d;
        }
        let shell = call
            .args
            .iter()
            .any(|a| a.text.replace(' ', "").contains("shell:true"));
        let text = if shell {
            argv.join(" ")
        } else {
            shell_words::join_argv(&argv)
        };
        return Some(mk(Some(argv), text, dynamic));
    }
    // a command an SSH library runs on the host it connected to (`client.exec_command("rm
    // -rf /srv/…")`, fabric's `c.run(…)`): the command over ssh
    if super::matchers::is_remote_access(call)
        && matches!(
            call.method.as_str(),
            "exec_command" | "execCommand" | "send_command" | "run" | "sudo"
        )
        && let Some(ArgValue::Str(cmd)) = call.arg(0).map(|a| &a.value)
    {
        let cmd = if call.method == "sudo" {
            format!("sudo {cmd}")
        } else {
            cmd.clone()
        };
        return Some(mk(
            None,
            format!("ssh remote-host {}", shell_words::join_argv(&[cmd])),
            false,
        ));
    }
    let m = call.name.as_str();
    if let Some(rest) = m
        .strip_prefix("os.exec")
        .or_else(|| m.strip_prefix("os.spawn"))
    {
        let skip = usize::from(m.starts_with("os.spawn"));
        let argv_start = skip + 1;
        if rest.starts_with('v') {
            let (w, d) = call.arg(argv_start).and_then(|a| list_words(&a.value))?;
            return Some(mk(Some(w.clone()), shell_words::join_argv(&w), d));
        }
        let mut dynamic = false;
        let words: Vec<String> = call
            .args
            .iter()
            .filter(|a| a.keyword.is_none())
            .skip(argv_start)
            .filter(|a| !matches!(a.value, ArgValue::Object(_)))
            .map(|a| {
                let (w, d) = word(&a.value);
                dynamic |= d;
                w
            })
            .collect();
        return Some(mk(
            Some(words.clone()),
            shell_words::join_argv(&words),
            dynamic,
        ));
    }
    if call.name == "asyncio.create_subprocess_exec" {
        let mut dynamic = false;
        let words: Vec<String> = call
            .args
            .iter()
            .filter(|a| a.keyword.is_none())
            .map(|a| {
                let (w, d) = word(&a.value);
                dynamic |= d;
                w
            })
            .collect();
        return Some(mk(
            Some(words.clone()),
            shell_words::join_argv(&words),
            dynamic,
        ));
    }
    // zx / Bun / execa `$`…``
    if matches!(call.name.as_str(), "$" | "zx.$" | "Bun.$" | "execa.$") {
        return text_cmd(&call.arg(0)?.value);
    }
    // python `sh` library and shelljs: sh.rm('-rf', p), shell.rm('-rf', p)
    for prefix in ["sh.", "shelljs."] {
        if let Some(prog) = call.name.strip_prefix(prefix) {
            if prog.contains(['.', '(']) || prog.is_empty() {
                return None;
            }
            let mut dynamic = false;
            let mut argv = vec![prog.replace('_', "-")];
            for a in call.args.iter().filter(|a| a.keyword.is_none()) {
                let (w, d) = word(&a.value);
                dynamic |= d;
                argv.push(w);
            }
            return Some(mk(
                Some(argv.clone()),
                shell_words::join_argv(&argv),
                dynamic,
            ));
        }
    }
    None
}

/// Calls that start a program the code can write to.
const SPAWNERS: [&str; 7] = [
    "os.popen",
    "subprocess.Popen",
    "subprocess.run",
    "child_process.spawn",
    "child_process.exec",
    "pexpect.spawn",
    "asyncio.create_subprocess_exec",
];

/// What the code writes into a shell it started: `os.popen('sh', 'w').write(CMD)`,
/// `Popen(['bash'], stdin=PIPE).communicate(CMD)`, `run(['sh'], input=CMD)`,
/// `spawn('sh').stdin.write(CMD)`: each written text is a command the shell runs.
/// The command whose output the expression `text` is, when it is a call that runs a literal
/// command and returns what it prints (`os.popen("…").read()`, `subprocess.check_output(…)`,
/// `execSync("…")`).
fn output_of(text: &str) -> Option<String> {
    // `subprocess.check_output(`, `subprocess.getoutput(`, `child_process.execSync(`,
    // `os.popen(` (the suffix is enough)
    const RETURNS_OUTPUT: [&str; 4] = ["check_output(", "getoutput(", "execSync(", "popen("];
    let (k, needle) = RETURNS_OUTPUT
        .iter()
        .find_map(|n| text.find(n).map(|k| (k, *n)))?;
    let rest = text.get(k + needle.len()..)?.trim_start();
    let b = rest.as_bytes();
    let q = *b.first().filter(|q| matches!(q, b'"' | b'\'' | b'`'))?;
    let mut j = 1;
    let mut lit = String::new();
    while let Some(&c) = b.get(j) {
        if c == b'\\' {
            j += 2;
            continue;
        }
        if c == q {
            break;
        }
        j += 1;
    }
    lit.push_str(rest.get(1..j)?);
    // `os.popen(…)` is a file: its text is what `.read()` returns
    let after = rest.get(j + 1..).unwrap_or("");
    if needle.ends_with("popen(") && !after.contains(".read") {
        return None;
    }
    (!lit.trim().is_empty()).then_some(lit)
}

fn shell_writes(calls: &[Call]) -> Vec<EmbeddedCommand> {
    let is_shell = |text: &str| {
        let first = text.split_whitespace().next().unwrap_or("");
        let base = first.rsplit('/').next().unwrap_or(first);
        matches!(base, "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash")
            && text
                .split_whitespace()
                .nth(1)
                .is_none_or(|w| w == "-s" || w == "-i")
    };
    let shells: Vec<&str> = SPAWNERS
        .iter()
        .copied()
        .filter(|sp| {
            calls
                .iter()
                .any(|c| c.is(&[sp]) && command_of(c).is_some_and(|e| is_shell(&e.text)))
        })
        .collect();
    let mut out = Vec::new();
    if shells.is_empty() {
        return out;
    }
    for c in calls {
        let written = if shells.iter().any(|sp| c.is(&[sp])) {
            c.kwarg("input")
        } else if shells
            .iter()
            .any(|sp| c.name.starts_with(&format!("{sp}().")))
            && matches!(
                c.method.as_str(),
                "write" | "writelines" | "communicate" | "end" | "sendline" | "send"
            )
        {
            c.arg(0).or_else(|| c.kwarg("input"))
        } else {
            None
        };
        let Some(text) = written.and_then(|x| x.value.text()) else {
            continue;
        };
        let dynamic = matches!(written.map(|x| &x.value), Some(ArgValue::Dynamic(_)));
        out.push(EmbeddedCommand {
            argv: None,
            text: text.replace("{}", "$ARG").trim_end().to_string(),
            dynamic,
            via: format!("{} (written to a shell)", c.name),
            span: c.span,
            line: c.line,
        });
    }
    out
}

fn sql_of(call: &Call) -> Option<EmbeddedSql> {
    if !SQL_METHODS.contains(&call.method.as_str()) {
        return None;
    }
    let first = call
        .arg(0)
        .or_else(|| call.kwarg("sql"))
        .or_else(|| call.kwarg("query"))?;
    let (text, dynamic) = match &first.value {
        ArgValue::Str(s) => (s.clone(), false),
        ArgValue::Dynamic(s) => (s.replace("{}", "x").replace("%s", "x"), true),
        _ => return None,
    };
    if !looks_like_sql(&text) {
        return None;
    }
    Some(EmbeddedSql {
        store: Store::Sql,
        text,
        dynamic,
        via: call.name.clone(),
        span: call.span,
        line: call.line,
    })
}

enum CodeArg {
    Literal(Language, String),
    Dynamic,
}

fn code_of(call: &Call, lang: Language) -> Option<CodeArg> {
    let literal = |v: &ArgValue, l: Language| match v {
        ArgValue::Str(s) => Some(CodeArg::Literal(l, s.clone())),
        _ => Some(CodeArg::Dynamic),
    };
    match lang {
        Language::Python
            if call.is(&["exec", "eval", "compile", "builtins.exec", "builtins.eval"]) =>
        {
            literal(&call.param(0, "source")?.value, Language::Python)
        }
        Language::Js
            if call.is(&[
                "eval",
                "vm.runInThisContext",
                "vm.runInNewContext",
                "vm.runInContext",
                "vm.Script",
                "vm.compileFunction",
            ]) =>
        {
            literal(&call.arg(0)?.value, Language::Js)
        }
        Language::Js if call.is(&["Function"]) => {
            let body = call.args.iter().rfind(|a| a.keyword.is_none())?;
            literal(&body.value, Language::Js)
        }
        Language::Js if call.is(&["setTimeout", "setInterval"]) => match &call.arg(0)?.value {
            ArgValue::Str(s) => Some(CodeArg::Literal(Language::Js, s.clone())),
            ArgValue::Dynamic(_) => Some(CodeArg::Dynamic),
            _ => None,
        },
        _ => None,
    }
}

const WRAPPERS: [&str; 9] = [
    "sudo", "doas", "env", "nice", "nohup", "time", "exec", "command", "stdbuf",
];

/// `python -c CODE`, `node -e CODE`, `sh -c TEXT` (after simple wrappers).
fn interpreter_code(words: &[String]) -> Option<(Language, String)> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let base = w.rsplit('/').next().unwrap_or(w);
        if WRAPPERS.contains(&base)
            || w.starts_with('-') && i > 0
            || w.contains('=') && !w.starts_with('-')
        {
            i += 1;
            continue;
        }
        break;
    }
    let prog = words.get(i)?;
    let base = prog.rsplit('/').next().unwrap_or(prog);
    let lang = if base.starts_with("python") || base == "py" {
        Language::Python
    } else if matches!(base, "node" | "nodejs" | "deno" | "bun") {
        Language::Js
    } else if matches!(base, "sh" | "bash" | "zsh" | "dash" | "ksh") {
        Language::Sh
    } else {
        return None;
    };
    let flags: &[&str] = match lang {
        Language::Python | Language::Sh => &["-c"],
        _ => &["-e", "--eval", "-p", "--print"],
    };
    let rest = words.get(i + 1..)?;
    let pos = rest.iter().position(|w| {
        flags.contains(&w.as_str())
            || (lang == Language::Sh
                && w.starts_with('-')
                && !w.starts_with("--")
                && w.ends_with('c'))
    })?;
    rest.get(pos + 1).map(|code| (lang, code.clone()))
}

/// What a database client command line runs: `psql -c SQL`, `mysql -e SQL`, `sqlite3 DB SQL`,
/// heredocs fed to them, `redis-cli CMD…`, `mongosh --eval CODE`.
fn database_input(words: &[String], heredocs: &[String]) -> Option<(Store, String)> {
    let mut i = 0;
    while words.get(i).is_some_and(|w| {
        let b = w.rsplit('/').next().unwrap_or(w);
        WRAPPERS.contains(&b)
            || (i > 0 && w.starts_with('-'))
            || (w.contains('=') && !w.starts_with('-'))
    }) {
        i += 1;
    }
    let prog = words.get(i)?;
    let base = prog.rsplit('/').next().unwrap_or(prog);
    let rest = words.get(i + 1..).unwrap_or(&[]);
    let flag_value = |flags: &[&str]| -> Option<String> {
        let mut it = rest.iter();
        while let Some(w) = it.next() {
            if flags.contains(&w.as_str()) {
                return it.next().cloned();
            }
            for f in flags.iter().filter(|f| f.starts_with("--")) {
                if let Some(v) = w.strip_prefix(&format!("{f}=")) {
                    return Some(v.to_string());
                }
            }
        }
        None
    };
    let heredoc = || heredocs.first().cloned();
    match base {
        "psql" => flag_value(&["-c", "--command"])
            .or_else(heredoc)
            .map(|t| (Store::Sql, t)),
        "mysql" | "mariadb" => flag_value(&["-e", "--execute"])
            .or_else(heredoc)
            .map(|t| (Store::Sql, t)),
        "sqlite3" => {
            let positional: Vec<&String> = rest.iter().filter(|w| !w.starts_with('-')).collect();
            positional
                .get(1)
                .map(|s| s.to_string())
                .or_else(heredoc)
                .map(|t| (Store::Sql, t))
        }
        "redis-cli" => {
            // skip options with values
            let mut j = 0;
            let mut cmd = Vec::new();
            while let Some(w) = rest.get(j) {
                if matches!(
                    w.as_str(),
                    "-h" | "-p"
                        | "-a"
                        | "-n"
                        | "-u"
                        | "-s"
                        | "--user"
                        | "--pass"
                        | "-r"
                        | "-i"
                        | "-d"
                ) {
                    j += 2;
                    continue;
                }
                if w.starts_with('-') && cmd.is_empty() {
                    j += 1;
                    continue;
                }
                cmd.push(w.clone());
                j += 1;
            }
            if cmd.is_empty() {
                heredoc().map(|t| (Store::Redis, t))
            } else {
                Some((Store::Redis, join_words(&cmd)))
            }
        }
        "mongosh" | "mongo" => flag_value(&["--eval"])
            .or_else(heredoc)
            .map(|t| (Store::Mongo, t)),
        _ => None,
    }
}

fn join_words(words: &[String]) -> String {
    shell_words::join_argv(words)
}
