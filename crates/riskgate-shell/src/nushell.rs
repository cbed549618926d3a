//! Nushell text (`nu -c '…'`), read as the bash that does the same: its pipelines pass tables,
//! not text, and its loops are closures (`ls ~ | each { |f| rm -r $f.name }`), which bash's
//! parser either rejects or reads as something else. The stages that select (`where`, `first`)
//! become filters, those that only reshape (`select`, `sort-by`, `get`) pass everything on, an
//! `each` closure becomes a `for` loop over the entries before it (`$f.name`, `$p.pid` are the
//! entry), `glob`, `open`, `save` and `http` become `find`/`ls`, `cat`, a redirection and
//! `curl`. Commands are never dropped: a stage it does not know is kept as it is.

/// Longest text translated.
const MAX_NU_BYTES: usize = 16 * 1024;
/// Most closures nested (`each { … each { … } }`).
const MAX_NU_DEPTH: u32 = 4;

/// The bash reading of nushell `text`, if it has a nushell shape to translate.
pub(crate) fn nu_to_bash(text: &str) -> Option<String> {
    if text.len() > MAX_NU_BYTES {
        return None;
    }
    let out = script(text, 0)?;
    (out != text).then_some(out)
}

fn script(text: &str, depth: u32) -> Option<String> {
    if depth > MAX_NU_DEPTH {
        return None;
    }
    let parts: Vec<String> = split_top(text, &[';', '\n'])
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| pipeline(s, depth))
        .collect::<Option<_>>()?;
    Some(parts.join("; "))
}

/// Split at `seps` outside quotes, braces, brackets and parentheses.
fn split_top(text: &str, seps: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0i32;
    for ch in text.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None => match ch {
                '\'' | '"' | '`' => quote = Some(ch),
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                c if depth <= 0 && seps.contains(&c) => {
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

/// The first quoted or bare word after an operator in a `where` condition (`name =~
/// "postgres"` → `postgres`).
fn where_pattern(cond: &str) -> Option<String> {
    let at = [
        "=~",
        "==",
        " like ",
        "str contains",
        "starts-with",
        "ends-with",
    ]
    .iter()
    .filter_map(|op| cond.find(op).map(|i| i + op.len()))
    .min()?;
    let rest = cond.get(at..)?.trim();
    let word = rest
        .strip_prefix(['"', '\''])
        .and_then(|r| r.split(['"', '\'']).next())
        .unwrap_or_else(|| rest.split_whitespace().next().unwrap_or(""));
    (!word.is_empty()).then(|| word.to_string())
}

/// Quote a word for bash (single quotes).
fn quoted(w: &str) -> String {
    format!("'{}'", w.replace('\'', "'\\''"))
}

/// `$v.name`, `$v.pid`, `$v` → `"$v"` in a closure's body.
fn entry_refs(body: &str, var: &str) -> String {
    let pat = format!("${var}");
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find(&pat) {
        out.push_str(&rest[..i]);
        let after = &rest[i + pat.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            out.push_str(&pat);
            rest = after;
            continue;
        }
        // the fields of the entry (`.name`, `.pid`)
        let field_end = after
            .strip_prefix('.')
            .map(|f| {
                1 + f
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .unwrap_or(f.len())
            })
            .unwrap_or(0);
        out.push_str(&format!("\"${var}\""));
        rest = &after[field_end..];
    }
    out.push_str(rest);
    out
}

/// One stage of a pipeline, as bash.
enum Stage {
    Cmd(String),
    /// `each { |v| body }`.
    Each(String, String),
    /// `save [-f] FILE`: the pipeline's output goes to FILE.
    Save(String),
}

fn stage(s: &str, depth: u32) -> Option<Stage> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let first = *words.first()?;
    let rest = s[first.len()..].trim();
    Some(match first {
        "each" | "par-each" | "for-each" => {
            let inner = rest.strip_prefix('{')?.strip_suffix('}')?.trim();
            let (var, body) = match inner.strip_prefix('|') {
                Some(r) => {
                    let end = r.find('|')?;
                    (r[..end].trim().to_string(), &r[end + 1..])
                }
                None => ("it".to_string(), inner),
            };
            if var.is_empty() || !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return None;
            }
            let body = script(&entry_refs(body, &var), depth + 1)?;
            Stage::Each(var, body)
        }
        "where" | "filter" => Stage::Cmd(match where_pattern(rest) {
            Some(p) => format!("grep -- {}", quoted(&p)),
            None => "grep -e ''".to_string(),
        }),
        "select" | "get" | "sort-by" | "sort" | "reverse" | "uniq" | "flatten" | "compact"
        | "table" | "lines" | "to" | "from" | "str" | "rename" | "update" | "insert"
        | "default" | "enumerate" => Stage::Cmd("cat".into()),
        "first" | "take" => Stage::Cmd(format!("head -n {}", words.get(1).unwrap_or(&"1"))),
        "last" => Stage::Cmd(format!("tail -n {}", words.get(1).unwrap_or(&"1"))),
        "length" => Stage::Cmd("wc -l".into()),
        "open" => Stage::Cmd(format!("cat {rest}")),
        "save" => {
            let file = words.iter().skip(1).find(|w| !w.starts_with('-'))?;
            Stage::Save((*file).to_string())
        }
        "glob" => {
            let pat = words.get(1)?.trim_matches(['"', '\'']);
            Stage::Cmd(match pat.split_once("/**/") {
                Some((root, name)) if !name.contains('/') => {
                    format!("find {root} -name {}", quoted(name))
                }
                _ => format!("ls -d {pat}"),
            })
        }
        "http" => {
            let method = words.get(1)?.to_ascii_uppercase();
            let args = words.get(2..).unwrap_or(&[]).join(" ");
            match method.as_str() {
                "GET" => Stage::Cmd(format!("curl -s {args}")),
                m => Stage::Cmd(format!("curl -s -X {m} {args}")),
            }
        }
        _ => Stage::Cmd(s.to_string()),
    })
}

fn pipeline(s: &str, depth: u32) -> Option<String> {
    let stages: Vec<Stage> = split_top(s, &['|'])
        .iter()
        .map(|p| stage(p.trim(), depth))
        .collect::<Option<_>>()?;
    let mut before: Vec<String> = Vec::new();
    let mut out: Option<String> = None;
    for st in stages {
        match st {
            Stage::Cmd(c) => match out.as_mut() {
                Some(o) => {
                    o.push_str(" | ");
                    o.push_str(&c);
                }
                None => before.push(c),
            },
            Stage::Each(var, body) => {
                // (once `out` holds the pipeline, later stages are appended to it)
                let source = out.take().unwrap_or_else(|| before.join(" | "));
                before.clear();
                out = Some(format!("for {var} in $({source}); do {body}; done"));
            }
            Stage::Save(file) => {
                let cmd = out.take().unwrap_or_else(|| before.join(" | "));
                before.clear();
                out = Some(format!("{cmd} > {}", quoted(&file)));
            }
        }
    }
    Some(out.unwrap_or_else(|| before.join(" | ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closures_become_loops_over_the_entries() {
        assert_eq!(
            nu_to_bash("ls ~ | each { |f| rm -r -f $f.name }").as_deref(),
            Some("for f in $(ls ~); do rm -r -f \"$f\"; done")
        );
        assert_eq!(
            nu_to_bash("ps | where name =~ \"postgres\" | each { |p| kill -9 $p.pid }").as_deref(),
            Some("for p in $(ps | grep -- 'postgres'); do kill -9 \"$p\"; done")
        );
        assert_eq!(
            nu_to_bash("glob /var/backups/**/*.tar.gz | each { |f| rm $f }").as_deref(),
            Some("for f in $(find /var/backups -name '*.tar.gz'); do rm \"$f\"; done")
        );
    }

    #[test]
    fn tables_reshaped_and_saved() {
        assert_eq!(
            nu_to_bash("ps | where cpu > 50 | select pid name cpu").as_deref(),
            Some("ps | grep -e '' | cat")
        );
        assert_eq!(
            nu_to_bash("http get https://x.example/i.nu | save -f /tmp/i.nu").as_deref(),
            Some("curl -s https://x.example/i.nu > '/tmp/i.nu'")
        );
        // plain commands are left as they are
        assert_eq!(nu_to_bash("rm -rf ~/x"), None);
        // an unclosed closure is not guessed at
        assert_eq!(nu_to_bash("ls | each { |f| rm $f"), None);
    }
}
