//! JSON and JSONC helpers: comments and trailing commas blanked out (offsets kept) so that
//! `serde_json` reads devcontainer files, and the source offset of a member's string value
//! found by scanning the text for its key (the decoded value comes from `serde_json`).

/// `text` with `//` and `/* */` comments and trailing commas replaced by spaces (newlines
/// kept), so every offset stays where it was. Strings are left alone.
pub(crate) fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut in_str = false;
    let mut last_comma: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                last_comma = None;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut j = i;
                while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/') && j > i + 1) {
                    if b[j] != b'\n' {
                        out[j] = b' ';
                    }
                    j += 1;
                }
                for byte in out.iter_mut().take((j + 2).min(b.len())).skip(j) {
                    *byte = b' ';
                }
                i = j + 2;
                continue;
            }
            b',' => last_comma = Some(i),
            b'}' | b']' => {
                if let Some(k) = last_comma.take() {
                    out[k] = b' ';
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => last_comma = None,
        }
        i += 1;
    }
    // only ASCII bytes outside strings were replaced by ASCII spaces
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Byte offset of the opening quote of the string value of member `key`, searching `text` from
/// byte `from` (the first `"key"` followed by `:` and a string). `None` when not found.
pub(crate) fn locate_member(text: &str, from: usize, key: &str) -> Option<usize> {
    let quoted = serde_json::to_string(key).ok()?;
    let mut at = from.min(text.len());
    while let Some(i) = text.get(at..)?.find(&quoted) {
        let after_key = at + i + quoted.len();
        let rest = text.get(after_key..)?;
        let trimmed = rest.trim_start();
        if let Some(r) = trimmed.strip_prefix(':') {
            let value = r.trim_start();
            let off = text.len() - value.len();
            if value.starts_with('"') || value.starts_with('[') || value.starts_with('{') {
                return Some(off);
            }
        }
        at = after_key;
    }
    None
}

/// Byte offset of the next string literal at or after `from` (its opening quote).
pub(crate) fn next_string(text: &str, from: usize) -> Option<usize> {
    text.get(from..)?.find('"').map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_is_json_with_offsets_kept() {
        let src = "{\n  // c\n  \"a\": \"x // not a comment\", /* b */\n  \"b\": [1, 2,],\n}";
        let s = strip_jsonc(src);
        assert_eq!(s.len(), src.len());
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a"], "x // not a comment");
        assert_eq!(locate_member(&s, 0, "a"), src.find("\"x //"));
    }
}
