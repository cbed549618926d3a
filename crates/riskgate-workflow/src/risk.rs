//! Seed 000's `RiskAssessment` (one risky parameter of one node), its order (rule 6), its
//! deduplication (rule 5) and the workflow's risk hash (rule 10).

use std::cmp::Ordering;

use riskgate::RiskLevel;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What found a risk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskSource {
    /// A RISK_PATTERN of the node type.
    Pattern,
    /// The command engine (shell parameters) or the SQL analyzer (SQL parameters).
    Engine,
}

/// One identified risk: a parameter of a node, at the highest level anything found in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RiskAssessment {
    /// The level (CRITICAL, HIGH or MEDIUM; LOW and SAFE findings are not risks).
    pub level: RiskLevel,
    /// The node's id.
    pub node_id: String,
    /// The node's type, as the registry names it.
    pub node_type: String,
    /// The matching RISK_PATTERN, or the engine's rule id.
    pub pattern: String,
    /// The inspected parameter.
    pub parameter_name: String,
    /// Why, for a person.
    pub description: String,
    /// The parameter's value, as written in the workflow.
    pub value: String,
    /// What found it.
    pub source: RiskSource,
    /// The engine's score for the value (0-100), when the engine looked at it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u8>,
}

impl RiskAssessment {
    /// Seed order: level (CRITICAL first), then node id, then parameter and pattern.
    pub fn seed_order(a: &RiskAssessment, b: &RiskAssessment) -> Ordering {
        b.level
            .cmp(&a.level)
            .then_with(|| a.node_id.cmp(&b.node_id))
            .then_with(|| a.parameter_name.cmp(&b.parameter_name))
            .then_with(|| a.pattern.cmp(&b.pattern))
    }
}

/// Sort (rule 6) and deduplicate by (node id, pattern, parameter name) (rule 5), keeping the
/// highest level of each.
pub fn sort_and_dedupe(risks: &mut Vec<RiskAssessment>) {
    risks.sort_by(RiskAssessment::seed_order);
    let mut seen: std::collections::HashSet<(String, String, String)> =
        std::collections::HashSet::with_capacity(risks.len());
    risks.retain(|r| {
        seen.insert((
            r.node_id.clone(),
            r.pattern.clone(),
            r.parameter_name.clone(),
        ))
    });
}

/// The risk hash (rule 10): SHA-256 (lowercase hex) over the sorted, distinct risky operations,
/// each `[node_id, node_type, parameter_name, level, value]` — node ids included, so that the
/// same operation moved to another node is another hash, and the value included, so that
/// `sudo apt update` → `sudo apt remove` is another hash. Nothing but risky operations goes in:
/// a change to a safe node keeps the hash.
pub fn risk_hash(risks: &[RiskAssessment]) -> String {
    let mut ops: Vec<[&str; 5]> = risks
        .iter()
        .map(|r| {
            [
                r.node_id.as_str(),
                r.node_type.as_str(),
                r.parameter_name.as_str(),
                r.level.as_str(),
                r.value.as_str(),
            ]
        })
        .collect();
    ops.sort_unstable();
    ops.dedup();
    // JSON arrays of strings: unambiguous, whatever the values contain.
    let canonical = serde_json::to_string(&ops).unwrap_or_default();
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn risk(level: RiskLevel, node: &str, value: &str) -> RiskAssessment {
        RiskAssessment {
            level,
            node_id: node.into(),
            node_type: "shell".into(),
            pattern: "sudo ".into(),
            parameter_name: "command".into(),
            description: String::new(),
            value: value.into(),
            source: RiskSource::Pattern,
            score: None,
        }
    }

    #[test]
    fn hash_depends_on_ops_and_node_ids_not_order() {
        let a = risk(RiskLevel::High, "a", "sudo apt update");
        let b = risk(RiskLevel::Medium, "b", "curl x");
        let h = risk_hash(&[a.clone(), b.clone()]);
        assert_eq!(h.len(), 64);
        assert_eq!(h, risk_hash(&[b.clone(), a.clone()]));
        assert_ne!(
            h,
            risk_hash(&[risk(RiskLevel::High, "a", "sudo apt remove"), b.clone()])
        );
        // the same operations on swapped nodes: another hash
        let swapped = [
            risk(RiskLevel::High, "b", "sudo apt update"),
            risk(RiskLevel::Medium, "a", "curl x"),
        ];
        assert_ne!(h, risk_hash(&swapped));
        // no separator games: ["ab","c"] vs ["a","bc"]
        assert_ne!(
            risk_hash(&[risk(RiskLevel::High, "ab", "c")]),
            risk_hash(&[risk(RiskLevel::High, "a", "bc")])
        );
    }
}
