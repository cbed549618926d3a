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
