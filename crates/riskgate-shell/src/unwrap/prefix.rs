//! The prefix wrappers described as data ([`PREFIX`]: `sudo`, `nice`, `timeout`, `nohup`,
//! `strace`, `gdb --args` …): which options take a value, where the inner command starts, and
//! which options hand a shell string instead (`sudo -s`, `flock -c`); and the peel that
//! reads them.

use super::*;

/// A prefix wrapper described as data.
pub(super) struct Prefix {
    pub(super) names: &'static [&'static str],
    /// Short options taking a value.
    short_arg: &'static str,
    /// Long options taking a value (without `=`).
    long_arg: &'static [&'static str],
    /// Positionals before the command (`timeout DURATION`, `chroot DIR`).
    skip: usize,
    privileged: bool,
    /// Options meaning there is no inner command (`sudo -l`, `ionice -p PID`).
    no_command: &'static [&'static str],
    /// Option whose value is a shell string (`flock -c`, `runuser -c`).
    script_opt: &'static [&'static str],
    /// Skip `-NUMBER` words (`nice -10`).
    numeric_opts: bool,
    /// `NAME=value` operands before the command set its environment (`sudo VAR=1 CMD`).
    assigns: bool,
    /// Programs whose [`Prefix::script_opt`] values are their own commands, of which those
    /// starting with one of these escapes run the rest as a shell string (`gdb -ex 'shell
    /// CMD'`, `vim -c '!CMD'`). Their operands are files, never a command; options are read
    /// anywhere in the argv.
    shell_escape: &'static [&'static str],
}

const P: Prefix = Prefix {
    names: &[],
    short_arg: "",
    long_arg: &[],
    skip: 0,
    privileged: false,
    no_command: &[],
    script_opt: &[],
    numeric_opts: false,
    assigns: false,
    shell_escape: &[],
};

pub(super) static PREFIX: &[Prefix] = &[
    Prefix {
        names: &["sudo"],
        short_arg: "uUgpChrtTDR",
        long_arg: &[
            "--user",
            "--group",
            "--prompt",
            "--role",
            "--type",
            "--command-timeout",
            "--other-user",
            "--chdir",
            "--chroot",
            "--close-from",
            "--host",
        ],
        privileged: true,
        no_command: &[
            "-e",
            "--edit",
            "-l",
            "--list",
            "-v",
            "--validate",
            "-K",
            "--remove-timestamp",
            "-V",
            "--version",
            "--help",
        ],
        assigns: true,
        ..P
    },
    Prefix {
        names: &["doas"],
        short_arg: "uC",
        privileged: true,
        no_command: &["-L"],
        ..P
    },
    Prefix {
        names: &["pkexec"],
        long_arg: &["--user"],
        privileged: true,
        ..P
    },
    Prefix {
        names: &["run0"],
        short_arg: "ugD",
        long_arg: &[
            "--user",
            "--group",
            "--chdir",
            "--unit",
            "--property",
            "--description",
            "--slice",
            "--nice",
            "--setenv",
            "--machine",
            "--background",
            "--slice-inherit",
        ],
        privileged: true,
        ..P
    },
    Prefix {
        names: &["runuser"],
        short_arg: "ugGs",
        long_arg: &[
            "--user",
            "--group",
            "--supp-group",
            "--shell",
            "--session-command",
            "-w",
            "--whitelist-environment",
        ],
        privileged: true,
        script_opt: &["-c", "--command"],
        ..P
    },
    Prefix {
        names: &["nice"],
        short_arg: "n",
        long_arg: &["--adjustment"],
        numeric_opts: true,
        ..P
    },
    Prefix {
        names: &[
            "nohup",
            "setsid",
            "unbuffer",
            "catchsegv",
            "torsocks",
            "tsocks",
            "chronic",
            "ifne",
            "eatmydata",
            "fakeroot",
            "run-one",
            "run-this-one",
            "run-one-constantly",
            "keep-one-running",
            "with-contenv",
            "dbus-run-session",
            "dbus-launch",
            "vglrun",
            "prime-run",
            "primusrun",
            "optirun",
            "gamemoderun",
            "linux32",
            "linux64",
        ],
        ..P
    },
    // `xvfb-run -a -s '-screen 0 1024x768x24' CMD`: a command under a virtual display
    Prefix {
        names: &["xvfb-run"],
        short_arg: "nsfep",
        long_arg: &[
            "--server-num",
            "--server-args",
            "--auth-file",
            "--error-file",
        ],
        ..P
    },
    // `setpriv --reuid=0 CMD`, `setarch x86_64 CMD`: run a command with changed credentials or
    // personality
    Prefix {
        names: &["setpriv"],
        long_arg: &[
            "--reuid",
            "--regid",
            "--groups",
            "--inh-caps",
            "--bounding-set",
        ],
        privileged: true,
        ..P
    },
    Prefix {
        names: &["setarch"],
        skip: 1,
        ..P
    },
    // `entr [-acdnprsz] CMD…`: runs CMD each time a listed file changes
    Prefix {
        names: &["entr"],
        ..P
    },
    Prefix {
        names: &["gdb", "gdb-multiarch", "cgdb"],
        script_opt: &[
            "-ex",
            "--ex",
            "-eval-command",
            "--eval-command",
            "-iex",
            "--init-eval-command",
        ],
        shell_escape: &["shell ", "!"],
        ..P
    },
    Prefix {
        names: &["lldb"],
        script_opt: &[
            "-o",
            "--one-line",
            "-O",
            "--one-line-before-file",
            "-k",
            "--one-line-on-crash",
        ],
        shell_escape: &["platform shell -- ", "platform shell "],
        ..P
    },
    Prefix {
        // `+CMD` is `-c CMD`.
        names: &[
            "vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff", "rvim", "evim", "nvi",
        ],
        script_opt: &["-c", "--cmd", "+"],
        shell_escape: &[
            "!",
            "silent !",
            "silent! !",
            "silent!!",
            "r !",
            "r!",
            "read !",
            "read!",
            "w !",
            "write !",
            "terminal ",
            "term ",
        ],
        ..P
    },
    Prefix {
        names: &["time", "gtime"],
        short_arg: "fo",
        long_arg: &["--format", "--output"],
        ..P
    },
    Prefix {
        // `screen -dmS NAME CMD …`: a detached session running CMD.
        names: &["screen"],
        short_arg: "ScehptT",
        long_arg: &["-Logfile"],
        no_command: &[
            "-r", "-R", "-x", "-ls", "-list", "-wipe", "-X", "-Q", "-v", "-help",
        ],
        ..P
    },
    Prefix {
        // `wsl [-d DISTRO] [-u USER] [-e] CMD …`: a command run in a WSL distribution.
        names: &["wsl"],
        short_arg: "du",
        long_arg: &["--distribution", "--user", "--cd", "--shell-type"],
        no_command: &[
            "--unregister",
            "--list",
            "-l",
            "--install",
            "--shutdown",
            "--terminate",
            "-t",
            "--export",
            "--import",
            "--set-default",
            "-s",
            "--status",
            "--update",
            "--help",
            "--set-version",
            "--mount",
            "--unmount",
        ],
        ..P
    },
    Prefix {
        names: &["caffeinate"],
        short_arg: "tw",
        ..P
    },
    Prefix {
        names: &["timeout", "gtimeout"],
        short_arg: "sk",
        long_arg: &["--signal", "--kill-after"],
        skip: 1,
        ..P
    },
    Prefix {
        names: &["stdbuf"],
        short_arg: "ioe",
        long_arg: &["--input", "--output", "--error"],
        ..P
    },
    Prefix {
        names: &["ionice"],
        short_arg: "cn",
        long_arg: &["--class", "--classdata"],
        no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
        ..P
    },
    Prefix {
        names: &["chroot"],
        long_arg: &["--userspec", "--groups"],
        skip: 1,
        ..P
    },
    Prefix {
        names: &["builtin"],
        ..P
    },
    Prefix {
        names: &["exec"],
        short_arg: "a",
        ..P
    },
    Prefix {
        names: &["flock"],
        short_arg: "wE",
        long_arg: &["--timeout", "--conflict-exit-code"],
        skip: 1,
        script_opt: &["-c", "--command"],
        ..P
    },
    Prefix {
        names: &["strace", "ltrace"],
        short_arg: "oesuEPIXabS",
        long_arg: &[
            "--output",
            "--signal",
            "--string-limit",
            "--user",
            "--env",
            "--trace",
            "--expr",
        ],
        no_command: &["-p", "--attach"],
        ..P
    },
    Prefix {
        names: &["nsenter"],
        short_arg: "tSGr",
        long_arg: &["--target", "--setuid", "--setgid", "--root", "--wd"],
        privileged: true,
        ..P
    },
    Prefix {
        names: &["unshare"],
        short_arg: "S",
        long_arg: &[
            "--setuid",
            "--setgid",
            "--propagation",
            "--map-user",
            "--map-group",
            "--root",
            "--wd",
        ],
        ..P
    },
    Prefix {
        names: &["taskset"],
        skip: 1,
        no_command: &["-p", "--pid"],
        ..P
    },
    Prefix {
        names: &["chrt"],
        skip: 1,
        no_command: &["-p", "--pid"],
        ..P
    },
    Prefix {
        names: &["sg"],
        skip: 1,
        script_opt: &["-c"],
        ..P
    },
    Prefix {
        names: &["proxychains", "proxychains4"],
        short_arg: "f",
        ..P
    },
    Prefix {
        names: &["firejail", "valgrind", "numactl", "cgexec", "systemd-run"],
        short_arg: "gpuENM",
        long_arg: &[
            "--property",
            "--unit",
            "--setenv",
            "--uid",
            "--gid",
            "--machine",
            "--description",
            "--slice",
            "--nice",
            "--working-directory",
            "--membind",
            "--cpunodebind",
            "--physcpubind",
        ],
        ..P
    },
    Prefix {
        names: &["faketime"],
        skip: 1,
        ..P
    },
    Prefix {
        names: &["script"],
        short_arg: "cEeflmOoqtT",
        long_arg: &[
            "--command",
            "--log-io",
            "--log-out",
            "--log-in",
            "--log-timing",
            "--echo",
            "--output-limit",
        ],
        script_opt: &["-c", "--command"],
        no_command: &["--no-command-marker"],
        ..P
    },
];

pub(super) fn peel_prefix(prog: &str, spec: &Prefix, argv: &[XWord]) -> Option<Peeled> {
    if !spec.shell_escape.is_empty() {
        return peel_escape(prog, spec, argv);
    }
    let mut i = skip_opts(argv, 1, spec.short_arg, spec.long_arg, spec.numeric_opts);
    let opts = argv.get(1..i).unwrap_or(&[]);
    // A shell-string option (`flock -c CMD`, `runuser -c CMD`).
    for (k, w) in opts.iter().enumerate() {
        let t = w.text();
        // `-c CMD`, `--command=CMD`, or a cluster ending in the option (`script -qc CMD`).
        let hit = spec.script_opt.iter().any(|o| {
            t == *o
                || (t.starts_with(o) && t.as_bytes().get(o.len()) == Some(&b'='))
                || (o.len() == 2
                    && !o.starts_with("--")
                    && t.len() > 2
                    && t.starts_with('-')
                    && !t.starts_with("--")
                    && t.ends_with(&o[1..]))
        });
        if hit {
            let value = match t.split_once('=') {
                Some((_, v)) => XWord {
                    w: Word {
                        text: v.to_string(),
                        dynamic: w.w.dynamic,
                    },
                    feed: w.feed,
                },
                None => opts.get(k + 1).cloned().or_else(|| argv.get(i).cloned())?,
            };
            let mut p = peeled(wrapper(prog, opts), Next::Script(vec![value]))?;
            p.privileged = spec.privileged;
            return Some(p);
        }
    }
    // The shell-string option right after the positionals (`flock FILE -c CMD`).
    if spec.skip > 0
        && let Some(o) = argv.get(i + spec.skip)
        && spec.script_opt.contains(&o.text())
        && let Some(value) = argv.get(i + spec.skip + 1)
    {
        let end = (i + spec.skip + 1).min(argv.len());
        let mut p = peeled(
            wrapper(prog, argv.get(1..end).unwrap_or(&[])),
            Next::Script(vec![value.clone()]),
        )?;
        p.privileged = spec.privileged;
        return Some(p);
    }
    let no_command = opts.iter().any(|w| {
        let t = opt_name(w.text());
        spec.no_command.contains(&t)
            || (t.starts_with('-')
                && !t.starts_with("--")
                && t.len() > 2
                && spec
                    .no_command
                    .iter()
                    .any(|n| n.len() == 2 && !n.starts_with("--") && t.contains(&n[1..])))
    });
    let skipped_pos = argv.get(i..(i + spec.skip).min(argv.len())).unwrap_or(&[]);
    i += spec.skip;
    let mut args = texts(opts);
    args.extend(texts(skipped_pos));
    let mut assignments = Vec::new();
    while spec.assigns
        && let Some(w) = argv.get(i)
        && let Some((n, v)) = w.text().split_once('=')
        && is_name(n)
    {
        assignments.push((
            n.to_string(),
            Word {
                text: v.to_string(),
                dynamic: w.w.dynamic,
            },
        ));
        args.push(w.w.text.clone());
        i += 1;
    }
    let w = Wrapper {
        name: prog.to_string(),
        args,
    };
    let rest = argv.get(i..).unwrap_or(&[]);
    let next = if no_command || rest.is_empty() {
        Next::Nothing
    } else {
        Next::Argv(rest.to_vec())
    };
    if matches!(next, Next::Nothing) && !spec.privileged {
        return None;
    }
    let mut p = peeled(w, next)?;
    p.privileged = spec.privileged;
    p.assignments = assignments;
    Some(p)
}

/// A program whose commands (`gdb -ex CMD`, `vim -c CMD`, `vim +CMD`) may escape to a
/// shell: the first such command, as a shell string.
fn peel_escape(prog: &str, spec: &Prefix, argv: &[XWord]) -> Option<Peeled> {
    let mut k = 1;
    while let Some(w) = argv.get(k) {
        let t = w.text();
        // (the command, the word holding it, the next word to look at)
        let value: Option<(String, usize, usize)> = if spec.script_opt.contains(&t) {
            argv.get(k + 1)
                .map(|v| (v.text().to_string(), k + 1, k + 2))
        } else if let Some((o, v)) = t.split_once('=')
            && o.starts_with("--")
            && spec.script_opt.contains(&o)
        {
            Some((v.to_string(), k, k + 1))
        } else if spec.script_opt.contains(&"+") && t.len() > 1 {
            t.strip_prefix('+').map(|v| (v.to_string(), k, k + 1))
        } else {
            None
        };
        let Some((value, at, next)) = value else {
            k += 1;
            continue;
        };
        if let Some(cmd) = shell_escaped(&value, spec.shell_escape)
            && let Some(src) = argv.get(at)
        {
            let inner = XWord {
                w: Word {
                    text: cmd.to_string(),
                    dynamic: src.w.dynamic,
                },
                feed: src.feed,
            };
            let opts = argv.get(1..k).unwrap_or(&[]);
            return peeled(wrapper(prog, opts), Next::Script(vec![inner]));
        }
        k = next;
    }
    None
}

/// The shell command of an editor or debugger command that escapes to a shell (`:!CMD`,
/// `silent !CMD`, `shell CMD`), if it is one.
fn shell_escaped<'a>(value: &'a str, escapes: &[&str]) -> Option<&'a str> {
    let v = value.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    escapes
        .iter()
        .find_map(|e| v.strip_prefix(e))
        .map(str::trim_start)
        .filter(|c| !c.is_empty())
        .or_else(|| called_system(v))
}

/// The command of a debugger's or editor's call of the C library's / Vim's `system()` with a
/// literal (`call (int)system("rm -rf /x")`, `print system("id")`, `:call system('…')`).
fn called_system(v: &str) -> Option<&str> {
    let rest = ["call ", "print ", "p ", "echo ", "let _ = "]
        .iter()
        .find_map(|k| v.strip_prefix(k))?;
    let at = rest.find("system(")? + "system(".len();
    let arg = rest.get(at..)?.trim_start();
    let q = arg.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = arg.get(1..)?;
    let end = body.find(q)?;
    body.get(..end).filter(|c| !c.trim().is_empty())
}
