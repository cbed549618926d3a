//! One adapter per agent: [`parse`] reads the agent's pre-tool payload into a [`Call`];
//! [`reply`] puts a [`Verdict`] into the agent's words. Shared here: the JSON helpers and the
//! mapping of Claude-style tool inputs (Claude Code, Codex and Copilot's `PreToolUse` format
//! share it); agents that differ only in tool names and argument keys (Qwen Code, Factory
//! Droid, Augment, OpenCode and Kilo, Cline) are mapped by [`table`]s.
//!
//! A payload that is not a JSON object, lacks a required field, or is another event's or
//! another agent's shape is an error (answered "ask" or "deny" by [`crate::run`]); a
//! well-formed call of a tool riskgate does not judge is [`Tool::Other`] (no opinion).

pub mod augment;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod goose;
pub mod opencode;
pub mod qwen;
pub(crate) mod table;
pub mod windsurf;

use serde_json::{Map, Value};

use crate::request::{Call, Tool};
use crate::verdict::{Reply, Verdict};
use crate::{Agent, HookError};

/// Largest payload read (a file write carries the file).
pub const MAX_PAYLOAD_BYTES: usize = 32 << 20;

/// Parse `agent`'s payload.
pub fn parse(agent: Agent, bytes: &[u8]) -> Result<Call, HookError> {
    let value = object(bytes)?;
    match agent {
        Agent::Claude => claude::parse(&value),
        Agent::Gemini => gemini::parse(&value),
        Agent::Codex => codex::parse(&value),
        Agent::Cursor => cursor::parse(&value),
        Agent::Copilot => copilot::parse(&value),
        Agent::OpenCode | Agent::Kilo => opencode::parse(&value),
        Agent::Windsurf => windsurf::parse(&value),
        Agent::Cline => cline::parse(&value),
        Agent::Qwen => qwen::parse(&value),
        Agent::Droid => droid::parse(&value),
        Agent::Augment => augment::parse(&value),
        Agent::Goose => goose::parse(&value),
    }
}

/// Put `verdict` into `agent`'s words, for `event` (when known). An "ask" the agent cannot
/// take must have been turned into "deny" before (see [`crate::run`]).
pub fn reply(agent: Agent, verdict: &Verdict, event: Option<&str>) -> Reply {
    match agent {
        Agent::Claude => claude::reply(verdict),
        Agent::Gemini => gemini::reply(verdict),
        Agent::Codex => codex::reply(verdict),
        Agent::Cursor => cursor::reply(verdict, event),
        Agent::Copilot => copilot::reply(verdict),
        Agent::OpenCode | Agent::Kilo => opencode::reply(verdict),
        Agent::Windsurf => windsurf::reply(verdict),
        Agent::Cline => cline::reply(verdict),
        Agent::Qwen => qwen::reply(verdict),
        Agent::Droid => droid::reply(verdict),
        Agent::Augment => augment::reply(verdict),
        Agent::Goose => goose::reply(verdict),
    }
}

/// Claude Code's `hookSpecificOutput` answer, for the agents that read it and cannot ask
/// (Qwen Code, Factory Droid, Augment): allow or deny with the reason; no opinion is empty.
pub(crate) fn claude_family_reply(v: &Verdict) -> Reply {
    use crate::verdict::Answer;
    match v.answer {
        Answer::NoOpinion => Reply::empty(),
        Answer::Allow => Reply::json(&claude::hook_specific("allow", &v.reason)),
        Answer::Ask | Answer::Deny => Reply::json(&claude::hook_specific("deny", &v.reason)),
    }
}

/// The payload as a JSON object.
pub(crate) fn object(bytes: &[u8]) -> Result<Map<String, Value>, HookError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| HookError::NotJson("the payload is not UTF-8".into()))?;
    if text.trim().is_empty() {
        return Err(HookError::NotJson("the payload is empty".into()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(HookError::NotJson(format!(
            "expected a JSON object, got {}",
            riskgate::model::json_kind(&other)
        ))),
        Err(e) => Err(HookError::NotJson(format!("not JSON ({e})"))),
    }
}

/// A required string field.
pub(crate) fn req_str(m: &Map<String, Value>, key: &str) -> Result<String, HookError> {
    match m.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(HookError::Malformed(format!(
            "`{key}` must be a string, got {}",
            riskgate::model::json_kind(other)
        ))),
        None => Err(HookError::Malformed(format!("`{key}` is missing"))),
    }
}

/// The first of `keys` present, as a required string.
pub(crate) fn req_str_any(m: &Map<String, Value>, keys: &[&str]) -> Result<String, HookError> {
    for k in keys {
        if m.contains_key(*k) {
            return req_str(m, k);
        }
    }
    Err(HookError::Malformed(format!(
        "`{}` is missing",
        keys.first().copied().unwrap_or("?")
    )))
}

/// An optional string field (present but not a string: malformed).
pub(crate) fn opt_str(m: &Map<String, Value>, key: &str) -> Result<Option<String>, HookError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(HookError::Malformed(format!(
            "`{key}` must be a string, got {}",
            riskgate::model::json_kind(other)
        ))),
    }
}

/// A required object field; a string holding a JSON object is accepted too (Cursor and
/// Copilot send tool arguments encoded).
pub(crate) fn req_obj(m: &Map<String, Value>, key: &str) -> Result<Map<String, Value>, HookError> {
    match m.get(key) {
        Some(Value::Object(o)) => Ok(o.clone()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(o)) => Ok(o),
            _ => Err(HookError::Malformed(format!(
                "`{key}` is a string but not an encoded JSON object"
            ))),
        },
        Some(other) => Err(HookError::Malformed(format!(
            "`{key}` must be an object, got {}",
            riskgate::model::json_kind(other)
        ))),
        None => Err(HookError::Malformed(format!("`{key}` is missing"))),
    }
}

/// The event name, which must be one of `expected` when present (`required`: must be present).
pub(crate) fn event(
    m: &Map<String, Value>,
    key: &str,
    expected: &[&str],
    required: bool,
) -> Result<String, HookError> {
    match opt_str(m, key)? {
        Some(e) if expected.contains(&e.as_str()) => Ok(e),
        Some(e) => Err(HookError::UnknownShape(format!(
            "`{key}` is `{e}`; this hook handles {}",
            expected.join(", ")
        ))),
        None if required => Err(HookError::Malformed(format!("`{key}` is missing"))),
        None => Ok(expected.first().copied().unwrap_or_default().to_string()),
    }
}

/// A short rendering of a tool input for the audit log.
pub(crate) fn summary(tool: &str, input: &Value) -> String {
    let mut s = format!("{tool} {input}");
    if s.len() > 400 {
        let mut cut = 400;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// Claude-style tools (Claude Code; Codex's `mcp__*`; Copilot's `PreToolUse` format): the
/// mapping documented in [`claude`].
pub(crate) fn claude_tools(name: &str, input: &Map<String, Value>) -> Result<Vec<Tool>, HookError> {
    use riskgate::model::{Language, WriteOp};
    let tools = match name {
        "Bash" => vec![Tool::Shell {
            command: req_str(input, "command")?,
            dir: None,
        }],
        "PowerShell" => vec![Tool::PowerShell {
            command: req_str(input, "command")?,
            dir: None,
        }],
        "Write" => vec![Tool::Write {
            path: req_str(input, "file_path")?,
            content: req_str(input, "content")?,
            op: WriteOp::Write,
            language: None,
        }],
        "Edit" => {
            req_str(input, "old_string")?;
            vec![Tool::Write {
                path: req_str(input, "file_path")?,
                content: req_str(input, "new_string")?,
                op: WriteOp::Edit,
                language: None,
            }]
        }
        "MultiEdit" => {
            let path = req_str(input, "file_path")?;
            let Some(Value::Array(edits)) = input.get("edits") else {
                return Err(HookError::field("edits", "an array of edits"));
            };
            let mut content = String::new();
            for e in edits {
                let Value::Object(e) = e else {
                    return Err(HookError::field("edits[]", "an object"));
                };
                content.push_str(&req_str(e, "new_string")?);
                content.push('\n');
            }
            vec![Tool::Write {
                path,
                content,
                op: WriteOp::Edit,
                language: None,
            }]
        }
        "NotebookEdit" => {
            let path = req_str(input, "notebook_path")?;
            let mode = opt_str(input, "edit_mode")?.unwrap_or_default();
            let markdown = opt_str(input, "cell_type")?.as_deref() == Some("markdown");
            let content = if mode == "delete" {
                opt_str(input, "new_source")?.unwrap_or_default()
            } else {
                req_str(input, "new_source")?
            };
            vec![Tool::Write {
                path,
                content,
                op: WriteOp::Edit,
                language: (!markdown).then_some(Language::Python),
            }]
        }
        "Read" => vec![Tool::Read {
            path: req_str(input, "file_path")?,
        }],
        "WebFetch" => vec![Tool::Fetch {
            url: req_str(input, "url")?,
        }],
        n if n.starts_with("mcp__") => vec![Tool::Mcp {
            name: n.to_string(),
            input: Value::Object(input.clone()),
        }],
        other => vec![Tool::Other {
            summary: summary(other, &Value::Object(input.clone())),
        }],
    };
    Ok(tools)
}

/// Events after a tool ran (the session learns what the user approved).
pub(crate) const AFTER_EVENTS: [&str; 3] = ["PostToolUse", "AfterTool", "postToolUse"];

/// The Claude-style envelope: `session_id`, `cwd`, `hook_event_name`, `tool_name`,
/// `tool_input`, with the tool mapping given.
pub(crate) fn claude_style(
    m: &Map<String, Value>,
    events: &[&str],
    tools: impl Fn(&str, &Map<String, Value>) -> Result<Vec<Tool>, HookError>,
) -> Result<Call, HookError> {
    let event = event(m, "hook_event_name", events, true)?;
    let tool_name = req_str(m, "tool_name")?;
    let input = req_obj(m, "tool_input")?;
    let after = AFTER_EVENTS.contains(&event.as_str());
    let mut call = Call::new(event, tool_name.clone(), tools(&tool_name, &input)?);
    call.after = after;
    call.session_id = Some(req_str(m, "session_id")?);
    call.cwd = opt_str(m, "cwd")?.filter(|c| !c.is_empty()).map(Into::into);
    Ok(call)
}
