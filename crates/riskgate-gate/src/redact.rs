//! Secret redaction for what riskgate stores (the audit log) and shows in reasons. The
//! patterns are compiled with `regex-lite` (linear-time, fast to compile: a hook call is one
//! short-lived process), each only when its trigger word occurs.
//!
//! Replaced by `[REDACTED]`, keeping enough context to read the record:
//! - well-known token shapes: GitHub (`ghp_…`, `gho_…`, `github_pat_…`), AWS access key ids
//!   (`AKIA…`, `ASIA…`), OpenAI/Anthropic style `sk-…`, Slack `xox?-…`, GitLab `glpat-…`,
//!   Google `AIza…`, npm `npm_…`, Stripe `sk_live_…`/`rk_live_…`, JSON Web Tokens;
//! - `Authorization: Bearer|Basic|Token …` headers and bare `Bearer …` tokens;
//! - the password of URLs with credentials (`https://user:pass@host` → `https://user:[REDACTED]@host`);
//! - values of secret-looking assignments and options: `password=…`, `API_KEY: …`,
//!   `--password …`, `--token=…`, `"secret": "…"`;
//! - MySQL/MariaDB client passwords `-pSECRET` (only on a line that runs a MySQL client);
//! - PEM private key blocks (`-----BEGIN … PRIVATE KEY-----` to the end marker, or to the end
//!   of the text when the block is cut).

use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

use regex_lite::Regex;

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// (lowercase triggers, regex, replacement). A rule runs only when the text contains one of its
/// triggers, and its regex is compiled on first use: text without secrets (almost every
/// command) costs a few substring searches and compiles nothing. `$k` keeps the named group
/// `k` (the non-secret context).
type RedactRule = (&'static [&'static str], &'static str, &'static str);

const RULES: &[RedactRule] = &[
    // PEM private keys, whole block (or to the end when the end marker is missing).
    (
        &["private key"],
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        "[REDACTED PRIVATE KEY]",
    ),
    // Authorization headers.
    (
        &["authorization"],
        r"(?i)(?P<k>(?:proxy-)?authorization\s*[:=]\s*(?:bearer|basic|token|digest)?\s*)[^\s'\x22]+",
        "${k}[REDACTED]",
    ),
    (
        &["bearer"],
        r"(?i)(?P<k>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}",
        "${k}[REDACTED]",
    ),
    // URL credentials.
    (
        &["://"],
        r"(?P<k>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@'\x22]+:)[^@\s/'\x22]+@",
        "${k}[REDACTED]@",
    ),
    // Token shapes.
    (
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
        "[REDACTED]",
    ),
    (
        &["github_pat_"],
        r"\bgithub_pat_[A-Za-z0-9_]{20,}",
        "[REDACTED]",
    ),
    (
        &["akia", "asia", "agpa", "aida", "aroa"],
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b",
        "[REDACTED]",
    ),
    (&["sk-"], r"\bsk-[A-Za-z0-9_-]{16,}", "[REDACTED]"),
    (
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
        "[REDACTED]",
    ),
    (&["xox"], r"\bxox[abposr]-[A-Za-z0-9-]{10,}", "[REDACTED]"),
    (&["glpat-"], r"\bglpat-[A-Za-z0-9_-]{20,}", "[REDACTED]"),
    (&["aiza"], r"\bAIza[0-9A-Za-z_-]{35}", "[REDACTED]"),
    (&["npm_"], r"\bnpm_[A-Za-z0-9]{36}", "[REDACTED]"),
    (
        &["eyj"],
        r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        "[REDACTED]",
    ),
    // Options: --password VALUE, --token=VALUE …
    (
        &["pass", "token", "key", "secret"],
        r"(?i)(?P<k>--?(?:password|passwd|pass|token|api-?key|secret|client-secret|access-key|secret-key|auth-token)(?:=|\s+))(?:'[^']*'|\x22[^\x22]*\x22|[^\s'\x22]+)",
        "${k}[REDACTED]",
    ),
    // Assignments and mappings: password=…, AWS_SECRET_ACCESS_KEY=…, "api_key": "…".
    (
        &["pass", "pwd", "secret", "token", "key", "credential"],
        r"(?i)(?P<k>\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]*['\x22]?\s*[=:]\s*)(?:'[^']*'|\x22[^\x22]*\x22|[^\s'\x22&;|,}]+)",
        "${k}[REDACTED]",
    ),
];

static COMPILED: [OnceLock<Option<Regex>>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];

fn compiled(i: usize) -> Option<&'static Regex> {
    let (_, re, _) = RULES.get(i)?;
    COMPILED
        .get(i)?
        .get_or_init(|| Regex::new(re).ok())
        .as_ref()
}

static MYSQL_CLIENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b",
    )
    .ok()
});

static MYSQL_PASSWORD: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?P<k>(?:^|\s)-p)(?:'[^']*'|\x22[^\x22]*\x22|[^\s'\x22]+)").ok());

/// Redact secrets in `text`. Text without secrets is returned unchanged (borrowed).
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out: Cow<'_, str> = Cow::Borrowed(text);
    let lower = text.to_ascii_lowercase();
    for (i, (triggers, _, rep)) in RULES.iter().enumerate() {
        if !triggers.iter().any(|t| lower.contains(t)) {
            continue;
        }
        if let Some(re) = compiled(i)
            && re.is_match(&out)
        {
            out = Cow::Owned(re.replace_all(&out, *rep).into_owned());
        }
    }
    if (lower.contains("mysql") || lower.contains("mariadb"))
        && let (Some(client), Some(pw)) = (MYSQL_CLIENT.as_ref(), MYSQL_PASSWORD.as_ref())
        && client.is_match(&out)
    {
        let lines: Vec<String> = out
            .split('\n')
            .map(|line| {
                if client.is_match(line) {
                    pw.replace_all(line, "${k}[REDACTED]").into_owned()
                } else {
                    line.to_string()
                }
            })
            .collect();
        let joined = lines.join("\n");
        if joined != out {
            out = Cow::Owned(joined);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles() {
        assert!((0..RULES.len()).all(|i| compiled(i).is_some()));
        assert!(MYSQL_CLIENT.is_some() && MYSQL_PASSWORD.is_some());
    }

    fn r(s: &str) -> String {
        redact(s).into_owned()
    }

    #[test]
    fn token_shapes() {
        let gh = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        assert_eq!(
            r(&format!("git clone https://{gh}@github.com/x")),
            "git clone https://[REDACTED]@github.com/x"
        );
        assert_eq!(
            r("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"),
            "export AWS_ACCESS_KEY_ID=[REDACTED]"
        );
        assert_eq!(
            r("aws --profile x s3 ls # AKIAIOSFODNN7EXAMPLE"),
            "aws --profile x s3 ls # [REDACTED]"
        );
        assert_eq!(
            r("OPENAI=sk-proj-abcdefghijklmnop1234 run"),
            "OPENAI=[REDACTED] run"
        );
        assert_eq!(
            r("curl -d token=xoxb-1234567890-abcdef slack"),
            "curl -d token=[REDACTED] slack"
        );
        assert_eq!(r("echo xoxp-1234567890-abcdef"), "echo [REDACTED]");
    }

    #[test]
    fn headers_urls_and_assignments() {
        assert_eq!(
            r("curl -H 'Authorization: Bearer abc.def.ghi123' https://api"),
            "curl -H 'Authorization: Bearer [REDACTED]' https://api"
        );
        assert_eq!(
            r("psql postgres://admin:hunter2@db:5432/app"),
            "psql postgres://admin:[REDACTED]@db:5432/app"
        );
        assert_eq!(
            r("mysql -u root -phunter2 app"),
            "mysql -u root -p[REDACTED] app"
        );
        assert_eq!(r("mkdir -p build"), "mkdir -p build");
        assert_eq!(r("PASSWORD=hunter2 ./run"), "PASSWORD=[REDACTED] ./run");
        assert_eq!(
            r("login --password 'a b c' --user x"),
            "login --password [REDACTED] --user x"
        );
        assert_eq!(
            r(r#"{"api_key": "k-123", "name": "x"}"#),
            r#"{"api_key": [REDACTED], "name": "x"}"#
        );
    }

    #[test]
    fn private_key_blocks() {
        let text = "cat > id <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nEOF";
        assert_eq!(r(text), "cat > id <<EOF\n[REDACTED PRIVATE KEY]\nEOF");
        let cut = "echo '-----BEGIN RSA PRIVATE KEY-----\nMIIE";
        assert_eq!(r(cut), "echo '[REDACTED PRIVATE KEY]");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(redact("git status"), Cow::Borrowed(_)));
        assert_eq!(r("rm -rf build"), "rm -rf build");
    }
}
