//! Measure the engine on the labelled corpus (`corpus/*.jsonl`): false negatives (dangerous
//! rated below HIGH) and false positives (safe rated HIGH or more), each miss with its category.
//!
//! `cargo run -p riskgate-rules --example corpus [-- CORPUS_DIR]`

use riskgate_model::RiskLevel;
use riskgate_rules::CommandEngine;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus".to_string());
    let engine = CommandEngine::builtin();
    for (file, dangerous) in [("dangerous", true), ("evasions", true), ("safe", false)] {
        let path = format!("{dir}/{file}.jsonl");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let (mut total, mut misses) = (0usize, 0usize);
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let command = v["command"].as_str().unwrap_or("");
            let a = engine.assess(command);
            total += 1;
            let miss = if dangerous {
                a.level < RiskLevel::High
            } else {
                a.level >= RiskLevel::High
            };
            if miss {
                misses += 1;
                let tag = v
                    .get("technique")
                    .or_else(|| v.get("trap"))
                    .and_then(|t| t.as_str())
                    .unwrap_or("");
                println!(
                    "{file}\t{}\t{tag}\t{}\t{}\t{:?}",
                    v["category"].as_str().unwrap_or(""),
                    a.level,
                    command.replace('\n', "\\n"),
                    a.rule_ids()
                );
            }
        }
        println!(
            "== {file}: {misses}/{total} {} ({:.2} %)",
            if dangerous {
                "false negatives"
            } else {
                "false positives"
            },
            100.0 * misses as f64 / total.max(1) as f64
        );
    }
}
