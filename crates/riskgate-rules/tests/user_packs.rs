//! User packs: adding rules, overriding built-in ones by id, formats, and errors that name the
//! file and the rule.

mod common;

use std::io::Write;

use common::*;
use riskgate_model::RiskLevel;
use riskgate_rules::{
    CommandEngine, FailureKind, RuleLoadError, RuleOrigin, RuleSet, lint, test_rule,
};

fn pack(ext: &str, text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(ext).tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

const USER_YAML: &str = r#"
pack: acme
rules:
  - id: acme.deploy-prod
    level: HIGH
    score: 70
    description: Deploys to production.
    match:
      program: ./deploy.sh
      args_any: [prod, production]
    examples:
      match: [./deploy.sh prod]
      not_match: [./deploy.sh staging]
  - id: acme.bad-regex
    level: LOW
    score: 30
    description: Broken.
    pattern:
      regex: '(unclosed'
  - id: acme.token
    level: HIGH
    score: 75
    description: Internal token in the command line.
    pattern:
      regex: 'acme_tok_[A-Za-z0-9]{8}'
      on: raw
  - id: git.reset-hard
    level: LOW
  - id: git.stash-clear
    disabled: true
  - id: no.such-rule
    level: LOW
"#;

#[test]
fn user_rules_add_override_and_report_errors() {
    let f = pack(".yaml", USER_YAML);
    let (rules, errors) = RuleSet::with_user_packs(&[f.path()]);
    assert!(!rules.is_degraded(), "{:?}", rules.degraded_reason());

    // The invalid regex is skipped with a message naming the rule and the file.
    let bad = errors
        .iter()
        .find(|e| matches!(e, RuleLoadError::InvalidRule { id, .. } if id == "acme.bad-regex"))
        .expect("invalid rule reported");
    let msg = bad.to_string();
    assert!(
        msg.contains("acme.bad-regex") && msg.contains(&f.path().display().to_string()),
        "{msg}"
    );
    assert!(msg.contains(":14:"), "line of the rule: {msg}");
    assert!(rules.get("acme.bad-regex").is_none());
    assert!(!bad.degrades());

    // An override of an unknown id is reported, not fatal.
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, RuleLoadError::UnknownRule { id, .. } if id == "no.such-rule"))
    );

    // Overrides keep the condition, change level (score moved into the band) or state.
    let reset = rules.get("git.reset-hard").unwrap();
    assert_eq!(reset.level(), RiskLevel::Low);
    assert!(reset.score() <= 40);
    assert_eq!(reset.origin(), RuleOrigin::Overridden);
    assert!(rules.get("git.stash-clear").unwrap().disabled());
    assert_eq!(
        rules.rules().filter(|r| r.id() == "git.reset-hard").count(),
        1
    );

    let e = CommandEngine::new(rules);
    let a = e.assess_parsed(&one("git", &["reset", "--hard"]));
    assert!(a.level < RiskLevel::High, "{} {:?}", a.level, a.rule_ids());
    let a = e.assess_parsed(&one("git", &["stash", "clear"]));
    assert!(!a.rule_ids().contains(&"git.stash-clear"));

    // New structured and raw rules fire.
    let a = e.assess_parsed(&one("./deploy.sh", &["prod"]));
    assert!(a.rule_ids().contains(&"acme.deploy-prod"));
    let src = "curl -H 'x: acme_tok_ABCDEFGH' https://api";
    let a = e.assess_parsed(&parsed(
        src,
        vec![sc("curl", &["-H", "x: acme_tok_ABCDEFGH", "https://api"])],
    ));
    let f = a
        .findings
        .iter()
        .find(|f| f.rule_id == "acme.token")
        .unwrap();
    let span = f.span.unwrap();
    assert_eq!(&src[span.start..span.end], "acme_tok_ABCDEFGH");
}

#[test]
fn toml_and_json_packs_load() {
    let toml = pack(
        ".toml",
        r#"
pack = "t"
[[rules]]
id = "t.kill-all"
level = "HIGH"
score = 66
description = "Kills every process"
[rules.match]
program = "kill"
flags_any = ["-1"]
"#,
    );
    let json = pack(
        ".json",
        r#"{"rules": [{"id": "j.halt", "level": "critical", "score": 90, "description": "Halts",
            "match": {"program": ["halt", "poweroff"]}}]}"#,
    );
    let (rules, errors) = RuleSet::with_user_packs(&[toml.path(), json.path()]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(rules.get("t.kill-all").unwrap().origin(), RuleOrigin::User);
    let e = CommandEngine::new(rules);
    assert_eq!(
        e.assess_parsed(&one("poweroff", &[])).level,
        RiskLevel::Critical
    );
    assert!(e.assess_parsed(&one("kill", &["-9", "-1"])).level >= RiskLevel::High);
    assert_eq!(
        e.rules().packs().len(),
        riskgate_rules::RuleSet::builtin().packs().len() + 2
    );
}

#[test]
fn unreadable_or_corrupt_pack_degrades_to_at_least_high() {
    let (rules, errors) = RuleSet::with_user_packs(&["/nonexistent/riskgate/rules.yaml"]);
    assert!(rules.is_degraded());
    assert!(matches!(
        errors.first(),
        Some(RuleLoadError::Unreadable { .. })
    ));
    let e = CommandEngine::new(rules);
    let a = e.assess_parsed(&one("ls", &[]));
    // the user's rules could not be loaded: what they would have said is unknown
    assert_eq!(a.level, RiskLevel::High);
    assert!(a.degraded);
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("/nonexistent/riskgate/rules.yaml"))
    );
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("not fully analyzed: the rules database is degraded"))
    );
    // Built-in rules still apply.
    assert_eq!(
        e.assess_parsed(&one("rm", &["--recursive", "/"])).level,
        RiskLevel::Critical
    );

    let bad = pack(".yaml", "rules: [ {id: x, level: HIGH\n");
    let (rules, errors) = RuleSet::with_user_packs(&[bad.path()]);
    assert!(rules.is_degraded());
    assert!(errors.iter().all(RuleLoadError::degrades));
}

#[test]
fn a_user_rule_with_the_id_of_a_builtin_replaces_it() {
    let f = pack(
        ".yaml",
        r#"
rules:
  - id: git.reset-hard
    level: MEDIUM
    score: 50
    description: Our policy.
    match: {program: git, subcommand: [reset], flags_all: [--hard], args_any: [origin/main]}
"#,
    );
    let (rules, errors) = RuleSet::with_user_packs(&[f.path()]);
    assert!(errors.is_empty(), "{errors:?}");
    let r = rules.get("git.reset-hard").unwrap();
    assert_eq!(
        (r.level(), r.origin()),
        (RiskLevel::Medium, RuleOrigin::User)
    );
    assert_eq!(
        rules.rules().filter(|r| r.id() == "git.reset-hard").count(),
        1
    );
    // The user's rule is tested and linted like any other (here: it has no examples).
    let failures = test_rule(r);
    assert!(
        failures
            .iter()
            .any(|f| f.kind == FailureKind::MissingMatchExamples)
    );
    assert!(!lint(&rules).iter().any(|i| i.rule_id == "git.reset-hard"));
}

#[test]
fn lint_reports_band_and_duplicates() {
    let f = pack(
        ".yaml",
        r#"
rules:
  - id: u.one
    level: HIGH
    score: 20
    description: Score outside the band.
    match: {program: frobnicate}
  - id: u.two
    level: HIGH
    score: 70
    description: Same condition.
    match: {program: frobnicate}
"#,
    );
    let (rules, _) = RuleSet::with_user_packs(&[f.path()]);
    let issues = lint(&rules);
    assert!(
        issues
            .iter()
            .any(|i| i.rule_id == "u.one" && i.kind == riskgate_rules::LintKind::ScoreOutsideBand)
    );
    assert!(issues.iter().any(|i| i.rule_id == "u.two" && i.kind == riskgate_rules::LintKind::DuplicateCondition));
}

#[test]
fn a_stdin_condition_matches_its_kinds_and_a_wrong_kind_is_named() {
    let f = pack(
        ".yaml",
        r#"
pack: acme
rules:
  - id: acme.root-shell-typed
    level: HIGH
    score: 70
    description: A root shell reading the terminal.
    match:
      program: bash
      privileged: true
      stdin: [terminal]
    examples:
      match: [sudo bash]
      not_match: ["sudo bash < steps.sh"]
  - id: acme.bad-stdin
    level: LOW
    score: 30
    description: Broken.
    match:
      program: bash
      stdin: [keyboard]
"#,
    );
    let (rules, errors) = RuleSet::with_user_packs(&[f.path()]);
    let bad = errors
        .iter()
        .find(|e| matches!(e, RuleLoadError::InvalidRule { id, .. } if id == "acme.bad-stdin"))
        .expect("a wrong stdin kind is reported");
    assert!(bad.to_string().contains("keyboard"), "{bad}");
    let rule = rules.get("acme.root-shell-typed").expect("rule loaded");
    let failures = test_rule(rule);
    assert!(failures.is_empty(), "{failures:?}");
}
