//! Cline's `PreToolUse` hook file (docs/protocols.md, Cline; read in `cline` 3.0.65 and
//! `@cline/core` 0.0.86).
//!
//! Cline runs an executable named `PreToolUse` from its hook directories with a JSON payload
//! on stdin: `{clineVersion, hookName, timestamp, taskId, workspaceRoots[], userId,
//! tool_call: {id, name, input}, preToolUse: {toolName, parameters}}`. The CLI names the event
//! `tool_call`; the VS Code extension's hooks send `PreToolUse` with `preToolUse` only (its
//! parameters as strings). `hookName` is required, and a tool (`tool_call` or `preToolUse`);
//! `taskId` is the session, the first workspace root the working directory.
//!
//! | tool | judged as |
//! |---|---|
//! | `run_commands` (`commands[]`), `execute_command` (`command`) | each shell command |
//! | `editor` (`path`, `new_text`), `replace_in_file` (`path`, `diff`) | an edit of the file |
//! | `write_to_file` (`path`, `content`) | a write |
//! | `apply_patch` (`input`) | every file of the patch |
//! | `read_files` (`files`/`file_paths`/`paths`), `read_file` (`path`) | reads |
//! | `fetch_web_content` (`requests[].url`), `web_fetch` (`url`) | fetches |
//! | `use_mcp_tool` (`server_name`, `tool_name`, `arguments`) | `mcp__<server>__<tool>` by the policy's `mcp.tools` |
//! | anything else | no opinion |
//!
//! Answers (exit 0): `{"cancel":true,"errorMessage":"…"}` refuses the tool with the reason;
//! `{"cancel":false}` lets it run; no opinion is `{}`. Cline has no "ask" for hooks (its
//! `review` field is read but not acted on), so what needs a person is refused with the
//! reason; errors are refused. A hook that times out or prints something unreadable lets
//! the tool run.

use serde_json::{Map, Value, json};

use super::table::ToolTable;
use super::{event, opt_str, req_obj, req_str};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};

/// Cline's tools (the CLI's and the extension's names).
pub(crate) const TOOLS: ToolTable = ToolTable {
    shell: &["run_commands", "execute_command"],
    write: &["write_to_file"],
    edit: &["editor", "replace_in_file"],
    delete: &[],
    read: &["read_files", "read_file"],
    fetch: &["fetch_web_content", "web_fetch"],
    patch: &["apply_patch"],
    mcp_prefix: None,
};

/// Parse a Cline hook payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let ev = event(m, "hookName", &["tool_call", "PreToolUse"], true)?;
    let (name, input) = match m.get("tool_call") {
        Some(Value::Object(tc)) => {
            let name = req_str(tc, "name")?;
            let input = match tc.get("input") {
                Some(Value::Object(o)) => o.clone(),
                None | Some(Value::Null) => Map::new(),
                Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(o)) => o,
                    _ => return Err(HookError::field("tool_call.input", "an object")),
                },
                Some(_) => return Err(HookError::field("tool_call.input", "an object")),
            };
            (name, input)
        }
        _ => {
            let pre = req_obj(m, "preToolUse")?;
            let name = req_str(&pre, "toolName")?;
            let input = match pre.get("parameters") {
                Some(Value::Object(p)) => decode_parameters(p),
                None | Some(Value::Null) => Map::new(),
                Some(_) => return Err(HookError::field("preToolUse.parameters", "an object")),
            };
            (name, input)
        }
    };
    let tools = if name == "use_mcp_tool" {
        let server = opt_str(&input, "server_name")?.unwrap_or_else(|| "unknown".into());
        let tool = req_str(&input, "tool_name")?;
        let args = input.get("arguments").cloned().unwrap_or(Value::Null);
        vec![Tool::Mcp {
            name: format!("mcp__{server}__{tool}"),
            input: match args {
                Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
                v => v,
            },
        }]
    } else {
        TOOLS.tools(&name, &input)?
    };
    let mut call = Call::new(ev, name, tools);
    call.session_id = opt_str(m, "taskId")?.filter(|s| !s.is_empty());
    if let Some(Value::Array(roots)) = m.get("workspaceRoots") {
        call.workspace_roots = roots
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| !r.is_empty())
            .map(Into::into)
            .collect();
    }
    call.cwd = call.workspace_roots.first().cloned();
    Ok(call)
}

/// `preToolUse.parameters` carries every value as a string; arrays and objects are JSON text.
fn decode_parameters(p: &Map<String, Value>) -> Map<String, Value> {
    p.iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) if s.starts_with('[') || s.starts_with('{') => {
                    serde_json::from_str(s).unwrap_or_else(|_| v.clone())
                }
                other => other.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// Cline's answer.
pub fn reply(v: &Verdict) -> Reply {
    Reply::json(&match v.answer {
        Answer::NoOpinion => json!({}),
        Answer::Allow => json!({"cancel": false}),
        Answer::Ask | Answer::Deny => json!({"cancel": true, "errorMessage": v.reason}),
    })
}
