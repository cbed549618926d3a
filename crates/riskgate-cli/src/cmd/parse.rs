//! `riskgate parse`: the normalized structure of a command and the effects of each simple
//! command (what it does to what: see `riskgate_model::effect`).

use std::fmt::Write as _;
use std::process::ExitCode;

use riskgate::model::effect::Effect;
use riskgate::shell::{self, ParsedCommand};

use crate::output::{Format, command_text};

/// Arguments of `riskgate parse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The shell the command is written for: bash (the default; clearly PowerShell text is
    /// read as PowerShell too), powershell or cmd.
    #[arg(long, value_name = "SHELL", value_parser = crate::cmd::common::parse_shell)]
    shell: Option<riskgate::Shell>,
    /// The command: one argument, or the words after `--` joined by spaces.
    #[arg(required = true, trailing_var_arg = true)]
    command: Vec<String>,
}

/// Run `riskgate parse`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = command_text(&args.command)?;
    let parsed = shell::parse_as(&text, args.shell);
    let effects = riskgate::rules::CommandEngine::builtin().effects(&parsed);
    match args.format {
        Format::Json => {
            let mut v = serde_json::to_value(&parsed)?;
            if let Some(obj) = v.as_object_mut() {
                obj.insert("effects".to_string(), serde_json::to_value(&effects)?);
            }
            outln!("{}", serde_json::to_string_pretty(&v)?)
        }
        Format::Text => out!("{}", render_text(&parsed, &effects)),
    }
    Ok(ExitCode::SUCCESS)
}

fn render_text(p: &ParsedCommand, effects: &[Effect]) -> String {
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
        for e in effects.iter().filter(|e| e.command == i) {
            let mut notes: Vec<String> = e
                .scope
                .iter()
                .filter_map(|s| serde_json::to_value(s).ok())
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect();
            if let Some(env) = e
                .target
                .environment
                .and_then(|x| serde_json::to_value(x).ok())
            {
                notes.push(format!("environment {}", env.as_str().unwrap_or("?")));
            }
            if !e.reversible {
                notes.push("not reversible".to_string());
            }
            let _ = write!(
                out,
                "      effect {} {} {}",
                e.kind.as_str(),
                e.target.class.as_str(),
                e.target.text
            );
            if !notes.is_empty() {
                let _ = write!(out, " ({})", notes.join(", "));
            }
            out.push('\n');
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
