//! Issue 5's fail-safe "must show", through the built binary: a malformed payload never
//! yields allow for any agent (every field removed or mistyped, truncations, non-JSON,
//! non-UTF-8, other shapes), each is recorded in the audit log with the agent as source, and
//! the time limit answers "ask", not allow. Nothing assessed is run.

mod hooks_common;

use std::io::Write as _;
use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

use hooks_common::*;
use serde_json::{Value, json};

#[test]
fn malformed_payloads_never_allow_for_any_agent() {
    let e = env();
    let valid = |agent: &str| -> Value {
        match agent {
            "claude" => claude(&e, "Bash", json!({"command": "ls"})),
            "gemini" => gemini(&e, "run_shell_command", json!({"command": "ls"})),
            "codex" => codex(&e, "Bash", json!({"command": "ls"})),
            "cursor" => {
                json!({"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": e.project})
            }
            _ => {
                json!({"sessionId": "s", "cwd": e.project, "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"})
            }
        }
    };
    let mut checked = 0;
    for agent in AGENTS {
        let good = valid(agent);
        let (out, _) = hook(&e, agent, good.to_string().as_bytes());
        assert_ne!(
            decision(agent, &out).as_deref(),
            Some("deny"),
            "{agent}: the valid payload is fine"
        );
        let mut payloads: Vec<Vec<u8>> = [
            "",
            " ",
            "null",
            "[]",
            "42",
            "\"text\"",
            "{",
            "{}",
            "{\"a\":1}",
            "[{\"tool_name\":\"Bash\"}]",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        payloads.push(vec![0xff, 0xfe, b'{']);
        let text = good.to_string();
        for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
            payloads.push(text.as_bytes()[..cut].to_vec());
        }
        // every top-level field removed, and every field given a wrong type
        let obj = good.as_object().unwrap().clone();
        for key in obj.keys() {
            let mut removed = obj.clone();
            removed.remove(key);
            let mut wrong = obj.clone();
            wrong.insert(key.clone(), json!([1, 2]));
            for v in [removed, wrong] {
                let (out, code) = hook(&e, agent, Value::Object(v.clone()).to_string().as_bytes());
                assert_eq!(code, 0);
                let d = decision(agent, &out);
                // removing an optional field may leave a valid call (ls: allow); never a silent allow
                // for a required one, which we check through the reason
                if d.as_deref() == Some("allow") || d.is_none() {
                    assert!(!out.contains("could not assess"), "{agent} {key}: {out}");
                    let ok = [
                        "cwd",
                        "transcript_path",
                        "permission_mode",
                        "tool_use_id",
                        "timestamp",
                        "turn_id",
                        "model",
                        "conversation_id",
                    ];
                    assert!(
                        ok.contains(&key.as_str()),
                        "{agent}: without or with a mistyped `{key}` it answered {out:?}"
                    );
                }
                checked += 1;
            }
        }
        for p in payloads {
            let (out, code) = hook(&e, agent, &p);
            assert_eq!(code, 0, "{agent}");
            let d = decision(agent, &out);
            let expected: &[&str] = if matches!(agent, "claude" | "cursor" | "copilot") {
                &["ask", "deny"]
            } else {
                &["deny"]
            };
            assert!(
                d.as_deref().is_some_and(|d| expected.contains(&d)),
                "{agent} {:?} → {out:?}",
                String::from_utf8_lossy(&p)
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    // every malformed call is in the audit log, with the agent as source
    let journal =
        std::fs::read_to_string(e.root.join("data/riskgate/audit.journal.jsonl")).unwrap();
    for agent in AGENTS {
        assert!(
            journal.contains(&format!("\"source\":\"hook:{agent}\"")),
            "{agent}"
        );
    }
    assert!(journal.contains("\"decided_by\":\"error\""));
}

#[test]
fn the_time_limit_answers_ask_not_allow() {
    // with the hook server (the payload is read under `poll`) and without (the watchdog)
    for server in ["1", "0"] {
        let e = env();
        let bin = assert_cmd::cargo::cargo_bin("riskgate");
        let start = Instant::now();
        let mut child = Std::new(bin)
            .args(["hook", "claude"])
            .env("RISKGATE_HOOK_TIMEOUT_MS", "300")
            .env("RISKGATE_HOOK_SERVER", server)
            .env("XDG_RUNTIME_DIR", e.root.join("run"))
            .env("HOME", e.root.join("home"))
            .env("XDG_DATA_HOME", e.root.join("data"))
            .env("XDG_STATE_HOME", e.root.join("state"))
            .env("XDG_CONFIG_HOME", e.root.join("config"))
            .current_dir(&e.project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"{\"session_id\": \"s\", ").unwrap(); // and never finished
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert!(start.elapsed() < Duration::from_secs(5));
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            decision("claude", text.trim()).as_deref(),
            Some("ask"),
            "server {server}: {text}"
        );
        assert!(text.contains("no decision within 300 ms"), "{text}");
    }
}
