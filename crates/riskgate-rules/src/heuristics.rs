//! Seed 004's heuristic stage: facts the normalizer noticed ([`Signal`]s: download piped to a
//! shell, encoded payloads, dynamic program names, eval of dynamic text), incomplete analysis
//! ([`ParseIssue`]s), IP literals, obfuscated text, and destructive commands on a path built
//! from a variable that may be empty (`rm -rf "$DIR/"`).

use riskgate_model::{Finding, RiskLevel, Span};
use riskgate_shell::{ParseIssue, ParsedCommand, Signal};

use crate::matcher::CommandView;
use crate::scoring::{self, ExecClass};

fn span_of(parsed: &ParsedCommand, indexes: &[usize]) -> Option<Span> {
    let spans: Vec<Span> = indexes
        .iter()
        .filter_map(|i| parsed.commands.get(*i).map(|c| c.span))
        .collect();
    let start = spans.iter().map(|s| s.start).min()?;
    let end = spans.iter().map(|s| s.end).max()?;
    Some(Span::new(start, end))
}

fn program(parsed: &ParsedCommand, i: usize) -> &str {
    parsed
        .commands
        .get(i)
        .map(|c| c.program.as_str())
        .filter(|p| !p.is_empty())
        .unwrap_or("?")
}

fn matched(parsed: &ParsedCommand, span: Option<Span>) -> String {
    span.and_then(|s| parsed.source.get(s.start..s.end))
        .unwrap_or("")
        .to_string()
}

/// Findings from the normalizer's signals.
pub(crate) fn signal_findings(parsed: &ParsedCommand, views: &[CommandView<'_>]) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &parsed.signals {
        let (finding, idx): (Finding, Vec<usize>) = match s {
            Signal::DownloadToShell { downloader, shell } => (
                Finding::new(
                    "heuristic.download-to-shell",
                    RiskLevel::High,
                    75,
                    format!(
                        "Downloads code with `{}` and runs it with `{}` without review",
                        program(parsed, *downloader),
                        program(parsed, *shell)
                    ),
                )
                .reversible(false)
                .with_mitigation(
                    "Download to a file, inspect it (and verify a checksum), then run it",
                ),
                vec![*downloader, *shell],
            ),
            Signal::EncodedToShell { decoder, shell, decoded } => (
                Finding::new(
                    "heuristic.encoded-payload",
                    RiskLevel::High,
                    if *decoded { 65 } else { 75 },
                    if *decoded {
                        format!(
                            "Runs an encoded payload (decoded with `{}`) in `{}`: obfuscation hides what runs",
                            program(parsed, *decoder),
                            program(parsed, *shell)
                        )
                    } else {
                        format!(
                            "Runs an encoded payload that could not be decoded (`{}` into `{}`)",
                            program(parsed, *decoder),
                            program(parsed, *shell)
                        )
                    },
                )
                .reversible(false)
                .with_mitigation("Run the decoded commands directly so they can be reviewed"),
                vec![*decoder, *shell],
            ),
            Signal::DynamicProgram { index } => {
                let destructive = views
                    .get(*index)
                    .map(|v| {
                        v.positionals.iter().map(|p| scoring::path_danger(&p.text).0).max().unwrap_or(0)
                            >= 20
                            || v.flags.iter().any(|f| matches!(*f, "-r" | "-R" | "--recursive"))
                    })
                    .unwrap_or(false);
                (
                    Finding::new(
                        "heuristic.dynamic-program",
                        if destructive { RiskLevel::High } else { RiskLevel::Medium },
                        if destructive { 68 } else { 50 },
                        "The program name is only known at run time: what runs cannot be checked",
                    )
                    .reversible(!destructive)
                    .with_mitigation("Name the program literally"),
                    vec![*index],
                )
            }
            Signal::DynamicEval { index } => (
                Finding::new(
                    "heuristic.dynamic-eval",
                    RiskLevel::Medium,
                    55,
                    "Evaluates text that is only known at run time",
                )
                .with_mitigation("Run the commands directly instead of through eval"),
                vec![*index],
            ),
            Signal::RecursiveFork { name, index } => (
                Finding::new(
                    "heuristic.fork-bomb",
                    RiskLevel::Critical,
                    95,
                    format!(
                        "`{name}` calls itself more than once per call: a fork bomb that exhausts the process table"
                    ),
                )
                .reversible(false)
                .with_mitigation("Do not run it; to test process limits, use a container with `ulimit -u`"),
                vec![*index],
            ),
            Signal::ShellFromStdin { index } => (
                Finding::new(
                    "heuristic.shell-from-stdin",
                    RiskLevel::Medium,
                    50,
                    format!(
                        "`{}` runs a script read from its input, whose content is not known",
                        program(parsed, *index)
                    ),
                )
                .with_mitigation("Inspect the script first, then run it by path"),
                vec![*index],
            ),
        };
        let span = span_of(parsed, &idx);
        let m = matched(parsed, span);
        out.push(finding.with_match(m, span));
    }
    out
}

/// The fail-safe finding for incomplete analysis.
pub(crate) fn parse_issue_finding(parsed: &ParsedCommand) -> Option<Finding> {
    if parsed.fully_parsed && parsed.issues.is_empty() {
        return None;
    }
    let detail = match parsed.issues.first() {
        Some(ParseIssue::Syntax { message }) => format!("syntax: {message}"),
        Some(ParseIssue::Word { message }) => format!("word: {message}"),
        Some(ParseIssue::Limit { message }) => format!("too complex: {message}"),
        None => "incomplete".to_string(),
    };
    Some(Finding::new(
        "heuristic.incomplete-analysis",
        RiskLevel::Medium,
        45,
        format!("The command could not be fully analyzed ({detail})"),
    ))
}

/// An IPv4 literal in a word (`1.2.3.4`, `1.2.3.4:80`, `user@1.2.3.4`, `http://1.2.3.4/x`).
pub(crate) fn ipv4_in(word: &str) -> Option<[u8; 4]> {
    let host = word.split_once("://").map(|(_, r)| r).unwrap_or(word);
    let host = host.rsplit_once('@').map(|(_, h)| h).unwrap_or(host);
    let host = host.split(['/', ':']).next().unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut out = [0u8; 4];
    for (o, p) in out.iter_mut().zip(&parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(out)
}

fn is_public(ip: [u8; 4]) -> bool {
    let private = matches!(
        ip,
        [10, ..] | [127, ..] | [0, ..] | [169, 254, ..] | [192, 168, ..]
    ) || (ip[0] == 172 && (16..32).contains(&ip[1]))
        || ip[0] >= 224;
    !private
}

/// Public IP literals given to network programs (hosts named by address, not by name).
pub(crate) fn ip_finding(views: &[CommandView<'_>]) -> Option<Finding> {
    for v in views {
        let class = scoring::executable(&v.cmd.program).class;
        if class != ExecClass::Network && v.cmd.remote.is_none() {
            continue;
        }
        for a in &v.cmd.args {
            if let Some(ip) = ipv4_in(&a.text)
                && is_public(ip)
            {
                let ip = format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3]);
                return Some(
                    Finding::new(
                        "heuristic.ip-literal",
                        RiskLevel::Low,
                        30,
                        format!("Connects to a raw IP address ({ip}) rather than a host name"),
                    )
                    .with_match(v.canonical.clone(), Some(v.cmd.span))
                    .with_resources(vec![format!("host:{ip}")]),
                );
            }
        }
    }
    None
}

/// Obfuscation in the raw text: `$IFS` separators, runs of hex/octal escapes, quotes splitting a
/// word (`r''m`, `c""url`).
pub(crate) fn obfuscation_finding(parsed: &ParsedCommand) -> Option<Finding> {
    let src = parsed.source.as_str();
    let b = src.as_bytes();
    let mut why = None;
    if src.contains("${IFS") || src.contains("$IFS") {
        why = Some("`$IFS` used as a separator");
    }
    if why.is_none() {
        let hex = src.matches("\\x").count();
        let octal = b
            .windows(4)
            .filter(|w| w[0] == b'\\' && w[1..].iter().all(|c| (b'0'..=b'7').contains(c)))
            .count();
        if hex >= 4 || octal >= 4 {
            why = Some("escaped bytes spelling out text");
        }
    }
    if why.is_none() {
        let split = b.windows(4).any(|w| {
            w[0].is_ascii_alphabetic()
                && ((w[1] == b'\'' && w[2] == b'\'') || (w[1] == b'"' && w[2] == b'"'))
                && w[3].is_ascii_alphabetic()
        });
        if split {
            why = Some("empty quotes splitting a word");
        }
    }
    why.map(|w| {
        Finding::new(
            "heuristic.obfuscation",
            RiskLevel::Medium,
            50,
            format!("The command text looks obfuscated ({w})"),
        )
        .with_mitigation("Write the command plainly")
    })
}

/// `rm -rf "$DIR/"` or `"$DIR"/*`: deletes from `/` when the variable is empty or unset.
pub(crate) fn empty_variable_finding(views: &[CommandView<'_>], source: &str) -> Option<Finding> {
    for v in views {
        // `rsync --delete SRC "$DEST/"`: the destination is emptied to match the source
        let mirror = v.cmd.program == "rsync" && v.has_flag("--delete");
        // `chmod -R 755 "$DIR/"`, `chown -R root: "${PREFIX}/"`: every file of `/` re-moded
        let recursive = v.has_flag("--recursive") || v.has_flag("-R");
        let permissions =
            matches!(v.cmd.program.as_str(), "chmod" | "chown" | "chgrp") && recursive;
        if !(mirror
            || permissions
            || scoring::executable(&v.cmd.program).class == ExecClass::Destroy && recursive)
            || scoring::is_dry_run(v)
        {
            continue;
        }
        let what = if permissions {
            "Recursive permission or ownership change"
        } else {
            "Recursive deletion"
        };
        let targets: Vec<&riskgate_shell::Word> = if mirror {
            v.cmd
                .args
                .iter()
                .filter(|a| !a.text.starts_with('-'))
                .skip(1)
                .collect()
        } else {
            v.cmd.args.iter().collect()
        };
        for w in targets {
            if w.dynamic && (var_then_root(&w.text) || unset_var_then_system(&w.text, source)) {
                return Some(
                    Finding::new(
                        "heuristic.empty-variable-path",
                        RiskLevel::High,
                        70,
                        format!(
                            "{what} of `{}`: if the variable is empty or unset this is `/`",
                            w.text
                        ),
                    )
                    .reversible(false)
                    .with_match(v.canonical.clone(), Some(v.cmd.span))
                    .with_mitigation("Use `${VAR:?}` so the shell stops when VAR is empty")
                    .with_resources(vec![format!("file:{}", w.text)]),
                );
            }
        }
    }
    None
}

/// `${OUT_DIR}/bin`, `$PREFIX/etc`: a variable the script never sets (no `NAME=`, `read …
/// NAME`, `for NAME`, `local NAME` in its text) before a path that, with the variable empty,
/// is a system, boot or root path.
fn unset_var_then_system(t: &str, source: &str) -> bool {
    let Some(rest) = t.strip_prefix('$') else {
        return false;
    };
    let (name, after) = match rest.strip_prefix('{') {
        Some(r) => match r.split_once('}') {
            Some((name, after)) if !name.contains([':', '?', '#', '%', '/', '-', '+', '=']) => {
                (name, after)
            }
            _ => return false,
        },
        None => {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    if name.is_empty() || !after.starts_with('/') || after.contains('$') || after.len() < 2 {
        return false;
    }
    let set = [
        format!("{name}="),
        format!("read {name}"),
        format!(" {name}\n"),
        format!("for {name} "),
        format!("local {name}"),
        format!("-r {name}"),
    ];
    if set.iter().any(|p| source.contains(p.as_str())) || matches!(name, "HOME" | "PWD" | "TMPDIR")
    {
        return false;
    }
    matches!(
        riskgate_model::effect::classify_path(after),
        riskgate_model::effect::TargetClass::Root
            | riskgate_model::effect::TargetClass::System
            | riskgate_model::effect::TargetClass::Boot
    )
}

/// `$X/`, `${X}/`, `$X/*`, `${X}/*`.
fn var_then_root(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('$') else {
        return false;
    };
    let rest = if let Some(r) = rest.strip_prefix('{') {
        match r.split_once('}') {
            Some((name, after)) if !name.contains([':', '?']) => after,
            _ => return false,
        }
    } else {
        rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
    };
    matches!(rest, "/" | "/*" | "/.*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_literals() {
        assert_eq!(ipv4_in("8.8.8.8"), Some([8, 8, 8, 8]));
        assert_eq!(ipv4_in("http://1.2.3.4:8080/x"), Some([1, 2, 3, 4]));
        assert_eq!(ipv4_in("root@203.0.113.9"), Some([203, 0, 113, 9]));
        assert_eq!(ipv4_in("foo==1.2.3.4a"), None);
        assert_eq!(ipv4_in("1.2.3"), None);
        assert_eq!(ipv4_in("999.1.1.1"), None);
        assert!(!is_public([192, 168, 1, 1]) && is_public([8, 8, 8, 8]));
    }

    #[test]
    fn empty_variable_paths() {
        assert!(var_then_root("$DIR/"));
        assert!(var_then_root("${STEAMROOT}/*"));
        assert!(!var_then_root("${DIR:?}/"));
        assert!(!var_then_root("$DIR/build"));
        assert!(unset_var_then_system(
            "${OUT_DIR}/bin",
            "rm -rf \"${OUT_DIR}/bin\""
        ));
        assert!(unset_var_then_system("$PREFIX/etc", "rm -rf $PREFIX/etc"));
        assert!(!unset_var_then_system(
            "${OUT_DIR}/bin",
            "OUT_DIR=dist\nrm -rf \"${OUT_DIR}/bin\""
        ));
        assert!(!unset_var_then_system("$DIR/build", "rm -rf $DIR/build"));
        assert!(!unset_var_then_system(
            "${OUT_DIR:?}/bin",
            "rm -rf ${OUT_DIR:?}/bin"
        ));
        assert!(!var_then_root("$DIR"));
    }
}
