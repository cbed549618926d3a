//! `riskgate rules test`: every rule's examples through the full pipeline (parse → match). A
//! `match` example must trigger that very rule id; a `not_match` example must not. A rule
//! without both kinds of examples fails. An example written `pwsh> TEXT` is read as PowerShell,
//! `cmd> TEXT` as cmd.exe.

use std::fmt;

use crate::matcher;
use crate::rule::Rule;
use crate::ruleset::RuleSet;

/// Why a rule failed its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The rule has no `examples.match`.
    MissingMatchExamples,
    /// The rule has no `examples.not_match`.
    MissingNotMatchExamples,
    /// A `match` example did not trigger the rule.
    NotTriggered,
    /// A `not_match` example triggered the rule.
    FalseTrigger,
    /// The rule's pattern or a predicate does not compile.
    InvalidPattern,
}

/// One failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFailure {
    /// The rule.
    pub rule_id: String,
    /// Its file.
    pub source: String,
    /// Its line (0 when unknown).
    pub line: u32,
    /// What went wrong.
    pub kind: FailureKind,
    /// The example concerned, or the compile error.
    pub detail: Option<String>,
}

impl fmt::Display for TestFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: rule `{}`: ",
            self.source, self.line, self.rule_id
        )?;
        let d = self.detail.as_deref().unwrap_or("");
        match self.kind {
            FailureKind::MissingMatchExamples => f.write_str("no `examples.match`"),
            FailureKind::MissingNotMatchExamples => f.write_str("no `examples.not_match`"),
            FailureKind::NotTriggered => write!(f, "match example not matched: `{d}`"),
            FailureKind::FalseTrigger => write!(f, "not_match example matched: `{d}`"),
            FailureKind::InvalidPattern => write!(f, "invalid pattern: {d}"),
        }
    }
}

/// The outcome of [`test_rules`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestReport {
    /// Rules tested.
    pub rules: usize,
    /// Examples run.
    pub examples: usize,
    /// Every failure.
    pub failures: Vec<TestFailure>,
}

impl TestReport {
    /// True when every rule passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for TestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fail in &self.failures {
            writeln!(f, "{fail}")?;
        }
        write!(
            f,
            "{} rules, {} examples: {} failure{}",
            self.rules,
            self.examples,
            self.failures.len(),
            if self.failures.len() == 1 { "" } else { "s" }
        )
    }
}

/// The shell an example is written for, and its text: `pwsh> TEXT` is PowerShell, `cmd> TEXT`
/// is cmd.exe, anything else bash (clearly PowerShell text read as PowerShell too).
pub fn example_shell(ex: &str) -> (Option<riskgate_shell::Shell>, &str) {
    use riskgate_shell::Shell;
    for (prefix, shell) in [
        ("pwsh> ", Shell::PowerShell),
        ("powershell> ", Shell::PowerShell),
        ("cmd> ", Shell::Cmd),
        ("bash> ", Shell::Bash),
    ] {
        if let Some(rest) = ex.strip_prefix(prefix) {
            return (Some(shell), rest);
        }
    }
    (None, ex)
}

fn parse_example(ex: &str) -> riskgate_shell::ParsedCommand {
    let (shell, text) = example_shell(ex);
    riskgate_shell::parse_as(text, shell)
}

/// Test one rule's examples.
pub fn test_rule(rule: &Rule) -> Vec<TestFailure> {
    let fail = |kind, detail: Option<String>| TestFailure {
        rule_id: rule.id().to_string(),
        source: rule.source().to_string(),
        line: rule.line(),
        kind,
        detail,
    };
    let mut out = Vec::new();
    if let Some(e) = rule.compiled().errors.first() {
        out.push(fail(FailureKind::InvalidPattern, Some(e.clone())));
        return out;
    }
    if rule.examples_match().is_empty() {
        out.push(fail(FailureKind::MissingMatchExamples, None));
    }
    if rule.examples_not_match().is_empty() {
        out.push(fail(FailureKind::MissingNotMatchExamples, None));
    }
    for ex in rule.examples_match() {
        let parsed = parse_example(ex);
        if !matcher::rule_triggers(rule, &parsed) {
            out.push(fail(FailureKind::NotTriggered, Some(ex.to_string())));
        }
    }
    for ex in rule.examples_not_match() {
        let parsed = parse_example(ex);
        if matcher::rule_triggers(rule, &parsed) {
            out.push(fail(FailureKind::FalseTrigger, Some(ex.to_string())));
        }
    }
    out
}

/// Run every rule's examples (disabled rules too: their condition is still tested).
pub fn test_rules(rules: &RuleSet) -> TestReport {
    let mut report = TestReport::default();
    for rule in rules.rules() {
        report.rules += 1;
        report.examples += rule.examples_match().len() + rule.examples_not_match().len();
        report.failures.extend(test_rule(rule));
    }
    report
}
