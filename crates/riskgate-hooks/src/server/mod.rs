//! The hook server: one warm `riskgate` process per user, binary and configuration that
//! answers hook calls sent over a Unix socket.
//!
//! Each tool call of an agent starts `riskgate hook <agent>` afresh. Started cold, the process
//! pays for its first touch of the parser, the rules and the gate (page faults, caches,
//! first-use tables): about a millisecond. So the hook reads its payload and hands it to the
//! server, which answers with the very same [`crate::run()`] (policy files read on every call,
//! audit log, session cache), and prints the answer. When no server answers, the hook decides
//! by itself, as it always could, and starts one in the background for the next calls.
//!
//! - One server per binary *and* environment: the socket's name is a hash of the executable
//!   (path, size, modification time) and of every `RISKGATE_*` and `XDG_*` variable, `HOME`
//!   and `TMPDIR`; a rebuilt binary or another configuration gets its own server. The
//!   working directory and the agent's project directory travel with each call.
//! - The socket lives in `$XDG_RUNTIME_DIR/riskgate`, else in the state directory's `run/`,
//!   in a directory only the user can enter (0700); a directory that is a symbolic link,
//!   another user's, or writable by others is never used, and both ends check that the other
//!   runs as the same user (`fsperm`).
//! - The server exits after [`DEFAULT_IDLE`] without calls (`RISKGATE_HOOK_SERVER_IDLE_SECS`),
//!   or when asked ([`stop`]). `RISKGATE_HOOK_SERVER=0` turns it off: every call is decided
//!   in its own process.
//! - Time: the client connects, writes and reads under deadlines taken from one start, and
//!   gives the server a budget it sends along; the server answers the time limit's ask (or
//!   deny) for a call past its budget, and each call has its own thread, so a slow or stuck
//!   call never delays another ([`client`], `listener`).
//! - Safety: a server that is gone, refuses, stalls or answers something unreadable means the
//!   hook decides by itself. A server never weakens an answer: it runs the same code on the
//!   same payload.
//! - Speed: a shell command assessed once is not assessed again while nothing it depends on
//!   changed ([`cache`]); the gate still decides every call.
//!
//! Unix only: elsewhere [`enabled`] is false and every call is decided in its own process.

// The wire protocol below is spoken only by the Unix transport (`client`, `listener`).
#![cfg_attr(not(unix), allow(dead_code, unused_imports))]

pub mod cache;
#[cfg(unix)]
pub mod client;
#[cfg(unix)]
mod deadline;
#[cfg(unix)]
mod fsperm;
#[cfg(unix)]
mod listener;

#[cfg(unix)]
pub use client::{CallError, probe, read_within, request, stop};
#[cfg(unix)]
pub use listener::{serve, spawn};

/// No hook server outside Unix: [`enabled`] is false there, and these only say so.
#[cfg(not(unix))]
mod elsewhere {
    use std::io;
    use std::path::Path;
    use std::time::Duration;

    use super::Handler;
    use crate::HookError;

    fn unsupported() -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            "the hook server needs a Unix system",
        )
    }

    /// Not available: an error.
    pub fn serve(_socket: &Path, _idle: Duration, _handler: Handler) -> Result<(), HookError> {
        Err(HookError::Internal(unsupported().to_string()))
    }

    /// Not available: never started.
    pub fn spawn(_exe: &Path, _socket: &Path) -> io::Result<bool> {
        Ok(false)
    }

    /// Not available: no server to stop.
    pub fn stop(_socket: &Path) -> io::Result<bool> {
        Ok(false)
    }
}
#[cfg(not(unix))]
pub use elsewhere::{serve, spawn, stop};

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::Agent;
use crate::adapters::MAX_PAYLOAD_BYTES;
use crate::run::HookEnv;
use crate::verdict::Reply;

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
/// At most this many calls are in the server at once (being read, decided, or abandoned past
/// their budget and still running); a connection past the cap is closed at once, and its
/// hook decides alone.
const MAX_CALLS: usize = 32;
/// A connected client must have sent its whole request within this time.
const REQUEST_READ_LIMIT: Duration = Duration::from_secs(2);

const REQUEST_MAGIC: &[u8] = b"RGH2\n";
const RESPONSE_MAGIC: &[u8] = b"RGR1 ";

/// Whether the hook server is on (it is unless [`ENV_SWITCH`] turns it off).
pub fn enabled() -> bool {
    cfg!(unix)
        && !std::env::var(ENV_SWITCH).is_ok_and(|v| {
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
#[cfg(unix)]
pub fn socket_path(exe: &Path) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
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
    if let Ok(m) = std::fs::metadata(exe) {
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

/// No hook server outside Unix: no socket.
#[cfg(not(unix))]
pub fn socket_path(_exe: &Path) -> Option<PathBuf> {
    None
}

/// The directories where this user's hook servers put their sockets: `$XDG_RUNTIME_DIR/riskgate`
/// and the state directory's `run/` (`RISKGATE_STATE_DIR`, else the default).
fn socket_dirs() -> Vec<PathBuf> {
    use riskgate::gate::paths;
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from)
        && d.is_absolute()
    {
        dirs.push(d.join("riskgate"));
    }
    if let Some(d) = paths::state_dir_from_env() {
        dirs.push(d.join("run"));
    }
    dirs.push(paths::default_state_dir().join("run"));
    dirs
}

/// The sockets of every hook server of this user that can be found: `own` (the server of this
/// binary and environment) first, then every other `hook-*.sock` beside it and in the usual
/// socket directories — servers started with other `RISKGATE_*` or `XDG_*` variables, or by
/// another build. What `hook-server --stop` stops and `riskgate doctor` reports.
pub fn known_sockets(own: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = own.map(Path::to_path_buf).into_iter().collect();
    let mut dirs: Vec<PathBuf> = own
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .into_iter()
        .collect();
    dirs.extend(socket_dirs());
    let mut seen_dirs: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if seen_dirs.contains(&dir) {
            continue;
        }
        seen_dirs.push(dir.clone());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("hook-") && n.ends_with(".sock"))
            })
            .collect();
        found.sort();
        for p in found {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
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

/// One hook call as the client sends it.
pub(crate) struct Request {
    /// The agent whose protocol is spoken.
    pub agent: Agent,
    /// The hook's time limit, for the time limit's answer (zero: none).
    pub limit: Duration,
    /// How long the server may take to answer, from when it has read the call.
    pub budget: Duration,
    /// The client's working directory and agent variables.
    pub env: HookEnv,
    /// The agent's JSON.
    pub payload: Vec<u8>,
}

/// Answers one call in the server: the agent, the client's environment, the payload.
pub type Handler = Arc<dyn Fn(Agent, HookEnv, &[u8]) -> Reply + Send + Sync>;

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The request's bytes; paths with a line break cannot be sent.
#[cfg(unix)]
fn encode_request(req: &Request) -> io::Result<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let mut msg = Vec::with_capacity(req.payload.len() + 256);
    msg.extend_from_slice(REQUEST_MAGIC);
    msg.extend_from_slice(
        format!(
            "{}\n{}\n{}\n",
            req.agent.name(),
            req.limit.as_millis(),
            req.budget.as_millis()
        )
        .as_bytes(),
    );
    for p in [
        Some(&req.env.cwd),
        req.env.claude_project_dir.as_ref(),
        req.env.gemini_project_dir.as_ref(),
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
    msg.extend_from_slice(format!("{}\n", req.payload.len()).as_bytes());
    msg.extend_from_slice(&req.payload);
    Ok(msg)
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

fn read_number(r: &mut impl Read, what: &str) -> io::Result<u64> {
    std::str::from_utf8(&read_line(r, 20)?)
        .ok()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| invalid(what))
}

/// Read one call (`None`: a request to stop).
#[cfg(unix)]
fn read_request(stream: &mut impl Read) -> io::Result<Option<Request>> {
    use std::os::unix::ffi::OsStrExt;
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
    let limit = Duration::from_millis(read_number(&mut r, "time limit")?);
    let budget = Duration::from_millis(read_number(&mut r, "budget")?);
    let mut path = || -> io::Result<Option<PathBuf>> {
        let line = read_line(&mut r, 8192)?;
        Ok((!line.is_empty()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(&line))))
    };
    let cwd = path()?.unwrap_or_else(|| PathBuf::from("/"));
    let claude_project_dir = path()?;
    let gemini_project_dir = path()?;
    let len = usize::try_from(read_number(&mut r, "payload length")?)
        .map_err(|_| invalid("payload length"))?;
    if len > MAX_PAYLOAD_BYTES {
        return Err(invalid("payload too large"));
    }
    // read as it comes rather than allocated up front from what the client claims
    let mut payload = Vec::with_capacity(len.min(64 << 10));
    (&mut r).take(len as u64).read_to_end(&mut payload)?;
    if payload.len() != len {
        return Err(invalid("truncated request"));
    }
    Ok(Some(Request {
        agent,
        limit,
        budget,
        env: HookEnv {
            cwd,
            claude_project_dir,
            gemini_project_dir,
        },
        payload,
    }))
}

#[cfg(all(test, unix))]
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
        let req = Request {
            agent: Agent::Claude,
            limit: Duration::from_millis(8000),
            budget: Duration::from_millis(3990),
            env: HookEnv {
                cwd: PathBuf::from("/repo"),
                claude_project_dir: Some(PathBuf::from("/proj")),
                gemini_project_dir: None,
            },
            payload: b"{\"a\":1}".to_vec(),
        };
        let msg = encode_request(&req).unwrap();
        let back = read_request(&mut &msg[..]).unwrap().unwrap();
        assert_eq!(back.agent, Agent::Claude);
        assert_eq!(
            (back.limit, back.budget),
            (Duration::from_secs(8), Duration::from_millis(3990))
        );
        assert_eq!(back.env, req.env);
        assert_eq!(back.payload, b"{\"a\":1}");
        assert!(read_request(&mut &b"RGH2\nstop\n"[..]).unwrap().is_none());
        assert!(read_request(&mut &b"RGH2\nvim\n0\n0\n/\n\n\n0\n"[..]).is_err());
        assert!(read_request(&mut &b"RGH2\nclaude\n0\n0\n/\n\n\n99\n{}"[..]).is_err());
        assert!(read_request(&mut &b"RGH1\nclaude\n/\n\n\n2\n{}"[..]).is_err());
        let mut bad = req;
        bad.env.cwd = PathBuf::from("/a\nb");
        assert!(encode_request(&bad).is_err());
    }
}
