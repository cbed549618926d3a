//! `riskgate log export --format jsonl|otlp-json`: every recorded decision, oldest first, as
//! JSON lines or as one OTLP/JSON logs request.

mod common;
use common::riskgate;

use serde_json::Value;

fn record_three(dir: &std::path::Path) {
    for c in ["ls -la", "git push --force origin main", "rm -rf /"] {
        // exit codes differ by decision; only the records matter here
        riskgate(dir)
            .args(["check", "--no-prompt", "--", c])
            .output()
            .unwrap();
    }
}

#[test]
fn jsonl_has_one_record_per_line_oldest_first() {
    let dir = tempfile::tempdir().unwrap();
    record_three(dir.path());
    let out = riskgate(dir.path())
        .args(["log", "export", "--format", "jsonl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["input"], "ls -la");
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(lines[2]["input"], "rm -rf /");
    assert_eq!(lines[2]["decision"], "deny");
    assert_eq!(lines[2]["level"], "CRITICAL");
    // filters apply, after the subcommand too
    let out = riskgate(dir.path())
        .args(["log", "export", "--format", "jsonl", "--decision", "deny"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn otlp_json_is_a_logs_request_with_severity_time_and_attributes() {
    let dir = tempfile::tempdir().unwrap();
    record_three(dir.path());
    let file = dir.path().join("logs.json");
    let out = riskgate(dir.path())
        .args(["log", "export", "--format", "otlp-json", "--output"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let rl = &doc["resourceLogs"][0];
    let res = rl["resource"]["attributes"].as_array().unwrap();
    assert!(
        res.iter()
            .any(|a| a["key"] == "service.name" && a["value"]["stringValue"] == "riskgate")
    );
    let records = rl["scopeLogs"][0]["logRecords"].as_array().unwrap();
    assert_eq!(records.len(), 3);
    let attr = |r: &Value, key: &str| -> Value {
        r["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| a["value"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(records[0]["severityText"], "INFO");
    assert_eq!(records[1]["severityText"], "ERROR");
    assert_eq!(records[1]["severityNumber"], 17);
    assert_eq!(records[2]["severityText"], "FATAL");
    assert_eq!(
        attr(&records[2], "riskgate.decision")["stringValue"],
        "deny"
    );
    assert_eq!(
        attr(&records[2], "riskgate.input")["stringValue"],
        "rm -rf /"
    );
    assert!(attr(&records[2], "riskgate.score")["intValue"].is_string());
    // 64-bit integers are strings in OTLP/JSON; times are nanoseconds since the epoch
    let t: u128 = records[0]["timeUnixNano"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(t > 1_600_000_000_000_000_000);
    assert!(
        records[2]["body"]["stringValue"]
            .as_str()
            .unwrap()
            .contains("CRITICAL")
    );
}
