//! PowerShell string literals that are only data: a raw pattern inside a string (quoted or a
//! here-string) whose value is only written to a file or shown — the literal (or an array of
//! literals) at the head of a pipeline whose every later stage writes or shows
//! (`'vssadmin delete shadows' | Set-Content fixtures\x.txt`, `@('rm -rf /', …) |
//! ForEach-Object { Write-Host "case: $_" }`), or assigned to a variable whose every use does
//! the same (`$cases = 'format c:', …; $cases | ForEach-Object { Write-Output $_ }`). A stage
//! that runs anything (`iex`, `&`, `Invoke-Command`, a subexpression, a script file written)
//! keeps the text code; what the parser runs from a string is matched on its own anyway.
//! Lexical, linear in the text, conservative.

/// Cmdlets that write or show their input and run nothing (lower case).
const WRITERS: &[&str] = &[
    "out-file",
    "set-content",
    "add-content",
    "write-output",
    "write-host",
    "write-verbose",
    "write-warning",
    "write-information",
    "write-debug",
    "out-string",
    "out-host",
    "out-null",
    "tee-object",
    "format-table",
    "format-list",
    "sort-object",
    "select-object",
    "measure-object",
];

/// Words that make a stage run something, or write a file something runs.
const RUNS: &[&str] = &[
    "$(",
    "iex",
    "invoke-",
    "start-",
    "&",
    "[scriptblock]",
    ".invoke",
    "powershell",
    "pwsh",
    "cmd",
    ".ps1",
    ".psm1",
    ".bat",
    ".cmd",
    ".vbs",
    ".js",
    ".exe",
];

/// A string literal found by [`scan`]: its byte range, and its statement's.
struct Literal {
    start: usize,
    end: usize,
    stmt_start: usize,
    stmt_end: usize,
}

/// The end (exclusive) of the quoted string or here-string opening at `i`, if one does.
fn literal_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'@' if matches!(b.get(i + 1), Some(b'\'' | b'"'))
            && matches!(b.get(i + 2), Some(b'\n' | b'\r')) =>
        {
            let q = b[i + 1];
            let mut k = i + 2;
            while k + 2 < b.len() {
                if b[k] == b'\n' && b[k + 1] == q && b[k + 2] == b'@' {
                    return Some(k + 3);
                }
                k += 1;
            }
            None
        }
        b'\'' => {
            let mut k = i + 1;
            while k < b.len() {
                if b[k] == b'\'' {
                    if b.get(k + 1) == Some(&b'\'') {
                        k += 2;
                        continue;
                    }
                    return Some(k + 1);
                }
                k += 1;
            }
            None
        }
        b'"' => {
            let mut k = i + 1;
            while k < b.len() {
                match b[k] {
                    b'`' => k += 2,
                    b'"' => return Some(k + 1),
                    _ => k += 1,
                }
            }
            None
        }
        _ => None,
    }
}

/// The literal holding `s..e` and its statement (split at top-level `;` and newlines).
fn scan(src: &str, s: usize, e: usize) -> Option<Literal> {
    let b = src.as_bytes();
    let mut depth = 0i32;
    let mut stmt_start = 0;
    let mut found: Option<(usize, usize, usize)> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(end) = literal_end(b, i) {
            if found.is_none() && i <= s && e <= end {
                found = Some((i, end, stmt_start));
            }
            i = end;
            continue;
        }
        match c {
            b'#' if i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            b';' | b'\n' if depth <= 0 => {
                if let Some((a, z, st)) = found {
                    return Some(Literal {
                        start: a,
                        end: z,
                        stmt_start: st,
                        stmt_end: i,
                    });
                }
                stmt_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    found.map(|(a, z, st)| Literal {
        start: a,
        end: z,
        stmt_start: st,
        stmt_end: b.len(),
    })
}

/// `text` with its string literals removed (what is left is the code around them).
fn without_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(end) = literal_end(b, i) {
            out.push(' ');
            i = end;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `text` split at top-level `|` (outside literals and brackets).
fn stages(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    let mut i = 0;
    while i < b.len() {
        if let Some(end) = literal_end(b, i) {
            i = end;
            continue;
        }
        match b[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            b'|' if depth == 0 => {
                out.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[from..]);
    out
}

fn runs_something(text: &str) -> bool {
    let l = without_literals(text).to_ascii_lowercase();
    RUNS.iter().any(|w| l.contains(w))
}

/// A statement of a block that only writes or shows: a writer, or a value piped to writers.
fn writes_only(stmt: &str) -> bool {
    let st = stages(stmt);
    st.iter().enumerate().all(|(k, stage)| {
        let t = stage.trim();
        let first = t
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        WRITERS.contains(&first.as_str())
            || k == 0 && (t.starts_with('$') || t.starts_with(['\'', '"']))
    })
}

/// A pipeline stage that only writes or shows what it gets: a writer, or `ForEach-Object`
/// (`%`) whose block only writes or shows.
fn writer_stage(stage: &str) -> bool {
    let t = stage.trim();
    if t.is_empty() || runs_something(t) {
        return false;
    }
    let first = t
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if WRITERS.contains(&first.as_str()) {
        return true;
    }
    let head = first.trim_end_matches('{');
    if !matches!(head, "foreach-object" | "%" | "foreach") {
        return false;
    }
    let (Some(a), Some(z)) = (t.find('{'), t.rfind('}')) else {
        return false;
    };
    t.get(a + 1..z).is_some_and(|block| {
        block
            .split(['\n', ';'])
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .all(writes_only)
    })
}

/// Whether the code left around a statement's literals is only an array of them.
fn only_literals(code: &str) -> bool {
    without_literals(code)
        .chars()
        .all(|c| c.is_whitespace() || matches!(c, ',' | '@' | '(' | ')'))
}

/// Whether `$name` is used later (in `rest`) and every use only writes or shows its value.
fn uses_only_write(rest: &str, name: &str) -> bool {
    let var = format!("${}", name.to_ascii_lowercase());
    let lower = rest.to_ascii_lowercase();
    let mut from = 0;
    let mut uses = 0;
    while let Some(k) = lower.get(from..).and_then(|t| t.find(&var)) {
        let at = from + k;
        from = at + var.len();
        if lower[from..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        uses += 1;
        if uses > 64 {
            return false;
        }
        // the use's statement
        let st = lower[..at].rfind(['\n', ';']).map_or(0, |p| p + 1);
        let en = lower[at..]
            .find(['\n', ';'])
            .map_or(lower.len(), |p| at + p);
        let stmt = rest.get(st..en).unwrap_or("").trim();
        let l = stmt.to_ascii_lowercase();
        let ok = if l.starts_with(&var) {
            // `$x | writer …`
            let st = stages(stmt);
            st.len() > 1 && st.iter().skip(1).all(|x| writer_stage(x))
        } else if l.starts_with("foreach") && l.contains(&format!(" in {var})")) {
            // `foreach ($c in $x) { writers }` on one line
            match (stmt.find('{'), stmt.rfind('}')) {
                (Some(a), Some(z)) if a < z => {
                    !runs_something(&stmt[a..z])
                        && stmt[a + 1..z]
                            .split(['\n', ';'])
                            .map(str::trim)
                            .filter(|x| !x.is_empty())
                            .all(writes_only)
                }
                _ => false,
            }
        } else {
            // a writer given it: `Write-Host $x`, `Set-Content f -Value $x`
            !runs_something(stmt) && writes_only(stmt)
        };
        if !ok {
            return false;
        }
    }
    // assigned and never used: the text may be read another way later (kept code, as for
    // here-strings)
    uses > 0
}

/// Whether the raw match `s..e` of `source` lies in a PowerShell string literal that is only
/// written or shown.
pub(crate) fn in_written_literal(source: &str, s: usize, e: usize) -> bool {
    let Some(lit) = scan(source, s, e) else {
        return false;
    };
    let Some(stmt) = source.get(lit.stmt_start..lit.stmt_end) else {
        return false;
    };
    // a script written and run somewhere in the text (`Set-Content -Path $p -Value $x;
    // powershell -File $p`): the text may be that script's
    let code = without_literals(source).to_ascii_lowercase();
    if [
        ".ps1",
        ".psm1",
        ".bat",
        ".cmd",
        ".vbs",
        "iex",
        "invoke-expression",
        "start-process",
        " -file",
        " -command",
        " -encodedcommand",
    ]
    .iter()
    .any(|w| code.contains(w))
    {
        return false;
    }
    // an expandable string's subexpressions run (`"$(Remove-Item …)"`)
    if source
        .get(lit.start..lit.end)
        .is_none_or(|t| t.starts_with(['"', '@']) && t.contains("$("))
    {
        return false;
    }
    let st = stages(stmt);
    let Some(first) = st.first() else {
        return false;
    };
    let head = first.trim_start();
    // `$name = <literals>`: every use of `$name` writes or shows it
    if let Some(rest) = head.strip_prefix('$') {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_start();
        let Some(value) = after.strip_prefix('=') else {
            return false;
        };
        return !name.is_empty()
            && st.len() == 1
            && !value.starts_with('=')
            && only_literals(value)
            && source
                .get(lit.stmt_end..)
                .is_some_and(|r| uses_only_write(r, &name));
    }
    // `<literals> | writer …`
    only_literals(first) && st.iter().skip(1).all(|x| writer_stage(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(src: &str, pat: &str) -> bool {
        let s = src.find(pat).unwrap_or(0);
        in_written_literal(src, s, s + pat.len())
    }

    #[test]
    fn literals_only_written_or_shown_are_data() {
        let p = "vssadmin delete shadows";
        assert!(data(
            "'vssadmin delete shadows /all' | Set-Content .\\f\\x.txt",
            p
        ));
        assert!(data(
            "@('rm -rf /', 'vssadmin delete shadows /all') | ForEach-Object { Write-Host \"case: $_\" }",
            p
        ));
        assert!(data(
            "$c = 'format c:', 'vssadmin delete shadows /all'\n$c | ForEach-Object { Write-Output $_ }",
            p
        ));
        assert!(data(
            "@\"\nvssadmin delete shadows /all\n\"@ | Out-File .\\samples\\bad.txt",
            p
        ));
        assert!(data("$x = 'vssadmin delete shadows'\nWrite-Host $x", p));
    }

    #[test]
    fn literals_run_or_written_to_scripts_stay_code() {
        let p = "vssadmin delete shadows";
        assert!(!data(
            "'vssadmin delete shadows /all' | Invoke-Expression",
            p
        ));
        assert!(!data("'vssadmin delete shadows /all' | iex", p));
        assert!(!data(
            "@('vssadmin delete shadows /all') | ForEach-Object { iex $_ }",
            p
        ));
        assert!(!data(
            "@('vssadmin delete shadows /all') | ForEach-Object { & cmd /c $_ }",
            p
        ));
        assert!(!data(
            "'vssadmin delete shadows /all' | Set-Content x.bat",
            p
        ));
        assert!(!data("$c = 'vssadmin delete shadows /all'\niex $c", p));
        assert!(!data(
            "$c = 'vssadmin delete shadows /all'\n$c | Out-File a.txt\ncmd /c $c",
            p
        ));
        assert!(!data("cmd /c 'vssadmin delete shadows /all'", p));
        assert!(!data(
            "Start-Process cmd '/c vssadmin delete shadows /all'",
            p
        ));
    }
}
