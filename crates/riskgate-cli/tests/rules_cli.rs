//! `riskgate rules …` through the built binary: the built-in database passes its own examples
//! (this is how the test suite runs `rules test`), has at least 800 rules each with examples,
//! and a pack with a wrong example or an invalid rule fails with a message naming it.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn riskgate() -> Command {
    Command::cargo_bin("riskgate").expect("binary")
}

#[test]
fn builtin_rules_pass_their_examples() {
    riskgate()
        .args(["rules", "test"])
        .assert()
        .code(0)
        .stdout(contains("0 failure(s)"));
}

#[test]
fn at_least_800_rules_each_with_examples() {
    let out = riskgate()
        .args(["rules", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = v.as_array().unwrap();
    assert!(rules.len() >= 800, "{} rules", rules.len());
    for r in rules {
        let m = r["examples"]["match"].as_array().map_or(0, Vec::len);
        let n = r["examples"]["not_match"].as_array().map_or(0, Vec::len);
        assert!(m > 0 && n > 0, "{} lacks examples", r["id"]);
    }
}

#[test]
fn show_explains_a_rule_and_unknown_ids_are_errors() {
    riskgate()
        .args(["rules", "show", "git.reset-hard"])
        .assert()
        .code(0)
        .stdout(contains("## What it does"));
    riskgate()
        .args(["rules", "show", "no.such-rule"])
        .assert()
        .code(1)
        .stderr(contains("no rule `no.such-rule`"));
}

#[test]
fn lint_is_clean() {
    riskgate()
        .args(["rules", "lint"])
        .assert()
        .code(0)
        .stdout(contains("0 error(s)"));
}

#[test]
fn a_pack_with_a_wrong_example_fails_naming_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("mine.yaml");
    std::fs::write(
        &pack,
        r#"pack: mine
rules:
  - id: mine.make-clean
    level: MEDIUM
    score: 45
    description: make clean removes build output.
    reversible: true
    tags: [build]
    match:
      program: make
      subcommand: [clean]
    examples:
      match: [make clean, make install]
      not_match: [make test]
"#,
    )
    .unwrap();
    riskgate()
        .args(["rules", "test"])
        .arg(&pack)
        .assert()
        .code(1)
        .stderr(contains("mine.make-clean").and(contains("make install")));
}

#[test]
fn a_pack_with_an_invalid_rule_fails_naming_file_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("broken.yaml");
    std::fs::write(
        &pack,
        "pack: broken\nrules:\n  - id: broken.no-condition\n    level: HIGH\n    score: 70\n    description: x\n",
    )
    .unwrap();
    riskgate()
        .args(["rules", "test"])
        .arg(&pack)
        .assert()
        .code(1)
        .stderr(contains("broken.yaml").and(contains("broken.no-condition")));
}
