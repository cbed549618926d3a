//! Seed 004's data-exposure stage: reading sensitive data (private keys, cloud credentials,
//! `.env` files, `/etc/shadow` …) is MEDIUM; reading it in a script that also talks to the
//! network (curl, nc, scp, `/dev/tcp`, `ssh host`) is HIGH.
//!
//! A sensitive path given as an option value (`ssh -i ~/.ssh/id_rsa`, `--kubeconfig F`) is a
//! use of the credential, not a read; `@file` (curl `-d @F`) is always a read.

use std::borrow::Cow;

use riskgate_model::credentials::sensitive_kind;
use riskgate_model::{Finding, RiskLevel};

use crate::matcher::CommandView;

/// Programs that touch a path without exposing its content.
const NON_EXPOSING: &[&str] = &[
    "ls",
    "stat",
    "file",
    "chmod",
    "chown",
    "chgrp",
    "touch",
    "test",
    "[",
    "rm",
    "shred",
    "mkdir",
    "ssh-keygen",
    "ssh-add",
    "ssh-copy-id",
    "du",
    "wc",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "realpath",
    "basename",
    "dirname",
    "readlink",
    "find",
    "locate",
    "vim",
    "vi",
    "nano",
    "emacs",
    "code",
    "git",
    "ln",
    "unlink",
    "chattr",
    "lsattr",
    "setfacl",
    "getfacl",
    "echo",
    "printf",
    // loading an environment file sets variables and prints nothing; what a later command
    // does with them (`curl -d "$API_KEY"`) is rated there
    "source",
    ".",
];

/// Programs whose last positional is a destination, not something read.
const COPIERS: &[&str] = &["cp", "mv", "install", "ln"];

/// Programs that send data to other hosts.
const SENDERS: &[&str] = &[
    "curl", "wget", "nc", "ncat", "netcat", "socat", "scp", "sftp", "ftp", "telnet", "rsync",
    "ssh", "mail", "mailx", "sendmail", "rclone", "gsutil", "aws", "az", "gcloud", "s3cmd", "http",
    "https", "xh",
];

/// Programs whose first positional is a filter, pattern or script, not a path
/// (`jq '.items[].key' f`, `grep id_rsa notes.md`).
const SCRIPT_FIRST: &[&str] = &[
    "jq", "yq", "gojq", "jaq", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk",
    "mawk",
];

/// Sensitive paths a command reads: (path, kind).
pub(crate) fn sensitive_reads<'a>(view: &CommandView<'a>) -> Vec<(Cow<'a, str>, &'static str)> {
    let cmd = view.cmd;
    let mut out = Vec::new();
    let program = cmd.program.as_str();
    let exposing = !NON_EXPOSING.contains(&program);
    let last = if COPIERS.contains(&program) {
        view.positionals.len().checked_sub(1)
    } else {
        None
    };
    let script_first = SCRIPT_FIRST.contains(&program);
    for (i, p) in view.positionals.iter().enumerate() {
        if !exposing || Some(i) == last || p.after_flag || (script_first && i == 0) {
            continue;
        }
        if let Some(k) = sensitive_kind(&p.text) {
            out.push((p.text.clone(), k));
        }
    }
    // `@file` and `key=@file` always read the file (curl -d @F, -F x=@F).
    for a in &cmd.args {
        let t = a.text.as_str();
        let file = t
            .strip_prefix('@')
            .or_else(|| t.split_once("=@").map(|(_, f)| f));
        if let Some(f) = file
            && let Some(k) = sensitive_kind(f)
        {
            out.push((Cow::Borrowed(f), k));
        }
    }
    for r in &cmd.redirects {
        if r.op == "<"
            && let Some(k) = sensitive_kind(&r.target.text)
        {
            out.push((Cow::Borrowed(r.target.text.as_str()), k));
        }
    }
    out
}

/// Whether a command can send data to another host, or serves files to the network
/// (`openssl s_client`, `python3 -m http.server`).
pub(crate) fn is_sender(view: &CommandView<'_>) -> bool {
    let program = view.cmd.program.as_str();
    let has = |w: &str| view.cmd.args.iter().any(|a| a.text == w);
    SENDERS.contains(&program)
        || view.cmd.remote.is_some()
        || program == "openssl" && has("s_client")
        || program.starts_with("python") && (has("http.server") || has("SimpleHTTPServer"))
        || matches!(program, "http-server" | "updog" | "serve")
        || view.cmd.redirects.iter().any(|r| {
            r.target.text.starts_with("/dev/tcp/") || r.target.text.starts_with("/dev/udp/")
        })
}

/// The data-exposure finding of a whole script, if any.
pub(crate) fn exposure_finding(views: &[CommandView<'_>]) -> Option<Finding> {
    let mut reads: Vec<(Cow<'_, str>, &str, usize)> = Vec::new();
    for (i, v) in views.iter().enumerate() {
        for (path, kind) in sensitive_reads(v) {
            reads.push((path, kind, i));
        }
    }
    let (path, kind, at) = reads.first()?;
    let at = *at;
    let view = views.get(at)?;
    let sends = views.iter().any(is_sender);
    let resources: Vec<String> = reads.iter().map(|(p, _, _)| format!("file:{p}")).collect();
    let finding = if sends {
        Finding::new(
            "score.data-exfiltration",
            RiskLevel::High,
            75,
            format!("Reads {kind} (`{path}`) in a command that also sends data over the network"),
        )
        .reversible(false)
        .with_mitigation("Never send credentials or keys off the machine; use a secrets manager")
    } else {
        Finding::new(
            "score.data-exposure",
            RiskLevel::Medium,
            45,
            format!("Reads {kind} (`{path}`): its content would be exposed in the output"),
        )
        .with_mitigation("Avoid printing secrets; reference them by name or use a secrets manager")
    };
    Some(
        finding
            .with_match(view.canonical.clone(), Some(view.cmd.span))
            .with_resources(resources),
    )
}
