//! The code assessor's own small checks of the shell commands code runs (used when no shell
//! engine is plugged in through `set_command_assessor`): `rm -r`, disk formatting, git history
//! rewrites, privilege, package installs, downloads piped to a shell, service and user
//! administration, cloud deletions. Each check looks at one simple command after stripping
//! common wrappers (`sudo`, `env`, `nice`, `timeout`, …).

use super::analysis::ShellCommand;
use super::resources;

/// A simple command with wrappers stripped.
pub struct Cmd<'a> {
    /// Program basename (`rm`, `git`).
    pub prog: String,
    /// Arguments after the program.
    pub args: &'a [String],
    /// True under `sudo`, `doas`, `su -c`, `pkexec`.
    pub privileged: bool,
    /// The command it came from.
    pub sc: &'a ShellCommand,
}

/// Strip wrappers and return the program view; None for an empty command.
pub fn view(sc: &ShellCommand) -> Option<Cmd<'_>> {
    let w = &sc.words;
    let mut i = 0;
    let mut privileged = false;
    while let Some(word) = w.get(i) {
        let base = basename(word);
        match base {
            "sudo" | "doas" | "pkexec" | "run0" => {
                privileged = true;
                i += 1;
                while let Some(f) = w.get(i) {
                    if !f.starts_with('-') {
                        break;
                    }
                    i += if matches!(
                        f.as_str(),
                        "-u" | "-g" | "-C" | "-D" | "-h" | "-p" | "-r" | "-t" | "-U"
                    ) {
                        2
                    } else {
                        1
                    };
                }
            }
            "env" | "nohup" | "time" | "command" | "exec" | "builtin" | "stdbuf" | "unbuffer" => {
                i += 1;
                while w
                    .get(i)
                    .is_some_and(|f| f.starts_with('-') || (f.contains('=') && base == "env"))
                {
                    i += if matches!(w.get(i).map(String::as_str), Some("-u" | "-C" | "-S")) {
                        2
                    } else {
                        1
                    };
                }
            }
            "nice" | "ionice" | "chrt" | "taskset" => {
                i += 1;
                while w.get(i).is_some_and(|f| f.starts_with('-')) {
                    i += if matches!(w.get(i).map(String::as_str), Some("-n" | "-c" | "-p")) {
                        2
                    } else {
                        1
                    };
                }
            }
            "timeout" => {
                i += 1;
                while w.get(i).is_some_and(|f| f.starts_with('-')) {
                    i += if matches!(w.get(i).map(String::as_str), Some("-s" | "-k")) {
                        2
                    } else {
                        1
                    };
                }
                i += 1; // the duration
            }
            "xargs" => {
                i += 1;
                while w.get(i).is_some_and(|f| f.starts_with('-')) {
                    i += if matches!(
                        w.get(i).map(String::as_str),
                        Some("-I" | "-n" | "-P" | "-d" | "-L" | "-s" | "-E")
                    ) {
                        2
                    } else {
                        1
                    };
                }
            }
            _ if word.contains('=')
                && !word.starts_with('-')
                && !word.starts_with('=')
                && i == 0
                || (word.contains('=')
                    && w.get(..i)
                        .is_some_and(|p| p.iter().all(|x| x.contains('=')))) =>
            {
                i += 1;
            }
            "su" if w.get(i + 1..).is_some_and(|r| r.iter().any(|a| a == "-c")) => {
                privileged = true;
                let pos = w
                    .iter()
                    .skip(i)
                    .position(|a| a == "-c")
                    .map(|p| p + i + 1)?;
                let inner = w.get(pos)?;
                // `su -c 'CMD'`: look at CMD's first word only
                let _ = inner;
                return Some(Cmd {
                    prog: "su".into(),
                    args: w.get(i + 1..).unwrap_or(&[]),
                    privileged,
                    sc,
                });
            }
            _ => break,
        }
    }
    let prog = w.get(i)?;
    Some(Cmd {
        prog: basename(prog).to_string(),
        args: w.get(i + 1..).unwrap_or(&[]),
        privileged,
        sc,
    })
}

fn basename(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

impl Cmd<'_> {
    /// True when a short flag `c` appears in any `-abc` cluster, or one of the `long` flags
    /// appears (also as `--long=value`). Stops at `--`.
    pub fn flag(&self, c: Option<char>, long: &[&str]) -> bool {
        for a in self.args {
            if a == "--" {
                break;
            }
            if let Some(l) = a.strip_prefix("--") {
                let name = l.split('=').next().unwrap_or(l);
                if long.iter().any(|x| x.trim_start_matches('-') == name) {
                    return true;
                }
            } else if let Some(cluster) = a.strip_prefix('-')
                && let Some(c) = c
                && !cluster.is_empty()
                && cluster.chars().all(|x| x.is_ascii_alphanumeric())
                && cluster.contains(c)
            {
                return true;
            }
        }
        false
    }

    /// Arguments that are not flags.
    pub fn positionals(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut after = false;
        for a in self.args {
            if after || !a.starts_with('-') || a == "-" {
                out.push(a.as_str());
            } else if a == "--" {
                after = true;
            }
        }
        out
    }

    /// The first positional (a subcommand such as `push`), skipping `git -C dir` style options.
    pub fn sub(&self) -> Option<&str> {
        let mut i = 0;
        while let Some(a) = self.args.get(i) {
            if matches!(
                a.as_str(),
                "-C" | "-c"
                    | "--git-dir"
                    | "--work-tree"
                    | "-n"
                    | "--namespace"
                    | "--context"
                    | "--profile"
                    | "--region"
                    | "--project"
            ) {
                i += 2;
                continue;
            }
            if a.starts_with('-') {
                i += 1;
                continue;
            }
            return Some(a);
        }
        None
    }

    /// The matched text for a hit.
    pub fn text(&self) -> String {
        super::shell_words::join_argv(&self.sc.words)
    }

    /// Path resources among the arguments.
    pub fn paths(&self) -> Vec<String> {
        self.positionals()
            .into_iter()
            .filter(|p| *p != "$ARG" && (resources::is_path_like(p) || !p.contains('=')))
            .map(resources::file)
            .collect()
    }
}

/// `rm -r`, `find … -delete`, `find … -exec rm`.
pub fn rm_recursive(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "rm" => c.flag(Some('r'), &["recursive"]) || c.flag(Some('R'), &[]),
        "find" => {
            c.args.iter().any(|a| a == "-delete")
                || c.args.windows(2).any(|w| {
                    w.first().is_some_and(|x| x == "-exec" || x == "-execdir")
                        && w.get(1).is_some_and(|p| basename(p) == "rm")
                })
        }
        _ => false,
    }
}

/// Whether every target of `c` is a path inside the project (relative, not above it) in one
/// of `classes` (a command with no literal target, or an unknown one `$ARG`, is not).
pub fn targets_only(c: &Cmd<'_>, classes: &[riskgate_model::effect::TargetClass]) -> bool {
    let targets = c.positionals();
    !targets.is_empty()
        && targets.iter().all(|p| {
            !p.contains('$')
                && !p.starts_with("..")
                && !p.starts_with(['/', '~'])
                && classes.contains(&riskgate_model::effect::classify_path(p))
        })
}

/// Whether every target of `c` is a path inside the project in one of `classes`; for `find`,
/// what it deletes are the entries its `-name`/`-iname` selects under relative starting
/// points (`find . -name __pycache__ -exec rm -rf {} +`).
pub fn deletes_only(c: &Cmd<'_>, classes: &[riskgate_model::effect::TargetClass]) -> bool {
    if c.prog != "find" {
        return targets_only(c, classes);
    }
    let starts: Vec<&str> = c
        .args
        .iter()
        .take_while(|a| !a.starts_with('-') && !matches!(a.as_str(), "(" | "!"))
        .map(String::as_str)
        .collect();
    let relative = starts
        .iter()
        .all(|p| !p.contains('$') && !p.starts_with("..") && !p.starts_with(['/', '~']));
    let names: Vec<&str> = c
        .args
        .windows(2)
        .filter(|w| matches!(w[0].as_str(), "-name" | "-iname"))
        .map(|w| w[1].as_str())
        .collect();
    // `-o` could add a second selection the names do not cover
    let one_selection = !c.args.iter().any(|a| a == "-o" || a == "-or");
    relative
        && one_selection
        && !names.is_empty()
        && names.iter().all(|n| {
            !n.contains('$') && classes.contains(&riskgate_model::effect::classify_path(n))
        })
}

/// `rm`, `unlink`, `rmdir`, `shred`.
pub fn deletes_files(c: &Cmd<'_>) -> bool {
    matches!(
        c.prog.as_str(),
        "rm" | "unlink" | "rmdir" | "shred" | "srm" | "wipe"
    )
}

/// Disk formatting and raw device writes.
pub fn formats_disk(c: &Cmd<'_>) -> bool {
    let p = c.prog.as_str();
    if p.starts_with("mkfs")
        || matches!(
            p,
            "fdisk"
                | "sfdisk"
                | "cfdisk"
                | "gdisk"
                | "sgdisk"
                | "parted"
                | "wipefs"
                | "mkswap"
                | "mke2fs"
                | "format"
                | "format.com"
                | "diskpart"
                | "blkdiscard"
        )
    {
        return true;
    }
    if p == "diskutil"
        && c.sub().is_some_and(|s| {
            s.to_ascii_lowercase().starts_with("erase")
                || matches!(
                    s,
                    "partitionDisk" | "zeroDisk" | "randomDisk" | "secureErase"
                )
        })
    {
        return true;
    }
    if p == "dd"
        && c.args
            .iter()
            .any(|a| a.strip_prefix("of=").is_some_and(resources::is_raw_device))
    {
        return true;
    }
    c.sc.redirects
        .iter()
        .any(|(op, t)| op.contains('>') && resources::is_raw_device(t))
}

/// `git push --force`, `git push origin +main`.
pub fn git_force_push(c: &Cmd<'_>) -> bool {
    c.prog == "git"
        && c.sub() == Some("push")
        && (c.flag(
            Some('f'),
            &["force", "force-with-lease", "mirror", "force-if-includes"],
        ) || c.positionals().iter().skip(1).any(|p| p.starts_with('+')))
}

/// `git reset --hard`.
pub fn git_reset_hard(c: &Cmd<'_>) -> bool {
    c.prog == "git" && c.sub() == Some("reset") && c.flag(None, &["hard"])
}

/// `git clean -f`.
pub fn git_clean(c: &Cmd<'_>) -> bool {
    c.prog == "git" && c.sub() == Some("clean") && c.flag(Some('f'), &["force"])
}

/// `git commit`.
pub fn git_commit(c: &Cmd<'_>) -> bool {
    c.prog == "git" && c.sub() == Some("commit")
}

/// Package installs through pip and friends.
pub fn pip_install(c: &Cmd<'_>) -> bool {
    let p = c.prog.as_str();
    let pos = c.positionals();
    let first = pos.first().copied();
    (p.starts_with("pip") && matches!(first, Some("install" | "download")))
        || (p.starts_with("python")
            && c.args.windows(3).any(|w| {
                w.first().is_some_and(|x| x == "-m")
                    && w.get(1).is_some_and(|x| x == "pip")
                    && w.get(2).is_some_and(|x| x == "install")
            }))
        || (p == "uv"
            && (matches!(first, Some("add"))
                || (first == Some("pip") && pos.get(1) == Some(&"install"))))
        || (p == "poetry" && first == Some("add"))
        || (matches!(
            p,
            "conda" | "mamba" | "micromamba" | "pipx" | "easy_install"
        ) && matches!(first, Some("install"))
            || p == "easy_install")
}

/// Other package managers: npm, yarn, apt, brew, gem, cargo, go; `npx` runs package code.
pub fn package_install(c: &Cmd<'_>) -> bool {
    let p = c.prog.as_str();
    let first = c.positionals().first().copied();
    match p {
        "npm" | "pnpm" | "bun" => {
            matches!(first, Some("install" | "i" | "add" | "ci" | "exec" | "x"))
        }
        "yarn" => matches!(first, None | Some("add" | "install" | "dlx")),
        "npx" | "pnpx" | "bunx" => true,
        "apt" | "apt-get" | "yum" | "dnf" | "zypper" | "brew" | "gem" | "cargo" | "snap"
        | "flatpak" | "choco" | "winget" | "port" => {
            matches!(
                first,
                Some("install" | "reinstall" | "upgrade" | "dist-upgrade")
            )
        }
        "apk" => matches!(first, Some("add")),
        "pacman" => c.flag(Some('S'), &["sync"]),
        "go" => matches!(first, Some("install" | "get")),
        "composer" => matches!(first, Some("require" | "install")),
        _ => false,
    }
}

/// Network writes: `curl -X POST`, `curl -d`, `wget --post-data`, `http POST`.
pub fn network_write(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "curl" => {
            let method = c
                .args
                .windows(2)
                .find(|w| w.first().is_some_and(|x| x == "-X" || x == "--request"))
                .and_then(|w| w.get(1))
                .map(|m| m.to_ascii_uppercase());
            method.is_some_and(|m| matches!(m.as_str(), "POST" | "PUT" | "DELETE" | "PATCH"))
                || c.flag(
                    Some('d'),
                    &[
                        "data",
                        "data-raw",
                        "data-binary",
                        "data-urlencode",
                        "json",
                        "form",
                        "upload-file",
                    ],
                )
                || c.flag(Some('F'), &[])
                || c.flag(Some('T'), &[])
        }
        "wget" => c.flag(
            None,
            &["post-data", "post-file", "method", "body-data", "body-file"],
        ),
        "http" | "https" | "xh" => c.positionals().first().is_some_and(|m| {
            matches!(
                m.to_ascii_uppercase().as_str(),
                "POST" | "PUT" | "DELETE" | "PATCH"
            )
        }),
        _ => false,
    }
}

/// Network reads: curl, wget, httpie.
pub fn network_read(c: &Cmd<'_>) -> bool {
    matches!(
        c.prog.as_str(),
        "curl" | "wget" | "http" | "https" | "xh" | "aria2c" | "fetch"
    ) && !network_write(c)
}

/// A download piped into an interpreter (`curl … | sh`), or `sh -c "$(curl …)"`.
pub fn pipe_to_shell(prev: Option<&Cmd<'_>>, c: &Cmd<'_>) -> bool {
    let shellish = |p: &str| {
        matches!(
            p,
            "sh" | "bash"
                | "zsh"
                | "dash"
                | "ksh"
                | "fish"
                | "perl"
                | "ruby"
                | "node"
                | "php"
                | "eval"
                | "source"
                | "."
        ) || p.starts_with("python")
    };
    let fetcher = |p: &str| {
        matches!(
            p,
            "curl" | "wget" | "fetch" | "http" | "https" | "iwr" | "Invoke-WebRequest" | "base64"
        )
    };
    if c.sc.piped
        && shellish(&c.prog)
        && prev.is_some_and(|p| {
            fetcher(&p.prog) || p.prog == "echo" && p.args.iter().any(|a| a.len() > 40)
        })
    {
        return true;
    }
    shellish(&c.prog)
        && c.args.iter().any(|a| {
            a.contains("$(curl")
                || a.contains("$(wget")
                || a.contains("`curl")
                || a.contains("<(curl")
                || a.contains("<(wget")
        })
}

/// chmod, chown, chgrp, setfacl, chattr.
pub fn permission_change(c: &Cmd<'_>) -> bool {
    matches!(
        c.prog.as_str(),
        "chmod" | "chown" | "chgrp" | "setfacl" | "chattr" | "icacls" | "takeown"
    )
}

/// World-writable or setuid modes, or recursive changes on system paths.
pub fn permission_broad(c: &Cmd<'_>) -> bool {
    if !permission_change(c) {
        return false;
    }
    let pos = c.positionals();
    let mode = pos.first().copied().unwrap_or("");
    let broad_mode = c.prog == "chmod"
        && (mode.ends_with("777")
            || mode.ends_with("666")
            || mode.contains("o+w")
            || mode.contains("a+w")
            || mode.contains("+s")
            || (mode.len() == 4
                && mode.starts_with(['2', '4', '6'])
                && mode.chars().all(|x| x.is_ascii_digit())));
    let recursive_system = (c.flag(Some('R'), &["recursive"]))
        && pos.iter().skip(1).any(|p| resources::is_critical_path(p));
    broad_mode || recursive_system
}

/// shutdown, reboot, halt, poweroff, `init 0`, `systemctl reboot`.
pub fn system_power(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "shutdown" | "reboot" | "halt" | "poweroff" => true,
        "init" | "telinit" => matches!(c.positionals().first(), Some(&("0" | "6"))),
        "systemctl" => matches!(
            c.sub(),
            Some("poweroff" | "reboot" | "halt" | "kexec" | "emergency" | "rescue")
        ),
        _ => false,
    }
}

/// kill, killall, pkill.
pub fn process_kill(c: &Cmd<'_>) -> bool {
    matches!(
        c.prog.as_str(),
        "kill" | "killall" | "pkill" | "skill" | "taskkill"
    )
}

/// ssh, scp, rsync to a host, sftp.
pub fn remote_access(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "ssh" | "scp" | "sftp" | "mosh" => true,
        "rsync" => c
            .positionals()
            .iter()
            .any(|p| p.contains(':') && !p.starts_with('/')),
        _ => false,
    }
}

/// docker / podman containers run or built.
pub fn container_exec(c: &Cmd<'_>) -> bool {
    matches!(c.prog.as_str(), "docker" | "podman" | "nerdctl")
        && matches!(
            c.sub(),
            Some("run" | "exec" | "build" | "compose" | "create" | "start")
        )
}

/// Deletions of cloud, cluster and container resources.
pub fn cloud_delete(c: &Cmd<'_>) -> bool {
    let pos = c.positionals();
    match c.prog.as_str() {
        "kubectl" | "oc" => matches!(c.sub(), Some("delete" | "drain")),
        "helm" => matches!(c.sub(), Some("uninstall" | "delete")),
        "docker" | "podman" => {
            matches!(c.sub(), Some("rm" | "rmi" | "kill"))
                || (matches!(
                    c.sub(),
                    Some("system" | "volume" | "image" | "container" | "network")
                ) && pos.get(1).is_some_and(|s| matches!(*s, "prune" | "rm")))
        }
        "aws" | "gcloud" | "az" | "doctl" | "heroku" | "flyctl" | "vercel" | "gsutil" => {
            pos.iter().any(|p| {
                let p = p.to_ascii_lowercase();
                p.starts_with("delete")
                    || p.starts_with("terminate")
                    || p.starts_with("remove")
                    || p == "rm"
                    || p == "rb"
                    || p.starts_with("deregister")
                    || p.ends_with(":destroy")
                    || p == "destroy"
            })
        }
        _ => false,
    }
}

/// Destruction of whole environments: `terraform destroy`, `pulumi destroy`, recursive bucket
/// deletion, namespace deletion.
pub fn infra_destroy(c: &Cmd<'_>) -> bool {
    let pos = c.positionals();
    match c.prog.as_str() {
        "terraform" | "tofu" | "terragrunt" => {
            c.sub() == Some("destroy") || (c.sub() == Some("apply") && c.flag(None, &["destroy"]))
        }
        "pulumi" | "cdk" => c.sub() == Some("destroy"),
        "aws" => {
            pos.first() == Some(&"s3")
                && ((pos.get(1) == Some(&"rm") && c.flag(None, &["recursive"]))
                    || (pos.get(1) == Some(&"rb") && c.flag(None, &["force"])))
        }
        "gsutil" => pos.first() == Some(&"rm") && c.flag(Some('r'), &[]),
        "kubectl" | "oc" => {
            c.sub() == Some("delete")
                && (pos.get(1).is_some_and(|k| {
                    matches!(*k, "ns" | "namespace" | "namespaces" | "pv" | "pvc")
                }) || c.flag(None, &["all"]))
        }
        "gcloud" => pos.first() == Some(&"projects") && pos.get(1) == Some(&"delete"),
        _ => false,
    }
}

/// crontab edits and removals, `at`.
pub fn crontab(c: &Cmd<'_>) -> bool {
    (c.prog == "crontab" && !c.flag(Some('l'), &[])) || c.prog == "at"
}

/// Service management.
pub fn service_control(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "systemctl" => matches!(
            c.sub(),
            Some(
                "start"
                    | "stop"
                    | "restart"
                    | "enable"
                    | "disable"
                    | "mask"
                    | "daemon-reload"
                    | "kill"
                    | "isolate"
            )
        ),
        "service" => c
            .positionals()
            .get(1)
            .is_some_and(|a| matches!(*a, "start" | "stop" | "restart" | "reload")),
        "launchctl" => matches!(
            c.sub(),
            Some("load" | "unload" | "bootstrap" | "bootout" | "enable" | "disable" | "kill")
        ),
        "sc" | "sc.exe" => matches!(c.sub(), Some("create" | "delete" | "stop" | "config")),
        _ => false,
    }
}

/// User, group and password administration.
pub fn user_admin(c: &Cmd<'_>) -> bool {
    matches!(
        c.prog.as_str(),
        "useradd"
            | "userdel"
            | "usermod"
            | "adduser"
            | "deluser"
            | "passwd"
            | "chpasswd"
            | "groupadd"
            | "groupdel"
            | "groupmod"
            | "gpasswd"
            | "visudo"
            | "dscl"
            | "net"
    ) && (c.prog != "net" || matches!(c.sub(), Some("user" | "localgroup")))
}

/// Firewall changes.
pub fn firewall(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "iptables" | "ip6tables" | "nft" | "firewall-cmd" | "pfctl" => {
            !c.flag(Some('L'), &["list", "list-all", "state"])
        }
        "ufw" => !matches!(c.sub(), Some("status") | None),
        _ => false,
    }
}

/// Windows registry edits.
pub fn registry(c: &Cmd<'_>) -> bool {
    matches!(c.prog.as_str(), "reg" | "reg.exe")
        && matches!(
            c.sub().map(str::to_ascii_lowercase).as_deref(),
            Some("add" | "delete" | "import" | "restore")
        )
}

/// `dropdb`, `mysqladmin drop`.
pub fn drops_database(c: &Cmd<'_>) -> bool {
    c.prog == "dropdb" || (c.prog == "mysqladmin" && c.positionals().first() == Some(&"drop"))
}

/// Redirect targets and tee / sed -i / truncate targets: files written by a command.
pub fn written_files(c: &Cmd<'_>) -> Vec<String> {
    let mut out: Vec<String> =
        c.sc.redirects
            .iter()
            .filter(|(op, t)| {
                op.contains('>')
                    && !matches!(
                        t.as_str(),
                        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
                    )
                    && !t.starts_with('&')
            })
            .map(|(_, t)| t.clone())
            .collect();
    match c.prog.as_str() {
        "tee" | "truncate" => out.extend(
            c.positionals()
                .into_iter()
                .filter(|p| !p.chars().all(|x| x.is_ascii_digit()))
                .map(String::from),
        ),
        "sed" | "perl"
            if c.args
                .iter()
                .any(|a| a.starts_with("-i") || a == "--in-place") =>
        {
            out.extend(c.positionals().into_iter().skip(1).map(String::from));
        }
        "dd" => out.extend(
            c.args
                .iter()
                .filter_map(|a| a.strip_prefix("of="))
                .map(String::from),
        ),
        "cp" | "mv" | "install" | "ln" => out.extend(c.positionals().last().map(|s| s.to_string())),
        _ => {}
    }
    out
}

/// Files read by reading commands.
pub fn read_files(c: &Cmd<'_>) -> Vec<String> {
    match c.prog.as_str() {
        "cat" | "less" | "more" | "head" | "tail" | "base64" | "xxd" | "strings" | "od"
        | "hexdump" | "cp" | "scp" | "rsync" | "grep" | "tar" | "zip" | "source" | "." => {
            c.positionals().into_iter().map(String::from).collect()
        }
        _ => Vec::new(),
    }
}

/// `tar x`, `unzip`, `7z x`.
pub fn extracts_archive(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "tar" | "bsdtar" => {
            c.args
                .first()
                .is_some_and(|a| !a.starts_with("--") && a.trim_start_matches('-').contains('x'))
                || c.flag(Some('x'), &["extract", "get"])
        }
        "unzip" | "unrar" => true,
        "7z" | "7za" => matches!(c.sub(), Some("x" | "e")),
        _ => false,
    }
}

/// curl -o/-O, wget (which saves by default).
pub fn downloads_file(c: &Cmd<'_>) -> bool {
    match c.prog.as_str() {
        "curl" => {
            c.flag(Some('o'), &["output", "remote-name", "remote-name-all"])
                || c.flag(Some('O'), &[])
        }
        "wget" => {
            !c.args.iter().any(|a| a == "-O-" || a == "-qO-")
                && !c.args.windows(2).any(|w| {
                    w.first().is_some_and(|x| x == "-O") && w.get(1).is_some_and(|x| x == "-")
                })
        }
        _ => false,
    }
}
