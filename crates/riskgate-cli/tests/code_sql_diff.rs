//! `riskgate code`, `sql` and `diff` through the built binary (issue 7's "must show"): code in a
//! comment is not code, SQL is parsed, and change sets made in temporary git repositories get
//! seed 003's classes with the reasons that fired. Nothing assessed is executed.

use std::path::Path;
use std::process::Command as Std;

use assert_cmd::Command;
use predicates::prelude::*;

fn riskgate(home: &Path) -> Command {
    let mut c = Command::cargo_bin("riskgate").expect("binary");
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("NO_COLOR", "1")
        .current_dir(home);
    c
}

fn level(out: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(out).expect("json");
    v["level"].as_str().unwrap_or_default().to_string()
}

#[test]
fn python_in_a_comment_is_not_run_but_real_calls_are_rated() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path();
    std::fs::write(
        dir.join("safe.py"),
        "import shutil\n# never call shutil.rmtree('/')\nprint('done')\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.py"),
        "import shutil\nshutil.rmtree('/home/u')\n",
    )
    .unwrap();
    let out = riskgate(dir)
        .args([
            "code",
            "--lang",
            "python",
            "--format",
            "json",
            "--no-prompt",
            "safe.py",
        ])
        .output()
        .unwrap();
    assert!(["SAFE", "LOW"].contains(&level(&out.stdout).as_str()));
    assert_eq!(out.status.code(), Some(0));
    let out = riskgate(dir)
        .args(["code", "--format", "json", "--no-prompt", "bad.py"])
        .output()
        .unwrap();
    assert!(["HIGH", "CRITICAL"].contains(&level(&out.stdout).as_str()));
    assert_eq!(
        out.status.code(),
        Some(4),
        "HIGH or above is denied without a terminal"
    );
}

#[test]
fn code_from_stdin_needs_a_language() {
    let home = tempfile::tempdir().unwrap();
    riskgate(home.path())
        .args(["code", "-"])
        .write_stdin("print(1)")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--lang"));
}

#[test]
fn sql_is_parsed_and_rated() {
    let home = tempfile::tempdir().unwrap();
    let rate = |sql: &str| {
        let out = riskgate(home.path())
            .args([
                "sql",
                "--dialect",
                "postgres",
                "--format",
                "json",
                "--no-prompt",
            ])
            .write_stdin(sql.to_string())
            .output()
            .unwrap();
        (level(&out.stdout), out.status.code())
    };
    assert_eq!(
        rate("SELECT * FROM users WHERE id = 1"),
        ("SAFE".into(), Some(0))
    );
    assert_eq!(rate("DROP DATABASE app").0, "CRITICAL");
    assert_eq!(rate("DELETE FROM users").0, "HIGH");
    assert_eq!(rate("DELETE FROM users WHERE id = 7").0, "MEDIUM");
    riskgate(home.path())
        .args(["sql", "--dialect", "oracle"])
        .write_stdin("SELECT 1")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--dialect"));
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

fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    git(d.path(), &["init", "-q"]);
    std::fs::write(d.path().join("README.md"), "x\n").unwrap();
    git(d.path(), &["add", "."]);
    git(d.path(), &["commit", "-q", "-m", "init"]);
    d
}

#[test]
fn five_files_with_package_json_and_a_workflow_are_b_with_both_reasons() {
    let d = repo();
    let p = d.path();
    std::fs::create_dir_all(p.join(".github/workflows")).unwrap();
    std::fs::create_dir_all(p.join("src")).unwrap();
    std::fs::write(
        p.join("package.json"),
        "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\"\n}\n",
    )
    .unwrap();
    std::fs::write(p.join(".github/workflows/ci.yml"), "on: push\njobs: {}\n").unwrap();
    std::fs::write(p.join("src/a.js"), "export const a = 1;\n").unwrap();
    std::fs::write(p.join("src/b.js"), "export const b = 2;\n").unwrap();
    std::fs::write(p.join("src/c.js"), "export const c = 3;\n").unwrap();
    git(p, &["add", "."]);
    let out = riskgate(p)
        .args(["diff", "--staged", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "B asks");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["class"], "B");
    let ids: Vec<String> = v["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{} {}", c["id"], c["file"]))
        .collect();
    assert!(ids.iter().any(|i| i.contains("package.json")), "{ids:?}");
    assert!(
        ids.iter().any(|i| i.contains(".github/workflows/ci.yml")),
        "{ids:?}"
    );
    // The text form names the class and the files.
    riskgate(p)
        .args(["diff", "--staged"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("class B").and(predicate::str::contains("package.json")));
}

#[test]
fn an_added_aws_secret_key_is_c() {
    let d = repo();
    let p = d.path();
    std::fs::write(
        p.join("config.py"),
        "AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'\nAWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'\n",
    )
    .unwrap();
    git(p, &["add", "."]);
    let out = riskgate(p)
        .args(["diff", "--staged", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "C is denied");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["class"], "C");
    // The secret itself is not repeated in the output.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("wJalrXUtnFEMI/K7MDENG"));
}

#[test]
fn a_diff_file_and_stdin_are_read_too() {
    let home = tempfile::tempdir().unwrap();
    let diff = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-x\n+y\n";
    riskgate(home.path())
        .args(["diff", "-"])
        .write_stdin(diff)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("class A"));
}
