//! `riskgate install AGENT --mcp` / `uninstall AGENT --mcp`: `riskgate mcp` registered in the
//! MCP configuration of Claude Code, Gemini CLI and Cursor, idempotently, other servers and
//! settings kept; agents without such a file are refused with a clear message.

mod hooks_common;

use hooks_common::*;
use serde_json::{Value, json};

fn run(e: &Env, args: &[&str]) -> (String, String, i32) {
    let out = riskgate(e).args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn json_at(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn register_idempotently_and_remove_for_each_agent() {
    let e = env();
    for (agent, rel) in [
        ("claude", ".mcp.json"),
        ("gemini", ".gemini/settings.json"),
        ("cursor", ".cursor/mcp.json"),
    ] {
        let path = e.project.join(rel);
        let (out, err, code) = run(&e, &["install", agent, "--mcp"]);
        assert_eq!(code, 0, "{agent}: {err}");
        assert!(out.contains("registered the MCP server"), "{agent}: {out}");
        let v = json_at(&path);
        let entry = &v["mcpServers"]["riskgate"];
        assert_eq!(entry["args"], json!(["mcp"]), "{agent}: {v}");
        assert!(
            entry["command"]
                .as_str()
                .is_some_and(|c| c.ends_with("riskgate") || c.ends_with("riskgate.exe")),
            "{agent}: {v}"
        );
        let first = std::fs::read_to_string(&path).unwrap();
        let (out, _, code) = run(&e, &["install", agent, "--mcp"]);
        assert_eq!(code, 0);
        assert!(out.contains("already registered"), "{agent}: {out}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
        // the hook installation is a separate thing and leaves the MCP entry alone
        let (_, err, code) = run(&e, &["install", agent]);
        assert_eq!(code, 0, "{agent}: {err}");
        assert!(
            json_at(&path)["mcpServers"]["riskgate"].is_object() || rel != ".gemini/settings.json"
        );
        let (out, _, code) = run(&e, &["uninstall", agent, "--mcp"]);
        assert_eq!(code, 0);
        assert!(out.contains("removed"), "{agent}: {out}");
        if path.exists() {
            assert!(json_at(&path).get("mcpServers").is_none(), "{agent}");
        }
        let (out, _, code) = run(&e, &["uninstall", agent, "--mcp"]);
        assert_eq!(code, 0);
        assert!(out.contains("no riskgate MCP server"), "{agent}: {out}");
    }
    // an MCP-only file riskgate created is gone after uninstall
    assert!(!e.project.join(".mcp.json").exists());
    assert!(!e.project.join(".cursor/mcp.json").exists());
}

#[test]
fn other_servers_are_kept_and_a_foreign_riskgate_entry_is_refused() {
    let e = env();
    let path = e.project.join(".mcp.json");
    std::fs::write(
        &path,
        r#"{"mcpServers": {"github": {"command": "gh-mcp", "args": []}}}"#,
    )
    .unwrap();
    let (_, err, code) = run(&e, &["install", "claude", "--mcp"]);
    assert_eq!(code, 0, "{err}");
    let v = json_at(&path);
    assert_eq!(v["mcpServers"]["github"]["command"], "gh-mcp");
    assert!(v["mcpServers"]["riskgate"].is_object());
    run(&e, &["uninstall", "claude", "--mcp"]);
    let v = json_at(&path);
    assert_eq!(
        v,
        json!({"mcpServers": {"github": {"command": "gh-mcp", "args": []}}})
    );

    std::fs::write(
        &path,
        r#"{"mcpServers": {"riskgate": {"command": "node", "args": ["impostor.js"]}}}"#,
    )
    .unwrap();
    let before = std::fs::read_to_string(&path).unwrap();
    let (_, err, code) = run(&e, &["install", "claude", "--mcp"]);
    assert_eq!(code, 1);
    assert!(err.contains("does not run `riskgate mcp`"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);

    // --user writes the user's file; --dry-run writes nothing
    let (out, _, code) = run(&e, &["install", "cursor", "--mcp", "--user", "--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"riskgate\""), "{out}");
    assert!(!e.root.join("home/.cursor/mcp.json").exists());
    let (_, _, code) = run(&e, &["install", "claude", "--mcp", "--user"]);
    assert_eq!(code, 0);
    assert!(json_at(&e.root.join("home/.claude.json"))["mcpServers"]["riskgate"].is_object());

    let (_, err, code) = run(&e, &["install", "windsurf", "--mcp"]);
    assert_eq!(code, 1);
    assert!(err.contains("no MCP configuration"), "{err}");
}

#[test]
fn codex_config_toml_and_copilot_mcp_config_install_and_uninstall_idempotently() {
    let e = env();
    // Codex: the user's config.toml, with its comments and formatting kept byte for byte
    let codex = e.root.join("home/.codex/config.toml");
    std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
    let before =
        "# mine\nmodel = \"gpt-5\"  # aligned\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
    std::fs::write(&codex, before).unwrap();
    let (out, err, code) = run(&e, &["install", "codex", "--mcp", "--user"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("registered the MCP server"), "{out}");
    let text = std::fs::read_to_string(&codex).unwrap();
    assert!(
        text.starts_with("# mine\nmodel = \"gpt-5\"  # aligned\n"),
        "{text}"
    );
    assert!(text.contains("[mcp_servers.riskgate]"), "{text}");
    assert!(text.contains("args = [\"mcp\"]"), "{text}");
    let (out, _, code) = run(&e, &["install", "codex", "--mcp", "--user"]);
    assert_eq!(code, 0);
    assert!(out.contains("already registered"), "{out}");
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), text);
    let (out, _, code) = run(&e, &["uninstall", "codex", "--mcp", "--user"]);
    assert_eq!(code, 0);
    assert!(out.contains("removed"), "{out}");
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), before);
    let (out, _, code) = run(&e, &["uninstall", "codex", "--mcp", "--user"]);
    assert_eq!(code, 0);
    assert!(out.contains("no riskgate MCP server"), "{out}");

    // Codex, project: .codex/config.toml created, then removed with riskgate's entry
    let (_, err, code) = run(&e, &["install", "codex", "--mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(e.project.join(".codex/config.toml").exists());
    run(&e, &["uninstall", "codex", "--mcp"]);
    assert!(!e.project.join(".codex/config.toml").exists());

    // Copilot: ~/.copilot/mcp-config.json in the shape `copilot mcp add` writes
    let copilot = e.root.join("home/.copilot/mcp-config.json");
    let (_, err, code) = run(&e, &["install", "copilot", "--mcp", "--user"]);
    assert_eq!(code, 0, "{err}");
    let entry = &json_at(&copilot)["mcpServers"]["riskgate"];
    assert_eq!(entry["type"], "local");
    assert_eq!(entry["args"], json!(["mcp"]));
    assert_eq!(entry["tools"], json!(["*"]));
    let first = std::fs::read_to_string(&copilot).unwrap();
    let (out, _, _) = run(&e, &["install", "copilot", "--mcp", "--user"]);
    assert!(out.contains("already registered"), "{out}");
    assert_eq!(std::fs::read_to_string(&copilot).unwrap(), first);
    run(&e, &["uninstall", "copilot", "--mcp", "--user"]);
    assert!(!copilot.exists());
    // no workspace MCP file of Copilot's was verified: the project scope says to use --user
    let (_, err, code) = run(&e, &["install", "copilot", "--mcp"]);
    assert_eq!(code, 1);
    assert!(err.contains("copilot with --user"), "{err}");
}
