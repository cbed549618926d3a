//! Other ways received code runs, for [`download`](super::download): libraries a dynamic
//! loader is told to load (`LD_PRELOAD=FILE cmd`, `DYLD_INSERT_LIBRARIES`, `LD_AUDIT`, a
//! directory on `LD_LIBRARY_PATH`), and places whose files run later without anyone asking
//! (Git hooks, shell start-up files, cron, init and service directories, autostart entries —
//! the persistence targets of the effect model, plus `.git/hooks` and `/etc/profile.d`).

use riskgate_model::effect::{TargetClass, classify_path};
use riskgate_shell::SimpleCommand;

use super::raw;

/// Variables naming libraries loaded into every program started with them.
const PRELOAD_VARS: &[&str] = &["LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "LD_AUDIT"];

/// Variables naming directories searched for a program's libraries first.
const LIBRARY_PATH_VARS: &[&str] = &["LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"];

/// Where a loader is told to look: a library file, or a directory of libraries.
pub(super) struct Load<'a> {
    pub path: &'a str,
    pub dir: bool,
}

/// The libraries and library directories `c` makes the loader use: its own assignments
/// (`LD_PRELOAD=/tmp/x.so ls`) and the variables an `export` sets for what follows.
pub(super) fn loads(c: &SimpleCommand) -> Vec<Load<'_>> {
    let own = c
        .assignments
        .iter()
        .map(|(n, v)| (n.as_str(), v.text.as_str()));
    let exported = raw(c)
        .filter(|_| matches!(c.program.as_str(), "export" | "declare" | "typeset"))
        .filter_map(|t| t.split_once('='));
    let mut out = Vec::new();
    for (name, value) in own.chain(exported) {
        let dir = LIBRARY_PATH_VARS.contains(&name);
        if !dir && !PRELOAD_VARS.contains(&name) {
            continue;
        }
        for p in value
            .split([':', ' '])
            .filter(|p| !p.is_empty() && !p.contains('$'))
        {
            out.push(Load { path: p, dir });
        }
    }
    out
}

/// Whether a file written at `path` runs later by itself: a Git hook of a working tree,
/// a shell start-up file, a cron table, a service unit, an autostart entry.
pub(super) fn runs_later(path: &str) -> bool {
    let p = path.trim_end_matches('/');
    p.contains(".git/hooks/")
        || p.starts_with("/etc/profile.d/")
        || classify_path(p) == TargetClass::Persistence
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_that_run_files_later() {
        for p in [
            ".git/hooks/pre-commit",
            "/srv/app/.git/hooks/post-merge",
            "~/.bashrc",
            "~/.config/autostart/x.desktop",
            "~/.config/systemd/user/x.service",
            "/etc/profile.d/x.sh",
            "/etc/cron.d/x",
            "/etc/cron.hourly/h",
            "/etc/systemd/system/x.service",
        ] {
            assert!(runs_later(p), "{p}");
        }
        for p in [
            ".git/config",
            "scripts/pre-commit",
            "/tmp/h",
            "hooks/pre-commit",
            "~/.config/app.toml",
        ] {
            assert!(!runs_later(p), "{p}");
        }
    }

    #[test]
    fn loader_variables() {
        let p = riskgate_shell::parse("LD_PRELOAD=/tmp/a.so:/tmp/b.so LD_LIBRARY_PATH=/opt/l ls");
        let l = loads(&p.commands[0]);
        let got: Vec<(&str, bool)> = l.iter().map(|l| (l.path, l.dir)).collect();
        assert_eq!(
            got,
            [("/tmp/a.so", false), ("/tmp/b.so", false), ("/opt/l", true)]
        );
        let p = riskgate_shell::parse("export DYLD_INSERT_LIBRARIES=/tmp/x.dylib");
        assert_eq!(loads(&p.commands[0]).len(), 1);
        let p = riskgate_shell::parse("PATH=/opt/bin ls");
        assert!(loads(&p.commands[0]).is_empty());
    }
}
