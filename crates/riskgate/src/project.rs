//! The agent's view: a command that runs what a file of the project defines — `npm install`
//! (lifecycle scripts), `npm test`, `npm run X`, `yarn X`, `make T`, `docker build .`,
//! `just x`, `task x`, `./script.sh`, `bash script.sh`, `pip install .` — is rated together
//! with what it will run, read from the file in the working directory's project (never from
//! outside it). `npm install` with a `postinstall` that pipes a download into a shell is HIGH.
//!
//! Bounded: files over [`MAX_DEFINITION_BYTES`] are not read, at most [`MAX_SNIPPETS`]
//! definitions and [`MAX_TOTAL_BYTES`] of their text per command, definitions that run other
//! definitions are followed [`MAX_DEPTH`] levels deep, and every snippet goes through the shell
//! engine with its own budgets. A definition file that cannot be read, is too large or does not
//! parse makes the assessment not fully analyzed (HIGH, needs a person): never a reason to
//! allow. A file that does not exist runs nothing (the tool fails).

use std::path::{Path, PathBuf};

use riskgate_model::{Action, Finding, Location, RiskLevel};
use riskgate_repo::kind::{kind_of, shebang_is_shell};
use riskgate_repo::{Extracted, FileKind, Snippet, SnippetLang};
use riskgate_shell::{ParsedCommand, SimpleCommand};

use crate::Engine;
use crate::verdict::Scope;

/// Largest definition file read.
pub const MAX_DEFINITION_BYTES: u64 = 256 * 1024;
/// Most definitions assessed for one command.
pub const MAX_SNIPPETS: usize = 64;
/// Most bytes of definitions assessed for one command.
pub const MAX_TOTAL_BYTES: usize = 512 * 1024;
/// How deep definitions that run other definitions are followed.
pub const MAX_DEPTH: u32 = 2;

/// What a command runs from the project: findings placed on the command, the files read, and
/// why the analysis is incomplete (if it is).
#[derive(Debug, Default)]
pub(crate) struct Definitions {
    pub findings: Vec<Finding>,
    pub files: Vec<String>,
    pub incomplete: Option<String>,
}

/// A request for definitions: which file, how to read it, which of its snippets.
struct Request {
    file: PathBuf,
    kind: FileKind,
    select: Select,
    /// How the command is shown in descriptions (`npm install`).
    label: String,
}

enum Select {
    /// Snippets with one of these names, in this order.
    Names(Vec<String>),
    /// Snippets named so, and what they depend on (make, just).
    WithDeps(Vec<String>),
    /// The default target or recipe (the first, or the one named `default`).
    Default,
    /// Every snippet of the file named `build` (a Dockerfile's RUN steps) and its notices.
    Build,
    /// The whole file (scripts, setup.py).
    Whole,
}

struct Budget {
    snippets: usize,
    bytes: usize,
}

/// The definitions the commands of `parsed` run, assessed. `depth` counts how many
/// definitions deep this command already is.
pub(crate) fn definitions(
    engine: &Engine,
    parsed: &ParsedCommand,
    scope: &Scope,
    cwd: &Path,
    depth: u32,
) -> Definitions {
    let mut out = Definitions::default();
    if depth >= MAX_DEPTH {
        return out;
    }
    let mut budget = Budget {
        snippets: MAX_SNIPPETS,
        bytes: MAX_TOTAL_BYTES,
    };
    for c in &parsed.commands {
        if c.remote.is_some() {
            continue;
        }
        for req in requests(c, cwd) {
            read_request(engine, scope, c, &req, depth, &mut budget, &mut out);
        }
    }
    out
}

fn positionals(c: &SimpleCommand) -> Vec<&str> {
    c.positionals().map(|w| w.text.as_str()).collect()
}

/// The value of option `names` (`-C dir`, `--directory=dir`).
fn option_value<'a>(c: &'a SimpleCommand, names: &[&str]) -> Option<&'a str> {
    let words: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    for (i, w) in words.iter().enumerate() {
        for n in names {
            if w == n {
                return words.get(i + 1).copied();
            }
            if let Some(v) = w.strip_prefix(n).and_then(|r| r.strip_prefix('=')) {
                return Some(v);
            }
        }
    }
    None
}

/// The words of `c` after the program that are not options or option values (a rough argv
/// reading for tools whose options take values: make, just, task, docker).
fn operands<'a>(c: &'a SimpleCommand, valued: &[&str]) -> Vec<&'a str> {
    let words: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let mut out = Vec::new();
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        if w.starts_with('-') {
            skip = valued.contains(&w);
            continue;
        }
        out.push(w);
    }
    out
}

fn first_existing(dir: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| dir.join(n)).find(|p| p.exists())
}

/// What `c` runs from files, if anything.
fn requests(c: &SimpleCommand, cwd: &Path) -> Vec<Request> {
    let program = c.program.as_str();
    let pos = positionals(c);
    let mut out = Vec::new();
    match program {
        "npm" | "pnpm" | "yarn" | "bun" => {
            let dir = option_value(c, &["--prefix", "--cwd", "-C", "--dir"])
                .map_or_else(|| cwd.to_path_buf(), |d| cwd.join(d));
            let sub = pos.first().copied();
            let script = |name: &str| {
                vec![
                    format!("pre{name}"),
                    name.to_string(),
                    format!("post{name}"),
                ]
            };
            let names = match (program, sub) {
                (_, Some("install" | "i" | "ci" | "isntall" | "add")) | ("yarn", None) => {
                    // `npm install PKG` installs a package; its own scripts are not in this project
                    if pos.len() > 1 && sub != Some("ci") {
                        Vec::new()
                    } else {
                        [
                            "preinstall",
                            "install",
                            "postinstall",
                            "prepublish",
                            "preprepare",
                            "prepare",
                            "postprepare",
                        ]
                        .iter()
                        .map(|s| s.to_string())
                        .collect()
                    }
                }
                (_, Some("test" | "t" | "tst")) => script("test"),
                (_, Some("start")) => script("start"),
                (_, Some("stop")) => script("stop"),
                (_, Some("restart")) => script("restart"),
                (_, Some("run" | "run-script" | "rum" | "urn")) => match pos.get(1) {
                    Some(name) => script(name),
                    None => Vec::new(),
                },
                (_, Some("publish")) => [
                    "prepublishOnly",
                    "prepack",
                    "prepare",
                    "postpack",
                    "publish",
                    "postpublish",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect(),
                (_, Some("pack")) => ["prepack", "prepare", "postpack"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                // `yarn build`, `pnpm lint`: a script of that name, when there is one
                ("yarn" | "pnpm" | "bun", Some(name)) => script(name),
                _ => Vec::new(),
            };
            if !names.is_empty() {
                let label = format!(
                    "{program} {}",
                    pos.iter().take(2).copied().collect::<Vec<_>>().join(" ")
                );
                out.push(Request {
                    file: dir.join("package.json"),
                    kind: FileKind::PackageJson,
                    select: Select::Names(names),
                    label: label.trim().to_string(),
                });
            }
        }
        "make" | "gmake" => {
            let dir = option_value(c, &["-C", "--directory"])
                .map_or_else(|| cwd.to_path_buf(), |d| cwd.join(d));
            let file = match option_value(c, &["-f", "--file", "--makefile"]) {
                Some(f) => Some(dir.join(f)),
                None => first_existing(&dir, &["GNUmakefile", "makefile", "Makefile"]),
            };
            let targets: Vec<String> = operands(
                c,
                &[
                    "-C",
                    "-f",
                    "--file",
                    "--makefile",
                    "--directory",
                    "-j",
                    "-l",
                    "-o",
                    "-W",
                    "-I",
                ],
            )
            .into_iter()
            .filter(|t| !t.contains('='))
            .map(str::to_string)
            .collect();
            if let Some(file) = file {
                let select = if targets.is_empty() {
                    Select::Default
                } else {
                    Select::WithDeps(targets.clone())
                };
                out.push(Request {
                    file,
                    kind: FileKind::Makefile,
                    select,
                    label: format!("make {}", targets.join(" ")).trim().to_string(),
                });
            }
        }
        "just" => {
            let dir = option_value(c, &["-d", "--working-directory"])
                .map_or_else(|| cwd.to_path_buf(), |d| cwd.join(d));
            let file = match option_value(c, &["-f", "--justfile"]) {
                Some(f) => Some(cwd.join(f)),
                None => first_existing(&dir, &["justfile", "Justfile", ".justfile"]),
            };
            let recipe = operands(
                c,
                &[
                    "-f",
                    "--justfile",
                    "-d",
                    "--working-directory",
                    "--set",
                    "--shell",
                    "--dotenv-filename",
                    "--dotenv-path",
                ],
            )
            .into_iter()
            .find(|t| !t.contains('='))
            .map(str::to_string);
            if let Some(file) = file {
                out.push(Request {
                    file,
                    kind: FileKind::Justfile,
                    select: recipe
                        .clone()
                        .map_or(Select::Default, |r| Select::WithDeps(vec![r])),
                    label: format!("just {}", recipe.unwrap_or_default())
                        .trim()
                        .to_string(),
                });
            }
        }
        "task" | "go-task" => {
            let dir = option_value(c, &["-d", "--dir"])
                .map_or_else(|| cwd.to_path_buf(), |d| cwd.join(d));
            let file = match option_value(c, &["-t", "--taskfile"]) {
                Some(f) => Some(cwd.join(f)),
                None => first_existing(
                    &dir,
                    &[
                        "Taskfile.yml",
                        "Taskfile.yaml",
                        "taskfile.yml",
                        "taskfile.yaml",
                        "Taskfile.dist.yml",
                        "Taskfile.dist.yaml",
                    ],
                ),
            };
            let mut tasks: Vec<String> = operands(
                c,
                &[
                    "-t",
                    "--taskfile",
                    "-d",
                    "--dir",
                    "-o",
                    "--output",
                    "-c",
                    "--color",
                    "--concurrency",
                ],
            )
            .into_iter()
            .filter(|t| !t.contains('='))
            .map(str::to_string)
            .collect();
            if tasks.is_empty() {
                tasks.push("default".to_string());
            }
            if let Some(file) = file {
                out.push(Request {
                    file,
                    kind: FileKind::Taskfile,
                    label: format!("task {}", tasks.join(" ")),
                    select: Select::Names(tasks),
                });
            }
        }
        "docker" | "podman" | "buildah" | "nerdctl" => {
            let words = operands(
                c,
                &[
                    "-f",
                    "--file",
                    "-t",
                    "--tag",
                    "--build-arg",
                    "--target",
                    "--platform",
                    "--network",
                    "--secret",
                    "--ssh",
                    "--cache-from",
                    "--cache-to",
                    "-o",
                    "--output",
                    "--label",
                    "--progress",
                    "--builder",
                ],
            );
            let is_build = matches!(
                words.as_slice(),
                ["build", ..] | ["buildx", "build", ..] | ["image", "build", ..] | ["bud", ..]
            );
            if is_build
                && let Some(context) = words.last().filter(|w| !matches!(**w, "build" | "bud"))
            {
                let ctx_dir = cwd.join(context);
                let file = match option_value(c, &["-f", "--file"]) {
                    Some(f) => cwd.join(f),
                    None => {
                        first_existing(&ctx_dir, &["Dockerfile", "Containerfile", "dockerfile"])
                            .unwrap_or_else(|| ctx_dir.join("Dockerfile"))
                    }
                };
                out.push(Request {
                    file,
                    kind: FileKind::Dockerfile,
                    select: Select::Build,
                    label: format!("{program} build"),
                });
            }
        }
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "source" | "." => {
            let has_c = c.raw_argv.iter().skip(1).any(|w| {
                w.text == "-c"
                    || (w.text.starts_with('-')
                        && !w.text.starts_with("--")
                        && w.text.contains('c'))
            });
            if !has_c
                && let Some(script) = operands(c, &["-o", "-O", "--init-file", "--rcfile"]).first()
            {
                out.push(Request {
                    file: cwd.join(script),
                    kind: FileKind::ShellScript,
                    select: Select::Whole,
                    label: format!("{program} {script}"),
                });
            }
        }
        "pip" | "pip3" | "python" | "python3" => {
            let installs_here = matches!(
                pos.as_slice(),
                ["install", ".", ..] | ["install", "-e", ".", ..]
            ) || c.raw_argv.iter().any(|w| w.text == "setup.py")
                || (pos.first() == Some(&"install")
                    && c.raw_argv
                        .iter()
                        .any(|w| w.text == "-e" || w.text == "--editable")
                    && pos.contains(&"."));
            if installs_here {
                out.push(Request {
                    file: cwd.join("setup.py"),
                    kind: FileKind::SetupPy,
                    select: Select::Whole,
                    label: format!("{program} {}", pos.join(" ")),
                });
            }
        }
        _ => {}
    }
    // a script run by its path: `./deploy.sh`, `scripts/x.sh`
    if let Some(argv0) = c.raw_argv.first().map(|w| w.text.as_str())
        && argv0.contains('/')
        && !c.raw_argv.first().is_some_and(|w| w.dynamic)
    {
        out.push(Request {
            file: cwd.join(argv0),
            kind: FileKind::ShellScript,
            select: Select::Whole,
            label: argv0.to_string(),
        });
    }
    out
}

/// Read, extract and assess one request.
fn read_request(
    engine: &Engine,
    scope: &Scope,
    c: &SimpleCommand,
    req: &Request,
    depth: u32,
    budget: &mut Budget,
    out: &mut Definitions,
) {
    let project = scope.project();
    let abs = crate::paths::resolve(
        &req.file.to_string_lossy(),
        &project.cwd,
        project.home.as_deref(),
    );
    let Some(rel) = project
        .relative(&abs)
        .map(|r| r.to_string_lossy().replace('\\', "/"))
    else {
        return; // outside the project: not the project's own definitions
    };
    let meta = match std::fs::metadata(&abs) {
        Ok(m) if m.is_file() => m,
        Ok(_) => return,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => {
            out.incomplete = Some(format!(
                "`{}` runs {rel}, which cannot be read: {e}",
                req.label
            ));
            return;
        }
    };
    if meta.len() > MAX_DEFINITION_BYTES {
        out.incomplete = Some(format!(
            "`{}` runs {rel}, which is over {} KiB",
            req.label,
            MAX_DEFINITION_BYTES / 1024
        ));
        return;
    }
    let text = match std::fs::read(&abs).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => {
            if req.kind == FileKind::ShellScript {
                return; // a binary run by its path: not a script
            }
            out.incomplete = Some(format!(
                "`{}` runs {rel}, which is not UTF-8 text",
                req.label
            ));
            return;
        }
        Err(e) => {
            out.incomplete = Some(format!(
                "`{}` runs {rel}, which cannot be read: {e}",
                req.label
            ));
            return;
        }
    };
    // a file run by its path is a shell script only with a shell shebang or extension
    let kind = if req.kind == FileKind::ShellScript && matches!(req.select, Select::Whole) {
        match kind_of(&rel) {
            Some(FileKind::ShellScript) => FileKind::ShellScript,
            _ if shebang_is_shell(text.as_bytes()) => FileKind::ShellScript,
            _ if text.starts_with("#!") || kind_of(&rel).is_some() => return,
            // `bash x` reads any file as a script
            _ if c.program != "sh"
                && c.program != "bash"
                && c.program != "dash"
                && c.program != "zsh"
                && c.program != "ksh"
                && c.program != "source"
                && c.program != "." =>
            {
                return;
            }
            _ => FileKind::ShellScript,
        }
    } else {
        req.kind
    };
    let ex = riskgate_repo::extract(&rel, kind, &text);
    if let Some(n) = ex
        .notices
        .iter()
        .find(|n| n.rule_id == riskgate_repo::snippet::NOT_ANALYZED)
    {
        out.incomplete = Some(format!(
            "`{}` runs {rel}, which could not be read: {}",
            req.label,
            n.detail.clone().unwrap_or_default()
        ));
        return;
    }
    out.files.push(rel.clone());
    let dir = abs
        .parent()
        .map_or_else(|| project.cwd.clone(), Path::to_path_buf);
    for s in select(&ex, &req.select) {
        if s.text.trim().is_empty() {
            continue;
        }
        if budget.snippets == 0 || budget.bytes < s.text.len() {
            out.incomplete = Some(format!(
                "`{}` runs more of {rel} than riskgate reads for one command",
                req.label
            ));
            return;
        }
        budget.snippets -= 1;
        budget.bytes -= s.text.len();
        let a = match s.lang {
            SnippetLang::Code(language) => engine.assess(&Action::Code {
                code: s.text.clone(),
                language: Some(language),
            }),
            _ => {
                engine
                    .assess_command_depth(&s.text, None, Some(scope), &dir, depth + 1)
                    .0
            }
        };
        if a.degraded {
            out.incomplete = Some(format!(
                "`{}` runs {} of {rel}, which was not fully analyzed",
                req.label, s.context
            ));
        }
        for f in a.findings {
            if f.level == RiskLevel::Safe || f.rule_id == riskgate_model::INCOMPLETE_RULE {
                continue;
            }
            let (line, column) = match (s.lang, f.location.as_ref().and_then(|l| l.line)) {
                (SnippetLang::Code(_), Some(l)) if l >= 1 => s
                    .lines
                    .get(l as usize - 1)
                    .copied()
                    .unwrap_or_else(|| s.start()),
                _ => s.position_of(f.span.map_or(0, |sp| sp.start)),
            };
            out.findings
                .push(placed(f, c, &req.label, &rel, s, line, column));
        }
    }
    if matches!(req.select, Select::Build) {
        for n in &ex.notices {
            let f = riskgate_repo::rules::finding_for(n, &rel);
            let s = Snippet::new(
                n.context.clone(),
                n.matched.clone(),
                SnippetLang::Shell,
                vec![(n.line, n.column)],
            );
            out.findings
                .push(placed(f, c, &req.label, &rel, &s, n.line, n.column));
        }
    }
}

/// A definition's finding placed on the command that runs it.
fn placed(
    mut f: Finding,
    c: &SimpleCommand,
    label: &str,
    rel: &str,
    s: &Snippet,
    line: u32,
    column: u32,
) -> Finding {
    f.description = format!(
        "`{label}` runs {} ({rel}:{line}): {}",
        s.context, f.description
    );
    f.span = Some(c.span);
    f.location = Some(Location {
        file: Some(rel.to_string()),
        line: Some(line),
        column: Some(column),
        context: Some(format!("{} of {rel}", s.context)),
        end_line: None,
    });
    f
}

/// The snippets a request selects, in the order they run (dependencies first).
fn select<'a>(ex: &'a Extracted, sel: &Select) -> Vec<&'a Snippet> {
    let by_name = |n: &str| -> Vec<&'a Snippet> {
        ex.snippets
            .iter()
            .filter(|s| s.name.as_deref() == Some(n))
            .collect()
    };
    match sel {
        Select::Whole => ex.snippets.iter().collect(),
        Select::Build => ex
            .snippets
            .iter()
            .filter(|s| s.name.as_deref() == Some("build"))
            .collect(),
        Select::Names(names) => names.iter().flat_map(|n| by_name(n)).collect(),
        Select::Default => {
            let first = ex
                .snippets
                .iter()
                .find(|s| {
                    s.name.as_deref() == Some("default") || s.trigger.as_deref() == Some("just")
                })
                .or_else(|| {
                    ex.snippets.iter().find(|s| {
                        s.name
                            .as_deref()
                            .is_some_and(|n| !n.starts_with('.') && !n.contains('%'))
                    })
                });
            match first.and_then(|s| s.name.clone()) {
                Some(n) => select(ex, &Select::WithDeps(vec![n])),
                None => Vec::new(),
            }
        }
        Select::WithDeps(names) => {
            let mut out: Vec<&Snippet> = Vec::new();
            let mut seen: Vec<String> = Vec::new();
            let mut stack: Vec<(String, u32)> =
                names.iter().rev().map(|n| (n.clone(), 0)).collect();
            while let Some((n, d)) = stack.pop() {
                if seen.contains(&n) || seen.len() >= MAX_SNIPPETS {
                    continue;
                }
                seen.push(n.clone());
                for s in by_name(&n) {
                    if d < 8 {
                        stack.extend(s.deps.iter().rev().map(|x| (x.clone(), d + 1)));
                    }
                    out.push(s);
                }
            }
            out
        }
    }
}
