//! GNU sed scripts that run shell commands: the `e COMMAND` command (runs COMMAND), a bare `e`
//! (runs the pattern space: a line of the input) and the `s///e` flag (runs the pattern space
//! after the substitution). `--sandbox` turns them off.
//!
//! A command built from the input is returned with the input's part as the dynamic word
//! [`LINE`], so `sed 's/.*/rm -rf &/e' list` reads as `rm -rf "$SED_INPUT_LINE"` once per line.
//! Scanning is linear in the script's length.

/// The word standing for a line of sed's input in a command built from it.
pub(crate) const LINE: &str = "\"$SED_INPUT_LINE\"";

/// A shell command a sed script runs: its text, and whether part of it comes from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SedCommand {
    pub text: String,
    pub from_input: bool,
}

/// The scripts of a sed command line (`args` without the program), unless `--sandbox`.
fn scripts<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut explicit = false;
    let mut first_operand = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if *a == "--sandbox" {
            return Vec::new();
        }
        if *a == "--" {
            if first_operand.is_none() {
                first_operand = args.get(i + 1).copied();
            }
            break;
        }
        if let Some(v) = a.strip_prefix("--expression=") {
            out.push(v);
            explicit = true;
        } else if *a == "--expression" {
            out.extend(args.get(i + 1).copied());
            explicit = true;
            i += 1;
        } else if *a == "--file" || a.starts_with("--file=") {
            explicit = true;
            i += usize::from(*a == "--file");
        } else if *a == "--line-length" {
            i += 1;
        } else if a.starts_with("--") {
        } else if a.starts_with('-') && a.len() > 1 {
            // A cluster: `-ne SCRIPT`, `-e SCRIPT`, `-nf FILE`, `-i.bak`, `-l 80`.
            let body = &a[1..];
            for (k, ch) in body.char_indices() {
                match ch {
                    'e' | 'f' | 'l' => {
                        let rest = &body[k + 1..];
                        let value = if rest.is_empty() {
                            i += 1;
                            args.get(i).copied()
                        } else {
                            Some(rest)
                        };
                        if ch == 'e' {
                            out.extend(value);
                        }
                        explicit |= ch != 'l';
                        break;
                    }
                    // `-i` and `-s`… take an attached suffix only.
                    'i' => break,
                    _ => {}
                }
            }
        } else if first_operand.is_none() {
            first_operand = Some(a);
        }
        i += 1;
    }
    if !explicit {
        out.extend(first_operand);
    }
    out
}

/// Every shell command the sed command line (`args` without the program) runs.
pub(crate) fn commands(args: &[&str]) -> Vec<SedCommand> {
    let mut out = Vec::new();
    for s in scripts(args) {
        script_commands(s, &mut out);
    }
    out
}

/// Skip an address (`12`, `$`, `/re/`, `\%re%`, `1~2`, `a,b`, `a,+3`) and `!` at `i`.
fn skip_address(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(b'0'..=b'9' | b'$' | b'~' | b'+' | b',' | b'!' | b' ' | b'\t') => i += 1,
            Some(b'/') => i = skip_delimited(b, i + 1, b'/'),
            Some(b'\\') => match b.get(i + 1) {
                Some(&d) => i = skip_delimited(b, i + 2, d),
                None => return i + 1,
            },
            // `/re/I`, `/re/M` modifiers.
            Some(b'I' | b'M') if i > 0 && b.get(i - 1) == Some(&b'/') => i += 1,
            _ => return i,
        }
    }
}

/// The index just past the closing `delim` of a part starting at `i` (backslash escapes).
fn skip_delimited(b: &[u8], mut i: usize, delim: u8) -> usize {
    while let Some(&c) = b.get(i) {
        if c == b'\\' {
            i += 2;
            continue;
        }
        if c == delim || c == b'\n' {
            return i + 1;
        }
        i += 1;
    }
    i
}

/// The text from `i` to the end of the line, and the index after it.
fn to_eol(s: &str, i: usize) -> (&str, usize) {
    let rest = s.get(i..).unwrap_or("");
    let end = rest.find('\n').unwrap_or(rest.len());
    (rest.get(..end).unwrap_or(""), i + end + 1)
}

fn script_commands(s: &str, out: &mut Vec<SedCommand>) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        i = skip_address(b, i);
        let Some(&c) = b.get(i) else {
            break;
        };
        i += 1;
        match c {
            b';' | b'\n' | b'{' | b'}' | b' ' | b'\t' => {}
            b'#' | b'a' | b'i' | b'c' | b'r' | b'R' | b'w' | b'W' | b':' => {
                i = to_eol(s, i).1;
            }
            b'b' | b't' | b'T' => {
                let rest = s.get(i..).unwrap_or("");
                i += rest.find([';', '\n']).map_or(rest.len(), |k| k + 1);
            }
            b'e' => {
                let (cmd, next) = to_eol(s, i);
                i = next;
                let cmd = cmd.trim();
                if cmd.is_empty() {
                    // Runs the pattern space: a line of the input.
                    out.push(SedCommand {
                        text: LINE.to_string(),
                        from_input: true,
                    });
                } else {
                    out.push(SedCommand {
                        text: cmd.to_string(),
                        from_input: false,
                    });
                }
            }
            b's' => {
                let Some(&d) = b.get(i) else {
                    break;
                };
                if d == b'\n' || d == b'\\' {
                    break;
                }
                let re_start = i + 1;
                let re_end = skip_delimited(b, re_start, d);
                let repl_end = skip_delimited(b, re_end, d);
                let regex = s.get(re_start..re_end.saturating_sub(1)).unwrap_or("");
                let repl = s.get(re_end..repl_end.saturating_sub(1)).unwrap_or("");
                i = repl_end;
                let mut run = false;
                while let Some(&f) = b.get(i) {
                    match f {
                        b'e' => run = true,
                        b'g' | b'p' | b'i' | b'I' | b'm' | b'M' | b'0'..=b'9' => {}
                        b'w' => {
                            i = to_eol(s, i + 1).1;
                            break;
                        }
                        _ => break,
                    }
                    i += 1;
                }
                if run {
                    out.push(substituted(regex, repl, d));
                }
            }
            b'y' => {
                let Some(&d) = b.get(i) else {
                    break;
                };
                i = skip_delimited(b, skip_delimited(b, i + 1, d), d);
            }
            // `q 5`, `l 80`, `L`, and the one-letter commands.
            _ => {}
        }
    }
}

/// The command `s/REGEX/REPL/e` runs: the line with the match replaced.
fn substituted(regex: &str, repl: &str, delim: u8) -> SedCommand {
    let d = char::from(delim);
    let repl = repl.replace(&format!("\\{d}"), &d.to_string());
    // `&` and `\1` … `\9` stand for (part of) the input line.
    let mut body = String::new();
    let mut from_input = false;
    let mut chars = repl.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) if n.is_ascii_digit() => {
                    body.push_str(LINE);
                    from_input = true;
                }
                Some('n') => body.push('\n'),
                Some(n) => body.push(n),
                None => {}
            },
            '&' => {
                body.push_str(LINE);
                from_input = true;
            }
            _ => body.push(c),
        }
    }
    // What the match leaves of the line before and after it.
    let whole = |r: &str| {
        matches!(
            r,
            ".*" | "^.*" | ".*$" | "^.*$" | "^\\(.*\\)$" | "\\(.*\\)" | "^\\(.*\\)" | "^(.*)$"
        )
    };
    let anchored_start = regex.starts_with('^') || whole(regex);
    let to_end = regex.ends_with('$') && !regex.ends_with("\\$") || whole(regex);
    let mut text = String::new();
    if !anchored_start {
        text.push_str(LINE);
        text.push(' ');
        from_input = true;
    }
    text.push_str(&body);
    if !to_end {
        if !text.ends_with(char::is_whitespace) {
            text.push(' ');
        }
        text.push_str(LINE);
        from_input = true;
    }
    SedCommand {
        text: text.trim().to_string(),
        from_input,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Vec<(String, bool)> {
        commands(args)
            .into_iter()
            .map(|c| (c.text, c.from_input))
            .collect()
    }

    #[test]
    fn e_command_runs_its_text() {
        assert_eq!(
            run(&["-n", "1e rm -rf /srv", "f"]),
            [("rm -rf /srv".to_string(), false)]
        );
        assert_eq!(
            run(&["--expression=$e shutdown -h now", "f"]),
            [("shutdown -h now".to_string(), false)]
        );
        assert_eq!(
            run(&["-i", "s/x/y/;1e reboot", "f"]),
            [("reboot".to_string(), false)]
        );
        assert_eq!(
            run(&["/start/,/end/{e date\n}", "f"]),
            [("date".to_string(), false)]
        );
        assert_eq!(run(&["e"]), [(LINE.to_string(), true)]);
    }

    #[test]
    fn substitution_e_flag_runs_the_line() {
        assert_eq!(
            run(&["s/.*/rm -rf &/e", "list"]),
            [(format!("rm -rf {LINE}"), true)]
        );
        assert_eq!(
            run(&["s/^/rm -f /e", "list"]),
            [(format!("rm -f {LINE}"), true)]
        );
        assert_eq!(
            run(&["-E", "s|^(.*)$|dropdb \\1|e", "dbs"]),
            [(format!("dropdb {LINE}"), true)]
        );
        assert_eq!(run(&["s/x/y/e", "f"]), [(format!("{LINE} y {LINE}"), true)]);
    }

    #[test]
    fn ordinary_scripts_run_nothing() {
        for s in [
            "1p",
            "s/foo/bar/g",
            "s/e/E/g",
            "y/abc/xyz/",
            "/^#/d; s/[[:space:]]*$//",
            "s/a/b/w changed.txt",
            "1i\\#!/bin/sh",
            "a echo hi",
            "/e/d",
            "\\%e%d",
            "b end; :end",
        ] {
            assert!(run(&[s, "f"]).is_empty(), "{s}");
        }
        assert!(run(&["-n", "--sandbox", "1e rm -rf /", "f"]).is_empty());
        // The file operand is not a script when -e gives one.
        assert!(run(&["-e", "p", "e"]).is_empty());
    }
}
