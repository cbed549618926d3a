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
