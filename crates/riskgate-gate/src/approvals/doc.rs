//! An order-preserving, byte-preserving view of a JSON object: its keys in file order, each
//! value kept as raw JSON text. Rewriting settings.json through it changes only the values
//! riskgate owns; every other key keeps its position and its exact text. It is also much
//! cheaper than building a full value tree for files with thousands of approvals.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// A JSON object as (key, raw value) pairs in file order.
#[derive(Debug, Default)]
pub(crate) struct RawObject(pub Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for RawObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawObject;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawObject, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Box<RawValue>>()? {
                    out.push((k, v));
                }
                Ok(RawObject(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl RawObject {
    /// Parse `text` as an object.
    pub(crate) fn parse(text: &str) -> Result<RawObject, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The last value of `key` (JSON keeps the last of duplicates).
    pub(crate) fn get(&self, key: &str) -> Option<&RawValue> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_ref())
    }

    /// Set `key` to `value`: in place of its first occurrence (others removed), else at the end.
    pub(crate) fn set(&mut self, key: &str, value: Box<RawValue>) {
        let mut value = Some(value);
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for (k, v) in std::mem::take(&mut self.0) {
            if k != key {
                out.push((k, v));
            } else if let Some(new) = value.take() {
                out.push((k, new));
            }
        }
        if let Some(new) = value {
            out.push((key.to_string(), new));
        }
        self.0 = out;
    }

    /// Render with one key per line at `indent` spaces (values as they are).
    pub(crate) fn render(&self, indent: usize) -> String {
        if self.0.is_empty() {
            return "{}".to_string();
        }
        let pad = " ".repeat(indent + 2);
        let items: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| format!("{pad}{}: {}", quote(k), v.get()))
            .collect();
        format!("{{\n{}\n{}}}", items.join(",\n"), " ".repeat(indent))
    }
}

/// Render a list of raw values, one per line, at `indent` spaces.
pub(crate) fn render_list(items: &[Box<RawValue>], indent: usize) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    let pad = " ".repeat(indent + 2);
    let lines: Vec<String> = items.iter().map(|v| format!("{pad}{}", v.get())).collect();
    format!("[\n{}\n{}]", lines.join(",\n"), " ".repeat(indent))
}

/// A JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// Raw JSON from text we produced ourselves (falls back to `null` if it were ever invalid).
pub(crate) fn raw(text: String) -> Box<RawValue> {
    RawValue::from_string(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_text_of_other_keys() {
        let text = r#"{"zeta": 1, "alpha": {"x": [1,  2]}, "risk_acceptance": {}}"#;
        let mut o = RawObject::parse(text).unwrap();
        o.set("risk_acceptance", raw("{\"a\": 1}".into()));
        o.set("new", raw("true".into()));
        let out = o.render(0);
        assert_eq!(
            out,
            "{\n  \"zeta\": 1,\n  \"alpha\": {\"x\": [1,  2]},\n  \"risk_acceptance\": {\"a\": 1},\n  \"new\": true\n}"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["alpha"]["x"][1], 2);
    }

    #[test]
    fn rejects_non_objects() {
        assert!(RawObject::parse("[1, 2]").is_err());
        assert!(RawObject::parse("{\"a\": ").is_err());
    }
}
