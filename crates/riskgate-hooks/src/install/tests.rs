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

mod properties {
    //! Over generated settings files (any shape riskgate edits, compact or indented, with
    //! comments): install then uninstall gives the text back byte for byte, for every agent
    //! whose hooks live in a shared settings file; and no text makes the editor panic.

    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-1000i64..1000).prop_map(|n| json!(n)),
            "[a-z /*\"\\\\]{0,8}".prop_map(Value::String),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        scalar().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-zA-Z_]{1,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A settings document: other keys, and a `hooks` object of event lists.
    fn settings() -> impl Strategy<Value = Value> {
        (
            prop::collection::btree_map("[a-z]{1,6}", value(), 0..4),
            prop::option::of(prop::collection::btree_map(
                prop_oneof![Just("PreToolUse".to_string()), "[A-Za-z_]{1,8}"],
                prop::collection::vec(value(), 1..3),
                1..3,
            )),
        )
            .prop_map(|(mut other, hooks)| {
                other.remove("hooks");
                let mut m: serde_json::Map<String, Value> = other.into_iter().collect();
                if let Some(h) = hooks {
                    let h: serde_json::Map<String, Value> =
                        h.into_iter().map(|(k, v)| (k, Value::Array(v))).collect();
                    m.insert("hooks".into(), Value::Object(h));
                }
                Value::Object(m)
            })
    }

    /// `v` as text: compact or indented (2 or 4 spaces, a tab), with a comment before the
    /// first line and at the end of some lines.
    fn text(v: &Value, style: u8, comments: bool) -> String {
        let mut t = match style % 4 {
            0 => serde_json::to_string(v).unwrap(),
            1 => serde_json::to_string_pretty(v).unwrap(),
            2 => serde_json::to_string_pretty(v)
                .unwrap()
                .replace("  ", "    "),
            _ => serde_json::to_string_pretty(v).unwrap().replace("  ", "\t"),
        };
        if comments {
            t = format!("// settings\n{}", t.replace(",\n", ", // note\n"));
        }
        t.push('\n');
        t
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn install_then_uninstall_is_the_identity(
            v in settings(),
            style in any::<u8>(),
            comments in any::<bool>(),
            which in 0usize..9,
        ) {
            let agents = [
                Agent::Claude, Agent::Gemini, Agent::Codex, Agent::Cursor, Agent::Copilot,
                Agent::Windsurf, Agent::Qwen, Agent::Droid, Agent::Augment,
            ];
            let agent = agents[which];
            let mut v = v;
            if agent.info().layout == crate::agents::Layout::Flat(true)
                && let Value::Object(m) = &mut v
            {
                // hooks files that need a version have one (install adds it otherwise)
                m.insert("version".into(), json!(1));
            }
            // known limit: an empty `hooks` object or event list riskgate's entries were added
            // to is removed with them (nothing tells it from one riskgate created)
            let hooks = v.get("hooks").and_then(Value::as_object);
            prop_assume!(hooks.is_none_or(|h| !h.is_empty()
                && h.values().all(|l| l.as_array().is_some_and(|l| !l.is_empty()))));
            let t = text(&v, style, comments);
            let p = Path::new("settings.json");
            let cmd = format!("riskgate hook {}", agent.name());
            let Ok(Change::Write(installed)) = install(agent, p, Some(&t), &cmd) else {
                // a shape riskgate refuses to edit (a list of something else …)
                return Ok(());
            };
            prop_assert!(registered(agent, p, &installed).unwrap().is_some());
            let back = uninstall(agent, p, Some(&installed)).unwrap();
            let only_version = v.as_object().is_some_and(|m| m.keys().all(|k| k == "version"));
            match back {
                Change::Write(back) => prop_assert_eq!(back, t),
                Change::Delete => prop_assert!(only_version && !comments, "deleted {}", t),
                Change::Unchanged => prop_assert!(false, "nothing removed from {}", installed),
            }
        }

        #[test]
        fn no_text_makes_the_editor_panic(t in "[{}\\[\\]\",:/* \\na-z0-9\\\\]{0,80}", which in 0usize..13) {
            let agent = Agent::ALL[which];
            let _ = crate::jsonc::parse(&t);
            let p = Path::new("f");
            if let Ok(Change::Write(w)) = install(agent, p, Some(&t), "riskgate hook x") {
                let _ = uninstall(agent, p, Some(&w));
            }
            let _ = uninstall(agent, p, Some(&t));
            let _ = registered(agent, p, &t);
        }
    }
}
