//! Turning a parser's error position into the dotted key path a person recognizes
//! (`hooks.ask_fallback`, `overrides[1].level`), for YAML, TOML and JSON.
//!
//! The parsers give a line and column; the path is rebuilt from the source text up to that
//! point: indentation and `- ` items for YAML, table headers for TOML, a small tokenizer for
//! JSON. Best effort by design: a path that cannot be rebuilt is `(file)`.

use super::file::Format;

/// The key path at 1-based `line` / `column` of `text`.
pub(crate) fn key_path(text: &str, format: Format, line: usize, column: usize) -> String {
    let path = match format {
        Format::Yaml => yaml_path(text, line),
        Format::Toml => toml_path(text, line),
        Format::Json => json_path(text, offset_of(text, line, column)),
    };
    if path.is_empty() {
        "(file)".to_string()
    } else {
        path
    }
}

/// The 1-based line and column of byte `offset`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// The byte offset of 1-based `line` / `column` (clamped to the text).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col: usize = l
                .char_indices()
                .nth(column.saturating_sub(1))
                .map(|(b, _)| b)
                .unwrap_or(l.len());
            return offset + col;
        }
        offset += l.len();
    }
    text.len()
}

/// The first 1-based line on which `needle` appears.
pub(crate) fn find_line(text: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
        .unwrap_or(s)
        .to_string()
}

struct Frame {
    indent: usize,
    key: String,
    index: Option<usize>,
    in_item: bool,
}

/// `key` of a YAML `key: value` / `key:` line (the text after indentation and `- `).
fn yaml_key(rest: &str) -> Option<String> {
    let rest = rest.split(" #").next().unwrap_or(rest);
    let colon = rest
        .char_indices()
        .find(|&(i, c)| {
            c == ':'
                && rest
                    .get(i + 1..)
                    .is_none_or(|r| r.is_empty() || r.starts_with(' '))
        })
        .map(|(i, _)| i)?;
    let key = unquote(rest.get(..colon)?);
    if key.is_empty() || key.starts_with(['{', '[', '#']) {
        None
    } else {
        Some(key)
    }
}

fn yaml_path(text: &str, line: usize) -> String {
    let mut stack: Vec<Frame> = Vec::new();
    for raw in text.lines().take(line) {
        let trimmed = raw.trim_start_matches(' ');
        if trimmed.trim().is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
            continue;
        }
        let mut indent = raw.len() - trimmed.len();
        let mut rest = trimmed;
        let mut in_item = false;
        while let Some(after) = rest
            .strip_prefix("- ")
            .or_else(|| (rest == "-").then_some(""))
        {
            stack.retain(|f| f.indent < indent || (f.indent == indent && !f.in_item));
            if let Some(owner) = stack.last_mut() {
                owner.index = Some(owner.index.map_or(0, |i| i + 1));
            }
            let spaces = after.len() - after.trim_start_matches(' ').len();
            indent += 2 + spaces;
            rest = after.trim_start_matches(' ');
            in_item = true;
        }
        if let Some(key) = yaml_key(rest) {
            stack.retain(|f| f.indent < indent);
            stack.push(Frame {
                indent,
                key,
                index: None,
                in_item,
            });
        }
    }
    join(&stack)
}

fn join(stack: &[Frame]) -> String {
    let mut out = String::new();
    for f in stack {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(&f.key);
        if let Some(i) = f.index {
            out.push_str(&format!("[{i}]"));
        }
    }
    out
}

fn toml_path(text: &str, line: usize) -> String {
    let mut table = String::new();
    let mut arrays: Vec<(String, usize)> = Vec::new();
    let mut key = String::new();
    for (i, raw) in text.lines().take(line).enumerate() {
        let t = raw.trim();
        let is_last = i + 1 == line;
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = unquote(name);
            let idx = match arrays.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => {
                    *count += 1;
                    *count - 1
                }
                None => {
                    arrays.push((name.clone(), 1));
                    0
                }
            };
            table = format!("{name}[{idx}]");
            key.clear();
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = unquote(name);
            key.clear();
        } else if is_last && let Some((k, _)) = t.split_once('=') {
            key = unquote(k);
        }
    }
    match (table.is_empty(), key.is_empty()) {
        (true, _) => key,
        (false, true) => table,
        (false, false) => format!("{table}.{key}"),
    }
}

enum Ctx {
    Object {
        key: Option<String>,
        expect_key: bool,
    },
    Array {
        index: usize,
    },
}

fn json_path(text: &str, offset: usize) -> String {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Ctx> = Vec::new();
    let mut i = 0;
    while i < end {
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'{' => stack.push(Ctx::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Ctx::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Ctx::Object { expect_key, .. }) => *expect_key = true,
                Some(Ctx::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() {
                    match bytes.get(i) {
                        Some(b'\\') => i += 2,
                        Some(b'"') => break,
                        _ => i += 1,
                    }
                }
                if let Some(Ctx::Object { key, expect_key }) = stack.last_mut()
                    && *expect_key
                {
                    *key = text.get(start..i.min(text.len())).map(str::to_string);
                    *expect_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut out = String::new();
    for ctx in &stack {
        match ctx {
            Ctx::Object { key: Some(k), .. } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Ctx::Object { key: None, .. } => {}
            Ctx::Array { index } => out.push_str(&format!("[{index}]")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_paths() {
        let y = "approval_timeout: 5\nhooks:\n  ask_fallback: maybe\n";
        assert_eq!(key_path(y, Format::Yaml, 3, 3), "hooks.ask_fallback");
        let y = "patterns:\n  - rm -rf /\n  - pattern: x\n    level: bogus\n";
        assert_eq!(key_path(y, Format::Yaml, 4, 12), "patterns[1].level");
        let y =
            "overrides:\n- pattern: a\n  level: LOW\n- pattern: b\n  levle: LOW\nenvironment: x\n";
        assert_eq!(key_path(y, Format::Yaml, 5, 3), "overrides[1].levle");
        assert_eq!(key_path(y, Format::Yaml, 6, 14), "environment");
        let y = "risk_policy:\n  # comment\n  agents:\n    claude: maybe\n";
        assert_eq!(
            key_path(y, Format::Yaml, 4, 13),
            "risk_policy.agents.claude"
        );
    }

    #[test]
    fn toml_paths() {
        let t = "approval_timeout = 5\n[hooks]\nask_fallbak = \"deny\"\n";
        assert_eq!(key_path(t, Format::Toml, 3, 1), "hooks.ask_fallbak");
        let t = "[[overrides]]\npattern = \"a\"\n[[overrides]]\nlevel = \"x\"\n";
        assert_eq!(key_path(t, Format::Toml, 4, 9), "overrides[1].level");
        assert_eq!(
            key_path("environment = 3\n", Format::Toml, 1, 15),
            "environment"
        );
    }

    #[test]
    fn json_paths() {
        let j = "{\"approval_timeout\": 5,\n \"hooks\": {\"ask_fallbak\": \"deny\"}}";
        assert_eq!(key_path(j, Format::Json, 2, 24), "hooks.ask_fallbak");
        let j = "{\"overrides\": [{\"pattern\": \"a\"}, {\"pattern\": \"b\", \"level\": 7}]}";
        assert_eq!(key_path(j, Format::Json, 1, 61), "overrides[1].level");
    }

    #[test]
    fn offsets_and_lines() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(find_line("a\nb: /x\n", "/x"), Some(2));
    }
}
