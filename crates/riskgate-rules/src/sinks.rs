//! Where a command's output goes, for rules that print secrets: output piped into a reducer
//! that shows no value — `jq 'keys'`, `jq length`, `jq '.api_url.value'` (one field that is
//! not secret-named), `wc`, `grep -c`/`-q` — exposes names or counts, not the secrets, so the
//! finding is capped at MEDIUM. Everything else (the terminal, `jq .`, `grep`, `tee`, a file,
//! the network) keeps the rule's level. Output captured into a variable (`X=$(cat .env)`) is
//! not reduced: the secret stays in the shell, for the environment of every later program.

use riskgate_model::Finding;
use riskgate_shell::StdinSource;

use crate::matcher::CommandView;

/// Words that name a secret in a jq path (`.db_password`, `.data.token`).
const SECRET_WORDS: &[&str] = &[
    "pass", "secret", "token", "key", "cred", "auth", "private", "cert",
];

/// Segments that hold secrets as a whole (`.data` of a Kubernetes Secret, `.env`).
const SECRET_SEGMENTS: &[&str] = &["data", "stringdata", "env", "environment", "config"];

/// grep's options that print a count or nothing instead of the matching lines.
const COUNTS_ONLY: &[&str] = &["-c", "--count", "-q", "--quiet", "--silent"];

/// The reducer that the output of command `i` is piped into, if it shows no secret value.
pub(crate) fn reducer(views: &[CommandView<'_>], i: usize) -> Option<String> {
    let consumer = views
        .iter()
        .find(|v| matches!(v.cmd.stdin, Some(StdinSource::Pipe { index }) if index == i))?;
    // The reducer's own output must not be written somewhere else or piped on to a sender:
    // only a terminal (or another reducer) keeps it a display of names.
    if !consumer.write_targets.is_empty() {
        return None;
    }
    let positionals: Vec<&str> = consumer.positionals.iter().map(|p| &*p.text).collect();
    let reduced = match consumer.cmd.program.as_str() {
        "wc" => true,
        "grep" | "egrep" | "rg" => consumer
            .flags
            .iter()
            .any(|f| COUNTS_ONLY.contains(f) || matches!(*f, "-l" | "--files-with-matches")),
        "jq" | "yq" => positionals
            .first()
            .is_some_and(|f| jq_filter_shows_no_secret(f)),
        _ => false,
    };
    if !reduced {
        return None;
    }
    // piped on: the next stage must be a reducer too (or nothing)
    let j = consumer.index;
    if views
        .iter()
        .any(|v| matches!(v.cmd.stdin, Some(StdinSource::Pipe { index }) if index == j))
    {
        return reducer(views, j);
    }
    Some(consumer.canonical.clone())
}

/// A command whose output is thrown away (`> /dev/null`), or a search of named files that
/// prints a count or nothing (`grep -c '' .env`, `grep -q '^API_KEY=' .env`): its own output
/// shows no secret value. A recursive search is not one:
/// the names it finds are where the secrets are (`grep -rl 'BEGIN RSA PRIVATE KEY' /home`).
pub(crate) fn shows_no_content(v: &CommandView<'_>) -> Option<String> {
    // standard output thrown away (`op read … > /dev/null && echo present`)
    if v.cmd.redirects.iter().any(|r| {
        matches!(r.op.as_str(), ">" | "1>" | ">|" | "&>")
            && matches!(r.target.text.as_str(), "/dev/null" | "nul" | "NUL")
    }) {
        return Some(format!("{} > /dev/null", v.cmd.program));
    }
    let reduced = matches!(v.cmd.program.as_str(), "grep" | "egrep" | "fgrep" | "rg")
        && v.flags.iter().any(|f| COUNTS_ONLY.contains(f))
        && !v.flags.iter().any(|f| {
            matches!(
                *f,
                "-r" | "-R"
                    | "--recursive"
                    | "--dereference-recursive"
                    | "-l"
                    | "--files-with-matches"
                    | "-L"
                    | "--files-without-match"
                    | "--passthru"
                    | "--json"
            )
        });
    if reduced || prints_keys_only(v) {
        return Some(v.canonical.clone());
    }
    None
}

/// `cut -d= -f1 .env`, `awk -F= '{print $1}' .env`: the names before each `=`, never a value.
fn prints_keys_only(v: &CommandView<'_>) -> bool {
    let raw: Vec<&str> = v
        .cmd
        .raw_argv
        .iter()
        .skip(1)
        .map(|w| w.text.as_str())
        .collect();
    let pair = |short: &str, long: &str, want: &str| {
        raw.iter().enumerate().any(|(k, t)| {
            let t = t.trim_matches(['\'', '"']);
            t == format!("{short}{want}")
                || t == format!("{long}={want}")
                || (t == short || t == long)
                    && raw
                        .get(k + 1)
                        .is_some_and(|n| n.trim_matches(['\'', '"']) == want)
        })
    };
    match v.cmd.program.as_str() {
        "cut" => pair("-d", "--delimiter", "=") && pair("-f", "--fields", "1"),
        "awk" | "gawk" | "mawk" => {
            pair("-F", "--field-separator", "=")
                && raw.iter().any(|t| {
                    let p: String = t.chars().filter(|c| !c.is_whitespace()).collect();
                    p == "{print$1}"
                })
        }
        _ => false,
    }
}

/// The one field a secret-store read selects with its own option, when its name is not
/// secret-looking (`vault kv get -field=username …`, `op item get X --fields username`): the
/// command prints that field only.
pub(crate) fn own_field(v: &CommandView<'_>) -> Option<String> {
    let raw: Vec<&str> = v.cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
    // `grep LOG_LEVEL .env`, `rg '^PORT=' .env.local`: the lines of one plain key
    if matches!(v.cmd.program.as_str(), "grep" | "egrep" | "rg") {
        let inverted = v.cmd.inverts_match();
        let at = crate::matcher::search_pattern_index(v.cmd)?;
        let pattern = v.cmd.args.get(at).map(|a| a.text.clone())?;
        let key = pattern
            .trim_start_matches('^')
            .trim_end_matches('=')
            .to_ascii_lowercase();
        let plain = !inverted
            && key.len() > 1
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !SECRET_WORDS.iter().any(|w| key.contains(w))
            // connection strings carry their passwords (`DATABASE_URL`, `REDIS_DSN`)
            && !["url", "uri", "dsn", "conn"].iter().any(|w| key.contains(w));
        return plain.then(|| format!("{} {pattern}", v.cmd.program));
    }
    let options: &[&str] = match v.cmd.program.as_str() {
        "vault" => &["-field", "--field"],
        "op" => &["--fields"],
        _ => return None,
    };
    let value = raw.iter().enumerate().find_map(|(k, t)| {
        options.iter().find_map(|o| {
            if t == o {
                raw.get(k + 1).copied()
            } else {
                t.strip_prefix(o).and_then(|r| r.strip_prefix('='))
            }
        })
    })?;
    let name = value
        .strip_prefix("label=")
        .unwrap_or(value)
        .to_ascii_lowercase();
    let plain = !name.is_empty()
        && !name.contains(',')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !SECRET_WORDS.iter().any(|w| name.contains(w));
    plain.then(|| format!("{} {value}", v.cmd.program))
}

/// A jq filter that prints key names, a count, a type, or one field whose path names nothing
/// secret.
fn jq_filter_shows_no_secret(filter: &str) -> bool {
    let f = filter.trim();
    let f = f.strip_suffix("| length").unwrap_or(f).trim();
    if matches!(
        f,
        "keys" | "keys[]" | "keys_unsorted" | "length" | "type" | "map(keys)" | ".[] | keys"
    ) || f.starts_with("has(")
    {
        return true;
    }
    // `.a.b.c` / `.a[0].b`: a path of plain names, none of them secret-looking
    let Some(path) = f.strip_prefix('.') else {
        return false;
    };
    path.split(['.', '[', ']']).any(|seg| !seg.is_empty())
        && path.len() <= 200
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '-'))
        && path
            .split(['.', '[', ']'])
            .filter(|s| !s.is_empty())
            .all(|seg| {
                let seg = seg.to_ascii_lowercase();
                !SECRET_WORDS.iter().any(|w| seg.contains(w))
                    && !SECRET_SEGMENTS.contains(&seg.as_str())
            })
}

/// Cap `f` at MEDIUM: the secrets it prints only reach `reducer`.
pub(crate) fn cap_for_reducer(f: &mut Finding, reducer: &str) {
    crate::envscope::cap_at_medium(
        f,
        &format!(
            "the output only reaches `{reducer}`, which shows no secret value: at most MEDIUM"
        ),
    );
}

/// Whether a rule with `tags` is about secrets printed to the terminal (and may be reduced):
/// `data-exposure`, but not a secret written on the command line (`secret-exposure`: the
/// argv is the exposure, whatever the output), data made public (`exposure`), traffic or disks
/// copied (`interception`, `disk`, `filesystem`) or data sent away (`exfiltration`).
pub(crate) fn prints_secrets(tags: &[impl AsRef<str>]) -> bool {
    tags.iter().any(|t| t.as_ref() == "data-exposure")
        && !tags.iter().any(|t| {
            matches!(
                t.as_ref(),
                "exfiltration" | "exposure" | "interception" | "disk" | "filesystem"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jq_filters() {
        for f in [
            "keys",
            "length",
            ".api_url.value",
            ".items[0].metadata.name",
            "keys | length",
        ] {
            assert!(jq_filter_shows_no_secret(f), "{f}");
        }
        for f in [
            ".",
            ".data",
            ".db_password.value",
            ".data.token",
            "",
            ".[]",
            "map(.value)",
        ] {
            assert!(!jq_filter_shows_no_secret(f), "{f}");
        }
    }
}
