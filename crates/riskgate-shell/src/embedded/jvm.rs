//! JVM snippets — jshell (from stdin, a here-string or a heredoc), `groovy -e`, `kotlinc -e` /
//! `kotlin -e`, groovysh — read by the commands they run: `Runtime.getRuntime().exec(…)`,
//! `new ProcessBuilder(…)` (an argv, or a list of words), Groovy `"CMD".execute()` and
//! `["sh", "-c", "CMD"].execute()`, and file deletions (`new File(P).delete()`/`deleteDir()`,
//! `Files.delete(Paths.get(P))`, `FileUtils.deleteDirectory(new File(P))`). String arguments
//! are folded: `+` of literals, `System.getProperty("user.home")` and `System.getenv("HOME")`
//! are `~`, and variables assigned once (`String c = "…";`, `def c = "…"`, `val c = "…"`).

use std::collections::HashMap;

use super::langs::{close_paren, join, quote, skip_string, split_top};

/// Largest folded string.
const MAX_TEXT: usize = 64 * 1024;
/// Nesting of folded expressions.
const MAX_DEPTH: usize = 16;

/// The commands JVM script `code` runs.
pub(crate) fn commands(code: &str) -> Vec<String> {
    let vars = assignments(code);
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() && out.len() < 1_000 {
        if b[i] == b'"' {
            // Groovy `"CMD".execute()`
            let end = skip_string(b, i);
            if code.get(end..).is_some_and(|r| r.starts_with(".execute("))
                && let Some(s) = fold(&code[i..end], &vars, 0)
            {
                out.push(s);
            }
            i = end;
            continue;
        }
        let rest = &code[i..];
        let hit = [
            ("Runtime.getRuntime().exec(", Sink::Exec),
            ("ProcessBuilder(", Sink::Builder),
            ("].execute(", Sink::GroovyList),
            (".deleteDir(", Sink::DeleteTree),
            ("deleteDirectory(", Sink::DeleteTree),
            ("Files.delete(", Sink::Delete),
            ("Files.deleteIfExists(", Sink::Delete),
            (").delete(", Sink::DeleteReceiver),
        ]
        .into_iter()
        .find(|(k, _)| rest.starts_with(k));
        let Some((key, sink)) = hit else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        match sink {
            Sink::Exec | Sink::Builder | Sink::Delete | Sink::DeleteTree => {
                let open = i + key.len() - 1;
                if let Some(close) = close_paren(b, open) {
                    let args = split_top(&code[open + 1..close]);
                    match sink {
                        Sink::Exec | Sink::Builder => out.extend(argv_command(&args, &vars)),
                        _ => {
                            if let Some(p) = args.first().and_then(|a| path_of(a, &vars)) {
                                let flag = if matches!(sink, Sink::DeleteTree) {
                                    "-rf"
                                } else {
                                    "-f"
                                };
                                out.push(format!("rm {flag} -- {}", quote(&p)));
                            }
                        }
                    }
                }
            }
            Sink::GroovyList | Sink::DeleteReceiver => {
                // the receiver: `[…]` or `new File(…)` just before
                let recv_end = i + 1;
                let open_ch = if matches!(sink, Sink::GroovyList) {
                    b'['
                } else {
                    b'('
                };
                if let Some(open) = matching_open(b, i, open_ch) {
                    let inner = &code[open + 1..recv_end - 1];
                    let args = split_top(inner);
                    if matches!(sink, Sink::GroovyList) {
                        out.extend(argv_command(&args, &vars));
                    } else if code[..open].trim_end().ends_with("File")
                        && let Some(p) = args.first().and_then(|a| path_of(a, &vars))
                    {
                        out.push(format!("rm -f -- {}", quote(&p)));
                    }
                }
            }
        }
        i += key.len();
    }
    out
}

#[derive(Clone, Copy)]
enum Sink {
    Exec,
    Builder,
    GroovyList,
    Delete,
    DeleteTree,
    DeleteReceiver,
}

/// The `(` or `[` that `close` (the index of `)`/`]`) closes, scanning back.
fn matching_open(b: &[u8], close: usize, open_ch: u8) -> Option<usize> {
    let close_ch = if open_ch == b'[' { b']' } else { b')' };
    let mut depth = 0usize;
    let mut j = close + 1;
    while j > 0 {
        j -= 1;
        let c = b[j];
        if c == close_ch {
            depth += 1;
        } else if c == open_ch {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(j);
            }
        }
        if close - j > 8 * 1024 {
            return None;
        }
    }
    None
}

/// A command from `exec`/`ProcessBuilder` arguments: one string (split on whitespace by the
/// JVM), a `String[]`/`arrayOf`/`listOf`/`List.of` of words, or words as varargs.
fn argv_command(args: &[String], vars: &HashMap<String, Option<String>>) -> Option<String> {
    let words: Vec<String> = match args {
        [one] => {
            let one = one.trim();
            let list = [
                "new String[]",
                "arrayOf(",
                "listOf(",
                "List.of(",
                "Arrays.asList(",
                "[",
            ]
            .iter()
            .find_map(|p| one.strip_prefix(p));
            match list {
                Some(rest) => {
                    let inner = rest
                        .trim()
                        .trim_start_matches(['{', '('])
                        .trim_end_matches(['}', ')', ']']);
                    split_top(inner)
                        .iter()
                        .map(|w| fold(w, vars, 0).unwrap_or_else(|| "$ARG".into()))
                        .collect()
                }
                None => return fold(one, vars, 0),
            }
        }
        many => many
            .iter()
            .map(|w| fold(w, vars, 0).unwrap_or_else(|| "$ARG".into()))
            .collect(),
    };
    let (prog, rest) = words.split_first()?;
    Some(join(prog, rest))
}

/// A path argument: a folded string, `new File(…)`, `Paths.get(…)`/`Path.of(…)` (joined).
fn path_of(a: &str, vars: &HashMap<String, Option<String>>) -> Option<String> {
    let a = a.trim();
    for p in ["new File(", "File(", "Paths.get(", "Path.of(", "file("] {
        if let Some(inner) = a.strip_prefix(p).and_then(|r| r.strip_suffix(')')) {
            let parts: Option<Vec<String>> =
                split_top(inner).iter().map(|x| fold(x, vars, 0)).collect();
            return parts.map(|p| p.join("/"));
        }
    }
    fold(a, vars, 0)
}

/// `String c = …;`, `var c = …`, `def c = …`, `val c = …`: names assigned once.
fn assignments(code: &str) -> HashMap<String, Option<String>> {
    let mut vars: HashMap<String, Option<String>> = HashMap::new();
    for stmt in code.split([';', '\n']).take(10_000) {
        let s = stmt.trim();
        let s = ["String ", "var ", "def ", "val ", "final String "]
            .iter()
            .find_map(|p| s.strip_prefix(p))
            .unwrap_or(s);
        let Some((name, rhs)) = s.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if rhs.starts_with('=')
            || name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            continue;
        }
        let v = fold(rhs, &vars, 0);
        let seen = vars.contains_key(name);
        vars.insert(name.to_string(), if seen { None } else { v });
    }
    vars
}

/// Fold a Java/Groovy/Kotlin string expression.
fn fold(e: &str, vars: &HashMap<String, Option<String>>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let e = e.trim();
    let parts = split_plus(e);
    if parts.len() > 1 {
        let mut s = String::new();
        for p in parts {
            s.push_str(&fold(p, vars, depth + 1)?);
            if s.len() > MAX_TEXT {
                return None;
            }
        }
        return Some(s);
    }
    if let Some(body) = e.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return Some(
            body.replace("\\n", "\n")
                .replace("\\\"", "\"")
                .replace("\\\\", "\\"),
        );
    }
    if let Some(body) = e.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return Some(body.to_string());
    }
    match e {
        "System.getProperty(\"user.home\")" | "System.getenv(\"HOME\")" => {
            return Some("~".into());
        }
        "System.getProperty(\"java.io.tmpdir\")" => return Some("/tmp".into()),
        _ => {}
    }
    if e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return vars.get(e).cloned().flatten();
    }
    None
}

/// Split at top-level `+`.
fn split_plus(e: &str) -> Vec<&str> {
    let b = e.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'+' if depth == 0 => {
                out.push(&e[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&e[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jvm_commands_are_read() {
        let cases = [
            (
                "Runtime.getRuntime().exec(\"shutdown -h now\")",
                "shutdown -h now",
            ),
            (
                "Runtime.getRuntime().exec(new String[]{\"sh\",\"-c\",\"rm -rf /home\"})",
                "sh -c 'rm -rf /home'",
            ),
            (
                "new ProcessBuilder(\"rm\",\"-rf\",\"/var/lib/docker\").inheritIO().start()",
                "rm -rf /var/lib/docker",
            ),
            (
                "new ProcessBuilder(List.of(\"bash\", \"-c\", \"kill -9 -1\")).start();",
                "bash -c 'kill -9 -1'",
            ),
            ("\"rm -rf /opt/app\".execute()", "rm -rf /opt/app"),
            ("[\"sh\", \"-c\", \"reboot\"].execute()", "sh -c reboot"),
            (
                "Runtime.getRuntime().exec(arrayOf(\"rm\",\"-rf\",\"/srv/data\"))",
                "rm -rf /srv/data",
            ),
            (
                "String c = \"rm -rf \" + System.getProperty(\"user.home\");\nRuntime.getRuntime().exec(c);",
                "rm -rf ~",
            ),
            ("new File(\"/etc/hosts\").delete()", "rm -f -- /etc/hosts"),
            (
                "FileUtils.deleteDirectory(new File(System.getenv(\"HOME\")))",
                "rm -rf -- ~",
            ),
            (
                "Files.delete(Paths.get(\"/etc\", \"shadow\"))",
                "rm -f -- /etc/shadow",
            ),
        ];
        for (code, want) in cases {
            assert!(
                commands(code).iter().any(|c| c == want),
                "{code}: {:?}",
                commands(code)
            );
        }
        for code in [
            "System.out.println(40 + 2)",
            "println \"hello\"",
            "def f = new File(\"a.txt\"); println f.text",
            "String s = \"rm -rf /\"; System.out.println(s)",
        ] {
            assert!(commands(code).is_empty(), "{code}: {:?}", commands(code));
        }
    }
}
