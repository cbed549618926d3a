//! Throwaway credentials: a rule about a credential written on the command line
//! (`mysql -pSECRET`, `postgres://user:pass@host`, `docker run -e DB_PASSWORD=…`,
//! `PGPASSWORD=… psql`) exists because the secret lands in the shell history, the process list
//! and the agent's transcript. When every credential the command carries is a placeholder
//! (`test`, `dev`, `postgres`, `changeme`, the user name again) or only opens a server on the
//! loopback interface, nothing secret is exposed: the finding is capped at MEDIUM.
//!
//! Only rules tagged `credentials` are capped, never one that sends data away
//! (`exfiltration`), and only when at least one credential value was read and every one of
//! them is throwaway.

use std::sync::LazyLock;

use regex::Regex;
use riskgate_model::Finding;
use riskgate_model::secrets::is_secret_name;
use riskgate_shell::{ParsedCommand, SimpleCommand};

/// `scheme://user:password@host`.
static URL_CREDENTIALS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"[A-Za-z][A-Za-z0-9+.-]*://([^\s/:@]*):([^\s/@]+)@(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9._-]+)",
    )
    .ok()
});

/// [`URL_CREDENTIALS`] when `text` may hold a match (it has `://` and `@`): other text is not
/// searched, and a hook that never meets such text never builds the regex.
fn url_credentials_in(text: &str) -> Option<&'static Regex> {
    if text.contains("://") && text.contains('@') {
        URL_CREDENTIALS.as_ref()
    } else {
        None
    }
}

/// Values used as placeholders in examples, containers and local databases.
const PLACEHOLDERS: &[&str] = &[
    "password",
    "passw0rd",
    "pass",
    "pw",
    "pwd",
    "secret",
    "root",
    "admin",
    "postgres",
    "mysql",
    "mariadb",
    "guest",
    "user",
    "app",
    "default",
    "123456",
    "1234",
    "12345678",
    "qwerty",
    "letmein",
    "foo",
    "bar",
    "foobar",
    "mysecretpassword",
    "supersecret",
    "rootpassword",
    "redis",
    "minio",
    "minioadmin",
    "rabbitmq",
    "elastic",
    "neo4j",
    "sa",
];

/// Words that mark a value as a placeholder wherever they appear in it (`devpass`, `test123`).
const PLACEHOLDER_WORDS: &[&str] = &[
    "test",
    "dev",
    "local",
    "example",
    "dummy",
    "changeme",
    "change-me",
    "change_me",
    "placeholder",
    "sample",
    "demo",
    "fake",
    "insecure",
    "notsecret",
    "not-a-secret",
];

/// Programs whose `-pVALUE` / `--password=VALUE` is a password (the MySQL family, redis-cli's
/// `-a`).
const MYSQL_LIKE: &[&str] = &[
    "mysql",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlshow",
    "mysqlcheck",
    "mysqlpump",
    "mariadb",
    "mariadb-dump",
    "mariadb-admin",
];

/// One credential found on the command line: its value, the user it belongs to and the host it
/// opens, where known.
struct Credential {
    value: String,
    user: Option<String>,
    host: Option<String>,
}

/// Whether `cmd` carries credentials on its command line and every one is throwaway.
pub(crate) fn only_throwaway_credentials(cmd: &SimpleCommand) -> bool {
    let creds = credentials(cmd);
    !creds.is_empty() && creds.iter().all(throwaway)
}

/// Whether the whole `text` (a script, for a rule matched on the raw text) carries URL
/// credentials and every one is throwaway.
pub(crate) fn text_only_throwaway_urls(text: &str) -> bool {
    let Some(re) = url_credentials_in(text) else {
        return false;
    };
    let mut any = false;
    for c in re.captures_iter(text) {
        any = true;
        let cred = Credential {
            value: c.get(2).map_or("", |m| m.as_str()).to_string(),
            user: c.get(1).map(|m| m.as_str().to_string()),
            host: c.get(3).map(|m| m.as_str().to_string()),
        };
        if !throwaway(&cred) {
            return false;
        }
    }
    any
}

/// Whether the commands of `parsed` carry credentials on their command lines and every one of
/// them (and every credential URL of the whole text) is throwaway: for a rule matched on the
/// raw text. Text the parser kept as nested scripts is not looked into, so then only URLs
/// count, as in [`text_only_throwaway_urls`].
pub(crate) fn parsed_only_throwaway(parsed: &ParsedCommand) -> bool {
    if !parsed.scripts.is_empty() {
        return text_only_throwaway_urls(&parsed.source);
    }
    let creds: Vec<Credential> = parsed.commands.iter().flat_map(credentials).collect();
    if creds.is_empty() {
        return text_only_throwaway_urls(&parsed.source);
    }
    let no_urls = url_credentials_in(&parsed.source).is_none_or(|re| !re.is_match(&parsed.source));
    creds.iter().all(throwaway) && (no_urls || text_only_throwaway_urls(&parsed.source))
}

fn credentials(cmd: &SimpleCommand) -> Vec<Credential> {
    let mut out = Vec::new();
    let words: Vec<&str> = cmd
        .raw_argv
        .iter()
        .map(|w| w.text.as_str())
        .chain(cmd.assignments.iter().map(|(_, w)| w.text.as_str()))
        .collect();
    // URLs with a password, anywhere
    for w in &words {
        if let Some(re) = url_credentials_in(w) {
            for c in re.captures_iter(w).take(8) {
                out.push(Credential {
                    value: c.get(2).map_or("", |m| m.as_str()).to_string(),
                    user: c.get(1).map(|m| m.as_str().to_string()),
                    host: c.get(3).map(|m| m.as_str().to_string()),
                });
            }
        }
    }
    // NAME=VALUE with a secret-looking name: assignments, `-e NAME=VALUE`, `--env=NAME=VALUE`
    let named = cmd
        .assignments
        .iter()
        .map(|(n, w)| (n.as_str(), w.text.as_str()))
        .chain(cmd.raw_argv.iter().filter_map(|w| {
            let t = w.text.strip_prefix("--env=").unwrap_or(&w.text);
            t.split_once('=')
        }));
    for (name, value) in named {
        if !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && is_secret_name(name)
            && !value.contains("://")
            && !value.starts_with('$')
        {
            out.push(Credential {
                value: value.to_string(),
                user: None,
                host: None,
            });
        }
    }
    // `--api-key VALUE`, `--token=VALUE`, `--client-secret VALUE`: a long option whose name
    // says its value is a credential
    let argv: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
    for (i, a) in argv.iter().enumerate().skip(1) {
        let Some(opt) = a.strip_prefix("--") else {
            continue;
        };
        let (name, inline) = match opt.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (opt, None),
        };
        if !is_secret_name(name) {
            continue;
        }
        let value = match inline {
            Some(v) => Some(v),
            None => argv.get(i + 1).copied().filter(|v| !v.starts_with('-')),
        };
        if let Some(v) = value.filter(|v| !v.starts_with('$') && !v.contains("://")) {
            out.push(Credential {
                value: v.to_string(),
                user: None,
                host: None,
            });
        }
    }
    // the MySQL family's -pVALUE / --password=VALUE, with its -u user and -h host
    if MYSQL_LIKE.contains(&cmd.program.as_str()) {
        let argv: Vec<&str> = cmd
            .raw_argv
            .iter()
            .skip(1)
            .map(|w| w.text.as_str())
            .collect();
        let option = |short: &str, long: &str| -> Option<String> {
            argv.iter().enumerate().find_map(|(i, a)| {
                if let Some(v) = a.strip_prefix(&format!("{long}=")) {
                    return Some(v.to_string());
                }
                if *a == short || *a == long {
                    return argv.get(i + 1).map(|v| (*v).to_string());
                }
                a.strip_prefix(short)
                    .filter(|v| !v.is_empty() && !a.starts_with("--"))
                    .map(str::to_string)
            })
        };
        let user = option("-u", "--user");
        let host = option("-h", "--host");
        for a in &argv {
            let value = a
                .strip_prefix("--password=")
                .or_else(|| a.strip_prefix("-p").filter(|v| !v.is_empty()));
            if let Some(v) = value.filter(|_| !a.starts_with("--port")) {
                out.push(Credential {
                    value: v.to_string(),
                    user: user.clone(),
                    host: host.clone(),
                });
            }
        }
    }
    out
}

fn throwaway(c: &Credential) -> bool {
    if c.host.as_deref().is_some_and(loopback) {
        return true;
    }
    placeholder(&c.value, c.user.as_deref())
}

/// A value nobody would use as a real secret.
fn placeholder(value: &str, user: Option<&str>) -> bool {
    let v = value.trim_matches(['"', '\'']).to_ascii_lowercase();
    if v.is_empty() || v.starts_with('$') {
        return false;
    }
    PLACEHOLDERS.contains(&v.as_str())
        || PLACEHOLDER_WORDS.iter().any(|w| v.contains(w))
        || user.is_some_and(|u| u.eq_ignore_ascii_case(&v))
        || (v.len() >= 3 && v.chars().all(|c| v.starts_with(c)))
}

/// The loopback interface or the container host, where a password opens only a local server.
fn loopback(host: &str) -> bool {
    let h = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    h == "localhost"
        || h.ends_with(".localhost")
        || h.starts_with("127.")
        || h == "::1"
        || h == "0.0.0.0"
        || h == "host.docker.internal"
}

/// Whether a rule with `tags` is about a credential written on the command line.
pub(crate) fn is_credential_rule(tags: &[impl AsRef<str>]) -> bool {
    tags.iter().any(|t| t.as_ref() == "credentials")
        && !tags.iter().any(|t| t.as_ref() == "exfiltration")
}

/// Cap `f` at MEDIUM: every credential it found is a placeholder or opens a loopback server.
pub(crate) fn cap_for_throwaway(f: &mut Finding) {
    crate::envscope::cap_at_medium(
        f,
        "the credential is a placeholder or opens only a loopback server: at most MEDIUM",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(text: &str) -> SimpleCommand {
        riskgate_shell::parse(text)
            .commands
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no command in {text}"))
    }

    #[test]
    fn placeholders_and_loopback_are_throwaway() {
        for c in [
            "mysql -h 127.0.0.1 -u dev -pdev app_dev",
            "mysql -u root -proot shop",
            "docker run -d -e POSTGRES_PASSWORD=test -p 5433:5432 postgres:16",
            "psql postgres://app:Xk29sLq8@localhost:5432/app",
            "DATABASE_URL=postgres://postgres:test@db:5432/postgres npm run migrate",
            "PGPASSWORD=postgres psql -h db -U postgres",
            "redis-cli -u redis://default:changeme@cache:6379 ping",
            "stripe customers list --api-key sk_test_51Hx0000000000",
            "mycli deploy --token=dev-token-123",
        ] {
            assert!(only_throwaway_credentials(&cmd(c)), "{c}");
        }
    }

    #[test]
    fn real_looking_secrets_are_not() {
        for c in [
            "mysql -h db.prod.internal -u app -pXk29sLq8vQ shop",
            "psql postgres://app:Xk29sLq8vQ@db.prod.internal:5432/app",
            "docker run -e STRIPE_SECRET_KEY=sk_live_51Habc123 app",
            "PGPASSWORD=Xk29sLq8vQ psql -h db.prod.internal -U app",
            "stripe customers list --api-key sk_live_51Hx9Qa0Zr",
            "stripe customers list --api-key sk_test_51Hx0000 --client-secret Qz81vLp0",
            // no credential at all: nothing to call throwaway
            "mysql -h 127.0.0.1 -u dev app_dev",
            "psql \"$DATABASE_URL\"",
        ] {
            assert!(!only_throwaway_credentials(&cmd(c)), "{c}");
        }
    }
}
