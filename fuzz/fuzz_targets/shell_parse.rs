//! The shell normalizer on any text: no panic, no hang, bounded memory; and the result says
//! it is incomplete whenever it reports an issue.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The release budget (a fuzz build has debug assertions, whose default is 4 s).
    let limits = riskgate_shell::Limits {
        max_time: std::time::Duration::from_millis(400),
        ..Default::default()
    };
    let p = riskgate_shell::parse_with(&text, &limits);
    if !p.issues.is_empty() {
        assert!(!p.fully_parsed, "issues reported on a fully parsed result");
    }
});
