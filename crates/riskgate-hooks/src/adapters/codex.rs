//! Codex CLI `PreToolUse` (protocols.md §3).
//!
//! Payload: `{session_id, turn_id, transcript_path, cwd, hook_event_name: "PreToolUse", model,
//! permission_mode, tool_name, tool_input, tool_use_id}`; `session_id`, `hook_event_name`,
//! `tool_name` and `tool_input` are required.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `Bash` | the shell command `tool_input.command` (a string, or an argv array joined) |
//! | `apply_patch` | every file of the patch in `tool_input.command`: `Add File` (a write of the added lines), `Update File` (an edit with the added lines), `Delete File`, `Move to` (a write) |
//! | `mcp__<server>__<tool>` | by the policy's `mcp.tools`, plus secrets and commands in the arguments |
//! | anything else | no opinion |
//!
//! Answers (exit 0): deny is `{"hookSpecificOutput":{"hookEventName":"PreToolUse",
//! "permissionDecision":"deny","permissionDecisionReason":"…"}}` with a non-empty reason;
//! allow and no opinion are an empty stdout (Codex accepts "allow" only with `updatedInput`).
//! Codex treats "ask" as a failed hook and runs the tool, so this adapter **never answers
//! ask**: what needs a person is denied, with the reason and how to approve it
//! (`riskgate approvals add …`); errors are denied too.

use serde_json::{Map, Value};

use super::{claude_style, claude_tools, req_str_any, summary};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};

/// Parse a Codex payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    claude_style(m, &["PreToolUse"], tools)
}

fn tools(name: &str, input: &Map<String, Value>) -> Result<Vec<Tool>, HookError> {
    match name {
        "Bash" | "shell" | "exec_command" | "local_shell" => {
            let command = match input.get("command") {
                Some(Value::Array(words)) => {
                    let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
                    let words = words.ok_or_else(|| {
                        HookError::field("command", "a string or an array of strings")
                    })?;
                    unwrap_shell_argv(&words)
                }
                _ => req_str_any(input, &["command", "cmd"])?,
            };
            Ok(vec![Tool::Shell { command, dir: None }])
        }
        "apply_patch" => {
            let text = req_str_any(input, &["command", "patch", "input"])?;
            let files = crate::patch::parse_patch(&text)?;
            if files.is_empty() {
                return Ok(vec![Tool::Other {
                    summary: summary(name, &Value::Object(input.clone())),
                }]);
            }
            Ok(files)
        }
        n if n.starts_with("mcp__") => claude_tools(n, input),
        other => Ok(vec![Tool::Other {
            summary: summary(other, &Value::Object(input.clone())),
        }]),
    }
}

/// `["bash", "-lc", "CMD"]` → `CMD`; other argv arrays are joined with shell quoting.
fn unwrap_shell_argv(words: &[&str]) -> String {
    if let [shell, flag, cmd] = words
        && ["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"].contains(shell)
        && ["-c", "-lc", "-ic"].contains(flag)
    {
        return (*cmd).to_string();
    }
    words
        .iter()
        .map(|w| riskgate::gate::decide::shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Codex's answer.
pub fn reply(v: &Verdict) -> Reply {
    match v.answer {
        Answer::NoOpinion | Answer::Allow => Reply::empty(),
        Answer::Ask | Answer::Deny => Reply::json(&super::claude::hook_specific("deny", &v.reason)),
    }
}
