//! One reason for risk: which rule fired, how much it weighs, and where.

use serde::{Deserialize, Serialize};

use crate::RiskLevel;

/// A byte range `[start, end)` in the assessed input text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// Where a finding was found, beyond its span: a file and line (diffs, code), a workflow node and
/// parameter, or a nested piece of a command (`bash -c`, a heredoc).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// File path, for diffs and file writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// 1-based last line, when the finding covers several lines of a file: a flow from one
    /// step of a script to a later one (a dump written on one line, uploaded on the next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// Free-form context: a workflow node and parameter (`node build / command`), or the chain
    /// of wrappers a command was found under (`sudo > bash -c`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// One triggered rule or heuristic (seed 004's `RiskFactor`, seed 001's triggered `RiskRule`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable rule id, e.g. `git.reset-hard`, or a heuristic id such as `heuristic.dynamic-program`.
    pub rule_id: String,
    /// The level this finding asks for at least.
    pub level: RiskLevel,
    /// Score contribution, 0-100.
    pub score: u8,
    /// What is dangerous, for a person.
    pub description: String,
    /// The text that matched, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<String>,
    /// Where `matched` is in the input, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// Further location (file/line, workflow node, wrapper chain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Whether what this finding describes can be undone.
    #[serde(default = "default_true")]
    pub reversible: bool,
    /// A safer alternative or mitigation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mitigation: Option<String>,
    /// Tags of the rule (`filesystem`, `destructive`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Resources this finding touches (`file:/etc/passwd`, `url:https://…`, `table:users`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// Seed 004's `MatchedPattern`: the text pattern of the rule that fired (as written, for
    /// `pattern:` rules and seed 004 pattern files); reports fill it with `matched` for the
    /// other findings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_pattern: Option<String>,
    /// Seed 004's `ScoreContribution`: the points of the assessed score this finding accounts
    /// for (see [`score_contributions`]); set by reports, absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_contribution: Option<u8>,
}

/// Seed 004's `ScoreContribution` of each finding, in the order given, consistent with
/// [`crate::combine_scores`] over the findings' effective scores: the finding with the highest
/// effective score (the first of equals) contributes all of it; every other finding contributes
/// its share of the bump, a tenth of its effective score, in descending score order, until the
/// bump's cap is used up (10 points, and never above HIGH's maximum unless the top finding is
/// CRITICAL, never above 100). The contributions add up to `combine_scores`.
pub fn score_contributions(findings: &[Finding]) -> Vec<u8> {
    let mut order: Vec<usize> = (0..findings.len()).collect();
    let score = |i: usize| findings.get(i).map(Finding::effective_score).unwrap_or(0);
    order.sort_by_key(|&i| std::cmp::Reverse(score(i)));
    let mut out = vec![0u8; findings.len()];
    let Some((&top, rest)) = order.split_first() else {
        return out;
    };
    let top_score = score(top);
    let ceiling = if top_score <= RiskLevel::High.max_score() {
        RiskLevel::High.max_score()
    } else {
        100
    };
    let mut left = ceiling.saturating_sub(top_score).min(10);
    if let Some(slot) = out.get_mut(top) {
        *slot = top_score;
    }
    for &i in rest {
        let share = (score(i) / 10).min(left);
        left -= share;
        if let Some(slot) = out.get_mut(i) {
            *slot = share;
        }
    }
    out
}

fn default_true() -> bool {
    true
}

impl Finding {
    /// A finding with the given rule id, level, score and description; reversible, no match.
    pub fn new(
        rule_id: impl Into<String>,
        level: RiskLevel,
        score: u8,
        description: impl Into<String>,
    ) -> Finding {
        Finding {
            rule_id: rule_id.into(),
            level,
            score: score.min(100),
            description: description.into(),
            matched: None,
            span: None,
            location: None,
            reversible: true,
            mitigation: None,
            tags: Vec::new(),
            resources: Vec::new(),
            matched_pattern: None,
            score_contribution: None,
        }
    }

    /// With the matched text and its span.
    pub fn with_match(mut self, matched: impl Into<String>, span: Option<Span>) -> Finding {
        self.matched = Some(matched.into());
        self.span = span;
        self
    }

    /// With the text pattern of the rule that fired (seed 004's `MatchedPattern`).
    pub fn with_pattern(mut self, pattern: impl Into<String>) -> Finding {
        self.matched_pattern = Some(pattern.into());
        self
    }

    /// With reversibility.
    pub fn reversible(mut self, reversible: bool) -> Finding {
        self.reversible = reversible;
        self
    }

    /// With a mitigation / safer alternative.
    pub fn with_mitigation(mut self, mitigation: impl Into<String>) -> Finding {
        self.mitigation = Some(mitigation.into());
        self
    }

    /// With a location.
    pub fn with_location(mut self, location: Location) -> Finding {
        self.location = Some(location);
        self
    }

    /// With affected resources.
    pub fn with_resources(mut self, resources: Vec<String>) -> Finding {
        self.resources = resources;
        self
    }

    /// The score this finding effectively stands for: its contribution, but never below its
    /// level's band (a matched rule's level is a floor).
    pub fn effective_score(&self) -> u8 {
        self.score.clamp(self.level.min_score(), 100)
    }
}

/// The tag of a finding an analyzer already rated one level higher because the policy's
/// environment is production (SQL data writes): the gate does not raise it a second time.
pub const PRODUCTION_RAISED_TAG: &str = "production-raised";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combine_scores;

    fn f(level: RiskLevel, score: u8) -> Finding {
        Finding::new("r", level, score, "d")
    }

    #[test]
    fn contributions_add_up_to_the_combined_score() {
        let cases: Vec<Vec<Finding>> = vec![
            vec![],
            vec![f(RiskLevel::Critical, 100)],
            vec![
                f(RiskLevel::Low, 30),
                f(RiskLevel::High, 70),
                f(RiskLevel::Medium, 50),
            ],
            vec![
                f(RiskLevel::High, 78),
                f(RiskLevel::High, 75),
                f(RiskLevel::High, 70),
            ],
            vec![
                f(RiskLevel::Critical, 95),
                f(RiskLevel::High, 80),
                f(RiskLevel::High, 80),
            ],
            vec![f(RiskLevel::Critical, 100), f(RiskLevel::High, 80)],
            vec![f(RiskLevel::Safe, 0), f(RiskLevel::Safe, 5)],
            (0..20).map(|i| f(RiskLevel::Medium, 41 + i)).collect(),
        ];
        for findings in cases {
            let c = score_contributions(&findings);
            let eff: Vec<u8> = findings.iter().map(Finding::effective_score).collect();
            let sum: u32 = c.iter().map(|&x| u32::from(x)).sum();
            assert_eq!(sum, u32::from(combine_scores(&eff)), "{eff:?} -> {c:?}");
        }
    }

    #[test]
    fn top_finding_contributes_its_score_others_their_bump() {
        let c = score_contributions(&[
            f(RiskLevel::Medium, 50),
            f(RiskLevel::Critical, 90),
            f(RiskLevel::Low, 30),
        ]);
        assert_eq!(c, vec![5, 90, 3]);
        // HIGH cap: a 78 plus bumps stays at 80.
        let c = score_contributions(&[f(RiskLevel::High, 78), f(RiskLevel::High, 70)]);
        assert_eq!(c, vec![78, 2]);
    }

    #[test]
    fn new_fields_are_additive() {
        let plain = serde_json::to_value(f(RiskLevel::Low, 30)).ok();
        let obj = plain.as_ref().and_then(|v| v.as_object());
        assert!(obj.is_some_and(|o| !o.contains_key("score_contribution")));
        let mut g = f(RiskLevel::Low, 30).with_pattern("^x$");
        g.score_contribution = Some(30);
        let v = serde_json::to_value(&g).ok();
        assert_eq!(
            v.as_ref().and_then(|v| v["matched_pattern"].as_str()),
            Some("^x$")
        );
        assert_eq!(
            v.as_ref().and_then(|v| v["score_contribution"].as_u64()),
            Some(30)
        );
        // Old JSON without the fields still reads.
        let old = r#"{"rule_id":"r","level":"LOW","score":30,"description":"d"}"#;
        assert!(serde_json::from_str::<Finding>(old).is_ok());
    }
}
