//! Which branch a push of "the current branch" rewrites, from what the script did before it.
//! After `git rebase origin/main` (or `git pull --rebase`) the checked-out branch holds the
//! remote branch's history: a lease push of HEAD either rewrites a topic branch or
//! fast-forwards the branch it was rebased onto, never rewrites it. After `git checkout -b
//! NAME` / `git switch -c NAME` the current branch is NAME. A rule about pushing the current
//! branch (tagged `current-branch`) is capped at MEDIUM when an earlier command of the same
//! script says so, and the branch it names is not a protected one.

use riskgate_model::Finding;
use riskgate_shell::SimpleCommand;

/// Branch names whose history others build on.
const PROTECTED: &[&str] = &[
    "main",
    "master",
    "trunk",
    "develop",
    "dev",
    "release",
    "production",
    "prod",
    "staging",
];

/// Whether, before command `index`, the script put a topic branch in place of "the current
/// branch": created and switched to a branch whose name is no protected one, or rebased the
/// checked-out branch onto a remote's branch.
pub(crate) fn head_is_topic_branch(commands: &[SimpleCommand], index: usize) -> bool {
    let mut topic = false;
    for c in commands.iter().take(index) {
        if c.program != "git" || c.remote.is_some() {
            continue;
        }
        let words: Vec<&str> = c.args.iter().map(|w| w.text.as_str()).collect();
        let Some((sub, rest)) = words.split_first() else {
            continue;
        };
        match *sub {
            // `git checkout -b NAME`, `git switch -c NAME`: the current branch is NAME
            "checkout" | "switch" => {
                // canonical: `-b=NAME`, `--create=NAME` (or the name as the next word)
                let created = rest.iter().enumerate().find_map(|(k, w)| {
                    let (flag, value) = w.split_once('=').unwrap_or((w, ""));
                    if !matches!(
                        flag,
                        "-b" | "-B" | "-c" | "-C" | "--create" | "--force-create"
                    ) {
                        return None;
                    }
                    if value.is_empty() {
                        rest.get(k + 1).copied()
                    } else {
                        Some(value)
                    }
                });
                match created {
                    Some(name) => topic = !is_protected(name),
                    // switching to an existing branch: which one is it?
                    None => {
                        if let Some(name) = rest.iter().find(|w| !w.starts_with('-')) {
                            topic = !is_protected(name);
                        }
                    }
                }
            }
            // rebased onto a remote's branch: HEAD now contains it (the remote's branch itself,
            // `origin/main`, not commits before it, `origin/main~3`, which rewrites pushed
            // history)
            "rebase"
                if rest.iter().any(|w| {
                    !w.starts_with('-')
                        && w.contains('/')
                        && !w.contains(['~', '^'])
                        && !w.contains("..")
                }) =>
            {
                topic = true;
            }
            "pull"
                if rest
                    .iter()
                    .any(|w| matches!(*w, "--rebase" | "-r") || w.starts_with("--rebase=")) =>
            {
                topic = true;
            }
            _ => {}
        }
    }
    topic
}

fn is_protected(name: &str) -> bool {
    let n = name.trim_start_matches("origin/").to_ascii_lowercase();
    PROTECTED.contains(&n.as_str()) || n.starts_with("release/") || n.starts_with("release-")
}

/// Cap `f` at MEDIUM: every push of the current branch it matched comes after the script put
/// a topic branch there.
pub(crate) fn cap_for_topic_branch(f: &mut Finding) {
    crate::envscope::cap_at_medium(
        f,
        "the current branch was just rebased onto the remote's or created as a topic branch: the push rewrites only that branch",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(script: &str) -> bool {
        let parsed = riskgate_shell::parse(script);
        let push = parsed
            .commands
            .iter()
            .rposition(|c| c.args.first().is_some_and(|w| w.text == "push"))
            .unwrap_or(0);
        head_is_topic_branch(&parsed.commands, push)
    }

    #[test]
    fn current_branch_from_the_script() {
        assert!(topic(
            "git fetch origin\ngit rebase origin/main\ngit push --force-with-lease origin HEAD"
        ));
        assert!(topic(
            "git pull --rebase origin main && git push --force-with-lease"
        ));
        assert!(topic(
            "git checkout -b fix-login\ngit commit -am x\ngit push --force-with-lease origin HEAD"
        ));
        assert!(!topic("git push --force-with-lease origin HEAD"));
        assert!(!topic(
            "git checkout main\ngit push --force-with-lease origin HEAD"
        ));
        assert!(!topic(
            "git rebase origin/main\ngit checkout main\ngit push --force-with-lease"
        ));
        assert!(!topic(
            "git switch -c release/2.0\ngit push --force-with-lease origin HEAD"
        ));
        assert!(!topic(
            "git rebase -i origin/main~3\ngit push --force-with-lease origin HEAD"
        ));
    }
}
