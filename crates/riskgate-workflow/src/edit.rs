//! Writing `metadata.risk_approval` into a saved workflow (seed 000 rule 17) without touching
//! anything else in the file: the edit is made on the text (the value replaced, or the key
//! inserted), in JSON or in block-style YAML, and checked before writing — the file read back
//! must equal the old one plus the new key, or nothing is written. The write is atomic (temp
//! file in the same directory, fsync, rename; permissions kept).

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::error::MetadataError;
use crate::ir::{Format, deserialize};

/// The `metadata.risk_approval` object, in the seed's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RiskApproval {
    /// Approved.
    pub approved: bool,
    /// The risk hash approved.
    pub risk_hash: String,
    /// When (RFC 3339, UTC).
    pub approved_at: String,
}

/// Set `metadata.risk_approval` of the workflow file at `path` to `approval`, atomically.
pub fn write_risk_approval(path: &Path, approval: &RiskApproval) -> Result<(), MetadataError> {
    let text = std::fs::read_to_string(path).map_err(|e| MetadataError::Read {
        path: path.to_path_buf(),
        source: e,
    })?;
    let edit_err = |message: String| MetadataError::Edit {
        path: path.to_path_buf(),
        message,
    };
    let new_text = set_risk_approval(&text, Format::for_path(path), approval).map_err(edit_err)?;
    riskgate::gate::atomic::write_atomic(path, new_text.as_bytes()).map_err(|e| {
        MetadataError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    })
}

/// The text of a workflow document with `metadata.risk_approval` set, everything else kept
/// byte for byte.
pub fn set_risk_approval(
    text: &str,
    format: Format,
    approval: &RiskApproval,
) -> Result<String, String> {
    let is_json = serde_json::from_str::<Value>(text).is_ok();
    let (new_text, check_format) = if is_json {
        (json_edit(text, approval)?, Format::Json)
    } else if format == Format::Json {
        return Err("the file is not valid JSON".into());
    } else {
        (yaml_edit(text, approval)?, Format::Yaml)
    };
    verify(text, &new_text, check_format, approval)?;
    Ok(new_text)
}

/// The new document must read as the old one with only `metadata.risk_approval` changed.
fn verify(old: &str, new: &str, format: Format, approval: &RiskApproval) -> Result<(), String> {
    let mut expected: Value = deserialize(old, format)?;
    let got: Value =
        deserialize(new, format).map_err(|e| format!("the edit broke the file: {e}"))?;
    let value = serde_json::to_value(approval).map_err(|e| e.to_string())?;
    let root = expected
        .as_object_mut()
        .ok_or("the workflow is not an object")?;
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if meta.is_null() {
        *meta = Value::Object(serde_json::Map::new());
    }
    meta.as_object_mut()
        .ok_or("`metadata` is not an object")?
        .insert("risk_approval".into(), value);
    if expected == got {
        Ok(())
    } else {
        Err("the file's layout is not one riskgate can edit in place (nothing was written)".into())
    }
}

// ---------------------------------------------------------------- JSON

struct Member {
    key: String,
    key_start: usize,
    value_start: usize,
    value_end: usize,
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// End (exclusive) of the string starting at `i` (a `"`).
fn string_end(b: &[u8], i: usize) -> Result<usize, String> {
    let mut j = i + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return Ok(j + 1),
            _ => j += 1,
        }
    }
    Err("unterminated string".into())
}

/// End (exclusive) of the JSON value starting at `i`. Iterative: any depth.
fn value_end(b: &[u8], i: usize) -> Result<usize, String> {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Ok(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            Err("unterminated object or array".into())
        }
        Some(_) => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                j += 1;
            }
            Ok(j)
        }
        None => Err("unexpected end".into()),
    }
}

/// Members of the object whose `{` is at `open`, and the index of its `}`.
fn members(text: &str, open: usize) -> Result<(Vec<Member>, usize), String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        return Ok((out, i));
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return Err("expected a key".into());
        }
        let i_key = i;
        let kend = string_end(b, i)?;
        let key: String =
            serde_json::from_str(text.get(i..kend).unwrap_or("\"\"")).map_err(|e| e.to_string())?;
        i = skip_ws(b, kend);
        if b.get(i) != Some(&b':') {
            return Err("expected `:`".into());
        }
        let value_start = skip_ws(b, i + 1);
        let value_end = value_end(b, value_start)?;
        out.push(Member {
            key,
            key_start: i_key,
            value_start,
            value_end,
        });
        i = skip_ws(b, value_end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Ok((out, i)),
            _ => return Err("expected `,` or `}`".into()),
        }
    }
}

/// The indentation unit of the document: the whitespace before the first top-level key when
/// it starts a line; `None` for a compact document.
fn indent_unit(text: &str, open: usize, first_key: Option<usize>) -> Option<String> {
    let between = text.get(open + 1..first_key?)?;
    let nl = between.rfind('\n')?;
    Some(between.get(nl + 1..)?.to_string())
}

fn render(value: &impl Serialize, unit: Option<&str>, depth: usize) -> Result<String, String> {
    let Some(unit) = unit else {
        return serde_json::to_string(value).map_err(|e| e.to_string());
    };
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    value.serialize(&mut ser).map_err(|e| e.to_string())?;
    let s = String::from_utf8(buf).map_err(|e| e.to_string())?;
    let pad = unit.repeat(depth);
    Ok(s.replace('\n', &format!("\n{pad}")))
}

fn json_edit(text: &str, approval: &RiskApproval) -> Result<String, String> {
    let b = text.as_bytes();
    let open = skip_ws(b, 0);
    if b.get(open) != Some(&b'{') {
        return Err("the workflow is not a JSON object".into());
    }
    let (top, close) = members(text, open)?;
    let unit = indent_unit(text, open, top.first().map(|m| m.key_start));
    let unit = unit.as_deref();
    let nl = |depth: usize| match unit {
        Some(u) => format!("\n{}", u.repeat(depth)),
        None => String::new(),
    };
    let sep = if unit.is_some() { ": " } else { ":" };
    let mut out = String::with_capacity(text.len() + 200);
    match top.iter().rev().find(|m| m.key == "metadata") {
        Some(meta) if b.get(meta.value_start) == Some(&b'{') => {
            let (inner, inner_close) = members(text, meta.value_start)?;
            let v = render(approval, unit, 2)?;
            if let Some(ra) = inner.iter().rev().find(|m| m.key == "risk_approval") {
                out.push_str(text.get(..ra.value_start).unwrap_or(""));
                out.push_str(&v);
                out.push_str(text.get(ra.value_end..).unwrap_or(""));
            } else if let Some(last) = inner.last() {
                out.push_str(text.get(..last.value_end).unwrap_or(""));
                out.push_str(&format!(",{}\"risk_approval\"{sep}{v}", nl(2)));
                out.push_str(text.get(last.value_end..).unwrap_or(""));
            } else {
                out.push_str(text.get(..meta.value_start).unwrap_or(""));
                out.push_str(&format!("{{{}\"risk_approval\"{sep}{v}{}}}", nl(2), nl(1)));
                out.push_str(text.get(inner_close + 1..).unwrap_or(""));
            }
        }
        Some(meta) if text.get(meta.value_start..meta.value_end) == Some("null") => {
            let v = render(approval, unit, 2)?;
            out.push_str(text.get(..meta.value_start).unwrap_or(""));
            out.push_str(&format!("{{{}\"risk_approval\"{sep}{v}{}}}", nl(2), nl(1)));
            out.push_str(text.get(meta.value_end..).unwrap_or(""));
        }
        Some(_) => return Err("`metadata` is not an object".into()),
        None => {
            let v = render(approval, unit, 2)?;
            let block = format!(
                "\"metadata\"{sep}{{{}\"risk_approval\"{sep}{v}{}}}",
                nl(2),
                nl(1)
            );
            match top.last() {
                Some(last) => {
                    out.push_str(text.get(..last.value_end).unwrap_or(""));
                    out.push_str(&format!(",{}{block}", nl(1)));
                    out.push_str(text.get(last.value_end..).unwrap_or(""));
                }
                None => {
                    out.push_str(text.get(..close).unwrap_or(""));
                    out.push_str(&format!("{}{block}{}", nl(1), nl(0)));
                    out.push_str(text.get(close..).unwrap_or(""));
                }
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------- YAML

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn yaml_block(indent: &str, unit: &str, a: &RiskApproval) -> Result<String, String> {
    let q = |s: &str| serde_json::to_string(s).map_err(|e| e.to_string());
    Ok(format!(
        "{indent}risk_approval:\n{indent}{unit}approved: {}\n{indent}{unit}risk_hash: {}\n{indent}{unit}approved_at: {}\n",
        a.approved,
        q(&a.risk_hash)?,
        q(&a.approved_at)?
    ))
}

fn yaml_edit(text: &str, approval: &RiskApproval) -> Result<String, String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let meta_at = lines.iter().rposition(|l| {
        l.starts_with("metadata:") || l.starts_with("\"metadata\":") || l.starts_with("'metadata':")
    });
    let mut out = String::with_capacity(text.len() + 200);
    let Some(m) = meta_at else {
        out.push_str(text);
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("metadata:\n");
        out.push_str(&yaml_block("  ", "  ", approval)?);
        return Ok(out);
    };
    let head = lines.get(m).copied().unwrap_or("");
    let rest = head.split_once(':').map(|(_, r)| r.trim()).unwrap_or("");
    let rest = rest.split(" #").next().unwrap_or("").trim();
    let before: String = lines.get(..m).unwrap_or(&[]).concat();
    if matches!(rest, "{}" | "null" | "~") {
        let after: String = lines.get(m + 1..).unwrap_or(&[]).concat();
        out.push_str(&before);
        out.push_str("metadata:\n");
        out.push_str(&yaml_block("  ", "  ", approval)?);
        out.push_str(&after);
        return Ok(out);
    }
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err("`metadata` is written in flow style; write it as a block mapping".into());
    }
    // the block: indented, blank or comment lines after the `metadata:` line
    let mut end = m + 1;
    while let Some(l) = lines.get(end) {
        if is_blank_or_comment(l) || indent_of(l) > 0 {
            end += 1;
        } else {
            break;
        }
    }
    let child = lines
        .get(m + 1..end)
        .unwrap_or(&[])
        .iter()
        .find(|l| !is_blank_or_comment(l))
        .map(|l| indent_of(l))
        .unwrap_or(2)
        .max(1);
    let indent = " ".repeat(child);
    let block = yaml_block(&indent, &indent, approval)?;
    let existing = (m + 1..end).find(|&i| {
        lines.get(i).is_some_and(|l| {
            indent_of(l) == child
                && l.trim_start()
                    .trim_start_matches(['"', '\''])
                    .starts_with("risk_approval")
        })
    });
    match existing {
        Some(s) => {
            let mut e = s + 1;
            while let Some(l) = lines.get(e) {
                if e < end && (l.trim().is_empty() || indent_of(l) > child) {
                    e += 1;
                } else {
                    break;
                }
            }
            // trailing blank lines stay outside
            while e > s + 1 && lines.get(e - 1).is_some_and(|l| l.trim().is_empty()) {
                e -= 1;
            }
            out.push_str(&lines.get(..s).unwrap_or(&[]).concat());
            out.push_str(&block);
            out.push_str(&lines.get(e..).unwrap_or(&[]).concat());
        }
        None => {
            out.push_str(&before);
            out.push_str(head);
            if !head.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&block);
            out.push_str(&lines.get(m + 1..).unwrap_or(&[]).concat());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn approval() -> RiskApproval {
        RiskApproval {
            approved: true,
            risk_hash: "0123".into(),
            approved_at: "2024-01-15T10:30:00Z".into(),
        }
    }

    #[test]
    fn json_insert_keeps_order_and_layout() {
        let text = "{\n  \"zeta\": 1,\n  \"nodes\": [],\n  \"alpha\": {\"b\": 2, \"a\": 1}\n}\n";
        let out = set_risk_approval(text, Format::Json, &approval()).unwrap();
        assert!(out.starts_with("{\n  \"zeta\": 1,\n  \"nodes\": [],\n  \"alpha\": {\"b\": 2, \"a\": 1},\n  \"metadata\": {\n    \"risk_approval\": {\n      \"approved\": true,"), "{out}");
        assert!(out.ends_with("}\n  }\n}\n"), "{out}");
        // replacing keeps everything else
        let again = set_risk_approval(
            &out,
            Format::Json,
            &RiskApproval {
                risk_hash: "ffff".into(),
                ..approval()
            },
        )
        .unwrap();
        assert_eq!(again, out.replace("0123", "ffff"));
    }

    #[test]
    fn json_compact_and_existing_metadata() {
        let text = r#"{"nodes":[],"metadata":{"name":"x"}}"#;
        let out = set_risk_approval(text, Format::Json, &approval()).unwrap();
        assert_eq!(
            out,
            r#"{"nodes":[],"metadata":{"name":"x","risk_approval":{"approved":true,"risk_hash":"0123","approved_at":"2024-01-15T10:30:00Z"}}}"#
        );
    }

    #[test]
    fn yaml_insert_and_replace() {
        let text = "# my workflow\nnodes:\n  - id: a   # first\n    type: shell\nmetadata:\n  name: x\n  risk_approval:\n    approved: false\n    risk_hash: old\n\nextra: 1\n";
        let out = set_risk_approval(text, Format::Yaml, &approval()).unwrap();
        assert_eq!(
            out,
            "# my workflow\nnodes:\n  - id: a   # first\n    type: shell\nmetadata:\n  name: x\n  risk_approval:\n    approved: true\n    risk_hash: \"0123\"\n    approved_at: \"2024-01-15T10:30:00Z\"\n\nextra: 1\n"
        );
        let text = "nodes: []\n";
        let out = set_risk_approval(text, Format::Yaml, &approval()).unwrap();
        assert!(
            out.starts_with("nodes: []\nmetadata:\n  risk_approval:\n    approved: true\n"),
            "{out}"
        );
        assert!(
            set_risk_approval("nodes: []\nmetadata: {a: 1}\n", Format::Yaml, &approval()).is_err()
        );
    }
}
