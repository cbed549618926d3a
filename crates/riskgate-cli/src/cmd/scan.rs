//! `riskgate scan`: many commands in one process, one output line per input line.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

use riskgate::gate::{Context, decide};
use riskgate::{Action, Report};

use crate::cmd::common::{PolicyArgs, engine_for};
use serde_json::{Value, json};

/// Arguments of `riskgate scan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format: one JSON object per line, or one text line per command.
    #[arg(long, value_enum, default_value_t = ScanFormat::Jsonl)]
    format: ScanFormat,
    /// Input file; `-` or nothing for standard input. Each line is a JSON object with a
    /// `command` string (and an optional `id`), or else a raw command.
    file: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Output format of `scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScanFormat {
    /// JSON lines.
    Jsonl,
    /// `LEVEL SCORE DECISION command`.
    Text,
}

/// One input line, understood.
enum Line {
    Command { id: Option<Value>, command: String },
    Invalid { id: Option<Value>, error: String },
}

fn understand(line: &str) -> Line {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Line::Invalid {
            id: None,
            error: "empty line: expected a JSON object with a `command` string, or a command"
                .to_string(),
        };
    }
    // A JSON object starts `{"` or is `{}`; a shell group starts `{ cmd` (`{ echo a; }`).
    let json_like = trimmed
        .strip_prefix('{')
        .map(|rest| rest.trim_start())
        .is_some_and(|rest| rest.starts_with('"') || rest.starts_with('}'));
    if !json_like {
        return Line::Command {
            id: None,
            command: line.to_string(),
        };
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => {
            let id = map.get("id").cloned();
            match map.get("command") {
                Some(Value::String(c)) => Line::Command {
                    id,
                    command: c.clone(),
                },
                Some(other) => Line::Invalid {
                    id,
                    error: format!(
                        "`command` must be a string, found {}",
                        riskgate::model::json_kind(other)
                    ),
                },
                None => Line::Invalid {
                    id,
                    error: "JSON object has no `command` string".to_string(),
                },
            }
        }
        Ok(other) => Line::Invalid {
            id: None,
            error: format!(
                "expected a JSON object, found {}",
                riskgate::model::json_kind(&other)
            ),
        },
        Err(e) => Line::Invalid {
            id: None,
            error: format!("invalid JSON: {e}"),
        },
    }
}

/// Run `riskgate scan`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let input: Box<dyn Read> = match args.file.as_deref() {
        None | Some("-") => Box::new(std::io::stdin().lock()),
        Some(path) => Box::new(
            std::fs::File::open(path)
                .map_err(|e| anyhow::anyhow!("cannot open scan input `{path}`: {e}"))?,
        ),
    };
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    // Batch: nobody is asked here; `ask` reports that a person would have to confirm.
    let mut ctx = Context::new(policy.cwd().to_path_buf());
    ctx.host_can_ask = true;
    let reader = BufReader::new(input);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (index, line) in reader.split(b'\n').enumerate() {
        let line_no = index + 1;
        let bytes = line.map_err(|e| anyhow::anyhow!("reading scan input: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        let (record, summary) = match understand(text) {
            Line::Command { id, command } => {
                let assessment = engine.assess_command(&command);
                let action = Action::command(command.clone());
                let report = Report::from_outcome(decide(&assessment, &action, &policy, &ctx));
                let summary = format!(
                    "{} {} {} {}",
                    report.assessment.level,
                    report.assessment.score,
                    report.decision,
                    command.replace('\n', "\\n")
                );
                let mut value = serde_json::to_value(&report)?;
                if let (Some(id), Value::Object(map)) = (id, &mut value) {
                    map.insert("id".to_string(), id);
                }
                if let Value::Object(map) = &mut value {
                    map.insert("line".to_string(), json!(line_no));
                }
                (value, summary)
            }
            Line::Invalid { id, error } => {
                let summary = format!("ERROR line {line_no}: {error}");
                let mut value = json!({"line": line_no, "error": error});
                if let (Some(id), Value::Object(map)) = (id, &mut value) {
                    map.insert("id".to_string(), id);
                }
                (value, summary)
            }
        };
        match args.format {
            ScanFormat::Jsonl => {
                serde_json::to_writer(&mut out, &record)?;
                out.write_all(b"\n")?;
            }
            ScanFormat::Text => writeln!(out, "{summary}")?,
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_json_objects_or_raw_commands() {
        assert!(matches!(understand("ls -la"), Line::Command { .. }));
        match understand(r#"{"id": 7, "command": "rm -rf /"}"#) {
            Line::Command { id, command } => {
                assert_eq!(id, Some(json!(7)));
                assert_eq!(command, "rm -rf /");
            }
            Line::Invalid { error, .. } => panic!("{error}"),
        }
        for bad in [
            r#"{"id": 1}"#,
            r#"{"command": 3}"#,
            r#"{"command": "x""#,
            "{}",
            "   ",
        ] {
            assert!(matches!(understand(bad), Line::Invalid { .. }), "{bad}");
        }
        // Shell groups are commands, not broken JSON.
        for group in ["{ echo a; echo b; } > out", "{rm,-rf,~}"] {
            match understand(group) {
                Line::Command { command, .. } => assert_eq!(command, group),
                Line::Invalid { error, .. } => panic!("{group}: {error}"),
            }
        }
    }
}
