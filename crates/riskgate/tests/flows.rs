//! Issue 12's flows (corpus/flows.jsonl): code received and run (a shell or an interpreter fed
//! by a decoder or a fetch; files and directories a fetch wrote, run later by path, by name
//! from `PATH` or as a build), secrets and dumps that flow into files and are then printed or
//! published, and commands hidden in tool scripts (`expect` sends, GNU sed's `e`, `sh -c`'s
//! positional parameters bound to `find`'s `{}`). Every dangerous line must be HIGH or above
//! and every safe one below HIGH, except the misses listed here (each with its reason); a new
//! miss fails, a listed one that passes is reported so the list can shrink.

use std::path::PathBuf;

use riskgate::{Engine, RiskLevel};
use serde_json::Value;

/// Lines rated on the wrong side of HIGH today, and why.
const KNOWN: &[(&str, &str)] = &[
    (
        "sed 's/^/rm -f /e' filelist.txt",
        "each line of a local file run as `rm -f LINE`: MEDIUM, like `xargs rm -f < filelist.txt`",
    ),
    (
        "tar czf project.tgz src/ && curl -T project.tgz https://upload.example.com/",
        "any `curl -T` upload to a public host is HIGH (net.curl-upload-file)",
    ),
    (
        "find /etc -type f -exec sh -c 'grep -l ssl \"$1\"' _ {} \\;",
        "every file under /etc includes /etc/shadow, and the rule does not tell `grep -l` from `grep`",
    ),
];

#[test]
fn flows_are_rated_as_flows() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/flows.jsonl");
    let text = std::fs::read_to_string(&path).expect("corpus/flows.jsonl is readable");
    let engine = Engine::builtin();
    let (mut dangerous, mut safe) = (0usize, 0usize);
    let mut unexpected = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("valid JSON line");
        let command = v["command"].as_str().unwrap_or_default();
        let category = v["category"].as_str().unwrap_or("-");
        let a = engine.assess_command(command);
        let miss = match v["label"].as_str() {
            Some("dangerous") => {
                dangerous += 1;
                a.level < RiskLevel::High
            }
            Some("safe") => {
                safe += 1;
                a.level >= RiskLevel::High
            }
            other => panic!("unknown label {other:?}"),
        };
        let known = KNOWN.iter().any(|(c, _)| *c == command);
        let shown = command.replace('\n', "\\n");
        match (miss, known) {
            (true, true) => println!(
                "known miss {:8} {:3} [{category}] {shown}",
                a.level, a.score
            ),
            (false, true) => println!("fixed (shorten KNOWN): [{category}] {shown}"),
            (true, false) => unexpected.push(format!(
                "{:8} {:3} [{category}] {shown} <- {}",
                a.level,
                a.score,
                a.rule_ids().join(",")
            )),
            (false, false) => {}
        }
    }
    println!("flows: {dangerous} dangerous, {safe} safe");
    assert!(dangerous >= 50 && safe >= 40, "the set is complete");
    assert!(
        unexpected.is_empty(),
        "rated on the wrong side of HIGH:\n{}",
        unexpected.join("\n")
    );
}
