//! The analysis proper (seed 000 rules 1-7 and 10): each node once, each inspected parameter
//! through the RISK_PATTERNS of its type and, for shell and SQL parameters, through the full
//! engine; the highest level per parameter; sorted, deduplicated, hashed. Pure: it reads no
//! file, asks nobody and never runs anything.

use std::cell::RefCell;
use std::collections::HashMap;

use riskgate::{Action, Assessment, Engine, RiskLevel};

use crate::error::CriticalRiskError;
use crate::ir::WorkflowIr;
use crate::matcher::Subject;
use crate::registry::{NodeRegistry, NodeType, ParamAnalyzer, ParamSpec};
use crate::risk::{RiskAssessment, RiskSource, risk_hash, sort_and_dedupe};

/// The result of [`scan`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scan {
    /// The risks, CRITICAL first, then by node id; one per (node, pattern, parameter).
    pub risks: Vec<RiskAssessment>,
    /// The risk hash over the risky operations ([`risk_hash`]).
    pub risk_hash: String,
    /// Nodes whose parameters were inspected (each node once).
    pub nodes_analyzed: usize,
    /// Nodes skipped: unknown type, or a type without RISK_PATTERNS.
    pub nodes_skipped: Vec<String>,
    /// Things worth telling (duplicate node ids …).
    pub warnings: Vec<String>,
}

/// What the engine found in one value, reduced to its top reason.
#[derive(Debug, Clone)]
pub struct EngineVerdict {
    level: RiskLevel,
    score: u8,
    rule: String,
    reason: String,
}

fn verdict(a: &Assessment) -> Option<EngineVerdict> {
    if a.level < RiskLevel::Medium {
        return None;
    }
    let top = a
        .findings
        .iter()
        .find(|f| !f.rule_id.starts_with("score."))
        .or_else(|| a.findings.first());
    Some(EngineVerdict {
        level: a.level,
        score: a.score,
        rule: top
            .map(|f| f.rule_id.clone())
            .unwrap_or_else(|| "engine".into()),
        reason: top
            .map(|f| f.description.clone())
            .or_else(|| a.reasons.first().cloned())
            .unwrap_or_default(),
    })
}

/// Engine verdicts by (analyzer, text), kept by a [`crate::WorkflowRiskAnalyzer`]: after an
/// edit, only the changed parameters go through the engine again. Bounded: cleared when full.
#[derive(Debug, Default)]
pub struct EngineMemo {
    map: RefCell<HashMap<(ParamAnalyzer, String), Option<EngineVerdict>>>,
}

/// Entries an [`EngineMemo`] holds before it starts over.
const MEMO_CAPACITY: usize = 8192;

impl EngineMemo {
    fn get_or(
        &self,
        key: (ParamAnalyzer, String),
        f: impl FnOnce() -> Option<EngineVerdict>,
    ) -> Option<EngineVerdict> {
        if let Some(v) = self.map.borrow().get(&key) {
            return v.clone();
        }
        let v = f();
        let mut map = self.map.borrow_mut();
        if map.len() >= MEMO_CAPACITY {
            map.clear();
        }
        map.insert(key, v.clone());
        v
    }
}

/// The text the engine sees: the value, with the parameter's prefix unless already there.
fn engine_text(spec: &ParamSpec, value: &str) -> String {
    match &spec.prefix {
        Some(p) if !value.trim_start().starts_with(p.trim_end()) => format!("{p}{value}"),
        _ => value.to_string(),
    }
}

/// Assess one parameter value of a node of type `t`. `None`: nothing at MEDIUM or above.
pub fn assess_param(
    engine: &Engine,
    memo: Option<&EngineMemo>,
    node_id: &str,
    t: &NodeType,
    spec: &ParamSpec,
    value: &str,
) -> Option<RiskAssessment> {
    let subject = Subject::new(value);
    let pattern_hit = t.patterns_for(spec).levels().find_map(|(level, patterns)| {
        patterns
            .iter()
            .find(|p| p.matches(&subject))
            .map(|p| (level, p.text.clone()))
    });
    let run = || match spec.analyzer {
        ParamAnalyzer::Text => None,
        ParamAnalyzer::Shell => verdict(&engine.assess_command(&engine_text(spec, value))),
        ParamAnalyzer::Sql => verdict(&engine.assess(&Action::Sql {
            sql: value.to_string(),
            dialect: None,
        })),
    };
    let engine_hit = match (spec.analyzer, memo) {
        (ParamAnalyzer::Text, _) => None,
        (kind, Some(m)) => m.get_or((kind, engine_text(spec, value)), run),
        (_, None) => run(),
    };
    let make = |level, pattern: String, description: String, source, score| RiskAssessment {
        level,
        node_id: node_id.to_string(),
        node_type: t.name.clone(),
        pattern,
        parameter_name: spec.name.clone(),
        description,
        value: value.to_string(),
        source,
        score,
    };
    match (pattern_hit, engine_hit) {
        (Some((level, pattern)), e) if e.as_ref().is_none_or(|e| e.level <= level) => {
            let mut description = format!(
                "`{}` matches the {level} pattern `{pattern}` of `{}` nodes",
                spec.name, t.name
            );
            if let Some(e) = &e {
                description.push_str(&format!("; engine: {} ({})", e.reason, e.rule));
            }
            Some(make(
                level,
                pattern,
                description,
                RiskSource::Pattern,
                e.map(|e| e.score),
            ))
        }
        (_, Some(e)) => Some(make(
            e.level,
            e.rule.clone(),
            format!("{} (engine rule {})", e.reason, e.rule),
            RiskSource::Engine,
            Some(e.score),
        )),
        _ => None,
    }
}

/// Analyze `ir` with the types of `registry`, reusing the engine verdicts in `memo`. With
/// `stop_at_critical`, the first CRITICAL risk ends the analysis with a [`CriticalRiskError`]
/// (rule 7: early return).
pub fn scan(
    ir: &WorkflowIr,
    registry: &NodeRegistry,
    engine: &Engine,
    memo: Option<&EngineMemo>,
    stop_at_critical: bool,
) -> Result<Scan, CriticalRiskError> {
    let mut risks = Vec::new();
    let mut nodes_analyzed = 0;
    let mut nodes_skipped = Vec::new();
    for i in ir.visit_order() {
        let Some(node) = ir.nodes.get(i) else {
            continue;
        };
        let Some(t) = registry
            .get(&node.node_type)
            .filter(|t| !t.has_no_patterns())
        else {
            nodes_skipped.push(node.id.clone());
            continue;
        };
        nodes_analyzed += 1;
        for spec in &t.params {
            let Some(value) = node.param_text(&spec.name) else {
                continue;
            };
            if let Some(risk) = assess_param(engine, memo, &node.id, t, spec, &value) {
                if stop_at_critical && risk.level == RiskLevel::Critical {
                    return Err(CriticalRiskError::new(risk, None));
                }
                risks.push(risk);
            }
        }
    }
    let risk_hash = risk_hash(&risks);
    sort_and_dedupe(&mut risks);
    let warnings = ir
        .duplicate_ids()
        .into_iter()
        .map(|id| format!("node id `{id}` is used by more than one node; each is analyzed"))
        .collect();
    Ok(Scan {
        risks,
        risk_hash,
        nodes_analyzed,
        nodes_skipped,
        warnings,
    })
}
