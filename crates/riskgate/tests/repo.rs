//! Repositories (`riskgate::repo`): the fixtures of every file kind rated through the engine —
//! each dangerous file has a result at HIGH or above, no safe file has one — and the SARIF of
//! the fixtures, validated against the SARIF 2.1.0 schema and compared with the golden file
//! (`UPDATE_GOLDEN=1` rewrites it).

use std::path::{Path, PathBuf};

use riskgate::repo::scan_tree;
use riskgate::repo_files::FileKind;
use riskgate::repo_files::report::ScanReport;
use riskgate::{Engine, RiskLevel};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/repo")
}

fn scan(dir: &str) -> ScanReport {
    scan_tree(&Engine::builtin(), None, &fixtures().join(dir))
}

/// Every kind of file there is a fixture for, dangerous and safe.
const KINDS: &[FileKind] = &[
    FileKind::GithubWorkflow,
    FileKind::GitlabCi,
    FileKind::Dockerfile,
    FileKind::Makefile,
    FileKind::PackageJson,
    FileKind::Pyproject,
    FileKind::SetupPy,
    FileKind::PreCommit,
    FileKind::Devcontainer,
    FileKind::Justfile,
    FileKind::Taskfile,
    FileKind::ShellScript,
];

#[test]
fn every_dangerous_fixture_is_high_or_above() {
    let r = scan("dangerous");
    for k in KINDS {
        assert!(
            r.files.iter().any(|f| f.kind == *k),
            "no dangerous fixture of kind {k}"
        );
    }
    for f in &r.files {
        assert!(
            f.level >= RiskLevel::High,
            "{} is only {}: {:#?}",
            f.path,
            f.level,
            f.results
                .iter()
                .map(|r| (r.line, r.level, &r.text))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn no_safe_fixture_reaches_high() {
    let r = scan("safe");
    for k in KINDS {
        assert!(
            r.files.iter().any(|f| f.kind == *k),
            "no safe fixture of kind {k}"
        );
    }
    for f in &r.files {
        assert!(!f.results.is_empty(), "{}: nothing extracted", f.path);
        let high: Vec<_> = f
            .results
            .iter()
            .filter(|r| r.level >= RiskLevel::High)
            .map(|r| {
                (
                    r.line,
                    r.level,
                    r.text.clone(),
                    r.findings
                        .iter()
                        .map(|f| f.rule_id.clone())
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        assert!(high.is_empty(), "{}: {high:#?}", f.path);
    }
}

#[test]
fn findings_point_at_their_lines() {
    let r = scan("dangerous");
    let at = |path: &str, rule: &str| -> Vec<(u32, u32)> {
        r.files
            .iter()
            .filter(|f| f.path == path)
            .flat_map(|f| f.results.iter())
            .flat_map(|r| r.findings.iter())
            .filter(|f| f.rule_id == rule)
            .filter_map(|f| {
                f.location
                    .as_ref()
                    .map(|l| (l.line.unwrap_or(0), l.column.unwrap_or(0)))
            })
            .collect()
    };
    assert_eq!(at("package.json", "rce.curl-pipe-shell"), vec![(6, 60)]);
    assert_eq!(at("Dockerfile", "rce.curl-pipe-shell"), vec![(5, 51)]);
    assert_eq!(at("Dockerfile", "docker.add-remote-url"), vec![(2, 5)]);
    assert_eq!(
        at(".github/workflows/pwn.yml", "gha.pr-target-checkout"),
        vec![(3, 3), (12, 16)]
    );
    assert_eq!(
        at(".github/workflows/pwn.yml", "gha.event-in-run"),
        vec![(18, 31)]
    );
    assert_eq!(
        at(".github/workflows/release.yml", "rce.curl-pipe-sudo-shell"),
        vec![(17, 61)]
    );
    assert_eq!(at("Makefile", "fs.rm-recursive-home"), vec![(10, 2)]);
    assert_eq!(at("setup.py", "code.pipe_to_shell"), vec![(4, 1)]);
}

#[test]
fn sarif_is_valid_and_matches_the_golden_file() {
    let mut r = scan("dangerous");
    r.root = "dangerous".to_string();
    let sarif = riskgate::repo_files::sarif::to_sarif(&r, "0.0.0-test");
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../riskgate-repo/tests/data/sarif-schema-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = sarif_validator(&schema);
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() >= 13);
    for res in results {
        assert!(res["partialFingerprints"]["riskgate/v1"].is_string());
        assert!(
            res["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }
    // The golden file holds what code scanning keys on — rule, level, file, line, column,
    // fingerprint — not descriptions or scores, which other rule work refines.
    let projected: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            serde_json::json!([
                r["ruleId"],
                r["level"],
                loc["artifactLocation"]["uri"],
                loc["region"]["startLine"],
                loc["region"]["startColumn"],
                r["partialFingerprints"]["riskgate/v1"],
            ])
        })
        .collect();
    let golden = fixtures().join("dangerous.sarif-results.json");
    let text = serde_json::to_string_pretty(&projected).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &text).unwrap();
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        want == text,
        "SARIF results differ from {} (UPDATE_GOLDEN=1 rewrites it):\n{text}",
        golden.display()
    );
}

#[test]
fn an_invalid_sarif_is_caught_by_the_schema() {
    // the schema is really applied: a result without a message is rejected
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../riskgate-repo/tests/data/sarif-schema-2.1.0.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = sarif_validator(&schema);
    let bad = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}]});
    assert!(!validator.is_valid(&bad));
}

#[test]
fn oversized_and_unreadable_files_are_not_analyzed_high() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.sh");
    std::fs::write(&big, "echo x\n".repeat(200_000)).unwrap();
    std::fs::write(dir.path().join("bin.sh"), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let r = scan_tree(&Engine::builtin(), None, dir.path());
    assert_eq!(r.files.len(), 2);
    for f in &r.files {
        assert_eq!(f.level, RiskLevel::High, "{}", f.path);
        assert_eq!(f.results[0].findings[0].rule_id, "repo.not-analyzed");
    }
}

#[test]
fn a_flow_across_script_lines_is_placed_on_both_steps() {
    // the dump is written on line 3 and leaves on line 4: the finding names both lines, in the
    // scan's location and in the SARIF region
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("backup.sh"),
        "#!/bin/sh\nOUT=/tmp/db.sql.gz\npg_dump \"$PROD_DATABASE_URL\" | gzip > \"$OUT\"\ngsutil cp \"$OUT\" gs://acme-public/backups/\nrm -f \"$OUT\"\n",
    )
    .unwrap();
    let r = scan_tree(&Engine::builtin(), None, dir.path());
    let flow = r
        .files
        .iter()
        .flat_map(|f| f.results.iter())
        .flat_map(|r| r.findings.iter())
        .find(|f| f.rule_id == "flow.dump-sent")
        .expect("the dump sent is found");
    let loc = flow.location.as_ref().unwrap();
    assert_eq!((loc.line, loc.end_line), (Some(3), Some(4)));
    let sarif = riskgate::repo_files::sarif::to_sarif(&r, "0.0.0-test");
    let region = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["ruleId"] == "flow.dump-sent")
        .map(|x| x["locations"][0]["physicalLocation"]["region"].clone())
        .unwrap();
    assert_eq!(
        (region["startLine"].as_u64(), region["endLine"].as_u64()),
        (Some(3), Some(4))
    );
    // a one-line finding has no end line
    let rm = r
        .files
        .iter()
        .flat_map(|f| f.results.iter())
        .flat_map(|r| r.findings.iter())
        .find(|f| f.location.as_ref().and_then(|l| l.line) == Some(5))
        .unwrap();
    assert_eq!(rm.location.as_ref().unwrap().end_line, None);
}

#[test]
fn a_job_token_variable_in_a_runner_remote_url_is_not_high_a_literal_token_is() {
    let level_of = |script_line: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".gitlab-ci.yml"),
            format!("mirror:\n  script:\n    - {script_line}\n"),
        )
        .unwrap();
        let r = scan_tree(&Engine::builtin(), None, dir.path());
        r.files
            .iter()
            .map(|f| f.level)
            .max()
            .unwrap_or(RiskLevel::Safe)
    };
    assert!(
        level_of(
            "git remote add github \"https://x-access-token:${GITHUB_PUSH_TOKEN}@github.com/acme/w.git\""
        ) <= RiskLevel::Medium
    );
    assert!(
        level_of(
            "git remote add github https://x-access-token:ghp_R8x2Lq9ZtW4vKp7Nm3Yb5Hc1Jd6Fs0Ga2Qe8@github.com/acme/w.git"
        ) >= RiskLevel::High
    );
}

#[test]
fn an_uninstall_of_the_makefiles_own_files_is_not_high_of_others_is() {
    let level_of = |uninstall: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            format!(
                "PREFIX ?= /usr/local\nDESTDIR ?=\ninstall:\n\tinstall -m 644 build/libx.a build/libx.so $(DESTDIR)$(PREFIX)/lib/\n\tinstall -m 644 include/x.h $(DESTDIR)$(PREFIX)/include/\n\tinstall -m 755 xtool $(PREFIX)/bin\nuninstall:\n\t{uninstall}\n"
            ),
        )
        .unwrap();
        let r = scan_tree(&Engine::builtin(), None, dir.path());
        r.files
            .iter()
            .flat_map(|f| f.results.iter())
            .filter(|r| r.name.as_deref() == Some("uninstall"))
            .map(|r| r.level)
            .max()
            .unwrap_or(RiskLevel::Safe)
    };
    assert!(
        level_of("rm -f $(DESTDIR)$(PREFIX)/lib/libx.* $(DESTDIR)$(PREFIX)/include/x.h")
            <= RiskLevel::Medium
    );
    assert!(level_of("rm -f $(PREFIX)/bin/xtool") <= RiskLevel::Medium);
    // a glob wider than the installed files, another file of the system
    assert!(level_of("rm -f $(DESTDIR)$(PREFIX)/lib/lib*") >= RiskLevel::High);
    assert!(level_of("rm -f $(PREFIX)/lib/libssl.so $(PREFIX)/include/x.h") >= RiskLevel::High);
}

/// A validator of the SARIF 2.1.0 schema (the schema is checked against its meta-schema).
fn sarif_validator(schema: &serde_json::Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap()
}
