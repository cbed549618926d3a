//! Where start-up time goes, stage by stage, in a fresh process deciding alone (what
//! `riskgate check` and a hook call without the hook server do).
use std::time::Instant;

use riskgate::gate::{CliOverrides, Context, Gate, Policy};

fn main() {
    let command = std::env::args().nth(1).unwrap_or_else(|| "ls -la".into());
    let mut t = Instant::now();
    let mut lap = |what: &str| {
        eprintln!("{what:>20}: {:?}", t.elapsed());
        t = Instant::now();
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let policy = match Policy::load(&cwd, &CliOverrides::default()) {
        Ok(p) => p,
        Err(e) => return eprintln!("{e}"),
    };
    lap("policy");
    let engine = riskgate::Engine::builtin();
    lap("engine");
    let parsed = riskgate::shell::parse(&command);
    lap("parse");
    let findings = engine.commands().findings(&parsed);
    lap("findings");
    let (assessment, targets) = engine.assess_command_and_targets(&command);
    lap("assess + targets");
    let mut ctx = Context::new(cwd).interactive(false);
    ctx.write_targets = targets;
    let mut gate = if std::env::var_os("NO_AUDIT").is_some() {
        Gate::new(policy).without_audit()
    } else {
        Gate::new(policy)
    };
    lap("gate new");
    let outcome = gate.evaluate(&riskgate::Action::command(command), assessment, &ctx);
    lap("evaluate");
    eprintln!("{} findings, {}", findings.len(), outcome.decision);
}
