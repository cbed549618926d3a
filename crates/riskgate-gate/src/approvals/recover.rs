//! Reading a settings.json that is not clean JSON: a UTF-8 byte order mark is dropped (the
//! file is then read normally); a file that is not UTF-8, not valid JSON or cut short is read
//! leniently (lossy UTF-8), and every approved and denied entry that can still be parsed on
//! its own is recovered, so that a later write keeps it.

use serde_json::Value;
use serde_json::value::RawValue;

/// The file's text: without a UTF-8 byte order mark, lossy when it is not UTF-8 (`lossy`).
pub(crate) struct Decoded {
    pub text: String,
    pub lossy: bool,
}

pub(crate) fn decode(bytes: &[u8]) -> Decoded {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => Decoded {
            text: t.to_string(),
            lossy: false,
        },
        Err(_) => Decoded {
            text: String::from_utf8_lossy(bytes).into_owned(),
            lossy: true,
        },
    }
}

/// The items of the list under `"key"` in damaged JSON text, each as raw JSON: every object or
/// string that parses on its own, in file order, until the list ends or the text does.
pub(crate) fn recover_list(text: &str, key: &str) -> Vec<Box<RawValue>> {
    let needle = format!("\"{key}\"");
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(found) = text.get(search..).and_then(|t| t.find(&needle)) {
        let after = search + found + needle.len();
        search = after;
        let rest = text.get(after..).unwrap_or("");
        let trimmed = rest.trim_start();
        let Some(list) = trimmed.strip_prefix(':').map(str::trim_start) else {
            continue;
        };
        let Some(body) = list.strip_prefix('[') else {
            continue;
        };
        let start = text.len() - body.len();
        out.extend(items(text, start));
    }
    out
}

/// Items of a list starting at byte `at` (just after its `[`).
fn items(text: &str, mut at: usize) -> Vec<Box<RawValue>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    while let Some(&b) = bytes.get(at) {
        match b {
            b']' => break,
            b'{' | b'"' => {
                let Some(end) = value_end(bytes, at) else {
                    break;
                };
                if let Some(raw) = text
                    .get(at..end)
                    .and_then(|t| serde_json::from_str::<Value>(t).ok())
                    .filter(|v| v.is_object() || v.is_string())
                    .and_then(|v| RawValue::from_string(v.to_string()).ok())
                {
                    out.push(raw);
                }
                at = end;
            }
            _ => at += 1,
        }
    }
    out
}

/// One past the end of the object or string starting at `at` (`None`: cut short).
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut i = at;
    while let Some(&b) = bytes.get(i) {
        if in_str {
            match b {
                b'\\' => i += 1,
                b'"' => {
                    in_str = false;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        } else {
            match b {
                b'"' => in_str = true,
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(items: &[Box<RawValue>]) -> Vec<String> {
        items
            .iter()
            .map(|r| {
                let v: Value = serde_json::from_str(r.get()).unwrap();
                v.get("pattern")
                    .and_then(Value::as_str)
                    .or(v.as_str())
                    .unwrap_or("?")
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn truncated_files_keep_their_whole_entries() {
        let text = r#"{"risk_acceptance": {"denied_patterns": [{"pattern": "terraform destroy*"}, "rm -rf /srv", {"pattern": "git push --fo"#;
        assert_eq!(
            patterns(&recover_list(text, "denied_patterns")),
            ["terraform destroy*", "rm -rf /srv"]
        );
    }

    #[test]
    fn garbage_between_entries_is_skipped() {
        let text =
            r#"{"approved_patterns": [{"pattern": "a"}, @@garbage@@ {"pattern": "b", "x": "}"}]"#;
        assert_eq!(
            patterns(&recover_list(text, "approved_patterns")),
            ["a", "b"]
        );
    }

    #[test]
    fn bom_and_non_utf8() {
        let d = decode(b"\xEF\xBB\xBF{}");
        assert_eq!(d.text, "{}");
        assert!(!d.lossy);
        let d = decode(b"{\"a\": \"\xff\"}");
        assert!(d.lossy);
    }
}
