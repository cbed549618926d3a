//! The rule pack file format (rules/README.md) as serde types, and its validation into plain
//! owned rule data.
//!
//! This module is shared by the build script (which embeds `rules/*.yaml`) and the runtime
//! loader of user packs, so both read the format the same way. It depends on serde and std only.

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::fmt;

/// One pack file.
#[allow(dead_code)] // read by the build script
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackSpec {
    /// Pack name (the file stem when absent).
    #[serde(default)]
    pub pack: Option<String>,
    /// One line about the pack.
    #[serde(default)]
    pub description: Option<String>,
    /// The rules.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// Extension: free-form YAML for anchors shared by several rules (`&ROOT` … `*ROOT`).
    #[serde(default)]
    pub definitions: Option<serde::de::IgnoredAny>,
}

/// One rule as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    pub id: String,
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub score: Option<u8>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub rationale: Option<String>,
    #[serde(default)]
    pub reversible: Option<bool>,
    #[serde(default, deserialize_with = "str_list")]
    pub tags: Vec<String>,
    #[serde(default)]
    pub alternative: Option<String>,
    #[serde(default)]
    pub false_positives: Option<String>,
    #[serde(default, rename = "match")]
    pub matcher: Option<MatchSpec>,
    #[serde(default)]
    pub pattern: Option<PatternSpec>,
    #[serde(default)]
    pub examples: ExamplesSpec,
    /// Extension: `disabled: true` turns a rule off (mostly used to override a built-in one).
    #[serde(default)]
    pub disabled: Option<bool>,
}

/// A structured command condition.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    #[serde(default, deserialize_with = "str_list")]
    pub program: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub subcommand: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub flags_all: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub flags_any: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub flags_none: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub args_any: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub args_all: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub args_none: Vec<String>,
    /// Extension: positionals matching one of these are ignored by args_any/all/none.
    #[serde(default, deserialize_with = "str_list")]
    pub args_except: Vec<String>,
    /// Extension: the first positional (after the subcommand) matches one of these.
    #[serde(default, deserialize_with = "str_list")]
    pub args_first: Vec<String>,
    /// Extension: the last positional (a destination for cp, mv, rsync …) matches one of these.
    #[serde(default, deserialize_with = "str_list")]
    pub args_last: Vec<String>,
    #[serde(default)]
    pub privileged: Option<bool>,
    #[serde(default, deserialize_with = "str_list")]
    pub redirect_to: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub stdin_from: Vec<String>,
    #[serde(default)]
    pub remote: Option<bool>,
    /// Extension: what standard input is: `terminal`, `pipe`, `file`, `heredoc` (any of these).
    #[serde(default, deserialize_with = "str_list")]
    pub stdin: Vec<String>,
}

/// A text pattern.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternSpec {
    #[serde(default)]
    pub regex: Option<String>,
    #[serde(default)]
    pub glob: Option<String>,
    #[serde(default)]
    pub exact: Option<String>,
    #[serde(default)]
    pub on: Option<String>,
    /// Extension: literals of which at least one occurs in every match (prefilter hint).
    #[serde(default, deserialize_with = "str_list")]
    pub literal: Vec<String>,
}

/// Examples that must and must not trigger the rule.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExamplesSpec {
    #[serde(default, rename = "match", deserialize_with = "str_list")]
    pub matches: Vec<String>,
    #[serde(default, deserialize_with = "str_list")]
    pub not_match: Vec<String>,
}

/// Accept a scalar or a sequence of scalars as a list of strings (`program: rm` or `[rm, rmdir]`;
/// numbers and booleans are kept as written, so `args_any: [0]` means the text `0`).
fn str_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string or a list of strings")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = seq.next_element::<Scalar>()? {
                out.push(item.0);
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}

/// One scalar as text.
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The five level names, lowest first.
pub const LEVEL_NAMES: [&str; 5] = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"];

/// Score bands of the levels, by level index.
pub const LEVEL_BANDS: [(u8, u8); 5] = [(0, 20), (21, 40), (41, 60), (61, 80), (81, 100)];

/// Index of a level name (case-insensitive).
pub fn level_index(name: &str) -> Option<usize> {
    let upper = name.trim().to_ascii_uppercase();
    LEVEL_NAMES.iter().position(|l| *l == upper)
}

/// An argument or redirect-target predicate.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PredData {
    Exact(String),
    Glob(String),
    Regex(String),
}

impl PredData {
    /// Parse `glob:P`, `re:R`, `exact:T` or a bare string (exact).
    pub fn parse(text: &str) -> Result<PredData, String> {
        let pred = if let Some(p) = text.strip_prefix("glob:") {
            PredData::Glob(p.to_string())
        } else if let Some(p) = text.strip_prefix("re:") {
            PredData::Regex(p.to_string())
        } else if let Some(p) = text.strip_prefix("exact:") {
            PredData::Exact(p.to_string())
        } else {
            PredData::Exact(text.to_string())
        };
        match &pred {
            PredData::Glob(p) | PredData::Regex(p) if p.is_empty() => {
                Err(format!("empty predicate `{text}`"))
            }
            _ => Ok(pred),
        }
    }
}

/// What a command's standard input can be, for `match: stdin:`.
pub const STDIN_KINDS: &[&str] = &["terminal", "pipe", "file", "heredoc"];

/// A validated structured condition.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CommandData {
    pub program: Vec<String>,
    pub subcommand: Vec<String>,
    pub flags_all: Vec<String>,
    pub flags_any: Vec<String>,
    pub flags_none: Vec<String>,
    pub args_any: Vec<PredData>,
    pub args_all: Vec<PredData>,
    pub args_none: Vec<PredData>,
    pub args_except: Vec<PredData>,
    pub args_first: Vec<PredData>,
    pub args_last: Vec<PredData>,
    pub privileged: Option<bool>,
    pub redirect_to: Vec<PredData>,
    pub stdin_from: Vec<String>,
    pub remote: Option<bool>,
    pub stdin: Vec<String>,
}

/// Kind of a text pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatternKindData {
    Regex,
    Glob,
    Exact,
}

/// A validated text pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PatternData {
    pub kind: PatternKindData,
    pub text: String,
    /// True for `on: raw`.
    pub raw: bool,
    pub literals: Vec<String>,
}

/// A validated matcher.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[allow(clippy::large_enum_variant)] // built once per rule, at load time
pub enum MatcherData {
    Command(CommandData),
    Pattern(PatternData),
}

/// A validated rule.
#[derive(Debug, Clone)]
pub struct RuleData {
    pub id: String,
    pub level: usize,
    pub score: u8,
    pub description: String,
    pub rationale: Option<String>,
    pub reversible: bool,
    pub tags: Vec<String>,
    pub alternative: Option<String>,
    pub false_positives: Option<String>,
    pub matcher: MatcherData,
    pub examples_match: Vec<String>,
    pub examples_not_match: Vec<String>,
    pub disabled: bool,
}

/// A change to an existing rule (a user pack entry with a known id and no condition).
#[derive(Debug, Clone, Default)]
pub struct OverrideData {
    pub id: String,
    pub level: Option<usize>,
    pub score: Option<u8>,
    pub disabled: Option<bool>,
    pub description: Option<String>,
    pub alternative: Option<String>,
}

/// What one entry of a pack means.
#[derive(Debug, Clone)]
pub enum Entry {
    Rule(Box<RuleData>),
    Override(OverrideData),
}

/// Whether `id` is a valid rule id: lowercase letters, digits, `.`, `-`, `_`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
}

/// Validate one rule as written. An entry without `match:`/`pattern:` is an override when
/// `overrides_allowed` (user packs), an error otherwise.
pub fn validate(spec: RuleSpec, overrides_allowed: bool) -> Result<Entry, String> {
    if !valid_id(&spec.id) {
        return Err(format!(
            "invalid id `{}`: use lowercase letters, digits, `.`, `-`, `_` (e.g. `git.reset-hard`)",
            spec.id
        ));
    }
    let level = match &spec.level {
        Some(l) => Some(level_index(l).ok_or_else(|| {
            format!("unknown level `{l}` (expected SAFE, LOW, MEDIUM, HIGH or CRITICAL)")
        })?),
        None => None,
    };
    if let Some(s) = spec.score
        && s > 100
    {
        return Err(format!("score {s} is above 100"));
    }
    let matcher = match (&spec.matcher, &spec.pattern) {
        (Some(_), Some(_)) => return Err("has both `match:` and `pattern:`; use one".into()),
        (None, None) if overrides_allowed => {
            return Ok(Entry::Override(OverrideData {
                id: spec.id,
                level,
                score: spec.score,
                disabled: spec.disabled,
                description: spec.description,
                alternative: spec.alternative,
            }));
        }
        (None, None) => {
            return Err("has neither `match:` (a command condition) nor `pattern:`".into());
        }
        (Some(m), None) => MatcherData::Command(validate_command(m)?),
        (None, Some(p)) => MatcherData::Pattern(validate_pattern(p)?),
    };
    let level = level.ok_or("missing `level:` (SAFE, LOW, MEDIUM, HIGH or CRITICAL)")?;
    let description = match spec.description {
        Some(d) if !d.trim().is_empty() => d.trim().to_string(),
        _ => return Err("missing `description:`".into()),
    };
    let band = LEVEL_BANDS[level];
    let score = spec.score.unwrap_or((band.0 + band.1) / 2);
    Ok(Entry::Rule(Box::new(RuleData {
        id: spec.id,
        level,
        score,
        description,
        rationale: trimmed(spec.rationale),
        reversible: spec.reversible.unwrap_or(level < 3),
        tags: spec.tags,
        alternative: trimmed(spec.alternative),
        false_positives: trimmed(spec.false_positives),
        matcher,
        examples_match: spec.examples.matches,
        examples_not_match: spec.examples.not_match,
        disabled: spec.disabled.unwrap_or(false),
    })))
}

fn trimmed(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

fn preds(list: &[String], key: &str) -> Result<Vec<PredData>, String> {
    list.iter()
        .map(|p| PredData::parse(p).map_err(|e| format!("`{key}`: {e}")))
        .collect()
}

fn validate_command(m: &MatchSpec) -> Result<CommandData, String> {
    let data = CommandData {
        program: m.program.clone(),
        subcommand: m.subcommand.clone(),
        flags_all: m.flags_all.clone(),
        flags_any: m.flags_any.clone(),
        flags_none: m.flags_none.clone(),
        args_any: preds(&m.args_any, "args_any")?,
        args_all: preds(&m.args_all, "args_all")?,
        args_none: preds(&m.args_none, "args_none")?,
        args_except: preds(&m.args_except, "args_except")?,
        args_first: preds(&m.args_first, "args_first")?,
        args_last: preds(&m.args_last, "args_last")?,
        privileged: m.privileged,
        redirect_to: preds(&m.redirect_to, "redirect_to")?,
        stdin_from: m.stdin_from.clone(),
        remote: m.remote,
        stdin: m.stdin.clone(),
    };
    let empty = |v: &[String]| v.iter().any(|s| s.trim().is_empty());
    if empty(&data.program) || empty(&data.subcommand) || empty(&data.stdin_from) {
        return Err("`match:` has an empty program, subcommand or stdin_from entry".into());
    }
    if let Some(s) = data
        .stdin
        .iter()
        .find(|s| !STDIN_KINDS.contains(&s.as_str()))
    {
        return Err(format!(
            "`match: stdin:` has `{s}`; expected one of {}",
            STDIN_KINDS.join(", ")
        ));
    }
    if data.program.is_empty()
        && data.redirect_to.is_empty()
        && data.stdin_from.is_empty()
        && data.subcommand.is_empty()
        && data.flags_all.is_empty()
        && data.flags_any.is_empty()
        && data.args_any.is_empty()
        && data.args_all.is_empty()
        && data.args_first.is_empty()
        && data.args_last.is_empty()
    {
        return Err(
            "`match:` would match every command: give at least `program`, `redirect_to`, \
             `stdin_from`, a subcommand, a flag or an argument condition"
                .into(),
        );
    }
    Ok(data)
}

fn validate_pattern(p: &PatternSpec) -> Result<PatternData, String> {
    let (kind, text) = match (&p.regex, &p.glob, &p.exact) {
        (Some(r), None, None) => (PatternKindData::Regex, r),
        (None, Some(g), None) => (PatternKindData::Glob, g),
        (None, None, Some(e)) => (PatternKindData::Exact, e),
        _ => return Err("`pattern:` needs exactly one of `regex`, `glob`, `exact`".into()),
    };
    if text.is_empty() {
        return Err("`pattern:` is empty".into());
    }
    let raw = match p.on.as_deref().map(str::trim) {
        None | Some("canonical") => false,
        Some("raw") => true,
        Some(other) => {
            return Err(format!(
                "`pattern.on: {other}`: expected `canonical` or `raw`"
            ));
        }
    };
    Ok(PatternData {
        kind,
        text: text.clone(),
        raw,
        literals: p.literal.clone(),
    })
}

/// Find the 1-based line of the entry for `id` in a pack's text (`- id: ID` in YAML,
/// `id = "ID"` in TOML, `"id": "ID"` in JSON); 0 when not found.
pub fn line_of_id(text: &str, id: &str) -> u32 {
    for (n, line) in text.lines().enumerate() {
        let t = line
            .trim_start()
            .trim_start_matches(['-', '{', ' '])
            .trim_start();
        let rest = t
            .strip_prefix("id:")
            .or_else(|| t.strip_prefix("id ="))
            .or_else(|| t.strip_prefix("\"id\":"));
        if let Some(rest) = rest {
            let rest = rest
                .trim()
                .trim_end_matches(',')
                .trim_matches(|c| c == '"' || c == '\'');
            if rest == id {
                return u32::try_from(n + 1).unwrap_or(u32::MAX);
            }
        }
    }
    0
}

#[allow(dead_code)] // used by the build script
/// The id of the last rule entry that starts at or before `line` (1-based), for error messages.
pub fn id_before_line(text: &str, line: usize) -> Option<String> {
    let mut found = None;
    for l in text.lines().take(line) {
        let t = l.trim_start().trim_start_matches('-').trim_start();
        if let Some(rest) = t.strip_prefix("id:") {
            found = Some(
                rest.trim()
                    .trim_matches(|c| c == '"' || c == '\'')
                    .to_string(),
            );
        }
    }
    found
}
