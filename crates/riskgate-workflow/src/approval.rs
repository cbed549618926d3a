//! A saved workflow's own approval (`metadata.risk_approval`, seed 000 rules 11-12, 17) and the
//! workflow's state: `unchecked` → `analyzed` → `approved` → `expired` | `invalidated`.

use serde::Serialize;
use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::edit::RiskApproval;

/// Where a workflow stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WorkflowState {
    /// Not analyzed yet.
    Unchecked,
    /// Analyzed; no approval given or needed.
    Analyzed,
    /// Its risks were approved: by its `metadata.risk_approval`, by a person at the prompt, or
    /// by `--force` / `--accept-risk` / standing approvals.
    Approved,
    /// Its approval is older than the approval lifetime.
    Expired,
    /// Its approval was for other risks: the risk hash changed.
    Invalidated,
}

impl WorkflowState {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            WorkflowState::Unchecked => "unchecked",
            WorkflowState::Analyzed => "analyzed",
            WorkflowState::Approved => "approved",
            WorkflowState::Expired => "expired",
            WorkflowState::Invalidated => "invalidated",
        }
    }
}

/// What the workflow's `metadata.risk_approval` says about its current risks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum ApprovalStatus {
    /// No approval recorded (or `approved: false`).
    None,
    /// Approved, same risk hash, not expired.
    Valid {
        /// When.
        approved_at: String,
    },
    /// Approved, same hash, but older than the approval lifetime.
    Expired {
        /// When.
        approved_at: String,
        /// When it expired.
        expired_at: String,
    },
    /// Approved for another risk hash.
    Invalidated {
        /// The hash approved.
        approved_hash: String,
        /// The hash now.
        current_hash: String,
    },
    /// Present but unreadable (treated as no approval).
    Malformed {
        /// What is wrong.
        reason: String,
    },
}

impl ApprovalStatus {
    /// The state this status puts an analyzed workflow in.
    pub fn state(&self) -> WorkflowState {
        match self {
            ApprovalStatus::Valid { .. } => WorkflowState::Approved,
            ApprovalStatus::Expired { .. } => WorkflowState::Expired,
            ApprovalStatus::Invalidated { .. } => WorkflowState::Invalidated,
            ApprovalStatus::None | ApprovalStatus::Malformed { .. } => WorkflowState::Analyzed,
        }
    }

    /// A sentence for a person (`None` for no approval).
    pub fn describe(&self) -> Option<String> {
        match self {
            ApprovalStatus::None => None,
            ApprovalStatus::Valid { approved_at } => Some(format!(
                "the workflow's approval (metadata.risk_approval, {approved_at}) covers its risks"
            )),
            ApprovalStatus::Expired {
                approved_at,
                expired_at,
            } => Some(format!(
                "the workflow's approval of {approved_at} expired at {expired_at}"
            )),
            ApprovalStatus::Invalidated {
                approved_hash,
                current_hash,
            } => Some(format!(
                "the workflow's approval is invalidated: its risky operations changed (risk hash {} approved, now {})",
                short(approved_hash),
                short(current_hash)
            )),
            ApprovalStatus::Malformed { reason } => {
                Some(format!("metadata.risk_approval ignored: {reason}"))
            }
        }
    }
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// Compare the workflow's `metadata.risk_approval` with `current_hash` at `now`; approvals
/// last `ttl_days`.
pub fn approval_status(
    metadata: Option<&Map<String, Value>>,
    current_hash: &str,
    now: OffsetDateTime,
    ttl_days: u32,
) -> ApprovalStatus {
    let Some(raw) = metadata.and_then(|m| m.get("risk_approval")) else {
        return ApprovalStatus::None;
    };
    if raw.is_null() {
        return ApprovalStatus::None;
    }
    let approval: RiskApproval = match serde_json::from_value(raw.clone()) {
        Ok(a) => a,
        Err(e) => {
            return ApprovalStatus::Malformed {
                reason: e.to_string(),
            };
        }
    };
    if !approval.approved {
        return ApprovalStatus::None;
    }
    let Some(at) = riskgate::gate::clock::parse(&approval.approved_at) else {
        return ApprovalStatus::Malformed {
            reason: format!(
                "approved_at `{}` is not an RFC 3339 time",
                approval.approved_at
            ),
        };
    };
    if !approval.risk_hash.eq_ignore_ascii_case(current_hash) {
        return ApprovalStatus::Invalidated {
            approved_hash: approval.risk_hash,
            current_hash: current_hash.to_string(),
        };
    }
    let expires = at + time::Duration::days(i64::from(ttl_days));
    if expires <= now {
        return ApprovalStatus::Expired {
            approved_at: approval.approved_at,
            expired_at: riskgate::gate::clock::format(expires),
        };
    }
    ApprovalStatus::Valid {
        approved_at: approval.approved_at,
    }
}
