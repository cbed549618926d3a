//! The MCP tools riskgate offers, independent of the transport: their names, descriptions and
//! input schemas ([`definitions`]), and [`call`], which checks a call's arguments and answers it
//! through the same path as the command line (`riskgate::verdict` and the gate for commands,
//! code and SQL; the change-set classifier for diffs; the workflow analyzer for workflows).
//!
//! Every answer is a JSON object with at least `level`, `score`, `findings`, `explanation`,
//! `decision` (allow / ask / deny) and `reason`. The caller is an agent that can ask its user,
//! so what needs a person is answered `ask` (as the hooks answer agents that can ask); nothing
//! is ever prompted on the server's terminal. Arguments are checked before anything runs: a
//! missing, mistyped, unknown or oversized argument is an [`ArgError`] naming the field.

use std::sync::Arc;

use riskgate::analyzers::diff::{DiffOptions, classify_diff};
use riskgate::gate::policy::{AskFallback, Environment};
use riskgate::gate::{Context, Gate, Policy};
use riskgate::model::Language;
use riskgate::verdict::{Scope, prepare};
use riskgate::{Action, Engine, EngineOptions, Report, RiskLevel};
use riskgate_workflow::{
    AnalyzeOptions, Format, NodeRegistry, WorkflowError, WorkflowIr, WorkflowRiskAnalyzer,
};
use serde_json::{Map, Value, json};

/// The largest text argument accepted (the transport already caps a message at 16 MiB).
pub const MAX_ARGUMENT_BYTES: usize = 16 << 20;

/// Loads the user's effective policy (user, project and command-line layers) for each call, so
/// an edited policy file applies to the next call.
pub type PolicyLoader = Arc<dyn Fn() -> Result<Policy, String> + Send + Sync>;

/// A call that cannot be answered: a bad argument (named) or an unknown tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}`: {message}")]
pub struct ArgError {
    /// The argument at fault (`name` for an unknown tool).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl ArgError {
    fn new(field: &str, message: impl Into<String>) -> ArgError {
        ArgError {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// Why a well-formed call could not be answered (the policy could not be loaded).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// A bad argument or an unknown tool.
    #[error(transparent)]
    Arg(#[from] ArgError),
    /// The policy files are invalid.
    #[error("the policy cannot be loaded: {0}")]
    Policy(String),
}

/// One tool: its name, description and JSON Schema of its arguments.
#[derive(Debug, Clone)]
pub struct Definition {
    /// The tool's name.
    pub name: &'static str,
    /// What it does, for the model choosing it.
    pub description: &'static str,
    /// The JSON Schema of its arguments (an object schema).
    pub input_schema: Value,
}

const LANGUAGES: [&str; 10] = [
    "python",
    "js",
    "javascript",
    "typescript",
    "ts",
    "sh",
    "bash",
    "perl",
    "ruby",
    "php",
];
const DIALECTS: [&str; 6] = [
    "generic",
    "postgres",
    "postgresql",
    "mysql",
    "mariadb",
    "sqlite",
];

fn schema(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The tools, in the order `tools/list` shows them.
pub fn definitions() -> Vec<Definition> {
    let agent = json!({"type": "string", "description": "The agent on whose behalf it runs (for the policy's trust levels, e.g. `claude`)."});
    vec![
        Definition {
            name: "assess_command",
            description: "Assess a shell command line before running it: risk level (SAFE, LOW, MEDIUM, HIGH, CRITICAL), 0-100 score, the findings (rule ids and why), effects, and the decision under the user's policy (allow, ask: confirm with the user first, deny: do not run). The command is never run.",
            input_schema: schema(
                json!({
                    "command": {"type": "string", "description": "The command line, as bash would receive it."},
                    "cwd": {"type": "string", "description": "The directory it would run in (default: the server's)."},
                    "agent": agent,
                }),
                &["command"],
            ),
        },
        Definition {
            name: "assess_code",
            description: "Assess a code snippet before running it (Python, JavaScript/TypeScript, shell, Perl, Ruby, PHP): level, score, findings and the decision under the user's policy. The code is never run.",
            input_schema: schema(
                json!({
                    "code": {"type": "string", "description": "The source code."},
                    "language": {"type": "string", "enum": LANGUAGES, "description": "Its language."},
                    "agent": agent,
                }),
                &["code", "language"],
            ),
        },
        Definition {
            name: "assess_sql",
            description: "Assess SQL before running it (DROP, TRUNCATE, DELETE/UPDATE without WHERE, grants …): level, score, findings and the decision under the user's policy.",
            input_schema: schema(
                json!({
                    "sql": {"type": "string", "description": "One or more SQL statements."},
                    "dialect": {"type": "string", "enum": DIALECTS, "description": "The SQL dialect (default generic)."},
                    "agent": agent,
                }),
                &["sql"],
            ),
        },
        Definition {
            name: "assess_diff",
            description: "Classify a change set (a unified diff, as `git diff` prints it) A / B / C: A allow, B ask (review it), C deny (unreviewed third-party code, secrets, CI or policy changes …), with level, score and the criteria that fired.",
            input_schema: schema(
                json!({"diff": {"type": "string", "description": "The unified diff text."}}),
                &["diff"],
            ),
        },
        Definition {
            name: "assess_workflow",
            description: "Assess a whole workflow (nodes with a type and config, in JSON or YAML) before it runs: every risky node parameter with its level, and the decision: deny on a CRITICAL risk, ask when HIGH risks need a person, else allow.",
            input_schema: schema(
                json!({
                    "workflow": {"type": "string", "description": "The workflow IR as JSON or YAML text: {\"nodes\": [{\"id\", \"type\", \"config\"}], \"edges\"?, \"metadata\"?}."},
                }),
                &["workflow"],
            ),
        },
    ]
}

/// Answer a call of tool `name` with `args` (absent arguments: an empty object).
pub fn call(
    name: &str,
    args: Option<&Map<String, Value>>,
    loader: &PolicyLoader,
) -> Result<Value, CallError> {
    let empty = Map::new();
    let args = args.unwrap_or(&empty);
    let Some(def) = definitions().into_iter().find(|d| d.name == name) else {
        let names: Vec<&str> = definitions().iter().map(|d| d.name).collect();
        return Err(ArgError::new(
            "name",
            format!("unknown tool `{name}` (tools: {})", names.join(", ")),
        )
        .into());
    };
    check_args(&def, args)?;
    let text = |field: &str| -> Result<String, ArgError> {
        str_arg(args, field)?.ok_or_else(|| ArgError::new(field, "is required"))
    };
    match def.name {
        "assess_command" => {
            let command = text("command")?;
            let cwd = str_arg(args, "cwd")?;
            let agent = str_arg(args, "agent")?;
            let policy = load(loader)?;
            Ok(gated(
                policy,
                &Action::command(command),
                cwd.as_deref(),
                agent,
            ))
        }
        "assess_code" => {
            let code = text("code")?;
            let language = language(&text("language")?)?;
            let agent = str_arg(args, "agent")?;
            let policy = load(loader)?;
            let action = Action::Code {
                code,
                language: Some(language),
            };
            Ok(gated(policy, &action, None, agent))
        }
        "assess_sql" => {
            let sql = text("sql")?;
            let dialect = match str_arg(args, "dialect")? {
                Some(d) if DIALECTS.contains(&d.to_ascii_lowercase().as_str()) => {
                    d.to_ascii_lowercase()
                }
                Some(d) => {
                    return Err(ArgError::new(
                        "dialect",
                        format!("unknown dialect `{d}` (expected {})", DIALECTS.join(", ")),
                    )
                    .into());
                }
                None => "generic".to_string(),
            };
            let agent = str_arg(args, "agent")?;
            let policy = load(loader)?;
            let action = Action::Sql {
                sql,
                dialect: Some(dialect),
            };
            Ok(gated(policy, &action, None, agent))
        }
        "assess_diff" => {
            let diff = text("diff")?;
            let policy = load(loader)?;
            Ok(diff_answer(&policy, &diff))
        }
        _ => {
            let text = text("workflow")?;
            let ir = parse_workflow(&text)?;
            let policy = load(loader)?;
            Ok(workflow_answer(policy, &ir))
        }
    }
}

/// Unknown arguments, wrong types and oversized texts, each named.
fn check_args(def: &Definition, args: &Map<String, Value>) -> Result<(), ArgError> {
    let props = def
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    for (key, value) in args {
        if !props.is_some_and(|p| p.contains_key(key)) {
            let known: Vec<&str> = props
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            return Err(ArgError::new(
                key,
                format!(
                    "unknown argument of {} (arguments: {})",
                    def.name,
                    known.join(", ")
                ),
            ));
        }
        str_of(key, value)?;
    }
    Ok(())
}

fn str_of<'v>(field: &str, value: &'v Value) -> Result<Option<&'v str>, ArgError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) if s.len() > MAX_ARGUMENT_BYTES => Err(ArgError::new(
            field,
            format!(
                "is {} bytes, more than the {} accepted",
                s.len(),
                MAX_ARGUMENT_BYTES
            ),
        )),
        Value::String(s) => Ok(Some(s)),
        other => Err(ArgError::new(
            field,
            format!(
                "must be a string, got {}",
                riskgate::model::json_kind(other)
            ),
        )),
    }
}

fn str_arg(args: &Map<String, Value>, field: &str) -> Result<Option<String>, ArgError> {
    match args.get(field) {
        None => Ok(None),
        Some(v) => Ok(str_of(field, v)?.map(str::to_string)),
    }
}

fn language(name: &str) -> Result<Language, ArgError> {
    let lower = name.to_ascii_lowercase();
    serde_json::from_value::<Language>(Value::String(lower)).map_err(|_| {
        ArgError::new(
            "language",
            format!(
                "unknown language `{name}` (expected {})",
                LANGUAGES.join(", ")
            ),
        )
    })
}

fn parse_workflow(text: &str) -> Result<WorkflowIr, ArgError> {
    let format = if text.trim_start().starts_with(['{', '[']) {
        Format::Json
    } else {
        Format::Yaml
    };
    WorkflowIr::from_str_as(text, format).map_err(|e| ArgError::new("workflow", e.to_string()))
}

fn load(loader: &PolicyLoader) -> Result<Policy, CallError> {
    let policy = loader().map_err(CallError::Policy)?;
    for w in policy.warnings() {
        eprintln!("riskgate mcp: warning: {w}");
    }
    Ok(policy)
}

fn engine(policy: &Policy) -> Engine {
    let options = EngineOptions {
        rule_packs: policy
            .rules_extra()
            .iter()
            .map(|s| s.value.clone())
            .collect(),
        environment_production: policy.environment().value == Environment::Production,
    };
    let engine = Engine::new(&options);
    for w in engine.warnings() {
        eprintln!("riskgate mcp: warning: {w}");
    }
    engine
}

/// The context of an MCP call: an agent host that can ask its user, never a terminal here.
fn context(policy: &Policy, agent: Option<String>) -> Context {
    let mut ctx = Context::new(policy.cwd().to_path_buf());
    ctx.source = "mcp".to_string();
    // unless the policy says `hooks.ask_fallback: deny`, what needs a person is `ask`
    ctx.host_can_ask = true;
    if let Some(a) = agent.filter(|a| !a.is_empty()) {
        ctx = ctx.agent(a, None);
    }
    ctx
}

/// A command, code or SQL: `riskgate::verdict::prepare`, then the gate, as `riskgate check`.
fn gated(policy: Policy, action: &Action, dir: Option<&str>, agent: Option<String>) -> Value {
    let policy = policy.with_default_ask_fallback(AskFallback::Ask);
    let engine = engine(&policy);
    let scope = Scope::for_policy(&policy, policy.cwd(), &[]);
    let ctx = context(&policy, agent);
    let prepared = prepare(&engine, &scope, action, dir);
    let mut gate = Gate::new(policy);
    let outcome = prepared.evaluate(&mut gate, &ctx);
    let report = Report::from_outcome(outcome);
    serde_json::to_value(&report).unwrap_or_else(|e| internal(&e.to_string()))
}

fn internal(why: &str) -> Value {
    json!({
        "level": RiskLevel::High, "score": RiskLevel::High.min_score(), "findings": [],
        "explanation": {"summary": format!("internal error: {why}")},
        "decision": "ask", "reason": format!("riskgate could not render its answer ({why})"),
    })
}

/// A change set: its class decides (A allow, B ask, C deny), as `riskgate diff`.
fn diff_answer(policy: &Policy, diff: &str) -> Value {
    let opts = DiffOptions {
        environment: if policy.environment().value == Environment::Production {
            riskgate::analyzers::Environment::Production
        } else {
            riskgate::analyzers::Environment::default()
        },
    };
    let report = classify_diff(diff, &opts);
    let mut v = serde_json::to_value(&report).unwrap_or_else(|e| internal(&e.to_string()));
    if let Some(o) = v.as_object_mut() {
        let a = &report.assessment;
        o.entry("findings")
            .or_insert_with(|| serde_json::to_value(&a.findings).unwrap_or_default());
        o.entry("explanation")
            .or_insert_with(|| serde_json::to_value(&a.explanation).unwrap_or_default());
        o.entry("reason").or_insert_with(|| {
            json!(format!(
                "change set class {}: {}",
                report.class.name(),
                report.summary
            ))
        });
    }
    v
}

/// A workflow: CRITICAL risks deny, HIGH risks nobody accepted ask (a standing denial denies),
/// as `riskgate workflow check` with nobody at the terminal.
fn workflow_answer(policy: Policy, ir: &WorkflowIr) -> Value {
    let engine = Arc::new(engine(&policy));
    let registry = NodeRegistry::builtin();
    let mut analyzer = WorkflowRiskAnalyzer::new(Gate::new(policy)).with_engine(engine);
    let options = AnalyzeOptions::default();
    let all = analyzer.scan(ir, &registry).risks;
    let (decision, reason) = match analyzer.check(ir, &registry, &options) {
        Ok(report) => (
            "allow",
            if report.warnings.is_empty() {
                "no HIGH or CRITICAL risk needs a person".to_string()
            } else {
                report.warnings.join("; ")
            },
        ),
        Err(WorkflowError::Critical(e)) => ("deny", e.to_string()),
        Err(WorkflowError::NotAccepted(e)) => {
            let d = match e.refusal {
                riskgate_workflow::Refusal::StandingDenial => "deny",
                _ => "ask",
            };
            (d, e.message.clone())
        }
        Err(other) => ("ask", other.to_string()),
    };
    let level = all.iter().map(|r| r.level).max().unwrap_or(RiskLevel::Safe);
    let score = all
        .iter()
        .map(|r| r.score.unwrap_or_else(|| r.level.min_score()))
        .max()
        .unwrap_or(0)
        .max(level.min_score());
    let findings: Vec<Value> = all
        .iter()
        .map(|r| {
            json!({
                "rule_id": r.pattern, "level": r.level, "description": r.description,
                "node_id": r.node_id, "node_type": r.node_type, "parameter": r.parameter_name,
            })
        })
        .collect();
    let summary = match all.first() {
        None => "no risky node parameter found".to_string(),
        Some(top) => format!(
            "{} risk(s); the highest: node `{}` ({}) parameter `{}`: {}",
            all.len(),
            top.node_id,
            top.node_type,
            top.parameter_name,
            top.description
        ),
    };
    json!({
        "kind": "workflow", "level": level, "score": score, "findings": findings,
        "explanation": {"summary": summary}, "decision": decision, "reason": reason,
        "risks": all,
    })
}
