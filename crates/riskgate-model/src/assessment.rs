//! The outcome of assessing an action.

use serde::{Deserialize, Serialize};

use crate::effect::Effect;
use crate::{ActionKind, Finding, RiskLevel};

/// The rule id of the finding that marks an assessment as not fully analyzed.
pub const INCOMPLETE_RULE: &str = "analysis.incomplete";

/// The score of [`INCOMPLETE_RULE`]: HIGH.
pub const INCOMPLETE_SCORE: u8 = 62;

/// At most this many affected resources are reported (seed 001).
pub const MAX_RESOURCES: usize = 10;

/// Why, in words: a one-line summary, one point per finding, and what to do instead.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// One sentence.
    pub summary: String,
    /// One point per finding.
    pub points: Vec<String>,
    /// Safer alternatives and precautions.
    pub mitigations: Vec<String>,
}

/// The assessment of one action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assessment {
    /// What was assessed.
    pub kind: ActionKind,
    /// The assessed text (command, code, path …).
    pub input: String,
    /// Overall level: the band of `score`, and never below the highest finding's level.
    pub level: RiskLevel,
    /// Overall score, 0-100.
    pub score: u8,
    /// Every triggered rule and heuristic, highest first.
    pub findings: Vec<Finding>,
    /// One reason per finding (seed 001's `reasons`).
    pub reasons: Vec<String>,
    /// Resources that may be affected, prefixed by type, at most [`MAX_RESOURCES`].
    pub affected_resources: Vec<String>,
    /// True only if every finding is reversible.
    pub reversible: bool,
    /// Seed 001's impact text for the level.
    pub estimated_impact: String,
    /// Precautions, for HIGH and CRITICAL.
    pub recommendations: Vec<String>,
    /// Summary, points and mitigations.
    pub explanation: Explanation,
    /// True when the input could not be fully analyzed (parse error, a bound was hit, the rules
    /// database was unavailable, an internal error): the level is then at least HIGH, with an
    /// [`INCOMPLETE_RULE`] finding saying why.
    #[serde(default)]
    pub degraded: bool,
    /// What each simple command does to what (commands only; see [`crate::effect`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
}

/// Combine finding scores: the highest wins, and every further finding adds a tenth of its
/// score, the sum capped at 10 points. The bump alone never crosses into CRITICAL: only a
/// finding that is itself CRITICAL makes an action CRITICAL.
pub fn combine_scores(scores: &[u8]) -> u8 {
    let mut sorted: Vec<u8> = scores.iter().map(|s| (*s).min(100)).collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let Some((&top, rest)) = sorted.split_first() else {
        return 0;
    };
    let bump: u32 = rest.iter().map(|s| u32::from(*s) / 10).sum::<u32>().min(10);
    let combined = (u32::from(top) + bump).min(100) as u8;
    if top <= RiskLevel::High.max_score() {
        combined.min(RiskLevel::High.max_score())
    } else {
        combined
    }
}

impl Assessment {
    /// An assessment that found nothing: SAFE, score 0.
    pub fn safe(kind: ActionKind, input: impl Into<String>) -> Assessment {
        Assessment::from_findings(kind, input, Vec::new())
    }

    /// Aggregate findings into an assessment: score by [`combine_scores`] over each finding's
    /// effective score, level = band of the score, reasons, resources (deduplicated, at most
    /// [`MAX_RESOURCES`]), reversibility, impact, recommendations and explanation.
    pub fn from_findings(
        kind: ActionKind,
        input: impl Into<String>,
        mut findings: Vec<Finding>,
    ) -> Assessment {
        findings.sort_by(|a, b| {
            b.level
                .cmp(&a.level)
                .then(b.effective_score().cmp(&a.effective_score()))
                .then(a.rule_id.cmp(&b.rule_id))
        });
        let scores: Vec<u8> = findings.iter().map(Finding::effective_score).collect();
        let score = combine_scores(&scores);
        let top_level = findings.first().map(|f| f.level).unwrap_or(RiskLevel::Safe);
        let level = RiskLevel::from_score(score).max(top_level);
        let score = score.max(level.min_score());

        let mut reasons: Vec<String> = Vec::new();
        for f in &findings {
            if !reasons.contains(&f.description) {
                reasons.push(f.description.clone());
            }
        }
        let mut affected_resources: Vec<String> = Vec::new();
        for r in findings.iter().flat_map(|f| f.resources.iter()) {
            if affected_resources.len() >= MAX_RESOURCES {
                break;
            }
            if !affected_resources.contains(r) {
                affected_resources.push(r.clone());
            }
        }
        let reversible = findings.iter().all(|f| f.reversible);
        let mut assessment = Assessment {
            kind,
            input: input.into(),
            level,
            score,
            findings,
            reasons,
            affected_resources,
            reversible,
            estimated_impact: level.estimated_impact().to_string(),
            recommendations: Vec::new(),
            explanation: Explanation::default(),
            degraded: false,
            effects: Vec::new(),
        };
        assessment.recommendations = assessment.default_recommendations();
        assessment.explanation = assessment.default_explanation();
        assessment
    }

    /// Seed 001's `requires_approval`: HIGH or CRITICAL.
    pub fn requires_approval(&self) -> bool {
        self.level >= RiskLevel::High
    }

    /// Rule ids of all findings, in order.
    pub fn rule_ids(&self) -> Vec<&str> {
        self.findings.iter().map(|f| f.rule_id.as_str()).collect()
    }

    /// Mark the assessment degraded (not fully analyzed) for a generic reason: see
    /// [`Assessment::mark_incomplete`].
    pub fn mark_degraded(&mut self) {
        self.mark_incomplete("the input could not be fully analyzed");
    }

    /// Mark the assessment degraded (not fully analyzed) because of `why`: a
    /// [`INCOMPLETE_RULE`] finding at HIGH is added (once), so the assessment is at least HIGH
    /// and says why. What was not understood is never rated as if it were harmless: the gate
    /// then needs a person, whatever the agent's trust, overrides or standing approvals.
    pub fn mark_incomplete(&mut self, why: &str) {
        self.degraded = true;
        let description = format!("not fully analyzed: {why}");
        if self
            .findings
            .iter()
            .any(|f| f.rule_id == INCOMPLETE_RULE && f.description == description)
        {
            return;
        }
        let mut findings = std::mem::take(&mut self.findings);
        findings.push(
            Finding::new(
                INCOMPLETE_RULE,
                RiskLevel::High,
                INCOMPLETE_SCORE,
                description,
            )
            .reversible(false)
            .with_mitigation(
                "Split the input into smaller, plainer parts, or have a person review it",
            ),
        );
        let kind = self.kind;
        let input = std::mem::take(&mut self.input);
        *self = Assessment::from_findings(kind, input, findings);
        self.degraded = true;
    }

    fn default_recommendations(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.level >= RiskLevel::High {
            out.push("Review carefully before approving".to_string());
            if !self.reversible {
                out.push(
                    "Ensure backups exist before proceeding: this cannot be undone".to_string(),
                );
            }
            if self.level == RiskLevel::Critical {
                out.push("Consider a safer alternative or a dry run first".to_string());
            }
        }
        for f in &self.findings {
            if let Some(m) = &f.mitigation
                && f.level >= RiskLevel::High
                && !out.contains(m)
            {
                out.push(m.clone());
            }
        }
        out
    }

    fn default_explanation(&self) -> Explanation {
        let summary = match self.findings.first() {
            None => format!("{}: nothing risky found", self.level),
            Some(top) if self.findings.len() == 1 => {
                format!("{} (score {}): {}", self.level, self.score, top.description)
            }
            Some(top) => format!(
                "{} (score {}): {} (and {} more finding{})",
                self.level,
                self.score,
                top.description,
                self.findings.len() - 1,
                if self.findings.len() == 2 { "" } else { "s" }
            ),
        };
        let points = self
            .findings
            .iter()
            .map(|f| match &f.matched {
                Some(m) => format!(
                    "[{}] {} {}: {} (`{}`)",
                    f.rule_id, f.level, f.score, f.description, m
                ),
                None => format!("[{}] {} {}: {}", f.rule_id, f.level, f.score, f.description),
            })
            .collect();
        let mut mitigations: Vec<String> = Vec::new();
        for m in self.findings.iter().filter_map(|f| f.mitigation.as_ref()) {
            if !mitigations.contains(m) {
                mitigations.push(m.clone());
            }
        }
        Explanation {
            summary,
            points,
            mitigations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_safe_and_reversible() {
        let a = Assessment::safe(ActionKind::Command, "ls");
        assert_eq!((a.level, a.score, a.reversible), (RiskLevel::Safe, 0, true));
        assert!(a.recommendations.is_empty());
        assert!(!a.requires_approval());
    }

    #[test]
    fn highest_wins_with_capped_bump() {
        assert_eq!(combine_scores(&[50, 30, 30]), 56);
        assert_eq!(combine_scores(&[50; 40]), 60);
        // the bump never makes a HIGH action CRITICAL
        assert_eq!(combine_scores(&[80, 80, 80]), 80);
        assert_eq!(combine_scores(&[90, 80]), 98);
    }

    #[test]
    fn level_is_a_floor_and_reversible_needs_all() {
        let a = Assessment::from_findings(
            ActionKind::Code,
            "x",
            vec![
                Finding::new("a", RiskLevel::High, 10, "deletes").reversible(false),
                Finding::new("b", RiskLevel::Medium, 45, "writes"),
            ],
        );
        assert_eq!(a.level, RiskLevel::High);
        assert!(a.score >= 61);
        assert!(!a.reversible);
        assert_eq!(a.reasons, vec!["deletes", "writes"]);
        assert!(
            a.recommendations
                .iter()
                .any(|r| r.contains("Review carefully"))
        );
    }

    #[test]
    fn resources_are_deduplicated_and_capped() {
        let f = Finding::new("a", RiskLevel::Low, 30, "reads")
            .with_resources((0..30).map(|i| format!("file:/tmp/{}", i % 15)).collect());
        let a = Assessment::from_findings(ActionKind::Code, "x", vec![f]);
        assert_eq!(a.affected_resources.len(), MAX_RESOURCES);
    }

    #[test]
    fn incomplete_is_at_least_high_and_says_why() {
        let mut a = Assessment::safe(ActionKind::Command, "echo 'unterminated");
        a.mark_incomplete("past a bound");
        assert_eq!(a.level, RiskLevel::High);
        assert!(a.degraded && a.requires_approval());
        assert_eq!(a.rule_ids(), vec![INCOMPLETE_RULE]);
        assert!(a.reasons[0].contains("not fully analyzed: past a bound"));
        // marked twice for the same reason: one finding
        a.mark_incomplete("past a bound");
        assert_eq!(a.findings.len(), 1);
        // a CRITICAL finding stays CRITICAL
        let mut c = Assessment::from_findings(
            ActionKind::Command,
            "x",
            vec![Finding::new("r", RiskLevel::Critical, 95, "wipes")],
        );
        c.mark_degraded();
        assert_eq!(c.level, RiskLevel::Critical);
    }
}
