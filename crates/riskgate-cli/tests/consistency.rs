//! One verdict everywhere: the whole labelled corpus (corpus/*.jsonl) through `riskgate check`,
//! `riskgate scan` and `riskgate hook claude`, in the same project under the same policy. The
//! levels must be equal everywhere; `check` (nobody to ask) and `scan` must decide alike; the
//! hook may differ only where Claude Code's protocol lets it ask a person instead of refusing
//! (a decision that needs a person is `ask` there, `deny` for a non-interactive `check`) and
//! where the policy treats an untrusted agent differently from a person (MEDIUM is asked).

mod hooks_common;

use std::path::Path;
use std::sync::Mutex;

use hooks_common::{Env, claude, decision, env, riskgate};
use serde_json::Value;

fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("corpus file");
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let v: Value = serde_json::from_str(line).expect("corpus line is JSON");
            if let Some(c) = v["command"].as_str() {
                out.push(c.to_string());
            }
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Verdict {
    level: String,
    decision: String,
}

fn check(e: &Env, command: &str) -> Verdict {
    let out = riskgate(e)
        .args(["check", "--no-prompt", "--format", "json", "--", command])
        .output()
        .expect("check runs");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("check: not JSON for {command:?}: {:?}", out));
    Verdict {
        level: v["level"].as_str().unwrap_or("?").to_string(),
        decision: v["decision"].as_str().unwrap_or("?").to_string(),
    }
}

fn hook_decision(e: &Env, command: &str) -> String {
    let payload = claude(e, "Bash", serde_json::json!({ "command": command }));
    let out = riskgate(e)
        .args(["hook", "claude"])
        .write_stdin(serde_json::to_vec(&payload).expect("payload"))
        .output()
        .expect("hook runs");
    let text = String::from_utf8_lossy(&out.stdout);
    decision("claude", text.trim()).unwrap_or_else(|| "none".to_string())
}

/// `f` over `items` on a few threads, results in order.
fn parallel<T: Send>(items: &[String], f: impl Fn(&str) -> T + Sync) -> Vec<T> {
    let slots: Vec<Mutex<Option<T>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| m.into_inner().ok().flatten().expect("every item done"))
        .collect()
}

#[test]
fn check_scan_and_hook_agree_on_the_whole_corpus() {
    let e = env();
    let commands = corpus();
    assert!(
        commands.len() > 4000,
        "corpus has {} commands",
        commands.len()
    );

    // scan: one process, one line each
    let mut input = String::new();
    for c in &commands {
        input.push_str(&serde_json::json!({ "command": c }).to_string());
        input.push('\n');
    }
    let out = riskgate(&e)
        .args(["scan"])
        .write_stdin(input)
        .output()
        .expect("scan runs");
    let scanned: Vec<Verdict> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("scan line is JSON");
            Verdict {
                level: v["level"].as_str().unwrap_or("?").to_string(),
                decision: v["decision"].as_str().unwrap_or("?").to_string(),
            }
        })
        .collect();
    assert_eq!(scanned.len(), commands.len(), "scan answers every line");

    let checked = parallel(&commands, |c| check(&e, c));
    let hooked = parallel(&commands, |c| hook_decision(&e, c));

    let mut differences = Vec::new();
    for (i, c) in commands.iter().enumerate() {
        let (ch, sc, hk) = (&checked[i], &scanned[i], &hooked[i]);
        // Claude can ask: what needs a person is `ask` there, `deny` for a check nobody
        // answers; and Claude is an untrusted agent by default, whose MEDIUM actions a person
        // confirms (seed 002), where a person's own `check` allows them with a warning.
        let expected_hook = match (ch.decision.as_str(), ch.level.as_str()) {
            ("deny", "CRITICAL") => "deny",
            ("deny", _) => "ask",
            ("allow", "MEDIUM") => "ask",
            (d, _) => d,
        };
        if ch != sc || hk != expected_hook {
            differences.push(format!(
                "{c:?}: check {} {}, scan {} {}, hook {hk}",
                ch.level, ch.decision, sc.level, sc.decision
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} commands differ between entry points:\n{}",
        differences.len(),
        commands.len(),
        differences
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
