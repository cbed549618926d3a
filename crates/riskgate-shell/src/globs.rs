//! Pathname globs in arguments, resolved against the credential files every machine has.
//!
//! `cat ~/.s*/id_rsa` reads `~/.ssh/id_rsa` once bash expands it, but no rule about SSH keys
//! can see that in the text. Nothing here reads the disk: each argument that is a glob is
//! matched against a fixed list of well-known sensitive paths, and those it would match are
//! added as arguments after it. `/home/$USER/…` and `/Users/$USER/…` count as the home token.

/// Files the rules watch besides the credential stores of [`riskgate_model::credentials`]:
/// persistence and trust files, and files inside the credential directories.
const ALSO_WATCHED: &[&str] = &[
    "~/.ssh/authorized_keys",
    "~/.ssh/known_hosts",
    "~/.ssh/config",
    "/root/.ssh/authorized_keys",
    "~/.azure/accessTokens.json",
    "~/.config/gcloud/credentials.db",
    "~/.config/gcloud/application_default_credentials.json",
    "~/.gnupg/private-keys-v1.d",
];

/// Well-known sensitive paths a glob is tried against (`~` is the home token): the credential
/// table plus [`ALSO_WATCHED`].
fn sensitive_paths() -> &'static [String] {
    use riskgate_model::credentials::{HISTORY, HOME_CREDENTIALS, SSH_KEYS, SYSTEM_SECRETS};
    static PATHS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        let mut v: Vec<String> = Vec::new();
        for k in SSH_KEYS {
            v.push(format!("~/.ssh/{k}"));
            v.push(format!("/root/.ssh/{k}"));
        }
        let home = HOME_CREDENTIALS.iter().chain(HISTORY);
        v.extend(home.map(|c| format!("~/{}", c.trim_end_matches('/'))));
        v.extend(SYSTEM_SECRETS.iter().map(|s| s.to_string()));
        v.extend(ALSO_WATCHED.iter().map(|s| s.to_string()));
        v
    });
    &PATHS
}

/// Most glob arguments resolved in one command.
const MAX_GLOBS: usize = 16;

/// The sensitive paths `arg` would expand to, when it is a glob.
pub(crate) fn sensitive_matches(arg: &str) -> Vec<&'static str> {
    if !arg.contains(['*', '?', '[']) || arg.len() > 4096 {
        return Vec::new();
    }
    // `**/` matches any number of directories; the well-known paths sit right under their
    // directory, so zero of them is what matters.
    let pattern = home_token(arg).replace("/**/", "/");
    sensitive_paths()
        .iter()
        .map(String::as_str)
        .filter(|p| glob_match(pattern.as_bytes(), p.as_bytes()))
        .collect()
}

/// Append to `args` the sensitive paths its glob arguments would expand to.
pub(crate) fn expand(args: &mut Vec<crate::Word>) {
    let mut extra: Vec<&'static str> = Vec::new();
    for a in args
        .iter()
        .filter(|a| !a.text.starts_with('-'))
        .take(MAX_GLOBS)
    {
        for m in sensitive_matches(&a.text) {
            if !extra.contains(&m) {
                extra.push(m);
            }
        }
    }
    args.extend(extra.into_iter().map(|t| crate::Word {
        text: t.to_string(),
        dynamic: false,
    }));
}

/// Programs whose positional arguments are paths resolved against the working directory.
const PATH_PROGRAMS: &[&str] = &[
    "rm", "rmdir", "shred", "unlink", "truncate", "mv", "cp", "chmod", "chown", "chgrp", "find",
    "ln", "srm", "wipe",
];

/// After `cd DIR`: the relative path operands of file programs, made relative to DIR
/// (`cd /srv/backups && rm -f *.gz` removes `/srv/backups/*.gz`; `cd / && rm -rf *` is `/*`).
/// Only path operands: never options, the mode of `chmod` (`u+s`, `755`), the owner of
/// `chown`/`chgrp`, find's expression after its start paths, or `{}` / `;` / `+`.
pub(crate) fn under_cwd(program: &str, cwd: &str, args: &mut [crate::Word]) {
    if !PATH_PROGRAMS.contains(&program) {
        return;
    }
    // `chmod MODE FILE…`, `chown OWNER FILE…`: the first operand is not a path, unless a
    // `--reference=FILE` stands for it or the mode was written like an option (`chmod -w f`).
    let mode_as_option = program == "chmod"
        && args.iter().any(|a| {
            a.text.len() > 1
                && a.text.starts_with('-')
                && a.text[1..].chars().all(|c| "rwxXst".contains(c))
        });
    let mut skip_first = matches!(program, "chmod" | "chown" | "chgrp")
        && !mode_as_option
        && !args.iter().any(|a| a.text.starts_with("--reference"));
    let mut after_dd = false;
    let mut find_expr = false;
    for a in args.iter_mut() {
        if find_expr {
            break;
        }
        if a.text == "--" && !after_dd {
            after_dd = true;
            continue;
        }
        let option = !after_dd && a.text.starts_with('-');
        if program == "find" {
            // find [-H|-L|-P|-Olevel] START… EXPRESSION: only the start paths are paths.
            if matches!(a.text.as_str(), "-H" | "-L" | "-P") || a.text.starts_with("-O") {
                continue;
            }
            if option || matches!(a.text.as_str(), "(" | "!" | ")" | "\\(" | "\\!") {
                find_expr = true;
                continue;
            }
        }
        if option {
            continue;
        }
        if skip_first {
            skip_first = false;
            continue;
        }
        if a.dynamic || a.text.is_empty() || a.text.contains("{}") || a.text == "+" || a.text == ";"
        {
            continue;
        }
        if let Some(p) = join_cwd(Some(cwd), &a.text) {
            a.text = p;
        }
    }
}

/// `path` seen from `cwd`: absolute and `~` paths as they are, `.`/`./x`/`x` under `cwd`, `..`
/// steps removed; `None` when the result is unknown.
pub(crate) fn join_cwd(cwd: Option<&str>, path: &str) -> Option<String> {
    if path.starts_with('/') || path == "~" || path.starts_with("~/") {
        return Some(path.to_string());
    }
    if path.starts_with(['$', '~']) || path.contains(['=', ':']) {
        return None;
    }
    let base = cwd?.trim_end_matches('/');
    let mut parts: Vec<&str> = base.split('/').collect();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    Some(if joined.is_empty() {
        "/".to_string()
    } else {
        joined
    })
}

/// `/home/$USER/x`, `/Users/${USER}/x`, `$HOME/x` → `~/x`.
fn home_token(arg: &str) -> String {
    for prefix in ["/home/", "/Users/"] {
        if let Some(rest) = arg.strip_prefix(prefix) {
            for user in ["$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "*"] {
                if let Some(tail) = rest.strip_prefix(user)
                    && (tail.is_empty() || tail.starts_with('/'))
                {
                    return format!("~{tail}");
                }
            }
        }
    }
    arg.to_string()
}

/// Shell pathname matching: `*` and `?` do not cross `/` and do not match a leading `.` of a
/// name; `[…]` classes with ranges and `!`/`^` negation. Iterative, linear in practice.
pub(crate) fn glob_match(pat: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let at_name_start = t == 0 || text[t - 1] == b'/';
        match pat.get(p) {
            Some(b'*') if !(at_name_start && text[t] == b'.') || star_in_name(pat, p) => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(b'?') if text[t] != b'/' && !(at_name_start && text[t] == b'.') => {
                p += 1;
                t += 1;
                continue;
            }
            Some(b'[') => {
                if let Some((ok, next)) = class(pat, p, text[t])
                    && ok
                    && text[t] != b'/'
                {
                    p = next;
                    t += 1;
                    continue;
                }
            }
            Some(&c) if c != b'*' && c != b'?' && c == text[t] => {
                p += 1;
                t += 1;
                continue;
            }
            _ => {}
        }
        // Backtrack: let the last `*` take one more byte, never a `/`.
        match star {
            Some((sp, st)) if text.get(st) != Some(&b'/') => {
                star = Some((sp, st + 1));
                p = sp + 1;
                t = st + 1;
            }
            _ => return false,
        }
    }
    pat[p..].iter().all(|&c| c == b'*')
}

/// A `*` after other pattern bytes of the same name (`.s*`): it may match anything.
fn star_in_name(pat: &[u8], p: usize) -> bool {
    p > 0 && pat[p - 1] != b'/'
}

/// Whether the class starting at `pat[p] == b'['` matches `c`, and where it ends.
fn class(pat: &[u8], p: usize, c: u8) -> Option<(bool, usize)> {
    let mut i = p + 1;
    let negate = matches!(pat.get(i), Some(b'!') | Some(b'^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&b) = pat.get(i) {
        if b == b']' && !first {
            return Some((matched != negate, i + 1));
        }
        first = false;
        if pat.get(i + 1) == Some(&b'-') && pat.get(i + 2).is_some_and(|&e| e != b']') {
            let e = pat[i + 2];
            matched |= b <= c && c <= e;
            i += 3;
        } else {
            matched |= b == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_find_the_credentials_they_would_expand_to() {
        assert_eq!(sensitive_matches("~/.s*/id_rsa"), ["~/.ssh/id_rsa"]);
        assert!(sensitive_matches("~/.ss?/id_*").contains(&"~/.ssh/id_ed25519"));
        assert_eq!(
            sensitive_matches("/home/$USER/.aws/cred*"),
            ["~/.aws/credentials"]
        );
        assert_eq!(sensitive_matches("/etc/sh[a-z]dow"), ["/etc/shadow"]);
        assert!(sensitive_matches("~/.ssh/*").len() >= 4);
    }

    fn cwd_args(program: &str, args: &[&str]) -> Vec<String> {
        let mut v: Vec<crate::Word> = args
            .iter()
            .map(|t| crate::Word {
                text: t.to_string(),
                dynamic: false,
            })
            .collect();
        under_cwd(program, "/srv", &mut v);
        v.into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn only_path_operands_follow_cd() {
        assert_eq!(
            cwd_args("chmod", &["u+s", "/bin/bash"]),
            ["u+s", "/bin/bash"]
        );
        assert_eq!(
            cwd_args("chmod", &["--recursive", "777", "x"]),
            ["--recursive", "777", "/srv/x"]
        );
        assert_eq!(cwd_args("chmod", &["-w", "x"]), ["-w", "/srv/x"]);
        assert_eq!(cwd_args("chown", &["root", "x"]), ["root", "/srv/x"]);
        assert_eq!(
            cwd_args(
                "find",
                &["-L", ".", "-maxdepth", "1", "-exec", "rm", "{}", "+"]
            ),
            ["-L", "/srv", "-maxdepth", "1", "-exec", "rm", "{}", "+"]
        );
        assert_eq!(
            cwd_args("rm", &["--force", "a", "{}", "--", "-x"]),
            ["--force", "/srv/a", "{}", "--", "/srv/-x"]
        );
    }

    #[test]
    fn ordinary_globs_and_literals_find_nothing() {
        assert!(sensitive_matches("*.log").is_empty());
        assert!(sensitive_matches("~/.ssh/id_rsa").is_empty());
        assert!(sensitive_matches("src/**/*.rs").is_empty());
        // `*` does not match a leading dot or cross `/`.
        assert!(sensitive_matches("~/*/id_rsa").is_empty());
        assert!(sensitive_matches("~/*").is_empty());
        assert!(sensitive_matches("[").is_empty());
    }
}
