//! Gemini CLI `BeforeTool` (protocols.md §2).
//!
//! Payload: `{session_id, transcript_path, cwd, hook_event_name: "BeforeTool", timestamp,
//! tool_name, tool_input, mcp_context?}`; `session_id`, `hook_event_name`, `tool_name` and
//! `tool_input` are required.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `run_shell_command` | the shell command `command`, run in `dir_path` when given |
//! | `write_file` | a write of `content` to `file_path` |
//! | `replace` | an edit of `file_path` with `new_string` |
//! | `read_file` | a read of `file_path` (credentials and blocked paths judged) |
//! | `web_fetch` | a fetch of `url` and of every URL in `prompt` |
//! | MCP tools (`mcp_context` present, or a name starting `mcp_`) | as `mcp__<server>__<tool>` by the policy's `mcp.tools` |
//! | anything else | no opinion |
//!
//! Answers (exit 0): `{"decision":"allow"}`, `{"decision":"deny","reason":"…"}`, and — only
//! when the policy sets `hooks.ask_fallback: ask` — `{"decision":"ask","reason":"…",
//! "systemMessage":"…"}`; by default what needs a person is denied with the reason (Gemini
//! cannot ask in `gemini -p`). No opinion is `{}`. Errors are denied.
//!
//! `AfterTool` (installed beside `BeforeTool`): the tool ran, so an "ask" was approved; it is
//! remembered in the session cache under `session_id` (answer `{}`).

use serde_json::{Map, Value, json};

use super::{claude_style, opt_str, req_str, summary};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};
use riskgate::model::WriteOp;

/// Parse a Gemini CLI payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let mcp = match m.get("mcp_context") {
        Some(Value::Object(c)) => Some((
            opt_str(c, "server_name")?.unwrap_or_else(|| "unknown".into()),
            opt_str(c, "tool_name")?,
        )),
        _ => None,
    };
    claude_style(m, &["BeforeTool", "AfterTool"], |name, input| {
        tools(name, input, &mcp)
    })
}

fn tools(
    name: &str,
    input: &Map<String, Value>,
    mcp: &Option<(String, Option<String>)>,
) -> Result<Vec<Tool>, HookError> {
    if let Some((server, tool)) = mcp {
        let tool = tool.clone().unwrap_or_else(|| name.to_string());
        return Ok(vec![Tool::Mcp {
            name: format!("mcp__{server}__{tool}"),
            input: Value::Object(input.clone()),
        }]);
    }
    Ok(match name {
        "run_shell_command" => vec![Tool::Shell {
            command: req_str(input, "command")?,
            dir: opt_str(input, "dir_path")?.or(opt_str(input, "directory")?),
        }],
        "write_file" => vec![Tool::Write {
            path: req_str(input, "file_path")?,
            content: req_str(input, "content")?,
            op: WriteOp::Write,
            language: None,
        }],
        "replace" => vec![Tool::Write {
            path: req_str(input, "file_path")?,
            content: req_str(input, "new_string")?,
            op: WriteOp::Edit,
            language: None,
        }],
        "read_file" => vec![Tool::Read {
            path: super::req_str_any(input, &["file_path", "absolute_path", "path"])?,
        }],
        "web_fetch" => {
            let mut urls: Vec<String> = opt_str(input, "url")?.into_iter().collect();
            if let Some(p) = opt_str(input, "prompt")? {
                urls.extend(crate::url::urls_in(&p));
            }
            if urls.is_empty() {
                return Err(HookError::Malformed(
                    "web_fetch without a `url` or a URL in `prompt`".into(),
                ));
            }
            urls.into_iter().map(|url| Tool::Fetch { url }).collect()
        }
        n if n.starts_with("mcp_") => vec![Tool::Mcp {
            name: n.to_string(),
            input: Value::Object(input.clone()),
        }],
        other => vec![Tool::Other {
            summary: summary(other, &Value::Object(input.clone())),
        }],
    })
}

/// Gemini CLI's answer.
pub fn reply(v: &Verdict) -> Reply {
    Reply::json(&match v.answer {
        Answer::NoOpinion => json!({}),
        Answer::Allow => json!({"decision": "allow"}),
        Answer::Deny => json!({"decision": "deny", "reason": v.reason}),
        Answer::Ask => json!({"decision": "ask", "reason": v.reason, "systemMessage": v.reason}),
    })
}
