//! Who may be trusted around the hook server: the socket's directory (created 0700, refused
//! when it is a symbolic link, belongs to someone else or is writable by others), the lock
//! file (opened in that directory without following a link, 0600, a plain file of ours with
//! one name), and the process at the other end of a connection (the same user, by
//! `SO_PEERCRED` where the system has it).
//!
//! The directory checks keep another local user from planting a socket that answers `allow`;
//! the peer check closes the race in which the directory is swapped between the check and the
//! connect. On Unix systems without `SO_PEERCRED` (macOS, the BSDs: rustix offers no
//! `getpeereid`) the directory checks are the guard, and the socket itself is 0600.

use std::fs::{self, File};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::Path;

use rustix::fs::{Mode, OFlags};

/// An error that means "not safe to use": the caller decides alone and says why.
fn unsafe_err(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, what)
}

/// This process's effective user.
fn me() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The socket directory `dir`, opened (so that later checks and opens are relative to what
/// was checked), after checking that it is a real directory (not a symbolic link), owned by
/// this user, not writable by group or others, and that its parent is not world-writable
/// without the sticky bit (where anyone could rename it away and put another in its place).
/// With `create`, a missing directory is made with mode 0700 (its missing parents too).
/// A missing directory without `create` is [`io::ErrorKind::NotFound`]; an unsafe one is
/// [`io::ErrorKind::PermissionDenied`] with the reason.
pub(crate) fn private_dir(dir: &Path, create: bool) -> io::Result<OwnedFd> {
    if create {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(dir, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) | Err(rustix::io::Errno::NOTDIR) => {
            return Err(unsafe_err(format!(
                "{} is a symbolic link or not a directory",
                dir.display()
            )));
        }
        Err(e) => return Err(e.into()),
    };
    let meta = File::from(fd.as_fd().try_clone_to_owned()?).metadata()?;
    if meta.uid() != me() {
        return Err(unsafe_err(format!(
            "{} belongs to user {}, not to this user ({})",
            dir.display(),
            meta.uid(),
            me()
        )));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(unsafe_err(format!(
            "{} is writable by group or others (mode {:o})",
            dir.display(),
            meta.mode() & 0o7777
        )));
    }
    if let Some(parent) = dir.parent()
        && let Ok(p) = fs::metadata(parent)
        && p.mode() & 0o002 != 0
        && p.mode() & 0o1000 == 0
    {
        return Err(unsafe_err(format!(
            "{} is writable by anyone without the sticky bit",
            parent.display()
        )));
    }
    Ok(fd)
}

/// Open (or create) the lock file `name` in the checked directory `dir` for reading and
/// writing: never through a symbolic link, created 0600, and refused unless it is a plain
/// file of this user's with a single name (a hard link to another file would let truncating
/// the lock truncate that file).
pub(crate) fn open_lock(dir: &OwnedFd, name: &Path) -> io::Result<File> {
    let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(dir, name, flags, Mode::from_raw_mode(0o600)) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) => {
            return Err(unsafe_err(format!(
                "the lock {} is a symbolic link",
                name.display()
            )));
        }
        Err(e) => return Err(e.into()),
    };
    let file = File::from(fd);
    let meta = file.metadata()?;
    if !meta.file_type().is_file() || meta.uid() != me() || meta.nlink() != 1 {
        return Err(unsafe_err(format!(
            "the lock {} is not a plain file of this user's with one name",
            name.display()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        rustix::fs::fchmod(&file, Mode::from_raw_mode(0o600))?;
    }
    Ok(file)
}

/// Whether the process at the other end of the Unix socket `s` runs as this user. Where the
/// system cannot tell (no `SO_PEERCRED`), true: the private directory is the guard there.
pub(crate) fn peer_is_me(s: impl AsFd) -> io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let cred = rustix::net::sockopt::socket_peercred(s)?;
        Ok(cred.uid.as_raw() == me())
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = s;
        Ok(true)
    }
}

/// [`peer_is_me`] as an error: [`io::ErrorKind::PermissionDenied`] for another user.
pub(crate) fn check_peer(s: impl AsFd) -> io::Result<()> {
    if peer_is_me(s)? {
        Ok(())
    } else {
        Err(unsafe_err(
            "the process at the other end of the hook server's socket is another user's".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn a_private_directory_is_created_0700_and_accepted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b/riskgate");
        private_dir(&dir, true).unwrap();
        assert_eq!(mode(&dir), 0o700);
        // missing without create: not found, not unsafe
        let missing = tmp.path().join("none");
        assert_eq!(
            private_dir(&missing, false).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn writable_by_others_or_linked_directories_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        for m in [0o777, 0o770, 0o702] {
            let dir = tmp.path().join(format!("d{m:o}"));
            fs::create_dir(&dir).unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(m)).unwrap();
            let err = private_dir(&dir, true).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{m:o}");
            assert!(err.to_string().contains("writable"), "{err}");
        }
        let real = tmp.path().join("real");
        private_dir(&real, true).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let err = private_dir(&link, true).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert!(err.to_string().contains("symbolic link"), "{err}");
        // a world-writable parent without the sticky bit
        let open = tmp.path().join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let inner = open.join("riskgate");
        assert_eq!(
            private_dir(&inner, true).unwrap_err().kind(),
            io::ErrorKind::PermissionDenied
        );
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).unwrap();
        private_dir(&inner, true).unwrap();
    }

    #[test]
    fn the_lock_is_0600_and_never_followed_or_shared() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        let fd = private_dir(&dir, true).unwrap();
        open_lock(&fd, Path::new("x.lock")).unwrap();
        assert_eq!(mode(&dir.join("x.lock")), 0o600);

        let target = tmp.path().join("precious");
        fs::write(&target, "keep me").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("s.lock")).unwrap();
        let err = open_lock(&fd, Path::new("s.lock")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
        fs::hard_link(&target, dir.join("h.lock")).unwrap();
        let err = open_lock(&fd, Path::new("h.lock")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
    }

    #[test]
    fn a_peer_of_this_user_is_accepted() {
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        assert!(peer_is_me(&a).unwrap());
        check_peer(&a).unwrap();
    }
}
