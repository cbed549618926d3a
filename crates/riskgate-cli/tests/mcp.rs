//! `riskgate mcp` as an MCP client sees it: the server runs as a subprocess and is spoken to
//! over stdio in JSON-RPC lines — `initialize`, `tools/list`, a `tools/call` of every tool, and
//! bad arguments, which are errors naming the field while the server goes on. The commands in
//! here are only ever strings inside JSON; nothing is run.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Client {
    fn start(dir: &Path, extra: &[&str]) -> Client {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("riskgate"))
            .arg("mcp")
            .args(extra)
            .current_dir(dir)
            .env("HOME", dir)
            .env("RISKGATE_STATE_DIR", dir.join("state"))
            .env("RISKGATE_DATA_DIR", dir.join("data"))
            .env("RISKGATE_CONFIG_DIR", dir.join("config"))
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("riskgate mcp starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Client {
            child,
            stdin,
            lines: rx,
            next_id: 1,
        }
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{msg}").expect("the server reads its stdin");
        stdin.flush().expect("flush");
    }

    /// Send a request and wait (at most 60 s) for the response with its id.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {method} within 60 s"));
            let v: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC: {e}: {line}"));
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": args}))
    }

    /// The structured answer of a successful call, checked against its text twin.
    fn answer(&mut self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args);
        let result = &r["result"];
        assert!(result.is_object(), "{tool}: {r}");
        assert_ne!(result["isError"], json!(true), "{tool}: {r}");
        let structured = result["structuredContent"].clone();
        let text = result["content"][0]["text"].as_str().expect("a text block");
        let from_text: Value = serde_json::from_str(text).expect("the text is the JSON");
        assert_eq!(
            from_text, structured,
            "{tool}: text and structured content agree"
        );
        for key in [
            "level",
            "score",
            "findings",
            "explanation",
            "decision",
            "reason",
        ] {
            assert!(
                structured.get(key).is_some(),
                "{tool}: `{key}` missing: {structured}"
            );
        }
        structured
    }

    fn initialize(&mut self) -> Value {
        let r = self.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "riskgate-test", "version": "1"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    /// Close stdin and wait (at most 30 s) for the server to end.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        for _ in 0..300 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("riskgate mcp did not end when its stdin closed");
    }
}

fn level(v: &Value) -> &str {
    v["level"].as_str().unwrap_or_default()
}

fn rule_ids(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["rule_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn initialize_list_and_call_every_tool_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path(), &[]);

    let init = c.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "riskgate", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    assert!(
        init["result"]["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("assess_")),
        "{init}"
    );

    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "assess_command",
            "assess_code",
            "assess_sql",
            "assess_diff",
            "assess_workflow"
        ]
    );
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert!(t["inputSchema"]["required"].as_array().is_some(), "{t}");
        assert!(t["description"].as_str().is_some_and(|d| d.len() > 40));
    }

    // a command: the same verdict as `riskgate check`
    let v = c.answer("assess_command", json!({"command": "sudo rm -rf /"}));
    assert_eq!(level(&v), "CRITICAL", "{v}");
    assert_eq!(v["decision"], "deny", "{v}");
    assert!(v["score"].as_u64().is_some_and(|s| s >= 81), "{v}");
    assert!(!rule_ids(&v).is_empty(), "{v}");
    let v = c.answer("assess_command", json!({"command": "git status"}));
    assert_eq!(v["decision"], "allow", "{v}");
    assert!(matches!(level(&v), "SAFE" | "LOW"), "{v}");
    // HIGH: the agent should ask its user
    let v = c.answer("assess_command", json!({"command": "git reset --hard"}));
    assert_eq!(level(&v), "HIGH", "{v}");
    assert_eq!(v["decision"], "ask", "{v}");
    assert!(rule_ids(&v).contains(&"git.reset-hard".to_string()), "{v}");

    // code, with its language
    let v = c.answer(
        "assess_code",
        json!({"code": "import shutil\nshutil.rmtree('/')\n", "language": "python"}),
    );
    assert!(matches!(level(&v), "HIGH" | "CRITICAL"), "{v}");
    assert_ne!(v["decision"], "allow", "{v}");
    let v = c.answer(
        "assess_code",
        json!({"code": "console.log('hello')", "language": "javascript"}),
    );
    assert_eq!(v["decision"], "allow", "{v}");

    // SQL
    let v = c.answer(
        "assess_sql",
        json!({"sql": "DROP TABLE users;", "dialect": "postgres"}),
    );
    assert!(matches!(level(&v), "HIGH" | "CRITICAL"), "{v}");
    assert_ne!(v["decision"], "allow", "{v}");
    let v = c.answer(
        "assess_sql",
        json!({"sql": "SELECT id FROM users WHERE id = 1"}),
    );
    assert_eq!(v["decision"], "allow", "{v}");

    // a diff: a dependency from a Git URL is class C
    let diff = "diff --git a/package.json b/package.json\n--- a/package.json\n+++ b/package.json\n@@ -1,5 +1,6 @@\n {\n   \"name\": \"app\",\n   \"dependencies\": {\n+    \"left-pad\": \"git+https://example.invalid/left-pad.git\",\n     \"lodash\": \"^4.17.21\"\n   }\n }\n";
    let v = c.answer("assess_diff", json!({ "diff": diff }));
    assert_eq!(v["class"], "C", "{v}");
    assert_eq!(v["decision"], "deny", "{v}");
    let readme = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n # app\n+More words.\n";
    let v = c.answer("assess_diff", json!({ "diff": readme }));
    assert_eq!(v["class"], "A", "{v}");
    assert_eq!(v["decision"], "allow", "{v}");

    // a workflow, JSON and YAML
    let wf = json!({"nodes": [
        {"id": "fetch", "type": "http", "config": {"url": "https://example.invalid/data"}},
        {"id": "wipe", "type": "shell", "config": {"command": "rm -rf /"}}
    ]})
    .to_string();
    let v = c.answer("assess_workflow", json!({ "workflow": wf }));
    assert_eq!(level(&v), "CRITICAL", "{v}");
    assert_eq!(v["decision"], "deny", "{v}");
    assert!(
        v["findings"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["node_id"] == "wipe")),
        "{v}"
    );
    let yaml = "nodes:\n  - id: hello\n    type: shell\n    config:\n      command: echo hello\n";
    let v = c.answer("assess_workflow", json!({ "workflow": yaml }));
    assert_eq!(v["decision"], "allow", "{v}");

    // bad arguments: JSON-RPC invalid params naming the field; the server goes on
    for (tool, args, field) in [
        ("assess_command", json!({"command": 42}), "command"),
        ("assess_command", json!({}), "command"),
        (
            "assess_command",
            json!({"command": "ls", "cmd": "x"}),
            "cmd",
        ),
        ("assess_code", json!({"code": "x = 1"}), "language"),
        (
            "assess_code",
            json!({"code": "x = 1", "language": "cobol"}),
            "language",
        ),
        (
            "assess_sql",
            json!({"sql": "SELECT 1", "dialect": "db2"}),
            "dialect",
        ),
        ("assess_diff", json!({"diff": ["a"]}), "diff"),
        (
            "assess_workflow",
            json!({"workflow": "{not json"}),
            "workflow",
        ),
        ("no_such_tool", json!({}), "name"),
    ] {
        let r = c.call(tool, args.clone());
        let err = &r["error"];
        assert_eq!(err["code"], -32602, "{tool} {args}: {r}");
        assert_eq!(err["data"]["field"], field, "{tool} {args}: {r}");
        assert!(
            err["message"]
                .as_str()
                .is_some_and(|m| m.contains(&format!("`{field}`"))),
            "{tool} {args}: {r}"
        );
    }
    // arguments that are not an object at all are refused by the protocol layer, not a crash
    let r = c.request(
        "tools/call",
        json!({"name": "assess_command", "arguments": "rm -rf /"}),
    );
    assert!(r["error"].is_object(), "{r}");

    let again = c.request("tools/list", json!({}));
    assert_eq!(again["result"]["tools"].as_array().map(Vec::len), Some(5));
    assert!(c.finish().success());
}

#[test]
fn the_users_policy_decides_and_a_broken_policy_is_a_tool_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("policy.yaml"),
        "patterns:\n  - pattern: \"kubectl delete\"\n    level: CRITICAL\n",
    )
    .unwrap();
    let mut c = Client::start(dir.path(), &["--config", "policy.yaml"]);
    c.initialize();
    let v = c.answer(
        "assess_command",
        json!({"command": "kubectl delete pod web-1"}),
    );
    assert_eq!(level(&v), "CRITICAL", "{v}");
    assert_eq!(v["decision"], "deny", "{v}");

    // the policy is read for each call: a broken file is reported by the tool, not a crash
    std::fs::write(dir.path().join("policy.yaml"), "patterns: {{{\n").unwrap();
    let r = c.call("assess_command", json!({"command": "ls"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("policy.yaml")),
        "{r}"
    );
    assert!(c.finish().success());
}
