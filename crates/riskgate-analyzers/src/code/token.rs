//! Tokens shared by the per-language tokenizers: identifiers, string literals (with their decoded
//! value and any interpolated code), numbers, punctuation and statement ends. Comments are not
//! tokens: they are only remembered as spans, so that nothing in them can ever match.

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// A name or keyword.
    Ident(String),
    /// A string literal.
    Str(StrLit),
    /// A numeric literal (its source text).
    Num(String),
    /// Punctuation or an operator (`(`, `.`, `=`, `==`, `=>`, …).
    Punct(String),
    /// End of a logical line or statement (Python NEWLINE outside brackets, shell newline,
    /// JavaScript `;` is a `Punct`).
    Newline,
}

/// A string literal: its value with escapes decoded (as far as cheaply possible), and the code
/// interpolated into it (Python f-strings, JavaScript template literals, shell `$(…)`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StrLit {
    /// The literal text, interpolations replaced by `{}`.
    pub value: String,
    /// True for f-strings and template literals with at least one interpolation.
    pub interpolated: bool,
    /// Token streams of the interpolated expressions.
    pub parts: Vec<Vec<Token>>,
    /// True for Python triple-quoted strings (candidates for docstrings).
    pub triple: bool,
}

/// One token with its byte span and 1-based line.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// First byte in the source.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
}

impl Token {
    /// The identifier text, if this is an identifier.
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    /// True when this is the punctuation `p`.
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(&self.kind, TokenKind::Punct(s) if s == p)
    }

    /// The string literal, if this is one.
    pub fn str_lit(&self) -> Option<&StrLit> {
        match &self.kind {
            TokenKind::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The result of tokenizing one source text.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    /// Tokens in source order.
    pub tokens: Vec<Token>,
    /// Byte spans of comments (and of other text that is never executed, such as docstrings).
    pub inert: Vec<(usize, usize)>,
    /// True when the tokenizer hit an unterminated string or comment, or a bound.
    pub incomplete: bool,
}

/// Tokenizer bounds: past these the rest of the input is not tokenized and the result is
/// marked incomplete (fail-safe, never a hang).
pub const MAX_TOKENS: usize = 200_000;
/// Maximum nesting of interpolations (`f"{f'{x}'}"`).
pub const MAX_NESTING: usize = 16;

/// A cursor over the source bytes that tracks the line number.
pub(crate) struct Cursor<'a> {
    pub src: &'a str,
    pub bytes: &'a [u8],
    pub pos: usize,
    pub line: u32,
}

impl<'a> Cursor<'a> {
    pub fn new(src: &'a str) -> Cursor<'a> {
        Cursor {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            line: 1,
        }
    }

    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub fn peek_at(&self, off: usize) -> Option<u8> {
        self.bytes.get(self.pos + off).copied()
    }

    pub fn starts_with(&self, s: &str) -> bool {
        self.bytes
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(s.as_bytes()))
    }

    /// Advance one character (a whole UTF-8 sequence), returning it.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.src.get(self.pos..)?.chars().next()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        self.src.get(start..end).unwrap_or("")
    }
}

/// True for bytes that can start an identifier (ASCII letters, `_`, `$` for JS, any non-ASCII).
pub(crate) fn is_ident_start(b: u8, dollar: bool) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || (dollar && b == b'$') || b >= 0x80
}

/// True for bytes that can continue an identifier.
pub(crate) fn is_ident_continue(b: u8, dollar: bool) -> bool {
    is_ident_start(b, dollar) || b.is_ascii_digit()
}

/// Decode the usual backslash escapes of a non-raw string body.
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\n') => {}
            Some('x') => {
                let h: String = chars.by_ref().take(2).collect();
                match u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push_str(&h),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
