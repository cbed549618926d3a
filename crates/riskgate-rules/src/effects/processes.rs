//! Processes as targets: the daemons that keep a machine and its data running, the ports
//! they listen on, the services whose stop weakens security, what a process-id substitution
//! or a listing names (`$(pidof sshd)`, `lsof -t -i :5432`), process patterns that match
//! almost anything (`pkill -f 'd$'`), and `fuser -k`.

use riskgate_model::effect::{Effect, EffectKind, Target, TargetClass, classify_path};

use super::infer::Found;
use crate::matcher::CommandView;

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

/// The daemon a listing of processes names (`lsof -t -i :22` → `ssh`), when it names one.
pub(crate) fn daemon_of_listing(listing: &str) -> Option<String> {
    process_named_by(&format!("$({listing})"))
}

/// The daemon a process-id substitution names: `$(pidof NAME)`, `$(pgrep [-f|-x] PAT)`,
/// `$(cat /run/NAME.pid)`, `$(lsof -t -i :PORT)`, `$(fuser PORT/tcp)` (the first daemon it
/// names, lowercased; `None` when it names none).
pub(crate) fn process_named_by(word: &str) -> Option<String> {
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
        // every process with a network socket (`lsof -t -i`, `lsof -ti -sTCP:LISTEN`): no port
        // or address narrows the listing, so the system's network daemons are in it
        "lsof"
            if args.iter().any(|a| {
                a.starts_with('-')
                    && !a.starts_with("--")
                    && !a.starts_with("-s")
                    && a.contains('i')
                    && !a.contains(':')
            }) && !args.iter().any(|a| {
                !a.starts_with("-s") && a.contains(':')
                    || a.chars().all(|c| c.is_ascii_digit())
                    || (a.starts_with('-') && a.contains(['c', 'p', 'u']) && !a.starts_with("-s"))
            }) =>
        {
            Some("every process listening on the network (sshd among them)".to_string())
        }
        // processes holding deleted files (`+L1`): the journal, databases, daemons
        "lsof" if args.iter().any(|a| a.starts_with("+L")) => Some(
            "every process holding a deleted file (the journal and daemons among them)".to_string(),
        ),
        // root's processes, or those using a system tree (`-u root`, `+D /var`)
        "lsof"
            if args.windows(2).any(|w| {
                matches!(w[0], "-u" | "-au") && w[1] == "root"
                    || matches!(w[0], "+D" | "+d")
                        && matches!(
                            classify_path(w[1]),
                            TargetClass::Root | TargetClass::System | TargetClass::Logs
                        )
            }) || args.contains(&"-uroot") =>
        {
            Some("every process of the system (root's daemons among them)".to_string())
        }
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

/// A process pattern (a regular expression) that matches almost every process: one or two
/// letters of literal text once anchors and wildcards are taken out (`d$`, `^s`, `.`, `.*`,
/// `[a-z]`), so `pkill -f 'd$'` reaches sshd, systemd-journald and dockerd alike.
pub(crate) fn matches_almost_anything(pattern: &str) -> bool {
    let literal: String = pattern
        .replace(".*", "")
        .replace(".+", "")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | ' '))
        .collect();
    let classes = pattern.contains('[') && pattern.contains(']');
    literal.trim().len() <= 2 && !pattern.chars().all(|c| c.is_ascii_digit())
        || classes && literal.len() <= 4
}

/// `fuser -k`: SIGKILL (its default signal) to every process using a port, a file or, with
/// `-m`, a whole file system. A daemon's port (`22/tcp`, `-n tcp 5432`) or any privileged
/// port names a system daemon; a mounted system tree (`-km /`, `-km /var`) every process on
/// it; a development port or a project file one process.
pub(crate) fn fuser_kills(v: &CommandView<'_>, out: &mut Vec<Found>) {
    let short = |f: &str, c: char| f.starts_with('-') && !f.starts_with("--") && f[1..].contains(c);
    let raw: Vec<&str> = v.cmd.args.iter().map(|a| a.text.as_str()).collect();
    if !raw.iter().any(|f| short(f, 'k') || *f == "--kill") {
        return;
    }
    let mount = raw.iter().any(|f| short(f, 'm') || *f == "--mount");
    let signal_named = raw.iter().any(|f| {
        f.strip_prefix('-').is_some_and(|s| {
            s.starts_with(|c: char| c.is_ascii_uppercase()) && s != "KILL" && s != "9"
        })
    });
    for p in v.positionals.iter().take(8) {
        let t: &str = &p.text;
        if matches!(t, "tcp" | "udp" | "file") {
            continue;
        }
        let port = t.split('/').next().unwrap_or(t);
        let (class, text) = if let Ok(n) = port.parse::<u32>() {
            match PORTS.iter().find(|(p, _)| *p == port) {
                Some((_, d)) => (TargetClass::SystemDaemon, (*d).to_string()),
                None if n < 1024 => (
                    TargetClass::SystemDaemon,
                    format!("the service on port {n}"),
                ),
                None => (TargetClass::OneProcess, format!("the process on port {n}")),
            }
        } else if t.starts_with('/') {
            match classify_path(t) {
                TargetClass::Root | TargetClass::System | TargetClass::Boot | TargetClass::Logs
                    if mount =>
                {
                    (
                        TargetClass::AllProcesses,
                        format!("every process using {t}"),
                    )
                }
                TargetClass::Root | TargetClass::System | TargetClass::Boot | TargetClass::Logs => {
                    (
                        TargetClass::SystemDaemon,
                        format!("the processes using {t}"),
                    )
                }
                _ => (TargetClass::OneProcess, format!("the processes using {t}")),
            }
        } else {
            (TargetClass::OneProcess, format!("the processes using {t}"))
        };
        let daemon = matches!(class, TargetClass::SystemDaemon | TargetClass::AllProcesses);
        out.push(Found {
            effect: Effect::new(
                0,
                EffectKind::Stop,
                Target {
                    class,
                    text,
                    environment: None,
                },
            ),
            weight: if daemon && !signal_named {
                SIGKILL_DAEMON
            } else {
                0
            },
            guessed: false,
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_that_name_daemons() {
        assert!(daemon_of_listing("lsof -t -i :22").is_some());
        // every listening process: no port narrows it
        assert!(daemon_of_listing("lsof -t -i -sTCP:LISTEN").is_some());
        assert!(daemon_of_listing("lsof -ti").is_some());
        // a port, a command name or a user narrows it
        assert!(daemon_of_listing("lsof -t -i :3000").is_none());
        assert!(daemon_of_listing("lsof -t -i tcp:8080 -sTCP:LISTEN").is_none());
        assert!(daemon_of_listing("lsof -t -c node -i").is_none());
        assert!(daemon_of_listing("lsof -t -u dev -i").is_none());
        // holders of deleted files, root's processes, a system tree's users
        assert!(daemon_of_listing("lsof -n -P +L1 -t").is_some());
        assert!(daemon_of_listing("lsof -t -u root").is_some());
        assert!(daemon_of_listing("lsof -t +D /var/lib").is_some());
        assert!(daemon_of_listing("lsof -t +D ./build").is_none());
    }

    #[test]
    fn patterns_that_match_almost_anything() {
        for p in ["d$", "^s", ".", ".*", "[a-z]", "sh"] {
            assert!(matches_almost_anything(p), "{p}");
        }
        for p in ["jest-worker", "python manage.py", "node server.js", "1234"] {
            assert!(!matches_almost_anything(p), "{p}");
        }
    }
}
