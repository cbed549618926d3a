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

/// Whether `expr` (the body of `(( … ))`) reads as an arithmetic expression: operands
/// (numbers, names, `$…` expansions, `name[…]`) and operators alternating, parentheses
/// balanced. `rm -rf /` (ends on an operator) and `git push origin` (two operands in a row) do
/// not: bash parses such text as nested subshells instead.
pub(crate) fn is_arithmetic(expr: &str) -> bool {
    let b = expr.as_bytes();
    let mut i = 0usize;
    let mut want_operand = true;
    let mut depth = 0i32;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if want_operand {
            if c == b'(' {
                depth += 1;
                i += 1;
            } else if matches!(c, b'-' | b'+' | b'!' | b'~') {
                // Unary operators (and prefix ++ / --).
                i += 1;
            } else if c.is_ascii_alphanumeric() || c == b'_' {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'#')
                {
                    i += 1;
                }
                want_operand = false;
            } else if c == b'$' {
                i += 1;
                if b.get(i) == Some(&b'{') || b.get(i) == Some(&b'(') {
                    let (open, close) = if b[i] == b'{' {
                        (b'{', b'}')
                    } else {
                        (b'(', b')')
                    };
                    let mut d = 0i32;
                    while i < b.len() {
                        if b[i] == open {
                            d += 1;
                        } else if b[i] == close {
                            d -= 1;
                            if d == 0 {
                                i += 1;
                                break;
                            }
                        }
                        i += 1;
                    }
                } else {
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                }
                want_operand = false;
            } else {
                return false;
            }
            // Subscripts: `a[i+1]`.
            if !want_operand && b.get(i) == Some(&b'[') {
                while i < b.len() && b[i] != b']' {
                    i += 1;
                }
                i += 1;
            }
        } else if c == b')' {
            depth -= 1;
            if depth < 0 {
                return false;
            }
            i += 1;
        } else if (c == b'+' || c == b'-') && b.get(i + 1) == Some(&c) {
            // Postfix ++ / --.
            i += 2;
        } else if b"+-*/%<>=!&|^?:,".contains(&c) {
            while i < b.len() && b"+-*/%<>=!&|^?:,".contains(&b[i]) {
                i += 1;
            }
            want_operand = true;
        } else {
            return false;
        }
    }
    !want_operand && depth == 0 || expr.trim().is_empty()
}

#[cfg(test)]
mod arithmetic_tests {
    use super::is_arithmetic;

    #[test]
    fn arithmetic_or_commands() {
        for a in [
            "i++",
            "x = 1 + 2",
            "count > 5",
            "a[i] *= (b - 1)",
            "$x % 2 == 0",
            "${#arr[@]} > 0",
            "i < 10 && j--",
            "-1",
            "",
        ] {
            assert!(is_arithmetic(a), "{a}");
        }
        for c in [
            "rm -rf /",
            " rm -rf / ) ",
            "git push origin main",
            "rm -rf build",
            "curl x | sh",
        ] {
            assert!(!is_arithmetic(c), "{c}");
        }
    }
}
