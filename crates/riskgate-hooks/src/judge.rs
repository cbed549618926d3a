//! The judge: one [`Call`] → a [`Verdict`], through riskgate's gate.
//!
//! Each judged tool becomes an [`Action`] with an [`Assessment`] and goes through
//! [`Gate::evaluate`] (policy, blocklist, overrides, blocked paths, standing approvals and
//! denials, the session cache keyed by the agent's session id, the audit log with source
//! `hook:<agent>`). The gate never prompts here: the context is not interactive, and when a
//! person must decide the gate answers "ask" if the agent can ask (`host_can_ask`), else
//! "deny" with how to approve.
//!
//! | tool | action | assessment |
//! |---|---|---|
//! | shell | the command | [`riskgate::verdict::prepare`]: the engine (rules, analyzers) and the path classes of the files it writes and removes, as `check` and `scan` do |
//! | write / edit / delete | a file write of the path | [`riskgate::paths`] + [`crate::content`] |
//! | read | a `READ` fetch of `file://PATH` | [`riskgate::paths::read_findings`], blocked paths; nothing found: no opinion |
//! | fetch | a fetch of the URL | [`crate::url`] |
//! | MCP | the command `mcp__server__tool` | the policy's `mcp.tools` level, secrets and (for tools [`crate::mcp_tools`] does not know) commands in the arguments; nothing: no opinion |
//! | MCP, known tool | also each command, SQL, code, file write / edit / delete / move, read or URL its arguments carry ([`crate::mcp_tools`]) | as the matching row of this table |
//! | SQL, code | the SQL or code | [`riskgate::verdict::prepare`]: the SQL and code analyzers |
//! | other | — | no opinion (recorded) |
//!
//! Several tools in one call (a multi-file patch) are each decided; the strictest answer wins.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use riskgate::gate::audit::AuditRecord;
use riskgate::gate::policy::AskFallback;
use riskgate::gate::{Context, DecidedBy, Gate, Outcome, Policy};
use riskgate::model::ActionKind;
use riskgate::{Action, Assessment, Decision, Engine, EngineOptions, Finding, RiskLevel};

use crate::request::{Call, Tool};
use crate::verdict::{Answer, Verdict};
use crate::{Agent, AskSupport};
use riskgate::paths;
use riskgate::verdict::Scope;

/// The engine, built on first use (a file write of a Markdown file never needs it).
pub struct LazyEngine {
    options: EngineOptions,
    cell: OnceCell<Engine>,
}

impl LazyEngine {
    /// An engine for `policy` (its extra rule packs and environment), not built yet.
    pub fn new(policy: &Policy) -> LazyEngine {
        LazyEngine {
            options: EngineOptions {
                rule_packs: policy
                    .rules_extra()
                    .iter()
                    .map(|s| s.value.clone())
                    .collect(),
                environment_production: policy.environment().value
                    == riskgate::gate::policy::Environment::Production,
            },
            cell: OnceCell::new(),
        }
    }

    /// The engine (built now if needed; its warnings go to stderr).
    pub fn get(&self) -> &Engine {
        self.cell.get_or_init(|| {
            let e = Engine::new(&self.options);
            for w in e.warnings() {
                crate::warn::warn(w.to_string());
            }
            e
        })
    }
}

/// Whether `agent` can be answered "ask" for `call` under `policy` (after
/// [`with_agent_defaults`]).
pub fn can_ask(agent: Agent, call_can_ask: bool, policy: &Policy) -> bool {
    call_can_ask
        && agent.ask_support() != AskSupport::Never
        && policy.ask_fallback() == AskFallback::Ask
}

/// `policy` with `agent`'s default for `hooks.ask_fallback` (ask for agents that can ask).
pub fn with_agent_defaults(agent: Agent, policy: Policy) -> Policy {
    let default = match agent.ask_support() {
        AskSupport::Native => AskFallback::Ask,
        AskSupport::ByPolicy | AskSupport::Never => AskFallback::Deny,
    };
    policy.with_default_ask_fallback(default)
}

/// The directory the call runs in: the payload's `cwd` when it is an existing absolute
/// directory, else the process's.
pub fn call_cwd(call: &Call) -> PathBuf {
    call.cwd
        .clone()
        .filter(|_| has_cwd(call))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// Whether the payload names a usable working directory (an existing absolute directory).
pub fn has_cwd(call: &Call) -> bool {
    call.cwd
        .as_ref()
        .is_some_and(|c| c.is_absolute() && c.is_dir())
}

/// The extra project roots a call names: the agent's project directory ([`Call::project_dir`])
/// and workspace roots (the policy's project root and the git work tree around the working
/// directory are added by [`Scope::for_policy`]).
pub fn call_roots(call: &Call) -> Vec<PathBuf> {
    call.project_dir
        .iter()
        .chain(call.workspace_roots.iter())
        .filter(|p| p.is_absolute())
        .cloned()
        .collect()
}

/// Decide about `call` for `agent` under `policy` (already with the agent's defaults). After
/// the tool ran ([`Call::after`]), remember instead what needed the user's approval.
pub fn judge(agent: Agent, call: &Call, policy: Policy) -> Verdict {
    let cwd = call_cwd(call);
    for w in policy.warnings() {
        crate::warn::warn(w.to_string());
    }
    let mut ctx = Context::new(cwd.clone()).agent(agent.name(), call.session_id.clone());
    ctx.source = agent.source();
    ctx.host_can_ask = can_ask(agent, call.can_ask, &policy);
    // paths are resolved (symbolic links followed) only for the calls that need it
    let scope = Scope::for_policy(&policy, &cwd, &call_roots(call));
    let engine = LazyEngine::new(&policy);
    // the hook server's assessment cache (`None` when deciding alone)
    let cached = crate::server::cache::CallScope::new(&policy, agent.name(), &call_roots(call));
    let audit_path = policy.audit_path();
    let mut gate = Gate::new(policy).with_queue();
    let mut verdicts = Vec::new();
    // known MCP tools are followed by what their arguments do (a command, SQL, a file …)
    for (tool, via) in &crate::mcp_tools::expand(&call.tools) {
        let start = Instant::now();
        let v = match prepare(tool, &ctx, &scope, &engine, gate.policy(), cached.as_ref()) {
            Prepared::Gate {
                action,
                assessment,
                ctx: tctx,
            } if call.after => {
                let v = remember_approved(gate.policy(), &action, &assessment, &tctx);
                record(
                    &audit_path,
                    &tctx,
                    action.kind().as_str(),
                    &assessment.input,
                    &v,
                    "user",
                    start.elapsed(),
                );
                v
            }
            Prepared::Gate {
                action,
                assessment,
                ctx: tctx,
            } => {
                let out = gate.evaluate(&action, *assessment, &tctx);
                if let Some(req) = gate.queued()
                    && let Err(e) = riskgate::gate::queue::announce(gate.policy(), req)
                {
                    crate::warn::warn(format!("approval request not announced: {e}"));
                }
                for w in &out.warnings {
                    crate::warn::warn(w.to_string());
                }
                let answer = match out.decision {
                    Decision::Allow => Answer::Allow,
                    Decision::Ask => Answer::Ask,
                    Decision::Deny => Answer::Deny,
                };
                Verdict::new(answer, out.reason, Some(out.level))
            }
            Prepared::NoOpinion { kind, input, why } => {
                let v = Verdict::no_opinion(why);
                record(&audit_path, &ctx, kind, &input, &v, "none", start.elapsed());
                v
            }
        };
        verdicts.push(match via {
            Some(name) => Verdict {
                reason: format!("{} (in the arguments of MCP tool {name})", v.reason),
                ..v
            },
            None => v,
        });
    }
    let v = Verdict::combine(verdicts);
    if ctx.host_can_ask { v } else { v.without_ask() }
}

/// After the tool ran: an action the gate would have asked about was approved by the user in
/// the agent; remember it in the session cache (5 minutes, shared by the session's hook calls).
fn remember_approved(
    policy: &Policy,
    action: &Action,
    assessment: &Assessment,
    ctx: &Context,
) -> Verdict {
    let out = riskgate::gate::decide(assessment, action, policy, ctx);
    if out.decision != Decision::Ask {
        return Verdict::no_opinion(format!("ran after {}: nothing to remember", out.decision));
    }
    let Some(id) = ctx.session_id.as_deref() else {
        return Verdict::no_opinion("approved, but the call has no session id to remember it by");
    };
    let mut cache = riskgate::gate::SessionCache::new(policy.state_dir(), Some(id));
    match cache.remember(action) {
        Ok(()) => Verdict::new(
            Answer::NoOpinion,
            format!("approved by the user in this session: {}", out.reason),
            Some(out.level),
        ),
        Err(e) => {
            crate::warn::warn(format!(
                "could not remember the approval in the session: {e}"
            ));
            Verdict::no_opinion(format!("approved, not remembered: {e}"))
        }
    }
}

enum Prepared {
    Gate {
        action: Action,
        assessment: Box<Assessment>,
        ctx: Context,
    },
    NoOpinion {
        kind: &'static str,
        input: String,
        why: String,
    },
}

fn mid_score(level: RiskLevel) -> u8 {
    (level.min_score() / 2 + level.max_score() / 2).max(1)
}

fn prepare(
    tool: &Tool,
    ctx: &Context,
    scope: &Scope,
    engine: &LazyEngine,
    policy: &Policy,
    cached: Option<&crate::server::cache::CallScope>,
) -> Prepared {
    let project = || scope.project();
    match tool {
        Tool::Shell { command, dir } | Tool::PowerShell { command, dir } => {
            let shell =
                matches!(tool, Tool::PowerShell { .. }).then_some(riskgate::Shell::PowerShell);
            let p =
                crate::server::cache::shell(engine, scope, command, shell, dir.as_deref(), cached);
            Prepared::Gate {
                ctx: p.context(ctx),
                action: p.action,
                assessment: Box::new(p.assessment),
            }
        }
        Tool::Write {
            path,
            content,
            op,
            language,
        } => {
            let mut findings = paths::write_findings(project(), path, *op);
            if *op != riskgate::model::WriteOp::Delete {
                findings.extend(crate::content::content_findings(
                    engine, path, content, *language,
                ));
            }
            Prepared::Gate {
                action: Action::FileWrite {
                    path: path.clone(),
                    content: None,
                    op: *op,
                },
                assessment: Box::new(Assessment::from_findings(
                    ActionKind::FileWrite,
                    path.clone(),
                    findings,
                )),
                ctx: ctx.clone(),
            }
        }
        Tool::Read { path } => {
            let mut findings = paths::read_findings(project(), path);
            if let riskgate::gate::policy::PathVerdict::Blocked(g) =
                policy.check_path(path, &ctx.cwd)
            {
                findings.push(Finding::new(
                    "hook.read.blocked-path",
                    RiskLevel::High,
                    70,
                    format!("reads blocked path {path} (`{}`, {})", g.written, g.source),
                ));
            }
            if findings.is_empty() {
                return Prepared::NoOpinion {
                    kind: "file_read",
                    input: path.clone(),
                    why: format!("reading {path} is not judged by riskgate"),
                };
            }
            let url = format!("file://{}", project().resolve(path).display());
            Prepared::Gate {
                assessment: Box::new(Assessment::from_findings(
                    ActionKind::Fetch,
                    url.clone(),
                    findings,
                )),
                action: Action::Fetch {
                    url,
                    method: Some("READ".into()),
                },
                ctx: ctx.clone(),
            }
        }
        Tool::Fetch { url } => Prepared::Gate {
            action: Action::Fetch {
                url: url.clone(),
                method: None,
            },
            assessment: Box::new(Assessment::from_findings(
                ActionKind::Fetch,
                url.clone(),
                crate::url::url_findings(url),
            )),
            ctx: ctx.clone(),
        },
        Tool::Sql { sql, dialect } => {
            let action = Action::Sql {
                sql: sql.clone(),
                dialect: dialect.clone(),
            };
            gate_prepared(
                riskgate::verdict::prepare(engine.get(), scope, &action, None),
                ctx,
            )
        }
        Tool::Code { code, language } => {
            let action = Action::Code {
                code: code.clone(),
                language: *language,
            };
            gate_prepared(
                riskgate::verdict::prepare(engine.get(), scope, &action, None),
                ctx,
            )
        }
        Tool::Mcp { name, input } => {
            let mut findings = Vec::new();
            let mapped = crate::mcp_tools::map(name, input);
            if mapped.as_ref().is_some_and(|m| m.truncated) {
                findings.push(Finding::new(
                    "hook.mcp.too-many-targets",
                    RiskLevel::High,
                    70,
                    format!(
                        "MCP tool {name} names more than {} targets; the rest were not judged",
                        crate::mcp_tools::MAX_TARGETS
                    ),
                ));
            }
            if let Some(level) = policy.mcp_level(name) {
                findings.push(Finding::new(
                    "hook.mcp.policy",
                    level,
                    mid_score(level),
                    format!("MCP tool {name} is rated {level} by the policy (mcp.tools)"),
                ));
            }
            let text = input.to_string();
            for s in riskgate::analyzers::secrets::find_secrets(&text) {
                findings.push(Finding::new(
                    "hook.mcp.secret",
                    RiskLevel::High,
                    75,
                    format!(
                        "sends a {} ({}) to MCP tool {name}",
                        s.description, s.redacted
                    ),
                ));
            }
            if let serde_json::Value::Object(m) = input
                && mapped.is_none()
            {
                for key in ["command", "cmd", "script", "shell_command"] {
                    if let Some(serde_json::Value::String(cmd)) = m.get(key) {
                        for mut f in engine.get().assess_command(cmd).findings {
                            f.description =
                                format!("{} (in `{key}` of MCP tool {name})", f.description);
                            findings.push(f);
                        }
                    }
                }
            }
            let summary = crate::adapters::summary(name, input);
            if findings.is_empty() {
                let why = match &mapped {
                    Some(m) => format!(
                        "MCP tool {name}: its arguments are judged as {} ({})",
                        format!("{:?}", m.analyzer).to_lowercase(),
                        m.entry
                    ),
                    None => format!("MCP tool {name} is not rated by the policy (mcp.tools)"),
                };
                return Prepared::NoOpinion {
                    kind: "mcp",
                    input: summary,
                    why,
                };
            }
            Prepared::Gate {
                action: Action::command(name.clone()),
                assessment: Box::new(Assessment::from_findings(
                    ActionKind::Command,
                    summary,
                    findings,
                )),
                ctx: ctx.clone(),
            }
        }
        Tool::Other { summary } => Prepared::NoOpinion {
            kind: "tool",
            input: summary.clone(),
            why: "riskgate does not judge this tool".to_string(),
        },
    }
}

/// A prepared action for the gate, in its own directory.
fn gate_prepared(p: riskgate::verdict::Prepared, ctx: &Context) -> Prepared {
    Prepared::Gate {
        ctx: p.context(ctx),
        action: p.action,
        assessment: Box::new(p.assessment),
    }
}

/// Record a hook answer that did not go through the gate (no opinion, a malformed payload, an
/// internal error) in the audit journal at `audit_path`. Failures are warnings on stderr.
pub fn record(
    audit_path: &Path,
    ctx: &Context,
    kind: &str,
    input: &str,
    verdict: &Verdict,
    decided_by: &str,
    latency: Duration,
) {
    let assessment = Assessment::safe(ActionKind::Command, input);
    let decision = match verdict.answer {
        Answer::NoOpinion | Answer::Allow => Decision::Allow,
        Answer::Ask => Decision::Ask,
        Answer::Deny => Decision::Deny,
    };
    let level = verdict.level.unwrap_or(RiskLevel::Safe);
    let outcome = Outcome {
        decision,
        level,
        assessed_level: level,
        score: level.min_score(),
        decided_by: DecidedBy::Policy,
        reason: verdict.reason.clone(),
        adjustments: Vec::new(),
        warnings: Vec::new(),
        pattern: String::new(),
        summary: verdict.reason.clone(),
        assessment: assessment.clone(),
    };
    let mut rec = AuditRecord::new(ctx, &assessment, &outcome, latency);
    rec.kind = kind.to_string();
    rec.decided_by = decided_by.to_string();
    if let Err(e) = riskgate::gate::journal::append(audit_path, &rec) {
        crate::warn::warn(format!("audit log not written: {e}"));
    }
}
