//! [`WorkflowRiskAnalyzer`]: seed 000's whole procedure for one workflow — analyze (or reuse
//! an analysis of the last 5 minutes: in this process, or in the session's shared
//! [`crate::cache`]), stop on CRITICAL, honour the workflow's own approval,
//! then put each risk through the gate (standing denials and approvals before any prompt,
//! session cache, `--force` / `--accept-risk`, the `[y/N/always/never]` prompt, `always` /
//! `never` stored in settings.json, the audit log).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use riskgate::gate::decide::{Standing, decide_with};
use riskgate::gate::{Context, DecidedBy, Gate, Outcome};
use riskgate::{Action, ActionKind, Assessment, Decision, Engine, Finding, RiskLevel};
use serde::Serialize;
use time::OffsetDateTime;

use crate::approval::{ApprovalStatus, WorkflowState, approval_status};
use crate::cache::{self, AnalysisKey, Lookup, SharedCache};
use crate::edit::{RiskApproval, write_risk_approval};
use crate::error::{CriticalRiskError, Refusal, RiskNotAcceptedError, WorkflowError};
use crate::ir::WorkflowIr;
use crate::registry::{NodeRegistry, ParamAnalyzer};
use crate::risk::RiskAssessment;
use crate::scan::{EngineMemo, Scan, scan};

/// How long an analysis is reused for the same workflow (seed 000 rule 20).
pub const ANALYSIS_TTL: time::Duration = time::Duration::seconds(cache::ANALYSIS_TTL_SECS);

/// Options of [`WorkflowRiskAnalyzer::analyze`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// `--force`: skip all prompts, accept HIGH risks (never CRITICAL).
    pub force: bool,
    /// `--accept-risk`: accept HIGH risks without prompting (never CRITICAL).
    pub accept_risk: bool,
    /// A person can be asked (a terminal). Without it, unaccepted HIGH risks are refused.
    pub interactive: bool,
    /// A session id: approvals given in the session are honoured for 5 minutes across
    /// processes.
    pub session_id: Option<String>,
}

/// The decision on one risk.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskDecision {
    /// The node.
    pub node_id: String,
    /// The parameter.
    pub parameter_name: String,
    /// The level after the policy.
    pub level: RiskLevel,
    /// Allow (deny and ask end the check with an error).
    pub decision: Decision,
    /// Who decided: `policy`, `approval`, `session`, `user`, `flag`, `workflow_approval` …
    pub decided_by: String,
    /// Why.
    pub reason: String,
}

/// Everything a check found and decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// The risks (seed order), except those a standing approval skipped.
    pub risks: Vec<RiskAssessment>,
    /// Risks skipped because a standing approval in settings.json covers them (rule 8).
    pub skipped: Vec<RiskAssessment>,
    /// One decision per risk, skipped ones included.
    pub decisions: Vec<RiskDecision>,
    /// The risk hash of the workflow.
    pub risk_hash: String,
    /// The workflow's state after the check.
    pub state: WorkflowState,
    /// What the workflow's `metadata.risk_approval` says.
    pub approval: ApprovalStatus,
    /// Nodes inspected.
    pub nodes_analyzed: usize,
    /// Nodes skipped (unknown type or no RISK_PATTERNS).
    pub nodes_skipped: Vec<String>,
    /// Warnings (MEDIUM risks, settings that could not be written …).
    pub warnings: Vec<String>,
    /// The analysis was reused from the last 5 minutes.
    pub from_cache: bool,
}

/// Counters, for tests and diagnostics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Analyses run.
    pub analyses: u64,
    /// Analyses reused from the cache.
    pub cache_hits: u64,
}

/// The result of [`WorkflowRiskAnalyzer::approve_file`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApproveReport {
    /// The risks approved.
    pub risks: Vec<RiskAssessment>,
    /// What was written.
    pub approval: RiskApproval,
}

/// Seed 000's `WorkflowRiskAnalyzer`. Build once; analyses are cached for 5 minutes and the
/// gate's session approvals last as long.
pub struct WorkflowRiskAnalyzer {
    engine: Arc<Engine>,
    gate: Gate,
    display: Box<dyn Write>,
    clock: Box<dyn Fn() -> OffsetDateTime>,
    cache: HashMap<AnalysisKey, (OffsetDateTime, Scan)>,
    engine_fingerprint: Option<[u8; 32]>,
    stats: Stats,
    cwd: PathBuf,
    memo: EngineMemo,
}

impl std::fmt::Debug for WorkflowRiskAnalyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkflowRiskAnalyzer")
            .field("gate", &self.gate)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl WorkflowRiskAnalyzer {
    /// An analyzer deciding with `gate`, assessing shell and SQL parameters with the built-in
    /// rules, showing risks on stderr.
    pub fn new(gate: Gate) -> WorkflowRiskAnalyzer {
        let cwd = gate.policy().cwd().to_path_buf();
        WorkflowRiskAnalyzer {
            engine: Arc::new(Engine::builtin()),
            gate,
            display: Box::new(std::io::stderr()),
            clock: Box::new(riskgate::gate::clock::now),
            cache: HashMap::new(),
            engine_fingerprint: None,
            stats: Stats::default(),
            cwd,
            memo: EngineMemo::default(),
        }
    }

    /// Assess with `engine` (the policy's rule packs …).
    pub fn with_engine(mut self, engine: Arc<Engine>) -> WorkflowRiskAnalyzer {
        self.engine = engine;
        self.memo = EngineMemo::default();
        self.engine_fingerprint = None;
        self.cache.clear();
        self
    }

    /// Show risks (interactive mode) on `out` instead of stderr.
    pub fn with_display(mut self, out: impl Write + 'static) -> WorkflowRiskAnalyzer {
        self.display = Box::new(out);
        self
    }

    /// Use `clock` for the analysis cache and approval times (tests).
    pub fn with_clock(
        mut self,
        clock: impl Fn() -> OffsetDateTime + 'static,
    ) -> WorkflowRiskAnalyzer {
        self.clock = Box::new(clock);
        self
    }

    /// The gate.
    pub fn gate(&mut self) -> &mut Gate {
        &mut self.gate
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Counters.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Seed 000's `analyze`: the risks of `ir` that no standing approval skipped, once every
    /// HIGH one has been accepted. `registry` is required (`None` is
    /// [`WorkflowError::MissingRegistry`]). Errors: [`WorkflowError::Critical`] for any
    /// CRITICAL risk, [`WorkflowError::NotAccepted`] for a HIGH risk nobody accepted.
    pub fn analyze<'r>(
        &mut self,
        ir: &WorkflowIr,
        registry: impl Into<Option<&'r NodeRegistry>>,
        options: &AnalyzeOptions,
    ) -> Result<Vec<RiskAssessment>, WorkflowError> {
        self.check(ir, registry, options).map(|r| r.risks)
    }

    /// [`WorkflowRiskAnalyzer::analyze`] with everything that was found and decided.
    pub fn check<'r>(
        &mut self,
        ir: &WorkflowIr,
        registry: impl Into<Option<&'r NodeRegistry>>,
        options: &AnalyzeOptions,
    ) -> Result<CheckReport, WorkflowError> {
        let registry = registry.into().ok_or(WorkflowError::MissingRegistry)?;
        let now = (self.clock)();
        let mut cache_warnings = Vec::new();
        let (scan, from_cache) = self.scan_cached(
            ir,
            registry,
            now,
            options.session_id.as_deref(),
            &mut cache_warnings,
        )?;
        let ttl = self.gate.policy().approval_ttl_days();
        let approval = approval_status(ir.metadata.as_ref(), &scan.risk_hash, now, ttl);
        let workflow_approved = matches!(approval, ApprovalStatus::Valid { .. });
        let mut report = CheckReport {
            risks: Vec::new(),
            skipped: Vec::new(),
            decisions: Vec::new(),
            risk_hash: scan.risk_hash.clone(),
            state: approval.state(),
            approval: approval.clone(),
            nodes_analyzed: scan.nodes_analyzed,
            nodes_skipped: scan.nodes_skipped.clone(),
            warnings: cache_warnings,
            from_cache,
        };
        report.warnings.extend(scan.warnings.iter().cloned());
        if options.interactive && !scan.risks.is_empty() {
            self.show(&scan, &approval);
        }
        let mut accepted_high = false;
        for (i, risk) in scan.risks.iter().enumerate() {
            let (action, assessment, ctx) = self.prepare(risk, registry, options);
            let outcome = if workflow_approved {
                self.decide_workflow_approved(&action, &assessment, &ctx, &approval)
            } else {
                self.gate.evaluate(&action, assessment, &ctx)
            };
            report.warnings.extend(outcome.warnings.iter().cloned());
            if outcome.level == RiskLevel::Critical {
                return Err(CriticalRiskError::new(risk.clone(), Some(outcome.reason)).into());
            }
            if outcome.decision != Decision::Allow {
                let pending = scan
                    .risks
                    .iter()
                    .skip(i)
                    .filter(|r| r.level >= RiskLevel::High);
                return Err(
                    not_accepted(risk, &outcome, &approval, pending.cloned().collect()).into(),
                );
            }
            let by = if workflow_approved && outcome.decided_by == DecidedBy::Approval {
                "workflow_approval".to_string()
            } else {
                outcome.decided_by.as_str().to_string()
            };
            if outcome.level >= RiskLevel::High && by != "workflow_approval" {
                accepted_high = true;
            }
            report.decisions.push(RiskDecision {
                node_id: risk.node_id.clone(),
                parameter_name: risk.parameter_name.clone(),
                level: outcome.level,
                decision: outcome.decision,
                decided_by: by.clone(),
                reason: outcome.reason.clone(),
            });
            if by == "approval" {
                report.skipped.push(risk.clone());
            } else {
                report.risks.push(risk.clone());
            }
        }
        if accepted_high {
            report.state = WorkflowState::Approved;
        }
        Ok(report)
    }

    /// Analyze the saved workflow at `path` and record in it that its current risks are
    /// approved (`metadata.risk_approval`, written atomically; the rest of the file is kept as
    /// it is). A CRITICAL risk cannot be approved.
    pub fn approve_file<'r>(
        &mut self,
        path: &Path,
        registry: impl Into<Option<&'r NodeRegistry>>,
    ) -> Result<ApproveReport, WorkflowError> {
        let registry = registry.into().ok_or(WorkflowError::MissingRegistry)?;
        let ir = WorkflowIr::from_path(path)?;
        let now = (self.clock)();
        let (scan, _) = self.scan_cached(&ir, registry, now, None, &mut Vec::new())?;
        let approval = RiskApproval {
            approved: true,
            risk_hash: scan.risk_hash.clone(),
            approved_at: riskgate::gate::clock::format(now),
        };
        write_risk_approval(path, &approval)?;
        Ok(ApproveReport {
            risks: scan.risks,
            approval,
        })
    }

    /// The analysis alone (no decision): every risk, CRITICAL ones included.
    pub fn scan(&self, ir: &WorkflowIr, registry: &NodeRegistry) -> Scan {
        match scan(ir, registry, &self.engine, Some(&self.memo), false) {
            Ok(s) => s,
            // unreachable: without stop_at_critical the scan does not fail
            Err(e) => Scan {
                risks: vec![*e.risk],
                risk_hash: String::new(),
                nodes_analyzed: 0,
                nodes_skipped: Vec::new(),
                warnings: Vec::new(),
            },
        }
    }

    /// The analysis of `ir`: reused from this process or, with a session, from the session's
    /// shared cache when made in the last 5 minutes under the same registry, rules and policy;
    /// otherwise made now (and shared). Problems with the shared cache go to `warnings`.
    fn scan_cached(
        &mut self,
        ir: &WorkflowIr,
        registry: &NodeRegistry,
        now: OffsetDateTime,
        session: Option<&str>,
        warnings: &mut Vec<String>,
    ) -> Result<(Scan, bool), CriticalRiskError> {
        let shared = session.and_then(|id| SharedCache::new(self.gate.policy().state_dir(), id));
        // The engine and the policy are fixed for this analyzer (the memory cache is emptied
        // when the engine changes): only keys shared with other processes need them.
        let (engine_fp, policy_fp) = if shared.is_some() {
            let e = *self
                .engine_fingerprint
                .get_or_insert_with(|| cache::engine_fingerprint(&self.engine));
            (e, cache::policy_fingerprint(self.gate.policy()))
        } else {
            ([0; 32], [0; 32])
        };
        let key = cache::analysis_key(
            ir,
            &cache::registry_fingerprint(registry),
            &engine_fp,
            &policy_fp,
        );
        if let Some((at, s)) = self.cache.get(&key)
            && *at <= now
            && now - *at < ANALYSIS_TTL
        {
            self.stats.cache_hits += 1;
            return Ok((s.clone(), true));
        }
        if let Some(shared) = &shared {
            match shared.lookup(&key, ir, now) {
                Lookup::Hit(s) => {
                    self.stats.cache_hits += 1;
                    self.cache.insert(key, (now, (*s).clone()));
                    return Ok((*s, true));
                }
                Lookup::Miss => {}
                Lookup::Corrupt(why) => warnings.push(format!(
                    "analysis cache entry ignored, the workflow is analyzed again: {why}"
                )),
            }
        }
        let s = scan(ir, registry, &self.engine, Some(&self.memo), true)?;
        self.stats.analyses += 1;
        self.cache
            .retain(|_, (at, _)| *at <= now && now - *at < ANALYSIS_TTL);
        self.cache.insert(key, (now, s.clone()));
        if let Some(shared) = &shared
            && let Err(e) = shared.store(&key, &s, now)
        {
            warnings.push(format!(
                "the analysis could not be shared with this session: {e}"
            ));
        }
        Ok((s, false))
    }

    fn prepare(
        &self,
        risk: &RiskAssessment,
        registry: &NodeRegistry,
        options: &AnalyzeOptions,
    ) -> (Action, Assessment, Context) {
        let analyzer = registry
            .get(&risk.node_type)
            .and_then(|t| t.params.iter().find(|p| p.name == risk.parameter_name))
            .map(|p| p.analyzer)
            .unwrap_or_default();
        let (action, kind) = match analyzer {
            ParamAnalyzer::Sql => (
                Action::Sql {
                    sql: risk.value.clone(),
                    dialect: None,
                },
                ActionKind::Sql,
            ),
            _ => (Action::command(risk.value.clone()), ActionKind::Command),
        };
        let score = risk
            .score
            .unwrap_or(risk.level.min_score() + 10)
            .clamp(risk.level.min_score(), risk.level.max_score());
        let rule = match risk.source {
            crate::risk::RiskSource::Pattern => "workflow.pattern".to_string(),
            crate::risk::RiskSource::Engine => risk.pattern.clone(),
        };
        let finding = Finding::new(
            rule,
            risk.level,
            score,
            format!(
                "node `{}` ({}), {}: {}",
                risk.node_id, risk.node_type, risk.parameter_name, risk.description
            ),
        );
        let assessment = Assessment::from_findings(kind, risk.value.clone(), vec![finding]);
        let mut ctx = Context::new(self.cwd.clone()).interactive(options.interactive);
        ctx.force = options.force;
        ctx.accept_risk = options.accept_risk;
        ctx.session_id = options.session_id.clone();
        ctx.source = "workflow".to_string();
        ctx.node_type = Some(risk.node_type.clone());
        if analyzer == ParamAnalyzer::Shell {
            ctx.write_targets = self.engine.write_targets(&risk.value);
        }
        (action, assessment, ctx)
    }

    /// The workflow's own approval stands in for a standing approval; the policy (blocklist,
    /// CRITICAL) and standing denials still apply.
    fn decide_workflow_approved(
        &mut self,
        action: &Action,
        assessment: &Assessment,
        ctx: &Context,
        approval: &ApprovalStatus,
    ) -> Outcome {
        let snap = self.gate.approvals().snapshot();
        let denied = snap
            .denial_for_node(action, ctx.node_type.as_deref())
            .map(|e| e.describe());
        let warnings = snap.warnings.clone();
        let store_unreadable = snap.unreadable;
        let standing = Standing {
            denied,
            approved: Some(match approval {
                ApprovalStatus::Valid { approved_at } => {
                    format!("`metadata.risk_approval` of the workflow (approved {approved_at})")
                }
                _ => "`metadata.risk_approval` of the workflow".to_string(),
            }),
            session: false,
            store_unreadable,
        };
        let mut out = decide_with(assessment, action, self.gate.policy(), ctx, &standing);
        out.warnings.extend(warnings);
        out
    }

    fn show(&mut self, scan: &Scan, approval: &ApprovalStatus) {
        let mut text = format!(
            "riskgate: this workflow has {} risk(s):\n",
            scan.risks.len()
        );
        for r in &scan.risks {
            text.push_str(&format!(
                "  {:<8} node `{}` ({}), {}: {}\n           {}\n",
                r.level.as_str(),
                r.node_id,
                r.node_type,
                r.parameter_name,
                one_line(&r.value),
                r.description
            ));
        }
        if let Some(d) = approval.describe() {
            text.push_str(&format!("  {d}\n"));
        }
        // Showing is best effort: a closed stderr must not change the decision.
        let _ = self.display.write_all(text.as_bytes());
        let _ = self.display.flush();
    }
}

fn one_line(s: &str) -> String {
    let first = s.lines().next().unwrap_or("");
    let mut out: String = first.chars().take(120).collect();
    if out.len() < s.len() {
        out.push_str(" …");
    }
    out
}

fn not_accepted(
    risk: &RiskAssessment,
    outcome: &Outcome,
    approval: &ApprovalStatus,
    pending: Vec<RiskAssessment>,
) -> RiskNotAcceptedError {
    let refusal = match outcome.decided_by {
        DecidedBy::User => Refusal::Rejected,
        DecidedBy::Approval => Refusal::StandingDenial,
        _ => Refusal::NotInteractive,
    };
    let mut message = format!("workflow refused: {}", outcome.reason);
    if let Some(d) = approval.describe() {
        message.push_str(&format!(" Note: {d}."));
    }
    if refusal == Refusal::NotInteractive {
        message.push_str(
            " To accept all of this workflow's risks as they are now, run `riskgate workflow approve FILE`.",
        );
    }
    RiskNotAcceptedError {
        refusal,
        risk: Box::new(risk.clone()),
        pending,
        message,
    }
}
