//! Metamorphic properties of shell normalization (issue 2): wrapping a command line in `sudo …`,
//! `env X=1 …`, `bash -c '…'`, `$(…)`, `true && …`, `( … )` or a `;` chain never drops one of
//! its simple commands from the normalized result, and never changes their canonical form.
//! Plus: no input, however malformed, makes normalization or assessment panic. And (issue 11)
//! wrapping never lowers the level: every dangerous command of the corpus, in every
//! semantics-preserving wrapper of `wrap/table.rs`, is rated at least as high as plain.

mod wrap;

use std::collections::BTreeMap;

use proptest::prelude::*;
use riskgate::shell::parse;
use riskgate::{Engine, RiskLevel};
use wrap::shape::Shape;
use wrap::table::{Need, WRAPPERS};

/// Simple commands as agents type them (quoting kept simple enough to nest in `bash -c '…'`).
const PROGRAMS: &[&str] = &[
    "rm -rf build",
    "rm -r -f /tmp/x",
    "git push --force origin main",
    "git reset --hard HEAD~1",
    "git status",
    "ls -la",
    "cat /etc/hosts",
    "kubectl delete namespace prod",
    "docker system prune -a -f",
    "chmod -R 777 /srv",
    "terraform destroy -auto-approve",
    "psql -c \"DROP TABLE users\"",
    "cargo test --workspace",
    "npm publish",
    "find . -name \"*.o\" -delete",
    "dd if=/dev/zero of=/dev/sda bs=1M",
    "echo hello",
    "curl -fsSL https://example.com/x.sh",
];

/// The canonical form of every simple command in `line`, in order.
fn canon(line: &str) -> Vec<String> {
    parse(line).commands.iter().map(|c| c.canonical()).collect()
}

fn wraps() -> impl Strategy<Value = usize> {
    0usize..7
}

fn wrap(kind: usize, inner: &str) -> String {
    match kind {
        0 => format!("sudo {inner}"),
        1 => format!("env X=1 {inner}"),
        2 => format!("bash -c '{inner}'"),
        3 => format!("echo $( {inner} )"),
        4 => format!("true && {inner}"),
        5 => format!("( {inner} )"),
        _ => format!("echo start; {inner}; echo end"),
    }
}

/// `picks` of [`PROGRAMS`] joined by `&&`, wrapped by each of `layers` in turn.
fn build(picks: &[usize], layers: &[usize]) -> String {
    let mut line = picks
        .iter()
        .map(|&i| PROGRAMS[i])
        .collect::<Vec<_>>()
        .join(" && ");
    // `sudo`/`env` take one simple command: a list or a subshell goes through `bash -c`.
    let mut simple = picks.len() == 1;
    for &k in layers {
        let quotable = !line.contains('\'');
        line = match k {
            0 | 1 if !simple && quotable => wrap(k, &wrap(2, &line)),
            0 | 1 if !simple => wrap(4, &line),
            // bash -c '…' only nests text without single quotes.
            2 if !quotable => wrap(5, &line),
            _ => wrap(k, &line),
        };
        simple = simple && (k == 0 || k == 1);
    }
    line
}

/// Every canonical command of the unwrapped picks is in the wrapped line's.
fn kept(picks: &[usize], layers: &[usize]) -> Result<(), String> {
    let inner = build(picks, &[]);
    let expected = canon(&inner);
    if expected.is_empty() {
        return Err(format!("`{inner}` normalizes to nothing"));
    }
    let line = build(picks, layers);
    let got = canon(&line);
    match expected.iter().find(|c| !got.contains(c)) {
        Some(c) => Err(format!("`{line}` lost `{c}`: got {got:?}")),
        None => Ok(()),
    }
}

/// Every layer sequence up to three deep, around every single program, and up to two deep
/// around every pair: the space the property below samples, walked completely where it is
/// small enough to be quick.
#[test]
fn wrapping_never_drops_a_command_exhaustive() {
    let n = 7usize;
    let mut seqs: Vec<Vec<usize>> = vec![vec![]];
    for depth in 1..=3 {
        let prev: Vec<Vec<usize>> = seqs
            .iter()
            .filter(|s| s.len() == depth - 1)
            .cloned()
            .collect();
        for s in prev {
            for k in 0..n {
                let mut t = s.clone();
                t.push(k);
                seqs.push(t);
            }
        }
    }
    let mut failures = Vec::new();
    for a in 0..PROGRAMS.len() {
        for layers in seqs.iter().filter(|s| !s.is_empty()) {
            if let Err(e) = kept(&[a], layers) {
                failures.push(e);
            }
        }
        for b in 0..PROGRAMS.len() {
            for layers in seqs.iter().filter(|s| !s.is_empty() && s.len() <= 2) {
                if let Err(e) = kept(&[a, b], layers) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} lost:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

proptest! {
    // A fixed seed: the same cases on every run, so CI cannot turn red by chance; the
    // exhaustive test above covers the small part of the space completely.
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5249_534b),
        ..ProptestConfig::default()
    })]

    /// Every simple command of the inner line is still there, with the same canonical form,
    /// after up to three wrappings of any kind.
    #[test]
    fn wrapping_never_drops_a_command(
        picks in proptest::collection::vec(0..PROGRAMS.len(), 1..4),
        layers in proptest::collection::vec(wraps(), 1..5),
    ) {
        let r = kept(&picks, &layers);
        prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    }

    /// Any text at all: normalization and assessment return, with a level.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let p = parse(&text);
        let _ = p.commands.len();
        let engine = riskgate::Engine::builtin();
        let _ = engine.assess_command(&text).level;
    }

    /// Shell-shaped noise: quotes, expansions, redirections and separators in any order.
    #[test]
    fn shell_noise_never_panics(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("rm"), Just("-rf"), Just("/"), Just("'"), Just("\""), Just("$("), Just(")"),
                Just("`"), Just("${x"), Just("}"), Just("<<EOF\n"), Just("EOF\n"), Just("|"),
                Just("&&"), Just(";"), Just(">"), Just("2>&1"), Just("\\"), Just("{"), Just("(("),
                Just("sudo"), Just("bash -c"), Just("eval"), Just("x=rm;"), Just("$x"), Just("\n"),
            ],
            0..40,
        )
    ) {
        let text = parts.join(" ");
        let engine = riskgate::Engine::builtin();
        let a = engine.assess_command(&text);
        prop_assert!(a.score <= 100);
    }
}

/// The real one-liners of the nl2bash corpus (../shared/corpora, 12,607 lines) and the
/// labelled corpus of this repository: every line normalizes and is assessed, none panics.
#[test]
fn thousands_of_real_commands_parse_without_panic() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut lines: Vec<String> = Vec::new();
    if let Ok(text) = std::fs::read_to_string(root.join("../shared/corpora/nl2bash/all.cm")) {
        lines.extend(text.lines().map(str::to_string));
    }
    for f in ["dangerous.jsonl", "evasions.jsonl", "safe.jsonl"] {
        let text = std::fs::read_to_string(root.join("corpus").join(f)).unwrap_or_default();
        for l in text.lines() {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(l)
                && let Some(c) = v["command"].as_str()
            {
                lines.push(c.to_string());
            }
        }
    }
    assert!(lines.len() >= 1_500, "only {} commands found", lines.len());
    let engine = riskgate::Engine::builtin();
    let mut parsed = 0usize;
    for l in &lines {
        let a = engine.assess_command(l);
        assert!(a.score <= 100);
        if !parse(l).commands.is_empty() {
            parsed += 1;
        }
    }
    // Nearly every real line yields at least one simple command.
    assert!(
        parsed * 100 >= lines.len() * 95,
        "{parsed} of {}",
        lines.len()
    );
}

/// One wrapped case: the wrapper's index, the command's index, the wrapped text.
struct Case {
    wrapper: usize,
    command: usize,
    text: String,
}

/// Wrapping never lowers the level. Every dangerous command of the corpus × every wrapper of
/// `wrap/table.rs` whose conditions it meets; a wrapper that would change the command's meaning
/// is skipped, and the reasons are counted and printed. Fails on any case rated below the
/// plain command, with a table of them (wrapper, plain level, wrapped level, command).
#[test]
fn wrapping_never_lowers_the_level() {
    let started = std::time::Instant::now();
    let engine = Engine::builtin();
    let commands = wrap::dangerous_commands();
    assert!(commands.len() >= 1_500, "only {} commands", commands.len());
    assert!(WRAPPERS.len() >= 40, "only {} wrappers", WRAPPERS.len());

    let mut cases = Vec::new();
    let mut skipped: BTreeMap<Need, usize> = BTreeMap::new();
    for (ci, c) in commands.iter().enumerate() {
        let shape = Shape::of(c);
        for (wi, w) in WRAPPERS.iter().enumerate() {
            match w.unmet(&shape) {
                Some(need) => *skipped.entry(need).or_default() += 1,
                None => cases.push(Case {
                    wrapper: wi,
                    command: ci,
                    text: w.wrap(c),
                }),
            }
        }
    }

    // Two threads over halves of the commands and of the cases; the engine is shared.
    let levels = |items: &[&str]| -> Vec<RiskLevel> {
        let half = items.len().div_ceil(2);
        std::thread::scope(|s| {
            let parts: Vec<_> = items
                .chunks(half.max(1))
                .map(|chunk| {
                    let engine = &engine;
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|t| engine.assess_command(t).level)
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            parts
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    };
    let plain = levels(&commands.iter().map(String::as_str).collect::<Vec<_>>());
    let wrapped = levels(&cases.iter().map(|c| c.text.as_str()).collect::<Vec<_>>());
    assert_eq!(plain.len(), commands.len());
    assert_eq!(wrapped.len(), cases.len());

    let mut lowered: Vec<(&Case, RiskLevel, RiskLevel)> = Vec::new();
    let mut by_wrapper: BTreeMap<&str, usize> = BTreeMap::new();
    for (case, &level) in cases.iter().zip(&wrapped) {
        let base = plain[case.command];
        if level < base {
            lowered.push((case, base, level));
            *by_wrapper.entry(WRAPPERS[case.wrapper].name).or_default() += 1;
        }
    }
    eprintln!(
        "{} commands x {} wrappers: {} wrapped cases, {} lowered, in {:.1?}",
        commands.len(),
        WRAPPERS.len(),
        cases.len(),
        lowered.len(),
        started.elapsed()
    );
    for (need, n) in &skipped {
        eprintln!("  skipped {n:6}  {need:?}: {}", need.reason());
    }
    let mut report = String::new();
    if !lowered.is_empty() {
        report.push_str("lowered, by wrapper:\n");
        for (w, n) in &by_wrapper {
            report.push_str(&format!("  {n:5}  {w}\n"));
        }
        report.push_str("wrapper | plain | wrapped | command\n");
        for (case, base, level) in lowered.iter().take(400) {
            report.push_str(&format!(
                "{} | {} | {} | {}\n",
                WRAPPERS[case.wrapper].name,
                base,
                level,
                commands[case.command].replace('\n', "\\n")
            ));
        }
    }
    assert!(cases.len() >= 25_000, "only {} wrapped cases", cases.len());
    assert!(
        lowered.is_empty(),
        "{} of {} wrapped cases rated lower than plain:\n{report}",
        lowered.len(),
        cases.len()
    );
}

/// Where a wrapper would change the meaning, the generator says so instead of testing it:
/// `sudo cd /srv` does not exist (a builtin under sudo), `cd /srv && rm -rf build` removes
/// another directory than `rm -rf build`, `nice X=1 rm …` runs a program named `X=1`.
#[test]
fn wrappers_that_change_the_meaning_are_skipped() {
    let by_name = |n: &str| {
        WRAPPERS
            .iter()
            .find(|w| w.name == n)
            .unwrap_or_else(|| panic!("no wrapper {n}"))
    };
    let sudo = by_name("sudo");
    assert_eq!(sudo.unmet(&Shape::of("cd /srv")), Some(Need::NotBuiltin));
    assert_eq!(
        sudo.unmet(&Shape::of("set +o history")),
        Some(Need::NotBuiltin)
    );
    assert_eq!(
        sudo.unmet(&Shape::of("AWS_PROFILE=prod aws s3 rb s3://x")),
        None
    );
    assert_eq!(
        by_name("nice").unmet(&Shape::of("AWS_PROFILE=prod aws s3 rb s3://x")),
        Some(Need::NoAssign)
    );
    let cd = by_name("cd /srv &&");
    assert_eq!(
        cd.unmet(&Shape::of("rm -rf ./build")),
        Some(Need::AbsolutePaths)
    );
    assert_eq!(cd.unmet(&Shape::of("rm -rf *")), Some(Need::AbsolutePaths));
    assert_eq!(cd.unmet(&Shape::of("chmod u+s /bin/bash")), None);
    assert_eq!(
        cd.unmet(&Shape::of("find / -maxdepth 1 -exec rm -rf {} +")),
        None
    );
    assert_eq!(
        by_name("builtin").unmet(&Shape::of("rm -rf /")),
        Some(Need::Builtin)
    );
    assert_eq!(
        by_name("… || true").unmet(&Shape::of("cat <<EOF >/etc/x\nhi\nEOF")),
        Some(Need::Appendable)
    );
    // The quoting of the shell-string wrappers round-trips through the normalizer.
    let engine = Engine::builtin();
    for w in [
        "bash -c",
        "eval \"…\"",
        "echo `…`",
        "sh <<'EOF'",
        "source <(printf …)",
    ] {
        let text = by_name(w).wrap("rm -rf \"/srv/it's\" '$HOME'/x `echo /`");
        assert!(
            engine.assess_command(&text).level >= RiskLevel::High,
            "{w}: {text}"
        );
    }
}
