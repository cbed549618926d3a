//! Round 7 (corpus/round7.jsonl): whole scripts as agents write them, written blind. Prints
//! every miss with its category; fails above 2 % dangerous below HIGH, or above the safe
//! scripts rated HIGH+ today (the eight left are single-command rules outside script
//! following, listed in corpus/README.md; the target is 1 %).

use std::path::PathBuf;

use riskgate::{Engine, RiskLevel};
use serde_json::Value;

/// Safe scripts rated HIGH+ today (see the module doc); lower it as they are fixed.
const MAX_FP: usize = 8;

#[test]
fn round7_scripts() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/round7.jsonl");
    let text = std::fs::read_to_string(&path).expect("corpus/round7.jsonl is readable");
    let engine = Engine::builtin();
    let (mut dangerous, mut safe, mut fneg, mut fpos) = (0usize, 0usize, 0usize, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("valid JSON line");
        let command = v["command"].as_str().unwrap_or_default();
        let category = v["category"].as_str().unwrap_or("-");
        let a = engine.assess_command(command);
        match v["label"].as_str() {
            Some("dangerous") => {
                dangerous += 1;
                if a.level < RiskLevel::High {
                    fneg += 1;
                    println!(
                        "FN {:8} {:3} [{category}] {}",
                        a.level,
                        a.score,
                        command.replace('\n', "\\n")
                    );
                }
            }
            Some("safe") => {
                safe += 1;
                if a.level >= RiskLevel::High {
                    fpos += 1;
                    println!(
                        "FP {:8} {:3} [{category}] {} <- {}",
                        a.level,
                        a.score,
                        command.replace('\n', "\\n"),
                        a.rule_ids().join(",")
                    );
                }
            }
            other => panic!("unknown label {other:?}"),
        }
    }
    let fn_rate = fneg as f64 / dangerous as f64 * 100.0;
    let fp_rate = fpos as f64 / safe as f64 * 100.0;
    println!(
        "round7: {dangerous} dangerous, {safe} safe; FN {fneg} ({fn_rate:.2} %), FP {fpos} ({fp_rate:.2} %)"
    );
    assert!(
        fn_rate <= 2.0,
        "round7 dangerous below HIGH {fn_rate:.2} % > 2 %"
    );
    assert!(fpos <= MAX_FP, "round7 safe at HIGH+ {fpos} > {MAX_FP}");
}
