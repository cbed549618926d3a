//! The one table of what a secret looks like in text, for every part of riskgate that finds
//! secrets (the analyzers' findings, the hooks' file-write and fetch checks) or keeps them off
//! disk (the audit log, the journal, warnings, stored approval patterns):
//!
//! - [`shapes::SHAPES`]: provider token shapes (AWS, GitHub, GitLab, Slack, Stripe, Google,
//!   OpenAI, Anthropic, npm, PyPI, Hugging Face, Vault, JWT …), URL userinfo
//!   (`scheme://user:pass@`), `Authorization: Bearer|Basic …` and cookie headers,
//!   `KEY=value` / `export KEY=value` / `"key": "value"` for secret-looking names, `.netrc`
//!   `password X` and `.pgpass` `host:port:db:user:pass` lines;
//! - private key blocks (`BEGIN … PRIVATE KEY`, any case; to the end of the text when the END
//!   marker is missing);
//! - [`flags::CREDENTIAL_FLAGS`]: credential options per program (`sshpass -p`,
//!   `mysql -pSECRET`, `curl -u user:pass`, `redis-cli -a`, `htpasswd -b`, `docker login -p`,
//!   `aws configure set *secret* V` …) and every option named like a secret;
//! - [`names`]: which names are secret-looking, which values are placeholders or references.
//!
//! Everything works on raw text: a command that does not parse, a truncated JSON payload or an
//! error message is covered the same way.
//!
//! ```
//! use riskgate_model::secrets::redact;
//! assert_eq!(redact("sshpass -p hunter2xyz ssh h"), "sshpass -p [REDACTED] ssh h");
//! assert_eq!(redact("git status"), "git status");
//! ```

pub mod flags;
pub mod names;
pub mod shapes;

use std::borrow::Cow;

pub use names::{is_elided, is_placeholder, is_reference, is_secret_name, name_parts};
use shapes::{Class, SHAPES};

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// What a private key block is replaced with.
pub const REDACTED_KEY: &str = "[REDACTED PRIVATE KEY]";

/// One secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Kind id (`github-token`, `private-key`, `password-option`, `generic-assignment` …).
    pub kind: &'static str,
    /// What it is, for a person.
    pub description: &'static str,
    /// Byte range of the secret value.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// A well-known token or key shape (a secret whatever its value); otherwise found by its
    /// context (a name, a flag, a URL) and possibly a placeholder.
    pub token: bool,
}

/// Every secret in `text`, in order, without overlaps (overlapping finds are merged into the
/// one that starts first).
pub fn scan(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    key_blocks(text, &mut found);
    let lower = text.to_ascii_lowercase();
    for (i, shape) in SHAPES.iter().enumerate() {
        if !shape.triggers.is_empty() && !shape.triggers.iter().any(|t| lower.contains(t)) {
            continue;
        }
        let cheap_miss = match shape.kind {
            "pgpass-line" => text.bytes().filter(|&b| b == b':').count() < 4,
            "generic-assignment" => !text.contains(['=', ':']),
            _ => false,
        };
        if cheap_miss {
            continue;
        }
        let Some(re) = shapes::compiled(i) else {
            continue;
        };
        let mut at = 0;
        while at <= text.len() {
            let Some(caps) = re.captures_at(text, at) else {
                break;
            };
            let Some(whole) = caps.get(0) else { break };
            let value = caps.name("v").unwrap_or(whole);
            let next = if whole.end() > whole.start() {
                whole.end()
            } else {
                whole.end() + 1
            };
            let accepted = match shape.class {
                Class::Token => true,
                Class::Context => !is_reference(value.as_str()) && !is_elided(value.as_str()),
                Class::Named => {
                    caps.name("k").is_some_and(|k| {
                        is_secret_name(k.as_str()) && !closes_quote(text, k, value.as_str())
                    }) && !is_reference(value.as_str())
                        && !is_elided(value.as_str())
                }
            };
            if accepted && value.end() > value.start() {
                found.push(Found {
                    kind: shape.kind,
                    description: shape.description,
                    start: value.start(),
                    end: value.end(),
                    token: shape.class == Class::Token,
                });
                at = next;
            } else {
                // a rejected name = value: the value may itself hold `name=value`
                at = if value.start() > whole.start() {
                    value.start()
                } else {
                    next
                };
            }
            while at < text.len() && !text.is_char_boundary(at) {
                at += 1;
            }
        }
    }
    flags::scan(text, &mut found);
    found.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut out: Vec<Found> = Vec::with_capacity(found.len());
    for f in found {
        if let Some(l) = out.last_mut()
            && f.start < l.end
        {
            l.end = l.end.max(f.end);
            continue;
        }
        out.push(f);
    }
    out
}

/// Whether a name inside a quoted string (`read -p "Password: " -s`) is followed by that
/// string's closing quote rather than a value.
fn closes_quote(text: &str, k: regex_lite::Match<'_>, value: &str) -> bool {
    let Some(q) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    let line = text.get(..k.start()).unwrap_or("");
    let line = line.rsplit('\n').next().unwrap_or(line);
    let inside = line.chars().filter(|&c| c == q).count() % 2 == 1;
    let after = text.get(k.end()..).and_then(|t| t.chars().next());
    inside && after != Some(q)
}

/// `BEGIN … PRIVATE KEY` blocks, to their END marker, else to the end of the text when key
/// material follows.
fn key_blocks(text: &str, found: &mut Vec<Found>) {
    if !text
        .as_bytes()
        .windows(7)
        .any(|w| w.eq_ignore_ascii_case(b"private"))
    {
        return;
    }
    let (Some(begin), Some(end_re), Some(body)) =
        (shapes::key_begin(), shapes::key_end(), shapes::key_body())
    else {
        return;
    };
    let mut at = 0;
    while let Some(b) = begin.find_at(text, at) {
        let end = match end_re.find_at(text, b.end()) {
            Some(e) => e.end(),
            None if body.is_match_at(text, b.end()) => text.len(),
            None => b.end(),
        };
        found.push(Found {
            kind: "private-key",
            description: "Private key block",
            start: b.start(),
            end,
            token: true,
        });
        at = end.max(b.end());
    }
}

/// `text` with every secret replaced by [`REDACTED`] (a private key block by
/// [`REDACTED_KEY`]). Text without secrets is returned unchanged (borrowed).
pub fn redact(text: &str) -> Cow<'_, str> {
    replace(text, |f| {
        if f.kind == "private-key" {
            REDACTED_KEY
        } else {
            REDACTED
        }
    })
}

/// `text` with every secret replaced by `with` (an approval pattern uses `*`, so the pattern
/// still matches the command whatever the secret, and the secret is not stored).
pub fn redact_with<'a>(text: &'a str, with: &str) -> Cow<'a, str> {
    replace(text, |_| with)
}

fn replace<'a, 'r>(text: &'a str, rep: impl Fn(&Found) -> &'r str) -> Cow<'a, str> {
    let found = scan(text);
    if found.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for f in &found {
        out.push_str(text.get(last..f.start).unwrap_or(""));
        out.push_str(rep(f));
        last = f.end;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests;
