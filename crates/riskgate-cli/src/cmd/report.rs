//! `riskgate report --format html|json [--output FILE] [--since 30d]`: the friction report
//! ([`riskgate_team::report`]) of this machine's audit log, approvals and approval queue, for
//! a person or a CI artifact.

use std::path::PathBuf;
use std::process::ExitCode;

use riskgate::gate::queue::{Queue, Status};
use riskgate::gate::{ApprovalStore, AuditLog, AuditQuery};

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
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Run `riskgate report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let query = AuditQuery::from_args(Some(&args.since), None, Some(usize::MAX >> 2))?;
    let path = policy.audit_path();
    let journal = riskgate::gate::journal::journal_path(&path);
    let records = if path.exists() || journal.exists() {
        AuditLog::open(&path)?.query(&query)?
    } else {
        Vec::new()
    };
    let snap = ApprovalStore::new(policy.settings_path()).read();
    let approvals: Vec<(String, Option<String>)> = snap
        .approved
        .iter()
        .filter(|e| !e.expired)
        .map(|e| (e.pattern.clone(), e.expires_at.clone()))
        .collect();
    let (grants, pending) = match Queue::open_existing(&policy.queue_path())? {
        Some(q) => (
            q.list(Status::Granted, 1000)?,
            q.list(Status::Pending, 1000)?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let report = riskgate_team::report::build(
        &records,
        &approvals,
        &grants,
        pending,
        riskgate::gate::clock::now(),
    );
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
