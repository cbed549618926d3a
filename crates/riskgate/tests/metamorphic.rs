//! Metamorphic properties of shell normalization (issue 2): wrapping a command line in `sudo …`,
//! `env X=1 …`, `bash -c '…'`, `$(…)`, `true && …`, `( … )` or a `;` chain never drops one of
//! its simple commands from the normalized result, and never changes their canonical form.
//! Plus: no input, however malformed, makes normalization or assessment panic.

use proptest::prelude::*;
use riskgate::shell::parse;

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
