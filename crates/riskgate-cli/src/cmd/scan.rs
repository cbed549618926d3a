//! `riskgate scan`: many commands in one process, one output line per input line.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

use riskgate::gate::{Context, Gate};
use riskgate::{Action, ActionKind, Assessment, Decision, Report};

use crate::cmd::common::{PolicyArgs, engine_for};
use crate::progress::{Counts, Progress};
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
    /// The shell of every line that does not name its own (`"shell": "powershell"` in a JSON
    /// line): bash (the default; clearly PowerShell text is read as PowerShell too),
    /// powershell or cmd.
    #[arg(long, value_name = "SHELL", value_parser = crate::cmd::common::parse_shell)]
    shell: Option<riskgate::Shell>,
    /// Record every decision in the audit log, as `check` and the hooks do.
    #[arg(long)]
    audit: bool,
    /// Exit non-zero when a line is denied (`deny`: exit 4), or asked or denied (`ask`: exit 3
    /// when the worst is ask, 4 when a line is denied). Default: exit 0 once every line is
    /// answered.
    #[arg(long, value_enum, value_name = "DECISION")]
    fail_on: Option<FailOn>,
    /// No progress line and no per-line warnings on standard error (errors are still reported). The
    /// progress line is only ever shown when standard error is a terminal.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// When `scan` exits non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// A line was denied.
    Deny,
    /// A line was asked or denied.
    Ask,
}

/// Longest input line read; a longer line is answered as not fully analyzed (HIGH) and the
/// rest of it skipped.
const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

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
    Command {
        id: Option<Value>,
        command: String,
        shell: Option<riskgate::Shell>,
    },
    Invalid {
        id: Option<Value>,
        error: String,
    },
    TooLong {
        prefix: String,
    },
}

impl Line {
    /// A short description (tests).
    #[cfg(test)]
    fn describe(&self) -> String {
        match self {
            Line::Command { command, .. } => format!("command {command}"),
            Line::Invalid { error, .. } => format!("invalid: {error}"),
            Line::TooLong { .. } => "too long".to_string(),
        }
    }
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
            shell: None,
        };
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => {
            let id = map.get("id").cloned();
            let shell = match map.get("shell") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => match s.parse::<riskgate::Shell>() {
                    Ok(s) => Some(s),
                    Err(e) => return Line::Invalid { id, error: e },
                },
                Some(other) => {
                    return Line::Invalid {
                        id,
                        error: format!(
                            "`shell` must be a string, found {}",
                            riskgate::model::json_kind(other)
                        ),
                    };
                }
            };
            match map.get("command") {
                Some(Value::String(c)) => Line::Command {
                    id,
                    command: c.clone(),
                    shell,
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
    let mut total_bytes = None;
    let input: Box<dyn Read> = match args.file.as_deref() {
        None | Some("-") => Box::new(std::io::stdin().lock()),
        Some(path) => {
            let f = std::fs::File::open(path)
                .map_err(|e| anyhow::anyhow!("cannot open scan input `{path}`: {e}"))?;
            total_bytes = f.metadata().ok().map(|m| m.len());
            Box::new(f)
        }
    };
    let mut progress = Progress::new(args.quiet, total_bytes);
    let mut counts = Counts::default();
    let policy = args.policy.load()?;
    let engine = engine_for(&policy);
    // Batch: nobody is asked here; `ask` reports that a person would have to confirm.
    let mut ctx = Context::new(policy.cwd().to_path_buf());
    ctx.host_can_ask = true;
    ctx.source = "scan".to_string();
    let mut gate = Gate::new(policy);
    if !args.audit {
        gate = gate.without_audit();
    }
    let mut reader = BufReader::new(input);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut worst = Decision::Allow;
    let mut line_no = 0usize;
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let Some(too_long) = read_line(&mut reader, &mut bytes)? else {
            break;
        };
        line_no += 1;
        counts.lines = line_no;
        counts.bytes += bytes.len() as u64 + 1;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        // A byte-order mark (a file saved by some Windows editors) is not part of the line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let understood = if too_long {
            Line::TooLong {
                prefix: text.chars().take(200).collect(),
            }
        } else {
            understand(text)
        };
        let (record, summary) = match understood {
            Line::Command { id, command, shell } => {
                let shell = shell.or(args.shell);
                let (assessment, targets) = engine.assess_command_full_as(&command, shell);
                let action = Action::command_in(command.clone(), shell);
                let mut c = ctx.clone();
                c.write_targets = targets.writes;
                let outcome = gate.evaluate(&action, assessment, &c);
                for w in &outcome.warnings {
                    progress.warn(&format!("line {line_no}: {w}"));
                }
                let report = Report::from_outcome(outcome);
                worst = worst.max(report.decision);
                counts.answered(report.decision);
                answered(report, id, line_no, &command)?
            }
            Line::TooLong { prefix } => {
                let mut assessment = Assessment::safe(ActionKind::Command, prefix.clone());
                assessment
                    .mark_incomplete(&format!("the line is longer than {MAX_LINE_BYTES} bytes"));
                let action = Action::command(prefix.clone());
                let outcome = gate.evaluate(&action, assessment, &ctx);
                let report = Report::from_outcome(outcome);
                worst = worst.max(report.decision);
                counts.answered(report.decision);
                answered(report, None, line_no, &prefix)?
            }
            Line::Invalid { id, error } => {
                counts.invalid += 1;
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
        // Each answer leaves as soon as it is known: a caller that writes a line and waits for
        // its answer (a workflow engine over a pipe) must not wait for a full buffer.
        out.flush()?;
        progress.update(&counts);
    }
    out.flush()?;
    progress.finish(&counts);
    let code = match (args.fail_on, worst) {
        (Some(_), Decision::Deny) => crate::exit::Code::Deny,
        (Some(FailOn::Ask), Decision::Ask) => crate::exit::Code::Ask,
        _ => crate::exit::Code::Allow,
    };
    Ok(code.into())
}

/// The output record and text summary of an answered line.
fn answered(
    report: Report,
    id: Option<Value>,
    line_no: usize,
    command: &str,
) -> anyhow::Result<(Value, String)> {
    let summary = format!(
        "{} {} {} {}",
        report.assessment.level,
        report.assessment.score,
        report.decision,
        command.replace('\n', "\\n")
    );
    let mut value = serde_json::to_value(&report)?;
    if let Value::Object(map) = &mut value {
        if let Some(id) = id {
            map.insert("id".to_string(), id);
        }
        map.insert("line".to_string(), json!(line_no));
    }
    Ok((value, summary))
}

/// Read the next line (without its `\n`) into `buf`, at most [`MAX_LINE_BYTES`] of it:
/// `None` at the end of the input, `Some(true)` when the line was longer (the rest is skipped).
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> anyhow::Result<Option<bool>> {
    buf.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let n = reader
        .by_ref()
        .take(limit)
        .read_until(b'\n', buf)
        .map_err(|e| anyhow::anyhow!("reading scan input: {e}"))?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some(false));
    }
    if buf.len() <= MAX_LINE_BYTES {
        return Ok(Some(false)); // the last line, without a newline
    }
    buf.truncate(MAX_LINE_BYTES);
    // Skip the rest of the line without keeping it.
    loop {
        let chunk = reader
            .fill_buf()
            .map_err(|e| anyhow::anyhow!("reading scan input: {e}"))?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                break;
            }
            None => {
                let len = chunk.len();
                reader.consume(len);
            }
        }
    }
    Ok(Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_json_objects_or_raw_commands() {
        assert!(matches!(understand("ls -la"), Line::Command { .. }));
        match understand(r#"{"id": 7, "command": "rm -rf /"}"#) {
            Line::Command { id, command, .. } => {
                assert_eq!(id, Some(json!(7)));
                assert_eq!(command, "rm -rf /");
            }
            other => panic!("{}", other.describe()),
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
                other => panic!("{group}: {}", other.describe()),
            }
        }
    }
}
