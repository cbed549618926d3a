//! Typed errors: [`CriticalRiskError`] (never bypassable), [`RiskNotAcceptedError`] (a HIGH
//! risk nobody accepted), and the input errors ([`IrError`], [`RegistryError`],
//! [`MetadataError`]), all gathered in [`WorkflowError`].

use std::fmt;
use std::path::PathBuf;

use crate::risk::RiskAssessment;

/// A CRITICAL risk: the workflow must not run, whatever the flags (seed 000 rule 7).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "CRITICAL risk in node `{}` ({}), parameter `{}`: {}. CRITICAL risks are never run, not even with --force.",
    risk.node_id, risk.node_type, risk.parameter_name, self.why()
)]
pub struct CriticalRiskError {
    /// The first CRITICAL risk found.
    pub risk: Box<RiskAssessment>,
    /// What the policy said, when the policy (a blocklist entry …) made it CRITICAL.
    pub policy_reason: Option<String>,
}

impl CriticalRiskError {
    /// The error for `risk`.
    pub fn new(risk: RiskAssessment, policy_reason: Option<String>) -> CriticalRiskError {
        CriticalRiskError {
            risk: Box::new(risk),
            policy_reason,
        }
    }

    fn why(&self) -> String {
        match &self.policy_reason {
            Some(r) => r.clone(),
            None => self.risk.description.clone(),
        }
    }
}

/// Why HIGH risks were not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Nobody could be asked (not interactive) and no flag or approval covers the risk.
    NotInteractive,
    /// The person answered no (or never, or the prompt timed out or was interrupted).
    Rejected,
    /// A standing denial (`denied_patterns`) matches.
    StandingDenial,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::NotInteractive => "not interactive",
            Refusal::Rejected => "rejected",
            Refusal::StandingDenial => "standing denial",
        })
    }
}

/// HIGH risks that were not accepted: the workflow must not run (seed 000 rule 18).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RiskNotAcceptedError {
    /// Why.
    pub refusal: Refusal,
    /// The risk that was refused (the first one, in seed order).
    pub risk: Box<RiskAssessment>,
    /// Every risk that still needed acceptance when the analysis stopped.
    pub pending: Vec<RiskAssessment>,
    /// The full message (what, why, and how to proceed).
    pub message: String,
}

/// An unreadable or malformed workflow IR.
#[derive(Debug, thiserror::Error)]
pub enum IrError {
    /// The file cannot be read.
    #[error("cannot read workflow {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Not JSON / YAML.
    #[error("workflow is not readable: {0}")]
    Syntax(String),
    /// Not a workflow IR.
    #[error("not a workflow IR: {0}")]
    Shape(String),
}

/// A node registry that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The registry file does not exist (seed 000: a missing registry is an error, never an
    /// analysis that silently finds nothing).
    #[error("node registry {} not found: give an existing registry file (JSON or YAML with `node_types`), or leave out --registry for the built-in types", path.display())]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// The file cannot be read.
    #[error("cannot read node registry {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a registry.
    #[error("invalid node registry {}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
}

/// `metadata.risk_approval` cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum MetadataError {
    /// The workflow file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The edit is not possible without rewriting other parts of the file.
    #[error("cannot add metadata.risk_approval to {}: {message}", path.display())]
    Edit {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Writing failed (the file is unchanged).
    #[error("cannot write {}: {message}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// Every error of the workflow analysis.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    /// A CRITICAL risk.
    #[error(transparent)]
    Critical(#[from] CriticalRiskError),
    /// HIGH risks nobody accepted.
    #[error(transparent)]
    NotAccepted(#[from] RiskNotAcceptedError),
    /// No registry.
    #[error(
        "no node registry given: the analysis needs one (NodeRegistry::builtin() has the built-in types)"
    )]
    MissingRegistry,
    /// A registry that cannot be used.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// A workflow that cannot be read.
    #[error(transparent)]
    Ir(#[from] IrError),
    /// The workflow's metadata cannot be written.
    #[error(transparent)]
    Metadata(#[from] MetadataError),
}
