//! Claude Code `PreToolUse` (protocols.md §1).
//!
//! Payload: `{session_id, transcript_path, cwd, permission_mode, hook_event_name: "PreToolUse",
//! tool_name, tool_input, tool_use_id}`; `session_id`, `hook_event_name`, `tool_name` and
//! `tool_input` (an object) are required, extra fields are ignored.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `Bash` | the shell command `tool_input.command` |
//! | `PowerShell` | the PowerShell command `tool_input.command` (read as PowerShell) |
//! | `Write` | a write of `content` to `file_path` (path policy + content checks) |
//! | `Edit` | an edit of `file_path` with `new_string` (`old_string` required) |
//! | `MultiEdit` (Claude Code 1.x) | an edit of `file_path` with every `edits[].new_string` |
//! | `NotebookEdit` | an edit of `notebook_path` with `new_source` (code cells as Python) |
//! | `Read` | a read of `file_path`: credentials and blocked paths are judged, others no opinion |
//! | `WebFetch` | a fetch of `url` |
//! | `mcp__<server>__<tool>` | by the policy's `mcp.tools`, plus secrets and commands in the arguments |
//! | anything else (`Glob`, `Grep`, `WebSearch`, `Agent`, `TodoWrite` …) | no opinion |
//!
//! Answer (exit 0): `{"hookSpecificOutput":{"hookEventName":"PreToolUse",
//! "permissionDecision":"allow"|"ask"|"deny","permissionDecisionReason":"…"}}`; no opinion is
//! an empty stdout (Claude's own permission flow). "ask" shows Claude's permission dialog
//! (unless the policy sets `hooks.ask_fallback: deny`); errors answer "ask".
//!
//! `PostToolUse` (same payload plus `tool_response`, installed beside `PreToolUse`): the tool
//! ran, so what riskgate answered "ask" for was approved by the user; it is remembered in the
//! session cache under `session_id` for 5 minutes and not asked again. Answer: empty stdout.

use serde_json::{Map, Value, json};

use super::{claude_style, claude_tools};
use crate::HookError;
use crate::request::Call;
use crate::verdict::{Answer, Reply, Verdict};

/// Parse a Claude Code payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    claude_style(m, &["PreToolUse", "PostToolUse"], claude_tools)
}

/// The `hookSpecificOutput` answer (also used by Codex for deny).
pub(crate) fn hook_specific(decision: &str, reason: &str) -> Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    }})
}

/// Claude Code's answer.
pub fn reply(v: &Verdict) -> Reply {
    match v.answer {
        Answer::NoOpinion => Reply::empty(),
        a => Reply::json(&hook_specific(a.as_str(), &v.reason)),
    }
}
