//! Where riskgate keeps its files: the user configuration directory, the state directory
//! (settings.json, the session cache) and the data directory (the audit database), after the
//! XDG base directory conventions, and `~` / `$HOME` expansion for paths and globs.
//!
//! | what | environment override | XDG variable | fallback |
//! |---|---|---|---|
//! | configuration | `RISKGATE_CONFIG_DIR` | `$XDG_CONFIG_HOME/riskgate` | `~/.config/riskgate` |
//! | state | `RISKGATE_STATE_DIR` | `$XDG_STATE_HOME/riskgate` | `~/.local/state/riskgate` |
//! | data | `RISKGATE_DATA_DIR` | `$XDG_DATA_HOME/riskgate` | `~/.local/share/riskgate` |
//!
//! Empty or relative XDG variables are ignored, as the specification says.

use std::env;
use std::path::{Path, PathBuf};

/// Environment variable that replaces the user configuration directory.
pub const ENV_CONFIG_DIR: &str = "RISKGATE_CONFIG_DIR";
/// Environment variable that replaces the state directory.
pub const ENV_STATE_DIR: &str = "RISKGATE_STATE_DIR";
/// Environment variable that replaces the data directory.
pub const ENV_DATA_DIR: &str = "RISKGATE_DATA_DIR";

/// Environment variable that moves the managed policy (a `managed.*` file, or the directory
/// holding one). For tests and for machines where the system directory cannot be written;
/// its value is shown by `riskgate config show`.
pub const ENV_MANAGED: &str = "RISKGATE_MANAGED_POLICY";

/// The system directory of the managed policy: `/etc/riskgate` (Linux and other Unix),
/// `/Library/Application Support/riskgate` (macOS), `%ProgramData%\riskgate` (Windows).
pub fn default_managed_dir() -> PathBuf {
    #[cfg(target_os = "macos")]
    {
        PathBuf::from("/Library/Application Support/riskgate")
    }
    #[cfg(windows)]
    {
        env::var_os("ProgramData")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(r"C:\ProgramData"))
            .join("riskgate")
    }
    #[cfg(not(any(target_os = "macos", windows)))]
    {
        PathBuf::from("/etc/riskgate")
    }
}

/// Where the managed policy is looked for: `RISKGATE_MANAGED_POLICY` if set, else
/// [`default_managed_dir`].
pub fn managed_location() -> PathBuf {
    env_dir(ENV_MANAGED).unwrap_or_else(default_managed_dir)
}

/// The user's home directory (`$HOME`), when set and non-empty.
pub fn home_dir() -> Option<PathBuf> {
    env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

fn env_dir(name: &str) -> Option<PathBuf> {
    env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(|v| expand_home(&v.to_string_lossy()))
}

fn xdg_dir(var: &str, fallback: &[&str]) -> PathBuf {
    let from_var = env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = from_var.unwrap_or_else(|| {
        let mut p = home_dir().unwrap_or_else(env::temp_dir);
        for part in fallback {
            p.push(part);
        }
        p
    });
    base.join("riskgate")
}

/// The value of `RISKGATE_CONFIG_DIR`, if set.
pub fn config_dir_from_env() -> Option<PathBuf> {
    env_dir(ENV_CONFIG_DIR)
}

/// The value of `RISKGATE_STATE_DIR`, if set.
pub fn state_dir_from_env() -> Option<PathBuf> {
    env_dir(ENV_STATE_DIR)
}

/// The value of `RISKGATE_DATA_DIR`, if set.
pub fn data_dir_from_env() -> Option<PathBuf> {
    env_dir(ENV_DATA_DIR)
}

/// The user configuration directory: `RISKGATE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/riskgate`,
/// else `~/.config/riskgate`.
pub fn config_dir() -> PathBuf {
    config_dir_from_env().unwrap_or_else(|| xdg_dir("XDG_CONFIG_HOME", &[".config"]))
}

/// The default state directory (before configuration): `$XDG_STATE_HOME/riskgate`, else
/// `~/.local/state/riskgate`. `RISKGATE_STATE_DIR` is applied by the policy as its own layer.
pub fn default_state_dir() -> PathBuf {
    xdg_dir("XDG_STATE_HOME", &[".local", "state"])
}

/// The default data directory (before configuration): `$XDG_DATA_HOME/riskgate`, else
/// `~/.local/share/riskgate`. `RISKGATE_DATA_DIR` is applied by the policy as its own layer.
pub fn default_data_dir() -> PathBuf {
    xdg_dir("XDG_DATA_HOME", &[".local", "share"])
}

/// Expand a leading `~`, `~/`, `$HOME` or `${HOME}` to the home directory. Other text is kept.
pub fn expand_home(text: &str) -> PathBuf {
    PathBuf::from(expand_home_str(text))
}

/// [`expand_home`] on a string (used for globs, which stay strings).
pub fn expand_home_str(text: &str) -> String {
    let Some(home) = home_dir() else {
        return text.to_string();
    };
    let home = home.to_string_lossy();
    let home = home.trim_end_matches('/');
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(rest) = text.strip_prefix(prefix)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return format!("{home}{rest}");
        }
    }
    text.to_string()
}

/// Make `path` absolute against `base` (no file system access, `.` and `..` resolved lexically).
pub fn absolutize(path: &Path, base: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    let mut out = PathBuf::new();
    for comp in joined.components() {
        match comp {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Create `dir` (and its parents) readable by the owner only (0700 on Unix) if it is missing.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolutize_resolves_dots() {
        let p = absolutize(Path::new("a/../b/./c"), Path::new("/repo"));
        assert_eq!(p, PathBuf::from("/repo/b/c"));
        let p = absolutize(Path::new("/x/../../etc"), Path::new("/repo"));
        assert_eq!(p, PathBuf::from("/etc"));
    }

    #[test]
    fn expand_home_only_at_start() {
        if let Some(home) = home_dir() {
            let home = home.to_string_lossy().trim_end_matches('/').to_string();
            assert_eq!(expand_home_str("~/.ssh/**"), format!("{home}/.ssh/**"));
            assert_eq!(expand_home_str("$HOME/x"), format!("{home}/x"));
            assert_eq!(expand_home_str("${HOME}"), home);
        }
        assert_eq!(expand_home_str("/a/~/b"), "/a/~/b");
        assert_eq!(expand_home_str("~user/x"), "~user/x");
    }
}
