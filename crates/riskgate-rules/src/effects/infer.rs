//! Computing the effects of one simple command: write redirections, the programs described in
//! `data/effects.yaml` (their target arguments and flags), a few programs whose effect depends
//! on their words (`dd of=`, `kill`, `systemctl`), HTTP clients (the method and the host), and
//! generic inference for programs nobody described (subcommand verbs, verb flags, no-confirm
//! and bulk flags, production context).

use riskgate_model::effect::{
    Effect, EffectKind, Environment, Scope, Target, TargetClass, classify_env, classify_host,
    classify_path,
};

use super::table::{self, TargetArgs};
use crate::matcher::CommandView;
use crate::scoring;

/// An effect and the extra weight inference found for it (a resource noun, a destructive path
/// of a URL), used by the scorer.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) effect: Effect,
    pub(crate) weight: u32,
    /// Read from a subcommand verb or flag of a program nobody described.
    pub(crate) guessed: bool,
}

pub(crate) fn found(effect: Effect) -> Found {
    Found {
        effect,
        weight: 0,
        guessed: false,
    }
}

pub(crate) fn path_target(text: &str) -> Target {
    Target {
        class: classify_path(text),
        text: text.to_string(),
        environment: None,
    }
}

/// The effects of one command (none for help and dry runs).
pub(crate) fn command_effects(v: &CommandView<'_>) -> Vec<Found> {
    let mut out = Vec::new();
    if scoring::is_dry_run(v) || v.cmd.program_dynamic {
        return out;
    }
    redirect_effects(v, &mut out);
    let program = v.cmd.program.as_str();
    if let Some(p) = table::program(program) {
        described_effects(v, p, &mut out);
    } else if !special_effects(v, &mut out)
        && !super::windows::effects(v, &mut out)
        && !http_effects(v, &mut out)
        && (is_unknown(program) || table::is_service_cli(program))
    {
        generic_effects(v, &mut out);
    }
    for f in &mut out {
        f.effect.command = v.index;
        if v.cmd.privileged {
            f.effect.scope.push(Scope::Privileged);
        }
    }
    out
}

/// A program nobody described: not in the executable table, the effect table or the local list.
fn is_unknown(program: &str) -> bool {
    !program.is_empty()
        && crate::builtin::executable(program).is_none()
        && !table::is_local(program)
}

fn redirect_effects(v: &CommandView<'_>, out: &mut Vec<Found>) {
    for r in &v.cmd.redirects {
        let op = r.op.as_str();
        let t = r.target.text.as_str();
        if !op.contains('>')
            || ((op.ends_with('&') || op == ">&")
                && (t == "-" || t.bytes().all(|b| b.is_ascii_digit())))
        {
            continue;
        }
        let target = path_target(t);
        if target.class == TargetClass::Temp && t.starts_with("/dev/") {
            continue;
        }
        let kind = if op.contains(">>") {
            EffectKind::Modify
        } else {
            EffectKind::Overwrite
        };
        out.push(found(Effect::new(0, kind, target)));
    }
}

pub(crate) fn file_scope(v: &CommandView<'_>, e: Effect, text: &str) -> Effect {
    let mut e = e;
    // `P/**`: every file of the tree under P (a listing's items, a globstar)
    if v.has_flag("--recursive")
        || v.has_flag("-R")
        || v.has_flag("-r")
        || v.has_flag("-Recurse")
        || text.ends_with("/**")
    {
        e = e.with_scope(Scope::Recursive);
    }
    if text.contains('*') {
        e = e.with_scope(Scope::Bulk);
    }
    if v.has_flag("--force") || v.has_flag("-f") || v.has_flag("-Force") {
        e = e.with_scope(Scope::Forced);
    }
    e
}

/// Whether a chmod mode loosens access (world-writable, setuid/setgid).
fn loose_mode(mode: &str) -> bool {
    if mode.bytes().all(|b| b.is_ascii_digit()) {
        let d: Vec<u8> = mode.bytes().map(|b| b - b'0').collect();
        let others = d.last().copied().unwrap_or(0);
        let special = if d.len() == 4 {
            d.first().copied().unwrap_or(0)
        } else {
            0
        };
        return matches!(others, 2 | 3 | 6 | 7) || special & 6 != 0;
    }
    mode.split(',').any(|clause| {
        let (who, rest) = clause.split_at(clause.find(['+', '=']).unwrap_or(clause.len()));
        let adds_w =
            rest.contains('w') && (who.is_empty() || who.contains('o') || who.contains('a'));
        adds_w || rest.contains('s')
    })
}

/// Whether a chmod `mode` takes read access away from everyone, the owner included (`000`,
/// `0000`, `a-r`, `ugo-rwx`, `a=`, `u=,g=,o=`): nobody but root can read the files any more.
/// Tightening for the others only (`700`, `go-rwx`, `o=`) is not.
fn locking_mode(mode: &str) -> bool {
    if !mode.is_empty() && mode.bytes().all(|b| b.is_ascii_digit()) {
        let v = u32::from_str_radix(mode, 8).unwrap_or(u32::MAX);
        return v & 0o444 == 0;
    }
    let mut owner_loses_read = false;
    for clause in mode.split(',') {
        let Some(at) = clause.find(['+', '-', '=']) else {
            return false;
        };
        let (who, rest) = clause.split_at(at);
        let all = who.is_empty() || who.contains('a') || who.contains('u');
        if all
            && (rest.starts_with('-') && rest.contains('r')
                || rest.starts_with('=') && !rest.contains('r'))
        {
            owner_loses_read = true;
        }
        if rest.starts_with('+') && rest.contains('r') {
            return false;
        }
    }
    owner_loses_read
}

/// Whether the effect a described program has applies to this invocation (`wipefs` without
/// `--all` only lists signatures; `sfdisk --dump` only reads the table).
pub(crate) fn described_applies(v: &CommandView<'_>, p: &table::ProgramEffect) -> bool {
    let raw_has = |f: &&str| v.cmd.raw_argv.iter().skip(1).any(|w| w.text == **f);
    let has = |f: &&str| v.has_flag(f) || raw_has(f);
    (p.only_with.is_empty() || p.only_with.iter().any(has)) && !p.unless_with.iter().any(has)
}

fn described_effects(v: &CommandView<'_>, p: &table::ProgramEffect, out: &mut Vec<Found>) {
    let raw_has = |f: &&str| v.cmd.raw_argv.iter().skip(1).any(|w| w.text == **f);
    if !described_applies(v, p) {
        return;
    }
    let kind = if p.append.iter().any(|f| v.has_flag(f) || raw_has(f)) {
        EffectKind::Modify
    } else {
        p.kind
    };
    if p.targets == TargetArgs::None {
        let t = Target {
            class: TargetClass::Machine,
            text: v.cmd.program.clone(),
            environment: None,
        };
        out.push(found(Effect::new(0, kind, t)));
        return;
    }
    // sed/perl: the script is a positional unless given by -e.
    let script_flag = ["-e", "--expression", "--file"]
        .iter()
        .any(|f| v.has_flag(f));
    let skip = if script_flag { 0 } else { usize::from(p.skip) };
    let args: Vec<&str> = v
        .positionals
        .iter()
        .filter(|a| !(script_flag && a.after_flag))
        .map(|a| a.text.as_ref())
        .skip(skip)
        .collect();
    let mode = (kind == EffectKind::Permissions)
        .then(|| v.positionals.first().map(|a| a.text.as_ref()))
        .flatten();
    let chosen: Vec<(&str, EffectKind)> = match p.targets {
        TargetArgs::All | TargetArgs::None => args.iter().map(|a| (*a, kind)).collect(),
        TargetArgs::Last => args.last().map(|a| vec![(*a, kind)]).unwrap_or_default(),
        TargetArgs::First => args.first().map(|a| vec![(*a, kind)]).unwrap_or_default(),
        TargetArgs::AllButLast => {
            let n = args.len();
            let mut c: Vec<(&str, EffectKind)> = args
                .iter()
                .take(n.saturating_sub(1))
                .map(|a| (*a, kind))
                .collect();
            if n > 1
                && let Some(last) = args.last()
            {
                c.push((*last, EffectKind::Overwrite));
            }
            c
        }
    };
    for (text, k) in chosen.into_iter().take(16) {
        // A copy under a backup name (`cp nginx.conf nginx.conf.bak`) makes a backup; at
        // worst it replaces an older one.
        let base = text.rsplit('/').next().unwrap_or(text).to_ascii_lowercase();
        if k == EffectKind::Overwrite
            && p.targets == TargetArgs::Last
            && riskgate_model::effect::is_backup_name(&base)
        {
            continue;
        }
        let e = file_scope(v, Effect::new(0, k, path_target(text)), text);
        // For permissions the weight says how: the mode loosens access, or the owner changes.
        let weight = match (k, v.cmd.program.as_str()) {
            (EffectKind::Permissions, "chmod") if mode.is_some_and(loose_mode) => {
                super::score::LOOSENS
            }
            (EffectKind::Permissions, "chmod") if mode.is_some_and(locking_mode) => {
                super::score::LOCKS
            }
            (EffectKind::Permissions, "chown" | "chgrp") => super::score::OWNER,
            _ => 0,
        };
        out.push(Found {
            effect: e,
            weight,
            guessed: false,
        });
    }
}

/// Daemons whose processes keep the system or its data running.
pub(crate) const DAEMONS: &[&str] = &[
    "systemd",
    "init",
    "sshd",
    "ssh",
    "postgres",
    "postgresql",
    "mysqld",
    "mysql",
    "mariadb",
    "mongod",
    "redis-server",
    "dockerd",
    "containerd",
    "kubelet",
    "etcd",
    "nginx",
    "httpd",
    "apache2",
    "journald",
    "systemd-journald",
    "auditd",
    "rsyslogd",
    "cron",
    "crond",
    "dbus",
    "networkmanager",
    "elasticsearch",
    "kafka",
    "zookeeper",
    "rabbitmq-server",
    "java",
];

/// What SIGKILL adds to stopping a system daemon (no chance to flush: a database may need
/// recovery): `kill -9` of one is HIGH, a `systemctl stop` stays MEDIUM.
pub(crate) const SIGKILL_DAEMON: u32 = 25;

/// Well-known ports and the daemons that listen on them.
const PORTS: &[(&str, &str)] = &[
    ("22", "sshd"),
    ("25", "smtp"),
    ("53", "named"),
    ("3306", "mysqld"),
    ("5432", "postgres"),
    ("6379", "redis-server"),
    ("9200", "elasticsearch"),
    ("2379", "etcd"),
    ("27017", "mongod"),
    ("5672", "rabbitmq-server"),
    ("9092", "kafka"),
    ("2181", "zookeeper"),
    ("10250", "kubelet"),
];

/// The daemon a process-id substitution names: `$(pidof NAME)`, `$(pgrep [-f|-x] PAT)`,
/// `$(cat /run/NAME.pid)`, `$(lsof -t -i :PORT)`, `$(fuser PORT/tcp)` (the first daemon it
/// names, lowercased; `None` when it names none).
/// The daemon a listing of processes names (`lsof -t -i :22` → `ssh`), when it names one.
pub(crate) fn daemon_of_listing(listing: &str) -> Option<String> {
    process_named_by(&format!("$({listing})"))
}

fn process_named_by(word: &str) -> Option<String> {
    let inner = word
        .strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| word.strip_prefix('`').and_then(|w| w.strip_suffix('`')))?;
    if inner.len() > 256 {
        return None;
    }
    let words: Vec<&str> = inner
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']))
        .collect();
    let program = words.first()?.rsplit('/').next()?;
    let args = words.get(1..).unwrap_or(&[]);
    let known = |n: &str| {
        let n = n.to_ascii_lowercase();
        (DAEMONS.contains(&n.as_str()) || SECURITY_UNITS.contains(&n.as_str())).then_some(n)
    };
    match program {
        "pidof" | "pgrep" => args
            .iter()
            .filter(|a| !a.starts_with('-'))
            .flat_map(|a| a.split('|'))
            .map(|a| a.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
            .find_map(known),
        "cat" | "head" | "<" => args.iter().find_map(|a| {
            let base = a.rsplit('/').next()?;
            known(base.strip_suffix(".pid")?)
        }),
        "lsof" | "fuser" => args.iter().find_map(|a| {
            let port = a
                .rsplit(':')
                .next()
                .unwrap_or(a)
                .split('/')
                .next()
                .unwrap_or(a);
            PORTS
                .iter()
                .find(|(p, _)| *p == port)
                .map(|(_, d)| d.to_string())
        }),
        _ => None,
    }
}

/// Services whose stop or removal weakens security.
pub(crate) const SECURITY_UNITS: &[&str] = &[
    "firewalld",
    "ufw",
    "auditd",
    "apparmor",
    "fail2ban",
    "ssh",
    "sshd",
    "clamav-daemon",
    "crowdstrike",
    "falcon-sensor",
    "osqueryd",
    "wazuh-agent",
    "selinux",
    "nftables",
    "iptables",
    "netfilter-persistent",
];

fn unit_name(w: &str) -> &str {
    w.trim_end_matches(".service").trim_end_matches(".socket")
}

/// `dd of=`, `kill`/`pkill`/`killall`, `systemctl`: effects that depend on the words. True
/// when the program was one of them.
fn special_effects(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let machine = |text: &str| Target {
        class: TargetClass::Machine,
        text: text.to_string(),
        environment: None,
    };
    match v.cmd.program.as_str() {
        // `find ROOT … -delete`: every file under ROOT the tests select (`-name N`)
        "find" if v.cmd.raw_argv.iter().any(|w| w.text == "-delete") => {
            let raw: Vec<&str> = v
                .cmd
                .raw_argv
                .iter()
                .skip(1)
                .map(|w| w.text.as_str())
                .collect();
            let roots: Vec<&str> = raw
                .iter()
                .take_while(|w| !w.starts_with('-') && !matches!(**w, "(" | "!"))
                .copied()
                .collect();
            let name = raw
                .windows(2)
                .find(|w| matches!(w[0], "-name" | "-iname"))
                .map(|w| w[1])
                .filter(|n| !n.contains('/'));
            let roots = if roots.is_empty() { vec!["."] } else { roots };
            for root in roots.into_iter().take(8) {
                let root = root.trim_end_matches('/');
                let text = match name {
                    Some(n) => format!("{root}/**/{n}"),
                    None => format!("{root}/**"),
                };
                let e = Effect::new(0, EffectKind::Delete, path_target(&text))
                    .with_scope(Scope::Recursive)
                    .with_scope(Scope::Bulk);
                out.push(found(e));
            }
            true
        }
        "dd" => {
            for a in &v.cmd.args {
                if let Some(t) = a.text.strip_prefix("of=") {
                    out.push(found(Effect::new(0, EffectKind::Overwrite, path_target(t))));
                }
            }
            true
        }
        "kill" => {
            let sigkill = v.flags.iter().any(|f| {
                matches!(
                    *f,
                    "-9" | "-KILL"
                        | "-SIGKILL"
                        | "-s=KILL"
                        | "-s=9"
                        | "--signal=KILL"
                        | "--signal=9"
                        | "--signal=SIGKILL"
                )
            });
            for p in &v.positionals {
                let t: &str = &p.text;
                // `kill $(pidof sshd)`, `kill $(cat /run/auditd.pid)`, `kill $(lsof -t -i
                // :5432)`: the process the substitution names.
                if let Some(name) = process_named_by(t) {
                    let security = SECURITY_UNITS.contains(&name.as_str());
                    let daemon = security || DAEMONS.contains(&name.as_str());
                    if daemon {
                        let kind = if security {
                            EffectKind::Security
                        } else {
                            EffectKind::Stop
                        };
                        let t = Target {
                            class: if security {
                                TargetClass::Machine
                            } else {
                                TargetClass::SystemDaemon
                            },
                            text: name,
                            environment: None,
                        };
                        // SIGKILL gives a daemon no chance to flush its data
                        out.push(Found {
                            effect: Effect::new(0, kind, t),
                            weight: if sigkill { SIGKILL_DAEMON } else { 0 },
                            guessed: false,
                        });
                    }
                    continue;
                }
                let class = match t {
                    "-1" | "-0" => TargetClass::AllProcesses,
                    "1" => TargetClass::SystemDaemon,
                    _ if t.bytes().all(|b| b.is_ascii_digit()) => TargetClass::OneProcess,
                    _ => continue,
                };
                let t = Target {
                    class,
                    text: t.to_string(),
                    environment: None,
                };
                out.push(found(Effect::new(0, EffectKind::Stop, t)));
            }
            if v.flags.contains(&"-1") {
                let t = Target {
                    class: TargetClass::AllProcesses,
                    text: "-1".into(),
                    environment: None,
                };
                out.push(found(Effect::new(0, EffectKind::Stop, t)));
            }
            true
        }
        "pkill" | "killall" => {
            let names: Vec<String> =
                v.positionals
                    .iter()
                    .map(|p| p.text.to_ascii_lowercase())
                    .chain(v.cmd.args.iter().filter_map(|a| {
                        a.text.strip_prefix("--user=").map(str::to_ascii_lowercase)
                    }))
                    .collect();
            for n in names.iter().take(8) {
                let class = if DAEMONS.contains(&n.as_str()) || v.has_flag("-u") {
                    TargetClass::SystemDaemon
                } else {
                    TargetClass::OneProcess
                };
                let t = Target {
                    class,
                    text: n.clone(),
                    environment: None,
                };
                out.push(found(Effect::new(0, EffectKind::Stop, t)));
            }
            true
        }
        "systemctl" | "service" => {
            let words: Vec<&str> = v.positionals.iter().map(|p| p.text.as_ref()).collect();
            let (verb, units) = if v.cmd.program == "service" {
                (
                    words.get(1).copied().unwrap_or(""),
                    words.first().copied().into_iter().collect::<Vec<_>>(),
                )
            } else {
                (
                    words.first().copied().unwrap_or(""),
                    words.iter().skip(1).copied().collect(),
                )
            };
            match verb {
                "poweroff" | "reboot" | "halt" | "kexec" | "suspend" | "hibernate" | "rescue"
                | "emergency" | "isolate" | "soft-reboot" => {
                    out.push(found(Effect::new(0, EffectKind::Power, machine(verb))));
                }
                "stop" | "disable" | "mask" | "kill" => {
                    for u in units.iter().take(8) {
                        let name = unit_name(u);
                        let (kind, class) = if SECURITY_UNITS.contains(&name) {
                            (EffectKind::Security, TargetClass::Machine)
                        } else {
                            (EffectKind::Stop, TargetClass::SystemDaemon)
                        };
                        let t = Target {
                            class,
                            text: (*u).to_string(),
                            environment: None,
                        };
                        out.push(found(Effect::new(0, kind, t)));
                    }
                }
                _ => {}
            }
            true
        }
        _ => false,
    }
}

/// Split a word into lowercase parts: `apps:destroy` → apps, destroy; `DeleteCluster` →
/// delete, cluster; `delete_vhost` → delete, vhost.
pub(crate) fn parts(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for chunk in word.split([':', '-', '_', '.', '/']) {
        let mut cur = String::new();
        let mut prev_lower = false;
        for c in chunk.chars() {
            if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            cur.push(c.to_ascii_lowercase());
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

/// Whether the program's own name may state its verb: a name of several words (`apps:destroy`,
/// `octodns-sync`, `purge_queue`) called as an installed program, not a file of the project.
fn named_verb(v: &CommandView<'_>) -> bool {
    let name = v.cmd.program.as_str();
    let written = v.cmd.raw_argv.first().map_or(name, |w| w.text.as_str());
    name.contains([':', '-', '_'])
        && (name.contains(':') || (!written.contains('/') && !name.contains('.')))
}

/// Whether a word can be a subcommand (`projects`, `apps:destroy`, `delete-bucket`).
fn is_subcommand_word(w: &str) -> bool {
    w.len() <= 64
        && w.starts_with(|c: char| c.is_ascii_alphabetic())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-' | '_'))
}

/// Strength of a kind when a command states several (the strongest wins).
fn strength(k: EffectKind) -> u8 {
    match k {
        EffectKind::Delete => 6,
        EffectKind::Overwrite => 5,
        EffectKind::Stop => 4,
        EffectKind::Publish => 3,
        EffectKind::Modify => 2,
        EffectKind::Install => 1,
        _ => 0,
    }
}

fn env_words<'a>(v: &'a CommandView<'_>) -> impl Iterator<Item = &'a str> {
    v.cmd
        .args
        .iter()
        .map(|a| a.text.as_str())
        .chain(v.cmd.assignments.iter().map(|(_, w)| w.text.as_str()))
}

fn scope_flags(v: &CommandView<'_>, mut e: Effect) -> Effect {
    for a in &v.cmd.raw_argv[1.min(v.cmd.raw_argv.len())..] {
        let t = a.text.as_str();
        if t.starts_with('-') {
            if table::is_forced_flag(t) {
                e = e.with_scope(Scope::Forced);
            }
            if table::is_bulk_flag(t) {
                e = e.with_scope(Scope::Bulk);
            }
        } else if t.contains('*') || t == "_all" || t.contains("=all") {
            e = e.with_scope(Scope::Bulk);
        }
    }
    e
}

/// Intent read from the subcommand words and flags of a program nobody described.
/// CLIs that act on a test-mode account unless a flag says live.
const TEST_MODE: &[(&str, &[&str])] = &[("stripe", &["--live"])];

fn generic_effects(v: &CommandView<'_>, out: &mut Vec<Found>) {
    let mut best: Option<(EffectKind, usize)> = None;
    let mut noun = false;
    // A verb that says "all" (`deleteall`, `flushall`, `purge_all`) is bulk.
    let mut says_all = false;
    // `apps:destroy shop --force` (dokku over ssh), `octodns-sync`, `purge_queue`: the
    // program's name states its verb (an installed program called by name: a script of the
    // project, `./scripts/reset-db.sh`, is rated by what it does, not by its file name)
    if named_verb(v) {
        for part in parts(&v.cmd.program) {
            if let Some(k) = table::verb(&part)
                && best.is_none_or(|(b, _)| strength(k) > strength(b))
            {
                best = Some((k, usize::MAX - 1));
            }
            noun |= table::is_resource_noun(&part);
        }
    }
    let zone: Vec<(usize, &str)> = v
        .positionals
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.after_flag)
        .map(|(i, p)| (i, p.text.as_ref()))
        .take(4)
        .take_while(|(_, w)| is_subcommand_word(w))
        .collect();
    for (i, w) in &zone {
        let ps = parts(w);
        for (j, part) in ps.iter().enumerate() {
            if table::is_resource_noun(part) {
                noun = true;
            }
            if table::verb(part).is_some()
                && (part.ends_with("all") || ps.get(j + 1).is_some_and(|n| n == "all"))
            {
                says_all = true;
            }
            if let Some(k) = table::verb(part)
                && best.is_none_or(|(b, _)| strength(k) > strength(b))
            {
                best = Some((k, *i));
            }
        }
    }
    // cleaning a data store (`atlas schema clean`, `… database clean`) drops what it holds;
    // a plain `clean` is a build's
    if best.is_none()
        && let Some((i, _)) = zone.iter().find(|(_, w)| *w == "clean")
        && zone.iter().any(|(_, w)| {
            matches!(
                *w,
                "schema"
                    | "schemas"
                    | "database"
                    | "databases"
                    | "db"
                    | "index"
                    | "indices"
                    | "table"
                    | "tables"
                    | "bucket"
                    | "queue"
                    | "topic"
                    | "keyspace"
            )
        })
    {
        best = Some((EffectKind::Delete, *i));
        noun = true;
    }
    // an action file named for what it does (`curator delete_all.yml`, `runner
    // purge-stale.json`): the first word of its name is the verb
    if best.is_none() {
        for (i, p) in v.positionals.iter().enumerate().take(4) {
            let name = p.text.rsplit('/').next().unwrap_or(&p.text);
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            if p.after_flag || !matches!(ext, "yml" | "yaml" | "json" | "toml") {
                continue;
            }
            let ps = parts(stem);
            if let Some(k) = ps.first().and_then(|w| table::verb(w)) {
                says_all |= ps.get(1).is_some_and(|n| n == "all");
                noun |= ps.iter().any(|w| table::is_resource_noun(w));
                best = Some((k, i));
                break;
            }
        }
    }
    // a later word that only creates, reads or checks is the command's verb: the earlier one
    // named a kind of object (`pscale deploy-request create`, `… delete-protection show`)
    if let Some((_, b)) = best
        && zone.iter().any(|(i, w)| {
            *i > b
                && matches!(
                    *w,
                    "create"
                        | "new"
                        | "add"
                        | "list"
                        | "ls"
                        | "get"
                        | "show"
                        | "describe"
                        | "view"
                        | "status"
                        | "info"
                        | "inspect"
                        | "diff"
                        | "plan"
                        | "preview"
                        | "validate"
                        | "check"
                        | "logs"
                        | "open"
                )
        })
    {
        best = None;
    }
    let mut target_text: Option<String> = None;
    if let Some((_, i)) = best {
        target_text = v
            .positionals
            .iter()
            .skip(i + 1)
            .find(|p| !p.after_flag)
            .map(|p| p.text.to_string());
    }
    // `kcadm.sh delete realms/acme`: a REST-style target names its kind first
    if let Some(t) = &target_text
        && let Some((kind, _)) = t.split_once('/')
        && table::is_resource_noun(&kind.to_ascii_lowercase())
    {
        noun = true;
    }
    for a in v.cmd.raw_argv.iter().skip(1) {
        if let Some(k) = table::verb_flag(&a.text)
            && best.is_none_or(|(b, _)| strength(k) > strength(b))
        {
            best = Some((k, usize::MAX));
        }
    }
    let Some((kind, i)) = best else {
        return;
    };
    let text = target_text
        .or_else(|| v.positionals.get(i).map(|p| p.text.to_string()))
        .or_else(|| {
            v.positionals
                .iter()
                .find(|p| !p.after_flag)
                .map(|p| p.text.to_string())
        })
        .unwrap_or_else(|| v.cmd.program.clone());
    // switching off what guards the code or the account (`gh workflow disable
    // security-scan.yml`, `… rules pause waf-prod`) weakens a security control
    let switch_off = zone.iter().flat_map(|(_, w)| parts(w)).any(|p| {
        matches!(
            p.as_str(),
            "disable" | "deactivate" | "pause" | "suspend" | "stop" | "mute" | "off"
        )
    });
    // dropping requirements (`--no-require-symbols`, `--no-enforce-mfa`,
    // `--allow-weak-ciphers`) on a modification lowers a policy's protection
    let drops_requirement = matches!(kind, EffectKind::Modify | EffectKind::Overwrite)
        && v.cmd.raw_argv.iter().skip(1).any(|w| {
            let t = w.text.to_ascii_lowercase();
            [
                "--no-require",
                "--no-enforce",
                "--allow-weak",
                "--disable-mfa",
                "--no-mfa",
            ]
            .iter()
            .any(|p| t.starts_with(p))
                || switches_off_protection(&t)
        });
    let mut environment = classify_env(env_words(v));
    // a topic branch of a branching service (`neonctl branches delete feature-x`, a
    // PlanetScale or Supabase branch): a development copy, as a Git topic branch is
    if environment == Environment::Unknown
        && zone
            .iter()
            .any(|(_, w)| matches!(*w, "branch" | "branches"))
        && is_topic_branch(&text)
    {
        environment = Environment::Dev;
    }
    // a CLI that works in test mode unless told otherwise (`stripe … --live`)
    if let Some((_, live)) = TEST_MODE.iter().find(|(p, _)| *p == v.cmd.program)
        && environment == Environment::Unknown
        && !live.iter().any(|f| v.has_flag(f))
    {
        environment = Environment::Dev;
    }
    let kind = if (switch_off && names_security_control(&text)) || drops_requirement {
        EffectKind::Security
    } else if kind == EffectKind::Modify && wipes_value(v, &zone, &text, environment) {
        EffectKind::Delete
    } else {
        kind
    };
    let said = |word: &str| {
        let name = named_verb(v).then(|| parts(&v.cmd.program));
        zone.iter()
            .flat_map(|(_, w)| parts(w))
            .chain(name.into_iter().flatten())
            .any(|p| p == word)
    };
    // purging named entries of a cache (`fastly purge --key product-123`, `--url …`) drops
    // copies the origin serves again
    if kind == EffectKind::Delete
        && said("purge")
        && !says_all
        && [
            "--key",
            "--url",
            "--surrogate-key",
            "--path",
            "--file",
            "--tag",
        ]
        .iter()
        .any(|f| {
            v.cmd
                .raw_argv
                .iter()
                .any(|a| a.text == *f || a.text.starts_with(&format!("{f}=")))
        })
        && !v.cmd.raw_argv.iter().any(|a| table::is_bulk_flag(&a.text))
    {
        return;
    }
    let t = Target {
        class: TargetClass::CloudResource,
        text,
        environment: Some(environment),
    };
    let mut e = scope_flags(v, Effect::new(0, kind, t));
    if says_all {
        e = e.with_scope(Scope::Bulk);
    }
    out.push(Found {
        effect: e,
        weight: if noun { 8 } else { 0 },
        guessed: true,
    });
}

/// A branch name of a feature, fix, preview or experiment (`feature-x`, `feat/search`,
/// `fix-123`, `preview-pr-42`), not a long-lived one (`main`, `production`).
fn is_topic_branch(name: &str) -> bool {
    let first = parts(name).into_iter().next().unwrap_or_default();
    matches!(
        first.as_str(),
        "feature"
            | "feat"
            | "fix"
            | "bugfix"
            | "topic"
            | "preview"
            | "wip"
            | "spike"
            | "exp"
            | "experiment"
            | "test"
            | "dev"
            | "pr"
            | "dependabot"
            | "renovate"
            | "chore"
    )
}

/// A setting that turns a protection off: `bruteForceProtected=false`, `otpPolicyType=none`,
/// `sslRequired=none`, `mfa_enabled=0`, `--verify-tls=false` (lower case).
fn switches_off_protection(arg: &str) -> bool {
    let Some((key, value)) = arg.trim_start_matches('-').split_once('=') else {
        return false;
    };
    let off = matches!(
        value.trim_matches(['"', '\'']),
        "false" | "off" | "none" | "disabled" | "disable" | "0" | "no"
    );
    off && [
        "protect",
        "mfa",
        "otp",
        "2fa",
        "totp",
        "ssl",
        "tls",
        "verify",
        "encrypt",
        "audit",
        "firewall",
        "security",
        "bruteforce",
        "lockout",
        "captcha",
    ]
    .iter()
    .any(|w| key.contains(w))
}

/// A modification that removes what it names: a secret unset from a service (`travis env
/// unset AWS_SECRET_ACCESS_KEY`), any variable unset in production (`heroku config:unset
/// DATABASE_URL --app acme-prod`), or a value set to nothing
/// (`conjur variable set -i prod/db/password -v ''`).
fn wipes_value(
    v: &CommandView<'_>,
    zone: &[(usize, &str)],
    target: &str,
    environment: Environment,
) -> bool {
    let unsets = zone
        .iter()
        .flat_map(|(_, w)| parts(w))
        .any(|p| p == "unset");
    let names_secret = riskgate_model::secrets::is_secret_name(target);
    let sets = zone
        .iter()
        .flat_map(|(_, w)| parts(w))
        .any(|p| matches!(p.as_str(), "set" | "put" | "update" | "write"));
    let empty_value = v.cmd.raw_argv.iter().skip(1).any(|w| w.text.is_empty());
    (unsets && (names_secret || environment == Environment::Prod)) || (sets && empty_value)
}

/// Words that name a security control: scanners, audits, firewalls, protections.
const SECURITY_CONTROLS: &[&str] = &[
    "security",
    "secscan",
    "scan",
    "scanning",
    "scanner",
    "codeql",
    "sast",
    "dast",
    "audit",
    "auditing",
    "dependabot",
    "snyk",
    "trivy",
    "semgrep",
    "gitleaks",
    "trufflehog",
    "firewall",
    "waf",
    "guardduty",
    "defender",
    "antivirus",
    "malware",
    "falco",
    "protection",
    "mfa",
    "2fa",
    "vulnerability",
    "vulnerabilities",
    "secrets",
    "sentinel",
];

/// Whether a target's name names a security control (`security-scan.yml`, `waf-prod`).
fn names_security_control(text: &str) -> bool {
    text.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| SECURITY_CONTROLS.contains(&w))
}

/// The path of a URL, without host, query or fragment (`https://h/a/b?q` → `a/b`).
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let path = rest.split_once('/').map(|(_, p)| p).unwrap_or("");
    path.split(['?', '#']).next().unwrap_or("")
}

/// A path whose last segments switch something off: `deactivate`, `disable`, `suspend`,
/// `off`, `lock`, mute its monitoring (`downtime`, `silences`, `mute_all`), or give it away
/// (`repos/x/transfer`).
fn switches_off(path: &str) -> bool {
    path.split('/').rev().take(2).flat_map(parts).any(|p| {
        matches!(
            p.as_str(),
            "deactivate"
                | "disable"
                | "suspend"
                | "off"
                | "lock"
                | "downtime"
                | "silences"
                | "silence"
                | "mute"
                | "transfer"
                | "cancel"
                | "revoke"
                | "terminate"
        )
    })
}

/// A request body that switches its object off (`disabled=true`, `{"enabled": false}`,
/// `active=false`) or deletes what a query selects (`<delete><query>…`, `{"delete": …}`):
/// (switches off, deletes).
fn body_says(v: &CommandView<'_>, path: &str) -> (bool, bool) {
    // closing or cancelling an account, a subscription or an organization ends it; a ticket
    // or a pull request closes and reopens
    let ends_account = path.split('/').flat_map(parts).any(|w| {
        matches!(
            w.as_str(),
            "account"
                | "accounts"
                | "subscription"
                | "subscriptions"
                | "organization"
                | "organizations"
                | "org"
                | "orgs"
                | "tenant"
                | "tenants"
                | "workspace"
                | "workspaces"
                | "project"
                | "projects"
        )
    });
    let mut off = false;
    let mut deletes = false;
    for a in v.cmd.args.iter().filter(|a| !a.text.contains("://")) {
        // the body of an option (`--data=Status=closed`)
        let text = match a.text.split_once('=') {
            Some((name, body)) if name.starts_with('-') => body,
            _ => a.text.as_str(),
        };
        let t: String = text
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
            .collect();
        off |= [
            "disabled=true",
            "disabled:true",
            "enabled=false",
            "enabled:false",
            "active=false",
            "active:false",
        ]
        .iter()
        .any(|m| t.contains(m));
        deletes |= t.contains("<delete>") || t.starts_with("{delete:") || t.contains(",delete:{");
        // a field that says what to do or what the object becomes: `Status=closed`,
        // `{"regulationType":"DELETE_ONLY"}`, `{"action":"purge"}`, `state=terminated`
        for (key, value) in body_fields(&t) {
            if !matches!(
                key,
                "status" | "state" | "action" | "operation" | "op" | "command" | "type"
            ) && !key.ends_with("type")
                && !key.ends_with("action")
            {
                continue;
            }
            let words = parts(value);
            let first = words.first().cloned().unwrap_or_default();
            // `DELETE_ONLY`, `SUPPRESS_WITH_DELETE`, `hard_delete`
            if words
                .iter()
                .any(|w| table::verb(w) == Some(EffectKind::Delete))
                || matches!(first.as_str(), "deleted" | "terminated" | "destroyed")
                || (ends_account && matches!(first.as_str(), "closed" | "cancelled" | "canceled"))
            {
                deletes = true;
            } else if matches!(first.as_str(), "suspended" | "disabled" | "inactive") {
                off = true;
            }
        }
    }
    (off, deletes)
}

/// `key=value` / `key:value` pairs of a body (lower case, quotes and blanks removed): the
/// key's last word and the value's text.
fn body_fields(t: &str) -> impl Iterator<Item = (&str, &str)> {
    t.split([',', '&', '{', '}', '[', ']'])
        .take(64)
        .filter_map(|pair| pair.split_once(['=', ':']))
        .map(|(k, v)| (k.rsplit(['.', '_', '-']).next().unwrap_or(k), v))
}

/// A GraphQL request (`…/graphql`) whose body is a mutation named for a delete
/// (`mutation { alertsPolicyDelete(…) }`, `deleteRepository`).
fn graphql_mutation_deletes(v: &CommandView<'_>, path: &str) -> bool {
    if !path.to_ascii_lowercase().ends_with("graphql") {
        return false;
    }
    v.cmd.args.iter().any(|a| {
        let t = a.text.as_str();
        let Some(at) = t.find("mutation") else {
            return false;
        };
        t.get(at..)
            .unwrap_or("")
            .split(|c: char| !c.is_ascii_alphanumeric())
            .take(64)
            .any(|w| {
                parts(w)
                    .iter()
                    .any(|p| table::verb(p) == Some(EffectKind::Delete))
            })
    })
}

/// A path that moves money: payouts, transfers, refunds, charges, withdrawals.
fn moves_money(path: &str) -> bool {
    path.split('/').any(|seg| {
        matches!(
            seg.to_ascii_lowercase().as_str(),
            "payouts"
                | "payout"
                | "transfers"
                | "transfer"
                | "refunds"
                | "refund"
                | "charges"
                | "withdrawals"
                | "withdraw"
                | "disbursements"
                | "payments"
        )
    })
}

/// The value of the first of `names` given as `NAME VALUE` or `NAME=VALUE` (options of a
/// program nobody described).
fn option_value<'a>(v: &'a CommandView<'_>, names: &[&str]) -> Option<&'a str> {
    let argv = &v.cmd.raw_argv;
    argv.iter().enumerate().skip(1).find_map(|(i, w)| {
        let t = w.text.as_str();
        names.iter().find_map(|n| {
            if t == *n {
                argv.get(i + 1).map(|x| x.text.as_str())
            } else {
                t.strip_prefix(n).and_then(|r| r.strip_prefix('='))
            }
        })
    })
}

fn is_method(w: &str) -> Option<String> {
    let u = w.to_ascii_uppercase();
    ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        .contains(&u.as_str())
        .then_some(u)
}

fn looks_like_url(w: &str) -> bool {
    w.contains("://")
        || w.starts_with(':')
        || w.starts_with("localhost")
        || (w.contains('.') && !w.starts_with(['.', '/', '@', '{', '[']) && !w.contains('=') && {
            let host = riskgate_model::effect::host_of(w);
            host.contains('.')
                && host.rsplit('.').next().is_some_and(|tld| {
                    tld.chars().all(|c| c.is_ascii_alphanumeric()) && !tld.is_empty()
                })
        })
}

/// HTTP clients: the method and the host decide the effect. True when the program was one.
fn http_effects(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let program = v.cmd.program.as_str();
    let pos: Vec<&str> = v
        .positionals
        .iter()
        .filter(|p| !p.after_flag)
        .map(|p| p.text.as_ref())
        .collect();
    let (method, url): (String, Option<String>) = match program {
        "curl" | "curlie" => {
            let data = [
                "--data",
                "--data-raw",
                "--data-binary",
                "--data-urlencode",
                "--form",
                "--json",
                "-d",
                "-F",
            ]
            .iter()
            .any(|f| v.has_flag(f) || v.flags.iter().any(|x| x.starts_with(&format!("{f}="))));
            let upload = v.has_flag("--upload-file") || v.has_flag("-T");
            let m = v
                .cmd
                .flag_value("--request")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| {
                    if upload {
                        "PUT".into()
                    } else if data {
                        "POST".into()
                    } else {
                        "GET".into()
                    }
                });
            // A URL with a scheme is the URL wherever it stands: a boolean option that riskgate
            // does not know (`-g`, `-k`) must not hide it as that option's value.
            let schemed = v
                .positionals
                .iter()
                .map(|p| p.text.as_ref())
                .find(|w: &&str| {
                    let l = w.to_ascii_lowercase();
                    l.starts_with("http://") || l.starts_with("https://")
                });
            let url = v
                .cmd
                .flag_value("--url")
                .or(schemed)
                .map(str::to_string)
                .or_else(|| {
                    pos.iter()
                        .find(|w| looks_like_url(w))
                        .map(|w| w.to_string())
                });
            (m, url)
        }
        "wget" => {
            let m = v
                .cmd
                .flag_value("--method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| {
                    if v.has_flag("--post-data") || v.has_flag("--post-file") {
                        "POST".into()
                    } else {
                        "GET".into()
                    }
                });
            (
                m,
                pos.iter()
                    .find(|w| looks_like_url(w))
                    .map(|w| w.to_string()),
            )
        }
        "http" | "https" | "xh" | "xhs" | "httpie" => {
            // Boolean flags (`--ignore-stdin`) make the next word look like a flag's value:
            // the method is the first positional that is one, whatever precedes it.
            let all: Vec<&str> = v.positionals.iter().map(|p| p.text.as_ref()).collect();
            let at = all.iter().take(3).position(|w| is_method(w).is_some());
            let (m, rest) = match at {
                Some(i) => (all.get(i).and_then(|w| is_method(w)), &all[i + 1..]),
                None => (None, &pos[..]),
            };
            let url = rest.first().map(|w| w.to_string());
            let data = rest
                .iter()
                .skip(1)
                .any(|w| w.contains(":=") || (w.contains('=') && !w.contains("==")));
            let m = m.unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            (m, url)
        }
        "Invoke-WebRequest" | "Invoke-RestMethod" => {
            let data = ["-Body", "-InFile", "-Form"].iter().any(|f| v.has_flag(f));
            let m = v
                .cmd
                .flag_value("-Method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            let url = v.cmd.flag_value("-Uri").map(str::to_string).or_else(|| {
                pos.iter()
                    .find(|w| looks_like_url(w))
                    .map(|w| w.to_string())
            });
            (m, url)
        }
        "gh" => {
            if pos.first() != Some(&"api") {
                return false;
            }
            let fields = ["-f", "-F", "--field", "--raw-field", "--input"]
                .iter()
                .any(|f| v.has_flag(f));
            let m = v
                .cmd
                .flag_value("--method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if fields { "POST".into() } else { "GET".into() });
            let path = pos.get(1).map(|p| p.trim_start_matches('/')).unwrap_or("");
            (m, Some(format!("https://api.github.com/{path}")))
        }
        "grpcurl" => {
            let Some(method) = pos.last() else {
                return true;
            };
            let host = pos.iter().rev().nth(1).map(|h| h.to_string());
            let name = method.rsplit(['/', '.']).next().unwrap_or(method);
            let kind = parts(name)
                .iter()
                .filter_map(|p| table::verb(p))
                .max_by_key(|k| strength(*k));
            if let (Some(kind), Some(host)) = (kind, host) {
                let t = Target {
                    class: classify_host(&host),
                    text: format!("{host}/{method}"),
                    environment: Some(classify_env(env_words(v))),
                };
                out.push(found(Effect::new(0, kind, t)));
            }
            return true;
        }
        // `caprover api --path /user/apps/appDefinitions/delete --method POST`, `foo api -X
        // DELETE /v1/tenants/x`: a CLI's raw call to its service's API
        _ if pos.first() == Some(&"api")
            && (is_unknown(program) || table::is_service_cli(program)) =>
        {
            let path = option_value(v, &["--path", "--endpoint"])
                .or_else(|| pos.get(1).copied().filter(|p| p.starts_with('/')));
            let Some(path) = path else {
                return false;
            };
            let data = option_value(
                v,
                &["--data", "-d", "--body", "--field", "-f", "-F", "--input"],
            )
            .is_some();
            let m = option_value(v, &["--method", "-X", "--request", "-m"])
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            let path = path.trim_start_matches('/');
            (m, Some(format!("https://{program}.api/{path}")))
        }
        // `stripe post /v1/payouts …`, `foo-cli delete /v2/tenants/acme`: a service CLI that
        // passes HTTP calls through, its host the service's own.
        _ => match (pos.first().and_then(|m| is_method(m)), pos.get(1)) {
            (Some(m), Some(path)) if path.starts_with('/') && is_unknown(program) => {
                (m, Some(format!("https://{program}.api{path}")))
            }
            _ => return false,
        },
    };
    let Some(url) = url else {
        return true;
    };
    let class = classify_host(&url);
    // `POST /zones/Z/purge_cache`, `/_cache/clear`: a cache is regenerable, not a delete
    let cache = url_path(&url)
        .split('/')
        .flat_map(parts)
        .any(|w| w == "cache" || w == "caches");
    let path_kind = url_path(&url)
        .split('/')
        .flat_map(parts)
        .filter_map(|w| table::verb(&w))
        .filter(|k| *k == EffectKind::Delete && !cache)
        .max_by_key(|k| strength(*k));
    let path = url_path(&url);
    // A state-changing request to a destructive path (`POST /purge_cache`, `POST
    // /indexes/x/clear`, `POST …/delete?query=…`, `PUT /admin/reset-all`) deletes, whatever
    // its method says.
    let mutation = method == "POST" && graphql_mutation_deletes(v, path);
    let (body_off, body_deletes) = body_says(v, path);
    let kind = match method.as_str() {
        "DELETE" => EffectKind::Delete,
        "POST" | "PUT" | "PATCH" if path_kind.is_some() || mutation || body_deletes => {
            EffectKind::Delete
        }
        "POST" | "PUT" | "PATCH" if body_off => EffectKind::Modify,
        // `POST …/lifecycle/deactivate`, `…/environments/production/off`, `POST
        // /api/v1/downtime`: switching a service, an account or its monitoring off
        "POST" if switches_off(path) => EffectKind::Modify,
        "PUT" | "PATCH" => EffectKind::Modify,
        "POST" => EffectKind::Send,
        _ => EffectKind::Read,
    };
    // A POST that moves money (`/v1/payouts`, `/transfers`, `/refunds`) weighs more: with a
    // live key or a production host it is HIGH.
    let weight = if kind == EffectKind::Send && moves_money(path) {
        20
    } else {
        0
    };
    let bulk_body = v.cmd.args.iter().any(|a| {
        let l = a.text.to_ascii_lowercase();
        l.contains("everything") || l.contains("\"all\"") || l.contains("all=true")
    });
    let environment = classify_env(std::iter::once(url.as_str()).chain(env_words(v)));
    let t = Target {
        class,
        text: url.clone(),
        environment: (environment != Environment::Unknown).then_some(environment),
    };
    let mut e = Effect::new(0, kind, t);
    if kind == EffectKind::Read {
        e.reversible = true;
    }
    if url.contains('*') || url.ends_with("/_all") || bulk_body {
        e = e.with_scope(Scope::Bulk);
    }
    out.push(Found {
        effect: e,
        weight,
        guessed: false,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_parts() {
        assert_eq!(parts("apps:destroy"), ["apps", "destroy"]);
        assert_eq!(parts("DeleteCluster"), ["delete", "cluster"]);
        assert_eq!(parts("delete_vhost"), ["delete", "vhost"]);
        assert_eq!(
            parts("service-instance-delete"),
            ["service", "instance", "delete"]
        );
    }

    #[test]
    fn modes() {
        assert!(loose_mode("777") && loose_mode("4755") && loose_mode("o+w") && loose_mode("u+s"));
        assert!(loose_mode("a+rwx") && loose_mode("+w"));
        assert!(
            !loose_mode("600") && !loose_mode("755") && !loose_mode("+x") && !loose_mode("u+w")
        );
        for m in [
            "000", "0000", "0", "200", "a-r", "ugo-rwx", "a=", "u=,g=,o=", "-r",
        ] {
            assert!(locking_mode(m), "{m} locks");
        }
        for m in [
            "700", "600", "400", "go-rwx", "o=", "g-w", "u+x", "a=r", "", "x",
        ] {
            assert!(!locking_mode(m), "{m} does not lock");
        }
    }

    #[test]
    fn urls() {
        assert!(looks_like_url("https://x.io") && looks_like_url("api.acme.io/v1"));
        assert!(looks_like_url(":8080/health") && looks_like_url("localhost:3000/x"));
        assert!(!looks_like_url("key=value.x") && !looks_like_url("./a.b"));
    }
}
