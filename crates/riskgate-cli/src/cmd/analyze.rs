//! `riskgate code`, `riskgate sql` and `riskgate diff`: code (seed 001), SQL and change sets
//! (seed 003) read from a file or standard input. Code and SQL are decided by the gate like a
//! command (policy, approvals, audit log); a change set's class decides (A allow, B ask, C deny).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use riskgate::analyzers::diff::{DiffOptions, RiskClass, classify_diff_with};
use riskgate::explain::{RenderOptions, render};
use riskgate::gate::policy::Environment;
use riskgate::gate::{Context, Gate, prompt};
use riskgate::model::Language;
use riskgate::{Action, Assessment, Report};

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::exit::Code;
use crate::output::{Format, color_stdout};

/// Options shared by `code` and `sql`: how the gate decides.
#[derive(Debug, clap::Args)]
pub struct GateArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Run HIGH-risk input without asking (CRITICAL stays denied).
    #[arg(long)]
    force: bool,
    /// Accept the risk of HIGH-risk input without asking (CRITICAL stays denied).
    #[arg(long)]
    accept_risk: bool,
    /// Never prompt, even on a terminal.
    #[arg(long)]
    no_prompt: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Languages of `riskgate code`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Lang {
    /// Python.
    Python,
    /// JavaScript or TypeScript.
    Js,
    /// POSIX shell / bash.
    Sh,
    /// Perl.
    Perl,
    /// Ruby.
    Ruby,
    /// PHP.
    Php,
}

impl From<Lang> for Language {
    fn from(l: Lang) -> Language {
        match l {
            Lang::Python => Language::Python,
            Lang::Js => Language::Js,
            Lang::Sh => Language::Sh,
            Lang::Perl => Language::Perl,
            Lang::Ruby => Language::Ruby,
            Lang::Php => Language::Php,
        }
    }
}

/// Arguments of `riskgate code`.
#[derive(Debug, clap::Args)]
pub struct CodeArgs {
    /// The language (default: from the file's extension).
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    #[command(flatten)]
    gate: GateArgs,
    /// The file to read; `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// Arguments of `riskgate sql`.
#[derive(Debug, clap::Args)]
pub struct SqlArgs {
    /// SQL dialect: generic, postgres, mysql or sqlite.
    #[arg(long, default_value = "generic")]
    dialect: String,
    #[command(flatten)]
    gate: GateArgs,
    /// The file to read; `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// Arguments of `riskgate diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Classify the staged changes (`git diff --staged`).
    #[arg(long, conflicts_with_all = ["base", "file"])]
    staged: bool,
    /// Classify the changes since REV (`git diff REV`).
    #[arg(long, value_name = "REV", conflicts_with = "file")]
    base: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
    /// Leave out the files git does not track yet (included by default: a new file is part of
    /// the change).
    #[arg(long)]
    no_untracked: bool,
    /// A unified diff to read; `-` for standard input. Default: `git diff` of the working tree
    /// and its untracked files.
    file: Option<PathBuf>,
}

/// Run `riskgate code`.
pub fn run_code(args: CodeArgs) -> anyhow::Result<ExitCode> {
    let language = match (args.lang, args.file.as_deref()) {
        (Some(l), _) => Language::from(l),
        (None, Some(path)) if path != Path::new("-") => language_of(path).with_context(|| {
            format!(
                "cannot tell the language of {} from its extension: give --lang",
                path.display()
            )
        })?,
        (None, _) => anyhow::bail!("--lang is needed when the code comes from standard input"),
    };
    let code = read_input(args.file.as_deref())?;
    let action = Action::Code {
        code,
        language: Some(language),
    };
    gated(action, &args.gate)
}

/// Run `riskgate sql`.
pub fn run_sql(args: SqlArgs) -> anyhow::Result<ExitCode> {
    let dialect = args.dialect.to_ascii_lowercase();
    if ![
        "generic",
        "postgres",
        "postgresql",
        "mysql",
        "mariadb",
        "sqlite",
    ]
    .contains(&dialect.as_str())
    {
        anyhow::bail!(
            "--dialect `{}`: expected generic, postgres, mysql or sqlite",
            args.dialect
        );
    }
    let sql = read_input(args.file.as_deref())?;
    let action = Action::Sql {
        sql,
        dialect: Some(dialect),
    };
    gated(action, &args.gate)
}

/// Run `riskgate diff`.
pub fn run_diff(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let mut root = policy.cwd().to_path_buf();
    let text = if args.staged {
        let t = git_diff(&["diff", "--staged"])?;
        root = crate::cmd::untracked::toplevel()?;
        t
    } else if let Some(rev) = &args.base {
        let mut t = git_diff(&["diff", rev.as_str()])?;
        root = crate::cmd::untracked::toplevel()?;
        if !args.no_untracked {
            t.push_str(&crate::cmd::untracked::untracked_diff(&root)?);
        }
        t
    } else if let Some(path) = &args.file {
        read_input(Some(path))?
    } else {
        let mut t = git_diff(&["diff"])?;
        root = crate::cmd::untracked::toplevel()?;
        if !args.no_untracked {
            t.push_str(&crate::cmd::untracked::untracked_diff(&root)?);
        }
        t
    };
    let opts = DiffOptions {
        environment: if policy.environment().value == Environment::Production {
            riskgate::analyzers::Environment::Production
        } else {
            riskgate::analyzers::Environment::default()
        },
    };
    // what changed CI and build files will run, rated by the engine (their content in the tree)
    let engine = engine_for(&policy);
    let parsed = riskgate::analyzers::diff::parse_diff(&text);
    let extra = riskgate::repo::diff_run_criteria(&engine, Some(&policy), &root, &parsed);
    let report = classify_diff_with(&text, &opts, extra);
    match args.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => out!("{}", report.render_text()),
    }
    Ok(match report.class {
        RiskClass::A => Code::Allow,
        RiskClass::B => Code::Ask,
        RiskClass::C => Code::Deny,
    }
    .into())
}

fn language_of(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyw" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" => Language::Js,
        "sh" | "bash" | "zsh" | "ksh" => Language::Sh,
        "pl" | "pm" => Language::Perl,
        "rb" => Language::Ruby,
        "php" => Language::Php,
        _ => return None,
    })
}

fn read_input(path: Option<&Path>) -> anyhow::Result<String> {
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
        }
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read standard input")?;
            Ok(s)
        }
    }
}

/// `git ARGS` in the current directory; its output is the diff (git is run, the diff is not).
/// Outside a git work tree: one line saying so and how to give a diff instead.
fn git_diff(args: &[&str]) -> anyhow::Result<String> {
    let inside = std::process::Command::new("git")
        .args(["rev-parse", "--is-inside-work-tree"])
        .stderr(std::process::Stdio::null())
        .output()
        .context("cannot run git")?;
    if !inside.status.success() || inside.stdout.trim_ascii() != b"true" {
        anyhow::bail!(
            "not inside a git work tree: run `riskgate diff` in a repository, or give a diff file (`riskgate diff FILE`, `-` for standard input)"
        );
    }
    let out = std::process::Command::new("git")
        .args(["-c", "core.quotepath=off", "--no-pager"])
        .args(args)
        .args(["--no-color", "--no-ext-diff", "-M"])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        anyhow::bail!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Assess `action`, decide with the gate, print, and exit with the decision's code.
fn gated(action: Action, args: &GateArgs) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    let assessment: Assessment = engine.assess(&action);
    let mut ctx = Context::new(policy.cwd().to_path_buf())
        .interactive(!args.no_prompt && prompt::is_interactive());
    ctx.force = args.force;
    ctx.accept_risk = args.accept_risk;
    let mut gate = Gate::new(policy);
    let outcome = gate.evaluate(&action, assessment, &ctx);
    for w in &outcome.warnings {
        eprintln!("riskgate: warning: {w}");
    }
    let decision = outcome.decision;
    match args.format {
        Format::Json => {
            let report = Report::from_outcome(outcome);
            outln!("{}", serde_json::to_string_pretty(&report)?);
        }
        Format::Text => {
            let mut shown = outcome.assessment.clone();
            shown.level = outcome.level;
            shown.score = outcome.score;
            out!(
                "{}",
                render(
                    &shown,
                    Some(decision),
                    RenderOptions {
                        color: color_stdout()
                    }
                )
            );
            outln!("  {}: {}", decision, outcome.reason);
        }
    }
    Ok(Code::from(decision).into())
}
