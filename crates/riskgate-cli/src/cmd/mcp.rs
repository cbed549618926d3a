//! `riskgate mcp`: the Model Context Protocol server on stdio (`riskgate_mcp`). The policy is
//! loaded for each tool call with the same layers and flags as `riskgate check`, so an edited
//! policy file applies to the next call; stdout carries only the protocol, warnings go to
//! stderr.

use std::process::ExitCode;
use std::sync::Arc;

use riskgate_mcp::tools::PolicyLoader;

use crate::cmd::common::PolicyArgs;
use crate::exit::Code;

/// Arguments of `riskgate mcp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Run `riskgate mcp` until the client closes standard input.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy;
    // a policy that does not load is reported now, and again on each call until it is fixed
    if let Err(e) = policy.load() {
        eprintln!("riskgate mcp: warning: {e:#}");
    }
    let loader: PolicyLoader = Arc::new(move || policy.load().map_err(|e| format!("{e:#}")));
    riskgate_mcp::serve_stdio(loader)?;
    Ok(Code::Allow.into())
}
