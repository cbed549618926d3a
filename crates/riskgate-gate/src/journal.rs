//! The audit journal: the fast path of the audit log.
//!
//! A hook call is a fresh process, and opening SQLite, inserting and closing cleanly costs
//! most of a millisecond (more with the fsyncs of a checkpoint). So a decision is first
//! appended as one JSON line to `audit.journal.jsonl` beside the database — one `write` on a
//! file opened with `O_APPEND`, under a shared lock — and moved into the database the next
//! time the database is opened ([`crate::AuditLog::open`], e.g. by `riskgate log`).
//!
//! Moving is safe against concurrent writers: the mover renames the journal aside (new
//! writers then start a fresh journal), takes the exclusive lock on the renamed file (so it
//! waits for writers still appending to it), reads it, inserts every record in one
//! transaction and only then deletes it. A writer that opened the old file just before the
//! rename notices after locking that its file is no longer the journal (another inode at the
//! path) and appends to the new one. A file left behind by an interrupted move is picked up
//! by the next one. Every record is written as `\n{record}\n`, so a torn write (a crash
//! mid-append) ends at the next record's leading newline: the reader skips that fragment alone,
//! counted and warned about, and keeps every record after it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use crate::audit::AuditRecord;

/// File name of the journal, beside the database.
pub const JOURNAL_FILE: &str = "audit.journal.jsonl";

/// Prefix of journals being moved into the database.
const MOVING_PREFIX: &str = "audit.journal.moving.";

/// The journal that goes with the database at `db`.
pub fn journal_path(db: &Path) -> PathBuf {
    db.with_file_name(JOURNAL_FILE)
}

/// Past this size, the process that appended moves the journal into the database itself, so
/// the journal stays small even if nobody runs `riskgate log`.
pub const MOVE_AT_BYTES: u64 = 1 << 20;

/// Append `record` to the journal of the database at `db`; returns the journal's size after.
pub fn append(db: &Path, record: &AuditRecord) -> io::Result<u64> {
    let path = journal_path(db);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::paths::ensure_private_dir(dir)?;
    }
    // Each record starts on a line of its own: a torn write before it (a crash mid-append)
    // then ends at this newline and only that fragment is lost.
    let mut line = vec![b'\n'];
    serde_json::to_writer(&mut line, record).map_err(io::Error::other)?;
    line.push(b'\n');
    // A few tries: each failure means a mover renamed the file between our open and lock.
    for _ in 0..4 {
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        #[cfg(unix)]
        options.mode(0o600);
        let mut file = options.open(&path)?;
        file.lock_shared()?;
        if !still_at(&file, &path)? {
            continue;
        }
        file.write_all(&line)?;
        return Ok(file.metadata().map(|m| m.len()).unwrap_or(0));
    }
    Err(io::Error::other(format!(
        "{}: the journal kept moving while appending",
        path.display()
    )))
}

/// Whether `file` is still the file at `path` (not renamed aside since it was opened).
fn still_at(file: &File, path: &Path) -> io::Result<bool> {
    let open = file.metadata()?;
    Ok(match fs::metadata(path) {
        Ok(now) => same_file(&now, &open),
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(e),
    })
}

/// Whether two metadata describe the same file: device and inode on Unix.
#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.ino() == b.ino() && a.dev() == b.dev()
}

/// Elsewhere (Windows: no stable file id in std), the creation time tells a journal from the
/// fresh one created after a mover renamed it aside; without creation times, trust the path.
#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    match (a.created(), b.created()) {
        (Ok(x), Ok(y)) => x == y,
        _ => true,
    }
}

/// Records taken out of the journal, and the file(s) to delete once they are stored.
#[derive(Debug, Default)]
pub struct Taken {
    /// The records, in journal order.
    pub records: Vec<AuditRecord>,
    /// Lines that were not records (torn writes).
    pub skipped: usize,
    /// The renamed journals these came from.
    pub files: Vec<PathBuf>,
}

impl Taken {
    /// Delete the moved journals: call after the records are committed.
    pub fn done(self) -> io::Result<()> {
        for f in &self.files {
            match fs::remove_file(f) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Take the journal of the database at `db` (and any left by an interrupted move).
pub fn take(db: &Path) -> io::Result<Taken> {
    let path = journal_path(db);
    let Some(dir) = path.parent() else {
        return Ok(Taken::default());
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let moving = dir.join(format!(
        "{MOVING_PREFIX}{}.{}",
        std::process::id(),
        time::OffsetDateTime::now_utc().unix_timestamp_nanos()
    ));
    match fs::rename(&path, &moving) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(MOVING_PREFIX))
            .map(|e| e.path())
            .collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    files.sort();
    let mut taken = Taken::default();
    for f in files {
        let file = match File::open(&f) {
            Ok(file) => file,
            // Another mover got it first.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        file.lock()?;
        let text = match fs::read(&f) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for line in text.split(|&b| b == b'\n') {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<AuditRecord>(line) {
                Ok(r) => taken.records.push(r),
                Err(_) => {
                    // a torn fragment, possibly followed on the same line by a whole record
                    // (journals written before records started on a fresh line)
                    taken.skipped += 1;
                    if let Some(r) = salvage(line) {
                        taken.records.push(r);
                    }
                }
            }
        }
        taken.files.push(f);
    }
    Ok(taken)
}

/// The last whole record in a line that starts with a torn fragment.
fn salvage(line: &[u8]) -> Option<AuditRecord> {
    const START: &[u8] = b"{\"id\":";
    (1..line.len())
        .filter(|&i| line.get(i..).is_some_and(|rest| rest.starts_with(START)))
        .find_map(|i| serde_json::from_slice::<AuditRecord>(line.get(i..)?).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::{Decision, RiskLevel};

    fn record(input: &str) -> AuditRecord {
        AuditRecord {
            id: 0,
            time: "2026-11-22T10:00:00.000001Z".into(),
            source: "cli".into(),
            session: None,
            cwd: "/w".into(),
            kind: "command".into(),
            input: input.into(),
            level: RiskLevel::High,
            score: 70,
            rules: vec!["git.push-force".into()],
            decision: Decision::Ask,
            decided_by: "policy".into(),
            reason: "r".into(),
            latency_us: 12,
            policy_rev: None,
        }
    }

    #[test]
    fn appended_records_are_taken_once_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("audit.db");
        append(&db, &record("a")).unwrap();
        append(&db, &record("b\nwith newline")).unwrap();
        let taken = take(&db).unwrap();
        let inputs: Vec<&str> = taken.records.iter().map(|r| r.input.as_str()).collect();
        assert_eq!(inputs, ["a", "b\nwith newline"]);
        assert_eq!(taken.skipped, 0);
        // Not deleted until done: a second take sees them again (nothing lost on a failed insert).
        let again = take(&db).unwrap();
        assert_eq!(again.records.len(), 2);
        again.done().unwrap();
        taken.done().unwrap();
        assert!(take(&db).unwrap().records.is_empty());
        // Writers after the move start a fresh journal.
        append(&db, &record("c")).unwrap();
        assert_eq!(take(&db).unwrap().records[0].input, "c");
    }

    #[test]
    fn torn_lines_are_skipped_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("audit.db");
        append(&db, &record("a")).unwrap();
        let mut f = OpenOptions::new()
            .append(true)
            .open(journal_path(&db))
            .unwrap();
        f.write_all(b"{\"id\":0,\"time\":\"2026").unwrap();
        // the record after the torn fragment is kept
        append(&db, &record("b")).unwrap();
        let taken = take(&db).unwrap();
        let inputs: Vec<&str> = taken.records.iter().map(|r| r.input.as_str()).collect();
        assert_eq!(inputs, ["a", "b"]);
        assert_eq!(taken.skipped, 1);
    }

    #[test]
    fn a_record_glued_to_a_torn_fragment_is_salvaged() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("audit.db");
        let whole = serde_json::to_string(&record("kept")).unwrap();
        std::fs::write(
            journal_path(&db),
            format!("{{\"id\":0,\"time\":\"2026{whole}\n"),
        )
        .unwrap();
        let taken = take(&db).unwrap();
        assert_eq!(taken.records.len(), 1);
        assert_eq!(taken.records[0].input, "kept");
        assert_eq!(taken.skipped, 1);
    }

    #[test]
    fn concurrent_appends_are_all_kept() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("audit.db");
        let mut all = Vec::new();
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|t| {
                    let db = db.clone();
                    s.spawn(move || {
                        for i in 0..50 {
                            append(&db, &record(&format!("{t}-{i}"))).unwrap();
                        }
                    })
                })
                .collect();
            // Move while they write.
            for _ in 0..5 {
                let t = take(&db).unwrap();
                all.extend(t.records.iter().map(|r| r.input.clone()));
                t.done().unwrap();
            }
            for h in hs {
                h.join().unwrap();
            }
        });
        let t = take(&db).unwrap();
        all.extend(t.records.iter().map(|r| r.input.clone()));
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 200);
    }
}
