//! The machine-readable result of a check: the assessment plus the decision.

use serde::Serialize;

use crate::{Assessment, Decision};

/// An assessment with the decision taken on it, as `check --format json` and `scan` print it.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The assessment (its fields are flattened into the report).
    #[serde(flatten)]
    pub assessment: Assessment,
    /// allow, ask or deny.
    pub decision: Decision,
    /// Who decided: policy, approval, session, user, flag, blocklist, override.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// Why, for the person or agent reading it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Report {
    /// The report of a gate outcome: the assessment with the gate's final level and score.
    pub fn from_outcome(outcome: riskgate_gate::Outcome) -> Report {
        let mut assessment = outcome.assessment;
        assessment.level = outcome.level;
        assessment.score = outcome.score;
        assessment.estimated_impact = outcome.level.estimated_impact().to_string();
        Report {
            assessment,
            decision: outcome.decision,
            decided_by: Some(outcome.decided_by.to_string()),
            reason: Some(outcome.reason),
        }
    }
}
