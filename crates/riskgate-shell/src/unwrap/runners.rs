//! Commands that run inside something else: a container (`docker exec`, `kubectl exec`,
//! `docker run -v HOST:…`, whose mounted host paths are rewritten back), a Python module
//! run as its program (`python -m pip`), and package runners (`npx`, `pnpm dlx`, `npm exec`,
//! `bunx`) that fetch and run a package's binary.

use super::*;

/// `docker exec [opts] CONTAINER CMD…`, `docker compose exec SERVICE CMD…`, `kubectl exec
/// POD -- CMD…`: the command runs inside the container, with its data and credentials.
pub(super) fn peel_container_exec(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let words: Vec<&str> = argv.iter().map(XWord::text).collect();
    if matches!(prog, "docker" | "podman" | "nerdctl")
        && let Some(k) = words.iter().take(3).position(|w| *w == "run")
        && words[1..k].iter().all(|w| *w == "container")
    {
        return peel_container_run(prog, argv, k + 1);
    }
    // Where `exec` is: `docker exec`, `docker container exec`, `docker compose exec`,
    // `kubectl -n prod exec`.
    // `kubectl debug node/x -it --image=busybox -- chroot /host sh -c '…'`: a command run in a
    // debug container (on a node, with the node's root at /host)
    let kube_prog = matches!(prog, "kubectl" | "oc");
    let at = words
        .iter()
        .take(6)
        .position(|w| *w == "exec" || (kube_prog && *w == "debug"))?;
    if words.get(at) == Some(&"debug") && !words.contains(&"--") {
        return None;
    }
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
    let label = match (kube, words.get(at)) {
        (true, Some(&"debug")) => "kubectl debug",
        (true, _) => "kubectl exec",
        _ => "docker exec",
    };
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
pub(super) fn is_python(p: &str) -> bool {
    p == "py"
        || p.strip_prefix("python")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// `docker run -v /var/lib:/x IMAGE sh -c 'rm -rf /x/*'`: a command in a container that
/// bind-mounts host paths acts on those host paths. Its words are rewritten from container
/// paths to host paths and it is read like a host command. Without a host mount the command
/// only touches the container, and `docker run` is left as it is.
pub(super) fn peel_container_run(prog: &str, argv: &[XWord], start: usize) -> Option<Peeled> {
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

/// `npx [-y] PKG ARGS…`, `pnpm dlx PKG`, `pnpm exec BIN`, `yarn dlx PKG`, `yarn exec BIN`,
/// `yarn node …`, `bun x PKG`, `bunx PKG`: the
/// package's binary runs (`PKG@1.2` is `PKG`); `npx -c 'CMD'` runs a shell string.
pub(super) fn peel_package_runner(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let start = match prog {
        "npx" | "pnpx" | "bunx" => 1,
        "pnpm" | "yarn" if matches!(argv.get(1).map(XWord::text), Some("dlx" | "exec")) => 2,
        // `yarn node -e …`, `pnpm node …`: node with the project's setup
        "pnpm" | "yarn" if argv.get(1).map(XWord::text) == Some("node") => 1,
        "bun" if matches!(argv.get(1).map(XWord::text), Some("x" | "exec")) => 2,
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

/// `git -c alias.p='push --force' p origin main`: an alias defined on the command line and
/// used at once is its expansion (`git push --force origin main`); a `!` alias runs its shell
/// text with the rest as arguments.
pub(super) fn peel_git_alias(argv: &[XWord]) -> Option<Peeled> {
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if t == "-c" {
            let kv = argv.get(i + 1)?.text();
            if let Some((k, v)) = kv.split_once('=')
                && let Some(name) = k.to_ascii_lowercase().strip_prefix("alias.")
            {
                aliases.push((name.to_string(), v.to_string()));
            }
            i += 2;
        } else if t == "-C" || t == "--git-dir" || t == "--work-tree" || t == "--namespace" {
            i += 2;
        } else if t.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    let sub = argv.get(i)?.text().to_ascii_lowercase();
    let (_, value) = aliases.iter().rev().find(|(n, _)| *n == sub)?;
    let rest = argv.get(i + 1..).unwrap_or(&[]);
    let next = match value.strip_prefix('!') {
        Some(script) => {
            let mut words = vec![XWord::lit(script)];
            words.extend(rest.iter().cloned());
            Next::Script(words)
        }
        None => {
            let mut inner = vec![XWord::lit("git")];
            inner.extend(value.split_whitespace().map(XWord::lit));
            inner.extend(rest.iter().cloned());
            Next::Argv(inner)
        }
    };
    let mut p = peeled(wrapper("git alias", argv.get(1..=i).unwrap_or(&[])), next)?;
    // the git command itself stays visible (rules about defining such aliases)
    p.keep = Some(argv.to_vec());
    Some(p)
}

/// fd's options that take a value.
const FD_VALUE_OPTS: &[&str] = &[
    "-t",
    "--type",
    "-e",
    "--extension",
    "-E",
    "--exclude",
    "-d",
    "--max-depth",
    "--min-depth",
    "--exact-depth",
    "-S",
    "--size",
    "--changed-within",
    "--changed-before",
    "-o",
    "--owner",
    "-j",
    "--threads",
    "-c",
    "--color",
    "--base-directory",
    "--search-path",
    "--path-separator",
    "--max-results",
    "--ignore-file",
];

/// The commands `fd … -x CMD` / `--exec-batch CMD` runs on what it finds: `{}` and its
/// variants (`{/}`, `{.}` …) stand for each file (`ROOT/**`); a command without them gets the
/// file appended, as fd does.
pub(crate) fn fd_execs(argv: &[XWord]) -> Vec<(String, Vec<XWord>)> {
    let mut out = Vec::new();
    let mut positionals: Vec<&XWord> = Vec::new();
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if matches!(t, "-x" | "--exec" | "-X" | "--exec-batch") {
            let start = i + 1;
            let mut end = start;
            while end < argv.len() && !matches!(argv[end].text(), ";" | "\\;") {
                end += 1;
            }
            // the search root: the second operand (the first is the pattern), else `.`
            let root = match positionals.get(1) {
                Some(r) if r.w.dynamic => None,
                Some(r) => Some(r.text().trim_end_matches('/').to_string()),
                None => Some(".".to_string()),
            };
            let found = root.map(|r| format!("{r}/**"));
            let mut cmd: Vec<XWord> = argv.get(start..end).unwrap_or(&[]).to_vec();
            let mut placed = false;
            for w in cmd.iter_mut().skip(1) {
                if w.w.text.contains('{') && w.w.text.contains('}') {
                    placed = true;
                    if let Some(f) = &found {
                        for ph in ["{//}", "{/.}", "{/}", "{.}", "{}"] {
                            w.w.text = w.w.text.replace(ph, f);
                        }
                    }
                }
            }
            if !placed {
                cmd.push(match &found {
                    Some(f) => XWord::lit(f),
                    None => XWord {
                        w: Word {
                            text: "$FD_FILE".into(),
                            dynamic: true,
                        },
                        feed: crate::ctx::Feed::default(),
                    },
                });
            }
            if !cmd.is_empty() {
                out.push((format!("fd {t}"), cmd));
            }
            i = end + 1;
            continue;
        }
        if FD_VALUE_OPTS.contains(&t) {
            i += 2;
            continue;
        }
        if !t.starts_with('-') {
            positionals.push(w);
        }
        i += 1;
    }
    out
}
