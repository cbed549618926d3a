//! The server's side: the checked socket directory and lock, the accept loop, and one thread
//! per connection so that a client that connects and never writes, or writes slowly, never
//! delays another. Each call is decided on a worker thread of its own; a call past the budget
//! its client sent is answered the time limit's reply (ask, or deny where the agent cannot
//! ask) and its work abandoned (it runs to its end unobserved, and still counts against
//! [`MAX_CALLS`]).

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::deadline::Timed;
use super::{
    Handler, MAX_CALLS, REQUEST_READ_LIMIT, RESPAWN_AFTER, Request, encode_reply, fsperm,
    read_request,
};
use crate::HookError;
use crate::run::time_limit_reply;
use crate::verdict::Reply;

/// The longest budget a client may ask for (a time limit is the user's to raise).
const MAX_BUDGET: Duration = Duration::from_secs(3600);
/// How long writing an answer may take.
const REPLY_WRITE_LIMIT: Duration = Duration::from_secs(2);
/// The stack of a thread that decides a call (the main thread's, as when deciding alone).
const WORKER_STACK: usize = 8 << 20;
/// The stack of a thread that reads a call and waits for its answer.
const CONNECTION_STACK: usize = 128 << 10;

/// One of the [`MAX_CALLS`] places, given back when the last holder drops it.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>) -> Option<Arc<Slot>> {
        let taken = active.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < MAX_CALLS).then_some(n + 1)
        });
        taken.ok().map(|_| Arc::new(Slot(Arc::clone(active))))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serve hook calls on `socket` until `idle` passes without one, or a [`super::stop`].
/// Returns at once when another server holds the socket's lock; an unsafe directory or lock
/// (see [`fsperm`]) is an error.
pub fn serve(socket: &Path, idle: Duration, handler: Handler) -> Result<(), HookError> {
    let io_err = |what: &str, e: io::Error| HookError::Internal(format!("{what}: {e}"));
    let dir = socket
        .parent()
        .ok_or_else(|| HookError::Internal("the socket path has no directory".into()))?;
    let lock_name = socket
        .with_extension("lock")
        .file_name()
        .map(std::path::PathBuf::from)
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

    let started = Instant::now();
    let last = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    {
        let (last, done, socket) = (Arc::clone(&last), Arc::clone(&done), socket.to_path_buf());
        std::thread::spawn(move || {
            let tick = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
            loop {
                std::thread::sleep(tick);
                let quiet = (started.elapsed().as_millis() as u64)
                    .saturating_sub(last.load(Ordering::Relaxed));
                if quiet >= idle.as_millis() as u64 {
                    done.store(true, Ordering::Relaxed);
                    // wake the accept loop
                    let _ = UnixStream::connect(&socket);
                    return;
                }
            }
        });
    }
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if done.load(Ordering::Relaxed) {
            break;
        }
        let stream = match stream {
            Ok(s) => s,
            Err(_) => {
                // out of descriptors or the like: no busy loop
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        last.store(started.elapsed().as_millis() as u64, Ordering::Relaxed);
        // another user's process never gets an answer, nor a stop
        if !fsperm::peer_is_me(&stream).unwrap_or(false) {
            continue;
        }
        // over the cap: closed at once, the hook decides alone
        let Some(slot) = Slot::take(&active) else {
            continue;
        };
        let call = Call {
            handler: Arc::clone(&handler),
            slot,
            done: Arc::clone(&done),
            socket: socket.to_path_buf(),
        };
        let _ = std::thread::Builder::new()
            .stack_size(CONNECTION_STACK)
            .spawn(move || call.serve(stream));
    }
    let _ = fs::remove_file(socket);
    Ok(())
}

/// What a connection's thread needs.
struct Call {
    handler: Handler,
    slot: Arc<Slot>,
    done: Arc<AtomicBool>,
    socket: std::path::PathBuf,
}

impl Call {
    fn serve(self, stream: UnixStream) {
        let accepted = Instant::now();
        let req = match read_request(&mut Timed::new(&stream, accepted + REQUEST_READ_LIMIT)) {
            Ok(Some(req)) => req,
            Ok(None) => {
                let ok = Reply {
                    stdout: String::new(),
                    stderr: String::new(),
                    exit: 0,
                };
                reply(&stream, &ok);
                self.done.store(true, Ordering::Relaxed);
                // wake the accept loop
                let _ = UnixStream::connect(&self.socket);
                return;
            }
            Err(_) => return,
        };
        if let Some(answer) = self.decide(req) {
            reply(&stream, &answer);
        }
    }

    /// The handler's answer within the call's budget, else the time limit's; `None` when the
    /// work could not be started or died.
    fn decide(self, req: Request) -> Option<Reply> {
        let budget = req.budget.clamp(Duration::from_millis(1), MAX_BUDGET);
        let limit = if req.limit.is_zero() {
            budget
        } else {
            req.limit
        };
        let (agent, env) = (req.agent, req.env.clone());
        let (tx, rx) = mpsc::sync_channel(1);
        let (handler, slot) = (self.handler, self.slot);
        let worker = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let _slot = slot;
                let _ = tx.send(handler(req.agent, req.env, &req.payload));
            });
        worker.ok()?;
        match rx.recv_timeout(budget) {
            Ok(answer) => Some(answer),
            Err(mpsc::RecvTimeoutError::Timeout) => Some(time_limit_reply(agent, limit, &env)),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
        }
    }
}

fn reply(stream: &UnixStream, answer: &Reply) {
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
