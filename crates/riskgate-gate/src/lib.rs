//! The gate: layered policy, decisions, approvals store, session cache, prompt, audit log.
#![deny(missing_docs)]

pub mod atomic;
pub mod decide;
pub mod error;
pub mod paths;
pub mod pattern;
pub mod policy;
pub mod redact;

pub use decide::{Context, DecidedBy, Outcome, Standing, decide, decide_with};
pub use error::{AuditError, PolicyError, PromptError, StoreError};
pub use policy::{CliOverrides, Locations, Policy, Source};
