//! Registering `riskgate mcp` as an MCP server for agents that read an MCP configuration, and
//! removing it: pure text → text edits like [`crate::install`] (the CLI does the file work).
//!
//! | agent | project file | user file |
//! |---|---|---|
//! | claude | `.mcp.json` | `~/.claude.json` |
//! | gemini | `.gemini/settings.json` | `~/.gemini/settings.json` |
//! | cursor | `.cursor/mcp.json` | `~/.cursor/mcp.json` |
//!
//! Each holds `mcpServers.<name>: {command, args}`; riskgate's entry is `mcpServers.riskgate`
//! = `{"command": "<riskgate>", "args": ["mcp"]}`. Idempotent: installing an identical entry
//! changes nothing, an older riskgate entry (another path to the binary) is replaced, and an
//! entry named `riskgate` that does not run riskgate is refused, never overwritten.
//! Uninstalling removes only riskgate's entry, `mcpServers` when it is left empty, and an
//! MCP-only file (`.mcp.json`, `.cursor/mcp.json`) left as `{}`. Everything else is kept, in
//! its order.

use std::path::{Path, PathBuf};

use crate::install::{Change, Scope};
use crate::ordered::Json;
use crate::{Agent, HookError};

/// The entry's name under `mcpServers`.
pub const SERVER_NAME: &str = "riskgate";

/// The MCP configuration file of `agent` for `scope`; `None` for agents riskgate cannot
/// register an MCP server for.
pub fn config_path(agent: Agent, scope: Scope, project: &Path, home: &Path) -> Option<PathBuf> {
    Some(match (agent, scope) {
        (Agent::Claude, Scope::Project) => project.join(".mcp.json"),
        (Agent::Claude, Scope::User) => home.join(".claude.json"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Agent::Gemini, Scope::User) => home.join(".gemini/settings.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor/mcp.json"),
        (Agent::Cursor, Scope::User) => home.join(".cursor/mcp.json"),
        _ => return None,
    })
}

/// Whether the file holds only MCP servers (removed when left empty).
fn mcp_only(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()) == Some("mcp.json")
        || path.file_name().and_then(|n| n.to_str()) == Some(".mcp.json")
}

/// Whether an `mcpServers` entry runs `riskgate mcp` (any path to the binary).
pub fn is_ours(entry: &Json) -> bool {
    let prog = entry.get("command").and_then(Json::as_str).unwrap_or("");
    let base = prog.rsplit(['/', '\\']).next().unwrap_or(prog);
    let runs_mcp = matches!(entry.get("args"), Some(Json::Array(a)) if a.first().and_then(Json::as_str) == Some("mcp"));
    (base == "riskgate" || base == "riskgate.exe") && runs_mcp
}

fn bad(path: &Path, message: impl Into<String>) -> HookError {
    HookError::Settings {
        path: path.display().to_string(),
        message: message.into(),
    }
}

fn parse(path: &Path, text: Option<&str>) -> Result<Json, HookError> {
    let doc = match text.filter(|t| !t.trim().is_empty()) {
        None => Json::Object(Vec::new()),
        Some(t) => serde_json::from_str::<Json>(t)
            .map_err(|e| bad(path, format!("not valid JSON ({e}); left untouched")))?,
    };
    if !matches!(doc, Json::Object(_)) {
        return Err(bad(
            path,
            "the top level is not a JSON object; left untouched",
        ));
    }
    match doc.get("mcpServers") {
        None | Some(Json::Object(_)) => Ok(doc),
        Some(_) => Err(bad(path, "`mcpServers` is not an object; left untouched")),
    }
}

fn render(doc: &Json) -> Result<String, HookError> {
    serde_json::to_string_pretty(doc)
        .map(|t| t + "\n")
        .map_err(|e| HookError::Internal(e.to_string()))
}

/// The new text of `path` (`text`: its content, `None` when missing) with `riskgate mcp`
/// registered, run as `program` (`riskgate`, or a path to the binary).
pub fn install(path: &Path, text: Option<&str>, program: &str) -> Result<Change, HookError> {
    let mut doc = parse(path, text)?;
    let entry = Json::Object(vec![
        ("command".to_string(), Json::String(program.to_string())),
        (
            "args".to_string(),
            Json::Array(vec![Json::String("mcp".to_string())]),
        ),
    ]);
    let servers = match doc.get("mcpServers") {
        Some(Json::Object(_)) => doc.get_mut("mcpServers"),
        _ => {
            doc.set("mcpServers", Json::Object(Vec::new()));
            doc.get_mut("mcpServers")
        }
    };
    let Some(servers) = servers else {
        return Err(HookError::Internal("mcpServers vanished".into()));
    };
    match servers.get(SERVER_NAME) {
        Some(existing) if *existing == entry => return Ok(Change::Unchanged),
        Some(existing) if !is_ours(existing) => {
            return Err(bad(
                path,
                format!(
                    "`mcpServers.{SERVER_NAME}` exists and does not run `riskgate mcp`; left untouched"
                ),
            ));
        }
        _ => servers.set(SERVER_NAME, entry),
    }
    Ok(Change::Write(render(&doc)?))
}

/// The new text of `path` without riskgate's MCP server.
pub fn uninstall(path: &Path, text: Option<&str>) -> Result<Change, HookError> {
    if text.is_none() {
        return Ok(Change::Unchanged);
    }
    let mut doc = parse(path, text)?;
    let Some(servers) = doc.get_mut("mcpServers") else {
        return Ok(Change::Unchanged);
    };
    if !servers.get(SERVER_NAME).is_some_and(is_ours) {
        return Ok(Change::Unchanged);
    }
    servers.remove(SERVER_NAME);
    if matches!(servers, Json::Object(m) if m.is_empty()) {
        doc.remove("mcpServers");
    }
    if mcp_only(path) && matches!(&doc, Json::Object(m) if m.is_empty()) {
        return Ok(Change::Delete);
    }
    Ok(Change::Write(render(&doc)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(c: Change) -> String {
        match c {
            Change::Write(t) => t,
            other => panic!("expected a write, got {other:?}"),
        }
    }

    #[test]
    fn install_is_idempotent_and_keeps_other_servers_in_order() {
        let p = Path::new("/p/.mcp.json");
        let before = r#"{"mcpServers": {"github": {"command": "gh-mcp"}}, "other": 1}"#;
        let after = written(install(p, Some(before), "riskgate").unwrap());
        let v: serde_json::Value = serde_json::from_str(&after).unwrap();
        assert_eq!(
            v["mcpServers"]["riskgate"],
            serde_json::json!({"command": "riskgate", "args": ["mcp"]})
        );
        assert_eq!(v["mcpServers"]["github"]["command"], "gh-mcp");
        assert!(after.find("github").unwrap() < after.find("riskgate").unwrap());
        assert!(after.find("mcpServers").unwrap() < after.find("other").unwrap());
        assert_eq!(
            install(p, Some(&after), "riskgate").unwrap(),
            Change::Unchanged
        );
        // another path to the binary replaces the entry
        let moved = written(install(p, Some(&after), "/opt/bin/riskgate").unwrap());
        assert!(moved.contains("/opt/bin/riskgate"));
        assert_eq!(moved.matches("\"mcp\"").count(), 1);
        // uninstall keeps the other server, then removes the file it created
        let back = written(uninstall(p, Some(&moved)).unwrap());
        assert!(!back.contains("riskgate") && back.contains("github"));
        let fresh = written(install(p, None, "riskgate").unwrap());
        assert_eq!(uninstall(p, Some(&fresh)).unwrap(), Change::Delete);
        assert_eq!(uninstall(p, None).unwrap(), Change::Unchanged);
        assert_eq!(uninstall(p, Some(&back)).unwrap(), Change::Unchanged);
    }

    #[test]
    fn settings_files_are_kept_and_foreign_entries_refused() {
        let p = Path::new("/p/.gemini/settings.json");
        let fresh = written(install(p, Some(r#"{"theme": "dark"}"#), "riskgate").unwrap());
        let back = written(uninstall(p, Some(&fresh)).unwrap());
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&back).unwrap(),
            serde_json::json!({"theme": "dark"})
        );
        let foreign = r#"{"mcpServers": {"riskgate": {"command": "node", "args": ["x.js"]}}}"#;
        assert!(install(p, Some(foreign), "riskgate").is_err());
        assert_eq!(uninstall(p, Some(foreign)).unwrap(), Change::Unchanged);
        assert!(install(p, Some("[1]"), "riskgate").is_err());
        assert!(install(p, Some(r#"{"mcpServers": []}"#), "riskgate").is_err());
        assert!(
            config_path(
                Agent::Codex,
                Scope::Project,
                Path::new("/p"),
                Path::new("/h")
            )
            .is_none()
        );
    }
}
