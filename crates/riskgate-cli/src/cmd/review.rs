//! `riskgate approvals pending | grant ID | refuse ID`: a reviewer's side of the approval
//! queue ([`riskgate::gate::queue`]). Every grant and refusal is written to the audit log with
//! the reviewer's name.

use std::process::ExitCode;

use riskgate::gate::audit::AuditRecord;
use riskgate::gate::policy::Policy;
use riskgate::gate::queue::{GrantFor, Queue, Request, Status, current_user};
use riskgate::model::Decision;

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

fn grants(r: &Request) -> Vec<&str> {
    r.reviews
        .iter()
        .filter(|v| v.verdict == "grant")
        .map(|v| v.reviewer.as_str())
        .collect()
}

/// Record a review in the audit log (a failure is a warning: the review stands).
fn audit(policy: &Policy, r: &Request, decision: Decision, who: &str, reason: String) {
    let rec = AuditRecord {
        id: 0,
        time: riskgate::gate::clock::format(riskgate::gate::clock::now()),
        source: "review".into(),
        session: r.session.clone(),
        cwd: r.cwd.clone(),
        kind: r.kind.clone(),
        input: r.input.clone(),
        level: r.level,
        score: r.score,
        rules: r.rules.clone(),
        decision,
        decided_by: format!("reviewer:{who}"),
        reason,
        latency_us: 0,
        policy_rev: policy.revision().map(str::to_string),
    };
    if let Err(e) = riskgate::gate::journal::append(&policy.audit_path(), &rec) {
        eprintln!("riskgate: warning: review not written to the audit log: {e}");
    }
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
        let g = grants(r);
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
    let queue = Queue::open(&policy.queue_path())?;
    let now = riskgate::gate::clock::now();
    match review {
        Review::Pending => {
            let list = queue.list(Status::Pending, 1000)?;
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
        }
        Review::Grant {
            id,
            grant,
            reviewer: who,
        } => {
            let who = reviewer(who);
            let r = queue.grant(&id, &who, grant, now)?;
            let how = match grant {
                GrantFor::Once => "once".to_string(),
                GrantFor::Ttl(_) => format!("until {}", r.expires.as_deref().unwrap_or("?")),
            };
            let state = if r.status == Status::Granted {
                format!("granted {how}")
            } else {
                format!(
                    "grant by {who} recorded; {} of {} reviewers, still pending",
                    grants(&r).len(),
                    r.required
                )
            };
            audit(
                policy,
                &r,
                Decision::Allow,
                &who,
                format!("request {} {state} by {who}", r.id),
            );
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&r)?),
                Format::Text => outln!("{}: {state}", r.id),
            }
        }
        Review::Refuse {
            id,
            reason,
            reviewer: who,
        } => {
            let who = reviewer(who);
            let r = queue.refuse(&id, &who, &reason, now)?;
            audit(
                policy,
                &r,
                Decision::Deny,
                &who,
                format!("request {} refused by {who}: {}", r.id, reason.trim()),
            );
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&r)?),
                Format::Text => outln!("{}: refused", r.id),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
