//! Loading and layering: built-in defaults, then the user file, the project file, the
//! environment and the command line, each applied on top of the previous with its source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use riskgate_model::RiskLevel;

use super::file::{self, Format, PolicyFile};
use super::locate::find_line;
use super::{
    AskFallback, Environment, PathGlob, PatternRule, Policy, Profile, Source, Sourced, Trust,
};
use crate::cmdpattern::{Direction, PolicyPattern};
use crate::error::PolicyError;
use crate::paths;

/// Default prompt timeout, seconds.
pub const DEFAULT_APPROVAL_TIMEOUT: u64 = 60;
/// Default lifetime of an `always` approval, days.
pub const DEFAULT_APPROVAL_TTL_DAYS: u32 = 30;

const USER_FILES: [&str; 4] = ["config.yaml", "config.yml", "config.toml", "config.json"];
const PROJECT_FILES: [&str; 4] = [
    ".riskgate.yaml",
    ".riskgate.yml",
    ".riskgate.toml",
    ".riskgate.json",
];

/// Command-line settings: the top layer.
#[derive(Debug, Clone, Default)]
pub struct CliOverrides {
    /// `--config FILE`: read this file as a layer above the project file.
    pub config_file: Option<PathBuf>,
    /// Skip the user and project files (built-in, environment and command line only).
    pub no_config_files: bool,
    /// `--env test|production`.
    pub environment: Option<Environment>,
    /// `--approval-timeout SECONDS`.
    pub approval_timeout: Option<u64>,
    /// `--state-dir DIR`.
    pub state_dir: Option<PathBuf>,
    /// `--data-dir DIR`.
    pub data_dir: Option<PathBuf>,
    /// `--rules FILE` (repeatable).
    pub rules_extra: Vec<PathBuf>,
    /// `--ask-fallback deny|ask`.
    pub ask_fallback: Option<AskFallback>,
    /// `--set KEY=VALUE` (repeatable): any policy key, dotted (`hooks.ask_fallback=ask`,
    /// `agents.claude=trusted`, `blocked_paths=[/srv/**]`); the value is YAML.
    pub set: Vec<String>,
}

/// Where the user file and the default directories are. [`Locations::from_env`] reads the
/// environment (`RISKGATE_*`, `XDG_*`, `HOME`); tests build their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locations {
    /// The user configuration directory (`None`: no user layer).
    pub user_config_dir: Option<PathBuf>,
    /// The built-in state directory.
    pub default_state_dir: PathBuf,
    /// The built-in data directory.
    pub default_data_dir: PathBuf,
    /// `RISKGATE_STATE_DIR`, if set.
    pub env_state_dir: Option<PathBuf>,
    /// `RISKGATE_DATA_DIR`, if set.
    pub env_data_dir: Option<PathBuf>,
}

impl Locations {
    /// The locations from the process environment.
    pub fn from_env() -> Locations {
        Locations {
            user_config_dir: Some(paths::config_dir()),
            default_state_dir: paths::default_state_dir(),
            default_data_dir: paths::default_data_dir(),
            env_state_dir: paths::state_dir_from_env(),
            env_data_dir: paths::data_dir_from_env(),
        }
    }

    /// Everything under one directory, no user file: `root/state`, `root/data` (tests, CI).
    pub fn isolated(root: &Path) -> Locations {
        Locations {
            user_config_dir: None,
            default_state_dir: root.join("state"),
            default_data_dir: root.join("data"),
            env_state_dir: None,
            env_data_dir: None,
        }
    }
}

fn glob(pattern: &str, literal_separator: bool) -> Result<globset::GlobMatcher, String> {
    GlobBuilder::new(pattern)
        .literal_separator(literal_separator)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.kind().to_string())
}

fn set_of<'a>(globs: impl Iterator<Item = &'a str>, sep: bool) -> GlobSet {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        if let Ok(g) = GlobBuilder::new(g).literal_separator(sep).build() {
            b.add(g);
        }
    }
    b.build().unwrap_or_else(|_| GlobSet::empty())
}

impl Policy {
    /// The built-in policy only (no files), for `cwd`, with state and data directories from
    /// `locations`.
    pub fn builtin_at(cwd: &Path, locations: &Locations) -> Policy {
        let state_dir = locations.default_state_dir.clone();
        let mut blocked: Vec<String> = [
            "~/.ssh/**",
            "~/.gnupg/**",
            "~/.aws/**",
            "~/.kube/config",
            "/etc/**",
            "/boot/**",
            "/usr/**",
            "/bin/**",
            "/sbin/**",
            "/lib/**",
            "**/.riskgate.yaml",
            "**/.riskgate.yml",
            "**/.riskgate.toml",
            "**/.riskgate.json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        blocked.push(format!("{}/**", state_dir.display()));
        if let Some(dir) = &locations.user_config_dir {
            blocked.push(format!("{}/**", dir.display()));
        }
        let blocked_paths: Vec<PathGlob> = blocked
            .into_iter()
            .map(|w| PathGlob {
                glob: paths::expand_home_str(&w),
                written: w,
                source: Source::Builtin,
            })
            .collect();
        let branches: Vec<String> = ["main", "master", "production", "release/*"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let self_approval = PatternRule {
            pattern: self_approval_pattern(),
            level: RiskLevel::High,
            description: Some("an approval must come from a person, not from an agent".into()),
            source: Source::Builtin,
        };
        let mut p = Policy {
            patterns: vec![self_approval],
            overrides: Vec::new(),
            allowed_paths: Vec::new(),
            allowed_set: OnceLock::new(),
            allowed_source: Source::Builtin,
            blocked_set: OnceLock::new(),
            blocked_paths,
            protected_set: OnceLock::new(),
            protected_branches: Sourced::builtin(branches),
            environment: Sourced::builtin(Environment::Test),
            profile: Sourced::builtin(Profile::Default),
            agents: BTreeMap::new(),
            approval_timeout: Sourced::builtin(DEFAULT_APPROVAL_TIMEOUT),
            approval_ttl_days: Sourced::builtin(DEFAULT_APPROVAL_TTL_DAYS),
            state_dir: Sourced::builtin(state_dir),
            data_dir: Sourced::builtin(locations.default_data_dir.clone()),
            rules_extra: Vec::new(),
            ask_fallback: Sourced::builtin(AskFallback::Deny),
            mcp_tools: Vec::new(),
            project_root: None,
            cwd: cwd.to_path_buf(),
            files: Vec::new(),
            warnings: Vec::new(),
            fingerprint: chain(
                "",
                &[
                    b"riskgate policy".as_slice(),
                    env!("CARGO_PKG_VERSION").as_bytes(),
                    cwd.as_os_str().as_encoded_bytes(),
                    format!("{locations:?}").as_bytes(),
                ],
            ),
        };
        p.compile_sets();
        p
    }

    /// The built-in policy for the current directory and the environment's locations.
    pub fn builtin() -> Policy {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Policy::builtin_at(&cwd, &Locations::from_env())
    }

    /// Load the effective policy for `cwd`: built-in < user < project < environment <
    /// command line, with the process environment's locations.
    pub fn load(cwd: &Path, cli: &CliOverrides) -> Result<Policy, PolicyError> {
        Policy::load_with(cwd, &Locations::from_env(), cli)
    }

    /// [`Policy::load`] with explicit locations.
    pub fn load_with(
        cwd: &Path,
        locations: &Locations,
        cli: &CliOverrides,
    ) -> Result<Policy, PolicyError> {
        let mut p = Policy::builtin_at(cwd, locations);
        p.fingerprint = chain(&p.fingerprint, &[format!("{cli:?}").as_bytes()]);
        if !cli.no_config_files {
            if let Some(dir) = &locations.user_config_dir
                && let Some(path) = find_one(dir, &USER_FILES)?
            {
                p.apply_file(&path, Source::User(path.clone()))?;
            }
            if let Some(path) = find_project(cwd)? {
                p.project_root = path.parent().map(Path::to_path_buf);
                p.apply_file(&path, Source::Project(path.clone()))?;
            }
        }
        if let Some(dir) = &locations.env_state_dir {
            p.state_dir = Sourced {
                value: paths::absolutize(dir, cwd),
                source: Source::Env(paths::ENV_STATE_DIR.into()),
            };
        }
        if let Some(dir) = &locations.env_data_dir {
            p.data_dir = Sourced {
                value: paths::absolutize(dir, cwd),
                source: Source::Env(paths::ENV_DATA_DIR.into()),
            };
        }
        if let Some(path) = &cli.config_file {
            let path = paths::absolutize(path, cwd);
            p.apply_file(&path, Source::ConfigArg(path.clone()))?;
        }
        p.apply_cli(cli)?;
        p.compile_sets();
        Ok(p)
    }

    fn apply_file(&mut self, path: &Path, source: Source) -> Result<(), PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|e| PolicyError::Read {
            path: path.to_path_buf(),
            source: e,
        })?;
        self.fingerprint = chain(
            &self.fingerprint,
            &[path.as_os_str().as_encoded_bytes(), text.as_bytes()],
        );
        let format = Format::from_path(path).unwrap_or(Format::Yaml);
        let parsed = file::parse(path, &text, format)?;
        let base = match &source {
            Source::Project(_) => self.project_root.clone(),
            _ => path.parent().map(Path::to_path_buf),
        }
        .unwrap_or_else(|| self.cwd.clone());
        self.files.push(source.clone());
        self.apply(parsed, &source, &base, path, &text)
    }

    fn apply_cli(&mut self, cli: &CliOverrides) -> Result<(), PolicyError> {
        let src = Source::CommandLine;
        let cwd = self.cwd.clone();
        let mut f = PolicyFile {
            environment: cli.environment,
            approval_timeout: cli.approval_timeout,
            state_dir: cli
                .state_dir
                .as_ref()
                .map(|d| d.to_string_lossy().into_owned()),
            data_dir: cli
                .data_dir
                .as_ref()
                .map(|d| d.to_string_lossy().into_owned()),
            ..PolicyFile::default()
        };
        if !cli.rules_extra.is_empty() {
            f.rules = Some(file::RulesSection {
                extra: Some(
                    cli.rules_extra
                        .iter()
                        .map(|p| p.to_string_lossy().into_owned())
                        .collect(),
                ),
            });
        }
        if cli.ask_fallback.is_some() {
            f.hooks = Some(file::HooksSection {
                ask_fallback: cli.ask_fallback,
            });
        }
        self.apply(f, &src, &cwd, Path::new("<command line>"), "")?;
        for arg in &cli.set {
            let (text, parsed) = parse_set(arg)?;
            self.apply(parsed, &src, &cwd, Path::new("<command line>"), &text)
                .map_err(|e| PolicyError::Override {
                    arg: arg.clone(),
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }

    fn apply(
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
        if let Some(list) = f.allowed_paths {
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
            self.protected_branches = Sourced {
                value: list,
                source: src.clone(),
            };
        }
        if let Some(env) = f.environment {
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
        if let Some(profile) = f.profile {
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
            self.approval_timeout = Sourced {
                value: t,
                source: src.clone(),
            };
        }
        if let Some(d) = f.approval_ttl_days {
            if !(1..=3650).contains(&d) {
                return Err(invalid(
                    "approval_ttl_days".into(),
                    "approval_ttl_days",
                    format!("{d} days: must be between 1 and 3650"),
                ));
            }
            self.approval_ttl_days = Sourced {
                value: d,
                source: src.clone(),
            };
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
        if let Some(a) = f.hooks.and_then(|h| h.ask_fallback) {
            self.ask_fallback = Sourced {
                value: a,
                source: src.clone(),
            };
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

    /// Forget compiled glob sets (after the lists changed); they are compiled on first use,
    /// so a command that writes no file never compiles the path globs.
    fn compile_sets(&mut self) {
        self.allowed_set = OnceLock::new();
        self.blocked_set = OnceLock::new();
        self.protected_set = OnceLock::new();
    }

    pub(super) fn allowed_set(&self) -> &GlobSet {
        self.allowed_set
            .get_or_init(|| set_of(self.allowed_paths.iter().map(|g| g.glob.as_str()), true))
    }

    pub(super) fn blocked_set(&self) -> &GlobSet {
        self.blocked_set
            .get_or_init(|| set_of(self.blocked_paths.iter().map(|g| g.glob.as_str()), true))
    }

    pub(super) fn protected_set(&self) -> &GlobSet {
        self.protected_set.get_or_init(|| {
            set_of(
                self.protected_branches.value.iter().map(String::as_str),
                true,
            )
        })
    }
}

/// SHA-256 (hex) of `prev` and `parts` (each with its length): the policy's fingerprint, one
/// input more.
fn chain(prev: &str, parts: &[&[u8]]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    hex::encode(h.finalize())
}

/// The built-in pattern that keeps agents from approving their own actions, compiled once.
fn self_approval_pattern() -> PolicyPattern {
    static P: OnceLock<PolicyPattern> = OnceLock::new();
    P.get_or_init(|| PolicyPattern::new("riskgate approvals add", Direction::Raise))
        .clone()
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

/// The one file of `names` in `dir`, or an error if there are several.
fn find_one(dir: &Path, names: &[&str]) -> Result<Option<PathBuf>, PolicyError> {
    let found: Vec<PathBuf> = names
        .iter()
        .map(|n| dir.join(n))
        .filter(|p| p.is_file())
        .collect();
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.into_iter().next()),
        _ => Err(PolicyError::Ambiguous {
            dir: dir.to_path_buf(),
            files: found,
        }),
    }
}

/// The nearest project file upward from `cwd`.
fn find_project(cwd: &Path) -> Result<Option<PathBuf>, PolicyError> {
    for dir in cwd.ancestors() {
        if let Some(p) = find_one(dir, &PROJECT_FILES)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// `KEY=VALUE` as a one-key YAML document, parsed like a file.
fn parse_set(arg: &str) -> Result<(String, PolicyFile), PolicyError> {
    let err = |message: &str| PolicyError::Override {
        arg: arg.to_string(),
        message: message.to_string(),
    };
    let (key, value) = arg
        .split_once('=')
        .ok_or_else(|| err("expected KEY=VALUE"))?;
    if value.contains('\n') {
        return Err(err("the value must be on one line"));
    }
    let keys: Vec<&str> = key.trim().split('.').collect();
    if keys.iter().any(|k| k.trim().is_empty()) {
        return Err(err("empty key"));
    }
    let mut text = String::new();
    for (depth, k) in keys.iter().enumerate() {
        let quoted = serde_json::to_string(k.trim()).unwrap_or_default();
        text.push_str(&"  ".repeat(depth));
        if depth + 1 == keys.len() {
            text.push_str(&format!("{quoted}: {}\n", value.trim()));
        } else {
            text.push_str(&format!("{quoted}:\n"));
        }
    }
    let parsed =
        file::parse(Path::new("<command line>"), &text, Format::Yaml).map_err(|e| match e {
            PolicyError::Parse { key, message, .. } => err(&format!("{key}: {message}")),
            other => err(&other.to_string()),
        })?;
    Ok((text, parsed))
}
