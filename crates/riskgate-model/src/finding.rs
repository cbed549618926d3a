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
        }
    }

    /// With the matched text and its span.
    pub fn with_match(mut self, matched: impl Into<String>, span: Option<Span>) -> Finding {
        self.matched = Some(matched.into());
        self.span = span;
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
