//! Flow findings: what a script does across its steps, named by both steps.
//!
//! - Bulk over a listing: a command the normalizer marked as run once per entry of a listing
//!   ([`SimpleCommand::iterates`]): `kill` of every process `ps`/`pgrep` list (CRITICAL when
//!   the listing is every process), deletes of every container, pod, branch, database or file
//!   a listing names.
//! - Taint: a secret or a database dump that is read, copied, encoded or archived (through
//!   pipes, files and variables) and then sent over the network.
//! - A download that is later executed (`curl -o f URL; bash f`, `wget URL && ./x`).
//!
//! Linear in the number of commands (file and variable tables are bounded).

use std::collections::HashMap;

use riskgate_model::credentials::sensitive_kind;
use riskgate_model::{Finding, RiskLevel, Span};
use riskgate_shell::{Listing, Origin, ParsedCommand, SimpleCommand, StdinSource};

/// Most tainted files and variables remembered.
const MAX_TRACKED: usize = 256;

fn span_text(parsed: &ParsedCommand, span: Span) -> String {
    parsed
        .source
        .get(span.start..span.end)
        .unwrap_or("")
        .to_string()
}

fn both(a: Span, b: Span) -> Span {
    Span::new(a.start.min(b.start), a.end.max(b.end))
}

fn raw(c: &SimpleCommand) -> impl Iterator<Item = &str> {
    c.raw_argv.iter().skip(1).map(|w| w.text.as_str())
}

fn pos(c: &SimpleCommand, n: usize) -> &str {
    c.positionals().nth(n).map_or("", |w| w.text.as_str())
}

/// Every flow finding of `parsed`.
pub(crate) fn flow_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(bulk_findings(parsed));
    out.extend(taint_findings(parsed));
    out.extend(download_exec_findings(parsed));
    out
}

// ---------------------------------------------------------------------------------------
// Bulk over listings

fn is_kill(c: &SimpleCommand) -> bool {
    c.program == "kill"
        && !c
            .args
            .iter()
            .any(|a| matches!(a.text.as_str(), "-0" | "--signal=0" | "-l" | "--list"))
}

/// What a delete command removes, when it is one.
fn delete_kind(c: &SimpleCommand) -> Option<&'static str> {
    let p0 = pos(c, 0);
    let p1 = pos(c, 1);
    match c.program.as_str() {
        "rm" | "rmdir" | "unlink" | "shred" => Some("files"),
        "docker" | "podman" | "nerdctl" => {
            let sub = matches!(p0, "rm" | "rmi" | "kill")
                || (matches!(p0, "container" | "volume" | "image" | "network")
                    && matches!(p1, "rm" | "remove" | "prune"));
            sub.then_some("containers, images or volumes")
        }
        "kubectl" | "oc" => (p0 == "delete").then_some("cluster resources"),
        "helm" => matches!(p0, "uninstall" | "delete" | "del").then_some("releases"),
        "aws" => (p1.starts_with("delete-")
            || p1.starts_with("terminate-")
            || (p0 == "s3" && matches!(p1, "rb" | "rm")))
        .then_some("cloud resources"),
        "gcloud" | "az" | "doctl" => c
            .positionals()
            .any(|w| w.text == "delete")
            .then_some("cloud resources"),
        "dropdb" => Some("databases"),
        "git" => {
            let branch_d = p0 == "branch"
                && raw(c).any(|t| t == "-D" || t == "--delete" && raw(c).any(|u| u == "--force"));
            let push_del = p0 == "push" && (raw(c).any(|t| t == "--delete" || t == "-d"));
            (branch_d || push_del).then_some("branches")
        }
        "wipefs" | "mkfs" | "blkdiscard" => Some("disks"),
        p if p.starts_with("mkfs.") => Some("disks"),
        "virsh" => matches!(p0, "destroy" | "undefine").then_some("virtual machines"),
        _ => None,
    }
}

/// A file listing of a directory that is system, home or root data (not temp, not relative).
fn listed_system_path(l: &Listing) -> bool {
    let Some(p) = l.path.as_deref() else {
        return false;
    };
    (p.starts_with('/') || p.starts_with('~'))
        && !p.starts_with("/tmp")
        && !p.starts_with("/var/tmp")
        && !p.starts_with("/dev/shm")
}

fn bulk_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in &parsed.commands {
        let Some(l) = &c.iterates else {
            continue;
        };
        let (id, level, score, msg) = if is_kill(c) {
            // `lsof -t -i :3000 | xargs kill`: whatever holds one port.
            if l.program == "lsof" {
                continue;
            }
            let every = l.every && l.program == "ps";
            if every {
                (
                    "flow.kill-every-process",
                    RiskLevel::Critical,
                    92,
                    format!(
                        "Kills every process `{}` lists (system daemons, the shell, the session included)",
                        l.command
                    ),
                )
            } else {
                (
                    "flow.kill-listed-processes",
                    RiskLevel::High,
                    74,
                    format!(
                        "Kills every process matching a listing (`{}`), one by one: daemons and other users' processes included",
                        l.command
                    ),
                )
            }
        } else if let Some(kind) = delete_kind(c)
            && !c.args.iter().any(|a| {
                a.text.starts_with("--dry-run") || a.text == "--dryrun" || a.text == "--check"
            })
        {
            let files = kind == "files";
            let bulk = if files {
                l.every && listed_system_path(l)
            } else {
                l.every
            };
            if !bulk {
                continue;
            }
            (
                "flow.delete-every-listed",
                RiskLevel::High,
                76,
                format!(
                    "Deletes every entry of a listing (`{}` → `{}`): all {kind} it names, with no selection",
                    l.command, c.program
                ),
            )
        } else {
            continue;
        };
        if !seen.insert((id, c.span.start)) {
            continue;
        }
        out.push(
            Finding::new(id, level, score, msg)
                .reversible(false)
                .with_match(span_text(parsed, c.span), Some(c.span))
                .with_mitigation(
                    "Select the targets explicitly and review the list before acting on it",
                ),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Taint: secrets and dumps sent over the network

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Data {
    Secret,
    Dump,
}

#[derive(Clone, Debug)]
struct Taint {
    data: Data,
    /// Index of the command that read it.
    from: usize,
    what: String,
}

/// A database dump or a secret-store read.
fn dump_source(c: &SimpleCommand) -> Option<Taint> {
    let p0 = pos(c, 0);
    let what = match c.program.as_str() {
        "pg_dump" | "pg_dumpall" | "mysqldump" | "mariadb-dump" | "mongodump" | "mongoexport"
        | "pg_basebackup" => Some(Data::Dump),
        "redis-cli" if raw(c).any(|t| t == "--rdb") => Some(Data::Dump),
        "etcdctl" if p0 == "snapshot" => Some(Data::Dump),
        "vault" if matches!(p0, "kv" | "read") => Some(Data::Secret),
        "aws"
            if matches!(
                pos(c, 1),
                "get-secret-value" | "get-parameter" | "get-parameters"
            ) =>
        {
            Some(Data::Secret)
        }
        "env" | "printenv" if c.positionals().next().is_none() => Some(Data::Secret),
        _ => None,
    }?;
    Some(Taint {
        data: what,
        from: 0,
        what: c.canonical(),
    })
}

/// A secret file the command reads.
fn secret_source(c: &SimpleCommand) -> Option<Taint> {
    if matches!(
        c.program.as_str(),
        "ls" | "stat"
            | "chmod"
            | "chown"
            | "rm"
            | "ssh-keygen"
            | "ssh-add"
            | "echo"
            | "printf"
            | "test"
            | "["
            | "touch"
            | "mkdir"
            | "ssh"
            | "scp"
            | "git"
    ) {
        return None;
    }
    // A key given to an option (`ssh -i key.pem`, `-e "ssh -i key"`) is used, not read.
    let uses = |k: usize| {
        c.raw_argv.get(k).is_some_and(|p| {
            matches!(
                p.text.as_str(),
                "-i" | "-e"
                    | "--rsh"
                    | "--key"
                    | "--identity"
                    | "--cert"
                    | "--cacert"
                    | "--key-file"
                    | "--kubeconfig"
                    | "-E"
            )
        })
    };
    let from_args = c.raw_argv.iter().enumerate().skip(1).find_map(|(k, w)| {
        if uses(k - 1) || w.text.contains(char::is_whitespace) {
            return None;
        }
        let t = w.text.as_str();
        let f = t
            .strip_prefix('@')
            .or_else(|| t.split_once("=@").map(|(_, f)| f))
            .unwrap_or(t);
        sensitive_kind(f).map(|k| (f.to_string(), k))
    });
    let from_redirect = c.redirects.iter().find_map(|r| {
        (r.op == "<")
            .then(|| sensitive_kind(&r.target.text).map(|k| (r.target.text.clone(), k)))
            .flatten()
    });
    let (path, kind) = from_args.or(from_redirect)?;
    // `cp .env.example .env`: writing a secret file is not reading one.
    if matches!(c.program.as_str(), "cp" | "mv" | "install")
        && c.positionals().last().is_some_and(|w| w.text == path)
    {
        return None;
    }
    Some(Taint {
        data: Data::Secret,
        from: 0,
        what: format!("{kind} `{path}`"),
    })
}

/// Files a command writes its output or its input to.
fn outputs(c: &SimpleCommand) -> Vec<String> {
    let mut out: Vec<String> = c
        .redirects
        .iter()
        .filter(|r| {
            let op = r.op.trim_start_matches('1');
            matches!(op, ">" | ">>" | ">|" | "&>" | "&>>")
        })
        .map(|r| r.target.text.clone())
        .collect();
    let raws: Vec<&str> = raw(c).collect();
    let value_of = |names: &[&str]| -> Option<String> {
        raws.iter().enumerate().find_map(|(k, t)| {
            if names.contains(t) {
                return raws.get(k + 1).map(|v| v.to_string());
            }
            names
                .iter()
                .find_map(|n| t.strip_prefix(&format!("{n}=")).map(str::to_string))
        })
    };
    match c.program.as_str() {
        "cp" | "mv" | "install" | "rsync" | "ditto" => {
            if let Some(last) = c.positionals().last()
                && !last.text.contains(':')
            {
                out.push(last.text.clone());
            }
        }
        "tar" | "bsdtar" => {
            let cluster = raws
                .first()
                .is_some_and(|t| !t.starts_with('-') && t.contains('f'));
            let f = if cluster {
                raws.get(1).map(|s| s.to_string())
            } else {
                raws.iter().enumerate().find_map(|(k, t)| {
                    (t.starts_with('-') && !t.starts_with("--") && t.ends_with('f'))
                        .then(|| raws.get(k + 1).map(|s| s.to_string()))
                        .flatten()
                })
            };
            out.extend(f.or_else(|| value_of(&["--file"])));
        }
        "zip" | "7z" | "rar" => {
            let skip = usize::from(c.program == "7z");
            if let Some(w) = c.positionals().nth(skip) {
                out.push(w.text.clone());
            }
        }
        "gzip" | "bzip2" | "xz" | "zstd" => {
            for w in c.positionals() {
                out.push(format!("{}.gz", w.text));
                out.push(w.text.clone());
            }
        }
        _ => {}
    }
    out.extend(value_of(&[
        "-o",
        "--output",
        "--out",
        "--archive",
        "-f",
        "--file",
        "--result-file",
        "-out",
    ]));
    out.retain(|f| !f.is_empty() && f != "-" && !f.starts_with("/dev/"));
    out
}

fn norm_path(p: &str) -> &str {
    let p = p.trim_matches(['"', '\'']);
    p.strip_prefix("./").unwrap_or(p)
}

fn same_file(a: &str, b: &str) -> bool {
    let (a, b) = (norm_path(a), norm_path(b));
    if a == b {
        return true;
    }
    // A relative name and an absolute one: the same when the base names agree.
    let rel = |p: &str| !p.starts_with(['/', '~', '$']);
    (rel(a) || rel(b)) && a.rsplit('/').next() == b.rsplit('/').next() && !a.is_empty()
}

/// Files a command reads (operands, `@file`, `-T file`, `< file`).
fn reads_file<'a>(c: &'a SimpleCommand, files: &'a [(String, Taint)]) -> Option<&'a Taint> {
    let words = c.raw_argv.iter().skip(1).map(|w| {
        let t = w.text.as_str();
        t.strip_prefix('@')
            .or_else(|| t.split_once("=@").map(|(_, f)| f))
            .or_else(|| {
                t.split_once('=')
                    .map(|(_, f)| f)
                    .filter(|f| f.contains('/'))
            })
            .unwrap_or(t)
    });
    let stdin = match &c.stdin {
        Some(StdinSource::File { path }) => Some(path.as_str()),
        _ => None,
    };
    for w in words.chain(stdin) {
        if let Some((_, t)) = files.iter().rev().find(|(f, _)| same_file(f, w)) {
            return Some(t);
        }
    }
    None
}

fn reads_var<'a>(c: &'a SimpleCommand, vars: &'a HashMap<String, Taint>) -> Option<&'a Taint> {
    if vars.is_empty() {
        return None;
    }
    c.raw_argv.iter().filter(|w| w.dynamic).find_map(|w| {
        vars.iter()
            .find(|(n, _)| {
                w.text.contains(&format!("${n}")) || w.text.contains(&format!("${{{n}}}"))
            })
            .map(|(_, t)| t)
    })
}

fn is_local(host: &str) -> bool {
    host.contains("localhost") || host.contains("127.0.0.1") || host.contains("[::1]")
}

/// Whether `c` sends what it read over the network: (the destination, reads stdin).
fn sink(c: &SimpleCommand) -> Option<(String, bool)> {
    let raws: Vec<&str> = raw(c).collect();
    let url = raws
        .iter()
        .find(|t| t.contains("://"))
        .map(|s| s.to_string());
    let stdin_marker = raws
        .iter()
        .any(|t| *t == "-" || t.ends_with("@-") || *t == "@-" || *t == "-T-");
    let dest = match c.program.as_str() {
        "curl" | "http" | "https" | "xh" => {
            let sends = raws.iter().any(|t| {
                t.starts_with("-d")
                    || t.starts_with("--data")
                    || t.starts_with("-F")
                    || t.starts_with("--form")
                    || t.starts_with("-T")
                    || t.starts_with("--upload-file")
                    || t.starts_with("--json")
            }) || url.as_deref().is_some_and(|u| u.contains('$'));
            if !sends {
                return None;
            }
            url.unwrap_or_default()
        }
        "wget" => {
            if !raws
                .iter()
                .any(|t| t.starts_with("--post-") || t.starts_with("--body-"))
            {
                return None;
            }
            url.unwrap_or_default()
        }
        "nc" | "ncat" | "netcat" | "socat" | "telnet" => {
            return c
                .positionals()
                .next()
                .map(|h| (h.text.clone(), true))
                .filter(|(h, _)| !is_local(h));
        }
        "scp" | "rsync" | "sftp" | "rclone" => {
            let remote = c
                .positionals()
                .last()
                .filter(|w| w.text.contains(':') && !w.text.starts_with('/'))?;
            remote.text.clone()
        }
        "aws" if pos(c, 0) == "s3" && matches!(pos(c, 1), "cp" | "mv" | "sync") => {
            let last = c.positionals().last()?;
            if !last.text.starts_with("s3://") {
                return None;
            }
            last.text.clone()
        }
        "gsutil" | "gcloud" | "s3cmd" | "azcopy" => {
            let last = c.positionals().last()?;
            if !(last.text.starts_with("gs://")
                || last.text.starts_with("s3://")
                || last.text.contains("://"))
            {
                return None;
            }
            last.text.clone()
        }
        "ssh" => c
            .remote
            .clone()
            .or_else(|| c.positionals().next().map(|w| w.text.clone()))?,
        "mail" | "mailx" | "sendmail" | "mutt" => c.positionals().last()?.text.clone(),
        _ => {
            if c.redirects
                .iter()
                .any(|r| r.target.text.starts_with("/dev/tcp/"))
            {
                return Some(("/dev/tcp".into(), true));
            }
            return None;
        }
    };
    if is_local(&dest) {
        return None;
    }
    let reads_stdin = stdin_marker
        || matches!(
            c.program.as_str(),
            "ssh" | "mail" | "mailx" | "sendmail" | "mutt"
        );
    Some((dest, reads_stdin))
}

fn taint_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let cmds = &parsed.commands;
    let mut out_taint: Vec<Option<Taint>> = vec![None; cmds.len()];
    let mut files: Vec<(String, Taint)> = Vec::new();
    let mut vars: HashMap<String, Taint> = HashMap::new();
    let mut subst: Option<(Taint, u32)> = None;
    let mut active: Option<(Taint, u32)> = None;
    let mut findings = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        let from_pipe = match c.stdin {
            Some(StdinSource::Pipe { index }) => out_taint.get(index).cloned().flatten(),
            _ => None,
        };
        let own = dump_source(c).or_else(|| secret_source(c)).map(|mut t| {
            t.from = i;
            t
        });
        let inherited = from_pipe
            .clone()
            .or_else(|| reads_file(c, &files).cloned())
            .or_else(|| reads_var(c, &vars).cloned());
        // A substitution's output goes into the words of the command that encloses it (the
        // next one less deep), and to what that command runs in turn (`find -exec`, `sh -c`).
        let pending = match (&subst, &active) {
            (Some((t, d)), _) if c.depth < *d => {
                let t = t.clone();
                subst = None;
                active = Some((t.clone(), c.depth));
                Some(t)
            }
            (_, Some((t, d))) if c.depth > *d => Some(t.clone()),
            _ => {
                active = None;
                None
            }
        };
        let data = own.clone().or(inherited.clone()).or(pending.clone());
        if let Some(t) = &data
            && let Some((dest, reads_stdin)) = sink(c)
        {
            // What the sender sends: its stdin (when it reads it), a file or a variable it
            // names, a substitution in its words, or its own read.
            let by_name = own.is_some()
                || reads_file(c, &files).is_some()
                || reads_var(c, &vars).is_some()
                || pending.is_some();
            if by_name || (from_pipe.is_some() && reads_stdin) {
                findings.push(flow_finding(parsed, t, c, &dest));
                continue;
            }
        }
        if c.origin == Origin::CommandSubstitution
            && let Some(t) = &data
        {
            subst = Some((t.clone(), c.depth));
        }
        if let Some(t) = data {
            if c.program.is_empty() {
                for (name, _) in &c.assignments {
                    if vars.len() < MAX_TRACKED {
                        vars.insert(name.clone(), t.clone());
                    }
                }
            }
            for f in outputs(c) {
                if files.len() < MAX_TRACKED {
                    files.push((f, t.clone()));
                }
            }
            if let Some(slot) = out_taint.get_mut(i) {
                *slot = Some(t);
            }
        }
    }
    findings
}

fn flow_finding(parsed: &ParsedCommand, t: &Taint, sink: &SimpleCommand, dest: &str) -> Finding {
    let src = parsed.commands.get(t.from);
    let span = src.map_or(sink.span, |s| both(s.span, sink.span));
    let (id, level, score, what) = match t.data {
        Data::Secret => ("flow.secret-sent", RiskLevel::Critical, 92, "secret data"),
        Data::Dump => ("flow.dump-sent", RiskLevel::High, 82, "a database dump"),
    };
    Finding::new(
        id,
        level,
        score,
        format!(
            "Sends {what} off the machine: `{}` is read, then `{}` sends it to `{dest}`",
            t.what,
            sink.canonical()
        ),
    )
    .reversible(false)
    .with_match(span_text(parsed, span), Some(span))
    .with_mitigation(
        "Keep secrets and dumps on the machine, or send them to a reviewed destination by hand",
    )
}

// ---------------------------------------------------------------------------------------
// Downloads later executed

fn downloads(c: &SimpleCommand) -> Vec<String> {
    let raws: Vec<&str> = raw(c).collect();
    let url = raws.iter().find(|t| t.contains("://")).copied();
    let mut out: Vec<String> = c
        .redirects
        .iter()
        .filter(|r| matches!(r.op.trim_start_matches('1'), ">" | ">>" | ">|"))
        .map(|r| r.target.text.clone())
        .collect();
    let base = url.map(|u| {
        let u = u.split(['?', '#']).next().unwrap_or(u);
        u.rsplit('/').next().unwrap_or("").to_string()
    });
    let value = |short: &str, long: &str| -> Option<String> {
        raws.iter().enumerate().find_map(|(k, t)| {
            if *t == short || *t == long {
                raws.get(k + 1).map(|v| v.to_string())
            } else if let Some(v) = t.strip_prefix(&format!("{long}=")) {
                Some(v.to_string())
            } else {
                t.strip_prefix(short)
                    .filter(|v| !v.is_empty() && !short.is_empty() && short.len() == 2)
                    .map(|v| v.to_string())
            }
        })
    };
    match c.program.as_str() {
        "curl" => {
            out.extend(value("-o", "--output"));
            if raws.iter().any(|t| {
                *t == "-O"
                    || *t == "--remote-name"
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains('O'))
            }) {
                out.extend(base.clone());
            }
            // `curl -sSLo f URL`: a cluster ending in `o` takes the next word.
            if let Some(k) = raws.iter().position(|t| {
                t.starts_with('-') && !t.starts_with("--") && t.ends_with('o') && t.len() > 2
            }) {
                out.extend(raws.get(k + 1).map(|s| s.to_string()));
            }
        }
        "wget" => {
            let o = value("-O", "--output-document");
            match o {
                Some(f) => out.push(f),
                None => out.extend(base.clone()),
            }
        }
        "aria2c" | "axel" => out.extend(value("-o", "--out").or(base.clone())),
        _ => return Vec::new(),
    }
    out.retain(|f| !f.is_empty() && f != "-" && !f.starts_with("/dev/"));
    out
}

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
        && p0.text.contains('/')
    {
        return Some((p0.text.as_str(), "runs"));
    }
    match program {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "source" | "fish" => first().map(|f| (f, "runs")),
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
        _ => None,
    }
}

fn download_exec_findings(parsed: &ParsedCommand) -> Vec<Finding> {
    let mut got: Vec<(String, usize)> = Vec::new();
    let mut extracted: Option<usize> = None;
    let mut out = Vec::new();
    for (i, c) in parsed.commands.iter().enumerate() {
        if let Some((f, how)) = executes(c) {
            let hit = got
                .iter()
                .rev()
                .find(|(d, _)| same_file(d, f))
                .map(|(_, k)| *k)
                .or_else(|| extracted.filter(|_| f.starts_with("./")));
            if let Some(k) = hit
                && let Some(d) = parsed.commands.get(k)
            {
                let span = both(d.span, c.span);
                out.push(
                    Finding::new(
                        "flow.download-then-run",
                        RiskLevel::High,
                        78,
                        format!(
                            "Downloads code with `{}` and then {how} it (`{}`) without review",
                            d.program,
                            c.canonical()
                        ),
                    )
                    .reversible(false)
                    .with_match(span_text(parsed, span), Some(span))
                    .with_mitigation(
                        "Inspect the downloaded file and verify its checksum before running it",
                    ),
                );
                break;
            }
        }
        let d = downloads(c);
        if !d.is_empty() && got.len() < MAX_TRACKED {
            got.extend(d.into_iter().map(|f| (f, i)));
        }
        if matches!(c.program.as_str(), "tar" | "unzip" | "bsdtar" | "7z")
            && let Some((_, k)) = got.iter().find(|(f, _)| raw(c).any(|t| same_file(f, t)))
        {
            extracted = Some(*k);
        }
    }
    out
}
