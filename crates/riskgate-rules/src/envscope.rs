//! Environment scope of a rule's match: a data or infrastructure rule that fires on a command
//! aimed only at a development or test resource (`dropdb app_test`, `redis-cli -h localhost
//! FLUSHDB`, `docker compose -f docker-compose.test.yml down -v`, `sqlite3 :memory: …`) is
//! capped at MEDIUM, as the effect model caps development resources.
//!
//! The environment is read from the words that name resources — positional names, option
//! values, URLs and hosts — with [`classify_env`] (production wins over staging, staging over
//! development) and loopback hosts counting as development. Words with whitespace are payloads
//! (SQL, scripts, messages), not names: a comment saying `-- test` in the SQL of
//! `psql prod -c "DROP TABLE users; -- test"` does not make it a test database.
//!
//! Only rules about data and infrastructure are scoped (tags in [`SCOPED`]); a rule about the
//! host itself, credentials, code execution or security controls is never lowered by a name.

use std::borrow::Cow;

use riskgate_model::effect::{Environment, TargetClass, classify_env, classify_host};
use riskgate_model::{Finding, RiskLevel};
use riskgate_shell::SimpleCommand;

/// A rule with one of these tags is about a data store or infrastructure resource.
const SCOPED: &[&str] = &[
    "database",
    "postgres",
    "redis",
    "sql",
    "kubernetes",
    "cloud",
    "iac",
    "terraform",
    "pulumi",
    "containers",
    "docker",
    "storage",
    "s3",
    "deployment",
    "messaging",
    "queue",
];

/// A rule with one of these tags is never lowered by the environment.
const UNSCOPED: &[&str] = &[
    "credentials",
    "secrets",
    "secret-exposure",
    "data-exposure",
    "exposure",
    "exfiltration",
    "remote-code",
    "remote-execution",
    "download",
    "supply-chain",
    "persistence",
    "privilege",
    "privilege-escalation",
    "firewall",
    "security",
    "safety-off",
    "system",
    "boot",
    "disk",
    "kernel",
    "iam",
    "access",
    "tampering",
    "anti-forensics",
    "defense-evasion",
    "lockout",
];

/// The score a capped finding keeps at most: MEDIUM with room for the other findings' bump
/// (at most 10 points), so the whole stays MEDIUM.
pub(crate) const CAPPED_SCORE: u8 = 50;

/// Whether a rule with `tags` is about data or resources at all: not one about the host, its
/// credentials, code execution or security controls, which nothing about a target lowers.
pub fn may_be_lowered(tags: &[impl AsRef<str>]) -> bool {
    !tags.iter().any(|t| UNSCOPED.contains(&t.as_ref()))
}

/// Whether a rule with `tags` is lowered on a development resource.
pub(crate) fn is_scoped(tags: &[impl AsRef<str>]) -> bool {
    tags.iter().any(|t| SCOPED.contains(&t.as_ref()))
        && !tags.iter().any(|t| UNSCOPED.contains(&t.as_ref()))
}

/// Whether a word names a local file (`/tmp/v.json`, `~/x`, an option's `file:///tmp/v.json`
/// or `fileb://…` value): its path says nothing of the resource's environment.
fn local_file(w: &str) -> bool {
    let v = match w.split_once('=') {
        Some((flag, v)) if flag.starts_with('-') => v,
        _ => w,
    };
    let v = v
        .strip_prefix("file://")
        .or_else(|| v.strip_prefix("fileb://"))
        .unwrap_or(v);
    v.starts_with(['/', '~'])
        || v.starts_with("./")
        || w.starts_with("file://")
        || w.starts_with("fileb://")
}

/// The environment `cmd` is aimed at, from the words that name resources.
pub fn command_environment(cmd: &SimpleCommand) -> Environment {
    // an embedded database kept in a temporary directory (`sqlite3 /tmp/scratch.db …`) is a
    // scratch copy: its file is the whole database
    if matches!(
        cmd.program.as_str(),
        "sqlite3" | "sqlite" | "duckdb" | "litecli" | "sqlite-utils"
    ) && cmd.positionals().next().is_some_and(|w| {
        !w.dynamic && riskgate_model::effect::classify_path(&w.text) == TargetClass::Temp
    }) {
        return Environment::Dev;
    }
    let names = cmd
        .args
        .iter()
        .chain(cmd.assignments.iter().map(|(_, w)| w))
        // payloads (whitespace) and files named by absolute paths (`-f /tmp/cleanup.sql`) name
        // no environment; a variable's name may (`"$PROD_DATABASE_URL"`)
        .filter(|w| !w.text.chars().any(char::is_whitespace) && !local_file(&w.text))
        .map(|w| w.text.as_str())
        // `export RAILS_ENV=test` earlier in the script
        .chain(cmd.context_env.iter().map(|(_, v)| v.as_str()))
        // the entries of the listing it runs once for stand for its targets (`docker ps
        // --filter label=…project=acme-dev -q | xargs docker stop`)
        // (key patterns and globs, `tmp:*`, select keys, not an environment)
        .chain(cmd.iterates.iter().flat_map(|l| {
            l.command
                .split_whitespace()
                .skip(1)
                .chain(
                    l.filter
                        .as_deref()
                        .into_iter()
                        .flat_map(str::split_whitespace),
                )
                .filter(|w| !w.contains([':', '*', '?']))
        }));
    let mut loopback = false;
    let mut everything = false;
    let mut named: Vec<Cow<str>> = Vec::new();
    for w in names {
        // an option's name is not a name (`--skip-preview`); its value is (`--context=prod`)
        if w.starts_with('-') && !w.contains('=') {
            continue;
        }
        let value = w.split_once('=').map_or(w, |(_, v)| v);
        let upper = value.to_ascii_uppercase();
        if value.contains('*') || value.ends_with("_all") || upper == "FLUSHALL" {
            everything = true;
        }
        if value == ":memory:" {
            loopback = true;
            continue;
        }
        let hostlike = value.contains("://")
            || matches!(
                riskgate_model::effect::host_of(value),
                "localhost" | "127.0.0.1" | "::1"
            );
        if hostlike && classify_host(value) == TargetClass::Loopback {
            loopback = true;
        }
        // SQL Server on this machine: `(localdb)\MSSQLLocalDB`, `(local)`, `.\SQLEXPRESS`,
        // `localhost\SQLEXPRESS`
        let lv = value.to_ascii_lowercase();
        if lv.starts_with("(localdb)")
            || lv.starts_with("(local)")
            || lv == "."
            || lv.starts_with(".\\")
            || lv.starts_with("localhost\\")
            || lv.starts_with("127.0.0.1\\")
        {
            loopback = true;
        }
        // a throwaway name (`kubectl run tmp …`, `--name scratch`) says nothing about where
        // the command's data lives
        if matches!(
            value.to_ascii_lowercase().as_str(),
            "tmp" | "temp" | "scratch"
        ) {
            continue;
        }
        // a Python settings module (`--settings=config.settings.test`,
        // `DJANGO_SETTINGS_MODULE=app.settings.production`) is a dotted module path, not a
        // host name: its last part (`test`) is no top-level domain
        if is_settings_module(value) {
            named.push(Cow::Owned(value.replace('.', "/")));
            continue;
        }
        named.push(Cow::Borrowed(w));
    }
    // a side database of this machine's Redis (`redis-cli -n 15 FLUSHDB`, no server given:
    // redis-cli reads none from the environment); database 0 is the application's own
    if matches!(
        cmd.program.as_str(),
        "redis-cli" | "valkey-cli" | "keydb-cli"
    ) && cmd.remote.is_none()
    {
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let elsewhere = raw.iter().any(|t| {
            matches!(*t, "-h" | "-u" | "--uri" | "--tls" | "--cluster" | "-s")
                || t.starts_with("-h")
                || t.starts_with("--uri=")
        });
        let side_db = raw
            .windows(2)
            .any(|w| w[0] == "-n" && w[1].parse::<u32>().is_ok_and(|n| n > 0));
        if !elsewhere && side_db {
            loopback = true;
        }
    }
    // the objects SQL given to the client drops or empties are names (`DROP DATABASE IF
    // EXISTS app_test`): when every one of them is a development or test one, they say so
    let dropped: Vec<String> = cmd
        .args
        .iter()
        .filter(|w| w.text.chars().any(char::is_whitespace))
        // an option's value (`--command=DROP …`) is the text
        .map(|w| match w.text.split_once('=') {
            Some((opt, value)) if opt.starts_with('-') && !opt.contains(char::is_whitespace) => {
                value
            }
            _ => w.text.as_str(),
        })
        .flat_map(sql_dropped_names)
        .collect();
    if !dropped.is_empty()
        && dropped
            .iter()
            .all(|n| classify_env([n.as_str()]) == Environment::Dev)
    {
        named.extend(dropped.into_iter().map(Cow::Owned));
    }
    // A service on this machine is a development one for a named resource; wiping all of
    // it (`DELETE localhost:9200/_all`, `logs-*`, FLUSHALL) is not presumed harmless.
    match classify_env(named) {
        Environment::Unknown if loopback && !everything => Environment::Dev,
        // the compose project of the working directory on this machine's daemon: the
        // project's own stack (`docker compose down -v` resets its volumes)
        Environment::Unknown if is_local_compose(cmd) => Environment::Dev,
        env => env,
    }
}

/// Most dropped names read from one SQL text.
const MAX_DROPPED: usize = 16;

/// The objects an SQL text drops or empties: the name after `DROP DATABASE|SCHEMA|TABLE|
/// KEYSPACE [IF EXISTS]` and `TRUNCATE [TABLE]`, without quotes.
fn sql_dropped_names(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .filter(|w| !w.is_empty())
        .collect();
    let is = |i: usize, k: &str| words.get(i).is_some_and(|w| w.eq_ignore_ascii_case(k));
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() && out.len() < MAX_DROPPED {
        let mut j = if is(i, "DROP")
            && ["DATABASE", "SCHEMA", "TABLE", "KEYSPACE"]
                .iter()
                .any(|k| is(i + 1, k))
        {
            i + 2
        } else if is(i, "TRUNCATE") {
            if is(i + 1, "TABLE") { i + 2 } else { i + 1 }
        } else {
            i += 1;
            continue;
        };
        if is(j, "IF") && is(j + 1, "EXISTS") {
            j += 2;
        }
        if let Some(name) = words.get(j) {
            let name = name.trim_matches(|c: char| matches!(c, '"' | '`' | '\'' | ','));
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
        i = j + 1;
    }
    out
}

/// A dotted Python module path with a `settings` part (`config.settings.test`,
/// `settings.production`, `app.settings_ci`): identifiers joined by dots, nothing else.
fn is_settings_module(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        && parts[..parts.len() - 1]
            .iter()
            .any(|p| p.eq_ignore_ascii_case("settings"))
}

/// A compose command (`docker compose`, `docker-compose`, `podman compose`) run here, against
/// the local daemon: not on a remote host, not with another daemon's host or context.
fn is_local_compose(cmd: &SimpleCommand) -> bool {
    let compose = match cmd.program.as_str() {
        "docker-compose" | "podman-compose" => true,
        "docker" | "podman" => cmd
            .positionals()
            .next()
            .is_some_and(|w| w.text == "compose"),
        _ => false,
    };
    let elsewhere = |w: &str| {
        matches!(w, "-H" | "--host" | "--context" | "-c")
            || w.starts_with("--host=")
            || w.starts_with("--context=")
            || w.starts_with("-H=")
    };
    let daemon_var = |name: &str| matches!(name, "DOCKER_HOST" | "DOCKER_CONTEXT");
    compose
        && cmd.remote.is_none()
        && !cmd.args.iter().any(|w| elsewhere(&w.text))
        && !cmd.assignments.iter().any(|(n, _)| daemon_var(n))
        && !cmd.context_env.iter().any(|(n, _)| daemon_var(n))
}

/// Whether `cmd` runs once per entry of a file listing of project paths (`ls -dt previews/*/
/// | tail -n +6 | xargs rm -rf`, `find . -name '*.pyc' | xargs rm`): a relative directory
/// with no `..`, or the working directory; or of a container engine's unused objects
/// (`docker images -f dangling=true -q | xargs docker rmi`).
pub(crate) fn iterates_project_listing(cmd: &SimpleCommand) -> bool {
    let Some(l) = &cmd.iterates else {
        return false;
    };
    // a container engine's listing narrowed to what nothing uses: dangling images, exited
    // or never-started containers, volumes no container mounts
    if matches!(l.program.as_str(), "docker" | "podman" | "nerdctl") {
        let garbage = ["dangling=true", "status=exited", "status=created"]
            .iter()
            .any(|f| l.command.contains(f));
        return garbage && !l.command.contains("status=running");
    }
    if !matches!(l.program.as_str(), "ls" | "find" | "fd" | "git") {
        return false;
    }
    let first = l
        .command
        .split_whitespace()
        .skip(1)
        .find(|w| !w.starts_with('-'));
    match (l.program.as_str(), first) {
        // `git ls-files …`, `git diff --name-only`: project paths by construction
        ("git", Some(sub)) => matches!(sub, "ls-files" | "diff"),
        ("git", None) => false,
        (_, None) => true,
        (_, Some(dir)) => {
            !dir.starts_with(['/', '~', '$'])
                && !dir.split('/').any(|seg| seg == "..")
                && !dir.contains("$(")
        }
    }
}

/// Cap `f` at MEDIUM because every command it matched is aimed at a development resource.
pub fn cap_for_development(f: &mut Finding) {
    cap_at_medium(f, "on a development or test resource: at most MEDIUM");
}

/// Cap `f` at MEDIUM and say why (`why` is appended in parentheses). A finding already MEDIUM
/// keeps its level with its score clamped, leaving room for the other findings' bump, so
/// that several capped findings cannot add up to HIGH. Every scope cap goes through here.
pub fn cap_at_medium(f: &mut Finding, why: &str) {
    if f.level == RiskLevel::Medium {
        f.score = f.score.min(CAPPED_SCORE);
    }
    if f.level <= RiskLevel::Medium {
        return;
    }
    f.level = RiskLevel::Medium;
    f.score = f.score.min(CAPPED_SCORE);
    f.description.push_str(&format!(" ({why})"));
}

/// Cap `f` at LOW, saying why (`why` in parentheses after its description). The score is
/// clamped to LOW's band with room for the other findings' bump.
fn cap_at_low(f: &mut Finding, why: &str) {
    if f.level <= RiskLevel::Low {
        return;
    }
    f.level = RiskLevel::Low;
    f.score = f.score.min(30);
    f.description.push_str(&format!(" ({why})"));
}

/// Cap `f` at LOW: every command it matched is a dry run of a program whose dry run stops the
/// change (`kubectl delete ns prod --dry-run=client`, `helm uninstall api --dry-run`).
pub(crate) fn cap_for_dry_run(f: &mut Finding) {
    cap_at_low(f, "a dry run: it only shows what would change; at most LOW");
}

/// Cap `f` at LOW: every command it matched deletes only files the script wrote before it (see
/// `ownfiles`).
pub(crate) fn cap_for_own_output(f: &mut Finding) {
    cap_at_low(
        f,
        "only what this script made before (files, or resources named for this run): its own intermediate output",
    );
}

/// Whether a rule deletes data or infrastructure (scoped by environment, and tagged
/// `destructive`/`data-loss` or named for a delete): on production it is at least HIGH.
pub(crate) fn deletes_data(id: &str, tags: &[impl AsRef<str>]) -> bool {
    is_scoped(tags)
        && (tags
            .iter()
            .any(|t| matches!(t.as_ref(), "destructive" | "data-loss"))
            || [
                "delete", "drop", "purge", "truncate", "wipe", "destroy", "flush",
            ]
            .iter()
            .any(|w| id.contains(w)))
}

/// Raise `f` to HIGH: every command it matched deletes a production resource (the mirror of
/// [`cap_for_development`]).
pub(crate) fn raise_for_production(f: &mut Finding) {
    if f.level != RiskLevel::Medium {
        return;
    }
    f.level = RiskLevel::High;
    f.score = f.score.max(62);
    f.description
        .push_str(" (on a production resource: at least HIGH)");
}

/// Cap `f` at MEDIUM: every command it matched deletes entries of a listing of project paths.
pub(crate) fn cap_for_project_listing(f: &mut Finding) {
    cap_at_medium(
        f,
        "the entries come from a listing of project paths or unused objects: at most MEDIUM",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(cmd: &str) -> Environment {
        let parsed = riskgate_shell::parse(cmd);
        parsed
            .commands
            .iter()
            .map(command_environment)
            .max_by_key(|e| match e {
                Environment::Prod => 3,
                Environment::Staging => 2,
                Environment::Dev => 1,
                Environment::Unknown => 0,
            })
            .unwrap_or(Environment::Unknown)
    }

    #[test]
    fn names_hosts_and_payloads() {
        assert_eq!(env("dropdb --if-exists app_test"), Environment::Dev);
        assert_eq!(
            env("redis-cli -h localhost -p 6380 FLUSHDB"),
            Environment::Dev
        );
        assert_eq!(
            env("curl -X DELETE http://127.0.0.1:9200/idx"),
            Environment::Dev
        );
        assert_eq!(env("sqlite3 :memory: 'DROP TABLE t'"), Environment::Dev);
        assert_eq!(env("psql -d app_test -c 'TRUNCATE t'"), Environment::Dev);
        // a payload's words are not names
        assert_eq!(
            env("psql shop -c 'DROP TABLE users; -- test'"),
            Environment::Unknown
        );
        // ... but the objects it drops are, when every one of them is a test one
        assert_eq!(
            env("psql -U postgres -c 'DROP DATABASE IF EXISTS app_test;'"),
            Environment::Dev
        );
        assert_eq!(
            env("psql -U postgres -c 'DROP DATABASE app_test; DROP DATABASE app;'"),
            Environment::Unknown
        );
        assert_eq!(
            env("psql -h db.prod -c 'DROP DATABASE app_test'"),
            Environment::Prod
        );
        // a settings module is not a host name
        assert_eq!(
            env("python manage.py flush --settings=config.settings.test"),
            Environment::Dev
        );
        // production wins, whatever else is named
        assert_eq!(env("dropdb prod_main -h localhost"), Environment::Prod);
        assert_eq!(
            env("kubectl delete ns payments --context prod-eks"),
            Environment::Prod
        );
        assert_eq!(env("redis-cli FLUSHALL"), Environment::Unknown);
        assert_eq!(env("redis-cli -h localhost FLUSHALL"), Environment::Unknown);
        assert_eq!(
            env("curl -X DELETE http://localhost:9200/_all"),
            Environment::Unknown
        );
        assert_eq!(env("pulumi up -y --skip-preview"), Environment::Unknown);
        assert_eq!(
            env("psql \"$PROD_DATABASE_URL\" -f /tmp/cleanup.sql"),
            Environment::Prod
        );
        assert_eq!(
            env("rclone sync /tmp/empty gdrive:Work"),
            Environment::Unknown
        );
        assert_eq!(env("dropdb shop"), Environment::Unknown);
        // the working directory's compose stack on this machine is the project's own
        assert_eq!(env("docker compose down -v"), Environment::Dev);
        assert_eq!(env("docker-compose down --volumes"), Environment::Dev);
        assert_eq!(
            env("docker-compose -f docker-compose.prod.yml down -v"),
            Environment::Prod
        );
        assert_eq!(
            env("docker -H ssh://deploy@10.0.0.5 compose down -v"),
            Environment::Unknown
        );
        assert_eq!(
            env("DOCKER_HOST=tcp://db1:2376 docker compose down -v"),
            Environment::Unknown
        );
        assert_eq!(
            env("ssh app-1 'docker compose down -v'"),
            Environment::Unknown
        );
        assert_eq!(env("docker volume rm pgdata"), Environment::Unknown);
        assert_eq!(
            env("export RAILS_ENV=test\nbin/rails db:drop"),
            Environment::Dev
        );
        assert_eq!(
            env("export DATABASE_URL=postgres://u:p@localhost/app\ndropdb app"),
            Environment::Dev
        );
    }

    #[test]
    fn scoped_tags() {
        assert!(is_scoped(&["database", "destructive"]));
        assert!(!is_scoped(&["database", "credentials"]));
        assert!(!is_scoped(&["filesystem", "destructive"]));
    }
}
