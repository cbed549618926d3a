//! `riskgate log`: the decisions recorded in the audit log; `riskgate log export`: the same
//! for a SIEM or an OpenTelemetry collector (see `export`).

use std::path::PathBuf;
use std::process::ExitCode;

use riskgate::gate::{AuditLog, AuditQuery};

use crate::cmd::common::PolicyArgs;
use crate::cmd::export::ExportFormat;
use crate::output::Format;

/// Arguments of `riskgate log`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Option<LogCommand>,
    /// Only decisions since: a duration (30m, 2h, 7d), an RFC 3339 time or a date.
    #[arg(long, global = true)]
    since: Option<String>,
    /// Only this decision: allow, ask or deny.
    #[arg(long, global = true)]
    decision: Option<String>,
    /// At most this many records, newest first (default 100; `export`: all).
    #[arg(long, global = true)]
    limit: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Read the team's database (`audit.url`): the decisions of every machine, with host,
    /// user, agent and repository.
    #[arg(long)]
    team: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Debug, clap::Subcommand)]
enum LogCommand {
    /// Export the audit trail, oldest first: `jsonl` (one record a line) or `otlp-json`
    /// (OpenTelemetry log records, the body of a collector's /v1/logs).
    Export {
        /// The format.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Write to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// `riskgate log --team`.
fn team(policy: &riskgate::gate::Policy, query: &AuditQuery, format: Format) -> anyhow::Result<()> {
    let url = policy
        .audit_url()
        .map(|u| u.value.clone())
        .ok_or_else(|| anyhow::anyhow!("--team: no `audit.url` configured"))?;
    let mut client = riskgate_team::store::connect(&url)?;
    let records = riskgate_team::read::query(&mut client, query)?;
    match format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&records)?),
        Format::Text => {
            for r in &records {
                let s = |k: &str| r[k].as_str().unwrap_or("-").to_string();
                outln!(
                    "{}  {:<10} {:<10} {:<11} {:<5} {:<8} {}",
                    s("time"),
                    s("host"),
                    s("user"),
                    s("source"),
                    s("decision"),
                    s("level"),
                    s("input").replace('\n', " ")
                );
            }
        }
    }
    Ok(())
}

/// Run `riskgate log`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let limit = match args.command {
        Some(LogCommand::Export { .. }) => args.limit.unwrap_or(usize::MAX >> 2),
        None => args.limit.unwrap_or(100),
    };
    let query =
        AuditQuery::from_args(args.since.as_deref(), args.decision.as_deref(), Some(limit))?;
    // the next CLI call ships what the hooks recorded (never the hook itself)
    crate::cmd::admin::ship_quietly(&policy);
    if args.team {
        team(&policy, &query, args.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = policy.audit_path();
    // Decisions wait in the journal beside the database until it is next opened.
    let journal = riskgate::gate::journal::journal_path(&path);
    let records = if path.exists() || journal.exists() {
        let log = AuditLog::open(&path)?;
        for w in log.warnings() {
            eprintln!("riskgate: warning: {w}");
        }
        log.query(&query)?
    } else {
        Vec::new()
    };
    if let Some(LogCommand::Export { format, output }) = args.command {
        let text = crate::cmd::export::render(&records, format)?;
        match output {
            Some(path) => std::fs::write(&path, text)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
            None => out!("{text}"),
        }
        return Ok(ExitCode::SUCCESS);
    }
    match args.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&records)?),
        Format::Text => {
            if records.is_empty() {
                outln!("no decisions recorded ({})", path.display());
            }
            for r in &records {
                outln!(
                    "{}  {:<11} {:<5} {:<8} {:>3}  {:<8} {}",
                    r.time,
                    r.source,
                    r.decision,
                    r.level,
                    r.score,
                    r.decided_by,
                    r.input.replace('\n', "\\n")
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
