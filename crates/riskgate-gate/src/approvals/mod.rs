//! Standing approvals and denials in `settings.json` (seed 000):
//!
//! ```json
//! {"risk_acceptance": {
//!    "approved_patterns": [{"pattern": "sudo systemctl restart nginx", "node_type": "command",
//!                           "approved_at": "2024-01-15T10:30:00Z", "expires_at": "2024-02-14T10:30:00Z"}],
//!    "denied_patterns":   [{"pattern": "terraform destroy*", "node_type": null, "denied_at": "…"}]}}
//! ```
//!
//! - Every other key of the file keeps its place and its exact text; so do entries riskgate
//!   cannot read ([`doc`]).
//! - Patterns are normalized (templates `${x}` / `$x` → `*`); `*` matches everything; an
//!   approval's star does not cross command separators ([`crate::pattern`]). `node_type` is an
//!   [`riskgate_model::ActionKind`] name (`command`, `sql` …; `shell` means `command`); absent
//!   or `*` means any kind.
//! - Expired approvals are ignored (and removed by [`ApprovalStore::prune`]); `expires_at: null`
//!   never expires.
//! - Loaded lazily, on the first question. A malformed entry is skipped with a warning. A file
//!   that is not a JSON object is ignored on read (with a warning) and moved aside to
//!   `settings.json.corrupt-<time>` on the next write, which starts a fresh file.
//! - Writes: lock `settings.json.lock`, re-read, merge, write atomically ([`crate::atomic`]).

mod doc;
mod entry;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::value::RawValue;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::atomic::{self, DEFAULT_LOCK_WAIT, FileLock};
use crate::clock;
use crate::error::StoreError;
use crate::pattern::normalize_pattern;
use doc::{RawObject, quote, raw, render_list};
use entry::{entry_key, parse_entry};

pub use entry::{Entry, Snapshot};

const ROOT: &str = "risk_acceptance";
const APPROVED: &str = "approved_patterns";
const DENIED: &str = "denied_patterns";

/// The approvals store at one `settings.json`.
#[derive(Debug)]
pub struct ApprovalStore {
    path: PathBuf,
    lock_wait: Duration,
    fixed_now: Option<OffsetDateTime>,
    cache: Option<Snapshot>,
}

/// The result of a write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Update {
    /// Entries replaced or removed.
    pub changed: usize,
    /// What had to be repaired on the way (a corrupt file moved aside …).
    pub warnings: Vec<String>,
}

type Lists = (Vec<Box<RawValue>>, Vec<Box<RawValue>>);

impl ApprovalStore {
    /// A store at `path` (nothing is read until asked).
    pub fn new(path: impl Into<PathBuf>) -> ApprovalStore {
        ApprovalStore {
            path: path.into(),
            lock_wait: DEFAULT_LOCK_WAIT,
            fixed_now: None,
            cache: None,
        }
    }

    /// Wait at most `wait` for the lock when writing.
    pub fn with_lock_wait(mut self, wait: Duration) -> ApprovalStore {
        self.lock_wait = wait;
        self
    }

    /// Use a fixed clock (tests).
    pub fn with_now(mut self, now: OffsetDateTime) -> ApprovalStore {
        self.fixed_now = Some(now);
        self.cache = None;
        self
    }

    /// The settings file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn now(&self) -> OffsetDateTime {
        self.fixed_now.unwrap_or_else(clock::now)
    }

    /// The file's contents (read once, then cached until the next write by this store).
    pub fn snapshot(&mut self) -> &Snapshot {
        if self.cache.is_none() {
            self.cache = Some(self.read());
        }
        self.cache.get_or_insert_with(Snapshot::default)
    }

    /// Forget the cached contents (the next question reads the file again).
    pub fn reload(&mut self) {
        self.cache = None;
    }

    /// Read the file now, without the lock (a rename makes every read whole).
    pub fn read(&self) -> Snapshot {
        let name = self.path.display();
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Snapshot::default(),
            Err(e) => {
                return Snapshot {
                    warnings: vec![format!(
                        "cannot read {name}: {e}; no standing approvals used"
                    )],
                    ..Snapshot::default()
                };
            }
        };
        let root = match RawObject::parse(&text) {
            Ok(o) => o,
            Err(e) => return corrupt_snapshot(&name, e.to_string()),
        };
        let mut snap = Snapshot::default();
        let Some(ra) = root.get(ROOT) else {
            return snap;
        };
        let Ok(ra) = serde_json::from_str::<serde_json::Map<String, Value>>(ra.get()) else {
            snap.warnings
                .push(format!("{name}: `{ROOT}` is not an object; ignored"));
            return snap;
        };
        let now = self.now();
        for (list, denied) in [(APPROVED, false), (DENIED, true)] {
            let Some(v) = ra.get(list) else { continue };
            let Some(items) = v.as_array() else {
                snap.warnings
                    .push(format!("{name}: `{ROOT}.{list}` is not a list; ignored"));
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                match parse_entry(item, denied, now) {
                    Ok(e) if denied => snap.denied.push(e),
                    Ok(e) => snap.approved.push(e),
                    Err(why) => snap
                        .warnings
                        .push(format!("{name}: `{ROOT}.{list}[{i}]` skipped: {why}")),
                }
            }
        }
        snap
    }

    /// Approve `pattern` for `kind` (`None`: any) for `days` (`None`: never expires).
    /// Replaces an approval of the same pattern and kind, and removes the same denial.
    pub fn add(
        &mut self,
        pattern: &str,
        kind: Option<&str>,
        days: Option<u32>,
    ) -> Result<Update, StoreError> {
        let pattern = checked(pattern)?;
        let now = self.now();
        let expires = days.map(|d| now + time::Duration::days(i64::from(d)));
        let entry = raw(json!({
            "pattern": pattern,
            "node_type": kind,
            "approved_at": clock::format(now),
            "expires_at": expires.map(clock::format),
        })
        .to_string());
        self.update(|(approved, denied)| {
            let removed =
                remove_same(approved, &pattern, kind) + remove_same(denied, &pattern, kind);
            approved.push(entry);
            removed
        })
    }

    /// Deny `pattern` for `kind` (`None`: any). Removes the same approval.
    pub fn deny(&mut self, pattern: &str, kind: Option<&str>) -> Result<Update, StoreError> {
        let pattern = checked(pattern)?;
        let entry = raw(json!({
            "pattern": pattern,
            "node_type": kind,
            "denied_at": clock::format(self.now()),
        })
        .to_string());
        self.update(|(approved, denied)| {
            let removed =
                remove_same(approved, &pattern, kind) + remove_same(denied, &pattern, kind);
            denied.push(entry);
            removed
        })
    }

    /// Remove approvals and denials of `pattern` (for `kind`, or every kind when `None`).
    /// `changed` is the number of entries removed.
    pub fn revoke(&mut self, pattern: &str, kind: Option<&str>) -> Result<Update, StoreError> {
        let pattern = checked(pattern)?;
        self.update(|(approved, denied)| {
            let mut removed = 0;
            for list in [approved, denied] {
                let before = list.len();
                list.retain(|r| match candidate_key(r, &pattern) {
                    Some((p, k)) => !(p == pattern && (kind.is_none() || k.as_deref() == kind)),
                    None => true,
                });
                removed += before - list.len();
            }
            removed
        })
    }

    /// Remove expired approvals. `changed` is the number removed.
    pub fn prune(&mut self) -> Result<Update, StoreError> {
        let now = self.now();
        self.update(|(approved, _)| {
            let before = approved.len();
            approved.retain(|r| {
                let v: Value = serde_json::from_str(r.get()).unwrap_or(Value::Null);
                !matches!(parse_entry(&v, false, now), Ok(e) if e.expired)
            });
            before - approved.len()
        })
    }

    /// Lock, re-read, let `f` change the two lists, write atomically.
    fn update<F>(&mut self, f: F) -> Result<Update, StoreError>
    where
        F: FnOnce(&mut Lists) -> usize,
    {
        self.cache = None;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::paths::ensure_private_dir(dir).map_err(|e| StoreError::Io {
                what: "cannot create directory",
                path: dir.to_path_buf(),
                source: e,
            })?;
        }
        let _lock = FileLock::acquire(&atomic::lock_path(&self.path), self.lock_wait)?;
        let mut warnings = Vec::new();
        let mut root = self.read_for_update(&mut warnings)?;
        let mut ra = match root.get(ROOT).map(|r| RawObject::parse(r.get())) {
            None => RawObject::default(),
            Some(Ok(o)) => o,
            Some(Err(_)) => {
                let backup = self.backup_copy()?;
                warnings.push(format!(
                    "`{ROOT}` was not an object; reset it (old file kept as {})",
                    backup.display()
                ));
                RawObject::default()
            }
        };
        let mut lists: Lists = (Vec::new(), Vec::new());
        for (name, slot) in [(APPROVED, &mut lists.0), (DENIED, &mut lists.1)] {
            match ra
                .get(name)
                .map(|r| serde_json::from_str::<Vec<Box<RawValue>>>(r.get()))
            {
                None => {}
                Some(Ok(items)) => *slot = items,
                Some(Err(_)) => {
                    let backup = self.backup_copy()?;
                    warnings.push(format!(
                        "`{ROOT}.{name}` was not a list; reset it (old file kept as {})",
                        backup.display()
                    ));
                }
            }
        }
        let changed = f(&mut lists);
        ra.set(APPROVED, raw(render_list(&lists.0, 4)));
        ra.set(DENIED, raw(render_list(&lists.1, 4)));
        root.set(ROOT, raw(ra.render(2)));
        let mut text = root.render(0);
        text.push('\n');
        atomic::write_atomic(&self.path, text.as_bytes())?;
        Ok(Update { changed, warnings })
    }

    /// The file as an object; a corrupt one is moved aside (and a warning said).
    fn read_for_update(&self, warnings: &mut Vec<String>) -> Result<RawObject, StoreError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(RawObject::default()),
            Err(e) => {
                return Err(StoreError::Io {
                    what: "cannot read",
                    path: self.path.clone(),
                    source: e,
                });
            }
        };
        match RawObject::parse(&text) {
            Ok(o) => Ok(o),
            Err(e) => {
                let backup = backup_path(&self.path, self.now());
                std::fs::rename(&self.path, &backup).map_err(|err| StoreError::Io {
                    what: "cannot move aside",
                    path: self.path.clone(),
                    source: err,
                })?;
                warnings.push(format!(
                    "{} was not valid JSON ({e}); moved it to {} and started a fresh one",
                    self.path.display(),
                    backup.display()
                ));
                Ok(RawObject::default())
            }
        }
    }

    fn backup_copy(&self) -> Result<PathBuf, StoreError> {
        let backup = backup_path(&self.path, self.now());
        std::fs::copy(&self.path, &backup).map_err(|e| StoreError::Io {
            what: "cannot back up",
            path: self.path.clone(),
            source: e,
        })?;
        Ok(backup)
    }
}

/// The pattern as stored: normalized, its secrets replaced by `*` (see [`crate::redact`]).
fn checked(pattern: &str) -> Result<String, StoreError> {
    let p = normalize_pattern(&crate::redact::redact_pattern(pattern));
    if p.is_empty() {
        Err(StoreError::Invalid("empty pattern".into()))
    } else {
        Ok(p)
    }
}

fn corrupt_snapshot(name: &impl std::fmt::Display, why: String) -> Snapshot {
    Snapshot {
        warnings: vec![format!(
            "{name} is not valid ({why}); standing approvals ignored until it is repaired (the next write moves it aside)"
        )],
        ..Snapshot::default()
    }
}

/// `settings.json.corrupt-20240115T103000Z` (with `-N` if taken).
fn backup_path(path: &Path, now: OffsetDateTime) -> PathBuf {
    let stamp = clock::format(now).replace([':', '-'], "");
    let base = format!("{}.corrupt-{stamp}", path.display());
    let mut candidate = PathBuf::from(&base);
    let mut n = 1;
    while candidate.exists() {
        candidate = PathBuf::from(format!("{base}-{n}"));
        n += 1;
    }
    candidate
}

/// The (normalized pattern, node_type) of a raw entry that may have pattern `pattern`; `None`
/// when its text shows it cannot (the cheap test that keeps writes fast on big files).
fn candidate_key(r: &RawValue, pattern: &str) -> Option<(String, Option<String>)> {
    let text = r.get();
    let literal = quote(pattern);
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(&literal);
    let maybe = text.contains(inner)
        || text.contains('$')
        || text.contains("  ")
        || text.contains("**")
        || text.contains("\\t")
        || text.contains("\\n");
    if !maybe {
        return None;
    }
    let v: Value = serde_json::from_str(text).ok()?;
    match entry_key(&v) {
        (Some(p), k) => Some((p, k)),
        _ => None,
    }
}

fn remove_same(list: &mut Vec<Box<RawValue>>, pattern: &str, kind: Option<&str>) -> usize {
    let before = list.len();
    list.retain(|r| {
        candidate_key(r, pattern).is_none_or(|(p, k)| !(p == pattern && k.as_deref() == kind))
    });
    before - list.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backup_names_do_not_collide() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("settings.json");
        let now = clock::parse("2024-01-15T10:30:00Z").unwrap();
        let a = backup_path(&p, now);
        assert!(
            a.to_string_lossy()
                .ends_with("settings.json.corrupt-20240115T103000Z")
        );
        std::fs::write(&a, "x").unwrap();
        let b = backup_path(&p, now);
        assert!(b.to_string_lossy().ends_with("-1"));
    }

    #[test]
    fn candidates_are_found_through_templates_and_spacing() {
        let r = raw(r#"{"pattern": "sudo rm -rf ${path}", "node_type": "command"}"#.into());
        assert_eq!(
            candidate_key(&r, "sudo rm -rf *"),
            Some(("sudo rm -rf *".into(), Some("command".into())))
        );
        let r = raw(r#"{"pattern":"git push","node_type":null}"#.into());
        assert_eq!(candidate_key(&r, "git pull"), None);
        assert!(candidate_key(&r, "git push").is_some());
    }
}
