//! `riskgate workflow check` and `riskgate workflow approve` through the built binary (issue 6's
//! "must show"), with isolated state: a `rm -rf /` node is denied (exit 4), a `sudo` node is
//! refused when nobody can be asked unless `--force` / `--accept-risk` or an approval, and an
//! approval is invalidated when a risky node changes. Nothing assessed is executed.

mod common;
use common::riskgate;
use std::path::Path;

use serde_json::Value;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = riskgate(dir).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const NGINX: &str = r#"{
  "name": "web",
  "nodes": [
    {"id": "update", "type": "shell", "params": {"command": "sudo apt update"}},
    {"id": "restart", "type": "shell", "params": {"command": "sudo systemctl restart nginx"}},
    {"id": "hello", "type": "shell", "params": {"command": "echo hello"}}
  ],
  "edges": [{"from": "update", "to": "restart"}, {"from": "restart", "to": "hello"}]
}
"#;

#[test]
fn rm_rf_root_shell_node_is_denied_with_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("wf.json"),
        r#"{"nodes": [{"id": "dangerous", "node_type": "shell", "config": {"command": "rm -rf /"}}]}"#,
    )
    .unwrap();
    for flags in [&[][..], &["--force", "--accept-risk"][..]] {
        let mut args = vec!["workflow", "check", "wf.json"];
        args.extend_from_slice(flags);
        let (code, out, err) = run(d, &args);
        assert_eq!(code, 4, "{flags:?}\n{out}\n{err}");
        assert!(
            out.contains("CRITICAL") && out.contains("dangerous"),
            "{out}"
        );
        assert!(out.contains("not even with --force"), "{out}");
    }
    let (code, out, _) = run(d, &["workflow", "check", "--format", "json", "wf.json"]);
    assert_eq!(code, 4);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["decision"], "deny");
    assert_eq!(v["refusal"], "critical");
    assert_eq!(v["risk"]["level"], "CRITICAL");
    assert_eq!(v["risk"]["node_id"], "dangerous");
    // `approve` cannot approve it, and leaves the file alone
    let before = std::fs::read_to_string(d.join("wf.json")).unwrap();
    let (code, _, _) = run(d, &["workflow", "approve", "wf.json"]);
    assert_eq!(code, 4);
    assert_eq!(std::fs::read_to_string(d.join("wf.json")).unwrap(), before);
}

#[test]
fn sudo_node_non_interactive_without_flags_is_refused_naming_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("wf.json"),
        r#"{"nodes": [{"id": "restart", "type": "shell", "params": {"command": "sudo systemctl restart nginx"}}]}"#,
    )
    .unwrap();
    let (code, out, err) = run(d, &["workflow", "check", "wf.json"]);
    assert_eq!(code, 4, "{out}\n{err}");
    assert!(out.contains("--force"), "{out}");
    assert!(out.contains("--accept-risk"), "{out}");
    assert!(out.contains("not interactive"), "{out}");
    assert!(out.contains("riskgate workflow approve wf.json"), "{out}");
    for flag in ["--force", "--accept-risk"] {
        let (code, out, err) = run(
            d,
            &["workflow", "check", "--format", "json", flag, "wf.json"],
        );
        assert_eq!(code, 0, "{flag}\n{out}\n{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["decision"], "allow");
        assert_eq!(v["risks"][0]["level"], "HIGH");
        assert_eq!(v["risks"][0]["pattern"], "sudo ");
        assert_eq!(v["decisions"][0]["decided_by"], "flag");
        assert_eq!(v["state"], "approved");
    }
    // a standing approval (riskgate approvals add) is checked before any prompt
    let (code, _, err) = run(d, &["approvals", "add", "sudo systemctl restart nginx"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(d, &["workflow", "check", "--format", "json", "wf.json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["skipped"][0]["node_id"], "restart");
    assert_eq!(v["risks"].as_array().map(Vec::len), Some(0));
}

#[test]
fn approve_then_changing_a_risky_node_invalidates_the_approval() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = d.join("web.json");
    std::fs::write(&path, NGINX).unwrap();
    let (code, out, _) = run(d, &["workflow", "check", "web.json"]);
    assert_eq!(code, 4, "{out}");

    let (code, out, err) = run(d, &["workflow", "approve", "web.json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("metadata.risk_approval written"), "{out}");
    // the file: the old text, byte for byte, plus the approval
    let approved = std::fs::read_to_string(&path).unwrap();
    let (head, tail) = NGINX.rsplit_once("\n}").unwrap();
    assert!(approved.starts_with(head), "{approved}");
    assert!(
        approved.ends_with(&format!("}}\n  }}\n}}{tail}")),
        "{approved}"
    );
    let v: Value = serde_json::from_str(&approved).unwrap();
    let ra = &v["metadata"]["risk_approval"];
    assert_eq!(ra["approved"], true);
    assert_eq!(ra["risk_hash"].as_str().map(str::len), Some(64));
    assert!(ra["approved_at"].as_str().is_some());

    let (code, out, err) = run(d, &["workflow", "check", "--format", "json", "web.json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["state"], "approved");
    assert_eq!(v["approval"]["status"], "valid");
    assert_eq!(v["decisions"][0]["decided_by"], "workflow_approval");

    // a benign node may change; the approval stands
    std::fs::write(&path, approved.replace("echo hello", "echo bye")).unwrap();
    let (code, out, _) = run(d, &["workflow", "check", "web.json"]);
    assert_eq!(code, 0, "{out}");

    // the risky one may not
    let changed = std::fs::read_to_string(&path)
        .unwrap()
        .replace("sudo apt update", "sudo apt remove");
    std::fs::write(&path, changed).unwrap();
    let (code, out, _) = run(d, &["workflow", "check", "web.json"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("invalidated"), "{out}");
    let (code, out, _) = run(
        d,
        &[
            "workflow", "check", "--format", "json", "--force", "web.json",
        ],
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["approval"]["status"], "invalidated");
    assert_ne!(v["approval"]["approved_hash"], v["risk_hash"]);
}

#[test]
fn yaml_workflows_and_user_registries() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("wf.yaml"),
        "# release\nnodes:\n  - id: ship\n    type: deploy\n    params:\n      target: prod\n  - id: notes\n    type: llm\n    params:\n      prompt: write release notes\n",
    )
    .unwrap();
    std::fs::write(
        d.join("registry.yaml"),
        "node_types:\n  deploy:\n    parameters: [target]\n    risk_patterns:\n      HIGH: [prod]\n      BOGUS: [x]\n",
    )
    .unwrap();
    // without the registry, `deploy` is an unknown type: skipped
    let (code, out, _) = run(d, &["workflow", "check", "wf.yaml"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, err) = run(
        d,
        &[
            "workflow",
            "check",
            "--registry",
            "registry.yaml",
            "wf.yaml",
        ],
    );
    assert_eq!(code, 4, "{out}\n{err}");
    assert!(out.contains("ship (deploy) target: prod"), "{out}");
    assert!(err.contains("`BOGUS` skipped"), "{err}");
    let (code, out, _) = run(
        d,
        &[
            "workflow",
            "approve",
            "--registry",
            "registry.yaml",
            "wf.yaml",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(d.join("wf.yaml")).unwrap();
    assert!(
        text.starts_with("# release\nnodes:\n  - id: ship\n"),
        "{text}"
    );
    assert!(
        text.contains("metadata:\n  risk_approval:\n    approved: true\n"),
        "{text}"
    );
    let (code, out, _) = run(
        d,
        &[
            "workflow",
            "check",
            "--registry",
            "registry.yaml",
            "wf.yaml",
        ],
    );
    assert_eq!(code, 0, "{out}");
    // a missing registry or workflow is an error (exit 1), not an empty analysis
    let (code, _, err) = run(
        d,
        &["workflow", "check", "--registry", "nope.yaml", "wf.yaml"],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("node registry") && err.contains("nope.yaml"),
        "{err}"
    );
    let (code, _, err) = run(d, &["workflow", "check", "missing.json"]);
    assert_eq!(code, 1);
    assert!(err.contains("missing.json"), "{err}");
    let (code, _, _) = run(d, &["workflow", "check"]);
    assert_eq!(code, 2);
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn session_analysis_cache_is_shared_by_separate_processes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("wf.json"), NGINX).unwrap();
    let check = |session: &str| {
        let (code, out, err) = run(
            d,
            &[
                "workflow",
                "check",
                "wf.json",
                "--force",
                "--format",
                "json",
                "--session",
                session,
            ],
        );
        assert_eq!(code, 0, "{out}\n{err}");
        json_of(&out)
    };
    let first = check("agent-1");
    assert_eq!(first["from_cache"], false);
    // a second and a third process of the same session reuse the analysis
    for _ in 0..2 {
        let again = check("agent-1");
        assert_eq!(again["from_cache"], true, "{again}");
        assert_eq!(again["risk_hash"], first["risk_hash"]);
        assert_eq!(again["risks"], first["risks"]);
    }
    // another session does not
    assert_eq!(check("agent-2")["from_cache"], false);
    // a changed risky node is analyzed again
    std::fs::write(
        d.join("wf.json"),
        NGINX.replace("sudo apt update", "sudo apt remove nginx"),
    )
    .unwrap();
    let changed = check("agent-1");
    assert_eq!(changed["from_cache"], false);
    assert_ne!(changed["risk_hash"], first["risk_hash"]);
    // a corrupt entry is ignored with a warning, never trusted
    let cache = d.join("state").join("workflow-cache");
    for e in std::fs::read_dir(&cache).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "json") {
            std::fs::write(e.path(), "{not json").unwrap();
        }
    }
    let (code, out, err) = run(
        d,
        &[
            "workflow",
            "check",
            "wf.json",
            "--force",
            "--format",
            "json",
            "--session",
            "agent-1",
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(json_of(&out)["from_cache"], false);
    assert!(err.contains("analysis cache entry ignored"), "{err}");
}

#[test]
fn refused_workflow_json_lists_every_risk() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("wf.json"),
        r#"{"nodes": [
            {"id": "wipe", "type": "shell", "params": {"command": "rm -rf /"}},
            {"id": "restart", "type": "shell", "params": {"command": "sudo systemctl restart nginx"}},
            {"id": "hello", "type": "shell", "params": {"command": "echo hello"}}
        ]}"#,
    )
    .unwrap();
    let (code, out, _) = run(d, &["workflow", "check", "--format", "json", "wf.json"]);
    assert_eq!(code, 4);
    let v = json_of(&out);
    assert_eq!(v["refusal"], "critical");
    assert_eq!(v["risk"]["node_id"], "wipe");
    let risks = v["risks"].as_array().unwrap();
    let find = |id: &str| risks.iter().find(|r| r["node_id"] == id).cloned();
    let wipe = find("wipe").expect("the deciding risk is listed");
    assert_eq!(wipe["level"], "CRITICAL");
    let restart = find("restart").expect("the HIGH risk is listed too");
    assert_eq!(restart["level"], "HIGH");
    assert!(
        !restart["description"].as_str().unwrap_or("").is_empty(),
        "{restart}"
    );
    assert!(find("hello").is_none());

    // refused for a HIGH risk nobody accepted: every risk, MEDIUM ones included
    std::fs::write(
        d.join("wf2.json"),
        r#"{"nodes": [
            {"id": "restart", "type": "shell", "params": {"command": "sudo systemctl restart nginx"}},
            {"id": "get", "type": "http", "params": {"method": "POST", "url": "http://example.com/x"}}
        ]}"#,
    )
    .unwrap();
    let (code, out, _) = run(d, &["workflow", "check", "--format", "json", "wf2.json"]);
    assert_eq!(code, 4, "{out}");
    let v = json_of(&out);
    assert_eq!(v["refusal"], "not_accepted");
    let ids: Vec<&str> = v["risks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["node_id"].as_str())
        .collect();
    assert!(ids.contains(&"restart") && ids.contains(&"get"), "{v}");
}
