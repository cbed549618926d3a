//! What matching policy patterns on the parsed command costs per decision, against the text
//! patterns they replace, measured in the same run; and that no line of a corpus makes the
//! matcher panic or hang.
//!
//! ```text
//! cargo run --release -p riskgate-gate --example pattern_cost -- ../shared/corpora/nl2bash/all.cm
//! ```
//!
//! For every line (a shell command): the text patterns (the blocklist entry `git push --force`
//! as a substring, the override `npm install --save-dev*` as a whole bounded pattern, the
//! built-in `riskgate approvals add`) and the same patterns as [`PolicyPattern`]s, with a fresh
//! [`Subject`] (so the line is parsed once, as in a decision). Prints the median and p90 time
//! per line of each, the slowest line, and how many lines each matched.

use std::time::{Duration, Instant};

use riskgate_gate::cmdpattern::{Direction, PolicyPattern, Subject, covering_levels};
use riskgate_gate::pattern::{MatchMode, Pattern};
use riskgate_model::{Action, ActionKind};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len().saturating_sub(1)) as f64 * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpora/nl2bash/all.cm".to_string());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();

    let old_raise = [
        Pattern::new("git push --force", MatchMode::Substring),
        Pattern::new("riskgate approvals add", MatchMode::Substring),
        Pattern::new("rm -rf /", MatchMode::Substring),
    ];
    let old_lower = Pattern::new("npm install --save-dev*", MatchMode::Whole);
    let new_raise = [
        PolicyPattern::new("git push --force", Direction::Raise),
        PolicyPattern::new("riskgate approvals add", Direction::Raise),
        PolicyPattern::new("rm -rf /", Direction::Raise),
    ];
    let new_lower = [PolicyPattern::new(
        "npm install --save-dev",
        Direction::Lower,
    )];

    // PATTERN_COST_SHOW=1 lists the lines the parsed patterns match
    let show = std::env::var_os("PATTERN_COST_SHOW").is_some();
    let (mut old_t, mut new_t) = (Vec::new(), Vec::new());
    let (mut old_hits, mut new_hits) = (0usize, 0usize);
    let mut slowest = (Duration::ZERO, "");
    for line in &lines {
        let t = Instant::now();
        let hits = old_raise
            .iter()
            .filter(|p| p.matches(line, ActionKind::Command))
            .count()
            + usize::from(old_lower.matches(line, ActionKind::Command));
        old_t.push(t.elapsed());
        old_hits += hits;

        let t = Instant::now();
        let subject = Subject::new(&Action::command(*line));
        let hits = new_raise.iter().filter(|p| p.matches(&subject)).count()
            + usize::from(covering_levels(&new_lower, |p| p, &subject).is_some());
        let took = t.elapsed();
        new_t.push(took);
        new_hits += hits;
        if show && hits > 0 {
            println!("matched: {line}");
        }
        if took > slowest.0 {
            slowest = (took, line);
        }
    }
    old_t.sort_unstable();
    new_t.sort_unstable();
    println!("{} lines of {path}", lines.len());
    for (name, t, hits) in [
        ("text patterns", &old_t, old_hits),
        ("parsed patterns", &new_t, new_hits),
    ] {
        println!(
            "{name:16} median {:>8.1} µs  p90 {:>8.1} µs  max {:>9.1} µs  matches {hits}",
            percentile(t, 0.5).as_secs_f64() * 1e6,
            percentile(t, 0.9).as_secs_f64() * 1e6,
            t.last().copied().unwrap_or_default().as_secs_f64() * 1e6,
        );
    }
    println!(
        "slowest line ({:.1} µs): {}",
        slowest.0.as_secs_f64() * 1e6,
        slowest.1.chars().take(120).collect::<String>()
    );
}
