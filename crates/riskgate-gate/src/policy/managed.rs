//! The managed layer: finding the system-wide policy file, and the rule that a lower layer
//! (user file, project file, environment, `--config`, command line) cannot change or unset a
//! value it sets. Each ignored value is a warning naming both files.

use std::path::{Path, PathBuf};

use super::{Source, Sourced};
use crate::error::PolicyError;

/// The names of the managed file in its directory.
pub(super) const MANAGED_FILES: [&str; 4] = [
    "managed.yaml",
    "managed.yml",
    "managed.toml",
    "managed.json",
];

/// The managed file at `location`: the file itself, or the one `managed.*` in the directory
/// (an error when there are several); `None` when there is none.
pub(super) fn find(location: &Path) -> Result<Option<PathBuf>, PolicyError> {
    if location.is_file() {
        return Ok(Some(location.to_path_buf()));
    }
    if location.is_dir() {
        return super::build::find_one(location, &MANAGED_FILES);
    }
    Ok(None)
}

/// The directory whose writes riskgate guards for the managed policy (the file's directory,
/// or the directory itself).
pub(super) fn guarded_dir(location: &Path) -> PathBuf {
    if location.is_file() {
        location
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| location.to_path_buf())
    } else {
        location.to_path_buf()
    }
}

/// Whether a value set by `src` must be ignored because the managed policy set `current`.
/// `shown` renders a value for the warning. The same value as the managed one is ignored
/// silently (the managed source stays), another one with a warning naming both files.
pub(super) fn pinned<T: PartialEq>(
    warnings: &mut Vec<String>,
    key: &str,
    current: &Sourced<T>,
    src: &Source,
    wanted: &T,
    shown: impl Fn(&T) -> String,
) -> bool {
    if !current.source.is_managed() || src.is_managed() {
        return false;
    }
    if *wanted != current.value {
        warnings.push(format!(
            "{src}: `{key}: {}` ignored: {} sets `{key}: {}`, and no other layer can change it",
            shown(wanted),
            current.source,
            shown(&current.value)
        ));
    }
    true
}
