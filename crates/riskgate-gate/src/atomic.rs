//! Safe updates of small JSON state files shared by concurrent processes.
//!
//! - [`FileLock`]: an exclusive lock on a *separate* lock file (`settings.json.lock`), never
//!   on the file that gets renamed over (locking the data file itself loses updates, because
//!   a rename replaces the locked inode). Acquired with `try_lock` and a bounded wait, so a
//!   stuck process cannot hang the gate.
//! - [`write_atomic`]: write a temporary file in the same directory, fsync it, keep the old
//!   file's permissions, rename it over the target. Readers see the old or the new file, never
//!   a partial one; after a crash the file is the old or the new one, never empty. (The
//!   directory is not fsynced: a crash right after the rename may lose that one update, a
//!   price worth a halved write time.)
//!
//! The read-modify-write cycle is: lock, re-read, merge, write, unlock (drop).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::StoreError;

/// How long [`FileLock::acquire`] waits by default.
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(5);

/// An exclusive lock, released on drop.
#[derive(Debug)]
pub struct FileLock {
    file: File,
    path: PathBuf,
}

impl FileLock {
    /// Lock `path` (created if missing), waiting at most `wait`.
    pub fn acquire(path: &Path, wait: Duration) -> Result<FileLock, StoreError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| StoreError::Io {
                what: "cannot open lock file",
                path: path.to_path_buf(),
                source: e,
            })?;
        let start = Instant::now();
        let mut pause = Duration::from_micros(200);
        loop {
            match file.try_lock() {
                Ok(()) => {
                    return Ok(FileLock {
                        file,
                        path: path.to_path_buf(),
                    });
                }
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() >= wait {
                        return Err(StoreError::LockTimeout {
                            path: path.to_path_buf(),
                            waited_ms: start.elapsed().as_millis() as u64,
                        });
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(2));
                }
                Err(TryLockError::Error(e)) => {
                    return Err(StoreError::Io {
                        what: "cannot lock",
                        path: path.to_path_buf(),
                        source: e,
                    });
                }
            }
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// The lock file for `path`: `path` + `.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".lock");
    PathBuf::from(s)
}

/// Replace `path` with `bytes` atomically (temp file in the same directory, fsync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let io = |what: &'static str| {
        let path = path.to_path_buf();
        move |e: std::io::Error| StoreError::Io {
            what,
            path,
            source: e,
        }
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".riskgate-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io("cannot create a temporary file for"))?;
    tmp.write_all(bytes).map_err(io("cannot write"))?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.as_file().sync_all().map_err(io("cannot sync"))?;
    tmp.persist(path)
        .map_err(|e| io("cannot replace")(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.json");
        std::fs::write(&p, b"old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644);
        }
        // no temporary files left behind
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn lock_times_out_while_held() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.lock");
        let held = FileLock::acquire(&p, DEFAULT_LOCK_WAIT).unwrap();
        let err = FileLock::acquire(&p, Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, StoreError::LockTimeout { .. }), "{err}");
        drop(held);
        assert!(FileLock::acquire(&p, Duration::from_millis(30)).is_ok());
    }
}
