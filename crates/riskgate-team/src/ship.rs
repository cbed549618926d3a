//! Shipping the local audit log to the team's database, in order and exactly once.
//!
//! The local SQLite audit log ([`riskgate_gate::AuditLog`], fed by the hook's journal) is
//! the outbox. Its rows are sent in id order, in batches, each batch one PostgreSQL
//! transaction of `INSERT … ON CONFLICT (origin, local_id) DO NOTHING`; only after the commit
//! does the cursor in the local database (`team_shipped`) move. A crash between the commit
//! and the cursor re-sends a batch the database already has: nothing is stored twice. The
//! origin is a random id made once per audit database (`team_meta`), so two machines (two
//! state directories) never share keys.

use std::path::{Path, PathBuf};

use postgres::Client;
use riskgate_gate::queue::{current_user, host_name};
use rusqlite::{Connection, OptionalExtension, params};

use crate::TeamError;

/// Records sent per transaction.
pub const BATCH: usize = 500;

/// What one shipping run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shipped {
    /// Records the database did not have.
    pub inserted: u64,
    /// Records it already had (a resent batch).
    pub already: u64,
    /// The origin id of this audit log.
    pub origin: String,
}

struct Local {
    conn: Connection,
    path: PathBuf,
}

impl Local {
    fn open(path: &Path) -> Result<Local, TeamError> {
        // moves the journal into the database first (the hook's records)
        drop(riskgate_gate::AuditLog::open(path)?);
        let conn = Connection::open(path).map_err(|e| TeamError::Local {
            path: path.to_path_buf(),
            source: e,
        })?;
        let local = Local {
            conn,
            path: path.to_path_buf(),
        };
        local
            .conn
            .busy_timeout(std::time::Duration::from_secs(2))
            .map_err(|e| local.err(e))?;
        local
            .conn
            .execute_batch(
                "CREATE TABLE IF NOT EXISTS team_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS team_shipped (target TEXT PRIMARY KEY,
                                                          last_id INTEGER NOT NULL);",
            )
            .map_err(|e| local.err(e))?;
        Ok(local)
    }

    fn err(&self, e: rusqlite::Error) -> TeamError {
        TeamError::Local {
            path: self.path.clone(),
            source: e,
        }
    }

    /// This audit log's origin id, made on first use.
    fn origin(&self) -> Result<String, TeamError> {
        let fresh = {
            use sha2::{Digest, Sha256};
            let mut h = Sha256::new();
            h.update(self.path.as_os_str().as_encoded_bytes());
            h.update(std::process::id().to_le_bytes());
            h.update(
                time::OffsetDateTime::now_utc()
                    .unix_timestamp_nanos()
                    .to_le_bytes(),
            );
            h.update(host_name().as_bytes());
            hex::encode(&h.finalize()[..12])
        };
        self.conn
            .execute(
                "INSERT OR IGNORE INTO team_meta (key, value) VALUES ('origin', ?1)",
                params![fresh],
            )
            .map_err(|e| self.err(e))?;
        self.conn
            .query_row(
                "SELECT value FROM team_meta WHERE key = 'origin'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    fn cursor(&self, target: &str) -> Result<i64, TeamError> {
        Ok(self
            .conn
            .query_row(
                "SELECT last_id FROM team_shipped WHERE target = ?1",
                params![target],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))?
            .unwrap_or(0))
    }

    fn advance(&self, target: &str, to: i64) -> Result<(), TeamError> {
        self.conn
            .execute(
                "INSERT INTO team_shipped (target, last_id) VALUES (?1, ?2)
                 ON CONFLICT (target) DO UPDATE SET last_id = max(last_id, excluded.last_id)",
                params![target, to],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn batch(&self, after: i64) -> Result<Vec<Row>, TeamError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, ts_us, time, source, session, cwd, kind, input, level, score, rules,
                        decision, decided_by, reason, latency_us, policy_rev
                 FROM decisions WHERE id > ?1 ORDER BY id LIMIT ?2",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![after, BATCH as i64], |r| {
                Ok(Row {
                    id: r.get(0)?,
                    ts_us: r.get(1)?,
                    time: r.get(2)?,
                    source: r.get(3)?,
                    session: r.get(4)?,
                    cwd: r.get(5)?,
                    kind: r.get(6)?,
                    input: r.get(7)?,
                    level: r.get(8)?,
                    score: r.get(9)?,
                    rules: r.get(10)?,
                    decision: r.get(11)?,
                    decided_by: r.get(12)?,
                    reason: r.get(13)?,
                    latency_us: r.get(14)?,
                    policy_rev: r.get(15)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }
}

struct Row {
    id: i64,
    ts_us: i64,
    time: String,
    source: String,
    session: Option<String>,
    cwd: String,
    kind: String,
    input: String,
    level: String,
    score: i64,
    rules: String,
    decision: String,
    decided_by: String,
    reason: String,
    latency_us: i64,
    policy_rev: Option<String>,
}

/// The agent of a record's source (`hook:claude` → `claude`).
fn agent_of(source: &str) -> Option<String> {
    source.strip_prefix("hook:").map(str::to_string)
}

/// Ship every record of the local audit log at `audit_db` not yet in the database behind
/// `client` (identified by `target`, e.g. its URL, for the cursor).
pub fn ship(audit_db: &Path, client: &mut Client, target: &str) -> Result<Shipped, TeamError> {
    crate::store::require_latest(client)?;
    let local = Local::open(audit_db)?;
    let origin = local.origin()?;
    let host = host_name();
    let user = current_user();
    let mut done = Shipped {
        origin: origin.clone(),
        ..Shipped::default()
    };
    loop {
        let after = local.cursor(target)?;
        let rows = local.batch(after)?;
        let Some(last) = rows.last().map(|r| r.id) else {
            return Ok(done);
        };
        let mut tx = client.transaction()?;
        let insert = tx.prepare(
            "INSERT INTO riskgate_decisions (origin, local_id, ts_us, time, source, session, cwd,
                 kind, input, level, score, rules, decision, decided_by, reason, latency_us, host,
                 os_user, agent, repository, policy_rev)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21)
             ON CONFLICT (origin, local_id) DO NOTHING",
        )?;
        for r in &rows {
            let score = i16::try_from(r.score.clamp(0, 100)).unwrap_or(100);
            let n = tx.execute(
                &insert,
                &[
                    &origin,
                    &r.id,
                    &r.ts_us,
                    &r.time,
                    &r.source,
                    &r.session,
                    &r.cwd,
                    &r.kind,
                    &r.input,
                    &r.level,
                    &score,
                    &r.rules,
                    &r.decision,
                    &r.decided_by,
                    &r.reason,
                    &r.latency_us,
                    &host,
                    &user,
                    &agent_of(&r.source),
                    &r.cwd,
                    &r.policy_rev,
                ],
            )?;
            if n == 1 {
                done.inserted += 1;
            } else {
                done.already += 1;
            }
        }
        tx.commit()?;
        local.advance(target, last)?;
    }
}

/// Shipping again and again over one connection (the hook server ships every few seconds):
/// a connection that failed is dropped and made again on the next run.
pub struct Shipper {
    url: String,
    client: Option<Client>,
}

impl std::fmt::Debug for Shipper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shipper").field("url", &self.url).finish()
    }
}

impl Shipper {
    /// A shipper to the database at `url` (connected on the first run).
    pub fn new(url: String) -> Shipper {
        Shipper { url, client: None }
    }

    /// The database's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// [`ship`] what is new in the audit log at `audit_db`.
    pub fn ship(&mut self, audit_db: &Path) -> Result<Shipped, TeamError> {
        let client = match self.client.take() {
            Some(c) if !c.is_closed() => c,
            _ => crate::store::connect(&self.url)?,
        };
        let client = self.client.insert(client);
        let done = ship(audit_db, client, &self.url);
        if done.is_err() {
            self.client = None;
        }
        done
    }
}
