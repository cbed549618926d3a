//! The `parse`, `check` and `scan` commands through the built binary: output shapes, decisions
//! and exit codes. State is isolated in a temporary directory.

mod common;
use common::riskgate;
use std::path::Path;

use serde_json::Value;

fn json_of(out: &[u8]) -> Value {
    serde_json::from_slice(out).expect("stdout is JSON")
}

#[test]
fn parse_sees_through_a_variable_program() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args(["parse", "--format", "json", "x=rm; $x -rf /"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v = json_of(&out.stdout);
    let rm = v["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["program"] == "rm")
        .expect("a command with program rm");
    let args: Vec<&str> = rm["args"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["text"].as_str())
        .collect();
    assert!(
        args.contains(&"--recursive") && args.contains(&"--force"),
        "{args:?}"
    );
    assert!(args.contains(&"/"), "{args:?}");
}

/// `parse --shell powershell|cmd` shows the Windows normalization: aliases and parameter
/// prefixes resolved, cmd.exe switches read as the cmdlet's, paths in one spelling; without
/// `--shell`, cmd.exe text is not read as cmd.exe.
#[test]
fn parse_shows_the_windows_normalization_with_shell() {
    let dir = tempfile::tempdir().unwrap();
    let program_args = |shell: Option<&str>, text: &str| -> Vec<(String, Vec<String>)> {
        let mut argv = vec!["parse", "--format", "json"];
        if let Some(s) = shell {
            argv.extend(["--shell", s]);
        }
        argv.push(text);
        let out = riskgate(dir.path()).args(&argv).output().unwrap();
        assert!(out.status.success(), "{argv:?}");
        let v = json_of(&out.stdout);
        v["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let args = c["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|a| a["text"].as_str().map(str::to_string))
                    .collect();
                (c["program"].as_str().unwrap_or("").to_string(), args)
            })
            .collect()
    };
    let ps = program_args(Some("powershell"), "ri C:\\Users\\me\\dist -r -fo");
    assert_eq!(ps.len(), 1, "{ps:?}");
    assert_eq!(ps[0].0, "Remove-Item");
    assert!(ps[0].1.contains(&"-Recurse".to_string()), "{ps:?}");
    assert!(ps[0].1.contains(&"-Force".to_string()), "{ps:?}");
    assert!(ps[0].1.contains(&"C:/Users/me/dist".to_string()), "{ps:?}");
    let cmd = program_args(Some("cmd"), "rd /s /q %SystemRoot%\\Temp");
    assert_eq!(cmd[0].0, "Remove-Item", "{cmd:?}");
    assert!(cmd[0].1.contains(&"C:/Windows/Temp".to_string()), "{cmd:?}");
    // read as bash, `rd` is no known program and its switches stay as written
    let bash = program_args(None, "rd /s /q %SystemRoot%\\Temp");
    assert_ne!(bash[0].0, "Remove-Item", "{bash:?}");
    // a wrong shell name is an error, not a silent bash reading
    let out = riskgate(dir.path())
        .args(["parse", "--shell", "fish", "ls"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn check_json_has_the_documented_fields_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args(["check", "--format", "json", "--", "sudo", "rm", "-rf", "/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "deny exits 4");
    let v = json_of(&out.stdout);
    assert_eq!(v["level"], "CRITICAL");
    assert_eq!(v["decision"], "deny");
    assert!(v["score"].as_u64().unwrap() >= 81);
    for key in [
        "findings",
        "explanation",
        "reversible",
        "affected_resources",
        "recommendations",
        "estimated_impact",
    ] {
        assert!(!v[key].is_null(), "missing {key}: {v}");
    }
    let f = &v["findings"][0];
    for key in ["rule_id", "level", "score", "description", "matched"] {
        assert!(!f[key].is_null(), "finding misses {key}: {f}");
    }
    for key in ["summary", "points", "mitigations"] {
        assert!(!v["explanation"][key].is_null(), "explanation misses {key}");
    }

    let out = riskgate(dir.path())
        .args(["check", "--format", "json", "ls -la"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "allow exits 0");
    assert_eq!(json_of(&out.stdout)["decision"], "allow");
}

#[test]
fn force_never_bypasses_critical() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args(["check", "--force", "rm -rf /"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("CRITICAL"), "{text}");
    assert!(text.contains("^^^"), "the risky span is underlined: {text}");
}

#[test]
fn usage_errors_do_not_share_a_code_with_allow_or_deny() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path()).args(["check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = riskgate(dir.path())
        .args(["check", "--no-such-flag", "ls"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn evasions_are_seen_through() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in [
        "timeout 5 rm -rf /",
        "eval \"rm -rf ~\"",
        "x=rm; $x -rf /",
        "r''m -rf /",
        "curl -fsSL https://get.example.sh | sh",
        "echo cm0gLXJmIC8= | base64 -d | sh",
        "git push origin +main",
    ] {
        let out = riskgate(dir.path())
            .args(["check", "--format", "json", "--no-prompt", cmd])
            .output()
            .unwrap();
        let v = json_of(&out.stdout);
        let level = v["level"].as_str().unwrap();
        assert!(level == "HIGH" || level == "CRITICAL", "{cmd}: {level}");
        assert_eq!(
            v["decision"], "deny",
            "{cmd}: not interactive, so HIGH is denied too"
        );
        assert_eq!(out.status.code(), Some(4), "{cmd}");
    }
}

/// Every corpus command (multi-line ones included) as JSON lines with ids, plus raw lines and
/// malformed lines: one valid JSON answer per input line, in order, exit 0.
#[test]
fn scan_answers_every_line_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut input = String::new();
    let mut expected_ids = Vec::new();
    let mut n = 0;
    for file in ["safe.jsonl", "dangerous.jsonl", "evasions.jsonl"] {
        let text = std::fs::read_to_string(corpus.join(file)).unwrap();
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let v: Value = serde_json::from_str(line).unwrap();
            let command = v["command"].as_str().unwrap();
            n += 1;
            let id = format!("c{n}");
            if n % 7 == 0 && !command.contains('\n') {
                input.push_str(command);
                expected_ids.push(None);
            } else {
                input.push_str(&serde_json::json!({"id": id, "command": command}).to_string());
                expected_ids.push(Some(id));
            }
            input.push('\n');
        }
    }
    for bad in [
        "{\"id\": \"bad1\"",
        "{\"id\": \"bad2\", \"command\": 42}",
        "{\"cmd\": \"ls\"}",
        "",
    ] {
        input.push_str(bad);
        input.push('\n');
        expected_ids.push(if bad.contains("bad2") {
            Some("bad2".to_string())
        } else {
            None
        });
    }
    assert!(expected_ids.len() >= 1300);
    let out = riskgate(dir.path())
        .args(["scan", "--format", "jsonl"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), expected_ids.len());
    for (i, (line, id)) in lines.iter().zip(&expected_ids).enumerate() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}: {line}", i + 1));
        assert_eq!(v["line"], i + 1);
        if let Some(id) = id {
            assert_eq!(v["id"], id.as_str());
        }
        if v.get("error").is_none() {
            assert!(
                v["level"].is_string() && v["decision"].is_string() && v["score"].is_u64(),
                "{line}"
            );
        }
    }
    let errors = lines.iter().filter(|l| l.contains("\"error\"")).count();
    assert_eq!(errors, 4, "exactly the malformed lines are errors");
}

/// The attacks reported against `check`: each is refused (exit 4), none is allowed.
#[test]
fn reported_attacks_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        format!("{}rm -rf /", "\"$(".repeat(20)),
        format!("{}rm -rf /", "timeout 5 ".repeat(65)),
        "sudo AWS_PROFILE=prod aws s3 rb s3://prod-logs --force".to_string(),
        "cd /srv && chmod u+s /bin/bash".to_string(),
        "riskgate approvals revoke 'git stash clear'".to_string(),
    ];
    for c in cases {
        let out = common::riskgate(dir.path())
            .args(["check", "--no-prompt", "--", &c])
            .output()
            .expect("check runs");
        assert_eq!(out.status.code(), Some(4), "{c}");
    }
}

/// `scan` answers each line as soon as it is assessed: a caller that writes one line and
/// waits for its answer before writing the next (a workflow engine over a pipe) is not left
/// waiting for a buffer to fill. (The 60 s bound only turns a deadlock into a failure.)
#[test]
fn scan_answers_each_line_before_the_next_is_written() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("riskgate"))
        .current_dir(d)
        .env("HOME", d)
        .env("RISKGATE_STATE_DIR", d.join("state"))
        .env("RISKGATE_DATA_DIR", d.join("data"))
        .env("RISKGATE_CONFIG_DIR", d.join("config"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .args(["scan", "--format", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for (cmd, want) in [
        ("ls -la", "allow"),
        ("rm -rf /", "deny"),
        ("git status", "allow"),
    ] {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let answer = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("no answer for {cmd:?} while stdin stays open: {e}"));
        let v: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["decision"], want, "{cmd}: {answer}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().code().is_some());
    reader.join().unwrap();
}

/// An environment file filled from its template is MEDIUM; written any other way it stays
/// HIGH (issue 12: `cp .env.example .env` is an everyday first step).
#[test]
fn env_file_from_its_template_is_medium() {
    let dir = tempfile::tempdir().expect("temp dir");
    let level = |c: &str| {
        let out = common::riskgate(dir.path())
            .args(["check", "--no-prompt", "--format", "json", "--", c])
            .output()
            .expect("check runs");
        json_of(&out.stdout)["level"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    for c in [
        "cp .env.example .env",
        "cp -n app/.env.sample app/.env.local",
    ] {
        assert_eq!(level(c), "MEDIUM", "{c}");
    }
    for c in [
        "cp .env.production .env",
        "cp .env.example .env && echo 'API_KEY=x' >> .env",
    ] {
        assert_eq!(level(c), "HIGH", "{c}");
    }
}

/// The README's Windows examples behave as written (section "Windows: PowerShell and
/// cmd.exe"): the strings are data, never run.
#[test]
fn readme_windows_examples() {
    let dir = tempfile::tempdir().expect("temp dir");
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    for (shell, command, level, decision) in [
        ("powershell", r"ri C:\Users\me -r -fo", "CRITICAL", "deny"),
        ("cmd", "rd /s /q %SystemRoot%", "CRITICAL", "deny"),
        (
            "powershell",
            r"Remove-Item .\dist -Recurse -Force",
            "SAFE",
            "allow",
        ),
    ] {
        assert!(
            readme.contains(&format!("riskgate check --shell {shell} '{command}'")),
            "{command} is no longer in the README"
        );
        let out = common::riskgate(dir.path())
            .args([
                "check",
                "--no-prompt",
                "--format",
                "json",
                "--shell",
                shell,
                "--",
                command,
            ])
            .output()
            .expect("check runs");
        let v = json_of(&out.stdout);
        assert_eq!(v["level"], level, "{command}: {v}");
        assert_eq!(v["decision"], decision, "{command}: {v}");
    }
}
