//! One module per subcommand family.

pub mod admin;
pub mod analyze;
pub mod approvals;
pub mod check;
pub mod common;
pub mod completions;
pub mod config;
pub mod doctor;
pub mod explain;
pub mod export;
pub mod hook;
pub mod install;
pub mod install_mcp;
pub mod log;
pub mod mcp;
pub mod parse;
pub mod repo;
pub mod report;
pub mod review;
pub mod rules;
pub mod scan;
pub mod serve;
pub mod untracked;
pub mod workflow;
