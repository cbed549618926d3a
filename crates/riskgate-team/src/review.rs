//! A reviewer's side of the approval queue, one implementation for every front end:
//! `riskgate approvals pending | grant | refuse` and the reviewer's page (`riskgate serve`)
//! both call [`pending`], [`grant`] and [`refuse`]. Every grant and refusal is written to the
//! audit log with the reviewer's name (`decided_by: reviewer:NAME`).
//!
//! The rules of the queue hold whatever the front end: CRITICAL is never granted, a pattern
//! in `approvals.two_reviewers` needs two distinct reviewers, a decided request cannot be
//! decided again (see [`riskgate_gate::queue`]).

use riskgate_gate::Policy;
use riskgate_gate::audit::AuditRecord;
use riskgate_gate::queue::{GrantFor, Request, Status};
use riskgate_model::Decision;

use crate::TeamError;
use crate::queues::Queues;

/// The most requests listed at once.
pub const LIST_LIMIT: usize = 1000;

/// What a grant or refusal did, for the reviewer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    /// The request as it now stands.
    pub request: Request,
    /// One line for a person (`granted once`, `grant by ann recorded; 1 of 2 reviewers …`).
    pub summary: String,
    /// A warning (the review stands): the audit record could not be written.
    pub warning: Option<String>,
}

/// The names of the reviewers who granted `r`.
pub fn granted_by(r: &Request) -> Vec<&str> {
    r.reviews
        .iter()
        .filter(|v| v.verdict == "grant")
        .map(|v| v.reviewer.as_str())
        .collect()
}

/// Record a review in the audit log; a failure is returned as a warning (the review stands).
fn audit(
    policy: &Policy,
    r: &Request,
    decision: Decision,
    who: &str,
    reason: String,
) -> Option<String> {
    let rec = AuditRecord {
        id: 0,
        time: riskgate_gate::clock::format(riskgate_gate::clock::now()),
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
    riskgate_gate::journal::append(&policy.audit_path(), &rec)
        .err()
        .map(|e| format!("review not written to the audit log: {e}"))
}

/// The requests waiting for a reviewer.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// Oldest first.
    pub requests: Vec<Request>,
    /// Problems with a queue (the team's database unreachable …).
    pub warnings: Vec<String>,
    /// Whether the team's queue is configured.
    pub team: bool,
}

/// The requests waiting for a reviewer, oldest first: the team's and this machine's.
pub fn pending(policy: &Policy) -> Result<Pending, TeamError> {
    let mut queues = Queues::open(policy)?;
    Ok(Pending {
        requests: queues.list(Status::Pending, LIST_LIMIT)?,
        warnings: std::mem::take(&mut queues.warnings),
        team: queues.team_configured,
    })
}

/// `reviewer` grants request `id` (once, or for a time).
pub fn grant(
    policy: &Policy,
    id: &str,
    reviewer: &str,
    how: GrantFor,
) -> Result<Reviewed, TeamError> {
    let who = reviewer.trim();
    let mut queues = Queues::open(policy)?;
    let r = queues.grant(id, who, how, riskgate_gate::clock::now())?;
    let lasts = match how {
        GrantFor::Once => "once".to_string(),
        GrantFor::Ttl(_) => format!("until {}", r.expires.as_deref().unwrap_or("?")),
    };
    let summary = if r.status == Status::Granted {
        format!("granted {lasts}")
    } else {
        format!(
            "grant by {who} recorded; {} of {} reviewers, still pending",
            granted_by(&r).len(),
            r.required
        )
    };
    let warning = audit(
        policy,
        &r,
        Decision::Allow,
        who,
        format!("request {} {summary} by {who}", r.id),
    );
    Ok(Reviewed {
        request: r,
        summary,
        warning,
    })
}

/// `reviewer` refuses request `id`, saying why (the agent is told the reason).
pub fn refuse(
    policy: &Policy,
    id: &str,
    reviewer: &str,
    reason: &str,
) -> Result<Reviewed, TeamError> {
    let who = reviewer.trim();
    let mut queues = Queues::open(policy)?;
    let r = queues.refuse(id, who, reason, riskgate_gate::clock::now())?;
    let warning = audit(
        policy,
        &r,
        Decision::Deny,
        who,
        format!("request {} refused by {who}: {}", r.id, reason.trim()),
    );
    Ok(Reviewed {
        request: r,
        summary: "refused".to_string(),
        warning,
    })
}
