//! Opening the SQLite databases of the state and data directories — the audit log
//! ([`crate::audit`]) and the approval queue ([`crate::queue`]) — one way: the directory made
//! private, the database and its companions private to the owner (0600), WAL, a busy
//! time-out, and the versioned schema steps, each applied once (in a write transaction that
//! reads the version again, so two processes upgrading at once apply a step once).
//!
//! The version is only ever written here, by the step that makes it: a schema text never sets
//! it. (The audit log's first version once did, and a process creating a fresh database next
//! to one that had already upgraded it set the version back to 1; the upgrade then failed on
//! every open, "duplicate column name". Steps are also written to be re-runnable — see
//! [`has_column`] — so a database left in that state heals.)

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// Why a database could not be opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// Its directory could not be made.
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// SQLite failed.
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for OpenError {
    fn from(e: rusqlite::Error) -> OpenError {
        OpenError::Sqlite(e)
    }
}

/// The database and its companions (`-wal`, `-shm`, `-journal`) readable by the owner only:
/// the database is created 0600 before SQLite opens it (SQLite gives its companions the
/// database's mode) and existing files are made 0600.
pub(crate) fn private_files(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path);
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = path.as_os_str().to_os_string();
            p.push(suffix);
            if let Ok(meta) = std::fs::metadata(&p)
                && meta.permissions().mode() & 0o077 != 0
            {
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// One schema step.
pub(crate) type Step = fn(&Connection) -> rusqlite::Result<()>;

/// Whether `table` has the column `column`.
pub(crate) fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |r| r.get::<_, String>(0))?;
    for n in names {
        if n? == column {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Open (creating if needed) the database at `path` and bring its schema to
/// `steps.len()`: step `i` (from 0) makes version `i + 1`.
pub(crate) fn open(path: &Path, busy: Duration, steps: &[Step]) -> Result<Connection, OpenError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::paths::ensure_private_dir(dir).map_err(|e| OpenError::Dir {
            path: dir.to_path_buf(),
            source: e,
        })?;
    }
    private_files(path);
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(busy)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version < 1 {
        conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))?;
    }
    for (i, run) in steps.iter().enumerate() {
        let v = i64::try_from(i + 1).unwrap_or(i64::MAX);
        if version < v {
            step(&conn, v, *run)?;
        }
    }
    private_files(path);
    Ok(conn)
}

/// Apply `run` as version `v`, unless another process did meanwhile.
fn step(conn: &Connection, v: i64, run: Step) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let done = (|| {
        let now: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now < v {
            run(conn)?;
            conn.pragma_update(None, "user_version", v)?;
        }
        Ok(())
    })();
    match done {
        Ok(()) => conn.execute_batch("COMMIT"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(c: &Connection) -> rusqlite::Result<()> {
        c.execute_batch("CREATE TABLE IF NOT EXISTS a (x INTEGER);")
    }

    fn two(c: &Connection) -> rusqlite::Result<()> {
        if !has_column(c, "a", "y")? {
            c.execute_batch("ALTER TABLE a ADD COLUMN y TEXT;")?;
        }
        Ok(())
    }

    fn broken(c: &Connection) -> rusqlite::Result<()> {
        c.execute_batch("NOT SQL")
    }

    fn version(c: &Connection) -> i64 {
        c.query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    }

    const BUSY: Duration = Duration::from_secs(2);

    #[test]
    fn steps_are_applied_once_in_order_and_the_files_are_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("x.db");
        let conn = open(&path, BUSY, &[one]).unwrap();
        conn.execute("INSERT INTO a (x) VALUES (1)", []).unwrap();
        drop(conn);
        // the next version adds its step only; opening again changes nothing
        for _ in 0..2 {
            let conn = open(&path, BUSY, &[one, two]).unwrap();
            assert_eq!(version(&conn), 2);
            let n: i64 = conn
                .query_row("SELECT count(*) FROM a WHERE y IS NULL", [], |r| r.get(0))
                .unwrap();
            assert_eq!(n, 1);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        // a step that fails leaves the version where it was
        assert!(matches!(
            open(&path, BUSY, &[one, two, broken]),
            Err(OpenError::Sqlite(_))
        ));
        assert_eq!(version(&open(&path, BUSY, &[one, two]).unwrap()), 2);
    }

    #[test]
    fn first_opens_racing_and_a_version_set_back_end_at_the_latest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("race.db");
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || open(&path, BUSY, &[one, two]).map(|_| ()))
            })
            .collect();
        for t in threads {
            assert!(matches!(t.join(), Ok(Ok(()))));
        }
        let conn = open(&path, BUSY, &[one, two]).unwrap();
        assert_eq!(version(&conn), 2);
        // a database whose version was set back under an applied step heals
        conn.pragma_update(None, "user_version", 1).unwrap();
        drop(conn);
        assert_eq!(version(&open(&path, BUSY, &[one, two]).unwrap()), 2);
    }
}
