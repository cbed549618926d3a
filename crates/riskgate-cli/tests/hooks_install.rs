//! `riskgate install` and `uninstall` through the built binary (issue 5's "must show"):
//! installing twice leaves one hook entry and the user's other settings, in their order;
//! uninstalling removes only riskgate's entry; a file riskgate cannot read as JSON is left
//! untouched.

mod hooks_common;

use std::path::{Path, PathBuf};

use hooks_common::{Env, env, riskgate};
use serde_json::Value;

fn settings(e: &Env, rel: &str) -> PathBuf {
    e.project.join(rel)
}

fn install(e: &Env, args: &[&str]) -> String {
    let out = riskgate(e).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn install_twice_keeps_one_entry_and_the_users_settings() {
    let e = env();
    let files = [
        ("claude", ".claude/settings.json"),
        ("gemini", ".gemini/settings.json"),
        ("codex", ".codex/hooks.json"),
        ("cursor", ".cursor/hooks.json"),
        ("copilot", ".github/hooks/riskgate.json"),
    ];
    let user_text = r#"{
  "theme": "dark",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}
}"#;
    let user: Value = serde_json::from_str(user_text).unwrap();
    for (agent, rel) in files {
        let path = settings(&e, rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if agent != "copilot" {
            std::fs::write(&path, user_text).unwrap();
        }
        let dry = install(&e, &["install", agent, "--project", "--dry-run"]);
        assert!(dry.contains(&format!("hook {agent}")), "{dry}");
        assert!(
            !std::fs::read_to_string(&path)
                .unwrap_or_default()
                .contains("hook "),
            "dry run wrote"
        );
        install(&e, &["install", agent]);
        let again = install(&e, &["install", agent, "--project"]);
        assert!(again.contains("already installed"), "{again}");
        let text = std::fs::read_to_string(&path).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        // one entry per event: claude Pre/PostToolUse, gemini Before/AfterTool, cursor's three
        // events, codex PreToolUse, copilot preToolUse (its bash and powershell commands)
        let expected = match agent {
            "claude" | "gemini" | "copilot" => 2,
            "cursor" => 3,
            _ => 1,
        };
        assert_eq!(
            text.matches(&format!("hook {agent}")).count(),
            expected,
            "{text}"
        );
        if agent != "copilot" {
            assert_eq!(v["theme"], "dark");
            assert_eq!(v["permissions"], user["permissions"]);
            assert_eq!(v["hooks"]["Stop"], user["hooks"]["Stop"]);
            assert!(
                text.find("\"theme\"") < text.find("\"permissions\""),
                "key order kept"
            );
            assert!(Path::new(&format!("{}.riskgate.bak", path.display())).exists());
        }
        let out = install(&e, &["uninstall", agent]);
        assert!(out.contains("removed"), "{out}");
        if agent == "copilot" {
            assert!(!path.exists(), "riskgate's own file is removed");
        } else {
            let mut back: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if agent == "cursor" {
                // hooks.json needs a version; it stays
                back.as_object_mut().unwrap().remove("version");
            }
            assert_eq!(
                back, user,
                "{agent}: uninstall removes only riskgate's entry"
            );
        }
        let none = install(&e, &["uninstall", agent]);
        assert!(none.contains("no riskgate hook"), "{none}");
    }
}

#[test]
fn install_user_scope_and_refuses_to_clobber_bad_files() {
    let e = env();
    let out = install(&e, &["install", "claude", "--user"]);
    let path = e.root.join("home/.claude/settings.json");
    assert!(out.contains(&path.display().to_string()), "{out}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let entry = &v["hooks"]["PreToolUse"][0];
    assert!(entry["matcher"].as_str().unwrap().contains("Bash"));
    assert_eq!(entry["hooks"][0]["onFailure"], "block");
    let bad = settings(&e, ".claude/settings.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "{ not json").unwrap();
    let out = riskgate(&e).args(["install", "claude"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
}
