//! `riskgate workflow check FILE` and `riskgate workflow approve FILE`: seed 000's workflow
//! risk assessment through the `riskgate-workflow` library. Thin: reading arguments, printing,
//! exit codes (0 allow, 4 deny — a CRITICAL risk, or a HIGH one nobody accepted).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use riskgate::gate::decide::shell_quote;
use riskgate::gate::{Gate, prompt};
use riskgate_workflow::{
    AnalyzeOptions, CheckReport, NodeRegistry, RiskAssessment, WorkflowError, WorkflowIr,
    WorkflowRiskAnalyzer,
};
use serde_json::json;

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::exit::Code;
use crate::output::Format;

/// Arguments of `riskgate workflow`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Assess a workflow IR (JSON or YAML) and decide whether it may run.
    Check(CheckArgs),
    /// Record in a saved workflow that its current risks are approved
    /// (`metadata.risk_approval`; a change to a risky node invalidates it).
    Approve(ApproveArgs),
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The workflow file (`.json`, `.yaml` / `.yml`).
    file: PathBuf,
    /// Run HIGH-risk nodes without asking (CRITICAL stays denied).
    #[arg(long)]
    force: bool,
    /// Accept the risk of HIGH-risk nodes without asking (CRITICAL stays denied).
    #[arg(long)]
    accept_risk: bool,
    /// A node registry file (JSON or YAML `node_types`) over the built-in node types.
    #[arg(long, value_name = "FILE")]
    registry: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Session id: approvals given in this session are honored for 5 minutes.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Never prompt, even on a terminal.
    #[arg(long)]
    no_prompt: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

#[derive(Debug, clap::Args)]
struct ApproveArgs {
    /// The workflow file (`.json`, `.yaml` / `.yml`); it is rewritten atomically.
    file: PathBuf,
    /// A node registry file over the built-in node types.
    #[arg(long, value_name = "FILE")]
    registry: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Run `riskgate workflow …`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Check(a) => check(a),
        Sub::Approve(a) => approve(a),
    }
}

fn registry(path: Option<&Path>) -> anyhow::Result<NodeRegistry> {
    let registry = match path {
        Some(p) => NodeRegistry::from_file(p)?,
        None => NodeRegistry::builtin(),
    };
    for w in registry.warnings() {
        eprintln!("riskgate: warning: {w}");
    }
    Ok(registry)
}

fn analyzer(policy: &PolicyArgs) -> anyhow::Result<WorkflowRiskAnalyzer> {
    let policy = policy.load()?;
    let engine = Arc::new(engine_for(&policy));
    Ok(WorkflowRiskAnalyzer::new(Gate::new(policy)).with_engine(engine))
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let registry = registry(args.registry.as_deref())?;
    let ir = WorkflowIr::from_path(&args.file)?;
    let mut analyzer = analyzer(&args.policy)?;
    let options = AnalyzeOptions {
        force: args.force,
        accept_risk: args.accept_risk,
        interactive: !args.no_prompt && prompt::is_interactive(),
        session_id: args.session.clone(),
    };
    let file = args.file.display().to_string();
    match analyzer.check(&ir, &registry, &options) {
        Ok(report) => {
            for w in &report.warnings {
                eprintln!("riskgate: warning: {w}");
            }
            print_report(&file, &report, args.format)?;
            Ok(Code::Allow.into())
        }
        Err(WorkflowError::Critical(e)) => {
            let all = analyzer.scan(&ir, &registry).risks;
            let r = Refused {
                kind: "critical",
                message: &e.to_string(),
                risk: &e.risk,
                pending: &[],
                all: &all,
            };
            refused(&file, args.format, &r)?;
            Ok(Code::Deny.into())
        }
        Err(WorkflowError::NotAccepted(e)) => {
            let all = analyzer.scan(&ir, &registry).risks;
            let message = e.message.replace(
                "riskgate workflow approve FILE",
                &format!("riskgate workflow approve {}", shell_quote(&file)),
            );
            let r = Refused {
                kind: "not_accepted",
                message: &message,
                risk: &e.risk,
                pending: &e.pending,
                all: &all,
            };
            refused(&file, args.format, &r)?;
            Ok(Code::Deny.into())
        }
        Err(other) => Err(other.into()),
    }
}

fn print_report(file: &str, report: &CheckReport, format: Format) -> anyhow::Result<()> {
    match format {
        Format::Json => {
            let mut v = serde_json::to_value(report)?;
            if let Some(o) = v.as_object_mut() {
                o.insert("file".into(), json!(file));
                o.insert("decision".into(), json!("allow"));
            }
            outln!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Text => {
            let n = report.risks.len() + report.skipped.len();
            outln!(
                "workflow {file}: {n} risk(s) in {} node(s) analyzed, state {}, risk hash {}",
                report.nodes_analyzed,
                report.state.as_str(),
                report.risk_hash.get(..12).unwrap_or(&report.risk_hash)
            );
            for (risk, decision) in
                report
                    .risks
                    .iter()
                    .chain(report.skipped.iter())
                    .filter_map(|r| {
                        report
                            .decisions
                            .iter()
                            .find(|d| {
                                d.node_id == r.node_id && d.parameter_name == r.parameter_name
                            })
                            .map(|d| (r, d))
                    })
            {
                print_risk(risk)?;
                outln!(
                    "           {} ({}): {}",
                    decision.decision,
                    decision.decided_by,
                    decision.reason
                );
            }
            if let Some(d) = report.approval.describe() {
                outln!("  {d}");
            }
            outln!("allow");
        }
    }
    Ok(())
}

fn print_risk(r: &RiskAssessment) -> anyhow::Result<()> {
    let value = r.value.lines().next().unwrap_or("");
    outln!(
        "  {:<8} {} ({}) {}: {}",
        r.level.as_str(),
        r.node_id,
        r.node_type,
        r.parameter_name,
        value
    );
    outln!("           {}", r.description);
    Ok(())
}

/// A refused workflow: the deciding risk, the HIGH ones still unaccepted, and every risk found.
struct Refused<'a> {
    kind: &'a str,
    message: &'a str,
    risk: &'a RiskAssessment,
    pending: &'a [RiskAssessment],
    all: &'a [RiskAssessment],
}

fn refused(file: &str, format: Format, r: &Refused<'_>) -> anyhow::Result<()> {
    // every risk found, the deciding one included even if the full analysis missed it
    let mut all: Vec<&RiskAssessment> = r.all.iter().collect();
    if !all.contains(&r.risk) {
        all.insert(0, r.risk);
    }
    match format {
        Format::Json => {
            let v = json!({
                "file": file,
                "decision": "deny",
                "refusal": r.kind,
                "reason": r.message,
                "risk": r.risk,
                "pending": r.pending,
                "risks": all,
            });
            outln!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Text => {
            outln!("workflow {file}: refused");
            print_risk(r.risk)?;
            for other in all.iter().filter(|x| **x != r.risk) {
                print_risk(other)?;
            }
            outln!("deny: {}", r.message);
        }
    }
    Ok(())
}

fn approve(args: ApproveArgs) -> anyhow::Result<ExitCode> {
    let registry = registry(args.registry.as_deref())?;
    let mut analyzer = analyzer(&args.policy)?;
    let file = args.file.display().to_string();
    match analyzer.approve_file(&args.file, &registry) {
        Ok(done) => {
            match args.format {
                Format::Json => {
                    let v = json!({"file": file, "approved": done.approval, "risks": done.risks});
                    outln!("{}", serde_json::to_string_pretty(&v)?);
                }
                Format::Text => {
                    for r in &done.risks {
                        print_risk(r)?;
                    }
                    outln!(
                        "approved {} risk(s) of {file}: metadata.risk_approval written (risk hash {})",
                        done.risks.len(),
                        done.approval.risk_hash
                    );
                }
            }
            Ok(Code::Allow.into())
        }
        Err(WorkflowError::Critical(e)) => {
            let message = format!("cannot approve: {e}");
            let all = WorkflowIr::from_path(&args.file)
                .map(|ir| analyzer.scan(&ir, &registry).risks)
                .unwrap_or_default();
            let r = Refused {
                kind: "critical",
                message: &message,
                risk: &e.risk,
                pending: &[],
                all: &all,
            };
            refused(&file, args.format, &r)?;
            Ok(Code::Deny.into())
        }
        Err(other) => Err(other).with_context(|| format!("cannot approve {file}")),
    }
}
