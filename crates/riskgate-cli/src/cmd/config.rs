//! `riskgate config show`: the effective policy, each value with its source;
//! `riskgate config validate [FILE]`: check a policy file (or the files in effect here), exit 0
//! when valid, 1 with the error naming the file, line and key.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use riskgate::gate::policy::{Locations, Source};
use riskgate::gate::{CliOverrides, Policy};
use serde_json::json;

use crate::cmd::common::PolicyArgs;
use crate::exit::Code;
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
    /// Check a policy file: exit 0 when valid (settings a project file may not change are
    /// listed as warnings), 1 with the error naming the file, line and key. Without FILE: the
    /// user and project files in effect here (and `--config`, `--set`).
    ///
    /// A file named `.riskgate.{yaml,yml,toml,json}` is checked as a project file, anything
    /// else as a user or `--config` file.
    Validate {
        /// The file to check.
        file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        policy: PolicyArgs,
    },
}

const PROJECT_FILES: [&str; 4] = [
    ".riskgate.yaml",
    ".riskgate.yml",
    ".riskgate.toml",
    ".riskgate.json",
];

/// Load `file` alone: as the project layer when it has a project file's name, else as a
/// `--config` layer. No user file, no other project file.
fn load_file(file: &Path) -> anyhow::Result<Result<Policy, String>> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let file = if file.is_absolute() {
        file.to_path_buf()
    } else {
        cwd.join(file)
    };
    if !file.is_file() {
        anyhow::bail!("{}: no such file", file.display());
    }
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let locations = Locations {
        user_config_dir: None,
        ..Locations::from_env()
    };
    let (dir, cli) = match file.parent() {
        Some(dir) if PROJECT_FILES.contains(&name) => (dir.to_path_buf(), CliOverrides::default()),
        _ => (
            cwd,
            CliOverrides {
                config_file: Some(file.clone()),
                no_config_files: true,
                ..CliOverrides::default()
            },
        ),
    };
    Ok(Policy::load_with(&dir, &locations, &cli).map_err(|e| e.to_string()))
}

fn validate(
    file: Option<PathBuf>,
    format: Format,
    policy: &PolicyArgs,
) -> anyhow::Result<ExitCode> {
    let result = match &file {
        Some(f) => load_file(f)?,
        None => policy.load().map_err(|e| format!("{e:#}")),
    };
    let (files, warnings, error): (Vec<String>, Vec<String>, Option<String>) = match &result {
        Ok(p) => (
            p.files()
                .iter()
                .map(|s| match s {
                    Source::User(p)
                    | Source::Project(p)
                    | Source::ConfigArg(p)
                    | Source::Managed(p) => p.display().to_string(),
                    other => other.to_string(),
                })
                .collect(),
            p.warnings().to_vec(),
            None,
        ),
        Err(e) => (
            file.iter().map(|f| f.display().to_string()).collect(),
            Vec::new(),
            Some(e.clone()),
        ),
    };
    match format {
        Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "valid": error.is_none(), "files": files, "warnings": warnings, "error": error,
            }))?
        ),
        Format::Text => {
            if let Some(e) = &error {
                eprintln!("riskgate: error: {e}");
            } else if files.is_empty() {
                outln!("no policy file here: the built-in policy applies");
            } else {
                for f in &files {
                    outln!("{f}: valid");
                }
            }
            for w in &warnings {
                eprintln!("riskgate: warning: {w}");
            }
        }
    }
    Ok(if error.is_some() {
        Code::Error
    } else {
        Code::Allow
    }
    .into())
}

/// Run `riskgate config`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        ConfigCommand::Validate {
            file,
            format,
            policy,
        } => validate(file, format, &policy),
        ConfigCommand::Show { format, policy } => {
            let policy = policy.load()?;
            let rows = policy.show();
            match format {
                Format::Json => {
                    let items: Vec<_> = rows
                        .iter()
                        .map(|r| {
                            json!({"key": r.key, "value": r.value, "source": r.source,
                                   "managed": r.managed})
                        })
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
                    // a managed value is marked: no other layer can change it
                    for r in &rows {
                        let mark = if r.managed { "[managed] " } else { "" };
                        outln!("{:kw$}  {:vw$}  ({mark}{})", r.key, r.value, r.source);
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
