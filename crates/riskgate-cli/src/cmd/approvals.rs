//! `riskgate approvals list|add|deny|revoke|prune`: the standing answers in `settings.json`;
//! `riskgate approvals pending|grant|refuse`: the approval queue (see `review`).

use std::process::ExitCode;

use riskgate::gate::ApprovalStore;
use riskgate::gate::queue::GrantFor;

use crate::cmd::common::PolicyArgs;
use crate::cmd::review::Review;
use crate::output::Format;

/// Arguments of `riskgate approvals`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: ApprovalsCommand,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Debug, clap::Subcommand)]
enum ApprovalsCommand {
    /// List approved and denied patterns (expired approvals are marked).
    List,
    /// Approve a pattern (`*` matches anything; `${var}` and `$var` become `*`).
    Add {
        /// The pattern.
        pattern: String,
        /// Only for this action kind (command, code, sql, file_write, change_set, fetch, workflow).
        #[arg(long)]
        kind: Option<String>,
        /// Expire after this many days (default: the policy's approval_ttl_days, 30).
        #[arg(long)]
        days: Option<u32>,
    },
    /// Deny a pattern for good.
    Deny {
        /// The pattern.
        pattern: String,
        /// Only for this action kind.
        #[arg(long)]
        kind: Option<String>,
    },
    /// Remove a pattern from both lists (exit 1 when it is in neither).
    Revoke {
        /// The pattern.
        pattern: String,
        /// Only for this action kind.
        #[arg(long)]
        kind: Option<String>,
    },
    /// Remove expired approvals.
    Prune,
    /// List the requests of unattended agents waiting for a reviewer (the approval queue).
    Pending,
    /// Grant a waiting request: the identical action runs on its next try (once by default).
    /// CRITICAL requests are never granted; a pattern in `approvals.two_reviewers` needs two
    /// distinct reviewers.
    Grant {
        /// The request id (from the refusal the agent got, or `approvals pending`).
        id: String,
        /// For the next try only (the default).
        #[arg(long, conflicts_with = "ttl")]
        once: bool,
        /// For every identical try during this time (`30m`, `1h`, `2d`).
        #[arg(long)]
        ttl: Option<String>,
        /// The reviewer's name (default: `RISKGATE_REVIEWER`, else the user).
        #[arg(long)]
        reviewer: Option<String>,
    },
    /// Refuse a waiting request; the agent is told the reason when it tries again.
    Refuse {
        /// The request id.
        id: String,
        /// Why (shown to the agent, kept in the audit log).
        #[arg(long)]
        reason: String,
        /// The reviewer's name (default: `RISKGATE_REVIEWER`, else the user).
        #[arg(long)]
        reviewer: Option<String>,
    },
    /// Announce a new request to a webhook, with retries (started in the background by the
    /// hook and `check` when `approvals.webhook` is set).
    #[command(hide = true)]
    Notify {
        /// The request id.
        id: String,
        /// The queue database.
        #[arg(long)]
        queue: std::path::PathBuf,
        /// The webhook URL.
        #[arg(long)]
        url: String,
        /// `generic` or `slack`.
        #[arg(long, default_value = "generic")]
        webhook_format: String,
    },
}

/// `riskgate approvals notify`: the request from this machine's queue, else the team's.
fn notify(
    id: &str,
    queue: &std::path::Path,
    url: &str,
    format: &str,
    policy: &PolicyArgs,
) -> anyhow::Result<ExitCode> {
    use riskgate::gate::policy::{Webhook, WebhookFormat};
    let format = match format {
        "slack" => WebhookFormat::Slack,
        _ => WebhookFormat::Generic,
    };
    let local = match riskgate::gate::queue::Queue::open_existing(queue)? {
        Some(q) => q.get(id)?,
        None => None,
    };
    let request = match local {
        Some(r) => r,
        None => riskgate_team::queues::Queues::open(&policy.load()?)?
            .get(id)?
            .ok_or_else(|| anyhow::anyhow!("no approval request `{id}`"))?,
    };
    let hook = Webhook {
        url: url.to_string(),
        format,
    };
    riskgate_team::notify::send(&hook, &request)?;
    Ok(ExitCode::SUCCESS)
}

/// Run `riskgate approvals`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let ApprovalsCommand::Notify {
        id,
        queue,
        url,
        webhook_format,
    } = &args.command
    {
        return notify(id, queue, url, webhook_format, &args.policy);
    }
    let policy = args.policy.load()?;
    let review = match &args.command {
        ApprovalsCommand::Pending => Some(Review::Pending),
        ApprovalsCommand::Grant {
            id,
            once: _,
            ttl,
            reviewer,
        } => {
            let grant =
                match ttl {
                    None => GrantFor::Once,
                    Some(t) => GrantFor::Ttl(riskgate::gate::clock::parse_duration(t).ok_or_else(
                        || anyhow::anyhow!("--ttl `{t}`: expected a duration (30m, 1h, 2d)"),
                    )?),
                };
            Some(Review::Grant {
                id: id.clone(),
                grant,
                reviewer: reviewer.clone(),
            })
        }
        ApprovalsCommand::Refuse {
            id,
            reason,
            reviewer,
        } => Some(Review::Refuse {
            id: id.clone(),
            reason: reason.clone(),
            reviewer: reviewer.clone(),
        }),
        _ => None,
    };
    if let Some(review) = review {
        return crate::cmd::review::run(&policy, review, args.format);
    }
    let mut store = ApprovalStore::new(policy.settings_path());
    let update = match args.command {
        ApprovalsCommand::List => {
            let snap = store.read();
            for w in &snap.warnings {
                eprintln!("riskgate: warning: {w}");
            }
            match args.format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&snap)?),
                Format::Text => {
                    outln!("settings: {}", store.path().display());
                    if snap.approved.is_empty() && snap.denied.is_empty() {
                        outln!("no approved or denied patterns");
                    }
                    for e in &snap.approved {
                        let state = if e.expired { "expired" } else { "approved" };
                        let until = e.expires_at.as_deref().unwrap_or("never");
                        let kind = e.kind.as_deref().unwrap_or("*");
                        outln!("{state:8}  {kind:10}  until {until}  {}", e.pattern);
                    }
                    for e in &snap.denied {
                        let kind = e.kind.as_deref().unwrap_or("*");
                        outln!("{:8}  {kind:10}  {:>26}  {}", "denied", "", e.pattern);
                    }
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        ApprovalsCommand::Add {
            pattern,
            kind,
            days,
        } => {
            let days = days.unwrap_or(policy.approval_ttl_days());
            let u = store.add(&pattern, kind.as_deref(), Some(days))?;
            ("approved", pattern, u)
        }
        ApprovalsCommand::Deny { pattern, kind } => {
            let u = store.deny(&pattern, kind.as_deref())?;
            ("denied", pattern, u)
        }
        ApprovalsCommand::Revoke { pattern, kind } => {
            let u = store.revoke(&pattern, kind.as_deref())?;
            if u.changed == 0 {
                let kind = kind.map(|k| format!(" for kind {k}")).unwrap_or_default();
                anyhow::bail!(
                    "no approved or denied pattern `{pattern}`{kind}: nothing to revoke (see `riskgate approvals list`)"
                );
            }
            ("revoked", pattern, u)
        }
        ApprovalsCommand::Prune => {
            let u = store.prune()?;
            ("pruned", String::new(), u)
        }
        // answered by the approval queue above
        ApprovalsCommand::Pending
        | ApprovalsCommand::Grant { .. }
        | ApprovalsCommand::Refuse { .. }
        | ApprovalsCommand::Notify { .. } => {
            anyhow::bail!("internal error: a queue command reached the approvals store")
        }
    };
    let (what, pattern, u) = update;
    for w in &u.warnings {
        eprintln!("riskgate: warning: {w}");
    }
    match args.format {
        Format::Json => outln!(
            "{}",
            serde_json::json!({"action": what, "pattern": pattern, "changed": u.changed,
                               "settings": store.path()})
        ),
        Format::Text if what == "pruned" => outln!("pruned {} expired approval(s)", u.changed),
        Format::Text => outln!("{what}: {pattern}"),
    }
    Ok(ExitCode::SUCCESS)
}
