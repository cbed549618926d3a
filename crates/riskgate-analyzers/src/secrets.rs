//! Secrets in text, as findings: the model's one secrets table
//! ([`riskgate_model::secrets`] — token shapes, private key blocks, URL credentials,
//! credential options, secret-named assignments, `.netrc`/`.pgpass` content), with values that
//! are placeholders, references or code left out. Matches carry a redacted form: a secret is
//! never echoed back in full.

use riskgate_model::secrets::{self, is_placeholder};
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

/// Whether a value found by its context (a name, a flag, a URL) is worth reporting: not a
/// placeholder, at least 6 characters, not a bare number, and — unquoted — not code (a call,
/// an attribute path) reading the secret from elsewhere.
fn reportable(value: &str) -> bool {
    let v = value.trim_matches(|c| c == '"' || c == '\'' || c == '\\');
    let quoted = v.len() != value.len();
    let code_like = v.contains('(')
        || v.contains('[')
        || (!quoted
            && v.contains('.')
            && v.split('.').all(|p| {
                !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
            && v.chars().next().is_some_and(|c| c.is_ascii_alphabetic()));
    // an unquoted bare word without digits is, in code, a variable (`password = user_input`)
    let bare_word = !quoted
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !v.chars().any(|c| c.is_ascii_digit());
    v.chars().count() >= 6
        && !bare_word
        && !v.chars().all(|c| c.is_ascii_digit())
        && !is_placeholder(v)
        && !code_like
}

/// Hide all but the first four characters.
pub fn redact(secret: &str) -> String {
    let shown: String = secret.chars().take(4).collect();
    format!("{shown}… ({} chars)", secret.chars().count())
}

/// All secrets in `text`, in order, without overlaps: the model's secrets table
/// ([`riskgate_model::secrets::scan`]), less placeholders and references.
pub fn find_secrets(text: &str) -> Vec<SecretMatch> {
    secrets::scan(text)
        .into_iter()
        .filter_map(|f| {
            let value = text.get(f.start..f.end)?;
            (f.token || reportable(value)).then(|| SecretMatch {
                kind: f.kind,
                description: f.description,
                start: f.start,
                end: f.end,
                redacted: redact(value),
            })
        })
        .collect()
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
