//! The checks of a script's templates and secrets: untrusted event text interpolated into it,
//! every secret dumped, a secret printed to the log or sent in a request.

use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

use super::untrusted::from_tainted_step;
use crate::snippet::{Extracted, position_in};
use crate::text::normalize_gha;

/// Whether a value holds a secret (`${{ secrets.X }}`).
pub(crate) fn mentions_secrets(v: &str) -> bool {
    normalize_gha(v)
        .1
        .iter()
        .any(|t| t.expr.to_ascii_lowercase().contains("secrets."))
}

/// Whether a checkout `ref:` (or a script) names the pull request's head or merge commit.
pub(crate) fn names_pr_head(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    l.contains("github.event.pull_request.head")
        || l.contains("github.head_ref")
        || l.contains("pull_request.merge_commit_sha")
        || l.contains("refs/pull/")
}

/// Whether a script fetches and checks out the pull request's code.
pub(crate) fn fetches_pr_head(script: &str) -> bool {
    let l = script.to_ascii_lowercase();
    l.contains("gh pr checkout")
        || (l.contains("git fetch")
            && l.contains("pull/")
            && (l.contains("/head") || l.contains("/merge")))
        || ((l.contains("git checkout") || l.contains("git switch")) && names_pr_head(&l))
}

/// Fields of `github.event` whose text no outsider chooses freely (numbers, ids, hashes, flags,
/// dates, names restricted to `[A-Za-z0-9._-]`).
const SAFE_EVENT_FIELDS: &[&str] = &[
    "number",
    "id",
    "node_id",
    "sha",
    "before",
    "after",
    "action",
    "state",
    "merged",
    "draft",
    "created_at",
    "updated_at",
    "closed_at",
    "merged_at",
    "pushed_at",
    "size",
    "run_id",
    "run_number",
    "run_attempt",
    "forced",
    "private",
    "fork",
    "html_url",
    "url",
    "full_name",
    "login",
    "default_branch",
    "visibility",
    "commits",
    "additions",
    "deletions",
    "changed_files",
    "comments",
    "merge_commit_sha",
    "workflow_id",
    "check_suite_id",
    "conclusion",
    "status",
    "type",
    "installation",
];

/// Whether a template expression pastes text that outsiders write (titles, bodies, comments,
/// branch names, commit messages …).
pub(crate) fn is_untrusted(expr: &str) -> bool {
    let l = expr.to_ascii_lowercase();
    if l.contains("github.head_ref") {
        return true;
    }
    let mut rest = l.as_str();
    while let Some(i) = rest.find("github.event.") {
        let after = &rest[i + "github.event.".len()..];
        let end = after
            .find(|c: char| {
                !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '[' | ']' | '*'))
            })
            .unwrap_or(after.len());
        let path = &after[..end];
        rest = &after[end..];
        if path.starts_with("inputs.") || path.starts_with("inputs[") {
            continue;
        }
        let last = path
            .rsplit('.')
            .next()
            .unwrap_or(path)
            .split('[')
            .next()
            .unwrap_or("");
        if last.is_empty() || last.ends_with("_sha") || SAFE_EVENT_FIELDS.contains(&last) {
            continue;
        }
        return true;
    }
    false
}

/// Check the templates and secrets of one script (`value`, as written, whose lines are at
/// `lines`); `env` names the variables holding secrets; `shell` when the script is a shell
/// script (secrets printed or sent are looked for in its commands).
pub(crate) fn templates(
    out: &mut Extracted,
    value: &str,
    lines: &[(u32, u32)],
    ctx: &str,
    env: &[String],
    shell: bool,
    tainted: &[String],
) {
    let (normalized, found) = normalize_gha(value);
    for t in &found {
        let pos = position_in(value, lines, t.offset);
        let squashed: String = t.expr.chars().filter(|c| !c.is_whitespace()).collect();
        if squashed.to_ascii_lowercase().contains("tojson(secrets)") {
            out.notice(
                "gha.secrets-dumped",
                pos,
                format!("${{{{ {} }}}}", t.expr),
                ctx,
            );
        } else if is_untrusted(&t.expr) || from_tainted_step(&t.expr, tainted) {
            out.notice(
                "gha.event-in-run",
                pos,
                format!("${{{{ {} }}}}", t.expr),
                ctx,
            );
        }
    }
    if !shell {
        return;
    }
    let has_template_secret = found
        .iter()
        .any(|t| t.expr.to_ascii_lowercase().contains("secrets."));
    if !has_template_secret && !env.iter().any(|n| normalized.contains(n.as_str())) {
        return;
    }
    let parsed = riskgate_shell::parse(&normalized);
    let secret = |w: &str| mentions_secret_word(w, env);
    for (i, c) in parsed.commands.iter().enumerate() {
        let pos = position_in(&normalized, lines, c.span.start);
        let shown = parsed
            .source
            .get(c.span.start..c.span.end)
            .unwrap_or("")
            .chars()
            .take(160)
            .collect::<String>();
        if is_printer(c)
            && c.raw_argv.iter().skip(1).any(|w| secret(&w.text))
            && printed(&parsed, i)
        {
            out.notice("gha.secret-echoed", pos, shown, ctx);
        } else if is_network(c) && sends_secret(c, &secret) {
            out.notice("gha.secret-sent", pos, shown, ctx);
        } else if is_network(c)
            && let Some(StdinSource::Pipe { index }) = &c.stdin
            && parsed.commands.get(*index).is_some_and(|p| {
                is_printer(p) && p.raw_argv.iter().skip(1).any(|w| secret(&w.text))
            })
        {
            out.notice("gha.secret-sent", pos, shown, ctx);
        }
    }
}

/// Whether a word holds a secret: a `secrets.*` template, or a variable of `env` (`$T`, `${T}`).
pub(crate) fn mentions_secret_word(w: &str, env: &[String]) -> bool {
    if w.contains("TPL_SECRETS_") {
        return true;
    }
    env.iter().any(|name| {
        w.contains(&format!("${{{name}}}"))
            || w.match_indices(&format!("${name}")).any(|(i, m)| {
                !w[i + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
    })
}

pub(crate) fn is_printer(c: &SimpleCommand) -> bool {
    matches!(c.program.as_str(), "echo" | "printf" | "print")
}

fn is_network(c: &SimpleCommand) -> bool {
    matches!(
        c.program.as_str(),
        "curl" | "wget" | "nc" | "ncat" | "netcat" | "socat" | "telnet" | "http" | "https" | "xh"
    )
}

/// Programs that pass their input on to the log unchanged or merely encoded.
fn passes_through(c: &SimpleCommand) -> bool {
    matches!(
        c.program.as_str(),
        "base64"
            | "xxd"
            | "od"
            | "hexdump"
            | "rev"
            | "tr"
            | "sed"
            | "awk"
            | "cat"
            | "head"
            | "tail"
            | "cut"
            | "fold"
            | "tee"
            | "sort"
    )
}

pub(crate) fn writes_to_file(c: &SimpleCommand) -> bool {
    c.redirects.iter().any(|r| {
        matches!(r.op.as_str(), ">" | ">>" | ">|" | "&>" | "&>>" | "1>")
            && !matches!(
                r.target.text.as_str(),
                "/dev/stdout" | "/dev/stderr" | "/dev/tty"
            )
    }) || (c.program == "tee" && c.positionals().next().is_some())
}

/// Whether the output of command `i` reaches the log: not written to a file, and not piped
/// into a program that consumes it (`docker login --password-stdin`).
fn printed(parsed: &ParsedCommand, i: usize) -> bool {
    let mut at = i;
    for _ in 0..16 {
        let Some(c) = parsed.commands.get(at) else {
            return false;
        };
        if writes_to_file(c) {
            return false;
        }
        let next = parsed
            .commands
            .iter()
            .position(|d| matches!(&d.stdin, Some(StdinSource::Pipe { index }) if *index == at));
        match next {
            None => return true,
            Some(n) => {
                let Some(d) = parsed.commands.get(n) else {
                    return true;
                };
                if !passes_through(d) {
                    return false;
                }
                at = n;
            }
        }
    }
    true
}

/// Options of network clients that carry credentials the way the service expects them.
const AUTH_OPTIONS: &[&str] = &[
    "-H",
    "--header",
    "-u",
    "--user",
    "--oauth2-bearer",
    "-E",
    "--cert",
    "--key",
    "--pass",
    "--proxy-user",
    "--http-user",
    "--http-password",
    "--password",
    "--user=",
    "--header=",
];

/// Whether a network command sends a secret other than as authentication: in a data option,
/// a form field, a file upload or the address (a secret that *is* the whole address — a
/// webhook URL — is how such services work and is not counted).
fn sends_secret(c: &SimpleCommand, secret: &dyn Fn(&str) -> bool) -> bool {
    let words: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    for (i, w) in words.iter().enumerate() {
        if !secret(w) {
            continue;
        }
        let prev = if i > 0 {
            words.get(i - 1).copied()
        } else {
            None
        };
        if prev.is_some_and(|p| AUTH_OPTIONS.contains(&p)) {
            continue;
        }
        if AUTH_OPTIONS
            .iter()
            .any(|o| o.ends_with('=') && w.starts_with(o))
            || w.starts_with("--header=")
            || w.to_ascii_lowercase().starts_with("authorization:")
        {
            continue;
        }
        let bare = w.trim_matches(['"', '\'']);
        let whole_variable =
            (bare.starts_with("${") && bare.ends_with('}') && !bare[2..].contains('$'))
                || (bare.starts_with('$')
                    && bare[1..]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_'));
        if whole_variable && !prev.is_some_and(|p| p.starts_with('-')) {
            continue;
        }
        return true;
    }
    false
}

/// Whether a shell script dumps the whole environment (`env`, `printenv`, `export -p`,
/// `declare -x`, `set` without arguments).
pub(crate) fn dumps_environment(script: &str) -> bool {
    let (text, _) = normalize_gha(script);
    let parsed = riskgate_shell::parse(&text);
    parsed.commands.iter().any(|c| {
        let args: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
        match c.program.as_str() {
            "env" | "printenv" => args.is_empty() || args == ["-0"],
            "export" => args == ["-p"],
            "declare" | "typeset" => {
                args.iter().all(|a| a.starts_with('-'))
                    && args.iter().any(|a| a.contains('x') || a.contains('p'))
            }
            "set" => args.is_empty(),
            _ => false,
        }
    })
}
