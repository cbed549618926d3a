//! Bulk over listings: a kill or a delete run once for every entry of a listing (processes,
//! files, containers, cloud resources, and the keys and objects of key-value and object
//! stores, whose scans feed deletes whatever pattern they select).

use riskgate_model::effect::{Environment, classify_env};
use riskgate_model::{Finding, RiskLevel};
use riskgate_shell::{Listing, ParsedCommand, SimpleCommand};

use super::{pos, raw, span_text};

fn is_kill(c: &SimpleCommand) -> bool {
    c.program == "kill"
        && !c
            .args
            .iter()
            .any(|a| matches!(a.text.as_str(), "-0" | "--signal=0" | "-l" | "--list"))
}

/// Whether a process listing selects only the current user's processes (`ps -u "$(id -u)"`,
/// `pgrep -u "$USER" -f …`, `ps -U $(whoami)`): whatever it matches, no daemon and no other
/// user's process is in it.
fn lists_own_processes(listing: &str) -> bool {
    const SELF: &[&str] = &[
        "$USER",
        "${USER}",
        "$LOGNAME",
        "$UID",
        "${UID}",
        "$(id -u)",
        "$(id -un)",
        "$(id -u -n)",
        "$(whoami)",
        "`id -u`",
        "`whoami`",
    ];
    let words = shell_tokens(listing);
    let program = words.first().copied().unwrap_or("");
    if !matches!(program, "ps" | "pgrep" | "pkill" | "pidof") {
        return false;
    }
    let mut own = false;
    let mut it = words.iter().skip(1).peekable();
    while let Some(w) = it.next() {
        let value = match *w {
            "-u" | "-U" | "--user" | "--uid" | "--User" | "-euid" => it.peek().copied().copied(),
            _ => ["-u", "-U", "--user=", "--uid="]
                .iter()
                .find_map(|f| w.strip_prefix(f).filter(|v| !v.is_empty())),
        };
        if let Some(v) = value {
            let v = v.trim_matches(['"', '\'']);
            if !SELF.contains(&v) {
                return false;
            }
            own = true;
        } else if matches!(*w, "-e" | "-A" | "-ax" | "aux" | "ax" | "-ef" | "-aux") {
            return false;
        }
    }
    own
}

/// Words split at blanks outside `$(…)` and backquotes (`ps -u $(id -u) -o pid` has four).
fn shell_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut tick, mut start) = (0usize, false, None);
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' if i > 0 && b[i - 1] == b'$' || c == b'(' && depth > 0 => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b'`' => tick = !tick,
            b' ' if depth == 0 && !tick => {
                if let Some(s) = start.take() {
                    out.push(&text[s..i]);
                }
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// What a delete of a key-value store's keys removes.
const STORE_KEYS: &str = "keys";
/// What a delete of an object store's objects removes.
const STORE_OBJECTS: &str = "objects";

/// Listings of a key-value or object store (`redis-cli --scan`, `gsutil ls`): whatever they
/// select, a loop deleting what they list is a bulk delete.
const STORE_LISTINGS: &[&str] = &[
    "redis-cli",
    "valkey-cli",
    "keydb-cli",
    "etcdctl",
    "consul",
    "gsutil",
    "rclone",
    "mc",
];

/// What a delete command removes, when it is one.
fn delete_kind(c: &SimpleCommand) -> Option<&'static str> {
    let p0 = pos(c, 0);
    let p1 = pos(c, 1);
    match c.program.as_str() {
        "rm" | "rmdir" | "unlink" | "shred" => Some("files"),
        // emptied in place: the content is gone as surely
        "truncate"
            if raw(c)
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| matches!(w[0], "-s" | "--size") && matches!(w[1], "0" | "0K" | "0M"))
                || raw(c).any(|t| matches!(t, "-s0" | "--size=0")) =>
        {
            Some("files")
        }
        "docker" | "podman" | "nerdctl" => {
            let sub = matches!(p0, "rm" | "rmi" | "kill")
                || (matches!(p0, "container" | "volume" | "image" | "network")
                    && matches!(p1, "rm" | "remove" | "prune"));
            sub.then_some("containers, images or volumes")
        }
        "kubectl" | "oc" => (p0 == "delete").then_some("cluster resources"),
        "helm" => matches!(p0, "uninstall" | "delete" | "del").then_some("releases"),
        "aws" => (p1.starts_with("delete-")
            || p1.starts_with("terminate-")
            || (p0 == "s3" && matches!(p1, "rb" | "rm")))
        .then_some("cloud resources"),
        "gcloud" | "az" | "doctl" => c
            .positionals()
            .any(|w| w.text == "delete")
            .then_some("cloud resources"),
        "dropdb" => Some("databases"),
        "git" => {
            let branch_d = p0 == "branch"
                && raw(c).any(|t| t == "-D" || t == "--delete" && raw(c).any(|u| u == "--force"));
            let push_del = p0 == "push" && (raw(c).any(|t| t == "--delete" || t == "-d"));
            (branch_d || push_del).then_some("branches")
        }
        "wipefs" | "mkfs" | "blkdiscard" => Some("disks"),
        p if p.starts_with("mkfs.") => Some("disks"),
        "virsh" => matches!(p0, "destroy" | "undefine").then_some("virtual machines"),
        "redis-cli" | "valkey-cli" | "keydb-cli" => raw(c)
            .any(|t| t.eq_ignore_ascii_case("del") || t.eq_ignore_ascii_case("unlink"))
            .then_some(STORE_KEYS),
        "etcdctl" => (p0 == "del").then_some(STORE_KEYS),
        "consul" => (p0 == "kv" && p1 == "delete").then_some(STORE_KEYS),
        "gsutil" => matches!(p0, "rm" | "rb").then_some(STORE_OBJECTS),
        "rclone" => matches!(p0, "delete" | "deletefile" | "purge" | "rmdir" | "rmdirs")
            .then_some(STORE_OBJECTS),
        "mc" => matches!(p0, "rm" | "rb").then_some(STORE_OBJECTS),
        "systemctl" => matches!(p0, "stop" | "disable" | "mask" | "kill").then_some("services"),
        _ => None,
    }
}

/// The environment a listing is narrowed to: production (`docker ps --filter
/// label=env=prod`, `kubectl get pods -n prod`, `… | grep prod-`) or development (`kubectl get
/// jobs -n ci-pr-1182`), by the words of the listing and of its filter.
fn listing_environment(l: &Listing) -> Environment {
    let words = l.command.split_whitespace().skip(1).chain(
        l.filter
            .as_deref()
            .into_iter()
            .flat_map(str::split_whitespace),
    );
    classify_env(words)
}

/// Containers a listing selects by a database's name (`grep -E 'postgres|mysql'`), removed
/// with their volumes (`docker rm -v`): the databases' data goes with them.
fn databases_with_volumes(c: &SimpleCommand, l: &Listing) -> bool {
    let volumes = raw(c).any(|t| {
        t == "--volumes" || (t.starts_with('-') && !t.starts_with("--") && t.contains('v'))
    });
    let databases = l.filter.as_deref().is_some_and(|f| {
        let f = f.to_ascii_lowercase();
        [
            "postgres",
            "mysql",
            "mariadb",
            "mongo",
            "redis",
            "elastic",
            "cassandra",
            "clickhouse",
            "influx",
            "-db",
            "db-",
            "_db",
            "database",
        ]
        .iter()
        .any(|d| f.contains(d))
    });
    volumes && databases && matches!(c.program.as_str(), "docker" | "podman" | "nerdctl")
}

/// Words that name development processes: dev servers, watchers, test runners, workers of
/// the project (`node .*vite`, `[p]ytest-watch`, `celery worker -A myapp`).
const DEV_PROCESSES: &[&str] = &[
    "node",
    "nodejs",
    "vite",
    "webpack",
    "next",
    "nuxt",
    "nodemon",
    "tsx",
    "esbuild",
    "rollup",
    "parcel",
    "jest",
    "vitest",
    "mocha",
    "karma",
    "cypress",
    "playwright",
    "pytest",
    "tox",
    "celery",
    "gunicorn",
    "uvicorn",
    "hypercorn",
    "flask",
    "django",
    "runserver",
    "rails",
    "puma",
    "sidekiq",
    "rake",
    "artisan",
    "streamlit",
    "jupyter",
    "ipython",
    "storybook",
    "electron",
    "chromedriver",
    "geckodriver",
    "selenium",
    "hugo",
    "jekyll",
    "tsc",
    "eslint",
    "watchman",
    "watch",
    "dev",
    "serve",
    "expo",
    "metro",
    "gatsby",
    "remix",
    "astro",
    "deno",
    "bun",
    "air",
    "cargo",
    "wasm-pack",
    "trunk",
    "nextjs",
    "react-scripts",
    "ng",
    "worker",
];

/// Whether a kill sends SIGKILL (no chance to shut down cleanly).
fn sigkill(c: &SimpleCommand) -> bool {
    raw(c).any(|t| {
        matches!(
            t,
            "-9" | "-KILL"
                | "-SIGKILL"
                | "-s9"
                | "--signal=9"
                | "--signal=KILL"
                | "--signal=SIGKILL"
        )
    }) || raw(c).collect::<Vec<_>>().windows(2).any(|w| {
        matches!(w[0], "-s" | "-n" | "--signal") && matches!(w[1], "9" | "KILL" | "SIGKILL")
    })
}

/// Whether a listing's selection names development processes and no daemon.
fn selects_dev_processes(filter: &str) -> bool {
    let text = filter.replace(['[', ']'], "").to_ascii_lowercase();
    // whole names (`wasm-pack`) and their parts (`pytest-watch` → `pytest`, `watch`)
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .flat_map(|w| std::iter::once(w).chain(w.split('-')))
        .filter(|w| !w.is_empty())
        .collect();
    let daemon = words
        .iter()
        .any(|w| crate::effects::DAEMONS.contains(w) || crate::effects::SECURITY_UNITS.contains(w));
    !daemon && words.iter().any(|w| DEV_PROCESSES.contains(w))
}

/// A file listing, selected or not, whose entries are system files, logs, credentials,
/// start-up files or backups (`find /var/log -name '*.log'` → `/var/log/**/*.log`).
fn listed_precious_entries(l: &Listing) -> bool {
    use riskgate_model::effect::{TargetClass, classify_path};
    let Some(e) = l.entries.as_deref() else {
        return false;
    };
    matches!(
        classify_path(e),
        TargetClass::Root
            | TargetClass::Boot
            | TargetClass::System
            | TargetClass::Logs
            | TargetClass::Credentials
            | TargetClass::Persistence
            | TargetClass::Backups
            | TargetClass::Home
    )
}

/// A file listing of a directory that is system, home or root data (not temp, not relative).
fn listed_system_path(l: &Listing) -> bool {
    let Some(p) = l.path.as_deref() else {
        return false;
    };
    (p.starts_with('/') || p.starts_with('~'))
        && !p.starts_with("/tmp")
        && !p.starts_with("/var/tmp")
        && !p.starts_with("/dev/shm")
}

/// A listing of the system's accounts (`getent passwd`, `awk -F: … /etc/passwd`).
fn account_listing(l: &Listing) -> bool {
    l.program == "getent" || l.command.contains("/etc/passwd") || l.command.contains("/etc/shadow")
}

/// A command that ends, locks or removes one account's sessions, processes or login.
fn acts_on_account(c: &SimpleCommand) -> bool {
    let p0 = pos(c, 0);
    let raw: Vec<&str> = raw(c).collect();
    match c.program.as_str() {
        "loginctl" => matches!(
            p0,
            "kill-user" | "terminate-user" | "kill-session" | "terminate-session"
        ),
        "pkill" | "killall" | "skill" => raw.iter().any(|t| t.starts_with("-u") || *t == "--user"),
        "userdel" | "deluser" => true,
        "passwd" => raw
            .iter()
            .any(|t| matches!(*t, "-l" | "--lock" | "-d" | "--delete" | "-e" | "--expire")),
        "usermod" => raw
            .iter()
            .any(|t| matches!(*t, "-L" | "--lock" | "-s" | "--shell")),
        "chage" => raw.iter().any(|t| t.starts_with("-E")),
        _ => false,
    }
}

pub(super) fn bulk_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in &parsed.commands {
        let Some(l) = &c.iterates else {
            continue;
        };
        let (id, level, score, msg) = if account_listing(l) && acts_on_account(c) {
            (
                "flow.every-account",
                RiskLevel::High,
                76,
                format!(
                    "Runs `{}` once for every account `{}` lists: every user's sessions, processes or login",
                    c.program, l.command
                ),
            )
        } else if is_kill(c) {
            // `lsof -t -i :3000 | xargs kill`: whatever holds one port — a daemon's port
            // (`:22`, `:5432`) names the daemon.
            let daemon = crate::effects::daemon_of_listing(&l.command);
            if l.program == "lsof" && daemon.is_none() {
                continue;
            }
            let every = l.every && l.program == "ps";
            // the user's own processes, and among them those a pattern selects: every one
            // of them would be the user's shell, editors and agent too
            let own = lists_own_processes(&l.command) && l.filter.is_some();
            if let Some(d) = daemon {
                (
                    "flow.kill-listed-processes",
                    RiskLevel::High,
                    74,
                    format!(
                        "Kills the processes of `{d}`, which the listing `{}` names",
                        l.command
                    ),
                )
            } else if own {
                (
                    "flow.kill-listed-processes",
                    RiskLevel::Medium,
                    46,
                    format!(
                        "Kills processes a listing of your own processes selects (`{}`): no daemon or other user's process",
                        l.command
                    ),
                )
            } else if every {
                (
                    "flow.kill-every-process",
                    RiskLevel::Critical,
                    92,
                    format!(
                        "Kills every process `{}` lists (system daemons, the shell, the session included)",
                        l.command
                    ),
                )
            } else if !sigkill(c) && l.filter.as_deref().is_some_and(selects_dev_processes) {
                (
                    "flow.kill-listed-processes",
                    RiskLevel::Medium,
                    46,
                    format!(
                        "Kills the processes a listing selects (`{}` matching `{}`): development processes, no daemon named",
                        l.command,
                        l.filter.as_deref().unwrap_or_default()
                    ),
                )
            } else {
                (
                    "flow.kill-listed-processes",
                    RiskLevel::High,
                    74,
                    format!(
                        "Kills every process matching a listing (`{}`), one by one: daemons and other users' processes included",
                        l.command
                    ),
                )
            }
        } else if let Some(kind) = delete_kind(c)
            && !c.args.iter().any(|a| {
                a.text.starts_with("--dry-run") || a.text == "--dryrun" || a.text == "--check"
            })
        {
            let files = kind == "files";
            let listed_env = listing_environment(l);
            let store = matches!(kind, STORE_KEYS | STORE_OBJECTS)
                && STORE_LISTINGS.contains(&l.program.as_str());
            let bulk = if files {
                (l.every && listed_system_path(l)) || listed_precious_entries(l)
            } else {
                l.every || store || listed_env == Environment::Prod || databases_with_volumes(c, l)
            };
            if !bulk {
                continue;
            }
            // Resources of a development environment (the command's words, the listing's,
            // or a context the script selected: `az account set --subscription acme-dev`,
            // `--namespace preview-pr-471`) are development ones, unless the listing selects
            // production.
            let dev_resources =
                matches!(kind, "cloud resources" | "cluster resources" | "releases")
                    && listed_env != Environment::Prod
                    && (listed_env == Environment::Dev
                        || crate::envscope::command_environment(c) == Environment::Dev);
            // A store's keys: every key of a production store is the worst case, a store on
            // this machine a development one.
            let (level, score) = match store.then(|| crate::envscope::command_environment(c)) {
                Some(Environment::Prod) if l.every => (RiskLevel::Critical, 90),
                Some(Environment::Dev) => (RiskLevel::Medium, 46),
                _ if dev_resources => (RiskLevel::Medium, 46),
                _ => (RiskLevel::High, 76),
            };
            let selection = match (&l.filter, store) {
                (Some(f), true) => format!(" matching `{f}`"),
                _ => String::new(),
            };
            (
                "flow.delete-every-listed",
                level,
                score,
                format!(
                    "{} every entry of a listing (`{}` → `{}`): all {kind} it names{selection}, one by one",
                    if kind == "services" {
                        "Stops"
                    } else {
                        "Deletes"
                    },
                    l.command,
                    c.program
                ),
            )
        } else {
            continue;
        };
        if !seen.insert((id, c.span.start)) {
            continue;
        }
        out.push(
            Finding::new(id, level, score, msg)
                .reversible(false)
                .with_match(span_text(parsed, c.span), Some(c.span))
                .with_mitigation(
                    "Select the targets explicitly and review the list before acting on it",
                ),
        );
    }
    out
}
