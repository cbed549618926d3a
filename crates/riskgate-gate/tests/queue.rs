//! The approval queue through the gate: an action nobody can approve here becomes one request
//! (asked again: the same one); a once-grant is used by exactly one of many racing
//! processes' claims; CRITICAL requests are never granted; a terminal or a flag bypasses the
//! queue.

mod common;

use std::time::Duration;

use common::{Fixture, command};
use riskgate_gate::queue::{GrantFor, NewRequest, Queue, Status};
use riskgate_gate::{DecidedBy, Gate, QueueError};
use riskgate_model::{Decision, RiskLevel};

fn new_request(key: &str, level: RiskLevel) -> NewRequest {
    NewRequest {
        key: key.into(),
        kind: "command".into(),
        input: "terraform apply".into(),
        cwd: "/w".into(),
        agent: Some("codex".into()),
        session: None,
        level,
        score: level.min_score(),
        rules: vec![],
        reason: "infrastructure change".into(),
        required: 1,
    }
}

#[test]
fn the_gate_queues_once_and_a_grant_lets_the_identical_action_through_once() {
    let fx = Fixture::new();
    let mut gate = Gate::new(fx.policy()).with_queue().without_audit();
    let ctx = fx.ctx().agent("codex", None);
    let (action, assessment) = command("git push --force origin main", RiskLevel::High);
    let first = gate.evaluate(&action, assessment.clone(), &ctx);
    assert_eq!(first.decision, Decision::Deny);
    let req = gate.queued().cloned().expect("a new request");
    assert!(first.reason.contains(&req.id), "{}", first.reason);
    let again = gate.evaluate(&action, assessment.clone(), &ctx);
    assert!(again.reason.contains(&req.id));
    assert!(gate.queued().is_none(), "the same request, not a new one");

    let queue = Queue::open(&gate.policy().queue_path()).unwrap();
    assert_eq!(queue.list(Status::Pending, 10).unwrap().len(), 1);
    queue
        .grant(
            &req.id,
            "alice",
            GrantFor::Once,
            riskgate_gate::clock::now(),
        )
        .unwrap();
    let granted = gate.evaluate(&action, assessment.clone(), &ctx);
    assert_eq!(granted.decision, Decision::Allow, "{}", granted.reason);
    assert_eq!(granted.decided_by, DecidedBy::Approval);
    assert!(granted.reason.contains("alice"), "{}", granted.reason);
    let after = gate.evaluate(&action, assessment, &ctx);
    assert_eq!(after.decision, Decision::Deny);
    assert_ne!(gate.queued().map(|r| r.id.clone()), Some(req.id));
}

#[test]
fn a_person_at_a_terminal_or_a_flag_is_not_queued() {
    let fx = Fixture::new();
    let mut gate = Gate::new(fx.policy()).with_queue().without_audit();
    let (action, assessment) = command("git push --force origin main", RiskLevel::High);
    let mut ctx = fx.ctx().agent("codex", None);
    ctx.force = true;
    let out = gate.evaluate(&action, assessment.clone(), &ctx);
    assert_eq!(out.decision, Decision::Allow);
    assert!(gate.queued().is_none());
    // without the queue (the default), nothing is stored
    let mut plain = Gate::new(fx.policy()).without_audit();
    let out = plain.evaluate(&action, assessment, &fx.ctx().agent("codex", None));
    assert_eq!(out.decision, Decision::Deny);
    assert!(!fx.root().join("state").join("queue.db").exists());
}

#[test]
fn critical_actions_are_not_queued_and_critical_requests_are_never_granted() {
    let fx = Fixture::new();
    let mut gate = Gate::new(fx.policy()).with_queue().without_audit();
    let (action, assessment) = command("rm -rf /", RiskLevel::Critical);
    let out = gate.evaluate(&action, assessment, &fx.ctx().agent("codex", None));
    assert_eq!(out.decision, Decision::Deny);
    assert!(gate.queued().is_none());
    let queue = Queue::open(&fx.root().join("q.db")).unwrap();
    let now = riskgate_gate::clock::now();
    let (req, created) = queue
        .request(&new_request("k", RiskLevel::Critical), now)
        .unwrap();
    assert!(created);
    let e = queue
        .grant(
            &req.id,
            "alice",
            GrantFor::Ttl(Duration::from_secs(60)),
            now,
        )
        .unwrap_err();
    assert!(matches!(e, QueueError::Critical(_)), "{e}");
    assert!(queue.claim_grant("k", now).unwrap().is_none());
}

#[test]
fn a_once_grant_is_claimed_by_exactly_one_of_many_processes() {
    let fx = Fixture::new();
    let path = fx.root().join("q.db");
    let queue = Queue::open(&path).unwrap();
    let now = riskgate_gate::clock::now();
    let (req, _) = queue
        .request(&new_request("k", RiskLevel::High), now)
        .unwrap();
    queue.grant(&req.id, "alice", GrantFor::Once, now).unwrap();
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let q = Queue::open(&path).unwrap();
                q.claim_grant("k", riskgate_gate::clock::now())
                    .unwrap()
                    .is_some()
            })
        })
        .collect();
    let claimed = handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .filter(|c| *c)
        .count();
    assert_eq!(claimed, 1);
    assert_eq!(queue.get(&req.id).unwrap().unwrap().status, Status::Used);
}

#[test]
fn ttl_grants_expire() {
    let fx = Fixture::new();
    let queue = Queue::open(&fx.root().join("q.db")).unwrap();
    let now = riskgate_gate::clock::now();
    let (req, _) = queue
        .request(&new_request("k", RiskLevel::High), now)
        .unwrap();
    queue
        .grant(
            &req.id,
            "alice",
            GrantFor::Ttl(Duration::from_secs(3600)),
            now,
        )
        .unwrap();
    assert!(queue.claim_grant("k", now).unwrap().is_some());
    assert!(
        queue.claim_grant("k", now).unwrap().is_some(),
        "not used up"
    );
    let later = now + time::Duration::hours(2);
    assert!(queue.claim_grant("k", later).unwrap().is_none());
}
