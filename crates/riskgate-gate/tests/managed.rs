//! The managed policy: applied above every other layer; a user file, a project file, the
//! environment or the command line cannot lower or unset what it sets, each attempt is a
//! warning naming both files; `config show` marks its values; its git revision is recorded in
//! audit records.

mod common;

use std::path::{Path, PathBuf};

use common::{Fixture, command};
use riskgate_gate::policy::{AskFallback, Environment, Trust};
use riskgate_gate::{AuditLog, AuditQuery, CliOverrides, Gate, Locations, Policy, decide};
use riskgate_model::{Decision, RiskLevel};

const MANAGED: &str = "\
environment: production
hooks: { ask_fallback: deny }
approval_timeout: 30
agents: { claude: untrusted, \"*\": untrusted }
patterns:
  - { pattern: \"terraform apply*\", level: HIGH, description: infrastructure change }
protected_branches: [main, \"release/*\"]
allowed_paths: [\"/srv/**\"]
";

const USER: &str = "\
environment: test
hooks: { ask_fallback: ask }
approval_timeout: 600
agents: { claude: trusted, codex: trusted }
overrides: { \"terraform apply*\": LOW, \"npm test*\": SAFE }
protected_branches: []
allowed_paths: [\"/**\"]
patterns: [\"curl * | sh\"]
";

const PROJECT: &str = "\
environment: test
overrides: { \"terraform apply*\": SAFE }
";

struct Team {
    fx: Fixture,
    managed: PathBuf,
    user_dir: PathBuf,
}

impl Team {
    fn new(managed: &str) -> Team {
        let fx = Fixture::new();
        let managed_dir = fx.root().join("etc-riskgate");
        std::fs::create_dir_all(&managed_dir).unwrap();
        let path = managed_dir.join("managed.yaml");
        std::fs::write(&path, managed).unwrap();
        let user_dir = fx.root().join("user");
        std::fs::create_dir_all(&user_dir).unwrap();
        Team {
            fx,
            managed: path,
            user_dir,
        }
    }

    fn locations(&self) -> Locations {
        Locations {
            user_config_dir: Some(self.user_dir.clone()),
            managed: self.managed.parent().map(Path::to_path_buf),
            ..Locations::isolated(self.fx.root())
        }
    }

    fn load(&self, cli: &CliOverrides) -> Policy {
        Policy::load_with(&self.fx.project(), &self.locations(), cli).expect("policy loads")
    }
}

fn warned(p: &Policy, needles: &[&str]) -> bool {
    p.warnings()
        .iter()
        .any(|w| needles.iter().all(|n| w.contains(n)))
}

#[test]
fn user_and_project_files_cannot_lower_or_unset_managed_values() {
    let t = Team::new(MANAGED);
    std::fs::write(t.user_dir.join("config.yaml"), USER).unwrap();
    std::fs::write(t.fx.project().join(".riskgate.yaml"), PROJECT).unwrap();
    let p = t.load(&CliOverrides::default());
    let managed = t.managed.display().to_string();
    let user = t.user_dir.join("config.yaml").display().to_string();

    assert_eq!(p.environment().value, Environment::Production);
    assert!(p.environment().source.is_managed());
    assert_eq!(p.ask_fallback(), AskFallback::Deny);
    assert_eq!(p.approval_timeout().as_secs(), 30);
    assert_eq!(p.trust(Some("claude")), Trust::Untrusted);
    // `*: untrusted` in the managed file: no other layer trusts any agent
    assert_eq!(p.trust(Some("codex")), Trust::Untrusted);
    // the managed branches stay protected; the user's empty list removes nothing
    assert!(p.is_protected_branch("main"));
    assert!(p.is_protected_branch("release/2.0"));
    // allowed_paths cannot be replaced by a broader list
    assert_eq!(p.allowed_paths().len(), 1);
    assert!(p.allowed_paths()[0].source.is_managed());
    // an added pattern (stricter) is kept
    assert!(
        p.patterns()
            .iter()
            .any(|r| r.pattern.as_str() == "curl * | sh")
    );

    // every ignored setting is a warning naming both files
    for key in [
        "environment: test",
        "hooks.ask_fallback: ask",
        "approval_timeout: 600",
        "agents.claude: trusted",
        "agents.codex: trusted",
        "allowed_paths",
        "protected_branches",
    ] {
        assert!(
            warned(&p, &[key, &user, &managed]),
            "no warning for {key} naming {user} and {managed}: {:#?}",
            p.warnings()
        );
    }
    assert!(
        warned(&p, &["environment: test", ".riskgate.yaml", &managed]),
        "{:#?}",
        p.warnings()
    );
}

#[test]
fn overrides_from_other_layers_never_lower_a_managed_pattern() {
    let t = Team::new(MANAGED);
    std::fs::write(t.user_dir.join("config.yaml"), USER).unwrap();
    std::fs::write(t.fx.project().join(".riskgate.yaml"), PROJECT).unwrap();
    let p = t.load(&CliOverrides {
        set: vec!["overrides={\"terraform apply*\": SAFE}".into()],
        ..CliOverrides::default()
    });
    let ctx = t.fx.ctx();
    let (action, assessment) = command("terraform apply -auto-approve", RiskLevel::Low);
    let out = decide(&assessment, &action, &p, &ctx);
    assert_eq!(out.level, RiskLevel::High, "{:#?}", out.adjustments);
    assert_eq!(out.decision, Decision::Deny);
    assert!(
        out.adjustments
            .iter()
            .any(|a| a.contains("ignored") && a.contains("managed policy")),
        "{:#?}",
        out.adjustments
    );
    // an override of something the managed file does not rate still works
    let (action, assessment) = command("npm test", RiskLevel::Medium);
    assert_eq!(
        decide(&assessment, &action, &p, &ctx).level,
        RiskLevel::Safe
    );
}

#[test]
fn managed_overrides_win_over_lower_layers() {
    let t = Team::new("overrides: { \"make deploy*\": HIGH }\n");
    std::fs::write(
        t.user_dir.join("config.yaml"),
        "overrides: { \"make deploy*\": LOW }\n",
    )
    .unwrap();
    let p = t.load(&CliOverrides::default());
    let (action, assessment) = command("make deploy", RiskLevel::Medium);
    let out = decide(&assessment, &action, &p, &t.fx.ctx());
    assert_eq!(out.level, RiskLevel::High, "{:#?}", out.adjustments);
}

#[test]
fn command_line_and_environment_cannot_change_pinned_settings() {
    let t = Team::new("hooks: { ask_fallback: deny }\nstate_dir: /var/lib/riskgate-team\n");
    let locations = Locations {
        env_state_dir: Some(t.fx.root().join("elsewhere")),
        ..t.locations()
    };
    let p = Policy::load_with(
        &t.fx.project(),
        &locations,
        &CliOverrides {
            ask_fallback: Some(AskFallback::Ask),
            set: vec!["hooks.ask_fallback=ask".into()],
            ..CliOverrides::default()
        },
    )
    .expect("loads");
    assert_eq!(p.ask_fallback(), AskFallback::Deny);
    assert_eq!(p.state_dir(), Path::new("/var/lib/riskgate-team"));
    assert!(
        warned(&p, &["RISKGATE_STATE_DIR", "state_dir"]),
        "{:#?}",
        p.warnings()
    );
    assert!(
        warned(&p, &["command line", "hooks.ask_fallback: ask"]),
        "{:#?}",
        p.warnings()
    );
    // the hook host's own default does not replace a managed value either
    let p = p.with_default_ask_fallback(AskFallback::Ask);
    assert_eq!(p.ask_fallback(), AskFallback::Deny);
}

#[test]
fn the_same_value_is_not_a_warning_and_stays_managed() {
    let t = Team::new("environment: production\n");
    std::fs::write(t.user_dir.join("config.yaml"), "environment: production\n").unwrap();
    let p = t.load(&CliOverrides::default());
    assert!(p.environment().source.is_managed());
    assert!(p.warnings().is_empty(), "{:#?}", p.warnings());
}

#[test]
fn config_show_marks_managed_values() {
    let t = Team::new(MANAGED);
    std::fs::write(t.user_dir.join("config.yaml"), "approval_ttl_days: 7\n").unwrap();
    let p = t.load(&CliOverrides::default());
    let rows = p.show();
    let row = |key: &str| {
        rows.iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("no row {key}: {rows:#?}"))
    };
    assert!(row("environment").managed);
    assert!(row("environment").source.contains("managed policy"));
    assert!(row("hooks.ask_fallback").managed);
    assert!(row("agents.claude").managed);
    assert!(!row("approval_ttl_days").managed);
    assert_eq!(row("managed.revision").value, "(not a git checkout)");
    // the managed directory is guarded like the user's own configuration
    assert!(matches!(
        p.check_path(&t.managed.display().to_string(), &t.fx.project()),
        riskgate_gate::policy::PathVerdict::Blocked(_)
    ));
}

#[test]
fn a_policy_from_a_git_checkout_records_its_revision_in_the_audit_log() {
    const REV: &str = "3f2a9c0d1e4b5a69788796a5b4c3d2e1f0a9b8c7";
    let t = Team::new("patterns: [{ pattern: \"terraform apply*\", level: HIGH }]\n");
    let checkout = t.managed.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(checkout.join(".git/refs/heads")).unwrap();
    std::fs::write(checkout.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(checkout.join(".git/refs/heads/main"), format!("{REV}\n")).unwrap();
    let p = t.load(&CliOverrides::default());
    assert_eq!(p.revision(), Some(REV));
    let audit = p.audit_path();
    let mut gate = Gate::new(p);
    let (action, assessment) = command("terraform apply", RiskLevel::Low);
    let out = gate.evaluate(&action, assessment, &t.fx.ctx());
    assert_eq!(out.decision, Decision::Deny);
    let log = AuditLog::open(&audit).expect("audit opens");
    let recs = log.query(&AuditQuery::default()).expect("query");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].policy_rev.as_deref(), Some(REV));
}

#[test]
fn a_managed_location_may_name_the_file_itself_and_without_one_nothing_changes() {
    let t = Team::new("environment: production\n");
    let locations = Locations {
        managed: Some(t.managed.clone()),
        ..t.locations()
    };
    let p = Policy::load_with(&t.fx.project(), &locations, &CliOverrides::default()).unwrap();
    assert_eq!(p.managed_file(), Some(t.managed.as_path()));
    let locations = Locations {
        managed: Some(t.fx.root().join("no-such-dir")),
        ..t.locations()
    };
    let p = Policy::load_with(&t.fx.project(), &locations, &CliOverrides::default()).unwrap();
    assert_eq!(p.managed_file(), None);
    assert_eq!(p.environment().value, Environment::Test);
}

#[test]
fn an_invalid_managed_file_is_an_error_naming_it() {
    let t = Team::new("hooks: { ask_fallback: maybe }\n");
    let e =
        Policy::load_with(&t.fx.project(), &t.locations(), &CliOverrides::default()).unwrap_err();
    assert!(e.to_string().contains("managed.yaml"), "{e}");
}
