//! Unit tests of install and uninstall on text.

use super::*;

const CMD: &str = "riskgate hook claude";

fn write(c: Change) -> String {
    match c {
        Change::Write(t) => t,
        other => panic!("expected a write, got {other:?}"),
    }
}

#[test]
fn install_is_idempotent_and_uninstall_gives_the_bytes_back() {
    let p = Path::new("settings.json");
    let user = r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-linter"}]}],"Stop":[]},"z":1}"#;
    let once = write(install(Agent::Claude, p, Some(user), CMD).unwrap());
    assert_eq!(
        install(Agent::Claude, p, Some(&once), CMD).unwrap(),
        Change::Unchanged
    );
    // one entry under PreToolUse, one under PostToolUse
    assert_eq!(once.matches("riskgate hook claude").count(), 2);
    assert!(once.contains("my-linter") && once.contains(r#""model":"opus""#));
    // another path to the binary replaces the entry, never adds one
    let moved = write(
        install(
            Agent::Claude,
            p,
            Some(&once),
            "/opt/bin/riskgate hook claude",
        )
        .unwrap(),
    );
    assert_eq!(moved.matches("hook claude").count(), 2);
    assert_eq!(
        write(uninstall(Agent::Claude, p, Some(&moved)).unwrap()),
        user
    );
}

#[test]
fn comments_survive_install_and_uninstall_for_every_settings_agent() {
    let p = Path::new("settings.json");
    let user = "// my settings\n{\n  \"theme\": \"dark\", // keep\n  /* block */\n  \"hooks\": {\n    \"Stop\": [] // none\n  }\n}\n";
    for agent in Agent::ALL {
        if agent.info().layout == crate::agents::Layout::Owned {
            continue;
        }
        let cmd = format!("riskgate hook {}", agent.name());
        // hooks files that need a version have one already
        let versioned = user.replace("\"theme\"", "\"version\": 1,\n  \"theme\"");
        let user = if agent.info().layout == crate::agents::Layout::Flat(true) {
            versioned.as_str()
        } else {
            user
        };
        let once = write(install(agent, p, Some(user), &cmd).unwrap());
        assert!(
            once.contains("// keep") && once.contains("/* block */"),
            "{once}"
        );
        assert_eq!(
            registered(agent, p, &once).unwrap().as_deref(),
            Some(cmd.as_str()),
            "{agent:?}"
        );
        assert_eq!(
            install(agent, p, Some(&once), &cmd).unwrap(),
            Change::Unchanged,
            "{agent:?}: {once}"
        );
        assert_eq!(
            write(uninstall(agent, p, Some(&once)).unwrap()),
            user,
            "{agent:?}"
        );
    }
}

#[test]
fn files_left_empty_are_removed_and_bad_files_are_left_alone() {
    let p = Path::new("riskgate.json");
    for agent in [
        Agent::Copilot,
        Agent::Cursor,
        Agent::Claude,
        Agent::Windsurf,
    ] {
        let cmd = format!("riskgate hook {}", agent.name());
        let t = write(install(agent, p, None, &cmd).unwrap());
        if agent.info().layout == crate::agents::Layout::Flat(true) {
            assert!(t.starts_with("{\n  \"version\": 1"), "{t}");
        }
        assert_eq!(uninstall(agent, p, Some(&t)).unwrap(), Change::Delete);
    }
    // an empty file the user commented is kept
    let t = write(install(Agent::Claude, p, Some("{ // mine\n}"), CMD).unwrap());
    assert_eq!(
        write(uninstall(Agent::Claude, p, Some(&t)).unwrap()),
        "{ // mine\n}"
    );
    assert!(install(Agent::Claude, p, Some("[1]"), CMD).is_err());
    assert!(install(Agent::Claude, p, Some("{\"hooks\": 3}"), CMD).is_err());
    assert!(install(Agent::Claude, p, Some("{oops"), CMD).is_err());
    assert!(is_ours(
        "'/usr/local/bin/riskgate' hook claude",
        Agent::Claude
    ));
    assert!(is_ours(
        "\"C:\\\\bin\\\\riskgate.exe\" hook claude-code",
        Agent::Claude
    ));
    assert!(!is_ours("riskgate hook gemini", Agent::Claude));
}

#[test]
fn copilot_registers_pre_and_post_tool_use() {
    let t = write(
        install(
            Agent::Copilot,
            Path::new("r.json"),
            None,
            "riskgate hook copilot",
        )
        .unwrap(),
    );
    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
    assert_eq!(v["hooks"]["preToolUse"][0]["bash"], "riskgate hook copilot");
    assert_eq!(
        v["hooks"]["postToolUse"][0]["bash"],
        "riskgate hook copilot"
    );
}

#[test]
fn owned_files_are_written_whole_and_only_removed_when_ours() {
    let p = Path::new("riskgate.js");
    let cmd = "'/opt/risk gate/riskgate' hook opencode";
    let t = write(install(Agent::OpenCode, p, None, cmd).unwrap());
    assert!(
        t.contains(r#"const COMMAND = ["/opt/risk gate/riskgate","hook","opencode"];"#),
        "{t}"
    );
    assert!(t.contains("tool.execute.before"));
    assert_eq!(
        install(Agent::OpenCode, p, Some(&t), cmd).unwrap(),
        Change::Unchanged
    );
    assert_eq!(
        registered(Agent::OpenCode, p, &t).unwrap().as_deref(),
        Some("'/opt/risk gate/riskgate' hook opencode")
    );
    assert_eq!(
        uninstall(Agent::OpenCode, p, Some(&t)).unwrap(),
        Change::Delete
    );
    // Kilo's plugin is its own
    assert_eq!(
        uninstall(Agent::Kilo, p, Some(&t)).unwrap(),
        Change::Unchanged
    );
    let theirs = "export const Mine = async () => ({})\n";
    assert!(install(Agent::OpenCode, p, Some(theirs), cmd).is_err());
    assert_eq!(
        uninstall(Agent::OpenCode, p, Some(theirs)).unwrap(),
        Change::Unchanged
    );
    let s = write(
        install(
            Agent::Cline,
            Path::new("PreToolUse"),
            None,
            "riskgate hook cline",
        )
        .unwrap(),
    );
    assert!(s.starts_with("#!/bin/sh\n") && s.ends_with("exec riskgate hook cline\n"));
    assert!(executable(Agent::Cline) && !executable(Agent::OpenCode));
}

#[test]
fn paths_come_from_the_agent_table() {
    let home = Path::new("/home/u");
    let proj = Path::new("/p");
    let none = |_: &str| None;
    assert_eq!(
        settings_path(Agent::OpenCode, Scope::User, proj, home, none),
        Path::new("/home/u/.config/opencode/plugins/riskgate.js")
    );
    assert_eq!(
        settings_path(Agent::Kilo, Scope::User, proj, home, |v: &str| (v
            == "XDG_CONFIG_HOME")
            .then(|| "/x".to_string())),
        Path::new("/x/kilo/plugins/riskgate.js")
    );
    assert_eq!(
        settings_path(Agent::Windsurf, Scope::User, proj, home, none),
        Path::new("/home/u/.codeium/windsurf/hooks.json")
    );
    assert_eq!(
        settings_path(Agent::Cline, Scope::Project, proj, home, none),
        Path::new("/p/.clinerules/hooks/PreToolUse")
    );
    assert_eq!(
        settings_path(Agent::Codex, Scope::User, proj, home, |v: &str| (v
            == "CODEX_HOME")
            .then(|| "/c".to_string())),
        Path::new("/c/hooks.json")
    );
}
