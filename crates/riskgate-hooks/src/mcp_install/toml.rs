//! `[mcp_servers.riskgate]` in Codex's `config.toml`, edited with `toml_edit`: the user's
//! comments, formatting and order stay as they were; riskgate's table is added at the end and
//! removing it gives the file back.

use std::path::Path;

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value, value};

use super::{SERVER_NAME, bad, runs_riskgate_mcp};
use crate::HookError;
use crate::install::Change;

const SERVERS: &str = "mcp_servers";

fn parse(path: &Path, text: &str) -> Result<DocumentMut, HookError> {
    text.parse::<DocumentMut>()
        .map_err(|e| bad(path, format!("not valid TOML ({e}); left untouched")))
}

/// Whether a server entry (a table or an inline table) runs `riskgate mcp`.
fn is_ours(entry: &Item) -> bool {
    let Some(t) = entry.as_table_like() else {
        return false;
    };
    let prog = t.get("command").and_then(Item::as_str).unwrap_or("");
    let first = t
        .get("args")
        .and_then(Item::as_array)
        .and_then(|a| a.get(0))
        .and_then(Value::as_str);
    runs_riskgate_mcp(prog, first)
}

fn args() -> Array {
    let mut a = Array::new();
    a.push("mcp");
    a
}

/// Whether the entry is exactly riskgate's for `program`.
fn same(entry: &Item, program: &str) -> bool {
    let Some(t) = entry.as_table_like() else {
        return false;
    };
    let prog = t.get("command").and_then(Item::as_str);
    let argv: Option<Vec<&str>> = t
        .get("args")
        .and_then(Item::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect());
    prog == Some(program) && argv.as_deref() == Some(&["mcp"][..])
}

/// Register `riskgate mcp`, run as `program`.
pub(super) fn install(path: &Path, text: Option<&str>, program: &str) -> Result<Change, HookError> {
    let mut doc = parse(path, text.unwrap_or(""))?;
    let root = doc.as_table_mut();
    if !root.contains_key(SERVERS) {
        let mut servers = Table::new();
        servers.set_implicit(true);
        root.insert(SERVERS, Item::Table(servers));
    }
    let Some(servers) = root.get_mut(SERVERS) else {
        return Err(HookError::Internal("mcp_servers vanished".into()));
    };
    if let Some(existing) = servers.get(SERVER_NAME) {
        if same(existing, program) {
            return Ok(Change::Unchanged);
        }
        if !is_ours(existing) {
            return Err(bad(
                path,
                format!(
                    "`{SERVERS}.{SERVER_NAME}` exists and does not run `riskgate mcp`; left untouched"
                ),
            ));
        }
    }
    match servers {
        Item::Table(t) => match t.get_mut(SERVER_NAME).and_then(Item::as_table_like_mut) {
            // an older riskgate entry: only its program changes, the user's keys stay
            Some(existing) => set_program(existing, program),
            None => {
                let mut entry = Table::new();
                entry.insert("command", value(program));
                entry.insert("args", value(args()));
                t.insert(SERVER_NAME, Item::Table(entry));
            }
        },
        Item::Value(Value::InlineTable(t)) => {
            match t.get_mut(SERVER_NAME).and_then(Value::as_inline_table_mut) {
                Some(existing) => set_program(existing, program),
                None => {
                    let mut entry = InlineTable::new();
                    entry.insert("command", program.into());
                    entry.insert("args", Value::Array(args()));
                    t.insert(SERVER_NAME, Value::InlineTable(entry));
                }
            }
        }
        _ => {
            return Err(bad(
                path,
                format!("`{SERVERS}` is not a table; left untouched"),
            ));
        }
    }
    Ok(Change::Write(doc.to_string()))
}

fn set_program(entry: &mut dyn TableLike, program: &str) {
    entry.insert("command", value(program));
    entry.insert("args", value(args()));
}

/// Remove riskgate's server (and `mcp_servers` when left empty; the file when nothing is left
/// in it).
pub(super) fn uninstall(path: &Path, text: Option<&str>) -> Result<Change, HookError> {
    let Some(text) = text else {
        return Ok(Change::Unchanged);
    };
    let mut doc = parse(path, text)?;
    let root = doc.as_table_mut();
    let Some(servers) = root.get_mut(SERVERS).and_then(Item::as_table_like_mut) else {
        return Ok(Change::Unchanged);
    };
    if !servers.get(SERVER_NAME).is_some_and(is_ours) {
        return Ok(Change::Unchanged);
    }
    servers.remove(SERVER_NAME);
    if servers.is_empty() {
        root.remove(SERVERS);
    }
    let out = doc.to_string();
    if out.trim().is_empty() {
        return Ok(Change::Delete);
    }
    Ok(Change::Write(out))
}
