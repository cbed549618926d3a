//! The finish of the CLI: shell completions and the man page from the clap definitions,
//! `explain` of a rule and of a command, `config validate`, `approvals revoke` of something
//! absent, `diff` outside a git repository, `scan --quiet` and no progress line off a terminal.
//! Commands here are strings; nothing assessed is run.

mod common;

use common::riskgate;
use predicates::prelude::*;
use serde_json::Value;

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = riskgate(dir.path())
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        let text = stdout_of(&out);
        assert!(text.len() > 1000, "{shell}: {} bytes", text.len());
        for sub in [
            "check",
            "scan",
            "mcp",
            "explain",
            "approvals",
            "completions",
        ] {
            assert!(text.contains(sub), "{shell} completion lacks `{sub}`");
        }
        // flags of subcommands too
        assert!(text.contains("fail-on"), "{shell}: scan's --fail-on");
    }
    riskgate(dir.path())
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
}

#[test]
fn the_man_page_comes_from_the_same_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path()).arg("man").output().unwrap();
    assert!(out.status.success());
    let page = stdout_of(&out);
    assert!(page.contains(".TH RISKGATE 1"), "{page}");
    assert!(page.contains("Rate, explain and gate"), "{page}");
    for sub in ["check", "mcp", "explain", "completions"] {
        assert!(page.contains(sub), "man page lacks `{sub}`");
    }
    let pages = dir.path().join("man");
    riskgate(dir.path())
        .args(["man", "--dir"])
        .arg(&pages)
        .assert()
        .success();
    let scan = std::fs::read_to_string(pages.join("riskgate-scan.1")).unwrap();
    assert!(scan.contains("fail\\-on"), "{scan}");
    assert!(pages.join("riskgate.1").is_file());
    assert!(pages.join("riskgate-mcp.1").is_file());
}

#[test]
fn explain_a_rule_shows_why_examples_and_the_alternative() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args(["explain", "git.reset-hard"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = stdout_of(&out);
    for part in [
        "git.reset-hard (HIGH",
        "## Why is this bad?",
        "## Use instead",
        "git stash",
        "## Matches",
        "## Does not match",
        "git reset --soft HEAD~1",
    ] {
        assert!(text.contains(part), "`{part}` missing:\n{text}");
    }
    let out = riskgate(dir.path())
        .args(["explain", "--format", "json", "git.reset-hard"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "rule");
    assert_eq!(v["level"], "HIGH");
    assert!(v["why"].as_str().is_some_and(|w| !w.is_empty()));
    assert!(
        v["examples"]["match"]
            .as_array()
            .is_some_and(|a| a.len() >= 2)
    );
    riskgate(dir.path())
        .args(["explain", "--rule", "no.such-rule"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no rule `no.such-rule`"));
}

#[test]
fn explain_a_command_rule_by_rule() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args([
            "explain", "--", "git", "reset", "--hard", "&&", "rm", "-rf", "/",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "explain itself succeeds");
    let text = stdout_of(&out);
    assert!(text.contains("CRITICAL"), "{text}");
    assert!(text.contains("→ deny"), "{text}");
    assert!(text.contains("1. "), "{text}");
    assert!(text.contains("git.reset-hard"), "{text}");
    assert!(text.contains("Why: "), "{text}");
    assert!(text.contains("Instead: "), "{text}");
    assert!(
        text.contains("More: riskgate explain git.reset-hard"),
        "{text}"
    );
    let out = riskgate(dir.path())
        .args(["explain", "--format", "json", "ls -la"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "command");
    assert_eq!(v["decision"], "allow");
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(0));
    // nothing is recorded: explain is not a decision
    assert!(!dir.path().join("data/audit.db").exists());
    assert!(!dir.path().join("data/audit.journal").exists());
}

#[test]
fn config_validate_valid_invalid_and_project_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("good.yaml"),
        "environment: production\npatterns:\n  - git push --force\napproval_ttl_days: 7\n",
    )
    .unwrap();
    let out = riskgate(d)
        .args(["config", "validate", "good.yaml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("good.yaml: valid"));

    // an unknown key: file, line and key named
    std::fs::write(
        d.join("bad.yaml"),
        "environment: production\nhooks:\n  ask_fallbak: deny\n",
    )
    .unwrap();
    let out = riskgate(d)
        .args(["config", "validate", "bad.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.contains("bad.yaml:3"), "{err}");
    assert!(err.contains("ask_fallbak"), "{err}");
    // a wrong value, as JSON
    std::fs::write(d.join("bad2.yaml"), "approval_ttl_days: soon\n").unwrap();
    let out = riskgate(d)
        .args(["config", "validate", "--format", "json", "bad2.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("bad2.yaml:1") && e.contains("approval_ttl_days")),
        "{v}"
    );

    // a project file is checked as one: what it may not change is a warning, still valid
    let proj = d.join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    std::fs::write(
        proj.join(".riskgate.yaml"),
        "agents:\n  claude: trusted\nstate_dir: /tmp/elsewhere\n",
    )
    .unwrap();
    let out = riskgate(d)
        .args(["config", "validate", "proj/.riskgate.yaml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("claude"), "{err}");
    assert!(err.contains("state_dir"), "{err}");

    // without FILE: the files in effect here
    let out = riskgate(&proj)
        .args(["config", "validate"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(stdout_of(&out).contains(".riskgate.yaml: valid"));
    riskgate(d)
        .args(["config", "validate", "missing.yaml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("missing.yaml"));
}

#[test]
fn revoking_an_absent_approval_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    riskgate(dir.path())
        .args(["approvals", "revoke", "terraform apply"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no approved or denied pattern `terraform apply`",
        ));
    riskgate(dir.path())
        .args(["approvals", "add", "terraform apply"])
        .assert()
        .success();
    riskgate(dir.path())
        .args(["approvals", "revoke", "terraform apply"])
        .assert()
        .success()
        .stdout(predicate::str::contains("revoked: terraform apply"));
    riskgate(dir.path())
        .args(["approvals", "revoke", "terraform apply"])
        .assert()
        .code(1);
}

#[test]
fn diff_outside_a_git_repository_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .env("GIT_CEILING_DIRECTORIES", dir.path().parent().unwrap())
        .arg("diff")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("not inside a git work tree"), "{err}");
    assert!(err.contains("riskgate diff FILE"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn scan_off_a_terminal_prints_no_progress_and_quiet_silences_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for i in 0..200 {
        lines.push_str(&format!("ls -la dir{i}\n"));
    }
    std::fs::write(dir.path().join("cmds.txt"), &lines).unwrap();
    let out = riskgate(dir.path())
        .args(["scan", "cmds.txt"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_of(&out).lines().count(), 200);
    assert!(!stderr_of(&out).contains("scanning"), "{}", stderr_of(&out));
    // a MEDIUM command (a deployment) is allowed with a warning per line; --quiet silences it
    std::fs::write(dir.path().join("medium.txt"), "fly deploy\n").unwrap();
    let loud = riskgate(dir.path())
        .args(["scan", "medium.txt"])
        .output()
        .unwrap();
    let quiet = riskgate(dir.path())
        .args(["scan", "--quiet", "medium.txt"])
        .output()
        .unwrap();
    assert_eq!(stdout_of(&loud), stdout_of(&quiet));
    assert!(stderr_of(&loud).contains("line 1"), "{}", stderr_of(&loud));
    assert!(
        !stderr_of(&quiet).contains("line 1"),
        "{}",
        stderr_of(&quiet)
    );
}
