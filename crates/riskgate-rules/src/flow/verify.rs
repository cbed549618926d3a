//! Downloads checked against a hash written in the script itself
//! (`echo "<sha256>  /usr/local/bin/yq" | sha256sum -c -`, `sha256sum -c <<< "<sha256>  x"`):
//! what was received is then the file its author pinned, not whatever the server sends. A
//! check against a checksum file (`sha256sum -c SHA256SUMS`) does not count: that file comes
//! from the same place as the download.

use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

/// Programs that check files against hashes (`-c` / `--check`).
const CHECKERS: &[&str] = &[
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "sha224sum",
    "b2sum",
    "shasum",
];

/// Most commands after a download searched for its check.
const LOOKAHEAD: usize = 64;

/// A hash strong enough to pin a file: at least 64 hex digits (SHA-256 and longer).
fn is_hash(w: &str) -> bool {
    w.len() >= 64 && w.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The files command `c` checks against hashes written in the script (empty when it is not
/// such a check).
pub(crate) fn verified_files(parsed: &ParsedCommand, c: &SimpleCommand) -> Vec<String> {
    if !CHECKERS.contains(&c.program.as_str()) {
        return Vec::new();
    }
    let checks = c.raw_argv.iter().skip(1).any(|w| {
        let t = w.text.as_str();
        t == "--check" || (t.starts_with('-') && !t.starts_with("--") && t.contains('c'))
    });
    if !checks {
        return Vec::new();
    }
    // the lines it reads: a printer piped in, a here-string or a here-document
    let mut text: Vec<&str> = Vec::new();
    if let Some(StdinSource::Pipe { index }) = &c.stdin
        && let Some(p) = parsed.commands.get(*index)
        && matches!(p.program.as_str(), "echo" | "printf")
    {
        text.extend(p.raw_argv.iter().skip(1).map(|w| w.text.as_str()));
    }
    text.extend(
        c.redirects
            .iter()
            .filter(|r| r.op.starts_with("<<"))
            .map(|r| r.target.text.as_str()),
    );
    let mut out = Vec::new();
    for line in text.iter().flat_map(|t| t.lines()) {
        let mut words = line.split_whitespace();
        if let (Some(h), Some(f)) = (words.next(), words.next())
            && is_hash(h)
        {
            let f = f.trim_start_matches('*').trim_matches(['"', '\'']);
            if !f.is_empty() && !f.starts_with('-') {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// The file a `curl` or `wget` command writes its download to (`-o F`, `--output=F`,
/// `-O F`, `--output-document=F`).
pub(crate) fn download_target(c: &SimpleCommand) -> Option<&str> {
    let (short, long) = match c.program.as_str() {
        "curl" => ("-o", "--output"),
        "wget" => ("-O", "--output-document"),
        _ => return None,
    };
    let words: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    words.iter().enumerate().find_map(|(i, w)| {
        if *w == short || *w == long {
            words.get(i + 1).copied()
        } else {
            w.strip_prefix(long)
                .and_then(|r| r.strip_prefix('='))
                .or_else(|| w.strip_prefix(short).filter(|r| !r.is_empty()))
        }
    })
}

/// Whether the download of command `index` is checked against a hash written in the script by
/// one of the commands after it.
pub(crate) fn download_verified(parsed: &ParsedCommand, index: usize) -> bool {
    let Some(target) = parsed.commands.get(index).and_then(download_target) else {
        return false;
    };
    parsed
        .commands
        .iter()
        .skip(index + 1)
        .take(LOOKAHEAD)
        .any(|c| {
            verified_files(parsed, c)
                .iter()
                .any(|f| super::same_file(f, target))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "246b781828353a59fb04ffaada241f78a8f3f25c623047b40306def1f6806e71";

    #[test]
    fn inline_hashes_pin_the_download() {
        let verified = |s: &str| {
            let p = riskgate_shell::parse(s);
            download_verified(&p, 0)
        };
        assert!(verified(&format!(
            "curl -fsSL -o /usr/local/bin/yq https://x.example/yq && echo \"{H}  /usr/local/bin/yq\" | sha256sum -c -"
        )));
        assert!(verified(&format!(
            "wget -O /tmp/t.deb https://x.example/t.deb && sha256sum --check <<< \"{H} */tmp/t.deb\""
        )));
        // another file, a checksum file from the same server, a weak hash, no check at all
        assert!(!verified(&format!(
            "curl -o /usr/local/bin/yq https://x.example/yq && echo \"{H}  /tmp/other\" | sha256sum -c"
        )));
        assert!(!verified(
            "curl -o /usr/local/bin/yq https://x.example/yq && curl -o SUMS https://x.example/SUMS && sha256sum -c SUMS"
        ));
        assert!(!verified(
            "curl -o /usr/local/bin/yq https://x.example/yq && echo \"d41d8cd98f00b204e9800998ecf8427e  /usr/local/bin/yq\" | md5sum -c"
        ));
        assert!(!verified(&format!(
            "curl -o /usr/local/bin/yq https://x.example/yq && echo \"{H}  /usr/local/bin/yq\" | sha256sum"
        )));
    }
}
