//! Language-neutral tokens: strings, command literals, dotted names, numbers, punctuation,
//! and for each token whether a blank stands before it.

use super::{MAX_CODE, MAX_TEXT, MAX_TOKENS};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Str(String),
    /// A command literal: `` `…` ``.
    Cmd(String),
    Name(String),
    Num(i64),
    Punct(&'static str),
    Newline,
}

const PUNCTS: &[&str] = &[
    "|>", "#|", "..", "<>", "<-", ":=", "->", "=>", "!!", "++", "::", "(", ")", "[", "]", "{", "}",
    ",", ";", "=", "+", "*", "~", ".", "!", ":", "<", ">", "|", "&", "-", "/", "%", "?", "@", "^",
    "$",
];

/// The tokens of `code`, and for each whether a blank stands before it (`(f (g x))` is a
/// Lisp form, `(f(x))` a call).
pub(super) fn tokens(code: &str) -> (Vec<Tok>, Vec<bool>) {
    let code = code.get(..MAX_CODE).unwrap_or(code);
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut gaps = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_TOKENS {
        let c = b[i];
        while gaps.len() < out.len() {
            gaps.push(false);
        }
        if gaps.len() == out.len() && i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'\n') {
            gaps.push(true);
        }
        match c {
            b'\n' => {
                out.push(Tok::Newline);
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            // a comment to the end of the line: `# …`, `// …`, `-- …`, `;; …`
            b'#' if matches!(b.get(i + 1), Some(b' ' | b'!' | b'#')) || i == 0 => {
                i = line_end(b, i)
            }
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'-' if b.get(i + 1) == Some(&b'-') && b.get(i + 2) == Some(&b' ') => {
                i = line_end(b, i)
            }
            b';' if b.get(i + 1) == Some(&b';') => i = line_end(b, i),
            // an Elixir sigil's letter before its string (`~c"redis-cli …"`)
            b'~' if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
                && matches!(b.get(i + 2), Some(b'"' | b'\'')) =>
            {
                i += 2;
            }
            b'"' | b'\'' | b'`' => {
                let (text, end) = string_at(code, i);
                match (c, text) {
                    (b'`', Some(t)) => out.push(Tok::Cmd(t)),
                    (_, Some(t)) => out.push(Tok::Str(t)),
                    // an apostrophe that opens no string (a Lisp quote, a character)
                    (_, None) => {}
                }
                i = end;
            }
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let n = code[start..i].parse().unwrap_or(i64::MAX);
                out.push(Tok::Num(n));
            }
            // AppleScript's command in three words
            b'd' if code[i..].starts_with("do shell script") => {
                out.push(Tok::Name("doShellScript".into()));
                i += "do shell script".len();
            }
            c if c.is_ascii_alphabetic() || c == b'_' || (c == b':' && next_alpha(b, i + 1)) => {
                let start = i;
                i += 1;
                loop {
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_')) {
                        i += 1;
                    }
                    while i < b.len() && matches!(b[i], b'!' | b'?') {
                        i += 1;
                    }
                    // separators inside a dotted name: `.`, `::`, `:`, `/` (Clojure), `-`
                    // (Lisp): only between letters
                    let sep = match b.get(i) {
                        Some(b':') if b.get(i + 1) == Some(&b':') => 2,
                        Some(b'.' | b':' | b'/' | b'-') => 1,
                        _ => 0,
                    };
                    if sep > 0 && next_alpha(b, i + sep) && !matches!(b.get(i - 1), Some(b'!')) {
                        i += sep;
                        continue;
                    }
                    break;
                }
                out.push(Tok::Name(code[start..i].to_string()));
            }
            _ => {
                let rest = &code[i..];
                if let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                    out.push(Tok::Punct(p));
                    i += p.len();
                } else {
                    i += rest.chars().next().map_or(1, char::len_utf8);
                }
            }
        }
    }
    gaps.resize(out.len(), false);
    (out, gaps)
}

fn next_alpha(b: &[u8], i: usize) -> bool {
    b.get(i)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
}

fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

/// The string opened at `i` (its unescaped text, `None` for a quote that does not close on
/// its line when it is an apostrophe) and the index past it.
fn string_at(code: &str, i: usize) -> (Option<String>, usize) {
    let b = code.as_bytes();
    let q = b[i];
    let mut text = String::new();
    let mut j = i + 1;
    while j < b.len() {
        let c = b[j];
        if c == b'\\' && q != b'`' {
            let (ch, n) = match b.get(j + 1) {
                Some(b'n') => ('\n', 2),
                Some(b't') => ('\t', 2),
                Some(&e) if e.is_ascii() => (char::from(e), 2),
                _ => ('\\', 1),
            };
            text.push(ch);
            j += n;
            continue;
        }
        if c == q {
            return (Some(text), j + 1);
        }
        if c == b'\n' && q == b'\'' {
            return (None, i + 1);
        }
        let ch = code[j..].chars().next().unwrap_or('\u{fffd}');
        if text.len() < MAX_TEXT {
            text.push(ch);
        }
        j += ch.len_utf8();
    }
    if q == b'\'' {
        return (None, i + 1);
    }
    (Some(text), b.len())
}
