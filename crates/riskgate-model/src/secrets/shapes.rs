//! The pattern half of the secrets table: provider token shapes, private key blocks, URL
//! credentials, authorization headers, secret-named assignments, `.netrc` and `.pgpass`
//! content. Each row runs only when one of its lower-case triggers occurs in the text, and its
//! regex (`regex-lite`: linear time, cheap to compile) is compiled on first use, so text without
//! secrets costs a few substring searches.

use std::sync::OnceLock;

use regex_lite::Regex;

/// How a row's matches are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A well-known token or key shape: a secret whatever its value.
    Token,
    /// Identified by its context (a name, a flag, a URL's userinfo …): a secret unless the
    /// value is a placeholder.
    Context,
    /// A name = value pair; a secret when the name (group `k`) looks secret.
    Named,
}

/// One row: what it finds, when it runs, and the regex (group `v`: the secret value; without
/// it, the whole match).
#[derive(Debug)]
pub struct Shape {
    /// Kind id (`github-token`, `url-credentials` …).
    pub kind: &'static str,
    /// What it is, for a person.
    pub description: &'static str,
    /// Lower-case substrings, one of which must occur for the row to run (empty: always).
    pub triggers: &'static [&'static str],
    /// The regex.
    pub pattern: &'static str,
    /// How its matches are judged.
    pub class: Class,
}

const fn row(
    kind: &'static str,
    description: &'static str,
    triggers: &'static [&'static str],
    pattern: &'static str,
    class: Class,
) -> Shape {
    Shape {
        kind,
        description,
        triggers,
        pattern,
        class,
    }
}

use Class::{Context, Named, Token};

/// The rows, most specific first (a later row's match overlapping an earlier one is dropped).
pub const SHAPES: &[Shape] = &[
    row(
        "private-key",
        "PuTTY private key",
        &["putty-user-key-file"],
        r"(?is)PuTTY-User-Key-File-[0-9]+:.*?(?:Private-MAC:\s*[0-9a-f]+|\z)",
        Token,
    ),
    row(
        "aws-access-key-id",
        "AWS access key id",
        &[
            "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "aipa",
        ],
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b",
        Token,
    ),
    row(
        "aws-secret-access-key",
        "AWS secret access key",
        &["aws"],
        r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*(?:[:=]|\s)\s*["']?(?P<v>[A-Za-z0-9/+=]{40})"#,
        Token,
    ),
    row(
        "github-token",
        "GitHub token",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
        Token,
    ),
    row(
        "github-token",
        "GitHub fine-grained token",
        &["github_pat_"],
        r"\bgithub_pat_[A-Za-z0-9_]{20,}",
        Token,
    ),
    row(
        "gitlab-token",
        "GitLab token",
        &["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-"],
        r"\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,}",
        Token,
    ),
    row(
        "slack-webhook",
        "Slack webhook URL",
        &["hooks.slack.com"],
        r"hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/(?P<v>[A-Za-z0-9]+)",
        Token,
    ),
    row(
        "slack-token",
        "Slack token",
        &["xox"],
        r"\bxox[abposre]-[A-Za-z0-9-]{10,}",
        Token,
    ),
    row(
        "stripe-key",
        "Stripe secret key",
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
        r"\b(?:(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,}|whsec_[A-Za-z0-9]{20,})",
        Token,
    ),
    row(
        "google-api-key",
        "Google API key",
        &["aiza"],
        r"\bAIza[0-9A-Za-z_-]{35}",
        Token,
    ),
    row(
        "google-oauth",
        "Google OAuth client secret or token",
        &["gocspx-", "ya29."],
        r"\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[0-9A-Za-z_-]{20,})",
        Token,
    ),
    row(
        "anthropic-key",
        "Anthropic API key",
        &["sk-ant-"],
        r"\bsk-ant-[A-Za-z0-9_-]{20,}",
        Token,
    ),
    row(
        "openai-key",
        "OpenAI API key",
        &["sk-"],
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        Token,
    ),
    row(
        "npm-token",
        "npm access token",
        &["npm_"],
        r"\bnpm_[A-Za-z0-9]{36}",
        Token,
    ),
    row(
        "pypi-token",
        "PyPI token",
        &["pypi-"],
        r"\bpypi-[A-Za-z0-9_-]{40,}",
        Token,
    ),
    row(
        "huggingface-token",
        "Hugging Face token",
        &["hf_"],
        r"\bhf_[A-Za-z0-9]{30,}",
        Token,
    ),
    row(
        "vault-token",
        "HashiCorp Vault token",
        &["hvs.", "hvb.", "hvr."],
        r"\bhv[sbr]\.[A-Za-z0-9_-]{20,}",
        Token,
    ),
    row(
        "digitalocean-token",
        "DigitalOcean token",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"\bdo[por]_v1_[a-f0-9]{64}",
        Token,
    ),
    row(
        "sendgrid-key",
        "SendGrid API key",
        &["sg."],
        r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        Token,
    ),
    row(
        "shopify-token",
        "Shopify access token",
        &["shpat_", "shpss_", "shpca_", "shppa_"],
        r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
        Token,
    ),
    row(
        "cut-token",
        "Token cut short (a truncated payload)",
        &[
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "xox",
            "_live_",
            "_test_",
            "hvs.",
            "hvb.",
            "hvr.",
            "aiza",
            "npm_",
            "pypi-",
            "hf_",
            "sk-",
            "gocspx-",
            "whsec_",
            "shp",
            "_v1_",
            "eyj",
            "akia",
            "asia",
        ],
        r"(?:\b(?:gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt)-|xox[abposre]-|[sr]k_(?:live|test)_|hv[sbr]\.|AIza|npm_|pypi-|hf_|sk-|GOCSPX-|whsec_|shp(?:at|ss|ca|pa)_|do[por]_v1_|eyJ|AKIA|ASIA))[A-Za-z0-9_.+/=-]{2,}\z",
        Token,
    ),
    row(
        "jwt",
        "JSON Web Token",
        &["eyj"],
        r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        Token,
    ),
    row(
        "auth-header",
        "Authorization header",
        &["authorization"],
        r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|bot|apikey|sso-key)\s+)?(?P<v>[^\s'"\\]+(?:[ \t]+[^\s'"\\-][^\s'"\\]*)*)"#,
        Context,
    ),
    row(
        "auth-header",
        "Bearer token",
        &["bearer"],
        r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9._~+/=-]{8,})",
        Context,
    ),
    row(
        "auth-header",
        "Cookie header",
        &["cookie"],
        r#"(?i)\b(?:set-)?cookie\s*:\s*(?P<v>[^'"\\\r\n]+)"#,
        Context,
    ),
    row(
        "url-credentials",
        "Password in a URL",
        &["://"],
        r#"(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@'"\\]*:(?P<v>[^\s'"\\]+)@"#,
        Context,
    ),
    row(
        "netrc-password",
        ".netrc password",
        &["machine", "netrc"],
        r#"(?i)\b(?:password|passwd|account)\s+(?P<v>[^\s'"\\]+)"#,
        Context,
    ),
    row(
        "pgpass-line",
        ".pgpass entry",
        &[":"],
        r#"(?m)(?:^|[\s'"=>])[A-Za-z0-9_.*\[\]-]*[A-Za-z.*][A-Za-z0-9_.*\[\]-]*:(?:[0-9]{1,5}|\*):[^:\s'"\\]+:[^:\s'"\\]+:(?P<v>[^\s'"\\]+)"#,
        Context,
    ),
    row(
        "chpasswd-line",
        "user:password for chpasswd",
        &["chpasswd"],
        r#"(?:^|[\s'"])[A-Za-z_][A-Za-z0-9_.-]*:(?P<v>[^\s'":\\|]+)"#,
        Context,
    ),
    row(
        "generic-assignment",
        "Hardcoded password or secret",
        &[
            "pass",
            "pwd",
            "pw",
            "secret",
            "token",
            "key",
            "credential",
            "auth",
            "sig",
            "pat",
            "psk",
            "bearer",
        ],
        r#"(?P<k>[A-Za-z_][A-Za-z0-9_.-]*)(?:\\?["'])?[ \t]*(?::=|=>|=|:)[ \t]*(?P<v>\\"(?:[^"\\]|\\[^"])*(?:\\"|$)|"[^"]*"?|'[^']*'?|[^\s'"&;|,}\])\\`]+)"#,
        Named,
    ),
];

static COMPILED: [OnceLock<Option<Regex>>; SHAPES.len()] =
    [const { OnceLock::new() }; SHAPES.len()];

/// The compiled regex of row `i` (`None` if it failed to compile: a test checks none does).
pub fn compiled(i: usize) -> Option<&'static Regex> {
    let shape = SHAPES.get(i)?;
    COMPILED
        .get(i)?
        .get_or_init(|| Regex::new(shape.pattern).ok())
        .as_ref()
}

/// Private key blocks: the BEGIN marker, in any case.
pub(crate) fn key_begin() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)-{2,}\s*BEGIN[ A-Z0-9]*PRIVATE\s+KEY(?:\s+BLOCK)?\s*-{2,}").ok()
    })
    .as_ref()
}

/// Private key blocks: the END marker, in any case.
pub(crate) fn key_end() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)-{2,}\s*END[ A-Z0-9]*PRIVATE\s+KEY(?:\s+BLOCK)?\s*-{2,}").ok()
    })
    .as_ref()
}

/// Key material after a BEGIN marker without its END: a run of base64.
pub(crate) fn key_body() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"[A-Za-z0-9+/=]{8,}").ok())
        .as_ref()
}
