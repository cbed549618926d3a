//! Python tokenizer: comments, all string forms (prefixes `r b u f` and their combinations,
//! single and triple quotes, escapes, f-string interpolations lexed as code), line joining inside
//! brackets and after `\`, and docstrings / bare string statements marked inert.

use super::token::{
    Cursor, Lexed, MAX_NESTING, MAX_TOKENS, StrLit, Token, TokenKind, is_ident_continue,
    is_ident_start, unescape,
};

/// Tokenize Python source.
pub fn lex(src: &str) -> Lexed {
    let mut out = lex_at(src, 0, 1, 0);
    mark_bare_strings(&mut out);
    out
}

fn lex_at(src: &str, offset: usize, first_line: u32, nesting: usize) -> Lexed {
    let mut c = Cursor::new(src);
    c.line = first_line;
    let mut out = Lexed::default();
    let mut depth: usize = 0;
    while !c.at_end() {
        if out.tokens.len() >= MAX_TOKENS {
            out.incomplete = true;
            break;
        }
        let Some(b) = c.peek() else { break };
        let start = c.pos;
        let line = c.line;
        match b {
            b'\n' => {
                c.bump();
                if depth == 0
                    && !matches!(
                        out.tokens.last(),
                        None | Some(Token {
                            kind: TokenKind::Newline,
                            ..
                        })
                    )
                {
                    out.tokens.push(tok(
                        TokenKind::Newline,
                        start + offset,
                        c.pos + offset,
                        line,
                    ));
                }
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => {
                c.bump();
            }
            b'\\' if matches!(c.peek_at(1), Some(b'\n')) => {
                c.bump();
                c.bump();
            }
            b'#' => {
                while let Some(x) = c.peek() {
                    if x == b'\n' {
                        break;
                    }
                    c.bump();
                }
                out.inert.push((start + offset, c.pos + offset));
            }
            b'\'' | b'"' => {
                let lit = string(&mut c, "", offset, nesting, &mut out);
                out.tokens.push(tok(
                    TokenKind::Str(lit),
                    start + offset,
                    c.pos + offset,
                    line,
                ));
            }
            _ if is_ident_start(b, false) => {
                while c.peek().is_some_and(|x| is_ident_continue(x, false)) {
                    c.bump();
                }
                let word = c.slice(start, c.pos);
                if matches!(c.peek(), Some(b'\'' | b'"')) && is_prefix(word) {
                    let lit = string(&mut c, word, offset, nesting, &mut out);
                    out.tokens.push(tok(
                        TokenKind::Str(lit),
                        start + offset,
                        c.pos + offset,
                        line,
                    ));
                } else {
                    out.tokens.push(tok(
                        TokenKind::Ident(word.to_string()),
                        start + offset,
                        c.pos + offset,
                        line,
                    ));
                }
            }
            _ if b.is_ascii_digit()
                || (b == b'.' && c.peek_at(1).is_some_and(|x| x.is_ascii_digit())) =>
            {
                while c
                    .peek()
                    .is_some_and(|x| x.is_ascii_alphanumeric() || x == b'.' || x == b'_')
                {
                    c.bump();
                }
                let text = c.slice(start, c.pos).to_string();
                out.tokens.push(tok(
                    TokenKind::Num(text),
                    start + offset,
                    c.pos + offset,
                    line,
                ));
            }
            _ => {
                let p = punct(&mut c);
                match p.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                out.tokens.push(tok(
                    TokenKind::Punct(p),
                    start + offset,
                    c.pos + offset,
                    line,
                ));
            }
        }
    }
    out
}

fn tok(kind: TokenKind, start: usize, end: usize, line: u32) -> Token {
    Token {
        kind,
        start,
        end,
        line,
    }
}

fn is_prefix(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "r" | "u" | "b" | "f" | "rb" | "br" | "fr" | "rf" | "t" | "tr" | "rt"
    )
}

const OPS: [&str; 24] = [
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
];

fn punct(c: &mut Cursor<'_>) -> String {
    for op in OPS {
        if c.starts_with(op) {
            for _ in 0..op.len() {
                c.bump();
            }
            return op.to_string();
        }
    }
    c.bump().map(String::from).unwrap_or_default()
}

/// Lex a string literal starting at the quote; `prefix` was already consumed.
fn string(
    c: &mut Cursor<'_>,
    prefix: &str,
    offset: usize,
    nesting: usize,
    out: &mut Lexed,
) -> StrLit {
    let lower = prefix.to_ascii_lowercase();
    let raw = lower.contains('r');
    let fstr = lower.contains('f') || lower.contains('t');
    let Some(q) = c.peek() else {
        return StrLit::default();
    };
    let triple = c.peek_at(1) == Some(q) && c.peek_at(2) == Some(q);
    let qlen = if triple { 3 } else { 1 };
    for _ in 0..qlen {
        c.bump();
    }
    let mut lit = StrLit {
        triple,
        ..StrLit::default()
    };
    let mut buf = String::new();
    loop {
        let Some(x) = c.peek() else {
            out.incomplete = true;
            break;
        };
        if x == q && (!triple || (c.peek_at(1) == Some(q) && c.peek_at(2) == Some(q))) {
            for _ in 0..qlen {
                c.bump();
            }
            break;
        }
        if x == b'\n' && !triple {
            // unterminated single-line string: stop at the end of the line
            out.incomplete = true;
            break;
        }
        if x == b'\\' {
            let s = c.pos;
            c.bump();
            c.bump();
            buf.push_str(c.slice(s, c.pos));
            continue;
        }
        if fstr && x == b'{' {
            if c.peek_at(1) == Some(b'{') {
                c.bump();
                c.bump();
                buf.push('{');
                continue;
            }
            flush(&mut lit, &mut buf, raw);
            c.bump();
            let expr_start = c.pos;
            let expr_line = c.line;
            let expr_end = interpolation_end(c, q, triple);
            let expr = c.slice(expr_start, expr_end);
            let expr = cut_format_spec(expr);
            if nesting < MAX_NESTING {
                let sub = lex_at(expr, expr_start + offset, expr_line, nesting + 1);
                out.inert.extend(sub.inert);
                out.incomplete |= sub.incomplete;
                lit.parts.push(sub.tokens);
            } else {
                out.incomplete = true;
            }
            lit.value.push_str("{}");
            lit.interpolated = true;
            continue;
        }
        if fstr && x == b'}' && c.peek_at(1) == Some(b'}') {
            c.bump();
            c.bump();
            buf.push('}');
            continue;
        }
        let s = c.pos;
        c.bump();
        buf.push_str(c.slice(s, c.pos));
    }
    flush(&mut lit, &mut buf, raw);
    lit
}

fn flush(lit: &mut StrLit, buf: &mut String, raw: bool) {
    if raw {
        lit.value.push_str(buf);
    } else {
        lit.value.push_str(&unescape(buf));
    }
    buf.clear();
}

/// Advance past an f-string interpolation body up to and including its closing `}`; returns
/// the end of the expression text (the position of that `}`).
fn interpolation_end(c: &mut Cursor<'_>, q: u8, triple: bool) -> usize {
    let mut depth = 0usize;
    while let Some(x) = c.peek() {
        match x {
            b'{' | b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth == 0 => {
                let end = c.pos;
                c.bump();
                return end;
            }
            b'}' => depth -= 1,
            b'\n' if !triple => return c.pos,
            b'\'' | b'"' if x != q => {
                // a nested string of the other quote kind
                c.bump();
                while let Some(y) = c.peek() {
                    if y == x || (y == b'\n' && !triple) {
                        break;
                    }
                    c.bump();
                }
            }
            _ if x == q && !triple => return c.pos,
            _ => {}
        }
        c.bump();
    }
    c.pos
}

/// Drop a trailing `!r` conversion or `:spec` format spec at bracket depth 0.
fn cut_format_spec(expr: &str) -> &str {
    let mut depth = 0i32;
    let bytes = expr.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'!' if depth == 0 && bytes.get(i + 1) != Some(&b'=') => {
                return expr.get(..i).unwrap_or(expr);
            }
            b':' if depth == 0 => return expr.get(..i).unwrap_or(expr),
            _ => {}
        }
    }
    expr
}

/// A string literal that is a whole statement (docstrings, bare strings) is never executed:
/// drop it from the token stream and remember its span as inert.
fn mark_bare_strings(lexed: &mut Lexed) {
    let toks = std::mem::take(&mut lexed.tokens);
    let mut keep = Vec::with_capacity(toks.len());
    let n = toks.len();
    let mut i = 0;
    while i < n {
        let at_stmt_start = i == 0
            || toks.get(i.wrapping_sub(1)).is_some_and(|t| {
                matches!(t.kind, TokenKind::Newline) || t.is_punct(";") || t.is_punct(":")
            });
        if at_stmt_start && toks.get(i).is_some_and(|t| t.str_lit().is_some()) {
            // implicit concatenation: a run of adjacent string tokens
            let mut j = i;
            while toks.get(j).is_some_and(|t| t.str_lit().is_some()) {
                j += 1;
            }
            let ends_stmt = toks
                .get(j)
                .is_none_or(|t| matches!(t.kind, TokenKind::Newline) || t.is_punct(";"));
            if ends_stmt {
                let start = toks.get(i).map(|t| t.start).unwrap_or(0);
                let end = toks
                    .get(j.saturating_sub(1))
                    .map(|t| t.end)
                    .unwrap_or(start);
                lexed.inert.push((start, end));
                i = j;
                continue;
            }
        }
        if let Some(t) = toks.get(i) {
            keep.push(t.clone());
        }
        i += 1;
    }
    lexed.tokens = keep;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).tokens.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn comments_are_not_tokens() {
        let l = lex("x = 1  # shutil.rmtree('/')\n");
        assert!(l.tokens.iter().all(|t| t.ident() != Some("shutil")));
        assert_eq!(l.inert.len(), 1);
    }

    #[test]
    fn strings_and_prefixes() {
        let k = kinds(r#"a = rb'\x41' + "b\n" + '''c'd'''"#);
        let strs: Vec<String> = k
            .iter()
            .filter_map(|k| match k {
                TokenKind::Str(s) => Some(s.value.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(strs, vec![r"\x41".to_string(), "b\n".into(), "c'd".into()]);
    }

    #[test]
    fn fstring_interpolations_are_code() {
        let l = lex("x = f\"rm {os.system('id')!r:>10} {{literal}}\"");
        let lit = l
            .tokens
            .iter()
            .find_map(|t| t.str_lit())
            .cloned()
            .unwrap_or_default();
        assert!(lit.interpolated);
        assert_eq!(lit.value, "rm {} {literal}");
        let inner: Vec<_> = lit
            .parts
            .iter()
            .flatten()
            .filter_map(|t| t.ident())
            .collect();
        assert_eq!(inner, vec!["os", "system"]);
    }

    #[test]
    fn docstrings_are_inert() {
        let l = lex("def f():\n    \"\"\"shutil.rmtree('/')\"\"\"\n    return 1\n");
        assert!(l.tokens.iter().all(|t| t.str_lit().is_none()));
        assert_eq!(l.inert.len(), 1);
    }

    #[test]
    fn unterminated_is_incomplete_not_panic() {
        assert!(lex("x = 'abc").incomplete);
        assert!(lex("x = f'{").incomplete || !lex("x = f'{").tokens.is_empty());
        let _ = lex("\"\"\"");
        let _ = lex("\\");
    }
}
