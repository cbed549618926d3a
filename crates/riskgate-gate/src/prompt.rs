//! The interactive prompt (seed 000 rules 13-16): the assessment summary, then
//! `Continue? [y/N/always/never]`, written to stderr and answered on `/dev/tty` (stdin may
//! carry a hook's JSON).
//!
//! - `y`/`yes` → run once (`always` and `never` must be spelled out); `n`/`no`/empty → refuse; `always` → run and store an approval;
//!   `never` → refuse and store a denial. Anything else is asked again (three times at most).
//! - End of input, a read error, Ctrl-C (a `^C` byte, or an interrupted read) and the timeout
//!   (policy `approval_timeout`, 60 s by default) are rejections. A Ctrl-C that reaches the
//!   process as SIGINT ends it (exit 130) before anything runs, which is a rejection too.
//! - The answer is read by a thread and waited for with `recv_timeout` (std only). After a
//!   timeout that thread stays blocked on the terminal until the next line or the end of the
//!   process; callers exit soon after deciding, so the line is not stolen from anyone.
//! - [`ask`] takes any reader and writer, so the prompt is testable without a terminal.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, IsTerminal, Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use riskgate_model::{Action, Assessment};

use crate::decide::Outcome;
use crate::error::PromptError;

/// The question line.
pub const QUESTION: &str = "Continue? [y/N/always/never]: ";

/// A person's answer (or the lack of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Run it this once.
    Yes,
    /// Do not run it.
    No,
    /// Run it, and approve the pattern for the approval lifetime.
    Always,
    /// Do not run it, and deny the pattern from now on.
    Never,
    /// No answer within the timeout.
    TimedOut,
    /// The input ended (or could not be read).
    Eof,
    /// Ctrl-C.
    Interrupted,
}

impl Answer {
    /// Whether the action may run.
    pub fn approves(self) -> bool {
        matches!(self, Answer::Yes | Answer::Always)
    }

    /// For reasons and the audit log.
    pub fn describe(self) -> &'static str {
        match self {
            Answer::Yes => "approved at the prompt",
            Answer::No => "rejected at the prompt",
            Answer::Always => "approved at the prompt (always)",
            Answer::Never => "rejected at the prompt (never)",
            Answer::TimedOut => "no answer before the timeout: rejected",
            Answer::Eof => "no answer (end of input): rejected",
            Answer::Interrupted => "interrupted: rejected",
        }
    }
}

/// Parse one answer line; `None` for anything unrecognized.
pub fn parse_answer(line: &str) -> Option<Answer> {
    if line.contains('\u{3}') {
        return Some(Answer::Interrupted);
    }
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Answer::Yes),
        "" | "n" | "no" => Some(Answer::No),
        "always" => Some(Answer::Always),
        "never" => Some(Answer::Never),
        _ => None,
    }
}

enum Msg {
    Line(String),
    Eof,
    Interrupted,
}

/// Show `summary` and the question on `out`, read the answer from `input`, give up after
/// `timeout`. Never fails: an unwritable `out` or unreadable `input` is a rejection.
pub fn ask<R, W>(summary: &str, input: R, out: &mut W, timeout: Duration) -> Answer
where
    R: Read + Send + 'static,
    W: Write + ?Sized,
{
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("riskgate-prompt".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            loop {
                let mut buf = Vec::new();
                let msg = match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => Msg::Eof,
                    Ok(_) => Msg::Line(String::from_utf8_lossy(&buf).into_owned()),
                    Err(e) if e.kind() == ErrorKind::Interrupted => Msg::Interrupted,
                    Err(_) => Msg::Eof,
                };
                let last = !matches!(msg, Msg::Line(_));
                if tx.send(msg).is_err() || last {
                    return;
                }
            }
        });
    if spawned.is_err() {
        return Answer::Eof;
    }
    let deadline = Instant::now() + timeout;
    let show = |out: &mut W, text: &str| out.write_all(text.as_bytes()).and_then(|_| out.flush());
    let mut first = format!("{}\n", summary.trim_end());
    if summary.trim().is_empty() {
        first.clear();
    }
    first.push_str(QUESTION);
    if show(out, &first).is_err() {
        return Answer::Eof;
    }
    for attempt in 0..3 {
        if attempt > 0
            && show(
                out,
                &format!("Please answer y, n, always or never. {QUESTION}"),
            )
            .is_err()
        {
            return Answer::Eof;
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        let answer = match rx.recv_timeout(remaining) {
            Ok(Msg::Line(l)) => match parse_answer(&l) {
                Some(a) => a,
                None => continue,
            },
            Ok(Msg::Eof) | Err(mpsc::RecvTimeoutError::Disconnected) => Answer::Eof,
            Ok(Msg::Interrupted) => Answer::Interrupted,
            Err(mpsc::RecvTimeoutError::Timeout) => Answer::TimedOut,
        };
        if !matches!(
            answer,
            Answer::Yes | Answer::No | Answer::Always | Answer::Never
        ) {
            let _ = show(out, &format!("\n{}\n", answer.describe()));
        }
        return answer;
    }
    let _ = show(out, "no valid answer: rejected\n");
    Answer::No
}

/// [`ask`] on the terminal: the question on stderr, the answer from `/dev/tty`.
pub fn ask_tty(summary: &str, timeout: Duration) -> Result<Answer, PromptError> {
    let tty = File::open("/dev/tty").map_err(PromptError::NoTty)?;
    let mut err = std::io::stderr().lock();
    Ok(ask(summary, tty, &mut err, timeout))
}

/// Whether a person can be asked: stdin or stderr is a terminal, and `/dev/tty` opens.
pub fn is_interactive() -> bool {
    (std::io::stdin().is_terminal() || std::io::stderr().is_terminal())
        && File::open("/dev/tty").is_ok()
}

/// Something that asks a person ([`TtyPrompter`] in production; closures in tests).
pub trait Prompter {
    /// Ask about an action; `summary` says what and why.
    fn ask(&mut self, summary: &str, timeout: Duration) -> Answer;
}

impl<F: FnMut(&str, Duration) -> Answer> Prompter for F {
    fn ask(&mut self, summary: &str, timeout: Duration) -> Answer {
        self(summary, timeout)
    }
}

/// Asks on the terminal ([`ask_tty`]); no terminal means [`Answer::Eof`].
#[derive(Debug, Clone, Copy, Default)]
pub struct TtyPrompter;

impl Prompter for TtyPrompter {
    fn ask(&mut self, summary: &str, timeout: Duration) -> Answer {
        ask_tty(summary, timeout).unwrap_or(Answer::Eof)
    }
}

/// The text shown before the question: level, action, findings, impact, precautions and what
/// the policy changed.
pub fn summary(action: &Action, assessment: &Assessment, outcome: &Outcome) -> String {
    let mut s = format!(
        "riskgate: {} risk (score {}) for this {}:\n",
        outcome.level,
        outcome.score,
        action.kind().as_str().replace('_', " ")
    );
    let subject = action.subject();
    let lines: Vec<&str> = subject.lines().collect();
    for l in lines.iter().take(6) {
        let mut l = l.to_string();
        if l.chars().count() > 160 {
            l = l.chars().take(157).collect::<String>() + "...";
        }
        s.push_str(&format!("    {l}\n"));
    }
    if lines.len() > 6 {
        s.push_str(&format!("    ... ({} more lines)\n", lines.len() - 6));
    }
    for p in assessment.explanation.points.iter().take(8) {
        s.push_str(&format!("  - {p}\n"));
    }
    if assessment.explanation.points.is_empty() {
        for r in assessment.reasons.iter().take(8) {
            s.push_str(&format!("  - {r}\n"));
        }
    }
    for a in &outcome.adjustments {
        s.push_str(&format!("  - policy: {a}\n"));
    }
    s.push_str(&format!("  Impact: {}", outcome.level.estimated_impact()));
    s.push_str(if assessment.reversible {
        "\n"
    } else {
        " (not reversible)\n"
    });
    for r in assessment.recommendations.iter().take(4) {
        s.push_str(&format!("  Recommendation: {r}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(parse_answer("Y\n"), Some(Answer::Yes));
        assert_eq!(parse_answer("\n"), Some(Answer::No));
        assert_eq!(parse_answer(" ALWAYS "), Some(Answer::Always));
        assert_eq!(parse_answer("never"), Some(Answer::Never));
        assert_eq!(parse_answer("\u{3}"), Some(Answer::Interrupted));
        assert_eq!(parse_answer("maybe"), None);
    }

    #[test]
    fn reasks_on_nonsense() {
        let mut out = Vec::new();
        let a = ask(
            "s",
            std::io::Cursor::new(b"maybe\nyes\n".to_vec()),
            &mut out,
            Duration::from_secs(5),
        );
        assert_eq!(a, Answer::Yes);
        let shown = String::from_utf8(out).unwrap();
        assert!(
            shown.contains("Please answer y, n, always or never."),
            "{shown}"
        );
        let a = ask(
            "s",
            std::io::Cursor::new(b"a\nb\nc\n".to_vec()),
            &mut Vec::new(),
            Duration::from_secs(5),
        );
        assert_eq!(a, Answer::No);
    }
}
