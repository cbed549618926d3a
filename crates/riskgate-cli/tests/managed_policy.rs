//! The managed policy through the binary: `config show` marks its values and warns about each
//! lower-layer setting it overrules (naming both files); a hook obeys its `hooks.ask_fallback`
//! whatever the user file and the command line say.

mod hooks_common;

use hooks_common::{claude, decision, env, riskgate};
use serde_json::{Value, json};

fn write(path: &std::path::Path, text: &str) {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn config_show_marks_managed_values_and_names_both_files() {
    let e = env();
    let managed = e.root.join("managed").join("managed.toml");
    write(
        &managed,
        "environment = \"production\"\n[hooks]\nask_fallback = \"deny\"\n",
    );
    let user = e.root.join("config").join("riskgate").join("config.yaml");
    write(&user, "environment: test\nhooks: { ask_fallback: ask }\n");
    let out = riskgate(&e)
        .args(["config", "show", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let row = |key: &str| {
        rows.iter()
            .find(|r| r["key"] == key)
            .cloned()
            .unwrap_or_default()
    };
    for key in ["environment", "hooks.ask_fallback"] {
        assert_eq!(row(key)["managed"], true, "{key}: {rows:#?}");
        assert!(
            row(key)["source"]
                .as_str()
                .unwrap()
                .contains("managed.toml")
        );
    }
    assert_eq!(row("environment")["value"], "production");
    assert_eq!(row("approval_ttl_days")["managed"], false);
    let err = String::from_utf8_lossy(&out.stderr);
    for key in ["environment: test", "hooks.ask_fallback: ask"] {
        assert!(
            err.lines().any(|l| l.contains(key)
                && l.contains(&user.display().to_string())
                && l.contains(&managed.display().to_string())),
            "{key}: {err}"
        );
    }
    let text = riskgate(&e).args(["config", "show"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("environment") && l.contains("[managed]")),
        "{text}"
    );
}

#[test]
fn a_hook_obeys_the_managed_ask_fallback() {
    let e = env();
    let push = json!({"command": "git push --force origin main"});
    let run = |args: &[&str]| {
        let out = riskgate(&e)
            .args(args)
            .write_stdin(claude(&e, "Bash", push.clone()).to_string())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    // without a managed policy, the command line makes Claude ask its user
    let out = run(&["hook", "claude", "--set", "hooks.ask_fallback=ask"]);
    assert_eq!(decision("claude", &out).as_deref(), Some("ask"), "{out}");
    write(
        &e.root.join("managed").join("managed.yaml"),
        "hooks: { ask_fallback: deny }\n",
    );
    let out = run(&["hook", "claude", "--set", "hooks.ask_fallback=ask"]);
    assert_eq!(decision("claude", &out).as_deref(), Some("deny"), "{out}");
}
