//! Hook installs from the project: `cp scripts/pre-commit .git/hooks/`, `ln -s
//! ../../scripts/pre-commit .git/hooks/pre-commit`, `install -m 755 tools/pre-push
//! .git/hooks/` put a hook the repository ships into its own `.git/hooks` — the everyday
//! set-up step of many projects. A rule about hooks that fires only on such installs is
//! capped at MEDIUM. A source outside the project (an absolute path, `/tmp`, `~`, `..`
//! beyond the repository, a variable) is not an install from the project, and received code
//! written into a hook is rated by the download flow whatever path it took.

use riskgate_model::Finding;
use riskgate_shell::SimpleCommand;

/// Whether `c` copies or links only files of the project into the project's `.git/hooks`.
pub fn installs_project_hook(c: &SimpleCommand) -> bool {
    if !matches!(c.program.as_str(), "cp" | "ln" | "install") || !c.redirects.is_empty() {
        return false;
    }
    let words: Vec<&riskgate_shell::Word> = c.positionals().collect();
    if words.iter().any(|w| w.dynamic) {
        return false;
    }
    let target = c
        .flag_value("--target-directory")
        .or_else(|| value_after(c, "-t"));
    let ops: Vec<&str> = words
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| Some(*t) != target)
        .collect();
    let (dest, srcs) = match (target, ops.split_last()) {
        (Some(t), _) => (t, ops.as_slice()),
        (None, Some((last, rest))) => (*last, rest),
        (None, None) => return false,
    };
    let dest = dest.strip_prefix("./").unwrap_or(dest);
    if !(dest.starts_with(".git/hooks") || dest.starts_with("../.git/hooks")) || srcs.is_empty() {
        return false;
    }
    // `ln -s TARGET LINK` resolves TARGET from the link's directory (`../../x` is the
    // repository's `x`); a copy reads it from the working directory.
    let symbolic = c.program == "ln"
        && c.raw_argv.iter().skip(1).any(|w| {
            let t = w.text.as_str();
            t == "--symbolic" || (t.starts_with('-') && !t.starts_with("--") && t.contains('s'))
        });
    srcs.iter().all(|s| {
        let s = if symbolic {
            s.strip_prefix("../../").unwrap_or(s)
        } else {
            s
        };
        let s = s.strip_prefix("./").unwrap_or(s);
        !s.is_empty()
            && !s.starts_with(['/', '~', '$', '-'])
            && !s.contains("://")
            && !s.split('/').any(|seg| seg == "..")
    })
}

fn value_after<'a>(c: &'a SimpleCommand, opt: &str) -> Option<&'a str> {
    let raws: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
    let k = raws.iter().position(|t| *t == opt)?;
    raws.get(k + 1).copied()
}

/// Cap `f` at MEDIUM: the hook it installs is one the project ships.
pub fn cap_for_project_hook(f: &mut Finding) {
    crate::envscope::cap_at_medium(
        f,
        "the hook installed is one of the project's own files: at most MEDIUM; review it",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installs(cmd: &str) -> bool {
        riskgate_shell::parse(cmd)
            .commands
            .iter()
            .any(installs_project_hook)
    }

    #[test]
    fn project_hooks_and_others() {
        for ok in [
            "cp scripts/pre-commit .git/hooks/",
            "cp ./tools/hooks/pre-push .git/hooks/pre-push",
            "ln -s ../../scripts/pre-commit .git/hooks/pre-commit",
            "ln -sf ../../scripts/pre-commit .git/hooks/pre-commit",
            "install -m 755 hooks/commit-msg .git/hooks/",
            "cp -t .git/hooks hooks/pre-commit hooks/pre-push",
        ] {
            assert!(installs(ok), "{ok}");
        }
        for no in [
            "cp /tmp/h .git/hooks/pre-commit",
            "cp ~/Downloads/h .git/hooks/pre-commit",
            "ln -s /tmp/x .git/hooks/post-merge",
            "cp ../../other/h .git/hooks/pre-commit",
            "cp \"$HOOK\" .git/hooks/pre-commit",
            "cp scripts/pre-commit ~/.git-templates/hooks/",
            "cp scripts/pre-commit /srv/repo/.git/hooks/",
            "cp scripts/x.sh build/",
        ] {
            assert!(!installs(no), "{no}");
        }
    }
}
