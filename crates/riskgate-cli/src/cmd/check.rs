//! `riskgate check`: assess one command and decide.

use std::process::ExitCode;

use riskgate::explain::{RenderOptions, render};
use riskgate::gate::{Context, Gate, prompt};
use riskgate::{Action, Report};

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::exit::Code;
use crate::output::{Format, color_stdout, command_text};

/// Arguments of `riskgate check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Run HIGH-risk actions without asking (CRITICAL stays denied).
    #[arg(long)]
    force: bool,
    /// Accept the risk of HIGH-risk actions without asking (CRITICAL stays denied).
    #[arg(long)]
    accept_risk: bool,
    /// Session id: approvals given in this session are honored for 5 minutes.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// The agent on whose behalf the command runs (for trust levels).
    #[arg(long, value_name = "NAME")]
    agent: Option<String>,
    /// Never prompt, even on a terminal.
    #[arg(long)]
    no_prompt: bool,
    /// The shell the command is written for: bash (the default; clearly PowerShell text is
    /// read as PowerShell too), powershell or cmd.
    #[arg(long, value_name = "SHELL", value_parser = crate::cmd::common::parse_shell)]
    shell: Option<riskgate::Shell>,
    #[command(flatten)]
    policy: PolicyArgs,
    /// The command: one argument, or the words after `--` joined by spaces.
    #[arg(required = true, trailing_var_arg = true)]
    command: Vec<String>,
}

/// Run `riskgate check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = command_text(&args.command)?;
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    let (assessment, targets) = engine.assess_command_full_as(&text, args.shell);
    let write_targets = targets.writes;
    let cwd = policy.cwd().to_path_buf();
    let mut ctx = Context::new(cwd).interactive(!args.no_prompt && prompt::is_interactive());
    ctx.force = args.force;
    ctx.accept_risk = args.accept_risk;
    if let Some(agent) = &args.agent {
        ctx = ctx.agent(agent.clone(), args.session.clone());
    } else {
        ctx.session_id = args.session.clone();
    }
    ctx.write_targets = write_targets;
    let action = Action::command_in(text, args.shell);
    let mut gate = Gate::new(policy).with_queue();
    let outcome = gate.evaluate(&action, assessment, &ctx);
    if let Some(req) = gate.queued()
        && let Err(e) = riskgate::gate::queue::announce(gate.policy(), req)
    {
        eprintln!("riskgate: warning: approval request not announced: {e}");
    }
    for w in &outcome.warnings {
        eprintln!("riskgate: warning: {w}");
    }
    let decision = outcome.decision;
    match args.format {
        Format::Json => {
            let report = Report::from_outcome(outcome);
            outln!("{}", serde_json::to_string_pretty(&report)?);
        }
        Format::Text => {
            let mut shown = outcome.assessment.clone();
            if outcome.level != shown.level
                && let Some(adj) = outcome.adjustments.last()
            {
                shown.reasons.insert(0, format!("policy: {adj}"));
            }
            shown.level = outcome.level;
            shown.score = outcome.score;
            out!(
                "{}",
                render(
                    &shown,
                    Some(decision),
                    RenderOptions {
                        color: color_stdout()
                    }
                )
            );
            for adj in &outcome.adjustments {
                outln!("  policy: {adj}");
            }
            outln!("  {}: {}", decision, outcome.reason);
        }
    }
    Ok(Code::from(decision).into())
}
