//! A new approval request is announced to `approvals.webhook` in the background, with
//! retries, as generic JSON or a Slack-compatible payload — checked against a local listener
//! that fails the first delivery.

mod hooks_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use hooks_common::{codex, decision, env, riskgate};
use serde_json::{Value, json};

/// A listener answering 500 to the first request and 200 to the others; the bodies it got
/// come out of the channel.
fn listener() -> (u16, mpsc::Receiver<(String, Value)>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for (n, stream) in l.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            let _ = reader.read_line(&mut request_line);
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0u8; length];
            let _ = reader.read_exact(&mut body);
            let status = if n == 0 {
                "500 Internal Server Error"
            } else {
                "200 OK"
            };
            let _ = stream.write_all(
                format!("HTTP/1.1 {status}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                    .as_bytes(),
            );
            let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let _ = tx.send((request_line.trim().to_string(), body));
        }
    });
    (port, rx)
}

fn run(format: &str) -> (String, Vec<(String, Value)>) {
    let e = env();
    let (port, rx) = listener();
    let dir = e.root.join("config").join("riskgate");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.yaml"),
        format!(
            "approvals: {{ webhook: {{ url: \"http://127.0.0.1:{port}/hook\", format: {format} }} }}\n"
        ),
    )
    .unwrap();
    let payload = codex(
        &e,
        "Bash",
        json!({"command": "git push --force origin main"}),
    );
    let out = riskgate(&e)
        .args(["hook", "codex"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(
        decision("codex", &stdout).as_deref(),
        Some("deny"),
        "{stdout}"
    );
    let mut got = Vec::new();
    while got.len() < 2 {
        match rx.recv_timeout(Duration::from_secs(15)) {
            Ok(b) => got.push(b),
            Err(_) => break,
        }
    }
    let pending = riskgate(&e)
        .args(["approvals", "pending", "--format", "json"])
        .output()
        .unwrap();
    let list: Vec<Value> = serde_json::from_slice(&pending.stdout).unwrap();
    let id = list[0]["id"].as_str().unwrap().to_string();
    // a second try of the same action is the same request: not announced again
    let _ = riskgate(&e)
        .args(["hook", "codex"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(rx.recv_timeout(Duration::from_secs(2)).is_err());
    (id, got)
}

#[test]
fn slack_payload_is_retried_after_a_failure() {
    let (id, got) = run("slack");
    assert_eq!(
        got.len(),
        2,
        "the first delivery failed, the retry arrived: {got:?}"
    );
    assert!(got[0].0.starts_with("POST /hook"), "{got:?}");
    assert_eq!(got[0].1, got[1].1, "the same payload retried");
    let text = got[1].1["text"].as_str().unwrap();
    assert!(text.contains("git push --force origin main"), "{text}");
    assert!(
        text.contains(&format!("riskgate approvals grant {id}")),
        "{text}"
    );
    assert!(text.contains("codex"), "{text}");
}

#[test]
fn generic_payload_carries_the_request() {
    let (id, got) = run("generic");
    assert_eq!(got.len(), 2, "{got:?}");
    let body = &got[1].1;
    assert_eq!(body["event"], "approval_requested");
    assert_eq!(body["request"]["id"], id.as_str());
    assert_eq!(body["request"]["level"], "HIGH");
    assert_eq!(body["request"]["agent"], "codex");
    assert_eq!(body["grant"], format!("riskgate approvals grant {id}"));
}

#[test]
fn a_project_file_cannot_set_a_webhook() {
    let e = env();
    std::fs::write(
        e.project.join(".riskgate.yaml"),
        "approvals: { webhook: { url: \"http://127.0.0.1:9/x\" } }\n",
    )
    .unwrap();
    let out = riskgate(&e)
        .args(["config", "show", "--format", "json"])
        .output()
        .unwrap();
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!rows.iter().any(|r| r["key"] == "approvals.webhook"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot send requests anywhere"));
}
