//! The audit log: every decision appended to an embedded SQLite database
//! (`data_dir/audit.db`, see [`crate::Policy::audit_path`]), and read back by `riskgate log`.
//!
//! A record holds the time (RFC 3339 UTC), the source (`cli`, `hook:claude` …), the session,
//! the working directory, the action kind, the input with secrets redacted
//! ([`crate::redact`], cut at 64 KiB), level, score, rule ids, decision, who decided, the
//! reason (redacted too) and the latency in microseconds.
//!
//! The gate appends each record to a journal beside the database ([`crate::journal`], one
//! `write`, no SQLite on the hot path); [`AuditLog::open`] moves the journal into the
//! database before anything reads it. WAL mode and a 200 ms busy timeout: a locked, read-only
//! or broken database makes [`AuditLog::open`] / [`AuditLog::record`] fail quickly; the gate
//! turns a failed append into a warning and the decision stands. The database and its WAL
//! files are private to the owner (0600), like the journal.

use std::path::{Path, PathBuf};
use std::time::Duration;

use riskgate_model::{Assessment, Decision, RiskLevel};
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::decide::{Context, Outcome};
use crate::error::AuditError;
use crate::redact::redact;

/// How long a write waits for a lock held by another process.
pub const BUSY_TIMEOUT: Duration = Duration::from_millis(200);

/// Inputs longer than this are cut before they are stored.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS decisions (
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
CREATE INDEX IF NOT EXISTS decisions_ts ON decisions (ts_us);
";

/// The schema steps ([`crate::sqlite::open`]): version 1, the decisions; version 2, the
/// managed policy's git revision (added once, whatever the version says).
const STEPS: [crate::sqlite::Step; 2] = [
    |c| c.execute_batch(SCHEMA),
    |c| {
        if !crate::sqlite::has_column(c, "decisions", "policy_rev")? {
            c.execute_batch("ALTER TABLE decisions ADD COLUMN policy_rev TEXT;")?;
        }
        Ok(())
    },
];

/// One decision, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// Row id (0 before it is stored).
    pub id: i64,
    /// RFC 3339 UTC, microseconds.
    pub time: String,
    /// `cli`, `hook:claude`, `workflow` …
    pub source: String,
    /// The agent session, if any.
    pub session: Option<String>,
    /// The working directory.
    pub cwd: String,
    /// The action kind (`command`, `sql` …).
    pub kind: String,
    /// The input, secrets redacted.
    pub input: String,
    /// The final level.
    pub level: RiskLevel,
    /// The score.
    pub score: u8,
    /// The rule ids of the findings.
    pub rules: Vec<String>,
    /// The decision.
    pub decision: Decision,
    /// Who decided (`policy`, `user`, `flag` …).
    pub decided_by: String,
    /// The reason, secrets redacted.
    pub reason: String,
    /// Microseconds from the start of the evaluation to the decision.
    pub latency_us: u64,
    /// The git revision of the managed policy that decided, when it comes from a checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_rev: Option<String>,
}

impl AuditRecord {
    /// The record of `outcome` for `assessment` in `ctx`, now.
    pub fn new(
        ctx: &Context,
        assessment: &Assessment,
        outcome: &Outcome,
        latency: Duration,
    ) -> AuditRecord {
        let now = OffsetDateTime::now_utc();
        let now = now
            .replace_nanosecond(now.nanosecond() / 1000 * 1000)
            .unwrap_or(now);
        let mut input = redact(&assessment.input).into_owned();
        if input.len() > MAX_INPUT_BYTES {
            let mut cut = MAX_INPUT_BYTES;
            while !input.is_char_boundary(cut) {
                cut -= 1;
            }
            input.truncate(cut);
            input.push_str(" [… cut]");
        }
        AuditRecord {
            id: 0,
            time: now.format(&Rfc3339).unwrap_or_default(),
            source: ctx.source.clone(),
            session: ctx.session_id.clone(),
            cwd: ctx.cwd.display().to_string(),
            kind: assessment.kind.as_str().to_string(),
            input,
            level: outcome.level,
            score: outcome.score,
            rules: assessment
                .rule_ids()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            decision: outcome.decision,
            decided_by: outcome.decided_by.as_str().to_string(),
            reason: redact(&outcome.reason).into_owned(),
            latency_us: u64::try_from(latency.as_micros()).unwrap_or(u64::MAX),
            policy_rev: None,
        }
    }
}

/// What `riskgate log` asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuditQuery {
    /// Only records at or after this time.
    pub since: Option<OffsetDateTime>,
    /// Only this decision.
    pub decision: Option<Decision>,
    /// At most this many (newest first); `None`: 100.
    pub limit: Option<usize>,
    /// Only records before this time.
    pub until: Option<OffsetDateTime>,
    /// Only this agent (`claude`: the source `hook:claude`) or source (`cli`, `review`).
    pub agent: Option<String>,
    /// Only this working directory (repository) and the directories below it.
    pub repository: Option<String>,
    /// Only this level.
    pub level: Option<RiskLevel>,
    /// Only records where this rule fired.
    pub rule: Option<String>,
    /// Skip this many of the newest matching records (paging).
    pub offset: usize,
}

impl AuditQuery {
    /// Build from `riskgate log` arguments: `--since 2h|RFC3339|YYYY-MM-DD`,
    /// `--decision allow|ask|deny`, `--limit N`.
    pub fn from_args(
        since: Option<&str>,
        decision: Option<&str>,
        limit: Option<usize>,
    ) -> Result<AuditQuery, AuditError> {
        let since = match since {
            None => None,
            Some(s) => Some(crate::clock::parse_since(s, OffsetDateTime::now_utc()).ok_or_else(|| {
                AuditError::Query(format!(
                    "--since `{s}`: expected a duration (30m, 2h, 7d), an RFC 3339 time or a date (2024-01-15)"
                ))
            })?),
        };
        let decision = match decision.map(|d| d.trim().to_ascii_lowercase()) {
            None => None,
            Some(d) if d == "allow" => Some(Decision::Allow),
            Some(d) if d == "ask" => Some(Decision::Ask),
            Some(d) if d == "deny" => Some(Decision::Deny),
            Some(d) => {
                return Err(AuditError::Query(format!(
                    "--decision `{d}`: expected allow, ask or deny"
                )));
            }
        };
        Ok(AuditQuery {
            since,
            decision,
            limit,
            ..AuditQuery::default()
        })
    }
}

/// An open audit database.
#[derive(Debug)]
pub struct AuditLog {
    conn: Connection,
    path: PathBuf,
    warnings: Vec<String>,
}

impl AuditLog {
    /// Open (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<AuditLog, AuditError> {
        let sql = |e| AuditError::Sqlite {
            path: path.to_path_buf(),
            source: e,
        };
        let conn = crate::sqlite::open(path, BUSY_TIMEOUT, &STEPS).map_err(|e| match e {
            crate::sqlite::OpenError::Dir { path, source } => AuditError::Dir { path, source },
            crate::sqlite::OpenError::Sqlite(e) => sql(e),
        })?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(sql)?;
        // Every hook call is a new process: without this, each one's closing connection
        // checkpoints the WAL into the database and deletes it (three fsyncs, milliseconds).
        // The WAL is kept and checkpointed automatically every 1,000 pages instead; a record
        // survives the process once its transaction is in the WAL.
        let mut log = AuditLog {
            conn,
            path: path.to_path_buf(),
            warnings: Vec::new(),
        };
        log.ingest_journal();
        crate::sqlite::private_files(path);
        Ok(log)
    }

    /// Problems met while moving the journal into the database (the records stay in the
    /// journal for the next time).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Move the journal's records into the database, unless another process is doing it.
    fn ingest_journal(&mut self) {
        let journal = crate::journal::journal_path(&self.path);
        let lock_path = journal.with_extension("lock");
        let lock = match std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
        {
            Ok(f) => f,
            Err(e) => {
                self.warnings
                    .push(format!("audit journal lock {}: {e}", lock_path.display()));
                return;
            }
        };
        if lock.try_lock().is_err() {
            return;
        }
        let taken = match crate::journal::take(&self.path) {
            Ok(t) => t,
            Err(e) => {
                self.warnings
                    .push(format!("audit journal {}: {e}", journal.display()));
                return;
            }
        };
        if taken.skipped > 0 {
            self.warnings.push(format!(
                "audit journal {}: {} unreadable line(s) skipped",
                journal.display(),
                taken.skipped
            ));
        }
        if taken.records.is_empty() && taken.files.is_empty() {
            return;
        }
        let stored = (|| -> Result<(), AuditError> {
            let tx = self
                .conn
                .unchecked_transaction()
                .map_err(|e| AuditError::Sqlite {
                    path: self.path.clone(),
                    source: e,
                })?;
            for r in &taken.records {
                self.record(r)?;
            }
            tx.commit().map_err(|e| AuditError::Sqlite {
                path: self.path.clone(),
                source: e,
            })
        })();
        match stored {
            Ok(()) => {
                if let Err(e) = taken.done() {
                    self.warnings.push(format!(
                        "audit journal {}: stored but not removed: {e}",
                        journal.display()
                    ));
                }
            }
            Err(e) => self
                .warnings
                .push(format!("audit journal not moved into the database: {e}")),
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append a record; returns its row id.
    pub fn record(&self, r: &AuditRecord) -> Result<i64, AuditError> {
        let ts_us = OffsetDateTime::parse(&r.time, &Rfc3339)
            .map(|t| (t.unix_timestamp_nanos() / 1000) as i64)
            .unwrap_or_else(|_| (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1000) as i64);
        let rules = serde_json::to_string(&r.rules).unwrap_or_else(|_| "[]".into());
        self.conn
            .execute(
                "INSERT INTO decisions (ts_us, time, source, session, cwd, kind, input, level, score,
                     rules, decision, decided_by, reason, latency_us, policy_rev)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    ts_us,
                    r.time,
                    r.source,
                    r.session,
                    r.cwd,
                    r.kind,
                    r.input,
                    r.level.as_str(),
                    i64::from(r.score),
                    rules,
                    r.decision.as_str(),
                    r.decided_by,
                    r.reason,
                    i64::try_from(r.latency_us).unwrap_or(i64::MAX),
                    r.policy_rev,
                ],
            )
            .map_err(|e| AuditError::Sqlite { path: self.path.clone(), source: e })?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Records matching `q`, newest first.
    pub fn query(&self, q: &AuditQuery) -> Result<Vec<AuditRecord>, AuditError> {
        let sql_err = |e| AuditError::Sqlite {
            path: self.path.clone(),
            source: e,
        };
        let since = q
            .since
            .map(|t| (t.unix_timestamp_nanos() / 1000) as i64)
            .unwrap_or(i64::MIN);
        let until = q
            .until
            .map(|t| i64::try_from(t.unix_timestamp_nanos() / 1000).unwrap_or(i64::MAX))
            .unwrap_or(i64::MAX);
        let decision = q.decision.map(|d| d.as_str().to_string());
        let limit = i64::try_from(q.limit.unwrap_or(100)).unwrap_or(i64::MAX);
        let offset = i64::try_from(q.offset).unwrap_or(i64::MAX);
        let level = q.level.map(|l| l.as_str().to_string());
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, time, source, session, cwd, kind, input, level, score, rules, decision,
                        decided_by, reason, latency_us, policy_rev
                 FROM decisions
                 WHERE ts_us >= ?1 AND ts_us < ?4 AND (?2 IS NULL OR decision = ?2)
                   AND (?5 IS NULL OR source = 'hook:' || ?5 OR source = ?5)
                   AND (?6 IS NULL OR cwd = ?6 OR substr(cwd, 1, length(?6) + 1) = ?6 || '/')
                   AND (?7 IS NULL OR level = ?7)
                   AND (?8 IS NULL OR instr(rules, char(34) || ?8 || char(34)) > 0)
                 ORDER BY ts_us DESC, id DESC LIMIT ?3 OFFSET ?9",
            )
            .map_err(sql_err)?;
        let rows = stmt
            .query_map(
                params![
                    since,
                    decision,
                    limit,
                    until,
                    q.agent,
                    q.repository,
                    level,
                    q.rule,
                    offset
                ],
                |row| {
                    let level: String = row.get(7)?;
                    let score: i64 = row.get(8)?;
                    let rules: String = row.get(9)?;
                    let decision: String = row.get(10)?;
                    let latency: i64 = row.get(13)?;
                    Ok(AuditRecord {
                        id: row.get(0)?,
                        time: row.get(1)?,
                        source: row.get(2)?,
                        session: row.get(3)?,
                        cwd: row.get(4)?,
                        kind: row.get(5)?,
                        input: row.get(6)?,
                        level: level.parse().unwrap_or(RiskLevel::Critical),
                        score: u8::try_from(score.clamp(0, 100)).unwrap_or(100),
                        rules: serde_json::from_str(&rules).unwrap_or_default(),
                        decision: match decision.as_str() {
                            "allow" => Decision::Allow,
                            "ask" => Decision::Ask,
                            _ => Decision::Deny,
                        },
                        decided_by: row.get(11)?,
                        reason: row.get(12)?,
                        latency_us: u64::try_from(latency).unwrap_or(0),
                        policy_rev: row.get(14)?,
                    })
                },
            )
            .map_err(sql_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(sql_err)
    }
}
