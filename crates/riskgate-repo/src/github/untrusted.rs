//! What a job does with what outsiders hand it: commands that run the code of the working
//! tree (installs with lifecycle scripts, builds, tests, scripts of the checkout) — which in a
//! privileged job that checked out a pull request's head or downloaded a fork run's artifact
//! is the outsider's code — secrets written into files that an artifact uploads, and step
//! outputs that carry untrusted text.

use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

use super::checks::{is_printer, is_untrusted, mentions_secret_word, writes_to_file};
use crate::text::{normalize_gha, variable_name};

/// Most commands of one script looked at.
const MAX_COMMANDS: usize = 512;

/// The commands of a script that run code of the working tree: `(offset in the normalized
/// text, the command as written)`.
pub(crate) fn workspace_runs(script: &str) -> (String, Vec<(usize, String)>) {
    let (normalized, _) = normalize_gha(script);
    let parsed = riskgate_shell::parse(&normalized);
    let mut hits: Vec<(usize, String)> = Vec::new();
    for c in parsed.commands.iter().take(MAX_COMMANDS) {
        if runs_workspace(c) && !hits.iter().any(|(at, _)| *at == c.span.start) {
            hits.push((c.span.start, shown(&parsed, c)));
        }
    }
    (normalized, hits)
}

fn shown(parsed: &ParsedCommand, c: &SimpleCommand) -> String {
    parsed
        .source
        .get(c.span.start..c.span.end)
        .unwrap_or("")
        .chars()
        .take(160)
        .collect()
}

/// Subcommands of JavaScript package managers that neither install the project nor run its
/// scripts.
const JS_INERT: &[&str] = &[
    "config",
    "view",
    "info",
    "show",
    "whoami",
    "dist-tag",
    "cache",
    "login",
    "logout",
    "ping",
    "search",
    "help",
    "outdated",
    "ls",
    "list",
    "audit",
    "set",
    "get",
    "owner",
    "access",
    "token",
    "deprecate",
    "unpublish",
    "pkg",
    "why",
    "bin",
    "prefix",
    "root",
];

/// Whether a command runs code of the working tree (its scripts, its build, its tests, the
/// lifecycle scripts of the dependencies it names).
fn runs_workspace(c: &SimpleCommand) -> bool {
    let raw0 = c.raw_argv.first().map_or("", |w| w.text.as_str());
    let args: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    if args
        .iter()
        .any(|a| matches!(*a, "--version" | "--help" | "-h"))
    {
        return false;
    }
    // a program of the working tree: `./build.sh`, `scripts/ci`, `bin/setup`
    if relative_path(raw0) {
        return true;
    }
    let sub = args.iter().find(|a| !a.starts_with('-')).copied();
    let has = |o: &str| args.contains(&o);
    match c.program.as_str() {
        "npm" | "pnpm" | "yarn" | "bun" => {
            let installs = matches!(sub, None | Some("install" | "i" | "ci" | "add"));
            if installs && (has("--ignore-scripts") || has("-g") || has("--global")) {
                return false;
            }
            !sub.is_some_and(|s| JS_INERT.contains(&s))
        }
        "make" | "gmake" | "ninja" | "just" | "task" | "rake" | "mage" | "mvn" | "gradle"
        | "ant" | "sbt" | "lein" | "pytest" | "tox" | "nox" | "mix" => true,
        "cargo" => matches!(
            sub,
            Some(
                "build"
                    | "b"
                    | "test"
                    | "t"
                    | "run"
                    | "r"
                    | "check"
                    | "c"
                    | "bench"
                    | "clippy"
                    | "doc"
                    | "d"
                    | "nextest"
                    | "publish"
                    | "package"
            )
        ),
        "go" => match sub {
            Some("build" | "test" | "run" | "generate") => true,
            Some("install") => args.iter().any(|a| a.starts_with('.')),
            _ => false,
        },
        "pip" | "pip3" | "uv" | "pipx" => local_pip_install(&args),
        "poetry" | "pdm" | "hatch" => matches!(sub, Some("install" | "run" | "build" | "sync")),
        "composer" => matches!(
            sub,
            None | Some("install" | "update" | "run" | "run-script" | "test")
        ),
        "bundle" => matches!(sub, None | Some("install" | "exec")),
        "dotnet" => matches!(
            sub,
            Some("build" | "test" | "run" | "restore" | "publish" | "pack")
        ),
        "swift" => matches!(sub, Some("build" | "test" | "run")),
        "cmake" => has("--build") || args.iter().any(|a| *a == "." || a.starts_with("-S")),
        "python" | "python3" | "node" | "ruby" | "perl" | "php" | "bash" | "sh" | "zsh"
        | "deno" => interpreter_runs_workspace(&args),
        _ => false,
    }
}

/// A path inside the working tree (`./x`, `scripts/x`), not an absolute path or a variable.
fn relative_path(w: &str) -> bool {
    !w.is_empty()
        && !w.starts_with(['/', '~', '$', '-'])
        && !w.contains("://")
        && (w.starts_with("./") || w.starts_with("../") || w.contains('/'))
}

/// `pip install -e .`, `pip install .`, `pip install -r requirements.txt` (the project's
/// choice of packages, whose build hooks run).
fn local_pip_install(args: &[&str]) -> bool {
    let Some(at) = args.iter().position(|a| *a == "install" || *a == "sync") else {
        return false;
    };
    let rest = args.get(at + 1..).unwrap_or(&[]);
    args.get(at) == Some(&"sync")
        || rest.iter().any(|a| {
            matches!(*a, "-e" | "--editable" | "-r" | "--requirement" | ".")
                || a.starts_with("./")
                || a.starts_with("-r")
        })
}

/// `python setup.py`, `node scripts/build.js`, `bash ./ci.sh`, `python -m pytest`.
fn interpreter_runs_workspace(args: &[&str]) -> bool {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if *a == "-m" {
            return match args.get(i + 1) {
                Some(&("pytest" | "tox" | "nox" | "build" | "unittest" | "setup")) => true,
                Some(&"pip") => local_pip_install(args.get(i + 2..).unwrap_or(&[])),
                _ => false,
            };
        }
        if matches!(*a, "-c" | "-e" | "--eval" | "-p" | "--print") {
            return false;
        }
        if !a.starts_with('-') {
            let file = a.rsplit('/').next().unwrap_or(a);
            return relative_path(a) || (file.contains('.') && !a.starts_with(['/', '$', '~']));
        }
        i += 1;
    }
    false
}

/// The files a shell script writes a secret into: `(offset in the normalized text, the file,
/// the command as written)`. A secret is a `secrets.*` template or a variable of `env`.
pub(crate) fn secret_writes(
    script: &str,
    env: &[String],
) -> (String, Vec<(usize, String, String)>) {
    let (normalized, _) = normalize_gha(script);
    let parsed = riskgate_shell::parse(&normalized);
    let mut out = Vec::new();
    let secret = |w: &str| mentions_secret_word(w, env);
    for (i, c) in parsed.commands.iter().enumerate().take(MAX_COMMANDS) {
        if !is_printer(c) || !c.raw_argv.iter().skip(1).any(|w| secret(&w.text)) {
            continue;
        }
        // the printer's own redirection, or a `tee FILE` it feeds
        let mut targets: Vec<&str> = c
            .redirects
            .iter()
            .filter(|r| matches!(r.op.as_str(), ">" | ">>" | ">|" | "&>" | "&>>" | "1>"))
            .map(|r| r.target.text.as_str())
            .collect();
        if !writes_to_file(c)
            && let Some(tee) = parsed.commands.iter().find(|d| {
                d.program == "tee"
                    && matches!(&d.stdin, Some(StdinSource::Pipe { index }) if *index == i)
            })
        {
            targets.extend(
                tee.raw_argv
                    .iter()
                    .skip(1)
                    .map(|w| w.text.as_str())
                    .filter(|w| !w.starts_with('-')),
            );
        }
        for t in targets {
            if !t.starts_with("/dev/") && !t.contains("GITHUB_") {
                out.push((c.span.start, t.to_string(), shown(&parsed, c)));
            }
        }
    }
    (normalized, out)
}

/// Whether an upload path (a line of `actions/upload-artifact`'s `path:`: a file, a
/// directory, a glob) takes `file`.
pub(crate) fn uploads_file(upload: &str, file: &str) -> bool {
    let clean = |p: &str| -> String {
        let p = p.trim().trim_matches(['"', '\'']);
        let p = p
            .strip_prefix("${GITHUB_WORKSPACE}/")
            .or_else(|| p.strip_prefix("$GITHUB_WORKSPACE/"))
            .unwrap_or(p);
        let p = p.strip_prefix("./").unwrap_or(p);
        p.trim_end_matches('/').to_string()
    };
    let (u, f) = (clean(upload), clean(file));
    if u.is_empty() || u.starts_with('!') || f.is_empty() {
        return false;
    }
    u == "." || u == f || f.starts_with(&format!("{u}/")) || (u.contains('*') && glob(&u, &f))
}

/// `*` matches any run of characters (`**` too, across `/`), everything else itself.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    for mid in parts.iter().skip(1).take(parts.len().saturating_sub(2)) {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether a script puts untrusted text into its step's outputs (`>> $GITHUB_OUTPUT`, the
/// older `::set-output`): an untrusted expression, an output of a tainted step, or a variable
/// holding one (set in the script, or in the step's `env:`, named in `env_tainted`) in a command
/// that writes the outputs. A script whose writes the parser does not show is judged whole.
pub(crate) fn taints_outputs(script: &str, tainted: &[String], env_tainted: &[String]) -> bool {
    let writes = script.contains("GITHUB_OUTPUT") || script.contains("::set-output");
    if !writes {
        return false;
    }
    let (normalized, found) = normalize_gha(script);
    let bad = |expr: &str| is_untrusted(expr) || from_tainted_step(expr, tainted);
    let mut vars: Vec<String> = found
        .iter()
        .filter(|t| bad(&t.expr))
        .map(|t| variable_name(&t.expr))
        .collect();
    vars.extend(env_tainted.iter().cloned());
    if vars.is_empty() {
        return false;
    }
    let parsed = riskgate_shell::parse(&normalized);
    if !parsed.fully_parsed {
        return true;
    }
    let carries = |w: &str, vars: &[String]| vars.iter().any(|v| mentions_var(w, v));
    // variables assigned from tainted text (twice round: `A=$T; B=$A`)
    for _ in 0..2 {
        for c in parsed.commands.iter().take(MAX_COMMANDS) {
            for (name, w) in &c.assignments {
                if carries(&w.text, &vars) && !vars.contains(name) {
                    vars.push(name.clone());
                }
            }
            if c.program.is_empty() || c.program == "export" || c.program == "local" {
                for w in c.raw_argv.iter().skip(1) {
                    if let Some((name, value)) = w.text.split_once('=')
                        && carries(value, &vars)
                        && !vars.iter().any(|v| v == name)
                    {
                        vars.push(name.to_string());
                    }
                }
            }
            // `$(… "$T" …)` feeds the command it is part of: taint what it is assigned to
        }
    }
    let mut seen_write = false;
    for c in parsed.commands.iter().take(MAX_COMMANDS) {
        let to_outputs = c
            .redirects
            .iter()
            .any(|r| r.op.starts_with('>') && r.target.text.contains("GITHUB_OUTPUT"))
            || c.raw_argv.iter().any(|w| w.text.contains("::set-output"));
        if !to_outputs {
            continue;
        }
        seen_write = true;
        if c.raw_argv.iter().skip(1).any(|w| carries(&w.text, &vars)) {
            return true;
        }
    }
    !seen_write
}

/// Whether a word reads variable `name` (`$NAME`, `${NAME}`, `${NAME:-x}`).
fn mentions_var(w: &str, name: &str) -> bool {
    w.contains(&format!("${{{name}}}"))
        || w.contains(&format!("${{{name}:"))
        || w.match_indices(&format!("${name}")).any(|(i, m)| {
            !w[i + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// Whether an expression reads an output of a step in `tainted` (`steps.ID.outputs.X`).
pub(crate) fn from_tainted_step(expr: &str, tainted: &[String]) -> bool {
    let l = expr.to_ascii_lowercase();
    tainted
        .iter()
        .any(|id| l.contains(&format!("steps.{}.outputs", id.to_ascii_lowercase())))
}
