//! The README's example policies behave as the README says: the project example and the user
//! example are read from README.md itself (the blocks after their `README example:` markers),
//! and each claim in their comments and in "What a project file may and may not change" is
//! checked through the binary. Commands are strings; nothing assessed is run.

mod common;

use std::path::{Path, PathBuf};

use common::riskgate;
use serde_json::Value;

fn readme_block(marker: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let at = readme
        .find(&format!("README example: {marker}"))
        .unwrap_or_else(|| panic!("README has no `README example: {marker}` block"));
    let rest = &readme[at..];
    let start = rest.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = rest[start..].find("```").expect("closed") + start;
    rest[start..end].to_string()
}

struct Setup {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
}

fn setup(project_file: &str, user_file: Option<&str>) -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let project = root.join("proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(project.join(".riskgate.yaml"), project_file).unwrap();
    if let Some(u) = user_file {
        std::fs::create_dir_all(root.join("config")).unwrap();
        std::fs::write(root.join("config/config.yaml"), u).unwrap();
    }
    Setup {
        _tmp: tmp,
        root,
        project,
    }
}

/// (level, decision, stderr) of `check` in the project.
fn check(s: &Setup, command: &str, extra: &[&str]) -> (String, String, String) {
    let mut cmd = riskgate(&s.root);
    cmd.current_dir(&s.project)
        .args(["check", "--format", "json", "--no-prompt"])
        .args(extra)
        .args(["--", command]);
    let out = cmd.output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{command}: {}", String::from_utf8_lossy(&out.stderr)));
    (
        v["level"].as_str().unwrap_or_default().to_string(),
        v["decision"].as_str().unwrap_or_default().to_string(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn sql_level(s: &Setup, sql: &str, extra: &[&str]) -> String {
    let file = s.root.join("q.sql");
    std::fs::write(&file, sql).unwrap();
    let out = riskgate(&s.root)
        .current_dir(&s.project)
        .args(["sql", "--format", "json", "--no-prompt"])
        .args(extra)
        .arg(&file)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["level"].as_str().unwrap_or_default().to_string()
}

#[test]
fn the_project_example_does_what_its_comments_say() {
    let s = setup(&readme_block("project policy"), None);
    // `git push --force` is a blocklist entry: every spelling of the command is denied …
    for c in [
        "git push --force",
        "git push -f",
        "git push origin main --force",
        "g''it push --force",
        "sudo git push --force",
        "cd x && git push --force",
        "bash -c 'git push --force'",
    ] {
        let (level, decision, _) = check(&s, c, &[]);
        assert_eq!(
            (level.as_str(), decision.as_str()),
            ("CRITICAL", "deny"),
            "{c}"
        );
    }
    // … and data that mentions it is not
    for c in [
        "git commit -m 'never git push --force'",
        "grep -r 'git push --force' docs/",
    ] {
        assert_eq!(check(&s, c, &[]).1, "allow", "{c}");
    }
    // "anything against the production cluster" is HIGH
    assert_eq!(
        check(&s, "kubectl get pods --context prod-eu", &[]).0,
        "HIGH"
    );
    assert_eq!(
        check(&s, "kubectl get pods --context staging", &[]).0,
        "SAFE"
    );
    // `raw: DEBUG=1` matches the text anywhere, at MEDIUM
    assert_eq!(check(&s, "DEBUG=1 make test", &[]).0, "MEDIUM");
    // the override lowers the command it covers, never a line with more in it
    assert_eq!(check(&s, "npm install --save-dev jest", &[]).0, "LOW");
    assert_eq!(
        check(&s, "npm install --save-dev jest && rm -rf /", &[]).0,
        "CRITICAL"
    );
    // writing into a blocked path is HIGH
    assert_eq!(
        check(&s, "echo token > deploy/secrets/api.txt", &[]).0,
        "HIGH"
    );
    // production raises a data modification one level
    let update = "UPDATE users SET name = 'x' WHERE id = 1";
    assert_eq!(sql_level(&s, update, &["--env", "test"]), "MEDIUM");
    assert_eq!(sql_level(&s, update, &[]), "HIGH");
}

#[test]
fn the_user_example_trusts_the_agent_and_a_project_file_cannot() {
    let user = readme_block("user policy");
    // a deployment is MEDIUM; a trusted agent runs it unasked
    let s = setup("patterns: []\n", Some(&user));
    let (level, decision, _) = check(&s, "fly deploy", &["--agent", "claude"]);
    assert_eq!((level.as_str(), decision.as_str()), ("MEDIUM", "allow"));
    let (_, decision, _) = check(&s, "fly deploy", &["--agent", "codex"]);
    assert_ne!(decision, "allow", "an untrusted agent's MEDIUM is asked");
    let out = riskgate(&s.root)
        .current_dir(&s.project)
        .args(["config", "show", "--format", "json"])
        .output()
        .unwrap();
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let value = |key: &str| {
        rows.as_array()
            .and_then(|r| r.iter().find(|r| r["key"] == key))
            .map(|r| r["value"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(value("approval_timeout").as_deref(), Some("45s"));
    assert_eq!(value("approval_ttl_days").as_deref(), Some("14"));

    // the same file as a project file: the trust is ignored, with a warning
    let s = setup(&user, None);
    let (_, decision, err) = check(&s, "fly deploy", &["--agent", "claude"]);
    assert_ne!(decision, "allow");
    assert!(err.contains("only the user file"), "{err}");
}

#[test]
fn a_project_override_cannot_lower_high_but_the_users_can() {
    let o = "overrides:\n  \"git reset --hard\": LOW\n";
    let s = setup(o, None);
    assert_eq!(check(&s, "git reset --hard", &[]).0, "HIGH");
    let out = riskgate(&s.root)
        .current_dir(&s.project)
        .args(["check", "--no-prompt", "git reset --hard"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a project file cannot lower HIGH"), "{text}");
    let s = setup("patterns: []\n", Some(o));
    assert_eq!(check(&s, "git reset --hard", &[]).0, "LOW");
}
