//! Exit codes, one per outcome, documented in the README.

use std::process::ExitCode;

use riskgate::Decision;

/// A process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// Allowed, or the command succeeded.
    Allow = 0,
    /// Any error other than a usage error (unreadable file, bad config …).
    Error = 1,
    /// Asked: a person has to confirm (change set class B).
    Ask = 3,
    /// Denied (change set class C).
    Deny = 4,
}

impl From<Decision> for Code {
    fn from(d: Decision) -> Code {
        match d {
            Decision::Allow => Code::Allow,
            Decision::Ask => Code::Ask,
            Decision::Deny => Code::Deny,
        }
    }
}

impl From<Code> for ExitCode {
    fn from(c: Code) -> ExitCode {
        ExitCode::from(c as u8)
    }
}
