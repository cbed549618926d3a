//! Text of a command line that is data for every shell that reads it, whatever raw pattern it
//! holds: a comment line (`# vssadmin delete shadows …`, a `<# … #>` block), and a PowerShell
//! here-string assigned to a variable that is then only written to a file or shown
//! (`$fixture = @' … '@; $fixture | Out-File tests\data\x.txt`). Lexical and conservative:
//! a variable used any other way (`iex $x`, `& $x`, `cmd /c $x`, an argument) keeps its text
//! code; what the parser runs from it is matched on its own anyway.

/// Cmdlets that write or show their input and run nothing (lower case).
const WRITERS: &[&str] = &[
    "out-file",
    "set-content",
    "add-content",
    "write-output",
    "write-host",
    "out-string",
    "tee-object",
];

/// Whether the raw match `s..e` of `source` lies in a comment line or block, or in a
/// here-string that is only written or shown.
pub(crate) fn in_data(source: &str, s: usize, e: usize) -> bool {
    in_comment(source, s, e)
        || in_written_here_string(source, s, e)
        || crate::psliteral::in_written_literal(source, s, e)
}

fn line_bounds(source: &str, at: usize) -> (usize, usize) {
    let start = source
        .get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |k| k + 1);
    let end = source
        .get(at..)
        .and_then(|t| t.find('\n'))
        .map_or(source.len(), |k| at + k);
    (start, end)
}

/// A line whose first non-blank character is `#` (not `#!` on the first line, nor `#>`), or a
/// `<# … #>` block around the match.
fn in_comment(source: &str, s: usize, e: usize) -> bool {
    if let (Some(open), Some(before)) =
        (source.get(..s).and_then(|t| t.rfind("<#")), source.get(..s))
        && !before[open..].contains("#>")
        && source.get(e..).is_some_and(|t| t.contains("#>"))
    {
        return true;
    }
    // every line the match spans is a comment line
    let mut at = s;
    loop {
        let (ls, le) = line_bounds(source, at);
        let Some(line) = source.get(ls..le) else {
            return false;
        };
        let t = line.trim_start();
        if !t.starts_with('#') || t.starts_with("#>") || (ls == 0 && t.starts_with("#!")) {
            return false;
        }
        if le >= e {
            return true;
        }
        at = le + 1;
    }
}

/// `$name = @' … '@` (or `@" … "@`) around the match, with every later `$name` the input of a
/// writer (`$name | Out-File …`) or its `-Value`/`-InputObject`.
fn in_written_here_string(source: &str, s: usize, e: usize) -> bool {
    let Some(before) = source.get(..s) else {
        return false;
    };
    let Some(open) = before.rfind("@'\n").or_else(|| before.rfind("@\"\n")) else {
        return false;
    };
    let quote = source.as_bytes().get(open + 1).copied().unwrap_or(b'\'') as char;
    let close = format!("\n{quote}@");
    // the here-string closes after the match, and not before it
    if before[open..].contains(&close) {
        return false;
    }
    let Some(end) = source.get(e..).and_then(|t| t.find(&close)).map(|k| e + k) else {
        return false;
    };
    // assigned: `$name = @'` at the start of its line
    let (ls, _) = line_bounds(source, open);
    let head = source.get(ls..open).unwrap_or("").trim();
    let Some(name) = head
        .strip_suffix('=')
        .map(str::trim_end)
        .and_then(|h| h.strip_prefix('$'))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
    else {
        return false;
    };
    let var = format!("${}", name.to_ascii_lowercase());
    let rest = source
        .get(end + close.len()..)
        .unwrap_or("")
        .to_ascii_lowercase();
    // a script written and run afterwards: code
    if [
        ".ps1",
        ".bat",
        ".cmd",
        ".psm1",
        ".vbs",
        "iex",
        "invoke-expression",
        "start-process",
    ]
    .iter()
    .any(|w| rest.contains(w))
    {
        return false;
    }
    let mut uses = 0;
    let mut from = 0;
    while let Some(k) = rest.get(from..).and_then(|t| t.find(&var)) {
        let at = from + k;
        from = at + var.len();
        // `$fixtures` is another variable
        if rest[from..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        uses += 1;
        let after = rest[from..].trim_start();
        let piped_to_writer = after.strip_prefix('|').is_some_and(|t| {
            let prog = t.split_whitespace().next().unwrap_or("");
            WRITERS.contains(&prog)
        });
        let before = rest[..at].trim_end();
        let as_value = before.ends_with("-value") || before.ends_with("-inputobject");
        let (ls, _) = line_bounds(&rest, at);
        let line_prog = rest[ls..at].split_whitespace().next().unwrap_or("");
        if !(piped_to_writer || as_value && WRITERS.contains(&line_prog)) {
            return false;
        }
    }
    uses > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(src: &str, pat: &str) -> bool {
        let s = src.find(pat).unwrap_or(0);
        in_data(src, s, s + pat.len())
    }

    #[test]
    fn comments_and_written_here_strings_are_data() {
        let p = "vssadmin delete shadows";
        assert!(data(
            "# never run:\n#   vssadmin delete shadows /all\nWrite-Host ok",
            p
        ));
        assert!(data("<#\n vssadmin delete shadows /all\n#>\nGet-Date", p));
        assert!(!data("vssadmin delete shadows /all # cleanup", p));
        assert!(!data("Write-Host x\nvssadmin delete shadows /all", p));
        let here = "$f = @'\nvssadmin delete shadows /all\n'@\n$f | Out-File .\\t\\x.txt";
        assert!(data(here, p));
        let value = "$f = @'\nvssadmin delete shadows /all\n'@\nSet-Content -Path x.txt -Value $f";
        assert!(data(value, p));
        // run, or used any other way: code
        assert!(!data(
            "$f = @'\nvssadmin delete shadows /all\n'@\nInvoke-Expression $f",
            p
        ));
        assert!(!data(
            "$f = @'\nvssadmin delete shadows /all\n'@\n$f | Out-File x.txt; iex $f",
            p
        ));
        assert!(!data(
            "$f = @'\nvssadmin delete shadows /all\n'@\n$f | iex",
            p
        ));
        assert!(!data("$f = @'\nvssadmin delete shadows /all\n'@", p));
        assert!(!data(
            "$f = @'\nvssadmin delete shadows /all\n'@\n$f | Out-File x.ps1; & .\\x.ps1",
            p
        ));
    }
}
