//! Standing approvals and denials in `settings.json` (seed 000):
//!
//! ```json
//! {"risk_acceptance": {
//!    "approved_patterns": [{"pattern": "sudo systemctl restart nginx", "node_type": "command",
//!                           "approved_at": "2024-01-15T10:30:00Z", "expires_at": "2024-02-14T10:30:00Z"}],
//!    "denied_patterns":   [{"pattern": "terraform destroy*", "node_type": null, "denied_at": "…"}]}}
//! ```
//!
//! - Every other key of the file is kept as it is; so are entries riskgate cannot read.
//! - Patterns are normalized (templates `${x}` / `$x` → `*`); `*` matches everything; an
//!   approval's star does not cross command separators ([`crate::pattern`]). `node_type` is an
//!   [`ActionKind`] name (`command`, `sql` …; `shell` means `command`); absent or `*` means any.
//! - Expired approvals are ignored (and removed by [`ApprovalStore::prune`]); `expires_at: null`
//!   never expires.
//! - Loaded lazily, on the first question. A malformed entry is skipped with a warning. A file
//!   that is not a JSON object is ignored on read (with a warning) and moved aside to
//!   `settings.json.corrupt-<time>` on the next write, which starts a fresh file.
//! - Writes: lock `settings.json.lock`, re-read, merge, write atomically ([`crate::atomic`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use riskgate_model::{Action, ActionKind};
use serde::Serialize;
use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use crate::atomic::{self, DEFAULT_LOCK_WAIT, FileLock};
use crate::clock;
use crate::error::StoreError;
use crate::pattern::{MatchMode, Pattern, normalize_pattern};

const ROOT: &str = "risk_acceptance";
const APPROVED: &str = "approved_patterns";
const DENIED: &str = "denied_patterns";

/// One readable entry of `approved_patterns` or `denied_patterns`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The normalized pattern.
    pub pattern: String,
    /// The action kind it applies to (`None`: any).
    pub kind: Option<String>,
    /// When it was approved or denied (RFC 3339), if recorded.
    pub at: Option<String>,
    /// When an approval expires (RFC 3339); `None`: never (and always for denials).
    pub expires_at: Option<String>,
    /// True when the approval has expired.
    pub expired: bool,
    #[serde(skip)]
    compiled: Option<Pattern>,
    #[serde(skip)]
    expires: Option<OffsetDateTime>,
}

impl Entry {
    fn applies_to(&self, kind: ActionKind) -> bool {
        match self.kind.as_deref() {
            None | Some("*") | Some("") => true,
            Some("shell") | Some("bash") => kind == ActionKind::Command,
            Some(k) => k.eq_ignore_ascii_case(kind.as_str()),
        }
    }

    fn matches(&self, action: &Action, subject: &str) -> bool {
        self.applies_to(action.kind())
            && self
                .compiled
                .as_ref()
                .is_some_and(|p| p.matches(subject, action.kind()))
    }

    /// A one-line description: `` `pattern` (command, expires 2024-02-14T10:30:00Z)``.
    pub fn describe(&self) -> String {
        let kind = self.kind.as_deref().unwrap_or("any kind");
        match &self.expires_at {
            Some(e) => format!("`{}` ({kind}, expires {e})", self.pattern),
            None => format!("`{}` ({kind})", self.pattern),
        }
    }
}

/// What the file holds, as read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Snapshot {
    /// Approved patterns, expired ones included (flagged).
    pub approved: Vec<Entry>,
    /// Denied patterns.
    pub denied: Vec<Entry>,
    /// Skipped entries and unreadable files.
    pub warnings: Vec<String>,
}

impl Snapshot {
    /// The first unexpired approval matching `action`.
    pub fn approval_for(&self, action: &Action) -> Option<&Entry> {
        let subject = action.subject();
        self.approved
            .iter()
            .find(|e| !e.expired && e.matches(action, &subject))
    }

    /// The first denial matching `action`.
    pub fn denial_for(&self, action: &Action) -> Option<&Entry> {
        let subject = action.subject();
        self.denied.iter().find(|e| e.matches(action, &subject))
    }
}

/// The approvals store at one `settings.json`.
#[derive(Debug)]
pub struct ApprovalStore {
    path: PathBuf,
    lock_wait: Duration,
    fixed_now: Option<OffsetDateTime>,
    cache: Option<Snapshot>,
}

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
        let root = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return corrupt_snapshot(&name, "the top level is not a JSON object".into()),
            Err(e) => return corrupt_snapshot(&name, e.to_string()),
        };
        let mut snap = Snapshot::default();
        let Some(ra) = root.get(ROOT) else {
            return snap;
        };
        let Some(ra) = ra.as_object() else {
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
        let entry = json!({
            "pattern": pattern,
            "node_type": kind,
            "approved_at": clock::format(now),
            "expires_at": expires.map(clock::format),
        });
        self.update(|approved, denied| {
            let removed =
                remove_same(approved, &pattern, kind) + remove_same(denied, &pattern, kind);
            approved.push(entry);
            removed
        })
    }

    /// Deny `pattern` for `kind` (`None`: any). Removes the same approval.
    pub fn deny(&mut self, pattern: &str, kind: Option<&str>) -> Result<Update, StoreError> {
        let pattern = checked(pattern)?;
        let entry = json!({
            "pattern": pattern,
            "node_type": kind,
            "denied_at": clock::format(self.now()),
        });
        self.update(|approved, denied| {
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
        self.update(|approved, denied| {
            let any = |list: &mut Vec<Value>| {
                let before = list.len();
                list.retain(|v| {
                    let (p, k) = entry_key(v);
                    !(p.as_deref() == Some(pattern.as_str())
                        && (kind.is_none() || k.as_deref() == kind))
                });
                before - list.len()
            };
            any(approved) + any(denied)
        })
    }

    /// Remove expired approvals. `changed` is the number removed.
    pub fn prune(&mut self) -> Result<Update, StoreError> {
        let now = self.now();
        self.update(|approved, _| {
            let before = approved.len();
            approved.retain(|v| !matches!(parse_entry(v, false, now), Ok(e) if e.expired));
            before - approved.len()
        })
    }

    /// Lock, re-read, let `f` change the two lists, write atomically.
    fn update<F>(&mut self, f: F) -> Result<Update, StoreError>
    where
        F: FnOnce(&mut Vec<Value>, &mut Vec<Value>) -> usize,
    {
        self.cache = None;
        let io = |what: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |e| StoreError::Io {
                what,
                path,
                source: e,
            }
        };
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::paths::ensure_private_dir(dir).map_err(io("cannot create directory", dir))?;
        }
        let _lock = FileLock::acquire(&atomic::lock_path(&self.path), self.lock_wait)?;
        let mut warnings = Vec::new();
        let mut root = match std::fs::read_to_string(&self.path) {
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(m)) => m,
                other => {
                    let why = match other {
                        Err(e) => e.to_string(),
                        Ok(_) => "the top level is not a JSON object".to_string(),
                    };
                    let backup = backup_path(&self.path, self.now());
                    std::fs::rename(&self.path, &backup)
                        .map_err(io("cannot move aside", &self.path))?;
                    warnings.push(format!(
                        "{} was not valid ({why}); moved it to {} and started a fresh one",
                        self.path.display(),
                        backup.display()
                    ));
                    Map::new()
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
            Err(e) => return Err(io("cannot read", &self.path)(e)),
        };
        let ra = root.entry(ROOT).or_insert_with(|| json!({}));
        if !ra.is_object() {
            let backup = self.backup_copy()?;
            warnings.push(format!(
                "`{ROOT}` was not an object; reset it (old file kept as {})",
                backup.display()
            ));
            *ra = json!({});
        }
        let Some(ra) = ra.as_object_mut() else {
            return Err(StoreError::Invalid(format!(
                "{}: `{ROOT}` unusable",
                self.path.display()
            )));
        };
        let mut lists = [Vec::new(), Vec::new()];
        for (slot, name) in lists.iter_mut().zip([APPROVED, DENIED]) {
            match ra.remove(name) {
                None => {}
                Some(Value::Array(items)) => *slot = items,
                Some(_) => {
                    let backup = self.backup_copy()?;
                    warnings.push(format!(
                        "`{ROOT}.{name}` was not a list; reset it (old file kept as {})",
                        backup.display()
                    ));
                }
            }
        }
        let [mut approved, mut denied] = lists;
        let changed = f(&mut approved, &mut denied);
        ra.insert(APPROVED.into(), Value::Array(approved));
        ra.insert(DENIED.into(), Value::Array(denied));
        let mut bytes =
            serde_json::to_vec_pretty(&Value::Object(root)).map_err(|e| StoreError::Encode {
                path: self.path.clone(),
                message: e.to_string(),
            })?;
        bytes.push(b'\n');
        atomic::write_atomic(&self.path, &bytes)?;
        Ok(Update { changed, warnings })
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

/// The result of a write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Update {
    /// Entries replaced or removed.
    pub changed: usize,
    /// What had to be repaired on the way (a corrupt file moved aside …).
    pub warnings: Vec<String>,
}

fn checked(pattern: &str) -> Result<String, StoreError> {
    let p = normalize_pattern(pattern);
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

/// (normalized pattern, node_type) of a raw entry.
fn entry_key(v: &Value) -> (Option<String>, Option<String>) {
    match v {
        Value::String(s) => (Some(normalize_pattern(s)), None),
        Value::Object(m) => (
            m.get("pattern")
                .and_then(Value::as_str)
                .map(normalize_pattern),
            m.get("node_type")
                .and_then(Value::as_str)
                .map(str::to_string),
        ),
        _ => (None, None),
    }
}

fn remove_same(list: &mut Vec<Value>, pattern: &str, kind: Option<&str>) -> usize {
    let before = list.len();
    list.retain(|v| entry_key(v) != (Some(pattern.to_string()), kind.map(str::to_string)));
    before - list.len()
}

fn parse_entry(v: &Value, denied: bool, now: OffsetDateTime) -> Result<Entry, String> {
    let mode = if denied {
        MatchMode::WholeIgnoreCase
    } else {
        MatchMode::Whole
    };
    let (pattern, kind, at, expires_at) = match v {
        Value::String(s) => (s.clone(), None, None, None),
        Value::Object(m) => {
            let pattern = match m.get("pattern") {
                Some(Value::String(s)) => s.clone(),
                Some(_) => return Err("`pattern` is not a string".into()),
                None => return Err("no `pattern`".into()),
            };
            let text = |k: &str| -> Result<Option<String>, String> {
                match m.get(k) {
                    None | Some(Value::Null) => Ok(None),
                    Some(Value::String(s)) => Ok(Some(s.clone())),
                    Some(_) => Err(format!("`{k}` is not a string")),
                }
            };
            let at = text(if denied { "denied_at" } else { "approved_at" })?;
            (pattern, text("node_type")?, at, text("expires_at")?)
        }
        _ => return Err("not a pattern string or an object".into()),
    };
    let normalized = normalize_pattern(&pattern);
    if normalized.is_empty() {
        return Err("empty `pattern`".into());
    }
    if let Some(a) = &at
        && clock::parse(a).is_none()
    {
        return Err(format!("`{a}` is not an RFC 3339 time"));
    }
    let expires = match &expires_at {
        Some(e) => Some(
            clock::parse(e).ok_or_else(|| format!("expires_at `{e}` is not an RFC 3339 time"))?,
        ),
        None => None,
    };
    Ok(Entry {
        compiled: Some(Pattern::new(&normalized, mode)),
        pattern: normalized,
        kind,
        at,
        expired: !denied && expires.is_some_and(|e| e <= now),
        expires_at: if denied { None } else { expires_at },
        expires,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_entry_variants() {
        let now = clock::parse("2024-01-20T00:00:00Z").unwrap();
        let e = parse_entry(&json!("sudo rm -rf ${path}"), false, now).unwrap();
        assert_eq!(e.pattern, "sudo rm -rf *");
        assert!(!e.expired);
        let e = parse_entry(
            &json!({"pattern": "x", "node_type": "shell", "approved_at": "2024-01-01T00:00:00Z", "expires_at": "2024-01-10T00:00:00Z"}),
            false,
            now,
        )
        .unwrap();
        assert!(e.expired);
        assert!(e.applies_to(ActionKind::Command) && !e.applies_to(ActionKind::Sql));
        assert!(parse_entry(&json!({"pattern": 3}), false, now).is_err());
        assert!(parse_entry(&json!({"pattern": "x", "expires_at": "soon"}), false, now).is_err());
        assert!(parse_entry(&json!(42), false, now).is_err());
        assert!(parse_entry(&json!({"pattern": "  "}), false, now).is_err());
    }

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
}
