//! An audit database of the previous schema (version 1, no `policy_rev`) is upgraded in place
//! when opened: its records are kept, new records carry the policy revision.

use riskgate_gate::{AuditLog, AuditQuery};

/// The schema riskgate wrote before version 2, as it was shipped.
const V1: &str = "
CREATE TABLE decisions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    ts_us       INTEGER NOT NULL,
    time        TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    session     TEXT,
    cwd         TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    input       TEXT    NOT NULL,
    level       TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    rules       TEXT    NOT NULL,
    decision    TEXT    NOT NULL,
    decided_by  TEXT    NOT NULL,
    reason      TEXT    NOT NULL,
    latency_us  INTEGER NOT NULL
);
CREATE INDEX decisions_ts ON decisions (ts_us);
INSERT INTO decisions (ts_us, time, source, session, cwd, kind, input, level, score, rules,
    decision, decided_by, reason, latency_us)
VALUES (1, '1970-01-01T00:00:00.000001Z', 'cli', NULL, '/w', 'command', 'ls', 'SAFE', 0, '[]',
    'allow', 'policy', 'safe', 5);
PRAGMA user_version = 1;
";

#[test]
fn a_version_1_database_is_upgraded_and_keeps_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(V1).unwrap();
    }
    let log = AuditLog::open(&path).expect("opens and upgrades");
    let old = log.query(&AuditQuery::default()).unwrap();
    assert_eq!(old.len(), 1);
    assert_eq!(old[0].input, "ls");
    assert_eq!(old[0].policy_rev, None);
    let mut rec = old[0].clone();
    rec.input = "terraform apply".into();
    rec.time = "2026-01-01T00:00:00Z".into();
    rec.policy_rev = Some("abc123".into());
    log.record(&rec).unwrap();
    drop(log);
    // opened again: already version 2, nothing to do, both records there
    let log = AuditLog::open(&path).expect("opens");
    let all = log.query(&AuditQuery::default()).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].policy_rev.as_deref(), Some("abc123"));
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, 2);
}
