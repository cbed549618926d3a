//! SARIF 2.1.0 for code-scanning upload: one run of the tool `riskgate`, its rules (id, name,
//! descriptions, help text, default level, `security-severity`) and one result per finding at
//! LOW or above, each with its location (file relative to `%SRCROOT%`, line, column, the
//! snippet) and a `partialFingerprints` entry that survives lines moving (rule, file, context
//! and matched text, not the line number).
//!
//! Levels: CRITICAL and HIGH → `error`, MEDIUM → `warning`, LOW → `note`.

use std::collections::BTreeMap;

use riskgate_model::{Finding, RiskLevel};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::report::ScanReport;

/// The SARIF level of a riskgate level.
pub fn sarif_level(level: RiskLevel) -> &'static str {
    match level {
        RiskLevel::Critical | RiskLevel::High => "error",
        RiskLevel::Medium => "warning",
        RiskLevel::Low => "note",
        RiskLevel::Safe => "none",
    }
}

/// The fingerprint of a finding: stable while lines move.
fn fingerprint(rule: &str, path: &str, context: &str, matched: &str) -> String {
    let mut h = Sha256::new();
    for part in [rule, path, context, matched.trim()] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    hex::encode(&h.finalize()[..16])
}

struct RuleInfo {
    description: String,
    help: String,
    level: RiskLevel,
    score: u8,
    tags: Vec<String>,
}

/// The SARIF log of `report`, made by riskgate `version`.
pub fn to_sarif(report: &ScanReport, version: &str) -> Value {
    let mut rules: BTreeMap<String, RuleInfo> = BTreeMap::new();
    let mut results: Vec<(String, Value)> = Vec::new();
    let mut seen: std::collections::HashSet<(String, String, u32, u32)> = Default::default();
    for file in &report.files {
        for r in &file.results {
            for f in &r.findings {
                if f.level < RiskLevel::Low {
                    continue;
                }
                let loc = f.location.clone().unwrap_or_default();
                let line = loc.line.unwrap_or(r.line).max(1);
                let column = loc.column.unwrap_or(r.column).max(1);
                if !seen.insert((f.rule_id.clone(), file.path.clone(), line, column)) {
                    continue;
                }
                let info = rules
                    .entry(f.rule_id.clone())
                    .or_insert_with(|| rule_info(f));
                info.level = info.level.max(f.level);
                let matched = f.matched.clone().unwrap_or_else(|| first_line(&r.text));
                let snippet = first_line(&r.text);
                let message = format!(
                    "{} [{}, {}] in {}: {}",
                    f.description,
                    f.level,
                    r.score,
                    r.context,
                    truncate(&matched, 200)
                );
                let mut region = json!({
                    "startLine": line,
                    "startColumn": column,
                    "snippet": {"text": truncate(&snippet, 400)}
                });
                if let Some(end) = loc.end_line.filter(|&e| e > line) {
                    region["endLine"] = json!(end);
                }
                results.push((
                    f.rule_id.clone(),
                    json!({
                        "ruleId": f.rule_id,
                        "level": sarif_level(f.level),
                        "message": {"text": message},
                        "locations": [{
                            "physicalLocation": {
                                "artifactLocation": {"uri": file.path, "uriBaseId": "%SRCROOT%"},
                                "region": region
                            }
                        }],
                        "partialFingerprints": {
                            "riskgate/v1": fingerprint(&f.rule_id, &file.path, &r.context, &matched)
                        },
                        "properties": {
                            "riskLevel": f.level,
                            "score": r.score,
                            "context": r.context,
                            "kind": r.kind,
                        }
                    }),
                ));
            }
        }
    }
    let index: BTreeMap<&str, usize> = rules
        .keys()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let rules_json: Vec<Value> = rules
        .iter()
        .map(|(id, info)| {
            json!({
                "id": id,
                "name": rule_name(id),
                "shortDescription": {"text": truncate(&info.description, 200)},
                "fullDescription": {"text": info.description},
                "help": {
                    "text": info.help,
                    "markdown": format!("**{}**\n\n{}\n\nSafer: {}", id, info.description, info.help)
                },
                "defaultConfiguration": {"level": sarif_level(info.level)},
                "properties": {
                    "tags": info.tags,
                    "security-severity": format!("{:.1}", f64::from(info.score.max(info.level.min_score())) / 10.0),
                    "riskLevel": info.level,
                }
            })
        })
        .collect();
    let results: Vec<Value> = results
        .into_iter()
        .map(|(id, mut v)| {
            if let Some(i) = index.get(id.as_str())
                && let Some(o) = v.as_object_mut()
            {
                o.insert("ruleIndex".into(), json!(i));
            }
            v
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "riskgate",
                    "semanticVersion": version,
                    "version": version,
                    "informationUri": "https://example.invalid/riskgate",
                    "rules": rules_json
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    })
}

fn rule_info(f: &Finding) -> RuleInfo {
    let mut tags = f.tags.clone();
    if !tags.iter().any(|t| t == "security") {
        tags.push("security".to_string());
    }
    RuleInfo {
        description: f.description.clone(),
        help: f.mitigation.clone().unwrap_or_else(|| {
            "Review what this runs before it runs; see `riskgate rules show` for the rule."
                .to_string()
        }),
        level: f.level,
        score: f.effective_score(),
        tags,
    }
}

/// `gha.action-unpinned` → `GhaActionUnpinned`.
fn rule_name(id: &str) -> String {
    id.split(['.', '-', '_'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_levels() {
        assert_eq!(rule_name("gha.action-unpinned"), "GhaActionUnpinned");
        assert_eq!(sarif_level(RiskLevel::High), "error");
        assert_eq!(sarif_level(RiskLevel::Low), "note");
        assert_ne!(
            fingerprint("a", "b", "c", "d"),
            fingerprint("a", "b", "c", "e")
        );
    }
}
