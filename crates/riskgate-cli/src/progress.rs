//! A one-line progress report on standard error for long runs (`scan`): shown only when
//! stderr is a terminal, not before half a second has passed, redrawn at most ten times a
//! second, and replaced by a summary line at the end. Warnings printed meanwhile clear the
//! line first so they stay readable.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use riskgate::Decision;

const FIRST_AFTER: Duration = Duration::from_millis(500);
const EVERY: Duration = Duration::from_millis(100);

/// Counts of answers so far.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    /// Lines read.
    pub lines: usize,
    /// Bytes read.
    pub bytes: u64,
    /// Allowed lines.
    pub allow: usize,
    /// Asked lines.
    pub ask: usize,
    /// Denied lines.
    pub deny: usize,
    /// Lines that were not a command.
    pub invalid: usize,
}

impl Counts {
    /// Count one answered line.
    pub fn answered(&mut self, d: Decision) {
        match d {
            Decision::Allow => self.allow += 1,
            Decision::Ask => self.ask += 1,
            Decision::Deny => self.deny += 1,
        }
    }
}

/// The progress line.
pub struct Progress {
    enabled: bool,
    quiet: bool,
    total_bytes: Option<u64>,
    start: Instant,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    /// A progress line for an input of `total_bytes` (when known); off unless stderr is a
    /// terminal, and off with `quiet` (which also silences warnings).
    pub fn new(quiet: bool, total_bytes: Option<u64>) -> Progress {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            quiet,
            total_bytes: total_bytes.filter(|t| *t > 0),
            start: Instant::now(),
            last: None,
            shown: false,
        }
    }

    /// Redraw when due.
    pub fn update(&mut self, c: &Counts) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let due = match self.last {
            None => now.duration_since(self.start) >= FIRST_AFTER,
            Some(l) => now.duration_since(l) >= EVERY,
        };
        if !due {
            return;
        }
        self.last = Some(now);
        let secs = now.duration_since(self.start).as_secs_f64().max(0.001);
        let pct = self
            .total_bytes
            .map(|t| format!(" ({}%)", (c.bytes.saturating_mul(100) / t).min(100)))
            .unwrap_or_default();
        let line = format!(
            "scanning: {} lines{pct}, {} deny, {} ask, {:.0} lines/s",
            c.lines,
            c.deny,
            c.ask,
            c.lines as f64 / secs
        );
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        self.shown = true;
    }

    /// Print a warning (unless quiet), clearing the progress line first.
    pub fn warn(&mut self, message: &str) {
        if self.quiet {
            return;
        }
        self.clear();
        eprintln!("riskgate: warning: {message}");
    }

    fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.shown = false;
        }
    }

    /// Replace the line with a summary (only when a line was shown).
    pub fn finish(&mut self, c: &Counts) {
        if !self.shown {
            return;
        }
        self.clear();
        eprintln!(
            "riskgate: scanned {} lines in {:.1} s: {} allow, {} ask, {} deny, {} invalid",
            c.lines,
            self.start.elapsed().as_secs_f64(),
            c.allow,
            c.ask,
            c.deny,
            c.invalid
        );
    }
}
