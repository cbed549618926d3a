//! Analyzers for actions that are not plain shell commands: code (seed 001), SQL and other data
//! stores, and change sets (seed 003).
//!
//! - [`code`]: [`RiskAssessor`](code::RiskAssessor), seed 001's assessor for code actions
//!   (Python, JavaScript/TypeScript, shell): default rules, `add_rule`, `remove_rule`, regex,
//!   closure and analysis rules, a custom assessor, and a hook for the shell engine.
//! - [`sql`]: [`assess_sql`](sql::assess_sql) rates SQL statements parsed with `sqlparser`
//!   (with a keyword fallback), plus Redis commands and Mongo shell code.
//! - [`diff`]: [`classify_diff`](diff::classify_diff) classifies a unified diff as A, B or C by
//!   seed 003's risk matrix, with the five-level view alongside.
//!
//! ```
//! use riskgate_analyzers::code::{CodeAction, RiskAssessor};
//! use riskgate_model::RiskLevel;
//!
//! let assessor = RiskAssessor::new();
//! assert_eq!(assessor.assess(&CodeAction::python("print('hello')")).level, RiskLevel::Safe);
//! // a comment is not code
//! let a = assessor.assess(&CodeAction::python("# never call shutil.rmtree('/')\nx = 1"));
//! assert!(a.level <= RiskLevel::Low);
//! // aliases are resolved
//! let a = assessor.assess(&CodeAction::python("from shutil import rmtree as rt\nrt('/home/u')"));
//! assert!(a.level >= RiskLevel::High);
//! ```
#![deny(missing_docs)]

pub mod code;
pub mod diff;
mod environment;
mod render;
pub mod secrets;
pub mod sql;

pub use environment::{Environment, ParseEnvironmentError};
pub use render::render_assessment;
