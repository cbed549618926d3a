//! Split SQL text into statements at top-level `;`, knowing quotes ('…' with '' and, in MySQL,
//! backslash escapes; "…"; `…`; Postgres $tag$…$tag$), line comments (`--`, and `#` in MySQL)
//! and block comments. Each statement keeps its byte span and line, and a "stripped" form with
//! comments removed and string contents emptied, for keyword matching that strings and
//! comments cannot fool.

use super::Dialect;

/// One statement of the input.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Piece {
    /// Source text (from its first significant character to before its `;`).
    pub text: String,
    /// Byte offset of `text` in the input.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// Comments removed (replaced by a space), string literal contents removed (`''` left).
    pub stripped: String,
}

/// Split; the flag is true when a quote or comment is left open at the end.
pub(crate) fn split(text: &str, dialect: Dialect) -> (Vec<Piece>, bool) {
    let b = text.as_bytes();
    let mysql = dialect == Dialect::MySql;
    let dollar = matches!(dialect, Dialect::Postgres | Dialect::Generic);
    let mut pieces = Vec::new();
    let mut i = 0usize;
    let mut line = 1u32;
    let mut start: Option<(usize, u32)> = None;
    let mut stripped = String::new();
    let mut open = false;
    // byte offset of the last significant (non-space, non-comment) character + 1
    let mut last_sig = 0usize;

    macro_rules! mark {
        () => {
            if start.is_none() {
                start = Some((i, line));
            }
        };
    }

    while let Some(&c) = b.get(i) {
        match c {
            b'\n' => {
                line += 1;
                stripped.push('\n');
                i += 1;
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while b.get(i).is_some_and(|x| *x != b'\n') {
                    i += 1;
                }
                stripped.push(' ');
            }
            b'#' if mysql => {
                while b.get(i).is_some_and(|x| *x != b'\n') {
                    i += 1;
                }
                stripped.push(' ');
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                loop {
                    match b.get(i) {
                        None => {
                            open = true;
                            break;
                        }
                        Some(b'*') if b.get(i + 1) == Some(&b'/') => {
                            i += 2;
                            break;
                        }
                        Some(b'\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                stripped.push(' ');
            }
            b'\'' | b'"' | b'`' => {
                mark!();
                let q = c;
                i += 1;
                let keep = q != b'\'' && !(mysql && q == b'"');
                stripped.push(q as char);
                let body_start = i;
                loop {
                    match b.get(i) {
                        None => {
                            open = true;
                            break;
                        }
                        Some(&x) if x == q => {
                            if b.get(i + 1) == Some(&q) {
                                i += 2;
                                continue;
                            }
                            break;
                        }
                        Some(b'\\') if mysql => i += 2,
                        Some(b'\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                if keep {
                    stripped.push_str(text.get(body_start..i.min(text.len())).unwrap_or(""));
                }
                if b.get(i).is_some() {
                    stripped.push(q as char);
                    i += 1;
                }
                last_sig = i.min(text.len());
            }
            b'$' if dollar => {
                // $tag$ … $tag$
                let tag_end = b
                    .get(i + 1..)
                    .and_then(|r| r.iter().position(|x| *x == b'$'))
                    .map(|p| i + 1 + p);
                let tag = tag_end.and_then(|e| text.get(i..=e));
                match tag {
                    Some(tag)
                        if tag.len() >= 2
                            && tag.get(1..tag.len() - 1).is_some_and(|t| {
                                t.bytes().all(|x| x.is_ascii_alphanumeric() || x == b'_')
                            })
                            && !tag
                                .get(1..)
                                .is_some_and(|t| t.starts_with(|ch: char| ch.is_ascii_digit())) =>
                    {
                        mark!();
                        let body_start = i + tag.len();
                        match text.get(body_start..).and_then(|r| r.find(tag)) {
                            Some(p) => {
                                line += text
                                    .get(i..body_start + p)
                                    .map(|s| s.matches('\n').count() as u32)
                                    .unwrap_or(0);
                                for _ in 0..text
                                    .get(i..body_start + p)
                                    .map(|s| s.matches('\n').count())
                                    .unwrap_or(0)
                                {
                                    stripped.push('\n');
                                }
                                i = body_start + p + tag.len();
                            }
                            None => {
                                open = true;
                                i = b.len();
                            }
                        }
                        stripped.push_str("''");
                        last_sig = i.min(text.len());
                    }
                    _ => {
                        mark!();
                        stripped.push('$');
                        i += 1;
                        last_sig = i;
                    }
                }
            }
            b';' => {
                if let Some((s, l)) = start.take() {
                    pieces.push(Piece {
                        text: text.get(s..last_sig).unwrap_or("").to_string(),
                        start: s,
                        end: last_sig,
                        line: l,
                        stripped: std::mem::take(&mut stripped).trim().to_string(),
                    });
                }
                stripped.clear();
                i += 1;
            }
            _ if c.is_ascii_whitespace() => {
                stripped.push(' ');
                i += 1;
            }
            _ => {
                mark!();
                let ch = text.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
                stripped.push(ch);
                i += ch.len_utf8().max(1);
                last_sig = i;
            }
        }
    }
    if let Some((s, l)) = start {
        pieces.push(Piece {
            text: text.get(s..last_sig.max(s)).unwrap_or("").to_string(),
            start: s,
            end: last_sig.max(s),
            line: l,
            stripped: stripped.trim().to_string(),
        });
    }
    (pieces, open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_keeps_spans() {
        let src = "SELECT 1; -- DROP TABLE x;\nDELETE FROM t WHERE a = ';' ;\n/* ; */ UPDATE t SET a = $$;$$";
        let (p, open) = split(src, Dialect::Postgres);
        assert!(!open);
        let texts: Vec<&str> = p.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "SELECT 1",
                "DELETE FROM t WHERE a = ';'",
                "UPDATE t SET a = $$;$$"
            ]
        );
        assert_eq!(p.iter().map(|p| p.line).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(&src[p[1].start..p[1].end], p[1].text);
        assert!(!p[1].stripped.contains(';'));
        assert!(!p.iter().any(|x| x.stripped.contains("DROP")));
    }

    #[test]
    fn unterminated_is_reported() {
        assert!(split("SELECT 'abc", Dialect::Generic).1);
        assert!(split("/* x", Dialect::Generic).1);
        assert!(split("", Dialect::Generic).0.is_empty());
        assert!(split("-- only a comment", Dialect::Generic).0.is_empty());
    }
}
