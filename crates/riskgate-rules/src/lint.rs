//! `riskgate rules lint`: duplicate ids, rules with exactly the same condition as another one,
//! invalid patterns, and scores outside their level's band.
//!
//! A rule whose examples are also matched by a stricter, higher-level rule is fine (it explains
//! the milder case); only exact duplicates of a condition are reported.

use std::collections::HashMap;
use std::fmt;

use crate::rule::{CommandMatch, Matcher, Rule};
use crate::ruleset::RuleSet;

/// How serious a lint issue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth a look.
    Warning,
    /// Must be fixed.
    Error,
}

/// What a lint issue is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LintKind {
    /// Two rules share an id.
    DuplicateId,
    /// Two rules have exactly the same condition.
    DuplicateCondition,
    /// A pattern or predicate does not compile.
    InvalidPattern,
    /// The score is outside the level's band.
    ScoreOutsideBand,
}

/// One lint finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintIssue {
    /// Error or warning.
    pub severity: Severity,
    /// What kind.
    pub kind: LintKind,
    /// The rule.
    pub rule_id: String,
    /// Its file.
    pub source: String,
    /// Its line (0 when unknown).
    pub line: u32,
    /// Explanation.
    pub message: String,
}

impl fmt::Display for LintIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}:{}: rule `{}`: {}",
            match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            self.source,
            self.line,
            self.rule_id,
            self.message
        )
    }
}

fn issue(rule: &Rule, severity: Severity, kind: LintKind, message: String) -> LintIssue {
    LintIssue {
        severity,
        kind,
        rule_id: rule.id().to_string(),
        source: rule.source().to_string(),
        line: rule.line(),
        message,
    }
}

/// The condition with its unordered lists sorted, for duplicate detection.
fn normalized(m: &Matcher) -> Matcher {
    match m {
        Matcher::Pattern(p) => Matcher::Pattern(p.clone()),
        Matcher::Command(c) => {
            let sorted = |v: &[crate::rule::Text]| {
                let mut v = v.to_vec();
                v.sort();
                v.dedup();
                std::borrow::Cow::Owned(v)
            };
            let psorted = |v: &[crate::rule::Pred]| {
                let mut v = v.to_vec();
                v.sort();
                v.dedup();
                std::borrow::Cow::Owned(v)
            };
            Matcher::Command(CommandMatch {
                program: sorted(&c.program),
                subcommand: c.subcommand.clone(),
                flags_all: sorted(&c.flags_all),
                flags_any: sorted(&c.flags_any),
                flags_none: sorted(&c.flags_none),
                args_any: psorted(&c.args_any),
                args_all: psorted(&c.args_all),
                args_none: psorted(&c.args_none),
                args_except: psorted(&c.args_except),
                args_first: c.args_first.clone(),
                args_last: c.args_last.clone(),
                privileged: c.privileged,
                redirect_to: psorted(&c.redirect_to),
                stdin_from: sorted(&c.stdin_from),
                remote: c.remote,
                stdin: sorted(&c.stdin),
            })
        }
    }
}

/// Lint a rule set. Issues are sorted by file and line.
pub fn lint(rules: &RuleSet) -> Vec<LintIssue> {
    let mut out = Vec::new();
    let mut ids: HashMap<&str, &Rule> = HashMap::new();
    let mut conditions: HashMap<Matcher, &Rule> = HashMap::new();
    for rule in rules.rules() {
        if let Some(first) = ids.get(rule.id()) {
            out.push(issue(
                rule,
                Severity::Error,
                LintKind::DuplicateId,
                format!("id already used at {}:{}", first.source(), first.line()),
            ));
        } else {
            ids.insert(rule.id(), rule);
        }
        let key = normalized(rule.matcher());
        if let Some(first) = conditions.get(&key) {
            out.push(issue(
                rule,
                Severity::Warning,
                LintKind::DuplicateCondition,
                format!(
                    "same condition as `{}` ({}:{}); merge them",
                    first.id(),
                    first.source(),
                    first.line()
                ),
            ));
        } else {
            conditions.insert(key, rule);
        }
        for e in &rule.compiled().errors {
            out.push(issue(
                rule,
                Severity::Error,
                LintKind::InvalidPattern,
                e.clone(),
            ));
        }
        let level = rule.level();
        if rule.score() < level.min_score() || rule.score() > level.max_score() {
            out.push(issue(
                rule,
                Severity::Error,
                LintKind::ScoreOutsideBand,
                format!(
                    "score {} is outside the {} band {}-{}",
                    rule.score(),
                    level,
                    level.min_score(),
                    level.max_score()
                ),
            ));
        }
    }
    out.sort_by(|a, b| (&a.source, a.line, &a.rule_id).cmp(&(&b.source, b.line, &b.rule_id)));
    out
}
