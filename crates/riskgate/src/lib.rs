//! riskgate rates what an AI agent, a workflow engine or a CI job is about to run, explains
//! why, and decides whether it may run.
//!
//! The pipeline, one crate per stage (re-exported here):
//!
//! - [`model`]: risk levels, actions, findings, assessments, decisions.
//! - [`shell`]: shell normalization (bash text → every simple command that would run).
//! - [`rules`]: the rules database, matching and seed-004 scoring for shell commands.
//! - [`analyzers`]: code (seed 001), SQL, change sets (seed 003).
//! - [`gate`]: policy, decisions, approvals, session cache, prompt, audit log.
//! - [`explain`]: the compiler-style rendering of an assessment.
//! - [`Engine`]: assesses any [`Action`] with the rules engine and the analyzers.
//! - [`paths`]: path classes (riskgate's own files, agents' settings, system files, outside the
//!   project) for the files an action writes, deletes or reads.
//! - [`verdict`]: the one assessment every entry point makes before the gate decides.
//! - [`project`]: the agent's view: `npm install`, `make T`, `./x.sh` rated with what they
//!   run from the project's files.
//! - [`repo`]: what a repository's CI, build files and scripts will run, rated
//!   ([`repo_files`]: finding and extracting them).

pub mod explain;

pub use riskgate_analyzers as analyzers;
pub use riskgate_gate as gate;
pub use riskgate_model as model;
pub use riskgate_model::{Action, ActionKind, Assessment, Decision, Finding, RiskLevel, Shell};
pub use riskgate_repo as repo_files;
pub use riskgate_rules as rules;
pub use riskgate_shell as shell;

mod engine;
mod gensql;
pub mod paths;
pub mod project;
pub mod repo;
mod report;
pub mod verdict;
mod written;

pub use engine::{Engine, EngineOptions, Targets};
pub use report::Report;
