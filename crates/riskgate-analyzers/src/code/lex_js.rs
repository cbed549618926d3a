//! JavaScript / TypeScript tokenizer: line and block comments, `'…'` and `"…"` strings with
//! escapes, template literals whose `${…}` parts are lexed as code, regular-expression literals
//! (told apart from division by the previous token), and statement ends.

use super::token::{
    Cursor, Lexed, MAX_NESTING, MAX_TOKENS, StrLit, Token, TokenKind, is_ident_continue,
    is_ident_start, unescape,
};

/// Tokenize JavaScript or TypeScript source.
pub fn lex(src: &str) -> Lexed {
    lex_at(src, 0, 1, 0)
}

fn lex_at(src: &str, offset: usize, first_line: u32, nesting: usize) -> Lexed {
    let mut c = Cursor::new(src);
    c.line = first_line;
    let mut out = Lexed::default();
    let mut depth: usize = 0;
    if offset == 0 && c.starts_with("#!") {
        skip_line(&mut c);
        out.inert.push((0, c.pos));
    }
    while !c.at_end() {
        if out.tokens.len() >= MAX_TOKENS {
            out.incomplete = true;
            break;
        }
        let Some(b) = c.peek() else { break };
        let start = c.pos;
        let line = c.line;
        let at = |end: usize| (start + offset, end + offset);
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
                    out.tokens.push(tok(TokenKind::Newline, at(c.pos), line));
                }
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => {
                c.bump();
            }
            b'/' if c.peek_at(1) == Some(b'/') => {
                skip_line(&mut c);
                out.inert.push(at(c.pos));
            }
            b'/' if c.peek_at(1) == Some(b'*') => {
                c.bump();
                c.bump();
                loop {
                    if c.at_end() {
                        out.incomplete = true;
                        break;
                    }
                    if c.starts_with("*/") {
                        c.bump();
                        c.bump();
                        break;
                    }
                    c.bump();
                }
                out.inert.push(at(c.pos));
            }
            b'/' if regex_allowed(out.tokens.last()) => {
                if let Some(body) = regex_literal(&mut c) {
                    out.tokens.push(tok(
                        TokenKind::Str(StrLit {
                            value: body,
                            ..StrLit::default()
                        }),
                        at(c.pos),
                        line,
                    ));
                } else {
                    c.bump();
                    out.tokens
                        .push(tok(TokenKind::Punct("/".into()), at(c.pos), line));
                }
            }
            b'\'' | b'"' => {
                let lit = quoted(&mut c, b, &mut out);
                out.tokens.push(tok(TokenKind::Str(lit), at(c.pos), line));
            }
            b'`' => {
                let lit = template(&mut c, offset, nesting, &mut out);
                out.tokens.push(tok(TokenKind::Str(lit), at(c.pos), line));
            }
            _ if is_ident_start(b, true) => {
                while c.peek().is_some_and(|x| is_ident_continue(x, true)) {
                    c.bump();
                }
                let word = c.slice(start, c.pos).to_string();
                out.tokens
                    .push(tok(TokenKind::Ident(word), at(c.pos), line));
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
                out.tokens.push(tok(TokenKind::Num(text), at(c.pos), line));
            }
            _ => {
                let p = punct(&mut c);
                match p.as_str() {
                    "(" | "[" => depth += 1,
                    ")" | "]" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                out.tokens.push(tok(TokenKind::Punct(p), at(c.pos), line));
            }
        }
    }
    out
}

fn tok(kind: TokenKind, (start, end): (usize, usize), line: u32) -> Token {
    Token {
        kind,
        start,
        end,
        line,
    }
}

fn skip_line(c: &mut Cursor<'_>) {
    while let Some(x) = c.peek() {
        if x == b'\n' {
            break;
        }
        c.bump();
    }
}

const KEYWORDS_BEFORE_EXPR: [&str; 14] = [
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
];

fn regex_allowed(prev: Option<&Token>) -> bool {
    match prev {
        None => true,
        Some(t) => match &t.kind {
            TokenKind::Ident(w) => KEYWORDS_BEFORE_EXPR.contains(&w.as_str()),
            TokenKind::Num(_) | TokenKind::Str(_) => false,
            TokenKind::Punct(p) => !matches!(p.as_str(), ")" | "]" | "}" | "++" | "--"),
            TokenKind::Newline => true,
        },
    }
}

/// A regex literal `/body/flags`; None when there is no closing `/` on this line.
fn regex_literal(c: &mut Cursor<'_>) -> Option<String> {
    let save = (c.pos, c.line);
    c.bump();
    let body_start = c.pos;
    let mut in_class = false;
    loop {
        let x = c.peek()?;
        match x {
            b'\n' => {
                (c.pos, c.line) = save;
                return None;
            }
            b'\\' => {
                c.bump();
                if c.peek() == Some(b'\n') {
                    (c.pos, c.line) = save;
                    return None;
                }
                c.bump();
                continue;
            }
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => break,
            _ => {}
        }
        c.bump();
    }
    let body = c.slice(body_start, c.pos).to_string();
    c.bump();
    while c.peek().is_some_and(|x| x.is_ascii_alphabetic()) {
        c.bump();
    }
    Some(body)
}

const OPS: [&str; 38] = [
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>", "::", "->", "#{", "@@", "::",
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

fn quoted(c: &mut Cursor<'_>, q: u8, out: &mut Lexed) -> StrLit {
    c.bump();
    let start = c.pos;
    loop {
        let Some(x) = c.peek() else {
            out.incomplete = true;
            break;
        };
        if x == q {
            break;
        }
        if x == b'\n' {
            out.incomplete = true;
            break;
        }
        if x == b'\\' {
            c.bump();
        }
        c.bump();
    }
    let raw = c.slice(start, c.pos);
    if c.peek() == Some(q) {
        c.bump();
    }
    StrLit {
        value: unescape(raw),
        ..StrLit::default()
    }
}

fn template(c: &mut Cursor<'_>, offset: usize, nesting: usize, out: &mut Lexed) -> StrLit {
    c.bump();
    let mut lit = StrLit::default();
    let mut buf = String::new();
    loop {
        let Some(x) = c.peek() else {
            out.incomplete = true;
            break;
        };
        match x {
            b'`' => {
                c.bump();
                break;
            }
            b'\\' => {
                let s = c.pos;
                c.bump();
                c.bump();
                buf.push_str(c.slice(s, c.pos));
            }
            b'$' if c.peek_at(1) == Some(b'{') => {
                lit.value.push_str(&unescape(&buf));
                buf.clear();
                c.bump();
                c.bump();
                let expr_start = c.pos;
                let expr_line = c.line;
                let expr_end = expr_end(c, out);
                if nesting < MAX_NESTING {
                    let sub = lex_at(
                        c.slice(expr_start, expr_end),
                        expr_start + offset,
                        expr_line,
                        nesting + 1,
                    );
                    out.inert.extend(sub.inert);
                    out.incomplete |= sub.incomplete;
                    lit.parts.push(sub.tokens);
                } else {
                    out.incomplete = true;
                }
                lit.value.push_str("{}");
                lit.interpolated = true;
            }
            _ => {
                let s = c.pos;
                c.bump();
                buf.push_str(c.slice(s, c.pos));
            }
        }
    }
    lit.value.push_str(&unescape(&buf));
    lit
}

/// Skip a `${…}` body (balanced braces, nested strings and templates); returns the position of
/// the closing `}` and consumes it.
fn expr_end(c: &mut Cursor<'_>, out: &mut Lexed) -> usize {
    let mut depth = 0usize;
    while let Some(x) = c.peek() {
        match x {
            b'{' => depth += 1,
            b'}' if depth == 0 => {
                let end = c.pos;
                c.bump();
                return end;
            }
            b'}' => depth -= 1,
            b'\'' | b'"' => {
                let _ = quoted(c, x, out);
                continue;
            }
            b'`' => {
                skip_template(c, out);
                continue;
            }
            _ => {}
        }
        c.bump();
    }
    out.incomplete = true;
    c.pos
}

/// Skip a nested template literal inside a `${…}` body (it is lexed again with the body).
fn skip_template(c: &mut Cursor<'_>, out: &mut Lexed) {
    c.bump();
    while let Some(x) = c.peek() {
        match x {
            b'`' => {
                c.bump();
                return;
            }
            b'\\' => {
                c.bump();
                c.bump();
            }
            b'$' if c.peek_at(1) == Some(b'{') => {
                c.bump();
                c.bump();
                let _ = expr_end(c, out);
            }
            _ => {
                c.bump();
            }
        }
    }
    out.incomplete = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_regexes() {
        let l = lex("// fs.rmSync('/')\nconst re = /'/g; /* exec('x') */ let s = 'a'");
        let ids: Vec<_> = l.tokens.iter().filter_map(|t| t.ident()).collect();
        assert_eq!(ids, vec!["const", "re", "let", "s"]);
        assert_eq!(l.inert.len(), 2);
        assert!(!l.incomplete);
    }

    #[test]
    fn division_is_not_a_regex() {
        let l = lex("x = a / b / c");
        assert_eq!(l.tokens.iter().filter(|t| t.is_punct("/")).count(), 2);
    }

    #[test]
    fn template_parts_are_code() {
        let l = lex("const s = `rm ${fs.rmSync(`/x${y}`)} done`");
        let lit = l
            .tokens
            .iter()
            .find_map(|t| t.str_lit())
            .cloned()
            .unwrap_or_default();
        assert_eq!(lit.value, "rm {} done");
        let ids: Vec<_> = lit
            .parts
            .iter()
            .flatten()
            .filter_map(|t| t.ident())
            .collect();
        assert_eq!(ids, vec!["fs", "rmSync"]);
    }

    #[test]
    fn never_panics_on_garbage() {
        for s in ["`${", "'", "/*", "/[/", "`\\", "${}`", "\u{1F600}(`"] {
            let _ = lex(s);
        }
    }
}
