//! RISK_PATTERNS matching (seed 000 rules 2-3): template variables in a parameter value are
//! normalized to `*`, then each pattern is searched for case-insensitively as a substring.
//!
//! - `${var}` and `$var` in a *value* become a literal `*` ("does not evaluate runtime template
//!   values"): `sudo rm -rf ${path}` is searched as `sudo rm -rf *`, so it matches `sudo ` and
//!   `rm -rf ` but not `rm -rf /`.
//! - A `*` in a *pattern* matches any run of characters; the pattern `*` alone matches every
//!   value. Templates in a pattern are normalized to `*` too.
//! - Whitespace runs count as one space on both sides; matching ignores case.
//!
//! Patterns are compiled once (lowercased, split at stars) and matched with `str::find`, so a
//! check costs a few substring searches, with no backtracking.

/// Normalize template variables (`${var}`, `$var`) to `*` and whitespace runs to one space,
/// trimmed. `$5`, `$$` and a lone `$` are kept.
pub fn normalize_templates(text: &str) -> String {
    normalize(text, true)
}

/// [`normalize_templates`]; with `trim` false a leading or trailing space is kept (a pattern's
/// `sudo ` must not match `pseudo`).
fn normalize(text: &str, trim: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last_space = trim;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'$' {
            match bytes.get(i + 1) {
                Some(b'{') => {
                    if let Some(end) = text[i + 2..].find('}') {
                        out.push('*');
                        last_space = false;
                        i += end + 3;
                        continue;
                    }
                }
                Some(&n) if n.is_ascii_alphabetic() || n == b'_' => {
                    let mut j = i + 1;
                    while bytes
                        .get(j)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                    {
                        j += 1;
                    }
                    out.push('*');
                    last_space = false;
                    i = j;
                    continue;
                }
                _ => {}
            }
        }
        if b.is_ascii_whitespace() {
            if !last_space {
                out.push(' ');
                last_space = true;
            }
            i += 1;
            continue;
        }
        // copy one whole UTF-8 character
        let len = utf8_len(b);
        out.push_str(text.get(i..i + len).unwrap_or(""));
        last_space = false;
        i += len.max(1);
    }
    if trim && out.ends_with(' ') {
        out.pop();
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// A value prepared for matching: templates normalized, lowercased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    lower: String,
}

impl Subject {
    /// Prepare `value` for matching.
    pub fn new(value: &str) -> Subject {
        Subject {
            lower: normalize_templates(value).to_lowercase(),
        }
    }

    /// The normalized, lowercased text.
    pub fn as_str(&self) -> &str {
        &self.lower
    }
}

/// A compiled RISK_PATTERN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The pattern as written in the registry.
    pub text: String,
    /// Lowercased literal pieces between stars (empty pieces dropped).
    pieces: Vec<String>,
    /// The pattern is only stars: it matches everything.
    match_all: bool,
}

impl Compiled {
    /// Compile `pattern`. `None` for a pattern that is empty after normalization.
    pub fn new(pattern: &str) -> Option<Compiled> {
        let normalized = normalize(pattern, false).to_lowercase();
        if normalized.trim().is_empty() {
            return None;
        }
        let pieces: Vec<String> = normalized
            .split('*')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        Some(Compiled {
            text: pattern.to_string(),
            match_all: pieces.is_empty(),
            pieces,
        })
    }

    /// Whether the pattern occurs in `subject` (pieces in order, anywhere).
    pub fn matches(&self, subject: &Subject) -> bool {
        if self.match_all {
            return true;
        }
        let mut rest = subject.as_str();
        for piece in &self.pieces {
            match rest.find(piece.as_str()) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, value: &str) -> bool {
        Compiled::new(pattern).is_some_and(|p| p.matches(&Subject::new(value)))
    }

    #[test]
    fn templates_become_stars() {
        assert_eq!(normalize_templates("sudo rm -rf ${path}"), "sudo rm -rf *");
        assert_eq!(normalize_templates("cp $src  $dst_2"), "cp * *");
        assert_eq!(normalize_templates("price $5 $$ $"), "price $5 $$ $");
        assert_eq!(normalize_templates("  a\t\n b  "), "a b");
        assert_eq!(normalize_templates("${unclosed"), "${unclosed");
        assert_eq!(normalize_templates("é ${x}ü"), "é *ü");
    }

    #[test]
    fn substring_case_insensitive_with_stars() {
        assert!(m("sudo ", "SUDO apt update"));
        assert!(!m("sudo ", "echo pseudo"));
        assert!(m("rm -rf / ", "rm -rf / --no-preserve-root"));
        assert!(!m("rm -rf / ", "rm -rf /"));
        assert!(m("rm -rf /", "cd x &&  rm   -rf /"));
        assert!(!m("rm -rf /", "sudo rm -rf ${path}"));
        assert!(m("rm -rf ", "sudo rm -rf ${path}"));
        assert!(m("curl * | sh", "curl -fsSL https://x.io | sh"));
        assert!(!m("curl * | sh", "sh | curl x"));
        assert!(m("*", ""));
        assert!(m("**", "anything"));
        assert!(Compiled::new("  ").is_none());
    }
}
