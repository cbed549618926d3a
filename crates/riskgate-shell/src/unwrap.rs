//! Wrappers: commands that run another command (`sudo`, `env`, `timeout`, `xargs`, `bash -c`,
//! `eval`, `ssh host CMD` …). [`peel`] removes one wrapper and says what runs inside: another
//! argv, or a shell string to parse. Simple prefix wrappers are data ([`PREFIX`]); the rest
//! (env, shells, eval, su, ssh, watch, xargs, parallel, busybox, command, find -exec) are code.

use crate::Word;
use crate::Wrapper;
use crate::canon::program_name;
use crate::ctx::XWord;

mod envrun;
mod prefix;
mod runners;

use prefix::{PREFIX, peel_prefix};
pub(crate) use runners::fd_execs;
use runners::{is_python, peel_container_exec, peel_git_alias, peel_package_runner};

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
    // shells of other syntax whose simple commands read as bash's (`nu -c 'rm -rf ~/x'`)
    "nu",
    "xonsh",
    "elvish",
    "ion",
    "osh",
    "ysh",
    "oil",
    "murex",
    "oksh",
    "loksh",
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
    if let Some(p) = envrun::peel_env_runner(prog, argv) {
        return Some(p);
    }
    match prog {
        "env" => peel_env(argv),
        "git" => peel_git_alias(argv),
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
        // zsh's `zmv 'src/(*).txt' 'dst/$1.md'` moves (zcp copies, zln links) every file the
        // pattern matches: `mv` of that glob (its groups are zsh's, not a path's); `-n` only
        // prints what it would do
        "zmv" | "zcp" | "zln" => {
            let opts: Vec<&XWord> = argv
                .iter()
                .skip(1)
                .take_while(|w| w.text().starts_with('-'))
                .collect();
            if opts.iter().any(|w| w.text().contains('n')) {
                return None;
            }
            let rest: Vec<&XWord> = argv.iter().skip(1 + opts.len()).collect();
            let (src, dst) = (rest.first()?, rest.get(1)?);
            let mut glob = (*src).clone();
            glob.w.text = glob.w.text.replace(['(', ')'], "");
            let base = match prog {
                "zcp" => "cp",
                "zln" => "ln",
                _ => "mv",
            };
            let inner = vec![XWord::lit(base), glob, (*dst).clone()];
            peeled(wrapper(prog, &[]), Next::Argv(inner))
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
            // one job per input (`parallel ssh {} 'sudo reboot' ::: web1 db1` runs `ssh web1
            // 'sudo reboot'` and `ssh db1 'sudo reboot'`), as lines of a script
            if !inputs.is_empty() && inputs.len() <= MAX_PARALLEL_JOBS {
                let mut script = XWord::lit("");
                for (j, input) in inputs.iter().enumerate() {
                    if j > 0 {
                        script.w.text.push('\n');
                    }
                    // the command's words are shell text, joined as parallel joins them; the
                    // input takes the place of `{}`, quoted, or is appended
                    let arg = crate::script::quote(&input.w);
                    let mut placed = false;
                    let mut line: Vec<String> = Vec::new();
                    for w in cmd {
                        placed |= w.text().contains("{}");
                        line.push(w.text().replace("{}", &arg));
                        script.w.dynamic |= w.w.dynamic;
                        script.feed.merge(w.feed);
                    }
                    if !placed && !cmd.iter().any(|w| w.text().contains('{')) {
                        line.push(arg);
                    }
                    script.w.dynamic |= input.w.dynamic;
                    script.feed.merge(input.feed);
                    script.w.text.push_str(&line.join(" "));
                }
                return peeled(wrapper("parallel", opts), Next::Script(vec![script]));
            }
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
        "busybox" | "toybox" | "coreutils" => {
            let rest = argv.get(1..).unwrap_or(&[]);
            match rest.first() {
                Some(w) if !w.text().starts_with('-') => {
                    peeled(wrapper(prog, &[]), Next::Argv(rest.to_vec()))
                }
                _ => None,
            }
        }
        // Ruby's `un` library: `ruby -run -e rm -- -rf DIR` is `rm -rf DIR` (its file
        // commands; `httpd` stays Ruby's own server)
        "ruby"
            if argv.get(1).is_some_and(|w| w.text() == "-run")
                && argv.get(2).is_some_and(|w| w.text() == "-e")
                && argv.get(3).is_some_and(|w| {
                    matches!(
                        w.text(),
                        "rm" | "cp"
                            | "mv"
                            | "ln"
                            | "mkdir"
                            | "rmdir"
                            | "install"
                            | "chmod"
                            | "touch"
                    )
                }) =>
        {
            let cmd = argv.get(3)?;
            let mut inner = vec![cmd.clone()];
            inner.extend(argv.iter().skip(4).filter(|w| w.text() != "--").cloned());
            peeled(wrapper("ruby -run", &[]), Next::Argv(inner))
        }
        p if is_shell(p) => peel_shell(prog, argv),
        _ => None,
    }
}

/// An `env -S` string with the escapes env reads as blanks (`\t`, `\n`, `\v`, `\f`, `\r`,
/// `\_`) made spaces.
fn env_split_blanks(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && matches!(n, 't' | 'n' | 'v' | 'f' | 'r' | '_')
        {
            chars.next();
            out.push(' ');
            continue;
        }
        out.push(c);
    }
    out
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
            // `env -S` reads `\t`, `\n`, `\_` … as blanks between words
            let s = XWord {
                w: Word {
                    text: env_split_blanks(s.text()),
                    dynamic: s.w.dynamic,
                },
                feed: s.feed,
            };
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

/// Most `parallel` jobs read one by one (more are read as one command over all inputs).
const MAX_PARALLEL_JOBS: usize = 16;

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
    let words: Vec<&str> = argv.iter().map(|w| w.text()).collect();
    let name = crate::find_name_pattern(&words).map(str::to_string);
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
