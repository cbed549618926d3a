//! Helpers shared by the Windows test files: assess a text in a dialect, and assert which side
//! of HIGH it lands on (printing the findings when it does not).

#![allow(dead_code)] // each test file uses a part

use riskgate::{Assessment, Engine, RiskLevel, Shell};

pub fn ps(engine: &Engine, text: &str) -> Assessment {
    engine.assess_command_as(text, Some(Shell::PowerShell))
}

pub fn cmd(engine: &Engine, text: &str) -> Assessment {
    engine.assess_command_as(text, Some(Shell::Cmd))
}

pub fn high(a: &Assessment, text: &str) {
    assert!(
        a.level >= RiskLevel::High,
        "{text}: {:?} {:#?}",
        a.level,
        a.findings
    );
}

pub fn below_high(a: &Assessment, text: &str) {
    assert!(
        a.level < RiskLevel::High,
        "{text}: {:?} {:#?}",
        a.level,
        a.findings
    );
}
