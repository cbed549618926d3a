//! Code assessment (Python, JavaScript, shell … or guessed): no panic, no hang, bounded
//! memory.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use riskgate_analyzers::code::RiskAssessor;
use riskgate_model::Language;

const LANGUAGES: [Language; 6] = [
    Language::Python,
    Language::Js,
    Language::Sh,
    Language::Perl,
    Language::Ruby,
    Language::Php,
];

fuzz_target!(|data: &[u8]| {
    static ASSESSOR: OnceLock<RiskAssessor> = OnceLock::new();
    let assessor = ASSESSOR.get_or_init(RiskAssessor::new);
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    // One choice more than there are languages: guess.
    let language = LANGUAGES
        .get(usize::from(pick) % (LANGUAGES.len() + 1))
        .copied();
    let _ = assessor.assess_code(&text, language);
});
