//! Seed 001's examples, with their stated assertions, and the rule-management API.

use riskgate_analyzers::code::{CodeAction, RiskAssessor, RiskRule, default_rules};
use riskgate_model::{ActionKind, Assessment, RiskLevel};

fn assess(code: &str) -> Assessment {
    RiskAssessor::new().assess(&CodeAction::python(code))
}

#[test]
fn safe_print() {
    let r = assess("print('hello')");
    assert_eq!(r.level, RiskLevel::Safe);
    assert!(!r.requires_approval());
    assert!(r.reversible);
}

/// Resources are what the code touches: the text a call prints is no file, the path a `Path`
/// is built from is, and a command string is not a path.
#[test]
fn resources_without_spurious_entries() {
    assert!(assess("print('hello')").affected_resources.is_empty());
    let r = assess(
        "from pathlib import Path\ncfg = Path('config.yaml').read_text()\nprint('done')\n\
         import subprocess\nsubprocess.run('ls')\nwith open('notes.txt') as f: f.write('x')\n",
    );
    let mut got = r.affected_resources.clone();
    got.sort();
    assert_eq!(got, ["file:config.yaml", "file:notes.txt"], "{got:?}");
}

#[test]
fn medium_file_write() {
    let r = assess("with open('/tmp/output.txt', 'w') as f: f.write('data')");
    assert_eq!(r.level, RiskLevel::Medium);
    assert!(
        r.reasons
            .contains(&"File modification may overwrite existing content".to_string()),
        "{:?}",
        r.reasons
    );
    assert!(r.reversible);
    assert!(
        r.affected_resources
            .contains(&"file:/tmp/output.txt".to_string())
    );
    assert_eq!(r.estimated_impact, "Moderate impact, generally reversible");
    assert!(r.recommendations.is_empty());
}

#[test]
fn critical_recursive_delete_through_subprocess() {
    let r = assess("import subprocess; subprocess.run(['rm', '-rf', '/home/user/data'])");
    assert_eq!(r.level, RiskLevel::Critical);
    assert!(!r.reversible);
    assert!(
        r.affected_resources
            .contains(&"file:/home/user/data".to_string()),
        "{:?}",
        r.affected_resources
    );
    assert!(r.requires_approval());
    assert_eq!(
        r.estimated_impact,
        "Potentially severe and irreversible impact"
    );
    assert!(!r.recommendations.is_empty());
    assert!(r.rule_ids().contains(&"code.rm_recursive"));
}

#[test]
fn multiple_rules_triggered() {
    let r = assess(
        "\nimport subprocess\nimport os\nsubprocess.run(['make', 'clean'])\nos.remove('/tmp/build.log')\n",
    );
    assert_eq!(r.level, RiskLevel::High);
    assert_eq!(
        r.reasons,
        vec![
            "File deletion may cause data loss".to_string(),
            "Executing system commands".to_string()
        ]
    );
    assert!(!r.reversible);
    assert_eq!(r.kind, ActionKind::Code);
    assert!(
        r.affected_resources
            .contains(&"file:/tmp/build.log".to_string())
    );
}

#[test]
fn default_rules_cover_the_seed_table_and_more() {
    let names: Vec<String> = default_rules().into_iter().map(|r| r.name).collect();
    for seed in [
        "rm_recursive",
        "drop_database",
        "format_disk",
        "file_delete",
        "git_force_push",
        "git_reset_hard",
        "sudo_command",
        "network_request",
        "file_write",
        "subprocess_exec",
        "git_commit",
        "pip_install",
        "file_read",
        "print_output",
    ] {
        assert!(names.contains(&seed.to_string()), "missing {seed}");
    }
    assert!(names.len() >= 40, "{} rules", names.len());
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "rule names are unique");
}

#[test]
fn add_pattern_rules() {
    let mut a = RiskAssessor::new();
    a.add_rule(
        RiskRule::regex(
            "api_key_exposure",
            r"(API_KEY|SECRET_KEY|PRIVATE_KEY|ACCESS_TOKEN)\s*=",
            RiskLevel::High,
            "Potential hardcoded API key or secret detected",
        )
        .expect("valid regex")
        .reversible(true),
    );
    a.add_rule(
        RiskRule::regex(
            "db_insert",
            r"INSERT\s+INTO",
            RiskLevel::Medium,
            "Database insertion detected",
        )
        .expect("valid regex"),
    );
    a.add_rule(
        RiskRule::regex(
            "docker_run",
            r"docker\s+(run|exec|build)",
            RiskLevel::Medium,
            "Docker container operation detected",
        )
        .expect("valid regex"),
    );
    let r = a.assess(&CodeAction::python("api_key = load()\n"));
    assert_eq!(r.level, RiskLevel::High);
    assert!(
        r.reasons
            .contains(&"Potential hardcoded API key or secret detected".to_string())
    );
    // a regex rule never matches inside a comment
    let r = a.assess(&CodeAction::python("# API_KEY = 1\nx = 2"));
    assert_eq!(r.level, RiskLevel::Safe);
    // but sees SQL in string literals (case-insensitive, as in the seed)
    let r = a.assess(&CodeAction::python("q = 'insert into logs values (1)'"));
    assert!(
        r.reasons
            .contains(&"Database insertion detected".to_string())
    );
    assert!(RiskRule::regex("bad", "(", RiskLevel::Low, "x").is_err());
}

#[test]
fn add_callable_rules() {
    let mut a = RiskAssessor::new();
    a.add_rule(
        RiskRule::predicate(
            "large_file_operation",
            |action| {
                ["/data/warehouse/", "/backup/", "/var/log/"]
                    .iter()
                    .any(|p| action.code.contains(p))
            },
            RiskLevel::High,
            "Operation on potentially large file/directory",
        )
        .reversible(true),
    );
    a.add_rule(RiskRule::predicate(
        "excessive_system_calls",
        |action| {
            action.code.matches("subprocess.run").count() + action.code.matches("os.system").count()
                > 3
        },
        RiskLevel::High,
        "Multiple system command executions detected (potential script injection)",
    ));
    let r = a.assess(&CodeAction::python("print(open('/var/log/syslog').read())"));
    assert_eq!(r.level, RiskLevel::High);
    assert!(r.reversible);
    let r = a.assess(&CodeAction::python("import os\nfor c in 'abcd': os.system('ls')\nos.system('a'); os.system('b'); os.system('c')"));
    assert!(r.reasons.contains(
        &"Multiple system command executions detected (potential script injection)".to_string()
    ));
}

#[test]
fn remove_rules() {
    let mut a = RiskAssessor::new();
    assert!(a.remove_rule("print_output"));
    assert!(!a.remove_rule("print_output"));
    assert!(!a.remove_rule("nonexistent"));
    let r = a.assess(&CodeAction::python("print('hello')"));
    assert!(r.findings.is_empty());
}

#[test]
fn replacing_the_rule_set() {
    let minimal = vec![
        RiskRule::regex(
            "any_file_operation",
            r"(open|Path|os\.(remove|unlink)|shutil)",
            RiskLevel::Medium,
            "File operation detected",
        )
        .expect("regex"),
        RiskRule::regex(
            "any_network",
            r"(requests|urllib|httpx|socket)",
            RiskLevel::High,
            "Network operation detected",
        )
        .expect("regex")
        .reversible(false),
    ];
    let a = RiskAssessor::with_rules(minimal);
    assert_eq!(a.rule_names(), vec!["any_file_operation", "any_network"]);
    let r = a.assess(&CodeAction::python(
        "import requests\nrequests.get('https://x.example')",
    ));
    assert_eq!(r.level, RiskLevel::High);
    assert!(!r.reversible);
    assert_eq!(
        a.assess(&CodeAction::python("print(1)")).level,
        RiskLevel::Safe
    );
}

#[test]
fn custom_assessor_bypasses_rules() {
    let a = RiskAssessor::with_custom_assessor(|action| {
        let code = action.code.to_lowercase();
        let f = if code.contains("transfer") || code.contains("withdraw") {
            vec![
                riskgate_model::Finding::new(
                    "bank.transfer",
                    RiskLevel::Critical,
                    95,
                    "Financial transaction detected",
                )
                .reversible(false),
            ]
        } else {
            Vec::new()
        };
        Assessment::from_findings(ActionKind::Code, action.code.clone(), f)
    });
    assert_eq!(
        a.assess(&CodeAction::python("bank.transfer(100)")).level,
        RiskLevel::Critical
    );
    // the default rules are bypassed completely
    assert_eq!(
        a.assess(&CodeAction::python("import shutil; shutil.rmtree('/')"))
            .level,
        RiskLevel::Safe
    );
}

#[test]
fn command_assessor_hook_adds_to_built_in_command_rules() {
    let mut a = RiskAssessor::new();
    a.set_command_assessor(Box::new(|cmd: &str| {
        let f = if cmd.contains("rm") {
            vec![
                riskgate_model::Finding::new(
                    "fs.rm-recursive",
                    RiskLevel::Critical,
                    95,
                    "shell engine says no",
                )
                .reversible(false),
            ]
        } else {
            Vec::new()
        };
        Assessment::from_findings(ActionKind::Command, cmd, f)
    }));
    let r = a.assess(&CodeAction::python(
        "import subprocess\nsubprocess.run(['rm', '-rf', '/home/user/data'])",
    ));
    assert_eq!(r.level, RiskLevel::Critical);
    assert!(r.rule_ids().contains(&"fs.rm-recursive"));
    // the built-in command rules still run: the plugged-in engine never rates lower
    assert!(r.rule_ids().contains(&"code.rm_recursive"));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "fs.rm-recursive")
        .expect("hooked finding");
    assert_eq!(f.location.as_ref().and_then(|l| l.line), Some(2));
    assert!(
        r.affected_resources
            .contains(&"file:/home/user/data".to_string())
    );
    // shell code goes to the hook whole, and the built-in rules still see it
    let r = a.assess(&CodeAction::sh("rm -rf /tmp/x"));
    assert_eq!(r.rule_ids(), vec!["code.rm_recursive", "fs.rm-recursive"]);
}
