//! What an interpreter one-liner prints when all it does is print literals:
//! `perl -e 'print "rm -rf /opt/\n"'`, `python3 -c 'print("rm -rf ~")'`, `ruby -e 'puts "…"'`,
//! `node -e 'console.log("…")'`, `php -r 'echo "…";'`. Piped into a shell, that text is what
//! the shell runs, as `echo`'s words are.
//!
//! Conservative: every statement must be one print of one string literal (simple escapes
//! only); anything else (a variable, a call, a second argument, a file handle) gives None and
//! the output stays unknown.

use crate::model::NestedLanguage;

/// At most this many statements are read.
const MAX_STATEMENTS: usize = 64;

/// The text the code prints, when it only prints string literals.
pub(crate) fn printed(language: NestedLanguage, code: &str) -> Option<String> {
    let mut out = String::new();
    let mut any = false;
    for stmt in statements(code)?.into_iter().take(MAX_STATEMENTS + 1) {
        if any && out.len() > 64 * 1024 {
            return None;
        }
        let stmt = stmt.trim();
        if stmt.is_empty() {
            continue;
        }
        let (text, newline) = one_print(language, stmt)?;
        out.push_str(&text);
        if newline {
            out.push('\n');
        }
        any = true;
    }
    any.then_some(out)
}

/// The statements of `code`: split at `;` and newlines outside quotes; None when a quote is
/// left open.
fn statements(code: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in code.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            ';' | '\n' => {
                out.push(&code[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if quote.is_some() {
        return None;
    }
    out.push(&code[start..]);
    Some(out)
}

/// One print statement of one literal: (the text, whether a newline follows).
fn one_print(language: NestedLanguage, stmt: &str) -> Option<(String, bool)> {
    use NestedLanguage::*;
    let printers: &[(&str, bool)] = match language {
        Perl => &[("print", false), ("say", true)],
        Ruby => &[("puts", true), ("print", false)],
        Python => &[("print", true)],
        Js => &[("console.log", true)],
        Php => &[("echo", false), ("print", false)],
        _ => return None,
    };
    let (rest, newline) = printers.iter().find_map(|(name, nl)| {
        let rest = stmt.strip_prefix(name)?;
        // the name ends where the argument begins (`print "…"`, `print("…")`)
        rest.starts_with([' ', '\t', '(', '"', '\''])
            .then_some((rest.trim(), *nl))
    })?;
    let inner = match rest.strip_prefix('(') {
        Some(r) => r.strip_suffix(')')?.trim(),
        None => rest,
    };
    let (text, len) = literal(inner)?;
    (len == inner.len()).then_some((text, newline))
}

/// A string literal at the start of `s`: its value and its length in `s`. Double quotes take
/// `\n`, `\t`, `\\`, `\"`; an interpolation (`$`, `#{`, `${`) makes it unknown.
fn literal(s: &str) -> Option<(String, usize)> {
    let q = s.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == q {
            return Some((out, i + 1));
        }
        if c == '\\' {
            let (_, n) = chars.next()?;
            out.push(match (q, n) {
                ('"', 'n') => '\n',
                ('"', 't') => '\t',
                (_, other) => other,
            });
            continue;
        }
        if q == '"' && (c == '$' || c == '#' || c == '@' || c == '{') {
            return None;
        }
        out.push(c);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_literal_prints_are_read() {
        use NestedLanguage::*;
        assert_eq!(
            printed(Perl, r#"print "rm -rf /opt/""#).as_deref(),
            Some("rm -rf /opt/")
        );
        assert_eq!(
            printed(Python, "print('rm -rf ~')").as_deref(),
            Some("rm -rf ~\n")
        );
        assert_eq!(
            printed(Ruby, "puts \"a\"; puts 'b'").as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(
            printed(Js, "console.log(\"x\\ty\")").as_deref(),
            Some("x\ty\n")
        );
        assert_eq!(printed(Php, "echo 'ls';").as_deref(), Some("ls"));
        assert_eq!(printed(Perl, r#"print "$x""#), None);
        assert_eq!(printed(Python, "import os; print('x')"), None);
        assert_eq!(printed(Perl, r#"print STDERR "x""#), None);
        assert_eq!(printed(Ruby, "puts 'a', 'b'"), None);
        assert_eq!(printed(Python, "print('open"), None);
    }
}
