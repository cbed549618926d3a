//! The shell normalizer on any text: no panic, no hang, bounded memory; and the result says
//! it is incomplete whenever it reports an issue.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    quiet_contained_panics();
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

/// riskgate_shell contains a panic of its parser dependency (the result is then the linear
/// scan, marked incomplete): such a panic is not a failure of the contract. libfuzzer-sys's
/// hook would abort on it, so a quiet one replaces it; a panic that escapes `parse` still
/// aborts (libfuzzer-sys aborts on any panic reaching it).
fn quiet_contained_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}
