//! Shell normalization: bash text → [`ParsedCommand`], every simple command that would run,
//! with canonical argv (see ../shared/DESIGN.md, "Shell normalization").
//!
//! Modules: [`walk`](crate) (the AST walk), `words` (expansion), `command` (one simple
//! command: unwrap, canonicalize, follow), `unwrap` (wrappers), `canon` + `aliases` (canonical
//! argv and the alias table), `interp` (interpreter and database one-liners), `payload`
//! (pipelines, downloads, decoded payloads), `escapes` (`$'…'`, printf, echo -e), `fallback`
//! (best-effort split on a syntax error), `limits` (pre-scan of syntax nesting).

mod aliases;
mod canon;
mod command;
mod ctx;
mod embedded;
mod escapes;
mod fallback;
mod globs;
mod interp;
mod limits;
mod model;
mod payload;
mod progword;
mod unwrap;
mod walk;
mod words;

pub use model::*;

use ctx::{Frame, Norm};

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
    let mut n = Norm::new(input, *limits);
    if input.len() > limits.max_input_bytes {
        n.limit(format!(
            "input larger than {} bytes",
            limits.max_input_bytes
        ));
        let mut cut = limits.max_input_bytes;
        while cut > 0 && !input.is_char_boundary(cut) {
            cut -= 1;
        }
        // Best effort on the prefix, without the bash parser.
        n.fallback_only(input.get(..cut).unwrap_or(""), &Frame::top());
        return n.finish();
    }
    let _ = n.parse_text(input, &Frame::top());
    n.finish()
}
