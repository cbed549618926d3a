//! Assertions on levels shared by the integration tests: commands are strings given to the
//! built-in engine; nothing is run.

#![allow(dead_code)]

use riskgate::{Engine, RiskLevel};

/// The level the built-in engine gives `cmd`.
pub fn level(cmd: &str) -> RiskLevel {
    Engine::builtin().assess_command(cmd).level
}

/// Every command is rated HIGH or CRITICAL.
pub fn at_least_high(cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) >= RiskLevel::High, "{cmd}: {:?}", level(cmd));
    }
}

/// Every command is rated at most `max`.
pub fn at_most(max: RiskLevel, cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) <= max, "{cmd}: {:?}", level(cmd));
    }
}
