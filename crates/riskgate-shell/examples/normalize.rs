//! Dev tool: print the normalized form of each argument (or, with `--stats FILE`, parse every
//! line of FILE and report how many were not fully parsed, the slowest, and any panic).
//! `--shell powershell|cmd|bash` reads the arguments in that shell; `--lines FILE` takes each
//! line of FILE as an argument; `-q` prints the commands only.
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut shell = None;
    if let Some(k) = args.iter().position(|a| a == "--shell") {
        shell = args
            .get(k + 1)
            .and_then(|s| s.parse::<riskgate_shell::Shell>().ok());
        args.drain(k..(k + 2).min(args.len()));
    }
    let quiet = args.iter().any(|a| a == "-q");
    args.retain(|a| a != "-q");
    if let Some(k) = args.iter().position(|a| a == "--lines") {
        let path = args.get(k + 1).cloned().unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        args = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
    }
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
        let p = riskgate_shell::parse_as(&a, shell);
        if quiet {
            println!(
                "{a}\n  full={} issues={:?} signals={:?}",
                p.fully_parsed, p.issues, p.signals
            );
        } else {
            println!("{}", serde_json::to_string_pretty(&p).unwrap_or_default());
        }
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
