//! PowerShell's lexical structure, as far as finding every command needs it: strings (single
//! quotes with `''`, double quotes with backtick escapes and `$(…)` inside, here-strings
//! `@' '@` / `@" "@`, the typographic quotes PowerShell also accepts), comments (`#`, `<# #>`),
//! groups (`( )`, `$( )`, `@( )`, `{ }`, `@{ }`, `[ ]`), the statement separators (`;`, a
//! newline not continued by a backtick or a pipe, `&&`, `||`, a trailing `&`) and the
//! pipelines inside a statement (`|`), and the tokens of one command in argument mode: words
//! made of barewords, quoted strings, variables and subexpressions; `-Parameter` and
//! `-Parameter:` tokens; redirections; `,`; the call operator `&` and dot-sourcing `.`.
//!
//! The argument-mode tokens are in `tokens` (re-exported here).
//!
//! Everything here is linear in the text: a group's end is found by one scan that skips the
//! strings and groups inside it, and a caller that descends into a group scans only its text.

pub(crate) use super::tokens::{Part, Tok, expandable_parts, tokens};

/// A text as chars, with the byte offset of each char (and of the end) for spans.
pub(crate) struct Src {
    pub c: Vec<char>,
    pub bytes: Vec<usize>,
    /// Where each group opened so far closes (`None`: it does not), so that no group is
    /// scanned twice.
    memo: std::cell::RefCell<std::collections::HashMap<usize, Option<usize>>>,
    /// The first position from which no here-string (`'@`, `"@`) closes.
    here_fail: std::cell::Cell<[usize; 2]>,
}

impl Src {
    pub(crate) fn new(text: &str) -> Src {
        let mut c = Vec::with_capacity(text.len());
        let mut bytes = Vec::with_capacity(text.len() + 1);
        for (b, ch) in text.char_indices() {
            c.push(ch);
            bytes.push(b);
        }
        bytes.push(text.len());
        Src {
            c,
            bytes,
            memo: std::cell::RefCell::new(std::collections::HashMap::new()),
            here_fail: std::cell::Cell::new([usize::MAX; 2]),
        }
    }

    pub(crate) fn at(&self, i: usize) -> char {
        self.c.get(i).copied().unwrap_or('\0')
    }

    pub(crate) fn len(&self) -> usize {
        self.c.len()
    }

    pub(crate) fn text(&self, from: usize, to: usize) -> String {
        let to = to.min(self.c.len());
        let from = from.min(to);
        self.c[from..to].iter().collect()
    }

    /// Byte offset of char index `i`.
    pub(crate) fn byte(&self, i: usize) -> usize {
        self.bytes
            .get(i)
            .copied()
            .unwrap_or_else(|| self.bytes.last().copied().unwrap_or(0))
    }
}

pub(crate) fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

pub(crate) fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201C}' | '\u{201D}' | '\u{201E}')
}

pub(crate) fn is_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{a0}' | '\u{feff}' | '\u{2000}'..='\u{200b}' | '\u{3000}'
    )
}

pub(crate) fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2013}' | '\u{2014}' | '\u{2015}')
}

/// The end (one past) of the single-quoted string starting at `i`; `None` when unterminated.
pub(crate) fn single_end(s: &Src, i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < s.len() {
        if is_single_quote(s.at(j)) {
            if is_single_quote(s.at(j + 1)) {
                j += 2;
                continue;
            }
            return Some(j + 1);
        }
        j += 1;
    }
    None
}

/// The end of the double-quoted string starting at `i` (`$(…)` inside it skipped whole).
pub(crate) fn double_end(s: &Src, i: usize) -> Option<usize> {
    double_end_at(s, i, 0)
}

fn double_end_at(s: &Src, i: usize, depth: u32) -> Option<usize> {
    let mut j = i + 1;
    while j < s.len() {
        let c = s.at(j);
        if c == '`' {
            j += 2;
            continue;
        }
        if c == '$' && s.at(j + 1) == '(' {
            j = group_end_at(s, j + 1, depth + 1)?;
            continue;
        }
        if is_double_quote(c) {
            if is_double_quote(s.at(j + 1)) {
                j += 2;
                continue;
            }
            return Some(j + 1);
        }
        j += 1;
    }
    None
}

/// The end of the here-string starting at `i` (`@'` or `@"`): after the closing `'@`/`"@` at
/// the start of a line.
pub(crate) fn here_end(s: &Src, i: usize) -> Option<usize> {
    let q = s.at(i + 1);
    let single = is_single_quote(q);
    // No closing line after an earlier opening: none after this one either.
    let kind = usize::from(!single);
    if s.here_fail.get()[kind] <= i {
        return None;
    }
    let mut j = i + 2;
    // The opening line ends right after the quote (blanks allowed).
    while j < s.len() && s.at(j) != '\n' {
        if !is_space(s.at(j)) && s.at(j) != '\r' {
            return None;
        }
        j += 1;
    }
    while j < s.len() {
        if s.at(j) == '\n' {
            let mut k = j + 1;
            while is_space(s.at(k)) {
                k += 1;
            }
            let close = s.at(k);
            if s.at(k + 1) == '@'
                && ((single && is_single_quote(close)) || (!single && is_double_quote(close)))
            {
                return Some(k + 2);
            }
        }
        j += 1;
    }
    let mut f = s.here_fail.get();
    f[kind] = f[kind].min(i);
    s.here_fail.set(f);
    None
}

/// Whether `@'`/`@"` at `i` is a here-string header: only blanks after it on its line, and a
/// line after it.
pub(crate) fn here_header(s: &Src, i: usize) -> bool {
    let mut j = i + 2;
    while j < s.len() && s.at(j) != '\n' {
        if !is_space(s.at(j)) && s.at(j) != '\r' {
            return false;
        }
        j += 1;
    }
    j < s.len()
}

/// The body of the here-string `s[i..end]`.
pub(crate) fn here_body(s: &Src, i: usize, end: usize) -> String {
    let mut from = i + 2;
    while from < end && s.at(from) != '\n' {
        from += 1;
    }
    let mut to = end.saturating_sub(2);
    while to > from && s.at(to - 1) != '\n' {
        to -= 1;
    }
    let body = s.text(from + 1, to.saturating_sub(1).max(from + 1));
    body.trim_end_matches('\r').to_string()
}

/// The end of the comment starting at `i` (`#…` to the end of the line, `<#…#>`).
pub(crate) fn comment_end(s: &Src, i: usize) -> usize {
    if s.at(i) == '<' {
        let mut j = i + 2;
        while j < s.len() {
            if s.at(j) == '#' && s.at(j + 1) == '>' {
                return j + 2;
            }
            j += 1;
        }
        return s.len();
    }
    let mut j = i;
    while j < s.len() && s.at(j) != '\n' {
        j += 1;
    }
    j
}

fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '{' => '}',
        _ => ']',
    }
}

/// The end (one past the closing bracket) of the group whose opening bracket is at `i`; `None`
/// when it is not closed. Strings, here-strings, comments and inner groups are skipped.
pub(crate) fn group_end(s: &Src, i: usize) -> Option<usize> {
    group_end_at(s, i, 0)
}

/// Groups nested in strings nested in groups (`"$("$(…)")"`) followed at most this deep.
const MAX_STRING_GROUP_DEPTH: u32 = 200;

fn group_end_at(s: &Src, i: usize, depth: u32) -> Option<usize> {
    if let Some(known) = s.memo.borrow().get(&i) {
        return *known;
    }
    if depth > MAX_STRING_GROUP_DEPTH {
        return None;
    }
    // (closer, position of its opener)
    let mut stack: Vec<(char, usize)> = vec![(closer(s.at(i)), i)];
    let mut j = i + 1;
    let mut token_start = true;
    let fail = |stack: &[(char, usize)]| {
        let mut m = s.memo.borrow_mut();
        for (_, p) in stack {
            m.insert(*p, None);
        }
        None
    };
    while j < s.len() {
        let c = s.at(j);
        if c == '`' {
            j += 2;
            token_start = false;
            continue;
        }
        if is_single_quote(c) {
            match single_end(s, j) {
                Some(e) => j = e,
                None => return fail(&stack),
            }
            token_start = false;
            continue;
        }
        if is_double_quote(c) {
            match double_end_at(s, j, depth + 1) {
                Some(e) => j = e,
                None => return fail(&stack),
            }
            token_start = false;
            continue;
        }
        if c == '@'
            && (is_single_quote(s.at(j + 1)) || is_double_quote(s.at(j + 1)))
            && let Some(e) = here_end(s, j)
        {
            j = e;
            continue;
        }
        if (c == '#' && token_start) || (c == '<' && s.at(j + 1) == '#') {
            j = comment_end(s, j);
            continue;
        }
        match c {
            '(' | '{' | '[' => {
                if let Some(Some(e)) = s.memo.borrow().get(&j).copied() {
                    // an inner group already matched
                    j = e;
                    token_start = false;
                    continue;
                }
                stack.push((closer(c), j));
            }
            ')' | '}' | ']' => {
                // an unclosed `[` (a wildcard) inside a group does not hold it open
                while c != ']' && stack.len() > 1 && stack.last().is_some_and(|(k, _)| *k == ']') {
                    if let Some((_, p)) = stack.pop() {
                        s.memo.borrow_mut().insert(p, None);
                    }
                }
                if stack.last().is_some_and(|(k, _)| *k == c) {
                    if let Some((_, p)) = stack.pop() {
                        s.memo.borrow_mut().insert(p, Some(j + 1));
                    }
                    if stack.is_empty() {
                        return Some(j + 1);
                    }
                } else if c != ']' {
                    // A stray closer of another kind: the text is not balanced.
                    return fail(&stack);
                }
            }
            _ => {}
        }
        token_start = is_space(c) || matches!(c, '\n' | '\r' | ';' | '(' | '{' | '|' | '=');
        j += 1;
    }
    fail(&stack)
}

/// One statement: its pipeline elements as char ranges.
#[derive(Debug, Clone)]
pub(crate) struct Statement {
    pub elems: Vec<(usize, usize)>,
}

/// Split `s[from..to]` into statements and pipeline elements. `Err` with a reason when a
/// string, here-string or group is not closed (the rest is still split, as a best effort).
pub(crate) fn statements(s: &Src, from: usize, to: usize) -> (Vec<Statement>, Option<String>) {
    let mut out = Vec::new();
    let mut elems: Vec<(usize, usize)> = Vec::new();
    let mut start = from;
    let mut j = from;
    let mut error = None;
    let mut token_start = true;
    // The last significant char (for newline continuation after `|`).
    let mut last_sig = '\0';
    let push_elem = |elems: &mut Vec<(usize, usize)>, a: usize, b: usize| {
        if s.c[a.min(b)..b]
            .iter()
            .any(|c| !is_space(*c) && *c != '\r' && *c != '\n')
        {
            elems.push((a, b));
        }
    };
    while j < to {
        let c = s.at(j);
        if c == '`' {
            // Line continuation or an escaped char.
            j += 2;
            token_start = false;
            last_sig = 'x';
            continue;
        }
        let skip_to = if is_single_quote(c) {
            Some(single_end(s, j).ok_or("a single-quoted string is not closed"))
        } else if is_double_quote(c) {
            Some(double_end(s, j).ok_or("a double-quoted string is not closed"))
        } else if c == '@' && (is_single_quote(s.at(j + 1)) || is_double_quote(s.at(j + 1))) {
            match here_end(s, j) {
                Some(e) => Some(Ok(e)),
                // A here-string header (`@'` ending its line) that no line closes: the rest
                // of the text is its body, never commands read some other way.
                None if here_header(s, j) => Some(Err("a here-string is not closed")),
                None => None,
            }
        } else if matches!(c, '(' | '{' | '[') {
            Some(group_end(s, j).ok_or(match c {
                '(' => "a parenthesis is not closed",
                '{' => "a script block is not closed",
                _ => "a bracket is not closed",
            }))
        } else if (c == '#' && token_start) || (c == '<' && s.at(j + 1) == '#') {
            j = comment_end(s, j);
            continue;
        } else {
            None
        };
        match skip_to {
            Some(Ok(e)) => {
                j = e.min(to);
                token_start = false;
                last_sig = 'x';
                continue;
            }
            Some(Err(why)) => {
                if error.is_none() {
                    error = Some(why.to_string());
                }
                // Best effort: an unclosed string runs to the end; an unclosed group's
                // opening char is skipped and the rest split on.
                j = if matches!(c, '(' | '{' | '[') {
                    j + 1
                } else {
                    to
                };
                continue;
            }
            None => {}
        }
        match c {
            ';' => {
                push_elem(&mut elems, start, j);
                out.push(Statement {
                    elems: std::mem::take(&mut elems),
                });
                start = j + 1;
                last_sig = ';';
            }
            '\n' => {
                if last_sig == '|' || elems.is_empty() && start == j {
                    // A pipeline continues on the next line; or an empty line.
                } else {
                    push_elem(&mut elems, start, j);
                    if !elems.is_empty() {
                        out.push(Statement {
                            elems: std::mem::take(&mut elems),
                        });
                    }
                    start = j + 1;
                    last_sig = '\n';
                }
            }
            '&' | '|' if s.at(j + 1) == c => {
                push_elem(&mut elems, start, j);
                out.push(Statement {
                    elems: std::mem::take(&mut elems),
                });
                j += 2;
                start = j;
                last_sig = '|';
                token_start = true;
                continue;
            }
            '|' => {
                push_elem(&mut elems, start, j);
                start = j + 1;
                last_sig = '|';
            }
            '&' => {
                // `&` followed by nothing but blanks up to the end of the statement: background.
                let mut k = j + 1;
                while k < to && (is_space(s.at(k)) || s.at(k) == '\r') {
                    k += 1;
                }
                if k >= to || matches!(s.at(k), '\n' | ';') {
                    push_elem(&mut elems, start, j);
                    out.push(Statement {
                        elems: std::mem::take(&mut elems),
                    });
                    start = j + 1;
                    last_sig = ';';
                } else {
                    last_sig = '&';
                }
            }
            _ => {
                if !is_space(c) && c != '\r' {
                    last_sig = c;
                }
            }
        }
        token_start = is_space(c) || matches!(c, '\n' | '\r' | ';' | '(' | '{' | '|' | '=');
        j += 1;
    }
    push_elem(&mut elems, start, to.min(s.len()));
    if !elems.is_empty() {
        out.push(Statement { elems });
    }
    (out, error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(t: &str) -> Vec<Vec<String>> {
        let s = Src::new(t);
        statements(&s, 0, s.len())
            .0
            .iter()
            .map(|st| {
                st.elems
                    .iter()
                    .map(|(a, b)| s.text(*a, *b).trim().to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn statements_and_pipelines() {
        assert_eq!(
            split("Get-Date; gci | select -First 3\nRemove-Item x"),
            vec![
                vec!["Get-Date".to_string()],
                vec!["gci".into(), "select -First 3".into()],
                vec!["Remove-Item x".into()],
            ]
        );
        assert_eq!(split("a && b || c").len(), 3);
        assert_eq!(split("Write-Host 'a;b' \"c|d\" # e; f").len(), 1);
        assert_eq!(split("Get-ChildItem |\n  Remove-Item").len(), 1);
        assert_eq!(split("Get-Date `\n  -Format o").len(), 1);
        assert_eq!(split("if ($x) { a; b }\nc").len(), 2);
        assert_eq!(split("$s = @'\na;b\n'@\nc").len(), 2);
        assert_eq!(split("<# x; y #> a").len(), 1);
        let (_, err) = statements(&Src::new("a 'b"), 0, 4);
        assert!(err.is_some());
    }
}
