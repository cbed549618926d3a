//! The shape of a corpus command, as far as the wrappers of `table.rs` care: is it one simple
//! command, does it start with assignments or a shell builtin, does it hold a heredoc or a
//! newline, are its paths all absolute. A small quote-aware scanner, deliberately independent of
//! the normalizer under test (it only decides which wrappers keep the command's meaning).

/// Bash builtins with no program of the same name on a normal system: under `sudo`, `nice`,
/// `xargs` … they do not exist (`sudo cd /srv` fails: "sudo: cd: command not found").
const BUILTINS: &[&str] = &[
    "cd",
    "set",
    "unset",
    "export",
    "eval",
    "source",
    ".",
    "alias",
    "unalias",
    "declare",
    "typeset",
    "local",
    "readonly",
    "shopt",
    "history",
    "exec",
    "trap",
    "ulimit",
    "umask",
    "builtin",
    "command",
    "enable",
    "hash",
    "read",
    "wait",
    "jobs",
    "fg",
    "bg",
    "disown",
    "suspend",
    "logout",
    "exit",
    "return",
    "shift",
    "break",
    "continue",
    "let",
    "mapfile",
    "readarray",
    "complete",
    "compgen",
    "dirs",
    "pushd",
    "popd",
    "fc",
    "getopts",
    "caller",
    "times",
    ":",
];

/// Reserved words and openers: a command starting with one is not a simple command.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "select", "function", "time", "coproc", "{", "}", "!", "[[", "((",
];

/// What the wrappers need to know about one command.
#[derive(Debug, Clone, Default)]
pub struct Shape {
    /// One simple command: no top-level `;`, `&`, `|`, `(`, `)` or newline, no keyword first.
    pub simple: bool,
    /// Starts with `VAR=value` assignments.
    pub assigns: bool,
    /// The program (after assignments) is a shell builtin or keyword.
    pub builtin: bool,
    /// Holds a newline (a heredoc, a multi-line script, a backslash continuation).
    pub multiline: bool,
    /// Holds a heredoc (`<<`, not `<<<`).
    pub heredoc: bool,
    /// Ends with `;` or `&` (nothing may be appended on the same line).
    pub open_end: bool,
    /// Holds a top-level `# comment`.
    pub comment: bool,
    /// Has at least one absolute path and no word that is a relative path (`./x`, `a/b`, `.`,
    /// a glob, `of=disk.img`-style values with a slash): a `cd` before it changes nothing.
    pub absolute_only: bool,
    /// Only plain words (letters, digits, `_./:=@%+,-`) separated by spaces: `env -S` splits
    /// it the same way bash does.
    pub plain_words: bool,
    /// Holds a `case` command (its patterns end in an unbalanced `)`).
    pub case_command: bool,
    /// Holds a `{}` or a lone `;`/`+` word (find -exec would take them as its own).
    pub find_markers: bool,
}

/// Top-level words of `cmd` (quotes kept) and whether an operator was met.
struct Scan {
    words: Vec<String>,
    ops: bool,
    comment: bool,
    heredoc: bool,
}

/// Consume a balanced `(`…`)` or `{`…`}` starting at `chars[i]` (the opener), honouring quotes.
fn balanced(chars: &[char], mut i: usize, open: char, close: char, out: &mut String) -> usize {
    let mut depth = 0usize;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        match c {
            '\\' => {
                if let Some(&n) = chars.get(i + 1) {
                    out.push(n);
                    i += 1;
                }
            }
            '\'' => {
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    out.push(chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    out.push('\'');
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        out.push('\\');
                        i += 1;
                    }
                    out.push(chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    out.push('"');
                }
            }
            c if c == open => depth += 1,
            c if c == close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

fn scan(cmd: &str) -> Scan {
    let chars: Vec<char> = cmd.chars().collect();
    let mut s = Scan {
        words: Vec::new(),
        ops: false,
        comment: false,
        heredoc: false,
    };
    let mut word = String::new();
    let mut i = 0usize;
    let flush = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            ' ' | '\t' => flush(&mut word, &mut s.words),
            '\n' => {
                s.ops = true;
                flush(&mut word, &mut s.words);
            }
            '\\' => {
                word.push(c);
                if let Some(n) = next {
                    if n == '\n' {
                        s.ops = true;
                    }
                    word.push(n);
                    i += 1;
                }
            }
            '\'' => {
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('\'');
            }
            '"' => {
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        word.push('\\');
                        i += 1;
                    } else if chars[i] == '$' && chars.get(i + 1) == Some(&'(') {
                        i = balanced(&chars, i + 1, '(', ')', &mut word);
                        continue;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('"');
            }
            '`' => {
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '`' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        word.push('\\');
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('`');
            }
            '$' | '<' | '>' if next == Some('(') => {
                word.push(c);
                i = balanced(&chars, i + 1, '(', ')', &mut word);
                continue;
            }
            '$' if next == Some('{') => {
                word.push(c);
                i = balanced(&chars, i + 1, '{', '}', &mut word);
                continue;
            }
            '#' if word.is_empty() => {
                s.comment = true;
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '<' if next == Some('<') && chars.get(i + 2) != Some(&'<') => {
                s.heredoc = true;
                word.push(c);
            }
            '&' if word.ends_with('>') || next == Some('>') => word.push(c),
            '|' if word.ends_with('>') => word.push(c),
            ';' | '&' | '|' | '(' | ')' => {
                s.ops = true;
                flush(&mut word, &mut s.words);
            }
            _ => word.push(c),
        }
        i += 1;
    }
    flush(&mut word, &mut s.words);
    s
}

fn is_assignment(w: &str) -> bool {
    let Some(eq) = w.find('=') else { return false };
    let name = w[..eq].trim_end_matches('+');
    let name = name.split('[').next().unwrap_or("");
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn unquote(w: &str) -> String {
    w.chars().filter(|&c| c != '\'' && c != '"').collect()
}

/// A word that names a path relative to the working directory.
fn relative(w: &str) -> bool {
    let v = unquote(w);
    // The value of `key=value` (dd's `of=`) and of `--opt=value`.
    let v = match v.split_once('=') {
        Some((_, val)) if !v.starts_with('=') => val.to_string(),
        _ => v,
    };
    let v = v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '<' || c == '>' || c == '&');
    if v.is_empty() || v.starts_with('-') {
        return false;
    }
    if v.starts_with('/') || v.starts_with('~') || v.starts_with('$') || v.starts_with('`') {
        return false;
    }
    if v.contains("://") || v.contains('@') {
        return false;
    }
    if let Some(colon) = v.find(':')
        && v.find('/').is_none_or(|s| colon < s)
    {
        return false; // host:path, scp/rsync remotes, user:group, s3: …
    }
    v == "."
        || v == ".."
        || v.contains('/')
        || v.contains('*')
        || v.contains('?')
        || (v.contains('[') && v.contains(']'))
}

fn absolute(w: &str) -> bool {
    let v = unquote(w);
    let v = match v.split_once('=') {
        Some((_, val)) => val.to_string(),
        None => v,
    };
    let v = v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '<' || c == '>' || c == '&');
    v.starts_with('/') && v.len() > 1 || v == "/"
}

impl Shape {
    pub fn of(cmd: &str) -> Shape {
        let s = scan(cmd);
        let mut words = s.words.iter().map(String::as_str).peekable();
        let mut assigns = false;
        while words.peek().is_some_and(|w| is_assignment(w)) {
            assigns = true;
            words.next();
        }
        let program = words.next().unwrap_or("");
        let first = s.words.first().map(String::as_str).unwrap_or("");
        let keyword = KEYWORDS.contains(&first) || first.starts_with("((");
        let builtin = BUILTINS.contains(&program) || KEYWORDS.contains(&program);
        let trimmed = cmd.trim_end();
        let rest: Vec<&str> = s.words.iter().skip(1).map(String::as_str).collect();
        let plain = |w: &str| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+,-".contains(c))
        };
        Shape {
            simple: !s.ops && !keyword && !s.heredoc && !program.is_empty(),
            assigns,
            builtin,
            multiline: cmd.contains('\n'),
            heredoc: s.heredoc,
            open_end: trimmed.ends_with(';') || trimmed.ends_with('&'),
            comment: s.comment,
            absolute_only: rest.iter().any(|w| absolute(w)) && !rest.iter().any(|w| relative(w)),
            plain_words: !s.ops && !s.comment && !assigns && s.words.iter().all(|w| plain(w)),
            case_command: cmd
                .split(|c: char| c.is_whitespace() || c == ';' || c == '(')
                .any(|w| w == "case"),
            find_markers: s
                .words
                .iter()
                .any(|w| w.contains("{}") || matches!(w.as_str(), ";" | "\\;" | "';'" | "+")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn shapes() {
        let s = Shape::of("sudo AWS_PROFILE=prod aws s3 rb s3://x --force");
        assert!(s.simple && !s.assigns && !s.builtin);
        let s = Shape::of("AWS_PROFILE=prod aws s3 rb s3://x --force");
        assert!(s.simple && s.assigns && !s.builtin);
        let s = Shape::of("chmod u+s /bin/bash");
        assert!(s.simple && s.absolute_only);
        let s = Shape::of("rm -rf ./build /tmp/x");
        assert!(!s.absolute_only);
        let s = Shape::of("find / -exec rm -rf {} +");
        assert!(s.absolute_only && s.find_markers);
        let s = Shape::of("set +o history");
        assert!(s.builtin);
        let s = Shape::of("cat x | sh");
        assert!(!s.simple);
        let s = Shape::of("echo \"$(a; b)\" > /dev/sda 2>&1");
        assert!(s.simple);
        let s = Shape::of("cat <<EOF > /etc/x\nhi\nEOF");
        assert!(s.heredoc && s.multiline && !s.simple);
        let s = Shape::of("rm -rf / # bye");
        assert!(s.comment && s.simple);
    }
}
