//! `mcpServers.riskgate` in a JSON (or JSON-with-comments) file, added and removed as text
//! ([`crate::jsonc`]): every other byte of the user's file stays as it was.

use std::path::Path;

use super::{SERVER_NAME, bad, is_ours};
use crate::HookError;
use crate::install::Change;
use crate::jsonc::{self, Doc, Kind};
use crate::ordered::Json;

const SERVERS: &str = "mcpServers";

fn parse(path: &Path, text: &str) -> Result<Doc, HookError> {
    let doc = jsonc::parse(text)
        .map_err(|e| bad(path, format!("not valid JSON ({e}); left untouched")))?;
    if !matches!(doc.root.kind, Kind::Object(_)) {
        return Err(bad(
            path,
            "the top level is not a JSON object; left untouched",
        ));
    }
    match doc.root.get(SERVERS).map(|n| &n.kind) {
        None | Some(Kind::Object(_)) => Ok(doc),
        Some(_) => Err(bad(path, "`mcpServers` is not an object; left untouched")),
    }
}

fn render(doc: &Json) -> Result<String, HookError> {
    serde_json::to_string_pretty(doc)
        .map(|t| t + "\n")
        .map_err(|e| HookError::Internal(e.to_string()))
}

/// Register `entry` as `mcpServers.riskgate`.
pub(super) fn install(path: &Path, text: Option<&str>, entry: &Json) -> Result<Change, HookError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        let servers = Json::Object(vec![(SERVER_NAME.to_string(), entry.clone())]);
        return Ok(Change::Write(render(&Json::Object(vec![(
            SERVERS.to_string(),
            servers,
        )]))?));
    };
    let doc = parse(path, text)?;
    let Some(servers) = doc.root.get(SERVERS) else {
        let servers = Json::Object(vec![(SERVER_NAME.to_string(), entry.clone())]);
        return Ok(Change::Write(jsonc::add_member(
            text, &doc.root, SERVERS, &servers, false,
        )));
    };
    let text = match servers.get(SERVER_NAME) {
        Some(existing) if existing.to_json() == *entry => return Ok(Change::Unchanged),
        Some(existing) if !is_ours(&existing.to_json()) => {
            return Err(bad(
                path,
                format!(
                    "`mcpServers.{SERVER_NAME}` exists and does not run `riskgate mcp`; left untouched"
                ),
            ));
        }
        // an older riskgate entry (another path to the binary) goes, then the new one is added
        Some(_) => jsonc::remove_member(text, servers, SERVER_NAME),
        None => text.to_string(),
    };
    let doc = parse(path, &text)?;
    let Some(servers) = doc.root.get(SERVERS) else {
        return Err(HookError::Internal("mcpServers vanished".into()));
    };
    Ok(Change::Write(jsonc::add_member(
        &text,
        servers,
        SERVER_NAME,
        entry,
        false,
    )))
}

/// Remove riskgate's entry (and `mcpServers` when left empty; the file when it is MCP-only
/// and left empty without a comment).
pub(super) fn uninstall(
    path: &Path,
    text: Option<&str>,
    mcp_only: bool,
) -> Result<Change, HookError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Change::Unchanged);
    };
    let doc = parse(path, text)?;
    let Some(servers) = doc.root.get(SERVERS) else {
        return Ok(Change::Unchanged);
    };
    if !servers
        .get(SERVER_NAME)
        .is_some_and(|e| is_ours(&e.to_json()))
    {
        return Ok(Change::Unchanged);
    }
    let mut out = jsonc::remove_member(text, servers, SERVER_NAME);
    let doc = parse(path, &out)?;
    if let Some(servers) = doc.root.get(SERVERS)
        && servers.members().is_empty()
    {
        out = jsonc::remove_member(&out, &doc.root, SERVERS);
    }
    let doc = parse(path, &out)?;
    if mcp_only && doc.root.members().is_empty() && !doc.has_comments {
        return Ok(Change::Delete);
    }
    Ok(Change::Write(out))
}
