//! `riskgate config show`: the effective policy, each value with its source.

use std::process::ExitCode;

use serde_json::json;

use crate::cmd::common::PolicyArgs;
use crate::output::Format;

/// Arguments of `riskgate config`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ConfigCommand {
    /// Print the effective policy with the source of each value.
    ///
    /// Each of `patterns` and `overrides` says how it matches. `matches command`: the pattern
    /// (two words or more, one simple command) is compared with every parsed command of the
    /// line: program, options in any spelling and order (`-f` = `--force`, `-rf` = `-r -f`),
    /// wherever the command runs (after `cd x &&`, under sudo, in `bash -c`), never with data
    /// (a commit message, a grep pattern); an override must cover every command of the line,
    /// and covers more words only when its last word is an option or ends with `*`.
    /// `matches text`: a `raw: TEXT` pattern, one word, or not one command (`curl * | sh`):
    /// extra patterns anywhere in the text, overrides the whole text.
    Show {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        policy: PolicyArgs,
    },
}

/// Run `riskgate config`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        ConfigCommand::Show { format, policy } => {
            let policy = policy.load()?;
            let rows = policy.show();
            match format {
                Format::Json => {
                    let items: Vec<_> = rows
                        .iter()
                        .map(|r| json!({"key": r.key, "value": r.value, "source": r.source}))
                        .collect();
                    outln!("{}", serde_json::to_string_pretty(&items)?);
                }
                Format::Text => {
                    let kw = rows.iter().map(|r| r.key.len()).max().unwrap_or(0);
                    let vw = rows
                        .iter()
                        .map(|r| r.value.len())
                        .max()
                        .unwrap_or(0)
                        .min(48);
                    for r in &rows {
                        outln!("{:kw$}  {:vw$}  ({})", r.key, r.value, r.source);
                    }
                }
            }
            for w in policy.warnings() {
                eprintln!("riskgate: warning: {w}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
