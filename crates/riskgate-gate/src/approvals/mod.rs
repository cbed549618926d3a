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
//!   [`riskgate_model::ActionKind`] name (`command`, `sql` …; `shell` means `command`) or a
//!   workflow node type (`http`, `git` …: a workflow node's answer is stored under its own
//!   type, and applies to nodes of that type; a denial under a name that is no action kind
//!   applies to every kind); absent or `*` means any kind.
//! - Expired approvals are ignored (and removed by [`ApprovalStore::prune`]); `expires_at: null`
//!   never expires.
//! - Loaded lazily, on the first question. A UTF-8 byte order mark is ignored. A malformed
//!   approval is skipped with a warning; a malformed denial still denies its pattern when it
//!   has one.
//! - A damaged file (not UTF-8, not JSON, cut short, `risk_acceptance` or a list of the wrong
//!   type) is never dropped: every entry that still parses on its own is recovered
//!   ([`recover`]), the file is copied aside to `settings.json.corrupt-<time>` (never
//!   overwriting an earlier copy) and rewritten with what was recovered — on the first read
//!   (under the lock, briefly) or else on the next write. Until then the snapshot is
//!   [`Snapshot::unreadable`]: the gate asks for everything a lost denial could have covered.
//! - Writes: lock `settings.json.lock`, re-read, merge, write atomically ([`crate::atomic`]): no
//!   approval or denial of the file is ever dropped by another process's write.

mod doc;
mod entry;
mod recover;

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
use entry::{entry_key, lenient_denial, parse_entry};

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
            let mut snap = self.read();
            if snap.repairable {
                // move the damaged file aside and keep what was recovered; if the lock is busy
                // the next write does it
                let wait = self.lock_wait.min(REPAIR_LOCK_WAIT);
                match self.update_waiting(wait, |_| 0) {
                    Ok(u) => snap.warnings.extend(u.warnings),
                    Err(e) => snap
                        .warnings
                        .push(format!("could not repair {} now: {e}", self.path.display())),
                }
            }
            self.cache = Some(snap);
        }
        self.cache.get_or_insert_with(Snapshot::default)
    }

    /// Forget the cached contents (the next question reads the file again).
    pub fn reload(&mut self) {
        self.cache = None;
    }

    /// Read the file now, without the lock (a rename makes every read whole). A damaged file
    /// gives what could be recovered from it, marked [`Snapshot::unreadable`].
    pub fn read(&self) -> Snapshot {
        let name = self.path.display();
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Snapshot::default(),
            Err(e) => {
                return Snapshot {
                    warnings: vec![format!(
                        "cannot read {name}: {e}; no standing approvals used, and every action a standing denial could cover needs a person"
                    )],
                    unreadable: true,
                    ..Snapshot::default()
                };
            }
        };
        let decoded = recover::decode(&bytes);
        let mut snap = Snapshot::default();
        let (approved, denied) = match strict_lists(&decoded) {
            Ok(lists) => lists,
            Err(why) => {
                let approved = recover::recover_list(&decoded.text, APPROVED);
                let denied = recover::recover_list(&decoded.text, DENIED);
                snap.unreadable = true;
                snap.repairable = true;
                snap.warnings.push(format!(
                    "{name} is damaged ({why}); recovered {} approval(s) and {} denial(s) from it; until it is repaired, every action a lost denial could cover needs a person",
                    approved.len(),
                    denied.len()
                ));
                (values(&approved), values(&denied))
            }
        };
        let now = self.now();
        for (i, item) in approved.iter().enumerate() {
            match parse_entry(item, false, now) {
                Ok(e) => snap.approved.push(e),
                Err(why) => snap
                    .warnings
                    .push(format!("{name}: `{ROOT}.{APPROVED}[{i}]` skipped: {why}")),
            }
        }
        for (i, item) in denied.iter().enumerate() {
            match parse_entry(item, true, now) {
                Ok(e) => snap.denied.push(e),
                Err(why) => match lenient_denial(item, now) {
                    Some(e) => {
                        snap.warnings.push(format!(
                            "{name}: `{ROOT}.{DENIED}[{i}]`: {why}; its pattern is denied all the same"
                        ));
                        snap.denied.push(e);
                    }
                    None => {
                        snap.unreadable = true;
                        snap.warnings.push(format!(
                            "{name}: `{ROOT}.{DENIED}[{i}]` cannot be read ({why}); every action it could cover needs a person"
                        ));
                    }
                },
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
        self.update_waiting(self.lock_wait, f)
    }

    /// [`Self::update`], waiting at most `wait` for the lock.
    fn update_waiting<F>(&mut self, wait: Duration, f: F) -> Result<Update, StoreError>
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
        let _lock = FileLock::acquire(&atomic::lock_path(&self.path), wait)?;
        let mut warnings = Vec::new();
        let (mut root, mut ra, mut lists) = self.read_for_update(&mut warnings)?;
        let changed = f(&mut lists);
        ra.set(APPROVED, raw(render_list(&lists.0, 4)));
        ra.set(DENIED, raw(render_list(&lists.1, 4)));
        root.set(ROOT, raw(ra.render(2)));
        let mut text = root.render(0);
        text.push('\n');
        atomic::write_atomic(&self.path, text.as_bytes())?;
        Ok(Update { changed, warnings })
    }

    /// The file as (root object, `risk_acceptance` object, lists), under the lock. A damaged
    /// file is copied aside (never overwriting an earlier copy) and what can be recovered from
    /// it kept: its other keys when the root is an object, and every entry that parses on its
    /// own.
    fn read_for_update(
        &self,
        warnings: &mut Vec<String>,
    ) -> Result<(RawObject, RawObject, Lists), StoreError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((RawObject::default(), RawObject::default(), Lists::default()));
            }
            Err(e) => {
                return Err(StoreError::Io {
                    what: "cannot read",
                    path: self.path.clone(),
                    source: e,
                });
            }
        };
        let decoded = recover::decode(&bytes);
        let why = match strict_objects(&decoded) {
            Ok(parts) => return Ok(parts),
            Err(why) => why,
        };
        let backup = self.backup_copy()?;
        let root = if decoded.lossy {
            RawObject::default()
        } else {
            RawObject::parse(&decoded.text).unwrap_or_default()
        };
        let ra = root
            .get(ROOT)
            .and_then(|r| RawObject::parse(r.get()).ok())
            .unwrap_or_default();
        let lists = (
            recover::recover_list(&decoded.text, APPROVED),
            recover::recover_list(&decoded.text, DENIED),
        );
        warnings.push(format!(
            "{} was damaged ({why}); copied it to {} and kept the {} approval(s) and {} denial(s) recovered from it",
            self.path.display(),
            backup.display(),
            lists.0.len(),
            lists.1.len()
        ));
        Ok((root, ra, lists))
    }

    fn backup_copy(&self) -> Result<PathBuf, StoreError> {
        let backup = backup_path(&self.path, self.now());
        let err = |e| StoreError::Io {
            what: "cannot back up",
            path: self.path.clone(),
            source: e,
        };
        let bytes = std::fs::read(&self.path).map_err(err)?;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&backup)
            .map_err(err)?;
        std::io::Write::write_all(&mut file, &bytes).map_err(err)?;
        Ok(backup)
    }
}

/// How long a read waits for the lock to repair a damaged file (the next write repairs it
/// otherwise).
const REPAIR_LOCK_WAIT: Duration = Duration::from_millis(250);

/// The file's three levels, if it is clean: root object, `risk_acceptance` object, lists.
fn strict_objects(decoded: &recover::Decoded) -> Result<(RawObject, RawObject, Lists), String> {
    if decoded.lossy {
        return Err("not UTF-8".into());
    }
    let root = RawObject::parse(&decoded.text).map_err(|e| format!("not valid JSON: {e}"))?;
    let ra = match root.get(ROOT) {
        None => RawObject::default(),
        Some(r) => RawObject::parse(r.get()).map_err(|_| format!("`{ROOT}` is not an object"))?,
    };
    let mut lists = Lists::default();
    for (name, slot) in [(APPROVED, &mut lists.0), (DENIED, &mut lists.1)] {
        if let Some(r) = ra.get(name) {
            *slot = serde_json::from_str::<Vec<Box<RawValue>>>(r.get())
                .map_err(|_| format!("`{ROOT}.{name}` is not a list"))?;
        }
    }
    Ok((root, ra, lists))
}

/// The two lists' items, if the file is clean.
fn strict_lists(decoded: &recover::Decoded) -> Result<(Vec<Value>, Vec<Value>), String> {
    let (_, _, (approved, denied)) = strict_objects(decoded)?;
    Ok((values(&approved), values(&denied)))
}

fn values(items: &[Box<RawValue>]) -> Vec<Value> {
    items
        .iter()
        .map(|r| serde_json::from_str(r.get()).unwrap_or(Value::Null))
        .collect()
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
