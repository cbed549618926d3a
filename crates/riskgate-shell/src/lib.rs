//! Shell normalization: bash text → [`ParsedCommand`], every simple command that would run,
//! with canonical argv (see ../shared/DESIGN.md, "Shell normalization").

mod model;

pub use model::*;

/// Bounds on normalization work.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest input accepted, in bytes.
    pub max_input_bytes: usize,
    /// Deepest nesting of shells, substitutions and wrappers followed.
    pub max_depth: u32,
    /// Most simple commands produced.
    pub max_commands: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 * 1024,
            max_depth: 16,
            max_commands: 4096,
        }
    }
}

/// Normalize `input` with default [`Limits`].
pub fn parse(input: &str) -> ParsedCommand {
    parse_with(input, &Limits::default())
}

/// Normalize `input` within `limits`. Never panics; past a bound the result says so in
/// [`ParsedCommand::issues`].
pub fn parse_with(input: &str, limits: &Limits) -> ParsedCommand {
    let _ = limits;
    todo!("normalization of {input}")
}
