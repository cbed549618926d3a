//! Property: whatever malformed payload an agent's hook receives — random bytes, a valid
//! payload cut short, a required field removed or given another type — the answer is never
//! "allow" and never silence, for every agent.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use proptest::prelude::*;
use riskgate::gate::{CliOverrides, Locations, Policy};
use riskgate_hooks::{Agent, Options, run};
use serde_json::{Value, json};

fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        dir.keep()
    })
}

fn answer(agent: Agent, payload: &[u8]) -> Option<String> {
    let opts = Options {
        agent,
        timeout: Duration::from_secs(30),
        load_policy: Box::new(|cwd| {
            Policy::load_with(cwd, &Locations::isolated(root()), &CliOverrides::default())
                .map_err(|e| e.to_string())
        }),
        on_timeout: None,
        env: riskgate_hooks::HookEnv {
            cwd: root().clone(),
            ..Default::default()
        },
    };
    let reply = run(opts, std::io::Cursor::new(payload.to_vec()));
    if agent == Agent::Windsurf {
        // Cascade reads the exit code: 2 blocks (the reason on stderr), 0 lets it run
        assert!(reply.stdout.is_empty());
        return match reply.exit {
            2 => Some("deny".into()),
            0 => None,
            n => panic!("exit {n}"),
        };
    }
    assert_eq!(reply.exit, 0);
    if reply.stdout.trim().is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(&reply.stdout).expect("one JSON object");
    let d = match agent {
        Agent::Claude | Agent::Codex | Agent::Qwen | Agent::Droid | Agent::Augment => {
            &v["hookSpecificOutput"]["permissionDecision"]
        }
        Agent::Gemini | Agent::OpenCode | Agent::Kilo => &v["decision"],
        Agent::Goose => match v["decision"].as_str() {
            Some("block") => return Some("deny".into()),
            _ => &v["decision"],
        },
        Agent::Cursor => &v["permission"],
        Agent::Copilot => &v["permissionDecision"],
        Agent::Cline => {
            return Some(match v["cancel"].as_bool() {
                Some(true) => "deny".into(),
                Some(false) => "allow".into(),
                None => "(none)".into(),
            });
        }
        Agent::Windsurf => &Value::Null,
    };
    Some(d.as_str().unwrap_or("(none)").to_string())
}

/// A valid payload for `agent` (a benign command: allowed) and its required fields.
fn valid(agent: Agent) -> (Value, &'static [&'static str]) {
    match agent {
        Agent::Claude => (
            json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
            &["session_id", "hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Gemini => (
            json!({"session_id": "s", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
            &["session_id", "hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Codex => (
            json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
            &["session_id", "hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Cursor => (
            json!({"hook_event_name": "beforeShellExecution", "command": "ls", "conversation_id": "c"}),
            &["hook_event_name", "command"],
        ),
        Agent::Copilot => (
            json!({"sessionId": "s", "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
            &["sessionId", "toolName", "toolArgs"],
        ),
        Agent::OpenCode | Agent::Kilo => (
            json!({"hook_event_name": "tool.execute.before", "tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "ls"}}),
            &["hook_event_name", "tool", "args"],
        ),
        Agent::Windsurf => (
            json!({"agent_action_name": "pre_run_command", "trajectory_id": "t", "execution_id": "e", "tool_info": {"command_line": "ls", "cwd": "/"}}),
            &["agent_action_name", "tool_info"],
        ),
        Agent::Cline => (
            json!({"clineVersion": "3.0.65", "hookName": "tool_call", "taskId": "t", "workspaceRoots": [], "tool_call": {"id": "1", "name": "run_commands", "input": {"commands": ["ls"]}}}),
            &["hookName", "tool_call"],
        ),
        Agent::Qwen => (
            json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
            &["session_id", "hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Droid => (
            json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": {"command": "ls"}}),
            &["session_id", "hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Augment => (
            json!({"hook_event_name": "PreToolUse", "conversation_id": "c", "workspace_roots": [], "tool_name": "launch-process", "tool_input": {"command": "ls"}}),
            &["hook_event_name", "tool_name", "tool_input"],
        ),
        Agent::Goose => (
            json!({"event": "PreToolUse", "session_id": "s", "matcher_context": "developer__shell", "tool_name": "developer__shell", "tool_input": {"command": "ls"}, "working_dir": "/", "tool_call_id": "c"}),
            &["event", "tool_name", "tool_input"],
        ),
    }
}

fn refused(agent: Agent, payload: &[u8]) -> bool {
    matches!(answer(agent, payload).as_deref(), Some("ask" | "deny"))
}

fn agent() -> impl Strategy<Value = Agent> {
    prop::sample::select(Agent::ALL.to_vec())
}

fn wrong_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!([])),
        Just(json!(["ls"])),
        Just(json!({})),
        "[a-z]{0,8}".prop_map(Value::String),
    ]
}

#[test]
fn the_valid_payloads_are_allowed() {
    for a in Agent::ALL {
        let (v, _) = valid(a);
        let d = answer(a, v.to_string().as_bytes());
        assert!(matches!(d.as_deref(), None | Some("allow")), "{a}: {d:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_allow(a in agent(), bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        prop_assert!(refused(a, &bytes));
    }

    #[test]
    fn cut_payloads_never_allow(a in agent(), frac in 0.0f64..1.0) {
        let text = valid(a).0.to_string();
        let cut = ((text.len() as f64) * frac) as usize;
        prop_assert!(refused(a, &text.as_bytes()[..cut.min(text.len() - 1)]));
    }

    #[test]
    fn a_missing_or_mistyped_required_field_never_allows(
        a in agent(),
        i in any::<prop::sample::Index>(),
        remove in any::<bool>(),
        wrong in wrong_value(),
    ) {
        let (mut v, required) = valid(a);
        let key = required[i.index(required.len())];
        let obj = v.as_object_mut().expect("object");
        let original = obj.get(key).cloned();
        if remove {
            obj.remove(key);
        } else {
            // a value of the same shape could be valid (another string): only other types
            let same_type = matches!(
                (&original, &wrong),
                (Some(Value::String(_)), Value::String(_)) | (Some(Value::Object(_)), Value::Object(_))
            );
            prop_assume!(!same_type);
            obj.insert(key.to_string(), wrong);
        }
        prop_assert!(refused(a, v.to_string().as_bytes()), "{a} {key}: {v}");
    }
}
