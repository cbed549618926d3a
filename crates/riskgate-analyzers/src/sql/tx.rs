//! Transactions: what a `ROLLBACK` undoes.
//!
//! `BEGIN; DELETE FROM orders WHERE id = 9; ROLLBACK;` changes nothing: the statements between
//! an opened transaction and the `ROLLBACK` that closes it are undone. Row changes (`INSERT`,
//! `UPDATE`, `DELETE`, `MERGE`) are undone in every dialect; table changes (`DROP TABLE`,
//! `TRUNCATE`, `ALTER`, `CREATE`) only where DDL is transactional (PostgreSQL, SQLite) — MySQL
//! commits them on the spot. A `COMMIT` ends the transaction (a later `ROLLBACK` undoes
//! nothing), `ROLLBACK TO SAVEPOINT` is not a full rollback, and a statement that did not parse
//! is never taken as undone.

use sqlparser::ast::Statement;

use super::Dialect;

/// What one statement does to the transaction state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tx {
    /// `BEGIN` / `START TRANSACTION`.
    Begin,
    /// `COMMIT` / `END`, a DDL statement where DDL commits, or a statement that did not parse.
    Commit,
    /// A full `ROLLBACK` (not to a savepoint).
    Rollback,
    /// A statement a rollback undoes.
    Undoable,
    /// Anything else: not undone, and the transaction stays open.
    Other,
}

/// How `stmt` acts on the transaction state in `dialect`.
pub(crate) fn classify(stmt: &Statement, dialect: Dialect) -> Tx {
    let ddl_in_tx = matches!(dialect, Dialect::Postgres | Dialect::Sqlite);
    match stmt {
        Statement::StartTransaction { statements, .. } if statements.is_empty() => Tx::Begin,
        Statement::Commit { .. } => Tx::Commit,
        Statement::Rollback {
            savepoint: None, ..
        } => Tx::Rollback,
        Statement::Insert(_)
        | Statement::Update(_)
        | Statement::Delete(_)
        | Statement::Merge(_) => Tx::Undoable,
        Statement::Drop { object_type, .. } if ddl_in_tx => {
            use sqlparser::ast::ObjectType as O;
            if matches!(
                object_type,
                O::Table | O::View | O::Index | O::Sequence | O::MaterializedView
            ) {
                Tx::Undoable
            } else {
                Tx::Other
            }
        }
        Statement::Truncate(_) | Statement::AlterTable(_) | Statement::CreateTable(_)
            if ddl_in_tx =>
        {
            Tx::Undoable
        }
        // where DDL is not transactional it commits what came before (MySQL's implicit commit)
        Statement::Drop { .. }
        | Statement::Truncate(_)
        | Statement::AlterTable(_)
        | Statement::CreateTable(_)
        | Statement::CreateIndex(_)
        | Statement::CreateView(_)
        | Statement::CreateDatabase { .. }
        | Statement::Grant(_)
        | Statement::Revoke(_)
            if !ddl_in_tx =>
        {
            Tx::Commit
        }
        _ => Tx::Other,
    }
}

/// For statements in order, the index of the `ROLLBACK` that undoes each one (None when it
/// stands). A `Begin` inside an open transaction keeps it open (PostgreSQL warns, MySQL commits:
/// the conservative reading is that what came before stands).
pub(crate) fn undone_by(marks: &[Tx]) -> Vec<Option<usize>> {
    let mut out = vec![None; marks.len()];
    let mut open: Option<Vec<usize>> = None;
    for (i, m) in marks.iter().enumerate() {
        match m {
            Tx::Begin => open = Some(Vec::new()),
            Tx::Commit => open = None,
            Tx::Rollback => {
                if let Some(pending) = open.take() {
                    for p in pending {
                        if let Some(slot) = out.get_mut(p) {
                            *slot = Some(i);
                        }
                    }
                }
            }
            Tx::Undoable => {
                if let Some(pending) = open.as_mut() {
                    pending.push(i);
                }
            }
            Tx::Other => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_statements_of_a_rolled_back_transaction_are_undone() {
        use Tx::*;
        assert_eq!(
            undone_by(&[Begin, Undoable, Rollback]),
            vec![None, Some(2), None]
        );
        // committed first: the rollback undoes nothing
        assert_eq!(
            undone_by(&[Begin, Undoable, Commit, Rollback]),
            vec![None, None, None, None]
        );
        // no transaction open: autocommit, nothing undone
        assert_eq!(undone_by(&[Undoable, Rollback]), vec![None, None]);
        // a new BEGIN drops what was pending (it may have committed it)
        assert_eq!(
            undone_by(&[Begin, Undoable, Begin, Undoable, Rollback]),
            vec![None, None, None, Some(4), None]
        );
        // an unknown statement between does not stop the rollback of the rest
        assert_eq!(
            undone_by(&[Begin, Undoable, Other, Rollback]),
            vec![None, Some(3), None, None]
        );
    }
}
