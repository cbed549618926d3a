//! riskgate's gate: what happens between an [`Assessment`](riskgate_model::Assessment) and
//! running (or not running) the action.
//!
//! - [`policy`]: layered configuration (built-in < user < project < environment < command
//!   line) in YAML, TOML or JSON, every value with its source.
//! - [`decide`]: the pure decision (blocklist, overrides, paths, environment, levels, trust,
//!   flags, standing answers) → [`Outcome`].
//! - [`approvals`]: standing approvals and denials in `settings.json` (seed 000).
//! - [`session`]: the 5-minute session cache, shared by the processes of one agent session.
//! - [`prompt`]: `Continue? [y/N/always/never]` on `/dev/tty`, with a timeout.
//! - [`audit`]: the SQLite audit log; [`redact`] keeps secrets out of it.
//! - [`gate`]: [`Gate::evaluate`] ties them together.
//! - Helpers: [`cmdpattern`] (policy patterns on parsed commands), [`pattern`] (text
//!   patterns of approvals, and of policy patterns that are not commands), [`atomic`] (locked atomic writes),
//!   [`paths`] (XDG directories), [`clock`] (RFC 3339, `--since`), [`error`].
//!
//! ```
//! use riskgate_gate::{Context, Gate, Locations, CliOverrides, Policy};
//! use riskgate_model::{Action, ActionKind, Assessment, Decision, Finding, RiskLevel};
//!
//! let dir = tempfile::tempdir()?;
//! let policy = Policy::load_with(dir.path(), &Locations::isolated(dir.path()), &CliOverrides::default())?;
//! let mut gate = Gate::new(policy);
//!
//! let action = Action::command("git push --force origin main");
//! let finding = Finding::new("git.force-push", RiskLevel::High, 75, "Force push rewrites remote history");
//! let assessment = Assessment::from_findings(ActionKind::Command, "git push --force origin main", vec![finding]);
//!
//! // Not interactive, no flag, no approval: refused, with what to do about it.
//! let outcome = gate.evaluate(&action, assessment.clone(), &Context::new(dir.path()));
//! assert_eq!(outcome.decision, Decision::Deny);
//! assert!(outcome.reason.contains("--force"));
//!
//! // A standing approval lets it through.
//! gate.approvals().add("git push --force origin main", Some("command"), Some(30))?;
//! let outcome = gate.evaluate(&action, assessment, &Context::new(dir.path()));
//! assert_eq!(outcome.decision, Decision::Allow);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod approvals;
pub mod atomic;
pub mod audit;
pub mod clock;
pub mod cmdpattern;
pub mod decide;
pub mod error;
pub mod gate;
pub mod journal;
pub mod paths;
pub mod pattern;
pub mod policy;
pub mod prompt;
pub mod queue;
pub mod queue_store;
pub mod redact;
pub mod session;
mod sqlite;

pub use approvals::ApprovalStore;
pub use audit::{AuditLog, AuditQuery, AuditRecord};
pub use decide::{Context, DecidedBy, Outcome, Standing, decide, decide_with};
pub use error::{AuditError, PolicyError, PromptError, QueueError, StoreError};
pub use gate::Gate;
pub use policy::{CliOverrides, Locations, Policy, Source};
pub use prompt::{Answer, Prompter};
pub use session::SessionCache;
