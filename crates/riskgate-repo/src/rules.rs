//! The rules of notices (findings in CI and build files that are not commands): data in
//! `rules/ci/repo.yaml`, embedded at build time, each with example files that must and must
//! not give it ([`test_examples`]).

use std::sync::OnceLock;

use riskgate_model::{Finding, RiskLevel};
use serde::Deserialize;

use crate::{Notice, extract, kind::kind_of};

/// The embedded pack.
pub const PACK: &str = include_str!("../../../rules/ci/repo.yaml");

/// Where the pack comes from, for messages.
pub const PACK_PATH: &str = "rules/ci/repo.yaml";

/// One rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepoRule {
    /// Stable id (`gha.action-unpinned`).
    pub id: String,
    /// The level it asks for.
    pub level: RiskLevel,
    /// Base score.
    pub score: u8,
    /// What is dangerous.
    pub description: String,
    /// Why.
    #[serde(default)]
    pub rationale: Option<String>,
    /// The safer way.
    pub alternative: String,
    /// Tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Example files.
    pub examples: Examples,
}

/// Example files of a rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    /// Files that must give the rule.
    #[serde(rename = "match")]
    pub must: Vec<ExampleFile>,
    /// Files that must not.
    pub not_match: Vec<ExampleFile>,
}

/// One example file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleFile {
    /// Its path (tells its kind).
    pub file: String,
    /// Its content.
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pack {
    #[allow(dead_code)]
    pack: String,
    #[allow(dead_code)]
    description: String,
    rules: Vec<RepoRule>,
}

/// A pack that does not load.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{PACK_PATH}: {0}")]
pub struct PackError(String);

/// The rules (parsed once). An embedded pack that does not parse is an error here and in the
/// tests; [`finding_for`] then still gives a HIGH finding for every notice.
pub fn rules() -> Result<&'static [RepoRule], PackError> {
    static RULES: OnceLock<Result<Vec<RepoRule>, PackError>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            serde_saphyr::from_str::<Pack>(PACK)
                .map(|p| p.rules)
                .map_err(|e| PackError(e.to_string()))
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// The rule `id`.
pub fn rule(id: &str) -> Option<&'static RepoRule> {
    rules().ok()?.iter().find(|r| r.id == id)
}

/// The finding of `notice` (in file `path`): its rule's level, score, description and
/// alternative. A notice whose rule is missing is HIGH (never silently dropped).
pub fn finding_for(notice: &Notice, path: &str) -> Finding {
    let mut f = match rule(&notice.rule_id) {
        Some(r) => {
            let mut f = Finding::new(r.id.clone(), r.level, r.score, r.description.clone())
                .with_mitigation(r.alternative.clone());
            f.tags = r.tags.clone();
            f.reversible = r.level < RiskLevel::High;
            f
        }
        None => Finding::new(
            notice.rule_id.clone(),
            RiskLevel::High,
            70,
            format!("{} (its rule is missing from {PACK_PATH})", notice.rule_id),
        ),
    };
    if let Some(d) = &notice.detail {
        f.description = format!("{} ({d})", f.description);
    }
    if !notice.matched.is_empty() {
        f.matched = Some(notice.matched.clone());
    }
    f.location = Some(riskgate_model::Location {
        file: Some(path.to_string()),
        line: Some(notice.line),
        column: Some(notice.column),
        context: Some(notice.context.clone()),
        end_line: None,
    });
    f
}

/// Run every rule's examples; the failures, one line each (empty: all pass). A rule without
/// both kinds of example fails.
pub fn test_examples() -> Vec<String> {
    let rules = match rules() {
        Ok(r) => r,
        Err(e) => return vec![e.to_string()],
    };
    let mut failures = Vec::new();
    for r in rules {
        if r.examples.must.is_empty() || r.examples.not_match.is_empty() {
            failures.push(format!("{}: needs match and not_match examples", r.id));
        }
        for (want, files) in [(true, &r.examples.must), (false, &r.examples.not_match)] {
            for ex in files {
                let Some(kind) = kind_of(&ex.file) else {
                    failures.push(format!(
                        "{}: example file {} is not a known kind",
                        r.id, ex.file
                    ));
                    continue;
                };
                let got = extract(&ex.file, kind, &ex.text)
                    .notices
                    .iter()
                    .any(|n| n.rule_id == r.id);
                if got != want {
                    failures.push(format!(
                        "{}: example {} {} but {}:\n{}",
                        r.id,
                        ex.file,
                        if want { "must match" } else { "must not match" },
                        if got { "matched" } else { "did not" },
                        ex.text
                    ));
                }
            }
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_loads_and_every_example_agrees() {
        let rules = rules().unwrap();
        assert!(rules.len() >= 10);
        let failures = test_examples();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn levels_are_inside_their_band() {
        for r in rules().unwrap() {
            let f = Finding::new(r.id.clone(), r.level, r.score, "");
            assert_eq!(
                RiskLevel::from_score(f.effective_score()),
                r.level,
                "{}: score {} outside {}",
                r.id,
                r.score,
                r.level
            );
        }
    }
}
