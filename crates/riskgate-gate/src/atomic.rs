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
//! - [`sweep_stale_temp_files`]: a process killed between creating its temporary file and the
//!   rename leaves `.riskgate-*.tmp` behind; the gate removes those older than a minute when it
//!   starts.
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
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
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

/// Prefix and suffix of [`write_atomic`]'s temporary files.
const TEMP_PREFIX: &str = ".riskgate-";
const TEMP_SUFFIX: &str = ".tmp";

/// Temporary files younger than this may belong to a write in progress.
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// Remove `.riskgate-*.tmp` files older than [`STALE_TEMP_AGE`] from `dir`: left behind by a
/// process killed in the middle of [`write_atomic`]. Returns how many were removed. Errors are
/// ignored (a missing directory, a file another process removed first).
pub fn sweep_stale_temp_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let stale = e
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_TEMP_AGE);
        if stale && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
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
