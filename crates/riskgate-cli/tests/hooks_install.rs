//! `riskgate install` and `uninstall` through the built binary, for every agent (issues 5 and
//! 13): installing twice leaves one hook entry; the user's file keeps every other byte
//! (comments in JSON-with-comments settings included) and uninstalling gives it back byte for
//! byte, with no backup and no emptied file left behind; plugins and hook scripts riskgate
//! owns are created and removed whole; a file riskgate cannot read is left untouched.

mod hooks_common;

use std::path::{Path, PathBuf};

use hooks_common::{Env, env, riskgate};
use serde_json::Value;

fn settings(e: &Env, rel: &str) -> PathBuf {
    e.project.join(rel)
}

fn run(e: &Env, args: &[&str]) -> String {
    let out = riskgate(e).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn backup(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.riskgate.bak", path.display()))
}

/// The user's own settings, with comments where the agent reads JSON with comments.
fn user_text(agent: &str) -> String {
    let comment = matches!(agent, "gemini" | "qwen");
    let version = if matches!(agent, "cursor" | "copilot") {
        "  \"version\": 1,\n"
    } else {
        ""
    };
    let note = if comment { " // my theme" } else { "" };
    let block = if comment {
        "  /* hooks I wrote */\n"
    } else {
        ""
    };
    format!(
        "{{\n{version}  \"theme\": \"dark\",{note}\n  \"permissions\": {{\"allow\": [\"Bash(ls:*)\"]}},\n{block}  \"hooks\": {{\"Stop\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"notify-send done\"}}]}}]}}\n}}\n"
    )
}

const SETTINGS: [(&str, &str, usize); 9] = [
    // agent, project file, riskgate entries once installed
    ("claude", ".claude/settings.json", 2),
    ("gemini", ".gemini/settings.json", 2),
    ("codex", ".codex/hooks.json", 1),
    ("cursor", ".cursor/hooks.json", 3),
    // preToolUse and postToolUse, each with a bash and a powershell command
    ("copilot", ".github/hooks/riskgate.json", 4),
    ("windsurf", ".windsurf/hooks.json", 4),
    ("qwen", ".qwen/settings.json", 1),
    ("droid", ".factory/settings.json", 1),
    ("augment", ".augment/settings.json", 1),
];

#[test]
fn settings_files_keep_every_other_byte_and_come_back_unchanged() {
    let e = env();
    for (agent, rel, entries) in SETTINGS {
        let path = settings(&e, rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let user = user_text(agent);
        std::fs::write(&path, &user).unwrap();
        let dry = run(&e, &["install", agent, "--project", "--dry-run"]);
        assert!(dry.contains(&format!("hook {agent}")), "{dry}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            user,
            "dry run wrote"
        );

        run(&e, &["install", agent]);
        let again = run(&e, &["install", agent, "--project"]);
        assert!(again.contains("already installed"), "{again}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches(&format!("hook {agent}")).count(),
            entries,
            "{text}"
        );
        // everything the user wrote is still there, as written
        for line in user
            .lines()
            .filter(|l| l.contains("theme") || l.contains("/*"))
        {
            assert!(text.contains(line), "{agent}: lost {line:?}:\n{text}");
        }
        assert!(!backup(&path).exists(), "{agent}: a backup was left behind");

        let out = run(&e, &["uninstall", agent]);
        assert!(out.contains("removed"), "{out}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            user,
            "{agent}: uninstall gives the file back byte for byte"
        );
        assert!(!backup(&path).exists());
        let none = run(&e, &["uninstall", agent]);
        assert!(none.contains("no riskgate hook"), "{none}");
    }
}

#[test]
fn files_riskgate_created_are_removed_on_uninstall() {
    let e = env();
    for (agent, rel, _) in SETTINGS {
        let path = settings(&e, rel);
        run(&e, &["install", agent]);
        assert!(path.exists(), "{agent}");
        run(&e, &["uninstall", agent]);
        assert!(!path.exists(), "{agent}: an emptied file was left behind");
        assert!(!backup(&path).exists(), "{agent}");
    }
    // a `{}` the user had is not left as `{}` either
    let path = settings(&e, ".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{}").unwrap();
    run(&e, &["install", "claude"]);
    run(&e, &["uninstall", "claude"]);
    assert!(!path.exists());
}

#[test]
fn plugins_and_hook_scripts_are_written_whole_and_removed() {
    let e = env();
    let owned = [
        (
            "opencode",
            ".opencode/plugins/riskgate.js",
            "tool.execute.before",
        ),
        ("kilo", ".kilo/plugins/riskgate.js", "tool.execute.before"),
        ("cline", ".clinerules/hooks/PreToolUse", "#!/bin/sh"),
        (
            "goose",
            ".agents/plugins/riskgate/hooks/hooks.json",
            "\"on_failure\": \"block\"",
        ),
    ];
    for (agent, rel, marker) in owned {
        if agent == "cline" && cfg!(windows) {
            // refused there: the hook file is a shell script
            continue;
        }
        let path = settings(&e, rel);
        let out = run(&e, &["install", agent]);
        assert!(out.contains("installed"), "{out}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(marker) && text.contains(&format!("hook\",\"{agent}\""))
                || text.contains(&format!("hook {agent}")),
            "{text}"
        );
        #[cfg(unix)]
        if agent == "cline" {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o111, 0o111, "Cline runs the hook file itself");
        }
        if agent == "goose" {
            // a Goose plugin needs its manifest beside its hooks
            let manifest = settings(&e, ".agents/plugins/riskgate/plugin.json");
            let m: Value =
                serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
            assert_eq!(m["name"], "riskgate");
        }
        assert!(run(&e, &["install", agent]).contains("already installed"));
        run(&e, &["uninstall", agent]);
        assert!(!path.exists(), "{agent}");
    }
    // the plugin directory riskgate made for Goose goes with it
    assert!(!settings(&e, ".agents/plugins/riskgate").exists());
    // a plugin someone else wrote under riskgate's name is never overwritten or removed
    let path = settings(&e, ".opencode/plugins/riskgate.js");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "export const Mine = async () => ({})\n").unwrap();
    let out = riskgate(&e).args(["install", "opencode"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    run(&e, &["uninstall", "opencode"]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "export const Mine = async () => ({})\n"
    );
}

#[test]
fn user_scope_and_the_notes_that_belong_to_each_scope() {
    let e = env();
    let out = run(&e, &["install", "claude", "--user"]);
    let path = e.root.join("home/.claude/settings.json");
    assert!(out.contains(&path.display().to_string()), "{out}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let entry = &v["hooks"]["PreToolUse"][0];
    assert!(entry["matcher"].as_str().unwrap().contains("Bash"));
    assert_eq!(entry["hooks"][0]["onFailure"], "block");
    // trusted folders are about project hooks: not said for the user's own settings
    let user = run(&e, &["install", "gemini", "--user"]);
    assert!(!user.contains("trusted folders"), "{user}");
    let project = run(&e, &["install", "gemini"]);
    assert!(project.contains("trusted folders"), "{project}");
    // Auggie's tenant flag is about every hook: said for both scopes
    for args in [
        &["install", "augment"][..],
        &["install", "augment", "--user"],
    ] {
        let out = run(&e, args);
        assert!(out.contains("`enableHooks` feature flag"), "{out}");
    }
    let out = run(&e, &["install", "opencode", "--user"]);
    assert!(
        out.contains(
            &e.root
                .join("config/opencode/plugins/riskgate.js")
                .display()
                .to_string()
        ),
        "{out}"
    );
}

#[test]
fn files_riskgate_cannot_read_are_left_untouched() {
    let e = env();
    let bad = settings(&e, ".claude/settings.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "{ not json").unwrap();
    let out = riskgate(&e).args(["install", "claude"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
    assert!(!backup(&bad).exists());
}
