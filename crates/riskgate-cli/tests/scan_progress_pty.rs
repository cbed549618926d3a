//! `riskgate scan` on a terminal: a progress line on stderr (after half a second), replaced by a
//! summary at the end; `--quiet` shows neither. Unix only (pseudo-terminals). The scanned lines
//! are harmless read-only commands, and only ever assessed.
#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use rexpect::session::spawn_command;

fn scan(dir: &Path, quiet: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_riskgate"));
    cmd.env("HOME", dir)
        .env("RISKGATE_STATE_DIR", dir.join("state"))
        .env("RISKGATE_DATA_DIR", dir.join("data"))
        .env("RISKGATE_CONFIG_DIR", dir.join("config"))
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .args(["scan", "--format", "text"]);
    if quiet {
        cmd.arg("--quiet");
    }
    cmd.arg("cmds.txt");
    let mut p = spawn_command(cmd, Some(120_000)).expect("spawn riskgate in a pty");
    p.exp_eof().expect("scan ends")
}

#[test]
fn progress_then_a_summary_on_a_terminal_and_nothing_with_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    // enough lines to take longer than half a second (about 15 s in a debug build, 0.7 s in release)
    for i in 0..15_000 {
        lines.push_str(&format!("git status --short dir{i}\n"));
    }
    std::fs::write(dir.path().join("cmds.txt"), lines).unwrap();
    let out = scan(dir.path(), false);
    assert!(out.contains("scanning: "), "no progress line");
    assert!(out.contains(" lines/s"), "no rate");
    assert!(
        out.contains("riskgate: scanned 15000 lines in "),
        "no summary"
    );
    assert!(out.contains("15000 allow, 0 ask, 0 deny, 0 invalid"));
    let quiet = scan(dir.path(), true);
    assert!(!quiet.contains("scanning: "));
    assert!(!quiet.contains("riskgate: scanned"));
    assert_eq!(quiet.matches("SAFE 0 allow").count(), 15_000);
}
