//! `riskgate explain RULE-ID|COMMAND`: a rule in full (what it does, why it is dangerous, the
//! examples it must and must not match, the safer alternative), or a command's assessment
//! explained finding by finding, each with its rule's reasoning, and the decision the policy
//! takes. An argument that names a rule is the rule; anything else is a command (`--rule` and
//! `--command` say which). Nothing is prompted, recorded or run.

use std::process::ExitCode;

use riskgate::gate::{Context, Gate};
use riskgate::rules::{Rule, RuleSet};
use riskgate::{Action, Report};
use serde_json::json;

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::exit::Code;
use crate::output::{Format, command_text};

/// Arguments of `riskgate explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Explain a rule; fail when no rule has this id.
    #[arg(long, conflicts_with = "command")]
    rule: bool,
    /// Explain the text as a command even when it is also a rule id.
    #[arg(long)]
    command: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
    /// A rule id (`git.reset-hard`) or a command (one argument, or the words after `--`).
    #[arg(
        required = true,
        trailing_var_arg = true,
        value_name = "RULE-ID|COMMAND"
    )]
    target: Vec<String>,
}

/// Run `riskgate explain`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = command_text(&args.target)?;
    let rules = rule_set(&args.policy);
    if !args.command
        && let Some(rule) = rules.get(text.trim())
    {
        return explain_rule(rule, args.format);
    }
    if args.rule {
        anyhow::bail!("no rule `{}` (see `riskgate rules list`)", text.trim());
    }
    explain_command(&text, &rules, &args)
}

fn rule_set(policy: &PolicyArgs) -> RuleSet {
    if policy.rules.is_empty() {
        return RuleSet::builtin();
    }
    let (rules, errors) = RuleSet::with_user_packs(&policy.rules);
    for e in &errors {
        eprintln!("riskgate: warning: {e}");
    }
    rules
}

fn strs(v: &[impl AsRef<str>]) -> Vec<&str> {
    v.iter().map(AsRef::as_ref).collect()
}

fn explain_rule(rule: &Rule, format: Format) -> anyhow::Result<ExitCode> {
    let matches = strs(rule.examples_match());
    let not_matches = strs(rule.examples_not_match());
    match format {
        Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "kind": "rule",
                "id": rule.id(),
                "level": rule.level(),
                "score": rule.score(),
                "description": rule.description(),
                "why": rule.rationale(),
                "alternative": rule.alternative(),
                "reversible": rule.reversible(),
                "examples": {"match": matches, "not_match": not_matches},
                "source": rule.source(),
                "line": rule.line(),
            }))?
        ),
        Format::Text => {
            out!("{}", rule.explain());
            if !matches.is_empty() {
                outln!("\n## Matches");
                for e in &matches {
                    outln!("  {e}");
                }
            }
            if !not_matches.is_empty() {
                outln!("\n## Does not match");
                for e in &not_matches {
                    outln!("  {e}");
                }
            }
        }
    }
    Ok(Code::Allow.into())
}

fn explain_command(text: &str, rules: &RuleSet, args: &Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    let (assessment, targets) = engine.assess_command_and_targets(text);
    let mut ctx = Context::new(policy.cwd().to_path_buf());
    ctx.write_targets = targets;
    ctx.source = "explain".to_string();
    let mut gate = Gate::new(policy).without_audit();
    let outcome = gate.evaluate(&Action::command(text.to_string()), assessment, &ctx);
    let report = Report::from_outcome(outcome);
    let a = &report.assessment;
    match args.format {
        Format::Json => {
            let findings: Vec<_> = a
                .findings
                .iter()
                .map(|f| {
                    let rule = rules.get(&f.rule_id);
                    json!({
                        "rule_id": f.rule_id, "level": f.level, "score": f.score,
                        "score_contribution": f.score_contribution,
                        "description": f.description, "matched": f.matched,
                        "why": rule.and_then(Rule::rationale),
                        "alternative": rule.and_then(Rule::alternative).or(f.mitigation.as_deref()),
                    })
                })
                .collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&json!({
                    "kind": "command", "command": text, "level": a.level, "score": a.score,
                    "decision": report.decision, "decided_by": report.decided_by,
                    "reason": report.reason, "summary": a.explanation.summary,
                    "findings": findings,
                }))?
            );
        }
        Format::Text => {
            outln!("{text}");
            outln!(
                "  {} (score {}) → {}: {}",
                a.level,
                a.score,
                report.decision,
                report.reason.as_deref().unwrap_or_default()
            );
            if a.findings.is_empty() {
                outln!("\nNo rule or heuristic fired: nothing risky found.");
            }
            for (i, f) in a.findings.iter().enumerate() {
                let rule = rules.get(&f.rule_id);
                outln!(
                    "\n{}. {} — {} {} (+{} points)",
                    i + 1,
                    f.rule_id,
                    f.level,
                    f.score,
                    f.score_contribution.unwrap_or(0)
                );
                outln!("   What: {}", f.description);
                if let Some(m) = f.matched.as_deref().filter(|m| !m.is_empty()) {
                    outln!("   Matched: {m}");
                }
                if let Some(why) = rule.and_then(Rule::rationale) {
                    outln!("   Why: {}", why.trim());
                }
                if let Some(alt) = rule.and_then(Rule::alternative).or(f.mitigation.as_deref()) {
                    outln!("   Instead: {}", alt.trim());
                }
                if rule.is_some() {
                    outln!("   More: riskgate explain {}", f.rule_id);
                }
            }
        }
    }
    Ok(Code::Allow.into())
}
