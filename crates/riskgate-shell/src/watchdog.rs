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
//!
//! Handing a command to a worker costs a thread wake-up each way (about 70 µs on a virtual
//! machine, ten times the assessment of `ls -la`). So an input whose every parser call is on
//! [`tame`] text runs on the caller's own thread: short text, nested at most twice, every
//! construct closed, no here-documents or compound keywords, at a shallow depth of
//! normalization. On such text the parser's cost is linear in its length (it is exponential
//! only in nesting, on constructs left open), so it cannot run away. The doors to the parser ask [`admit`]; the first text that is not
//! tame ends the inline run, its result is dropped and the input goes to a worker.

use std::cell::Cell;
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

/// Longest text an inline run may hand to the parser (the parser costs up to 30 µs a token,
/// so at most a few milliseconds).
pub(crate) const MAX_TAME_BYTES: usize = 1024;
/// Deepest normalization level (`sh -c '…'` inside `bash -c "…"` is 2) an inline run may
/// reach: the caller's thread may have a small stack.
pub(crate) const MAX_TAME_DEPTH: u32 = 2;

/// Where this thread's normalization runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inline {
    /// On a worker (or not normalizing): every door is open.
    Off,
    /// On the caller's thread: only tame text may pass.
    On,
    /// An inline run met text that was not tame: its result will be dropped.
    Escaped,
}

thread_local! {
    static INLINE: Cell<Inline> = const { Cell::new(Inline::Off) };
}

/// Whether the parser may be given `text` at normalization depth `depth` on this thread. On
/// a worker always; in an inline run only [`tame`] text at depth [`MAX_TAME_DEPTH`] or less.
/// A refusal ends the inline run: the caller should stop parsing (its result is dropped).
pub(crate) fn admit(text: &str, depth: u32) -> bool {
    match INLINE.get() {
        Inline::Off => true,
        Inline::Escaped => false,
        Inline::On if depth <= MAX_TAME_DEPTH && tame(text) => true,
        Inline::On => {
            INLINE.set(Inline::Escaped);
            false
        }
    }
}

/// Words that open or continue a compound command (or a test with its own grammar) when
/// they start a command.
const COMPOUND_WORDS: &[&str] = &[
    "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "for", "in", "case",
    "esac", "select", "function", "coproc", "time", "[[", "]]",
];

/// Deepest nesting (parentheses, braces, brackets, backquotes, compound keywords: as
/// [`crate::limits::check_depth_below`] counts, quotes not followed) of tame text.
pub(crate) const MAX_TAME_NESTING: usize = 2;

/// Text the parser reads in time linear in its length, whatever it holds: at most
/// [`MAX_TAME_BYTES`], nested at most [`MAX_TAME_NESTING`] deep, every parenthesis, brace and
/// backquote closed (counted without following quotes), no here-document or here-string
/// (`<<`), no `$[`, and no compound keyword where a command starts (again without following
/// quotes, so more places count as starts than bash would see). The parser backtracks
/// exponentially only in nesting depth, on constructs left open (see [`crate::limits`]).
pub(crate) fn tame(text: &str) -> bool {
    if text.len() > MAX_TAME_BYTES {
        return false;
    }
    // one pass over the bytes (these are all ASCII: a byte of a longer UTF-8 character is
    // never one of them)
    let (mut parens, mut braces, mut backquotes) = (0isize, 0isize, 0usize);
    let mut prev = 0u8;
    for &b in text.as_bytes() {
        match b {
            b'(' => parens += 1,
            b')' => parens -= 1,
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'`' => backquotes += 1,
            b'<' if prev == b'<' => return false,
            b'[' if prev == b'$' => return false,
            _ => {}
        }
        prev = b;
    }
    let closed = parens == 0 && braces == 0 && backquotes % 2 == 0;
    closed
        && crate::limits::check_depth_below(text, MAX_TAME_NESTING).is_ok()
        && text
            .split([';', '&', '|', '\n', '(', '`', '{', '}'])
            .all(|command| {
                let first = command.split_ascii_whitespace().find(|w| *w != "!");
                !first.is_some_and(|w| COMPOUND_WORDS.contains(&w))
            })
}

/// Runs its body inline: the thread's state is restored however the body ends.
struct InlineRun;

impl InlineRun {
    fn start() -> Self {
        INLINE.set(Inline::On);
        InlineRun
    }
    /// Whether every parser door the run met admitted its text.
    fn stayed_tame(&self) -> bool {
        INLINE.get() == Inline::On
    }
}

impl Drop for InlineRun {
    fn drop(&mut self) {
        INLINE.set(Inline::Off);
    }
}

struct Job {
    norm: NormFn,
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
    if INLINE.get() == Inline::Off && tame(input) {
        let run = InlineRun::start();
        let parsed = norm(input, limits, shell);
        if run.stayed_tame() {
            return Ok(parsed);
        }
    }
    if ABANDONED.load(Ordering::SeqCst) >= MAX_ABANDONED {
        return Err(Stopped::Busy);
    }
    let Some(worker) = take_idle().or_else(spawn) else {
        // No thread to be had: run here, unbounded by the watchdog (the pre-scans and the
        // cooperative budget still apply).
        return Ok(norm(input, limits, shell));
    };
    let job = Job {
        norm,
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

fn spawn() -> Option<Worker> {
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let (result_tx, results) = mpsc::channel::<ParsedCommand>();
    std::thread::Builder::new()
        .name("riskgate-shell".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            while let Ok(job) = job_rx.recv() {
                let parsed = (job.norm)(&job.input, &job.limits, job.shell);
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
    use std::thread::ThreadId;

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
        // 400 ms of work against a 10 + 100 ms deadline (not tame: it goes to a worker).
        assert_eq!(
            run(&"(".repeat(400), &limits, None, slow).err(),
            Some(Stopped::Deadline)
        );
        // A quick call right after is answered (by another worker).
        assert!(run("(", &limits, None, slow).is_ok());
    }

    static SEEN: Mutex<Vec<(String, ThreadId)>> = Mutex::new(Vec::new());

    /// Records where it ran; a text ending in `#decoded` has its parser doors asked about a
    /// nested text (as a decoded payload would be).
    fn where_run(input: &str, _: &Limits, _: Option<Shell>) -> ParsedCommand {
        if input.ends_with("#decoded") {
            admit("$($($(rm -rf /)))", 0);
        }
        if let Ok(mut seen) = SEEN.lock() {
            seen.push((input.to_string(), std::thread::current().id()));
        }
        crate::parse("true")
    }

    fn threads_of(input: &str) -> Vec<ThreadId> {
        let seen = SEEN.lock().map(|s| s.clone()).unwrap_or_default();
        seen.into_iter()
            .filter(|(i, _)| i == input)
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn tame_text_runs_on_the_callers_thread_and_the_rest_on_a_worker() {
        let me = std::thread::current().id();
        let limits = Limits::default();
        assert!(run("ls -la /tmp", &limits, None, where_run).is_ok());
        assert_eq!(threads_of("ls -la /tmp"), vec![me]);
        assert!(run("(((ls -la /tmp)))", &limits, None, where_run).is_ok());
        let t = threads_of("(((ls -la /tmp)))");
        assert_eq!(t.len(), 1);
        assert_ne!(t[0], me);
        // Tame at the top, but a door meets nested text: the inline result is dropped and a
        // worker answers.
        assert!(run("sh #decoded", &limits, None, where_run).is_ok());
        let t = threads_of("sh #decoded");
        assert_eq!(t.len(), 2, "{t:?}");
        assert_eq!(t[0], me);
        assert_ne!(t[1], me);
        // The thread is left as it was found.
        assert_eq!(INLINE.get(), Inline::Off);
    }

    #[test]
    fn what_nests_is_not_tame() {
        for t in [
            "ls -la",
            "git status --short",
            "find . -name '*.o' -exec rm {} \\;",
            "rm -rf \"$HOME\"/x && echo ok || true",
            "a | b > c 2>&1 &",
            "make && echo done",
            "grep -w if x.c",
            "./configure --for x",
            "echo $(date +%F)",
            "kill $(pgrep -f 'a b')",
            "echo \"$(basename \"$(pwd)\")\"",
            "find . -exec rm {} +",
            "(cd x && make)",
            "echo `id`",
            "echo ${x:-y}",
        ] {
            assert!(tame(t), "{t}");
        }
        for t in [
            "echo $(a $(b $(c)))",
            "((((x))))",
            "echo $(",
            "echo ${x",
            "echo `id",
            "cat <<EOF",
            "grep x <<< y",
            "echo $[1+2]",
            "if true; then ls; fi",
            "while :; do :; done",
            "for i in a; do :; done",
            "case x in",
            "[[ -n x ]]",
            "time ls",
            "coproc ls",
            "echo $(if x)",
            &"x ".repeat(600),
            "ls; ! if x",
            "a &&\n  while x",
            "x | select y",
            "f() { if x; }",
        ] {
            assert!(!tame(t), "{t}");
        }
    }

    /// Most real commands take the inline path (the speed of every assessment rests on it):
    /// measured on nl2bash's 12,607 one-liners when the corpus is beside the repository.
    #[test]
    fn most_real_commands_are_tame() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpora/nl2bash/all.cm");
        let Ok(text) = std::fs::read_to_string(&path) else {
            return;
        };
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let n = lines.iter().filter(|l| tame(l)).count();
        let share = n as f64 / lines.len().max(1) as f64;
        println!("tame: {n} of {} ({:.1} %)", lines.len(), share * 100.0);
        assert!(
            share > 0.9,
            "only {n} of {} nl2bash lines are tame",
            lines.len()
        );
    }
}
