//! Augment's Auggie CLI `PreToolUse` (docs/protocols.md, Augment; read in
//! `@augmentcode/auggie` 0.36.0's `augment.mjs`). Claude Code's answers; the payload names the
//! conversation and the workspace instead of a session and a working directory.
//!
//! Payload: `{hook_event_name: "PreToolUse", conversation_id, workspace_roots[], tool_name,
//! tool_input, is_mcp_tool, mcp_server_name?}`; `hook_event_name`, `tool_name` and
//! `tool_input` are required; `conversation_id` is the session, the first workspace root the
//! working directory.
//!
//! | tool_name | judged as |
//! |---|---|
//! | `launch-process` | the shell command `command`, in `cwd` when given |
//! | `save-file` | a write of `file_content` to `path` |
//! | `str-replace-editor` | an edit of `path` with `new_str` / `new_str_1` … |
//! | `remove-files` | a deletion of each of `file_paths` |
//! | `apply_patch` | every file of the patch in `input` |
//! | `view` | a read of `path` |
//! | `web-fetch` | a fetch of `url` |
//! | MCP tools (`is_mcp_tool`) | `mcp__<mcp_server_name>__<tool>` by the policy's `mcp.tools` |
//! | anything else | no opinion |
//!
//! Answers (exit 0): `hookSpecificOutput` with `permissionDecision` `allow` or `deny` and the
//! reason; no opinion is an empty stdout. Auggie does not act on `ask` (only a deny or exit 2
//! stop a tool), so this adapter never answers ask: what needs a person is denied, and
//! errors are denied. A failed or timed-out hook lets the tool run.

use serde_json::{Map, Value};

use super::table::ToolTable;
use super::{claude_family_reply, event, opt_str, req_obj, req_str};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Reply, Verdict};

/// Auggie's tools.
pub(crate) const TOOLS: ToolTable = ToolTable {
    shell: &["launch-process"],
    write: &["save-file"],
    edit: &["str-replace-editor"],
    delete: &["remove-files"],
    read: &["view"],
    fetch: &["web-fetch"],
    patch: &["apply_patch"],
    mcp_prefix: None,
};

/// Parse an Auggie payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let ev = event(m, "hook_event_name", &["PreToolUse"], true)?;
    let tool_name = req_str(m, "tool_name")?;
    let input = req_obj(m, "tool_input")?;
    let tools = if m.get("is_mcp_tool") == Some(&Value::Bool(true)) {
        let server = opt_str(m, "mcp_server_name")?.unwrap_or_else(|| "unknown".into());
        vec![Tool::Mcp {
            name: format!("mcp__{server}__{tool_name}"),
            input: Value::Object(input),
        }]
    } else {
        TOOLS.tools(&tool_name, &input)?
    };
    let mut call = Call::new(ev, tool_name, tools);
    call.session_id = opt_str(m, "conversation_id")?.filter(|s| !s.is_empty());
    if let Some(Value::Array(roots)) = m.get("workspace_roots") {
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

/// Auggie's answer.
pub fn reply(v: &Verdict) -> Reply {
    claude_family_reply(v)
}
