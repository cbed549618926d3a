//! Changes a command undoes itself or that touch only what it made (issue 12, false positives
//! of whole scripts): SQL inside a transaction its own `ROLLBACK` closes. Commands are strings
//! only; nothing is run.

mod support;

use riskgate::RiskLevel;
use support::{at_least_high, at_most};

#[test]
fn sql_a_rollback_undoes_changes_nothing() {
    at_most(
        RiskLevel::Low,
        &[
            "psql -h pg-prod -d app -c 'BEGIN; DELETE FROM orders WHERE id = 991; ROLLBACK;'",
            "psql -d app -c 'BEGIN; DROP TABLE orders; ROLLBACK;'",
            "mysql -h db-prod -e 'START TRANSACTION; DELETE FROM orders WHERE 1=1; ROLLBACK;'",
            "sqlite3 app.db 'BEGIN; DELETE FROM users; ROLLBACK;'",
        ],
    );
    at_least_high(&[
        // committed before the rollback
        "psql -h pg-prod -d app -c 'BEGIN; DELETE FROM orders; COMMIT; ROLLBACK;'",
        // no transaction open: autocommit
        "psql -h pg-prod -d app -c 'DELETE FROM orders; ROLLBACK;'",
        // MySQL commits DDL on the spot, and what came before it
        "mysql -h db-prod -e 'BEGIN; DROP TABLE orders; ROLLBACK;'",
        "mysql -h db-prod -e 'BEGIN; DELETE FROM orders; DROP TABLE x; ROLLBACK;'",
        // only back to a savepoint, then committed
        "psql -c 'BEGIN; DELETE FROM orders; SAVEPOINT a; ROLLBACK TO SAVEPOINT a; COMMIT;'",
        // cannot run in a transaction; and a shell escape is no SQL
        "psql -c 'BEGIN; DROP DATABASE prod; ROLLBACK;'",
        "psql -c 'BEGIN; \\! rm -rf ~/.ssh; ROLLBACK;'",
        // a versioned comment is code to MySQL
        "mysql -e 'BEGIN; DELETE FROM t; /*!50000 DROP TABLE users */; ROLLBACK;'",
        // a second statement after the rollback stands
        "psql -h pg-prod -c 'BEGIN; DELETE FROM a; ROLLBACK; DELETE FROM a;'",
    ]);
}
