//! Windsurf Cascade hooks (docs/protocols.md, Windsurf; from docs.windsurf.com's Cascade Hooks
//! page: no package to read).
//!
//! Payload: `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`;
//! `agent_action_name` and `tool_info` (an object) are required, `trajectory_id` is the
//! session.
//!
//! | agent_action_name | tool_info | judged as |
//! |---|---|---|
//! | `pre_run_command` | `command_line`, `cwd` | the shell command, in `cwd` |
//! | `pre_write_code` | `file_path`, `edits[]` of `{old_string, new_string}` | an edit of `file_path` with every `new_string` |
//! | `pre_read_code` | `file_path` | a read (credentials and blocked paths) |
//! | `pre_mcp_tool_use` | `mcp_server_name`, `mcp_tool_name`, `mcp_tool_arguments` | `mcp__<server>__<tool>` by the policy's `mcp.tools` |
//!
//! Answers: Cascade reads the exit code only. Exit 0 with no output lets the action go on;
//! **exit 2** blocks it, and the reason is written to stderr. Cascade cannot ask, so what needs
//! a person is blocked with the reason; errors are blocked too. Any other failure of the hook
//! lets the action go on.

use serde_json::{Map, Value};

use super::{event, opt_str, req_obj, req_str};
use crate::HookError;
use crate::request::{Call, Tool};
use crate::verdict::{Answer, Reply, Verdict};
use riskgate::model::WriteOp;

const EVENTS: [&str; 4] = [
    "pre_run_command",
    "pre_write_code",
    "pre_read_code",
    "pre_mcp_tool_use",
];

/// Parse a Cascade hook payload.
pub fn parse(m: &Map<String, Value>) -> Result<Call, HookError> {
    let ev = event(m, "agent_action_name", &EVENTS, true)?;
    let info = req_obj(m, "tool_info")?;
    let mut cwd = None;
    let (tool_name, tools) = match ev.as_str() {
        "pre_run_command" => {
            cwd = opt_str(&info, "cwd")?;
            (
                "run_command".to_string(),
                vec![Tool::Shell {
                    command: req_str(&info, "command_line")?,
                    dir: None,
                }],
            )
        }
        "pre_write_code" => {
            let path = req_str(&info, "file_path")?;
            let mut content = String::new();
            if let Some(Value::Array(edits)) = info.get("edits") {
                for e in edits {
                    let Value::Object(e) = e else {
                        return Err(HookError::field("edits[]", "an object"));
                    };
                    content.push_str(&opt_str(e, "new_string")?.unwrap_or_default());
                    content.push('\n');
                }
            }
            (
                "write_code".to_string(),
                vec![Tool::Write {
                    path,
                    content,
                    op: WriteOp::Edit,
                    language: None,
                }],
            )
        }
        "pre_read_code" => (
            "read_code".to_string(),
            vec![Tool::Read {
                path: req_str(&info, "file_path")?,
            }],
        ),
        _ => {
            let server = req_str(&info, "mcp_server_name")?;
            let tool = req_str(&info, "mcp_tool_name")?;
            let input = match info.get("mcp_tool_arguments") {
                Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::Null),
                Some(v) => v.clone(),
                None => Value::Null,
            };
            (
                tool.clone(),
                vec![Tool::Mcp {
                    name: format!("mcp__{server}__{tool}"),
                    input,
                }],
            )
        }
    };
    let mut call = Call::new(ev, tool_name, tools);
    call.session_id = opt_str(m, "trajectory_id")?.filter(|s| !s.is_empty());
    call.cwd = cwd.filter(|c| !c.is_empty()).map(Into::into);
    Ok(call)
}

/// Cascade's answer: exit 2 with the reason on stderr blocks; exit 0 lets it go on.
pub fn reply(v: &Verdict) -> Reply {
    match v.answer {
        Answer::NoOpinion | Answer::Allow => Reply::empty(),
        Answer::Ask | Answer::Deny => Reply {
            stdout: String::new(),
            stderr: format!("{}\n", v.reason),
            exit: 2,
        },
    }
}
