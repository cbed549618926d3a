//! Taint sources: secrets and database dumps a command reads, and the files a command writes
//! what it read into.

use riskgate_model::credentials::sensitive_kind;
use riskgate_shell::SimpleCommand;

use super::{pos, raw};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Data {
    Secret,
    Dump,
}

#[derive(Clone, Debug)]
pub(super) struct Taint {
    pub(super) data: Data,
    /// Index of the command that read it.
    pub(super) from: usize,
    pub(super) what: String,
}

/// A database dump or a secret-store read.
pub(super) fn dump_source(c: &SimpleCommand) -> Option<Taint> {
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
pub(super) fn secret_source(c: &SimpleCommand) -> Option<Taint> {
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
pub(super) fn outputs(c: &SimpleCommand) -> Vec<String> {
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
