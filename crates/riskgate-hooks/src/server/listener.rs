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
use crate::run::{DEFAULT_TIMEOUT, time_limit_reply};
use crate::verdict::Reply;

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
        let budget = req.budget.clamp(Duration::from_millis(1), DEFAULT_TIMEOUT);
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
