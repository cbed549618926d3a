//! Taint sinks: commands that send what they read off the machine.

use riskgate_shell::SimpleCommand;

use super::{pos, raw};

fn is_local(host: &str) -> bool {
    host.contains("localhost") || host.contains("127.0.0.1") || host.contains("[::1]")
}

/// Whether `c` sends what it read over the network: (the destination, reads stdin).
pub(super) fn sink(c: &SimpleCommand) -> Option<(String, bool)> {
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
