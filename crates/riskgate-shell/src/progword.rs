//! The program word, rewritten before unwrapping the way bash would expand it when the
//! expansion is knowable: a brace list (`{rm,-rf,~}` → `rm -rf ~`), word splitting on an
//! unset `IFS` (`rm${IFS}-rf${IFS}$HOME` → `rm -rf ~`: IFS defaults to blank), and the user's
//! shell (`$SHELL`, `${BASH}` → `sh`, so `curl … | $SHELL` is a download run by a shell), and
//! a program name that is a glob (`/bin/r[m]`, `/???/?m`): bash runs whatever file matches, so
//! the pattern is resolved against the programs riskgate knows, the most dangerous first.

use crate::ctx::XWord;

/// Most words a brace list may become.
const MAX_BRACE_WORDS: usize = 64;

/// Rewrite `argv[0]` in place when it expands to several words or to a known shell.
pub(crate) fn normalize(argv: &mut Vec<XWord>) {
    let Some(first) = argv.first() else {
        return;
    };
    let text = first.w.text.clone();
    if matches!(
        text.as_str(),
        "$SHELL" | "${SHELL}" | "$BASH" | "${BASH}" | "$0" | "${0}"
    ) {
        if let Some(w) = argv.first_mut() {
            w.w.text = "sh".to_string();
            w.w.dynamic = false;
        }
        return;
    }
    if let Some(name) = glob_program(&text) {
        if let Some(w) = argv.first_mut() {
            w.w.text = name.to_string();
        }
        return;
    }
    let parts: Vec<String> = if let Some(inner) = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .filter(|t| t.contains(',') && !t.contains(['{', '}', ' ', '"', '\'']))
    {
        inner.split(',').map(str::to_string).collect()
    } else if text.contains("${IFS}") || text.contains("$IFS") {
        text.replace("${IFS}", "\u{0}")
            .replace("$IFS", "\u{0}")
            .split('\u{0}')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    } else {
        return;
    };
    if parts.len() < 2 || parts.len() > MAX_BRACE_WORDS {
        return;
    }
    let feed = first.feed;
    let words = parts.into_iter().map(|t| {
        let mut x = XWord::lit(&t);
        x.w.dynamic = t.contains('$') || t.contains('`');
        x.feed = feed;
        x
    });
    argv.splice(0..1, words);
}

/// Programs tried first when a program name is a glob: those whose misuse is worst.
const GLOB_FIRST: &[&str] = &[
    "rm",
    "shred",
    "dd",
    "mkfs",
    "wipefs",
    "truncate",
    "chmod",
    "chown",
    "kill",
    "pkill",
    "killall",
    "curl",
    "wget",
    "sh",
    "bash",
    "nc",
    "python3",
    "python",
    "perl",
    "sudo",
    "su",
    "mv",
    "find",
    "xargs",
    "crontab",
    "iptables",
    "systemctl",
    "reboot",
    "shutdown",
];

/// The program a globbed program word (`/bin/r[m]`, `/???/?m`, `/usr/bin/c?rl`) stands for:
/// the first known program whose name its last component matches.
fn glob_program(text: &str) -> Option<&'static str> {
    if text.contains(['$', '`']) {
        return None;
    }
    let base = text.rsplit('/').next().unwrap_or(text);
    if base.is_empty() || !base.contains(['*', '?', '[']) {
        return None;
    }
    let matches = |name: &str| crate::globs::glob_match(base.as_bytes(), name.as_bytes());
    GLOB_FIRST.iter().copied().find(|n| matches(n)).or_else(|| {
        crate::aliases::SPECS
            .iter()
            .flat_map(|(programs, _, _)| programs.split('|'))
            .find(|n| matches(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(words: &[&str]) -> Vec<String> {
        let mut v: Vec<XWord> = words.iter().map(|w| XWord::lit(w)).collect();
        normalize(&mut v);
        v.into_iter().map(|x| x.w.text).collect()
    }

    #[test]
    fn expands_what_bash_would() {
        assert_eq!(norm(&["{rm,-rf,~}"]), ["rm", "-rf", "~"]);
        assert_eq!(norm(&["rm${IFS}-rf${IFS}~"]), ["rm", "-rf", "~"]);
        assert_eq!(norm(&["$SHELL", "-c", "x"]), ["sh", "-c", "x"]);
        assert_eq!(norm(&["ls", "{a,b}"]), ["ls", "{a,b}"]);
        assert_eq!(norm(&["{}"]), ["{}"]);
        assert_eq!(norm(&["echo"]), ["echo"]);
    }

    #[test]
    fn a_globbed_program_name_is_the_program_it_matches() {
        assert_eq!(norm(&["/bin/r[m]", "-rf", "~"]), ["rm", "-rf", "~"]);
        assert_eq!(norm(&["/???/?m", "-rf", "/home"]), ["rm", "-rf", "/home"]);
        assert_eq!(norm(&["/usr/bin/c?rl"]), ["curl"]);
        assert_eq!(norm(&["/usr/bin/wg*"]), ["wget"]);
        // not globs, or nothing known matches: unchanged
        assert_eq!(norm(&["./build.sh"]), ["./build.sh"]);
        assert_eq!(norm(&["zq[x]"]), ["zq[x]"]);
        assert_eq!(norm(&["$x*"]), ["$x*"]);
    }
}
