//! Helpers shared by the hook tests: an isolated home, state and project per test, the
//! binary, payload builders written from ../shared/protocols.md, and reading a decision.
#![allow(dead_code)]

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::{Value, json};

pub struct Env {
    pub _tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub project: PathBuf,
}

pub fn env() -> Env {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let project = root.join("proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(project.join("src")).unwrap();
    Env {
        _tmp: tmp,
        root,
        project,
    }
}

pub fn riskgate(e: &Env) -> Command {
    let mut c = Command::cargo_bin("riskgate").expect("binary");
    c.current_dir(&e.project)
        .env("HOME", e.root.join("home"))
        .env("XDG_CONFIG_HOME", e.root.join("config"))
        .env("XDG_DATA_HOME", e.root.join("data"))
        .env("XDG_STATE_HOME", e.root.join("state"))
        .env("NO_COLOR", "1")
        // every hook call decided in its own process (tests/hooks_server.rs tests the server)
        .env("RISKGATE_HOOK_SERVER", "0")
        .env_remove("RISKGATE_STATE_DIR")
        .env_remove("RISKGATE_DATA_DIR")
        .env_remove("RISKGATE_CONFIG_DIR")
        // no managed policy of the machine running the tests
        .env("RISKGATE_MANAGED_POLICY", e.root.join("managed"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("COPILOT_HOME");
    c
}

/// Run the hook; the answer with the temporary directory replaced by `[ROOT]`.
pub fn hook(e: &Env, agent: &str, payload: &[u8]) -> (String, i32) {
    let out = riskgate(e)
        .args(["hook", agent])
        .write_stdin(payload.to_vec())
        .output()
        .unwrap();
    let stdout = mask_request_ids(
        &String::from_utf8_lossy(&out.stdout).replace(&e.root.display().to_string(), "[ROOT]"),
    );
    (
        stdout.trim_end().to_string(),
        out.status.code().unwrap_or(-1),
    )
}

/// `request abc234` and `grant abc234` (approval-queue ids, random) as `… [ID]`, so that
/// answers can be compared with snapshots.
pub fn mask_request_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for word in ["request ", "grant "] {
            if let Some(after) = rest.strip_prefix(word) {
                let id: String = after.chars().take(7).collect();
                let is_id = id.chars().take(6).all(|c| c.is_ascii_alphanumeric())
                    && id.chars().count() >= 6
                    && !id.chars().nth(6).is_some_and(|c| c.is_ascii_alphanumeric());
                if is_id {
                    out.push_str(word);
                    out.push_str("[ID]");
                    rest = &after[6..];
                    continue 'outer;
                }
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

pub fn claude(e: &Env, tool: &str, input: Value) -> Value {
    json!({"session_id": "sess-claude", "transcript_path": "/tmp/t.jsonl",
        "cwd": e.project, "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_01"})
}

pub fn gemini(e: &Env, tool: &str, input: Value) -> Value {
    json!({"session_id": "sess-gemini", "transcript_path": "/tmp/g.json", "cwd": e.project,
        "hook_event_name": "BeforeTool", "timestamp": "2026-11-22T10:00:00Z",
        "tool_name": tool, "tool_input": input})
}

pub fn codex(e: &Env, tool: &str, input: Value) -> Value {
    json!({"session_id": "sess-codex", "turn_id": "t1", "transcript_path": null, "cwd": e.project,
        "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
        "tool_name": tool, "tool_input": input, "tool_use_id": "call_1"})
}

pub const AWS_KEY: &str = "AKIAIOSFODNN7EXAMPLF";

pub const AGENTS: [&str; 5] = ["claude", "gemini", "codex", "cursor", "copilot"];

/// The decision an answer carries, for any agent; `None` for no output.
pub fn decision(agent: &str, out: &str) -> Option<String> {
    if out.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(out).unwrap_or_else(|_| panic!("{agent}: not JSON: {out}"));
    let d = match agent {
        "claude" | "codex" => &v["hookSpecificOutput"]["permissionDecision"],
        "gemini" => &v["decision"],
        "cursor" => &v["permission"],
        _ => &v["permissionDecision"],
    };
    Some(d.as_str().unwrap_or("(none)").to_string())
}
