//! GitHub Copilot CLI `preToolUse` (protocols.md §5).
//!
//! Payload, as configured with the camelCase event `preToolUse`: `{sessionId, timestamp, cwd,
//! toolName, toolArgs}` where `toolArgs` is a JSON-encoded string (an object is accepted too);
//! `sessionId`, `toolName` and `toolArgs` are required; `postToolUse` sends the same fields plus
//! `toolResult` (the session cache then remembers an approved call). Configured as `PreToolUse`, Copilot
//! sends Claude's format (`session_id`, `tool_name`, `tool_input` …), mapped as in [`super::claude`].
//!
//! | toolName | judged as |
//! |---|---|
//! | `bash` | the shell command `command` |
//! | `powershell` | the PowerShell command `command` (read as PowerShell) |
//! | `create` | a write of `file_text` to `path` |
//! | `edit` | an edit of `path` with `new_str` |
//! | `view` | a read of `path` (credentials and blocked paths) |
//! | `web_fetch` | a fetch of `url` |
//! | anything else (`glob`, `grep`, `task`, `ask_user` …) | no opinion |
//!
//! Answers (exit 0): `{"permissionDecision":"allow"}`, `{"permissionDecision":"deny"|"ask",
//! "permissionDecisionReason":"…"}`; no opinion is an empty stdout (the normal permission
//! flow). Copilot shows "ask" as a prompt and turns it into a deny when nobody can answer;
//! errors answer "ask".

use serde_json::{Map, Value, json};

use super::{claude_style, claude_tools, opt_str, req_obj, req_str, summary};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};
use riskgate::model::WriteOp;

/// Parse a Copilot CLI payload (either format).
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    if m.contains_key("tool_name") || m.contains_key("hook_event_name") {
        return claude_style(
            m,
            &["PreToolUse", "preToolUse", "PostToolUse", "postToolUse"],
            claude_tools,
        );
    }
    if !m.contains_key("toolName") {
        return Err(HookError::UnknownShape(
            "neither `toolName` (preToolUse) nor `tool_name` (PreToolUse) is present".into(),
        ));
    }
    let tool_name = req_str(m, "toolName")?;
    let args = req_obj(m, "toolArgs")?;
    let tools = match tool_name.as_str() {
        "bash" | "shell" => vec![Tool::Shell {
            command: req_str(&args, "command")?,
            dir: None,
        }],
        "powershell" => vec![Tool::PowerShell {
            command: req_str(&args, "command")?,
            dir: None,
        }],
        "create" => vec![Tool::Write {
            path: req_str(&args, "path")?,
            content: req_str(&args, "file_text")?,
            op: WriteOp::Write,
            language: None,
        }],
        "edit" => vec![Tool::Write {
            path: req_str(&args, "path")?,
            content: req_str(&args, "new_str")?,
            op: WriteOp::Edit,
            language: None,
        }],
        "view" => vec![Tool::Read {
            path: req_str(&args, "path")?,
        }],
        "web_fetch" => vec![Tool::Fetch {
            url: req_str(&args, "url")?,
        }],
        other => vec![Tool::Other {
            summary: summary(other, &Value::Object(args.clone())),
        }],
    };
    // `postToolUse` sends the same fields plus the tool's `toolResult`: the tool ran, so what
    // riskgate asked about was approved by the user (the session remembers it)
    let after = m.contains_key("toolResult");
    let event = if after { "postToolUse" } else { "preToolUse" };
    let mut call = Call::new(event, tool_name, tools);
    call.after = after;
    call.session_id = Some(req_str(m, "sessionId")?);
    call.cwd = opt_str(m, "cwd")?.filter(|c| !c.is_empty()).map(Into::into);
    Ok(call)
}

/// Copilot CLI's answer.
pub fn reply(v: &Verdict) -> Reply {
    match v.answer {
        Answer::NoOpinion => Reply::empty(),
        Answer::Allow => Reply::json(&json!({"permissionDecision": "allow"})),
        a => Reply::json(&json!({
            "permissionDecision": a.as_str(),
            "permissionDecisionReason": v.reason,
        })),
    }
}
