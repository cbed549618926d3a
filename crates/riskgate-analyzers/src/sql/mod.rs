//! SQL statements, Redis commands and Mongo shell code, rated.
//!
//! SQL is split into statements (quotes, dollar quotes and comments respected) and each is
//! parsed with `sqlparser` in the chosen dialect and rated: `DROP DATABASE` CRITICAL; `DROP
//! TABLE`, `TRUNCATE`, `DELETE`/`UPDATE` without a WHERE or with an always-true one HIGH;
//! filtered `DELETE`/`UPDATE` MEDIUM; `GRANT`/`REVOKE`, user administration and ownership changes
//! HIGH; `INSERT`/`CREATE` LOW or MEDIUM; reads SAFE. In production, data writes are one level
//! higher. A statement that does not parse is rated by keywords on its text with comments and
//! string literals removed, and the result is marked degraded (at least MEDIUM).
//!
//! ```
//! use riskgate_analyzers::sql::{assess_sql, Dialect, SqlOptions};
//! use riskgate_analyzers::Environment;
//! use riskgate_model::RiskLevel;
//!
//! let a = assess_sql("DELETE FROM users WHERE 1=1", Dialect::Generic, &SqlOptions::default());
//! assert_eq!(a.level, RiskLevel::High);
//! let prod = SqlOptions { environment: Environment::Production };
//! assert_eq!(assess_sql("UPDATE users SET name = 'x' WHERE id = 1", Dialect::Postgres, &prod).level, RiskLevel::High);
//! ```

mod client;
mod fallback;
mod mongo;
mod rate;
mod redis;
mod split;
mod tx;

use std::fmt;
use std::str::FromStr;

use riskgate_model::{ActionKind, Assessment, Finding, Location, RiskLevel, Span};
use serde::{Deserialize, Serialize};
use sqlparser::dialect::{GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use crate::Environment;
pub use client::shell_escapes;

pub use mongo::{assess_mongo, mongo_findings};
pub use redis::{assess_redis, redis_findings};

/// Inputs larger than this are only partly analyzed (degraded).
pub const MAX_SQL_BYTES: usize = 4 << 20;
/// At most this many statements are rated; the rest make the result degraded.
pub const MAX_STATEMENTS: usize = 10_000;

/// SQL dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Generic SQL (the default).
    #[default]
    Generic,
    /// PostgreSQL.
    Postgres,
    /// MySQL / MariaDB.
    #[serde(rename = "mysql")]
    MySql,
    /// SQLite.
    Sqlite,
}

impl Dialect {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Generic => "generic",
            Dialect::Postgres => "postgres",
            Dialect::MySql => "mysql",
            Dialect::Sqlite => "sqlite",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown dialect name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown SQL dialect `{0}` (expected generic, postgres, mysql or sqlite)")]
pub struct ParseDialectError(pub String);

impl FromStr for Dialect {
    type Err = ParseDialectError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "generic" | "ansi" | "sql" => Ok(Dialect::Generic),
            "postgres" | "postgresql" | "pg" | "psql" => Ok(Dialect::Postgres),
            "mysql" | "mariadb" => Ok(Dialect::MySql),
            "sqlite" | "sqlite3" => Ok(Dialect::Sqlite),
            _ => Err(ParseDialectError(s.to_string())),
        }
    }
}

/// Options for SQL (and Redis, Mongo) assessment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SqlOptions {
    /// The target environment; production raises data writes one level.
    #[serde(default)]
    pub environment: Environment,
}

/// How one statement is rated (internal).
#[derive(Debug, Clone)]
pub(crate) struct Rating {
    pub rule: &'static str,
    pub level: RiskLevel,
    pub description: String,
    pub reversible: bool,
    pub data_write: bool,
    pub resources: Vec<String>,
    pub mitigation: Option<&'static str>,
}

impl Rating {
    pub(crate) fn new(
        rule: &'static str,
        level: RiskLevel,
        description: impl Into<String>,
        reversible: bool,
        data_write: bool,
    ) -> Rating {
        Rating {
            rule,
            level,
            description: description.into(),
            reversible,
            data_write,
            resources: Vec::new(),
            mitigation: None,
        }
    }

    pub(crate) fn tables(mut self, tables: Vec<String>) -> Rating {
        for t in tables {
            let r = format!("table:{t}");
            if !self.resources.contains(&r) {
                self.resources.push(r);
            }
        }
        self
    }

    pub(crate) fn objects(mut self, names: Vec<String>) -> Rating {
        self.resources
            .extend(names.into_iter().map(|n| format!("db:{n}")));
        self
    }

    /// This statement is undone by the `ROLLBACK` that is statement `by` (1-based): it changes
    /// nothing, so it is at most LOW and raised in no environment.
    pub(crate) fn undo(&mut self, by: usize) {
        self.level = self.level.min(RiskLevel::Low);
        self.data_write = false;
        self.reversible = true;
        self.description = format!(
            "{} — undone by the ROLLBACK of statement {by}, which ends its transaction",
            self.description
        );
    }

    pub(crate) fn mitigation(mut self, m: &'static str) -> Rating {
        self.mitigation = Some(m);
        self
    }

    /// The finding for this rating of `matched` at `span`/`line`, escalated in production.
    pub(crate) fn finding(
        self,
        matched: &str,
        span: Span,
        line: u32,
        context: Option<String>,
        opts: &SqlOptions,
    ) -> Finding {
        let mut level = self.level;
        let mut description = self.description;
        let mut tags = vec![self.rule.split('.').next().unwrap_or("sql").to_string()];
        // what a statement does outside the store's data (a file written on the server, a
        // program run, data sent elsewhere) is not lowered by a development database's name
        let outside = match self.rule {
            "sql.attach-file" | "sql.write-file" | "sql.copy-to-file" => Some("tampering"),
            "sql.copy-program"
            | "sql.os-command"
            | "sql.client-shell"
            | "sql.create-code"
            | "sql.dangerous-function" => Some("remote-code"),
            "sql.copy-to-remote" | "sql.client-file" => Some("data-exposure"),
            _ => None,
        };
        tags.extend(outside.map(String::from));
        if opts.environment.is_production() && self.data_write && level < RiskLevel::Critical {
            level = level.raised(1);
            description = format!("{description} (production data)");
            tags.push("production".into());
            tags.push(riskgate_model::PRODUCTION_RAISED_TAG.into());
        }
        let score = match level {
            RiskLevel::Safe => 5,
            RiskLevel::Low => 28,
            RiskLevel::Medium => 48,
            RiskLevel::High => 72,
            RiskLevel::Critical => 95,
        };
        let mut f = Finding::new(self.rule, level, score, description)
            .reversible(self.reversible)
            .with_match(crate::code::truncate_text(matched.trim(), 240), Some(span))
            .with_location(Location {
                line: Some(line),
                context,
                ..Location::default()
            })
            .with_resources(self.resources);
        if let Some(m) = self.mitigation {
            f = f.with_mitigation(m);
        }
        f.tags = tags;
        f
    }
}

/// One statement of an SQL text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatementReport {
    /// 1-based index.
    pub index: usize,
    /// The statement text.
    pub text: String,
    /// Byte span in the input.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
    /// The rule that rated it (`sql.delete-all`).
    pub rule_id: String,
    /// Its level.
    pub level: RiskLevel,
    /// False when it did not parse and was rated by keywords.
    pub parsed: bool,
}

/// The full result for an SQL text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SqlReport {
    /// The dialect used.
    pub dialect: Dialect,
    /// The environment.
    pub environment: Environment,
    /// Every statement.
    pub statements: Vec<StatementReport>,
    /// The overall assessment (one finding per statement).
    pub assessment: Assessment,
}

impl SqlReport {
    /// A human rendering: the verdict, then one line per statement.
    pub fn render_text(&self) -> String {
        let mut out = crate::render::render_assessment(&self.assessment);
        if self.statements.len() > 1 {
            out.push_str("\nstatements:\n");
            for s in &self.statements {
                out.push_str(&format!(
                    "  {:>3}. line {:<4} {:<8} {}{}\n",
                    s.index,
                    s.line,
                    s.level,
                    crate::code::truncate_text(&s.text.replace('\n', " "), 80),
                    if s.parsed { "" } else { "  (not parsed)" }
                ));
            }
        }
        out
    }
}

/// `text` with client-side parameter placeholders (`%s`, `%(name)s`, `%d` of Python's DB-API
/// drivers) replaced by `0`, which the SQL parser accepts; the statement's shape is unchanged.
fn without_placeholders(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('%') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let named = after
            .strip_prefix('(')
            .and_then(|a| a.find(")s").map(|j| (a, j)))
            .filter(|(a, j)| {
                a[..*j]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        if let Some((_, j)) = named {
            out.push('0');
            rest = &after[j + 3..];
        } else if after.starts_with('s') || after.starts_with('d') {
            out.push('0');
            rest = &after[1..];
        } else {
            out.push('%');
            rest = after;
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

fn parse(text: &str, dialect: Dialect) -> Option<Vec<sqlparser::ast::Statement>> {
    let text = &*without_placeholders(text);
    let r = match dialect {
        Dialect::Generic => Parser::parse_sql(&GenericDialect {}, text),
        Dialect::Postgres => Parser::parse_sql(&PostgreSqlDialect {}, text),
        Dialect::MySql => Parser::parse_sql(&MySqlDialect {}, text),
        Dialect::Sqlite => Parser::parse_sql(&SQLiteDialect {}, text),
    };
    r.ok()
}

/// Rate every statement of `text`.
pub fn analyze_sql(text: &str, dialect: Dialect, opts: &SqlOptions) -> SqlReport {
    let mut degraded = false;
    let input = if text.len() > MAX_SQL_BYTES {
        degraded = true;
        let mut end = MAX_SQL_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.get(..end).unwrap_or("")
    } else {
        text
    };
    // client commands (`\\dt`, `.tables`, `\\! CMD`, `.shell CMD`) are not SQL
    let (clean, metas) = client::strip(input);
    let (pieces, open) = split::split(&clean, dialect);
    degraded |= open || pieces.len() > MAX_STATEMENTS;
    let many = pieces.len() > 1;
    let mut findings = Vec::new();
    for (meta, line) in metas {
        let (id, level, score, what, arg) = match meta {
            client::Meta::Shell(c) => (
                "sql.client-shell",
                RiskLevel::High,
                75,
                "The database client runs a shell command",
                c,
            ),
            client::Meta::File(f) => (
                "sql.client-file",
                RiskLevel::Medium,
                45,
                "The database client runs SQL (or restores a database) from a file not seen here",
                f,
            ),
        };
        findings.push(
            Finding::new(id, level, score, what)
                .with_match(arg, None)
                .with_location(Location {
                    line: Some(line),
                    ..Location::default()
                }),
        );
    }
    let mut rated = Vec::new();
    for (n, piece) in pieces.iter().take(MAX_STATEMENTS).enumerate() {
        match parse(&piece.text, dialect) {
            Some(stmts) if !stmts.is_empty() => {
                for st in &stmts {
                    rated.push((n, piece, rate::rate(st), true, tx::classify(st, dialect)));
                }
            }
            _ => {
                degraded = true;
                let r = fallback::rate(&piece.stripped);
                rated.push((n, piece, r, false, tx::Tx::Commit));
            }
        }
    }
    let marks: Vec<tx::Tx> = rated.iter().map(|r| r.4).collect();
    let undone = tx::undone_by(&marks);
    let mut statements = Vec::new();
    for ((n, piece, mut rating, parsed, _), undone) in rated.into_iter().zip(undone) {
        let span = Span::new(piece.start, piece.end);
        let context = many.then(|| format!("statement {}", n + 1));
        if let Some(by) = undone {
            rating.undo(by + 1);
        }
        {
            let f = rating.finding(&piece.text, span, piece.line, context.clone(), opts);
            statements.push(StatementReport {
                index: n + 1,
                text: piece.text.clone(),
                span,
                line: piece.line,
                rule_id: f.rule_id.clone(),
                level: f.level,
                parsed,
            });
            findings.push(f);
        }
    }
    let mut assessment = Assessment::from_findings(ActionKind::Sql, text, findings);
    if degraded {
        assessment.mark_degraded();
    }
    SqlReport {
        dialect,
        environment: opts.environment,
        statements,
        assessment,
    }
}

/// Whether `text` changes nothing because a `ROLLBACK` undoes it: every statement parsed, at
/// least one changes data and is undone by the `ROLLBACK` that closes its transaction, and
/// every other one is at most LOW (reads, session and transaction control). Text with a
/// client command (`\\!`, `.shell`) or a MySQL versioned comment (`/*!50000 … */`, code
/// the parser reads as a comment) is never taken as rolled back.
pub fn rolled_back(text: &str, dialect: Dialect) -> bool {
    if text.len() > MAX_SQL_BYTES || text.contains("/*!") {
        return false;
    }
    let (clean, metas) = client::strip(text);
    if !metas.is_empty() {
        return false;
    }
    let (pieces, open) = split::split(&clean, dialect);
    if open || pieces.len() > MAX_STATEMENTS {
        return false;
    }
    let mut marks = Vec::new();
    let mut levels = Vec::new();
    for piece in &pieces {
        let Some(stmts) = parse(&piece.text, dialect).filter(|s| !s.is_empty()) else {
            return false;
        };
        for st in &stmts {
            marks.push(tx::classify(st, dialect));
            levels.push(rate::rate(st).level);
        }
    }
    let undone = tx::undone_by(&marks);
    let mut any = false;
    for ((m, level), undone) in marks.iter().zip(levels).zip(undone) {
        match (m, undone) {
            (tx::Tx::Undoable, Some(_)) => any = true,
            _ if level <= RiskLevel::Low => {}
            _ => return false,
        }
    }
    any
}

/// Assess SQL text: one finding per statement, the overall level the highest.
pub fn assess_sql(text: &str, dialect: Dialect, opts: &SqlOptions) -> Assessment {
    analyze_sql(text, dialect, opts).assessment
}

/// The findings for SQL text (one per statement).
pub fn sql_findings(text: &str, dialect: Dialect, opts: &SqlOptions) -> Vec<Finding> {
    analyze_sql(text, dialect, opts).assessment.findings
}
