//! Seed 001's `RiskRule`: a name, a pattern (a regex, a closure over the action, or a matcher
//! over the analyzed code), a level, a reason and reversibility — plus the score, mitigation and
//! tags that riskgate's findings carry.

use std::fmt;

use regex::{Regex, RegexBuilder};
use riskgate_model::{RiskLevel, Span};

use super::analysis::Analysis;
use super::assessor::CodeAction;

/// A closure over the whole action (seed 001's callable pattern).
pub type ActionPredicate = Box<dyn Fn(&CodeAction) -> bool + Send + Sync>;

/// A matcher over the analyzed code: calls with resolved names, commands, SQL, strings.
/// Returns one [`Hit`] per match (none: the rule did not trigger).
pub type AnalysisMatcher = Box<dyn Fn(&Analysis) -> Vec<Hit> + Send + Sync>;

/// Errors building rules.
#[derive(Debug, thiserror::Error)]
pub enum CodeError {
    /// A regex pattern did not compile.
    #[error(
        "rule `{name}`: invalid regex `{pattern}`: {source} (patterns use Rust regex syntax; escape literal parentheses as `\\(`)"
    )]
    InvalidRegex {
        /// The rule.
        name: String,
        /// The pattern.
        pattern: String,
        /// The compile error.
        #[source]
        source: regex::Error,
    },
}

/// How a rule recognizes risky code.
pub enum RulePattern {
    /// Searched (case-insensitively, as in seed 001) in the code with comments and docstrings
    /// blanked out; string literals are kept, so a pattern can see SQL or commands in strings.
    Regex(Regex),
    /// Called with the whole action.
    Predicate(ActionPredicate),
    /// Called with the analyzed code.
    Analysis(AnalysisMatcher),
}

impl fmt::Debug for RulePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulePattern::Regex(r) => write!(f, "Regex({:?})", r.as_str()),
            RulePattern::Predicate(_) => f.write_str("Predicate(..)"),
            RulePattern::Analysis(_) => f.write_str("Analysis(..)"),
        }
    }
}

/// One match of an analysis rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hit {
    /// The matched code (a call, a command).
    pub matched: String,
    /// Where, in the assessed code.
    pub span: Option<Span>,
    /// 1-based line.
    pub line: Option<u32>,
    /// Affected resources (`file:…`, `url:…`, `table:…`).
    pub resources: Vec<String>,
    /// A level other than the rule's (for rules that rate what they find, such as SQL).
    pub level: Option<RiskLevel>,
    /// A reason other than the rule's.
    pub reason: Option<String>,
    /// Where it was found when nested (`code run by exec (line 3)`).
    pub context: Option<String>,
    /// Reversibility other than the rule's.
    pub reversible: Option<bool>,
}

impl Hit {
    /// A hit on `matched`.
    pub fn new(matched: impl Into<String>) -> Hit {
        Hit {
            matched: matched.into(),
            ..Hit::default()
        }
    }

    /// At this span and line.
    pub fn at(mut self, span: Span, line: u32) -> Hit {
        self.span = Some(span);
        self.line = Some(line);
        self
    }

    /// With resources.
    pub fn with_resources(mut self, resources: Vec<String>) -> Hit {
        self.resources = resources;
        self
    }
}

/// A risk rule.
#[derive(Debug)]
pub struct RiskRule {
    /// Unique name (used by `remove_rule`); findings carry the id `code.NAME`.
    pub name: String,
    /// How the rule matches.
    pub pattern: RulePattern,
    /// The level when triggered.
    pub risk_level: RiskLevel,
    /// Shown to the user.
    pub reason: String,
    /// Whether what it detects can be undone.
    pub reversible: bool,
    /// Score contribution (default: the middle of the level's band).
    pub score: Option<u8>,
    /// A safer alternative or precaution.
    pub mitigation: Option<String>,
    /// Tags (`filesystem`, `network`, …).
    pub tags: Vec<String>,
}

impl RiskRule {
    fn with_pattern(
        name: impl Into<String>,
        pattern: RulePattern,
        level: RiskLevel,
        reason: impl Into<String>,
    ) -> RiskRule {
        RiskRule {
            name: name.into(),
            pattern,
            risk_level: level,
            reason: reason.into(),
            reversible: true,
            score: None,
            mitigation: None,
            tags: Vec::new(),
        }
    }

    /// A regex rule (compiled case-insensitively).
    pub fn regex(
        name: impl Into<String>,
        pattern: &str,
        level: RiskLevel,
        reason: impl Into<String>,
    ) -> Result<RiskRule, CodeError> {
        let name = name.into();
        let re = RegexBuilder::new(pattern)
            .case_insensitive(true)
            .size_limit(1 << 22)
            .build()
            .map_err(|source| CodeError::InvalidRegex {
                name: name.clone(),
                pattern: pattern.to_string(),
                source,
            })?;
        Ok(RiskRule::with_pattern(
            name,
            RulePattern::Regex(re),
            level,
            reason,
        ))
    }

    /// A rule whose pattern is a closure over the action.
    pub fn predicate(
        name: impl Into<String>,
        predicate: impl Fn(&CodeAction) -> bool + Send + Sync + 'static,
        level: RiskLevel,
        reason: impl Into<String>,
    ) -> RiskRule {
        RiskRule::with_pattern(
            name,
            RulePattern::Predicate(Box::new(predicate)),
            level,
            reason,
        )
    }

    /// A rule whose pattern is a matcher over the analyzed code.
    pub fn analysis(
        name: impl Into<String>,
        matcher: impl Fn(&Analysis) -> Vec<Hit> + Send + Sync + 'static,
        level: RiskLevel,
        reason: impl Into<String>,
    ) -> RiskRule {
        RiskRule::with_pattern(
            name,
            RulePattern::Analysis(Box::new(matcher)),
            level,
            reason,
        )
    }

    /// With reversibility.
    pub fn reversible(mut self, reversible: bool) -> RiskRule {
        self.reversible = reversible;
        self
    }

    /// With a score (clamped into the level's band).
    pub fn score(mut self, score: u8) -> RiskRule {
        self.score = Some(score.clamp(self.risk_level.min_score(), self.risk_level.max_score()));
        self
    }

    /// With a mitigation.
    pub fn mitigation(mut self, m: impl Into<String>) -> RiskRule {
        self.mitigation = Some(m.into());
        self
    }

    /// With tags.
    pub fn tags(mut self, tags: &[&str]) -> RiskRule {
        self.tags = tags.iter().map(|t| t.to_string()).collect();
        self
    }

    /// The finding id: `code.NAME`.
    pub fn id(&self) -> String {
        format!("code.{}", self.name)
    }

    /// The score for `level` (the rule's own, or the middle of the band).
    pub(crate) fn score_for(&self, level: RiskLevel) -> u8 {
        match self.score {
            Some(s) if level == self.risk_level => s,
            _ => default_score(level),
        }
    }
}

/// The default score of a level: low in the band, so that the cumulative bump of further
/// findings stays inside it.
pub(crate) fn default_score(level: RiskLevel) -> u8 {
    match level {
        RiskLevel::Safe => 0,
        RiskLevel::Low => 25,
        RiskLevel::Medium => 45,
        RiskLevel::High => 68,
        RiskLevel::Critical => 92,
    }
}
