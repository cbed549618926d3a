//! Workflow risk assessment (seed 000): before a workflow runs, find its risky nodes, stop on
//! CRITICAL ones, and have HIGH ones accepted — by the workflow's own approval, a standing
//! approval, the session, a flag or a person.
//!
//! - [`ir`]: the workflow IR (JSON or YAML), each node visited once whatever the cycles.
//! - [`registry`]: node types, their inspected parameters and RISK_PATTERNS (built-in types in
//!   `builtin`, user registry files).
//! - [`matcher`]: templates → `*`, case-insensitive substring patterns.
//! - [`scan`]: the analysis (patterns, plus the full command engine for shell parameters and
//!   the SQL analyzer for SQL ones), sorted, deduplicated, hashed ([`risk`]).
//! - [`analyzer`]: [`WorkflowRiskAnalyzer`], the whole procedure through the gate.
//! - [`approval`] and [`edit`]: `metadata.risk_approval`, the workflow states, and writing the
//!   approval into a saved workflow without touching the rest of the file.
//! - [`cache`]: the analysis cache shared by the processes of a session (5 minutes).
//! - [`error`]: typed errors, [`CriticalRiskError`] first.
//!
//! ```
//! use riskgate::gate::{CliOverrides, Gate, Locations, Policy};
//! use riskgate_workflow::{AnalyzeOptions, NodeRegistry, WorkflowError, WorkflowIr, WorkflowRiskAnalyzer};
//!
//! let dir = tempfile::tempdir()?;
//! let policy = Policy::load_with(dir.path(), &Locations::isolated(dir.path()), &CliOverrides::default())?;
//! let mut analyzer = WorkflowRiskAnalyzer::new(Gate::new(policy).without_audit());
//! let registry = NodeRegistry::builtin();
//!
//! let ir = WorkflowIr::from_json_str(r#"{"nodes": [{"id": "hi", "type": "shell", "params": {"command": "echo hello"}}]}"#)?;
//! assert!(analyzer.analyze(&ir, &registry, &AnalyzeOptions::default())?.is_empty());
//!
//! let ir = WorkflowIr::from_json_str(r#"{"nodes": [{"id": "dangerous", "node_type": "shell", "config": {"command": "rm -rf /"}}]}"#)?;
//! let force = AnalyzeOptions { force: true, ..AnalyzeOptions::default() };
//! assert!(matches!(analyzer.analyze(&ir, &registry, &force), Err(WorkflowError::Critical(_))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod analyzer;
pub mod approval;
mod builtin;
pub mod cache;
pub mod edit;
pub mod error;
pub mod ir;
pub mod matcher;
pub mod registry;
pub mod risk;
pub mod scan;

pub use analyzer::{
    AnalyzeOptions, ApproveReport, CheckReport, RiskDecision, Stats, WorkflowRiskAnalyzer,
};
pub use approval::{ApprovalStatus, WorkflowState};
pub use edit::RiskApproval;
pub use error::{
    CriticalRiskError, IrError, MetadataError, Refusal, RegistryError, RiskNotAcceptedError,
    WorkflowError,
};
pub use ir::{Format, WorkflowIr};
pub use registry::{NodeRegistry, NodeType, ParamAnalyzer, ParamSpec};
pub use risk::{RiskAssessment, RiskSource, risk_hash};
pub use scan::Scan;
