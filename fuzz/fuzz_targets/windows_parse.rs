//! The PowerShell and cmd.exe normalizers on any text: no panic, no hang, bounded memory; and
//! the result says it is incomplete whenever it reports an issue. The first byte picks the
//! dialect (even: PowerShell, odd: cmd.exe), the rest is the command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use riskgate_shell::Shell;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let shell = if first % 2 == 0 {
        Shell::PowerShell
    } else {
        Shell::Cmd
    };
    let text = String::from_utf8_lossy(rest);
    // The release budget (a fuzz build has debug assertions, whose default is 4 s).
    let limits = riskgate_shell::Limits {
        max_time: std::time::Duration::from_millis(400),
        ..Default::default()
    };
    let p = riskgate_shell::parse_as_with(&text, Some(shell), &limits);
    if !p.issues.is_empty() {
        assert!(!p.fully_parsed, "issues reported on a fully parsed result");
    }
});
