//! Seed 004's pattern database format (`dangerous_patterns.json`) as a user rule pack.
//!
//! A file that is a JSON (or YAML) array of entries, or an object whose `patterns` key holds
//! one, is read as seed 004 wrote it:
//!
//! ```json
//! [{"id": "DP-001", "pattern": "^rm\\s+-rf\\s+/$", "patternType": "Regex",
//!   "description": "Recursive deletion of the root directory.",
//!   "riskLevel": "Critical", "baseScore": 100, "tags": ["filesystem", "destructive"]}]
//! ```
//!
//! Each entry becomes a text-pattern rule: `patternType` Regex / Glob / Exact (names
//! case-insensitive, or the C# enum numbers 0 / 1 / 2), `riskLevel` one of seed 004's
//! `RiskCategory` names SAFE, LOW, MEDIUM, HIGH, CRITICAL (case-insensitive, or 0-4), `baseScore`
//! the rule's score (default: the middle of the level's band). Seed 004 matches its patterns
//! against the command as written, so the pattern is matched against the input text and every
//! nested shell text (`bash -c '…'`, `eval`), i.e. `on: raw`; the extension key `on: canonical`
//! matches each simple command's canonical form instead. Entries are user data: they need no
//! examples. Keys are matched case-insensitively (`Id`, `PatternType` as C# writes them).
//!
//! A malformed entry is skipped with an error naming the file, the entry index and the field.

use serde_json::Value;

use crate::spec::{self, LEVEL_BANDS, MatcherData, PatternData, PatternKindData, RuleData};

/// The entries of a seed 004 pattern file, when `value` is one: a top-level array, or an object
/// with a `patterns` (or `dangerousPatterns`) array and no `rules` key.
pub(crate) fn entries(value: &Value) -> Option<&Vec<Value>> {
    match value {
        Value::Array(items) => Some(items),
        Value::Object(map) if !map.contains_key("rules") => map
            .iter()
            .find(|(k, _)| {
                let k = k.to_ascii_lowercase();
                k == "patterns" || k == "dangerouspatterns" || k == "dangerous_patterns"
            })
            .and_then(|(_, v)| v.as_array()),
        _ => None,
    }
}

/// The id of entry `v`, for error messages: its `id` when it is a string, else `entry #N`.
pub(crate) fn entry_id(v: &Value, index: usize) -> String {
    v.as_object()
        .and_then(|m| m.iter().find(|(k, _)| k.eq_ignore_ascii_case("id")))
        .and_then(|(_, v)| v.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| format!("entry #{index}"))
}

/// Validate one entry (index `index` in the file) into rule data; the error names the entry
/// index and the field.
pub(crate) fn entry(v: &Value, index: usize) -> Result<RuleData, String> {
    let fail = |field: &str, what: String| format!("entry {index}: `{field}`: {what}");
    let map = v
        .as_object()
        .ok_or_else(|| format!("entry {index}: expected an object, found {}", kind_of(v)))?;
    let mut id = None;
    let mut pattern = None;
    let mut kind = None;
    let mut description = None;
    let mut level = None;
    let mut score = None;
    let mut tags = Vec::new();
    let mut raw = true;
    for (key, val) in map {
        match key.to_ascii_lowercase().as_str() {
            "id" => id = Some(string(val).map_err(|e| fail("id", e))?),
            "pattern" => pattern = Some(string(val).map_err(|e| fail("pattern", e))?),
            "patterntype" => kind = Some(pattern_type(val).map_err(|e| fail("patternType", e))?),
            "description" => {
                description = Some(string(val).map_err(|e| fail("description", e))?);
            }
            "risklevel" => level = Some(risk_level(val).map_err(|e| fail("riskLevel", e))?),
            "basescore" => score = Some(base_score(val).map_err(|e| fail("baseScore", e))?),
            "tags" => tags = string_list(val).map_err(|e| fail("tags", e))?,
            "on" => {
                raw = match val.as_str().map(str::trim) {
                    Some("raw") => true,
                    Some("canonical") => false,
                    _ => return Err(fail("on", "expected \"raw\" or \"canonical\"".into())),
                }
            }
            _ => {
                return Err(fail(
                    key,
                    "unknown field (expected id, pattern, patternType, description, riskLevel, \
                     baseScore, tags, on)"
                        .into(),
                ));
            }
        }
    }
    let id = id.ok_or_else(|| fail("id", "missing".into()))?;
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    {
        return Err(fail(
            "id",
            format!("invalid id `{id}`: use letters, digits, `.`, `-`, `_`"),
        ));
    }
    let pattern = pattern
        .filter(|p| !p.is_empty())
        .ok_or_else(|| fail("pattern", "missing or empty".into()))?;
    let kind = kind.ok_or_else(|| fail("patternType", "missing (Regex, Glob or Exact)".into()))?;
    let level = level.ok_or_else(|| {
        fail(
            "riskLevel",
            "missing (SAFE, LOW, MEDIUM, HIGH or CRITICAL)".into(),
        )
    })?;
    let description = description
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .ok_or_else(|| fail("description", "missing or empty".into()))?;
    let band = LEVEL_BANDS[level];
    Ok(RuleData {
        id,
        level,
        score: score.unwrap_or((band.0 + band.1) / 2),
        description,
        rationale: None,
        reversible: level < 3,
        tags,
        alternative: None,
        false_positives: None,
        matcher: MatcherData::Pattern(PatternData {
            kind,
            text: pattern,
            raw,
            literals: Vec::new(),
        }),
        examples_match: Vec::new(),
        examples_not_match: Vec::new(),
        disabled: false,
    })
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn string(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected a string, found {}", kind_of(v)))
}

fn string_list(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items.iter().map(string).collect(),
        other => Err(format!(
            "expected a list of strings, found {}",
            kind_of(other)
        )),
    }
}

/// `Regex` / `Glob` / `Exact` (any case) or the C# enum numbers 0 / 1 / 2.
fn pattern_type(v: &Value) -> Result<PatternKindData, String> {
    const KINDS: [PatternKindData; 3] = [
        PatternKindData::Regex,
        PatternKindData::Glob,
        PatternKindData::Exact,
    ];
    let found = match v {
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "regex" => Some(PatternKindData::Regex),
            "glob" => Some(PatternKindData::Glob),
            "exact" => Some(PatternKindData::Exact),
            _ => None,
        },
        Value::Number(n) => n
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| KINDS.get(i).copied()),
        _ => None,
    };
    found.ok_or_else(|| format!("`{v}` is not Regex, Glob or Exact"))
}

/// A `RiskCategory` name (any case) or its number 0-4, as a level index.
fn risk_level(v: &Value) -> Result<usize, String> {
    let found = match v {
        Value::String(s) => spec::level_index(s),
        Value::Number(n) => n
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < LEVEL_BANDS.len()),
        _ => None,
    };
    found.ok_or_else(|| format!("`{v}` is not SAFE, LOW, MEDIUM, HIGH or CRITICAL"))
}

fn base_score(v: &Value) -> Result<u8, String> {
    v.as_u64()
        .filter(|s| *s <= 100)
        .and_then(|s| u8::try_from(s).ok())
        .ok_or_else(|| format!("`{v}` is not a whole number from 0 to 100"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn seed_example() -> Value {
        json!([{
            "id": "DP-001",
            "pattern": "^rm\\s+-rf\\s+/$",
            "patternType": "Regex",
            "description": "Recursive deletion of the root directory.",
            "riskLevel": "Critical",
            "baseScore": 100,
            "tags": ["filesystem", "destructive"]
        }])
    }

    #[test]
    fn seed_example_maps_to_a_raw_regex_rule() {
        let v = seed_example();
        let items = entries(&v).map(Vec::as_slice).unwrap_or(&[]);
        assert_eq!(items.len(), 1);
        let d = entry(&items[0], 0).map_err(|e| e.to_string());
        let Ok(d) = d else {
            panic!("entry rejected: {d:?}");
        };
        assert_eq!(d.id, "DP-001");
        assert_eq!(d.level, 4);
        assert_eq!(d.score, 100);
        assert_eq!(d.tags, ["filesystem", "destructive"]);
        assert!(d.examples_match.is_empty());
        assert_eq!(
            d.matcher,
            MatcherData::Pattern(PatternData {
                kind: PatternKindData::Regex,
                text: "^rm\\s+-rf\\s+/$".into(),
                raw: true,
                literals: Vec::new(),
            })
        );
    }

    #[test]
    fn wrapped_object_numbers_and_case() {
        let v = json!({"patterns": [{"Id": "x", "Pattern": "rm *", "PatternType": 1,
            "Description": "d", "RiskLevel": 3}]});
        let items = entries(&v).map(Vec::as_slice).unwrap_or(&[]);
        let d = entry(&items[0], 0);
        let Ok(d) = d else { panic!("{d:?}") };
        assert_eq!(d.level, 3);
        assert_eq!(d.score, 70);
        assert!(matches!(
            d.matcher,
            MatcherData::Pattern(PatternData {
                kind: PatternKindData::Glob,
                ..
            })
        ));
        // A rule pack is never read as a pattern file.
        assert!(entries(&json!({"rules": [], "patterns": []})).is_none());
    }

    #[test]
    fn errors_name_the_entry_and_field() {
        let base = json!({"id": "a", "pattern": "x", "patternType": "Regex",
            "description": "d", "riskLevel": "High"});
        let with = |k: &str, v: Value| {
            let mut e = base.clone();
            e[k] = v;
            entry(&e, 3).err().unwrap_or_default()
        };
        assert!(with("riskLevel", json!("Severe")).contains("entry 3: `riskLevel`"));
        assert!(with("patternType", json!("Fuzzy")).contains("entry 3: `patternType`"));
        assert!(with("baseScore", json!(101)).contains("entry 3: `baseScore`"));
        assert!(with("baseScore", json!(-1)).contains("`baseScore`"));
        assert!(with("pattern", json!("")).contains("`pattern`"));
        assert!(with("tags", json!("x")).contains("`tags`"));
        assert!(with("severity", json!(1)).contains("`severity`: unknown field"));
        assert!(with("id", json!("a b")).contains("`id`"));
        let mut missing = base.clone();
        if let Some(m) = missing.as_object_mut() {
            m.remove("riskLevel");
        }
        assert!(
            entry(&missing, 0)
                .err()
                .unwrap_or_default()
                .contains("`riskLevel`: missing")
        );
        assert!(entry(&json!("x"), 2).is_err_and(|e| e.contains("entry 2")));
    }
}
