//! The approval queue end to end, through the built binary: an unattended agent's HIGH action
//! is refused with a request id → `approvals pending` shows it → `approvals grant ID --once`
//! → the identical call is allowed once, then refused again with a new request; two-reviewer
//! patterns; refusals with a reason; CRITICAL never queued nor grantable; reviews audited.

mod hooks_common;

use hooks_common::{Env, claude, codex, decision, env, riskgate};
use serde_json::{Value, json};

const PUSH: &str = "git push --force origin main";

/// The hook's answer for `payload` (`agent`, extra args such as `--set …`).
fn hook(e: &Env, agent: &str, extra: &[&str], payload: &Value) -> (Option<String>, String) {
    let out = riskgate(e)
        .args(["hook", agent])
        .args(extra)
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (decision(agent, &stdout), stdout)
}

/// The request id in a refusal (`request abc234`).
fn request_id(reason: &str) -> Option<String> {
    let at = reason.find("Approval requested: request ")?;
    let rest = &reason[at + "Approval requested: request ".len()..];
    let id: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (id.len() == 6).then_some(id)
}

fn pending(e: &Env) -> Vec<Value> {
    let out = riskgate(e)
        .args(["approvals", "pending", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn review(e: &Env, args: &[&str]) -> std::process::Output {
    riskgate(e).arg("approvals").args(args).output().unwrap()
}

/// The full flow for one agent: denied with an id, pending, granted once, allowed once, then
/// refused again with a new id.
fn grant_once_flow(agent: &str, extra: &[&str], make: fn(&Env, &str, Value) -> Value) {
    let e = env();
    let payload = make(&e, "Bash", json!({"command": PUSH}));
    let (d, out) = hook(&e, agent, extra, &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    let id = request_id(&out).unwrap_or_else(|| panic!("no request id in {out}"));
    assert!(out.contains("Wait for a reviewer"), "{out}");
    // asking again before a review gives the same request
    let (_, again) = hook(&e, agent, extra, &payload);
    assert_eq!(request_id(&again).as_deref(), Some(id.as_str()), "{again}");

    let list = pending(&e);
    assert_eq!(list.len(), 1, "{list:#?}");
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["input"], PUSH);
    assert_eq!(list[0]["agent"], agent);
    assert_eq!(list[0]["level"], "HIGH");
    assert_eq!(list[0]["cwd"], e.project.display().to_string());
    let text = riskgate(&e)
        .args(["approvals", "pending"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains(&id) && text.contains(PUSH), "{text}");

    let out = review(&e, &["grant", &id, "--once", "--reviewer", "alice"]);
    assert!(out.status.success(), "{out:?}");
    assert!(pending(&e).is_empty());

    let (d, out) = hook(&e, agent, extra, &payload);
    assert_ne!(
        d.as_deref(),
        Some("deny"),
        "allowed once after the grant: {out}"
    );
    assert_ne!(d.as_deref(), Some("ask"), "{out}");
    // once: the next identical call needs a new approval
    let (d, out) = hook(&e, agent, extra, &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    let second = request_id(&out).unwrap_or_else(|| panic!("no request id in {out}"));
    assert_ne!(second, id);
    // a grant is for the identical action only
    let other = make(
        &e,
        "Bash",
        json!({"command": "git push --force origin dev"}),
    );
    let (d, _) = hook(&e, agent, extra, &other);
    assert_eq!(d.as_deref(), Some("deny"));

    // the review is in the audit log, with the reviewer's name
    let log = riskgate(&e)
        .args(["log", "--format", "json", "--limit", "50"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(log.contains("reviewer:alice"), "{log}");
    assert!(
        log.contains(&format!("request {id} granted once by alice")),
        "{log}"
    );
}

#[test]
fn codex_cannot_ask_so_the_request_is_queued_and_granted_once() {
    grant_once_flow("codex", &[], codex);
}

#[test]
fn claude_with_ask_fallback_deny_queues_and_is_granted_once() {
    grant_once_flow("claude", &["--set", "hooks.ask_fallback=deny"], claude);
}

#[test]
fn a_ttl_grant_lets_the_identical_action_through_until_it_ends() {
    let e = env();
    let payload = codex(&e, "Bash", json!({"command": PUSH}));
    let (_, out) = hook(&e, "codex", &[], &payload);
    let id = request_id(&out).unwrap();
    let out = review(&e, &["grant", &id, "--ttl", "1h", "--reviewer", "alice"]);
    assert!(out.status.success(), "{out:?}");
    for _ in 0..3 {
        let (d, out) = hook(&e, "codex", &[], &payload);
        assert_ne!(d.as_deref(), Some("deny"), "{out}");
    }
    let out = review(&e, &["grant", &id, "--ttl", "soon"]);
    assert!(!out.status.success());
}

#[test]
fn two_reviewer_patterns_need_two_distinct_reviewers() {
    let e = env();
    let set = ["--set", "approvals.two_reviewers=[\"git push --force\"]"];
    let payload = codex(&e, "Bash", json!({"command": PUSH}));
    let (d, out) = hook(&e, "codex", &set, &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    assert!(out.contains("two reviewers"), "{out}");
    let id = request_id(&out).unwrap();
    let alice = |e: &Env| review(e, &["--set", set[1], "grant", &id, "--reviewer", "alice"]);
    assert!(alice(&e).status.success());
    // one grant of two: still pending, still refused
    let list = pending(&e);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["required"], 2);
    let (d, out) = hook(&e, "codex", &set, &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    // the same reviewer twice does not count
    let again = alice(&e);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("needs another reviewer"),
        "{again:?}"
    );
    let bob = review(&e, &["grant", &id, "--reviewer", "bob"]);
    assert!(bob.status.success(), "{bob:?}");
    let (d, out) = hook(&e, "codex", &set, &payload);
    assert_ne!(d.as_deref(), Some("deny"), "{out}");
}

#[test]
fn a_refusal_is_told_to_the_agent_with_its_reason() {
    let e = env();
    let payload = codex(&e, "Bash", json!({"command": PUSH}));
    let (_, out) = hook(&e, "codex", &[], &payload);
    let id = request_id(&out).unwrap();
    let no_reason = review(&e, &["refuse", &id, "--reason", " ", "--reviewer", "carol"]);
    assert!(!no_reason.status.success());
    let out = review(
        &e,
        &[
            "refuse",
            &id,
            "--reason",
            "rebase instead",
            "--reviewer",
            "carol",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let (d, out) = hook(&e, "codex", &[], &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    assert!(
        out.contains("refused by carol") && out.contains("rebase instead"),
        "{out}"
    );
    assert!(request_id(&out).is_none(), "{out}");
    assert!(pending(&e).is_empty());
    // a decided request cannot be granted afterwards
    let late = review(&e, &["grant", &id, "--reviewer", "alice"]);
    assert!(!late.status.success());
    let log = riskgate(&e)
        .args(["log", "--format", "json"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&log.stdout).contains("reviewer:carol"));
}

#[test]
fn critical_is_never_queued_nor_grantable() {
    let e = env();
    let payload = codex(
        &e,
        "Bash",
        json!({"command": "rm -rf / --no-preserve-root"}),
    );
    let (d, out) = hook(&e, "codex", &[], &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    assert!(request_id(&out).is_none(), "{out}");
    assert!(pending(&e).is_empty());
    let out = review(&e, &["grant", "abcdef", "--reviewer", "alice"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no approval request"));
}

#[test]
fn an_agent_granting_its_own_request_needs_a_person() {
    let e = env();
    let payload = codex(
        &e,
        "Bash",
        json!({"command": "riskgate approvals grant abc234 --once"}),
    );
    let (d, out) = hook(&e, "codex", &[], &payload);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    assert!(
        out.contains("pattern `riskgate approvals grant` (built-in)"),
        "{out}"
    );
}
