//! Issue 11 item 9: state that survives faults. A damaged settings.json (corrupt, truncated,
//! BOM-prefixed, not UTF-8) is copied aside and its readable entries kept; until then nothing
//! a lost denial could cover is allowed unasked; no later write drops an entry. A torn journal
//! line loses nothing after it. Stale temporary files are swept at start-up. The audit
//! database is private (0600).

mod common;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use common::*;
use riskgate_gate::prompt::Answer;
use riskgate_gate::{ApprovalStore, AuditLog, AuditQuery, Gate};
use riskgate_model::{Decision, RiskLevel};

const DENIAL: &str = r#"{"pattern": "terraform destroy*", "node_type": "command", "denied_at": "2024-01-15T10:30:00Z"}"#;
const APPROVAL: &str = r#"{"pattern": "git push --force origin main", "node_type": "command", "approved_at": "2024-01-15T10:30:00Z", "expires_at": null}"#;

fn write_settings(fx: &Fixture, bytes: &[u8]) {
    let p = fx.settings();
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn clean_settings() -> String {
    format!(
        "{{\"editor\": \"vim\", \"risk_acceptance\": {{\"approved_patterns\": [{APPROVAL}], \"denied_patterns\": [{DENIAL}]}}}}"
    )
}

fn backups(fx: &Fixture) -> Vec<PathBuf> {
    let dir = fx.settings().parent().unwrap().to_path_buf();
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("settings.json.corrupt-"))
        .collect();
    v.sort();
    v
}

fn patterns(fx: &Fixture, list: &str) -> Vec<String> {
    let v = read_json(&fx.settings());
    v["risk_acceptance"][list]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pattern"].as_str().unwrap_or("?").to_string())
        .collect()
}

fn decide(gate: &mut Gate, fx: &Fixture, text: &str, level: RiskLevel) -> (Decision, String) {
    let (a, s) = command(text, level);
    let out = gate.evaluate(&a, s, &fx.ctx());
    (out.decision, out.reason)
}

/// Every damage: nothing is allowed unasked on the read that finds it; the denial still denies;
/// the file is copied aside byte for byte and rewritten with what was recovered; the next gate
/// reads it normally.
#[test]
fn damaged_settings_are_moved_aside_recovered_and_never_fail_open() {
    let clean = clean_settings();
    let truncated = clean
        .get(..clean.find("\"denied_patterns\"").unwrap() + DENIAL.len() + 21)
        .unwrap()
        .to_string();
    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", truncated.into_bytes()),
        ("garbage", format!("{clean} trailing garbage ,,,").into_bytes()),
        ("not UTF-8", {
            let mut b = clean.clone().into_bytes();
            b.insert(2, 0xff);
            b
        }),
        (
            "list of the wrong type",
            format!("{{\"risk_acceptance\": {{\"approved_patterns\": {APPROVAL}, \"denied_patterns\": [{DENIAL}]}}}}")
                .into_bytes(),
        ),
    ];
    for (what, bytes) in damages {
        let fx = Fixture::new();
        write_settings(&fx, &bytes);
        let mut gate = fx.gate();
        let (d, reason) = decide(&mut gate, &fx, "ls -la", RiskLevel::Safe);
        assert_ne!(d, Decision::Allow, "{what}: {reason}");
        assert!(
            reason.contains("could not be fully read"),
            "{what}: {reason}"
        );
        let (d, reason) = decide(
            &mut gate,
            &fx,
            "terraform destroy -auto-approve",
            RiskLevel::Low,
        );
        assert_eq!(d, Decision::Deny, "{what}: {reason}");
        assert!(reason.contains("standing denial"), "{what}: {reason}");
        // copied aside, byte for byte; the file now holds what was recovered
        let b = backups(&fx);
        assert_eq!(b.len(), 1, "{what}: {b:?}");
        assert_eq!(std::fs::read(&b[0]).unwrap(), bytes, "{what}");
        assert_eq!(
            patterns(&fx, "denied_patterns"),
            ["terraform destroy*"],
            "{what}"
        );
        // repaired: the next gate reads it normally
        let mut gate = fx.gate();
        let (d, reason) = decide(&mut gate, &fx, "ls -la", RiskLevel::Safe);
        assert_eq!(d, Decision::Allow, "{what}: {reason}");
        assert_eq!(backups(&fx).len(), 1, "{what}");
    }
}

#[test]
fn a_byte_order_mark_is_read_normally() {
    let fx = Fixture::new();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(clean_settings().as_bytes());
    write_settings(&fx, &bytes);
    let mut store = ApprovalStore::new(fx.settings());
    let snap = store.snapshot().clone();
    assert!(!snap.unreadable, "{:?}", snap.warnings);
    assert_eq!(snap.denied.len(), 1);
    assert_eq!(snap.approved.len(), 1);
    let mut gate = fx.gate();
    assert_eq!(
        decide(&mut gate, &fx, "ls", RiskLevel::Safe).0,
        Decision::Allow
    );
    assert_eq!(
        decide(&mut gate, &fx, "terraform destroy", RiskLevel::Low).0,
        Decision::Deny
    );
    // a write keeps everything, and nothing was moved aside
    store.add("npm publish", Some("command"), Some(30)).unwrap();
    assert_eq!(patterns(&fx, "denied_patterns"), ["terraform destroy*"]);
    assert_eq!(
        patterns(&fx, "approved_patterns"),
        ["git push --force origin main", "npm publish"]
    );
    assert!(backups(&fx).is_empty());
    assert_eq!(read_json(&fx.settings())["editor"], "vim");
}

#[test]
fn a_write_to_a_damaged_file_keeps_every_recovered_entry() {
    let fx = Fixture::new();
    let clean = clean_settings();
    // cut inside the last entry's closing: both entries are whole
    let cut = clean.get(..clean.len() - 3).unwrap().to_string();
    write_settings(&fx, cut.as_bytes());
    let mut store = ApprovalStore::new(fx.settings());
    let update = store.add("npm publish", Some("command"), Some(30)).unwrap();
    assert!(
        update.warnings.iter().any(|w| w.contains("damaged")),
        "{:?}",
        update.warnings
    );
    assert_eq!(patterns(&fx, "denied_patterns"), ["terraform destroy*"]);
    assert_eq!(
        patterns(&fx, "approved_patterns"),
        ["git push --force origin main", "npm publish"]
    );
    // damaged again: a second copy, the first one kept
    write_settings(&fx, b"{not json");
    store.add("cargo publish", None, None).unwrap();
    assert_eq!(backups(&fx).len(), 2);
    assert_eq!(std::fs::read(&backups(&fx)[0]).unwrap(), cut.as_bytes());
}

#[test]
fn a_malformed_denial_still_denies_and_an_unusable_one_makes_everything_ask() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        br#"{"risk_acceptance": {"denied_patterns": [{"pattern": "rm -rf /srv*", "denied_at": "yesterday"}]}}"#,
    );
    let mut gate = fx.gate();
    assert_eq!(
        decide(&mut gate, &fx, "rm -rf /srv/data", RiskLevel::Low).0,
        Decision::Deny
    );
    assert_eq!(
        decide(&mut gate, &fx, "ls", RiskLevel::Safe).0,
        Decision::Allow
    );

    let fx = Fixture::new();
    write_settings(
        &fx,
        br#"{"risk_acceptance": {"denied_patterns": [{"pattern": 42}]}}"#,
    );
    let mut gate = fx.gate();
    let (d, reason) = decide(&mut gate, &fx, "ls", RiskLevel::Safe);
    assert_ne!(d, Decision::Allow, "{reason}");
}

#[test]
fn an_interactive_gate_asks_while_the_file_is_damaged() {
    let fx = Fixture::new();
    write_settings(&fx, b"{\"risk_acceptance\": {\"denied_patterns\": [");
    let asked = Rc::new(Cell::new(0));
    let mut gate = fx.gate_answering(Answer::Yes, asked.clone());
    let (a, s) = command("ls", RiskLevel::Safe);
    let out = gate.evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!(asked.get(), 1);
    assert_eq!(out.decision, Decision::Allow);
}

fn set_age(path: &Path, age: Duration) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn stale_temporary_files_are_removed_at_start_up() {
    let fx = Fixture::new();
    let state = fx.settings().parent().unwrap().to_path_buf();
    let sessions = state.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let old = state.join(".riskgate-AbC123.tmp");
    let old_session = sessions.join(".riskgate-XyZ789.tmp");
    let fresh = state.join(".riskgate-new001.tmp");
    let other = state.join("notes.tmp");
    for p in [&old, &old_session, &fresh, &other] {
        std::fs::write(p, b"partial").unwrap();
    }
    for p in [&old, &old_session, &other] {
        set_age(p, Duration::from_secs(3600));
    }
    let _gate = fx.gate();
    assert!(!old.exists() && !old_session.exists());
    assert!(fresh.exists(), "a write in progress is left alone");
    assert!(other.exists(), "only riskgate's own temporary files");
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn the_audit_database_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    let policy = fx.policy();
    let db = policy.audit_path();
    let mut gate = Gate::new(policy);
    decide(&mut gate, &fx, "ls", RiskLevel::Safe);
    let log = AuditLog::open(&db).unwrap();
    assert_eq!(log.query(&AuditQuery::default()).unwrap().len(), 1);
    drop(log);
    for suffix in ["", "-wal", "-shm"] {
        let p = PathBuf::from(format!("{}{suffix}", db.display()));
        if p.exists() {
            assert_eq!(mode(&p), 0o600, "{}", p.display());
        }
    }
    assert_eq!(mode(&db), 0o600);
    // an existing world-readable database is made private
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(AuditLog::open(&db).unwrap());
    assert_eq!(mode(&db), 0o600);
}

#[test]
fn a_torn_journal_line_loses_nothing_after_it() {
    let fx = Fixture::new();
    let policy = fx.policy();
    let db = policy.audit_path();
    let mut gate = Gate::new(policy);
    decide(&mut gate, &fx, "echo first", RiskLevel::Safe);
    // a crash in the middle of an append
    let journal = riskgate_gate::journal::journal_path(&db);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    std::io::Write::write_all(&mut f, b"{\"id\":0,\"time\":\"2026-11-2").unwrap();
    drop(f);
    decide(&mut gate, &fx, "echo second", RiskLevel::Safe);
    decide(&mut gate, &fx, "echo third", RiskLevel::Safe);
    let log = AuditLog::open(&db).unwrap();
    assert!(
        log.warnings()
            .iter()
            .any(|w| w.contains("1 unreadable line")),
        "{:?}",
        log.warnings()
    );
    let mut inputs: Vec<String> = log
        .query(&AuditQuery::default())
        .unwrap()
        .into_iter()
        .map(|r| r.input)
        .collect();
    inputs.sort();
    assert_eq!(inputs, ["echo first", "echo second", "echo third"]);
}
