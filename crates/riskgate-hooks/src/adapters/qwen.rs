//! Qwen Code `PreToolUse` (docs/protocols.md, Qwen Code; read in `@qwen-code/qwen-code`
//! 0.15.10's `cli.js`). Claude Code's envelope with Qwen's tool names.
//!
//! Payload: `{session_id, transcript_path, cwd, hook_event_name: "PreToolUse", timestamp,
//! permission_mode, tool_name, tool_input, tool_use_id}`; `session_id`, `hook_event_name`,
//! `tool_name` and `tool_input` are required.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `run_shell_command` | the shell command `command`, in `directory` when given |
//! | `write_file` | a write of `content` to `file_path` |
//! | `edit` | an edit of `file_path` with `new_string` |
//! | `read_file` | a read of `file_path` |
//! | `web_fetch` | a fetch of `url` and the URLs in `prompt` |
//! | `mcp__<server>__<tool>` | by the policy's `mcp.tools` |
//! | anything else | no opinion |
//!
//! Answers (exit 0): `{"hookSpecificOutput":{"hookEventName":"PreToolUse",
//! "permissionDecision":"allow"|"deny","permissionDecisionReason":"…"}}`; no opinion is an
//! empty stdout. Qwen Code turns `ask` into a refusal ("User confirmation required") without
//! asking anyone, so this adapter never answers ask: what needs a person is denied with the
//! reason; errors are denied too. A failed or timed-out hook lets the tool run.

use serde_json::{Map, Value};

use super::table::ToolTable;
use super::{claude_family_reply, claude_style};
use crate::HookError;
use crate::request::Call;
use crate::verdict::{Reply, Verdict};

/// Qwen Code's tools.
pub(crate) const TOOLS: ToolTable = ToolTable {
    shell: &["run_shell_command"],
    write: &["write_file"],
    edit: &["edit", "replace"],
    delete: &[],
    read: &["read_file"],
    fetch: &["web_fetch"],
    patch: &[],
    mcp_prefix: Some("mcp__"),
};

/// Parse a Qwen Code payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    claude_style(m, &["PreToolUse"], |name, input| TOOLS.tools(name, input))
}

/// Qwen Code's answer.
pub fn reply(v: &Verdict) -> Reply {
    claude_family_reply(v)
}
