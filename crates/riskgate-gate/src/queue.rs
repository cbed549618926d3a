//! The approval queue for unattended agents: when an action needs a person and nobody can be
//! asked (a headless agent, CI, a hook that cannot ask), the gate refuses it with a short
//! request id and stores the request here; a reviewer lists the pending requests and grants
//! (once, or for a time) or refuses them, from any shell on the machine
//! (`riskgate approvals pending | grant | refuse`). A grant lets the *identical* action (same
//! kind, same text, same directory) through on its next try.
//!
//! - One SQLite database, `state_dir/queue.db` (WAL, 2 s busy timeout), private to the owner,
//!   opened like the audit log ([`crate::sqlite`]).
//!   The hook only opens it when an action needs a person and no other approval covers it.
//! - A request keeps the command (secrets redacted), its assessment (level, score, rules,
//!   reason), the directory, the agent, its session, the requesting user and host. The
//!   identity of an action is a SHA-256 key over kind, text and directory, so a secret in the
//!   text is never stored in the clear.
//! - Policy can require two distinct reviewers for chosen patterns (`approvals.two_reviewers`);
//!   a request is granted when enough distinct reviewers granted it.
//! - A CRITICAL request is never granted. A once-grant is claimed in one `UPDATE`, so two
//!   processes racing for it let the action through once.
//! - A refusal stands for [`REFUSAL_STANDS`]: the identical action is refused with the
//!   reviewer's reason instead of a new request.

use std::path::{Path, PathBuf};
use std::time::Duration;

use riskgate_model::RiskLevel;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::QueueError;

/// How long a refusal answers the identical action before a new request can be made.
pub const REFUSAL_STANDS: Duration = Duration::from_secs(24 * 3600);
/// How long a write waits for another process's lock.
const BUSY: Duration = Duration::from_secs(2);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS requests (
    id          TEXT PRIMARY KEY,
    key         TEXT NOT NULL,
    created_us  INTEGER NOT NULL,
    created     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    input       TEXT NOT NULL,
    cwd         TEXT NOT NULL,
    agent       TEXT,
    session     TEXT,
    requester   TEXT NOT NULL,
    host        TEXT NOT NULL,
    level       TEXT NOT NULL,
    score       INTEGER NOT NULL,
    rules       TEXT NOT NULL,
    reason      TEXT NOT NULL,
    required    INTEGER NOT NULL,
    status      TEXT NOT NULL,
    once        INTEGER NOT NULL DEFAULT 1,
    expires_us  INTEGER,
    decided     TEXT,
    note        TEXT
);
CREATE INDEX IF NOT EXISTS requests_key ON requests (key, status);
CREATE TABLE IF NOT EXISTS reviews (
    request     TEXT NOT NULL,
    reviewer    TEXT NOT NULL,
    verdict     TEXT NOT NULL,
    at          TEXT NOT NULL,
    note        TEXT,
    PRIMARY KEY (request, reviewer)
);
";

/// The schema steps ([`crate::sqlite::open`]): version 1, the requests and their reviews.
const STEPS: [crate::sqlite::Step; 1] = [|c| c.execute_batch(SCHEMA)];

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for (enough) reviewers.
    Pending,
    /// Granted: the identical action runs (once, or until it expires).
    Granted,
    /// Refused by a reviewer.
    Refused,
    /// A once-grant that was used.
    Used,
}

impl Status {
    /// The lowercase name, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Granted => "granted",
            Status::Refused => "refused",
            Status::Used => "used",
        }
    }

    /// The status stored as `s` (anything unknown reads as refused).
    pub fn parse(s: &str) -> Status {
        match s {
            "pending" => Status::Pending,
            "granted" => Status::Granted,
            "used" => Status::Used,
            _ => Status::Refused,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reviewer's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Review {
    /// Who.
    pub reviewer: String,
    /// `grant` or `refuse`.
    pub verdict: String,
    /// When (RFC 3339).
    pub at: String,
    /// The refusal's reason, or how long the grant lasts.
    pub note: Option<String>,
}

/// A request, as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Request {
    /// The short id a reviewer types.
    pub id: String,
    /// When it was made (RFC 3339).
    pub created: String,
    /// The action kind (`command`, `file_write` …).
    pub kind: String,
    /// The action's text, secrets redacted.
    pub input: String,
    /// The directory (repository) it runs in.
    pub cwd: String,
    /// The agent that asked.
    pub agent: Option<String>,
    /// The agent's session.
    pub session: Option<String>,
    /// The user the agent runs as.
    pub requester: String,
    /// The machine.
    pub host: String,
    /// The level.
    pub level: RiskLevel,
    /// The score.
    pub score: u8,
    /// The rule ids.
    pub rules: Vec<String>,
    /// Why it needs a person.
    pub reason: String,
    /// How many distinct reviewers must grant it.
    pub required: u32,
    /// Where it stands.
    pub status: Status,
    /// A grant for one run (else until `expires`).
    pub once: bool,
    /// When a time-limited grant ends (RFC 3339).
    pub expires: Option<String>,
    /// The refusal's reason.
    pub note: Option<String>,
    /// The reviews so far.
    pub reviews: Vec<Review>,
}

/// What a new request carries (see [`Queue::request`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NewRequest {
    /// [`Queue::key`] of the action.
    pub key: String,
    /// The action kind.
    pub kind: String,
    /// The text, secrets redacted.
    pub input: String,
    /// The directory.
    pub cwd: String,
    /// The agent.
    pub agent: Option<String>,
    /// The session.
    pub session: Option<String>,
    /// The level.
    pub level: RiskLevel,
    /// The score.
    pub score: u8,
    /// The rule ids.
    pub rules: Vec<String>,
    /// Why.
    pub reason: String,
    /// Reviewers required (1 or 2).
    pub required: u32,
}

/// How long a grant lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrantFor {
    /// The next identical try only.
    Once,
    /// Every identical try until then.
    Ttl(Duration),
}

/// Announce a new request to the policy's webhook, if it has one: starts
/// `riskgate approvals notify` (this executable) in the background, which sends it with
/// retries; the caller does not wait. For the `riskgate` binary (hook, `check`), not for
/// programs that embed the library.
pub fn announce(policy: &crate::Policy, request: &Request) -> std::io::Result<()> {
    let Some(hook) = policy.webhook() else {
        return Ok(());
    };
    let exe = std::env::current_exe()?;
    let mut child = std::process::Command::new(exe)
        .args(["approvals", "notify", &request.id, "--queue"])
        .arg(policy.queue_path())
        .args(["--url", &hook.value.url, "--webhook-format"])
        .arg(hook.value.format.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    // reaped when it ends (a hook server lives on; a hook process exits first)
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    Ok(())
}

/// The user riskgate runs as (`USER`, `USERNAME`, `LOGNAME`), or `unknown`.
pub fn current_user() -> String {
    ["USER", "USERNAME", "LOGNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.trim().is_empty()))
        .unwrap_or_else(|| "unknown".to_string())
}

/// This machine's name (`HOSTNAME`, `/etc/hostname`, `COMPUTERNAME`), or `unknown`.
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|s| s.trim().to_string())
        })
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Microseconds since the epoch, as stored.
pub fn micros(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1000).unwrap_or(i64::MAX)
}

/// RFC 3339, as stored.
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

/// Letters and digits that cannot be confused when read aloud or typed (no 0/o, 1/l/i).
pub const ID_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A request id: six characters of [`ID_ALPHABET`] from the action key, the time, the
/// process and `salt` (the next try when an id is taken).
pub fn short_id(key: &str, now: OffsetDateTime, salt: u32) -> String {
    let mut h = Sha256::new();
    h.update(key.as_bytes());
    h.update(now.unix_timestamp_nanos().to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    h.update(salt.to_le_bytes());
    h.finalize()
        .iter()
        .take(6)
        .map(|b| char::from(ID_ALPHABET[usize::from(*b) % ID_ALPHABET.len()]))
        .collect()
}

/// The approval queue at one database file.
#[derive(Debug)]
pub struct Queue {
    conn: Connection,
    path: PathBuf,
}

impl Queue {
    /// The identity of an action: SHA-256 (hex) over its kind, exact text and directory.
    pub fn key(kind: &str, text: &str, cwd: &Path) -> String {
        let mut h = Sha256::new();
        for part in [
            kind.as_bytes(),
            text.as_bytes(),
            cwd.as_os_str().as_encoded_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        hex::encode(h.finalize())
    }

    /// Open (creating if needed) the queue at `path`.
    pub fn open(path: &Path) -> Result<Queue, QueueError> {
        let conn = crate::sqlite::open(path, BUSY, &STEPS).map_err(|e| match e {
            crate::sqlite::OpenError::Dir { path, source } => QueueError::Dir { path, source },
            crate::sqlite::OpenError::Sqlite(e) => QueueError::Sqlite {
                path: path.to_path_buf(),
                source: e,
            },
        })?;
        Ok(Queue {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Open the queue at `path` only if it exists (the hook's lookups create nothing).
    pub fn open_existing(path: &Path) -> Result<Option<Queue>, QueueError> {
        if !path.is_file() {
            return Ok(None);
        }
        Queue::open(path).map(Some)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sql(&self) -> impl Fn(rusqlite::Error) -> QueueError + '_ {
        |e| QueueError::Sqlite {
            path: self.path.clone(),
            source: e,
        }
    }

    /// Use a grant for the action `key`, if there is one in force: a time-limited grant that
    /// has not expired, or a once-grant, which this call uses up (atomically: of two processes
    /// racing for it, one gets it).
    pub fn claim_grant(
        &self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        let now_us = micros(now);
        let ttl: Option<String> = self
            .conn
            .query_row(
                "SELECT id FROM requests WHERE key = ?1 AND status = 'granted' AND once = 0
                   AND expires_us > ?2 ORDER BY created_us DESC LIMIT 1",
                params![key, now_us],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.sql())?;
        if let Some(id) = ttl {
            return self.get(&id);
        }
        let once: Vec<String> = {
            let mut stmt = self
                .conn
                .prepare(
                    "SELECT id FROM requests WHERE key = ?1 AND status = 'granted' AND once = 1
                     ORDER BY created_us",
                )
                .map_err(self.sql())?;
            let rows = stmt
                .query_map(params![key], |r| r.get(0))
                .map_err(self.sql())?;
            rows.collect::<Result<_, _>>().map_err(self.sql())?
        };
        for id in once {
            let claimed = self
                .conn
                .execute(
                    "UPDATE requests SET status = 'used' WHERE id = ?1 AND status = 'granted'",
                    params![id],
                )
                .map_err(self.sql())?;
            if claimed == 1 {
                return self.get(&id);
            }
        }
        Ok(None)
    }

    /// The newest refusal of the action `key` younger than [`REFUSAL_STANDS`].
    pub fn standing_refusal(
        &self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        let since = micros(now) - i64::try_from(REFUSAL_STANDS.as_micros()).unwrap_or(0);
        let id: Option<String> = self
            .conn
            .query_row(
                "SELECT id FROM requests WHERE key = ?1 AND status = 'refused' AND created_us >= ?2
                 ORDER BY created_us DESC LIMIT 1",
                params![key, since],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.sql())?;
        match id {
            Some(id) => self.get(&id),
            None => Ok(None),
        }
    }

    /// The pending request for the action, or a new one; `true` when it was created now.
    pub fn request(
        &self,
        new: &NewRequest,
        now: OffsetDateTime,
    ) -> Result<(Request, bool), QueueError> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(self.sql())?;
        let result = self.request_in_tx(new, now);
        let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
        let ended = self.conn.execute_batch(end).map_err(self.sql());
        let (id, created) = result?;
        ended?;
        let req = self.get(&id)?.ok_or(QueueError::NotFound(id))?;
        Ok((req, created))
    }

    fn request_in_tx(
        &self,
        new: &NewRequest,
        now: OffsetDateTime,
    ) -> Result<(String, bool), QueueError> {
        let pending: Option<String> = self
            .conn
            .query_row(
                "SELECT id FROM requests WHERE key = ?1 AND status = 'pending'
                 ORDER BY created_us LIMIT 1",
                params![new.key],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.sql())?;
        if let Some(id) = pending {
            return Ok((id, false));
        }
        let rules = serde_json::to_string(&new.rules).unwrap_or_else(|_| "[]".into());
        for salt in 0..16 {
            let id = short_id(&new.key, now, salt);
            let inserted = self
                .conn
                .execute(
                    "INSERT OR IGNORE INTO requests (id, key, created_us, created, kind, input, cwd,
                         agent, session, requester, host, level, score, rules, reason, required,
                         status)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                         'pending')",
                    params![
                        id,
                        new.key,
                        micros(now),
                        rfc3339(now),
                        new.kind,
                        new.input,
                        new.cwd,
                        new.agent,
                        new.session,
                        current_user(),
                        host_name(),
                        new.level.as_str(),
                        i64::from(new.score),
                        rules,
                        new.reason,
                        i64::from(new.required.max(1)),
                    ],
                )
                .map_err(self.sql())?;
            if inserted == 1 {
                return Ok((id, true));
            }
        }
        Err(QueueError::Invalid(
            "could not find a free request id".to_string(),
        ))
    }

    /// The request `id`.
    pub fn get(&self, id: &str) -> Result<Option<Request>, QueueError> {
        let mut req = self
            .conn
            .query_row(
                "SELECT id, created, kind, input, cwd, agent, session, requester, host, level,
                        score, rules, reason, required, status, once, expires_us, note
                 FROM requests WHERE id = ?1",
                params![id.trim().to_ascii_lowercase()],
                row_to_request,
            )
            .optional()
            .map_err(self.sql())?;
        if let Some(r) = req.as_mut() {
            r.reviews = self.reviews(&r.id)?;
        }
        Ok(req)
    }

    fn reviews(&self, id: &str) -> Result<Vec<Review>, QueueError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT reviewer, verdict, at, note FROM reviews WHERE request = ?1 ORDER BY at",
            )
            .map_err(self.sql())?;
        let rows = stmt
            .query_map(params![id], |r| {
                Ok(Review {
                    reviewer: r.get(0)?,
                    verdict: r.get(1)?,
                    at: r.get(2)?,
                    note: r.get(3)?,
                })
            })
            .map_err(self.sql())?;
        rows.collect::<Result<_, _>>().map_err(self.sql())
    }

    /// Requests with `status`, oldest first (at most `limit`).
    pub fn list(&self, status: Status, limit: usize) -> Result<Vec<Request>, QueueError> {
        let ids: Vec<String> = {
            let mut stmt = self
                .conn
                .prepare("SELECT id FROM requests WHERE status = ?1 ORDER BY created_us LIMIT ?2")
                .map_err(self.sql())?;
            let rows = stmt
                .query_map(
                    params![status.as_str(), i64::try_from(limit).unwrap_or(i64::MAX)],
                    |r| r.get(0),
                )
                .map_err(self.sql())?;
            rows.collect::<Result<_, _>>().map_err(self.sql())?
        };
        let mut out = Vec::new();
        for id in ids {
            if let Some(r) = self.get(&id)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// `reviewer` grants request `id`: it is granted once enough distinct reviewers have.
    /// Never for a CRITICAL request.
    pub fn grant(
        &self,
        id: &str,
        reviewer: &str,
        grant: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        let reviewer = reviewer.trim();
        let req = self
            .get(id)?
            .ok_or_else(|| QueueError::NotFound(id.to_string()))?;
        crate::queue_store::check_grant(&req, reviewer)?;
        let (note, once, expires) = crate::queue_store::grant_terms(grant, now);
        self.conn
            .execute(
                "INSERT OR REPLACE INTO reviews (request, reviewer, verdict, at, note)
                 VALUES (?1, ?2, 'grant', ?3, ?4)",
                params![req.id, reviewer, rfc3339(now), note],
            )
            .map_err(self.sql())?;
        if crate::queue_store::completes(&req) {
            self.conn
                .execute(
                    "UPDATE requests SET status = 'granted', once = ?2, expires_us = ?3,
                         decided = ?4 WHERE id = ?1 AND status = 'pending'",
                    params![req.id, i64::from(once), expires, rfc3339(now)],
                )
                .map_err(self.sql())?;
        }
        self.get(&req.id)?.ok_or(QueueError::NotFound(req.id))
    }

    /// `reviewer` refuses request `id`, saying why.
    pub fn refuse(
        &self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        let reviewer = reviewer.trim();
        let req = self
            .get(id)?
            .ok_or_else(|| QueueError::NotFound(id.to_string()))?;
        crate::queue_store::check_refusal(&req, reviewer, reason)?;
        self.conn
            .execute(
                "INSERT OR REPLACE INTO reviews (request, reviewer, verdict, at, note)
                 VALUES (?1, ?2, 'refuse', ?3, ?4)",
                params![req.id, reviewer, rfc3339(now), reason.trim()],
            )
            .map_err(self.sql())?;
        self.conn
            .execute(
                "UPDATE requests SET status = 'refused', note = ?2, decided = ?3
                 WHERE id = ?1 AND status = 'pending'",
                params![req.id, reason.trim(), rfc3339(now)],
            )
            .map_err(self.sql())?;
        self.get(&req.id)?.ok_or(QueueError::NotFound(req.id))
    }
}

fn row_to_request(r: &rusqlite::Row<'_>) -> rusqlite::Result<Request> {
    let level: String = r.get(9)?;
    let score: i64 = r.get(10)?;
    let rules: String = r.get(11)?;
    let required: i64 = r.get(13)?;
    let status: String = r.get(14)?;
    let once: i64 = r.get(15)?;
    let expires: Option<i64> = r.get(16)?;
    Ok(Request {
        id: r.get(0)?,
        created: r.get(1)?,
        kind: r.get(2)?,
        input: r.get(3)?,
        cwd: r.get(4)?,
        agent: r.get(5)?,
        session: r.get(6)?,
        requester: r.get(7)?,
        host: r.get(8)?,
        level: level.parse().unwrap_or(RiskLevel::Critical),
        score: u8::try_from(score.clamp(0, 100)).unwrap_or(100),
        rules: serde_json::from_str(&rules).unwrap_or_default(),
        reason: r.get(12)?,
        required: u32::try_from(required.clamp(1, 10)).unwrap_or(1),
        status: Status::parse(&status),
        once: once != 0,
        expires: expires
            .and_then(|us| OffsetDateTime::from_unix_timestamp_nanos(i128::from(us) * 1000).ok())
            .map(rfc3339),
        note: r.get(17)?,
        reviews: Vec::new(),
    })
}
