//! PowerShell's argument mode: the tokens of one command (a pipeline element) — words made
//! of barewords, quoted strings, variables, subexpressions and member accesses; `-Parameter`
//! and `-Parameter:` tokens; redirections; `,`; the call operator `&`; `--%` and `--` — and
//! the parts of expandable strings (`"…$x…$(…)…"`).

use super::lex::{
    Src, comment_end, double_end, group_end, here_body, here_end, is_dash, is_double_quote,
    is_single_quote, is_space, single_end,
};

/// A part of a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    /// Literal text (a bareword's, a single-quoted string's, a double-quoted string's text
    /// between expansions).
    Lit(String),
    /// `$name`, `${name}`, `$env:NAME`, `$script:x` (the name as written, without `$`).
    Var(String),
    /// `$( … )` or `@( … )`: the inner text's char range.
    Sub(usize, usize),
    /// `( … )` standing as an argument: the inner text's char range.
    Paren(usize, usize),
    /// `{ … }`: a script block, the inner text's char range.
    Block(usize, usize),
    /// `@{ … }`: a hashtable (its values may run commands in `( )`): the inner range.
    Hash(usize, usize),
    /// `@name`: splatting.
    Splat(String),
    /// An expression standing as an argument: a group or variable with member accesses
    /// (`(New-Object Net.WebClient).DownloadString('…')`, `$x.FullName`): its char range.
    Expr(usize, usize),
}

/// One token of a command in argument mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A word and whether any of it was quoted (a quoted word is never a parameter).
    Word { parts: Vec<Part>, quoted: bool },
    /// `-Name` (`colon`: written `-Name:`, the value follows).
    Param { name: String, colon: bool },
    /// `,` between array elements.
    Comma,
    /// A redirection operator (`>`, `>>`, `2>`, `*>`, `2>&1` …).
    Redirect(String),
    /// `--%`: the rest of the statement goes to a native program as written.
    StopParsing(String),
    /// `--`: what follows is not a parameter.
    EndOfParams,
}

/// Chars that end a bareword.
fn ends_bareword(c: char) -> bool {
    is_space(c)
        || matches!(
            c,
            '\n' | '\r' | ';' | '|' | '&' | '(' | ')' | '{' | '}' | ',' | '>'
        )
}

/// The PowerShell escape of `c` after a backtick.
pub(crate) fn escape(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' => '\u{1b}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        other => other,
    }
}

/// A variable reference at `i` (`$`): its name and end. `None` when `$` is literal.
fn variable(s: &Src, i: usize) -> Option<(String, usize)> {
    let n = s.at(i + 1);
    if n == '{' {
        let mut j = i + 2;
        let mut name = String::new();
        while j < s.len() && s.at(j) != '}' {
            if s.at(j) == '`' {
                j += 1;
            }
            name.push(s.at(j));
            j += 1;
        }
        return Some((name, (j + 1).min(s.len())));
    }
    if matches!(n, '_' | '?' | '^' | '$') && !s.at(i + 2).is_alphanumeric() {
        return Some((n.to_string(), i + 2));
    }
    if !(n.is_alphanumeric() || n == '_') {
        return None;
    }
    let mut j = i + 1;
    let mut name = String::new();
    while j < s.len() {
        let c = s.at(j);
        if c.is_alphanumeric() || c == '_' {
            name.push(c);
            j += 1;
        } else if c == ':' && s.at(j + 1) != ':' && !name.contains(':') && {
            let l = name.to_ascii_lowercase();
            matches!(
                l.as_str(),
                "env" | "global" | "script" | "local" | "private" | "using" | "variable"
            )
        } {
            name.push(':');
            j += 1;
        } else if c == '(' && name.to_ascii_lowercase().starts_with("env:") {
            // `$env:ProgramFiles(x86)`
            if s.text(j, j + 5).eq_ignore_ascii_case("(x86)") {
                name.push_str("(x86)");
                j += 5;
            }
            break;
        } else {
            break;
        }
    }
    Some((name, j))
}

/// The parts of the double-quoted string `s[i..end]` (expandable).
pub(crate) fn expandable_parts(s: &Src, from: usize, to: usize, out: &mut Vec<Part>) {
    let mut lit = String::new();
    let mut j = from;
    while j < to {
        let c = s.at(j);
        if c == '`' && j + 1 < to {
            lit.push(escape(s.at(j + 1)));
            j += 2;
            continue;
        }
        if is_double_quote(c) && is_double_quote(s.at(j + 1)) && j + 1 < to {
            lit.push('"');
            j += 2;
            continue;
        }
        if c == '$' {
            if s.at(j + 1) == '(' {
                if let Some(e) = group_end(s, j + 1).filter(|e| *e <= to) {
                    flush(&mut lit, out);
                    out.push(Part::Sub(j + 2, e - 1));
                    j = e;
                    continue;
                }
            } else if let Some((name, e)) = variable(s, j) {
                flush(&mut lit, out);
                out.push(Part::Var(name));
                j = e;
                continue;
            }
        }
        lit.push(c);
        j += 1;
    }
    flush(&mut lit, out);
}

fn flush(lit: &mut String, out: &mut Vec<Part>) {
    if !lit.is_empty() {
        out.push(Part::Lit(std::mem::take(lit)));
    }
}

/// The tokens of the command `s[from..to]` (one pipeline element) in argument mode.
pub(crate) fn tokens(s: &Src, from: usize, to: usize) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut j = from;
    while j < to {
        let c = s.at(j);
        if is_space(c) || matches!(c, '\r' | '\n') {
            j += 1;
            continue;
        }
        if c == '`' && matches!(s.at(j + 1), '\n' | '\r') {
            j += 2;
            continue;
        }
        if c == '#' || (c == '<' && s.at(j + 1) == '#') {
            j = comment_end(s, j);
            continue;
        }
        if c == ',' {
            out.push(Tok::Comma);
            j += 1;
            continue;
        }
        if c == '&' {
            // the call operator
            out.push(Tok::Word {
                parts: vec![Part::Lit("&".into())],
                quoted: false,
            });
            j += 1;
            continue;
        }
        // Redirections: `>`, `>>`, `N>`, `N>>`, `*>`, `N>&M`.
        let redirect_at = if c == '>' {
            Some(j)
        } else if (c.is_ascii_digit() || c == '*') && s.at(j + 1) == '>' {
            Some(j + 1)
        } else {
            None
        };
        if let Some(k) = redirect_at {
            let mut e = k + 1;
            if s.at(e) == '>' {
                e += 1;
            }
            if s.at(e) == '&' && s.at(e + 1).is_ascii_digit() {
                e += 2;
            }
            out.push(Tok::Redirect(s.text(j, e)));
            j = e;
            continue;
        }
        if is_dash(c) && is_dash(s.at(j + 1)) && s.at(j + 2) == '%' {
            let rest = s.text(j + 3, to);
            out.push(Tok::StopParsing(rest.trim().to_string()));
            return out;
        }
        if is_dash(c) && is_dash(s.at(j + 1)) && (j + 2 >= to || ends_bareword(s.at(j + 2))) {
            out.push(Tok::EndOfParams);
            j += 2;
            continue;
        }
        if is_dash(c) && (s.at(j + 1).is_alphabetic() || s.at(j + 1) == '_' || s.at(j + 1) == '?') {
            let mut e = j + 1;
            let mut name = String::new();
            while e < to && !ends_bareword(s.at(e)) && s.at(e) != ':' {
                let ch = s.at(e);
                if ch == '`' {
                    e += 1;
                    name.push(s.at(e));
                } else if is_single_quote(ch) || is_double_quote(ch) || ch == '$' {
                    break;
                } else {
                    name.push(ch);
                }
                e += 1;
            }
            // A quote or `$` inside: an argument such as `-'x'` is a word.
            if e >= to || ends_bareword(s.at(e)) || s.at(e) == ':' {
                let colon = s.at(e) == ':';
                out.push(Tok::Param { name, colon });
                j = if colon { e + 1 } else { e };
                continue;
            }
        }
        let (tok, e) = word(s, j, to);
        out.push(tok);
        j = e.max(j + 1);
    }
    out
}

/// One word starting at `j`: barewords, strings, variables and groups run together.
fn word(s: &Src, from: usize, to: usize) -> (Tok, usize) {
    let mut parts: Vec<Part> = Vec::new();
    let mut lit = String::new();
    let mut quoted = false;
    let mut j = from;
    while j < to {
        let c = s.at(j);
        // `(…).Member(…)`, `$x.Prop`, `$a[0]`, `(…)::M()`: an expression to its end.
        if lit.is_empty()
            && matches!(
                parts.last(),
                Some(Part::Paren(..) | Part::Var(_) | Part::Sub(..))
            )
            && ((c == '.' && (s.at(j + 1).is_alphabetic() || s.at(j + 1) == '_'))
                || c == '['
                || (c == ':' && s.at(j + 1) == ':'))
        {
            let e = member_chain_end(s, j, to);
            parts.clear();
            parts.push(Part::Expr(from, e));
            j = e;
            continue;
        }
        if c == '`' {
            if matches!(s.at(j + 1), '\n' | '\r') {
                break;
            }
            // Outside quotes a backtick keeps the next char as it is (`R`e`m`o`v`e-Item`
            // is `Remove-Item`: obfuscation, read as the name it spells).
            lit.push(s.at(j + 1));
            j += 2;
            continue;
        }
        if is_single_quote(c) {
            let (body_end, e) = match single_end(s, j) {
                Some(e) if e <= to => (e - 1, e),
                _ => (to, to),
            };
            let mut k = j + 1;
            while k < body_end {
                if is_single_quote(s.at(k)) && is_single_quote(s.at(k + 1)) {
                    lit.push('\'');
                    k += 2;
                    continue;
                }
                lit.push(s.at(k));
                k += 1;
            }
            quoted = true;
            j = e;
            continue;
        }
        if is_double_quote(c) {
            let (body_end, e) = match double_end(s, j) {
                Some(e) if e <= to => (e - 1, e),
                _ => (to, to),
            };
            flush(&mut lit, &mut parts);
            expandable_parts(s, j + 1, body_end.max(j + 1), &mut parts);
            quoted = true;
            j = e;
            continue;
        }
        if c == '@'
            && (is_single_quote(s.at(j + 1)) || is_double_quote(s.at(j + 1)))
            && let Some(e) = here_end(s, j).filter(|e| *e <= to)
        {
            let body = here_body(s, j, e);
            if is_single_quote(s.at(j + 1)) {
                lit.push_str(&body);
            } else {
                flush(&mut lit, &mut parts);
                let inner = Src::new(&body);
                let mut ps = Vec::new();
                expandable_parts(&inner, 0, inner.len(), &mut ps);
                // Subexpressions of the body are not kept (their ranges are the body's):
                // a here-string with `$(…)` is dynamic.
                for p in ps {
                    match p {
                        Part::Sub(..) => parts.push(Part::Var("(subexpression)".into())),
                        other => parts.push(other),
                    }
                }
            }
            quoted = true;
            j = e;
            continue;
        }
        if c == '$' || c == '@' {
            let open = s.at(j + 1);
            if (open == '(' || (c == '@' && open == '{'))
                && let Some(e) = group_end(s, j + 1).filter(|e| *e <= to)
            {
                flush(&mut lit, &mut parts);
                parts.push(if open == '{' {
                    Part::Hash(j + 2, e - 1)
                } else {
                    Part::Sub(j + 2, e - 1)
                });
                j = e;
                continue;
            }
            if c == '$' {
                if let Some((name, e)) = variable(s, j) {
                    flush(&mut lit, &mut parts);
                    parts.push(Part::Var(name));
                    j = e;
                    continue;
                }
            } else if open.is_alphanumeric() || open == '_' {
                let mut e = j + 1;
                while e < to && (s.at(e).is_alphanumeric() || s.at(e) == '_') {
                    e += 1;
                }
                flush(&mut lit, &mut parts);
                parts.push(Part::Splat(s.text(j + 1, e)));
                j = e;
                continue;
            }
        }
        if (c == '(' || c == '{')
            && parts.is_empty()
            && lit.is_empty()
            && let Some(e) = group_end(s, j).filter(|e| *e <= to)
        {
            parts.push(if c == '(' {
                Part::Paren(j + 1, e - 1)
            } else {
                Part::Block(j + 1, e - 1)
            });
            j = e;
            // `(…).Member`, `(…)[0]`: the rest belongs to the same word.
            continue;
        }
        if ends_bareword(c) {
            break;
        }
        lit.push(c);
        j += 1;
    }
    flush(&mut lit, &mut parts);
    (Tok::Word { parts, quoted }, j)
}

/// The end of a chain of member accesses, indexes and calls starting at `j`.
fn member_chain_end(s: &Src, mut j: usize, to: usize) -> usize {
    loop {
        let c = s.at(j);
        if j >= to {
            return to;
        }
        if c == '[' || c == '(' {
            match group_end(s, j).filter(|e| *e <= to) {
                Some(e) => j = e,
                None => return to,
            }
            continue;
        }
        if c == '.' || (c == ':' && s.at(j + 1) == ':') {
            j += if c == '.' { 1 } else { 2 };
            while j < to && (s.at(j).is_alphanumeric() || s.at(j) == '_') {
                j += 1;
            }
            continue;
        }
        return j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(t: &str) -> Vec<Tok> {
        let s = Src::new(t);
        tokens(&s, 0, s.len())
    }

    fn lit(t: &str) -> Tok {
        Tok::Word {
            parts: vec![Part::Lit(t.into())],
            quoted: false,
        }
    }

    #[test]
    fn argument_mode_tokens() {
        assert_eq!(
            toks("Remove-Item -Recurse -Path:C:\\x"),
            vec![
                lit("Remove-Item"),
                Tok::Param {
                    name: "Recurse".into(),
                    colon: false
                },
                Tok::Param {
                    name: "Path".into(),
                    colon: true
                },
                lit("C:\\x"),
            ]
        );
        assert_eq!(toks("R`e`m`o`v`e-Item")[0], lit("Remove-Item"));
        assert_eq!(
            toks("'it''s' \"a`tb\"")[0],
            Tok::Word {
                parts: vec![Part::Lit("it's".into())],
                quoted: true
            }
        );
        assert_eq!(
            toks("\"a`tb$x\"")[0],
            Tok::Word {
                parts: vec![Part::Lit("a\tb".into()), Part::Var("x".into())],
                quoted: true
            }
        );
        assert_eq!(toks("a,b").len(), 3);
        assert_eq!(toks("x > out.txt 2>&1")[1], Tok::Redirect(">".into()));
        assert_eq!(toks("x 2>&1")[1], Tok::Redirect("2>&1".into()));
        assert_eq!(
            toks("$env:ProgramFiles(x86)\\a")[0],
            Tok::Word {
                parts: vec![
                    Part::Var("env:ProgramFiles(x86)".into()),
                    Part::Lit("\\a".into())
                ],
                quoted: false
            }
        );
        assert!(matches!(
            toks("icacls --% /grant x")[1],
            Tok::StopParsing(_)
        ));
        assert!(matches!(
            toks("@'\nhello\n'@")[0],
            Tok::Word { ref parts, quoted: true } if parts == &vec![Part::Lit("hello".into())]
        ));
    }
}
