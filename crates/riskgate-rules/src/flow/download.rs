//! Downloads later executed: a file a download wrote, run as a script, a program or a package.

use riskgate_model::{Finding, RiskLevel};
use riskgate_shell::{ParsedCommand, SimpleCommand};

use super::{MAX_TRACKED, both, raw, same_file, span_text};

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

pub(super) fn download_exec_findings(parsed: &ParsedCommand) -> Vec<Finding> {
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
