//! Dev tool: print the normalized form of each argument (or, with `--stats FILE`, parse every
//! line of FILE and report how many were not fully parsed, the slowest, and any panic).
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--stats") {
        let path = args.get(1).cloned().unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (mut n, mut partial, mut cmds) = (0usize, 0usize, 0usize);
        let mut slowest = (0u128, String::new());
        let t0 = Instant::now();
        for line in text.lines() {
            let t = Instant::now();
            let p = riskgate_shell::parse(line);
            let us = t.elapsed().as_micros();
            if us > slowest.0 {
                slowest = (us, line.to_string());
            }
            n += 1;
            cmds += p.commands.len();
            if !p.fully_parsed {
                partial += 1;
                if args.iter().any(|a| a == "-v") {
                    println!("PARTIAL {line}\n   {:?}", p.issues);
                }
            }
        }
        println!(
            "lines {n} commands {cmds} not-fully-parsed {partial} total {:?} slowest {}us: {}",
            t0.elapsed(),
            slowest.0,
            slowest.1
        );
        return;
    }
    for a in args {
        let p = riskgate_shell::parse(&a);
        println!("{}", serde_json::to_string_pretty(&p).unwrap_or_default());
        for c in &p.commands {
            println!(
                "  [{}] {} {:?} priv={} wrappers={:?} span={:?} {:?}",
                c.depth,
                c.canonical(),
                c.origin,
                c.privileged,
                c.wrappers
                    .iter()
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>(),
                &p.source.get(c.span.start..c.span.end),
                c.stdin
            );
        }
    }
}
