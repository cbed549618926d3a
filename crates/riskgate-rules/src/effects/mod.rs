//! The effect model for shell commands: what each simple command (after normalization) does
//! to what. `infer` computes the effects (program knowledge from `data/effects.yaml` via
//! `table`, generic inference for programs nobody described), `score` rates each one (effect ×
//! target class × scope, the privilege multiplier) and this module turns them into findings
//! with stable ids (`effect.delete.system`, `effect.delete.cloud_resource` …) that explain
//! themselves. Rules still match and refine on top; the assessment combines both.

mod generic;
mod http;
mod infer;
mod processes;
pub(crate) use processes::{DAEMONS, SECURITY_UNITS, daemon_of_listing};
mod score;
mod table;
mod windows;
mod winfiles;
mod winident;
mod winparams;
mod winverbs;
mod winwmi;

use riskgate_model::effect::{Effect, Environment, classify_env};
use riskgate_model::{Finding, RiskLevel};

use crate::matcher::CommandView;

/// Whether a subcommand word is a delete (`delete`, `rm`, `destroy`, `drop` … of
/// `data/effects.yaml`'s verbs).
pub(crate) fn is_delete_verb(word: &str) -> bool {
    table::verb(word) == Some(riskgate_model::effect::EffectKind::Delete)
}

/// Whether `program`'s dry run is documented to stop its change (`data/effects.yaml`).
pub(crate) fn honours_dry_run(program: &str) -> bool {
    table::DRY_RUN_PROGRAMS.binary_search(&program).is_ok()
}

/// Whether `data/effects.yaml` describes the program of `v` and says its effect does not apply
/// to this invocation (then seed 004's argument stage adds nothing either: the arguments are
/// not targets of anything destructive).
pub(crate) fn described_as_harmless(v: &CommandView<'_>) -> bool {
    table::program(&v.cmd.program).is_some_and(|p| !infer::described_applies(v, p))
}

/// At most this many effects per command line (bounded output for huge scripts).
const MAX_EFFECTS: usize = 64;

/// Effects of every command, with their scores. A guessed effect (a subcommand verb of a
/// program nobody described) of a command that a rule for its program matched scores 0: the
/// rule knows that subcommand, the guess does not (rules refine the generic reading).
pub(crate) fn effects(views: &[CommandView<'_>], known: &[usize]) -> Vec<(Effect, u32)> {
    let mut out = Vec::new();
    for v in views {
        for f in infer::command_effects(v) {
            if out.len() >= MAX_EFFECTS {
                return out;
            }
            let s = if f.guessed && known.contains(&v.index) {
                0
            } else {
                score::score(&f.effect, f.weight)
            };
            // Run on a production host (`ssh root@web1.prod.acme.net 'systemctl stop nginx'`):
            // what it does to that machine, it does to production.
            let s = match &v.cmd.remote {
                Some(host)
                    if s > 0
                        && classify_env([host.as_str()]) == Environment::Prod
                        && f.effect.target.environment.is_none() =>
                {
                    (s + score::REMOTE_PRODUCTION).min(score::EFFECT_CAP)
                }
                _ => s,
            };
            out.push((f.effect, s));
        }
    }
    out
}

/// One finding per effect id (the highest-scoring effect of that id), for effects that score
/// at least the reporting threshold.
pub(crate) fn findings(scored: &[(Effect, u32)], views: &[CommandView<'_>]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for (e, s) in scored {
        if *s < score::EFFECT_THRESHOLD {
            continue;
        }
        let id = format!("effect.{}.{}", e.kind.as_str(), e.target.class.as_str());
        let score = u8::try_from(*s).unwrap_or(100);
        if let Some(f) = out.iter_mut().find(|f| f.rule_id == id) {
            if f.score >= score {
                continue;
            }
            *f = finding(&id, e, score, views);
        } else {
            out.push(finding(&id, e, score, views));
        }
    }
    out
}

fn finding(id: &str, e: &Effect, score: u8, views: &[CommandView<'_>]) -> Finding {
    let mut f = Finding::new(id, RiskLevel::from_score(score), score, score::describe(e))
        .reversible(e.reversible);
    if let Some(v) = views.iter().find(|v| v.index == e.command) {
        f = f.with_match(v.canonical.clone(), Some(v.cmd.span));
    }
    use riskgate_model::effect::TargetClass as C;
    let resource = if matches!(
        e.target.class,
        C::SystemDaemon | C::AllProcesses | C::OneProcess
    ) {
        format!("process:{}", e.target.text)
    } else if e.target.class == C::Machine {
        format!("machine:{}", e.target.text)
    } else if e.target.class.is_remote_host() || e.target.text.contains("://") {
        format!("url:{}", e.target.text)
    } else if matches!(e.target.class, C::CloudResource | C::ClusterResource) {
        format!("resource:{}", e.target.text)
    } else {
        format!("file:{}", e.target.text)
    };
    f.with_resources(vec![resource])
}
