//! One module per subcommand family.

pub mod analyze;
pub mod approvals;
pub mod check;
pub mod common;
pub mod config;
pub mod hook;
pub mod install;
pub mod log;
pub mod parse;
pub mod rules;
pub mod scan;
pub mod workflow;
