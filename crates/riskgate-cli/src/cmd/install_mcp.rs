//! `riskgate install AGENT --mcp` and `riskgate uninstall AGENT --mcp`: register `riskgate mcp`
//! in the MCP configuration of agents that read one (`riskgate_hooks::mcp_install`), with the
//! same atomic write (a backup kept only while the file is replaced) and `--dry-run` as the
//! hook's installation.

use std::process::ExitCode;

use anyhow::Context as _;
use riskgate_hooks::install::{Change, Scope};
use riskgate_hooks::mcp_install;

use crate::cmd::install::{Args, apply, program, project_dir, read};
use crate::exit::Code;

/// Install (`install`) or remove riskgate's MCP server for `args`' agent.
pub fn run(args: &Args, install: bool) -> anyhow::Result<ExitCode> {
    let agent = args.agent();
    let scope = args.scope();
    let home = riskgate::gate::paths::home_dir();
    if scope == Scope::User && home.is_none() {
        anyhow::bail!("--user: HOME is not set");
    }
    let Some(path) = mcp_install::config_path(
        agent,
        scope,
        &project_dir()?,
        &home.unwrap_or_default(),
        &|v| std::env::var(v).ok(),
    ) else {
        anyhow::bail!(
            "{agent} has no MCP configuration riskgate can register in (supported: claude, gemini, cursor, codex; copilot with --user); add a server running `riskgate mcp` in its own settings"
        );
    };
    let old = read(&path)?;
    let change = if install {
        mcp_install::install(agent, &path, old.as_deref(), &program())
    } else {
        mcp_install::uninstall(&path, old.as_deref())
    }
    .with_context(|| format!("cannot update {}", path.display()))?;
    let changed = apply(agent, &path, old.as_deref(), &change, args.dry_run())?;
    match (install, changed, args.dry_run()) {
        (_, true, true) => {}
        (true, true, false) => outln!(
            "registered the MCP server `riskgate mcp` for {agent} in {}",
            path.display()
        ),
        (true, false, _) => outln!(
            "the MCP server `riskgate mcp` is already registered for {agent} in {}",
            path.display()
        ),
        (false, true, false) => {
            let how = if change == Change::Delete {
                "removed the file"
            } else {
                "removed the MCP server from"
            };
            outln!("{how} {}", path.display());
        }
        (false, false, _) => outln!("no riskgate MCP server for {agent} in {}", path.display()),
    }
    Ok(Code::Allow.into())
}
