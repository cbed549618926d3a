//! `riskgate admin migrate | ship | status`: the team's PostgreSQL database (`audit.url`).
//! Also [`ship_quietly`], which the CLI commands that read the audit log call so that the
//! journal is shipped "by the next CLI call", and [`spawn_shipper`], the hook server's
//! background shipping (never the hook call itself).

use std::process::ExitCode;

use riskgate::gate::Policy;

use crate::cmd::common::PolicyArgs;
use crate::output::Format;

/// Arguments of `riskgate admin`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: AdminCommand,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Debug, clap::Subcommand)]
enum AdminCommand {
    /// Create or upgrade the team database's schema (versioned steps, each applied once).
    Migrate {
        /// Stop at this schema version (default: the latest).
        #[arg(long)]
        to: Option<i32>,
    },
    /// Send the decisions recorded here that the team database does not have yet (in order,
    /// exactly once; safe to run at any time, from any number of processes).
    Ship,
    /// The team database's schema version.
    Status,
}

fn url(policy: &Policy) -> anyhow::Result<String> {
    policy.audit_url().map(|u| u.value.clone()).ok_or_else(|| {
        anyhow::anyhow!(
            "no team database: set `audit.url: postgres://USER@HOST:PORT/DB` in your user file or the managed policy (password in RISKGATE_PG_PASSWORD)"
        )
    })
}

/// Ship the local audit log when `audit.url` is set; a failure is a warning (the records stay
/// for the next try).
pub fn ship_quietly(policy: &Policy) {
    let Some(url) = policy.audit_url().map(|u| u.value.clone()) else {
        return;
    };
    let result = riskgate_team::store::connect(&url)
        .and_then(|mut client| riskgate_team::ship::ship(&policy.audit_path(), &mut client, &url));
    if let Err(e) = result {
        eprintln!("riskgate: warning: audit log not shipped (kept for the next try): {e}");
    }
}

/// How often the hook server ships the journal.
pub const SHIP_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Ship once from a background thread: the policy is read again (a configuration changed
/// while the server runs is followed), the connection kept in `shipper` between runs; a
/// failure leaves the records for the next run, silently (the server has no terminal).
pub fn ship_in_background(shipper: &mut Option<riskgate_team::ship::Shipper>) {
    let Ok(policy) = PolicyArgs::default().load() else {
        return;
    };
    let Some(url) = policy.audit_url().map(|u| u.value.clone()) else {
        *shipper = None;
        return;
    };
    let s = match shipper {
        Some(s) if s.url() == url => s,
        _ => shipper.insert(riskgate_team::ship::Shipper::new(url)),
    };
    let _ = s.ship(&policy.audit_path());
}

/// The hook server's shipper: a thread that ships the journal to the team's database every
/// [`SHIP_EVERY`] while the process lives (when `audit.url` is set). In order and exactly
/// once like every shipping run, whoever else ships at the same time.
pub fn spawn_shipper() {
    let _ = std::thread::Builder::new()
        .name("riskgate-ship".into())
        .spawn(|| {
            let mut shipper = None;
            loop {
                std::thread::sleep(SHIP_EVERY);
                ship_in_background(&mut shipper);
            }
        });
}

/// Run `riskgate admin`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let url = url(&policy)?;
    let mut client = riskgate_team::store::connect(&url)?;
    match args.command {
        AdminCommand::Migrate { to } => {
            let (before, after) = riskgate_team::store::migrate(&mut client, to)?;
            match args.format {
                Format::Json => outln!("{}", serde_json::json!({"before": before, "after": after})),
                Format::Text if before == after => outln!("schema version {after}: up to date"),
                Format::Text => outln!("schema version {before} -> {after}"),
            }
        }
        AdminCommand::Ship => {
            let s = riskgate_team::ship::ship(&policy.audit_path(), &mut client, &url)?;
            match args.format {
                Format::Json => outln!(
                    "{}",
                    serde_json::json!({"inserted": s.inserted, "already": s.already,
                                       "origin": s.origin})
                ),
                Format::Text => outln!(
                    "shipped {} record(s) ({} already there) from origin {}",
                    s.inserted,
                    s.already,
                    s.origin
                ),
            }
        }
        AdminCommand::Status => {
            let v = riskgate_team::store::version(&mut client)?;
            match args.format {
                Format::Json => outln!(
                    "{}",
                    serde_json::json!({"version": v, "latest": riskgate_team::store::LATEST})
                ),
                Format::Text => outln!(
                    "schema version {v} (this riskgate: {})",
                    riskgate_team::store::LATEST
                ),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
