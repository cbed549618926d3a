//! Factory Droid `PreToolUse` (docs/protocols.md, Factory Droid; read in `@factory/cli`
//! 0.225.2's binary). Claude Code's protocol with Droid's tool names.
//!
//! Payload: `{session_id, transcript_path, cwd, permission_mode, hook_event_name:
//! "PreToolUse", tool_name, tool_input}`; `session_id`, `hook_event_name`, `tool_name` and
//! `tool_input` are required.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `Execute` | the shell command `command` |
//! | `Create` | a write of `content` to `file_path` |
//! | `Edit`, `MultiEdit` | an edit of `file_path` with `new_str` (`new_string`, `edits[]`) |
//! | `ApplyPatch` | every file of the patch in `input` |
//! | `Read` | a read of `file_path` |
//! | `FetchUrl` | a fetch of `url` |
//! | `mcp__<server>__<tool>` | by the policy's `mcp.tools` |
//! | anything else | no opinion |
//!
//! Answers (exit 0): `hookSpecificOutput` with `permissionDecision` `allow` or `deny` and the
//! reason; no opinion is an empty stdout. Droid logs an `ask` and goes on with its own
//! autonomy setting (which may run the tool unasked), so this adapter never answers ask:
//! what needs a person is denied with the reason; errors are denied. Only a deny, exit 2 or
//! exit 3 stop a tool: a failed or timed-out hook lets it run.

use serde_json::{Map, Value};

use super::table::ToolTable;
use super::{claude_family_reply, claude_style};
use crate::HookError;
use crate::request::Call;
use crate::verdict::{Reply, Verdict};

/// Factory Droid's tools.
pub(crate) const TOOLS: ToolTable = ToolTable {
    shell: &["Execute", "Bash"],
    write: &["Create", "Write"],
    edit: &["Edit", "MultiEdit"],
    delete: &[],
    read: &["Read"],
    fetch: &["FetchUrl", "WebFetch"],
    patch: &["ApplyPatch"],
    mcp_prefix: Some("mcp__"),
};

/// Parse a Factory Droid payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    claude_style(m, &["PreToolUse"], |name, input| TOOLS.tools(name, input))
}

/// Factory Droid's answer.
pub fn reply(v: &Verdict) -> Reply {
    claude_family_reply(v)
}
