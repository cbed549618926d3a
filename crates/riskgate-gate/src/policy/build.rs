//! Loading and layering: built-in defaults, then the user file, the project file, the
//! environment and the command line, each applied on top of the previous with its source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use riskgate_model::RiskLevel;

use super::file::{self, Format, PolicyFile};
use super::managed::pinned;
use super::{AskFallback, Environment, PathGlob, PatternRule, Policy, Profile, Source, Sourced};
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
    /// The managed policy: a `managed.*` file or the directory holding one (`None`: no
    /// managed layer).
    pub managed: Option<PathBuf>,
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
            managed: Some(paths::managed_location()),
        }
    }

    /// Everything under one directory, no user file, no managed policy: `root/state`,
    /// `root/data` (tests, CI).
    pub fn isolated(root: &Path) -> Locations {
        Locations {
            user_config_dir: None,
            default_state_dir: root.join("state"),
            default_data_dir: root.join("data"),
            env_state_dir: None,
            env_data_dir: None,
            managed: None,
        }
    }
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
        if let Some(m) = &locations.managed {
            blocked.push(format!("{}/**", super::managed::guarded_dir(m).display()));
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
        let self_approval = self_approval_patterns()
            .iter()
            .map(|pattern| PatternRule {
                pattern: pattern.clone(),
                level: RiskLevel::High,
                description: Some("an approval must come from a person, not from an agent".into()),
                source: Source::Builtin,
            })
            .collect();
        let mut p = Policy {
            patterns: self_approval,
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
            revision: None,
            two_reviewers: Vec::new(),
            webhook: None,
            audit_url: None,
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
        // the managed layer first: what it sets, the layers after it cannot change
        if let Some(location) = &locations.managed
            && let Some(path) = super::managed::find(location)?
        {
            p.apply_file(&path, Source::Managed(path.clone()))?;
            p.revision = path.parent().and_then(super::git::revision);
            if let Some(rev) = &p.revision {
                p.fingerprint = chain(&p.fingerprint, &[rev.as_bytes()]);
            }
        }
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
        let shown = |d: &PathBuf| d.display().to_string();
        if let Some(dir) = &locations.env_state_dir {
            let value = paths::absolutize(dir, cwd);
            let source = Source::Env(paths::ENV_STATE_DIR.into());
            if !pinned(
                &mut p.warnings,
                "state_dir",
                &p.state_dir,
                &source,
                &value,
                shown,
            ) {
                p.state_dir = Sourced { value, source };
            }
        }
        if let Some(dir) = &locations.env_data_dir {
            let value = paths::absolutize(dir, cwd);
            let source = Source::Env(paths::ENV_DATA_DIR.into());
            if !pinned(
                &mut p.warnings,
                "data_dir",
                &p.data_dir,
                &source,
                &value,
                shown,
            ) {
                p.data_dir = Sourced { value, source };
            }
        }
        if let Some(path) = &cli.config_file {
            let path = paths::absolutize(path, cwd);
            p.apply_file(&path, Source::ConfigArg(path.clone()))?;
        }
        p.apply_cli(cli)?;
        // managed overrides count as the highest layer's (stable: the others keep their order)
        p.overrides.sort_by_key(|o| o.source.is_managed());
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

/// The built-in patterns that keep agents from approving their own actions (a standing
/// approval, a reviewer's grant), compiled once.
fn self_approval_patterns() -> &'static [PolicyPattern] {
    static P: OnceLock<Vec<PolicyPattern>> = OnceLock::new();
    P.get_or_init(|| {
        ["riskgate approvals add", "riskgate approvals grant"]
            .iter()
            .map(|p| PolicyPattern::new(p, Direction::Raise))
            .collect()
    })
}

/// The one file of `names` in `dir`, or an error if there are several.
pub(super) fn find_one(dir: &Path, names: &[&str]) -> Result<Option<PathBuf>, PolicyError> {
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
