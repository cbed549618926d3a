//! The program word, rewritten before unwrapping the way bash would expand it when the
//! expansion is knowable: a brace list (`{rm,-rf,~}` → `rm -rf ~`), word splitting on an
//! unset `IFS` (`rm${IFS}-rf${IFS}$HOME` → `rm -rf ~`: IFS defaults to blank), and the user's
//! shell (`$SHELL`, `${BASH}` → `sh`, so `curl … | $SHELL` is a download run by a shell).

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
}
