//! YAML with positions: a document parsed by `serde-saphyr` into a tree whose every node
//! knows its line and column (the parser's own spans), and the source position of each line
//! of a scalar's value (block scalars `|` / `>` included), found by walking the source forward
//! from the node.
//!
//! Bounded by the parser's budget (nesting depth 64, alias expansion limits).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::text::{LineIndex, follow_lines};

/// A YAML value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Y {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

/// A YAML value and where it starts (1-based line and column).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub v: Y,
    pub line: u32,
    pub col: u32,
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let s: Spanned<Y> = Spanned::deserialize(d)?;
        Ok(Node {
            v: s.value,
            line: u32::try_from(s.referenced.line()).unwrap_or(u32::MAX),
            col: u32::try_from(s.referenced.column()).unwrap_or(u32::MAX),
        })
    }
}

struct YVisitor;

impl<'de> Visitor<'de> for YVisitor {
    type Value = Y;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Y, E> {
        Ok(Y::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Y, E> {
        Ok(Y::Num(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Y, E> {
        Ok(Y::Num(v.to_string()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Y, E> {
        Ok(Y::Num(v.to_string()))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Y, E> {
        Ok(Y::Num(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Y, E> {
        Ok(Y::Num(v.to_string()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Y, E> {
        Ok(Y::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Y, E> {
        Ok(Y::Str(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Y, E> {
        Ok(Y::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Y, E> {
        Ok(Y::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Y, E> {
        Ok(Y::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Y, D::Error> {
        Y::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Y, A::Error> {
        let mut out = Vec::new();
        while let Some(n) = seq.next_element::<Node>()? {
            out.push(n);
        }
        Ok(Y::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Y, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<Node, Node>()? {
            out.push((k, v));
        }
        Ok(Y::Map(out))
    }
}

impl<'de> Deserialize<'de> for Y {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Y, D::Error> {
        d.deserialize_any(YVisitor)
    }
}

/// A YAML document that does not parse: why, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub message: String,
    pub line: u32,
    pub col: u32,
}

/// Parse one YAML document. An empty document is `Null`.
pub(crate) fn parse(text: &str) -> Result<Node, YamlError> {
    if text.trim().is_empty() {
        return Ok(Node {
            v: Y::Null,
            line: 1,
            col: 1,
        });
    }
    serde_saphyr::from_str::<Node>(text).map_err(|e| {
        let (line, col) = e.location().map_or((1, 1), |l| {
            (
                u32::try_from(l.line()).unwrap_or(1).max(1),
                u32::try_from(l.column()).unwrap_or(1).max(1),
            )
        });
        let text = e.to_string();
        let message = text.lines().next().unwrap_or("invalid YAML").to_string();
        YamlError { message, line, col }
    })
}

impl Node {
    /// The value under `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.v {
            Y::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A string scalar (numbers and booleans as their text too).
    pub fn as_str(&self) -> Option<&str> {
        match &self.v {
            Y::Str(s) | Y::Num(s) => Some(s),
            Y::Bool(true) => Some("true"),
            Y::Bool(false) => Some("false"),
            _ => None,
        }
    }

    /// A mapping's entries (empty for anything else).
    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.v {
            Y::Map(e) => e,
            _ => &[],
        }
    }

    /// A sequence's items (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.v {
            Y::Seq(s) => s,
            _ => &[],
        }
    }

    /// Its position.
    pub fn pos(&self) -> (u32, u32) {
        (self.line, self.col)
    }

    /// The string entries of a mapping: `(key, value node)`.
    pub fn str_entries(&self) -> impl Iterator<Item = (&str, &Node)> {
        self.entries()
            .iter()
            .filter_map(|(k, v)| k.as_str().map(|k| (k, v)))
    }
}

/// Byte offset of a 1-based line and (character) column in the indexed text.
fn offset_of(index: &LineIndex<'_>, line: u32, col: u32) -> usize {
    let start = index.line_start(line);
    let text = index.text();
    let rest = text.get(start..).unwrap_or("");
    let mut off = start;
    for (n, (i, _)) in rest.char_indices().enumerate() {
        if n + 1 >= col as usize {
            return start + i;
        }
        off = start + i;
    }
    off.max(start)
}

/// The source position of each line of `value`, the string scalar `node`: for a block scalar
/// (`|`, `>`), each value line is found in the lines after the indicator, walking forward; for
/// a plain or quoted scalar, the first line is at the node (past a quote) and the others are
/// found the same way (see [`follow_lines`]).
pub(crate) fn scalar_lines(index: &LineIndex<'_>, node: &Node, value: &str) -> Vec<(u32, u32)> {
    let text = index.text();
    let start = offset_of(index, node.line, node.col);
    let first_char = text.get(start..).and_then(|s| s.chars().next());
    let first = match first_char {
        Some('|' | '>') => None,
        Some('"' | '\'') => Some((node.line, node.col + 1)),
        _ => Some((node.line, node.col)),
    };
    follow_lines(index, first, node.line + 1, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_scalars_and_blocks() {
        let src = "jobs:\n  a:\n    steps:\n      - run: echo one\n      - run: |\n          echo two\n\n          echo three\n      - run: \"echo four\"\n";
        let doc = parse(src).unwrap();
        let idx = LineIndex::new(src);
        let steps = doc
            .get("jobs")
            .unwrap()
            .get("a")
            .unwrap()
            .get("steps")
            .unwrap();
        let runs: Vec<&Node> = steps
            .items()
            .iter()
            .map(|s| s.get("run").unwrap())
            .collect();
        assert_eq!(runs[0].pos(), (4, 14));
        assert_eq!(scalar_lines(&idx, runs[0], "echo one"), vec![(4, 14)]);
        let v = runs[1].as_str().unwrap();
        assert_eq!(v, "echo two\n\necho three\n");
        assert_eq!(
            scalar_lines(&idx, runs[1], v)[..3],
            [(6, 11), (7, 11), (8, 11)]
        );
        assert_eq!(scalar_lines(&idx, runs[2], "echo four"), vec![(9, 15)]);
    }

    #[test]
    fn bad_yaml_is_an_error_and_deep_nesting_is_bounded() {
        assert!(parse("a: [\n").is_err());
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}
