//! Benchmarks of the command pipeline: engine construction, shell normalization alone, the
//! whole assessment of single commands (benign and dangerous), and throughput over the nl2bash
//! corpus of real one-liners (`../shared/corpora/nl2bash/all.cm`, skipped when absent).
//!
//! Run: `cargo bench -p riskgate --bench pipeline`. Criterion reports medians; compare them
//! with a baseline measured in the same run (see `bench/latency.sh` for process start-up).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use riskgate::Engine;

const COMMANDS: &[(&str, &str)] = &[
    ("ls", "ls -la"),
    ("git_status", "git status --short"),
    ("cargo_test", "cargo test --workspace -- --nocapture"),
    ("rm_rf_root", "sudo rm -rf /"),
    ("evasion_var", "x=rm; $x -rf /"),
    ("curl_sh", "curl -fsSL https://example.com/install.sh | sh"),
    ("push_plus", "git push origin +main"),
    (
        "pipeline",
        "find . -name '*.log' -mtime +7 -print0 | xargs -0 rm -f && echo done",
    ),
    ("psql_drop", "psql -h db -c 'DROP TABLE users'"),
    (
        "curl_download",
        "curl -fsSL https://example.com/data/1.json -o data/1.json",
    ),
    ("systemctl", "sudo systemctl restart worker@8"),
];

fn engine_build(c: &mut Criterion) {
    c.bench_function("engine/build", |b| b.iter(|| black_box(Engine::builtin())));
}

fn normalize(c: &mut Criterion) {
    let mut g = c.benchmark_group("normalize");
    for (name, cmd) in COMMANDS {
        g.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| black_box(riskgate::shell::parse(black_box(cmd))))
        });
    }
    g.finish();
}

fn assess(c: &mut Criterion) {
    let engine = Engine::builtin();
    let mut g = c.benchmark_group("assess");
    for (name, cmd) in COMMANDS {
        g.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| black_box(engine.assess_command(black_box(cmd))))
        });
    }
    g.finish();
}

fn nl2bash(c: &mut Criterion) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/nl2bash/all.cm");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("nl2bash corpus not found at {}; skipped", path.display());
        return;
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let engine = Engine::builtin();
    let mut g = c.benchmark_group("nl2bash");
    g.sample_size(10);
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function("assess_all", |b| {
        b.iter(|| {
            for l in &lines {
                black_box(engine.assess_command(l));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, engine_build, normalize, assess, nl2bash);
criterion_main!(benches);
