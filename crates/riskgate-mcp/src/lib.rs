//! riskgate as a Model Context Protocol server (`riskgate mcp`): any MCP-capable agent or IDE
//! can consult riskgate before acting.
//!
//! - [`tools`]: the tools (`assess_command`, `assess_code`, `assess_sql`, `assess_diff`,
//!   `assess_workflow`), their schemas, argument checks and answers; transport-free.
//! - [`server`]: the stdio server on the official SDK (`rmcp`).
//!
//! ```
//! use std::sync::Arc;
//! use riskgate_mcp::tools::{self, PolicyLoader};
//! let loader: PolicyLoader = Arc::new(|| Err("no policy in this example".to_string()));
//! assert_eq!(tools::definitions().len(), 5);
//! // a bad argument is named before the policy is even loaded
//! let args = serde_json::json!({"command": 42});
//! let err = tools::call("assess_command", args.as_object(), &loader).unwrap_err();
//! assert!(err.to_string().contains("`command`"));
//! ```
#![deny(missing_docs)]

pub mod server;
pub mod tools;

pub use server::{RiskgateServer, ServeError, serve_stdio};
