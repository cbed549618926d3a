//! Registering `riskgate mcp` as an MCP server for agents that read an MCP configuration, and
//! removing it: pure text → text edits like [`crate::install`] (the CLI does the file work).
//!
//! | agent | project file | user file | entry |
//! |---|---|---|---|
//! | claude | `.mcp.json` | `~/.claude.json` | `mcpServers.riskgate: {command, args}` |
//! | gemini | `.gemini/settings.json` | `~/.gemini/settings.json` | `mcpServers.riskgate: {command, args}` |
//! | cursor | `.cursor/mcp.json` | `~/.cursor/mcp.json` | `mcpServers.riskgate: {command, args}` |
//! | codex | `.codex/config.toml` | `$CODEX_HOME/config.toml` (`~/.codex`) | `[mcp_servers.riskgate]` `command`, `args` |
//! | copilot | — (see below) | `$COPILOT_HOME/mcp-config.json` (`~/.copilot`) | `mcpServers.riskgate: {type: "local", command, args, tools: ["*"]}` |
//!
//! The shapes were checked against the shipped packages: `codex mcp add` (`@openai/codex`
//! 0.169.0) writes `[mcp_servers.NAME]` with `command` and `args` (`codex mcp list` reads
//! riskgate's back); `copilot mcp add` (`@github/copilot` 1.0.102) writes
//! `~/.copilot/mcp-config.json` with `type: "local"` and `tools: ["*"]` (`copilot mcp list` and `copilot mcp get` read it back). Copilot's help names
//! `.mcp.json` and `.github/mcp.json` as a workspace's files, but 1.0.102 listed neither (in a
//! trusted folder too), so riskgate registers Copilot's server for the user only.
//!
//! riskgate's entry is `riskgate` = `{command: "<riskgate>", args: ["mcp"]}`. Idempotent:
//! installing an identical entry changes nothing, an older riskgate entry (another path to the
//! binary) is replaced, and an entry named `riskgate` that does not run riskgate is refused,
//! never overwritten. Uninstalling removes only riskgate's entry, the server table when it is
//! left empty, and a file left with nothing in it when it is an MCP-only file or riskgate's
//! edit emptied it. The files are edited as text ([`json`]: JSON with comments, [`toml`]:
//! `toml_edit`), so every other byte — comments, formatting, key order — stays as it was.

mod json;
mod toml;

use std::path::{Path, PathBuf};

use crate::install::{Change, Scope};
use crate::ordered::Json;
use crate::{Agent, HookError};

/// The entry's name under `mcpServers` / `mcp_servers`.
pub const SERVER_NAME: &str = "riskgate";

/// The MCP configuration file of `agent` for `scope`; `None` for agents riskgate cannot
/// register an MCP server for. `env` looks up `CODEX_HOME` and `COPILOT_HOME`.
pub fn config_path(
    agent: Agent,
    scope: Scope,
    project: &Path,
    home: &Path,
    env: &impl Fn(&str) -> Option<String>,
) -> Option<PathBuf> {
    let under = |var: &str, base: &str| {
        env(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(base))
    };
    Some(match (agent, scope) {
        (Agent::Claude, Scope::Project) => project.join(".mcp.json"),
        (Agent::Claude, Scope::User) => home.join(".claude.json"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Agent::Gemini, Scope::User) => home.join(".gemini/settings.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor/mcp.json"),
        (Agent::Cursor, Scope::User) => home.join(".cursor/mcp.json"),
        (Agent::Codex, Scope::Project) => project.join(".codex/config.toml"),
        (Agent::Codex, Scope::User) => under("CODEX_HOME", ".codex").join("config.toml"),
        (Agent::Copilot, Scope::User) => under("COPILOT_HOME", ".copilot").join("mcp-config.json"),
        _ => return None,
    })
}

/// Whether the file holds only MCP servers (removed when left empty).
fn mcp_only(path: &Path) -> bool {
    matches!(
        path.file_name().and_then(|n| n.to_str()),
        Some("mcp.json" | ".mcp.json" | "mcp-config.json")
    )
}

/// Whether a program and its arguments run `riskgate mcp` (any path to the binary).
fn runs_riskgate_mcp(program: &str, first_arg: Option<&str>) -> bool {
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    (base == "riskgate" || base == "riskgate.exe") && first_arg == Some("mcp")
}

/// Whether an `mcpServers` entry runs `riskgate mcp` (any path to the binary).
pub fn is_ours(entry: &Json) -> bool {
    let prog = entry.get("command").and_then(Json::as_str).unwrap_or("");
    let first = match entry.get("args") {
        Some(Json::Array(a)) => a.first().and_then(Json::as_str),
        _ => None,
    };
    runs_riskgate_mcp(prog, first)
}

fn bad(path: &Path, message: impl Into<String>) -> HookError {
    HookError::Settings {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// riskgate's JSON entry for `agent`, run as `program`.
fn json_entry(agent: Agent, program: &str) -> Json {
    let command = ("command".to_string(), Json::String(program.to_string()));
    let args = (
        "args".to_string(),
        Json::Array(vec![Json::String("mcp".to_string())]),
    );
    match agent {
        Agent::Copilot => Json::Object(vec![
            ("type".to_string(), Json::String("local".to_string())),
            command,
            args,
            (
                "tools".to_string(),
                Json::Array(vec![Json::String("*".to_string())]),
            ),
        ]),
        _ => Json::Object(vec![command, args]),
    }
}

/// Whether `path` is a TOML file (Codex's `config.toml`).
fn is_toml(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("toml")
}

/// The new text of `path` (`text`: its content, `None` when missing) with `riskgate mcp`
/// registered for `agent`, run as `program` (`riskgate`, or a path to the binary).
pub fn install(
    agent: Agent,
    path: &Path,
    text: Option<&str>,
    program: &str,
) -> Result<Change, HookError> {
    if is_toml(path) {
        toml::install(path, text, program)
    } else {
        json::install(path, text, &json_entry(agent, program))
    }
}

/// The new text of `path` without riskgate's MCP server.
pub fn uninstall(path: &Path, text: Option<&str>) -> Result<Change, HookError> {
    if is_toml(path) {
        toml::uninstall(path, text)
    } else {
        json::uninstall(path, text, mcp_only(path))
    }
}

#[cfg(test)]
mod tests;
