//! Secrets by their well-known shapes: AWS access key ids and secret access keys, GitHub,
//! GitLab, Slack, Stripe, Google, OpenAI, Anthropic and npm tokens, private key blocks, JWTs, and
//! generic `password = "…"` / `API_KEY=…` assignments whose value is not a placeholder.
//! Matches carry a redacted form: a secret is never echoed back in full.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

/// One secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretMatch {
    /// Kind id (`aws-access-key-id`, `github-token`, `private-key`, `generic-assignment` …).
    pub kind: &'static str,
    /// What it is, for a person.
    pub description: &'static str,
    /// Byte range of the secret value in the text.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The value with all but its first four characters hidden.
    pub redacted: String,
}

struct Shape {
    kind: &'static str,
    description: &'static str,
    re: Regex,
    /// Capture group holding the value (0: whole match).
    group: usize,
}

static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
    let specs: [(&str, &str, &str, usize); 16] = [
        (
            "aws-access-key-id",
            "AWS access key id",
            r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
            0,
        ),
        (
            "aws-secret-access-key",
            "AWS secret access key",
            r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            1,
        ),
        (
            "github-token",
            "GitHub token",
            r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b",
            0,
        ),
        (
            "github-token",
            "GitHub fine-grained token",
            r"\bgithub_pat_[A-Za-z0-9_]{22,}\b",
            0,
        ),
        (
            "gitlab-token",
            "GitLab personal access token",
            r"\bglpat-[A-Za-z0-9_-]{20}\b",
            0,
        ),
        (
            "slack-token",
            "Slack token",
            r"\bxox[abposre]-[A-Za-z0-9-]{10,}",
            0,
        ),
        (
            "slack-webhook",
            "Slack webhook URL",
            r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]+",
            0,
        ),
        (
            "stripe-key",
            "Stripe live secret key",
            r"\b(?:sk|rk)_live_[0-9a-zA-Z]{20,}\b",
            0,
        ),
        (
            "private-key",
            "Private key block",
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----",
            0,
        ),
        (
            "google-api-key",
            "Google API key",
            r"\bAIza[0-9A-Za-z_-]{35}\b",
            0,
        ),
        (
            "openai-key",
            "OpenAI API key",
            r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-proj-[A-Za-z0-9_-]{40,}",
            0,
        ),
        (
            "anthropic-key",
            "Anthropic API key",
            r"\bsk-ant-[A-Za-z0-9_-]{32,}",
            0,
        ),
        (
            "npm-token",
            "npm access token",
            r"\bnpm_[A-Za-z0-9]{36}\b",
            0,
        ),
        (
            "jwt",
            "JSON Web Token",
            r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
            0,
        ),
        (
            "generic-assignment",
            "Hardcoded password or secret",
            r#"(?i)\b(?:password|passwd|pwd|secret|secret_key|api_key|apikey|api_token|access_token|auth_token|client_secret|private_key|db_pass(?:word)?)\b["']?\s*(?::|=|:=|=>)\s*["']([^"'\s]{6,})["']"#,
            1,
        ),
        (
            "generic-assignment",
            "Hardcoded password or secret",
            r#"(?m)^\s*(?:export\s+)?[A-Za-z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY)[A-Za-z0-9_]*\s*[=:]\s*([^\s#'"]{6,})"#,
            1,
        ),
    ];
    specs
        .into_iter()
        .filter_map(|(kind, description, pat, group)| {
            Regex::new(pat).ok().map(|re| Shape {
                kind,
                description,
                re,
                group,
            })
        })
        .collect()
});

/// Values that are obviously not secrets.
fn is_placeholder(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    if v.contains("${")
        || v.contains("{{")
        || v.contains('<')
        || v.contains("%(")
        || v.starts_with('$')
        || v.contains("process.env")
        || v.contains("os.environ")
        || v.contains("getenv")
    {
        return true;
    }
    if l.chars()
        .all(|c| c == 'x' || c == '*' || c == '.' || c == '-' || c == '_' || c == '#')
    {
        return true;
    }
    const WORDS: [&str; 22] = [
        "changeme",
        "change_me",
        "change-me",
        "your_",
        "your-",
        "yourpassword",
        "example",
        "placeholder",
        "dummy",
        "redacted",
        "replace",
        "insert",
        "todo",
        "fixme",
        "sample",
        "none",
        "null",
        "undefined",
        "password",
        "secret",
        "<",
        "notset",
    ];
    WORDS.iter().any(|w| l.starts_with(w) || l == *w)
        || l.ends_with("_here")
        || l.contains("example")
}

/// Hide all but the first four characters.
pub fn redact(secret: &str) -> String {
    let shown: String = secret.chars().take(4).collect();
    format!("{shown}… ({} chars)", secret.chars().count())
}

/// All secrets in `text`, in order, without overlaps.
pub fn find_secrets(text: &str) -> Vec<SecretMatch> {
    let mut out: Vec<SecretMatch> = Vec::new();
    for shape in SHAPES.iter() {
        for caps in shape.re.captures_iter(text) {
            let Some(m) = caps.get(shape.group) else {
                continue;
            };
            if shape.kind == "generic-assignment" && is_placeholder(m.as_str()) {
                continue;
            }
            if out.iter().any(|o| o.start < m.end() && m.start() < o.end) {
                continue;
            }
            out.push(SecretMatch {
                kind: shape.kind,
                description: shape.description,
                start: m.start(),
                end: m.end(),
                redacted: redact(m.as_str()),
            });
        }
    }
    out.sort_by_key(|m| m.start);
    out
}

/// `text` with every secret replaced by its redacted form.
pub fn redact_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in find_secrets(text) {
        out.push_str(text.get(last..m.start).unwrap_or(""));
        out.push_str(&format!("[REDACTED {}: {}]", m.kind, m.redacted));
        last = m.end;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(t: &str) -> Vec<&'static str> {
        find_secrets(t).into_iter().map(|m| m.kind).collect()
    }

    #[test]
    fn well_known_shapes() {
        assert_eq!(
            kinds("key = AKIAIOSFODNN7EXAMPLE"),
            vec!["aws-access-key-id"]
        );
        assert_eq!(
            kinds("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            vec!["aws-secret-access-key"]
        );
        assert_eq!(
            kinds("token: ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            vec!["github-token"]
        );
        assert_eq!(
            kinds("-----BEGIN OPENSSH PRIVATE KEY-----"),
            vec!["private-key"]
        );
        assert_eq!(
            kinds("STRIPE=sk_live_abcdefghijklmnopqrstuvwx"),
            vec!["stripe-key"]
        );
        assert_eq!(
            kinds("password = \"hunter2hunter2\""),
            vec!["generic-assignment"]
        );
        assert_eq!(
            kinds("DB_PASSWORD=s3cr3t-v4lue"),
            vec!["generic-assignment"]
        );
    }

    #[test]
    fn placeholders_and_references_are_not_secrets() {
        assert!(kinds("password = os.environ['DB_PASSWORD']").is_empty());
        assert!(kinds("password = \"changeme\"").is_empty());
        assert!(kinds("API_KEY=${API_KEY}").is_empty());
        assert!(kinds("API_KEY=your_api_key_here").is_empty());
        assert!(kinds("the password field is required").is_empty());
    }

    #[test]
    fn redaction_hides_the_value() {
        let m = find_secrets("AKIAIOSFODNN7EXAMPLE");
        assert_eq!(
            m.first().map(|m| m.redacted.as_str()),
            Some("AKIA… (20 chars)")
        );
    }
}
