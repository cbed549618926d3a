//! `riskgate doctor --format json` on a temporary home and project (issue 13): every agent of
//! the table is reported with where its hook is registered, what it answers and how it fails;
//! the directories and the policy are checked; exit 1 when something is broken.

mod hooks_common;

use hooks_common::{Env, env, riskgate};
use serde_json::Value;

fn doctor(e: &Env, path_dirs: &[&std::path::Path]) -> (Value, i32) {
    let mut c = riskgate(e);
    let path = std::env::join_paths(path_dirs.iter().copied()).unwrap();
    c.env("PATH", path).args(["doctor", "--format", "json"]);
    let out = c.output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stdout)));
    (v, out.status.code().unwrap_or(-1))
}

fn agent<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == name)
        .unwrap_or_else(|| panic!("{name} missing"))
}

#[test]
fn a_healthy_setup_reports_every_agent_and_exits_zero() {
    let e = env();
    let out = riskgate(&e).args(["install", "claude"]).output().unwrap();
    assert!(out.status.success());
    let out = riskgate(&e)
        .args(["install", "codex", "--user"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // a program named like an agent's on PATH: the agent counts as installed
    let bin = e.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("qwen"), "not run by the test\n").unwrap();
    let riskgate_dir = assert_cmd::cargo::cargo_bin("riskgate");
    let (v, code) = doctor(&e, &[&bin, riskgate_dir.parent().unwrap()]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["agents"].as_array().unwrap().len(), 13);

    let claude = agent(&v, "claude");
    assert_eq!(claude["hooks"][0]["scope"], "project");
    assert_eq!(claude["hooks"][0]["registered"], true);
    assert_eq!(claude["hooks"][0]["program_found"], true);
    assert_eq!(claude["hooks"][1]["registered"], false);
    assert_eq!(claude["on_hook_failure"], "closed");
    assert_eq!(claude["when_a_person_must_decide"], "asks its user");
    let codex = agent(&v, "codex");
    assert_eq!(codex["hooks"][1]["registered"], true);
    assert_eq!(codex["answers"], serde_json::json!(["deny"]));
    assert_eq!(codex["on_hook_failure"], "open");
    // a hook wired into an agent that fails open is said
    assert!(
        v["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .starts_with("Codex CLI: a hook that crashes or times out lets the tool call run")),
        "{:#}",
        v["notes"]
    );
    assert_eq!(agent(&v, "qwen")["installed"], true);
    assert_eq!(agent(&v, "opencode")["installed"], false);
    assert_eq!(agent(&v, "opencode")["on_hook_failure"], "closed");

    assert_eq!(v["hook_server"]["enabled"], false);
    for d in v["directories"].as_array().unwrap() {
        assert_eq!(d["writable"], true, "{d}");
    }
    assert_eq!(v["policy"]["valid"], true);
}

#[test]
fn broken_things_are_problems_and_exit_one() {
    let e = env();
    // an invalid project policy
    std::fs::write(e.project.join(".riskgate.yaml"), "approval_timeout: soon\n").unwrap();
    // a settings file that is not JSON
    let gemini = e.project.join(".gemini/settings.json");
    std::fs::create_dir_all(gemini.parent().unwrap()).unwrap();
    std::fs::write(&gemini, "{ not json").unwrap();
    // a hook whose program is gone
    let claude = e.root.join("home/.claude/settings.json");
    std::fs::create_dir_all(claude.parent().unwrap()).unwrap();
    std::fs::write(
        &claude,
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/gone/riskgate hook claude"}]}]}}"#,
    )
    .unwrap();
    let (v, code) = doctor(&e, &[]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["ok"], false);
    let problems: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        problems.iter().any(|p| p.contains("policy is invalid")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains(".gemini/settings.json") && p.contains("not valid JSON")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("/gone/riskgate") && p.contains("not found")),
        "{problems:?}"
    );
    assert_eq!(v["policy"]["valid"], false);
    assert!(agent(&v, "gemini")["hooks"][0]["error"].is_string());
}
