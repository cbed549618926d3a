//! The effect model: what a simple command does ([`EffectKind`]) to what ([`Target`], classified
//! once by [`classify_path`], [`classify_host`] and [`classify_env`]), how widely
//! ([`Scope`]) and whether it can be undone. The rules crate computes the effects of every
//! command after normalization and scores them (effect × target class × scope); reports show
//! them per command (`"effects": [{"command": 0, "kind": "delete", "target": {"class":
//! "system", "text": "/etc/passwd"}, "scope": ["privileged"], "reversible": false}]`).
//!
//! This module also owns the lists of well-known places: [`SYSTEM_DIRS`], [`PERSISTENCE`]
//! (shell start-up files and other persistence points under a home directory), the system
//! persistence and log locations, and the regenerable build outputs and caches. Credential
//! files come from [`crate::credentials`].
//!
//! ```
//! use riskgate_model::effect::{Environment, TargetClass, classify_env, classify_host, classify_path};
//! assert_eq!(classify_path("/var/log/dpkg.log"), TargetClass::Logs);
//! assert_eq!(classify_path("/root/.bashrc"), TargetClass::Persistence);
//! assert_eq!(classify_path("node_modules"), TargetClass::BuildOutput);
//! assert_eq!(classify_host("https://localhost:8080/x"), TargetClass::Loopback);
//! assert_eq!(classify_env(["--stage", "prod"]), Environment::Prod);
//! ```

use serde::{Deserialize, Serialize};

use crate::credentials;

mod windows;

/// What a command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// Removes the target (files, resources, data).
    Delete,
    /// Replaces or truncates the target's content.
    Overwrite,
    /// Changes the target in place (append, edit, configure).
    Modify,
    /// Changes permissions or ownership.
    Permissions,
    /// Runs code.
    Execute,
    /// Reads the target.
    Read,
    /// Sends data to another host.
    Send,
    /// Receives code from the network and runs it.
    ReceiveAndRun,
    /// Installs or uninstalls software.
    Install,
    /// Publishes, releases or deploys.
    Publish,
    /// Stops, kills or restarts processes or services.
    Stop,
    /// Changes the machine's power state.
    Power,
    /// Weakens security controls (firewall, audit, MAC).
    Security,
    /// Makes something run again later (cron, rc files, services).
    Persistence,
}

impl EffectKind {
    /// The snake_case name (`delete`, `overwrite` …), used in finding ids.
    pub fn as_str(self) -> &'static str {
        match self {
            EffectKind::Delete => "delete",
            EffectKind::Overwrite => "overwrite",
            EffectKind::Modify => "modify",
            EffectKind::Permissions => "permissions",
            EffectKind::Execute => "execute",
            EffectKind::Read => "read",
            EffectKind::Send => "send",
            EffectKind::ReceiveAndRun => "receive_and_run",
            EffectKind::Install => "install",
            EffectKind::Publish => "publish",
            EffectKind::Stop => "stop",
            EffectKind::Power => "power",
            EffectKind::Security => "security",
            EffectKind::Persistence => "persistence",
        }
    }

    /// Whether the effect can in general be undone (a delete, an overwrite, a publication, a
    /// power change cannot).
    pub fn reversible(self) -> bool {
        !matches!(
            self,
            EffectKind::Delete
                | EffectKind::Overwrite
                | EffectKind::Publish
                | EffectKind::Power
                | EffectKind::Send
                | EffectKind::ReceiveAndRun
        )
    }
}

/// What kind of thing an effect acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetClass {
    /// The root directory (or everything in it).
    Root,
    /// A system directory or a file in one (`/etc`, `/usr`, `/var` …).
    System,
    /// The boot loader, kernels, `/boot`.
    Boot,
    /// A block device or raw disk.
    Device,
    /// A whole home directory.
    Home,
    /// A file or directory inside a home directory (not a more specific class).
    UserData,
    /// Credential stores, secret files, password and sudo data, SSH and PAM configuration
    /// (in a home directory or the system).
    Credentials,
    /// A secret file inside the project (`.env`, a key file given by a relative path).
    ProjectSecret,
    /// Shell start-up files, cron, services, autostart: what runs again later.
    Persistence,
    /// Logs, audit trails and shell history.
    Logs,
    /// Backups and snapshots outside the project (`/backups/…`, `~/backups`, `/var/backups`,
    /// `/srv/snapshots`): the copies a loss would be recovered from.
    Backups,
    /// The project (a relative path).
    Project,
    /// Regenerable build outputs and caches (`node_modules`, `target`, `~/.cache` …).
    BuildOutput,
    /// Temporary files and harmless sinks (`/tmp`, `/dev/null`).
    Temp,
    /// This machine over the network (`localhost`, `127.0.0.1`).
    Loopback,
    /// A host on a private network (RFC 1918 addresses, `.internal`, single-label names).
    PrivateHost,
    /// A public host named by DNS.
    PublicHost,
    /// A public host named by a raw IP address.
    IpLiteral,
    /// A resource of a cloud or service API (a database, project, bucket, secret …).
    CloudResource,
    /// A resource of a cluster or orchestrator.
    ClusterResource,
    /// A system daemon's processes.
    SystemDaemon,
    /// Every process (`kill -1`, `killall5`).
    AllProcesses,
    /// One process.
    OneProcess,
    /// The machine itself (power, kernel, network configuration).
    Machine,
    /// Not known.
    Unknown,
}

impl TargetClass {
    /// The snake_case name (`system`, `cloud_resource` …), used in finding ids.
    pub fn as_str(self) -> &'static str {
        match self {
            TargetClass::Root => "root",
            TargetClass::System => "system",
            TargetClass::Boot => "boot",
            TargetClass::Device => "device",
            TargetClass::Home => "home",
            TargetClass::UserData => "user_data",
            TargetClass::Credentials => "credentials",
            TargetClass::ProjectSecret => "project_secret",
            TargetClass::Persistence => "persistence",
            TargetClass::Logs => "logs",
            TargetClass::Backups => "backups",
            TargetClass::Project => "project",
            TargetClass::BuildOutput => "build_output",
            TargetClass::Temp => "temp",
            TargetClass::Loopback => "loopback",
            TargetClass::PrivateHost => "private_host",
            TargetClass::PublicHost => "public_host",
            TargetClass::IpLiteral => "ip_literal",
            TargetClass::CloudResource => "cloud_resource",
            TargetClass::ClusterResource => "cluster_resource",
            TargetClass::SystemDaemon => "system_daemon",
            TargetClass::AllProcesses => "all_processes",
            TargetClass::OneProcess => "one_process",
            TargetClass::Machine => "machine",
            TargetClass::Unknown => "unknown",
        }
    }

    /// Whether the class names a host on the network.
    pub fn is_remote_host(self) -> bool {
        matches!(
            self,
            TargetClass::PrivateHost | TargetClass::PublicHost | TargetClass::IpLiteral
        )
    }
}

/// The environment a cloud or cluster resource belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Environment {
    /// Production (`prod`, `production`, `prd`, `live`).
    Prod,
    /// Staging (`staging`, `stage`, `stg`, `preprod`, `uat`).
    Staging,
    /// Development and tests (`dev`, `test`, `sandbox`, `local`, `qa`, `preview`).
    Dev,
    /// Not stated.
    Unknown,
}

/// What an effect acts on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// The class.
    pub class: TargetClass,
    /// The text naming it (a path, a URL, a resource name).
    pub text: String,
    /// For cloud and cluster resources: the environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<Environment>,
}

/// How widely an effect applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Recursive (a whole tree).
    Recursive,
    /// Every matching item (`--all`, wildcards, `--prefix`).
    Bulk,
    /// Without confirmation or safety nets (`--force`, `-y`, `--yes`, `-auto-approve`).
    Forced,
    /// With elevated privileges (sudo, doas, su).
    Privileged,
}

/// One effect of one simple command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// Index of the simple command in the parsed command.
    pub command: usize,
    /// What it does.
    pub kind: EffectKind,
    /// To what.
    pub target: Target,
    /// How widely.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope: Vec<Scope>,
    /// Whether it can be undone.
    pub reversible: bool,
}

impl Effect {
    /// An effect of command `command` on `target`, reversible as its kind says (regenerable
    /// build outputs and temporary files are reversible whatever the kind).
    pub fn new(command: usize, kind: EffectKind, target: Target) -> Effect {
        let reversible = kind.reversible()
            || matches!(target.class, TargetClass::BuildOutput | TargetClass::Temp);
        Effect {
            command,
            kind,
            target,
            scope: Vec::new(),
            reversible,
        }
    }

    /// With a scope modifier (once).
    pub fn with_scope(mut self, s: Scope) -> Effect {
        if !self.scope.contains(&s) {
            self.scope.push(s);
        }
        self
    }

    /// Whether the scope includes `s`.
    pub fn has(&self, s: Scope) -> bool {
        self.scope.contains(&s)
    }
}

/// Top-level directories whose loss breaks the system.
pub const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/System",
    "/Library",
    "/Applications",
    "/Users",
];

/// Persistence points under a home directory: shell start-up files, autostart, user services.
pub const PERSISTENCE: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".config/fish",
    ".config/autostart",
    ".config/systemd",
    "Library/LaunchAgents",
    ".xprofile",
    ".xinitrc",
];

/// System persistence points: cron, init and service directories, preloads, global profiles.
pub const SYSTEM_PERSISTENCE: &[&str] = &[
    "/etc/cron",
    "/etc/crontab",
    "/var/spool/cron",
    "/etc/systemd/system",
    "/usr/lib/systemd/system",
    "/lib/systemd/system",
    "/etc/init.d",
    "/etc/rc.local",
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/zsh",
    "/etc/ld.so.preload",
    "/etc/xdg/autostart",
    "/Library/LaunchDaemons",
    "/Library/LaunchAgents",
    "/etc/update-motd.d",
];

/// System files and directories with authentication data or configuration.
pub const SYSTEM_AUTH: &[&str] = &[
    "/etc/passwd",
    "/etc/group",
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/master.passwd",
    "/etc/sudoers",
    "/etc/ssh",
    "/etc/pam.d",
    "/etc/security",
    "/etc/krb5.keytab",
    "/etc/ssl/private",
];

/// Log and audit locations.
pub const LOG_DIRS: &[&str] = &[
    "/var/log",
    "/var/audit",
    "/private/var/log",
    "/Library/Logs",
];

/// Package managers' and build tools' stores under the home, filled again by the next build
/// (relative to `~`; the same list as `home_stores` in `rules/filesystem.yaml`).
pub const HOME_STORES: &[&str] = &[
    ".m2/repository",
    ".ivy2/cache",
    ".ivy2/local",
    ".sbt/boot",
    ".sbt/zinc",
    ".cargo/registry",
    ".cargo/git",
    "go/pkg/mod",
    ".gradle/caches",
    ".gradle/wrapper/dists",
    ".nuget/packages",
    ".pub-cache",
    ".julia/packages",
    ".julia/compiled",
    ".coursier/cache",
    ".stack/snapshots",
    ".stack/indices",
    ".cabal/packages",
    ".conan/p",
    ".conan2/p",
];

/// Regenerable build outputs and caches (a path segment).
pub const BUILD_OUTPUTS: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".gradle",
    ".terraform",
    "coverage",
    ".coverage",
    ".cache",
    "tmp",
    "DerivedData",
    "Caches",
    ".angular",
    "bin",
    "obj",
    "vendor",
    ".eggs",
    "htmlcov",
    // Perl's build tree and Devel::Cover's report
    "blib",
    "cover_db",
    // Module::Build's, Elixir's and Sphinx's build trees
    "_build",
];

/// Whether `p` is a device that is a data sink or source, not a disk: `/dev/null`,
/// `/dev/stdout`, `/dev/tty`, a descriptor `/dev/fd/N` …
pub fn is_harmless_device(p: &str) -> bool {
    HARMLESS_DEVICES.contains(&p) || p.starts_with("/dev/fd/")
}

/// Devices that are data sinks or sources, not disks.
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/ptmx",
];

/// Package managers' caches and downloaded indexes: regenerable.
const PACKAGE_CACHES: &[&str] = &[
    "/var/lib/apt/lists",
    "/var/cache/apt",
    "/var/cache/yum",
    "/var/cache/dnf",
    "/var/cache/apk",
    "/var/cache/zypp",
    "/var/cache/pacman/pkg",
];

/// Block-device name prefixes under `/dev/`.
const DISK_PREFIXES: &[&str] = &[
    "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop",
    "sr", "nbd", "zd", "mtdblock",
];

/// `path` is `dir` or inside it (`/etc/cron` also covers `/etc/cron.d` and `/etc/crontab`).
fn under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir).is_some_and(|r| {
        r.is_empty()
            || r.starts_with('/')
            || (dir.ends_with("/cron") && !r.contains('/'))
            || (dir.ends_with("/cron") && r.starts_with('.'))
    })
}

/// The part of `path` inside a home directory (`~/x`, `$HOME/x`, `/root/x`, `/home/u/x`,
/// `/Users/u/x` → `x`); `Some("")` for the home directory itself.
fn home_relative(path: &str) -> Option<&str> {
    for prefix in ["~", "$HOME", "${HOME}", "/root"] {
        if let Some(r) = path.strip_prefix(prefix)
            && (r.is_empty() || r.starts_with('/'))
        {
            return Some(r.trim_start_matches('/'));
        }
    }
    // `~alice/.ssh`, `~root`: the home directory of the user named (not `~+`/`~-`, the
    // working directories)
    if let Some(r) = path.strip_prefix('~') {
        let (user, rest) = r.split_once('/').unwrap_or((r, ""));
        if user.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && user.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-' | '.')
            })
        {
            return Some(rest);
        }
    }
    for base in ["/home/", "/Users/"] {
        if let Some(r) = path.strip_prefix(base) {
            let (user, rest) = r.split_once('/').unwrap_or((r, ""));
            if user.is_empty() || (user == "*" && rest.is_empty()) {
                return None;
            }
            // `/home/*/.ssh`: every user's
            return Some(rest);
        }
    }
    // `$USER_HOME/.ssh`, `${dir}/.aws/credentials`: what only a home holds, under a variable
    // riskgate cannot resolve, is in a home
    if let Some(after) = path.strip_prefix('$') {
        let (var, rest) = after.split_once('/')?;
        let plain = var.trim_start_matches('{').trim_end_matches('}');
        let first = rest.split('/').next().unwrap_or(rest);
        if !plain.is_empty()
            && plain.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && HOME_MARKERS.contains(&first)
        {
            return Some(rest);
        }
    }
    None
}

/// Directories and files that only a home directory has.
const HOME_MARKERS: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".kube",
    ".azure",
    ".docker",
    ".config",
    ".local",
    ".bashrc",
    ".zshrc",
    ".profile",
    ".bash_profile",
    ".bash_history",
    ".zsh_history",
    ".netrc",
    ".git-credentials",
    ".password-store",
    ".npmrc",
    ".pypirc",
];

/// Everything under a directory: `~`, `~/*`, `~/.*`, `~/**` (every file below it, as `find ~
/// -exec … {}` reads).
fn is_everything(rest: &str) -> bool {
    matches!(
        rest.trim_end_matches('/'),
        "" | "*" | "**" | "**/*" | "." | ".*"
    )
}

fn has_segment(path: &str, list: &[&str]) -> bool {
    path.split('/').any(|s| list.contains(&s))
}

/// A path inside a directory of backups or snapshots (a segment `backup`, `backups`,
/// `snapshots`, `pgbackrest`, `borg`, `restic`, `bak`, `dumps`, or one starting `backup`).
fn is_backup_dir(path: &str) -> bool {
    path.split('/').any(|seg| {
        let s = seg.to_ascii_lowercase();
        matches!(
            s.as_str(),
            "backup" | "backups" | "snapshots" | "pgbackrest" | "borg" | "restic" | "bak" | "dumps"
        ) || (s.starts_with("backup") && !s.contains('.'))
            // a directory named for its backups (`pg_backups`, `db-backups`, `mysql_dumps`)
            || (!s.contains('.')
                && s.split(['_', '-'])
                    .any(|w| matches!(w, "backup" | "backups" | "snapshots" | "dumps")))
    })
}

/// A file Python runs at every start: `sitecustomize.py`, `usercustomize.py`, or a `.pth`
/// file in a site-packages directory (a line starting `import` in it runs) — not a model's
/// weights saved as `model.pth` in a project.
fn is_python_startup_hook(p: &str) -> bool {
    let (dir, base) = p.rsplit_once('/').unwrap_or(("", p));
    if matches!(base, "sitecustomize.py" | "usercustomize.py") {
        return true;
    }
    let dir = dir.to_ascii_lowercase();
    base.ends_with(".pth")
        && (dir.contains("site-packages")
            || dir.contains("dist-packages")
            || dir.starts_with('$') && dir.contains("site"))
}

/// A variable named for a block device standing alone as the target (`"$DEV"`,
/// `${DATA_PART}`, `$ROOTDEV`, `$DISK`): its value is only known at run time, and its name
/// says it is a disk or a partition (not `$DEV_DIR`, a directory).
fn names_a_device(p: &str) -> bool {
    let Some(name) = p.strip_prefix('$') else {
        return false;
    };
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return false;
    }
    let upper = name.to_ascii_uppercase();
    let last = upper.rsplit('_').next().unwrap_or("");
    matches!(
        last,
        "DEV" | "DEVICE" | "DISK" | "PART" | "PARTITION" | "DRIVE" | "BLOCKDEV" | "BLKDEV"
    ) || (last.ends_with("DEV") || last.ends_with("DISK")) && last.len() <= 10
}

/// The class of a path (lexical: no file system access).
pub fn classify_path(path: &str) -> TargetClass {
    let p = path.trim_matches(['"', '\'']);
    if p.is_empty() {
        return TargetClass::Unknown;
    }
    if let Some(class) = windows::classify(p) {
        return class;
    }
    let trimmed = p.trim_end_matches(['*', '.']).trim_end_matches('/');
    if p.starts_with('/') && (trimmed.is_empty() || p == "/.*") {
        return TargetClass::Root;
    }
    if is_python_startup_hook(p) {
        return TargetClass::Persistence;
    }
    if names_a_device(p) {
        return TargetClass::Device;
    }
    if let Some(rest) = home_relative(p) {
        if is_everything(rest) {
            return TargetClass::Home;
        }
        let full = format!("~/{rest}");
        if credentials::sensitive_kind(&full) == Some("shell history") {
            return TargetClass::Logs;
        }
        if rest.starts_with(".ssh") || credentials::sensitive_kind(&full).is_some() {
            return TargetClass::Credentials;
        }
        if PERSISTENCE.iter().any(|d| under(rest, d)) {
            return TargetClass::Persistence;
        }
        if is_backup_dir(rest) {
            return TargetClass::Backups;
        }
        if let Some(class) = windows::home_relative_class(rest) {
            return class;
        }
        if rest.starts_with(".cache")
            || rest.starts_with("Library/Caches")
            || rest.starts_with("Library/Developer/Xcode/DerivedData")
            || rest.starts_with(".npm/_cacache")
            || HOME_STORES.iter().any(|d| under(rest, d))
            || has_segment(rest, &["node_modules", "__pycache__", "DerivedData"])
            // a project's build output under the home (`~/src/app/dist`), not the home's own
            // top directories (`~/build` may hold anything)
            || rest.split_once('/').is_some_and(|(_, inner)| has_segment(inner, BUILD_OUTPUTS))
        {
            return TargetClass::BuildOutput;
        }
        return TargetClass::UserData;
    }
    if p.starts_with('/') {
        if is_harmless_device(p) || p.starts_with("/dev/shm") {
            return TargetClass::Temp;
        }
        // the package managers' downloaded indexes and packages, fetched again on the next
        // update (`rm -rf /var/lib/apt/lists/*` in every Dockerfile)
        // (one path: a loop's word may hold several lines, each a path)
        if PACKAGE_CACHES.iter().any(|d| under(p, d)) && !p.contains('\n') {
            return TargetClass::BuildOutput;
        }
        if let Some(dev) = p.strip_prefix("/dev/") {
            // a device named at run time (`/dev/$DEV`) may be any disk
            if DISK_PREFIXES.iter().any(|d| dev.starts_with(d)) || dev.starts_with('$') {
                return TargetClass::Device;
            }
            if dev.starts_with("tcp/") || dev.starts_with("udp/") {
                return TargetClass::Unknown;
            }
            return TargetClass::System;
        }
        // and the databases' own authentication files, wherever the package puts them
        if SYSTEM_AUTH.iter().any(|d| under(p, d))
            || p.starts_with("/etc/sudoers")
            || ["/pg_hba.conf", "/pg_ident.conf", "/.htpasswd", "/htpasswd"]
                .iter()
                .any(|f| p.ends_with(f))
        {
            return TargetClass::Credentials;
        }
        if SYSTEM_PERSISTENCE.iter().any(|d| under(p, d)) {
            return TargetClass::Persistence;
        }
        if LOG_DIRS.iter().any(|d| under(p, d)) {
            return TargetClass::Logs;
        }
        if is_backup_dir(p)
            && !["/tmp", "/var/tmp", "/private/tmp"]
                .iter()
                .any(|d| under(p, d))
        {
            return TargetClass::Backups;
        }
        if under(p, "/boot") || under(p, "/efi") {
            return TargetClass::Boot;
        }
        if ["/tmp", "/var/tmp", "/private/tmp"]
            .iter()
            .any(|d| under(p, d))
        {
            return TargetClass::Temp;
        }
        // package managers' caches and indexes, downloaded again on the next update
        if under(p, "/var/cache") || under(p, "/var/lib/apt/lists") {
            return TargetClass::BuildOutput;
        }
        if SYSTEM_DIRS.iter().any(|d| under(p, d)) {
            return TargetClass::System;
        }
        return TargetClass::Unknown;
    }
    if p.starts_with('$') {
        return TargetClass::Unknown;
    }
    if has_segment(p.trim_start_matches("./"), BUILD_OUTPUTS)
        || p.ends_with(".pyc")
        || p.ends_with(".o")
        || p.ends_with(".log")
    {
        return TargetClass::BuildOutput;
    }
    if credentials::sensitive_kind(p).is_some() {
        return TargetClass::ProjectSecret;
    }
    TargetClass::Project
}

/// The host part of a URL or host spec (`https://u@h:1/x` → `h`; `[::1]:80` → `::1`).
pub fn host_of(spec: &str) -> &str {
    let s = spec.trim_matches(['"', '\'']);
    let s = s.split_once("://").map(|(_, r)| r).unwrap_or(s);
    let s = s.split(['/', '?', '#']).next().unwrap_or(s);
    let s = s.rsplit_once('@').map(|(_, h)| h).unwrap_or(s);
    if let Some(r) = s.strip_prefix('[') {
        return r.split(']').next().unwrap_or(r);
    }
    s.split(':').next().unwrap_or(s)
}

fn ipv4(host: &str) -> Option<[u8; 4]> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut out = [0u8; 4];
    for (o, p) in out.iter_mut().zip(&parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(out)
}

/// The class of a host, URL or host spec: loopback, private, public by name, or a public IP
/// literal. A host written as `:8080/x` (httpie's shorthand) is loopback.
pub fn classify_host(spec: &str) -> TargetClass {
    if spec.starts_with(':') {
        return TargetClass::Loopback;
    }
    let host = host_of(spec).to_ascii_lowercase();
    let host = host.trim_end_matches('.');
    if host.is_empty() {
        return TargetClass::Unknown;
    }
    if host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host == "0.0.0.0"
        || host == "host.docker.internal"
    {
        return TargetClass::Loopback;
    }
    if let Some(ip) = ipv4(host) {
        return match ip {
            [127, ..] | [0, ..] => TargetClass::Loopback,
            [10, ..] | [192, 168, ..] | [169, 254, ..] => TargetClass::PrivateHost,
            [172, b, ..] if (16..32).contains(&b) => TargetClass::PrivateHost,
            [100, b, ..] if (64..128).contains(&b) => TargetClass::PrivateHost,
            _ => TargetClass::IpLiteral,
        };
    }
    if host.contains(':') {
        return if host.starts_with("fd") || host.starts_with("fe80") {
            TargetClass::PrivateHost
        } else {
            TargetClass::IpLiteral
        };
    }
    let private_suffix = [
        ".internal",
        ".local",
        ".lan",
        ".corp",
        ".home",
        ".intranet",
        ".svc",
        ".cluster.local",
        ".private",
    ];
    if !host.contains('.') || private_suffix.iter().any(|s| host.ends_with(s)) {
        return TargetClass::PrivateHost;
    }
    TargetClass::PublicHost
}

/// A backup copy's file name: `x.bak`, `x.bak.1`, `x.orig`, `x.old`, `x.backup`, `x.save`,
/// `x~`, `x.bak-2026-11-24` (lowercase base name).
pub fn is_backup_name(base: &str) -> bool {
    if base.ends_with('~') && base.len() > 1 {
        return true;
    }
    base.split('.').skip(1).any(|ext| {
        let ext = ext.split(['-', '_']).next().unwrap_or(ext);
        matches!(
            ext,
            "bak" | "orig" | "old" | "backup" | "save" | "bkp" | "prev"
        )
    })
}

/// `w` without the last label of each dotted name in it: a top-level domain names no
/// environment (`acme.dev`, `shop.test`, `api.live`), a subdomain does (`app.dev.acme.io`).
/// Hosts of vendors' own services whose words name the vendor's product, not the user's
/// environment (`https://dev.azure.com/acme` is Azure DevOps, `login.live.com` a login page).
const VENDOR_HOSTS: &[&str] = &["dev.azure.com", "live.com", "dev.to", "dev.mysql.com"];

fn is_vendor_host(seg: &str) -> bool {
    let h = seg.to_ascii_lowercase();
    VENDOR_HOSTS
        .iter()
        .any(|v| h == *v || h.strip_suffix(v).is_some_and(|p| p.ends_with('.')))
}

fn without_tlds(w: &str) -> String {
    let mut out = String::with_capacity(w.len());
    for (i, seg) in w.split(['/', ':', '@', '?', '#', '=', ',']).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if is_vendor_host(seg) {
            continue;
        }
        match seg.rsplit_once('.') {
            // internal names end in an environment (`cache.prod`, `db.staging`): not a TLD
            Some((head, tld))
                if !head.is_empty()
                    && !tld.is_empty()
                    && tld.chars().all(|c| c.is_ascii_alphabetic())
                    && !matches!(
                        tld.to_ascii_lowercase().as_str(),
                        "prod"
                            | "production"
                            | "prd"
                            | "staging"
                            | "stage"
                            | "stg"
                            | "preprod"
                            | "uat"
                    ) =>
            {
                out.push_str(head);
            }
            _ => out.push_str(seg),
        }
    }
    out
}

/// Whether `token` qualifies `name` as an environment: anywhere but first (`app_ci`,
/// `build-pr-482-x7f2k`), or first with only a number after it (`pr-512`); not first before
/// another word (`ci-deployer` is an account of the CI system).
fn ends_name(name: &str, token: &str) -> bool {
    let mut words = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty());
    match words.next() {
        Some(first) if first.eq_ignore_ascii_case(token) => {
            words.all(|w| w.bytes().all(|b| b.is_ascii_digit()))
        }
        _ => true,
    }
}

/// The environment named by words (resource names, flag values, profiles, contexts, URLs):
/// production wins over staging, staging over development.
pub fn classify_env<'a, I, S>(words: I) -> Environment
where
    I: IntoIterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let mut best = Environment::Unknown;
    for w in words {
        let w = without_tlds(w.as_ref());
        let whole = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let tokens: Vec<&str> = w
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|t| !t.is_empty())
            .collect();
        for (k, token) in tokens.iter().copied().enumerate() {
            let t = token.to_ascii_lowercase();
            let t = t.trim_end_matches(|c: char| c.is_ascii_digit());
            // a feature branch's environment (`feature-4812`, `feat-1290-login`): a topic
            // branch's copy; not a service named for features (`feature-flags`)
            if matches!(t, "feature" | "feat")
                && tokens
                    .get(k + 1)
                    .is_some_and(|n| n.bytes().any(|b| b.is_ascii_digit()))
            {
                best = match best {
                    Environment::Unknown => Environment::Dev,
                    b => b,
                };
                continue;
            }
            // `ci` and `pr` name an environment at the end of a name (`build-pr-482`,
            // `app_ci`), not as a word of their own, which is a subcommand (`glab ci delete`,
            // `gh pr close`), nor before another word (`ci-deployer` is a CI account)
            if matches!(t, "ci" | "pr")
                && (whole.eq_ignore_ascii_case(token) || !ends_name(whole, token))
            {
                continue;
            }
            let env = match t {
                "prod" | "production" | "prd" | "live" | "prodn" => Environment::Prod,
                "staging" | "stage" | "stg" | "preprod" | "uat" => Environment::Staging,
                "dev" | "develop" | "development" | "test" | "testing" | "sandbox" | "local"
                | "qa" | "preview" | "demo" | "scratch" | "tmp" | "temp" | "ci" | "pr"
                | "ephemeral" | "e2e" | "integration" | "localstack" | "minikube" => {
                    Environment::Dev
                }
                _ => continue,
            };
            best = match (best, env) {
                (Environment::Prod, _) | (_, Environment::Prod) => Environment::Prod,
                (Environment::Staging, _) | (_, Environment::Staging) => Environment::Staging,
                _ => Environment::Dev,
            };
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        use TargetClass::*;
        for (p, c) in [
            ("/", Root),
            ("/*", Root),
            ("/etc/passwd", Credentials),
            ("/etc/sudoers.d/90-cloud-init-users", Credentials),
            ("/etc/ssh/sshd_config", Credentials),
            ("/var/log/dpkg.log", Logs),
            ("/var/log/audit/audit.log", Logs),
            ("/root/.bashrc", Persistence),
            ("~/.zshrc", Persistence),
            ("/home/ubuntu/.profile", Persistence),
            ("~/.ssh/authorized_keys", Credentials),
            ("~/.aws/credentials", Credentials),
            ("$USER_HOME/.ssh", Credentials),
            ("/etc/postgresql/16/main/pg_hba.conf", Credentials),
            ("${home}/.bashrc", Persistence),
            ("/home/*/.ssh/authorized_keys", Credentials),
            ("$BUILD_DIR/out", Unknown),
            ("~/.bash_history", Logs),
            ("~", Home),
            ("~/", Home),
            ("~root", Home),
            ("~alice/.ssh/id_ed25519", Credentials),
            ("~deploy/.bashrc", Persistence),
            ("$HOME/*", Home),
            ("~/**", Home),
            ("~/Downloads/x.zip", UserData),
            ("~/.cache/pip", BuildOutput),
            ("~/.ivy2/local", BuildOutput),
            ("~/.m2/repository/com/acme", BuildOutput),
            // the store's parent holds settings and credentials
            ("~/.m2", UserData),
            ("~/.cargo/registry-notes", UserData),
            ("/usr/share/base-passwd/group.master", System),
            ("/etc", System),
            ("/etc/crontab", Persistence),
            ("/etc/cron.d/job", Persistence),
            ("/boot/vmlinuz", Boot),
            ("/backups/postgres/x.dump", Backups),
            ("/var/backups/db", Backups),
            ("~/backups/2026", Backups),
            ("/tmp/backup", Temp),
            ("/dev/sda", Device),
            ("/dev/nvme0n1", Device),
            ("/dev/null", Temp),
            ("/tmp/x.json", Temp),
            ("/tmp", Temp),
            ("node_modules", BuildOutput),
            ("./target/debug", BuildOutput),
            ("src/main.rs", Project),
            (".", Project),
            (".env", ProjectSecret),
            ("config/.env.local", ProjectSecret),
            ("/mnt/backup", Backups),
            ("/srv/pg_backups/2026-11-01.dump", Backups),
            ("/data/mysql-dumps", Backups),
            ("/etcetera", Unknown),
        ] {
            assert_eq!(classify_path(p), c, "{p}");
        }
    }

    #[test]
    fn hosts() {
        use TargetClass::*;
        assert_eq!(classify_host("http://localhost:3000/api"), Loopback);
        assert_eq!(classify_host("127.0.0.1:8000"), Loopback);
        assert_eq!(classify_host("http://[::1]:8000/x"), Loopback);
        assert_eq!(classify_host(":8080/health"), Loopback);
        assert_eq!(classify_host("http://10.0.3.12:9200/_all"), PrivateHost);
        assert_eq!(classify_host("http://es-prod.internal:9200"), PrivateHost);
        assert_eq!(classify_host("https://api.stripe.com/v1"), PublicHost);
        assert_eq!(classify_host("api.acme.io/v1/x"), PublicHost);
        assert_eq!(classify_host("http://203.0.113.7/x"), IpLiteral);
        assert_eq!(classify_host("user@198.51.100.4:/tmp"), IpLiteral);
    }

    #[test]
    fn environments() {
        assert_eq!(classify_env(["prod-db"]), Environment::Prod);
        assert_eq!(classify_env(["--context", "prod-eks"]), Environment::Prod);
        assert_eq!(classify_env(["acme-production"]), Environment::Prod);
        assert_eq!(classify_env(["--live"]), Environment::Prod);
        assert_eq!(classify_env(["-n", "dev"]), Environment::Dev);
        assert_eq!(classify_env(["stg", "prod1"]), Environment::Prod);
        assert_eq!(classify_env(["my-api-staging"]), Environment::Staging);
        assert_eq!(classify_env(["products", "liveness"]), Environment::Unknown);
        // a feature branch's copy, not a service named for features
        assert_eq!(classify_env(["feature-4812"]), Environment::Dev);
        assert_eq!(classify_env(["feat-1290-login"]), Environment::Dev);
        assert_eq!(classify_env(["feature-flags"]), Environment::Unknown);
        assert_eq!(classify_env(["feature-4812-prod"]), Environment::Prod);
        assert_eq!(classify_env(["acme-web-pr-512"]), Environment::Dev);
        assert_eq!(classify_env(["app_ci"]), Environment::Dev);
        assert_eq!(classify_env(["build-pr-482-x7f2k"]), Environment::Dev);
        assert_eq!(classify_env(["pr-512"]), Environment::Dev);
        assert_eq!(
            classify_env(["--user-name", "ci-deployer"]),
            Environment::Unknown
        );
        // a vendor's own host names its product, not an environment
        assert_eq!(
            classify_env(["--org", "https://dev.azure.com/acme"]),
            Environment::Unknown
        );
        assert_eq!(
            classify_env(["https://dev.azure.com/acme-prod"]),
            Environment::Prod
        );
        assert_eq!(classify_env(["https://api.dev.acme.com"]), Environment::Dev);
        // an internal name ending in its environment
        assert_eq!(classify_env(["-h", "streams.prod"]), Environment::Prod);
        assert_eq!(classify_env(["db.staging"]), Environment::Staging);
        assert_eq!(classify_env(["acme.dev"]), Environment::Unknown);
        assert_eq!(
            classify_env(["https://app.dev.acme.io/x"]),
            Environment::Dev
        );
        assert_eq!(classify_env(["backup.prod.sql"]), Environment::Prod);
        assert_eq!(classify_env(["pr-512-prod"]), Environment::Prod);
    }

    #[test]
    fn reversibility_follows_kind_and_target() {
        let t = |c| Target {
            class: c,
            text: "x".into(),
            environment: None,
        };
        assert!(!Effect::new(0, EffectKind::Delete, t(TargetClass::System)).reversible);
        assert!(Effect::new(0, EffectKind::Delete, t(TargetClass::BuildOutput)).reversible);
        assert!(Effect::new(0, EffectKind::Modify, t(TargetClass::Project)).reversible);
        let json = serde_json::to_string(
            &Effect::new(0, EffectKind::Delete, t(TargetClass::CloudResource))
                .with_scope(Scope::Forced),
        )
        .unwrap_or_default();
        assert_eq!(
            json,
            r#"{"command":0,"kind":"delete","target":{"class":"cloud_resource","text":"x"},"scope":["forced"],"reversible":false}"#
        );
    }
}
