//! Cursor hooks (protocols.md §4; documentation only, no code inspected).
//!
//! Payload: common fields `{conversation_id, generation_id, model, hook_event_name,
//! cursor_version, workspace_roots[], user_email}` plus the event's own; `hook_event_name` is
//! required, `conversation_id` is the session id, `workspace_roots` count as the project.
//!
//! | hook_event_name | fields | judged as |
//! |---|---|---|
//! | `beforeShellExecution` | `command`, `cwd` | the shell command |
//! | `beforeMCPExecution` | `tool_name`, `tool_input` (object or JSON string), `url` or `command` | `mcp__<server>__<tool>` by the policy's `mcp.tools`; the server is the `url`'s host or the `command`'s program |
//! | `beforeReadFile` | `file_path`, `content` | a read (credentials and blocked paths) |
//! | `preToolUse` | `tool_name`, `tool_input` | `Shell` → command; `Write` → write; `Edit`/`StrReplace`/`MultiEdit` → edit; `Delete` → deletion; `Read` → read; `MCP:…` → MCP tool; others no opinion |
//!
//! Answers (exit 0), always explicit (with `failClosed`, empty output is a failure):
//! `{"permission":"allow"}`, `{"permission":"deny"|"ask","user_message":"…","agent_message":"…"}`;
//! `beforeReadFile` takes only `{"permission":"allow"|"deny"}`, so there "ask" becomes deny.
//! No opinion is "allow". Errors answer "ask" (deny for `beforeReadFile`).

use serde_json::{Map, Value, json};

use super::{event, opt_str, req_obj, req_str, req_str_any, summary};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};
use riskgate::model::WriteOp;

const EVENTS: [&str; 4] = [
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "preToolUse",
];

/// Parse a Cursor payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let ev = event(m, "hook_event_name", &EVENTS, true)?;
    let (tool_name, tools) = match ev.as_str() {
        "beforeShellExecution" => (
            "Shell".to_string(),
            vec![Tool::Shell {
                command: req_str(m, "command")?,
                dir: None,
            }],
        ),
        "beforeMCPExecution" => {
            let tool = req_str(m, "tool_name")?;
            let input = match m.get("tool_input") {
                None | Some(Value::Null) => Map::new(),
                _ => req_obj(m, "tool_input")?,
            };
            let server = server_name(m)?;
            (
                tool.clone(),
                vec![Tool::Mcp {
                    name: format!("mcp__{server}__{tool}"),
                    input: Value::Object(input),
                }],
            )
        }
        "beforeReadFile" => (
            "Read".to_string(),
            vec![Tool::Read {
                path: req_str(m, "file_path")?,
            }],
        ),
        _ => {
            let tool = req_str(m, "tool_name")?;
            let input = req_obj(m, "tool_input")?;
            let tools = pre_tool(&tool, &input)?;
            (tool, tools)
        }
    };
    let mut call = Call::new(ev.clone(), tool_name, tools);
    call.can_ask = ev != "beforeReadFile";
    call.session_id = opt_str(m, "conversation_id")?;
    call.cwd = opt_str(m, "cwd")?.filter(|c| !c.is_empty()).map(Into::into);
    if let Some(Value::Array(roots)) = m.get("workspace_roots") {
        call.workspace_roots = roots
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| !r.is_empty())
            .map(Into::into)
            .collect();
    }
    if call.cwd.is_none() {
        call.cwd = call.workspace_roots.first().cloned();
    }
    Ok(call)
}

fn server_name(m: &Map<String, Value>) -> Result<String, HookError> {
    if let Some(url) = opt_str(m, "url")? {
        return Ok(crate::url::host(&url).unwrap_or("unknown").to_string());
    }
    if let Some(cmd) = opt_str(m, "command")? {
        let prog = cmd.split_whitespace().next().unwrap_or("unknown");
        return Ok(prog.rsplit('/').next().unwrap_or(prog).to_string());
    }
    Ok("unknown".to_string())
}

fn pre_tool(name: &str, input: &Map<String, Value>) -> Result<Vec<Tool>, HookError> {
    let path = || req_str_any(input, &["file_path", "path", "target_file"]);
    Ok(match name {
        "Shell" | "Terminal" => vec![Tool::Shell {
            command: req_str(input, "command")?,
            dir: opt_str(input, "cwd")?,
        }],
        "Write" => vec![Tool::Write {
            path: path()?,
            content: req_str_any(input, &["content", "contents", "file_text"])?,
            op: WriteOp::Write,
            language: None,
        }],
        "Edit" | "StrReplace" | "MultiEdit" | "SearchReplace" => vec![Tool::Write {
            path: path()?,
            content: req_str_any(input, &["new_string", "new_str", "content", "contents"])
                .unwrap_or_default(),
            op: WriteOp::Edit,
            language: None,
        }],
        "Delete" => vec![Tool::Write {
            path: path()?,
            content: String::new(),
            op: WriteOp::Delete,
            language: None,
        }],
        "Read" => vec![Tool::Read { path: path()? }],
        n if n.starts_with("MCP:") => vec![Tool::Mcp {
            name: format!("mcp__{}", n.trim_start_matches("MCP:").replace(':', "__")),
            input: Value::Object(input.clone()),
        }],
        other => vec![Tool::Other {
            summary: summary(other, &Value::Object(input.clone())),
        }],
    })
}

/// Cursor's answer for `event`.
pub fn reply(v: &Verdict, event: Option<&str>) -> Reply {
    let read = event == Some("beforeReadFile");
    Reply::json(&match v.answer {
        Answer::NoOpinion | Answer::Allow => json!({"permission": "allow"}),
        _ if read => json!({"permission": "deny"}),
        a => json!({
            "permission": a.as_str(),
            "user_message": v.reason,
            "agent_message": v.reason,
        }),
    })
}
