//! Fleet tools' ad-hoc commands, read as the shell commands they run on their hosts:
//! `ansible HOSTS -m MODULE -a ARGS` (the command modules' text, and the common modules'
//! arguments as the command that does the same: `file state=absent` is `rm -rf`, `lineinfile`
//! edits its `path`, `user uid=0` makes a second root, `mysql_db state=absent` drops the
//! database …), `salt TARGET cmd.run TEXT`, `fab -H HOSTS -- TEXT`. The hosts (with the
//! inventory, which often names the environment) are where the text runs; `-b`/`--become` and
//! salt's minions run it as root.

/// One command an ad-hoc call runs: its shell text and where.
pub(super) struct Adhoc {
    pub(super) text: String,
    pub(super) hosts: String,
}

/// Quote a value for the shell text built here.
fn q(v: &str) -> String {
    format!("'{}'", v.replace('\'', "'\\''"))
}

/// `k=v k2='v 2'` pairs of a module's free-form arguments (values may be quoted).
fn pairs(args: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = args.trim();
    while !rest.is_empty() && out.len() < 32 {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq]
            .trim()
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or("");
        let after = &rest[eq + 1..];
        let (value, next) = match after.chars().next() {
            Some(qc @ ('\'' | '"')) => match after[1..].find(qc) {
                Some(end) => (&after[1..1 + end], &after[end + 2..]),
                None => (&after[1..], ""),
            },
            _ => match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            },
        };
        out.push((key.to_ascii_lowercase(), value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// The shell command a module call amounts to, for the modules whose effect a command names.
fn module_command(module: &str, args: &str) -> Option<String> {
    let m = module.rsplit('.').next().unwrap_or(module);
    if matches!(m, "shell" | "command" | "raw" | "script") {
        // the command modules' free form, without their own `chdir=` / `creates=` options
        let text: Vec<&str> = args
            .split_whitespace()
            .skip_while(|w| {
                ["chdir=", "creates=", "removes=", "executable=", "warn="]
                    .iter()
                    .any(|o| w.starts_with(o))
            })
            .collect();
        return Some(text.join(" "));
    }
    let kv = pairs(args);
    let get = |k: &str| kv.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let path = get("path").or_else(|| get("dest")).or_else(|| get("name"));
    let absent = get("state") == Some("absent");
    Some(match m {
        "file" => {
            let p = path?;
            if absent {
                format!("rm -rf {}", q(p))
            } else if let Some(mode) = get("mode") {
                let r = if get("recurse") == Some("yes") {
                    "-R "
                } else {
                    ""
                };
                format!("chmod {r}{} {}", q(mode), q(p))
            } else {
                return None;
            }
        }
        "lineinfile" | "blockinfile" | "replace" => {
            let line = get("line").or_else(|| get("block")).unwrap_or("");
            format!("printf '%s\\n' {} >> {}", q(line), q(path?))
        }
        "copy" | "template" => {
            let dest = get("dest")?;
            match (get("src"), get("content")) {
                (Some(src), _) => format!("cp {} {}", q(src), q(dest)),
                (None, Some(c)) => format!("printf '%s' {} > {}", q(c), q(dest)),
                _ => return None,
            }
        }
        "user" => {
            let name = get("name")?;
            if absent {
                format!("userdel -r {}", q(name))
            } else if get("uid") == Some("0") {
                format!("useradd -o -u 0 {}", q(name))
            } else {
                format!("useradd {}", q(name))
            }
        }
        "service" | "systemd" | "systemd_service" => {
            let name = get("name")?;
            match (get("state"), get("enabled")) {
                (Some("stopped"), _) => format!("systemctl stop {}", q(name)),
                (Some("restarted"), _) => format!("systemctl restart {}", q(name)),
                (_, Some("no" | "false")) => format!("systemctl disable {}", q(name)),
                _ => return None,
            }
        }
        "mysql_db" if absent => {
            format!("mysql -e {}", q(&format!("DROP DATABASE {}", get("name")?)))
        }
        "postgresql_db" if absent => format!("dropdb {}", q(get("name")?)),
        "apt" | "yum" | "dnf" | "package" if absent => {
            format!("apt-get remove -y {}", q(get("name")?))
        }
        "authorized_key" => format!(
            "printf '%s\\n' {} >> ~{}/.ssh/authorized_keys",
            q(get("key")?),
            get("user")?
        ),
        "cron" => format!(
            "(crontab -l; printf '%s\\n' {}) | crontab -",
            q(&format!("* * * * * {}", get("job")?))
        ),
        "get_url" => format!("curl -o {} {}", q(get("dest")?), q(get("url")?)),
        _ => return None,
    })
}

/// The commands an ad-hoc call of `program` with `args` runs, when it is one.
pub(super) fn commands(program: &str, args: &[&str]) -> Vec<Adhoc> {
    let value = |names: &[&str]| super::option_values(args, names).first().copied();
    let become_root = args.iter().any(|a| matches!(*a, "-b" | "--become"));
    let sudo = |t: String| if become_root { format!("sudo {t}") } else { t };
    match program {
        "ansible" => {
            // the host pattern: the first word that is no option or option value
            let with_value = [
                "-m",
                "--module-name",
                "-a",
                "--args",
                "-i",
                "--inventory",
                "-u",
                "--user",
                "-f",
                "--forks",
                "-e",
                "--extra-vars",
                "-l",
                "--limit",
                "-t",
                "--tree",
                "--become-user",
                "-c",
                "--connection",
                "-T",
                "--timeout",
                "-M",
                "--module-path",
                "-P",
                "--poll",
                "-B",
                "--background",
                "--private-key",
                "--key-file",
            ];
            let mut pattern = None;
            let mut k = 0;
            while let Some(a) = args.get(k) {
                if with_value.contains(a) {
                    k += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    pattern = Some(*a);
                    break;
                }
                k += 1;
            }
            let Some(pattern) = pattern else {
                return Vec::new();
            };
            let module = value(&["-m", "--module-name"]).unwrap_or("command");
            let module_args = value(&["-a", "--args"]).unwrap_or("");
            let hosts = match value(&["-i", "--inventory"]) {
                Some(inv) => format!("{pattern} ({inv})"),
                None => pattern.to_string(),
            };
            module_command(module, module_args)
                .filter(|t| !t.trim().is_empty())
                .map(|t| Adhoc {
                    text: sudo(t),
                    hosts,
                })
                .into_iter()
                .collect()
        }
        "salt" | "salt-ssh" => {
            let pos: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            match pos.as_slice() {
                [target, func, text, ..]
                    if matches!(
                        *func,
                        "cmd.run" | "cmd.shell" | "cmd.run_all" | "cmd.exec_code"
                    ) =>
                {
                    vec![Adhoc {
                        text: format!("sudo {text}"),
                        hosts: (*target).to_string(),
                    }]
                }
                _ => Vec::new(),
            }
        }
        "fab" | "fabric" | "fab2" => {
            let Some(k) = args.iter().position(|a| *a == "--") else {
                return Vec::new();
            };
            let text = args.get(k + 1..).unwrap_or(&[]).join(" ");
            let hosts = value(&["-H", "--hosts"]).unwrap_or("(hosts)").to_string();
            if text.trim().is_empty() {
                return Vec::new();
            }
            vec![Adhoc { text, hosts }]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(argv: &[&str]) -> Vec<(String, String)> {
        commands(argv[0], &argv[1..])
            .into_iter()
            .map(|a| (a.text, a.hosts))
            .collect()
    }

    #[test]
    fn ansible_modules_read_as_commands() {
        assert_eq!(
            texts(&[
                "ansible",
                "all",
                "-i",
                "inv/prod",
                "-b",
                "-m",
                "shell",
                "-a",
                "rm -rf /x"
            ]),
            [("sudo rm -rf /x".to_string(), "all (inv/prod)".to_string())]
        );
        assert_eq!(
            texts(&[
                "ansible",
                "db",
                "-m",
                "community.mysql.mysql_db",
                "-a",
                "name=billing state=absent"
            ]),
            [(
                "mysql -e 'DROP DATABASE billing'".to_string(),
                "db".to_string()
            )]
        );
        assert_eq!(
            texts(&[
                "ansible",
                "web",
                "-m",
                "file",
                "-a",
                "path=/srv/app state=absent"
            ])[0]
                .0,
            "rm -rf '/srv/app'"
        );
        assert_eq!(
            texts(&[
                "ansible",
                "web",
                "-m",
                "user",
                "-a",
                "name=svc uid=0 non_unique=yes"
            ])[0]
                .0,
            "useradd -o -u 0 'svc'"
        );
        assert_eq!(texts(&["ansible", "web", "-a", "uptime"])[0].0, "uptime");
        // a module that reads (ping, setup) runs no command
        assert!(texts(&["ansible", "all", "-m", "ping"]).is_empty());
    }

    #[test]
    fn salt_and_fabric_run_their_text_on_the_hosts() {
        assert_eq!(
            texts(&["salt", "web*", "cmd.run", "uptime && free -m"]),
            [("sudo uptime && free -m".to_string(), "web*".to_string())]
        );
        assert_eq!(
            texts(&[
                "fab",
                "-H",
                "web1.prod,web2.prod",
                "--",
                "sudo systemctl disable --now fail2ban"
            ]),
            [(
                "sudo systemctl disable --now fail2ban".to_string(),
                "web1.prod,web2.prod".to_string()
            )]
        );
        assert!(texts(&["salt", "*", "test.ping"]).is_empty());
    }
}
