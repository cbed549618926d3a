//! The server's side: the checked socket directory and lock, and the threads that answer.
//!
//! Threads take turns accepting ("leader/followers"): the thread that accepts a connection
//! reads the call, decides it and writes the answer itself — no hand-off to another thread
//! on the way, and a thread that stays warm from one call to the next (caches, allocator) —
//! while another waits in `accept`; when none is left waiting, one more is started, so a
//! client that connects and never writes, or writes slowly, or a call that takes long, never
//! delays another. At most [`MAX_CALLS`] calls at once; a connection past that is closed at
//! once and its hook decides alone.
//!
//! A call past the budget its client sent is answered the time limit's reply (ask, or deny
//! where the agent cannot ask) by the timer thread ([`Timer`]), and its work abandoned: it
//! runs to its end unobserved on its thread, which then takes its turn again.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::deadline::Timed;
use super::{
    Handler, MAX_CALLS, REQUEST_READ_LIMIT, RESPAWN_AFTER, encode_reply, fsperm, read_request,
};
use crate::run::{HookEnv, time_limit_reply};
use crate::verdict::Reply;
use crate::{Agent, HookError};

/// The longest budget a client may ask for (a time limit is the user's to raise).
const MAX_BUDGET: Duration = Duration::from_secs(3600);
/// How long writing an answer may take.
const REPLY_WRITE_LIMIT: Duration = Duration::from_secs(2);
/// The stack of a thread that decides calls (the main thread's, as when deciding alone).
const THREAD_STACK: usize = 8 << 20;
/// How long a stopping server waits for the calls it is answering.
const DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// Serve hook calls on `socket` until `idle` passes without one, or a [`super::stop`].
/// Returns at once when another server holds the socket's lock; an unsafe directory or lock
/// (see `fsperm`) is an error.
pub fn serve(socket: &Path, idle: Duration, handler: Handler) -> Result<(), HookError> {
    super::cache::enable();
    let io_err = |what: &str, e: io::Error| HookError::Internal(format!("{what}: {e}"));
    let dir = socket
        .parent()
        .ok_or_else(|| HookError::Internal("the socket path has no directory".into()))?;
    let lock_name = socket
        .with_extension("lock")
        .file_name()
        .map(PathBuf::from)
        .ok_or_else(|| HookError::Internal("the socket path has no file name".into()))?;
    let dir_fd =
        fsperm::private_dir(dir, true).map_err(|e| io_err(&dir.display().to_string(), e))?;
    let mut lock = fsperm::open_lock(&dir_fd, &lock_name)
        .map_err(|e| io_err(&lock_name.display().to_string(), e))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => return Ok(()),
        Err(fs::TryLockError::Error(e)) => return Err(io_err("lock", e)),
    }
    // the lock file's time says when the server started (see `spawn`)
    let _ = lock.set_len(0);
    let _ = writeln!(lock, "{}", std::process::id());
    let _ = fs::remove_file(socket);
    let listener =
        UnixListener::bind(socket).map_err(|e| io_err(&socket.display().to_string(), e))?;
    let _ = fs::set_permissions(socket, fs::Permissions::from_mode(0o600));

    let shared = Arc::new(Shared {
        listener,
        handler,
        started: Instant::now(),
        last: AtomicU64::new(0),
        waiting: AtomicUsize::new(0),
        busy: AtomicUsize::new(0),
        threads: AtomicUsize::new(0),
        done: Mutex::new(false),
        stopped: Condvar::new(),
        ended: AtomicBool::new(false),
        timer: Arc::new(Timer::default()),
    });
    {
        let timer = Arc::clone(&shared.timer);
        std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn(move || timer.run())
            .map_err(|e| io_err("thread", e))?;
    }
    // two to take turns from the start: the first call starts none
    for _ in 0..2 {
        shared.add_thread();
    }
    // this thread keeps time: the idle limit, or a stop
    // (and a runaway parser: the server ends so that the process's end stops it, see
    // `riskgate::shell::runaway_workers`; the next hook call decides alone and starts a fresh one)
    let tick = (idle / 4).clamp(Duration::from_millis(50), Duration::from_millis(250));
    let mut done = lock_ok(&shared.done);
    while !*done {
        if riskgate::shell::runaway_workers() > 0 {
            break;
        }
        let quiet = (shared.started.elapsed().as_millis() as u64)
            .saturating_sub(shared.last.load(Ordering::Relaxed));
        if quiet >= idle.as_millis() as u64 {
            break;
        }
        done = match shared.stopped.wait_timeout(done, tick) {
            Ok((d, _)) => d,
            Err(p) => p.into_inner().0,
        };
    }
    drop(done);
    shared.ended.store(true, Ordering::Relaxed);
    let _ = fs::remove_file(socket);
    // the calls being answered finish (or are cut off at the process's end)
    let draining = Instant::now();
    while shared.busy.load(Ordering::Acquire) > 0 && draining.elapsed() < DRAIN_LIMIT {
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

fn lock_ok<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the server's threads share.
struct Shared {
    listener: UnixListener,
    handler: Handler,
    started: Instant,
    /// Milliseconds from `started` to the last connection.
    last: AtomicU64,
    /// Threads waiting in `accept`.
    waiting: AtomicUsize,
    /// Calls being read, decided or written (abandoned ones too, until their work ends).
    busy: AtomicUsize,
    /// Threads taking turns.
    threads: AtomicUsize,
    /// Set on a stop request; the main thread waits on it.
    done: Mutex<bool>,
    stopped: Condvar,
    /// The server is ending: threads that wake stop taking turns.
    ended: AtomicBool,
    timer: Arc<Timer>,
}

impl Shared {
    /// One more thread taking turns, unless [`MAX_CALLS`] + 1 are (one more than the calls,
    /// to close the connections past the cap).
    fn add_thread(self: &Arc<Self>) {
        let added = self
            .threads
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n <= MAX_CALLS).then_some(n + 1)
            });
        if added.is_err() {
            return;
        }
        let shared = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn(move || shared.take_turns());
        if spawned.is_err() {
            self.threads.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn take_turns(self: Arc<Self>) {
        loop {
            self.waiting.fetch_add(1, Ordering::AcqRel);
            let accepted = self.listener.accept();
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            if self.ended.load(Ordering::Relaxed) {
                return;
            }
            let stream = match accepted {
                Ok((s, _)) => s,
                Err(_) => {
                    // out of descriptors or the like: no busy loop
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            self.last
                .store(self.started.elapsed().as_millis() as u64, Ordering::Relaxed);
            // another user's process never gets an answer, nor a stop
            if !fsperm::peer_is_me(&stream).unwrap_or(false) {
                continue;
            }
            // over the cap: closed at once, the hook decides alone
            if self.busy.fetch_add(1, Ordering::AcqRel) >= MAX_CALLS {
                self.busy.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            if self.waiting.load(Ordering::Acquire) == 0 {
                self.add_thread();
            }
            self.answer(Arc::new(stream));
            self.busy.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Read one call on `stream` and answer it (or stop the server).
    fn answer(&self, stream: Arc<UnixStream>) {
        let accepted = Instant::now();
        let req = match read_request(&mut Timed::new(&stream, accepted + REQUEST_READ_LIMIT)) {
            Ok(Some(req)) => req,
            Ok(None) => {
                let ok = Reply {
                    stdout: String::new(),
                    stderr: String::new(),
                    exit: 0,
                };
                write_reply(&stream, &ok);
                *lock_ok(&self.done) = true;
                self.stopped.notify_all();
                return;
            }
            Err(_) => return,
        };
        let budget = req.budget.clamp(Duration::from_millis(1), MAX_BUDGET);
        let pending = Arc::new(Pending {
            deadline: Instant::now() + budget,
            answered: AtomicBool::new(false),
            stream: Arc::clone(&stream),
            agent: req.agent,
            limit: if req.limit.is_zero() {
                budget
            } else {
                req.limit
            },
            env: req.env.clone(),
        });
        self.timer.add(&pending);
        let handler = &self.handler;
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            handler(req.agent, req.env, &req.payload)
        }));
        self.timer.remove(&pending);
        if pending.claim() {
            // a handler that panicked: no answer, the hook decides alone
            if let Ok(answer) = answer {
                write_reply(&stream, &answer);
            }
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A call being decided, for the timer.
struct Pending {
    deadline: Instant,
    /// Set by whoever answers: the deciding thread or the timer.
    answered: AtomicBool,
    stream: Arc<UnixStream>,
    agent: Agent,
    limit: Duration,
    env: HookEnv,
}

impl Pending {
    /// Claim the answer; false when it was given already.
    fn claim(&self) -> bool {
        self.answered
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Past the deadline: the time limit's answer, unless the decision came first.
    fn expire(&self) {
        if self.claim() {
            write_reply(
                &self.stream,
                &time_limit_reply(self.agent, self.limit, &self.env),
            );
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// The calls being decided, and a thread that answers those past their deadline. It sleeps
/// until the earliest deadline, and without calls until one comes (it is woken only then, or
/// for a deadline earlier than the one it waits for).
#[derive(Default)]
struct Timer {
    state: Mutex<TimerState>,
    wake: Condvar,
}

#[derive(Default)]
struct TimerState {
    pending: Vec<Arc<Pending>>,
    /// The deadline the thread sleeps until (`None`: until woken).
    until: Option<Instant>,
}

impl Timer {
    fn add(&self, p: &Arc<Pending>) {
        let mut s = lock_ok(&self.state);
        s.pending.push(Arc::clone(p));
        if s.until.is_none_or(|u| p.deadline < u) {
            s.until = Some(p.deadline);
            self.wake.notify_one();
        }
    }

    fn remove(&self, p: &Arc<Pending>) {
        lock_ok(&self.state).pending.retain(|q| !Arc::ptr_eq(p, q));
    }

    fn run(&self) {
        let mut s = lock_ok(&self.state);
        loop {
            let now = Instant::now();
            let mut expired = Vec::new();
            s.pending.retain(|p| {
                let keep = p.deadline > now;
                if !keep {
                    expired.push(Arc::clone(p));
                }
                keep
            });
            if !expired.is_empty() {
                drop(s);
                for p in expired {
                    p.expire();
                }
                s = lock_ok(&self.state);
                continue;
            }
            s.until = s.pending.iter().map(|p| p.deadline).min();
            s = match s.until {
                None => self.wake.wait(s).unwrap_or_else(|p| p.into_inner()),
                Some(until) => {
                    let left = until.saturating_duration_since(now);
                    match self.wake.wait_timeout(s, left) {
                        Ok((s, _)) => s,
                        Err(p) => p.into_inner().0,
                    }
                }
            };
        }
    }
}

fn write_reply(stream: &UnixStream, answer: &Reply) {
    let deadline = Instant::now() + REPLY_WRITE_LIMIT;
    let _ = Timed::new(stream, deadline).write_all(&encode_reply(answer));
}

/// Start a server for `socket` in the background (`exe hook-server SOCKET`, its own process
/// group, no terminal), unless one was started moments ago. `Ok(false)`: not started.
pub fn spawn(exe: &Path, socket: &Path) -> io::Result<bool> {
    let recent = fs::symlink_metadata(socket.with_extension("lock"))
        .ok()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age < RESPAWN_AFTER);
    if recent {
        return Ok(false);
    }
    Command::new(exe)
        .arg("hook-server")
        .arg(socket)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Agent;
    use crate::run::HookEnv;
    use crate::server::client::{CallError, request};

    /// A server whose handler allows at once, except a payload `slow`, which takes 30 s.
    fn start_server() -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let socket = tmp.path().join("run/s.sock");
        let handler: Handler = Arc::new(|_, _, payload: &[u8]| {
            if payload == b"slow" {
                std::thread::sleep(Duration::from_secs(30));
            }
            Reply {
                stdout: "allowed".into(),
                stderr: String::new(),
                exit: 0,
            }
        });
        let s = socket.clone();
        std::thread::spawn(move || serve(&s, Duration::from_secs(60), handler));
        let start = Instant::now();
        while !socket.exists() {
            assert!(start.elapsed() < Duration::from_secs(10), "no socket");
            std::thread::sleep(Duration::from_millis(10));
        }
        (tmp, socket)
    }

    fn call(socket: &Path, payload: &[u8], within: Duration) -> Result<Reply, CallError> {
        let env = HookEnv {
            cwd: std::env::temp_dir(),
            ..HookEnv::default()
        };
        let limit = Duration::from_secs(8);
        request(
            socket,
            Agent::Claude,
            &env,
            payload,
            limit,
            Instant::now() + within,
        )
    }

    #[test]
    fn a_call_past_its_budget_is_answered_ask_and_others_go_on() {
        let (_tmp, socket) = start_server();
        // past its budget: the time limit's answer, not the handler's, and within the deadline
        let slow = call(&socket, b"slow", Duration::from_millis(400)).unwrap();
        assert!(slow.stdout.contains("\"ask\""), "{}", slow.stdout);
        assert!(
            slow.stdout.contains("no decision within 8000 ms"),
            "{}",
            slow.stdout
        );
        // the abandoned work goes on; other calls are answered by the handler meanwhile
        let fast = call(&socket, b"{}", Duration::from_millis(400)).unwrap();
        assert_eq!(fast.stdout, "allowed");
    }

    #[test]
    fn stuck_clients_do_not_delay_another() {
        let (_tmp, socket) = start_server();
        // one connects and never writes, one writes half a request: each has 2 s to finish,
        // and the next call's whole deadline is shorter than that
        let _silent = UnixStream::connect(&socket).unwrap();
        let mut half = UnixStream::connect(&socket).unwrap();
        half.write_all(b"RGH2\nclaude\n8000\n").unwrap();
        let fast = call(&socket, b"{}", Duration::from_millis(500)).unwrap();
        assert_eq!(fast.stdout, "allowed");
    }

    #[test]
    fn calls_past_the_cap_are_closed_and_the_cap_is_given_back() {
        let (_tmp, socket) = start_server();
        let held: Vec<UnixStream> = (0..MAX_CALLS)
            .map(|_| UnixStream::connect(&socket).unwrap())
            .collect();
        std::thread::sleep(Duration::from_millis(100));
        // over the cap: closed at once, so the client gives up without waiting its deadline
        let err = call(&socket, b"{}", Duration::from_secs(30)).unwrap_err();
        assert!(matches!(err, CallError::Failed(_)), "{err}");
        drop(held);
        std::thread::sleep(Duration::from_millis(100));
        let fast = call(&socket, b"{}", Duration::from_millis(500)).unwrap();
        assert_eq!(fast.stdout, "allowed");
    }

    #[test]
    fn a_linked_lock_is_refused_and_its_target_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        fsperm::private_dir(&dir, true).unwrap();
        let target = tmp.path().join("precious");
        fs::write(&target, "keep me").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("s.lock")).unwrap();
        let handler: Handler = Arc::new(|_, _, _: &[u8]| unreachable!());
        let err = serve(&dir.join("s.sock"), Duration::from_secs(1), handler).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert!(!dir.join("s.sock").exists());
    }
}
