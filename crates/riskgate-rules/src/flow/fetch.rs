//! What a fetch writes: the files and directories a command fills with data received from
//! elsewhere (a URL, a bucket, another host, a package registry, a container), and the
//! directories an archive is extracted into.

use riskgate_shell::SimpleCommand;

use super::{pos, raw};

/// A path a fetch wrote: a file, a directory (everything under it), or a file name pattern
/// with one `*` (`some-cli-*.tgz`, what `npm pack some-cli` writes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Written {
    pub path: String,
    pub dir: bool,
}

fn file(p: &str) -> Written {
    Written {
        path: p.to_string(),
        dir: false,
    }
}

fn dir(p: &str) -> Written {
    Written {
        path: p.trim_end_matches('/').to_string(),
        dir: true,
    }
}

fn base(p: &str) -> &str {
    let p = p.split(['?', '#']).next().unwrap_or(p);
    let p = p.trim_end_matches('/');
    p.rsplit(['/', ':']).next().unwrap_or(p)
}

/// A destination operand: a directory (`.`, `dir/`) gets the source's base name.
pub(super) fn into(dest: &str, src: &str, out: &mut Vec<Written>) {
    let d = dest.trim_end_matches('/');
    if dest.ends_with('/') || matches!(d, "." | "~" | "..") || d.is_empty() {
        let d = if d.is_empty() { "/" } else { d };
        out.push(file(&format!("{d}/{}", base(src))));
    } else {
        out.push(file(dest));
        // `cp -r host:/a/x /tmp/y` when /tmp/y exists: /tmp/y/x.
        out.push(file(&format!("{d}/{}", base(src))));
    }
}

/// Value of an option (`-o F`, `--output F`, `--output=F`, `-oF`, `-qO F`).
fn value<'a>(raws: &[&'a str], short: &str, long: &str) -> Option<&'a str> {
    let letter = short.strip_prefix('-').filter(|l| l.len() == 1);
    raws.iter().enumerate().find_map(|(k, t)| {
        let cluster_end = letter.is_some_and(|l| {
            t.len() > 2 && t.starts_with('-') && !t.starts_with("--") && t.ends_with(l)
        });
        if *t == short || *t == long || cluster_end {
            raws.get(k + 1).copied()
        } else if let Some(v) = t.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
            Some(v)
        } else {
            t.strip_prefix(short)
                .filter(|v| !v.is_empty() && short.len() == 2 && !t.starts_with("--"))
        }
    })
}

fn operands(c: &SimpleCommand) -> Vec<&str> {
    c.positionals().map(|w| w.text.as_str()).collect()
}

fn remote(p: &str) -> bool {
    // `host:path`, `user@host:path` (not `C:\…`, not a URL).
    p.split_once(':').is_some_and(|(h, rest)| {
        !h.is_empty() && !h.contains('/') && !rest.starts_with('\\') && !p.contains("://")
    })
}

fn is_url(p: &str) -> bool {
    ["s3://", "gs://", "az://", "https://", "http://", "ftp://"]
        .iter()
        .any(|s| p.starts_with(s))
}

/// Files and directories `c` fills with fetched data.
pub(super) fn fetched(c: &SimpleCommand) -> Vec<Written> {
    let raws: Vec<&str> = raw(c).collect();
    let ops = operands(c);
    let url = raws.iter().find(|t| t.contains("://")).copied();
    let mut out = Vec::new();
    let redirected = || {
        c.redirects
            .iter()
            .filter(|r| matches!(r.op.trim_start_matches('1'), ">" | ">>" | ">|"))
            .map(|r| file(&r.target.text))
            .collect::<Vec<_>>()
    };
    match c.program.as_str() {
        "curl" => {
            out.extend(redirected());
            out.extend(value(&raws, "-o", "--output").map(file));
            if raws.iter().any(|t| {
                *t == "-O"
                    || *t == "--remote-name"
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains('O'))
            }) {
                out.extend(url.map(|u| file(base(u))));
            }
            // `curl -sSLo f URL`: a cluster ending in `o` takes the next word.
            if let Some(k) = raws.iter().position(|t| {
                t.starts_with('-') && !t.starts_with("--") && t.ends_with('o') && t.len() > 2
            }) {
                out.extend(raws.get(k + 1).map(|s| file(s)));
            }
        }
        // content of a code-hosting service printed into a file: a gist, a snippet, a file
        // of another repository (`gh gist view ID --raw > run.sh`, `gh api …/contents/x`)
        "gh" | "glab"
            if matches!(
                (pos(c, 0), pos(c, 1)),
                ("gist", "view") | ("snippet", "view") | ("api", _) | ("release", "view")
            ) =>
        {
            out.extend(redirected());
        }
        "wget" => {
            out.extend(redirected());
            match value(&raws, "-O", "--output-document") {
                Some(f) => out.push(file(f)),
                None => match value(&raws, "-P", "--directory-prefix") {
                    Some(d) => out.extend(url.map(|u| file(&format!("{d}/{}", base(u))))),
                    None => out.extend(url.map(|u| file(base(u)))),
                },
            }
        }
        // PowerShell and Windows downloaders: `Invoke-WebRequest URL -OutFile F`,
        // `Start-BitsTransfer URL F`, `certutil -urlcache -f URL F`, `bitsadmin /transfer n URL F`.
        "Invoke-WebRequest" | "Invoke-RestMethod" => {
            out.extend(
                c.args
                    .iter()
                    .find_map(|a| a.text.strip_prefix("-OutFile="))
                    .map(file),
            );
        }
        "Start-BitsTransfer" => {
            let dest = c
                .args
                .iter()
                .find_map(|a| a.text.strip_prefix("-Destination="))
                .or_else(|| ops.get(1).copied());
            out.extend(dest.map(file));
        }
        "certutil" | "bitsadmin" => {
            if let Some(k) = ops.iter().position(|o| o.contains("://")) {
                out.extend(ops.get(k + 1).map(|f| file(f)));
            } else if c.program == "certutil"
                && raws.iter().any(|t| {
                    t.eq_ignore_ascii_case("-decode") || t.eq_ignore_ascii_case("-decodehex")
                })
            {
                // `certutil -decode IN OUT`: a payload carried as text, decoded into OUT
                // (what runs OUT runs code nobody could read before)
                out.extend(ops.get(1).map(|f| file(f)));
            }
        }
        "aria2c" | "axel" => {
            out.extend(redirected());
            out.extend(value(&raws, "-o", "--out").or(url.map(base)).map(file));
        }
        // Buckets and object stores: `aws s3 cp s3://b/k DEST`, `gsutil cp gs://… DEST`.
        "aws" | "gsutil" | "gcloud" | "s3cmd" | "rclone" | "azcopy" | "mc" => {
            let ops: Vec<&str> = ops
                .iter()
                .copied()
                .filter(|o| {
                    !matches!(
                        *o,
                        "s3" | "storage"
                            | "cp"
                            | "mv"
                            | "sync"
                            | "rsync"
                            | "get"
                            | "copy"
                            | "copyto"
                    )
                })
                .collect();
            let verb_ok = matches!(
                (pos(c, 0), pos(c, 1)),
                ("s3", "cp" | "mv" | "sync")
                    | (
                        "cp" | "mv" | "rsync" | "get" | "sync" | "copy" | "copyto",
                        _
                    )
                    | ("storage", "cp" | "rsync")
            );
            if let [src, .., dest] = ops.as_slice()
                && verb_ok
                && (is_url(src) || (c.program == "rclone" && remote(src)))
                && !is_url(dest)
                && !remote(dest)
                && *dest != "-"
            {
                let whole = raws
                    .iter()
                    .any(|t| matches!(*t, "--recursive" | "-r" | "-R"))
                    || matches!(pos(c, 1), "sync" | "rsync")
                    || matches!(pos(c, 0), "sync" | "rsync" | "copy");
                if whole {
                    out.push(dir(dest));
                } else {
                    into(dest, src, &mut out);
                }
            }
        }
        "az" if ops.contains(&"download") || ops.contains(&"download-batch") => {
            out.extend(value(&raws, "-f", "--file").map(file));
            out.extend(value(&raws, "-d", "--destination").map(dir));
        }
        // Another host: `scp h:/a .`, `rsync -a h:/dir/ /tmp/x/`.
        "scp" | "rsync" | "sftp" => {
            if let [srcs @ .., dest] = ops.as_slice()
                && !remote(dest)
                && let Some(src) = srcs.iter().find(|s| remote(s) || s.starts_with("rsync://"))
            {
                if c.program == "rsync" || raws.contains(&"-r") {
                    out.push(dir(dest));
                }
                into(dest, src, &mut out);
            }
        }
        // A container or a pod: `docker cp c:/out/app ./app`, `kubectl cp ns/pod:/f f`.
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc" if pos(c, 0) == "cp" => {
            if let [_, src, dest] = ops.as_slice()
                && src.contains(':')
                && !dest.contains(':')
                && *dest != "-"
            {
                into(dest, src, &mut out);
                out.push(dir(dest));
            }
        }
        // Registries: `pip download -d DIR`, `npm pack NAME@VER` (writes NAME-VER.tgz here).
        "pip" | "pip3" | "uv" if ops.contains(&"download") => {
            out.extend(value(&raws, "-d", "--dest").map(dir));
        }
        "npm" | "pnpm" | "yarn" if pos(c, 0) == "pack" => {
            for spec in ops.iter().skip(1) {
                if spec.starts_with(['.', '/', '~']) {
                    continue;
                }
                let name = match spec.strip_prefix('@') {
                    Some(s) => s.split('@').next().unwrap_or(s).replace('/', "-"),
                    None => spec.split('@').next().unwrap_or(spec).to_string(),
                };
                if !name.is_empty() {
                    out.push(file(&format!("{name}-*.tgz")));
                }
            }
        }
        "git" if pos(c, 0) == "archive" && raws.iter().any(|t| t.starts_with("--remote")) => {
            out.extend(redirected());
            out.extend(value(&raws, "-o", "--output").map(file));
        }
        "gh" if matches!((pos(c, 0), pos(c, 1)), ("release" | "run", "download")) => {
            out.extend(value(&raws, "-D", "--dir").map(dir));
            out.extend(
                value(&raws, "-O", "--output")
                    .filter(|f| *f != "-")
                    .map(file),
            );
        }
        _ => {}
    }
    out.retain(|w| !w.path.is_empty() && w.path != "-" && !w.path.starts_with("/dev/"));
    out
}

/// An extraction: (the archive read, or `None` for stdin; the directory it extracts into, when
/// named).
pub(super) fn extraction(c: &SimpleCommand) -> Option<(Option<&str>, Option<&str>)> {
    let raws: Vec<&str> = raw(c).collect();
    match c.program.as_str() {
        "tar" | "gtar" | "bsdtar" => {
            let first = raws.first().copied().unwrap_or("");
            let cluster = !first.starts_with('-') && first.contains('x');
            let x = cluster
                || raws.iter().any(|t| {
                    matches!(*t, "--extract" | "--get")
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('x'))
                });
            if !x {
                return None;
            }
            let archive = if cluster && first.contains('f') {
                raws.get(1).copied()
            } else {
                value(&raws, "-f", "--file").or_else(|| {
                    raws.iter().enumerate().find_map(|(k, t)| {
                        (t.starts_with('-') && !t.starts_with("--") && t.ends_with('f'))
                            .then(|| raws.get(k + 1).copied())
                            .flatten()
                    })
                })
            };
            let into = value(&raws, "-C", "--directory");
            Some((archive.filter(|a| *a != "-"), into))
        }
        "unzip" => {
            if raws
                .iter()
                .any(|t| matches!(*t, "-l" | "-t" | "-p" | "-Z" | "-v"))
            {
                return None;
            }
            let archive = raws
                .iter()
                .enumerate()
                .find(|(k, t)| {
                    let value_of = |o: &str| k.checked_sub(1).and_then(|j| raws.get(j)) == Some(&o);
                    !t.starts_with('-') && !["-d", "-x", "-P"].iter().any(|o| value_of(o))
                })
                .map(|(_, t)| *t);
            Some((archive, value(&raws, "-d", "-d")))
        }
        // PowerShell: `Expand-Archive A.zip -DestinationPath D` (canonical: `A.zip D`)
        "Expand-Archive" => {
            let mut p = c.positionals();
            let archive = p.next().map(|w| w.text.as_str());
            Some((archive, p.next().map(|w| w.text.as_str())))
        }
        "7z" | "7za" | "7zz" if matches!(raws.first(), Some(&"x" | &"e")) => {
            let archive = raws.iter().skip(1).find(|t| !t.starts_with('-')).copied();
            let into = raws.iter().find_map(|t| t.strip_prefix("-o"));
            Some((archive, into))
        }
        _ => None,
    }
}

/// The directory an archive extracts into when none is named: its stem (`pkg-1.2.tar.gz` →
/// `pkg-1.2`), and `package` for npm tarballs.
pub(super) fn extracted_dirs(archive: &str) -> Vec<String> {
    let b = base(archive);
    let mut out = Vec::new();
    for ext in [
        ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tar.zst", ".tar", ".zip",
    ] {
        if let Some(stem) = b.strip_suffix(ext) {
            out.push(stem.to_string());
            if ext == ".tgz" {
                out.push("package".to_string());
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(argv: &[&str]) -> SimpleCommand {
        let p = riskgate_shell::parse(&argv.join(" "));
        p.commands.into_iter().next().expect("one command")
    }

    fn paths(argv: &[&str]) -> Vec<(String, bool)> {
        fetched(&cmd(argv))
            .into_iter()
            .map(|w| (w.path, w.dir))
            .collect()
    }

    #[test]
    fn fetches_name_what_they_write() {
        assert!(
            paths(&["curl", "-sSLo", "/tmp/x", "https://e.org/x"])
                .contains(&("/tmp/x".into(), false))
        );
        assert!(
            paths(&["aws", "s3", "cp", "s3://b/agent", "/usr/local/bin/"])
                .contains(&("/usr/local/bin/agent".into(), false))
        );
        assert!(
            paths(&["aws", "s3", "sync", "s3://b/tools", "/opt/tools"])
                .contains(&("/opt/tools".into(), true))
        );
        assert!(paths(&["scp", "ops@h:/srv/p.sh", "."]).contains(&("./p.sh".into(), false)));
        assert!(
            paths(&["rsync", "-a", "h:/rel/", "/tmp/rel/"]).contains(&("/tmp/rel".into(), true))
        );
        assert!(
            paths(&["pip", "download", "x", "-d", "/tmp/p"]).contains(&("/tmp/p".into(), true))
        );
        assert_eq!(
            paths(&["npm", "pack", "@acme/cli@2.0.0"]),
            [("acme-cli-*.tgz".into(), false)]
        );
        assert!(paths(&["docker", "cp", "b:/out/app", "./app"]).contains(&("./app".into(), false)));
        // Uploads and local copies fetch nothing.
        assert!(paths(&["aws", "s3", "cp", "a.txt", "s3://b/a.txt"]).is_empty());
        assert!(paths(&["scp", "a.txt", "h:/tmp/"]).is_empty());
        assert!(paths(&["npm", "pack"]).is_empty());
        assert!(paths(&["docker", "cp", "./a", "c:/a"]).is_empty());
    }

    #[test]
    fn extractions() {
        assert_eq!(
            extraction(&cmd(&["tar", "xz", "-C", "/opt"])),
            Some((None, Some("/opt")))
        );
        assert_eq!(
            extraction(&cmd(&["tar", "-xzf", "a.tgz"])),
            Some((Some("a.tgz"), None))
        );
        assert_eq!(
            extraction(&cmd(&["unzip", "-o", "/tmp/y.zip", "-d", "/tmp/y"])),
            Some((Some("/tmp/y.zip"), Some("/tmp/y")))
        );
        assert_eq!(extraction(&cmd(&["tar", "tzf", "a.tgz"])), None);
        assert_eq!(extraction(&cmd(&["unzip", "-l", "a.zip"])), None);
        assert_eq!(extracted_dirs("/tmp/pkg-1.2.tar.gz"), ["pkg-1.2"]);
    }
}
