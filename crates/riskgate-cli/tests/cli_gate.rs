//! `config show`, `approvals` and `log` through the built binary, with isolated state.

mod common;
use common::riskgate;

use serde_json::Value;

#[test]
fn config_show_names_the_source_of_each_value() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".riskgate.toml"),
        "environment = \"production\"\n",
    )
    .unwrap();
    let out = riskgate(dir.path())
        .args([
            "config",
            "show",
            "--format",
            "json",
            "--set",
            "approval_timeout=5",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let row = |key: &str| {
        rows.iter()
            .find(|r| r["key"] == key)
            .cloned()
            .unwrap_or_default()
    };
    assert!(
        rows.iter()
            .all(|r| r["source"].as_str().is_some_and(|s| !s.is_empty()))
    );
    assert_eq!(row("environment")["value"], "production");
    assert!(
        row("environment")["source"]
            .as_str()
            .unwrap()
            .contains(".riskgate.toml")
    );
    assert!(
        row("approval_timeout")["source"]
            .as_str()
            .unwrap()
            .contains("command line")
    );
    assert_eq!(row("approval_ttl_days")["source"], "built-in");
}

#[test]
fn an_invalid_policy_file_names_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".riskgate.yaml"),
        "environment: test\nbogus_key: 1\n",
    )
    .unwrap();
    let out = riskgate(dir.path()).args(["check", "ls"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(".riskgate.yaml") && err.contains("bogus_key") && err.contains(":2"),
        "{err}"
    );
}

#[test]
fn approvals_let_a_high_command_through_and_log_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = "git reset --hard HEAD~3";
    let out = riskgate(dir.path())
        .args(["check", "--no-prompt", cmd])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "HIGH, not interactive: denied");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("--force") && text.contains("--accept-risk"),
        "{text}"
    );

    let out = riskgate(dir.path())
        .args(["approvals", "add", cmd])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = riskgate(dir.path())
        .args(["check", "--no-prompt", cmd])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "a standing approval allows it");

    let out = riskgate(dir.path())
        .args(["approvals", "list", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["approved"][0]["pattern"], cmd);

    let out = riskgate(dir.path())
        .args(["approvals", "revoke", cmd])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = riskgate(dir.path())
        .args(["check", "--no-prompt", cmd])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "revoked: denied again");

    let out = riskgate(dir.path())
        .args(["log", "--format", "json"])
        .output()
        .unwrap();
    let records: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let decisions: Vec<&str> = records
        .iter()
        .filter_map(|r| r["decision"].as_str())
        .collect();
    assert_eq!(decisions, ["deny", "allow", "deny"], "newest first");
    assert!(
        records
            .iter()
            .all(|r| r["input"] == cmd && r["source"] == "cli")
    );
    assert_eq!(records[1]["decided_by"], "approval");

    let out = riskgate(dir.path())
        .args(["log", "--format", "json", "--decision", "allow"])
        .output()
        .unwrap();
    let records: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(records.len(), 1);
}

#[test]
fn the_audit_log_redacts_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let cmd = format!("curl -H 'Authorization: Bearer {token}' https://api.github.com/user");
    riskgate(dir.path())
        .args(["check", "--no-prompt", &cmd])
        .output()
        .unwrap();
    let out = riskgate(dir.path())
        .args(["log", "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("api.github.com"), "{text}");
    assert!(!text.contains(token), "secret stored: {text}");
}
