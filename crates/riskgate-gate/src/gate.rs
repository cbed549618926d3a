//! [`Gate`]: the whole flow for one action — policy level, standing denial, session cache and
//! standing approval (before prompting), the decision, the prompt and what its answer stores,
//! and the audit record with the latency.
//!
//! Nothing here can turn a decision into an error: an unreadable settings file, a failed
//! write, a missing terminal or a locked audit database become [`Outcome::warnings`].

use std::time::{Duration, Instant};

use riskgate_model::{Action, Assessment, Decision, RiskLevel};

use crate::approvals::ApprovalStore;
use crate::audit::AuditRecord;
use crate::decide::{self, Context, DecidedBy, Outcome, Standing};
use crate::policy::Policy;
use crate::prompt::{self, Answer, Prompter, TtyPrompter};
use crate::queue::{NewRequest, Queue, Request};
use crate::queue_store::BoxedStore;
use crate::session::SessionCache;

enum Audit {
    On,
    Off,
}

/// The gate: a policy, the approvals store, the session caches, a prompter and the audit log.
pub struct Gate {
    policy: Policy,
    approvals: ApprovalStore,
    local_session: SessionCache,
    prompter: Box<dyn Prompter>,
    audit: Audit,
    queue: bool,
    queued: Option<Request>,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate")
            .field("policy", &self.policy)
            .field("approvals", &self.approvals)
            .finish_non_exhaustive()
    }
}

impl Gate {
    /// A gate with the approvals at [`Policy::settings_path`], the audit log at
    /// [`Policy::audit_path`] (opened on first use) and prompts on the terminal.
    pub fn new(policy: Policy) -> Gate {
        // temporary files of writes killed before their rename
        let state = policy.state_dir();
        crate::atomic::sweep_stale_temp_files(state);
        crate::atomic::sweep_stale_temp_files(&state.join("sessions"));
        Gate {
            approvals: ApprovalStore::new(policy.settings_path()),
            policy,
            local_session: SessionCache::in_memory(),
            prompter: Box::new(TtyPrompter),
            audit: Audit::On,
            queue: false,
            queued: None,
        }
    }

    /// Ask with `prompter` instead of the terminal.
    pub fn with_prompter(mut self, prompter: impl Prompter + 'static) -> Gate {
        self.prompter = Box::new(prompter);
        self
    }

    /// Use this approvals store (another file, a fixed clock …).
    pub fn with_approvals(mut self, store: ApprovalStore) -> Gate {
        self.approvals = store;
        self
    }

    /// Use the approval queue ([`crate::queue`]): an action refused only because nobody can
    /// approve it here is stored as a request for a reviewer, and a reviewer's grant lets the
    /// identical action through.
    pub fn with_queue(mut self) -> Gate {
        self.queue = true;
        self
    }

    /// The approval request the last [`Gate::evaluate`] created, if it created one (to announce
    /// it).
    pub fn queued(&self) -> Option<&Request> {
        self.queued.as_ref()
    }

    /// Record nothing.
    pub fn without_audit(mut self) -> Gate {
        self.audit = Audit::Off;
        self
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The approvals store.
    pub fn approvals(&mut self) -> &mut ApprovalStore {
        &mut self.approvals
    }

    /// Decide about `action`, assessed as `assessment`, in `ctx`: look up standing answers,
    /// ask if needed (when `ctx.interactive`), store `always` / `never`, record the outcome.
    pub fn evaluate(&mut self, action: &Action, assessment: Assessment, ctx: &Context) -> Outcome {
        let start = Instant::now();
        let mut warnings = Vec::new();
        let lv = decide::effective_level(&assessment, action, &self.policy, ctx);
        let mut shared_session = ctx
            .session_id
            .as_deref()
            .map(|id| SessionCache::new(self.policy.state_dir(), Some(id)));
        let mut standing = Standing::default();
        if lv.blocked.is_none() {
            let snap = self.approvals.snapshot();
            warnings.extend(snap.warnings.iter().cloned());
            standing.denied = snap
                .denial_for_node(action, ctx.node_type.as_deref())
                .map(|e| e.describe());
            standing.store_unreadable = snap.unreadable;
            let wants_person = lv.level < RiskLevel::Critical
                && decide::needs_person(lv.level, action, &self.policy, ctx);
            if wants_person && standing.denied.is_none() {
                standing.session = self.local_session.is_approved(action)
                    || shared_session
                        .as_ref()
                        .is_some_and(|s| s.is_approved(action));
                if !standing.session {
                    standing.approved = snap
                        .approval_for_node(action, ctx.node_type.as_deref())
                        .map(|e| e.describe());
                }
                if self.queue
                    && standing.approved.is_none()
                    && !standing.session
                    && !assessment.degraded
                    && !ctx.force
                    && !ctx.accept_risk
                {
                    match claim_grant(&self.policy, action, ctx) {
                        Ok(found) => standing.approved = found,
                        Err(e) => warnings.push(format!("approval queue not read: {e}")),
                    }
                }
            }
        }
        let mut out = decide::decide_leveled(&assessment, action, &self.policy, ctx, lv, &standing);
        self.queued = None;
        if self.queue && decide::awaits_reviewer(&out, action, &self.policy, ctx) {
            match enqueue(&self.policy, action, ctx, &mut out) {
                Ok(created) => self.queued = created,
                Err(e) => warnings.push(format!("approval request not stored: {e}")),
            }
        }
        if out.decision == Decision::Ask && ctx.interactive {
            let summary = prompt::summary(action, &assessment, &out);
            let answer = self.prompter.ask(&summary, self.policy.approval_timeout());
            self.apply_answer(
                action,
                ctx,
                answer,
                &mut out,
                &mut warnings,
                shared_session.as_mut(),
            );
        }
        out.warnings.extend(warnings);
        self.record(ctx, &assessment, &mut out, start.elapsed());
        // warnings are printed (stderr, a hook's reply): never with a secret of the input
        crate::redact::redact_all(&mut out.warnings);
        out
    }

    fn apply_answer(
        &mut self,
        action: &Action,
        ctx: &Context,
        answer: Answer,
        out: &mut Outcome,
        warnings: &mut Vec<String>,
        shared_session: Option<&mut SessionCache>,
    ) {
        out.decision = if answer.approves() {
            Decision::Allow
        } else {
            Decision::Deny
        };
        out.decided_by = DecidedBy::User;
        out.reason = format!(
            "{} risk (score {}) {}: {}",
            out.level,
            out.score,
            answer.describe(),
            out.summary
        );
        // a workflow node's answer is stored under the node's own type (seed 000's example)
        let kind = ctx
            .node_type
            .as_deref()
            .unwrap_or_else(|| action.kind().as_str());
        let stored = match answer {
            Answer::Always => Some(self.approvals.add(
                &out.pattern,
                Some(kind),
                Some(self.policy.approval_ttl_days()),
            )),
            Answer::Never => Some(self.approvals.deny(&out.pattern, Some(kind))),
            _ => None,
        };
        match stored {
            Some(Ok(update)) => warnings.extend(update.warnings),
            Some(Err(e)) => warnings.push(format!(
                "could not save your answer to {}: {e} (the decision stands for this time)",
                self.approvals.path().display()
            )),
            None => {}
        }
        if answer.approves() {
            let _ = self.local_session.remember(action);
            if let Some(s) = shared_session
                && let Err(e) = s.remember(action)
            {
                warnings.push(format!(
                    "could not share the approval with this session: {e}"
                ));
            }
        }
    }

    fn record(
        &mut self,
        ctx: &Context,
        assessment: &Assessment,
        out: &mut Outcome,
        latency: Duration,
    ) {
        if matches!(self.audit, Audit::On) {
            let mut rec = AuditRecord::new(ctx, assessment, out, latency);
            rec.policy_rev = self.policy.revision().map(str::to_string);
            let path = self.policy.audit_path();
            match crate::journal::append(&path, &rec) {
                Ok(size) if size > crate::journal::MOVE_AT_BYTES => {
                    match crate::audit::AuditLog::open(&path) {
                        Ok(log) => out.warnings.extend(log.warnings().iter().cloned()),
                        Err(e) => out.warnings.push(format!("audit journal not moved: {e}")),
                    }
                }
                Ok(_) => {}
                Err(e) => out.warnings.push(format!(
                    "audit log not written ({}): {e}",
                    crate::journal::journal_path(&path).display()
                )),
            }
        }
    }
}

/// The queue's identity of `action` in `ctx`.
fn queue_key(action: &Action, ctx: &Context) -> String {
    let kind = ctx
        .node_type
        .as_deref()
        .unwrap_or_else(|| action.kind().as_str());
    let text = serde_json::to_string(action).unwrap_or_else(|_| action.subject());
    Queue::key(kind, &text, &ctx.cwd)
}

/// A reviewer's grant in force for the identical action (a once-grant is used up), described
/// for the reason: this machine's queue first, then the team's (when one is configured; see
/// [`crate::queue_store`]).
fn claim_grant(
    policy: &Policy,
    action: &Action,
    ctx: &Context,
) -> Result<Option<String>, crate::error::QueueError> {
    let key = queue_key(action, ctx);
    let now = crate::clock::now();
    let mut found = match Queue::open_existing(&policy.queue_path())? {
        Some(queue) => queue.claim_grant(&key, now)?,
        None => None,
    };
    if found.is_none()
        && let Some(team) = crate::queue_store::open_team(policy)
    {
        found = team?.claim_grant(&key, now)?;
    }
    Ok(found.map(|r| {
        let who: Vec<&str> = r
            .reviews
            .iter()
            .filter(|v| v.verdict == "grant")
            .map(|v| v.reviewer.as_str())
            .collect();
        let how = if r.once {
            "once".to_string()
        } else {
            format!("until {}", r.expires.as_deref().unwrap_or("?"))
        };
        format!("request {} granted {how} by {}", r.id, who.join(" and "))
    }))
}

/// Store (or find) the request for an action nobody can approve here and tell the agent to
/// wait for it; a standing refusal is reported instead. Returns the request when it is new.
/// The request goes to the team's queue when one is configured (a reviewer on any machine
/// sees it); when that database cannot be reached, to this machine's, with a warning.
fn enqueue(
    policy: &Policy,
    action: &Action,
    ctx: &Context,
    out: &mut Outcome,
) -> Result<Option<Request>, crate::error::QueueError> {
    let mut queue: BoxedStore = match crate::queue_store::open_team(policy) {
        Some(Ok(team)) => team,
        Some(Err(e)) => {
            out.warnings.push(format!(
                "{e}: the approval request is kept in this machine's queue"
            ));
            Box::new(Queue::open(&policy.queue_path())?)
        }
        None => Box::new(Queue::open(&policy.queue_path())?),
    };
    let key = queue_key(action, ctx);
    let now = crate::clock::now();
    if let Some(r) = queue.standing_refusal(&key, now)? {
        let who = r
            .reviews
            .iter()
            .find(|v| v.verdict == "refuse")
            .map(|v| v.reviewer.as_str())
            .unwrap_or("a reviewer");
        out.reason = format!(
            "{} refused by {who} (request {}): {}. Do not retry it; choose another way.",
            out.level,
            r.id,
            r.note.as_deref().unwrap_or("no reason given")
        );
        out.decided_by = DecidedBy::Approval;
        return Ok(None);
    }
    let subject = crate::cmdpattern::Subject::new(action);
    let two = policy
        .two_reviewers()
        .iter()
        .any(|p| p.pattern.matches(&subject));
    let new = NewRequest {
        key,
        kind: ctx
            .node_type
            .clone()
            .unwrap_or_else(|| action.kind().as_str().to_string()),
        input: crate::redact::redact(&action.subject()).into_owned(),
        cwd: ctx.cwd.display().to_string(),
        agent: ctx.agent.clone(),
        session: ctx.session_id.clone(),
        level: out.level,
        score: out.score,
        rules: out
            .assessment
            .rule_ids()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        reason: crate::redact::redact(&out.summary).into_owned(),
        required: if two { 2 } else { 1 },
    };
    let (req, created) = queue.request(&new, now)?;
    let reviewers = if req.required > 1 {
        "two reviewers to grant"
    } else {
        "a reviewer to grant"
    };
    out.reason = format!(
        "{} Approval requested: request {id}. Wait for {reviewers} it (`riskgate approvals grant {id}`), then run the identical action again; do not work around it.",
        out.reason,
        id = req.id
    );
    Ok(created.then_some(req))
}
