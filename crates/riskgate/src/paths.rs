//! Path classes: what writing, editing, deleting or reading a path means, beyond the policy's
//! own `blocked_paths` / `allowed_paths` (which the gate applies) — riskgate's own files, the
//! project's protected files and everything outside the project. Used for every entry point:
//! a hook's file tools, and the files a shell command writes or deletes (`check`, `scan`, the
//! hook's shell tool) through [`crate::verdict`].
//!
//! | class | rule id | level |
//! |---|---|---|
//! | riskgate's own state, configuration or data (approvals, policy, audit log) | `path.riskgate-state` | HIGH |
//! | the riskgate binary that is running | `path.riskgate-binary` | HIGH |
//! | system files (`/etc/passwd`, `/etc/shadow`, `/etc/sudoers*`, `/boot`, block devices) | `path.system-critical` | CRITICAL |
//! | `.git/hooks/` | `path.git-hooks` | HIGH |
//! | other `.git/` internals | `path.git-internals` | HIGH |
//! | a project policy file `.riskgate.*` | `path.riskgate-policy` | HIGH |
//! | an agent's settings or hooks file (`.claude/settings*.json`, `.gemini/settings.json`, `.codex/`, `.cursor/hooks.json`, `.github/hooks/`) | `path.agent-config` | HIGH |
//! | `.env` files (not `.env.example`) | `path.env-file` | HIGH |
//! | CI configuration (`.github/workflows/`, `.gitlab-ci.yml` …) | `path.ci-config` | HIGH |
//! | credentials (`~/.ssh`, `~/.aws`, `~/.kube`, `.netrc` …) | `path.credentials` | HIGH |
//! | shell start-up files, autostart, cron (persistence) | `path.persistence` | HIGH |
//! | system directories (`/etc`, `/usr`, `/var` …) | `path.system` | HIGH |
//! | anywhere else outside the project (temporary directories excepted): an application's files two levels down the home directory (`~/.config/acme/x.toml`) / anything else | `path.outside-project` | MEDIUM / HIGH |
//! | a backup copy (`nginx.conf.bak`, `x.orig`, `x~`) outside the project | none of credentials, persistence, system, outside-project | |
//! | dependency manifests (`package.json`, `Cargo.toml` …) | `path.dependency-manifest` | MEDIUM |
//! | lockfiles | `path.lockfile` | MEDIUM |
//! | deleting any other file | `path.delete` | LOW |
//!
//! Reads: credentials, key files and `.env` files are `path.read-secrets` (HIGH: their content
//! would go to the model provider); other reads have no finding.
//!
//! The project is the set of roots the judge finds (the agent's project directory, Cursor's
//! workspace roots, the policy's project root, the git work tree around the working
//! directory). Paths are made absolute, `..` resolved and symbolic links in existing
//! ancestors followed, so `link-to-etc/passwd` is seen as `/etc/passwd`.

use std::path::{Component, Path, PathBuf};

use riskgate_model::{Finding, RiskLevel, WriteOp};

/// Where the project is, and what else matters for paths.
#[derive(Debug, Clone, Default)]
pub struct Project {
    /// The working directory (relative paths), resolved.
    pub cwd: PathBuf,
    /// The project roots, resolved.
    pub roots: Vec<PathBuf>,
    /// The home directory, resolved.
    pub home: Option<PathBuf>,
    /// Temporary directories (writing there is not "outside the project").
    pub temp: Vec<PathBuf>,
    /// riskgate's own state, configuration and data directories.
    pub riskgate_dirs: Vec<PathBuf>,
    /// The riskgate binary that is running (replacing it replaces the gate).
    pub riskgate_bins: Vec<PathBuf>,
}

/// `path` made absolute against `cwd`, `~` expanded, `.`/`..` resolved, symbolic links of the
/// longest existing ancestor followed (except in per-process names such as `/dev/fd/3`).
pub fn resolve(path: &str, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let expanded = match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(h)) => h.join(rest),
        _ if path == "~" => home.map(Path::to_path_buf).unwrap_or_else(|| path.into()),
        _ => PathBuf::from(path),
    };
    let abs = if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    };
    let mut lexical = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                lexical.pop();
            }
            Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    // names whose meaning depends on the process that opens them (`/dev/fd/3` is the
    // command's descriptor 3): following their links here would name riskgate's own process
    if lexical.starts_with("/proc/self")
        || lexical.starts_with("/proc/thread-self")
        || lexical
            .to_str()
            .is_some_and(riskgate_model::effect::is_harmless_device)
    {
        return lexical;
    }
    let mut existing = lexical.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return lexical,
        }
    }
}

impl Project {
    /// The project around `cwd` with `roots` (resolved here), for the current user.
    pub fn new(cwd: &Path, roots: &[PathBuf], riskgate_dirs: &[PathBuf]) -> Project {
        let home =
            riskgate_gate::paths::home_dir().map(|h| resolve(&h.to_string_lossy(), cwd, None));
        let cwd = resolve(&cwd.to_string_lossy(), Path::new("/"), None);
        let r = |p: &Path| resolve(&p.to_string_lossy(), &cwd, home.as_deref());
        let mut temp: Vec<PathBuf> = ["/tmp", "/var/tmp", "/dev/shm"]
            .iter()
            .map(|t| r(Path::new(t)))
            .collect();
        if let Some(t) = std::env::var_os("TMPDIR").filter(|t| !t.is_empty()) {
            temp.push(r(Path::new(&t)));
        }
        Project {
            roots: roots.iter().map(|p| r(p)).collect(),
            riskgate_dirs: riskgate_dirs.iter().map(|p| r(p)).collect(),
            riskgate_bins: std::env::current_exe()
                .ok()
                .filter(|e| {
                    e.file_stem()
                        .is_some_and(|s| s.to_string_lossy().starts_with("riskgate"))
                })
                .map(|e| r(&e))
                .into_iter()
                .collect(),
            temp,
            home,
            cwd,
        }
    }

    /// `path` resolved against this project's working directory.
    pub fn resolve(&self, path: &str) -> PathBuf {
        resolve(path, &self.cwd, self.home.as_deref())
    }

    /// The path relative to the project root it is in, if any.
    pub fn relative<'a>(&self, abs: &'a Path) -> Option<&'a Path> {
        self.roots.iter().find_map(|r| abs.strip_prefix(r).ok())
    }

    fn in_home(&self, abs: &Path, rel: &[&str]) -> bool {
        self.home
            .as_ref()
            .is_some_and(|h| rel.iter().any(|r| abs.starts_with(h.join(r))))
    }
}

fn f(id: &str, level: RiskLevel, score: u8, what: String, abs: &Path) -> Finding {
    Finding::new(id, level, score, what).with_resources(vec![format!("file:{}", abs.display())])
}

fn base(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// `.env`, `.env.local`, `prod.env`, `.envrc` — not `.env.example` and the like.
pub fn is_env_file(p: &Path) -> bool {
    riskgate_model::credentials::is_env_file(&base(p))
}

/// Words that mark a file as a template to copy from (`.env.example`, `config.sample.yml`).
const TEMPLATE_WORDS: &[&str] = &["example", "sample", "template", "dist", "default", "tmpl"];

/// Whether copying `src` to `dst` fills a file from its template (`cp .env.example .env`,
/// `cp config.sample.yml config.yml`, `cp .env.example .env.local`): the source is named a
/// template and the destination is the same name without that word (for environment files,
/// optionally with a development suffix instead).
pub fn is_template_copy(src: &str, dst: &str) -> bool {
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_ascii_lowercase();
    let (s, d) = (name(src), name(dst));
    let s_parts: Vec<&str> = s.split('.').filter(|x| !x.is_empty()).collect();
    let d_parts: Vec<&str> = d.split('.').filter(|x| !x.is_empty()).collect();
    if d_parts.is_empty() || !s_parts.iter().any(|p| TEMPLATE_WORDS.contains(p)) {
        return false;
    }
    // an environment file filled from a template of any name (`cp
    // config/env.$ENVIRONMENT.example .env`, `cp deploy/dotenv.sample .env.local`)
    if d == ".env" || names_development_env(&d) {
        return true;
    }
    let stem: Vec<&str> = s_parts
        .iter()
        .copied()
        .filter(|p| !TEMPLATE_WORDS.contains(p))
        .collect();
    d_parts == stem
        || (s.starts_with(".env")
            && d.starts_with(".env")
            && d_parts.iter().all(|p| {
                stem.contains(p) || matches!(*p, "local" | "dev" | "development" | "test")
            }))
}

/// An environment file of this machine's development or tests (`.env.local`, `.env.test`,
/// `.env.development.local`), not one of a deployment (`.env`, `.env.production`,
/// `.env.staging.local`).
fn names_development_env(base: &str) -> bool {
    let words: Vec<&str> = base.split('.').filter(|w| !w.is_empty()).skip(1).collect();
    !words.is_empty()
        && words.iter().any(|w| {
            matches!(
                *w,
                "local" | "dev" | "development" | "test" | "testing" | "e2e" | "ci"
            )
        })
        && !words
            .iter()
            .any(|w| matches!(*w, "prod" | "production" | "staging" | "stage" | "live"))
}

/// Cap a finding about writing an environment file that is filled from its template (see
/// [`is_template_copy`]) at MEDIUM.
pub(crate) fn cap_for_template(f: &mut Finding) {
    if f.rule_id == "path.env-file" {
        riskgate_rules::cap_at_medium(
            f,
            "filled from its template: at most MEDIUM; an existing file is replaced",
        );
    }
}

fn is_ci(rel: &str) -> bool {
    let l = rel.to_ascii_lowercase();
    let b = l.rsplit('/').next().unwrap_or(&l);
    [
        ".github/workflows/",
        ".github/actions/",
        ".circleci/",
        ".buildkite/",
        ".tekton/",
        ".woodpecker/",
    ]
    .iter()
    .any(|d| l.starts_with(d))
        || [
            ".gitlab-ci.yml",
            ".gitlab-ci.yaml",
            "jenkinsfile",
            "azure-pipelines.yml",
            ".travis.yml",
            "bitbucket-pipelines.yml",
            ".drone.yml",
            "cloudbuild.yaml",
            "cloudbuild.yml",
            "buildspec.yml",
            "appveyor.yml",
        ]
        .contains(&b)
}

const MANIFESTS: &[&str] = &[
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "pipfile",
    "cargo.toml",
    "go.mod",
    "gemfile",
    "composer.json",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "mix.exs",
    "pubspec.yaml",
    "deno.json",
    "package.swift",
    "podfile",
    "environment.yml",
    "vcpkg.json",
];

const LOCKFILES: &[&str] = &[
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
    "pipfile.lock",
    "poetry.lock",
    "uv.lock",
    "cargo.lock",
    "go.sum",
    "gemfile.lock",
    "composer.lock",
    "mix.lock",
    "pubspec.lock",
    "podfile.lock",
    "npm-shrinkwrap.json",
    "flake.lock",
    "deno.lock",
];

use riskgate_model::effect::is_backup_name;

/// Whether `p` is a dependency manifest.
pub fn is_manifest(p: &Path) -> bool {
    let b = base(p);
    MANIFESTS.contains(&b.as_str())
        || (b.starts_with("requirements") && (b.ends_with(".txt") || b.ends_with(".in")))
        || b.ends_with(".csproj")
        || b.ends_with(".gemspec")
}

/// Credential locations under the home directory: the whole `~/.ssh` and `~/.aws` (a write
/// there is as bad as to a key), the model's credential stores, Terraform's CLI token file.
static CREDENTIALS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let stores = riskgate_model::credentials::HOME_CREDENTIALS.iter();
    [".ssh", ".aws", ".terraformrc"]
        .into_iter()
        .chain(stores.map(|c| c.trim_end_matches('/')))
        .collect()
});

/// Persistence points under a home directory (one list, in the effect model).
use riskgate_model::effect::PERSISTENCE;

const AGENT_CONFIG: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".gemini/settings.json",
    ".codex",
    ".cursor/hooks.json",
    ".github/hooks",
    ".copilot",
    ".github/copilot",
];

fn is_key_file(p: &Path) -> bool {
    riskgate_model::credentials::is_private_key_file(&base(p))
}

fn has_git_dir(p: &Path) -> Option<bool> {
    let comps: Vec<String> = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let i = comps.iter().position(|c| c == ".git")?;
    Some(comps.get(i + 1).is_some_and(|n| n == "hooks"))
}

/// Findings for writing (`op`) `path`: every class above.
/// The path classes of a Windows drive path (`C:/inetpub/wwwroot/web.config`, as the
/// PowerShell and cmd.exe readings write them): the Windows places riskgate's model classes
/// (system folders, credential stores, start-up points) rated as their Unix counterparts are;
/// `None` when `path` is no drive path (the Unix reading applies).
fn windows_write_findings(path: &str, op: WriteOp) -> Option<Vec<Finding>> {
    use riskgate_model::effect::TargetClass;
    let b = path.as_bytes();
    if !(b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'/' | b'\\'))
    {
        return None;
    }
    let verb = match op {
        WriteOp::Delete => "deletes",
        WriteOp::Edit => "edits",
        WriteOp::Write => "writes",
    };
    let abs = Path::new(path);
    let one = |id: &str, score: u8, what: String| vec![f(id, RiskLevel::High, score, what, abs)];
    Some(match riskgate_model::effect::classify_path(path) {
        TargetClass::Credentials => one(
            "path.credentials",
            78,
            format!("{verb} credentials ({path})"),
        ),
        TargetClass::Persistence => one(
            "path.persistence",
            75,
            format!("{verb} a start-up point ({path}): code there runs by itself"),
        ),
        TargetClass::System | TargetClass::Boot | TargetClass::Root | TargetClass::Device => one(
            "path.system",
            75,
            format!("{verb} a system file outside the project ({path})"),
        ),
        _ => Vec::new(),
    })
}

pub fn write_findings(project: &Project, path: &str, op: WriteOp) -> Vec<Finding> {
    if let Some(found) = windows_write_findings(path, op) {
        return found;
    }
    let abs = project.resolve(path);
    let shown = abs.display().to_string();
    let rel = project
        .relative(&abs)
        .map(|r| r.to_string_lossy().into_owned());
    let rel_or_abs = rel.clone().unwrap_or_else(|| shown.clone());
    let verb = match op {
        WriteOp::Delete => "deletes",
        WriteOp::Edit => "edits",
        WriteOp::Write => "writes",
    };
    let mut out = Vec::new();
    let mut push = |id: &str, level, score, what: String| out.push(f(id, level, score, what, &abs));
    if project.riskgate_dirs.iter().any(|d| abs.starts_with(d)) {
        push(
            "path.riskgate-state",
            RiskLevel::High,
            80,
            format!(
                "{verb} riskgate's own approvals, configuration or audit log ({shown}): a person should do that, not the agent"
            ),
        );
    }
    if project.riskgate_bins.iter().any(|b| &abs == b) {
        push(
            "path.riskgate-binary",
            RiskLevel::High,
            80,
            format!("{verb} the riskgate binary itself ({shown}), which would replace the gate"),
        );
    }
    let s = shown.as_str();
    let critical_system = [
        "/etc/passwd",
        "/etc/shadow",
        "/etc/group",
        "/etc/gshadow",
        "/etc/sudoers",
    ]
    .contains(&s)
        || s.starts_with("/etc/sudoers.d/")
        || s.starts_with("/etc/pam.d/")
        || s.starts_with("/boot/")
        || (s.starts_with("/dev/") && !riskgate_model::effect::is_harmless_device(s));
    if critical_system {
        push(
            "path.system-critical",
            RiskLevel::Critical,
            95,
            format!("{verb} a system file that controls logins, privileges or booting ({shown})"),
        );
    }
    match has_git_dir(&abs) {
        Some(true) => push(
            "path.git-hooks",
            RiskLevel::High,
            78,
            format!("{verb} a git hook, which runs code on the next git command ({rel_or_abs})"),
        ),
        Some(false) => push(
            "path.git-internals",
            RiskLevel::High,
            70,
            format!("{verb} git's internal files ({rel_or_abs}); use git commands instead"),
        ),
        None => {}
    }
    let b = base(&abs);
    if rel.is_some() && b.starts_with(".riskgate.") {
        push(
            "path.riskgate-policy",
            RiskLevel::High,
            75,
            format!("{verb} the project's riskgate policy ({rel_or_abs})"),
        );
    }
    let agent_cfg = AGENT_CONFIG.iter().any(|c| {
        project
            .roots
            .iter()
            .chain(project.home.iter())
            .any(|r| abs.starts_with(r.join(c)))
    });
    if agent_cfg {
        push(
            "path.agent-config",
            RiskLevel::High,
            75,
            format!(
                "{verb} an agent's settings or hooks ({rel_or_abs}), which could turn the gate off"
            ),
        );
    }
    // a backup copy of an environment file (`cp .env .env.backup`) is read by nothing that
    // reads the environment file
    if is_env_file(&abs) && !(op == WriteOp::Write && is_backup_name(&b)) {
        // this machine's development settings (`.env.local`, `.env.test`, direnv's `.envrc`,
        // which only a developer's interactive shell loads): at most MEDIUM, as every
        // development resource is
        if names_development_env(&b) || b == ".envrc" {
            push(
                "path.env-file",
                RiskLevel::Medium,
                50,
                format!(
                    "{verb} a development environment file ({rel_or_abs}): local settings and secrets"
                ),
            );
        } else {
            push(
                "path.env-file",
                RiskLevel::High,
                65,
                format!(
                    "{verb} an environment file ({rel_or_abs}): secrets and deployment settings"
                ),
            );
        }
    }
    if let Some(r) = &rel
        && is_ci(r)
    {
        push(
            "path.ci-config",
            RiskLevel::High,
            65,
            format!("{verb} CI/CD configuration ({r}): runs with the pipeline's secrets"),
        );
    }
    // A copy made beside a file under a backup name (`nginx.conf.bak`, `.bashrc.orig`,
    // `x~`) is read by nothing that reads the original: only what protects the gate and the
    // logins above applies to it.
    let backup = op == WriteOp::Write && is_backup_name(&b);
    if rel.is_none() && !backup {
        // a data sink or source (`/dev/null`, `/dev/stdout`, `/dev/fd/3`) is no file at all
        let in_temp = project.temp.iter().any(|t| abs.starts_with(t))
            || riskgate_model::effect::is_harmless_device(s);
        let in_home = project.home.as_ref().is_some_and(|h| abs.starts_with(h));
        if project.in_home(&abs, &CREDENTIALS) {
            push(
                "path.credentials",
                RiskLevel::High,
                78,
                format!("{verb} credentials ({shown})"),
            );
        } else if project.in_home(&abs, PERSISTENCE)
            || riskgate_model::effect::SYSTEM_PERSISTENCE
                .iter()
                .any(|d| s.starts_with(d))
        {
            push(
                "path.persistence",
                RiskLevel::High,
                75,
                format!("{verb} a start-up file ({shown}): code there runs at every login"),
            );
        } else if !critical_system
            && !in_home
            && riskgate_model::effect::SYSTEM_DIRS
                .iter()
                .filter(|d| !matches!(**d, "/home" | "/Users"))
                .any(|d| s.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
            && !in_temp
        {
            push(
                "path.system",
                RiskLevel::High,
                75,
                format!("{verb} a system file outside the project ({shown})"),
            );
        } else if !in_temp && !critical_system && !agent_cfg {
            // An application's own files deep in the home directory (`~/.config/acme/x.toml`,
            // `~/Downloads/report.pdf`) are a change to review; a dotfile at the top of the
            // home directory (`~/.gitconfig`, `~/.npmrc`, `~/.bash_aliases`), a directory on
            // the PATH and anything outside the home directory are not.
            let app_file = project.home.as_ref().is_some_and(|h| {
                abs.strip_prefix(h).is_ok_and(|rel| {
                    let parts: Vec<String> = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    // writing into a backup directory is how backups are made
                    let backup_dir = parts.iter().rev().skip(1).any(|p| {
                        matches!(
                            p.to_ascii_lowercase().as_str(),
                            "backup" | "backups" | "bak"
                        )
                    }) || (parts.len() == 2
                        && matches!(parts[0].to_ascii_lowercase().as_str(), "backup" | "backups"));
                    let app = parts.len() >= 3
                        && !matches!(
                            (parts[0].as_str(), parts[1].as_str()),
                            (".local", "bin") | (".config", "git") | (".config", "nvim")
                        )
                        && !matches!(parts[0].as_str(), "bin" | ".vim" | ".emacs.d" | ".git");
                    backup_dir || app
                })
            });
            // a directory named as a backup anywhere (`../myapp-backup-2026-11-24/`,
            // `/mnt/nas/backups/x`): writing into it is how a backup is made
            let backup_named = abs.components().any(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .to_ascii_lowercase()
                    .split(|ch: char| !ch.is_ascii_alphanumeric())
                    .any(|w| matches!(w, "backup" | "backups" | "bak"))
            });
            let (level, score) = if app_file || backup_named {
                (RiskLevel::Medium, 50)
            } else {
                (RiskLevel::High, 65)
            };
            push(
                "path.outside-project",
                level,
                score,
                format!("{verb} a file outside the project ({shown})"),
            );
        }
    }
    if is_manifest(&abs) {
        push(
            "path.dependency-manifest",
            RiskLevel::Medium,
            50,
            format!("{verb} a dependency manifest ({rel_or_abs}): changes what gets installed"),
        );
    } else if LOCKFILES.contains(&b.as_str()) {
        push(
            "path.lockfile",
            RiskLevel::Medium,
            45,
            format!("{verb} a lockfile by hand ({rel_or_abs})"),
        );
    }
    if op == WriteOp::Delete && out.is_empty() {
        out.push(
            f(
                "path.delete",
                RiskLevel::Low,
                30,
                format!("deletes {rel_or_abs}"),
                &abs,
            )
            .reversible(false),
        );
    }
    out
}

/// The classes that protect the gate itself and the system's logins: what deleting or moving
/// away `path` (a shell command's `rm`, `mv` source, `shred` …) is rated for. Other deletions
/// are rated by the rules, which know each program's scope.
const SELF_PROTECTING: &[&str] = &[
    "path.riskgate-state",
    "path.riskgate-binary",
    "path.riskgate-policy",
    "path.agent-config",
    "path.system-critical",
    "path.git-hooks",
];

/// Findings for deleting or moving away `path` by a shell command: [`SELF_PROTECTING`] only.
pub fn removal_findings(project: &Project, path: &str) -> Vec<Finding> {
    write_findings(project, path, WriteOp::Delete)
        .into_iter()
        .filter(|f| SELF_PROTECTING.contains(&f.rule_id.as_str()))
        .collect()
}

/// Findings for reading `path`.
pub fn read_findings(project: &Project, path: &str) -> Vec<Finding> {
    let abs = project.resolve(path);
    let shown = abs.display().to_string();
    let what = if project.in_home(&abs, &CREDENTIALS) || is_key_file(&abs) {
        "credentials or a private key"
    } else if is_env_file(&abs) {
        "an environment file"
    } else if riskgate_model::credentials::SYSTEM_SECRETS.contains(&shown.as_str()) {
        "a system secrets file"
    } else {
        return Vec::new();
    };
    vec![f(
        "path.read-secrets",
        RiskLevel::High,
        70,
        format!("reads {what} ({shown}): its content would go to the model provider"),
        &abs,
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_drive_paths_take_the_windows_classes() {
        let ids = |p: &str| -> Vec<String> {
            windows_write_findings(p, WriteOp::Write)
                .unwrap_or_default()
                .into_iter()
                .map(|f| f.rule_id)
                .collect()
        };
        assert_eq!(ids("C:/inetpub/wwwroot/web.config"), ["path.system"]);
        assert_eq!(ids("C:/Windows/System32/evil.dll"), ["path.system"]);
        assert_eq!(ids("C:/Windows/System32/config/SAM"), ["path.credentials"]);
        assert_eq!(
            ids("C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.lnk"),
            ["path.persistence"]
        );
        assert!(ids("C:/Users/Public/notes.txt").is_empty());
        assert!(ids("D:/build/out/app.obj").is_empty());
        assert!(windows_write_findings("src/main.rs", WriteOp::Write).is_none());
    }

    #[test]
    fn per_process_names_are_not_followed_into_riskgates_own_process() {
        let cwd = Path::new("/");
        assert_eq!(resolve("/dev/fd/3", cwd, None), PathBuf::from("/dev/fd/3"));
        assert_eq!(
            resolve("/proc/self/fd/../environ", cwd, None),
            PathBuf::from("/proc/self/environ")
        );
        assert_eq!(
            resolve("/dev/stdout", cwd, None),
            PathBuf::from("/dev/stdout")
        );
    }

    fn project(dir: &Path) -> Project {
        let mut p = Project::new(dir, &[dir.to_path_buf()], &[dir.join("state")]);
        // the temporary project lives in a temporary directory: only the test's own scratch
        // directory counts as temporary here
        p.temp = vec![PathBuf::from("/tmp/scratch")];
        p
    }

    fn ids(fs: Vec<Finding>) -> Vec<String> {
        fs.into_iter().map(|f| f.rule_id).collect()
    }

    #[test]
    fn classes() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let w = |path: &str| ids(write_findings(&p, path, WriteOp::Write));
        assert!(w("src/main.rs").is_empty());
        assert_eq!(w(".env"), ["path.env-file"]);
        assert!(w(".env.backup").is_empty());
        // this machine's development settings: MEDIUM; a deployment's: HIGH
        let level = |path: &str| {
            write_findings(&p, path, WriteOp::Write)
                .iter()
                .map(|f| f.level)
                .max()
        };
        assert_eq!(level(".env.local"), Some(RiskLevel::Medium));
        assert_eq!(level(".env.test"), Some(RiskLevel::Medium));
        // direnv's file: only a developer's interactive shell loads it
        assert_eq!(level(".envrc"), Some(RiskLevel::Medium));
        assert_eq!(level(".env"), Some(RiskLevel::High));
        assert_eq!(level(".env.production.local"), Some(RiskLevel::High));
        // into a backup directory: a change to review, not HIGH
        let backup = write_findings(&p, "~/backups/myapp-2026-11-24/src/main.rs", WriteOp::Write);
        assert!(
            !backup.is_empty() && backup.iter().all(|f| f.level <= RiskLevel::Medium),
            "{backup:?}"
        );
        assert!(w(".env.example.orig").is_empty());
        assert!(is_template_copy(".env.example", ".env"));
        assert!(is_template_copy("./.env.sample", "./.env.local"));
        assert!(is_template_copy("config/app.example.yml", "config/app.yml"));
        assert!(!is_template_copy(".env.example", "/etc/environment"));
        assert!(!is_template_copy(".env.prod", ".env"));
        assert!(!is_template_copy(".env.example", ".env.production"));
        // an environment file filled from a template named otherwise
        assert!(is_template_copy("config/env.$ENVIRONMENT.example", ".env"));
        assert!(is_template_copy("deploy/dotenv.sample", ".env.local"));
        assert!(!is_template_copy("deploy/dotenv.sample", ".env.staging"));
        assert!(w(".env.example").is_empty());
        assert_eq!(w(".git/hooks/pre-commit"), ["path.git-hooks"]);
        assert_eq!(w(".git/config"), ["path.git-internals"]);
        assert_eq!(w(".github/workflows/ci.yml"), ["path.ci-config"]);
        assert!(w("/etc/nginx/nginx.conf.bak").is_empty());
        assert!(w("/etc/nginx/nginx.conf.bak.1").is_empty());
        assert_eq!(w("/etc/nginx/nginx.conf"), ["path.system"]);
        assert_eq!(w("/etc/passwd.bak"), Vec::<String>::new());
        assert_eq!(w("/etc/sudoers.d/x.bak"), ["path.system-critical"]);
        assert_eq!(w("package.json"), ["path.dependency-manifest"]);
        assert_eq!(w("Cargo.lock"), ["path.lockfile"]);
        assert_eq!(w(".claude/settings.json"), ["path.agent-config"]);
        assert_eq!(w(".riskgate.yaml"), ["path.riskgate-policy"]);
        assert_eq!(w("state/settings.json"), ["path.riskgate-state"]);
        assert_eq!(w("../elsewhere/x.txt"), ["path.outside-project"]);
        // a backup beside the project is MEDIUM, still named
        let f = write_findings(&p, "../myapp-backup-2026-11-24/src/main.rs", WriteOp::Write);
        assert_eq!(
            f.iter()
                .map(|f| (f.rule_id.as_str(), f.level))
                .collect::<Vec<_>>(),
            [("path.outside-project", RiskLevel::Medium)]
        );
        assert_eq!(w("/etc/passwd"), ["path.system-critical"]);
        assert_eq!(w("/etc/hosts"), ["path.system"]);
        assert!(w("/tmp/scratch/x.txt").is_empty());
        assert_eq!(
            ids(write_findings(&p, "old.txt", WriteOp::Delete)),
            ["path.delete"]
        );
        assert_eq!(ids(read_findings(&p, ".env")), ["path.read-secrets"]);
        assert!(read_findings(&p, "README.md").is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir_in(dir.path().parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let p = Project::new(dir.path(), &[dir.path().to_path_buf()], &[]);
        let f = ids(write_findings(&p, "link/x.txt", WriteOp::Write));
        assert!(f.is_empty() || f == ["path.outside-project"], "{f:?}");
        assert_ne!(
            p.relative(&p.resolve("link/x.txt")),
            Some(Path::new("link/x.txt"))
        );
    }
}
