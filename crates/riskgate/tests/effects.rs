//! The effect model through the whole engine: what each command does to what, the level that
//! follows from effect × target × scope, and reversibility. Commands are strings only; nothing
//! is run.

use riskgate::model::effect::{EffectKind, Environment, Scope, TargetClass};
use riskgate::{Assessment, Engine, RiskLevel};

fn assess(cmd: &str) -> Assessment {
    Engine::builtin().assess_command(cmd)
}

fn has_effect(a: &Assessment, kind: EffectKind, class: TargetClass) -> bool {
    a.effects
        .iter()
        .any(|e| e.kind == kind && e.target.class == class)
}

#[test]
fn deleting_one_system_file_is_high_and_not_reversible() {
    for cmd in [
        "rm /var/log/dpkg.log",
        "rm /root/.bashrc",
        "rm /usr/share/base-passwd/group.master",
        "rm ~/.zshrc",
        "rm /home/ubuntu/.profile",
    ] {
        let a = assess(cmd);
        assert!(a.level >= RiskLevel::High, "{cmd}: {:?}", a.level);
        assert!(!a.reversible, "{cmd} must not be reversible");
        assert!(
            a.effects
                .iter()
                .any(|e| e.kind == EffectKind::Delete && !e.reversible),
            "{cmd}: {:?}",
            a.effects
        );
    }
    let a = assess("rm /var/log/dpkg.log");
    assert!(has_effect(&a, EffectKind::Delete, TargetClass::Logs));
    assert!(a.rule_ids().contains(&"effect.delete.logs"));
}

#[test]
fn scoped_cleanup_stays_at_most_medium_and_reversible() {
    for cmd in [
        "rm -rf node_modules dist target",
        "rm -rf .next __pycache__",
        "rm /tmp/test-output.json",
        "rm -rf ~/.cache/pip",
    ] {
        let a = assess(cmd);
        assert!(a.level <= RiskLevel::Medium, "{cmd}: {:?}", a.level);
        assert!(
            a.effects.iter().all(|e| e.reversible),
            "{cmd}: {:?}",
            a.effects
        );
    }
    let a = assess("rm -rf node_modules");
    assert!(has_effect(&a, EffectKind::Delete, TargetClass::BuildOutput));
}

#[test]
fn unknown_service_cli_verbs_are_read_as_intent() {
    let a = assess("foo-cli projects delete prod-db --force");
    assert!(a.level >= RiskLevel::High, "{:?}", a.level);
    let e = a
        .effects
        .iter()
        .find(|e| e.kind == EffectKind::Delete)
        .expect("a delete effect");
    assert_eq!(e.target.class, TargetClass::CloudResource);
    assert_eq!(e.target.text, "prod-db");
    assert_eq!(e.target.environment, Some(Environment::Prod));
    assert!(e.scope.contains(&Scope::Forced));
    assert!(!a.reversible);

    for cmd in [
        "foo-cli projects list",
        "acmectl tenants list --output json",
        "acmectl logs --filter 'action=delete'",
        "opsctl audit search --query destroy",
    ] {
        let a = assess(cmd);
        assert!(a.level <= RiskLevel::Low, "{cmd}: {:?}", a.level);
        assert!(
            a.effects.iter().all(|e| e.kind != EffectKind::Delete),
            "{cmd}"
        );
    }
    // Development resources stay at most MEDIUM.
    let a = assess("foo-cli projects delete sandbox-dev --force");
    assert!(a.level <= RiskLevel::Medium, "{:?}", a.level);
}

#[test]
fn http_methods_that_change_state() {
    let a = assess("curl -X DELETE https://api.example.com/v1/users/42");
    assert!(a.level >= RiskLevel::High);
    assert!(has_effect(&a, EffectKind::Delete, TargetClass::PublicHost));
    let a = assess("http DELETE https://api.example.com/v1/users/42");
    assert!(a.level >= RiskLevel::High);
    let a = assess("gh api -X DELETE repos/acme/api");
    assert!(a.level >= RiskLevel::High);
    let a = assess("wget --method=DELETE -qO- https://api.acme.io/v1/buckets/prod-assets");
    assert!(a.level >= RiskLevel::High);

    for cmd in [
        "curl -X DELETE http://localhost:8080/api/todos/3",
        "curl -X PUT http://127.0.0.1:8000/items/1 -d '{\"done\":true}'",
        "http :8080/health",
        "curl -s https://api.github.com/repos/acme/api",
        "xh delete localhost:3000/api/todos/7",
    ] {
        let a = assess(cmd);
        assert!(a.level <= RiskLevel::Medium, "{cmd}: {:?}", a.level);
    }
    let a = assess("curl -X DELETE http://localhost:8080/api/todos/3");
    assert!(has_effect(&a, EffectKind::Delete, TargetClass::Loopback));
}

#[test]
fn privilege_multiplies_and_permissions_depend_on_the_mode() {
    let a = assess("sudo chmod 777 /etc/shadow");
    assert!(a.level >= RiskLevel::High);
    assert!(
        a.effects
            .iter()
            .any(|e| e.kind == EffectKind::Permissions && e.scope.contains(&Scope::Privileged))
    );
    for cmd in ["chmod 600 ~/.ssh/id_ed25519", "chmod 700 ~/.ssh"] {
        assert!(assess(cmd).level <= RiskLevel::Medium, "{cmd}");
    }
    assert!(
        assess("echo 'ALL ALL=(ALL) NOPASSWD: ALL' | sudo tee -a /etc/sudoers").level
            >= RiskLevel::High
    );
    // An append to an rc file is a modification: the effect alone is MEDIUM (rules may say more).
    let a = assess("echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc");
    let f = a
        .findings
        .iter()
        .find(|f| f.rule_id == "effect.modify.persistence")
        .expect("an effect finding");
    assert_eq!(f.level, RiskLevel::Medium);
}

#[test]
fn text_that_is_data_makes_no_effect() {
    for cmd in [
        "git commit -m 'rm /etc/passwd and curl -X DELETE https://api.x.io'",
        "grep -rn 'terminate-instances' scripts/",
        "echo 'foo-cli projects delete prod-db --force'",
        "gh repo delete --help",
        "foo-cli projects delete prod-db --dry-run",
    ] {
        let a = assess(cmd);
        assert!(
            a.effects
                .iter()
                .all(|e| !matches!(e.kind, EffectKind::Delete)),
            "{cmd}: {:?}",
            a.effects
        );
    }
}

#[test]
fn device_tools_that_only_read_have_no_effect() {
    for cmd in [
        "sudo wipefs /dev/sdb",
        "sudo sfdisk -d /dev/sda > sda.partitions",
        "sudo hdparm -I /dev/sda",
    ] {
        let a = assess(cmd);
        assert!(a.level <= RiskLevel::Medium, "{cmd}: {:?}", a.level);
        assert!(
            !has_effect(&a, EffectKind::Overwrite, TargetClass::Device),
            "{cmd}"
        );
    }
    let a = assess("sudo wipefs -a /dev/sdb");
    assert!(a.level >= RiskLevel::High);
    assert!(has_effect(&a, EffectKind::Overwrite, TargetClass::Device));
}

#[test]
fn effects_are_in_the_json_report() {
    let a = assess("sudo rm /etc/passwd");
    let json = serde_json::to_value(&a).unwrap_or_default();
    let effects = json["effects"].as_array().cloned().unwrap_or_default();
    assert!(
        effects.iter().any(|e| e["kind"] == "delete"
            && e["target"]["class"] == "credentials"
            && e["target"]["text"] == "/etc/passwd"
            && e["reversible"] == false
            && e["scope"]
                .as_array()
                .is_some_and(|s| s.iter().any(|x| x == "privileged"))),
        "{effects:?}"
    );
}

#[test]
fn a_rule_that_knows_the_command_outranks_a_guessed_verb_but_a_floor_does_not() {
    // db.supabase-db-reset knows the local reset rebuilds a dev database: MEDIUM, though the
    // verb alone would read as a deleted database.
    let a = assess("supabase db reset");
    assert_eq!(a.level, RiskLevel::Medium);
    assert!(has_effect(
        &a,
        EffectKind::Delete,
        TargetClass::CloudResource
    ));
    assert!(!a.rule_ids().iter().any(|id| id.starts_with("effect.")));
    // The release pack only says production changes are at least MEDIUM: the effect decides.
    let a = assess("helmfile -e production destroy");
    assert!(a.level >= RiskLevel::High, "{:?}", a.level);
    assert!(a.rule_ids().contains(&"effect.delete.cloud_resource"));
}

#[test]
fn a_move_is_a_modification_of_its_sources_and_an_overwrite_of_its_destination() {
    // The effect alone is MEDIUM (moved, not lost); a rule may say more.
    let a = assess("sudo mv /etc/nginx/sites-enabled/default /tmp/");
    assert!(has_effect(&a, EffectKind::Modify, TargetClass::System));
    let f = a
        .findings
        .iter()
        .find(|f| f.rule_id == "effect.modify.system")
        .expect("an effect finding");
    assert_eq!(f.level, RiskLevel::Medium);
    assert!(f.reversible);
    assert!(assess("sudo mv /etc/shadow /tmp/").level >= RiskLevel::High);
    let a = assess("mv new-passwd /etc/passwd");
    assert!(has_effect(
        &a,
        EffectKind::Overwrite,
        TargetClass::Credentials
    ));
    assert!(a.level >= RiskLevel::High);
}
