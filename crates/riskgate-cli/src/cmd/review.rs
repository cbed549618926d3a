//! `riskgate approvals pending | grant ID | refuse ID`: a reviewer's side of the approval
//! queue, printed for a terminal or as JSON. The work is [`riskgate_team::review`], which the
//! reviewer's page (`riskgate serve`) shares; every grant and refusal is written to the audit
//! log with the reviewer's name.

use std::process::ExitCode;

use riskgate::gate::policy::Policy;
use riskgate::gate::queue::{GrantFor, Request, current_user};
use riskgate_team::review::{self as shared, granted_by};

use crate::output::Format;

/// What a reviewer does.
#[derive(Debug, Clone)]
pub enum Review {
    /// List pending requests.
    Pending,
    /// Grant a request.
    Grant {
        /// The request id.
        id: String,
        /// Once, or for a duration.
        grant: GrantFor,
        /// The reviewer.
        reviewer: Option<String>,
    },
    /// Refuse a request.
    Refuse {
        /// The request id.
        id: String,
        /// Why.
        reason: String,
        /// The reviewer.
        reviewer: Option<String>,
    },
}

/// The reviewer's name: `--reviewer`, else `RISKGATE_REVIEWER`, else the user.
fn reviewer(given: Option<String>) -> String {
    given
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            std::env::var("RISKGATE_REVIEWER")
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
        .unwrap_or_else(current_user)
}

fn show(r: &Request) -> String {
    let agent = r.agent.as_deref().unwrap_or("-");
    let mut out = format!(
        "{id}  {level:8} {created}  {agent} for {user}@{host} in {cwd}\n    {input}\n    {reason}",
        id = r.id,
        level = r.level.as_str(),
        created = r.created,
        user = r.requester,
        host = r.host,
        cwd = r.cwd,
        input = r.input.replace('\n', "\n    "),
        reason = r.reason,
    );
    if r.required > 1 {
        let g = granted_by(r);
        out.push_str(&format!(
            "\n    needs {} reviewers; granted by: {}",
            r.required,
            if g.is_empty() {
                "nobody yet".to_string()
            } else {
                g.join(", ")
            }
        ));
    }
    out
}

/// Run a review command.
pub fn run(policy: &Policy, review: Review, format: Format) -> anyhow::Result<ExitCode> {
    let reviewed = match review {
        Review::Pending => {
            let pending = shared::pending(policy)?;
            for w in &pending.warnings {
                eprintln!("riskgate: warning: {w}");
            }
            let list = pending.requests;
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&list)?),
                Format::Text => {
                    if list.is_empty() {
                        outln!("no pending approval requests");
                    }
                    for r in &list {
                        outln!("{}", show(r));
                    }
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        Review::Grant {
            id,
            grant,
            reviewer: who,
        } => shared::grant(policy, &id, &reviewer(who), grant)?,
        Review::Refuse {
            id,
            reason,
            reviewer: who,
        } => shared::refuse(policy, &id, &reviewer(who), &reason)?,
    };
    if let Some(w) = &reviewed.warning {
        eprintln!("riskgate: warning: {w}");
    }
    match format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&reviewed.request)?),
        Format::Text => outln!("{}: {}", reviewed.request.id, reviewed.summary),
    }
    Ok(ExitCode::SUCCESS)
}
