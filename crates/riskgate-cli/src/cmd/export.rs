//! `riskgate log export --format jsonl|otlp-json`: the audit trail for a SIEM or an
//! OpenTelemetry collector, oldest record first.
//!
//! - `jsonl`: one audit record (the fields of `riskgate log --format json`) per line.
//! - `otlp-json`: one OTLP/JSON `ExportLogsServiceRequest` (the body a collector's
//!   `/v1/logs` receives): resource `service.name=riskgate`, `host.name`; a log record per
//!   decision with `timeUnixNano` (a string, as the OTLP JSON mapping writes 64-bit
//!   integers), severity from the level (SAFE/LOW INFO, MEDIUM WARN, HIGH ERROR, CRITICAL
//!   FATAL), the reason as body and the record's fields as `riskgate.*` attributes.

use riskgate::gate::AuditRecord;
use riskgate::model::RiskLevel;
use serde_json::{Value, json};

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// One JSON record per line.
    Jsonl,
    /// OpenTelemetry log records (OTLP/JSON).
    OtlpJson,
}

/// OTLP severity number and text for a level.
fn severity(level: RiskLevel) -> (u8, &'static str) {
    match level {
        RiskLevel::Safe | RiskLevel::Low => (9, "INFO"),
        RiskLevel::Medium => (13, "WARN"),
        RiskLevel::High => (17, "ERROR"),
        RiskLevel::Critical => (21, "FATAL"),
    }
}

fn attr(key: &str, value: Value) -> Value {
    let v = match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({"intValue": n.to_string()}),
        Value::Array(items) => json!({"arrayValue": {"values": items
            .into_iter()
            .map(|i| json!({"stringValue": i.as_str().unwrap_or_default()}))
            .collect::<Vec<_>>()}}),
        Value::String(s) => json!({ "stringValue": s }),
        other => json!({ "stringValue": other.to_string() }),
    };
    json!({"key": key, "value": v})
}

fn nanos(time: &str) -> String {
    riskgate::gate::clock::parse(time)
        .map(|t| t.unix_timestamp_nanos().to_string())
        .unwrap_or_else(|| "0".to_string())
}

/// One OTLP log record.
fn log_record(r: &AuditRecord) -> Value {
    let (num, text) = severity(r.level);
    let mut attributes = vec![
        attr("riskgate.decision", json!(r.decision.as_str())),
        attr("riskgate.level", json!(r.level.as_str())),
        attr("riskgate.score", json!(r.score)),
        attr("riskgate.source", json!(r.source)),
        attr("riskgate.kind", json!(r.kind)),
        attr("riskgate.input", json!(r.input)),
        attr("riskgate.decided_by", json!(r.decided_by)),
        attr("riskgate.rules", json!(r.rules)),
        attr("riskgate.cwd", json!(r.cwd)),
        attr("riskgate.latency_us", json!(r.latency_us)),
        attr("riskgate.record_id", json!(r.id)),
    ];
    if let Some(s) = &r.session {
        attributes.push(attr("riskgate.session", json!(s)));
    }
    if let Some(agent) = r.source.strip_prefix("hook:") {
        attributes.push(attr("riskgate.agent", json!(agent)));
    }
    if let Some(rev) = &r.policy_rev {
        attributes.push(attr("riskgate.policy_rev", json!(rev)));
    }
    json!({
        "timeUnixNano": nanos(&r.time),
        "observedTimeUnixNano": nanos(&r.time),
        "severityNumber": num,
        "severityText": text,
        "body": {"stringValue": r.reason},
        "attributes": attributes,
    })
}

/// The export of `records` (newest first, as the log gives them) in `format`, oldest first.
pub fn render(records: &[AuditRecord], format: ExportFormat) -> anyhow::Result<String> {
    let oldest_first = records.iter().rev();
    match format {
        ExportFormat::Jsonl => {
            let mut out = String::new();
            for r in oldest_first {
                out.push_str(&serde_json::to_string(r)?);
                out.push('\n');
            }
            Ok(out)
        }
        ExportFormat::OtlpJson => {
            let doc = json!({"resourceLogs": [{
                "resource": {"attributes": [
                    attr("service.name", json!("riskgate")),
                    attr("service.version", json!(env!("CARGO_PKG_VERSION"))),
                    attr("host.name", json!(riskgate::gate::queue::host_name())),
                ]},
                "scopeLogs": [{
                    "scope": {"name": "riskgate.audit", "version": env!("CARGO_PKG_VERSION")},
                    "logRecords": oldest_first.map(log_record).collect::<Vec<_>>(),
                }],
            }]});
            Ok(format!("{}\n", serde_json::to_string(&doc)?))
        }
    }
}
