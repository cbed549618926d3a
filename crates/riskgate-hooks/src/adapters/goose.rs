//! Goose `PreToolUse` plugin hooks (docs/protocols.md, Goose; from the hooks guide in Goose's
//! own repository, `documentation/docs/guides/context-engineering/hooks.md` @0825b57: Goose is
//! a Rust binary, not an npm package).
//!
//! Goose runs the hooks of plugins found in `~/.agents/plugins/<name>/` and
//! `<project>/.agents/plugins/<name>/` (`hooks/hooks.json`); `riskgate install goose` writes the
//! plugin `riskgate` whose `PreToolUse` hook runs `riskgate hook goose` with `on_failure: block`.
//!
//! Payload: `{event: "PreToolUse", session_id, matcher_context, tool_name, tool_input,
//! working_dir, tool_call_id}`; `event`, `tool_name` and `tool_input` are required.
//!
//! | tool_name | tool_input | judged as |
//! |---|---|---|
//! | `developer__shell` | `command` | the shell command, in `working_dir` |
//! | `developer__write` | `path`, `content` | a write |
//! | `developer__edit` | `path`, `before`, `after` | an edit with `after` |
//! | other `developer__*` (`tree`, `read_image` …) | | no opinion |
//! | `<extension>__<tool>` | the tool's arguments | `mcp__<extension>__<tool>` by the policy's `mcp.tools` |
//!
//! Answers (exit 0): `{"decision":"allow"}`; `{"decision":"block","reason":"…"}` refuses the
//! tool (Goose tells the model it is a policy denial, not to retry); no opinion is an empty
//! stdout (allow). Goose has no "ask" for hooks, so what needs a person is refused with the
//! reason; errors are refused. With `on_failure: block` a hook that crashes, times out or
//! answers nothing usable blocks the tool.

use serde_json::{Map, Value, json};

use super::{event, opt_str, req_obj, req_str, summary};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};
use riskgate::model::WriteOp;

/// Parse a Goose hook payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let ev = event(m, "event", &["PreToolUse"], true)?;
    let name = req_str(m, "tool_name")?;
    let input = req_obj(m, "tool_input")?;
    let tools = match name.as_str() {
        "developer__shell" => vec![Tool::Shell {
            command: req_str(&input, "command")?,
            dir: None,
        }],
        "developer__write" => vec![Tool::Write {
            path: req_str(&input, "path")?,
            content: req_str(&input, "content")?,
            op: WriteOp::Write,
            language: None,
        }],
        "developer__edit" => vec![Tool::Write {
            path: req_str(&input, "path")?,
            content: req_str(&input, "after")?,
            op: WriteOp::Edit,
            language: None,
        }],
        n if n.starts_with("developer__") || !n.contains("__") => vec![Tool::Other {
            summary: summary(n, &Value::Object(input.clone())),
        }],
        n => vec![Tool::Mcp {
            name: format!("mcp__{n}"),
            input: Value::Object(input.clone()),
        }],
    };
    let mut call = Call::new(ev, name, tools);
    call.session_id = opt_str(m, "session_id")?.filter(|s| !s.is_empty());
    call.cwd = opt_str(m, "working_dir")?
        .filter(|c| !c.is_empty())
        .map(Into::into);
    Ok(call)
}

/// Goose's answer.
pub fn reply(v: &Verdict) -> Reply {
    match v.answer {
        Answer::NoOpinion => Reply::empty(),
        Answer::Allow => Reply::json(&json!({"decision": "allow"})),
        Answer::Ask | Answer::Deny => {
            Reply::json(&json!({"decision": "block", "reason": v.reason}))
        }
    }
}

/// The plugin manifest `riskgate install goose` writes beside `hooks/hooks.json`.
pub const MANIFEST: &str = "{\n  \"name\": \"riskgate\",\n  \"version\": \"1.0.0\",\n  \"description\": \"riskgate: a pre-execution risk gate before each tool call (written by `riskgate install goose`)\"\n}\n";

/// The plugin's `hooks/hooks.json`, running `command`.
pub fn hooks_json(command: &str) -> String {
    let v = json!({"hooks": {"PreToolUse": [{"hooks": [{
        "type": "command",
        "command": command,
        "timeout": 30,
        "on_failure": "block",
    }]}]}});
    let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
    text.push('\n');
    text
}
