//! `riskgate config show`: every effective value as a row (key, value, source).

use serde::Serialize;

use super::{Policy, Source};

/// One effective setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShowRow {
    /// The key, dotted (`hooks.ask_fallback`, `blocked_paths[3]`, `agents.claude`).
    pub key: String,
    /// The value as text.
    pub value: String,
    /// Where it comes from (`built-in`, `user file …`, `project file …`, `command line` …).
    pub source: String,
    /// Set by the managed policy: no other layer can change or remove it.
    pub managed: bool,
}

fn row(key: impl Into<String>, value: impl Into<String>, source: &Source) -> ShowRow {
    ShowRow {
        key: key.into(),
        value: value.into(),
        source: source.to_string(),
        managed: source.is_managed(),
    }
}

impl Policy {
    /// Every effective value with its source, in a stable order.
    pub fn show(&self) -> Vec<ShowRow> {
        let mut rows = Vec::new();
        if let Some(path) = self.managed_file() {
            let src = Source::Managed(path.to_path_buf());
            rows.push(row(
                "managed.revision",
                self.revision().unwrap_or("(not a git checkout)"),
                &src,
            ));
        }
        rows.push(row(
            "environment",
            self.environment.value.to_string(),
            &self.environment.source,
        ));
        rows.push(row(
            "profile",
            self.profile.value.to_string(),
            &self.profile.source,
        ));
        rows.push(row(
            "approval_timeout",
            format!("{}s", self.approval_timeout.value),
            &self.approval_timeout.source,
        ));
        rows.push(row(
            "approval_ttl_days",
            self.approval_ttl_days.value.to_string(),
            &self.approval_ttl_days.source,
        ));
        rows.push(row(
            "state_dir",
            self.state_dir.value.display().to_string(),
            &self.state_dir.source,
        ));
        rows.push(row(
            "data_dir",
            self.data_dir.value.display().to_string(),
            &self.data_dir.source,
        ));
        rows.push(row(
            "hooks.ask_fallback",
            self.ask_fallback.value.to_string(),
            &self.ask_fallback.source,
        ));
        rows.push(row(
            "protected_branches",
            self.protected_branches.value.join(", "),
            &self.protected_branches.source,
        ));
        if self.agents.is_empty() {
            rows.push(row(
                "agents",
                "(none: named agents are untrusted)",
                &Source::Builtin,
            ));
        }
        for (name, t) in &self.agents {
            rows.push(row(
                format!("agents.{name}"),
                t.value.to_string(),
                &t.source,
            ));
        }
        for (i, p) in self.patterns.iter().enumerate() {
            let mut v = format!(
                "{} -> {} (matches {})",
                p.pattern.as_str(),
                p.level,
                p.pattern.match_kind()
            );
            if let Some(d) = &p.description {
                v.push_str(&format!(" ({d})"));
            }
            rows.push(row(format!("patterns[{i}]"), v, &p.source));
        }
        for (i, p) in self.overrides.iter().enumerate() {
            let mut v = format!(
                "{} -> {} (matches {})",
                p.pattern.as_str(),
                p.level,
                p.pattern.match_kind()
            );
            if let Some(d) = &p.description {
                v.push_str(&format!(" ({d})"));
            }
            rows.push(row(format!("overrides[{i}]"), v, &p.source));
        }
        if self.allowed_paths.is_empty() {
            rows.push(row("allowed_paths", "(any)", &self.allowed_source));
        }
        for (i, g) in self.allowed_paths.iter().enumerate() {
            rows.push(row(format!("allowed_paths[{i}]"), shown_glob(g), &g.source));
        }
        for (i, g) in self.blocked_paths.iter().enumerate() {
            rows.push(row(format!("blocked_paths[{i}]"), shown_glob(g), &g.source));
        }
        for (i, r) in self.rules_extra.iter().enumerate() {
            rows.push(row(
                format!("rules.extra[{i}]"),
                r.value.display().to_string(),
                &r.source,
            ));
        }
        for (_, s) in &self.mcp_tools {
            rows.push(row(
                format!("mcp.tools.{}", s.value.0),
                s.value.1.to_string(),
                &s.source,
            ));
        }
        for (i, r) in self.two_reviewers.iter().enumerate() {
            rows.push(row(
                format!("approvals.two_reviewers[{i}]"),
                r.pattern.as_str(),
                &r.source,
            ));
        }
        if let Some(u) = &self.audit_url {
            rows.push(row("audit.url", u.value.clone(), &u.source));
        }
        if let Some(w) = &self.webhook {
            rows.push(row("approvals.webhook", w.value.to_string(), &w.source));
        }
        rows
    }
}

fn shown_glob(g: &super::PathGlob) -> String {
    if g.glob == g.written {
        g.written.clone()
    } else {
        format!("{} ({})", g.written, g.glob)
    }
}
