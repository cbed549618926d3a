//! Reading and writing a Unix stream under one deadline: every read or write is given what is
//! left of the time until the deadline (the socket's own timeouts, re-armed before each call),
//! so a peer that trickles bytes cannot stretch a call past it. A passed deadline is
//! [`io::ErrorKind::TimedOut`].

use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// What is left until `deadline`; an error once it has passed.
pub(crate) fn left(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(timed_out())
    } else {
        Ok(left)
    }
}

pub(crate) fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "the hook server's deadline passed")
}

/// A stream whose reads and writes end by `deadline`.
pub(crate) struct Timed<'a> {
    stream: &'a UnixStream,
    deadline: Instant,
}

impl<'a> Timed<'a> {
    pub(crate) fn new(stream: &'a UnixStream, deadline: Instant) -> Timed<'a> {
        Timed { stream, deadline }
    }
}

/// A socket time-out surfaces as `WouldBlock` (`EAGAIN`) on Unix.
fn map_timeout(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::WouldBlock {
        timed_out()
    } else {
        e
    }
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(left(self.deadline)?))?;
        (&mut &*self.stream).read(buf).map_err(map_timeout)
    }
}

impl Write for Timed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(left(self.deadline)?))?;
        (&mut &*self.stream).write(buf).map_err(map_timeout)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_peer_times_out_by_the_deadline() {
        let (a, _b) = UnixStream::pair().unwrap();
        let start = Instant::now();
        let mut t = Timed::new(&a, start + Duration::from_millis(100));
        let err = t.read(&mut [0u8; 8]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        // a passed deadline fails at once, without a system call that could block
        let err = t.read(&mut [0u8; 8]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }

    #[test]
    fn a_peer_that_never_reads_times_the_writer_out() {
        let (a, _b) = UnixStream::pair().unwrap();
        let mut t = Timed::new(&a, Instant::now() + Duration::from_millis(100));
        let big = vec![0u8; 8 << 20];
        let err = t.write_all(&big).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }
}
