//! The time bound that does not depend on the parser's cooperation. The pre-scans in
//! [`crate::limits`] keep the known shapes that make brush-parser take exponential time away
//! from it, and normalization checks [`crate::Limits::max_time`] between steps; but one call
//! into the parser cannot be interrupted, and random inputs still find new slow shapes
//! (`((((…find … \;;sudo ))))` in nested arithmetic). So normalization runs on a worker
//! thread and the caller waits at most the time budget plus a grace period: past it, the
//! caller answers with the linear scan alone (marked incomplete, so a person decides) and the
//! worker is abandoned to finish on its own.
//!
//! Workers are kept and reused (a channel round trip, not a thread per command). Abandoned
//! workers still burn a core until their call ends, so at most [`MAX_ABANDONED`] may exist at
//! once; past that, inputs skip the parser and get the linear scan alone (incomplete), so a
//! long-running process (`scan`, the hook server) cannot be made to pile them up.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use crate::{Limits, ParsedCommand, Shell};

/// A normalization function: the text, its bounds and its shell (`None`: bash, with clearly
/// PowerShell text read as PowerShell too).
pub(crate) type NormFn = fn(&str, &Limits, Option<Shell>) -> ParsedCommand;

/// Abandoned workers allowed at once.
pub(crate) const MAX_ABANDONED: usize = 4;
/// Idle workers kept for reuse.
const MAX_IDLE: usize = 8;
/// The stack of a worker: deep enough for the recursion of the largest input the bounds let
/// through (the parser's and ours); it is reserved address space, not memory.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Workers whose call ran past its deadline and that have not finished yet.
static ABANDONED: AtomicUsize = AtomicUsize::new(0);
/// Workers waiting for work.
static IDLE: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

struct Job {
    input: String,
    limits: Limits,
    shell: Option<Shell>,
}

struct Worker {
    jobs: Sender<Job>,
    results: Receiver<ParsedCommand>,
}

/// Why normalization was not run to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// The call ran past its deadline (the parser did not come back in time).
    Deadline,
    /// Too many earlier calls are still running past their deadline.
    Busy,
}

/// Parser workers that ran past their deadline and are still running. A long-running process
/// (the hook server) ends when there is one: a runaway parser call may allocate without bound
/// (brush's tokenizer on some inputs), and only the process's end stops it.
pub fn runaway_workers() -> usize {
    ABANDONED.load(Ordering::SeqCst)
}

/// How long the caller waits: the budget, which normalization checks itself, plus a grace
/// period for the linear scan that follows a budget hit.
pub(crate) fn deadline(limits: &Limits) -> Duration {
    limits
        .max_time
        .saturating_add((limits.max_time / 2).max(Duration::from_millis(100)))
}

/// Run `norm(input, limits, shell)` on a worker, waiting at most [`deadline`].
pub(crate) fn run(
    input: &str,
    limits: &Limits,
    shell: Option<Shell>,
    norm: NormFn,
) -> Result<ParsedCommand, Stopped> {
    if ABANDONED.load(Ordering::SeqCst) >= MAX_ABANDONED {
        return Err(Stopped::Busy);
    }
    let Some(worker) = take_idle().or_else(|| spawn(norm)) else {
        // No thread to be had: run here, unbounded by the watchdog (the pre-scans and the
        // cooperative budget still apply).
        return Ok(norm(input, limits, shell));
    };
    let job = Job {
        input: input.to_string(),
        limits: *limits,
        shell,
    };
    if worker.jobs.send(job).is_err() {
        return Ok(norm(input, limits, shell));
    }
    match worker.results.recv_timeout(deadline(limits)) {
        Ok(parsed) => {
            put_idle(worker);
            Ok(parsed)
        }
        Err(RecvTimeoutError::Timeout) => {
            // The worker sees its result channel closed when it finishes, and ends.
            ABANDONED.fetch_add(1, Ordering::SeqCst);
            drop(worker);
            Err(Stopped::Deadline)
        }
        // The worker died (a panic outside its guard): the caller falls back.
        Err(RecvTimeoutError::Disconnected) => Err(Stopped::Deadline),
    }
}

fn take_idle() -> Option<Worker> {
    IDLE.lock().ok().and_then(|mut v| v.pop())
}

fn put_idle(worker: Worker) {
    if let Ok(mut v) = IDLE.lock()
        && v.len() < MAX_IDLE
    {
        v.push(worker);
    }
}

fn spawn(norm: NormFn) -> Option<Worker> {
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let (result_tx, results) = mpsc::channel::<ParsedCommand>();
    std::thread::Builder::new()
        .name("riskgate-shell".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            while let Ok(job) = job_rx.recv() {
                let parsed = norm(&job.input, &job.limits, job.shell);
                if result_tx.send(parsed).is_err() {
                    // Abandoned: the caller gave up on this call.
                    ABANDONED.fetch_sub(1, Ordering::SeqCst);
                    return;
                }
            }
        })
        .ok()?;
    Some(Worker { jobs, results })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(input: &str, _: &Limits, _: Option<Shell>) -> ParsedCommand {
        std::thread::sleep(Duration::from_millis(input.len() as u64));
        crate::parse("true")
    }

    #[test]
    fn a_call_past_its_deadline_is_abandoned_and_the_next_one_is_answered() {
        let limits = Limits {
            max_time: Duration::from_millis(10),
            ..Limits::default()
        };
        // 400 ms of work against a 10 + 100 ms deadline.
        assert_eq!(
            run(&"x".repeat(400), &limits, None, slow).err(),
            Some(Stopped::Deadline)
        );
        // A quick call right after is answered (by another worker).
        assert!(run("x", &limits, None, slow).is_ok());
    }
}
