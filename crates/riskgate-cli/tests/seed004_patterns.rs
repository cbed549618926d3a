//! Seed 004's pattern database (`dangerous_patterns.json`, the seed's own example in
//! tests/fixtures) as a rule pack through `--rules` and `rules.extra`, and the seed 004 result
//! fields of `check --format json`: `is_auto_approvable`, and per finding `score_contribution`
//! and `matched_pattern`.

mod common;
use common::riskgate;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dangerous_patterns.json")
}

fn check(dir: &Path, extra: &[&str], command: &str) -> (Option<i32>, Value) {
    let out = riskgate(dir)
        .arg("check")
        .args(extra)
        .args(["--format", "json", "--", command])
        .output()
        .expect("runs");
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), v)
}

fn finding<'a>(v: &'a Value, id: &str) -> Option<&'a Value> {
    v["findings"]
        .as_array()?
        .iter()
        .find(|f| f["rule_id"] == id)
}

#[test]
fn seed_example_file_matches_rm_rf_root_at_its_base_score() {
    let dir = tempfile::tempdir().unwrap();
    let rules = fixture();
    let rules = rules.to_str().unwrap();
    let (code, v) = check(dir.path(), &["--rules", rules], "rm -rf /");
    assert_eq!(code, Some(4), "deny exits 4: {v}");
    assert!(!v["degraded"].as_bool().unwrap_or(true), "file loaded: {v}");
    let f = finding(&v, "DP-001").unwrap_or_else(|| panic!("DP-001 fired: {v}"));
    assert_eq!(f["score"], 100);
    assert_eq!(f["level"], "CRITICAL");
    assert_eq!(
        f["description"],
        "Recursive deletion of the root directory."
    );
    assert_eq!(f["matched_pattern"], r"^rm\s+-rf\s+/$");
    assert_eq!(f["matched"], "rm -rf /");
    assert_eq!(f["tags"], serde_json::json!(["filesystem", "destructive"]));
    assert_eq!(v["score"], 100);
    assert_eq!(v["is_auto_approvable"], false);
    // The contributions add up to the score; the top finding contributes the base score.
    let sum: u64 = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f["score_contribution"]
                .as_u64()
                .expect("every finding has one")
        })
        .sum();
    assert_eq!(sum, 100);
    assert_eq!(v["findings"][0]["score_contribution"], 100);

    // The anchored pattern does not fire on a near miss.
    let (_, v) = check(dir.path(), &["--rules", rules], "rm -rf /tmp/build");
    assert!(finding(&v, "DP-001").is_none(), "{v}");
}

#[test]
fn glob_and_exact_entries_from_config_rules_extra() {
    let dir = tempfile::tempdir().unwrap();
    let pats = dir.path().join("patterns.json");
    std::fs::write(
        &pats,
        r#"{"patterns": [
  {"id": "DP-010", "pattern": "deploy-prod *", "patternType": "Glob",
   "description": "Production deploy.", "riskLevel": "high", "baseScore": 75},
  {"id": "DP-011", "pattern": "make release", "patternType": "Exact",
   "description": "Release build.", "riskLevel": "MEDIUM"}
]}"#,
    )
    .unwrap();
    let config = dir.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        format!("[rules]\nextra = [{:?}]\n", pats.display().to_string()),
    )
    .unwrap();

    let (_, v) = check(dir.path(), &[], "deploy-prod --all");
    let f = finding(&v, "DP-010").unwrap_or_else(|| panic!("glob fired: {v}"));
    assert_eq!(f["score"], 75);
    assert_eq!(f["matched_pattern"], "deploy-prod *");
    assert_eq!(v["level"], "HIGH");

    let (_, v) = check(dir.path(), &[], "make release");
    let f = finding(&v, "DP-011").unwrap_or_else(|| panic!("exact fired: {v}"));
    assert_eq!(f["score"], 50, "no baseScore: the middle of MEDIUM");
    let (_, v) = check(dir.path(), &[], "make release-notes");
    assert!(finding(&v, "DP-011").is_none(), "exact is exact: {v}");
}

#[test]
fn a_malformed_entry_names_file_index_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let pats = dir.path().join("bad.json");
    std::fs::write(
        &pats,
        r#"[{"id": "DP-001", "pattern": "^ok$", "patternType": "Regex",
  "description": "fine", "riskLevel": "Low"},
 {"id": "DP-002", "pattern": "x", "patternType": "Fuzzy",
  "description": "bad type", "riskLevel": "Low"}]"#,
    )
    .unwrap();
    let out = riskgate(dir.path())
        .args(["check", "--rules"])
        .arg(&pats)
        .args(["--format", "json", "ok"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json") && err.contains("entry 1") && err.contains("`patternType`"),
        "{err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        finding(&v, "DP-001").is_some(),
        "the valid entry loaded: {v}"
    );
}

#[test]
fn safe_commands_are_auto_approvable_and_fields_are_present() {
    let dir = tempfile::tempdir().unwrap();
    let (code, v) = check(dir.path(), &[], "ls -la");
    assert_eq!(code, Some(0));
    assert_eq!(v["is_auto_approvable"], true);
    let (_, v) = check(dir.path(), &[], "git push --force origin main");
    assert_eq!(v["is_auto_approvable"], false);
    let f = &v["findings"][0];
    assert!(f["score_contribution"].is_u64(), "{f}");
    assert!(f["matched_pattern"].is_string(), "{f}");
}
