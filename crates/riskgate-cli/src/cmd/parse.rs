//! `riskgate parse`: the normalized structure of a command.

use std::fmt::Write as _;
use std::process::ExitCode;

use riskgate::shell::{self, ParsedCommand};

use crate::output::{Format, command_text};

/// Arguments of `riskgate parse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The command: one argument, or the words after `--` joined by spaces.
    #[arg(required = true, trailing_var_arg = true)]
    command: Vec<String>,
}

/// Run `riskgate parse`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = command_text(&args.command)?;
    let parsed = shell::parse(&text);
    match args.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&parsed)?),
        Format::Text => out!("{}", render_text(&parsed)),
    }
    Ok(ExitCode::SUCCESS)
}

fn render_text(p: &ParsedCommand) -> String {
    let mut out = String::new();
    for (i, c) in p.commands.iter().enumerate() {
        let mut marks = Vec::new();
        if c.privileged {
            marks.push("privileged".to_string());
        }
        if c.program_dynamic {
            marks.push("dynamic program".to_string());
        }
        if let Some(host) = &c.remote {
            marks.push(format!("remote {host}"));
        }
        if !c.wrappers.is_empty() {
            let chain: Vec<&str> = c.wrappers.iter().map(|w| w.name.as_str()).collect();
            marks.push(format!("via {}", chain.join(" > ")));
        }
        let _ = write!(out, "[{i}] {}", c.canonical());
        if !marks.is_empty() {
            let _ = write!(out, "    ({})", marks.join(", "));
        }
        out.push('\n');
        for r in &c.redirects {
            let _ = writeln!(out, "      redirect {} {}", r.op, r.target.text);
        }
    }
    for n in &p.nested {
        let _ = writeln!(
            out,
            "nested {:?} via {} (command {}): {}",
            n.language, n.program, n.command_index, n.text
        );
    }
    for s in &p.signals {
        let _ = writeln!(
            out,
            "signal {}",
            serde_json::to_string(s).unwrap_or_default()
        );
    }
    if !p.fully_parsed {
        let _ = writeln!(out, "not fully parsed:");
        for issue in &p.issues {
            let _ = writeln!(
                out,
                "  {}",
                serde_json::to_string(issue).unwrap_or_default()
            );
        }
    }
    out
}
