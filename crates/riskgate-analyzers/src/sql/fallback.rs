//! Keyword rating for SQL that `sqlparser` cannot parse (vendor syntax, fragments, typos). It
//! works on the statement with comments removed and string literals emptied, so that
//! `SELECT '-- DROP TABLE x'` stays a read.

use std::sync::LazyLock;

use regex::Regex;
use riskgate_model::RiskLevel::{Critical, High, Low, Medium, Safe};

use super::Rating;

struct Pat {
    re: Regex,
    rating: fn() -> Rating,
}

fn pat(p: &str, rating: fn() -> Rating) -> Option<Pat> {
    Regex::new(&format!("(?i){p}"))
        .ok()
        .map(|re| Pat { re, rating })
}

static WHERE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(?i)\bWHERE\b").ok());
static DML: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)^\s*(?:WITH\b[\s\S]*\b)?(DELETE|UPDATE)\b").ok());

static PATTERNS: LazyLock<Vec<Pat>> = LazyLock::new(|| {
    [
        pat(r"\bxp_cmdshell\b|\bsys_exec\s*\(", || {
            Rating::new(
                "sql.os-command",
                Critical,
                "Runs an operating-system command on the database server",
                false,
                true,
            )
        }),
        pat(r"\bCOPY\b[\s\S]*\bPROGRAM\b", || {
            Rating::new(
                "sql.copy-program",
                Critical,
                "COPY … PROGRAM runs a shell command on the database server",
                false,
                true,
            )
        }),
        pat(r"\bDROP\s+(?:DATABASE|SCHEMA)\b", || {
            Rating::new(
                "sql.drop-database",
                Critical,
                "DROP DATABASE deletes a whole database",
                false,
                true,
            )
        }),
        pat(r"\bDROP\s+(?:TEMPORARY\s+)?TABLE\b", || {
            Rating::new(
                "sql.drop-table",
                High,
                "DROP TABLE deletes the table and all its data",
                false,
                true,
            )
        }),
        pat(r"\bTRUNCATE\b", || {
            Rating::new(
                "sql.truncate",
                High,
                "TRUNCATE removes every row of the table",
                false,
                true,
            )
        }),
        pat(r"\bALTER\b[\s\S]*\bDROP\s+(?:COLUMN\b|[A-Za-z_])", || {
            Rating::new(
                "sql.drop-column",
                High,
                "ALTER TABLE … DROP deletes a column and its data",
                false,
                true,
            )
        }),
        pat(r"\bOWNER\s+TO\b", || {
            Rating::new(
                "sql.alter-owner",
                High,
                "Changes an object's owner",
                true,
                false,
            )
        }),
        pat(r"\b(?:GRANT|REVOKE)\b", || {
            Rating::new(
                "sql.grant",
                High,
                "Grants or revokes privileges",
                true,
                false,
            )
        }),
        pat(
            r"\b(?:CREATE|ALTER|DROP|RENAME)\s+(?:USER|ROLE|LOGIN)\b|\bSET\s+PASSWORD\b",
            || {
                Rating::new(
                    "sql.user-admin",
                    High,
                    "Creates or changes a database user or role",
                    true,
                    false,
                )
            },
        ),
        pat(r"\bSHUTDOWN\b", || {
            Rating::new(
                "sql.shutdown",
                High,
                "Shuts the database server down",
                false,
                false,
            )
        }),
        pat(r"\bINTO\s+(?:OUTFILE|DUMPFILE)\b", || {
            Rating::new(
                "sql.write-file",
                High,
                "Writes a file on the database server",
                false,
                false,
            )
        }),
        pat(
            r"\bDELETE\b[\s\S]*\bWHERE\s+(?:1\s*=\s*1|TRUE|'(?:\w*)'\s*=\s*'(?:\w*)'|1)\s*$",
            || {
                Rating::new(
                    "sql.delete-all",
                    High,
                    "DELETE with an always-true WHERE removes every row",
                    false,
                    true,
                )
            },
        ),
        pat(r"\bDELETE\b", || {
            Rating::new("sql.delete", Medium, "Deletes rows", false, true)
        }),
        pat(
            r"\bUPDATE\b[\s\S]*\bWHERE\s+(?:1\s*=\s*1|TRUE|'(?:\w*)'\s*=\s*'(?:\w*)'|1)\s*$",
            || {
                Rating::new(
                    "sql.update-all",
                    High,
                    "UPDATE with an always-true WHERE changes every row",
                    false,
                    true,
                )
            },
        ),
        pat(r"\bUPDATE\b", || {
            Rating::new("sql.update", Medium, "Updates rows", false, true)
        }),
        pat(
            r"\bMERGE\b|\bREPLACE\s+INTO\b|\bUPSERT\b|\bLOAD\s+DATA\b",
            || {
                Rating::new(
                    "sql.upsert",
                    Medium,
                    "Inserts or replaces rows",
                    false,
                    true,
                )
            },
        ),
        pat(r"\bALTER\b", || {
            Rating::new("sql.alter-table", Medium, "Changes a schema", true, true)
        }),
        pat(r"\bDROP\b", || {
            Rating::new(
                "sql.drop-object",
                Medium,
                "Drops a database object",
                false,
                false,
            )
        }),
        pat(
            r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE|TRIGGER|EXTENSION)\b",
            || {
                Rating::new(
                    "sql.create-code",
                    Medium,
                    "Creates code that runs inside the database",
                    true,
                    false,
                )
            },
        ),
        pat(r"\bINSERT\b", || {
            Rating::new("sql.insert", Low, "Inserts rows", true, true)
        }),
        pat(r"\bCREATE\b", || {
            Rating::new("sql.create", Low, "Creates a database object", true, false)
        }),
        pat(
            r"^\s*\(?\s*(?:SELECT|SHOW|EXPLAIN|DESCRIBE|DESC|WITH|VALUES|TABLE)\b",
            || Rating::new("sql.select", Safe, "Reads data", true, false),
        ),
        pat(r"^\s*(?:PRAGMA|VACUUM|ANALYZE|ATTACH)\b", || {
            Rating::new(
                "sql.maintenance",
                Low,
                "Maintenance or session statement",
                true,
                false,
            )
        }),
        pat(
            r"^\s*(?:BEGIN|COMMIT|ROLLBACK|START|SET|USE|SAVEPOINT|RELEASE)\b",
            || {
                Rating::new(
                    "sql.session",
                    Safe,
                    "Session or transaction control",
                    true,
                    false,
                )
            },
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
});

/// Rate an unparsed statement (comments and strings already stripped).
pub(crate) fn rate(stripped: &str) -> Rating {
    let tables = crate::code::sql_tables(stripped);
    let has_where = WHERE.as_ref().is_some_and(|r| r.is_match(stripped));
    let dml = DML
        .as_ref()
        .and_then(|r| r.captures(stripped))
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_ascii_uppercase());
    if !has_where {
        let r = match dml.as_deref() {
            Some("DELETE") => Some(Rating::new(
                "sql.delete-all",
                High,
                "DELETE without a WHERE clause removes every row",
                false,
                true,
            )),
            Some("UPDATE") => Some(Rating::new(
                "sql.update-all",
                High,
                "UPDATE without a WHERE clause changes every row",
                false,
                true,
            )),
            _ => None,
        };
        if let Some(mut r) = r {
            r.resources = tables;
            return r;
        }
    }
    for p in PATTERNS.iter() {
        if p.re.is_match(stripped) {
            let mut r = (p.rating)();
            r.resources = tables;
            return r;
        }
    }
    Rating::new(
        "sql.unparsed",
        Low,
        "Statement could not be parsed",
        true,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_on_stripped_text() {
        assert_eq!(rate("DELETE FROM users").rule, "sql.delete-all");
        assert_eq!(rate("DELETE FROM users WHERE id = 3").rule, "sql.delete");
        assert_eq!(rate("DELETE FROM users WHERE 1=1").rule, "sql.delete-all");
        assert_eq!(
            rate("SELECT * FROM t INTO OUTFILE ''").rule,
            "sql.write-file"
        );
        assert_eq!(rate("SHUTDOWN").rule, "sql.shutdown");
        assert_eq!(rate("SELECT ''").rule, "sql.select");
        assert_eq!(rate("FROBNICATE x").rule, "sql.unparsed");
    }
}
