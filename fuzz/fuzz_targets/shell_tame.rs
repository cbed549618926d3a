//! The shell normalizer on text it reads on the caller's own thread, without the watchdog's
//! deadline (text without nesting, up to 1 KB: see riskgate_shell's `watchdog`): no panic,
//! no hang, bounded memory. The input is made nearly tame first (openers past two levels
//! of nesting and `<<` become spaces, 1 KB at most), so the fuzzer explores the inline path
//! rather than the worker's; a line that is still not tame (a construct left open, a compound
//! keyword starting a command) goes to a worker, which is fine too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    let text = String::from_utf8_lossy(data);
    // Nesting past two levels is flattened: an opener that would go deeper becomes a space.
    let mut depth = 0usize;
    let mut backquote = false;
    let mut tame = String::with_capacity(text.len());
    for c in text.chars() {
        let c = match c {
            '(' | '{' | '[' if depth >= 2 => ' ',
            '(' | '{' | '[' => {
                depth += 1;
                c
            }
            ')' | '}' | ']' => {
                depth = depth.saturating_sub(1);
                c
            }
            '`' if !backquote && depth >= 2 => ' ',
            '`' => {
                backquote = !backquote;
                if backquote {
                    depth += 1;
                } else {
                    depth = depth.saturating_sub(1);
                }
                c
            }
            c => c,
        };
        tame.push(c);
    }
    while tame.contains("<<") || tame.contains("$[") {
        tame = tame.replace("<<", "< ").replace("$[", "$ ");
    }
    let mut end = tame.len().min(1024);
    while !tame.is_char_boundary(end) {
        end -= 1;
    }
    tame.truncate(end);
    let limits = riskgate_shell::Limits {
        max_time: std::time::Duration::from_millis(400),
        ..Default::default()
    };
    let p = riskgate_shell::parse_with(&tame, &limits);
    if !p.issues.is_empty() {
        assert!(!p.fully_parsed, "issues reported on a fully parsed result");
    }
});
