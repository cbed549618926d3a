//! `riskgate install <agent>` and `riskgate uninstall <agent>`: register the hook with the
//! agent (its settings or hooks file, a plugin or a hook script; project or user), or remove
//! it. The edit itself is `riskgate_hooks::install` (idempotent, every other byte of the file
//! kept); here: the file's place, a backup of the previous content (`<file>.riskgate.bak`)
//! kept only while the file is being replaced, the atomic write (temporary file, fsync,
//! rename, permissions kept; a hook script made executable), removing a file riskgate's
//! removal left empty, and `--dry-run`, which prints the change as a diff and writes nothing.

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
    /// The agent: claude, gemini, codex, cursor, copilot, opencode, kilo, windsurf, cline, qwen,
    /// droid, augment or goose.
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
    /// `.gemini/settings.json`, cursor `.cursor/mcp.json`, codex `.codex/config.toml`
    /// (`--user`: `$CODEX_HOME/config.toml`), copilot with `--user` only
    /// (`~/.copilot/mcp-config.json`).
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
    let scope = scope(args);
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
pub(crate) fn hook_command(agent: Agent) -> String {
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
    agent: Agent,
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
    // the previous content is kept beside the file while it is replaced, and only then
    let backup = backup_path(path);
    if let Some(old) = old {
        std::fs::write(&backup, old)
            .with_context(|| format!("cannot write the backup {}", backup.display()))?;
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
            if install::executable(agent) {
                make_executable(path)?;
            }
        }
    }
    // done: the backup (and one an older riskgate left) is no longer needed
    match std::fs::remove_file(&backup) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot remove {}", backup.display())),
    }
    companion(agent, path, change)?;
    Ok(true)
}

/// The file some agents need beside riskgate's (Goose's plugin manifest): written with it
/// when missing, removed with it when it is riskgate's, and the directories riskgate's plugin
/// leaves empty with it.
fn companion(agent: Agent, path: &Path, change: &Change) -> anyhow::Result<()> {
    let Some((file, content)) = install::companion(agent, path) else {
        return Ok(());
    };
    match change {
        Change::Write(_) if !file.exists() => write_atomic(&file, content.as_bytes())?,
        Change::Delete => {
            if std::fs::read_to_string(&file).is_ok_and(|t| t == content) {
                std::fs::remove_file(&file)
                    .with_context(|| format!("cannot remove {}", file.display()))?;
            }
            // only empty directories go (remove_dir refuses others)
            for dir in [path.parent(), file.parent()].into_iter().flatten() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(unix)]
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut perm = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .permissions();
    perm.set_mode(perm.mode() | 0o755);
    std::fs::set_permissions(path, perm)
        .with_context(|| format!("cannot make {} executable", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
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

fn scope(args: &Args) -> Scope {
    args.scope()
}

/// What the agent asks of a project hook (trust, a restart), said after a project install,
/// and what it asks of every hook, said after any install.
fn notes(agent: Agent, scope: Scope) -> impl Iterator<Item = &'static str> {
    let info = agent.info();
    let project = match scope {
        Scope::Project => info.project_note,
        // the agents that load plugins at start need a restart whatever the scope
        Scope::User if info.layout == riskgate_hooks::agents::Layout::Owned => info.project_note,
        Scope::User => None,
    };
    project.into_iter().chain(info.agent_note)
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
    let changed = apply(args.agent, &path, old.as_deref(), &change, args.dry_run)?;
    let what = format!("`{command}` for {}", args.agent);
    if args.dry_run {
        if !changed {
            outln!(
                "{what} is already installed in {}; nothing to change",
                path.display()
            );
        }
    } else if changed {
        outln!("installed {what} in {}", path.display());
        for n in notes(args.agent, scope(&args)) {
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
    let changed = apply(args.agent, &path, old.as_deref(), &change, args.dry_run)?;
    if !changed {
        outln!("no riskgate hook for {} in {}", args.agent, path.display());
    } else if !args.dry_run {
        let how = if change == Change::Delete {
            "removed riskgate's hook and the file it left empty:"
        } else {
            "removed riskgate's hook from"
        };
        outln!("{how} {}", path.display());
    }
    Ok(Code::Allow.into())
}
