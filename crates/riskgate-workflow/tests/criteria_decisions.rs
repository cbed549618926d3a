//! Seed 000's test criteria about decisions: standing approvals and denials (10-12), the
//! workflow's own approval and its risk hash (13-14), prompts and flags (15-21), write
//! failures (22), the 5-minute cache (25) and atomic updates (27).

mod common;

use std::cell::Cell;
use std::rc::Rc;

use common::{Fixture, approval, forced, interactive, opts, shell, workflow};
use riskgate::RiskLevel;
use riskgate::gate::prompt::Answer;
use riskgate_workflow::{
    AnalyzeOptions, ApprovalStatus, NodeRegistry, Refusal, WorkflowError, WorkflowIr,
    WorkflowState, risk_hash,
};
use serde_json::json;
use time::OffsetDateTime;

fn nginx() -> WorkflowIr {
    workflow(vec![
        shell("hello", "echo hello"),
        shell("restart", "sudo systemctl restart nginx"),
    ])
}

fn not_accepted(err: WorkflowError) -> riskgate_workflow::RiskNotAcceptedError {
    match err {
        WorkflowError::NotAccepted(e) => e,
        other => panic!("expected RiskNotAcceptedError, got {other:?}"),
    }
}

#[test]
fn criterion_10_pattern_in_approved_patterns_skips_the_risk() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {"approved_patterns": [
        approval("sudo systemctl restart nginx", Some("2999-01-01T00:00:00Z")),
    ]}}));
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert!(report.risks.is_empty(), "{:?}", report.risks);
    assert_eq!(report.skipped.len(), 1);
    assert_eq!(report.skipped[0].node_id, "restart");
    assert_eq!(report.decisions[0].decided_by, "approval");
}

#[test]
fn criterion_11_expired_approval_does_not_skip_the_risk() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {"approved_patterns": [
        approval("sudo systemctl restart nginx", Some("2024-02-14T10:30:00Z")),
    ]}}));
    let err = fx
        .analyzer()
        .analyze(&nginx(), &NodeRegistry::builtin(), &opts())
        .unwrap_err();
    assert_eq!(not_accepted(err).refusal, Refusal::NotInteractive);
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &forced())
        .unwrap();
    assert_eq!(report.risks.len(), 1);
    assert!(report.skipped.is_empty());
}

#[test]
fn criterion_12_pattern_in_denied_patterns_is_always_shown() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {
        "approved_patterns": [approval("*", None)],
        "denied_patterns": [{"pattern": "sudo systemctl restart nginx", "node_type": "shell", "denied_at": "2024-01-15T10:30:00Z"}],
    }}));
    // shown to the person, refused without asking, whatever the flags
    let options = AnalyzeOptions {
        interactive: true,
        force: true,
        ..AnalyzeOptions::default()
    };
    let err = fx
        .analyzer()
        .analyze(&nginx(), &NodeRegistry::builtin(), &options)
        .unwrap_err();
    let e = not_accepted(err);
    assert_eq!(e.refusal, Refusal::StandingDenial);
    assert_eq!(e.risk.node_id, "restart");
    assert!(e.message.contains("standing denial"), "{}", e.message);
    assert!(
        fx.shown_text().contains("sudo systemctl restart nginx"),
        "{}",
        fx.shown_text()
    );
}

#[test]
fn criterion_13_risk_hash_unchanged_workflow_approval_valid() {
    let fx = Fixture::new();
    let path = fx.root().join("deploy.json");
    let text = serde_json::to_string_pretty(&json!({
        "name": "deploy",
        "nodes": [shell("update", "sudo apt update"), shell("hi", "echo hi")],
        "metadata": {"author": "me"}
    }))
    .unwrap();
    std::fs::write(&path, &text).unwrap();
    let registry = NodeRegistry::builtin();
    let mut analyzer = fx.analyzer();
    let approved = analyzer.approve_file(&path, &registry).unwrap();
    assert_eq!(approved.risks.len(), 1);
    // the file holds the approval, the rest unchanged
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ra = &saved["metadata"]["risk_approval"];
    assert_eq!(ra["approved"], true);
    assert_eq!(ra["risk_hash"], approved.approval.risk_hash.as_str());
    assert_eq!(saved["metadata"]["author"], "me");
    assert_eq!(saved["name"], "deploy");
    // a non-interactive check without flags now passes
    let ir = WorkflowIr::from_path(&path).unwrap();
    let report = fx.analyzer().check(&ir, &registry, &opts()).unwrap();
    assert_eq!(report.state, WorkflowState::Approved);
    assert!(matches!(report.approval, ApprovalStatus::Valid { .. }));
    assert_eq!(report.decisions[0].decided_by, "workflow_approval");
    assert_eq!(report.risk_hash, approved.approval.risk_hash);
    // a benign change elsewhere keeps the hash (and the approval)
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("echo hi", "echo bye");
    std::fs::write(&path, edited).unwrap();
    let ir = WorkflowIr::from_path(&path).unwrap();
    let report = fx.analyzer().check(&ir, &registry, &opts()).unwrap();
    assert_eq!(report.state, WorkflowState::Approved);
    // past the approval lifetime (30 days): expired
    let later = OffsetDateTime::now_utc() + time::Duration::days(31);
    let err = fx
        .analyzer()
        .with_clock(move || later)
        .check(&ir, &registry, &opts())
        .unwrap_err();
    assert!(not_accepted(err).message.contains("expired"));
}

#[test]
fn criterion_14_risk_hash_changed_workflow_approval_invalid() {
    let fx = Fixture::new();
    let path = fx.root().join("deploy.yaml");
    std::fs::write(
        &path,
        "# deploy\nnodes:\n  - id: update\n    type: shell\n    params:\n      command: sudo apt update\n",
    )
    .unwrap();
    let registry = NodeRegistry::builtin();
    let approved = fx.analyzer().approve_file(&path, &registry).unwrap();
    let before = risk_hash(&approved.risks);
    assert_eq!(before, approved.approval.risk_hash);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# deploy\nnodes:\n"), "{text}");
    std::fs::write(&path, text.replace("sudo apt update", "sudo apt remove")).unwrap();
    let ir = WorkflowIr::from_path(&path).unwrap();
    let err = fx.analyzer().check(&ir, &registry, &opts()).unwrap_err();
    let e = not_accepted(err);
    assert!(e.message.contains("invalidated"), "{}", e.message);
    let report = fx.analyzer().check(&ir, &registry, &forced()).unwrap();
    assert_ne!(report.risk_hash, before);
    assert!(matches!(
        report.approval,
        ApprovalStatus::Invalidated { .. }
    ));
}

#[test]
fn criterion_15_interactive_high_risk_shows_the_prompt() {
    let fx = Fixture::new();
    let report = fx
        .analyzer_answering(Answer::Yes)
        .check(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap();
    assert_eq!(fx.asked.get(), 1);
    let summary = fx.summary.borrow().clone();
    assert!(summary.contains("HIGH risk"), "{summary}");
    assert!(
        summary.contains("sudo systemctl restart nginx"),
        "{summary}"
    );
    let shown = fx.shown_text();
    assert!(
        shown.contains("HIGH     node `restart` (shell), command"),
        "{shown}"
    );
    assert_eq!(report.decisions[0].decided_by, "user");
    assert_eq!(report.state, WorkflowState::Approved);
}

#[test]
fn criterion_16_non_interactive_high_risk_raises_an_error() {
    let fx = Fixture::new();
    let err = fx
        .analyzer()
        .analyze(&nginx(), &NodeRegistry::builtin(), &opts())
        .unwrap_err();
    let e = not_accepted(err);
    assert_eq!(e.refusal, Refusal::NotInteractive);
    assert_eq!(
        (e.risk.node_id.as_str(), e.risk.level),
        ("restart", RiskLevel::High)
    );
    assert!(
        e.message.contains("--force") && e.message.contains("--accept-risk"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("riskgate workflow approve"),
        "{}",
        e.message
    );
}

#[test]
fn criterion_17_force_flag_high_risk_no_prompt() {
    let fx = Fixture::new();
    let options = AnalyzeOptions {
        interactive: true,
        force: true,
        ..AnalyzeOptions::default()
    };
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &options)
        .unwrap();
    assert_eq!(report.risks.len(), 1);
    assert_eq!(report.decisions[0].decided_by, "flag");
    assert!(report.decisions[0].reason.contains("--force"));
}

#[test]
fn criterion_18_accept_risk_flag_high_risk_no_prompt() {
    let fx = Fixture::new();
    let options = AnalyzeOptions {
        interactive: true,
        accept_risk: true,
        ..AnalyzeOptions::default()
    };
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &options)
        .unwrap();
    assert_eq!(report.decisions[0].decided_by, "flag");
    assert!(report.decisions[0].reason.contains("--accept-risk"));
}

#[test]
fn criterion_19_critical_risk_with_force_still_raises() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {"approved_patterns": [approval("*", None)]}}));
    let options = AnalyzeOptions {
        interactive: true,
        force: true,
        accept_risk: true,
        session_id: None,
    };
    let ir = workflow(vec![
        shell("ok", "sudo apt update"),
        shell("wipe", "sudo rm -rf / --no-preserve-root"),
    ]);
    let err = fx
        .analyzer()
        .analyze(&ir, &NodeRegistry::builtin(), &options)
        .unwrap_err();
    assert!(
        matches!(&err, WorkflowError::Critical(e) if e.risk.node_id == "wipe"),
        "{err:?}"
    );
}

#[test]
fn criterion_20_always_adds_the_pattern_to_settings() {
    let fx = Fixture::new();
    fx.write_settings(json!({"theme": "dark"}));
    fx.analyzer_answering(Answer::Always)
        .check(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap();
    let v = fx.read_settings();
    assert_eq!(v["theme"], "dark");
    let entry = &v["risk_acceptance"]["approved_patterns"][0];
    assert_eq!(entry["pattern"], "sudo systemctl restart nginx");
    let at = riskgate::gate::clock::parse(entry["approved_at"].as_str().unwrap()).unwrap();
    let exp = riskgate::gate::clock::parse(entry["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(exp - at, time::Duration::days(30));
    // a later non-interactive run skips it
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert_eq!(report.skipped.len(), 1);
}

#[test]
fn criterion_21_never_adds_the_pattern_to_the_denied_list() {
    let fx = Fixture::new();
    let err = fx
        .analyzer_answering(Answer::Never)
        .analyze(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap_err();
    assert_eq!(not_accepted(err).refusal, Refusal::Rejected);
    let v = fx.read_settings();
    assert_eq!(
        v["risk_acceptance"]["denied_patterns"][0]["pattern"],
        "sudo systemctl restart nginx"
    );
    let err = fx
        .analyzer()
        .analyze(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap_err();
    assert_eq!(not_accepted(err).refusal, Refusal::StandingDenial);
}

#[test]
fn criterion_22_settings_write_failure_warns_and_continues() {
    let fx = Fixture::new();
    std::fs::write(
        fx.root().join("state"),
        "a file where the state directory goes",
    )
    .unwrap();
    let report = fx
        .analyzer_answering(Answer::Always)
        .check(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap();
    assert_eq!(report.decisions[0].decided_by, "user");
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("could not save your answer")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn criterion_25_session_cache_no_reanalysis_for_5_minutes() {
    let fx = Fixture::new();
    let t0 = OffsetDateTime::now_utc();
    let now = Rc::new(Cell::new(t0));
    let clock = now.clone();
    let mut analyzer = fx
        .analyzer_answering(Answer::Yes)
        .with_clock(move || clock.get());
    let registry = NodeRegistry::builtin();
    let first = analyzer.check(&nginx(), &registry, &interactive()).unwrap();
    assert!(!first.from_cache);
    assert_eq!((analyzer.stats().analyses, fx.asked.get()), (1, 1));
    // 299 s later: the analysis is reused and the approval remembered (no prompt)
    now.set(t0 + time::Duration::seconds(299));
    let second = analyzer.check(&nginx(), &registry, &interactive()).unwrap();
    assert!(second.from_cache);
    assert_eq!(second.decisions[0].decided_by, "session");
    assert_eq!(
        (
            analyzer.stats().analyses,
            analyzer.stats().cache_hits,
            fx.asked.get()
        ),
        (1, 1, 1)
    );
    // 5 minutes later: analyzed again
    now.set(t0 + time::Duration::seconds(300));
    let third = analyzer.check(&nginx(), &registry, &interactive()).unwrap();
    assert!(!third.from_cache);
    assert_eq!(analyzer.stats().analyses, 2);
    // another workflow is not a cache hit
    let other = workflow(vec![shell("restart", "sudo systemctl restart apache2")]);
    analyzer.check(&other, &registry, &interactive()).unwrap();
    assert_eq!(analyzer.stats().analyses, 3);
}

#[test]
fn criterion_27_atomic_settings_update_no_partial_writes() {
    let fx = Fixture::new();
    let root = fx.root().to_path_buf();
    // concurrent `always` answers from separate analyzers: none lost, the file always whole
    let handles: Vec<_> = (0..6)
        .map(|i| {
            let root = root.clone();
            std::thread::spawn(move || {
                let policy = riskgate::gate::Policy::load_with(
                    &root,
                    &riskgate::gate::Locations::isolated(&root),
                    &riskgate::gate::CliOverrides::default(),
                )
                .unwrap();
                let gate = riskgate::gate::Gate::new(policy)
                    .without_audit()
                    .with_prompter(|_: &str, _| Answer::Always);
                let mut a = riskgate_workflow::WorkflowRiskAnalyzer::new(gate)
                    .with_display(std::io::sink());
                let ir = workflow(vec![shell("s", &format!("sudo systemctl restart svc{i}"))]);
                a.check(&ir, &NodeRegistry::builtin(), &interactive())
                    .unwrap();
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let v = fx.read_settings();
    let list = v["risk_acceptance"]["approved_patterns"]
        .as_array()
        .unwrap();
    assert_eq!(list.len(), 6, "{v}");
    // the workflow file: readers never see a partial file while approvals are written
    let path = root.join("wf.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json!({"nodes": [shell("u", "sudo apt update")]})).unwrap(),
    )
    .unwrap();
    let reader_path = path.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    let reader = std::thread::spawn(move || {
        let mut reads = 0;
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
            let text = std::fs::read_to_string(&reader_path).unwrap();
            serde_json::from_str::<serde_json::Value>(&text).expect("a whole file");
            reads += 1;
        }
        reads
    });
    let registry = NodeRegistry::builtin();
    let t0 = OffsetDateTime::now_utc();
    for k in 0..30 {
        let at = t0 + time::Duration::seconds(k);
        fx.analyzer()
            .with_clock(move || at)
            .approve_file(&path, &registry)
            .unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
    let leftovers: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn interrupted_prompt_is_a_rejection() {
    let fx = Fixture::new();
    let err = fx
        .analyzer_answering(Answer::Interrupted)
        .analyze(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap_err();
    assert_eq!(not_accepted(err).refusal, Refusal::Rejected);
}

#[test]
fn malformed_settings_entry_is_skipped_with_a_warning() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {"approved_patterns": [
        {"pattern": 42},
        approval("sudo systemctl restart nginx", None),
    ]}}));
    let report = fx
        .analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert_eq!(report.skipped.len(), 1);
    assert!(
        report.warnings.iter().any(|w| w.contains("skipped")),
        "{:?}",
        report.warnings
    );
}
