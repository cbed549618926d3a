//! Seed 000 criterion 25 across processes: the analysis cache of a session lives in the state
//! directory (`workflow-cache/`), so a second analyzer (another process) with the same session
//! reuses the analysis for 5 minutes — never another session's, never after the policy, the
//! registry or the rules changed, never a corrupt or inconsistent entry. And the `always` /
//! `never` answers for a workflow node are stored under the node's own type.

mod common;

use std::path::PathBuf;

use common::{Fixture, interactive, shell, workflow};
use riskgate::gate::prompt::Answer;
use riskgate::gate::{CliOverrides, Gate, Locations, Policy};
use riskgate_workflow::{
    AnalyzeOptions, NodeRegistry, Refusal, WorkflowError, WorkflowIr, WorkflowRiskAnalyzer,
};
use serde_json::{Value, json};
use time::OffsetDateTime;

fn nginx() -> WorkflowIr {
    workflow(vec![
        shell("hello", "echo hello"),
        shell("restart", "sudo systemctl restart nginx"),
    ])
}

fn session(id: &str) -> AnalyzeOptions {
    AnalyzeOptions {
        force: true,
        session_id: Some(id.to_string()),
        ..AnalyzeOptions::default()
    }
}

fn cache_dir(fx: &Fixture) -> PathBuf {
    fx.root().join("state").join("workflow-cache")
}

fn entries(fx: &Fixture) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(cache_dir(fx))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "json"));
    v
}

fn at(fx: &Fixture, t: OffsetDateTime) -> WorkflowRiskAnalyzer {
    fx.analyzer().with_clock(move || t)
}

#[test]
fn a_second_analyzer_of_the_same_session_reuses_the_analysis() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    let mut first = fx.analyzer();
    let r1 = first.check(&nginx(), &registry, &session("s1")).unwrap();
    assert!(!r1.from_cache);
    assert_eq!(first.stats().analyses, 1);
    let files = entries(&fx);
    assert_eq!(files.len(), 1, "{files:?}");
    // a fresh analyzer (nothing in its memory), as another process would be
    let mut second = fx.analyzer();
    let r2 = second.check(&nginx(), &registry, &session("s1")).unwrap();
    assert!(r2.from_cache);
    assert_eq!((second.stats().analyses, second.stats().cache_hits), (0, 1));
    assert_eq!(r2.risks, r1.risks);
    assert_eq!(r2.risk_hash, r1.risk_hash);
    assert_eq!(r2.decisions, r1.decisions);
    // another session, or none: analyzed
    let r3 = fx
        .analyzer()
        .check(&nginx(), &registry, &session("s2"))
        .unwrap();
    assert!(!r3.from_cache);
    let none = AnalyzeOptions {
        force: true,
        ..AnalyzeOptions::default()
    };
    assert!(
        !fx.analyzer()
            .check(&nginx(), &registry, &none)
            .unwrap()
            .from_cache
    );
    // the session id is not a file name, and nothing of the command is in one
    for f in entries(&fx) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.contains("s1"), "{name}");
    }
}

#[cfg(unix)]
#[test]
fn entries_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    fx.analyzer()
        .check(&nginx(), &NodeRegistry::builtin(), &session("s"))
        .unwrap();
    let dir_mode = std::fs::metadata(cache_dir(&fx))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(dir_mode & 0o077, 0, "{dir_mode:o}");
    for f in entries(&fx) {
        let mode = std::fs::metadata(&f).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{}: {mode:o}", f.display());
    }
}

#[test]
fn shared_entries_last_5_minutes_and_not_from_the_future() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    let t0 = OffsetDateTime::now_utc();
    assert!(
        !at(&fx, t0)
            .check(&nginx(), &registry, &session("s"))
            .unwrap()
            .from_cache
    );
    let hit = |secs: i64| {
        at(&fx, t0 + time::Duration::seconds(secs))
            .check(&nginx(), &registry, &session("s"))
            .unwrap()
            .from_cache
    };
    assert!(hit(299));
    assert!(!hit(-10), "an entry written in the future is not trusted");
    // the miss at -10 s rewrote the entry at t0 - 10 s: 300 s after that, it is expired
    assert!(!hit(290));
}

#[test]
fn a_corrupt_entry_is_ignored_with_a_warning_and_replaced() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    fx.analyzer()
        .check(&nginx(), &registry, &session("s"))
        .unwrap();
    let [file] = entries(&fx).try_into().unwrap();
    std::fs::write(&file, b"{\"format\": 1, \"scan\": [cut").unwrap();
    let mut analyzer = fx.analyzer();
    let r = analyzer.check(&nginx(), &registry, &session("s")).unwrap();
    assert!(!r.from_cache);
    assert_eq!(analyzer.stats().analyses, 1);
    assert_eq!(r.risks.len(), 1);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("analysis cache entry ignored")),
        "{:?}",
        r.warnings
    );
    // replaced by the new analysis
    assert!(
        fx.analyzer()
            .check(&nginx(), &registry, &session("s"))
            .unwrap()
            .from_cache
    );
}

#[test]
fn an_entry_whose_risks_were_removed_is_not_trusted() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    fx.analyzer()
        .check(&nginx(), &registry, &session("s"))
        .unwrap();
    let [file] = entries(&fx).try_into().unwrap();
    let mut v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    v["scan"]["risks"] = json!([]);
    std::fs::write(&file, serde_json::to_vec(&v).unwrap()).unwrap();
    // not interactive, no flag: the sudo node must still be found and refused
    let options = AnalyzeOptions {
        session_id: Some("s".into()),
        ..AnalyzeOptions::default()
    };
    let err = fx
        .analyzer()
        .check(&nginx(), &registry, &options)
        .unwrap_err();
    match err {
        WorkflowError::NotAccepted(e) => assert_eq!(e.risk.node_id, "restart"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_policy_registry_or_workflow_change_is_another_entry() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    fx.analyzer()
        .check(&nginx(), &registry, &session("s"))
        .unwrap();
    // another policy (a longer approval timeout): analyzed again
    let policy = Policy::load_with(
        &fx.project(),
        &Locations::isolated(fx.root()),
        &CliOverrides {
            approval_timeout: Some(77),
            ..CliOverrides::default()
        },
    )
    .unwrap();
    let mut other_policy = WorkflowRiskAnalyzer::new(Gate::new(policy).without_audit());
    assert!(
        !other_policy
            .check(&nginx(), &registry, &session("s"))
            .unwrap()
            .from_cache
    );
    // another registry: a pattern added to `shell`
    let mut reg2 = NodeRegistry::builtin();
    reg2.load_str(
        r#"{"node_types": {"shell": {"parameters": [{"name": "command", "analyzer": "shell"}], "RISK_PATTERNS": {"HIGH": ["echo "]}}}}"#,
        riskgate_workflow::Format::Json,
        "test",
    )
    .unwrap();
    let r = fx.analyzer().check(&nginx(), &reg2, &session("s")).unwrap();
    assert!(!r.from_cache);
    assert!(
        r.risks.iter().any(|x| x.node_id == "hello"),
        "{:?}",
        r.risks
    );
    // another command in a node
    let changed = workflow(vec![
        shell("hello", "echo hello"),
        shell("restart", "sudo systemctl restart apache2"),
    ]);
    assert!(
        !fx.analyzer()
            .check(&changed, &registry, &session("s"))
            .unwrap()
            .from_cache
    );
    // the original is still a hit
    assert!(
        fx.analyzer()
            .check(&nginx(), &registry, &session("s"))
            .unwrap()
            .from_cache
    );
}

#[test]
fn a_critical_workflow_is_analyzed_every_time() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    let ir = workflow(vec![shell("dangerous", "rm -rf /")]);
    for _ in 0..2 {
        let mut a = fx.analyzer();
        assert!(matches!(
            a.check(&ir, &registry, &session("s")),
            Err(WorkflowError::Critical(_))
        ));
    }
    assert!(entries(&fx).is_empty());
}

// --- the node's own type in stored answers -------------------------------------------------

fn deploy_registry() -> NodeRegistry {
    let mut r = NodeRegistry::builtin();
    r.load_str(
        r#"{"node_types": {"deploy": {"parameters": ["target"], "RISK_PATTERNS": {"HIGH": ["prod"]}}}}"#,
        riskgate_workflow::Format::Json,
        "test",
    )
    .unwrap();
    r
}

fn deploy(id: &str, target: &str) -> Value {
    json!({"id": id, "node_type": "deploy", "config": {"target": target}})
}

#[test]
fn always_stores_the_node_type_and_applies_to_nodes_of_that_type() {
    let fx = Fixture::new();
    let registry = deploy_registry();
    let ir = workflow(vec![deploy("ship", "prod-eu")]);
    fx.analyzer_answering(Answer::Always)
        .check(&ir, &registry, &interactive())
        .unwrap();
    let v = fx.read_settings();
    let entry = &v["risk_acceptance"]["approved_patterns"][0];
    assert_eq!(entry["pattern"], "prod-eu");
    assert_eq!(entry["node_type"], "deploy");
    // honoured for a deploy node, without asking
    let r = fx
        .analyzer()
        .check(&ir, &registry, &AnalyzeOptions::default())
        .unwrap();
    assert_eq!(r.decisions[0].decided_by, "approval");
    // not for another node type with the same value
    let other = workflow(vec![shell("run", "prod-eu")]);
    let mut reg = deploy_registry();
    reg.load_str(
        r#"{"node_types": {"shell": {"parameters": ["command"], "RISK_PATTERNS": {"HIGH": ["prod"]}}}}"#,
        riskgate_workflow::Format::Json,
        "test",
    )
    .unwrap();
    let err = fx
        .analyzer()
        .check(&other, &reg, &AnalyzeOptions::default())
        .unwrap_err();
    assert!(matches!(err, WorkflowError::NotAccepted(_)), "{err:?}");
}

#[test]
fn always_on_a_shell_node_stores_shell() {
    let fx = Fixture::new();
    fx.analyzer_answering(Answer::Always)
        .check(&nginx(), &NodeRegistry::builtin(), &interactive())
        .unwrap();
    let v = fx.read_settings();
    assert_eq!(
        v["risk_acceptance"]["approved_patterns"][0]["node_type"],
        "shell"
    );
}

#[test]
fn old_command_entries_still_approve_shell_nodes() {
    let fx = Fixture::new();
    fx.write_settings(json!({"risk_acceptance": {"approved_patterns": [
        {"pattern": "sudo systemctl restart nginx", "node_type": "command",
         "approved_at": "2024-01-15T10:30:00Z", "expires_at": "2999-01-01T00:00:00Z"}
    ]}}));
    let r = fx
        .analyzer()
        .check(
            &nginx(),
            &NodeRegistry::builtin(),
            &AnalyzeOptions::default(),
        )
        .unwrap();
    assert_eq!(r.skipped.len(), 1);
}

#[test]
fn never_stores_the_node_type_and_the_denial_holds_for_every_kind() {
    let fx = Fixture::new();
    let registry = deploy_registry();
    let ir = workflow(vec![deploy("ship", "prod-eu")]);
    let err = fx
        .analyzer_answering(Answer::Never)
        .check(&ir, &registry, &interactive())
        .unwrap_err();
    assert!(matches!(err, WorkflowError::NotAccepted(_)));
    let v = fx.read_settings();
    assert_eq!(
        v["risk_acceptance"]["denied_patterns"][0]["node_type"],
        "deploy"
    );
    // a shell node with the same value is denied too, even forced
    let mut reg = deploy_registry();
    reg.load_str(
        r#"{"node_types": {"shell": {"parameters": ["command"], "RISK_PATTERNS": {"HIGH": ["prod"]}}}}"#,
        riskgate_workflow::Format::Json,
        "test",
    )
    .unwrap();
    let forced = AnalyzeOptions {
        force: true,
        ..AnalyzeOptions::default()
    };
    match fx
        .analyzer()
        .check(&workflow(vec![shell("run", "prod-eu")]), &reg, &forced)
    {
        Err(WorkflowError::NotAccepted(e)) => assert_eq!(e.refusal, Refusal::StandingDenial),
        other => panic!("expected a standing denial, got {other:?}"),
    }
}
