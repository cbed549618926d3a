//! What was not fully analyzed is never allowed without a person: whatever the agent's trust,
//! the overrides, the standing approvals or the session cache say.

mod common;

use common::{Fixture, command};
use riskgate_gate::{CliOverrides, DecidedBy, Standing, decide_with};
use riskgate_model::{Action, Assessment, Decision, RiskLevel};

/// `rm -rf /` hidden past a bound: the analyzer saw nothing risky, but could not finish.
fn incomplete(text: &str) -> (Action, Assessment) {
    let (action, mut a) = command(text, RiskLevel::Safe);
    a.mark_incomplete("past an analysis bound (more than 16 nested substitutions)");
    (action, a)
}

#[test]
fn a_trusted_agent_is_not_allowed_what_was_not_understood() {
    let fx = Fixture::new();
    let policy = fx.policy_with(&CliOverrides {
        set: vec!["agents.claude=trusted".to_string()],
        ..CliOverrides::default()
    });
    let (action, a) = incomplete("echo $($($(rm -rf /)))");
    assert_eq!(a.level, RiskLevel::High);
    // nobody to ask: deny
    let ctx = fx.ctx().agent("claude", Some("s1".into()));
    let out = decide_with(&a, &action, &policy, &ctx, &Standing::default());
    assert_eq!(out.decision, Decision::Deny, "{}", out.reason);
    assert!(out.reason.contains("not fully analyzed"), "{}", out.reason);
    // the agent can ask: ask
    let mut ctx = ctx;
    ctx.host_can_ask = true;
    let policy = policy.with_default_ask_fallback(riskgate_gate::policy::AskFallback::Ask);
    let out = decide_with(&a, &action, &policy, &ctx, &Standing::default());
    assert_eq!(out.decision, Decision::Ask, "{}", out.reason);
}

#[test]
fn an_override_cannot_lower_it() {
    let fx = Fixture::new();
    let file = fx.root().join("cli.yaml");
    std::fs::write(&file, "overrides:\n  'echo *': SAFE\n").expect("policy file");
    let policy = fx.policy_with(&CliOverrides {
        config_file: Some(file),
        ..CliOverrides::default()
    });
    // the override works on what was understood
    let (action, a) = command("echo hi", RiskLevel::Low);
    let out = decide_with(&a, &action, &policy, &fx.ctx(), &Standing::default());
    assert_eq!(out.level, RiskLevel::Safe, "{:?}", out.adjustments);
    let (action, a) = incomplete("echo padded");
    let out = decide_with(&a, &action, &policy, &fx.ctx(), &Standing::default());
    assert_eq!(out.level, RiskLevel::High, "{:?}", out.adjustments);
    assert_eq!(out.decision, Decision::Deny);
    assert!(
        out.adjustments
            .iter()
            .any(|a| a.contains("not fully analyzed")),
        "{:?}",
        out.adjustments
    );
}

#[test]
fn standing_and_session_approvals_do_not_cover_it() {
    let fx = Fixture::new();
    let policy = fx.policy();
    let (action, a) = incomplete("make $(x)");
    let standing = Standing {
        denied: None,
        approved: Some("`make *`".to_string()),
        session: true,
        ..Standing::default()
    };
    let out = decide_with(&a, &action, &policy, &fx.ctx(), &standing);
    assert_eq!(out.decision, Decision::Deny, "{}", out.reason);
    assert_eq!(out.decided_by, DecidedBy::Policy);
    // a fully analyzed HIGH command is covered by the same approval
    let (action, a) = command("make deploy", RiskLevel::High);
    let out = decide_with(&a, &action, &policy, &fx.ctx(), &standing);
    assert_eq!(out.decision, Decision::Allow);
}

#[test]
fn a_persons_flag_still_decides() {
    let fx = Fixture::new();
    let (action, a) = incomplete("echo $($($(ls)))");
    let mut ctx = fx.ctx();
    ctx.force = true;
    let out = decide_with(&a, &action, &fx.policy(), &ctx, &Standing::default());
    assert_eq!(out.decision, Decision::Allow);
    assert_eq!(out.decided_by, DecidedBy::Flag);
}
