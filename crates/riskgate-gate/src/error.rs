//! The gate's typed errors: policy files, the approvals and session stores, the audit log and
//! the prompt. Each message says what went wrong, where (file, line, key) and, where it helps,
//! how to mend it.

use std::io;
use std::path::PathBuf;

/// The approval queue could not be used, or a review was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The queue database failed.
    #[error("approval queue {}: {source}", path.display())]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// Its directory could not be created.
    #[error("cannot create {}: {source}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// No request has this id.
    #[error("no approval request `{0}` (see `riskgate approvals pending`)")]
    NotFound(String),
    /// The request was already decided.
    #[error("request `{id}` is {status}, not pending")]
    NotPending {
        /// The request id.
        id: String,
        /// Its status.
        status: String,
    },
    /// CRITICAL actions are never granted (seed 000).
    #[error(
        "request `{0}` is CRITICAL: CRITICAL actions are never run, and no reviewer can grant them"
    )]
    Critical(String),
    /// The same reviewer cannot count twice.
    #[error("{reviewer} already granted request `{id}`: it needs another reviewer")]
    SameReviewer {
        /// The request id.
        id: String,
        /// The reviewer.
        reviewer: String,
    },
    /// A review needs a reviewer's name / a refusal a reason.
    #[error("{0}")]
    Invalid(String),
    /// The team's queue (PostgreSQL) failed.
    #[error("team approval queue: {0}")]
    Remote(String),
}

/// A configuration file or command-line setting could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// A file could not be read.
    #[error("cannot read configuration file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A file is not valid YAML/TOML/JSON or does not fit the schema (unknown key, wrong type).
    #[error("{}:{line}:{column}: invalid configuration at `{key}`: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
        /// The key, as a dotted path (`hooks.ask_fallback`, `overrides[1].level`), or `(file)`
        /// when the error is not about one key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A value has the right type but cannot be used (a bad glob, a bad pattern …).
    #[error("{}{}: invalid value for `{key}`: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid {
        /// The file (or `<command line>`).
        path: PathBuf,
        /// 1-based line, when found.
        line: Option<usize>,
        /// The key, as a dotted path.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// Two configuration files in the same place (`config.yaml` and `config.toml`).
    #[error("several configuration files in {}: {}; keep one", dir.display(), files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "))]
    Ambiguous {
        /// The directory.
        dir: PathBuf,
        /// The competing files.
        files: Vec<PathBuf>,
    },
    /// A command-line `--set KEY=VALUE` could not be applied.
    #[error("invalid command-line setting `{arg}`: {message}")]
    Override {
        /// The argument as given.
        arg: String,
        /// What is wrong.
        message: String,
    },
}

impl PolicyError {
    /// The file the error is about, when there is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            PolicyError::Read { path, .. }
            | PolicyError::Parse { path, .. }
            | PolicyError::Invalid { path, .. } => Some(path),
            PolicyError::Ambiguous { dir, .. } => Some(dir),
            PolicyError::Override { .. } => None,
        }
    }

    /// The offending key, when known.
    pub fn key(&self) -> Option<&str> {
        match self {
            PolicyError::Parse { key, .. } | PolicyError::Invalid { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The 1-based line, when known.
    pub fn line(&self) -> Option<usize> {
        match self {
            PolicyError::Parse { line, .. } if *line > 0 => Some(*line),
            PolicyError::Invalid { line, .. } => *line,
            _ => None,
        }
    }
}

/// The approvals store (settings.json) or the session cache could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An I/O error on a file.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done ("cannot write", "cannot lock" …).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The lock was held by another process for too long.
    #[error("{} is locked by another process (waited {waited_ms} ms); try again", path.display())]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long we waited.
        waited_ms: u64,
    },
    /// The file could not be serialized (should not happen).
    #[error("cannot encode {}: {message}", path.display())]
    Encode {
        /// The file.
        path: PathBuf,
        /// The serializer's message.
        message: String,
    },
    /// An argument was not usable (an empty pattern …).
    #[error("{0}")]
    Invalid(String),
}

/// The audit log could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The database directory could not be created.
    #[error("cannot create audit directory {}: {source}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// SQLite refused (locked, read-only, corrupt …).
    #[error("audit database {}: {source}", path.display())]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// A query argument could not be understood (`--since`, `--decision`).
    #[error("{0}")]
    Query(String),
}

/// The interactive prompt could not be shown.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// `/dev/tty` could not be opened: there is no terminal to ask on.
    #[error("no terminal to ask on (/dev/tty): {0}")]
    NoTty(io::Error),
    /// Writing the question failed.
    #[error("cannot write the prompt: {0}")]
    Write(io::Error),
}
