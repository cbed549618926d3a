//! Rate one parsed SQL statement: what it does, how bad it is, which tables it touches. WHERE
//! clauses are checked for tautologies (`1=1`, `true`, `'a'='a'`, `x = x`, `LIKE '%'`, `OR`
//! with an always-true side), which make a filtered DELETE or UPDATE an unfiltered one.

use riskgate_model::RiskLevel::{self, Critical, High, Low, Medium, Safe};
use sqlparser::ast::{
    AlterTableOperation, BinaryOperator, CopyTarget, Expr, FromTable, ObjectType, Query, SetExpr,
    Statement, TableFactor, TableObject, TableWithJoins, UnaryOperator, Value,
};

use super::Rating;

fn r(
    rule: &'static str,
    level: RiskLevel,
    description: impl Into<String>,
    reversible: bool,
    data_write: bool,
) -> Rating {
    Rating::new(rule, level, description, reversible, data_write)
}

fn table_of(t: &TableWithJoins) -> Vec<String> {
    let mut out = Vec::new();
    if let TableFactor::Table { name, .. } = &t.relation {
        out.push(name.to_string());
    }
    for j in &t.joins {
        if let TableFactor::Table { name, .. } = &j.relation {
            out.push(name.to_string());
        }
    }
    out
}

fn query_tables(q: &Query, out: &mut Vec<String>) {
    set_expr_tables(&q.body, out);
}

fn set_expr_tables(s: &SetExpr, out: &mut Vec<String>) {
    match s {
        SetExpr::Select(sel) => {
            for t in &sel.from {
                out.extend(table_of(t));
            }
        }
        SetExpr::Query(q) => query_tables(q, out),
        SetExpr::SetOperation { left, right, .. } => {
            set_expr_tables(left, out);
            set_expr_tables(right, out);
        }
        _ => {}
    }
}

const DANGEROUS_FUNCTIONS: [&str; 16] = [
    "pg_read_file",
    "pg_read_binary_file",
    "pg_ls_dir",
    "lo_import",
    "lo_export",
    "load_file",
    "sys_exec",
    "sys_eval",
    "xp_cmdshell",
    "dblink",
    "pg_terminate_backend",
    "pg_cancel_backend",
    "pg_reload_conf",
    "set_config",
    "pg_write_file",
    "sp_oacreate",
];

/// Rate a statement.
pub(crate) fn rate(stmt: &Statement) -> Rating {
    match stmt {
        Statement::Query(q) => rate_query(q, stmt),
        Statement::Insert(i) => {
            let table = match &i.table {
                TableObject::TableName(n) => n.to_string(),
                other => other.to_string(),
            };
            let rating = if i.overwrite {
                r(
                    "sql.insert-overwrite",
                    High,
                    "INSERT OVERWRITE replaces the table's contents",
                    false,
                    true,
                )
            } else if i.replace_into || i.on.is_some() {
                r(
                    "sql.upsert",
                    Medium,
                    "Inserts or replaces rows (existing rows may be overwritten)",
                    false,
                    true,
                )
            } else {
                r("sql.insert", Low, "Inserts rows", true, true)
            };
            rating.tables(vec![table])
        }
        Statement::Update(u) => {
            let mut tables = table_of(&u.table);
            if tables.is_empty() {
                tables.push(u.table.to_string());
            }
            match &u.selection {
                None => r(
                    "sql.update-all",
                    High,
                    "UPDATE without a WHERE clause changes every row",
                    false,
                    true,
                ),
                Some(w) if always_true(w) || open_ended(w) => r(
                    "sql.update-all",
                    High,
                    format!("UPDATE with an always-true WHERE ({w}) changes every row"),
                    false,
                    true,
                ),
                Some(_) => r(
                    "sql.update",
                    Medium,
                    "Updates the rows matching a WHERE clause",
                    false,
                    true,
                ),
            }
            .tables(tables)
            .mitigation("Run the same WHERE as a SELECT first, inside a transaction")
        }
        Statement::Delete(d) => {
            let mut tables: Vec<String> = d.tables.iter().map(ToString::to_string).collect();
            let from = match &d.from {
                FromTable::WithFromKeyword(f) | FromTable::WithoutKeyword(f) => f,
            };
            if tables.is_empty() {
                tables.extend(from.iter().flat_map(table_of));
            }
            match &d.selection {
                None => r(
                    "sql.delete-all",
                    High,
                    "DELETE without a WHERE clause removes every row",
                    false,
                    true,
                ),
                Some(w) if always_true(w) || open_ended(w) => r(
                    "sql.delete-all",
                    High,
                    format!("DELETE with an always-true WHERE ({w}) removes every row"),
                    false,
                    true,
                ),
                Some(_) => r(
                    "sql.delete",
                    Medium,
                    "Deletes the rows matching a WHERE clause",
                    false,
                    true,
                ),
            }
            .tables(tables)
            .mitigation("Back up the rows first, run the WHERE as a SELECT, and use a transaction")
        }
        Statement::Truncate(t) => r(
            "sql.truncate",
            High,
            "TRUNCATE removes every row of the table",
            false,
            true,
        )
        .tables(t.table_names.iter().map(|x| x.name.to_string()).collect())
        .mitigation("Back up the table first"),
        Statement::Drop {
            object_type, names, ..
        } => {
            let names: Vec<String> = names.iter().map(ToString::to_string).collect();
            let rating = match object_type {
                ObjectType::Database => r(
                    "sql.drop-database",
                    Critical,
                    "DROP DATABASE deletes a whole database",
                    false,
                    true,
                ),
                ObjectType::Schema => r(
                    "sql.drop-schema",
                    Critical,
                    "DROP SCHEMA deletes a schema and everything in it",
                    false,
                    true,
                ),
                ObjectType::Table => r(
                    "sql.drop-table",
                    High,
                    "DROP TABLE deletes the table and all its data",
                    false,
                    true,
                ),
                ObjectType::Role | ObjectType::User => r(
                    "sql.user-admin",
                    High,
                    "Drops a database user or role",
                    false,
                    false,
                ),
                ObjectType::Warehouse | ObjectType::Stage | ObjectType::Stream => r(
                    "sql.drop-object",
                    High,
                    format!("Drops a {object_type}"),
                    false,
                    true,
                ),
                _ => r(
                    "sql.drop-object",
                    Medium,
                    format!("Drops a {object_type} (can be recreated from its definition)"),
                    true,
                    false,
                ),
            };
            let rating = rating.mitigation("Take a backup first (pg_dump, mysqldump)");
            if matches!(object_type, ObjectType::Table) {
                rating.tables(names)
            } else {
                rating.objects(names)
            }
        }
        Statement::DropFunction(_)
        | Statement::DropProcedure { .. }
        | Statement::DropTrigger(_)
        | Statement::DropPolicy(_)
        | Statement::DropExtension(_)
        | Statement::DropDomain(_)
        | Statement::DropOperator(_)
        | Statement::DropSecret { .. }
        | Statement::DropConnector { .. } => r(
            "sql.drop-object",
            Medium,
            "Drops a database object",
            false,
            false,
        ),
        Statement::AlterTable(at) => {
            let mut rating = r(
                "sql.alter-table",
                Medium,
                "Changes a table's schema",
                true,
                true,
            );
            for op in &at.operations {
                let next = match op {
                    AlterTableOperation::DropColumn { column_names, .. } => Some(r(
                        "sql.drop-column",
                        High,
                        format!(
                            "ALTER TABLE … DROP COLUMN deletes the column{} and its data",
                            if column_names.len() > 1 { "s" } else { "" }
                        ),
                        false,
                        true,
                    )),
                    AlterTableOperation::OwnerTo { new_owner } => Some(r(
                        "sql.alter-owner",
                        High,
                        format!("Changes the table's owner to {new_owner}"),
                        true,
                        false,
                    )),
                    AlterTableOperation::RenameTable { .. }
                    | AlterTableOperation::RenameColumn { .. } => Some(r(
                        "sql.rename",
                        Medium,
                        "Renames a table or column (breaks queries that use the old name)",
                        true,
                        true,
                    )),
                    AlterTableOperation::DropConstraint { .. }
                    | AlterTableOperation::DropPrimaryKey { .. }
                    | AlterTableOperation::DropForeignKey { .. } => Some(r(
                        "sql.drop-constraint",
                        Medium,
                        "Drops a constraint (data integrity is no longer enforced)",
                        true,
                        true,
                    )),
                    _ => None,
                };
                if let Some(n) = next
                    && n.level > rating.level
                {
                    rating = n;
                }
            }
            rating.tables(vec![at.name.to_string()])
        }
        Statement::AlterSchema(s) => {
            if s.to_string().to_ascii_uppercase().contains("OWNER TO") {
                r(
                    "sql.alter-owner",
                    High,
                    "Changes the schema's owner",
                    true,
                    false,
                )
            } else {
                r("sql.alter-schema", Medium, "Changes a schema", true, false)
            }
        }
        Statement::Grant(g) => r(
            "sql.grant",
            High,
            format!("Grants privileges ({})", g.privileges),
            true,
            false,
        )
        .mitigation("Grant the narrowest privileges to a specific role"),
        Statement::Revoke(_) => r(
            "sql.revoke",
            High,
            "Revokes privileges (may lock users or services out)",
            true,
            false,
        ),
        Statement::CreateUser(_)
        | Statement::AlterUser(_)
        | Statement::AlterRole { .. }
        | Statement::CreateRole(_) => r(
            "sql.user-admin",
            High,
            "Creates or changes a database user or role",
            true,
            false,
        ),
        Statement::CreateTable(ct) => {
            let rating = if ct.or_replace {
                r(
                    "sql.create-replace",
                    Medium,
                    "CREATE OR REPLACE TABLE drops the existing table and its data",
                    false,
                    true,
                )
            } else {
                r("sql.create", Low, "Creates a table", true, false)
            };
            rating.tables(vec![ct.name.to_string()])
        }
        Statement::CreateView(v) => {
            if v.or_replace {
                r(
                    "sql.create-replace",
                    Medium,
                    "Replaces a view's definition",
                    true,
                    false,
                )
            } else {
                r("sql.create", Low, "Creates a view", true, false)
            }
        }
        Statement::CreateIndex(_)
        | Statement::CreateDatabase { .. }
        | Statement::CreateSchema { .. }
        | Statement::CreateSequence { .. }
        | Statement::CreateType { .. }
        | Statement::CreateDomain(_) => {
            r("sql.create", Low, "Creates a database object", true, false)
        }
        Statement::CreateFunction(_)
        | Statement::CreateProcedure { .. }
        | Statement::CreateTrigger(_)
        | Statement::CreateExtension(_) => r(
            "sql.create-code",
            Medium,
            "Creates code that runs inside the database",
            true,
            false,
        ),
        Statement::Copy { to, target, .. } => match target {
            CopyTarget::Program { command } => r(
                "sql.copy-program",
                Critical,
                format!("COPY … PROGRAM runs a shell command on the database server ({command})"),
                false,
                true,
            ),
            // `COPY (SELECT …) TO 's3://…'` (DuckDB, ClickHouse …): the rows leave the
            // machine for storage elsewhere
            CopyTarget::File { filename } if *to && remote_url(filename) => r(
                "sql.copy-to-remote",
                High,
                format!("Exports rows to storage on another host ({filename})"),
                false,
                false,
            ),
            CopyTarget::File { filename } if *to => r(
                "sql.copy-to-file",
                Medium,
                format!("Writes a file on the database server ({filename})"),
                true,
                false,
            ),
            _ if *to => r("sql.select", Safe, "Exports data", true, false),
            _ => r(
                "sql.copy-from",
                Medium,
                "Loads rows into a table",
                true,
                true,
            ),
        },
        Statement::LoadData { .. } => r(
            "sql.copy-from",
            Medium,
            "Loads rows into a table",
            true,
            true,
        ),
        Statement::Merge(_) => r(
            "sql.merge",
            Medium,
            "MERGE inserts, updates or deletes rows",
            false,
            true,
        ),
        Statement::Explain {
            analyze, statement, ..
        } => {
            if *analyze {
                let mut inner = rate(statement);
                inner.description =
                    format!("EXPLAIN ANALYZE runs the statement: {}", inner.description);
                inner
            } else {
                r("sql.explain", Safe, "Shows a query plan", true, false)
            }
        }
        Statement::Call(_) | Statement::Execute { .. } => r(
            "sql.call",
            Medium,
            "Runs a stored procedure or prepared statement whose effects are not visible here",
            true,
            true,
        ),
        Statement::Kill { .. } => r(
            "sql.kill",
            Medium,
            "Kills a database connection or query",
            true,
            false,
        ),
        Statement::Pragma { name, .. }
            if name
                .to_string()
                .to_ascii_lowercase()
                .contains("writable_schema") =>
        {
            r(
                "sql.pragma",
                Medium,
                "PRAGMA writable_schema allows corrupting the database schema",
                false,
                true,
            )
        }
        // SQLite creates the file it attaches: `ATTACH '/var/www/html/shell.php'` writes a
        // file wherever it names (a web root, a start-up file)
        Statement::AttachDatabase {
            database_file_name, ..
        } if attached_outside_data(&database_file_name.to_string()) => r(
            "sql.attach-file",
            High,
            format!("ATTACH creates or opens a database file at {database_file_name}"),
            false,
            false,
        ),
        Statement::AttachDatabase { .. }
        | Statement::Pragma { .. }
        | Statement::Vacuum(_)
        | Statement::Analyze(_)
        | Statement::Lock(_)
        | Statement::LockTables { .. } => r(
            "sql.maintenance",
            Low,
            "Maintenance or session statement",
            true,
            false,
        ),
        Statement::ShowFunctions { .. }
        | Statement::ShowVariable { .. }
        | Statement::ShowStatus { .. }
        | Statement::ShowVariables { .. }
        | Statement::ShowCreate { .. }
        | Statement::ShowColumns { .. }
        | Statement::ShowDatabases { .. }
        | Statement::ShowSchemas { .. }
        | Statement::ShowTables { .. }
        | Statement::ShowViews { .. }
        | Statement::ShowCollation { .. }
        | Statement::ShowCharset(_)
        | Statement::ShowObjects(_)
        | Statement::ShowCatalogs { .. }
        | Statement::ShowProcessList { .. }
        | Statement::ExplainTable { .. } => r("sql.read", Safe, "Reads metadata", true, false),
        Statement::Use(_)
        | Statement::Set(_)
        | Statement::StartTransaction { .. }
        | Statement::Commit { .. }
        | Statement::Rollback { .. }
        | Statement::Savepoint { .. }
        | Statement::ReleaseSavepoint { .. }
        | Statement::Declare { .. }
        | Statement::Fetch { .. }
        | Statement::Close { .. }
        | Statement::Prepare { .. }
        | Statement::Deallocate { .. }
        | Statement::Discard { .. } => r(
            "sql.session",
            Safe,
            "Session or transaction control",
            true,
            false,
        ),
        other => r(
            "sql.other",
            Low,
            format!(
                "Statement not specifically rated ({})",
                first_words(&other.to_string())
            ),
            true,
            false,
        ),
    }
}

fn first_words(s: &str) -> String {
    s.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

fn rate_query(q: &Query, stmt: &Statement) -> Rating {
    // data-modifying bodies (`WITH … DELETE`) and CTEs
    if let SetExpr::Insert(s) | SetExpr::Update(s) | SetExpr::Delete(s) | SetExpr::Merge(s) =
        q.body.as_ref()
    {
        return rate(s);
    }
    if let Some(with) = &q.with {
        let mut worst: Option<Rating> = None;
        for cte in &with.cte_tables {
            let inner = rate_query(&cte.query, stmt);
            if worst.as_ref().is_none_or(|w| inner.level > w.level) {
                worst = Some(inner);
            }
        }
        if let Some(w) = worst.filter(|w| w.level > Safe) {
            return w;
        }
    }
    let text = stmt.to_string().to_ascii_lowercase();
    if let Some(f) = DANGEROUS_FUNCTIONS
        .iter()
        .find(|f| text.contains(&format!("{f}(")))
    {
        return r(
            "sql.dangerous-function",
            High,
            format!(
                "Calls {f}(), which reads files, runs commands or affects other sessions on the server"
            ),
            false,
            false,
        );
    }
    let mut tables = Vec::new();
    query_tables(q, &mut tables);
    if let SetExpr::Select(sel) = q.body.as_ref()
        && sel.into.is_some()
    {
        return r(
            "sql.select-into",
            Medium,
            "SELECT … INTO creates a table from a query",
            true,
            true,
        )
        .tables(tables);
    }
    if !q.locks.is_empty() {
        return r(
            "sql.select-lock",
            Low,
            "Reads rows and locks them (FOR UPDATE / FOR SHARE)",
            true,
            false,
        )
        .tables(tables);
    }
    r("sql.select", Safe, "Reads data", true, false).tables(tables)
}

#[derive(Debug, PartialEq)]
enum Const {
    Num(f64),
    Str(String),
    Bool(bool),
}

fn constant(e: &Expr) -> Option<Const> {
    match e {
        Expr::Nested(inner) => constant(inner),
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse::<f64>().ok().map(Const::Num),
            Value::SingleQuotedString(s)
            | Value::DoubleQuotedString(s)
            | Value::EscapedStringLiteral(s)
            | Value::NationalStringLiteral(s) => Some(Const::Str(s.clone())),
            Value::Boolean(b) => Some(Const::Bool(*b)),
            _ => None,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => match constant(expr) {
            Some(Const::Num(n)) => Some(Const::Num(-n)),
            _ => None,
        },
        _ => None,
    }
}

fn truthy(c: &Const) -> Option<bool> {
    match c {
        Const::Num(n) => Some(*n != 0.0),
        Const::Bool(b) => Some(*b),
        Const::Str(_) => None,
    }
}

fn compare(l: &Const, r: &Const) -> Option<std::cmp::Ordering> {
    match (l, r) {
        (Const::Num(a), Const::Num(b)) => a.partial_cmp(b),
        (Const::Str(a), Const::Str(b)) => Some(a.cmp(b)),
        (Const::Bool(a), Const::Bool(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// True when the expression holds for every row.
/// A WHERE that keeps (almost) every row: `id > 0`, `id >= 0`, `user_id >= 1` on its own —
/// the filter of a DELETE or UPDATE meant for all rows.
pub(crate) fn open_ended(e: &Expr) -> bool {
    let id_col = |x: &Expr| match x {
        Expr::Identifier(i) => i.value.to_ascii_lowercase(),
        Expr::CompoundIdentifier(v) => v
            .last()
            .map(|i| i.value.to_ascii_lowercase())
            .unwrap_or_default(),
        _ => String::new(),
    };
    match e {
        Expr::Nested(inner) => open_ended(inner),
        Expr::BinaryOp { left, op, right } => {
            let col = id_col(left);
            let is_id = col == "id" || col.ends_with("_id");
            let n = match constant(right) {
                Some(Const::Num(n)) => Some(n),
                _ => None,
            };
            is_id
                && match (op, n) {
                    (BinaryOperator::Gt, Some(n)) => n <= 0.0,
                    (BinaryOperator::GtEq, Some(n)) => n <= 1.0,
                    _ => false,
                }
        }
        _ => false,
    }
}

/// A URL of storage on another host (`s3://`, `gs://`, `az://`, `http(s)://`).
fn remote_url(name: &str) -> bool {
    let n = name.trim_matches(['\'', '"']).to_ascii_lowercase();
    [
        "s3://", "s3a://", "gs://", "gcs://", "az://", "azure://", "abfss://", "r2://", "http://",
        "https://", "hf://",
    ]
    .iter()
    .any(|p| n.starts_with(p))
}

/// An attached database file that is not a database: a script, a page, a start-up or system
/// file (`shell.php`, `~/.bashrc`, `/etc/cron.d/x`).
fn attached_outside_data(name: &str) -> bool {
    let n = name.trim_matches(['\'', '"']).to_ascii_lowercase();
    let ext = n
        .rsplit('/')
        .next()
        .unwrap_or(&n)
        .rsplit_once('.')
        .map(|(_, e)| e);
    let code = matches!(
        ext,
        Some("php" | "phtml" | "jsp" | "asp" | "aspx" | "cgi" | "pl" | "py" | "sh" | "js" | "html")
    );
    let place = [
        "/etc/",
        "/var/www/",
        "/srv/www/",
        "/usr/",
        "/boot/",
        "~/.",
        "/root/",
    ]
    .iter()
    .any(|p| n.starts_with(p))
        || n.contains("/.ssh/")
        // a dotfile of a user's home (`/home/u/.bashrc`, `/Users/u/.zshrc`)
        || (n.starts_with("/home/") || n.starts_with("/users/"))
            && n.split('/').nth(3).is_some_and(|f| f.starts_with('.'))
        || n.contains("/public_html/")
        || n.contains("/htdocs/");
    code || place
}

pub(crate) fn always_true(e: &Expr) -> bool {
    eval(e) == Some(true)
}

fn eval(e: &Expr) -> Option<bool> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match e {
        Expr::Nested(inner) => eval(inner),
        Expr::Value(_) => constant(e).and_then(|c| truthy(&c)),
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => eval(expr).map(|b| !b),
        Expr::BinaryOp { left, op, right } => match op {
            BinaryOperator::Or => match (eval(left), eval(right)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            BinaryOperator::And => match (eval(left), eval(right)) {
                (Some(true), Some(true)) => Some(true),
                (Some(false), _) | (_, Some(false)) => Some(false),
                _ => None,
            },
            _ => {
                let (l, r) = (constant(left), constant(right));
                if let (Some(l), Some(r)) = (&l, &r) {
                    let ord = compare(l, r)?;
                    return match op {
                        BinaryOperator::Eq => Some(ord == Equal),
                        BinaryOperator::NotEq => Some(ord != Equal),
                        BinaryOperator::Gt => Some(ord == Greater),
                        BinaryOperator::Lt => Some(ord == Less),
                        BinaryOperator::GtEq => Some(ord != Less),
                        BinaryOperator::LtEq => Some(ord != Greater),
                        _ => None,
                    };
                }
                // `col = col`
                if matches!(
                    op,
                    BinaryOperator::Eq | BinaryOperator::GtEq | BinaryOperator::LtEq
                ) && l.is_none()
                    && left.to_string() == right.to_string()
                {
                    return Some(true);
                }
                None
            }
        },
        Expr::IsNotNull(inner) => constant(inner).map(|_| true),
        Expr::IsTrue(inner) => eval(inner),
        Expr::Like {
            negated: false,
            pattern,
            ..
        }
        | Expr::ILike {
            negated: false,
            pattern,
            ..
        } => match constant(pattern) {
            Some(Const::Str(p)) if !p.is_empty() && p.chars().all(|c| c == '%') => Some(true),
            _ => None,
        },
        Expr::InList {
            expr,
            list,
            negated: false,
        } => {
            let v = constant(expr)?;
            list.iter()
                .any(|x| {
                    constant(x).as_ref().and_then(|c| compare(&v, c))
                        == Some(std::cmp::Ordering::Equal)
                })
                .then_some(true)
        }
        _ => None,
    }
}
