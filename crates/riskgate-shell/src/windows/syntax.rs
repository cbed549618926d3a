//! Small readings of PowerShell syntax shared by the walk: keywords, assignments, `foreach`
//! heads, numbers, top-level groups, cmd.exe switches, native program names, and arguments
//! as written.

use crate::Word;

use super::bind::Arg;
use super::cmdlets;
use super::lex::{self, Part, Src};

pub(crate) const KEYWORDS: &[&str] = &[
    "if",
    "elseif",
    "else",
    "foreach",
    "for",
    "while",
    "do",
    "until",
    "switch",
    "try",
    "catch",
    "finally",
    "trap",
    "function",
    "filter",
    "workflow",
    "param",
    "begin",
    "process",
    "end",
    "dynamicparam",
    "return",
    "throw",
    "exit",
    "break",
    "continue",
    "class",
    "enum",
    "using",
    "data",
    "configuration",
];

/// `42`, `1.5`, `10MB`, `0x1F`: a number, not a command name.
pub(crate) fn is_number(t: &str) -> bool {
    let t = t.trim_start_matches('-');
    t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && (t.chars().all(|c| c.is_ascii_digit() || c == '.')
            || ["kb", "mb", "gb", "tb", "pb"]
                .iter()
                .any(|u| t.to_ascii_lowercase().ends_with(u))
            || t.to_ascii_lowercase().starts_with("0x"))
}

/// The canonical name of a native program: its base name (any separator), `.exe` dropped,
/// lower case for Windows programs.
pub(crate) fn native_program(name: &str) -> String {
    let base = name.rsplit(['\\', '/']).next().unwrap_or(name);
    let base = if base.is_empty() { name } else { base };
    let l = base.to_ascii_lowercase();
    let stem = l
        .strip_suffix(".exe")
        .or_else(|| l.strip_suffix(".com"))
        .unwrap_or(&l);
    if l.ends_with(".exe") || l.ends_with(".com") || super::is_windows_program(stem) {
        stem.to_string()
    } else {
        base.to_string()
    }
}

/// `/s`, `/Q`, `/F:x`: a cmd.exe switch.
pub(crate) fn is_cmd_switch(w: &str) -> bool {
    let Some(r) = w.strip_prefix('/') else {
        return false;
    };
    let name = r.split([':', '=']).next().unwrap_or(r);
    !name.is_empty()
        && name.len() <= 12
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '?')
        && !r.contains('/')
}

/// Whether the arguments of an alias that is also a Unix program read as that program's
/// (`rm -rf x`: `-rf` is no parameter of Remove-Item).
pub(crate) fn unix_style(cmdlet: &str, args: &[Arg]) -> bool {
    let spec = cmdlets::cmdlet(cmdlet);
    args.iter().any(|a| match a {
        Arg::Param { name, .. } => {
            name.starts_with('-') || spec.is_some_and(|c| c.param(name).is_none())
        }
        _ => false,
    })
}

/// The words of arguments as written (after evaluation).
pub(crate) fn args_words(args: &[Arg]) -> Vec<Word> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Arg::Param { name, colon } => out.push(Word {
                text: format!("-{name}{}", if *colon { ":" } else { "" }),
                dynamic: false,
            }),
            Arg::EndOfParams => out.push(Word {
                text: "--".into(),
                dynamic: false,
            }),
            Arg::Value(items) => {
                for (t, d) in items {
                    out.push(Word {
                        text: t.clone(),
                        dynamic: *d,
                    });
                }
            }
        }
    }
    out
}

/// `-Name:value` items from synthesized argv (`-OutFile:C:\x`) as parameter and value.
pub(crate) fn expand_colon_args(args: Vec<Arg>) -> Vec<Arg> {
    let mut out = Vec::new();
    for a in args {
        if let Arg::Value(items) = &a
            && let [(t, false)] = items.as_slice()
            && let Some(r) = t.strip_prefix('-')
            && let Some((n, v)) = r.split_once(':')
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_alphanumeric())
        {
            out.push(Arg::Param {
                name: n.to_string(),
                colon: false,
            });
            out.push(Arg::Value(vec![(v.to_string(), false)]));
            continue;
        }
        out.push(a);
    }
    out
}

pub(crate) fn blocks_owned(s: &Src, blocks: &[(usize, usize)]) -> Vec<(String, usize, usize)> {
    blocks
        .iter()
        .map(|(a, b)| (s.text(*a, *b), *a, *b))
        .collect()
}

/// The text of word parts as written (for a dynamic word).
pub(crate) fn written(s: &Src, parts: &[Part]) -> String {
    let mut out = String::new();
    for p in parts {
        match p {
            Part::Lit(t) => out.push_str(t),
            Part::Var(n) => {
                out.push('$');
                out.push_str(n);
            }
            Part::Sub(a, b) => {
                out.push_str("$(");
                out.push_str(&s.text(*a, *b));
                out.push(')');
            }
            Part::Paren(a, b) => {
                out.push('(');
                out.push_str(&s.text(*a, *b));
                out.push(')');
            }
            Part::Block(a, b) => {
                out.push('{');
                out.push_str(&s.text(*a, *b));
                out.push('}');
            }
            Part::Hash(a, b) => {
                out.push_str("@{");
                out.push_str(&s.text(*a, *b));
                out.push('}');
            }
            Part::Splat(n) => {
                out.push('@');
                out.push_str(n);
            }
            Part::Expr(a, b) => out.push_str(&s.text(*a, *b)),
        }
    }
    out
}

/// The keyword a statement starts with, if any (lower case).
pub(crate) fn keyword_at(s: &Src, a: usize, b: usize) -> Option<String> {
    let mut e = a;
    while e < b && (s.at(e).is_ascii_alphabetic()) {
        e += 1;
    }
    if e == a {
        return None;
    }
    let next = s.at(e);
    if e < b && !(lex::is_space(next) || matches!(next, '(' | '{' | '\r' | '\n' | ';')) {
        return None;
    }
    let w = s.text(a, e).to_ascii_lowercase();
    KEYWORDS.contains(&w.as_str()).then_some(w)
}

/// `$name = …` (or `+=` …): the variable (when a plain one) and where the right side starts.
pub(crate) fn assignment(s: &Src, a: usize, b: usize) -> Option<(Option<String>, usize)> {
    let mut i = a;
    // casts before the variable: `[string]$x = …`
    while s.at(i) == '[' {
        i = lex::group_end(s, i)?;
        while lex::is_space(s.at(i)) {
            i += 1;
        }
    }
    if s.at(i) != '$' {
        return None;
    }
    let mut e = i + 1;
    if s.at(e) == '{' {
        while e < b && s.at(e) != '}' {
            e += 1;
        }
        e += 1;
    } else {
        while e < b && (s.at(e).is_alphanumeric() || s.at(e) == '_' || s.at(e) == ':') {
            e += 1;
        }
    }
    let name = s.text(i + 1, e).trim_matches(['{', '}']).to_string();
    let mut plain = true;
    // `$x.Prop = …`, `$x[0] = …`
    while e < b && (s.at(e) == '.' || s.at(e) == '[') {
        plain = false;
        if s.at(e) == '[' {
            e = lex::group_end(s, e)?;
        } else {
            e += 1;
            while e < b && (s.at(e).is_alphanumeric() || s.at(e) == '_') {
                e += 1;
            }
        }
    }
    while e < b && lex::is_space(s.at(e)) {
        e += 1;
    }
    let c = s.at(e);
    let op_len = if c == '=' && s.at(e + 1) != '=' {
        1
    } else if matches!(c, '+' | '-' | '*' | '/' | '%') && s.at(e + 1) == '=' {
        plain = false;
        2
    } else if c == '?' && s.at(e + 1) == '?' && s.at(e + 2) == '=' {
        3
    } else {
        return None;
    };
    Some((plain.then_some(name), e + op_len))
}

/// The variable (lower case, no `$`) of a statement `[array]::Reverse($x)` (also
/// `[System.Array]::Reverse( $x )`), which reverses it in place.
pub(crate) fn reversed_var(stmt: &str) -> Option<String> {
    let compact: String = stmt
        .chars()
        .take(256)
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let rest = compact
        .strip_prefix("[array]::reverse(")
        .or_else(|| compact.strip_prefix("[system.array]::reverse("))?;
    let name = rest
        .trim_end_matches(';')
        .strip_prefix('$')?
        .strip_suffix(')')?;
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| name.to_string())
}

/// The parts of `s[a..b]` between commas outside brackets, parentheses, braces and quotes
/// (`[Parameter(Mandatory=$true, Position=0)][string]$A = 'x', $B`: two parts).
pub(crate) fn top_level_commas(s: &Src, a: usize, b: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = a;
    let mut j = a;
    while j < b {
        let c = s.at(j);
        if lex::is_single_quote(c) {
            j = lex::single_end(s, j).unwrap_or(b);
            continue;
        }
        if lex::is_double_quote(c) {
            j = lex::double_end(s, j).unwrap_or(b);
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push((start, j));
                start = j + 1;
            }
            _ => {}
        }
        j += 1;
        if out.len() >= 256 {
            break;
        }
    }
    out.push((start, b));
    out
}

/// The entries of a hashtable literal `@{ K = V; 'K2' = V2 … }` whose `@` is at `a` (the text
/// ends before `b`): each key (quotes removed) with the char range of its value; `None` when
/// `s[a..b]` is not one whole hashtable literal.
pub(crate) fn hash_entries(s: &Src, a: usize, b: usize) -> Option<Vec<(String, usize, usize)>> {
    let mut a = a;
    while a < b && lex::is_space(s.at(a)) {
        a += 1;
    }
    if s.at(a) != '@' || s.at(a + 1) != '{' {
        return None;
    }
    let end = lex::group_end(s, a + 1)?;
    if !s.text(end, b).trim().is_empty() {
        return None;
    }
    let (stmts, _) = lex::statements(s, a + 2, end.saturating_sub(1));
    let mut out = Vec::new();
    for st in stmts.iter().take(64) {
        let (Some(&(x, _)), Some(&(_, y))) = (st.elems.first(), st.elems.last()) else {
            continue;
        };
        let text = s.text(x, y);
        let Some(eq) = text.find('=') else {
            continue;
        };
        let key = text[..eq].trim().trim_matches(['\'', '"']).to_string();
        if key.is_empty() || !key.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        out.push((key, x + text[..=eq].chars().count(), y));
    }
    Some(out)
}

/// `$x in LIST` → (`$x`, `LIST`).
pub(crate) fn split_in(cond: &str) -> Option<(&str, &str)> {
    let l = cond.to_ascii_lowercase();
    let k = l.find(" in ")?;
    Some((cond.get(..k)?, cond.get(k + 4..)?))
}

/// The top-level groups (`( )`, `$( )`, `@( )`, `{ }`, `@{ }`) of `s[a..b]`: their inner ranges.
pub(crate) fn groups(s: &Src, a: usize, b: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut j = a;
    while j < b {
        let c = s.at(j);
        if lex::is_single_quote(c) {
            j = lex::single_end(s, j).unwrap_or(b);
            continue;
        }
        if lex::is_double_quote(c) {
            // `"…$(cmd)…"`: the subexpressions of the string run.
            let e = lex::double_end(s, j).unwrap_or(b).min(b);
            let mut parts = Vec::new();
            lex::expandable_parts(s, j + 1, e.saturating_sub(1).max(j + 1), &mut parts);
            for p in parts {
                if let Part::Sub(x, y) = p {
                    out.push((x, y));
                }
            }
            j = e;
            continue;
        }
        if c == '`' {
            j += 2;
            continue;
        }
        if c == '#' && (j == a || lex::is_space(s.at(j.saturating_sub(1)))) {
            j = lex::comment_end(s, j);
            continue;
        }
        if matches!(c, '(' | '{') {
            let Some(e) = lex::group_end(s, j).filter(|e| *e <= b) else {
                j += 1;
                continue;
            };
            out.push((j + 1, e - 1));
            j = e;
            continue;
        }
        j += 1;
    }
    out
}
