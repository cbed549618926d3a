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
        short_arg: "wEn",
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
            if cmd.is_empty() {
                return None;
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
    Some(p)
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
    peeled(wrapper(&name, &args), Next::Script(vec![script.clone()]))
}

/// `find … -exec CMD … ;` / `+` (and -execdir, -ok, -okdir): the argv of each action.
pub(crate) fn find_execs(argv: &[XWord]) -> Vec<(String, Vec<XWord>)> {
    let mut out = Vec::new();
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
            let cmd: Vec<XWord> = argv.get(start..end).unwrap_or(&[]).to_vec();
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
