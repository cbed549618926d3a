//! Text bash cannot parse, read as zsh or fish would run it: agents send zsh habits through a
//! bash hook (`diff =(sort a) =(sort b)`, `ls **/*.rs(.om[1,10])`) and run `zsh -c`/`fish -c`
//! strings. When bash's parser rejects a text, these rewrite its zsh or fish shapes into the
//! bash that does the same and the walker tries again; the commands themselves are never
//! dropped or changed, only the syntax around them, so what runs stays visible.
//!
//! - zsh: glob qualifiers at the end of a glob word are removed (`*.log(N.mh+24)` →
//!   `*.log`), `=(cmd)` is the process substitution `<(cmd)`, and an expansion of a literal
//!   (`${(s: :)${:-TEXT}}`) is TEXT.
//! - fish: `for X in L; …; end`, `while …; end`, `if …; else if …; else; end`, `begin …
//!   end`, `function NAME …; end`, `and`/`or` statements, `(cmd)` substitutions, `set [-x] NAME
//!   VALUE` and `source` of standard input.

/// Most bytes rewritten (longer texts keep their syntax error).
const MAX_BYTES: usize = 64 * 1024;

/// bash's `select NAME in WORDS; do …; done` menu loop (which the parser does not read) as a
/// `for` loop over the same words: any of them may be chosen, so the body runs for each.
pub(crate) fn select_to_for(text: &str) -> Option<String> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let mut changed = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let lead = line.len() - line.trim_start().len();
            let rest = &line[lead..];
            let is_select = rest.strip_prefix("select ").is_some_and(|r| {
                let name = r.split_whitespace().next().unwrap_or("");
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if is_select {
                changed = true;
                format!("{}for {}", &line[..lead], &rest["select ".len()..])
            } else {
                line.to_string()
            }
        })
        .collect();
    changed.then(|| lines.join("\n"))
}

/// Most nested zsh expansions followed (`${(s: :)${(j::)${:-…}}}`).
const MAX_ZSH_NESTING: usize = 8;

/// The text of a zsh expansion of a literal, which bash leaves as text: `${:-TEXT}` (the
/// empty name's default) with any flags and nesting around it (`${(s: :)${:-sudo dd …}}`,
/// `${(z)${:-…}}`). zsh expands it to TEXT (split into words by `s`/`z` flags, unquoted);
/// None when the shape is anything else or TEXT expands further.
pub(crate) fn zsh_literal_expansion(text: &str) -> Option<String> {
    let mut t = text.trim();
    for _ in 0..MAX_ZSH_NESTING {
        t = t.strip_prefix("${")?.strip_suffix('}')?;
        // flags: `(s: :)`, `(j::)`, `(z)`, `(%%)`, `(U)` …
        if let Some(rest) = t.strip_prefix('(') {
            let close = rest.find(')')?;
            t = &rest[close + 1..];
        }
        if let Some(lit) = t.strip_prefix(":-") {
            return (!lit.contains(['$', '`', '}'])).then(|| lit.to_string());
        }
        if !t.starts_with("${") {
            return None;
        }
    }
    None
}

/// The zsh reading of `text` in bash syntax, if it differs.
pub(crate) fn zsh_to_bash(text: &str) -> Option<String> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut quote: Option<u8> = None;
    let mut word_start = true;
    let mut word_has_glob = false;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if c == b'\\' && q == b'"' && i + 1 < b.len() {
                push_byte(&mut out, text, i);
                push_byte(&mut out, text, i + 1);
                i += 2;
                continue;
            }
            push_byte(&mut out, text, i);
            i += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => {
                quote = Some(c);
                word_start = false;
            }
            b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b'<' | b'>' => {
                word_start = true;
                word_has_glob = false;
            }
            b'=' if word_start && b.get(i + 1) == Some(&b'(') => {
                out.push('<');
                i += 1;
                word_start = false;
                continue;
            }
            b'*' | b'?' | b']' => {
                word_has_glob = true;
                word_start = false;
            }
            b'(' if word_has_glob => {
                if let Some(end) = qualifier_end(b, i) {
                    i = end + 1;
                    continue;
                }
                word_start = false;
            }
            _ => word_start = false,
        }
        push_byte(&mut out, text, i);
        i += 1;
    }
    (out != text).then_some(out)
}

fn push_byte(out: &mut String, text: &str, i: usize) {
    // copy whole characters: `i` only ever stops on ASCII bytes or inside multi-byte ones,
    // which are copied as the bytes of their character
    if let Some(ch) = text.get(i..).and_then(|s| s.chars().next())
        && text.is_char_boundary(i)
    {
        out.push(ch);
    }
}

/// The index of the `)` that closes a glob qualifier list opened at `open` (`(N)`, `(.om[1,10])`,
/// `(N.mh+24)`), followed by the end of the word.
fn qualifier_end(b: &[u8], open: usize) -> Option<usize> {
    let mut k = open + 1;
    let mut bracket = 0;
    while k < b.len() && k - open <= 32 {
        let c = b[k];
        match c {
            b'[' => bracket += 1,
            b']' if bracket > 0 => bracket -= 1,
            b')' if bracket == 0 => {
                let after = b.get(k + 1);
                let ends = after.is_none_or(|a| {
                    matches!(
                        a,
                        b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b')' | b'\'' | b'"'
                    )
                });
                return (k > open + 1 && ends).then_some(k);
            }
            c if c.is_ascii_alphanumeric() || b".-/@=p*%^:+,".contains(&c) => {}
            _ => return None,
        }
        k += 1;
    }
    None
}

/// The fish reading of `text` in bash syntax, if it differs (statements split at `;` and
/// newlines outside quotes).
pub(crate) fn fish_to_bash(text: &str) -> Option<String> {
    if text.len() > MAX_BYTES {
        return None;
    }
    // only text that shows fish's own syntax: a block closed by `end`, an `and`/`or`
    // statement, `| source`, a `set` of a `(cmd)` substitution (a stray parenthesis of a
    // broken bash line is no fish)
    let stmts = statements(text);
    let fish = stmts.iter().any(|st| {
        let t = st.trim();
        t == "end"
            || t.starts_with("and ")
            || t.starts_with("or ")
            || t.ends_with("| source")
            || (t.starts_with("set ") && t.contains(" ("))
    });
    if !fish {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<&'static str> = Vec::new();
    for stmt in stmts {
        let s = stmt.trim();
        if s.is_empty() {
            continue;
        }
        let first = s.split_whitespace().next().unwrap_or("");
        let rest = s[first.len()..].trim_start();
        let line = match first {
            "end" => match stack.pop() {
                Some(close) => close.to_string(),
                None => return None,
            },
            "for" | "while" => {
                stack.push("done");
                format!("{}; do", substitutions(s))
            }
            "if" => {
                stack.push("fi");
                format!("if {}; then", substitutions(rest))
            }
            "else" if rest.starts_with("if ") => {
                format!("elif {}; then", substitutions(&rest[3..]))
            }
            "else" => "else".to_string(),
            "begin" => {
                stack.push("}");
                "{".to_string()
            }
            "function" => {
                stack.push("}");
                let name = rest.split_whitespace().next().unwrap_or("f");
                format!("{name}() {{")
            }
            "and" => format!("&& {}", substitutions(rest)),
            "or" => format!("|| {}", substitutions(rest)),
            "set" => {
                // `set -gx NAME VALUE…`: the options come first
                let words: Vec<&str> = rest
                    .split_whitespace()
                    .skip_while(|w| w.starts_with('-'))
                    .collect();
                match words.split_first() {
                    Some((name, value)) => {
                        format!("{name}=\"{}\"", substitutions(&value.join(" ")))
                    }
                    None => s.to_string(),
                }
            }
            _ => substitutions(s),
        };
        // `and`/`or` continue the previous statement
        if (line.starts_with("&& ") || line.starts_with("|| "))
            && let Some(prev) = out.last_mut()
        {
            prev.push(' ');
            prev.push_str(&line);
            continue;
        }
        out.push(line);
    }
    if !stack.is_empty() {
        return None;
    }
    let joined = out.join("\n");
    (joined != text).then_some(joined)
}

/// fish's `(cmd)` at the start of a word is `$(cmd)`; `source` of standard input (no file) is a
/// shell reading it.
fn substitutions(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    let mut quote: Option<char> = None;
    for ch in s.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '\'' => quote = Some(ch),
            None if ch == '(' && prev.is_none_or(|p| p == ' ' || p == '=') => out.push('$'),
            None => {}
        }
        out.push(ch);
        prev = Some(ch);
    }
    if let Some(head) = out.strip_suffix("| source") {
        return format!("{head}| sh");
    }
    out
}

/// Statements of fish text: split at `;` and newlines outside quotes and parentheses.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0i32;
    for ch in text.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None => match ch {
                '\'' | '"' => quote = Some(ch),
                '(' => depth += 1,
                ')' => depth -= 1,
                ';' | '\n' if depth <= 0 => {
                    out.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            },
        }
        cur.push(ch);
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zsh_shapes() {
        assert_eq!(
            zsh_to_bash("ls -l src/**/*.rs(.om[1,10])").as_deref(),
            Some("ls -l src/**/*.rs")
        );
        assert_eq!(
            zsh_to_bash("rm -f -- *.log(N.mh+24)").as_deref(),
            Some("rm -f -- *.log")
        );
        assert_eq!(
            zsh_to_bash("diff =(sort a.txt) =(sort b.txt)").as_deref(),
            Some("diff <(sort a.txt) <(sort b.txt)")
        );
        // a glob word is kept whole; what is not a qualifier list stays
        assert_eq!(zsh_to_bash("rm -rf /*(N)").as_deref(), Some("rm -rf /*"));
        assert!(zsh_to_bash("echo 'x(N)'").is_none());
        assert!(zsh_to_bash("f() { ls; }").is_none());
    }

    #[test]
    fn fish_shapes() {
        assert_eq!(
            fish_to_bash("for f in *.md; wc -l $f; end").as_deref(),
            Some("for f in *.md; do\nwc -l $f\ndone")
        );
        assert_eq!(
            fish_to_bash("if test -d build; rm -rf build; end").as_deref(),
            Some("if test -d build; then\nrm -rf build\nfi")
        );
        assert_eq!(
            fish_to_bash("make; and rm -rf ~/.cache/x").as_deref(),
            Some("make && rm -rf ~/.cache/x")
        );
        assert_eq!(
            fish_to_bash("set d (mktemp -d); and rm -rf $d").as_deref(),
            Some("d=\"$(mktemp -d)\" && rm -rf $d")
        );
        assert_eq!(
            fish_to_bash("curl -sL https://x.example/i | source").as_deref(),
            Some("curl -sL https://x.example/i | sh")
        );
        assert_eq!(
            fish_to_bash("set -l n (count src/*.go); echo $n files").as_deref(),
            Some("n=\"$(count src/*.go)\"\necho $n files")
        );
        assert!(fish_to_bash("end").is_none());
        assert_eq!(
            select_to_for("PS3='x: '\nselect s in a b; do\n  echo $s\ndone").as_deref(),
            Some("PS3='x: '\nfor s in a b; do\n  echo $s\ndone")
        );
        assert!(select_to_for("echo select a").is_none());
        // a stray parenthesis of a broken bash line is no fish
        assert!(fish_to_bash("find . ( -name a.out -o -name *.o ) -print").is_none());
    }
}
