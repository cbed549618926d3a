//! `riskgate report --format html|json`: the friction report of this machine — decisions per
//! day, asks and denies per rule, what people approve most, approvals expiring soon, pending
//! requests — as JSON or one self-contained HTML page.

mod common;
use common::riskgate;

use serde_json::Value;

fn check(dir: &std::path::Path, c: &str) -> String {
    let out = riskgate(dir)
        .args(["check", "--no-prompt", "--agent", "codex", "--", c])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn request_id(text: &str) -> String {
    let at = text.find("request ").expect("a request id") + "request ".len();
    text[at..at + 6].to_string()
}

#[test]
fn json_and_html_report_what_was_asked_refused_and_approved() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    check(d, "ls -la");
    let first = check(d, "git push --force origin main");
    let id = request_id(&first);
    let out = riskgate(d)
        .args([
            "approvals",
            "grant",
            &id,
            "--ttl",
            "2d",
            "--reviewer",
            "alice",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // allowed by the grant: an approval by a person
    check(d, "git push --force origin main");
    // still waiting, with markup in it
    check(d, "git reset --hard HEAD~3 # <b>x</b>");
    let out = riskgate(d)
        .args(["approvals", "add", "terraform plan*", "--days", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());

    let out = riskgate(d)
        .args(["report", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(r["decisions"].as_u64().unwrap() >= 4, "{r:#}");
    let days = r["days"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    assert!(days[0]["deny"].as_u64().unwrap() >= 2);
    assert!(days[0]["allow"].as_u64().unwrap() >= 2);
    let has = |key: &str, needle: &str| {
        r[key]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["rule"].as_str().is_some_and(|s| s.contains(needle)))
    };
    assert!(has("asked_or_denied", "force"), "{r:#}");
    assert!(has("most_approved", "force"), "{r:#}");
    let expiring = r["expiring"].as_array().unwrap();
    assert_eq!(expiring.len(), 2, "{r:#}");
    assert!(
        expiring
            .iter()
            .any(|e| e["kind"] == format!("grant of request {id}"))
    );
    assert!(expiring.iter().any(|e| e["what"] == "terraform plan*"));
    let pending = r["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1);

    let file = d.join("report.html");
    let out = riskgate(d)
        .args(["report", "--format", "html", "--output"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    assert!(
        html.contains("<svg") && html.contains("<rect class=\"deny\""),
        "{html}"
    );
    assert!(html.contains("&lt;b&gt;x&lt;/b&gt;"), "markup is escaped");
    assert!(!html.contains("<b>x</b>"));
    // self-contained: no script, no external asset
    for bad in ["<script", "src=", "href=", "<link"] {
        assert!(!html.contains(bad), "{bad} in the page");
    }
    assert!(html.contains("Most often approved"));
}

#[test]
fn an_empty_machine_gives_an_empty_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = riskgate(dir.path())
        .args(["report", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["decisions"], 0);
    assert!(r["pending"].as_array().unwrap().is_empty());
}
