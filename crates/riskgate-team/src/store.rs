//! Connecting to the team's PostgreSQL database and its versioned schema.
//!
//! The schema version lives in `riskgate_schema`; [`migrate`] applies the missing steps of
//! [`MIGRATIONS`] in one transaction that holds an exclusive lock on that table, so two
//! machines migrating at once apply each step once.

use std::str::FromStr as _;
use std::time::Duration;

use postgres::{Client, Config, NoTls};

use crate::TeamError;

/// Environment variables the password is read from, in order.
pub const PASSWORD_ENV: [&str; 2] = ["RISKGATE_PG_PASSWORD", "PGPASSWORD"];

/// The schema steps, in order: version 1 is the decisions table; version 2 adds who and
/// where (host, user, agent, repository) and the policy revision; version 3 is the approval
/// queue (requests and their reviews, see [`crate::pg_queue`]).
pub const MIGRATIONS: [(i32, &str); 3] = [
    (
        1,
        "CREATE TABLE riskgate_decisions (
             origin      TEXT    NOT NULL,
             local_id    BIGINT  NOT NULL,
             ts_us       BIGINT  NOT NULL,
             time        TEXT    NOT NULL,
             source      TEXT    NOT NULL,
             session     TEXT,
             cwd         TEXT    NOT NULL,
             kind        TEXT    NOT NULL,
             input       TEXT    NOT NULL,
             level       TEXT    NOT NULL,
             score       SMALLINT NOT NULL,
             rules       TEXT    NOT NULL,
             decision    TEXT    NOT NULL,
             decided_by  TEXT    NOT NULL,
             reason      TEXT    NOT NULL,
             latency_us  BIGINT  NOT NULL,
             PRIMARY KEY (origin, local_id)
         );
         CREATE INDEX riskgate_decisions_ts ON riskgate_decisions (ts_us);",
    ),
    (
        2,
        "ALTER TABLE riskgate_decisions
             ADD COLUMN host TEXT,
             ADD COLUMN os_user TEXT,
             ADD COLUMN agent TEXT,
             ADD COLUMN repository TEXT,
             ADD COLUMN policy_rev TEXT;",
    ),
    (
        3,
        "CREATE TABLE riskgate_requests (
             id          TEXT     PRIMARY KEY,
             key         TEXT     NOT NULL,
             created_us  BIGINT   NOT NULL,
             created     TEXT     NOT NULL,
             kind        TEXT     NOT NULL,
             input       TEXT     NOT NULL,
             cwd         TEXT     NOT NULL,
             agent       TEXT,
             session     TEXT,
             requester   TEXT     NOT NULL,
             host        TEXT     NOT NULL,
             level       TEXT     NOT NULL,
             score       SMALLINT NOT NULL,
             rules       TEXT     NOT NULL,
             reason      TEXT     NOT NULL,
             required    INT      NOT NULL,
             status      TEXT     NOT NULL,
             once        BOOLEAN  NOT NULL DEFAULT TRUE,
             expires_us  BIGINT,
             decided     TEXT,
             note        TEXT
         );
         CREATE INDEX riskgate_requests_key ON riskgate_requests (key, host, status);
         CREATE INDEX riskgate_requests_status ON riskgate_requests (status, created_us);
         CREATE TABLE riskgate_reviews (
             request     TEXT NOT NULL REFERENCES riskgate_requests (id),
             reviewer    TEXT NOT NULL,
             verdict     TEXT NOT NULL,
             at          TEXT NOT NULL,
             note        TEXT,
             PRIMARY KEY (request, reviewer)
         );",
    ),
];

/// The latest schema version.
pub const LATEST: i32 = 3;

/// Connect to `url` (a `postgres://` URL without a password), with the password from the
/// environment and a 5-second connection timeout.
pub fn connect(url: &str) -> Result<Client, TeamError> {
    connect_within(url, Duration::from_secs(5))
}

/// [`connect`] with another connection timeout.
pub fn connect_within(url: &str, limit: Duration) -> Result<Client, TeamError> {
    let mut config =
        Config::from_str(url).map_err(|e| TeamError::Config(format!("audit.url `{url}`: {e}")))?;
    if config.get_password().is_some() {
        return Err(TeamError::Config(format!(
            "audit.url `{url}` holds a password: set {} instead",
            PASSWORD_ENV[0]
        )));
    }
    if let Some(pw) = PASSWORD_ENV
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|p| !p.is_empty()))
    {
        config.password(pw);
    }
    config.connect_timeout(limit);
    config.application_name("riskgate");
    Ok(config.connect(NoTls)?)
}

/// The schema version of the database (0: empty).
pub fn version(client: &mut Client) -> Result<i32, TeamError> {
    let exists: bool = client
        .query_one("SELECT to_regclass('riskgate_schema') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let row = client.query_opt("SELECT version FROM riskgate_schema", &[])?;
    Ok(row.map(|r| r.get(0)).unwrap_or(0))
}

/// Apply the missing steps up to `to` (default: [`LATEST`]); returns (before, after).
pub fn migrate(client: &mut Client, to: Option<i32>) -> Result<(i32, i32), TeamError> {
    let to = to.unwrap_or(LATEST);
    if !(1..=LATEST).contains(&to) {
        return Err(TeamError::Config(format!(
            "schema version {to}: this riskgate knows versions 1 to {LATEST}"
        )));
    }
    let mut tx = client.transaction()?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS riskgate_schema (version INT NOT NULL)")?;
    tx.batch_execute("LOCK TABLE riskgate_schema IN EXCLUSIVE MODE")?;
    let before: i32 = tx
        .query_opt("SELECT version FROM riskgate_schema", &[])?
        .map(|r| r.get(0))
        .unwrap_or(0);
    if before == 0 {
        tx.execute("INSERT INTO riskgate_schema (version) VALUES (0)", &[])?;
    }
    if before > to {
        return Err(TeamError::Config(format!(
            "the database is at schema version {before}, newer than {to}: nothing to do backwards"
        )));
    }
    for (v, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > before && *v <= to) {
        tx.batch_execute(sql)?;
        tx.execute("UPDATE riskgate_schema SET version = $1", &[v])?;
    }
    tx.commit()?;
    Ok((before, to.max(before)))
}

/// An error unless the database is at [`LATEST`] (shipping and reading need it).
pub fn require_latest(client: &mut Client) -> Result<(), TeamError> {
    let v = version(client)?;
    if v == LATEST {
        Ok(())
    } else {
        Err(TeamError::Config(format!(
            "the team database is at schema version {v}, riskgate needs {LATEST}: run `riskgate admin migrate`"
        )))
    }
}
