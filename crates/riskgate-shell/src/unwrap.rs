//! Wrappers: commands that run another command (`sudo`, `env`, `timeout`, `xargs`, `bash -c`,
//! `eval`, `ssh host CMD` …). [`peel`] removes one wrapper and says what runs inside: another
//! argv, or a shell string to parse. Simple prefix wrappers are data ([`PREFIX`]); the rest
//! (env, shells, eval, su, ssh, watch, xargs, parallel, busybox, command, find -exec) are code.

use crate::Word;
use crate::Wrapper;
use crate::canon::program_name;
use crate::ctx::XWord;

/// What runs inside a wrapper.
#[derive(Debug)]
pub(crate) enum Next {
    /// Another argv.
    Argv(Vec<XWord>),
    /// A shell string (the words joined by spaces), parsed as a script.
    Script(Vec<XWord>),
    /// Nothing: the wrapper itself is the command (`sudo -i`, `su`, `chroot /mnt`).
    Nothing,
}

#[derive(Debug)]
pub(crate) struct Peeled {
    pub wrapper: Wrapper,
    pub privileged: bool,
    pub remote: Option<String>,
    pub assignments: Vec<(String, Word)>,
    pub next: Next,
    /// The wrapper's own argv, to record as a command of its own (ssh: the connection).
    pub keep: Option<Vec<XWord>>,
    /// Positional parameters of a shell string (`sh -c 'rm -rf "$1"' _ /`: `$1` is `/`).
    pub positional: Option<Vec<XWord>>,
}

/// A prefix wrapper described as data.
struct Prefix {
    names: &'static [&'static str],
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

static PREFIX: &[Prefix] = &[
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
        ],
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

/// Shells that take `-c STRING`.
pub(crate) const SHELLS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "rbash",
    "yash",
    "posh",
    "busybox-sh",
    "lksh",
    "pdksh",
    "tcsh",
    "csh",
    "fish",
];

pub(crate) fn is_shell(p: &str) -> bool {
    SHELLS.contains(&p)
}

fn opt_name(w: &str) -> &str {
    w.split_once('=').map_or(w, |(a, _)| a)
}

/// Skip options from `argv[start..]`. Returns the index of the first non-option.
fn skip_opts(
    argv: &[XWord],
    start: usize,
    short_arg: &str,
    long_arg: &[&str],
    numeric: bool,
) -> usize {
    let mut i = start;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if w.w.dynamic && !t.starts_with('-') {
            return i;
        }
        if t == "--" {
            return i + 1;
        }
        if t.starts_with("--") {
            i += 1;
            if !t.contains('=') && long_arg.contains(&t) {
                i += 1;
            }
            continue;
        }
        if t.len() > 1 && t.starts_with('-') {
            i += 1;
            if numeric && t[1..].chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            if long_arg.contains(&t) {
                i += 1;
                continue;
            }
            let body = &t[1..];
            for (k, c) in body.char_indices() {
                if short_arg.contains(c) {
                    if k + c.len_utf8() == body.len() {
                        i += 1;
                    }
                    break;
                }
            }
            continue;
        }
        return i;
    }
    i
}

fn texts(ws: &[XWord]) -> Vec<String> {
    ws.iter().map(|w| w.w.text.clone()).collect()
}

fn wrapper(name: &str, args: &[XWord]) -> Wrapper {
    Wrapper {
        name: name.to_string(),
        args: texts(args),
    }
}

fn peeled(w: Wrapper, next: Next) -> Option<Peeled> {
    Some(Peeled {
        wrapper: w,
        privileged: false,
        remote: None,
        assignments: Vec::new(),
        next,
        keep: None,
        positional: None,
    })
}

/// Remove one wrapper from `argv`, if its program is one.
pub(crate) fn peel(argv: &[XWord]) -> Option<Peeled> {
    let first = argv.first()?;
    if first.w.dynamic {
        return None;
    }
    let prog = program_name(first.text());
    let prog = prog.as_str();
    if let Some(spec) = PREFIX.iter().find(|s| s.names.contains(&prog)) {
        return peel_prefix(prog, spec, argv);
    }
    match prog {
        "env" => peel_env(argv),
        "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose" | "kubectl"
        | "oc" => peel_container_exec(prog, argv),
        "npx" | "pnpx" | "bunx" | "pnpm" | "yarn" | "bun" | "npm" => {
            peel_package_runner(prog, argv)
        }
        // `cross-env NODE_ENV=production CMD …`: env for Node projects.
        "cross-env" | "cross-env-shell" => {
            let i = argv
                .iter()
                .skip(1)
                .position(|w| !w.text().contains('=') || w.text().starts_with('-'))?
                + 1;
            let rest = argv.get(i..).filter(|r| !r.is_empty())?.to_vec();
            let next = if prog == "cross-env-shell" {
                Next::Script(rest)
            } else {
                Next::Argv(rest)
            };
            peeled(wrapper(prog, argv.get(1..i).unwrap_or(&[])), next)
        }
        // `python3 -m pip install …` is `pip install …`
        p if is_python(p) => {
            let i = argv.iter().position(|w| w.text() == "-m")?;
            if argv.get(i + 1).map(|w| w.text()) != Some("pip")
                || argv
                    .get(1..i)
                    .unwrap_or(&[])
                    .iter()
                    .any(|w| !w.text().starts_with('-'))
            {
                return None;
            }
            let mut inner = vec![XWord::lit("pip")];
            inner.extend(argv.get(i + 2..).unwrap_or(&[]).iter().cloned());
            peeled(
                wrapper(prog, argv.get(1..i + 2).unwrap_or(&[])),
                Next::Argv(inner),
            )
        }
        // rimraf is `rm -rf` as a package.
        "rimraf" => {
            let mut inner = vec![XWord::lit("rm"), XWord::lit("-rf")];
            inner.extend(
                argv.iter()
                    .skip(1)
                    .filter(|w| !w.text().starts_with('-'))
                    .cloned(),
            );
            peeled(wrapper("rimraf", &[]), Next::Argv(inner))
        }
        "command" => {
            let i = skip_opts(argv, 1, "", &[], false);
            let opts = argv.get(1..i).unwrap_or(&[]);
            if opts.iter().any(|w| w.text().contains(['v', 'V'])) || i >= argv.len() {
                return None;
            }
            peeled(wrapper("command", opts), Next::Argv(argv[i..].to_vec()))
        }
        "eval" => {
            let rest = argv.get(1..).unwrap_or(&[]);
            if rest.is_empty() {
                return None;
            }
            peeled(wrapper("eval", &[]), Next::Script(rest.to_vec()))
        }
        "su" => peel_su(argv),
        "ssh" => peel_ssh(argv),
        "watch" => {
            let i = skip_opts(argv, 1, "nq", &["--interval", "--equexit"], false);
            let opts = argv.get(1..i).unwrap_or(&[]);
            let rest = argv.get(i..).unwrap_or(&[]);
            if rest.is_empty() {
                return None;
            }
            let exec = opts.iter().any(|w| {
                w.text() == "-x"
                    || w.text() == "--exec"
                    || (w.text().starts_with('-')
                        && !w.text().starts_with("--")
                        && w.text().contains('x'))
            });
            let next = if exec {
                Next::Argv(rest.to_vec())
            } else {
                Next::Script(rest.to_vec())
            };
            peeled(wrapper("watch", opts), next)
        }
        "xargs" => {
            let i = skip_xargs(argv);
            let opts = argv.get(1..i).unwrap_or(&[]);
            let rest = argv.get(i..).unwrap_or(&[]);
            let inner = if rest.is_empty() {
                vec![XWord::lit("echo")]
            } else {
                rest.to_vec()
            };
            peeled(wrapper("xargs", opts), Next::Argv(inner))
        }
        "parallel" | "sem" => {
            let i = skip_opts(
                argv,
                1,
                "jSadInNLPX",
                &[
                    "--jobs",
                    "--sshlogin",
                    "--arg-file",
                    "--colsep",
                    "--delimiter",
                    "--joblog",
                    "--results",
                    "--tmpdir",
                    "--max-args",
                    "--max-lines",
                    "--env",
                    "--timeout",
                    "--delay",
                    "--retries",
                    "--halt",
                    "--workdir",
                    "--basefile",
                    "--transferfile",
                    "--return",
                    "--memfree",
                    "--load",
                    "--id",
                ],
                false,
            );
            let opts = argv.get(1..i).unwrap_or(&[]);
            let rest = argv.get(i..).unwrap_or(&[]);
            let end = rest
                .iter()
                .position(|w| w.text().starts_with(":::"))
                .unwrap_or(rest.len());
            let cmd = rest.get(..end).unwrap_or(&[]);
            // `parallel ::: 'rm -rf /' 'mkfs …'`: without a command, each input is a command
            // line of its own.
            if cmd.is_empty() {
                let lines: Vec<&XWord> = rest
                    .iter()
                    .filter(|w| !w.text().starts_with(":::"))
                    .collect();
                if lines.is_empty() {
                    return None;
                }
                let mut script = XWord::lit("");
                for (k, w) in lines.iter().enumerate() {
                    if k > 0 {
                        script.w.text.push('\n');
                    }
                    script.w.text.push_str(w.text());
                    script.w.dynamic |= w.w.dynamic;
                    script.feed.merge(w.feed);
                }
                return peeled(wrapper("parallel", opts), Next::Script(vec![script]));
            }
            // `parallel rm -rf ::: ~ /etc`: the inputs after `:::` take the place of `{}`, or
            // are appended; every job together reads as one command over all of them.
            let inputs: Vec<XWord> = rest
                .get(end..)
                .unwrap_or(&[])
                .iter()
                .filter(|w| !w.text().starts_with(":::"))
                .cloned()
                .collect();
            let mut cmd = cmd.to_vec();
            if !inputs.is_empty() {
                if let Some(k) = cmd.iter().position(|w| w.text() == "{}") {
                    cmd.splice(k..=k, inputs);
                } else if !cmd.iter().any(|w| w.text().contains('{')) {
                    cmd.extend(inputs);
                }
            }
            peeled(wrapper("parallel", opts), Next::Script(cmd))
        }
        "busybox" | "toybox" => {
            let rest = argv.get(1..).unwrap_or(&[]);
            match rest.first() {
                Some(w) if !w.text().starts_with('-') => {
                    peeled(wrapper(prog, &[]), Next::Argv(rest.to_vec()))
                }
                _ => None,
            }
        }
        p if is_shell(p) => peel_shell(prog, argv),
        _ => None,
    }
}

fn peel_prefix(prog: &str, spec: &Prefix, argv: &[XWord]) -> Option<Peeled> {
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
}

fn peel_env(argv: &[XWord]) -> Option<Peeled> {
    let mut i = 1;
    let mut opts: Vec<XWord> = Vec::new();
    let mut split: Option<XWord> = None;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if t == "--" {
            i += 1;
            break;
        }
        if t == "-" {
            opts.push(w.clone());
            i += 1;
            continue;
        }
        if t.starts_with("--") {
            let name = opt_name(t);
            if matches!(name, "--split-string") {
                split = match t.split_once('=') {
                    Some((_, v)) => Some(XWord {
                        w: Word {
                            text: v.to_string(),
                            dynamic: w.w.dynamic,
                        },
                        feed: w.feed,
                    }),
                    None => argv.get(i + 1).cloned(),
                };
                i += if t.contains('=') { 1 } else { 2 };
                break;
            }
            opts.push(w.clone());
            i += 1;
            if !t.contains('=') && matches!(name, "--unset" | "--chdir") {
                if let Some(v) = argv.get(i) {
                    opts.push(v.clone());
                }
                i += 1;
            }
            continue;
        }
        if t.len() > 1 && t.starts_with('-') && !w.w.dynamic {
            let body = &t[1..];
            if let Some(k) = body.find('S') {
                let rest = &body[k + 1..];
                split = if rest.is_empty() {
                    argv.get(i + 1).cloned()
                } else {
                    Some(XWord::lit(rest))
                };
                i += if rest.is_empty() { 2 } else { 1 };
                break;
            }
            opts.push(w.clone());
            i += 1;
            if let Some(k) = body.find(['u', 'C'])
                && k + 1 == body.len()
            {
                if let Some(v) = argv.get(i) {
                    opts.push(v.clone());
                }
                i += 1;
            }
            continue;
        }
        break;
    }
    let mut assignments = Vec::new();
    while let Some(w) = argv.get(i) {
        match w.text().split_once('=') {
            Some((n, v)) if is_name(n) => {
                assignments.push((
                    n.to_string(),
                    Word {
                        text: v.to_string(),
                        dynamic: w.w.dynamic,
                    },
                ));
                i += 1;
            }
            _ => break,
        }
    }
    let rest = argv.get(i..).unwrap_or(&[]);
    let mut args = texts(&opts);
    args.extend(assignments.iter().map(|(n, v)| format!("{n}={}", v.text)));
    let next = match split {
        Some(s) => {
            let mut words = vec![s];
            words.extend(rest.iter().cloned());
            Next::Script(words)
        }
        None if rest.is_empty() => return None,
        None => Next::Argv(rest.to_vec()),
    };
    let mut p = peeled(
        Wrapper {
            name: "env".into(),
            args,
        },
        next,
    )?;
    p.assignments = assignments;
    Some(p)
}

pub(crate) fn is_name(n: &str) -> bool {
    let mut cs = n.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn peel_su(argv: &[XWord]) -> Option<Peeled> {
    let mut i = 1;
    let mut opts = Vec::new();
    let mut script: Option<XWord> = None;
    let mut user: Option<XWord> = None;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        i += 1;
        if t == "-" || t == "--" && script.is_none() {
            opts.push(w.clone());
            continue;
        }
        if t == "-c" || t == "--command" || t == "--session-command" {
            script = argv.get(i).cloned();
            i += 1;
            continue;
        }
        if let Some(v) = t
            .strip_prefix("--command=")
            .or_else(|| t.strip_prefix("--session-command="))
        {
            script = Some(XWord {
                w: Word {
                    text: v.to_string(),
                    dynamic: w.w.dynamic,
                },
                feed: w.feed,
            });
            continue;
        }
        if t.starts_with('-') && t.len() > 1 {
            if !t.starts_with("--") && t.ends_with('c') {
                // a cluster ending in c: `-lc CMD`
                opts.push(XWord::lit(&t[..t.len() - 1]));
                script = argv.get(i).cloned();
                i += 1;
                continue;
            }
            opts.push(w.clone());
            if matches!(
                t,
                "-s" | "--shell"
                    | "-g"
                    | "--group"
                    | "-G"
                    | "--supp-group"
                    | "-w"
                    | "--whitelist-environment"
            ) {
                if let Some(v) = argv.get(i) {
                    opts.push(v.clone());
                }
                i += 1;
            }
            continue;
        }
        if user.is_none() {
            user = Some(w.clone());
        }
    }
    let mut args = texts(&opts);
    if let Some(u) = &user {
        args.push(u.w.text.clone());
    }
    let next = match script {
        Some(s) => Next::Script(vec![s]),
        None => Next::Nothing,
    };
    let mut p = peeled(
        Wrapper {
            name: "su".into(),
            args,
        },
        next,
    )?;
    p.privileged = true;
    Some(p)
}

const SSH_ARG: &str = "bcDEeFIiJLlmOopQRSWwBP";

fn peel_ssh(argv: &[XWord]) -> Option<Peeled> {
    let i = skip_opts(argv, 1, SSH_ARG, &[], false);
    let host = argv.get(i)?;
    let rest = argv.get(i + 1..).unwrap_or(&[]);
    if rest.is_empty() {
        return None;
    }
    let opts = argv.get(1..i).unwrap_or(&[]);
    let mut args = texts(opts);
    args.push(host.w.text.clone());
    let mut p = peeled(
        Wrapper {
            name: "ssh".into(),
            args,
        },
        Next::Script(rest.to_vec()),
    )?;
    p.remote = Some(host.w.text.clone());
    p.keep = argv.get(..=i).map(<[XWord]>::to_vec);
    Some(p)
}

/// `docker exec [opts] CONTAINER CMD…`, `docker compose exec SERVICE CMD…`, `kubectl exec
/// POD -- CMD…`: the command runs inside the container, with its data and credentials.
fn peel_container_exec(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let words: Vec<&str> = argv.iter().map(XWord::text).collect();
    if matches!(prog, "docker" | "podman" | "nerdctl")
        && let Some(k) = words.iter().take(3).position(|w| *w == "run")
        && words[1..k].iter().all(|w| *w == "container")
    {
        return peel_container_run(prog, argv, k + 1);
    }
    // Where `exec` is: `docker exec`, `docker container exec`, `docker compose exec`,
    // `kubectl -n prod exec`.
    let at = words.iter().take(6).position(|w| *w == "exec")?;
    let before_ok = words[1..at].iter().enumerate().all(|(k, w)| {
        matches!(*w, "container" | "compose")
            || w.starts_with('-')
            || words
                .get(k)
                .is_some_and(|p| p.starts_with('-') && !p.contains('='))
    });
    if !before_ok {
        return None;
    }
    let kube = matches!(prog, "kubectl" | "oc");
    let start = at + 1;
    let cmd_at = if kube {
        match words.iter().skip(start).position(|w| *w == "--") {
            Some(k) => start + k + 1,
            None => {
                let i = skip_opts(
                    argv,
                    start,
                    "ncf",
                    &["--namespace", "--container", "--filename", "--context"],
                    false,
                );
                i + 1
            }
        }
    } else {
        let i = skip_opts(
            argv,
            start,
            "euw",
            &[
                "--env",
                "--env-file",
                "--user",
                "--workdir",
                "--detach-keys",
                "--index",
            ],
            false,
        );
        i + 1
    };
    let inner = argv.get(cmd_at..).filter(|r| !r.is_empty())?;
    let label = if kube { "kubectl exec" } else { "docker exec" };
    // The container is named in the wrapper's arguments; it is not a remote host (the
    // output comes back here).
    // The whole `docker exec …` stays a command of its own too, for the rules about it.
    let mut p = peeled(
        wrapper(label, argv.get(1..cmd_at).unwrap_or(&[])),
        Next::Argv(inner.to_vec()),
    )?;
    p.keep = Some(argv.to_vec());
    Some(p)
}

/// A Python interpreter's name: `python`, `python3`, `python3.12`, `py`.
fn is_python(p: &str) -> bool {
    p == "py"
        || p.strip_prefix("python")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// `docker run -v /var/lib:/x IMAGE sh -c 'rm -rf /x/*'`: a command in a container that
/// bind-mounts host paths acts on those host paths. Its words are rewritten from container
/// paths to host paths and it is read like a host command. Without a host mount the command
/// only touches the container, and `docker run` is left as it is.
fn peel_container_run(prog: &str, argv: &[XWord], start: usize) -> Option<Peeled> {
    const VALUE_OPTS: &[&str] = &[
        "-v",
        "--volume",
        "-e",
        "--env",
        "-p",
        "--publish",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "-h",
        "--hostname",
        "-m",
        "--memory",
        "-c",
        "--cpu-shares",
        "-l",
        "--label",
        "--name",
        "--network",
        "--net",
        "--entrypoint",
        "--mount",
        "--env-file",
        "--platform",
        "--cpus",
        "--add-host",
        "--device",
        "--cap-add",
        "--cap-drop",
        "--security-opt",
        "--restart",
        "--log-driver",
        "--log-opt",
        "--tmpfs",
        "--ulimit",
        "--pid",
        "--ipc",
        "--volumes-from",
        "--dns",
        "--gpus",
        "--runtime",
        "--stop-signal",
        "--pull",
        "--shm-size",
        "--expose",
        "--link",
        "--network-alias",
        "--ip",
        "--cidfile",
        "--userns",
        "--uts",
        "--cgroupns",
    ];
    let mut mounts: Vec<(String, String)> = Vec::new();
    let mut entrypoint: Option<XWord> = None;
    let mut i = start;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if !t.starts_with('-') || t == "-" {
            break;
        }
        let (name, inline) = match t.split_once('=') {
            Some((n, v)) if t.starts_with("--") => (n, Some(v.to_string())),
            _ => (t, None),
        };
        let takes = VALUE_OPTS.contains(&name);
        let value = match (&inline, takes) {
            (Some(v), _) => Some(v.clone()),
            (None, true) => {
                i += 1;
                argv.get(i).map(|v| v.text().to_string())
            }
            _ => None,
        };
        i += 1;
        let Some(v) = value else { continue };
        match name {
            "-v" | "--volume" => {
                let mut parts = v.split(':');
                if let (Some(h), Some(c)) = (parts.next(), parts.next())
                    && (h.starts_with('/') || h.starts_with('~') || h.starts_with('$'))
                    && c.starts_with('/')
                {
                    mounts.push((h.to_string(), c.to_string()));
                }
            }
            "--mount" => {
                let field = |k: &str| {
                    v.split(',')
                        .find_map(|f| f.strip_prefix(k).map(str::to_string))
                };
                let host = field("source=").or_else(|| field("src="));
                let ctr = field("target=")
                    .or_else(|| field("destination="))
                    .or_else(|| field("dst="));
                if let (Some(h), Some(c)) = (host, ctr)
                    && h.starts_with('/')
                {
                    mounts.push((h, c));
                }
            }
            "--entrypoint" => entrypoint = Some(XWord::lit(&v)),
            _ => {}
        }
    }
    if mounts.is_empty() {
        return None;
    }
    // Longest container path first, so `/x/y` wins over `/x`.
    mounts.sort_by_key(|(_, c)| std::cmp::Reverse(c.len()));
    let rest = argv.get(i + 1..).unwrap_or(&[]);
    let mut inner: Vec<XWord> = entrypoint.into_iter().collect();
    inner.extend(rest.iter().cloned());
    if inner.is_empty() {
        return None;
    }
    for w in &mut inner {
        w.w.text = to_host_paths(&w.w.text, &mounts);
    }
    let label = format!("{prog} run");
    let mut p = peeled(
        wrapper(&label, argv.get(start..=i).unwrap_or(&[])),
        Next::Argv(inner),
    )?;
    p.keep = Some(argv.to_vec());
    Some(p)
}

/// Replace container paths by the host paths mounted there, where a path starts (after a
/// blank, a quote, `=` or at the start) and ends (`/`, a blank, a quote or the end).
fn to_host_paths(text: &str, mounts: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    'outer: while k < text.len() {
        let at_start = k == 0
            || text[..k]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_whitespace() || "'\"=:;(".contains(c));
        if at_start {
            for (host, ctr) in mounts {
                let ctr = ctr.trim_end_matches('/');
                if let Some(after) = text[k..].strip_prefix(ctr)
                    && after
                        .chars()
                        .next()
                        .is_none_or(|c| c == '/' || c.is_whitespace() || "'\";&|)".contains(c))
                {
                    // `/host/etc` → `/etc` when the host path is `/`; `/host` → `/`.
                    let host = host.trim_end_matches('/');
                    if host.is_empty() && !after.starts_with('/') {
                        out.push('/');
                    } else {
                        out.push_str(host);
                    }
                    k += ctr.len();
                    continue 'outer;
                }
            }
        }
        let Some(c) = text[k..].chars().next() else {
            break;
        };
        out.push(c);
        k += c.len_utf8();
    }
    out
}

/// `npx [-y] PKG ARGS…`, `pnpm dlx PKG`, `yarn dlx PKG`, `bun x PKG`, `bunx PKG`: the
/// package's binary runs (`PKG@1.2` is `PKG`); `npx -c 'CMD'` runs a shell string.
fn peel_package_runner(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let start = match prog {
        "npx" | "pnpx" | "bunx" => 1,
        "pnpm" | "yarn" if argv.get(1).map(XWord::text) == Some("dlx") => 2,
        "bun" if argv.get(1).map(XWord::text) == Some("x") => 2,
        "npm" if matches!(argv.get(1).map(XWord::text), Some("exec" | "x")) => 2,
        _ => return None,
    };
    if let Some(k) = argv
        .iter()
        .position(|w| matches!(w.text(), "-c" | "--call"))
    {
        let script = argv.get(k + 1)?;
        let mut p = peeled(wrapper(prog, &[]), Next::Script(vec![script.clone()]))?;
        p.keep = Some(argv.to_vec());
        return Some(p);
    }
    let i = skip_opts(
        argv,
        start,
        "p",
        &["--package", "--cache", "--registry"],
        false,
    );
    // `npm exec --yes -- rimraf …`: the package's argv follows `--`
    let i = if argv.get(i).map(XWord::text) == Some("--") {
        i + 1
    } else {
        i
    };
    let first = argv.get(i)?;
    let pkg = first.text();
    let bare = match pkg.rfind('@') {
        Some(k) if k > 0 => &pkg[..k],
        _ => pkg,
    };
    let mut inner = vec![XWord {
        w: Word {
            text: bare.to_string(),
            dynamic: first.w.dynamic,
        },
        feed: first.feed,
    }];
    inner.extend(argv.iter().skip(i + 1).cloned());
    let mut p = peeled(
        wrapper(prog, argv.get(1..i).unwrap_or(&[])),
        Next::Argv(inner),
    )?;
    // `npx` itself stays visible (auto-installing unknown packages is a risk of its own).
    p.keep = Some(argv.to_vec());
    Some(p)
}

fn skip_xargs(argv: &[XWord]) -> usize {
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if t == "--" {
            return i + 1;
        }
        if t.starts_with("--") {
            i += 1;
            if !t.contains('=')
                && matches!(
                    t,
                    "--arg-file"
                        | "--delimiter"
                        | "--max-args"
                        | "--max-procs"
                        | "--max-chars"
                        | "--process-slot-var"
                )
            {
                i += 1;
            }
            continue;
        }
        if t.len() > 1 && t.starts_with('-') {
            i += 1;
            let body = &t[1..];
            for (k, c) in body.char_indices() {
                if "adEILnPs".contains(c) {
                    if k + 1 == body.len() {
                        i += 1;
                    }
                    break;
                }
                if "ile".contains(c) {
                    break; // optional attached value
                }
            }
            continue;
        }
        return i;
    }
    i
}

fn peel_shell(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let mut i = 1;
    let mut has_c = false;
    let mut opts = Vec::new();
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if w.w.dynamic {
            break;
        }
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if t.starts_with("--") {
            opts.push(w.clone());
            i += 1;
            if matches!(t, "--rcfile" | "--init-file") {
                i += 1;
            }
            continue;
        }
        if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 {
            opts.push(w.clone());
            i += 1;
            let body = &t[1..];
            if body.contains('c') && t.starts_with('-') {
                has_c = true;
            }
            if body.ends_with('o') || body.ends_with('O') {
                i += 1;
            }
            continue;
        }
        break;
    }
    if !has_c {
        return None;
    }
    let script = argv.get(i)?;
    let name = format!("{prog} -c");
    let args: Vec<XWord> = opts.into_iter().filter(|w| w.text() != "-c").collect();
    let mut p = peeled(wrapper(&name, &args), Next::Script(vec![script.clone()]))?;
    // After the script: `$0`, then `$1` ….
    p.positional = argv
        .get(i + 1..)
        .filter(|r| !r.is_empty())
        .map(<[XWord]>::to_vec);
    Some(p)
}

/// `find … -exec CMD … ;` / `+` (and -execdir, -ok, -okdir): the argv of each action.
pub(crate) fn find_execs(argv: &[XWord]) -> Vec<(String, Vec<XWord>)> {
    let mut out = Vec::new();
    // `{}` stands for each file found: with a name filter, `ROOT/**/NAME` says what it is
    // (`find ~/.ssh -name 'id_*' -exec cat {} ;` reads `~/.ssh/**/id_*`); without one, any
    // file under the root (`find /etc -type f -exec sh -c 'echo > "$1"' _ {} ;` empties
    // `/etc/**`).
    let root = argv
        .iter()
        .skip(1)
        .find(|w| !w.text().starts_with('-'))
        .filter(|w| !w.w.dynamic)
        .map(|w| w.text().trim_end_matches('/').to_string());
    let name = argv
        .windows(2)
        .find(|p| matches!(p[0].text(), "-name" | "-iname"))
        .map(|p| p[1].text().to_string())
        .filter(|n| !n.contains('/'));
    let found = match (root, name) {
        (Some(r), Some(n)) => Some(format!("{r}/**/{n}")),
        (Some(r), None) => Some(format!("{r}/**")),
        _ => None,
    };
    let mut i = 1;
    while i < argv.len() {
        let t = argv[i].text();
        if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            let kind = t.to_string();
            let start = i + 1;
            let mut end = start;
            while end < argv.len() && !matches!(argv[end].text(), ";" | "+" | "\\;") {
                end += 1;
            }
            let mut cmd: Vec<XWord> = argv.get(start..end).unwrap_or(&[]).to_vec();
            if let Some(f) = &found {
                for w in cmd.iter_mut().skip(1) {
                    if w.w.text.contains("{}") {
                        w.w.text = w.w.text.replace("{}", f);
                    }
                }
            }
            if !cmd.is_empty() {
                out.push((format!("find {kind}"), cmd));
            }
            i = end + 1;
            continue;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<XWord> {
        s.split_whitespace().map(XWord::lit).collect()
    }

    fn inner(s: &str) -> Vec<String> {
        let mut a = argv(s);
        let mut names = Vec::new();
        while let Some(p) = peel(&a) {
            names.push(p.wrapper.name.clone());
            match p.next {
                Next::Argv(n) => a = n,
                Next::Script(ws) => {
                    a = ws;
                    break;
                }
                Next::Nothing => break,
            }
        }
        let mut out = names;
        out.push("|".into());
        out.extend(a.iter().map(|w| w.w.text.clone()));
        out
    }

    #[test]
    fn peels_prefix_wrappers() {
        assert_eq!(
            inner("sudo -u root -E nice -n 5 timeout -s KILL 5 nohup rm -rf /"),
            ["sudo", "nice", "timeout", "nohup", "|", "rm", "-rf", "/"]
        );
        assert_eq!(
            inner("env -i X=1 -u Y rm x").first().map(String::as_str),
            Some("env")
        );
        assert_eq!(inner("xargs -0 -n 1 rm -rf"), ["xargs", "|", "rm", "-rf"]);
        assert_eq!(inner("chroot /mnt rm x"), ["chroot", "|", "rm", "x"]);
        assert_eq!(inner("bash -xec cmd"), ["bash -c", "|", "cmd"]);
        assert_eq!(inner("stdbuf -oL rm x"), ["stdbuf", "|", "rm", "x"]);
        assert_eq!(inner("command -v rm"), ["|", "command", "-v", "rm"]);
    }

    #[test]
    fn find_exec_actions() {
        let e = find_execs(&argv("find / -name x -exec rm -rf {} ; -execdir sh -c x +"));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].1.len(), 3);
    }
}
