//! The metamorphic wrapping generator (issue 11): every dangerous command of the labelled
//! corpus, wrapped in every semantics-preserving wrapper of [`table::WRAPPERS`] whose
//! conditions it meets ([`shape::Shape`], [`table::Need`]).

pub mod shape;
pub mod table;

use std::path::PathBuf;

/// Dangerous commands of issue 11's report that the corpus holds in another spelling only:
/// shell-state builtins, a leading assignment, a mode operand, `find … {} +`.
const ISSUE_SEEDS: &[&str] = &[
    "AWS_PROFILE=prod aws s3 rb s3://acme-prod-logs --force",
    "chmod u+s /bin/bash",
    "find /var/log -type f -exec truncate -s 0 {} +",
    "find / -maxdepth 1 -mindepth 1 -exec rm -rf {} +",
    "set +o history",
    "unset HISTFILE",
    "HISTSIZE=0",
    "export HISTFILE=/dev/null",
];

/// Every command labelled dangerous in corpus/*.jsonl, each once, in file order, then
/// [`ISSUE_SEEDS`].
pub fn dangerous_commands() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in [
        "dangerous.jsonl",
        "evasions.jsonl",
        "round2.jsonl",
        "round3.jsonl",
        "round4.jsonl",
        "round5.jsonl",
    ] {
        let path = root.join(f);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}: invalid JSON: {e}", path.display()));
            if v["label"].as_str().unwrap_or("dangerous") != "dangerous" {
                continue;
            }
            if let Some(c) = v["command"].as_str()
                && seen.insert(c.to_string())
            {
                out.push(c.to_string());
            }
        }
    }
    for c in ISSUE_SEEDS {
        if seen.insert(c.to_string()) {
            out.push(c.to_string());
        }
    }
    out
}
