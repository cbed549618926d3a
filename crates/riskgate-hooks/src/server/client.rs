//! The hook's side of the hook server: read the agent's payload, connect, send the call and
//! read the answer, each under deadlines taken from the hook call's one start, so the whole
//! exchange ends by the deadline the caller gives whatever the server does (gone, busy with a
//! full backlog, stalled after accepting, trickling bytes). The socket's directory and the
//! server's user are checked first (`fsperm`); anything amiss is a [`CallError`] and
//! the hook decides alone with what is left of its time.

use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;

use super::deadline::{Timed, left, timed_out};
use super::{MAX_PAYLOAD_BYTES, Request, decode_reply, encode_request, fsperm};
use crate::Agent;
use crate::run::HookEnv;
use crate::verdict::Reply;

/// Why the server did not answer a call.
#[derive(Debug)]
pub enum CallError {
    /// No server listens on the socket (none started yet, or it exited): one may be started.
    NoServer,
    /// The socket's directory, or the process behind the socket, is not to be trusted (the
    /// reason): the hook decides alone and no server is started.
    Untrusted(String),
    /// A server that is busy, too slow, or answered something unreadable.
    Failed(io::Error),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::NoServer => f.write_str("no hook server"),
            CallError::Untrusted(why) => write!(f, "the hook server is not trusted: {why}"),
            CallError::Failed(e) => write!(f, "the hook server did not answer: {e}"),
        }
    }
}

impl From<io::Error> for CallError {
    fn from(e: io::Error) -> CallError {
        match e.kind() {
            io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused => CallError::NoServer,
            io::ErrorKind::PermissionDenied => CallError::Untrusted(e.to_string()),
            _ => CallError::Failed(e),
        }
    }
}

/// Send one hook call to the server at `socket` and read its answer, all by `deadline`.
/// The server is given a budget a little short of the deadline and answers the time limit's
/// reply (with `limit`, the hook's time limit, in its reason) past it.
pub fn request(
    socket: &Path,
    agent: Agent,
    env: &HookEnv,
    payload: &[u8],
    limit: Duration,
    deadline: Instant,
) -> Result<Reply, CallError> {
    let share = left(deadline)?;
    // the margin covers the reply's way back (and the audit write of a time-limit answer)
    let budget = share.saturating_sub((share / 10).min(Duration::from_millis(50)));
    let msg = encode_request(&Request {
        agent,
        limit,
        budget,
        env: env.clone(),
        payload: payload.to_vec(),
    })?;
    let response = exchange(socket, &msg, deadline)?;
    Ok(super::decode_reply(&response)?)
}

/// Ask the server at `socket` to exit. `Ok(false)`: no server was listening.
pub fn stop(socket: &Path) -> io::Result<bool> {
    let deadline = Instant::now() + Duration::from_secs(5);
    match exchange(socket, b"RGH2\nstop\n", deadline).and_then(|r| Ok(decode_reply(&r)?)) {
        Ok(_) => Ok(true),
        Err(CallError::NoServer) => Ok(false),
        Err(CallError::Untrusted(why)) => Err(io::Error::new(io::ErrorKind::PermissionDenied, why)),
        Err(CallError::Failed(e)) => Err(e),
    }
}

/// Whether a server of this user listens at `socket` (connected and let go: no call made).
pub fn probe(socket: &Path) -> Result<(), CallError> {
    connect(socket, Instant::now() + Duration::from_secs(1)).map(drop)
}

fn exchange(socket: &Path, msg: &[u8], deadline: Instant) -> Result<Vec<u8>, CallError> {
    let stream = connect(socket, deadline)?;
    let mut timed = Timed::new(&stream, deadline);
    // a server that closed early (over its cap) is no reason to start another
    timed.write_all(msg).map_err(CallError::Failed)?;
    stream
        .shutdown(std::net::Shutdown::Write)
        .map_err(CallError::Failed)?;
    let mut response = Vec::with_capacity(4096);
    timed
        .take(2 * MAX_PAYLOAD_BYTES as u64)
        .read_to_end(&mut response)
        .map_err(CallError::Failed)?;
    Ok(response)
}

/// Connect to `socket` by `deadline`: the directory checked, a non-blocking connect (a full
/// backlog is an error at once, not a wait), then the server's user checked.
fn connect(socket: &Path, deadline: Instant) -> Result<UnixStream, CallError> {
    let dir = socket
        .parent()
        .ok_or_else(|| CallError::Failed(io::Error::other("the socket path has no directory")))?;
    fsperm::private_dir(dir, false)?;
    let addr = rustix::net::SocketAddrUnix::new(socket).map_err(io::Error::from)?;
    let stream = UnixStream::from(new_socket().map_err(io::Error::from)?);
    stream.set_nonblocking(true)?;
    match rustix::net::connect(&stream, &addr) {
        Ok(()) => {}
        Err(Errno::INPROGRESS | Errno::INTR) => {
            wait_writable(&stream, deadline)?;
            if let Err(e) = rustix::net::sockopt::socket_error(&stream).map_err(io::Error::from)? {
                return Err(io::Error::from(e).into());
            }
        }
        Err(Errno::AGAIN) => {
            return Err(CallError::Failed(io::Error::new(
                io::ErrorKind::WouldBlock,
                "the hook server is not accepting calls (its backlog is full)",
            )));
        }
        Err(e) => return Err(io::Error::from(e).into()),
    }
    stream.set_nonblocking(false)?;
    fsperm::check_peer(&stream)?;
    Ok(stream)
}

fn new_socket() -> rustix::io::Result<std::os::fd::OwnedFd> {
    use rustix::net::{AddressFamily, SocketType};
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let flags = rustix::net::SocketFlags::CLOEXEC;
        rustix::net::socket_with(AddressFamily::UNIX, SocketType::STREAM, flags, None)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        rustix::net::socket(AddressFamily::UNIX, SocketType::STREAM, None)
    }
}

fn wait_writable(fd: impl AsFd, deadline: Instant) -> io::Result<()> {
    loop {
        let ts = timespec(left(deadline)?);
        let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
        match poll(&mut fds, Some(&ts)) {
            Ok(0) => return Err(timed_out()),
            Ok(_) => return Ok(()),
            Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

fn timespec(d: Duration) -> Timespec {
    Timespec {
        tv_sec: d.as_secs() as i64,
        tv_nsec: i64::from(d.subsec_nanos()),
    }
}

/// Read a whole payload from `input` (the hook's stdin) by `deadline` (`None`: no limit),
/// waiting with `poll` rather than a watchdog thread: a client that only forwards its payload
/// to the server needs no thread at all. An agent that never closes the pipe is a time-out
/// error. At most [`MAX_PAYLOAD_BYTES`] + 1 bytes are read (the caller rejects the excess).
pub fn read_within(mut input: impl Read + AsFd, deadline: Option<Instant>) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(8192);
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            let mut fds = [PollFd::new(&input, PollFlags::IN)];
            match poll(&mut fds, Some(&timespec(left))) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the payload did not arrive in time",
                    ));
                }
                Ok(_) => {}
                Err(Errno::INTR) => continue,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;

    fn private_socket() -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        fsperm::private_dir(&dir, true).unwrap();
        (tmp, dir.join("s.sock"))
    }

    #[test]
    fn no_socket_is_no_server_and_a_full_backlog_fails_at_once() {
        let (_tmp, sock) = private_socket();
        let soon = Instant::now() + Duration::from_secs(5);
        assert!(matches!(connect(&sock, soon), Err(CallError::NoServer)));
        // a listener with a backlog of 0 that never accepts: the first connection fills it
        let fd = new_socket().unwrap();
        rustix::net::bind(&fd, &rustix::net::SocketAddrUnix::new(&sock).unwrap()).unwrap();
        rustix::net::listen(&fd, 0).unwrap();
        let mut held = Vec::new();
        let start = Instant::now();
        let mut failed = None;
        for _ in 0..8 {
            match connect(&sock, Instant::now() + Duration::from_secs(5)) {
                Ok(s) => held.push(s),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        assert!(
            matches!(failed, Some(CallError::Failed(ref e)) if e.kind() == io::ErrorKind::WouldBlock),
            "{failed:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn a_server_that_accepts_and_never_answers_costs_the_deadline() {
        let (_tmp, sock) = private_socket();
        let listener = UnixListener::bind(&sock).unwrap();
        let start = Instant::now();
        let env = HookEnv::default();
        let err = request(
            &sock,
            Agent::Claude,
            &env,
            b"{}",
            Duration::from_secs(8),
            start + Duration::from_millis(200),
        )
        .unwrap_err();
        assert!(
            matches!(err, CallError::Failed(ref e) if e.kind() == io::ErrorKind::TimedOut),
            "{err}"
        );
        drop(listener);
    }
}
