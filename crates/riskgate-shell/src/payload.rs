//! Pipelines and payloads: link each pipeline consumer to its producer, notice downloads and
//! encoded payloads fed to a shell or interpreter, and where the payload literal is present
//! (`echo cm0gLXJmIC8= | base64 -d | sh`, `printf '\x72\x6d …' | sh`), decode it and parse it.

use base64::Engine;

use crate::ctx::{Feed, Frame, Norm, Range};
use crate::interp::{Reader, stdin_reader};
use crate::{NestedInput, Origin, Signal, SimpleCommand, StdinSource, Wrapper, escapes};
use riskgate_model::Span;

/// Largest decoded payload parsed.
const MAX_PAYLOAD: usize = 64 * 1024;

fn raw(c: &SimpleCommand) -> impl Iterator<Item = &str> {
    c.raw_argv.iter().skip(1).map(|w| w.text.as_str())
}

fn has_opt(c: &SimpleCommand, short: char, long: &[&str]) -> bool {
    raw(c).any(|t| {
        long.contains(&t) || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(short))
    })
}

/// curl, wget and friends.
pub(crate) fn is_downloader(c: &SimpleCommand) -> bool {
    match c.program.as_str() {
        "curl" | "wget" | "fetch" | "aria2c" | "nc" | "ncat" | "netcat" | "socat" | "http"
        | "https" | "xh" | "lwp-download" | "lwp-request" | "GET" | "lynx" | "links" | "w3m"
        | "axel" | "httpie" | "tftp" => true,
        p if p.starts_with("python") => {
            let mut it = raw(c);
            while let Some(t) = it.next() {
                if t == "-m" {
                    return it
                        .next()
                        .is_some_and(|m| m.starts_with("http") || m.starts_with("urllib"));
                }
            }
            false
        }
        "gh" => raw(c).next() == Some("api") || fetches_to_stdout(c),
        _ => fetches_to_stdout(c),
    }
}

/// A command that copies something from another host, a bucket, a repository or a container
/// to its standard output (`aws s3 cp s3://b/k -`, `gsutil cat`, `git archive --remote`,
/// `docker cp c:/f -`): what it writes was never seen here.
fn fetches_to_stdout(c: &SimpleCommand) -> bool {
    let ops: Vec<&str> = raw(c)
        .filter(|t| !t.starts_with('-') || *t == "-")
        .collect();
    let (p0, p1) = (
        ops.first().copied().unwrap_or(""),
        ops.get(1).copied().unwrap_or(""),
    );
    let last = ops.last().copied().unwrap_or("");
    let stdout = matches!(last, "-" | "/dev/stdout" | "/dev/fd/1");
    let opt = |names: &[&str]| {
        let words: Vec<&str> = raw(c).collect();
        words.iter().enumerate().find_map(|(k, t)| {
            if names.contains(t) {
                return words.get(k + 1).copied();
            }
            names.iter().find_map(|n| {
                t.strip_prefix(n)
                    .and_then(|r| r.strip_prefix('='))
                    .filter(|_| n.starts_with("--"))
            })
        })
    };
    match c.program.as_str() {
        "aws" => {
            (p0 == "s3" && matches!(p1, "cp" | "mv") && ops.iter().any(|o| o.starts_with("s3://")))
                && stdout
                || (p0 == "s3api" && p1 == "get-object" && stdout)
        }
        "gsutil" => p0 == "cat" || (matches!(p0, "cp" | "mv") && stdout),
        "gcloud" => p0 == "storage" && (p1 == "cat" || (p1 == "cp" && stdout)),
        "az" => {
            p0 == "storage"
                && ops.contains(&"download")
                && opt(&["--file", "-f"]).is_none_or(|f| matches!(f, "-" | "/dev/stdout"))
        }
        "rclone" | "mc" | "hdfs" => ops.contains(&"cat") || ops.contains(&"-cat"),
        "s3cmd" => p0 == "get" && stdout,
        "scp" | "rsync" | "sftp" => stdout && ops.iter().any(|o| o.contains(':')),
        "git" => p0 == "archive" && raw(c).any(|t| t.starts_with("--remote")),
        "docker" | "podman" | "nerdctl" => p0 == "cp" && stdout && p1.contains(':'),
        "gh" => {
            p0 == "release"
                && p1 == "download"
                && opt(&["-O", "--output"]).is_some_and(|f| f == "-")
        }
        _ => false,
    }
}

/// A decompressor reading a file it names (`gunzip -c dump.sql.gz`, `zcat d.gz`, `xz -dc
/// d.xz`), not its input or a download.
fn decompresses_a_file(c: &SimpleCommand) -> bool {
    matches!(decoder_label(c), Some("gunzip" | "decompress"))
        && c.stdin.is_none()
        && c.positionals()
            .any(|w| w.text != "-" && !w.text.contains("://"))
}

/// base64 -d, xxd -r, printf '\x..', echo -e '\x..', rev, openssl base64 -d …
pub(crate) fn is_decoder(c: &SimpleCommand) -> bool {
    decoder_label(c).is_some()
}

fn decoder_label(c: &SimpleCommand) -> Option<&'static str> {
    match c.program.as_str() {
        "base64" | "gbase64" if has_opt(c, 'd', &["--decode"]) || has_opt(c, 'D', &[]) => {
            Some("base64 -d")
        }
        "base32" | "basenc" if has_opt(c, 'd', &["--decode"]) => Some("base32 -d"),
        "openssl" => {
            let sub = raw(c).next()?;
            let dec = raw(c).any(|t| t == "-d");
            let b64 = sub == "base64" || raw(c).any(|t| t == "-base64" || t == "-a");
            if (sub == "base64" || sub == "enc") && dec && b64 {
                return Some("openssl base64 -d");
            }
            let cipher = matches!(sub, "enc" | "smime" | "cms" | "pkeyutl" | "rsautl")
                || ["aes", "des", "camellia", "chacha"]
                    .iter()
                    .any(|p| sub.starts_with(p));
            (cipher && (dec || raw(c).any(|t| t == "-decrypt"))).then_some("decrypt")
        }
        "xxd" if has_opt(c, 'r', &["-revert"]) => Some("xxd -r"),
        "rev" => Some("rev"),
        "uudecode" => Some("uudecode"),
        "gunzip" | "zcat" => Some("gunzip"),
        "gzip" | "bzip2" | "xz" if has_opt(c, 'd', &["--decompress"]) => Some("gunzip"),
        // Decompressed, decrypted or unpacked: text that was not visible before.
        "bzcat" | "xzcat" | "zstdcat" | "lzcat" | "lz4cat" | "unxz" | "unzstd" | "unlzma" => {
            Some("decompress")
        }
        "bunzip2" if has_opt(c, 'c', &["--stdout"]) => Some("decompress"),
        "zstd" | "lz4" | "lzma" | "brotli" if has_opt(c, 'd', &["--decompress"]) => {
            Some("decompress")
        }
        "gpg" | "gpg2" | "age" | "rage" if has_opt(c, 'd', &["--decrypt"]) => Some("decrypt"),
        "sops" if has_opt(c, 'd', &["--decrypt", "decrypt"]) => Some("decrypt"),
        "unzip" if has_opt(c, 'p', &[]) => Some("unzip -p"),
        "7z" | "7za" | "7zz" if raw(c).any(|t| t == "-so") => Some("7z -so"),
        "tar" | "gtar" | "bsdtar"
            if (has_opt(c, 'O', &["--to-stdout"])
                || raw(c)
                    .next()
                    .is_some_and(|t| !t.starts_with('-') && t.contains('O')))
                && (has_opt(c, 'x', &["--extract", "--get"])
                    || raw(c)
                        .next()
                        .is_some_and(|t| !t.starts_with('-') && t.contains('x'))) =>
        {
            Some("tar -xO")
        }
        // `perl -pe 's/(..)/chr hex $1/ge'`, `perl -ne 'print pack "H*", $_'`: hex decoded
        "perl" if perl_hex_decodes(c) => Some("perl hex"),
        "printf" if raw(c).next().is_some_and(escapes::has_byte_escapes) => Some("printf"),
        "echo" if echo_flags(c).1 && raw(c).any(escapes::has_byte_escapes) => Some("echo -e"),
        // A translation (not `tr -d '\r'`): `tr 'A-Za-z' 'N-ZA-Mn-za-m'`, `tr a-z A-Z`.
        "tr" if raw(c).any(|t| t.contains("N-Z") || t.contains("n-z") || t.contains("n-za-m"))
            || (!has_opt(c, 'd', &["--delete"])
                && raw(c).filter(|t| !t.starts_with('-')).count() == 2) =>
        {
            Some("tr")
        }
        _ => None,
    }
}

/// (-n, -e) of an echo, and the index of its first operand in raw_argv.
fn echo_flags(c: &SimpleCommand) -> (bool, bool, usize) {
    let mut n = false;
    let mut e = false;
    let mut i = 1;
    while let Some(w) = c.raw_argv.get(i) {
        let t = w.text.as_str();
        if t.len() > 1
            && t.starts_with('-')
            && t[1..].chars().all(|ch| matches!(ch, 'n' | 'e' | 'E'))
        {
            n |= t.contains('n');
            e = if t.contains('E') {
                false
            } else {
                e || t.contains('e')
            };
            i += 1;
        } else {
            break;
        }
    }
    (n, e, i)
}

/// The stdin body of a heredoc or here-string, if any.
fn stdin_body(c: &SimpleCommand) -> Option<&str> {
    if c.stdin != Some(StdinSource::Heredoc) {
        return None;
    }
    c.redirects
        .iter()
        .rev()
        .find(|r| r.op.ends_with("<<") || r.op.ends_with("<<-") || r.op.ends_with("<<<"))
        .map(|r| r.target.text.as_str())
}

/// What `c` writes to stdout when it starts a pipeline, when that is known.
pub(crate) fn produce(c: &SimpleCommand) -> Option<String> {
    if c.raw_argv.iter().any(|w| w.dynamic) {
        return None;
    }
    match c.program.as_str() {
        // a new, empty file or directory under the temporary directory (or the one given)
        "mktemp" => {
            let mut dir = "/tmp".to_string();
            let mut template: Option<&str> = None;
            let mut words = c.raw_argv.iter().skip(1).map(|w| w.text.as_str());
            while let Some(w) = words.next() {
                if w == "-p" || w == "--tmpdir" {
                    dir = words.next()?.to_string();
                } else if let Some(d) = w.strip_prefix("--tmpdir=").or_else(|| w.strip_prefix("-p"))
                {
                    dir = d.to_string();
                } else if !w.starts_with('-') {
                    template = Some(w);
                }
            }
            let name = template.unwrap_or("tmp.XXXXXXXXXX");
            if name.contains('/') {
                return Some(format!("{name}\n"));
            }
            Some(format!("{}/{name}\n", dir.trim_end_matches('/')))
        }
        "echo" => {
            let (n, e, i) = echo_flags(c);
            let mut s = c
                .raw_argv
                .get(i..)
                .unwrap_or(&[])
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if e {
                let (d, stop) = escapes::echo_e(&s);
                s = d;
                if stop {
                    return Some(s);
                }
            }
            if !n {
                s.push('\n');
            }
            Some(s)
        }
        "printf" => {
            let mut it = c.raw_argv.iter().skip(1).map(|w| w.text.as_str());
            let mut fmt = it.next()?;
            if fmt == "--" {
                fmt = it.next()?;
            }
            if fmt.starts_with('-') {
                return None;
            }
            let args: Vec<&str> = it.collect();
            printf(fmt, &args)
        }
        "cat" if c.raw_argv.len() == 1 => stdin_body(c).map(str::to_string),
        // `$(command -v rm)`, `$(which rm)`: the program's path, which runs the program.
        "command" | "type"
            if c.raw_argv.len() == 3
                && c.raw_argv
                    .get(1)
                    .is_some_and(|w| matches!(w.text.as_str(), "-v" | "-P" | "-p")) =>
        {
            c.raw_argv.get(2).map(|w| format!("{}\n", w.text))
        }
        // `$(which node)`: where a system install puts it (`dirname "$(which node)"` is
        // `/usr/bin`); a path given is itself
        "which" if c.raw_argv.len() == 2 => c.raw_argv.get(1).map(|w| {
            if w.text.contains('/') {
                format!("{}\n", w.text)
            } else {
                format!("/usr/bin/{}\n", w.text)
            }
        }),
        // `$(dirname "$P")`, `$(basename "$P" .sh)`: computed from a known path (not from a
        // pattern or a placeholder: `dirname "{}"` is each found file's own directory)
        "dirname" | "basename"
            if c.raw_argv
                .iter()
                .skip(1)
                .any(|w| w.text.contains(['*', '?', '[', '{', '$']) || w.text.is_empty()) =>
        {
            None
        }
        "dirname" if c.raw_argv.len() == 2 => c.raw_argv.get(1).map(|w| {
            let p = w.text.trim_end_matches('/');
            let dir = match p.rsplit_once('/') {
                Some(("", _)) => "/",
                Some((d, _)) => d.trim_end_matches('/'),
                None if w.text.starts_with('/') => "/",
                None => ".",
            };
            format!("{}\n", if dir.is_empty() { "/" } else { dir })
        }),
        "basename" if matches!(c.raw_argv.len(), 2 | 3) => c.raw_argv.get(1).map(|w| {
            let p = w.text.trim_end_matches('/');
            let base = p.rsplit('/').next().unwrap_or(p);
            let base = c
                .raw_argv
                .get(2)
                .and_then(|s| base.strip_suffix(s.text.as_str()))
                .filter(|b| !b.is_empty())
                .unwrap_or(base);
            format!("{base}\n")
        }),
        // `jq -r '.buckets[] | "aws s3 rb s3://" + . + " --force"' b.json`: the text its
        // filter builds from literals (raw output only: JSON strings are quoted)
        "jq" | "yq" | "gojq" | "jaq" => jq_filter(c).and_then(crate::jqtext::output),
        // `awk 'BEGIN { printf "%s %s\n", "git", "push" }'`: what its BEGIN block prints
        "awk" | "gawk" | "mawk" | "nawk" => {
            let program = c
                .raw_argv
                .iter()
                .skip(1)
                .map(|w| w.text.as_str())
                .find(|w| !w.starts_with('-'))?;
            crate::embedded::awk::begin_output(program)
        }
        // `perl -e 'print "rm -rf /opt/"'`, `python3 -c 'print("…")'`: what a one-liner that
        // only prints literals prints
        _ => {
            stdin_body(c)
                .and_then(|b| transform(c, b))
                .or_else(
                    || match crate::interp::one_liners(&c.program, &c.raw_argv).as_slice() {
                        [(language, text, true)] => {
                            crate::embedded::prints::printed(*language, text)
                        }
                        _ => None,
                    },
                )
        }
    }
}

/// The filter of a jq-like command printing raw text (`-r`, `-j`, `--raw-output`,
/// `--join-output`; yq prints strings raw by default).
fn jq_filter(c: &SimpleCommand) -> Option<&str> {
    let mut raw_out = c.program == "yq";
    let mut filter = None;
    let mut words = c.raw_argv.iter().skip(1).map(|w| w.text.as_str());
    while let Some(w) = words.next() {
        match w {
            "--raw-output" | "--join-output" | "--raw-output0" => raw_out = true,
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => {
                words.next();
                words.next();
            }
            "--indent" | "--tab" | "-L" => {
                words.next();
            }
            "-f" | "--from-file" => return None,
            w if w.starts_with("--") => {}
            w if w.starts_with('-') && w.len() > 1 => {
                raw_out |= w.contains(['r', 'j']);
            }
            // the first operand is the filter; options may follow it (`jq -n '…' -r`)
            f => {
                filter.get_or_insert(f);
            }
        }
    }
    filter.filter(|_| raw_out)
}

/// Most times a printf format is reused for its remaining arguments.
const MAX_PRINTF_ROUNDS: usize = 1024;

pub(crate) fn printf(fmt: &str, args: &[&str]) -> Option<String> {
    let fmt = escapes::printf(fmt);
    let mut out = String::new();
    let mut args = args.iter().peekable();
    // Like bash, the format is reused while arguments remain (`printf '%s' r m` is `rm`).
    for _ in 0..MAX_PRINTF_ROUNDS {
        let mut used = false;
        let mut it = fmt.chars().peekable();
        while let Some(ch) = it.next() {
            if ch != '%' {
                out.push(ch);
                continue;
            }
            let mut next = |used: &mut bool| {
                let a = args.next().copied();
                *used |= a.is_some();
                a.unwrap_or("")
            };
            match it.next()? {
                '%' => out.push('%'),
                's' => out.push_str(next(&mut used)),
                'b' => out.push_str(&escapes::printf(next(&mut used))),
                'c' => out.extend(next(&mut used).chars().next()),
                _ => return None,
            }
            if out.len() > MAX_PAYLOAD {
                return None;
            }
        }
        if !used || args.peek().is_none() {
            break;
        }
    }
    Some(out)
}

/// What `c` writes given `input` on stdin, for the transformations we can follow.
pub(crate) fn transform(c: &SimpleCommand, input: &str) -> Option<String> {
    let positional = c.raw_argv.iter().skip(1).any(|w| !w.text.starts_with('-'));
    let out = match decoder_label(c) {
        Some("base64 -d") | Some("openssl base64 -d") if !positional || c.program == "openssl" => {
            let clean: String = input.chars().filter(|ch| !ch.is_whitespace()).collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(clean.as_bytes())
                .or_else(|_| {
                    base64::engine::general_purpose::STANDARD_NO_PAD
                        .decode(clean.trim_end_matches('=').as_bytes())
                })
                .ok()?;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Some("xxd -r") if has_opt(c, 'p', &["-plain", "-ps", "-postscript"]) => {
            let hex: String = input.chars().filter(|ch| ch.is_ascii_hexdigit()).collect();
            String::from_utf8_lossy(&hex_decode(&hex)?).into_owned()
        }
        Some("perl hex") => {
            let hex: String = input.chars().filter(|ch| ch.is_ascii_hexdigit()).collect();
            String::from_utf8_lossy(&hex_decode(&hex)?).into_owned()
        }
        Some("rev") if !positional => input
            .lines()
            .map(|l| l.chars().rev().collect::<String>() + "\n")
            .collect(),
        Some(_) => return None,
        None => match c.program.as_str() {
            "cat" | "tee" if c.program == "tee" || !positional => input.to_string(),
            // `… | base64`: the encoding of its input (`printf 'rm …' | base64` in a
            // substitution that a later `base64 -d | sh` undoes)
            "base64" | "gbase64" if !positional => {
                let mut e = base64::engine::general_purpose::STANDARD.encode(input.as_bytes());
                e.push('\n');
                e
            }
            // `sed 's/xx/rm/'`: substitutions of literal text
            "sed" => sed_literal(c, input)?,
            "tac" if !positional => {
                let mut lines: Vec<&str> = input.lines().collect();
                lines.reverse();
                lines.iter().map(|l| format!("{l}\n")).collect()
            }
            _ => return None,
        },
    };
    (out.len() <= MAX_PAYLOAD).then_some(out)
}

/// A Perl one-liner over its input that turns hex pairs into characters.
fn perl_hex_decodes(c: &SimpleCommand) -> bool {
    let mut words = raw(c);
    let mut script = None;
    while let Some(w) = words.next() {
        if w.starts_with('-') && (w.ends_with('e') || w.ends_with('E')) {
            script = words.next();
            break;
        }
    }
    script.is_some_and(|s| {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        s.contains("chrhex")
            || s.contains("chr(hex")
            || s.contains("pack\"H*\"")
            || s.contains("pack(\"H*\"")
            || s.contains("pack'H*'")
    })
}

/// `sed 's/A/B/'` (and `-e` scripts of such substitutions, `g` allowed) where A and B are
/// literal text: the input with them made. None for anything else (a regular expression, an
/// address, another command, `-i`).
fn sed_literal(c: &SimpleCommand, input: &str) -> Option<String> {
    let mut scripts: Vec<&str> = Vec::new();
    let mut words = raw(c);
    while let Some(w) = words.next() {
        match w {
            "-e" | "--expression" => scripts.push(words.next()?),
            _ if w.starts_with('-') => return None,
            _ if scripts.is_empty() => scripts.push(w),
            // a file operand: the input is not the pipe's
            _ => return None,
        }
    }
    if scripts.is_empty() {
        return None;
    }
    let mut out: Vec<String> = input.lines().map(str::to_string).collect();
    for script in scripts {
        let rest = script.strip_prefix('s')?;
        let delim = rest.chars().next()?;
        if delim.is_alphanumeric() || delim == '\\' {
            return None;
        }
        let parts: Vec<&str> = rest[delim.len_utf8()..].split(delim).collect();
        let [from, to, flags] = parts.as_slice() else {
            return None;
        };
        let meta = |t: &str| {
            t.contains([
                '.', '*', '[', ']', '^', '$', '\\', '+', '?', '(', ')', '{', '}', '|', '&',
            ])
        };
        if from.is_empty() || meta(from) || meta(to) || !flags.chars().all(|f| f == 'g') {
            return None;
        }
        for line in &mut out {
            *line = if flags.is_empty() {
                line.replacen(from, to, 1)
            } else {
                line.replace(from, to)
            };
        }
    }
    Some(out.iter().map(|l| format!("{l}\n")).collect())
}

fn hex_decode(h: &str) -> Option<Vec<u8>> {
    let b = h.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks(2)
        .map(|p| {
            let s = std::str::from_utf8(p).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect()
}

/// The template of what an awk command printing one line per input line prints (see
/// [`crate::embedded::awk::line_template`]).
fn awk_template(c: &SimpleCommand) -> Option<String> {
    if !matches!(c.program.as_str(), "awk" | "gawk" | "mawk" | "nawk") {
        return None;
    }
    let mut words = c.raw_argv.iter().skip(1);
    while let Some(w) = words.next() {
        match w.text.as_str() {
            // the program is read from a file
            "-f" | "--file" => return None,
            "-F" | "-v" => {
                words.next();
            }
            t if t.starts_with('-') => {}
            _ if w.dynamic => return None,
            _ => return crate::embedded::awk::line_template(&w.text),
        }
    }
    None
}

/// Programs whose output is their arguments or input as given.
const PRINTERS: [&str; 6] = ["echo", "printf", "cat", "print", "tee", "base64"];

impl Norm<'_> {
    /// Downloaders and decoders among the commands recorded since `start`.
    pub(crate) fn feed_since(&self, start: usize) -> Feed {
        let mut f = Feed::default();
        for (i, c) in self.commands.iter().enumerate().skip(start) {
            if f.downloader.is_none() && is_downloader(c) {
                f.downloader = Some(i);
            }
            if f.decoder.is_none() && is_decoder(c) {
                f.decoder = Some(i);
            }
        }
        f
    }

    /// The output of the commands recorded since `start`, when they form one pipeline whose
    /// output we can compute (`$(echo rm)`, `$(echo cm0= | base64 -d)`).
    pub(crate) fn output_since(&self, start: usize) -> Option<String> {
        // assignments before the printer print nothing (`$(IFS=/; echo "${parts[*]}")`)
        let lead = self
            .commands
            .get(start..)?
            .iter()
            .take_while(|c| {
                c.program.is_empty() && !c.assignments.is_empty() && c.redirects.is_empty()
            })
            .count();
        let start = start + lead;
        let all = self.commands.get(start..)?;
        // the substitution's own commands: those of substitutions nested in their words
        // (`$(dirname "$(which node)")`) ran first and are already in those words
        let depth = all.iter().map(|c| c.depth).min()?;
        let mut cmds = all
            .iter()
            .enumerate()
            .filter(|(_, c)| c.depth == depth)
            .map(|(k, c)| (start + k, c));
        let (mut prev, first) = cmds.next()?;
        let mut out = produce(first)?;
        for (index, c) in cmds {
            if c.stdin != Some(StdinSource::Pipe { index: prev }) {
                return None;
            }
            out = transform(c, &out)?;
            prev = index;
        }
        Some(out)
    }

    /// Link a pipeline's elements and look at what each consumer reads.
    pub(crate) fn link_pipeline(&mut self, elems: &[Option<Range>], frame: &Frame) {
        for k in 1..elems.len() {
            let (Some(Some(prev)), Some(Some(cur))) = (elems.get(k - 1), elems.get(k)) else {
                continue;
            };
            let Some(c) = self.commands.get_mut(cur.first) else {
                continue;
            };
            if c.stdin.is_none() {
                c.stdin = Some(StdinSource::Pipe { index: prev.last });
            }
        }
        for k in 1..elems.len() {
            let Some(Some(cur)) = elems.get(k) else {
                continue;
            };
            let ci = cur.first;
            let Some(consumer) = self.commands.get(ci) else {
                continue;
            };
            if !matches!(consumer.stdin, Some(StdinSource::Pipe { .. })) {
                continue;
            }
            let Some(reader) = stdin_reader(&consumer.program, &consumer.raw_argv) else {
                continue;
            };
            let chain: Vec<Range> = elems
                .get(..k)
                .unwrap_or(&[])
                .iter()
                .flatten()
                .copied()
                .collect();
            let mut downloader = None;
            let mut decoder = None;
            let here = consumer.remote.clone();
            for r in &chain {
                // commands of substitutions in the element's words run before it (`cat
                // <(curl …) | sh`, `echo "$(curl …)" | sh`): what they print reaches its output
                let (lo, hi) = match (self.commands.get(r.first), self.commands.get(r.last)) {
                    (Some(a), Some(b)) => (a.span.start, b.span.end),
                    _ => (0, 0),
                };
                let inner = (0..r.first).filter(|&i| {
                    self.commands
                        .get(i)
                        .is_some_and(|c| lo <= c.span.start && c.span.end <= hi && lo < hi)
                });
                for i in inner.chain(r.first..=r.last) {
                    if let Some(c) = self.commands.get(i) {
                        // Output of a command run on another host (`ssh h cat f | sh`) is
                        // received too.
                        let received = c.remote.is_some() && c.remote != here;
                        // a printer of text a variable or here-string got from a download or a
                        // decoder (`echo "$payload" | sh` after `payload=$(curl … | base64 -d)`)
                        let fed = PRINTERS
                            .contains(&c.program.as_str())
                            .then(|| self.arg_feed.iter().find(|(k, _)| *k == i).map(|(_, f)| *f))
                            .flatten()
                            .unwrap_or_default();
                        if downloader.is_none() && (is_downloader(c) || received) {
                            downloader = Some(i);
                        }
                        if downloader.is_none() && fed.downloader.is_some() {
                            downloader = fed.downloader;
                        }
                        if decoder.is_none() && is_decoder(c) {
                            decoder = Some(i);
                        }
                        if decoder.is_none() && fed.decoder.is_some() {
                            decoder = fed.decoder;
                        }
                    }
                }
            }
            let output = if chain.len() == k {
                self.chain_output(&chain)
            } else {
                None
            };
            if let Some(d) = downloader {
                self.signal(Signal::DownloadToShell {
                    downloader: d,
                    shell: ci,
                });
                continue;
            }
            // a compressed dump file restored into a database client (`gunzip -c dump.sql.gz
            // | psql …`) is that file's SQL, as `psql < dump.sql` is: no payload is hidden
            let restore = matches!(
                reader,
                Reader::Lang(
                    crate::NestedLanguage::Sql
                        | crate::NestedLanguage::Redis
                        | crate::NestedLanguage::Mongo
                )
            ) && decoder
                .and_then(|d| self.commands.get(d))
                .is_some_and(decompresses_a_file);
            let Some(text) = output else {
                if let Some(d) = decoder.filter(|_| !restore) {
                    self.signal(Signal::EncodedToShell {
                        decoder: d,
                        shell: ci,
                        decoded: false,
                    });
                } else {
                    self.signal(Signal::ShellFromStdin { index: ci });
                    // `ls /home | awk '{print "userdel -r "$1}' | sh`: one command per line,
                    // its fields unknown
                    if reader == Reader::Shell
                        && let Some(text) = chain
                            .last()
                            .and_then(|r| self.commands.get(r.last))
                            .and_then(awk_template)
                        && let Some(consumer) = self.commands.get(ci).cloned()
                    {
                        let mut wrappers = consumer.wrappers.clone();
                        for name in [consumer.program.as_str(), "awk template"] {
                            wrappers.push(Wrapper {
                                name: name.to_string(),
                                args: vec![],
                            });
                        }
                        let f = Frame {
                            depth: frame.depth + 1,
                            origin: Origin::ShellString,
                            wrappers,
                            privileged: consumer.privileged,
                            remote: consumer.remote.clone(),
                            span: Some(self.chain_span(&chain, ci, frame)),
                        };
                        let program = consumer.program;
                        let _ = self.shell_text(&program, &text, &f);
                    }
                }
                continue;
            };
            let Some(consumer) = self.commands.get(ci).cloned() else {
                continue;
            };
            let label = decoder
                .and_then(|d| self.commands.get(d))
                .and_then(decoder_label);
            match reader {
                Reader::Shell => {
                    let mut wrappers = consumer.wrappers.clone();
                    wrappers.push(Wrapper {
                        name: consumer.program.clone(),
                        args: vec![],
                    });
                    wrappers.push(Wrapper {
                        name: label.unwrap_or("pipe").to_string(),
                        args: vec![],
                    });
                    let span = self.chain_span(&chain, ci, frame);
                    let f = Frame {
                        depth: frame.depth + 1,
                        origin: if decoder.is_some() {
                            Origin::Decoded
                        } else {
                            Origin::ShellString
                        },
                        wrappers,
                        privileged: consumer.privileged,
                        remote: consumer.remote.clone(),
                        span: Some(span),
                    };
                    let start = self.commands.len();
                    let r = self.shell_text(&consumer.program, &text, &f);
                    if let Some(d) = decoder {
                        self.signal(Signal::EncodedToShell {
                            decoder: d,
                            shell: r.map_or(start, |_| ci),
                            decoded: r.is_some(),
                        });
                    }
                }
                Reader::Translated => {
                    // jshell, groovysh, R, Lua: the commands their script runs
                    let mut wrappers = consumer.wrappers.clone();
                    wrappers.push(Wrapper {
                        name: consumer.program.clone(),
                        args: vec![],
                    });
                    let span = self.chain_span(&chain, ci, frame);
                    let f = Frame {
                        depth: frame.depth + 1,
                        origin: if decoder.is_some() {
                            Origin::Decoded
                        } else {
                            Origin::ShellString
                        },
                        wrappers,
                        privileged: consumer.privileged,
                        remote: consumer.remote.clone(),
                        span: Some(span),
                    };
                    for cmd in crate::embedded::stdin_commands(&consumer.program, &text) {
                        let _ = self.parse_text(&cmd, &f);
                    }
                }
                Reader::Lang(language) => {
                    if let Some(d) = decoder {
                        self.signal(Signal::EncodedToShell {
                            decoder: d,
                            shell: ci,
                            decoded: true,
                        });
                    }
                    let program = consumer.program.clone();
                    self.nested.push(NestedInput {
                        language,
                        text,
                        program,
                        command_index: ci,
                        literal: true,
                    });
                }
            }
        }
    }

    pub(crate) fn chain_output(&self, chain: &[Range]) -> Option<String> {
        let first = chain.first()?;
        if first.first != first.last {
            return None;
        }
        let mut out = produce(self.commands.get(first.first)?)?;
        for r in chain.iter().skip(1) {
            if r.first != r.last {
                return None;
            }
            out = transform(self.commands.get(r.first)?, &out)?;
        }
        Some(out)
    }

    fn chain_span(&self, chain: &[Range], ci: usize, frame: &Frame) -> Span {
        if let Some(s) = frame.span {
            return s;
        }
        let start = chain
            .first()
            .and_then(|r| self.commands.get(r.first))
            .map_or(0, |c| c.span.start);
        let end = self.commands.get(ci).map_or(self.src.len(), |c| c.span.end);
        Span::new(start.min(end), end)
    }
}
