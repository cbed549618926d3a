//! The analysis of a 100-node workflow (seed 000: < 100 ms; riskgate's budget: ≤ 1 ms).
//!
//! - `scan_cold`: the analysis itself — every node's parameters through the RISK_PATTERNS and
//!   the shell and SQL parameters through the full engine, sorted, deduplicated, hashed; each
//!   command distinct, no cache of any kind.
//! - `scan_patterns_only`: the same with the seed's pattern layer alone (no engine).
//! - `scan_one_node_edited`: an analyzer re-analyzing the workflow after one shell node was
//!   changed to a command it has never seen (the other verdicts are remembered).
//! - `check_forced`: the whole procedure with `--force`, within 5 minutes of the last analysis
//!   (the analysis is reused; the gate decides each of the 40 risks; no audit).
//!
//! `cargo bench -p riskgate-workflow --bench workflow`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use riskgate::gate::{CliOverrides, Gate, Locations, Policy};
use riskgate_workflow::{
    AnalyzeOptions, Format, NodeRegistry, WorkflowIr, WorkflowRiskAnalyzer, scan::scan,
};
use serde_json::{Value, json};

/// 100 nodes of a realistic mix: shell steps (builds, tests, fetches, a few privileged),
/// git, SQL, HTTP, file writes, an agent and LLM calls, chained by edges.
fn hundred_nodes() -> WorkflowIr {
    let node = |i: usize| -> Value {
        let id = format!("step-{i:03}");
        match i % 10 {
            0 => {
                json!({"id": id, "type": "shell", "params": {"command": format!("cargo build --release -p app{i} && ./target/release/app{i} --check")}})
            }
            1 => {
                json!({"id": id, "type": "shell", "params": {"command": format!("curl -fsSL https://example.com/data/{i}.json -o data/{i}.json")}})
            }
            2 => {
                json!({"id": id, "type": "llm", "params": {"prompt": format!("Summarize the report for part {i}")}})
            }
            3 => {
                json!({"id": id, "type": "http", "params": {"method": "POST", "url": format!("https://api.example.com/v1/items/{i}"), "body": "{\"ok\": true}"}})
            }
            4 => {
                json!({"id": id, "type": "write_file", "params": {"path": format!("out/report-{i}.md"), "content": "# Report"}})
            }
            5 => {
                json!({"id": id, "type": "sql", "params": {"query": format!("UPDATE jobs SET state = 'done' WHERE id = {i}")}})
            }
            6 => {
                json!({"id": id, "type": "git", "params": {"command": format!("commit -am 'step {i}'")}})
            }
            7 => {
                json!({"id": id, "type": "claude_code", "params": {"prompt": format!("Fix the failing test in module {i} and run the suite")}})
            }
            8 => {
                json!({"id": id, "type": "shell", "params": {"command": format!("sudo systemctl restart worker@{i}")}})
            }
            _ => {
                json!({"id": id, "type": "shell", "params": {"command": format!("find build/{i} -name '*.o' -delete; ls -la build/{i} | wc -l")}})
            }
        }
    };
    let nodes: Vec<Value> = (0..100).map(node).collect();
    let edges: Vec<Value> = (1..100)
        .map(|i| json!({"from": format!("step-{:03}", i - 1), "to": format!("step-{i:03}")}))
        .collect();
    WorkflowIr::from_value(&json!({"nodes": nodes, "edges": edges})).expect("valid IR")
}

/// The built-in shell, git and SQL types with their parameters analyzed by patterns only.
const PATTERNS_ONLY: &str = "node_types:
  shell:
    parameters: [command]
    risk_patterns: {CRITICAL: [':(){ :|:& };:', 'mkfs.'], HIGH: ['sudo ', 'rm -rf ', 'curl * | sh', 'systemctl restart'], MEDIUM: ['curl ', 'rm -', 'mv ', 'chmod ']}
  git:
    parameters: [command]
    risk_patterns: {HIGH: ['--force', 'reset --hard'], MEDIUM: [push, rebase]}
  sql:
    parameters: [query]
    risk_patterns: {CRITICAL: ['drop database'], HIGH: ['drop table', 'delete from'], MEDIUM: ['update ', 'insert into']}
";

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let policy = Policy::load_with(
        dir.path(),
        &Locations::isolated(dir.path()),
        &CliOverrides::default(),
    )
    .expect("policy");
    let registry = NodeRegistry::builtin();
    let ir = hundred_nodes();
    let mut analyzer =
        WorkflowRiskAnalyzer::new(Gate::new(policy).without_audit()).with_display(std::io::sink());
    let first = analyzer.scan(&ir, &registry);
    assert_eq!(first.nodes_analyzed, 90);
    assert!(!first.risks.is_empty());

    let mut group = c.benchmark_group("workflow_100_nodes");
    let engine = riskgate::Engine::builtin();
    group.bench_function("scan_cold", |b| {
        b.iter(|| scan(black_box(&ir), &registry, &engine, None, true).expect("no CRITICAL"))
    });
    let mut patterns_only = NodeRegistry::builtin();
    patterns_only
        .load_str(PATTERNS_ONLY, Format::Yaml, "bench")
        .expect("registry");
    group.bench_function("scan_patterns_only", |b| {
        b.iter(|| scan(black_box(&ir), &patterns_only, &engine, None, true).expect("no CRITICAL"))
    });
    let mut n = 0u64;
    group.bench_function("scan_one_node_edited", |b| {
        b.iter_batched(
            || {
                n += 1;
                let mut edited = ir.clone();
                edited.nodes[0]
                    .config
                    .insert("command".into(), json!(format!("make -C build/{n} all")));
                edited
            },
            |edited| analyzer.scan(&edited, &registry),
            criterion::BatchSize::SmallInput,
        )
    });
    let forced = AnalyzeOptions {
        force: true,
        ..AnalyzeOptions::default()
    };
    group.bench_function("check_forced", |b| {
        b.iter(|| {
            analyzer
                .check(black_box(&ir), &registry, &forced)
                .expect("no CRITICAL risk")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
