//! The labelled corpus (corpus/*.jsonl) through the whole engine: dangerous commands and
//! evasions must be rated HIGH or above, safe ones below HIGH. Prints every miss, and fails
//! above 1 % false negatives or 2 % false positives (seed 004's targets).

use std::path::PathBuf;

use riskgate::{Engine, RiskLevel};
use serde_json::Value;

struct Entry {
    command: String,
    label: String,
    /// `dangerous` or `safe` for files that mix both (`round2.jsonl`).
    truth: Option<String>,
}

fn load(name: &str) -> Vec<Entry> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{}: invalid JSON: {e}", path.display(), i + 1));
        let command = v["command"].as_str().unwrap_or_default().to_string();
        let label = ["technique", "trap", "category"]
            .iter()
            .find_map(|k| v[*k].as_str())
            .unwrap_or("-")
            .to_string();
        let truth = v["label"].as_str().map(str::to_string);
        out.push(Entry {
            command,
            label,
            truth,
        });
    }
    out
}

#[test]
fn corpus_false_negatives_and_false_positives() {
    let engine = Engine::builtin();
    let mut dangerous = load("dangerous.jsonl");
    let evasions = load("evasions.jsonl");
    let n_evasions = evasions.len();
    dangerous.extend(evasions);
    let mut safe = load("safe.jsonl");
    for e in load("round2.jsonl")
        .into_iter()
        .chain(load("round3.jsonl"))
        .chain(load("round4.jsonl"))
        .chain(load("round5.jsonl"))
        .chain(load("round7.jsonl"))
        .chain(load("round6.jsonl"))
        .chain(load("round8.jsonl"))
        .chain(load("round9.jsonl"))
    {
        match e.truth.as_deref() {
            Some("dangerous") => dangerous.push(e),
            Some("safe") => safe.push(e),
            other => panic!("unknown label {other:?} for {}", e.command),
        }
    }

    let mut misses = Vec::new();
    for e in &dangerous {
        let a = engine.assess_command(&e.command);
        if a.level < RiskLevel::High {
            misses.push(format!(
                "FN {:8} {:3} [{}] {}",
                a.level, a.score, e.label, e.command
            ));
        }
    }
    let fn_count = misses.len();
    for e in &safe {
        let a = engine.assess_command(&e.command);
        if a.level >= RiskLevel::High {
            let rules = a.rule_ids().join(",");
            misses.push(format!(
                "FP {:8} {:3} [{}] {} <- {}",
                a.level, a.score, e.label, e.command, rules
            ));
        }
    }
    let fp_count = misses.len() - fn_count;
    for m in &misses {
        println!("{}", m.replace('\n', "\\n"));
    }
    let fn_rate = fn_count as f64 / dangerous.len() as f64 * 100.0;
    let fp_rate = fp_count as f64 / safe.len() as f64 * 100.0;
    println!(
        "corpus: {} dangerous (incl. {n_evasions} evasions), {} safe; FN {fn_count} ({fn_rate:.2} %), FP {fp_count} ({fp_rate:.2} %)",
        dangerous.len(),
        safe.len()
    );
    assert!(fn_rate <= 1.0, "false negatives {fn_rate:.2} % > 1 %");
    assert!(fp_rate <= 2.0, "false positives {fp_rate:.2} % > 2 %");
}
