//! JSON with comments (JSONC, as Gemini CLI, Qwen Code and VS Code-style editors read their
//! settings), parsed with the byte span of every value, and edited as text: an element or a
//! member removed, appended or inserted changes those bytes only. Every other byte of the
//! user's file — comments, blank lines, indentation, key order, number spelling — stays as it
//! was, and removing what an insertion added gives the original text back.
//!
//! Accepted beyond JSON: `//` and `/* */` comments, trailing commas, a leading byte-order
//! mark. Nesting deeper than [`MAX_DEPTH`] is an error (no recursion without bound).

use crate::ordered::Json;

/// Deepest nesting of objects and arrays accepted.
pub const MAX_DEPTH: usize = 128;

/// A parse error, with the byte offset where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

/// A value with its span `start..end` in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// First byte of the value.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
}

/// The kinds of value.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// An object: its members in file order.
    Object(Vec<Member>),
    /// An array.
    Array(Vec<Node>),
    /// A string, number, boolean or null.
    Scalar(Json),
}

/// One member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, unescaped.
    pub key: String,
    /// Where the key's opening quote is.
    pub key_start: usize,
    /// The value.
    pub value: Node,
}

/// A parsed document: the root value and whether the text has comments.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    /// The root value.
    pub root: Node,
    /// The text has at least one comment.
    pub has_comments: bool,
}

impl Node {
    /// The value without spans.
    pub fn to_json(&self) -> Json {
        match &self.kind {
            Kind::Scalar(v) => v.clone(),
            Kind::Array(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Kind::Object(members) => Json::Object(
                members
                    .iter()
                    .map(|m| (m.key.clone(), m.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// The member `key` of an object.
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(members) => members.iter().find(|m| m.key == key),
            _ => None,
        }
    }

    /// The value under `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.member(key).map(|m| &m.value)
    }

    /// The elements of an array (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Array(items) => items,
            _ => &[],
        }
    }

    /// The members of an object (empty for anything else).
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(m) => m,
            _ => &[],
        }
    }
}

/// Parse `text` (JSON with comments and trailing commas).
pub fn parse(text: &str) -> Result<Doc, ParseError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
        comments: false,
    };
    if text.starts_with('\u{feff}') {
        p.i = 3;
    }
    p.ws()?;
    let root = p.value(0)?;
    p.ws()?;
    if p.i < p.s.len() {
        return Err(p.err("text after the JSON value"));
    }
    Ok(Doc {
        root,
        has_comments: p.comments,
    })
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    comments: bool,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> ParseError {
        ParseError {
            offset: self.i,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Skip whitespace and comments.
    fn ws(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.i += 1,
                b'/' if self.s.get(self.i + 1) == Some(&b'/') => {
                    self.comments = true;
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                b'/' if self.s.get(self.i + 1) == Some(&b'*') => {
                    self.comments = true;
                    let from = self.i;
                    self.i += 2;
                    loop {
                        match self.peek() {
                            None => {
                                self.i = from;
                                return Err(self.err("unterminated comment"));
                            }
                            Some(b'*') if self.s.get(self.i + 1) == Some(&b'/') => {
                                self.i += 2;
                                break;
                            }
                            Some(_) => self.i += 1,
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        let start = self.i;
        let kind = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::Scalar(Json::String(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true))?,
            Some(b'f') => self.word("false", Json::Bool(false))?,
            Some(b'n') => self.word("null", Json::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.err("expected a JSON value")),
            None => return Err(self.err("unexpected end of text")),
        };
        Ok(Node {
            start,
            end: self.i,
            kind,
        })
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Kind, ParseError> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(Kind::Scalar(v))
        } else {
            Err(self.err("expected a JSON value"))
        }
    }

    fn number(&mut self) -> Result<Kind, ParseError> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                self.i += 1;
            } else {
                break;
            }
        }
        let slice = &self.text[start..self.i];
        match serde_json::from_str::<serde_json::Number>(slice) {
            Ok(n) => Ok(Kind::Scalar(Json::Number(n))),
            Err(_) => {
                self.i = start;
                Err(self.err("invalid number"))
            }
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek() {
                None => {
                    self.i = start;
                    return Err(self.err("unterminated string"));
                }
                Some(b'\\') => self.i += 2,
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(_) => self.i += 1,
            }
        }
        let raw = self.text.get(start..self.i).unwrap_or_default();
        serde_json::from_str::<String>(raw).map_err(|_| ParseError {
            offset: start,
            message: "invalid string".into(),
        })
    }

    fn object(&mut self, depth: usize) -> Result<Kind, ParseError> {
        self.i += 1;
        let mut members: Vec<Member> = Vec::new();
        loop {
            self.ws()?;
            match self.peek() {
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Kind::Object(members));
                }
                Some(b'"') => {}
                _ => return Err(self.err("expected a key or `}`")),
            }
            let key_start = self.i;
            let key = self.string()?;
            self.ws()?;
            if self.peek() != Some(b':') {
                return Err(self.err("expected `:`"));
            }
            self.i += 1;
            self.ws()?;
            let value = self.value(depth + 1)?;
            // a repeated key: the last one wins, as in JSON.parse
            members.retain(|m| m.key != key);
            members.push(Member {
                key,
                key_start,
                value,
            });
            self.ws()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return Err(self.err("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, ParseError> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.ws()?;
            if self.peek() == Some(b']') {
                self.i += 1;
                return Ok(Kind::Array(items));
            }
            items.push(self.value(depth + 1)?);
            self.ws()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {}
                _ => return Err(self.err("expected `,` or `]`")),
            }
        }
    }
}

/// The indentation (spaces and tabs) of the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let rest = &text[line_start..];
    let n = rest
        .bytes()
        .take_while(|b| *b == b' ' || *b == b'\t')
        .count();
    &rest[..n]
}

/// One level of indentation as the file uses it (two spaces when it cannot tell).
fn indent_unit(text: &str, container: &Node) -> String {
    let first = match &container.kind {
        Kind::Object(m) => m.first().map(|m| m.key_start),
        Kind::Array(items) => items.first().map(|n| n.start),
        Kind::Scalar(_) => None,
    };
    let outer = line_indent(text, container.start);
    if let Some(at) = first
        && text[container.start..at].contains('\n')
    {
        let inner = line_indent(text, at);
        if let Some(unit) = inner.strip_prefix(outer)
            && !unit.is_empty()
        {
            return unit.to_string();
        }
    }
    "  ".to_string()
}

/// `value` rendered as pretty JSON, every line after the first indented by `indent`.
fn render(value: &Json, indent: &str, unit: &str) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(pretty.len() + 64);
    for (n, line) in pretty.lines().enumerate() {
        if n > 0 {
            out.push('\n');
            out.push_str(indent);
        }
        // serde_json indents by two spaces; use the file's unit
        let spaces = line.bytes().take_while(|b| *b == b' ').count();
        for _ in 0..spaces / 2 {
            out.push_str(unit);
        }
        out.push_str(&line[spaces..]);
    }
    out
}

/// Whether `text[from..to]` holds only whitespace and commas (no comment the user wrote).
fn blank(text: &str, from: usize, to: usize) -> bool {
    text.get(from..to)
        .is_some_and(|s| s.bytes().all(|b| b.is_ascii_whitespace() || b == b','))
}

/// Text with `text[from..to]` replaced by `with`.
fn splice(text: &str, from: usize, to: usize, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..from]);
    out.push_str(with);
    out.push_str(&text[to..]);
    out
}

/// The byte range to delete to remove the entry that starts at `start` and ends at `end`,
/// the `index`-th of `count` in a container spanning `open..close` (the braces), whose
/// entries start at `starts` and end at `ends`.
fn removal(
    text: &str,
    container: &Node,
    starts: &[usize],
    ends: &[usize],
    index: usize,
) -> (usize, usize) {
    let count = starts.len();
    let open = container.start + 1;
    let close = container.end.saturating_sub(1);
    if count == 1 {
        // the only entry: the container becomes empty; its inside goes when it holds no comment
        if blank(text, open, starts[0]) && blank(text, ends[0], close) {
            return (open, close);
        }
        let to = next_comma(text, ends[0], close)
            .map(|c| c + 1)
            .unwrap_or(ends[0]);
        let from = if blank(text, open, starts[0]) {
            open
        } else {
            starts[0]
        };
        return (from, to);
    }
    if index + 1 < count {
        // up to the next entry: the comma and the space after it go too
        (starts[index], starts[index + 1])
    } else {
        // the last one: from the end of the previous entry
        (ends[index - 1], ends[index])
    }
}

/// The first `,` in `text[from..to]` outside comments (a trailing comma).
fn next_comma(text: &str, from: usize, to: usize) -> Option<usize> {
    let s = text.as_bytes();
    let mut i = from;
    while i < to {
        match s[i] {
            b',' => return Some(i),
            b'/' if s.get(i + 1) == Some(&b'/') => {
                while i < to && s[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if s.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < to && !(s[i] == b'*' && s[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => return None,
        }
    }
    None
}

/// Remove element `index` of the array `array`.
pub fn remove_element(text: &str, array: &Node, index: usize) -> String {
    let items = array.items();
    if index >= items.len() {
        return text.to_string();
    }
    let starts: Vec<usize> = items.iter().map(|n| n.start).collect();
    let ends: Vec<usize> = items.iter().map(|n| n.end).collect();
    let (from, to) = removal(text, array, &starts, &ends, index);
    splice(text, from, to, "")
}

/// Remove member `key` of the object `object`.
pub fn remove_member(text: &str, object: &Node, key: &str) -> String {
    let members = object.members();
    let Some(index) = members.iter().position(|m| m.key == key) else {
        return text.to_string();
    };
    let starts: Vec<usize> = members.iter().map(|m| m.key_start).collect();
    let ends: Vec<usize> = members.iter().map(|m| m.value.end).collect();
    let (from, to) = removal(text, object, &starts, &ends, index);
    splice(text, from, to, "")
}

/// Where and how to add an entry to a container: the text inserted at the returned offset.
fn addition(text: &str, container: &Node, ends: &[usize], body: &str, first: bool) -> String {
    // the file's line ending (a Windows file keeps CRLF)
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let outer = line_indent(text, container.start).to_string();
    let unit = indent_unit(text, container);
    let inner = format!("{outer}{unit}");
    let entry = body.replace('\n', &format!("{nl}{inner}"));
    let close = container.end.saturating_sub(1);
    let (at, insert) = match (ends.last(), first) {
        (Some(&end), false) => (end, format!(",{nl}{inner}{entry}")),
        (Some(_), true) => {
            let start = first_start(container).unwrap_or(close);
            (start, format!("{entry},{nl}{inner}"))
        }
        (None, _) => {
            let open = container.start + 1;
            if blank(text, open, close) {
                return splice(text, open, close, &format!("{nl}{inner}{entry}{nl}{outer}"));
            }
            // an empty container with a comment inside: after the opening brace
            (open, format!("{nl}{inner}{entry}"))
        }
    };
    splice(text, at, at, &insert)
}

fn first_start(container: &Node) -> Option<usize> {
    match &container.kind {
        Kind::Object(m) => m.first().map(|m| m.key_start),
        Kind::Array(items) => items.first().map(|n| n.start),
        Kind::Scalar(_) => None,
    }
}

/// Append `value` to the array `array`.
pub fn append_element(text: &str, array: &Node, value: &Json) -> String {
    let unit = indent_unit(text, array);
    let body = render(value, "", &unit);
    let ends: Vec<usize> = array.items().iter().map(|n| n.end).collect();
    addition(text, array, &ends, &body, false)
}

/// Add the member `key: value` to the object `object`, last (or first with `first`).
pub fn add_member(text: &str, object: &Node, key: &str, value: &Json, first: bool) -> String {
    let unit = indent_unit(text, object);
    let key_text = serde_json::to_string(key).unwrap_or_else(|_| "\"\"".into());
    let body = format!("{key_text}: {}", render(value, "", &unit));
    let ends: Vec<usize> = object.members().iter().map(|m| m.value.end).collect();
    addition(text, object, &ends, &body, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(t: &str) -> Node {
        parse(t).unwrap().root
    }

    #[test]
    fn comments_trailing_commas_and_spans() {
        let t = "// settings\n{\n  \"a\": 1, /* one */\n  \"b\": [true, \"x\",], // b\n}\n";
        let d = parse(t).unwrap();
        assert!(d.has_comments);
        let b = d.root.get("b").unwrap();
        assert_eq!(&t[b.start..b.end], "[true, \"x\",]");
        assert_eq!(b.items().len(), 2);
        assert_eq!(
            d.root.to_json(),
            serde_json::from_str::<Json>(r#"{"a":1,"b":[true,"x"]}"#).unwrap()
        );
        assert!(parse("{\"a\": }").is_err());
        assert!(parse("{} x").is_err());
        assert!(parse("/* open").is_err());
        assert!(parse(&"[".repeat(10_000)).is_err());
    }

    #[test]
    fn add_then_remove_gives_the_text_back() {
        let cases = [
            "{}",
            "{\n  \"a\": 1 // keep me\n}\n",
            "{\n\t\"a\": {\"x\": [1, 2]},\n\t/* c */ \"b\": 2,\n}",
            "{ /* only a comment */ }",
        ];
        for t in cases {
            let r = root(t);
            let v: Json = serde_json::from_str(r#"{"k": [1, {"z": true}]}"#).unwrap();
            let added = add_member(t, &r, "hooks", &v, false);
            let r2 = root(&added);
            assert_eq!(r2.get("hooks").unwrap().to_json(), v, "{added}");
            assert_eq!(remove_member(&added, &r2, "hooks"), t, "{added}");
        }
        let t = "{\"l\": [\n    1, // one\n    2\n  ]}";
        let r = root(t);
        let l = r.get("l").unwrap();
        let added = append_element(t, l, &Json::Bool(false));
        assert!(added.contains("// one"));
        let r2 = root(&added);
        let l2 = r2.get("l").unwrap();
        assert_eq!(l2.items().len(), 3);
        assert_eq!(remove_element(&added, l2, 2), t);
        // a Windows file keeps its line endings
        let crlf = "{\r\n  \"a\": 1\r\n}\r\n";
        let r = root(crlf);
        let v: Json = serde_json::from_str(r#"{"k": [1]}"#).unwrap();
        let added = add_member(crlf, &r, "hooks", &v, false);
        assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
        assert_eq!(remove_member(&added, &root(&added), "hooks"), crlf);
        // removing the first element keeps the rest as written
        let without = remove_element(t, l, 0);
        assert_eq!(without, "{\"l\": [\n    2\n  ]}");
    }
}
