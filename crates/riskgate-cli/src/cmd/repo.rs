//! `riskgate repo scan [PATH]`: rate what a repository's CI pipelines, build files, package
//! scripts, hooks and shell scripts will run; text (spans underlined), JSON or SARIF 2.1.0;
//! exit 4 when a result reaches `--fail-on` (default HIGH), else 0.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use riskgate::RiskLevel;
use riskgate::explain::{RenderOptions, render};
use riskgate::repo_files::report::{ResultKind, ScanReport};

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::exit::Code;
use crate::output::color_stdout;

/// Arguments of `riskgate repo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Rate every command and code snippet the CI and build files of a tree will run.
    Scan(ScanArgs),
}

/// Output formats of `repo scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RepoFormat {
    /// For people: results by file, spans underlined.
    Text,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning upload.
    Sarif,
}

/// A threshold level, or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Threshold {
    Low,
    Medium,
    High,
    Critical,
    /// Never fail.
    Never,
}

impl Threshold {
    fn level(self) -> Option<RiskLevel> {
        match self {
            Threshold::Low => Some(RiskLevel::Low),
            Threshold::Medium => Some(RiskLevel::Medium),
            Threshold::High => Some(RiskLevel::High),
            Threshold::Critical => Some(RiskLevel::Critical),
            Threshold::Never => None,
        }
    }
}

#[derive(Debug, clap::Args)]
struct ScanArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = RepoFormat::Text)]
    format: RepoFormat,
    /// Exit 4 when any result is at this level or above.
    #[arg(long, value_enum, default_value_t = Threshold::High)]
    fail_on: Threshold,
    /// Text format: show results from this level up (JSON and SARIF hold every result;
    /// SARIF leaves out SAFE).
    #[arg(long, value_enum, default_value_t = Threshold::Medium)]
    min_level: Threshold,
    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    policy: PolicyArgs,
    /// The tree (or one file) to scan.
    #[arg(default_value = ".")]
    path: PathBuf,
}

/// Run `riskgate repo`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Scan(a) => scan(a),
    }
}

fn scan(args: ScanArgs) -> anyhow::Result<ExitCode> {
    if !args.path.exists() {
        anyhow::bail!("{}: no such file or directory", args.path.display());
    }
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    let report = riskgate::repo::scan_tree(&engine, Some(&policy), &args.path);
    let text = match args.format {
        RepoFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        RepoFormat::Sarif => {
            serde_json::to_string_pretty(&riskgate::repo_files::sarif::to_sarif(
                &report,
                env!("CARGO_PKG_VERSION"),
            ))? + "\n"
        }
        RepoFormat::Text => render_text(
            &report,
            args.min_level.level().unwrap_or(RiskLevel::Critical),
            args.output.is_none() && color_stdout(),
        ),
    };
    match &args.output {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{text}"),
    }
    let failed = args
        .fail_on
        .level()
        .is_some_and(|l| report.counts.at_least(l) > 0);
    Ok(if failed { Code::Deny } else { Code::Allow }.into())
}

fn render_text(report: &ScanReport, min: RiskLevel, color: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let opts = RenderOptions { color };
    for file in &report.files {
        let shown: Vec<_> = file.results.iter().filter(|r| r.level >= min).collect();
        if shown.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{} ({}): {}", file.path, file.kind, file.level);
        for r in shown {
            let _ = writeln!(
                out,
                "  {}:{}:{}  {}",
                file.path, r.line, r.column, r.context
            );
            match (&r.kind, &r.assessment) {
                (ResultKind::Notice, _) | (_, None) => {
                    for f in &r.findings {
                        let _ = writeln!(
                            out,
                            "    {} {} [{}]: {}",
                            f.level,
                            f.effective_score(),
                            f.rule_id,
                            f.description
                        );
                        if !r.text.is_empty() {
                            let _ = writeln!(out, "      {}", r.text);
                        }
                        if let Some(m) = &f.mitigation {
                            let _ = writeln!(out, "      safer: {m}");
                        }
                    }
                }
                (_, Some(a)) => {
                    let mut shown = a.clone();
                    shown.level = r.level;
                    shown.score = r.score;
                    for line in render(&shown, None, opts).lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                }
            }
        }
        out.push('\n');
    }
    let c = &report.counts;
    let _ = writeln!(
        out,
        "riskgate repo scan: {} files read ({} seen); {} CRITICAL, {} HIGH, {} MEDIUM, {} LOW, {} SAFE; highest {}",
        report.files_read,
        report.files_seen,
        c.critical,
        c.high,
        c.medium,
        c.low,
        c.safe,
        report.level
    );
    out
}
