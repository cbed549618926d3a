use super::*;

fn written(c: Change) -> String {
    match c {
        Change::Write(t) => t,
        other => panic!("expected a write, got {other:?}"),
    }
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn install_is_idempotent_and_keeps_other_servers_in_order() {
    let p = Path::new("/p/.mcp.json");
    let before = r#"{"mcpServers": {"github": {"command": "gh-mcp"}}, "other": 1}"#;
    let after = written(install(Agent::Claude, p, Some(before), "riskgate").unwrap());
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        v["mcpServers"]["riskgate"],
        serde_json::json!({"command": "riskgate", "args": ["mcp"]})
    );
    assert_eq!(v["mcpServers"]["github"]["command"], "gh-mcp");
    assert!(after.find("github").unwrap() < after.find("riskgate").unwrap());
    assert!(after.find("mcpServers").unwrap() < after.find("other").unwrap());
    assert_eq!(
        install(Agent::Claude, p, Some(&after), "riskgate").unwrap(),
        Change::Unchanged
    );
    // another path to the binary replaces the entry
    let moved = written(install(Agent::Claude, p, Some(&after), "/opt/bin/riskgate").unwrap());
    assert!(moved.contains("/opt/bin/riskgate"));
    assert_eq!(moved.matches("\"mcp\"").count(), 1);
    // uninstall keeps the other server, byte for byte, then removes the file it created
    let back = written(uninstall(p, Some(&moved)).unwrap());
    assert_eq!(back, before);
    let fresh = written(install(Agent::Claude, p, None, "riskgate").unwrap());
    assert_eq!(uninstall(p, Some(&fresh)).unwrap(), Change::Delete);
    assert_eq!(uninstall(p, None).unwrap(), Change::Unchanged);
    assert_eq!(uninstall(p, Some(&back)).unwrap(), Change::Unchanged);
}

#[test]
fn settings_files_are_kept_and_foreign_entries_refused() {
    let p = Path::new("/p/.gemini/settings.json");
    let fresh =
        written(install(Agent::Gemini, p, Some(r#"{"theme": "dark"}"#), "riskgate").unwrap());
    let back = written(uninstall(p, Some(&fresh)).unwrap());
    assert_eq!(back, r#"{"theme": "dark"}"#);
    let foreign = r#"{"mcpServers": {"riskgate": {"command": "node", "args": ["x.js"]}}}"#;
    assert!(install(Agent::Gemini, p, Some(foreign), "riskgate").is_err());
    assert_eq!(uninstall(p, Some(foreign)).unwrap(), Change::Unchanged);
    assert!(install(Agent::Gemini, p, Some("[1]"), "riskgate").is_err());
    assert!(install(Agent::Gemini, p, Some(r#"{"mcpServers": []}"#), "riskgate").is_err());
    let windsurf = config_path(
        Agent::Windsurf,
        Scope::Project,
        Path::new("/p"),
        Path::new("/h"),
        &no_env,
    );
    assert!(windsurf.is_none());
}

#[test]
fn gemini_settings_with_comments_keep_every_byte() {
    // Gemini CLI reads JSON with comments; riskgate's entry goes in and out as text.
    let p = Path::new("/p/.gemini/settings.json");
    let before = "{\n  // the theme\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"docs-mcp\"}, // docs\n  },\n}\n";
    let after = written(install(Agent::Gemini, p, Some(before), "riskgate").unwrap());
    assert!(
        after.contains("// the theme") && after.contains("// docs"),
        "{after}"
    );
    assert!(after.contains("\"riskgate\""), "{after}");
    assert_eq!(
        install(Agent::Gemini, p, Some(&after), "riskgate").unwrap(),
        Change::Unchanged
    );
    assert_eq!(written(uninstall(p, Some(&after)).unwrap()), before);
}

#[test]
fn codex_config_toml_keeps_the_users_formatting() {
    let p = Path::new("/h/.codex/config.toml");
    let before = "# my settings\nmodel = \"gpt-5\"   # aligned\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n\n[profiles.fast]\nmodel = \"mini\"\n";
    let after = written(install(Agent::Codex, p, Some(before), "riskgate").unwrap());
    // riskgate's table goes beside the other servers; nothing else changes
    let ours = "[mcp_servers.riskgate]\ncommand = \"riskgate\"\nargs = [\"mcp\"]\n\n";
    assert_eq!(after.replacen(ours, "", 1), before, "{after}");
    let v: toml_edit::DocumentMut = after.parse().unwrap();
    assert_eq!(
        v["mcp_servers"]["riskgate"]["command"].as_str(),
        Some("riskgate")
    );
    assert_eq!(
        v["mcp_servers"]["riskgate"]["args"]
            .as_array()
            .and_then(|a| a.get(0))
            .and_then(toml_edit::Value::as_str),
        Some("mcp")
    );
    assert_eq!(
        v["mcp_servers"]["docs"]["command"].as_str(),
        Some("docs-mcp")
    );
    assert_eq!(
        install(Agent::Codex, p, Some(&after), "riskgate").unwrap(),
        Change::Unchanged
    );
    // another path to the binary: the program changes, nothing is duplicated
    let moved = written(install(Agent::Codex, p, Some(&after), "/opt/riskgate").unwrap());
    assert_eq!(
        moved.matches("[mcp_servers.riskgate]").count(),
        1,
        "{moved}"
    );
    assert!(moved.contains("command = \"/opt/riskgate\""), "{moved}");
    assert_eq!(written(uninstall(p, Some(&moved)).unwrap()), before);
    assert_eq!(uninstall(p, Some(before)).unwrap(), Change::Unchanged);
}

#[test]
fn codex_config_toml_created_then_removed_and_foreign_entries_refused() {
    let p = Path::new("/h/.codex/config.toml");
    let fresh = written(install(Agent::Codex, p, None, "riskgate").unwrap());
    assert_eq!(
        fresh,
        "[mcp_servers.riskgate]\ncommand = \"riskgate\"\nargs = [\"mcp\"]\n"
    );
    assert_eq!(uninstall(p, Some(&fresh)).unwrap(), Change::Delete);
    assert_eq!(uninstall(p, None).unwrap(), Change::Unchanged);
    let foreign = "[mcp_servers.riskgate]\ncommand = \"node\"\nargs = [\"x.js\"]\n";
    assert!(install(Agent::Codex, p, Some(foreign), "riskgate").is_err());
    assert_eq!(uninstall(p, Some(foreign)).unwrap(), Change::Unchanged);
    assert!(install(Agent::Codex, p, Some("model = "), "riskgate").is_err());
    assert!(install(Agent::Codex, p, Some("mcp_servers = 3\n"), "riskgate").is_err());
    // an inline table of servers gets an inline entry
    let inline = "mcp_servers = { docs = { command = \"docs-mcp\" } }\n";
    let after = written(install(Agent::Codex, p, Some(inline), "riskgate").unwrap());
    let v: toml_edit::DocumentMut = after.parse().unwrap();
    assert_eq!(
        v["mcp_servers"]["riskgate"]["command"].as_str(),
        Some("riskgate")
    );
    assert_eq!(
        v["mcp_servers"]["docs"]["command"].as_str(),
        Some("docs-mcp")
    );
}

#[test]
fn copilot_entry_has_the_shape_copilot_mcp_add_writes() {
    let p = Path::new("/h/.copilot/mcp-config.json");
    let fresh = written(install(Agent::Copilot, p, None, "riskgate").unwrap());
    let v: serde_json::Value = serde_json::from_str(&fresh).unwrap();
    assert_eq!(
        v["mcpServers"]["riskgate"],
        serde_json::json!({"type": "local", "command": "riskgate", "args": ["mcp"], "tools": ["*"]})
    );
    assert_eq!(
        install(Agent::Copilot, p, Some(&fresh), "riskgate").unwrap(),
        Change::Unchanged
    );
    assert_eq!(uninstall(p, Some(&fresh)).unwrap(), Change::Delete);
}

#[test]
fn paths_follow_the_agents_home_variables() {
    let (proj, home) = (Path::new("/p"), Path::new("/h"));
    let env = |k: &str| match k {
        "CODEX_HOME" => Some("/c".to_string()),
        "COPILOT_HOME" => Some("/g".to_string()),
        _ => None,
    };
    let at = |agent, scope, env: &dyn Fn(&str) -> Option<String>| {
        config_path(agent, scope, proj, home, &|k: &str| env(k))
    };
    assert_eq!(
        at(Agent::Codex, Scope::User, &env),
        Some(PathBuf::from("/c/config.toml"))
    );
    assert_eq!(
        at(Agent::Codex, Scope::User, &no_env),
        Some(PathBuf::from("/h/.codex/config.toml"))
    );
    assert_eq!(
        at(Agent::Codex, Scope::Project, &env),
        Some(PathBuf::from("/p/.codex/config.toml"))
    );
    assert_eq!(
        at(Agent::Copilot, Scope::User, &env),
        Some(PathBuf::from("/g/mcp-config.json"))
    );
    assert_eq!(
        at(Agent::Copilot, Scope::User, &no_env),
        Some(PathBuf::from("/h/.copilot/mcp-config.json"))
    );
    // Copilot 1.0.102 reads no workspace MCP file riskgate could verify: user only
    assert_eq!(at(Agent::Copilot, Scope::Project, &no_env), None);
}
