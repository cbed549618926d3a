//! riskgate for teams: every decision of every machine in one PostgreSQL database.
//!
//! - [`store`]: connecting (`audit.url` without a password; the password from
//!   `RISKGATE_PG_PASSWORD` or `PGPASSWORD`), and the versioned schema ([`store::migrate`],
//!   `riskgate admin migrate`).
//! - [`ship`]: moving the local audit log (journal → SQLite, as before) into the team's
//!   database, in order and exactly once: each record's key is (origin of the state
//!   directory, local row id), inserted with `ON CONFLICT DO NOTHING`, and the local cursor
//!   only advances after the database committed. A database that is down leaves everything in
//!   place for the next try. The hook never ships: its only synchronous write stays the journal.
//! - [`read`]: the team's records, for `riskgate log --team`.
//! - [`report`]: the friction report (`riskgate report --format html|json`).
//! - [`notify`]: announcing approval requests to a webhook.
//! - [`pg_queue`]: the approval queue in the team's database (requests made on one machine,
//!   decided on another).
//! - [`review`]: a reviewer's grants and refusals (the CLI and the page share them), on the
//!   [`queues`].
//! - [`web`]: the reviewer's page (`riskgate serve`).

pub mod notify;
pub mod pg_queue;
pub mod queues;
pub mod read;
pub mod report;
pub mod review;
pub mod ship;
pub mod store;
pub mod web;

/// What went wrong with the team's database.
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    /// PostgreSQL refused or is unreachable.
    #[error("team database: {0}")]
    Postgres(#[from] postgres::Error),
    /// The local audit log.
    #[error("local audit log {}: {source}", path.display())]
    Local {
        /// The database file.
        path: std::path::PathBuf,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// The approval queue.
    #[error(transparent)]
    Queue(#[from] riskgate_gate::QueueError),
    /// The local audit log could not be opened.
    #[error(transparent)]
    Audit(#[from] riskgate_gate::AuditError),
    /// The URL or the schema is not usable.
    #[error("{0}")]
    Config(String),
}
