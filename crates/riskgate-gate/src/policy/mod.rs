//! The effective policy: built-in defaults < user file < project file < environment <
//! command line, each value remembering where it came from (for `riskgate config show`),
//! and above them all the managed policy.
//!
//! - Managed file: `managed.{yaml,yml,toml,json}` in the system directory
//!   ([`crate::paths::default_managed_dir`], `/etc/riskgate` on Linux) or where
//!   `RISKGATE_MANAGED_POLICY` points (a file, or a directory holding one — a git checkout of
//!   the team's policy, whose revision is then recorded in every audit record). It is applied
//!   first and pins what it sets: a lower layer that sets one of its scalars differently, tries
//!   to trust an agent it rates, or replaces its `allowed_paths` is ignored with a warning
//!   naming both files; its lists (`patterns`, `blocked_paths`, `protected_branches` …) can
//!   only be added to; an override from another layer never lowers a level one of its
//!   patterns raised (see [`crate::decide`]).
//! - User file: `config.{yaml,yml,toml,json}` in the user configuration directory
//!   ([`crate::paths::config_dir`]).
//! - Project file: `.riskgate.{yaml,yml,toml,json}`, the nearest one found upward from the
//!   working directory; its directory is the *project root*.
//! - Environment: `RISKGATE_STATE_DIR`, `RISKGATE_DATA_DIR` (and `RISKGATE_CONFIG_DIR`, which
//!   moves the user file).
//! - Command line: [`CliOverrides`] (flags, `--config FILE`, `--set KEY=VALUE`).
//!
//! Merging: scalars and `allowed_paths` / `protected_branches` are replaced by the highest layer
//! that sets them; `patterns`, `overrides`, `blocked_paths`, `rules.extra` and `mcp.tools`
//! accumulate (a project cannot remove the user's blocklist); `agents` merge by name.
//!
//! A project file comes with a repository, so it may tighten the policy but not loosen what
//! protects the user: it cannot move `state_dir`/`data_dir` (where approvals live), cannot
//! declare an agent trusted, cannot switch a user's `production` back to `test`, and its
//! overrides never lower a HIGH or CRITICAL action (see [`crate::decide`]). Each ignored
//! setting is reported in [`Policy::warnings`], never dropped silently.
//!
//! Path globs (`allowed_paths`, `blocked_paths`) use globset with `literal_separator`: `*`
//! stays within one path component, `**` crosses them. `~` and `$HOME` are expanded. In a
//! project file a leading `/` means the project root (`/src/**`, `/.env`, as in seed 002);
//! elsewhere it is the file system root. A pattern starting with `**` matches anywhere; other
//! relative patterns are relative to the project root (project file) or match anywhere.

mod apply;
mod build;
pub(crate) mod file;
pub mod git;
pub(crate) mod locate;
mod managed;
mod profile;
mod show;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use globset::GlobSet;
use riskgate_model::RiskLevel;
use serde::{Deserialize, Serialize};

use crate::cmdpattern::PolicyPattern;

pub use build::{CliOverrides, Locations};
pub use file::Format;
pub use profile::{Floor, Profile};
pub use show::ShowRow;

/// Where an effective value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "layer", content = "path", rename_all = "snake_case")]
pub enum Source {
    /// riskgate's built-in default.
    Builtin,
    /// The managed (system-wide) policy file: above every other layer.
    Managed(PathBuf),
    /// The user configuration file.
    User(PathBuf),
    /// The project configuration file.
    Project(PathBuf),
    /// An environment variable.
    Env(String),
    /// A file given with `--config`.
    ConfigArg(PathBuf),
    /// A command-line flag or `--set`.
    CommandLine,
}

impl Source {
    /// True for the project layer.
    pub fn is_project(&self) -> bool {
        matches!(self, Source::Project(_))
    }

    /// True for the managed layer.
    pub fn is_managed(&self) -> bool {
        matches!(self, Source::Managed(_))
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Builtin => f.write_str("built-in"),
            Source::Managed(p) => write!(f, "managed policy {}", p.display()),
            Source::User(p) => write!(f, "user file {}", p.display()),
            Source::Project(p) => write!(f, "project file {}", p.display()),
            Source::Env(v) => write!(f, "environment {v}"),
            Source::ConfigArg(p) => write!(f, "--config {}", p.display()),
            Source::CommandLine => f.write_str("command line"),
        }
    }
}

/// A value and its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// Where it was set.
    pub source: Source,
}

impl<T> Sourced<T> {
    fn builtin(value: T) -> Sourced<T> {
        Sourced {
            value,
            source: Source::Builtin,
        }
    }
}

/// The deployment environment (seed 003): production raises data modifications one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// Development, testing, staging.
    #[default]
    #[serde(
        alias = "testing",
        alias = "dev",
        alias = "development",
        alias = "staging"
    )]
    Test,
    /// Production.
    #[serde(alias = "prod")]
    Production,
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Environment::Test => "test",
            Environment::Production => "production",
        })
    }
}

/// How far an agent is trusted (seed 002): a trusted agent may run MEDIUM actions unasked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Trust {
    /// MEDIUM actions run with a warning.
    Trusted,
    /// MEDIUM commands need approval.
    Untrusted,
}

impl fmt::Display for Trust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Trust::Trusted => "trusted",
            Trust::Untrusted => "untrusted",
        })
    }
}

/// What an agent hook answers when a person must be asked and riskgate cannot ask on a
/// terminal itself. Never "allow".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AskFallback {
    /// Refuse (default).
    #[default]
    Deny,
    /// Hand the question to the agent's own permission prompt.
    Ask,
}

impl fmt::Display for AskFallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AskFallback::Deny => "deny",
            AskFallback::Ask => "ask",
        })
    }
}

/// The payload a webhook receives for a new approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum WebhookFormat {
    /// riskgate's JSON: `{"event": "approval_requested", "request": {…}}`.
    #[default]
    Generic,
    /// A Slack-compatible incoming-webhook payload: `{"text": …}`.
    Slack,
}

impl fmt::Display for WebhookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WebhookFormat::Generic => "generic",
            WebhookFormat::Slack => "slack",
        })
    }
}

/// Where new approval requests are announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// The URL (`http://` or `https://`).
    pub url: String,
    /// The payload.
    pub format: WebhookFormat,
}

impl fmt::Display for Webhook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.url, self.format)
    }
}

/// An extra pattern or an override: a pattern over the action's parsed command (or its
/// text, see [`crate::cmdpattern`]) and a level.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternRule {
    /// The compiled pattern.
    pub pattern: PolicyPattern,
    /// The level it sets (a floor for extra patterns; the level for overrides).
    pub level: RiskLevel,
    /// Why, for people.
    pub description: Option<String>,
    /// Where it was declared.
    pub source: Source,
}

/// A path glob as written and as compiled (expanded, anchored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathGlob {
    /// As written in the file.
    pub written: String,
    /// As matched (absolute or `**`-prefixed).
    pub glob: String,
    /// Where it was declared.
    pub source: Source,
}

/// What the policy says about writing to a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathVerdict {
    /// Matches a blocked path: at least HIGH.
    Blocked(PathGlob),
    /// `allowed_paths` is set and the path is outside all of them: at least MEDIUM.
    OutsideAllowed,
    /// Nothing to say.
    Normal,
}

/// The effective policy. Build it with [`Policy::load`] (files) or [`Policy::builtin`].
#[derive(Debug, Clone)]
pub struct Policy {
    patterns: Vec<PatternRule>,
    overrides: Vec<PatternRule>,
    allowed_paths: Vec<PathGlob>,
    allowed_set: OnceLock<GlobSet>,
    allowed_source: Source,
    blocked_paths: Vec<PathGlob>,
    blocked_set: OnceLock<GlobSet>,
    protected_branches: Sourced<Vec<String>>,
    protected_set: OnceLock<GlobSet>,
    environment: Sourced<Environment>,
    profile: Sourced<Profile>,
    agents: BTreeMap<String, Sourced<Trust>>,
    approval_timeout: Sourced<u64>,
    approval_ttl_days: Sourced<u32>,
    state_dir: Sourced<PathBuf>,
    data_dir: Sourced<PathBuf>,
    rules_extra: Vec<Sourced<PathBuf>>,
    ask_fallback: Sourced<AskFallback>,
    mcp_tools: Vec<(globset::GlobMatcher, Sourced<(String, RiskLevel)>)>,
    project_root: Option<PathBuf>,
    cwd: PathBuf,
    files: Vec<Source>,
    warnings: Vec<String>,
    fingerprint: String,
    revision: Option<String>,
    two_reviewers: Vec<PatternRule>,
    webhook: Option<Sourced<Webhook>>,
    audit_url: Option<Sourced<String>>,
}

impl Policy {
    /// Extra patterns (blocklist entries are those at CRITICAL), lowest layer first.
    pub fn patterns(&self) -> &[PatternRule] {
        &self.patterns
    }

    /// Overrides, lowest layer first.
    pub fn overrides(&self) -> &[PatternRule] {
        &self.overrides
    }

    /// The allowed path globs (empty: no restriction).
    pub fn allowed_paths(&self) -> &[PathGlob] {
        &self.allowed_paths
    }

    /// The blocked path globs.
    pub fn blocked_paths(&self) -> &[PathGlob] {
        &self.blocked_paths
    }

    /// Protected branch names and globs.
    pub fn protected_branches(&self) -> &Sourced<Vec<String>> {
        &self.protected_branches
    }

    /// Whether `branch` (`main`, `release/1.2`, `refs/heads/main`) is protected.
    pub fn is_protected_branch(&self, branch: &str) -> bool {
        let b = branch.strip_prefix("refs/heads/").unwrap_or(branch);
        self.protected_set().is_match(b)
    }

    /// The environment.
    pub fn environment(&self) -> &Sourced<Environment> {
        &self.environment
    }

    /// The level profile (`default`, or `seeds`: seed 001's and 002's level tables).
    pub fn profile(&self) -> &Sourced<Profile> {
        &self.profile
    }

    /// The agents table.
    pub fn agents(&self) -> &BTreeMap<String, Sourced<Trust>> {
        &self.agents
    }

    /// How far `agent` is trusted: `None` (a person at a terminal) is trusted; a named agent
    /// takes its entry, else the `*` entry, else untrusted.
    pub fn trust(&self, agent: Option<&str>) -> Trust {
        let Some(agent) = agent else {
            return Trust::Trusted;
        };
        self.agents
            .get(agent)
            .or_else(|| self.agents.get("*"))
            .map(|t| t.value)
            .unwrap_or(Trust::Untrusted)
    }

    /// How long the prompt waits for an answer.
    pub fn approval_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.approval_timeout.value)
    }

    /// How long an `always` approval lasts, in days.
    pub fn approval_ttl_days(&self) -> u32 {
        self.approval_ttl_days.value
    }

    /// Where settings.json and the session cache live.
    pub fn state_dir(&self) -> &Path {
        &self.state_dir.value
    }

    /// Where the audit database lives.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir.value
    }

    /// The approvals file: `state_dir/settings.json`.
    pub fn settings_path(&self) -> PathBuf {
        self.state_dir.value.join("settings.json")
    }

    /// The audit database: `data_dir/audit.db`.
    pub fn audit_path(&self) -> PathBuf {
        self.data_dir.value.join("audit.db")
    }

    /// The approval queue: `state_dir/queue.db`.
    pub fn queue_path(&self) -> PathBuf {
        self.state_dir.value.join("queue.db")
    }

    /// Extra rule-pack files (for the rules engine), with their sources.
    pub fn rules_extra(&self) -> &[Sourced<PathBuf>] {
        &self.rules_extra
    }

    /// What a hook answers when it cannot ask on a terminal.
    pub fn ask_fallback(&self) -> AskFallback {
        self.ask_fallback.value
    }

    /// Replace the built-in `hooks.ask_fallback` with `value` (an agent host's own default:
    /// one that can ask its user defaults to `ask`). A value set in a file, the environment or
    /// on the command line is kept.
    pub fn with_default_ask_fallback(mut self, value: AskFallback) -> Policy {
        if self.ask_fallback.source == Source::Builtin {
            self.ask_fallback.value = value;
        }
        self
    }

    /// The level the `mcp.tools` table gives an MCP tool name (the highest matching entry).
    pub fn mcp_level(&self, tool: &str) -> Option<RiskLevel> {
        self.mcp_tools
            .iter()
            .filter(|(m, _)| m.is_match(tool))
            .map(|(_, s)| s.value.1)
            .max()
    }

    /// The project root (directory of the project file), if one was found.
    pub fn project_root(&self) -> Option<&Path> {
        self.project_root.as_deref()
    }

    /// The working directory the policy was loaded for.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The files that were read, lowest layer first.
    pub fn files(&self) -> &[Source] {
        &self.files
    }

    /// The managed policy file in effect, if any.
    pub fn managed_file(&self) -> Option<&Path> {
        self.files.iter().find_map(|s| match s {
            Source::Managed(p) => Some(p.as_path()),
            _ => None,
        })
    }

    /// The git revision of the managed policy, when it is taken from a git checkout (recorded
    /// in every audit record).
    pub fn revision(&self) -> Option<&str> {
        self.revision.as_deref()
    }

    /// Patterns whose approval requests need two distinct reviewers.
    pub fn two_reviewers(&self) -> &[PatternRule] {
        &self.two_reviewers
    }

    /// Where new approval requests are announced, if anywhere.
    pub fn webhook(&self) -> Option<&Sourced<Webhook>> {
        self.webhook.as_ref()
    }

    /// The team's audit database (`audit.url`, a `postgres://` URL without a password), if
    /// configured.
    pub fn audit_url(&self) -> Option<&Sourced<String>> {
        self.audit_url.as_ref()
    }

    /// Settings that were ignored, and why.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// A SHA-256 (hex) of everything this policy was built from: the locations, the working
    /// directory, the text of every file read and the command line. Two loads with the same
    /// fingerprint give the same policy (the hook server's assessment cache is keyed by it).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// What the policy says about writing to `path` (relative paths against `cwd`).
    pub fn check_path(&self, path: &str, cwd: &Path) -> PathVerdict {
        let abs = crate::paths::absolutize(&crate::paths::expand_home(path), cwd);
        if let Some(i) = self.blocked_set().matches(&abs).first()
            && let Some(g) = self.blocked_paths.get(*i)
        {
            return PathVerdict::Blocked(g.clone());
        }
        if !self.allowed_paths.is_empty() && !self.allowed_set().is_match(&abs) {
            return PathVerdict::OutsideAllowed;
        }
        PathVerdict::Normal
    }
}
