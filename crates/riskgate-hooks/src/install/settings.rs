//! Settings and hooks files: riskgate's entries under `hooks.EVENT[]`, edited as text
//! ([`crate::jsonc`]) so the rest of the file stays byte for byte.
//!
//! | agent | what is added |
//! |---|---|
//! | claude | `hooks.PreToolUse[]`: a matcher group for the judged tools, `timeout` 30 s, `onFailure: block`; `hooks.PostToolUse[]` (session approvals) |
//! | gemini | `hooks.BeforeTool[]`: an anchored matcher group, `timeout` 10000 ms; `hooks.AfterTool[]` |
//! | codex | `hooks.PreToolUse[]`: `Bash`, `apply_patch`, MCP, `timeout` 30 s |
//! | cursor | `beforeShellExecution`, `beforeMCPExecution` (`failClosed`), `beforeReadFile`; `version: 1` |
//! | copilot | `hooks.preToolUse[]` and `hooks.postToolUse[]` with `bash` and `powershell`; `version: 1` |
//! | windsurf | `hooks.pre_run_command[]`, `pre_write_code`, `pre_read_code`, `pre_mcp_tool_use`: `{command}` |
//! | qwen | `hooks.PreToolUse[]`: a group for every tool, `timeout` 10000 ms |
//! | droid, augment | `hooks.PreToolUse[]`: a group for every tool (the agent's default time limit) |

use std::path::Path;

use super::{Change, is_ours};
use crate::agents::Layout;
use crate::jsonc::{self, Node};
use crate::ordered::Json;
use crate::{Agent, HookError};

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn s(v: &str) -> Json {
    Json::String(v.to_string())
}

fn n(v: u64) -> Json {
    Json::Number(v.into())
}

/// The entries riskgate adds: (event, group or entry).
fn ours(agent: Agent, command: &str) -> Vec<(&'static str, Json)> {
    let entry = |timeout: Option<u64>, extra: Vec<(&str, Json)>| {
        let mut e = vec![("type", s("command")), ("command", s(command))];
        if let Some(t) = timeout {
            e.push(("timeout", n(t)));
        }
        e.extend(extra);
        obj(e)
    };
    let group = |matcher: Option<&str>, e: Json| {
        let mut g = Vec::new();
        if let Some(m) = matcher {
            g.push(("matcher", s(m)));
        }
        g.push(("hooks", Json::Array(vec![e])));
        obj(g)
    };
    match agent {
        Agent::Claude => {
            let m = "^(Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|WebFetch|mcp__.*)$";
            vec![
                (
                    "PreToolUse",
                    group(Some(m), entry(Some(30), vec![("onFailure", s("block"))])),
                ),
                ("PostToolUse", group(Some(m), entry(Some(30), vec![]))),
            ]
        }
        Agent::Gemini => {
            let m = "^(run_shell_command|write_file|replace|read_file|web_fetch|mcp_.*)$";
            vec![
                ("BeforeTool", group(Some(m), entry(Some(10000), vec![]))),
                ("AfterTool", group(Some(m), entry(Some(10000), vec![]))),
            ]
        }
        Agent::Codex => vec![(
            "PreToolUse",
            group(
                Some("^(Bash|apply_patch|mcp__.*)$"),
                entry(Some(30), vec![]),
            ),
        )],
        Agent::Qwen => vec![("PreToolUse", group(None, entry(Some(10000), vec![])))],
        Agent::Droid | Agent::Augment => vec![("PreToolUse", group(None, entry(None, vec![])))],
        Agent::Cursor => {
            let e = |fail_closed: bool| {
                let mut v = vec![("command", s(command)), ("timeout", n(30))];
                if fail_closed {
                    v.push(("failClosed", Json::Bool(true)));
                }
                obj(v)
            };
            vec![
                ("beforeShellExecution", e(true)),
                ("beforeMCPExecution", e(true)),
                ("beforeReadFile", e(false)),
            ]
        }
        Agent::Copilot => {
            let e = obj(vec![
                ("type", s("command")),
                ("bash", s(command)),
                ("powershell", s(command)),
                ("timeoutSec", n(30)),
            ]);
            vec![("preToolUse", e.clone()), ("postToolUse", e)]
        }
        Agent::Windsurf => {
            let e = obj(vec![("command", s(command))]);
            [
                "pre_run_command",
                "pre_write_code",
                "pre_read_code",
                "pre_mcp_tool_use",
            ]
            .into_iter()
            .map(|ev| (ev, e.clone()))
            .collect()
        }
        // written whole (`owned`), never as settings entries
        Agent::OpenCode | Agent::Kilo | Agent::Cline | Agent::Goose => Vec::new(),
    }
}

fn entry_is_ours(e: &Json, agent: Agent) -> bool {
    ["command", "bash", "powershell"]
        .iter()
        .filter_map(|k| e.get(k).and_then(Json::as_str))
        .any(|c| is_ours(c, agent))
}

fn bad(path: &Path, message: String) -> HookError {
    HookError::Settings {
        path: path.display().to_string(),
        message,
    }
}

/// Parse and check the shape riskgate edits: an object whose `hooks` (if any) is an object of
/// arrays.
fn parse(path: &Path, text: &str) -> Result<jsonc::Doc, HookError> {
    let doc = jsonc::parse(text)
        .map_err(|e| bad(path, format!("not valid JSON ({e}); left untouched")))?;
    if !matches!(doc.root.kind, jsonc::Kind::Object(_)) {
        return Err(bad(
            path,
            "the top level is not a JSON object; left untouched".into(),
        ));
    }
    if let Some(hooks) = doc.root.get("hooks") {
        let jsonc::Kind::Object(events) = &hooks.kind else {
            return Err(bad(path, "`hooks` is not an object; left untouched".into()));
        };
        for m in events {
            if !matches!(m.value.kind, jsonc::Kind::Array(_)) {
                return Err(bad(
                    path,
                    format!("`hooks.{}` is not an array; left untouched", m.key),
                ));
            }
        }
    }
    Ok(doc)
}

/// Where riskgate's next entry is: event name, index in the event's list, index in that
/// group's `hooks` list (grouped layouts).
fn find_ours(root: &Node, agent: Agent) -> Option<(String, usize, Option<usize>)> {
    let hooks = root.get("hooks")?;
    for m in hooks.members() {
        for (i, item) in m.value.items().iter().enumerate() {
            if entry_is_ours(&item.to_json(), agent) {
                return Some((m.key.clone(), i, None));
            }
            if let Some(inner) = item.get("hooks") {
                for (j, e) in inner.items().iter().enumerate() {
                    if entry_is_ours(&e.to_json(), agent) {
                        return Some((m.key.clone(), i, Some(j)));
                    }
                }
            }
        }
    }
    None
}

/// `text` without riskgate's entries for `agent`: an entry, then a group it leaves empty, an
/// event list it leaves empty and a `hooks` object it leaves empty. `None` when there were
/// none.
fn strip(path: &Path, text: &str, agent: Agent) -> Result<Option<String>, HookError> {
    let mut text = text.to_string();
    let mut changed = false;
    // each round removes one entry; a file cannot hold more entries than bytes
    for _ in 0..=text.len() {
        let doc = parse(path, &text)?;
        let root = &doc.root;
        let Some((event, i, j)) = find_ours(root, agent) else {
            return Ok(changed.then_some(text));
        };
        changed = true;
        let (Some(hooks), Some(list)) = (
            root.get("hooks"),
            root.get("hooks").and_then(|h| h.get(&event)),
        ) else {
            break;
        };
        let Some(group) = list.items().get(i) else {
            break;
        };
        let inner = group.get("hooks");
        text = match (j, inner) {
            (Some(j), Some(inner)) if inner.items().len() > 1 => {
                jsonc::remove_element(&text, inner, j)
            }
            _ if list.items().len() > 1 => jsonc::remove_element(&text, list, i),
            _ if hooks.members().len() > 1 => jsonc::remove_member(&text, hooks, &event),
            _ => jsonc::remove_member(&text, root, "hooks"),
        };
    }
    Err(bad(path, "could not remove riskgate's entries".into()))
}

fn count_ours(root: &Json, agent: Agent, event: &str) -> (usize, bool, Vec<Json>) {
    let Some(Json::Array(items)) = root.get("hooks").and_then(|h| h.get(event)) else {
        return (0, false, Vec::new());
    };
    let mut n = 0;
    let mut mixed = false;
    let mut found = Vec::new();
    for item in items {
        if entry_is_ours(item, agent) {
            n += 1;
            found.push(item.clone());
        } else if let Some(Json::Array(inner)) = item.get("hooks") {
            let k = inner.iter().filter(|e| entry_is_ours(e, agent)).count();
            n += k;
            if k > 0 {
                mixed |= inner.len() > k;
                found.push(item.clone());
            }
        }
    }
    (n, mixed, found)
}

/// Whether the file already holds exactly the wanted entries (and the version it needs).
fn already(root: &Json, agent: Agent, layout: Layout, wanted: &[(&str, Json)]) -> bool {
    let each = wanted.iter().all(|(event, want)| {
        let (n, mixed, found) = count_ours(root, agent, event);
        n == 1 && !mixed && found.first() == Some(want)
    });
    let total: usize = match root.get("hooks") {
        Some(Json::Object(ev)) => ev.iter().map(|(e, _)| count_ours(root, agent, e).0).sum(),
        _ => 0,
    };
    each && total == wanted.len() && (layout != Layout::Flat(true) || root.get("version").is_some())
}

/// The command of riskgate's hook for `agent` in the settings, if any.
pub fn registered(agent: Agent, path: &Path, text: &str) -> Result<Option<String>, HookError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let doc = parse(path, text)?;
    let Some((event, i, j)) = find_ours(&doc.root, agent) else {
        return Ok(None);
    };
    let item = doc
        .root
        .get("hooks")
        .and_then(|h| h.get(&event))
        .and_then(|l| l.items().get(i));
    let entry = match (item, j) {
        (Some(g), Some(j)) => g.get("hooks").and_then(|h| h.items().get(j)),
        (item, _) => item,
    };
    Ok(entry.and_then(|e| {
        let e = e.to_json();
        ["command", "bash", "powershell"]
            .iter()
            .filter_map(|k| e.get(k).and_then(Json::as_str))
            .find(|c| is_ours(c, agent))
            .map(str::to_string)
    }))
}

/// Install: see the module's table.
pub fn install(
    agent: Agent,
    layout: Layout,
    path: &Path,
    text: Option<&str>,
    command: &str,
) -> Result<Change, HookError> {
    let original = text.filter(|t| !t.trim().is_empty());
    let mut t = original.unwrap_or("{}\n").to_string();
    let doc = parse(path, &t)?;
    let wanted = ours(agent, command);
    if original.is_some() && already(&doc.root.to_json(), agent, layout, &wanted) {
        return Ok(Change::Unchanged);
    }
    if let Some(stripped) = strip(path, &t, agent)? {
        t = stripped;
    }
    let reparse = |t: &str| parse(path, t).map(|d| d.root);
    if layout == Layout::Flat(true) {
        let root = reparse(&t)?;
        if root.get("version").is_none() {
            t = jsonc::add_member(&t, &root, "version", &n(1), true);
        }
    }
    let root = reparse(&t)?;
    if root.get("hooks").is_none() {
        let mut events: Vec<(String, Json)> = Vec::new();
        for (event, item) in &wanted {
            match events.iter_mut().find(|(e, _)| e == event) {
                Some((_, Json::Array(items))) => items.push(item.clone()),
                _ => events.push((event.to_string(), Json::Array(vec![item.clone()]))),
            }
        }
        t = jsonc::add_member(&t, &root, "hooks", &Json::Object(events), false);
    } else {
        for (event, item) in &wanted {
            let root = reparse(&t)?;
            let Some(hooks) = root.get("hooks") else {
                break;
            };
            t = match hooks.get(event) {
                Some(list) => jsonc::append_element(&t, list, item),
                None => {
                    jsonc::add_member(&t, hooks, event, &Json::Array(vec![item.clone()]), false)
                }
            };
        }
    }
    if text == Some(t.as_str()) {
        return Ok(Change::Unchanged);
    }
    Ok(Change::Write(t))
}

/// Uninstall: riskgate's entries removed; a file left with nothing (but a `version`) and no
/// comment is removed.
pub fn uninstall(
    agent: Agent,
    _layout: Layout,
    path: &Path,
    text: &str,
) -> Result<Change, HookError> {
    if text.trim().is_empty() {
        return Ok(Change::Unchanged);
    }
    let Some(t) = strip(path, text, agent)? else {
        return Ok(Change::Unchanged);
    };
    let doc = parse(path, &t)?;
    let empty = doc.root.members().iter().all(|m| m.key == "version");
    if empty && !doc.has_comments {
        return Ok(Change::Delete);
    }
    Ok(Change::Write(t))
}
