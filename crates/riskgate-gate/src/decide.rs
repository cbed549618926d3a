//! The decision: from an assessment, the action, the policy and the context of the call to
//! allow / ask / deny, the final level, who decided and a reason a person or an agent reads.
//!
//! Order (seed 002's flow, seed 000's rules, seed 003's escalation):
//! 1. Blocklist: an extra pattern at CRITICAL → CRITICAL, denied before anything else.
//! 2. Extra patterns below CRITICAL raise the level to at least theirs; so does the `seeds`
//!    profile's row (seed 001's rule table, seed 002's categories).
//! 3. Overrides set the level: every command of the line must be covered by an override
//!    (the highest layer's that covers it; the line takes the highest of their levels, see
//!    [`crate::cmdpattern`]). Never for a CRITICAL assessment, and a project file's override
//!    never lowers HIGH.
//! 4. Paths written (a file write's path, plus the write targets the caller passes for
//!    commands): a blocked path → at least HIGH; outside `allowed_paths` → at least MEDIUM.
//! 5. Environment: in production a data modification goes up one level (HIGH → CRITICAL).
//! 6. A standing denial (`denied_patterns`) denies.
//! 7. CRITICAL → deny, never bypassable, not even by `--force`.
//! 8. HIGH, and MEDIUM commands of an untrusted agent, need a person: session cache, standing
//!    approval, `--force` / `--accept-risk` allow; else ask when interactive (or when the agent
//!    host can ask and `hooks.ask_fallback` is `ask`); else deny, saying how to proceed.
//!    An assessment that is not fully analyzed (degraded) is at least HIGH whatever the
//!    overrides say, and neither the session cache nor a standing approval covers it: only a
//!    person's answer or flag.
//! 9. MEDIUM otherwise → allow with a warning. LOW, SAFE → allow.
//! 10. When settings.json could not be fully read ([`Standing::store_unreadable`]), what would
//!     be allowed is asked instead (denied where nobody can be asked): a lost standing denial
//!     could cover it.
//!
//! [`decide`] is pure: it reads no file and asks nobody. [`crate::Gate`] looks up standing
//! approvals and denials, prompts, stores answers and records the outcome.

use std::fmt;
use std::path::PathBuf;

use riskgate_model::{Action, Assessment, Decision, RiskLevel, WriteOp};
use serde::{Deserialize, Serialize};

use crate::cmdpattern::{Subject, covering_levels};
use crate::pattern::normalize_pattern;
use crate::policy::{Environment, PathVerdict, PatternRule, Policy, Trust};

/// Who or what made the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// The policy, from the level.
    Policy,
    /// A standing approval or denial in settings.json.
    Approval,
    /// An approval given earlier in the same session (5 minutes).
    Session,
    /// A person's answer at the prompt (or its timeout).
    User,
    /// `--force` or `--accept-risk`.
    Flag,
    /// A blocklist pattern.
    Blocklist,
    /// An override set the level that decided.
    Override,
}

impl DecidedBy {
    /// The lowercase name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::Policy => "policy",
            DecidedBy::Approval => "approval",
            DecidedBy::Session => "session",
            DecidedBy::User => "user",
            DecidedBy::Flag => "flag",
            DecidedBy::Blocklist => "blocklist",
            DecidedBy::Override => "override",
        }
    }
}

impl fmt::Display for DecidedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The circumstances of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// A person can be asked on this terminal (see [`crate::prompt::is_interactive`]).
    pub interactive: bool,
    /// `--force`: skip prompts (not for CRITICAL).
    pub force: bool,
    /// `--accept-risk`: accept risks without prompting (not for CRITICAL).
    pub accept_risk: bool,
    /// The agent on whose behalf the action runs (`None`: a person).
    pub agent: Option<String>,
    /// The agent's session id, for the session cache.
    pub session_id: Option<String>,
    /// Who called: `cli`, `hook:claude`, `workflow` … (for the audit log).
    pub source: String,
    /// The working directory (relative paths, audit log).
    pub cwd: PathBuf,
    /// Files a command writes (found by the caller's analysis), checked against the paths.
    pub write_targets: Vec<String>,
    /// The caller (an agent host) can ask a person itself if the gate answers `ask`.
    pub host_can_ask: bool,
    /// The workflow node type the action comes from (`shell`, `http` …): `always` / `never`
    /// answers are stored under it as `node_type`, and entries stored under it apply.
    pub node_type: Option<String>,
}

impl Context {
    /// A non-interactive context for a person in `cwd`, source `cli`.
    pub fn new(cwd: impl Into<PathBuf>) -> Context {
        Context {
            interactive: false,
            force: false,
            accept_risk: false,
            agent: None,
            session_id: None,
            source: "cli".to_string(),
            cwd: cwd.into(),
            write_targets: Vec::new(),
            host_can_ask: false,
            node_type: None,
        }
    }

    /// With `interactive`.
    pub fn interactive(mut self, yes: bool) -> Context {
        self.interactive = yes;
        self
    }

    /// With an agent name and session id.
    pub fn agent(mut self, name: impl Into<String>, session: Option<String>) -> Context {
        self.agent = Some(name.into());
        self.session_id = session;
        self
    }
}

/// Standing answers found for this action (filled by [`crate::Gate`]), each as a description.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// A matching denied pattern.
    pub denied: Option<String>,
    /// A matching, unexpired approved pattern.
    pub approved: Option<String>,
    /// Approved earlier in this session.
    pub session: bool,
    /// settings.json could not be fully read: a standing denial may be missing, so what would
    /// be allowed needs a person instead.
    pub store_unreadable: bool,
}

/// The gate's answer for one action.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Allow, ask or deny.
    pub decision: Decision,
    /// The final level (after blocklist, overrides, paths and environment).
    pub level: RiskLevel,
    /// The level the assessment gave.
    pub assessed_level: RiskLevel,
    /// The score, kept inside the final level's band.
    pub score: u8,
    /// Who decided.
    pub decided_by: DecidedBy,
    /// Why, for a person or an agent.
    pub reason: String,
    /// What the policy changed, in order (`override … : MEDIUM -> LOW`).
    pub adjustments: Vec<String>,
    /// Things to tell the user that do not change the decision (MEDIUM warnings, a failed
    /// settings write, an unwritable audit log …).
    pub warnings: Vec<String>,
    /// The approval pattern for this action (its subject, templates normalized), as `always`
    /// and `never` store it.
    pub pattern: String,
    /// The main reason for the level, in a few words (the top finding, or the policy change).
    pub summary: String,
    /// The assessment the decision was made on.
    pub assessment: Assessment,
}

/// The level after the policy, and what changed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Leveling {
    /// The final level.
    pub level: RiskLevel,
    /// The blocklist entry that matched, if any.
    pub blocked: Option<PatternRule>,
    /// An override decided the level.
    pub by_override: bool,
    /// Human-readable changes.
    pub adjustments: Vec<String>,
}

/// Steps 1-5: the level the policy gives this action.
pub fn effective_level(
    assessment: &Assessment,
    action: &Action,
    policy: &Policy,
    ctx: &Context,
) -> Leveling {
    // parsed on first use, once, for every pattern (see `crate::cmdpattern`)
    let subject = Subject::new(action);
    let mut lv = Leveling {
        level: assessment.level,
        blocked: None,
        by_override: false,
        adjustments: Vec::new(),
    };
    let matching = |r: &&PatternRule| r.pattern.matches(&subject);
    if let Some(b) = policy
        .patterns()
        .iter()
        .filter(|r| r.level == RiskLevel::Critical)
        .find(matching)
    {
        lv.adjustments.push(format!(
            "blocklist `{}` ({}): CRITICAL",
            b.pattern.as_str(),
            b.source
        ));
        lv.level = RiskLevel::Critical;
        lv.blocked = Some(b.clone());
        return lv;
    }
    // the highest level a managed pattern gives: no other layer's override goes below it
    let mut managed_floor: Option<&PatternRule> = None;
    for r in policy.patterns().iter().filter(matching) {
        if r.source.is_managed() && managed_floor.is_none_or(|m| r.level > m.level) {
            managed_floor = Some(r);
        }
        if r.level > lv.level {
            lv.adjustments.push(format!(
                "pattern `{}` ({}): {} -> {}",
                r.pattern.as_str(),
                r.source,
                lv.level,
                r.level
            ));
            lv.level = r.level;
        }
    }
    if let Some(f) = policy.profile().value.floor(action)
        && f.level > lv.level
    {
        lv.adjustments.push(format!(
            "profile {} ({}): {} -> {}",
            policy.profile().value,
            f.row,
            lv.level,
            f.level
        ));
        lv.level = f.level;
    }
    // every command of the line covered, each by the highest-layer override that covers it
    if lv.level < RiskLevel::Critical
        && let Some(used) = covering_levels(policy.overrides(), |r| &r.pattern, &subject)
        && let Some(level) = used.iter().map(|o| o.level).max()
    {
        let names = used
            .iter()
            .map(|o| format!("`{}` ({})", o.pattern.as_str(), o.source))
            .collect::<Vec<_>>()
            .join(", ");
        let from_project = used
            .iter()
            .any(|o| o.source.is_project() && o.level < lv.level);
        let below_managed = managed_floor.filter(|m| {
            level < m.level
                && used
                    .iter()
                    .any(|o| !o.source.is_managed() && o.level < m.level)
        });
        if let Some(m) = below_managed {
            lv.adjustments.push(format!(
                "override {names} ignored: `{}` ({}) sets {}, and no other layer can lower it",
                m.pattern.as_str(),
                m.source,
                m.level
            ));
        } else if from_project && lv.level >= RiskLevel::High && level < lv.level {
            lv.adjustments.push(format!(
                "override {names} ignored: a project file cannot lower {}",
                lv.level
            ));
        } else if level != lv.level {
            lv.adjustments
                .push(format!("override {names}: {} -> {level}", lv.level));
            lv.level = level;
            lv.by_override = true;
        } else {
            lv.by_override = true;
        }
    }
    if assessment.degraded && lv.level < RiskLevel::High {
        lv.adjustments.push(format!(
            "not fully analyzed, so never below HIGH: {} -> HIGH",
            lv.level
        ));
        lv.level = RiskLevel::High;
        lv.by_override = false;
    }
    let mut targets: Vec<&str> = ctx.write_targets.iter().map(String::as_str).collect();
    if let Action::FileWrite { path, .. } = action {
        targets.insert(0, path);
    }
    for t in targets {
        let (floor, why) = match policy.check_path(t, &ctx.cwd) {
            PathVerdict::Blocked(g) => (
                RiskLevel::High,
                format!("writes blocked path {t} (`{}`, {})", g.written, g.source),
            ),
            PathVerdict::OutsideAllowed => (
                RiskLevel::Medium,
                format!("writes {t}, outside the allowed paths"),
            ),
            PathVerdict::Normal => continue,
        };
        if floor > lv.level {
            lv.adjustments
                .push(format!("{why}: {} -> {floor}", lv.level));
            lv.level = floor;
            lv.by_override = false;
        }
    }
    if policy.environment().value == Environment::Production
        && lv.level > RiskLevel::Safe
        && lv.level < RiskLevel::Critical
        && is_data_modification(action, assessment)
        // an analyzer that already rated it for production (SQL data writes): one level, once
        && !assessment.findings.iter().any(|f| {
            f.tags
                .iter()
                .any(|t| t == riskgate_model::PRODUCTION_RAISED_TAG)
        })
    {
        let raised = lv.level.raised(1);
        lv.adjustments.push(format!(
            "production environment ({}): data modification {} -> {raised}",
            policy.environment().source,
            lv.level
        ));
        lv.level = raised;
        lv.by_override = false;
    }
    lv
}

/// Words in rule ids and tags that mark a data modification (seed 003's production writes).
const MODIFYING: &[&str] = &[
    "delete",
    "deletion",
    "destructive",
    "drop",
    "truncate",
    "update",
    "insert",
    "write",
    "modify",
    "modification",
    "migration",
    "migrate",
    "schema",
    "alter",
    "overwrite",
    "remove",
];

/// Whether the action modifies data: a file write or a change set, or a finding whose tags or
/// rule id name a write, deletion, schema change …
pub fn is_data_modification(action: &Action, assessment: &Assessment) -> bool {
    if matches!(action, Action::FileWrite { .. } | Action::ChangeSet { .. }) {
        return true;
    }
    assessment.findings.iter().any(|f| {
        f.tags
            .iter()
            .any(|t| MODIFYING.contains(&t.to_ascii_lowercase().as_str()))
            || f.rule_id
                .split(['.', '-', '_'])
                .any(|w| MODIFYING.contains(&w.to_ascii_lowercase().as_str()))
    })
}

/// [`decide_with`] without standing approvals.
pub fn decide(assessment: &Assessment, action: &Action, policy: &Policy, ctx: &Context) -> Outcome {
    decide_with(assessment, action, policy, ctx, &Standing::default())
}

/// Does this action need a person (before flags, approvals and the session cache)?
pub fn needs_person(level: RiskLevel, action: &Action, policy: &Policy, ctx: &Context) -> bool {
    let is_edit = matches!(
        action,
        Action::FileWrite {
            op: WriteOp::Write | WriteOp::Edit,
            ..
        } | Action::ChangeSet { .. }
    );
    level == RiskLevel::High
        || (level == RiskLevel::Medium
            && !is_edit
            && policy.trust(ctx.agent.as_deref()) == Trust::Untrusted)
}

/// Whether `out` refused the action only because a person had to approve it and nobody could
/// be asked (the approval queue takes such actions): not CRITICAL, not blocklisted, not a
/// standing denial, not a degraded assessment, no terminal, no flag.
pub fn awaits_reviewer(out: &Outcome, action: &Action, policy: &Policy, ctx: &Context) -> bool {
    out.decision == Decision::Deny
        && matches!(out.decided_by, DecidedBy::Policy | DecidedBy::Override)
        && out.level < RiskLevel::Critical
        && !out.assessment.degraded
        && !ctx.interactive
        && !ctx.force
        && !ctx.accept_risk
        && needs_person(out.level, action, policy, ctx)
}

/// The decision, given the standing answers found for the action.
pub fn decide_with(
    assessment: &Assessment,
    action: &Action,
    policy: &Policy,
    ctx: &Context,
    standing: &Standing,
) -> Outcome {
    let lv = effective_level(assessment, action, policy, ctx);
    decide_leveled(assessment, action, policy, ctx, lv, standing)
}

/// [`decide_with`] on a level already computed by [`effective_level`].
pub(crate) fn decide_leveled(
    assessment: &Assessment,
    action: &Action,
    policy: &Policy,
    ctx: &Context,
    lv: Leveling,
    standing: &Standing,
) -> Outcome {
    let level = lv.level;
    let score = assessment.score.clamp(level.min_score(), level.max_score());
    let by_level = if lv.by_override {
        DecidedBy::Override
    } else {
        DecidedBy::Policy
    };
    let what = top_reason(assessment, &lv);
    // redacted once (a scan for secrets), for the outcome and the approval hint
    let pattern = out_pattern(action);
    let mut out = Outcome {
        decision: Decision::Allow,
        level,
        assessed_level: assessment.level,
        score,
        decided_by: by_level,
        reason: String::new(),
        adjustments: lv.adjustments.clone(),
        warnings: Vec::new(),
        pattern: pattern.clone(),
        summary: what.clone(),
        assessment: assessment.clone(),
    };
    let head = format!("{level} risk (score {score})");
    let mut set = |d: Decision, by: DecidedBy, reason: String| {
        out.decision = d;
        out.decided_by = by;
        out.reason = reason;
    };
    if let Some(b) = &lv.blocked {
        let desc = b
            .description
            .as_deref()
            .map(|d| format!(": {d}"))
            .unwrap_or_default();
        set(
            Decision::Deny,
            DecidedBy::Blocklist,
            format!(
                "refused: matches blocked pattern `{}` ({}){desc}",
                b.pattern.as_str(),
                b.source
            ),
        );
    } else if let Some(d) = &standing.denied {
        set(
            Decision::Deny,
            DecidedBy::Approval,
            format!("{head} refused by a standing denial {d}: {what}"),
        );
    } else if level == RiskLevel::Critical {
        set(
            Decision::Deny,
            by_level,
            format!(
                "{head} refused: {what}. CRITICAL actions are never run, not even with --force."
            ),
        );
    } else if needs_person(level, action, policy, ctx) {
        // What was not understood is not covered by an earlier approval of something that
        // looked the same: only a person now (or their explicit flag).
        if standing.session && !assessment.degraded {
            set(
                Decision::Allow,
                DecidedBy::Session,
                format!("{head} approved earlier in this session: {what}"),
            );
        } else if let Some(a) = standing.approved.as_ref().filter(|_| !assessment.degraded) {
            set(
                Decision::Allow,
                DecidedBy::Approval,
                format!("{head} approved by standing approval {a}: {what}"),
            );
        } else if ctx.force || ctx.accept_risk {
            let flag = if ctx.force {
                "--force"
            } else {
                "--accept-risk"
            };
            set(
                Decision::Allow,
                DecidedBy::Flag,
                format!("{head} accepted by {flag}: {what}"),
            );
        } else if ctx.interactive {
            set(
                Decision::Ask,
                by_level,
                format!("{head} needs confirmation: {what}"),
            );
        } else if ctx.host_can_ask && policy.ask_fallback() == crate::policy::AskFallback::Ask {
            set(
                Decision::Ask,
                by_level,
                format!("{head} needs a person's approval: {what}"),
            );
        } else {
            let hint = approve_hint(&pattern);
            let what = what.trim_end_matches('.');
            let msg = if ctx.agent.is_some() {
                format!(
                    "{head} refused: needs a person's approval and nobody can be asked here (not interactive). {what}. A person can approve it{hint}."
                )
            } else {
                format!(
                    "{head} refused: not interactive. {what}. Re-run with --force or --accept-risk, or approve it{hint}."
                )
            };
            set(Decision::Deny, by_level, msg);
        }
    } else if level == RiskLevel::Medium {
        let msg = format!("{head} allowed with a warning: {what}");
        set(Decision::Allow, by_level, msg.clone());
        out.warnings.push(msg);
    } else {
        set(Decision::Allow, by_level, format!("{head}: {what}"));
    }
    if standing.store_unreadable && out.decision == Decision::Allow {
        // a denial lost in a damaged settings.json could cover this: never allow unasked
        let why = "the approvals file could not be fully read, so a standing denial may cover this";
        let can_ask = ctx.interactive
            || (ctx.host_can_ask && policy.ask_fallback() == crate::policy::AskFallback::Ask);
        out.decided_by = DecidedBy::Approval;
        out.warnings.clear();
        if can_ask {
            out.decision = Decision::Ask;
            out.reason = format!("{head} needs a person's approval: {why}: {what}");
        } else {
            out.decision = Decision::Deny;
            out.reason = format!("{head} refused: {why} and nobody can be asked here: {what}");
        }
    }
    out
}

/// The pattern an `always` answer stores and the hint shows: secrets replaced by `*`.
fn out_pattern(action: &Action) -> String {
    normalize_pattern(&crate::redact::redact_pattern(&action.subject()))
}

/// ` with \`riskgate approvals add 'PATTERN'\`` for short one-line patterns.
fn approve_hint(pattern: &str) -> String {
    if pattern.is_empty() || pattern.len() > 200 || pattern.contains('\n') {
        " with `riskgate approvals add PATTERN`".to_string()
    } else {
        format!(" with `riskgate approvals add {}`", shell_quote(pattern))
    }
}

/// Quote for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn top_reason(assessment: &Assessment, lv: &Leveling) -> String {
    if lv.level != assessment.level
        && let Some(a) = lv.adjustments.last()
    {
        return a.clone();
    }
    if let Some(r) = assessment.reasons.first() {
        if assessment.reasons.len() > 1 {
            return format!("{r} (and {} more)", assessment.reasons.len() - 1);
        }
        return r.clone();
    }
    if let Some(a) = lv.adjustments.last() {
        return a.clone();
    }
    "nothing risky found".to_string()
}
