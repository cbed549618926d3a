//! Bounds that keep normalization cheap and safe on hostile input, and the linear pre-scans
//! that decide what the bash parser (brush-parser 0.4.0) may be given.
//!
//! brush-parser is a recursive PEG parser without memoization. Measured on 0.4.0:
//! - its word parser backtracks exponentially on constructs that do not close the way its
//!   grammar expects: `$(` nested 14 times unclosed takes 2.4 s, `$((` nested 8 times 1.2 s,
//!   `$(@(` 8 times 13 s; and with 240 KB inside, even 3 levels take 0.5 to 0.9 s. Closed
//!   constructs parse in linear time (`"$(` nested 64 times around 240 KB: about 10 ms).
//! - its tokenizer loops forever, allocating, on a here-document whose tag is empty once
//!   quotes and leading ASCII whitespace are removed (`cat <<\r $(`, `cat <<'' ${`): the end
//!   tag "" matches at the end of input again and again (10 GB in 18 s).
//! - its program parser costs 10 to 30 µs a token: 40,000 `a;` take 0.3 to 1.3 s.
//! - both recurse once per nesting level (a stack overflow past a few thousand levels).
//!
//! So text reaches [`brush_parser::Parser`] only after [`check_program`] and a word reaches
//! [`brush_parser::word::parse`] only after [`check_word`]; what they refuse is split by the
//! fallback splitters instead, and the result says so ([`crate::ParseIssue::Limit`]).

/// Deepest syntax nesting (parentheses, braces, quotes in substitutions, backquotes, compound
/// keywords) handed to the bash parser.
pub(crate) const MAX_SYNTAX_DEPTH: usize = 128;

/// Most tokens (words and operators, over-approximated) handed to the bash parser at once.
pub(crate) const MAX_PARSE_TOKENS: usize = 8192;

/// Deepest nesting of quotes, substitutions and brackets inside one word handed to the word
/// parser (`"$(dirname "$(readlink -f "$0")")"` is 5).
pub(crate) const MAX_WORD_DEPTH: usize = 12;

/// Deepest syntax-tree level walked.
pub(crate) const MAX_AST_LEVEL: u32 = 512;

/// Err(message naming the bound) when `text` must not be given to the bash parser: nesting
/// deeper than [`MAX_SYNTAX_DEPTH`], more than [`MAX_PARSE_TOKENS`] tokens, or a
/// here-document tag the parser loops on.
pub(crate) fn check_program(text: &str) -> Result<(), String> {
    if let Err(depth) = check_syntax_depth(text) {
        return Err(format!("syntax nesting deeper than {depth}"));
    }
    if count_tokens(text) > MAX_PARSE_TOKENS {
        return Err(format!(
            "more than {MAX_PARSE_TOKENS} words and operators in one script"
        ));
    }
    let (open, deepest) = unclosed_parens(text);
    if open > 0 && deepest > MAX_UNCLOSED_DEPTH {
        return Err(format!(
            "parentheses left open, nested deeper than {MAX_UNCLOSED_DEPTH}"
        ));
    }
    let (cases, esacs) = (count_word(text, "case"), count_word(text, "esac"));
    if cases > esacs && cases > MAX_UNCLOSED_DEPTH / 2 {
        return Err(format!(
            "`case` left open, more than {} of them",
            MAX_UNCLOSED_DEPTH / 2
        ));
    }
    if long_fd_number(text) {
        return Err("a redirection's file descriptor number longer than 9 digits".into());
    }
    if let Some(tag) = bad_heredoc_tag(text) {
        return Err(format!(
            "here-document tag {tag:?} is empty, holds control characters or is a substitution"
        ));
    }
    Ok(())
}

/// Deepest nesting of subshells (or `case`s) left open that is handed to the bash parser: its
/// program grammar backtracks exponentially on them (`(` × 20 unclosed: 0.1 s, `((` × 12:
/// 3.5 s, `case a in a)` × 16: 0.9 s), while closed ones parse in linear time.
pub(crate) const MAX_UNCLOSED_DEPTH: usize = 8;

/// Parentheses outside quotes, substitutions and comments: how many are left open at the end,
/// and the deepest nesting reached.
fn unclosed_parens(text: &str) -> (usize, usize) {
    let b = text.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut word_start = true;
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 1,
            b'\'' | b'"' | b'`' => i = skip_group(b, i).saturating_sub(1),
            b'$' if matches!(b.get(i + 1), Some(b'(' | b'{' | b'[')) => {
                i = skip_group(b, i + 1).saturating_sub(1);
            }
            b'#' if word_start => {
                while b.get(i + 1).is_some_and(|&n| n != b'\n') {
                    i += 1;
                }
            }
            b'(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        word_start = matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')');
        i += 1;
    }
    (depth, deepest)
}

/// The index just past the quote or bracket group opened at `i` (`'`, `"`, `` ` ``, `(`,
/// `{`, `[`), following nested quotes and substitutions without recursion; `b.len()` when it
/// does not close.
fn skip_group(b: &[u8], i: usize) -> usize {
    let closer = |c: u8| match c {
        b'(' => b')',
        b'{' => b'}',
        b'[' => b']',
        other => other,
    };
    let Some(&first) = b.get(i) else {
        return b.len();
    };
    let mut stack: Vec<u8> = vec![closer(first)];
    let mut j = i + 1;
    while let (Some(&c), Some(&top)) = (b.get(j), stack.last()) {
        match top {
            b'\'' => {
                if c == b'\'' {
                    stack.pop();
                }
            }
            b'`' => match c {
                b'\\' => j += 1,
                b'`' => {
                    stack.pop();
                }
                _ => {}
            },
            b'"' => match c {
                b'\\' => j += 1,
                b'"' => {
                    stack.pop();
                }
                b'`' => stack.push(b'`'),
                b'$' if matches!(b.get(j + 1), Some(b'(' | b'{' | b'[')) => {
                    j += 1;
                    stack.push(closer(b[j]));
                }
                _ => {}
            },
            _ => match c {
                b'\\' => j += 1,
                b'\'' | b'"' | b'`' => stack.push(c),
                b'(' | b'{' | b'[' if closer(c) == top => stack.push(top),
                b'$' if matches!(b.get(j + 1), Some(b'(' | b'{' | b'[')) => {
                    j += 1;
                    stack.push(closer(b[j]));
                }
                c if c == top => {
                    stack.pop();
                }
                _ => {}
            },
        }
        j += 1;
        if stack.is_empty() {
            return j;
        }
    }
    b.len()
}

/// How many times `word` appears as a whole word in `text` (quotes are not followed).
fn count_word(text: &str, word: &str) -> usize {
    let b = text.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices(word)
        .filter(|&(at, _)| {
            let before = at.checked_sub(1).and_then(|k| b.get(k)).copied();
            let after = b.get(at + word.len()).copied();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
        .count()
}

/// Whether a run of 10 or more digits stands right before `<` or `>` (`99999999999>x`): brush
/// reads it as a file descriptor and panics when it overflows an `i32` (found by fuzzing).
fn long_fd_number(text: &str) -> bool {
    let mut run = 0usize;
    for &c in text.as_bytes() {
        if c.is_ascii_digit() {
            run += 1;
        } else {
            if run >= 10 && matches!(c, b'<' | b'>') {
                return true;
            }
            run = 0;
        }
    }
    false
}

/// Words and operators in `text`, over-approximated (quotes are not followed).
fn count_tokens(text: &str) -> usize {
    let mut n = 0usize;
    let mut in_word = false;
    for &c in text.as_bytes() {
        match c {
            b' ' | b'\t' => in_word = false,
            b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => {
                n += 1;
                in_word = false;
            }
            _ => {
                if !in_word {
                    n += 1;
                }
                in_word = true;
            }
        }
    }
    n
}

/// The first here-document tag (after `<<` or `<<-`) that is empty once its quotes and ASCII
/// whitespace are removed, that holds an ASCII control character or a backquote, or that is a
/// `$(` substitution. Over-approximates: a
/// `<<` inside quotes or arithmetic is read as a here-document too.
fn bad_heredoc_tag(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text.get(from..).and_then(|t| t.find("<<")) {
        let mut i = from + k + 2;
        from = i;
        match b.get(i) {
            Some(b'<') => {
                // `<<<`: a here-string.
                from = i + 1;
                continue;
            }
            Some(b'-') => i += 1,
            _ => {}
        }
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let start = i;
        while let Some(&c) = b.get(i) {
            if matches!(
                c,
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
            ) {
                break;
            }
            i += 1;
        }
        let raw = b.get(start..i).unwrap_or_default();
        // A tag that is a command substitution (`<<$(…`, `` <<`…` ``) is not a tag anyone
        // writes; brush's tokenizer allocates without end on some of them (`at <<$((
        // (''(((((…`: 1.3 GB in 1.3 s, found by fuzzing). `$((1 << $n))` stays parsed.
        let control = raw.iter().any(|&c| c.is_ascii_control() || c == b'`')
            || (raw.ends_with(b"$") && b.get(i) == Some(&b'('));
        let empty = raw
            .iter()
            .all(|&c| matches!(c, b'\'' | b'"' | b'\\') || c.is_ascii_whitespace());
        if control || empty {
            return Some(String::from_utf8_lossy(raw).into_owned());
        }
    }
    None
}

/// Err(message naming the bound) when the word `raw` must not be given to brush's word
/// parser: a quote, substitution or bracket that does not close where the grammar expects
/// (where it backtracks exponentially), or nesting deeper than [`MAX_WORD_DEPTH`]. `heredoc`:
/// the body of a here-document, where quotes are plain characters at the top level.
pub(crate) fn check_word(raw: &str, heredoc: bool) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Ctx {
        /// `"…"`
        Double,
        /// `$(…)`, or a `(…)` inside one.
        Paren,
        /// `$((…))` with its inner parentheses open.
        Arith(u32),
        /// `${…}`
        Brace,
        /// `$[…]`
        Bracket,
    }
    let b = raw.as_bytes();
    let mut stack: Vec<Ctx> = Vec::new();
    let unclosed = || Err("a quote or substitution in a word does not close".to_string());
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        let top = stack.last().copied();
        let quoted = top == Some(Ctx::Double) || (top.is_none() && heredoc);
        match c {
            b'\\' => i += 1,
            b'\'' if !quoted => {
                // `$'…'` honours backslashes; `'…'` does not.
                let ansi = i > 0 && b.get(i - 1) == Some(&b'$');
                i += 1;
                loop {
                    match b.get(i) {
                        None => return unclosed(),
                        Some(b'\\') if ansi => i += 1,
                        Some(b'\'') => break,
                        Some(_) => {}
                    }
                    i += 1;
                }
            }
            b'"' if top == Some(Ctx::Double) => {
                stack.pop();
            }
            b'"' if !quoted => stack.push(Ctx::Double),
            b'`' => {
                // The grammar reads a backquoted command up to the next unescaped backquote.
                i += 1;
                loop {
                    match b.get(i) {
                        None => return unclosed(),
                        Some(b'\\') => i += 1,
                        Some(b'`') => break,
                        Some(_) => {}
                    }
                    i += 1;
                }
            }
            b'$' => match b.get(i + 1) {
                Some(b'(') if b.get(i + 2) == Some(&b'(') => {
                    stack.push(Ctx::Arith(0));
                    i += 2;
                }
                Some(b'(') => {
                    stack.push(Ctx::Paren);
                    i += 1;
                }
                Some(b'{') => {
                    stack.push(Ctx::Brace);
                    i += 1;
                }
                Some(b'[') => {
                    stack.push(Ctx::Bracket);
                    i += 1;
                }
                _ => {}
            },
            b'(' => match top {
                Some(Ctx::Paren) => stack.push(Ctx::Paren),
                Some(Ctx::Arith(n)) => {
                    stack.pop();
                    stack.push(Ctx::Arith(n + 1));
                }
                _ => {}
            },
            b')' => match top {
                Some(Ctx::Paren) => {
                    stack.pop();
                }
                Some(Ctx::Arith(n)) if n > 0 => {
                    stack.pop();
                    stack.push(Ctx::Arith(n - 1));
                }
                Some(Ctx::Arith(_)) => {
                    // `$((…))` closes on `))`; anything else is `$( (…) )`, which the grammar
                    // finds only after failing as arithmetic.
                    if b.get(i + 1) != Some(&b')') {
                        return Err(
                            "an arithmetic expansion in a word does not close with `))`".into()
                        );
                    }
                    stack.pop();
                    i += 1;
                }
                _ => {}
            },
            b'}' if top == Some(Ctx::Brace) => {
                stack.pop();
            }
            b']' if top == Some(Ctx::Bracket) => {
                stack.pop();
            }
            _ => {}
        }
        if stack.len() > MAX_WORD_DEPTH {
            return Err(format!(
                "quotes and substitutions nested deeper than {MAX_WORD_DEPTH} in a word"
            ));
        }
        i += 1;
    }
    if stack.is_empty() { Ok(()) } else { unclosed() }
}

/// Err(bound) when `text` nests deeper than [`MAX_SYNTAX_DEPTH`]. Over-approximates (quotes are
/// ignored), which only matters for text with more than 128 unbalanced openers.
pub(crate) fn check_syntax_depth(text: &str) -> Result<(), usize> {
    check_depth_below(text, MAX_SYNTAX_DEPTH)
}

/// Err(bound) when `text` nests deeper than `bound` (as [`check_syntax_depth`] counts).
pub(crate) fn check_depth_below(text: &str, bound: usize) -> Result<(), usize> {
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
        if max > bound {
            return Err(bound);
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

/// The guarded doors to brush's word parser.
impl crate::ctx::Norm<'_> {
    /// [`brush_parser::word::parse`] (or `parse_heredoc` when `heredoc`) on `raw`, once
    /// [`check_word`] and the time budget allow it. A refused word is scanned linearly for the
    /// commands in it (the caller keeps it as a dynamic word); Err carries the reason.
    pub(crate) fn parse_word(
        &mut self,
        raw: &str,
        heredoc: bool,
        frame: &crate::ctx::Frame,
        span: riskgate_model::Span,
    ) -> Result<Vec<brush_parser::word::WordPieceWithSource>, String> {
        if self.over_time() {
            // The whole input is scanned at the end.
            return Err("not parsed: out of time".into());
        }
        if let Err(m) = check_word(raw, heredoc) {
            self.limit(m.clone());
            let inner = crate::ctx::Frame {
                depth: frame.depth + 1,
                span: Some(frame.span.unwrap_or(span)),
                ..frame.clone()
            };
            let _ = self.flat_extract(raw, &inner);
            return Err(m);
        }
        if !crate::watchdog::admit(raw, frame.depth) {
            // An inline run met a word it may not parse here: the input goes to a worker.
            self.brush_off = true;
            return Err("not parsed here: handed to a worker".into());
        }
        let opts = crate::words::parser_options();
        let parsed = if heredoc {
            brush_parser::word::parse_heredoc(raw, &opts)
        } else {
            brush_parser::word::parse(raw, &opts)
        };
        parsed.map_err(|e| e.to_string())
    }
}
