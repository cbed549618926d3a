//! The default rules (seed 001's table and more): file operations, network, subprocesses,
//! databases and system administration. Seed 001's rule names and reasons are kept
//! (`rm_recursive`, `file_delete`, `file_write`, …) so that `remove_rule("print_output")` and
//! the seed's examples hold; each finding's id is `code.NAME`.
//!
//! Rules over commands (`rm_recursive`, `git_force_push`, …) look at the commands the code runs;
//! when a shell engine is plugged in with `set_command_assessor`, those commands are given to it
//! instead and these rules see none.
//!
//! The rules are pushed by level: `severe` (CRITICAL and HIGH), `lesser` (MEDIUM, LOW, SAFE);
//! `data` holds the database and secret matchers they share.

mod data;
mod lesser;
mod severe;

use riskgate_model::RiskLevel;

use super::analysis::Analysis;
use super::rule::{Hit, RiskRule};

fn rule(
    name: &str,
    level: RiskLevel,
    reason: &str,
    reversible: bool,
    f: impl Fn(&Analysis) -> Vec<Hit> + Send + Sync + 'static,
) -> RiskRule {
    RiskRule::analysis(name, f, level, reason).reversible(reversible)
}

fn join(mut a: Vec<Hit>, b: Vec<Hit>) -> Vec<Hit> {
    a.extend(b);
    a
}

/// The default rule set.
pub fn default_rules() -> Vec<RiskRule> {
    let mut r = Vec::with_capacity(64);
    severe::push(&mut r);
    lesser::push(&mut r);
    // what the code's parts do together (bulk kills, reverse shells, untrusted input …)
    r.extend(super::effects::rules());
    r.extend(super::loops::rules());
    r
}
