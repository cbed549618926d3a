//! A small POSIX-shell word splitter for the code analyzer's own fallback checks: it turns a
//! command line or a shell snippet into simple commands (argv after quote removal), knows
//! comments, single and double quotes, `$(…)` and backticks (whose bodies are split too),
//! redirections and heredocs. It is deliberately modest: the full bash parser lives in the
//! shell engine, which the facade plugs in through the command-assessor hook.

/// One simple command.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimpleCommand {
    /// Words after quote removal; command substitutions are kept as `$(…)` text.
    pub words: Vec<String>,
    /// Redirections: operator and target (`>`, `/dev/sda`).
    pub redirects: Vec<(String, String)>,
    /// True when standard input comes from a pipe (`… | this`).
    pub piped: bool,
    /// Heredoc bodies fed to this command.
    pub heredocs: Vec<String>,
    /// 1-based line where the command starts (relative to the split text).
    pub line: u32,
}

/// Bounds for splitting (fail-safe: past them the rest is dropped and `incomplete` is set).
const MAX_COMMANDS: usize = 10_000;
const MAX_DEPTH: usize = 16;

/// The result of splitting.
#[derive(Debug, Clone, Default)]
pub struct Split {
    /// The simple commands, in order; those from `$(…)` follow the command they appear in.
    pub commands: Vec<SimpleCommand>,
    /// True when quoting was unbalanced or a bound was hit.
    pub incomplete: bool,
}

/// Split shell text into simple commands.
pub fn split(text: &str) -> Split {
    let mut out = Split::default();
    split_into(text, 0, &mut out);
    out
}

#[allow(unused_assignments)] // the macros reset state that the last expansion does not read again
fn split_into(text: &str, depth: usize, out: &mut Split) {
    if depth > MAX_DEPTH {
        out.incomplete = true;
        return;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0usize;
    let mut line = 1u32;
    let mut cur = SimpleCommand {
        line,
        ..SimpleCommand::default()
    };
    let mut word = String::new();
    let mut in_word = false;
    let mut pending_redirect: Option<String> = None;
    let mut pending_heredoc: Vec<String> = Vec::new();
    let mut subs: Vec<String> = Vec::new();

    macro_rules! end_word {
        () => {
            if in_word {
                let w = std::mem::take(&mut word);
                if let Some(op) = pending_redirect.take() {
                    if op.starts_with("<<") {
                        pending_heredoc.push(w.trim_matches(|c| c == '\'' || c == '"').to_string());
                    } else {
                        cur.redirects.push((op, w));
                    }
                } else {
                    cur.words.push(w);
                }
                in_word = false;
            }
        };
    }
    macro_rules! end_command {
        ($piped_next:expr) => {
            end_word!();
            if !cur.words.is_empty() || !cur.redirects.is_empty() {
                if out.commands.len() >= MAX_COMMANDS {
                    out.incomplete = true;
                    return;
                }
                out.commands.push(std::mem::take(&mut cur));
            }
            for s in subs.drain(..) {
                split_into(&s, depth + 1, out);
            }
            cur = SimpleCommand {
                line,
                piped: $piped_next,
                ..SimpleCommand::default()
            };
        };
    }

    while let Some(&ch) = chars.get(i) {
        match ch {
            '\n' => {
                line += 1;
                i += 1;
                if !pending_heredoc.is_empty() {
                    end_word!();
                    // read heredoc bodies line by line until each delimiter
                    for delim in std::mem::take(&mut pending_heredoc) {
                        let mut body = String::new();
                        loop {
                            let start = i;
                            while chars.get(i).is_some_and(|c| *c != '\n') {
                                i += 1;
                            }
                            let l: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
                            if chars.get(i).is_some() {
                                i += 1;
                                line += 1;
                            }
                            if l.trim_start_matches('\t') == delim {
                                break;
                            }
                            body.push_str(&l);
                            body.push('\n');
                            if chars.get(i).is_none() {
                                out.incomplete = true;
                                break;
                            }
                        }
                        cur.heredocs.push(body);
                    }
                }
                end_command!(false);
            }
            ' ' | '\t' | '\r' => {
                end_word!();
                i += 1;
            }
            '#' if !in_word => {
                while chars.get(i).is_some_and(|c| *c != '\n') {
                    i += 1;
                }
            }
            '\\' => {
                if let Some(&n) = chars.get(i + 1) {
                    if n == '\n' {
                        line += 1;
                    } else {
                        word.push(n);
                        in_word = true;
                    }
                }
                i += 2;
            }
            '\'' => {
                in_word = true;
                i += 1;
                while let Some(&c) = chars.get(i) {
                    i += 1;
                    if c == '\'' {
                        break;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    word.push(c);
                    if chars.get(i).is_none() {
                        out.incomplete = true;
                    }
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                let mut closed = false;
                while let Some(&c) = chars.get(i) {
                    if c == '"' {
                        i += 1;
                        closed = true;
                        break;
                    }
                    if c == '\\'
                        && chars
                            .get(i + 1)
                            .is_some_and(|n| matches!(n, '"' | '\\' | '$' | '`'))
                    {
                        if let Some(&n) = chars.get(i + 1) {
                            word.push(n);
                        }
                        i += 2;
                        continue;
                    }
                    if c == '$' && chars.get(i + 1) == Some(&'(') {
                        let (body, next) = balanced(&chars, i + 2);
                        word.push_str("$(");
                        word.push_str(&body);
                        word.push(')');
                        subs.push(body);
                        i = next;
                        continue;
                    }
                    if c == '`' {
                        let (body, next) = backtick(&chars, i + 1);
                        word.push_str(&body);
                        subs.push(body);
                        i = next;
                        continue;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    word.push(c);
                    i += 1;
                }
                if !closed {
                    out.incomplete = true;
                }
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                in_word = true;
                let (body, next) = balanced(&chars, i + 2);
                word.push_str("$(");
                word.push_str(&body);
                word.push(')');
                subs.push(body);
                i = next;
            }
            '`' => {
                in_word = true;
                let (body, next) = backtick(&chars, i + 1);
                word.push_str(&body);
                subs.push(body);
                i = next;
            }
            ';' | '&' | '|' => {
                let next = chars.get(i + 1).copied();
                let pipe = ch == '|' && next != Some('|');
                i += if matches!(
                    (ch, next),
                    ('&', Some('&')) | ('|', Some('|')) | (';', Some(';')) | ('|', Some('&'))
                ) {
                    2
                } else {
                    1
                };
                if ch == '&' && next == Some('>') {
                    // `&>file`: a redirection, not a separator
                    end_word!();
                    pending_redirect = Some("&>".into());
                    i += 1;
                    continue;
                }
                end_command!(pipe);
            }
            '(' | ')' | '{' | '}' if !in_word => {
                // subshells and groups: their contents are just more commands
                if ch == '(' || ch == ')' {
                    end_command!(false);
                }
                if ch == '{' || ch == '}' {
                    // `{` and `}` are words only when standing alone
                    if chars.get(i + 1).is_some_and(|c| c.is_whitespace())
                        || chars.get(i + 1).is_none()
                    {
                        end_command!(false);
                    } else {
                        word.push(ch);
                        in_word = true;
                    }
                }
                i += 1;
            }
            '>' | '<' => {
                let mut op = String::new();
                if in_word && word.chars().all(|c| c.is_ascii_digit()) {
                    op.push_str(&std::mem::take(&mut word));
                    in_word = false;
                } else {
                    end_word!();
                }
                op.push(ch);
                i += 1;
                while let Some(&n) = chars.get(i) {
                    if matches!(n, '>' | '<' | '&' | '|' | '-') {
                        op.push(n);
                        i += 1;
                    } else {
                        break;
                    }
                }
                if op.ends_with('&') && chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                    // fd duplication `2>&1`
                    while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                        i += 1;
                    }
                    continue;
                }
                pending_redirect = Some(op);
            }
            _ => {
                word.push(ch);
                in_word = true;
                i += 1;
            }
        }
    }
    end_command!(false);
    if !pending_heredoc.is_empty() {
        out.incomplete = true;
    }
}

/// Body of `$( … )` from `start` (just after the opening paren): balanced parens, quotes skipped.
fn balanced(chars: &[char], start: usize) -> (String, usize) {
    let mut depth = 0usize;
    let mut i = start;
    let mut quote: Option<char> = None;
    while let Some(&c) = chars.get(i) {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => {
                return (chars.get(start..i).unwrap_or(&[]).iter().collect(), i + 1);
            }
            (None, ')') => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    (chars.get(start..).unwrap_or(&[]).iter().collect(), i)
}

fn backtick(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    while let Some(&c) = chars.get(i) {
        if c == '`' {
            return (chars.get(start..i).unwrap_or(&[]).iter().collect(), i + 1);
        }
        i += if c == '\\' { 2 } else { 1 };
    }
    (chars.get(start..).unwrap_or(&[]).iter().collect(), i)
}

/// Quote argv words for display or for re-parsing by a shell parser.
pub fn join_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Vec<String>> {
        split(text).commands.into_iter().map(|c| c.words).collect()
    }

    #[test]
    fn lists_pipes_quotes_and_substitutions() {
        let s = split("echo 'a b' \"c $(rm -rf /x)\" | sh; ls # rm -rf /\n");
        let w: Vec<Vec<String>> = s.commands.iter().map(|c| c.words.clone()).collect();
        assert_eq!(w[0], vec!["echo", "a b", "c $(rm -rf /x)"]);
        assert_eq!(w[1], vec!["rm", "-rf", "/x"]);
        assert_eq!(w[2], vec!["sh"]);
        assert!(s.commands[2].piped);
        assert_eq!(w[3], vec!["ls"]);
        assert_eq!(w.len(), 4);
    }

    #[test]
    fn redirects_and_heredocs() {
        let s =
            split("dd if=/dev/zero > /dev/sda 2>&1\ncat <<'EOF' | sh\nrm -rf /\nEOF\necho done");
        assert_eq!(
            s.commands[0].redirects,
            vec![(">".to_string(), "/dev/sda".to_string())]
        );
        let fed = s
            .commands
            .iter()
            .find(|c| !c.heredocs.is_empty())
            .cloned()
            .unwrap_or_default();
        assert_eq!(fed.heredocs, vec!["rm -rf /\n".to_string()]);
        assert_eq!(
            words("a && b || c & d"),
            vec![vec!["a"], vec!["b"], vec!["c"], vec!["d"]]
        );
        assert_eq!(
            s.commands.last().map(|c| c.words.clone()),
            Some(vec!["echo".to_string(), "done".into()])
        );
    }

    #[test]
    fn garbage_does_not_panic() {
        for t in ["'", "\"", "$(", "`", "<<EOF", "\\", "((((", "}}}{", ">"] {
            let _ = split(t);
        }
        assert_eq!(
            join_argv(&["rm".into(), "a b".into(), "it's".into()]),
            r"rm 'a b' 'it'\''s'"
        );
    }
}
