//! Output helpers shared by the subcommands: formats and color.

use std::io::IsTerminal;

/// Output format of `parse` and `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// For people.
    #[default]
    Text,
    /// One JSON document.
    Json,
}

/// Whether to color stdout: a terminal, and NO_COLOR unset.
pub fn color_stdout() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// The command text from positional words: one argument as is, several joined by spaces.
pub fn command_text(words: &[String]) -> anyhow::Result<String> {
    if words.is_empty() {
        anyhow::bail!("no command given: pass it as one argument or after `--`");
    }
    Ok(words.join(" "))
}

/// Write `text` to stdout. A closed pipe (`riskgate log | head`) is an error that `main` ends
/// the process on quietly, never a panic.
pub fn emit(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// `println!` that returns an error on a closed stdout instead of panicking.
macro_rules! outln {
    () => { $crate::output::emit("\n")? };
    ($($arg:tt)*) => { $crate::output::emit(&format!("{}\n", format_args!($($arg)*)))? };
}

/// `print!` that returns an error on a closed stdout instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::emit(&format!($($arg)*))? };
}

/// True when `err` comes from writing to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
