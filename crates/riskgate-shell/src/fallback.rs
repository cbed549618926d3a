//! Best-effort split used when the bash parser rejects the input (unterminated quote, bad
//! syntax) or the input is past a bound: commands separated by `;`, `&&`, `||`, `|`, `&` and
//! newlines, words by blanks, with quote awareness. The result escalates (the caller records a
//! [`crate::ParseIssue`]); it only makes sure the commands that are visible are not lost.

/// Words that open or close syntax rather than name a program, dropped from the start of a
/// command by [`split`].
const RESERVED: [&str; 19] = [
    "{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for",
    "case", "esac", "select", "function", "time", "in",
];

/// One command: its raw words and byte range in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawCommand {
    pub words: Vec<String>,
    pub start: usize,
    pub end: usize,
}

/// Split `text` into pipelines of commands. Raw words keep their quotes (`"a b"`), closed
/// when the input ends inside a quote.
pub(crate) fn split(text: &str) -> Vec<Vec<RawCommand>> {
    let mut pipelines: Vec<Vec<RawCommand>> = Vec::new();
    let mut pipeline: Vec<RawCommand> = Vec::new();
    let mut cmd = RawCommand {
        words: Vec::new(),
        start: 0,
        end: 0,
    };
    let mut word = String::new();
    let mut word_start: Option<usize> = None;
    let b = text.as_bytes();
    let mut i = 0;

    fn end_word(word: &mut String, ws: &mut Option<usize>, cmd: &mut RawCommand, at: usize) {
        if let Some(s) = ws.take() {
            if cmd.words.is_empty() {
                cmd.start = s;
            }
            cmd.words.push(std::mem::take(word));
            cmd.end = at;
        }
    }
    fn end_cmd(cmd: &mut RawCommand, pipeline: &mut Vec<RawCommand>) {
        // Reserved words and grouping are not programs: `{ { rm -rf /` runs `rm`.
        let lead = cmd
            .words
            .iter()
            .take_while(|w| RESERVED.contains(&w.as_str()))
            .count();
        cmd.words.drain(..lead);
        if !cmd.words.is_empty() {
            pipeline.push(std::mem::replace(
                cmd,
                RawCommand {
                    words: Vec::new(),
                    start: 0,
                    end: 0,
                },
            ));
        }
    }

    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' => {
                end_word(&mut word, &mut word_start, &mut cmd, i);
                i += 1;
            }
            // A parenthesis opening a word is grouping (`( rm -rf / )`); inside one it stays
            // (`--eval=x()`).
            b'\n' | b';' | b'&' | b'|' | b'(' | b')'
                if !matches!(c, b'(' | b')') || word_start.is_none() =>
            {
                end_word(&mut word, &mut word_start, &mut cmd, i);
                let pipe = c == b'|' && b.get(i + 1) != Some(&b'|');
                let both = matches!(
                    (c, b.get(i + 1)),
                    (b'&', Some(b'&')) | (b'|', Some(b'|')) | (b'&', Some(b'>'))
                );
                if c == b'&' && b.get(i + 1) == Some(&b'>') {
                    // `&>` redirect: part of the word stream.
                    word_start.get_or_insert(i);
                    word.push_str("&>");
                    i += 2;
                    continue;
                }
                end_cmd(&mut cmd, &mut pipeline);
                if !pipe && !pipeline.is_empty() {
                    pipelines.push(std::mem::take(&mut pipeline));
                }
                i += if both { 2 } else { 1 };
            }
            b'#' if word_start.is_none() => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\'' | b'"' | b'`' => {
                word_start.get_or_insert(i);
                let close = find_close(b, i + 1, c);
                let end = close.unwrap_or(b.len());
                // `before` is a char boundary of `word`: what this quote added can be taken
                // back whole, whatever characters it holds.
                let before = word.len();
                word.push_str(text.get(i..end).unwrap_or(""));
                if close.is_some() {
                    word.push(c as char);
                    i = end + 1;
                } else {
                    // Unterminated: keep the content and close the quote; an empty tail is
                    // dropped (`rm -rf / "` is `rm -rf /`, and so is `rm -rf / "\u{3000}`).
                    let tail = text.get(i + 1..).unwrap_or("");
                    if tail.trim().is_empty() {
                        word.truncate(before);
                        if word.is_empty() {
                            word_start = None;
                        }
                    } else {
                        word.push(c as char);
                    }
                    i = b.len();
                }
            }
            b'\\' => {
                word_start.get_or_insert(i);
                let n = text
                    .get(i..)
                    .and_then(|s| s.chars().nth(1))
                    .map_or(0, char::len_utf8);
                word.push_str(text.get(i..i + 1 + n).unwrap_or("\\"));
                i += 1 + n;
            }
            b'$' if b.get(i + 1) == Some(&b'(') => {
                word_start.get_or_insert(i);
                let end = find_paren(b, i + 2).unwrap_or(b.len());
                let slice = text.get(i..end).unwrap_or("");
                word.push_str(slice);
                if end >= b.len() && !slice.ends_with(')') {
                    word.push(')');
                }
                i = end;
            }
            _ => {
                word_start.get_or_insert(i);
                let n = text
                    .get(i..)
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                word.push_str(text.get(i..i + n).unwrap_or(""));
                i += n;
            }
        }
    }
    end_word(&mut word, &mut word_start, &mut cmd, b.len());
    end_cmd(&mut cmd, &mut pipeline);
    if !pipeline.is_empty() {
        pipelines.push(pipeline);
    }
    pipelines
}

/// Most words in one command of [`split_flat`]; a longer run of words is cut into commands of
/// this many words.
pub(crate) const MAX_FLAT_WORDS: usize = 4096;

/// How a command of [`split_flat`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlatEnd {
    /// `|` or `|&`: its output feeds the next command.
    Pipe,
    /// Anything else.
    Other,
}

/// The linear, quote-blind split for text past a bound: every quote, bracket, brace and
/// substitution opener or closer is a command boundary, as are `;`, `&`, `|`, `<`, `>` and
/// newlines, so what is nested inside them comes out as commands of its own
/// (`"$("$(rm -rf /` gives `rm -rf /`). Over-approximates on purpose: `echo "a; rm -rf /"`
/// gives `rm -rf /` too. Words are split on ASCII whitespace and control characters; a
/// backslash is dropped. `f(words, start, end, how)` gets each command in order and returns
/// false to stop.
pub(crate) fn split_flat(text: &str, mut f: impl FnMut(&[String], usize, usize, FlatEnd) -> bool) {
    struct Cur {
        words: Vec<String>,
        word: String,
        /// Where the current word and the current command start.
        word_start: usize,
        start: usize,
    }
    impl Cur {
        fn end_word(&mut self) {
            if !self.word.is_empty() {
                if self.words.is_empty() {
                    self.start = self.word_start;
                }
                self.words.push(std::mem::take(&mut self.word));
            }
        }
    }
    let b = text.as_bytes();
    let mut cur = Cur {
        words: Vec::new(),
        word: String::new(),
        word_start: 0,
        start: 0,
    };
    // End the current command at `end`; false when `f` says stop.
    let mut emit = |cur: &mut Cur, end: usize, how: FlatEnd| -> bool {
        cur.end_word();
        if cur.words.is_empty() {
            return true;
        }
        let go = f(&cur.words, cur.start, end, how);
        cur.words.clear();
        go
    };
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        let sep = match c {
            b'|' if b.get(i + 1) != Some(&b'|') => Some(FlatEnd::Pipe),
            b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'{' | b'}' | b'"' | b'\'' | b'`' | b'<'
            | b'>' => Some(FlatEnd::Other),
            b'$' if matches!(b.get(i + 1), Some(b'(' | b'{')) => Some(FlatEnd::Other),
            _ => None,
        };
        if let Some(how) = sep {
            if !emit(&mut cur, i, how) {
                return;
            }
            i += 1;
            if c == b'$' && b.get(i) == Some(&b'{') {
                // `${x:-rm -rf /}`: the parameter and its operator are not part of the word
                // (an unquoted default splits into a command of its own).
                i = skip_parameter_head(b, i + 1);
            }
            continue;
        }
        if c.is_ascii_whitespace() || c.is_ascii_control() {
            cur.end_word();
            if cur.words.len() >= MAX_FLAT_WORDS && !emit(&mut cur, i, FlatEnd::Other) {
                return;
            }
            i += 1;
            continue;
        }
        if c == b'\\' {
            i += 1;
            continue;
        }
        let n = text
            .get(i..)
            .and_then(|s| s.chars().next())
            .map_or(1, char::len_utf8);
        if cur.word.is_empty() {
            cur.word_start = i;
        }
        cur.word.push_str(text.get(i..i + n).unwrap_or(""));
        i += n;
    }
    let _ = emit(&mut cur, b.len(), FlatEnd::Other);
}

/// Past `${` at `i`: the parameter name (`x`, `1`, `@`, `!x`, `#x`, `a[0]`) and an operator
/// (`:-`, `-`, `:=`, `=`, `:+`, `+`, `:?`, `?`), if any; the index after them.
fn skip_parameter_head(b: &[u8], mut i: usize) -> usize {
    if matches!(b.get(i), Some(b'!' | b'#')) {
        i += 1;
    }
    match b.get(i) {
        Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => {
            while b
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                i += 1;
            }
        }
        Some(b'@' | b'*' | b'#' | b'?' | b'$' | b'!' | b'-') => i += 1,
        _ => return i,
    }
    if b.get(i) == Some(&b'[') {
        while let Some(&c) = b.get(i) {
            i += 1;
            if c == b']' || c.is_ascii_whitespace() {
                break;
            }
        }
    }
    if b.get(i) == Some(&b':') {
        i += 1;
    }
    if matches!(b.get(i), Some(b'-' | b'=' | b'+' | b'?')) {
        i += 1;
    }
    i
}

/// Index of the closing quote `q` from `from`, honouring backslashes in `"` and backquotes.
fn find_close(b: &[u8], from: usize, q: u8) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        if b[i] == b'\\' && q != b'\'' {
            i += 2;
            continue;
        }
        if b[i] == q {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// One past the `)` closing a `$(` whose body starts at `from` (quote aware).
fn find_paren(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' | b'"' => match find_close(b, i + 1, b[i]) {
                Some(c) => i = c,
                None => return None,
            },
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Quote removal without expansion, for a word the word parser rejected.
pub(crate) fn unquote(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    let mut q: Option<char> = None;
    while let Some(c) = it.next() {
        match (q, c) {
            (None, '\'' | '"') => q = Some(c),
            (Some(open), _) if c == open => q = None,
            (None, '\\') | (Some('"'), '\\') => {
                if let Some(n) = it.next() {
                    if q.is_some() && !matches!(n, '"' | '\\' | '$' | '`') {
                        out.push('\\');
                    }
                    out.push(n);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Vec<Vec<String>>> {
        split(text)
            .into_iter()
            .map(|p| p.into_iter().map(|c| c.words).collect())
            .collect()
    }

    #[test]
    fn splits_lists_and_pipes_with_quotes() {
        let w = words("a 'b c' && d | e; f \"g;h\"");
        assert_eq!(w.len(), 3);
        assert_eq!(w[0], vec![vec!["a".to_string(), "'b c'".to_string()]]);
        assert_eq!(w[1].len(), 2);
        assert_eq!(w[2], vec![vec!["f".to_string(), "\"g;h\"".to_string()]]);
    }

    #[test]
    fn unterminated_quote_is_closed() {
        let w = words("rm -rf / \"");
        assert_eq!(w[0][0], vec!["rm", "-rf", "/"]);
        assert_eq!(words("echo 'abc")[0][0], vec!["echo", "'abc'"]);
        assert_eq!(unquote("\"\""), "");
        assert_eq!(unquote("r''m"), "rm");
        assert_eq!(unquote(r#""a\"b""#), "a\"b");
    }
}
