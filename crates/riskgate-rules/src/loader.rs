//! Loading user rule packs at run time (`--rules FILE`, config `rules.extra`): YAML, TOML or
//! JSON in the format of rules/README.md. A pack entry with a new id adds a rule; an entry with
//! the id of an existing rule and no condition overrides its level, score, description,
//! alternative or `disabled`; an entry with an existing id and a condition replaces the rule.
//!
//! A file in seed 004's `dangerous_patterns.json` format (an array of `{id, pattern,
//! patternType, description, riskLevel, baseScore, tags}` entries) is read by [`seed004`].
//!
//! Every problem is a [`RuleLoadError`] naming the file, the line and the rule id. An invalid
//! rule (e.g. a bad regex) is skipped; an unreadable or unparsable file degrades the rule set
//! (every command is then rated at least MEDIUM).

use std::borrow::Cow;
use std::path::Path;

use riskgate_model::RiskLevel;
use serde::Deserialize;

use crate::predicate::CompiledRule;
use crate::rule::{
    CommandMatch, List, Matcher, PatternKind, PatternMatch, Pred, Rule, RuleOrigin, Target, Text,
};
use crate::seed004;
use crate::spec::{self, Entry, MatcherData, OverrideData, PatternKindData, PredData, RuleData};

/// A problem met while loading a user pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleLoadError {
    /// The file could not be read: the rule set is degraded.
    #[error("rules file {path}: cannot read: {message} (rules database incomplete)")]
    Unreadable {
        /// The file.
        path: String,
        /// The I/O error.
        message: String,
    },
    /// The file is not a valid pack: the rule set is degraded.
    #[error("rules file {path}:{line}: {message} (no rule of this file was loaded)")]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line (0 when unknown).
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// One rule is invalid and was skipped.
    #[error("rules file {path}:{line}: rule `{id}`: {message} (rule skipped)")]
    InvalidRule {
        /// The file.
        path: String,
        /// 1-based line (0 when unknown).
        line: u32,
        /// The rule id.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// An override names a rule that does not exist.
    #[error("rules file {path}:{line}: override of unknown rule `{id}` (ignored)")]
    UnknownRule {
        /// The file.
        path: String,
        /// 1-based line (0 when unknown).
        line: u32,
        /// The rule id.
        id: String,
    },
}

impl RuleLoadError {
    /// True when the database is incomplete because of this error (unreadable or unparsable
    /// file): the engine then rates every command at least MEDIUM.
    pub fn degrades(&self) -> bool {
        matches!(
            self,
            RuleLoadError::Unreadable { .. } | RuleLoadError::Malformed { .. }
        )
    }
}

/// Top level of a user pack.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserPack {
    #[serde(default)]
    pack: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default)]
    rules: Vec<serde_json::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    definitions: Option<serde::de::IgnoredAny>,
}

/// What one user pack contributes.
#[derive(Debug, Default)]
pub(crate) struct LoadedPack {
    pub(crate) name: String,
    pub(crate) rules: Vec<Rule>,
    pub(crate) overrides: Vec<(OverrideData, u32)>,
    pub(crate) errors: Vec<RuleLoadError>,
}

/// Read and validate one user pack.
pub(crate) fn load_pack(path: &Path) -> Result<LoadedPack, RuleLoadError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RuleLoadError::Unreadable {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let malformed = |line: u32, message: String| RuleLoadError::Malformed {
        path: shown.clone(),
        line,
        message,
    };
    let value: serde_json::Value = match ext.as_str() {
        "toml" => toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text.get(..s.start).unwrap_or("").lines().count())
                .unwrap_or(0);
            malformed(u32::try_from(line).unwrap_or(0), e.message().to_string())
        })?,
        "json" => serde_json::from_str(&text)
            .map_err(|e| malformed(u32::try_from(e.line()).unwrap_or(0), e.to_string()))?,
        _ => serde_saphyr::from_str(&text).map_err(|e| {
            let line = e.location().map(|l| l.line()).unwrap_or(0);
            let msg = e.to_string();
            malformed(
                u32::try_from(line).unwrap_or(0),
                msg.lines().next().unwrap_or("invalid YAML").to_string(),
            )
        })?,
    };
    let stem = || {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "user".into())
    };
    if let Some(items) = seed004::entries(&value) {
        return Ok(load_seed004(items, &text, stem(), &shown));
    }
    let pack: UserPack =
        serde_json::from_value(value).map_err(|e| malformed(0, format!("not a rule pack: {e}")))?;
    let name = pack.pack.unwrap_or_else(stem);
    let mut out = LoadedPack {
        name: name.clone(),
        ..LoadedPack::default()
    };
    for v in pack.rules {
        let id = v
            .get("id")
            .and_then(|i| i.as_str())
            .unwrap_or("?")
            .to_string();
        let line = spec::line_of_id(&text, &id);
        let invalid = |message: String| RuleLoadError::InvalidRule {
            path: shown.clone(),
            line,
            id: id.clone(),
            message,
        };
        let spec: spec::RuleSpec = match serde_json::from_value(v) {
            Ok(s) => s,
            Err(e) => {
                out.errors.push(invalid(e.to_string()));
                continue;
            }
        };
        match spec::validate(spec, true) {
            Err(e) => out.errors.push(invalid(e)),
            Ok(Entry::Override(o)) => out.overrides.push((o, line)),
            Ok(Entry::Rule(data)) => match user_rule(*data, &name, &shown, line) {
                Ok(rule) => out.rules.push(rule),
                Err(e) => out.errors.push(invalid(e)),
            },
        }
    }
    Ok(out)
}

/// A seed 004 pattern file (`dangerous_patterns.json`, see [`seed004`]): every entry is a new
/// rule or replaces the rule with its id; a malformed entry is skipped with an error naming the
/// file, the entry index and the field.
fn load_seed004(items: &[serde_json::Value], text: &str, name: String, shown: &str) -> LoadedPack {
    let mut out = LoadedPack {
        name: name.clone(),
        ..LoadedPack::default()
    };
    for (index, v) in items.iter().enumerate() {
        let id = seed004::entry_id(v, index);
        let line = spec::line_of_id(text, &id);
        let rule = seed004::entry(v, index).and_then(|d| user_rule(d, &name, shown, line));
        match rule {
            Ok(rule) => out.rules.push(rule),
            Err(message) => out.errors.push(RuleLoadError::InvalidRule {
                path: shown.to_string(),
                line,
                id,
                message,
            }),
        }
    }
    out
}

fn owned_list(v: Vec<String>) -> List<Text> {
    Cow::Owned(v.into_iter().map(Cow::Owned).collect())
}

fn owned_preds(v: Vec<PredData>) -> List<Pred> {
    Cow::Owned(
        v.into_iter()
            .map(|p| match p {
                PredData::Exact(s) => Pred::Exact(Cow::Owned(s)),
                PredData::Glob(s) => Pred::Glob(Cow::Owned(s)),
                PredData::Regex(s) => Pred::Regex(Cow::Owned(s)),
            })
            .collect(),
    )
}

/// Level by index into [`RiskLevel::ALL`].
pub(crate) fn level_at(i: usize) -> RiskLevel {
    RiskLevel::ALL
        .get(i)
        .copied()
        .unwrap_or(RiskLevel::Critical)
}

/// Build a user rule and compile it now, so that an invalid pattern is reported at load time.
fn user_rule(d: RuleData, pack: &str, source: &str, line: u32) -> Result<Rule, String> {
    let matcher = match d.matcher {
        MatcherData::Command(c) => Matcher::Command(CommandMatch {
            program: owned_list(c.program),
            subcommand: owned_list(c.subcommand),
            flags_all: owned_list(c.flags_all),
            flags_any: owned_list(c.flags_any),
            flags_none: owned_list(c.flags_none),
            args_any: owned_preds(c.args_any),
            args_all: owned_preds(c.args_all),
            args_none: owned_preds(c.args_none),
            args_except: owned_preds(c.args_except),
            args_first: owned_preds(c.args_first),
            args_last: owned_preds(c.args_last),
            privileged: c.privileged,
            redirect_to: owned_preds(c.redirect_to),
            stdin_from: owned_list(c.stdin_from),
            remote: c.remote,
            stdin: owned_list(c.stdin),
        }),
        MatcherData::Pattern(p) => {
            let (kind, regex) = match p.kind {
                PatternKindData::Regex => (PatternKind::Regex, p.text.clone()),
                PatternKindData::Exact => {
                    (PatternKind::Exact, format!("^{}$", regex::escape(&p.text)))
                }
                PatternKindData::Glob => {
                    let g = globset::GlobBuilder::new(&p.text)
                        .literal_separator(false)
                        .build()
                        .map_err(|e| format!("invalid glob `{}`: {e}", p.text))?;
                    (PatternKind::Glob, g.regex().to_string())
                }
            };
            Matcher::Pattern(PatternMatch {
                kind,
                text: Cow::Owned(p.text),
                on: if p.raw {
                    Target::Raw
                } else {
                    Target::Canonical
                },
                regex: Cow::Owned(regex),
                literals: owned_list(p.literals),
            })
        }
    };
    let compiled = CompiledRule::compile(&matcher);
    if let Some(e) = compiled.errors.first() {
        return Err(e.clone());
    }
    let rule = Rule {
        id: Cow::Owned(d.id),
        pack: Cow::Owned(pack.to_string()),
        source: Cow::Owned(source.to_string()),
        line,
        level: level_at(d.level),
        score: d.score,
        description: Cow::Owned(d.description),
        rationale: d.rationale.map(Cow::Owned),
        reversible: d.reversible,
        tags: owned_list(d.tags),
        alternative: d.alternative.map(Cow::Owned),
        false_positives: d.false_positives.map(Cow::Owned),
        matcher,
        examples_match: owned_list(d.examples_match),
        examples_not_match: owned_list(d.examples_not_match),
        disabled: d.disabled,
        origin: RuleOrigin::User,
        compiled: std::sync::OnceLock::new(),
    };
    let _ = rule.compiled.set(compiled);
    Ok(rule)
}

/// Apply an override to a copy of `base`.
pub(crate) fn apply_override(base: &Rule, o: &OverrideData) -> Rule {
    let mut r = base.clone();
    if let Some(l) = o.level {
        r.level = level_at(l);
        if o.score.is_none() {
            r.score = r.score.clamp(r.level.min_score(), r.level.max_score());
        }
    }
    if let Some(s) = o.score {
        r.score = s;
    }
    if let Some(d) = o.disabled {
        r.disabled = d;
    }
    if let Some(d) = &o.description {
        r.description = Cow::Owned(d.clone());
    }
    if let Some(a) = &o.alternative {
        r.alternative = Some(Cow::Owned(a.clone()));
    }
    if r.origin == RuleOrigin::Builtin {
        r.origin = RuleOrigin::Overridden;
    }
    r
}
