//! Bounds that keep normalization cheap and safe on hostile input: a linear pre-scan that
//! refuses pathological syntax nesting before the (recursive) bash parser sees it, and the
//! bound on our own walk of the syntax tree.

/// Deepest syntax nesting (parentheses, braces, quotes in substitutions, backquotes, compound
/// keywords) handed to the bash parser.
pub(crate) const MAX_SYNTAX_DEPTH: usize = 128;

/// Deepest syntax-tree level walked.
pub(crate) const MAX_AST_LEVEL: u32 = 512;

/// Err(bound) when `text` nests deeper than [`MAX_SYNTAX_DEPTH`]. Over-approximates (quotes are
/// ignored), which only matters for text with more than 128 unbalanced openers.
pub(crate) fn check_syntax_depth(text: &str) -> Result<(), usize> {
    let mut depth: usize = 0;
    let mut max: usize = 0;
    let mut backquote = false;
    let b = text.as_bytes();
    let mut word_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b'`' => {
                backquote = !backquote;
                if backquote {
                    depth += 1;
                } else {
                    depth = depth.saturating_sub(1);
                }
            }
            _ => {}
        }
        if word_start && c.is_ascii_lowercase() {
            let rest = &b[i..];
            let kw = |k: &[u8]| {
                rest.starts_with(k)
                    && rest
                        .get(k.len())
                        .is_none_or(|n| !n.is_ascii_alphanumeric() && *n != b'_')
            };
            if kw(b"if")
                || kw(b"while")
                || kw(b"until")
                || kw(b"for")
                || kw(b"case")
                || kw(b"select")
            {
                depth += 1;
            } else if kw(b"fi") || kw(b"done") || kw(b"esac") {
                depth = depth.saturating_sub(1);
            }
        }
        word_start = matches!(
            c,
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b'{' | b'`' | b'!'
        );
        max = max.max(depth);
        if max > MAX_SYNTAX_DEPTH {
            return Err(MAX_SYNTAX_DEPTH);
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_deep_nesting_only() {
        assert!(check_syntax_depth("echo $(ls (a) {b} [c])").is_ok());
        assert!(check_syntax_depth(&"(".repeat(1000)).is_err());
        assert!(check_syntax_depth(&"if true; then ".repeat(200)).is_err());
        assert!(check_syntax_depth(&"(a);".repeat(10_000)).is_ok());
    }
}
