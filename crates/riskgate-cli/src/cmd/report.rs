//! `riskgate report --format html|json [--output FILE] [--since 30d]`: the friction report
//! ([`riskgate_team::report`]) of this machine's audit log (or, with `--team`, the team's
//! database), approvals and approval queue, for a person or a CI artifact. The reviewer's page
//! (`riskgate serve`) shows the same report, built by the same [`riskgate_team::report::gather`].

use std::path::PathBuf;
use std::process::ExitCode;

use riskgate_team::report::Source;

use crate::cmd::common::PolicyArgs;

/// The report's formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// One self-contained HTML page (inline SVG, no external asset).
    Html,
    /// The same data as JSON.
    Json,
}

/// Arguments of `riskgate report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Html)]
    format: ReportFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Only decisions since: a duration (30m, 2h, 7d), an RFC 3339 time or a date.
    #[arg(long, default_value = "30d")]
    since: String,
    /// The decisions of the team's database (`audit.url`) instead of this machine's.
    #[arg(long)]
    team: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Run `riskgate report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let since = riskgate::gate::clock::parse_since(&args.since, riskgate::gate::clock::now())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--since `{}`: expected a duration (30m, 2h, 7d), an RFC 3339 time or a date (2024-01-15)",
                args.since
            )
        })?;
    let source = if args.team {
        crate::cmd::admin::ship_quietly(&policy);
        let url = policy
            .audit_url()
            .map(|u| u.value.clone())
            .ok_or_else(|| anyhow::anyhow!("--team: no `audit.url` configured"))?;
        Source::Team(url)
    } else {
        Source::Local
    };
    let report = riskgate_team::report::gather(&policy, &source, since)?;
    let text = match args.format {
        ReportFormat::Html => riskgate_team::report::html(&report),
        ReportFormat::Json => format!("{}\n", serde_json::to_string_pretty(&report)?),
    };
    match args.output {
        Some(p) => std::fs::write(&p, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?,
        None => out!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
