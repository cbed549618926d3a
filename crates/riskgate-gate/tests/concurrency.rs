//! Seed 000 criterion 27 (atomic settings updates, no partial writes) under real concurrency:
//! 8 processes (this test binary, re-run as children) each add 500 approvals to one
//! settings.json at the same time while the parent keeps reading it. Every read must be valid
//! JSON, and all 4,000 approvals must be there at the end. Also: the session cache shared by
//! processes of one session.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use riskgate_gate::ApprovalStore;

const PROCESSES: usize = 8;
const PER_PROCESS: usize = 500;
const CHILD_ENV: &str = "RISKGATE_TEST_CHILD_WRITER";

/// The child's work; a no-op when run as an ordinary test.
#[test]
fn child_writer() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let (path, id) = spec.split_once('|').expect("PATH|ID");
    let mut store =
        ApprovalStore::new(PathBuf::from(path)).with_lock_wait(Duration::from_secs(120));
    for i in 0..PER_PROCESS {
        let pattern = format!("deploy --worker {id} --job {i}");
        let kind = if i % 2 == 0 { Some("command") } else { None };
        let update = store.add(&pattern, kind, Some(30)).expect("add approval");
        assert!(update.warnings.is_empty(), "{:?}", update.warnings);
    }
}

#[test]
fn criterion_27_atomic_settings_update_no_partial_writes() {
    // On tmpfs when there is one: this is about locking and atomic renames, not about how fast
    // the disk syncs (4,000 fsyncs on a VM disk take a minute).
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let settings = dir.path().join("state").join("settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"editor": "vim", "risk_acceptance": {"approved_patterns": []}}"#,
    )
    .unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|id| {
            Command::new(&exe)
                .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
                .env(CHILD_ENV, format!("{}|{id}", settings.display()))
                .spawn()
                .expect("spawn child")
        })
        .collect();
    // read while they write: never a partial file
    let start = Instant::now();
    let mut reads = 0;
    let mut running = children;
    while !running.is_empty() {
        let text = std::fs::read_to_string(&settings).expect("settings readable");
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(&text);
        assert!(
            parsed.is_ok(),
            "partial or invalid settings.json after {reads} reads"
        );
        reads += 1;
        running.retain_mut(|c| match c.try_wait().expect("wait") {
            Some(status) => {
                assert!(status.success(), "a writer failed: {status}");
                false
            }
            None => true,
        });
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "writers took too long"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(v["editor"], "vim", "other keys are kept");
    let approved = v["risk_acceptance"]["approved_patterns"]
        .as_array()
        .unwrap();
    assert_eq!(approved.len(), PROCESSES * PER_PROCESS);
    let mut patterns: Vec<&str> = approved
        .iter()
        .map(|e| e["pattern"].as_str().unwrap())
        .collect();
    patterns.sort_unstable();
    patterns.dedup();
    assert_eq!(
        patterns.len(),
        PROCESSES * PER_PROCESS,
        "no duplicates, none lost"
    );
    // nothing left behind but the file and its lock
    let mut names: Vec<String> = std::fs::read_dir(settings.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, vec!["settings.json", "settings.json.lock"]);
    // and the store reads them all back
    let mut store = ApprovalStore::new(&settings);
    let snap = store.snapshot();
    assert_eq!(snap.approved.len(), PROCESSES * PER_PROCESS);
    assert!(snap.warnings.is_empty());
}
