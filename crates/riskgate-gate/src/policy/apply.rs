//! Applying one layer (a parsed policy file, `--set`, flags) on top of the policy: lists
//! accumulate, scalars are replaced, and what a project file or the managed policy forbids is
//! ignored with a warning.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use riskgate_model::RiskLevel;

use super::file::PolicyFile;
use super::locate::find_line;
use super::managed::pinned;
use super::{
    AskFallback, Environment, PathGlob, PatternRule, Policy, Profile, Source, Sourced, Trust,
};
use crate::cmdpattern::{Direction, PolicyPattern};
use crate::error::PolicyError;
use crate::paths;

pub(super) fn glob(pattern: &str, literal_separator: bool) -> Result<globset::GlobMatcher, String> {
    GlobBuilder::new(pattern)
        .literal_separator(literal_separator)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.kind().to_string())
}

impl Policy {
    pub(super) fn apply(
        &mut self,
        f: PolicyFile,
        src: &Source,
        base: &Path,
        path: &Path,
        text: &str,
    ) -> Result<(), PolicyError> {
        let invalid = |key: String, written: &str, message: String| PolicyError::Invalid {
            path: path.to_path_buf(),
            line: find_line(text, written),
            key,
            message,
        };
        for (i, e) in f.patterns.into_iter().flatten().enumerate() {
            if e.pattern.trim().is_empty() {
                return Err(invalid(
                    format!("patterns[{i}]"),
                    "patterns",
                    "empty pattern".into(),
                ));
            }
            self.patterns.push(PatternRule {
                pattern: PolicyPattern::new(&e.pattern, Direction::Raise),
                level: e.level.unwrap_or(RiskLevel::Critical),
                description: e.description,
                source: src.clone(),
            });
        }
        for (i, e) in f.overrides.map(|o| o.0).into_iter().flatten().enumerate() {
            if e.pattern.trim().is_empty() {
                return Err(invalid(
                    format!("overrides[{i}]"),
                    "overrides",
                    "empty pattern".into(),
                ));
            }
            self.overrides.push(PatternRule {
                pattern: PolicyPattern::new(&e.pattern, Direction::Lower),
                level: e.level.unwrap_or(RiskLevel::Medium),
                description: e.description,
                source: src.clone(),
            });
        }
        let managed_lists = !src.is_managed() && self.allowed_source.is_managed();
        if let Some(list) = f.allowed_paths.filter(|_| {
            if managed_lists {
                self.warnings.push(format!(
                    "{src}: `allowed_paths` ignored: {} sets them, and no other layer can replace them",
                    self.allowed_source
                ));
            }
            !managed_lists
        }) {
            let mut out = Vec::new();
            for (i, w) in list.iter().enumerate() {
                let g = anchor(w, src, base);
                glob(&g, true).map_err(|m| invalid(format!("allowed_paths[{i}]"), w, m))?;
                out.push(PathGlob {
                    written: w.clone(),
                    glob: g,
                    source: src.clone(),
                });
            }
            self.allowed_paths = out;
            self.allowed_source = src.clone();
        }
        for (i, w) in f.blocked_paths.iter().flatten().enumerate() {
            let g = anchor(w, src, base);
            glob(&g, true).map_err(|m| invalid(format!("blocked_paths[{i}]"), w, m))?;
            self.blocked_paths.push(PathGlob {
                written: w.clone(),
                glob: g,
                source: src.clone(),
            });
        }
        if let Some(list) = f.protected_branches {
            for (i, w) in list.iter().enumerate() {
                glob(w, true).map_err(|m| invalid(format!("protected_branches[{i}]"), w, m))?;
            }
            if self.protected_branches.source.is_managed() && !src.is_managed() {
                // the managed list can be added to, never shortened
                let kept = &mut self.protected_branches.value;
                let dropped: Vec<String> =
                    kept.iter().filter(|b| !list.contains(b)).cloned().collect();
                if !dropped.is_empty() {
                    self.warnings.push(format!(
                        "{src}: `protected_branches` cannot remove {}: {} protects them",
                        dropped.join(", "),
                        self.protected_branches.source
                    ));
                }
                for b in list {
                    if !kept.contains(&b) {
                        kept.push(b);
                    }
                }
            } else {
                self.protected_branches = Sourced {
                    value: list,
                    source: src.clone(),
                };
            }
        }
        let env_text = |e: &Environment| e.to_string();
        if let Some(env) = f.environment
            && !pinned(
                &mut self.warnings,
                "environment",
                &self.environment,
                src,
                &env,
                env_text,
            )
        {
            if src.is_project()
                && env == Environment::Test
                && self.environment.value == Environment::Production
            {
                self.warnings.push(format!(
                    "{src}: `environment: test` ignored: {} sets production, and a project file cannot relax it",
                    self.environment.source
                ));
            } else {
                self.environment = Sourced {
                    value: env,
                    source: src.clone(),
                };
            }
        }
        if let Some(profile) = f.profile
            && !pinned(
                &mut self.warnings,
                "profile",
                &self.profile,
                src,
                &profile,
                Profile::to_string,
            )
        {
            if src.is_project()
                && profile == Profile::Default
                && self.profile.value == Profile::Seeds
            {
                self.warnings.push(format!(
                    "{src}: `profile: default` ignored: {} sets seeds, and a project file cannot relax it",
                    self.profile.source
                ));
            } else {
                self.profile = Sourced {
                    value: profile,
                    source: src.clone(),
                };
            }
        }
        for (name, trust) in f.agents.into_iter().flatten() {
            if src.is_project() && trust == Trust::Trusted {
                self.warnings.push(format!(
                    "{src}: `agents.{name}: trusted` ignored: only the user file or the command line can trust an agent"
                ));
                continue;
            }
            if let Some(current) = self.agents.get(&name)
                && pinned(
                    &mut self.warnings,
                    &format!("agents.{name}"),
                    current,
                    src,
                    &trust,
                    Trust::to_string,
                )
            {
                continue;
            }
            // a managed `*: untrusted` covers every agent the managed file does not name
            if let Some(any) = self.agents.get("*")
                && trust == Trust::Trusted
                && any.value == Trust::Untrusted
                && any.source.is_managed()
                && !src.is_managed()
            {
                self.warnings.push(format!(
                    "{src}: `agents.{name}: trusted` ignored: {} sets `agents.*: untrusted`, and no other layer can trust an agent",
                    any.source
                ));
                continue;
            }
            self.agents.insert(
                name,
                Sourced {
                    value: trust,
                    source: src.clone(),
                },
            );
        }
        if let Some(t) = f.approval_timeout {
            if !(1..=3600).contains(&t) {
                return Err(invalid(
                    "approval_timeout".into(),
                    "approval_timeout",
                    format!("{t} seconds: must be between 1 and 3600"),
                ));
            }
            let secs = |t: &u64| t.to_string();
            if !pinned(
                &mut self.warnings,
                "approval_timeout",
                &self.approval_timeout,
                src,
                &t,
                secs,
            ) {
                self.approval_timeout = Sourced {
                    value: t,
                    source: src.clone(),
                };
            }
        }
        if let Some(d) = f.approval_ttl_days {
            if !(1..=3650).contains(&d) {
                return Err(invalid(
                    "approval_ttl_days".into(),
                    "approval_ttl_days",
                    format!("{d} days: must be between 1 and 3650"),
                ));
            }
            let days = |d: &u32| d.to_string();
            if !pinned(
                &mut self.warnings,
                "approval_ttl_days",
                &self.approval_ttl_days,
                src,
                &d,
                days,
            ) {
                self.approval_ttl_days = Sourced {
                    value: d,
                    source: src.clone(),
                };
            }
        }
        for (key, value) in [("state_dir", f.state_dir), ("data_dir", f.data_dir)] {
            let Some(dir) = value else { continue };
            if src.is_project() {
                self.warnings.push(format!(
                    "{src}: `{key}` ignored: a project file cannot move riskgate's {}",
                    if key == "state_dir" {
                        "approvals"
                    } else {
                        "audit log"
                    }
                ));
                continue;
            }
            if dir.trim().is_empty() {
                return Err(invalid(key.into(), key, "empty directory".into()));
            }
            let v = Sourced {
                value: paths::absolutize(&paths::expand_home(&dir), base),
                source: src.clone(),
            };
            let current = if key == "state_dir" {
                &self.state_dir
            } else {
                &self.data_dir
            };
            let shown = |d: &PathBuf| d.display().to_string();
            if pinned(&mut self.warnings, key, current, src, &v.value, shown) {
                continue;
            }
            if key == "state_dir" {
                self.state_dir = v;
            } else {
                self.data_dir = v;
            }
        }
        if let Some(rules) = f.rules {
            for p in rules.extra.into_iter().flatten() {
                let value = paths::absolutize(&paths::expand_home(&p), base);
                self.rules_extra.push(Sourced {
                    value,
                    source: src.clone(),
                });
            }
        }
        if let Some(a) = f.hooks.and_then(|h| h.ask_fallback)
            && !pinned(
                &mut self.warnings,
                "hooks.ask_fallback",
                &self.ask_fallback,
                src,
                &a,
                AskFallback::to_string,
            )
        {
            self.ask_fallback = Sourced {
                value: a,
                source: src.clone(),
            };
        }
        let approvals = f.approvals.unwrap_or_default();
        for (i, w) in approvals.two_reviewers.into_iter().flatten().enumerate() {
            if w.trim().is_empty() {
                return Err(invalid(
                    format!("approvals.two_reviewers[{i}]"),
                    "two_reviewers",
                    "empty pattern".into(),
                ));
            }
            self.two_reviewers.push(PatternRule {
                pattern: PolicyPattern::new(&w, Direction::Raise),
                level: RiskLevel::High,
                description: None,
                source: src.clone(),
            });
        }
        if let Some(hook) = approvals.webhook {
            let url = hook.url.trim().to_string();
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(invalid(
                    "approvals.webhook.url".into(),
                    "url",
                    format!("`{url}`: expected an http:// or https:// URL"),
                ));
            }
            let wanted = super::Webhook {
                url,
                format: hook.format.unwrap_or_default(),
            };
            if src.is_project() {
                // a repository must not send its users' commands somewhere
                self.warnings.push(format!(
                    "{src}: `approvals.webhook` ignored: a project file cannot send requests anywhere"
                ));
            } else if !self.webhook.as_ref().is_some_and(|c| {
                pinned(
                    &mut self.warnings,
                    "approvals.webhook",
                    c,
                    src,
                    &wanted,
                    |w: &super::Webhook| w.to_string(),
                )
            }) {
                self.webhook = Some(Sourced {
                    value: wanted,
                    source: src.clone(),
                });
            }
        }
        if let Some(url) = f.audit.and_then(|a| a.url) {
            let url = url.trim().to_string();
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(invalid(
                    "audit.url".into(),
                    "url",
                    format!("`{url}`: expected a postgres:// URL"),
                ));
            }
            let userinfo = url
                .split_once("://")
                .map(|(_, rest)| rest.split(['/', '?']).next().unwrap_or(""))
                .and_then(|authority| authority.rsplit_once('@').map(|(u, _)| u));
            if userinfo.is_some_and(|u| u.contains(':')) || url.contains("password=") {
                return Err(invalid(
                    "audit.url".into(),
                    "url",
                    "the URL holds a password: keep it out of files and set RISKGATE_PG_PASSWORD (or PGPASSWORD) instead".into(),
                ));
            }
            if src.is_project() {
                self.warnings.push(format!(
                    "{src}: `audit.url` ignored: a project file cannot send the audit trail anywhere"
                ));
            } else if !self.audit_url.as_ref().is_some_and(|c| {
                pinned(&mut self.warnings, "audit.url", c, src, &url, String::clone)
            }) {
                self.audit_url = Some(Sourced {
                    value: url,
                    source: src.clone(),
                });
            }
        }
        for (name, level) in f.mcp.and_then(|m| m.tools).into_iter().flatten() {
            let m =
                glob(&name, false).map_err(|m| invalid(format!("mcp.tools.{name}"), &name, m))?;
            self.mcp_tools.push((
                m,
                Sourced {
                    value: (name, level.0),
                    source: src.clone(),
                },
            ));
        }
        Ok(())
    }
}

/// Anchor a written path glob: `~`/`$HOME` expanded; `**…` kept; in a project file `/…` and
/// relative globs are under the project root; elsewhere `/…` is absolute and relative globs
/// match anywhere (`**/…`), except on the command line where they are relative to `base`.
fn anchor(written: &str, src: &Source, base: &Path) -> String {
    let expanded = paths::expand_home_str(written.trim());
    if expanded != written.trim() || expanded.starts_with("**") {
        return expanded;
    }
    let base = base.display().to_string();
    let base = base.trim_end_matches('/');
    match src {
        Source::Project(_) => format!("{base}/{}", expanded.trim_start_matches('/')),
        _ if expanded.starts_with('/') => expanded,
        Source::CommandLine => format!("{base}/{expanded}"),
        _ => format!("**/{expanded}"),
    }
}
