//! The hook server: one warm `riskgate` process per user, binary and configuration that
//! answers hook calls sent over a Unix socket.
//!
//! Each tool call of an agent starts `riskgate hook <agent>` afresh. Started cold, the process
//! pays for its first touch of the parser, the rules and the gate (page faults, caches,
//! first-use tables): about a millisecond. So the hook reads its payload and hands it to the
//! server, which answers with the very same [`crate::run`] (policy files read on every call,
//! audit log, session cache), and prints the answer. When no server answers, the hook decides
//! by itself, as it always could, and starts one in the background for the next calls.
//!
//! - One server per binary *and* environment: the socket's name is a hash of the executable
//!   (path, size, modification time) and of every `RISKGATE_*` and `XDG_*` variable, `HOME`
//!   and `TMPDIR`; a rebuilt binary or another configuration gets its own server. The
//!   working directory and the agent's project directory travel with each call.
//! - The socket lives in `$XDG_RUNTIME_DIR/riskgate`, else in the state directory's `run/`,
//!   in a directory only the user can enter (0700).
//! - The server exits after [`DEFAULT_IDLE`] without calls (`RISKGATE_HOOK_SERVER_IDLE_SECS`),
//!   or when asked ([`stop`]). `RISKGATE_HOOK_SERVER=0` turns it off: every call is decided
//!   in its own process.
//! - Safety: the hook's time limit covers the round trip; a server that is gone, refuses, or
//!   answers something unreadable means the hook decides by itself. A server never weakens
//!   an answer: it runs the same code on the same payload.

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::adapters::MAX_PAYLOAD_BYTES;
use crate::run::HookEnv;
use crate::verdict::Reply;
use crate::{Agent, HookError};

/// Turns the hook server off when `0`, `off`, `false` or `no`.
pub const ENV_SWITCH: &str = "RISKGATE_HOOK_SERVER";
/// Seconds without calls after which the server exits.
pub const ENV_IDLE: &str = "RISKGATE_HOOK_SERVER_IDLE_SECS";
/// When set, the hook says on stderr that the server answered.
pub const ENV_TRACE: &str = "RISKGATE_HOOK_TRACE";
/// How long a server waits for calls before it exits.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(600);
/// A server started this recently is not started again (it may still be binding its socket,
/// or have failed: then the hooks decide by themselves for a while).
const RESPAWN_AFTER: Duration = Duration::from_secs(10);
/// Longest socket path (`sun_path` holds 108 bytes with its terminating NUL).
const MAX_SOCKET_PATH: usize = 100;

const REQUEST_MAGIC: &[u8] = b"RGH1\n";
const RESPONSE_MAGIC: &[u8] = b"RGR1 ";

/// Whether the hook server is on (it is unless [`ENV_SWITCH`] turns it off).
pub fn enabled() -> bool {
    !std::env::var(ENV_SWITCH).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "off" | "false" | "no"
        )
    })
}

/// The idle time of a server: [`ENV_IDLE`] seconds, else [`DEFAULT_IDLE`].
pub fn idle_from_env() -> Duration {
    std::env::var(ENV_IDLE)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_IDLE)
}

/// The socket of the server for the executable `exe` and this process's environment; `None`
/// when the path would be too long for a Unix socket.
pub fn socket_path(exe: &Path) -> Option<PathBuf> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        Some(d) if d.is_absolute() => d.join("riskgate"),
        _ => {
            use riskgate::gate::paths;
            paths::state_dir_from_env()
                .unwrap_or_else(paths::default_state_dir)
                .join("run")
        }
    };
    let mut vars: Vec<(std::ffi::OsString, std::ffi::OsString)> = std::env::vars_os()
        .filter(|(k, _)| {
            let k = k.as_bytes();
            k.starts_with(b"RISKGATE_") || k.starts_with(b"XDG_") || k == b"HOME" || k == b"TMPDIR"
        })
        .collect();
    vars.sort();
    let mut h = Fnv::new();
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    h.write(exe.as_os_str().as_bytes());
    if let Ok(m) = fs::metadata(exe) {
        h.write(&m.len().to_le_bytes());
        h.write(&m.mtime().to_le_bytes());
        h.write(&m.mtime_nsec().to_le_bytes());
        h.write(&m.ino().to_le_bytes());
    }
    for (k, v) in &vars {
        h.write(k.as_bytes());
        h.write(b"=");
        h.write(v.as_bytes());
        h.write(b"\0");
    }
    let path = dir.join(format!("hook-{:016x}.sock", h.0));
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}

/// FNV-1a, 64 bits: a stable name for a configuration (not a security boundary; the socket
/// directory is).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Send one hook call to the server at `socket` and wait for its reply, at most `timeout`
/// (zero: no limit). Any failure is an error: the caller decides by itself.
pub fn request(
    socket: &Path,
    agent: Agent,
    env: &HookEnv,
    payload: &[u8],
    timeout: Duration,
) -> io::Result<Reply> {
    let mut msg = Vec::with_capacity(payload.len() + 256);
    msg.extend_from_slice(REQUEST_MAGIC);
    msg.extend_from_slice(agent.name().as_bytes());
    msg.push(b'\n');
    for p in [
        Some(&env.cwd),
        env.claude_project_dir.as_ref(),
        env.gemini_project_dir.as_ref(),
    ] {
        let bytes = p.map(|p| p.as_os_str().as_bytes()).unwrap_or_default();
        if bytes.contains(&b'\n') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a path with a line break",
            ));
        }
        msg.extend_from_slice(bytes);
        msg.push(b'\n');
    }
    msg.extend_from_slice(format!("{}\n", payload.len()).as_bytes());
    msg.extend_from_slice(payload);
    let response = exchange(socket, &msg, timeout)?;
    decode_reply(&response)
}

/// Read a whole payload from `input` (the hook's stdin) within `timeout` (zero: no limit),
/// waiting with `poll` rather than a watchdog thread: a client that only forwards its payload
/// to the server needs no thread at all. An agent that never closes the pipe is a time-out
/// error. At most [`MAX_PAYLOAD_BYTES`] + 1 bytes are read (the caller rejects the excess).
pub fn read_within(
    mut input: impl Read + std::os::fd::AsFd,
    timeout: Duration,
) -> io::Result<Vec<u8>> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let deadline = Instant::now() + timeout;
    let mut buf = Vec::with_capacity(8192);
    let mut chunk = [0u8; 8192];
    loop {
        if !timeout.is_zero() {
            let left = deadline.saturating_duration_since(Instant::now());
            let ts = Timespec {
                tv_sec: left.as_secs() as i64,
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let mut fds = [PollFd::new(&input, PollFlags::IN)];
            match poll(&mut fds, Some(&ts)) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the payload did not arrive in time",
                    ));
                }
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(buf);
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > MAX_PAYLOAD_BYTES {
            return Ok(buf);
        }
    }
}

/// Ask the server at `socket` to exit. `Ok(false)`: no server was listening.
pub fn stop(socket: &Path) -> io::Result<bool> {
    match exchange(socket, b"RGH1\nstop\n", Duration::from_secs(5)) {
        Ok(_) => Ok(true),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) =>
        {
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

fn exchange(socket: &Path, msg: &[u8], timeout: Duration) -> io::Result<Vec<u8>> {
    let mut s = UnixStream::connect(socket)?;
    let limit = (!timeout.is_zero()).then_some(timeout);
    s.set_read_timeout(limit)?;
    s.set_write_timeout(limit)?;
    s.write_all(msg)?;
    s.shutdown(std::net::Shutdown::Write)?;
    let mut response = Vec::with_capacity(4096);
    (&mut s)
        .take(2 * MAX_PAYLOAD_BYTES as u64)
        .read_to_end(&mut response)?;
    Ok(response)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

fn encode_reply(r: &Reply) -> Vec<u8> {
    let mut out = format!("RGR1 {} {} {}\n", r.exit, r.stdout.len(), r.stderr.len()).into_bytes();
    out.extend_from_slice(r.stdout.as_bytes());
    out.extend_from_slice(r.stderr.as_bytes());
    out
}

fn decode_reply(bytes: &[u8]) -> io::Result<Reply> {
    let rest = bytes
        .strip_prefix(RESPONSE_MAGIC)
        .ok_or_else(|| invalid("not a hook server reply"))?;
    let nl = rest
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("reply header"))?;
    let header = std::str::from_utf8(&rest[..nl]).map_err(|_| invalid("reply header"))?;
    let nums: Vec<usize> = header
        .split(' ')
        .map(|n| n.parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| invalid("reply header"))?;
    let [exit, out_len, err_len] = nums[..] else {
        return Err(invalid("reply header"));
    };
    let body = &rest[nl + 1..];
    if body.len() != out_len.saturating_add(err_len) {
        return Err(invalid("reply length"));
    }
    let (out, err) = body.split_at(out_len);
    Ok(Reply {
        stdout: String::from_utf8(out.to_vec()).map_err(|_| invalid("reply text"))?,
        stderr: String::from_utf8(err.to_vec()).map_err(|_| invalid("reply text"))?,
        exit: u8::try_from(exit).map_err(|_| invalid("exit code"))?,
    })
}

/// A decoded call: the agent, the client's environment, the payload.
struct Request {
    agent: Agent,
    env: HookEnv,
    payload: Vec<u8>,
}

fn read_line(r: &mut impl Read, max: usize) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        if r.read(&mut byte)? == 0 {
            return Err(invalid("truncated request"));
        }
        if byte[0] == b'\n' {
            return Ok(line);
        }
        if line.len() >= max {
            return Err(invalid("request line too long"));
        }
        line.push(byte[0]);
    }
}

fn read_request(stream: &mut impl Read) -> io::Result<Option<Request>> {
    let mut r = io::BufReader::new(stream);
    let mut magic = [0u8; 5];
    r.read_exact(&mut magic)?;
    if magic != REQUEST_MAGIC {
        return Err(invalid("not a hook call"));
    }
    let agent = read_line(&mut r, 64)?;
    if agent == b"stop" {
        return Ok(None);
    }
    let agent = std::str::from_utf8(&agent)
        .ok()
        .and_then(|a| a.parse::<Agent>().ok())
        .ok_or_else(|| invalid("unknown agent"))?;
    let mut path = || -> io::Result<Option<PathBuf>> {
        let line = read_line(&mut r, 8192)?;
        Ok((!line.is_empty()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(&line))))
    };
    let cwd = path()?.unwrap_or_else(|| PathBuf::from("/"));
    let claude_project_dir = path()?;
    let gemini_project_dir = path()?;
    let len: usize = std::str::from_utf8(&read_line(&mut r, 20)?)
        .ok()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| invalid("payload length"))?;
    if len > MAX_PAYLOAD_BYTES {
        return Err(invalid("payload too large"));
    }
    let mut payload = vec![0u8; len];
    r.read_exact(&mut payload)?;
    Ok(Some(Request {
        agent,
        env: HookEnv {
            cwd,
            claude_project_dir,
            gemini_project_dir,
        },
        payload,
    }))
}

/// Answers one call in the server: the agent, the client's environment, the payload.
pub type Handler = Arc<dyn Fn(Agent, HookEnv, &[u8]) -> Reply + Send + Sync>;

/// Serve hook calls on `socket` until `idle` passes without one, or a [`stop`]. Returns at
/// once when another server holds the socket's lock.
pub fn serve(socket: &Path, idle: Duration, handler: Handler) -> Result<(), HookError> {
    let io_err = |what: &str, e: io::Error| HookError::Internal(format!("{what}: {e}"));
    let dir = socket
        .parent()
        .ok_or_else(|| HookError::Internal("the socket path has no directory".into()))?;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| io_err(&dir.display().to_string(), e))?;
    let lock_path = socket.with_extension("lock");
    let mut lock = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&lock_path)
        .map_err(|e| io_err(&lock_path.display().to_string(), e))?;
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
    // One call at a time, on this thread: a call takes a fraction of a millisecond warm,
    // and a thread per call would start cold each time. A client sends its whole request
    // as soon as it connects; one that stalls is dropped after a moment.
    for stream in listener.incoming() {
        if done.load(Ordering::Relaxed) {
            break;
        }
        let Ok(mut stream) = stream else { continue };
        last.store(started.elapsed().as_millis() as u64, Ordering::Relaxed);
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
        match read_request(&mut stream) {
            Ok(Some(req)) => {
                let reply = handler(req.agent, req.env, &req.payload);
                let _ = stream.write_all(&encode_reply(&reply));
            }
            Ok(None) => {
                let _ = stream.write_all(&encode_reply(&Reply {
                    stdout: String::new(),
                    stderr: String::new(),
                    exit: 0,
                }));
                break;
            }
            Err(_) => {}
        }
    }
    let _ = fs::remove_file(socket);
    Ok(())
}

/// Start a server for `socket` in the background (`exe hook-server SOCKET`, its own process
/// group, no terminal), unless one was started moments ago. `Ok(false)`: not started.
pub fn spawn(exe: &Path, socket: &Path) -> io::Result<bool> {
    let recent = fs::metadata(socket.with_extension("lock"))
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

    #[test]
    fn replies_round_trip_and_garbage_is_an_error() {
        let r = Reply {
            stdout: "{\"a\":1}\n".into(),
            stderr: "riskgate: warning: x\n".into(),
            exit: 0,
        };
        let back = decode_reply(&encode_reply(&r)).unwrap();
        assert_eq!(
            (back.stdout, back.stderr, back.exit),
            (r.stdout, r.stderr, r.exit)
        );
        for bad in [
            &b""[..],
            b"RGR1 0 5 0\nabc",
            b"RGR1 0 1\nx",
            b"RGR1 300 0 0\n",
            b"HTTP/1.1 200 OK\r\n",
        ] {
            assert!(decode_reply(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn requests_are_read_back_whole() {
        let mut msg = b"RGH1\nclaude\n/repo\n/proj\n\n".to_vec();
        msg.extend_from_slice(b"7\n{\"a\":1}");
        let req = read_request(&mut &msg[..]).unwrap().unwrap();
        assert_eq!(req.agent, Agent::Claude);
        assert_eq!(req.env.cwd, PathBuf::from("/repo"));
        assert_eq!(req.env.claude_project_dir, Some(PathBuf::from("/proj")));
        assert_eq!(req.env.gemini_project_dir, None);
        assert_eq!(req.payload, b"{\"a\":1}");
        assert!(read_request(&mut &b"RGH1\nstop\n"[..]).unwrap().is_none());
        assert!(read_request(&mut &b"RGH1\nvim\n/\n\n\n0\n"[..]).is_err());
        assert!(read_request(&mut &b"RGH1\nclaude\n/\n\n\n99\n{}"[..]).is_err());
    }
}
