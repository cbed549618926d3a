//! The machine-readable result of a check: the assessment plus the decision.

use serde::Serialize;

use crate::{Assessment, Decision};
use riskgate_gate::DecidedBy;

/// An assessment with the decision taken on it, as `check --format json` and `scan` print it.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The assessment (its fields are flattened into the report). Each finding carries seed
    /// 004's `score_contribution` and `matched_pattern` (see [`Report::from_outcome`]).
    #[serde(flatten)]
    pub assessment: Assessment,
    /// allow, ask or deny.
    pub decision: Decision,
    /// Seed 004's `IsAutoApprovable`: true exactly when the action is allowed without a person,
    /// i.e. the decision is allow, taken by the policy from the level (`decided_by` policy or
    /// override, not a person's approval, a standing or session approval, or a flag), on a
    /// fully analyzed input (not degraded).
    pub is_auto_approvable: bool,
    /// Who decided: policy, approval, session, user, flag, blocklist, override.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// Why, for the person or agent reading it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Report {
    /// The report of a gate outcome: the assessment with the gate's final level and score.
    /// Every finding gets its `score_contribution` ([`riskgate_model::score_contributions`]: the
    /// points of the assessed score it accounts for) and a `matched_pattern` (the rule's text
    /// pattern, else the text that matched).
    pub fn from_outcome(outcome: riskgate_gate::Outcome) -> Report {
        let mut assessment = outcome.assessment;
        assessment.level = outcome.level;
        assessment.score = outcome.score;
        assessment.estimated_impact = outcome.level.estimated_impact().to_string();
        let contributions = riskgate_model::score_contributions(&assessment.findings);
        for (f, c) in assessment.findings.iter_mut().zip(contributions) {
            f.score_contribution = Some(c);
            if f.matched_pattern.is_none() {
                f.matched_pattern = f.matched.clone();
            }
        }
        let is_auto_approvable = outcome.decision == Decision::Allow
            && matches!(outcome.decided_by, DecidedBy::Policy | DecidedBy::Override)
            && !assessment.degraded;
        Report {
            assessment,
            decision: outcome.decision,
            is_auto_approvable,
            decided_by: Some(outcome.decided_by.to_string()),
            reason: Some(outcome.reason),
        }
    }
}
