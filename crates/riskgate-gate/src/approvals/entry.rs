//! Reading `approved_patterns` / `denied_patterns` entries: leniently (a bare string is a
//! pattern for any kind), skipping malformed ones with a reason, and matching them against
//! actions.

use riskgate_model::{Action, ActionKind};
use serde::Serialize;
use serde_json::Value;
use time::OffsetDateTime;

use crate::clock;
use crate::pattern::{MatchMode, Pattern, normalize_pattern};

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
    /// A denial (an unknown kind then applies to every kind).
    #[serde(skip)]
    denied: bool,
    #[serde(skip)]
    compiled: Option<Pattern>,
    #[serde(skip)]
    expires: Option<OffsetDateTime>,
}

impl Entry {
    /// Whether the entry applies to an action of `kind`, from a workflow node of type
    /// `node_type` if any. `node_type` is an action kind name, `shell` / `bash` (commands), or
    /// a workflow node type (`http`, `git` …: actions of nodes of that type). A denial whose
    /// `node_type` is no action kind applies to every kind: a denial is never narrowed by a
    /// name riskgate cannot place.
    fn applies_to(&self, kind: ActionKind, node_type: Option<&str>) -> bool {
        match self.kind.as_deref() {
            None | Some("*") | Some("") => true,
            Some("shell") | Some("bash") => kind == ActionKind::Command,
            Some(k) if k.eq_ignore_ascii_case(kind.as_str()) => true,
            Some(k) if node_type.is_some_and(|n| n.eq_ignore_ascii_case(k)) => true,
            Some(k) => self.denied && !is_action_kind(k),
        }
    }

    fn matches(&self, action: &Action, subject: &str, node_type: Option<&str>) -> bool {
        self.applies_to(action.kind(), node_type)
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
    /// The file could not be fully read (damaged, unreadable, a denial without a usable
    /// pattern): a standing denial may be missing, so the gate asks for everything it could
    /// have covered.
    pub unreadable: bool,
    /// The file is damaged in a way a rewrite repairs (not an I/O error).
    #[serde(skip)]
    pub(crate) repairable: bool,
}

impl Snapshot {
    /// The first unexpired approval matching `action`.
    pub fn approval_for(&self, action: &Action) -> Option<&Entry> {
        self.approval_for_node(action, None)
    }

    /// The first unexpired approval matching `action` of a workflow node of type `node_type`
    /// (entries stored for that node type apply too).
    pub fn approval_for_node(&self, action: &Action, node_type: Option<&str>) -> Option<&Entry> {
        let subject = action.subject();
        self.approved
            .iter()
            .find(|e| !e.expired && e.matches(action, &subject, node_type))
    }

    /// The first denial matching `action`.
    pub fn denial_for(&self, action: &Action) -> Option<&Entry> {
        self.denial_for_node(action, None)
    }

    /// The first denial matching `action` of a workflow node of type `node_type`.
    pub fn denial_for_node(&self, action: &Action, node_type: Option<&str>) -> Option<&Entry> {
        let subject = action.subject();
        self.denied
            .iter()
            .find(|e| e.matches(action, &subject, node_type))
    }
}

/// Whether `name` is an [`ActionKind`] name.
fn is_action_kind(name: &str) -> bool {
    [
        ActionKind::Command,
        ActionKind::Code,
        ActionKind::Sql,
        ActionKind::FileWrite,
        ActionKind::ChangeSet,
        ActionKind::Fetch,
        ActionKind::Workflow,
    ]
    .iter()
    .any(|k| k.as_str().eq_ignore_ascii_case(name))
}

/// (normalized pattern, node_type) of a raw entry.
pub(crate) fn entry_key(v: &Value) -> (Option<String>, Option<String>) {
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

/// A denial read for its pattern alone (its other fields malformed): `None` without a usable
/// pattern. A node type that is not a string makes it apply to every kind.
pub(crate) fn lenient_denial(v: &Value, now: OffsetDateTime) -> Option<Entry> {
    let (pattern, kind) = match v {
        Value::String(s) => (s.clone(), None),
        Value::Object(m) => (
            m.get("pattern")?.as_str()?.to_string(),
            m.get("node_type")
                .and_then(Value::as_str)
                .map(str::to_string),
        ),
        _ => return None,
    };
    parse_entry(
        &serde_json::json!({"pattern": pattern, "node_type": kind}),
        true,
        now,
    )
    .ok()
}

pub(crate) fn parse_entry(v: &Value, denied: bool, now: OffsetDateTime) -> Result<Entry, String> {
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
        denied,
        expires_at: if denied { None } else { expires_at },
        expires,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert!(e.applies_to(ActionKind::Command, None) && !e.applies_to(ActionKind::Sql, None));
        // a workflow node type: its nodes' actions only, for an approval …
        let e = parse_entry(&json!({"pattern": "x", "node_type": "http"}), false, now).unwrap();
        assert!(e.applies_to(ActionKind::Command, Some("HTTP")));
        assert!(!e.applies_to(ActionKind::Command, Some("shell")));
        assert!(!e.applies_to(ActionKind::Command, None));
        // … every kind for a denial
        let d = parse_entry(&json!({"pattern": "x", "node_type": "http"}), true, now).unwrap();
        assert!(d.applies_to(ActionKind::Command, None) && d.applies_to(ActionKind::Sql, None));
        let d = parse_entry(&json!({"pattern": "x", "node_type": "sql"}), true, now).unwrap();
        assert!(!d.applies_to(ActionKind::Command, None));
        assert!(parse_entry(&json!({"pattern": 3}), false, now).is_err());
        assert!(parse_entry(&json!({"pattern": "x", "expires_at": "soon"}), false, now).is_err());
        assert!(parse_entry(&json!(42), false, now).is_err());
        assert!(parse_entry(&json!({"pattern": "  "}), false, now).is_err());
    }
}
