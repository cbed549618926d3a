//! SQL that a query writes and a client then runs: `psql -Atc "select 'DROP TABLE ' ||
//! tablename || ';' from pg_tables" | psql`, or the same query's output saved to a file that a
//! later `psql -f FILE` (or `mysql < FILE`) runs. The query itself only reads; the statements
//! its string literals spell are what runs, once per row. This module finds those statements
//! and whether a client runs the query's output; the engine rates them as SQL.

use riskgate_shell::{ParsedCommand, SimpleCommand, StdinSource};

/// Statement verbs whose generation matters (what a "drop everything" script writes).
const VERBS: &[&str] = &[
    "drop", "truncate", "delete", "alter", "update", "grant", "revoke",
];

/// Most pipe hops followed from the query to a client (`| grep -v x | psql`).
const MAX_HOPS: usize = 4;

/// The statements the string literals of `sql` spell, one per literal that opens with a
/// statement verb, with the values the query fills in (`|| tablename ||`, `%I`, a `concat`
/// argument) written as `generated_name` and the literal that follows appended
/// (`'TRUNCATE TABLE ' || tablename || ' CASCADE;'` → `TRUNCATE TABLE generated_name
/// CASCADE;`). `None` when no literal does.
pub(crate) fn generated_statements(sql: &str) -> Option<String> {
    let literals = literals(sql);
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while let Some((_, text)) = literals.get(k) {
        k += 1;
        let first = text
            .split_whitespace()
            .next()
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        if !VERBS.contains(&first.as_str()) || text.split_whitespace().count() < 2 {
            continue;
        }
        let mut stmt = text
            .replace("%I", "generated_name")
            .replace("%s", "generated_name");
        if !stmt.contains("generated_name") {
            stmt.push_str("generated_name");
        }
        // the literal that closes it (`' CASCADE;'`), when it is not a statement of its own
        if let Some((_, next)) = literals.get(k)
            && next
                .split_whitespace()
                .next()
                .is_none_or(|w| !VERBS.contains(&w.to_ascii_lowercase().as_str()))
        {
            stmt.push_str(next);
            k += 1;
        }
        if !stmt.trim_end().ends_with(';') {
            stmt.push(';');
        }
        out.push(stmt);
        if out.len() >= 16 {
            break;
        }
    }
    (!out.is_empty()).then(|| out.join("\n"))
}

/// The single-quoted literals of `sql` with their offsets (`''` is a quote inside one).
fn literals(sql: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = sql.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '\'' {
            continue;
        }
        let mut text = String::new();
        while let Some((_, d)) = chars.next() {
            if d == '\'' {
                if chars.peek().is_some_and(|(_, e)| *e == '\'') {
                    chars.next();
                    text.push('\'');
                    continue;
                }
                break;
            }
            text.push(d);
        }
        out.push((i, text));
        if out.len() >= 64 {
            break;
        }
    }
    out
}

/// Whether what command `index` prints is run by a database client: piped into one (through
/// at most a few filters), or written to a file that a later client reads (`-f FILE`,
/// `--file=FILE`, `< FILE`, `source FILE`).
pub(crate) fn output_run_by_client(parsed: &ParsedCommand, index: usize) -> bool {
    let cmds = &parsed.commands;
    let mut at = index;
    for _ in 0..MAX_HOPS {
        let Some((next, c)) = cmds
            .iter()
            .enumerate()
            .find(|(_, c)| c.stdin == Some(StdinSource::Pipe { index: at }))
        else {
            break;
        };
        if runs_stdin(c) {
            return true;
        }
        at = next;
    }
    let Some(c) = cmds.get(index) else {
        return false;
    };
    let files: Vec<&str> = c
        .redirects
        .iter()
        .filter(|r| matches!(r.op.as_str(), ">" | ">>" | ">|" | "1>"))
        .map(|r| r.target.text.as_str())
        .collect();
    cmds.iter()
        .skip(index + 1)
        .any(|later| files.iter().any(|f| runs_file(later, f)))
}

/// A client that reads its statements from stdin (no statement option given).
fn runs_stdin(c: &SimpleCommand) -> bool {
    riskgate_shell::is_sql_client(&c.program)
        && !c.raw_argv.iter().skip(1).any(|w| {
            matches!(
                w.text.as_str(),
                "-c" | "--command" | "-e" | "--execute" | "-q" | "--query" | "-f" | "--file"
            )
        })
}

/// A client that runs the statements of `file`.
fn runs_file(c: &SimpleCommand, file: &str) -> bool {
    if !riskgate_shell::is_sql_client(&c.program) {
        return false;
    }
    if c.stdin
        == Some(StdinSource::File {
            path: file.to_string(),
        })
    {
        return true;
    }
    let argv: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
    argv.windows(2)
        .any(|w| matches!(w[0], "-f" | "--file" | "-i" | "--init-file" | "source") && w[1] == file)
        || argv.iter().any(|a| {
            a.strip_prefix("--file=")
                .or_else(|| a.strip_prefix("-f"))
                .is_some_and(|v| v == file)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_spelled_by_literals() {
        assert_eq!(
            generated_statements(
                "select 'TRUNCATE TABLE ' || tablename || ' CASCADE;' from pg_tables"
            )
            .as_deref(),
            Some("TRUNCATE TABLE generated_name CASCADE;")
        );
        assert_eq!(
            generated_statements(
                "SELECT CONCAT('DROP TABLE ', table_name, ';') FROM information_schema.tables"
            )
            .as_deref(),
            Some("DROP TABLE generated_name;")
        );
        assert_eq!(
            generated_statements("select format('DROP TABLE %I CASCADE', tablename) from t")
                .as_deref(),
            Some("DROP TABLE generated_name CASCADE;")
        );
        assert!(generated_statements("select tablename from pg_tables where x = 'drop'").is_none());
        assert!(generated_statements("select 'it''s' || name from t").is_none());
    }

    #[test]
    fn output_run_by_a_client() {
        let run = |cmd: &str| output_run_by_client(&riskgate_shell::parse(cmd), 0);
        assert!(run("psql -Atc \"select 1\" | psql shop"));
        assert!(run("psql -Atc \"select 1\" | grep -v x | psql shop"));
        assert!(run(
            "psql -Atc \"select 1\" > /tmp/t.sql\npsql -f /tmp/t.sql"
        ));
        assert!(run("mysql -N -e 'select 1' > t.sql && mysql shop < t.sql"));
        assert!(!run("psql -Atc \"select 1\" > /tmp/t.sql\ncat /tmp/t.sql"));
        assert!(!run("psql -Atc \"select 1\" | less"));
        assert!(!run("psql -Atc \"select 1\" | psql -c 'select 2'"));
    }
}
