//! Seed 000's test criteria about the analysis itself: 1-9, 23, 24, 26 and 28 (and the
//! registry's error cases). The decision criteria are in `criteria_decisions.rs`.

mod common;

use std::time::{Duration, Instant};

use common::{Fixture, forced, opts, shell, workflow};
use riskgate::RiskLevel;
use riskgate_workflow::matcher::Subject;
use riskgate_workflow::{
    Format, NodeRegistry, RegistryError, RiskSource, WorkflowError, WorkflowIr,
};
use serde_json::json;

fn registry_with(yaml: &str) -> NodeRegistry {
    let mut r = NodeRegistry::builtin();
    r.load_str(yaml, Format::Yaml, "test registry")
        .expect("registry loads");
    r
}

#[test]
fn criterion_01_shell_rm_rf_root_raises_critical_risk_error() {
    let fx = Fixture::new();
    let ir = WorkflowIr::from_json_str(
        r#"{"nodes": [{"id": "dangerous", "node_type": "shell", "config": {"command": "rm -rf /"}}]}"#,
    )
    .unwrap();
    let err = fx
        .analyzer()
        .analyze(&ir, &NodeRegistry::builtin(), &opts())
        .unwrap_err();
    let WorkflowError::Critical(e) = err else {
        panic!("expected CriticalRiskError, got {err:?}");
    };
    assert_eq!(e.risk.level, RiskLevel::Critical);
    assert_eq!(e.risk.node_id, "dangerous");
    assert_eq!(e.risk.node_type, "shell");
    assert_eq!(e.risk.parameter_name, "command");
    assert!(e.to_string().contains("not even with --force"), "{e}");
    // the engine found it (the shell parser sees the root deletion) …
    assert_eq!(e.risk.source, RiskSource::Engine, "{:?}", e.risk);
    assert_eq!(e.risk.pattern, "fs.rm-recursive-root");
    // … and evasions the substring patterns cannot see are CRITICAL too
    for cmd in [
        "x=rm; $x -rf /",
        "sudo /bin/rm -r -f /",
        "timeout 5 rm -rf /",
    ] {
        let ir = workflow(vec![shell("evasive", cmd)]);
        let err = fx
            .analyzer()
            .analyze(&ir, &NodeRegistry::builtin(), &forced())
            .unwrap_err();
        assert!(matches!(err, WorkflowError::Critical(_)), "{cmd}: {err:?}");
    }
}

#[test]
fn criterion_02_shell_sudo_command_is_a_high_risk() {
    let fx = Fixture::new();
    let ir = workflow(vec![shell("restart", "sudo systemctl restart nginx")]);
    let risks = fx
        .analyzer()
        .analyze(&ir, &NodeRegistry::builtin(), &forced())
        .unwrap();
    assert_eq!(risks.len(), 1, "{risks:?}");
    let r = &risks[0];
    assert_eq!(
        (
            r.level,
            r.node_id.as_str(),
            r.node_type.as_str(),
            r.parameter_name.as_str()
        ),
        (RiskLevel::High, "restart", "shell", "command")
    );
    assert_eq!(r.pattern, "sudo ");
    assert_eq!(r.source, RiskSource::Pattern);
    assert!(
        r.description.contains("HIGH pattern `sudo `"),
        "{}",
        r.description
    );
}

#[test]
fn criterion_03_shell_echo_hello_has_no_risk() {
    let fx = Fixture::new();
    let ir = workflow(vec![shell("hi", "echo hello")]);
    let risks = fx
        .analyzer()
        .analyze(&ir, &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert!(risks.is_empty(), "{risks:?}");
}

#[test]
fn criterion_04_unknown_node_type_is_skipped_silently() {
    let fx = Fixture::new();
    let ir = workflow(vec![
        json!({"id": "f", "type": "fake", "params": {"command": "rm -rf /"}}),
    ]);
    let report = fx
        .analyzer()
        .check(&ir, &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert!(report.risks.is_empty());
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(report.nodes_skipped, vec!["f".to_string()]);
    assert_eq!(report.nodes_analyzed, 0);
}

#[test]
fn criterion_05_node_type_without_risk_patterns_is_skipped() {
    let fx = Fixture::new();
    let registry = registry_with("node_types:\n  notifier:\n    parameters: [message]\n");
    let ir = workflow(vec![
        json!({"id": "n", "type": "notifier", "params": {"message": "sudo rm -rf /"}}),
        json!({"id": "l", "type": "llm", "params": {"prompt": "sudo rm -rf /"}}),
    ]);
    let report = fx.analyzer().check(&ir, &registry, &opts()).unwrap();
    assert!(report.risks.is_empty(), "{:?}", report.risks);
    assert_eq!(report.nodes_skipped, vec!["n".to_string(), "l".to_string()]);
}

#[test]
fn criterion_06_braced_template_normalized_to_star() {
    assert_eq!(
        Subject::new("sudo rm -rf ${path}").as_str(),
        "sudo rm -rf *"
    );
    let fx = Fixture::new();
    // the template is not evaluated: `${path}` is not `/`, so HIGH (`sudo `), not CRITICAL
    let ir = workflow(vec![shell("clean", "sudo rm -rf ${path}")]);
    let risks = fx
        .analyzer()
        .analyze(&ir, &NodeRegistry::builtin(), &forced())
        .unwrap();
    assert_eq!(risks.len(), 1);
    assert_eq!(
        (risks[0].level, risks[0].pattern.as_str()),
        (RiskLevel::High, "sudo ")
    );
    // a pattern matches across the template as across any text
    let registry = registry_with(
        "node_types:\n  deploy:\n    parameters: [target]\n    risk_patterns:\n      HIGH: ['deploy * --prod']\n",
    );
    let ir = workflow(vec![
        json!({"id": "d", "type": "deploy", "params": {"target": "deploy ${service} --prod"}}),
    ]);
    let risks = fx.analyzer().analyze(&ir, &registry, &forced()).unwrap();
    assert_eq!(risks.len(), 1);
    assert_eq!(risks[0].level, RiskLevel::High);
}

#[test]
fn criterion_07_bare_template_normalized_to_star() {
    assert_eq!(Subject::new("sudo rm -rf $path").as_str(), "sudo rm -rf *");
    assert_eq!(Subject::new("cp $SRC_1 $dst").as_str(), "cp * *");
    let fx = Fixture::new();
    let registry = registry_with(
        "node_types:\n  copy:\n    parameters: [cmd]\n    risk_patterns:\n      MEDIUM: ['cp * *']\n      HIGH: ['cp * /etc/']\n",
    );
    let ir = workflow(vec![
        json!({"id": "a", "type": "copy", "params": {"cmd": "cp $src $dst"}}),
        json!({"id": "b", "type": "copy", "params": {"cmd": "cp $src /etc/hosts"}}),
    ]);
    let risks = fx.analyzer().analyze(&ir, &registry, &forced()).unwrap();
    let levels: Vec<_> = risks
        .iter()
        .map(|r| (r.node_id.as_str(), r.level))
        .collect();
    assert_eq!(
        levels,
        vec![("b", RiskLevel::High), ("a", RiskLevel::Medium)]
    );
}

#[test]
fn criterion_08_duplicate_risks_are_deduplicated() {
    let fx = Fixture::new();
    // the same node listed twice, and a pattern listed twice in the registry
    let registry = registry_with(
        "node_types:\n  ops:\n    parameters: [cmd]\n    risk_patterns:\n      HIGH: ['sudo ', 'SUDO ']\n",
    );
    let node = json!({"id": "r", "type": "ops", "params": {"cmd": "sudo reboot"}});
    let ir = workflow(vec![node.clone(), node]);
    let report = fx.analyzer().check(&ir, &registry, &forced()).unwrap();
    assert_eq!(report.risks.len(), 1, "{:?}", report.risks);
    assert_eq!(report.nodes_analyzed, 2);
    assert!(
        report.warnings.iter().any(|w| w.contains("node id `r`")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn criterion_09_mixed_levels_sorted_critical_high_medium_then_node_id() {
    let fx = Fixture::new();
    let ir = workflow(vec![
        shell("z-fetch", "curl https://example.com/data.json -o data.json"),
        shell("b-restart", "sudo systemctl restart nginx"),
        shell("a-wipe", "rm -rf /"),
        shell("m-install", "pip install requests"),
        shell("a-update", "sudo apt update"),
    ]);
    let registry = NodeRegistry::builtin();
    let scan = fx.analyzer().scan(&ir, &registry);
    let got: Vec<_> = scan
        .risks
        .iter()
        .map(|r| (r.level, r.node_id.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (RiskLevel::Critical, "a-wipe"),
            (RiskLevel::High, "a-update"),
            (RiskLevel::High, "b-restart"),
            (RiskLevel::Medium, "m-install"),
            (RiskLevel::Medium, "z-fetch"),
        ]
    );
    // highest level per parameter: `rm -rf /` also matches MEDIUM `rm -`, reported once
    assert_eq!(
        scan.risks.iter().filter(|r| r.node_id == "a-wipe").count(),
        1
    );
}

#[test]
fn criterion_23_empty_workflow_has_no_risk() {
    let fx = Fixture::new();
    let ir = WorkflowIr::from_json_str(r#"{"nodes": []}"#).unwrap();
    let report = fx
        .analyzer()
        .check(&ir, &NodeRegistry::builtin(), &opts())
        .unwrap();
    assert!(report.risks.is_empty());
    assert_eq!(report.nodes_analyzed, 0);
}

#[test]
fn criterion_24_wildcard_pattern_matches_any_command() {
    let fx = Fixture::new();
    let registry = registry_with(
        "node_types:\n  anything:\n    parameters: [cmd]\n    risk_patterns:\n      HIGH: ['*']\n",
    );
    let ir = workflow(vec![
        json!({"id": "a", "type": "anything", "params": {"cmd": "ls"}}),
        json!({"id": "b", "type": "anything", "params": {"cmd": ""}}),
        json!({"id": "c", "type": "anything", "params": {"cmd": "echo ${x}"}}),
    ]);
    let risks = fx.analyzer().analyze(&ir, &registry, &forced()).unwrap();
    assert_eq!(risks.len(), 3);
    assert!(
        risks
            .iter()
            .all(|r| r.level == RiskLevel::High && r.pattern == "*")
    );
}

fn hundred_nodes() -> WorkflowIr {
    let kinds = [
        |i: usize| {
            shell(
                &format!("n{i:03}"),
                &format!("echo step {i} && ls -la /srv/app/{i}"),
            )
        },
        |i: usize| shell(&format!("n{i:03}"), &format!("git -C repo{i} status")),
        |i: usize| json!({"id": format!("n{i:03}"), "type": "llm", "params": {"prompt": format!("summarize part {i}")}}),
        |i: usize| json!({"id": format!("n{i:03}"), "type": "http", "params": {"method": "GET", "url": format!("https://api.example.com/items/{i}")}}),
        |i: usize| json!({"id": format!("n{i:03}"), "type": "write_file", "params": {"path": format!("out/{i}.txt"), "content": "ok"}}),
        |i: usize| json!({"id": format!("n{i:03}"), "type": "sql", "params": {"query": format!("SELECT * FROM t WHERE id = {i}")}}),
        |i: usize| {
            shell(
                &format!("n{i:03}"),
                &format!("curl -s https://example.com/{i} -o f{i}"),
            )
        },
        |i: usize| json!({"id": format!("n{i:03}"), "type": "claude_code", "params": {"prompt": format!("fix the failing test {i}")}}),
        |i: usize| json!({"id": format!("n{i:03}"), "type": "git", "params": {"command": format!("commit -m 'step {i}'")}}),
        |i: usize| {
            shell(
                &format!("n{i:03}"),
                &format!("python3 scripts/job_{i}.py --in data/{i}"),
            )
        },
    ];
    let nodes: Vec<_> = (0..100).map(|i| kinds[i % kinds.len()](i)).collect();
    workflow(nodes)
}

#[test]
fn criterion_26_analysis_of_100_nodes_under_100_ms() {
    let fx = Fixture::new();
    let registry = NodeRegistry::builtin();
    let ir = hundred_nodes();
    let analyzer = fx.analyzer();
    let _warm = analyzer.scan(&ir, &registry);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let scan = analyzer.scan(&ir, &registry);
        best = best.min(start.elapsed());
        assert_eq!(scan.nodes_analyzed, 90, "every node but the 10 llm nodes");
        assert!(
            scan.risks.iter().all(|r| r.level == RiskLevel::Medium),
            "{:?}",
            scan.risks
        );
    }
    // the seed's bound, met even by this unoptimized test build (the release benchmark is
    // `cargo bench -p riskgate-workflow`)
    assert!(best < Duration::from_millis(100), "100 nodes took {best:?}");
}

#[test]
fn criterion_28_circular_workflow_each_node_analyzed_once() {
    let fx = Fixture::new();
    let ir = WorkflowIr::from_value(&json!({
        "nodes": [shell("a", "sudo a"), shell("b", "sudo b"), shell("c", "sudo c")],
        "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "a"},
                  {"source": "c", "target": "b"}]
    }))
    .unwrap();
    assert_eq!(ir.visit_order(), vec![0, 1, 2]);
    let report = fx
        .analyzer()
        .check(&ir, &NodeRegistry::builtin(), &forced())
        .unwrap();
    assert_eq!(report.nodes_analyzed, 3);
    let ids: Vec<_> = report.risks.iter().map(|r| r.node_id.as_str()).collect();
    assert_eq!(ids, vec!["a", "b", "c"]);
}

#[test]
fn missing_registry_is_a_clear_error() {
    let fx = Fixture::new();
    let ir = workflow(vec![shell("a", "sudo reboot")]);
    let err = fx.analyzer().analyze(&ir, None, &opts()).unwrap_err();
    assert!(matches!(err, WorkflowError::MissingRegistry), "{err:?}");
    assert!(err.to_string().contains("no node registry"), "{err}");
    let missing = fx.root().join("nope.yaml");
    let err = NodeRegistry::from_file(&missing).unwrap_err();
    assert!(matches!(err, RegistryError::Missing { .. }), "{err:?}");
    assert!(err.to_string().contains("nope.yaml"), "{err}");
}

#[test]
fn invalid_risk_level_in_registry_is_skipped_with_a_warning() {
    let fx = Fixture::new();
    let path = fx.root().join("registry.json");
    std::fs::write(
        &path,
        r#"{"node_types": {"deploy": {"parameters": [{"name": "target", "analyzer": "text"}],
            "RISK_PATTERNS": {"SEVERE": ["prod"], "high": ["--force"]}}}}"#,
    )
    .unwrap();
    let registry = NodeRegistry::from_file(&path).unwrap();
    assert!(
        registry
            .warnings()
            .iter()
            .any(|w| w.contains("`SEVERE` skipped")),
        "{:?}",
        registry.warnings()
    );
    let ir = workflow(vec![
        json!({"id": "d", "type": "deploy", "params": {"target": "prod --force"}}),
    ]);
    let risks = fx.analyzer().analyze(&ir, &registry, &forced()).unwrap();
    assert_eq!(risks.len(), 1);
    assert_eq!(
        (risks[0].level, risks[0].pattern.as_str()),
        (RiskLevel::High, "--force")
    );
}
