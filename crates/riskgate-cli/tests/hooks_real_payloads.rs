//! The payloads the real agents sent their hook in the end-to-end runs (`scripts/e2e.py
//! --capture`, turned into fixtures by `tests/e2e/fixtures.py`; one file per agent and
//! version in `tests/fixtures/agents/`), replayed in the order they were sent through the built
//! binary: each must get the decision riskgate gave that agent then (`allow`, `ask`, `deny`, or
//! none), with exit 0. Claude Code's approval case replays the asked `PreToolUse`, the
//! `PostToolUse` that reports the approved run, and the second `PreToolUse` of the same session,
//! which the session cache allows.

mod hooks_common;

use hooks_common::{Env, env, riskgate};
use serde_json::Value;

/// The decision in an answer of any agent's format (`none` for an empty answer).
fn decision(stdout: &str) -> String {
    let text = stdout.trim();
    if text.is_empty() {
        return "none".into();
    }
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return "unreadable".into();
    };
    fn walk(v: &Value) -> Option<String> {
        let Value::Object(m) = v else {
            return None;
        };
        for key in ["permissionDecision", "decision", "permission"] {
            if let Some(Value::String(s)) = m.get(key) {
                return Some(s.clone());
            }
        }
        // Cline: `{"cancel": true, "errorMessage": …}` refuses, `{"cancel": false}` allows
        if let Some(Value::Bool(cancel)) = m.get("cancel") {
            return Some(if *cancel { "deny" } else { "allow" }.to_string());
        }
        m.values().find_map(walk)
    }
    match walk(&v).as_deref() {
        None => "none".into(),
        Some("block") => "deny".into(),
        Some("approve") => "allow".into(),
        Some(d) => d.into(),
    }
}

fn replay(e: &Env, agent: &str, payload: &Value) -> (String, String) {
    let text = payload
        .to_string()
        .replace("{PROJECT}", &e.project.display().to_string())
        .replace("{ROOT}", &e.root.display().to_string());
    let out = riskgate(e)
        .args(["hook", agent])
        .write_stdin(text)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{agent}: {stderr}");
    (decision(&stdout), stdout)
}

#[test]
fn every_captured_payload_gets_the_decision_the_real_agent_got() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut agents = Vec::new();
    for file in &files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let agent = doc["agent"].as_str().unwrap();
        let package = doc["package"].as_str().unwrap();
        let cases = doc["cases"].as_array().unwrap();
        // each agent's file has a refused call: a decision read wrongly as "none" cannot pass
        assert!(
            cases.iter().any(|c| c["decision"] == "deny"),
            "{}",
            file.display()
        );
        let e = env();
        for (i, case) in cases.iter().enumerate() {
            let want = case["decision"].as_str().unwrap();
            let (got, stdout) = replay(&e, agent, &case["payload"]);
            assert_eq!(
                got, want,
                "{package} case {i} ({} {}): {stdout}",
                case["scenario"], case["event"]
            );
        }
        agents.push(agent.to_string());
    }
    // the agents the CI's end-to-end step runs have their payloads here
    for agent in ["claude", "gemini", "codex"] {
        assert!(agents.iter().any(|a| a == agent), "{agent}: {agents:?}");
    }
}

#[test]
fn the_denied_payloads_carry_the_reason_in_the_agents_field() {
    // the reason is what the model reads back (scripts/e2e.py checks it reaches the model)
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents");
    for file in std::fs::read_dir(&dir).unwrap() {
        let file = file.unwrap().path();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let agent = doc["agent"].as_str().unwrap();
        let e = env();
        for case in doc["cases"].as_array().unwrap() {
            if case["scenario"] != "deny" {
                continue;
            }
            let (got, stdout) = replay(&e, agent, &case["payload"]);
            assert_eq!(got, "deny");
            assert!(
                stdout.contains("piped into a shell"),
                "{agent}: the reason is missing: {stdout}"
            );
        }
    }
}
