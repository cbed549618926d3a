//! The interactive prompt, driven through a real pseudo-terminal (issue 4): the question
//! appears, and `y`, `N` (or just Enter), `always`, `never` and silence until the timeout each
//! lead to the right decision, exit code and stored answer. Nothing assessed is executed.
//! Unix only (pseudo-terminals).
#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use rexpect::process::wait::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

/// A HIGH-risk command: asked on a terminal.
const HIGH: &str = "git push --force origin feature/login";

fn riskgate(home: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_riskgate"));
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("NO_COLOR", "1")
        .current_dir(home)
        .arg("check")
        .args(extra)
        .arg(HIGH);
    cmd
}

fn spawn(home: &Path, extra: &[&str]) -> PtySession {
    spawn_command(riskgate(home, extra), Some(15_000)).expect("spawn riskgate in a pty")
}

fn exit_code(mut p: PtySession) -> i32 {
    p.exp_eof().expect("riskgate ends");
    match p.process.wait().expect("wait") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("riskgate did not exit normally: {other:?}"),
    }
}

fn settings(home: &Path) -> String {
    std::fs::read_to_string(home.join("state/riskgate/settings.json")).unwrap_or_default()
}

#[test]
fn yes_allows_once_and_stores_nothing() {
    let home = tempfile::tempdir().unwrap();
    let mut p = spawn(home.path(), &[]);
    p.exp_string("Continue? [y/N/always/never]").unwrap();
    p.send_line("y").unwrap();
    assert_eq!(exit_code(p), 0);
    assert!(!settings(home.path()).contains("approved_at"));
}

#[test]
fn no_and_enter_deny() {
    for answer in ["N", ""] {
        let home = tempfile::tempdir().unwrap();
        let mut p = spawn(home.path(), &[]);
        p.exp_string("Continue?").unwrap();
        p.send_line(answer).unwrap();
        assert_eq!(exit_code(p), 4, "answer {answer:?}");
    }
}

#[test]
fn always_stores_an_approval_that_later_calls_honour() {
    let home = tempfile::tempdir().unwrap();
    let mut p = spawn(home.path(), &[]);
    p.exp_string("Continue?").unwrap();
    p.send_line("always").unwrap();
    assert_eq!(exit_code(p), 0);
    let s = settings(home.path());
    assert!(
        s.contains("approved_patterns") && s.contains("expires_at"),
        "{s}"
    );
    // Without a terminal the standing approval decides.
    let out = riskgate(home.path(), &["--no-prompt"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn never_stores_a_denial() {
    let home = tempfile::tempdir().unwrap();
    let mut p = spawn(home.path(), &[]);
    p.exp_string("Continue?").unwrap();
    p.send_line("never").unwrap();
    assert_eq!(exit_code(p), 4);
    assert!(settings(home.path()).contains("denied_patterns"));
    let out = riskgate(home.path(), &["--no-prompt", "--accept-risk"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(4),
        "a standing denial wins over --accept-risk"
    );
}

#[test]
fn silence_until_the_timeout_denies() {
    let home = tempfile::tempdir().unwrap();
    let mut p = spawn(home.path(), &["--set", "approval_timeout=1"]);
    p.exp_string("Continue?").unwrap();
    assert_eq!(exit_code(p), 4);
}
