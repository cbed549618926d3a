//! Errors of the hook path and of settings-file editing. A hook error never becomes an
//! "allow": [`crate::run`] turns each into an "ask" (or "deny") the agent sees.

use thiserror::Error;

/// What went wrong in a hook call, or while editing an agent's settings.
#[derive(Debug, Error)]
pub enum HookError {
    /// `riskgate hook NAME` with a name that is no agent riskgate knows.
    #[error(
        "unknown agent `{0}` (expected claude, gemini, codex, cursor, copilot, opencode, kilo, windsurf, cline, qwen, droid, augment or goose)"
    )]
    UnknownAgent(String),
    /// The payload is not a JSON object.
    #[error("malformed payload: {0}")]
    NotJson(String),
    /// A required field is missing or has the wrong type.
    #[error("malformed payload: {0}")]
    Malformed(String),
    /// The payload is JSON but not the shape this agent's hook sends (another event, another
    /// agent's format).
    #[error("unknown payload shape: {0}")]
    UnknownShape(String),
    /// Reading the payload failed.
    #[error("cannot read the payload: {0}")]
    Read(String),
    /// The policy could not be loaded (invalid configuration file …).
    #[error("{0}")]
    Policy(String),
    /// Anything else (a panic in the assessment, a broken invariant).
    #[error("internal error: {0}")]
    Internal(String),
    /// The decision took longer than the hook's time limit.
    #[error("no decision within {0} ms")]
    TimedOut(u64),
    /// An agent's settings file is not what riskgate can edit.
    #[error("{path}: {message}")]
    Settings {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl HookError {
    /// A missing or mistyped field.
    pub fn field(name: &str, expected: &str) -> HookError {
        HookError::Malformed(format!("`{name}` must be {expected}"))
    }
}
