//! `riskgate install <agent>` and `riskgate uninstall <agent>`: register the hook in the
//! agent's settings file (project or user), or remove it. The edit itself is
//! `riskgate_hooks::install` (idempotent, keeps every other setting in order); here: the
//! file's place, a backup of the previous content (`<file>.riskgate.bak`), the atomic write
//! (temporary file, fsync, rename, permissions kept) and `--dry-run`, which prints the change
//! as a diff and writes nothing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use riskgate::gate::atomic::write_atomic;
use riskgate_hooks::Agent;
use riskgate_hooks::install::{self, Change, Scope};

use crate::cmd::hook::parse_agent;
use crate::exit::Code;

/// Arguments of `riskgate install` and `riskgate uninstall`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent: claude, gemini, codex, cursor or copilot.
    #[arg(value_parser = parse_agent)]
    agent: Agent,
    /// The project's settings (the default): under the git work tree or the current directory.
    #[arg(long, conflicts_with = "user")]
    project: bool,
    /// The user's settings, under the home directory.
    #[arg(long)]
    user: bool,
    /// Show the change as a diff; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Register (or remove) `riskgate mcp` as an MCP server in the agent's MCP configuration
    /// instead of the hook: claude `.mcp.json` (`--user`: `~/.claude.json`), gemini
    /// `.gemini/settings.json`, cursor `.cursor/mcp.json`.
    #[arg(long)]
    pub(crate) mcp: bool,
}

impl Args {
    pub(crate) fn agent(&self) -> Agent {
        self.agent
    }
    pub(crate) fn scope(&self) -> Scope {
        if self.user {
            Scope::User
        } else {
            Scope::Project
        }
    }
    pub(crate) fn dry_run(&self) -> bool {
        self.dry_run
    }
}

pub(crate) fn project_dir() -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    Ok(cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf())
}

fn target(args: &Args) -> anyhow::Result<PathBuf> {
    let scope = if args.user {
        Scope::User
    } else {
        Scope::Project
    };
    let home = riskgate::gate::paths::home_dir();
    if scope == Scope::User && home.is_none() {
        anyhow::bail!("--user: HOME is not set");
    }
    let home = home.unwrap_or_default();
    Ok(install::settings_path(
        args.agent,
        scope,
        &project_dir()?,
        &home,
        |v| std::env::var(v).ok(),
    ))
}

/// The program an agent runs: `riskgate` when `riskgate` on PATH is this binary, else this
/// binary's absolute path (unquoted).
pub(crate) fn program() -> String {
    let me = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("riskgate"))
            .find(|c| c.is_file())
            .and_then(|c| std::fs::canonicalize(c).ok())
    });
    match me {
        Some(me) if on_path.as_ref() != Some(&me) => me.to_string_lossy().into_owned(),
        _ => "riskgate".to_string(),
    }
}

/// The command the agent runs: `riskgate hook <agent>` when `riskgate` on PATH is this
/// binary, else this binary's absolute path.
fn hook_command(agent: Agent) -> String {
    let me = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("riskgate"))
            .find(|c| c.is_file())
            .and_then(|c| std::fs::canonicalize(c).ok())
    });
    match me {
        Some(me) if on_path.as_ref() != Some(&me) => format!(
            "{} hook {}",
            riskgate::gate::decide::shell_quote(&me.to_string_lossy()),
            agent.name()
        ),
        _ => format!("riskgate hook {}", agent.name()),
    }
}

pub(crate) fn read(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".riskgate.bak");
    PathBuf::from(s)
}

pub(crate) fn apply(
    path: &Path,
    old: Option<&str>,
    change: &Change,
    dry_run: bool,
) -> anyhow::Result<bool> {
    let new = match change {
        Change::Unchanged => return Ok(false),
        Change::Write(t) => t.as_str(),
        Change::Delete => "",
    };
    if dry_run {
        let patch = riskgate_diff(old.unwrap_or(""), new, path);
        out!("{patch}");
        return Ok(true);
    }
    if let Some(old) = old {
        std::fs::write(backup_path(path), old)
            .with_context(|| format!("cannot write the backup {}", backup_path(path).display()))?;
    }
    match change {
        Change::Delete => std::fs::remove_file(path)
            .with_context(|| format!("cannot remove {}", path.display()))?,
        _ => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            write_atomic(path, new.as_bytes())?;
        }
    }
    Ok(true)
}

/// A unified diff of the settings file, for `--dry-run`.
fn riskgate_diff(old: &str, new: &str, path: &Path) -> String {
    let name = path.display().to_string();
    let mut out = format!("--- {name}\n+++ {name} (after)\n");
    let patch = diffy::create_patch(old, new).to_string();
    for line in patch
        .lines()
        .skip_while(|l| l.starts_with("---") || l.starts_with("+++"))
    {
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn note(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Codex => Some("Codex runs a new or changed hook only after you trust it in /hooks."),
        Agent::Gemini => Some("Gemini CLI runs project hooks only in trusted folders."),
        Agent::Cursor => Some("Cursor runs project hooks only in trusted workspaces."),
        _ => None,
    }
}

/// Run `riskgate install`.
pub fn run_install(args: Args) -> anyhow::Result<ExitCode> {
    if args.mcp {
        return crate::cmd::install_mcp::run(&args, true);
    }
    let path = target(&args)?;
    let old = read(&path)?;
    let command = hook_command(args.agent);
    let change = install::install(args.agent, &path, old.as_deref(), &command)?;
    let changed = apply(&path, old.as_deref(), &change, args.dry_run)?;
    let what = format!("`{command}` for {}", args.agent);
    if args.dry_run {
        if !changed {
            outln!(
                "{what} is already installed in {}; nothing to change",
                path.display()
            );
        }
    } else if changed {
        let backup = if old.is_some() {
            format!(" (previous content in {})", backup_path(&path).display())
        } else {
            String::new()
        };
        outln!("installed {what} in {}{backup}", path.display());
        if let Some(n) = note(args.agent) {
            outln!("{n}");
        }
    } else {
        outln!("{what} is already installed in {}", path.display());
    }
    Ok(Code::Allow.into())
}

/// Run `riskgate uninstall`.
pub fn run_uninstall(args: Args) -> anyhow::Result<ExitCode> {
    if args.mcp {
        return crate::cmd::install_mcp::run(&args, false);
    }
    let path = target(&args)?;
    let old = read(&path)?;
    let change = install::uninstall(args.agent, &path, old.as_deref())?;
    let changed = apply(&path, old.as_deref(), &change, args.dry_run)?;
    if !changed {
        outln!("no riskgate hook for {} in {}", args.agent, path.display());
    } else if !args.dry_run {
        let how = if change == Change::Delete {
            "removed the file"
        } else {
            "removed the hook from"
        };
        outln!(
            "{how} {} (previous content in {})",
            path.display(),
            backup_path(&path).display()
        );
    }
    Ok(Code::Allow.into())
}
