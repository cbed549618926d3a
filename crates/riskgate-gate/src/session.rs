//! The session cache (seed 000 rule 20): an action a person approved in a session is not
//! asked again for 5 minutes, across the separate hook processes of one agent session.
//!
//! - With a session id: one small JSON file per session in `state_dir/sessions/`, named by a
//!   SHA-256 of the session id (ids are not trusted as file names), holding SHA-256 keys of
//!   the approved actions (kind + normalized subject; no command text on disk) and the time of
//!   each approval. Written with the same lock-and-rename cycle as settings.json. Session files
//!   untouched for a day are swept away when a new approval is written.
//! - Without a session id, or if the directory cannot be written: in memory, for this process.

use std::path::{Path, PathBuf};
use std::time::Duration;

use riskgate_model::Action;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::atomic::{self, DEFAULT_LOCK_WAIT, FileLock};
use crate::error::StoreError;
use crate::pattern::normalize_subject;

/// How long a session approval is honored.
pub const SESSION_TTL: Duration = Duration::from_secs(5 * 60);

/// Session files older than this are removed when a new approval is written.
const SWEEP_AGE: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    entries: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Item {
    key: String,
    /// Unix seconds.
    at: i64,
}

/// Approvals given earlier in a session.
#[derive(Debug)]
pub struct SessionCache {
    file: Option<PathBuf>,
    memory: Vec<Item>,
    ttl: Duration,
}

fn sha(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The cache key of an action.
fn key(action: &Action) -> String {
    sha(&format!(
        "{}\0{}",
        action.kind(),
        normalize_subject(&action.subject())
    ))
}

fn unix_now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

impl SessionCache {
    /// The cache of `session_id` under `state_dir/sessions/` (in memory when `None`).
    pub fn new(state_dir: &Path, session_id: Option<&str>) -> SessionCache {
        let file = session_id.filter(|s| !s.trim().is_empty()).map(|id| {
            let name = sha(id);
            let name = name.get(..32).unwrap_or(&name);
            state_dir.join("sessions").join(format!("{name}.json"))
        });
        SessionCache {
            file,
            memory: Vec::new(),
            ttl: SESSION_TTL,
        }
    }

    /// A process-local cache.
    pub fn in_memory() -> SessionCache {
        SessionCache {
            file: None,
            memory: Vec::new(),
            ttl: SESSION_TTL,
        }
    }

    /// The session file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Whether `action` was approved in this session within the last 5 minutes.
    pub fn is_approved(&self, action: &Action) -> bool {
        self.is_approved_at(action, unix_now())
    }

    /// [`SessionCache::is_approved`] at a given time (unix seconds).
    pub fn is_approved_at(&self, action: &Action, now: i64) -> bool {
        let k = key(action);
        let fresh = |i: &Item| i.key == k && i.at <= now && now - i.at < self.ttl.as_secs() as i64;
        self.memory.iter().any(fresh) || self.read().entries.iter().any(fresh)
    }

    /// Remember that `action` was approved now.
    pub fn remember(&mut self, action: &Action) -> Result<(), StoreError> {
        self.remember_at(action, unix_now())
    }

    /// [`SessionCache::remember`] at a given time (unix seconds). The approval is always kept
    /// in memory; an error means it could not be shared with other processes.
    pub fn remember_at(&mut self, action: &Action, now: i64) -> Result<(), StoreError> {
        let item = Item {
            key: key(action),
            at: now,
        };
        self.memory.retain(|i| i.key != item.key);
        self.memory.push(item.clone());
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        crate::paths::ensure_private_dir(dir).map_err(|e| StoreError::Io {
            what: "cannot create directory",
            path: dir.to_path_buf(),
            source: e,
        })?;
        {
            let _lock = FileLock::acquire(&atomic::lock_path(&path), DEFAULT_LOCK_WAIT)?;
            let mut file = self.read();
            let ttl = self.ttl.as_secs() as i64;
            file.entries
                .retain(|i| i.key != item.key && now - i.at < ttl && i.at <= now);
            file.entries.push(item);
            let bytes = serde_json::to_vec(&file).map_err(|e| StoreError::Encode {
                path: path.clone(),
                message: e.to_string(),
            })?;
            atomic::write_atomic(&path, &bytes)?;
        }
        sweep(dir, &path);
        Ok(())
    }

    fn read(&self) -> File {
        self.file
            .as_ref()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }
}

/// Remove other sessions' files (and their locks) untouched for a day.
fn sweep(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let keep_lock = atomic::lock_path(keep);
    for e in entries.flatten() {
        let p = e.path();
        if p == keep || p == keep_lock {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > SWEEP_AGE);
        if old {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_whitespace_but_not_kind() {
        let a = Action::command("rm  -rf build");
        let b = Action::command("rm -rf build");
        assert_eq!(key(&a), key(&b));
        let c = Action::Sql {
            sql: "rm -rf build".into(),
            dialect: None,
        };
        assert_ne!(key(&a), key(&c));
    }

    #[test]
    fn memory_cache_expires() {
        let mut c = SessionCache::in_memory();
        let a = Action::command("git push origin main");
        c.remember_at(&a, 1_000).unwrap();
        assert!(c.is_approved_at(&a, 1_000 + 299));
        assert!(!c.is_approved_at(&a, 1_000 + 300));
        assert!(!c.is_approved_at(&Action::command("git push"), 1_001));
    }
}
