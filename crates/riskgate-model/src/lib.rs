//! The core data model of riskgate, shared by every stage of the pipeline.
//!
//! - [`RiskLevel`]: SAFE < LOW < MEDIUM < HIGH < CRITICAL, with the score bands of seed 004.
//! - [`Action`]: what can be assessed (a shell command, code, SQL, a file write, a change set,
//!   a fetch, a workflow).
//! - [`Finding`]: one reason for risk, with the rule that found it, its score contribution and
//!   where in the input it was found.
//! - [`Assessment`]: the outcome of assessing an action: level, score, findings, reasons,
//!   affected resources, reversibility, impact, recommendations and an [`Explanation`]
//!   (the union of seed 001's `RiskAssessment` and seed 004's `RiskClassification`).
//! - [`Decision`]: allow, ask or deny.
//! - [`credentials`]: where secrets live on disk, and what kind each is.
//! - [`effect`]: what a command does to what (effects, classified targets, scope).
//! - [`secrets`]: what a secret looks like in text (the one table for finding and redacting).
//!
//! ```
//! use riskgate_model::{Assessment, ActionKind, Finding, RiskLevel};
//!
//! let f = Finding::new("fs.rm-recursive-root", RiskLevel::Critical, 100, "Recursive deletion of /")
//!     .reversible(false);
//! let a = Assessment::from_findings(ActionKind::Command, "rm -rf /", vec![f]);
//! assert_eq!(a.level, RiskLevel::Critical);
//! assert!(a.requires_approval());
//! assert!(!a.reversible);
//! ```
#![deny(missing_docs)]

mod action;
mod assessment;
pub mod credentials;
mod decision;
pub mod effect;
mod finding;
mod level;
pub mod secrets;

pub use action::{Action, ActionKind, Language, Shell, WriteOp};
pub use assessment::{
    Assessment, Explanation, INCOMPLETE_RULE, INCOMPLETE_SCORE, MAX_RESOURCES, combine_scores,
};
pub use decision::Decision;
pub use finding::{Finding, Location, PRODUCTION_RAISED_TAG, Span, score_contributions};
pub use level::{ParseLevelError, RiskLevel};

/// What kind of JSON value `v` is, for error messages about input (`expected an object, got
/// an array`).
pub fn json_kind(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
