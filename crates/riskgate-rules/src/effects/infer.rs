//! Computing the effects of one simple command: write redirections, the programs described in
//! `data/effects.yaml` (their target arguments and flags) and a few programs whose effect
//! depends on their words (`dd of=`, `kill`, `systemctl`); HTTP clients are read in
//! [`super::http`], programs nobody described in [`super::generic`].

use riskgate_model::effect::{Effect, EffectKind, Scope, Target, TargetClass, classify_path};

use super::processes::{
    DAEMONS, SECURITY_UNITS, SIGKILL_DAEMON, fuser_kills, matches_almost_anything, process_named_by,
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
    // a program that only plans unless told to apply (`octodns-sync` without `--doit`)
    if table::apply_flags(&v.cmd.program).is_some_and(|flags| !flags.iter().any(|f| v.has_flag(f)))
    {
        return out;
    }
    redirect_effects(v, &mut out);
    let program = v.cmd.program.as_str();
    if let Some(p) = table::program(program) {
        described_effects(v, p, &mut out);
        super::windows::share_copy(v, &mut out);
    } else if !special_effects(v, &mut out)
        && !super::windows::effects(v, &mut out)
        && !super::http::http_effects(v, &mut out)
        && (is_unknown(program)
            || table::is_service_cli(program)
            || super::generic::framework_console(v))
    {
        super::generic::generic_effects(v, &mut out);
    } else if super::generic::task_target(v).is_some() {
        // a project's task acts where its configuration points: its verb counts when the
        // command line names production (`NODE_ENV=production npm run db:drop`)
        let mut tasks = Vec::new();
        super::generic::generic_effects(v, &mut tasks);
        out.extend(tasks.into_iter().filter(|f| {
            f.effect.target.environment == Some(riskgate_model::effect::Environment::Prod)
        }));
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
pub(super) fn is_unknown(program: &str) -> bool {
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
        // a loop's variable over lines read names each of them
        .flat_map(riskgate_shell::word_values)
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
    // no target written: the entries of the file listing it runs once for (`ls -1t
    // /var/backups/db/*.dump | xargs rm -f`), every one of them
    let listed: Option<String> = v.cmd.iterates.as_ref().and_then(|l| {
        if !chosen.is_empty() || !matches!(kind, EffectKind::Delete | EffectKind::Overwrite) {
            return None;
        }
        // the entries' glob, else the path the listing names (`ls -1t /var/backups/*.dump`)
        l.entries.clone().or_else(|| {
            matches!(l.program.as_str(), "ls" | "find" | "fd")
                .then(|| {
                    l.command
                        .split_whitespace()
                        .skip(1)
                        .find(|w| w.starts_with(['/', '~']) || w.starts_with("$HOME"))
                        .map(str::to_string)
                })
                .flatten()
        })
    });
    if let Some(entries) = listed.as_deref() {
        let e = file_scope(v, Effect::new(0, kind, path_target(entries)), entries)
            .with_scope(Scope::Bulk);
        out.push(Found {
            effect: e,
            weight: 0,
            guessed: false,
        });
    }
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

/// A copy onto another machine's system files (`scp hosts root@web1:/etc/hosts`, `rsync -a
/// sshd_config root@$h:/etc/ssh/`): the destination's path says what is overwritten there,
/// with the remote user's rights (root's when it logs in as root).
fn remote_copy_target(v: &CommandView<'_>, out: &mut Vec<Found>) {
    let Some(dest) = v.positionals.iter().rfind(|p| !p.after_flag) else {
        return;
    };
    let dest: &str = &dest.text;
    let Some((login, path)) = dest.split_once(':') else {
        return;
    };
    let path = path.strip_prefix("//").map_or(path, |_| "");
    if login.is_empty() || login.contains('/') || !(path.starts_with('/') || path.starts_with('~'))
    {
        return;
    }
    // the machine's configuration, programs, keys and start-up files; not where releases are
    // put (`/srv/app`, `/opt/app`, `/var/www`), nor a public key handed over (`~/.ssh/k.pub`)
    let class = classify_path(path);
    let system_files = ["/etc/", "/usr/", "/bin/", "/sbin/", "/lib", "/boot/"]
        .iter()
        .any(|d| path.starts_with(d));
    let wanted = match class {
        TargetClass::System => system_files,
        TargetClass::Boot
        | TargetClass::Device
        | TargetClass::Credentials
        | TargetClass::Persistence
        | TargetClass::Logs => !path.ends_with(".pub"),
        _ => false,
    };
    if !wanted {
        return;
    }
    let user = login.split_once('@').map(|(u, _)| u);
    let mut e = Effect::new(
        0,
        EffectKind::Overwrite,
        Target {
            class,
            text: dest.to_string(),
            environment: None,
        },
    );
    if user == Some("root") {
        e = e.with_scope(Scope::Privileged);
    }
    out.push(found(e));
}

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
            let name = riskgate_shell::find_name_pattern(&raw);
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
                    let daemon = security
                        || DAEMONS.contains(&name.as_str())
                        || name.starts_with("every process");
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
            let exact = v.has_flag("-x") || v.has_flag("--exact");
            let regex =
                !exact && (v.cmd.program == "pkill" || v.has_flag("-r") || v.has_flag("--regexp"));
            for n in names.iter().take(8) {
                let class = if regex && matches_almost_anything(n) {
                    TargetClass::AllProcesses
                } else if DAEMONS.contains(&n.as_str()) || v.has_flag("-u") {
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
        "fuser" => {
            fuser_kills(v, out);
            true
        }
        "scp" | "rsync" => {
            remote_copy_target(v, out);
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
