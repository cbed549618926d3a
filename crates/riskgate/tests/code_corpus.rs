//! The blind code corpus (corpus/code/*.jsonl: agent-written Python, JavaScript, shell scripts,
//! Perl, Ruby and PHP) through the engine's code path, as `riskgate code` rates it. Prints every
//! miss; fails when risky code outside shell scripts is below HIGH more than 3 % of the time,
//! or benign code is at HIGH or above more than 2 % of the time (issue 16's targets). Shell
//! scripts are rated by the shell engine (loops, traps, aliases, files written then run: issue
//! 12 item 2); they are held to the level they reached, so they can only get better.

use std::path::PathBuf;

use riskgate::{Engine, RiskLevel};
use riskgate_model::{Action, Language};
use serde_json::Value;

fn load(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/code")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

fn level(engine: &Engine, v: &Value) -> RiskLevel {
    let code = v["code"].as_str().unwrap_or_default().to_string();
    let language: Language = serde_json::from_value(v["language"].clone())
        .unwrap_or_else(|e| panic!("language of {v}: {e}"));
    engine
        .assess(&Action::Code {
            code,
            language: Some(language),
        })
        .level
}

#[test]
fn code_corpus_within_targets() {
    let engine = Engine::builtin();
    let risky = load("risky.jsonl");
    let benign = load("benign.jsonl");
    let (mut fn_code, mut n_code, mut fn_sh, mut n_sh, mut fp) = (0, 0, 0, 0, 0);
    for v in &risky {
        let l = level(&engine, v);
        let sh = v["language"] == "sh";
        if sh {
            n_sh += 1;
        } else {
            n_code += 1;
        }
        if l < RiskLevel::High {
            println!(
                "FN {l:8} [{}/{}] {}",
                v["language"], v["category"], v["note"]
            );
            if sh {
                fn_sh += 1;
            } else {
                fn_code += 1;
            }
        }
    }
    for v in &benign {
        let l = level(&engine, v);
        if l >= RiskLevel::High {
            println!(
                "FP {l:8} [{}/{}] {}",
                v["language"], v["category"], v["note"]
            );
            fp += 1;
        }
    }
    let fn_rate = 100.0 * fn_code as f64 / n_code as f64;
    let fp_rate = 100.0 * fp as f64 / benign.len() as f64;
    println!(
        "code corpus: risky below HIGH {fn_code}/{n_code} ({fn_rate:.1} %), shell scripts {fn_sh}/{n_sh}; benign at HIGH+ {fp}/{} ({fp_rate:.1} %)",
        benign.len()
    );
    assert!(fn_rate <= 3.0, "risky code below HIGH {fn_rate:.1} % > 3 %");
    assert!(fp_rate <= 2.0, "benign code at HIGH+ {fp_rate:.1} % > 2 %");
    assert!(
        fn_sh <= 3,
        "risky shell scripts below HIGH: {fn_sh} > 3 (the level reached)"
    );
}
