//! Every built-in pack in rules/ (the build embeds them all, including packs added later):
//! every rule's examples through the full pipeline (parse → match), and lint without errors.

use riskgate_rules::{RuleSet, Severity, lint, test_rules};

#[test]
fn every_rule_example_agrees() {
    let rules = RuleSet::builtin();
    let report = test_rules(&rules);
    assert!(report.rules > 0, "no rules embedded");
    assert!(report.passed(), "\n{report}");
}

#[test]
fn lint_has_no_errors() {
    let issues = lint(&RuleSet::builtin());
    let errors: Vec<String> = issues
        .iter()
        .filter(|i| i.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "\n{}", errors.join("\n"));
}

#[test]
fn packs_are_listed_with_their_rules() {
    let rules = RuleSet::builtin();
    let packs = rules.packs();
    for name in ["filesystem", "git"] {
        let p = packs.iter().find(|p| p.name == name).expect(name);
        assert!(p.rules > 40, "{name}: {} rules", p.rules);
    }
    assert_eq!(packs.iter().map(|p| p.rules).sum::<usize>(), rules.len());
    let shown = rules.get("git.reset-hard").unwrap().explain();
    for section in [
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Use instead",
    ] {
        assert!(shown.contains(section), "{shown}");
    }
}
