//! Which names hold secrets (`DB_PASSWORD`, `apiKey`, `--client-secret`,
//! `//registry/:_authToken`), and which values are obviously not secrets (placeholders and
//! references), for every consumer of [`super`].

/// Substrings of a name (lower case, separators `_ - .` removed) that make it secret-looking.
pub const SECRET_NAME_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "secretkey",
    "accountkey",
    "masterkey",
    "signingkey",
    "encryptionkey",
    "clientkey",
    "authkey",
    "credential",
    "bearer",
];

/// Whole parts of a name (split at `_ - . :` and lower/upper case changes) that make it
/// secret-looking on their own: `DB_PASS`, `MYSQL_PWD`, `_auth`, `x-api-pw`, a SAS `sig`.
pub const SECRET_NAME_PARTS: &[&str] = &["pass", "pwd", "pw", "auth", "sig", "pat", "psk"];

/// Names that contain a secret word but hold none (the working directory, token limits …).
const NOT_SECRET_NAMES: &[&str] = &["pwd", "oldpwd", "maxtokens", "tokens", "tokenizer"];

/// Name endings that mean the value is a reference to the secret, not the secret.
const REFERENCE_SUFFIXES: &[&str] = &[
    "file", "stdin", "env", "path", "id", "name", "arn", "ref", "type", "helper", "cmd", "command",
    "prompt", "length", "ttl", "source", "dir", "url",
];

/// The lowercase words of a name: split at every character that is not a letter or a digit
/// and where camelCase starts a new word (`apps:destroy` → apps, destroy; `DeleteCluster` →
/// delete, cluster; `X-Auth-Token` → x, auth, token).
pub fn name_parts(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether a variable, key, header or option name names a secret: `PGPASSWORD`, `api_key`,
/// `X-Auth-Token`, `--client-secret`, `aws_secret_access_key`, `DB_PASS`, `npmAuthToken`.
/// Not `PWD`, `max_tokens`, `--password-file`, `--secret-id`.
///
/// ```
/// use riskgate_model::secrets::is_secret_name;
/// assert!(is_secret_name("AWS_SECRET_ACCESS_KEY"));
/// assert!(is_secret_name("--db-pass"));
/// assert!(!is_secret_name("--password-stdin"));
/// assert!(!is_secret_name("PWD"));
/// ```
pub fn is_secret_name(name: &str) -> bool {
    let ps = name_parts(name);
    let Some(last) = ps.last() else {
        return false;
    };
    let joined: String = ps.concat();
    if NOT_SECRET_NAMES.contains(&joined.as_str()) || joined.ends_with("maxtokens") {
        return false;
    }
    if ps.len() > 1 && REFERENCE_SUFFIXES.contains(&last.as_str()) {
        return false;
    }
    SECRET_NAME_WORDS.iter().any(|w| joined.contains(w))
        || ps.iter().any(|p| SECRET_NAME_PARTS.contains(&p.as_str()))
}

/// Whether `value` only refers to a secret held elsewhere: `$TOKEN`, `${TOKEN}`, `"$TOKEN"`,
/// `%TOKEN%`, `$(cat token)`. Such values are not redacted (they say which secret, not what
/// it is).
pub fn is_reference(value: &str) -> bool {
    let v = value.trim_matches(|c| c == '"' || c == '\'' || c == '\\');
    // a command substitution: the value is computed, not written here
    if v.starts_with("$(") || v.starts_with('`') {
        return true;
    }
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    if let Some(rest) = v.strip_prefix("${") {
        return rest.strip_suffix('}').is_some_and(name_ok);
    }
    if let Some(rest) = v.strip_prefix('$') {
        return name_ok(rest);
    }
    if let Some(rest) = v.strip_prefix('%') {
        return rest.strip_suffix('%').is_some_and(name_ok);
    }
    false
}

/// Whether `value` is no value at all: an ellipsis, a mask or an earlier redaction (`…`,
/// `...`, `***`, `[REDACTED]`), as in documentation quoted by a reason.
pub fn is_elided(value: &str) -> bool {
    let v = value.trim_matches(|c| c == '"' || c == '\'' || c == '`');
    v.is_empty() || v.chars().all(|c| matches!(c, '.' | '…' | '*')) || v.starts_with("[REDACTED")
}

/// Values that are obviously not secrets: references, templates, code that reads the secret
/// from elsewhere, masks (`****`) and stock placeholders (`changeme`, `your_api_key_here`).
pub fn is_placeholder(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    if is_reference(v)
        || v.contains("${")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for n in [
            "password",
            "DB_PASSWORD",
            "PGPASSWORD",
            "MYSQL_PWD",
            "api_key",
            "apiKey",
            "X-Api-Key",
            "X-Auth-Token",
            "Private-Token",
            "aws_secret_access_key",
            "client_secret",
            "--client-secret",
            "--token",
            "_auth",
            "//registry.npmjs.org/:_authToken",
            "DB_PASS",
            "AccountKey",
            "spring.datasource.password",
            "GITHUB_TOKEN",
            "credentials",
            "sig",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in [
            "PWD",
            "OLDPWD",
            "max_tokens",
            "--password-stdin",
            "--password-file",
            "--secret-id",
            "PATH",
            "user",
            "--passive-ftp",
            "bypass",
            "author",
            "AWS_PROFILE",
        ] {
            assert!(!is_secret_name(n), "{n}");
        }
    }

    #[test]
    fn references_and_placeholders() {
        assert!(is_reference("$TOKEN"));
        assert!(is_reference("\"${DB_PASSWORD}\""));
        assert!(is_reference("$(cat f)"));
        assert!(!is_reference("$'hunter2'"));
        assert!(!is_reference("hunter2"));
        assert!(is_placeholder("changeme"));
        assert!(is_placeholder("your_api_key_here"));
        assert!(!is_placeholder("s3cr3t-v4lue"));
    }
}
