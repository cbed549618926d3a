//! SQL statements rated by kind, WHERE clause, dialect and environment; Redis and Mongo.

use riskgate_analyzers::Environment;
use riskgate_analyzers::sql::{
    Dialect, SqlOptions, analyze_sql, assess_mongo, assess_redis, assess_sql, sql_findings,
};
use riskgate_model::RiskLevel::{self, Critical, High, Low, Medium, Safe};

fn level(sql: &str) -> RiskLevel {
    assess_sql(sql, Dialect::Generic, &SqlOptions::default()).level
}

fn rule(sql: &str) -> String {
    sql_findings(sql, Dialect::Generic, &SqlOptions::default())
        .first()
        .map(|f| f.rule_id.clone())
        .unwrap_or_default()
}

const PROD: SqlOptions = SqlOptions {
    environment: Environment::Production,
};

#[test]
fn levels_by_statement_kind() {
    let cases: &[(&str, RiskLevel, &str)] = &[
        ("DROP DATABASE shop", Critical, "sql.drop-database"),
        ("DROP SCHEMA public CASCADE", Critical, "sql.drop-schema"),
        ("DROP TABLE users", High, "sql.drop-table"),
        ("TRUNCATE TABLE audit_log", High, "sql.truncate"),
        ("DELETE FROM users", High, "sql.delete-all"),
        ("UPDATE users SET active = false", High, "sql.update-all"),
        ("DELETE FROM users WHERE id = 42", Medium, "sql.delete"),
        (
            "UPDATE users SET name = 'x' WHERE id = 42",
            Medium,
            "sql.update",
        ),
        (
            "ALTER TABLE users DROP COLUMN email",
            High,
            "sql.drop-column",
        ),
        (
            "ALTER TABLE users ADD COLUMN age INT",
            Medium,
            "sql.alter-table",
        ),
        (
            "ALTER TABLE users OWNER TO mallory",
            High,
            "sql.alter-owner",
        ),
        ("GRANT ALL PRIVILEGES ON users TO alice", High, "sql.grant"),
        ("REVOKE SELECT ON users FROM bob", High, "sql.revoke"),
        ("CREATE USER eve WITH PASSWORD 'x'", High, "sql.user-admin"),
        ("INSERT INTO logs (msg) VALUES ('hi')", Low, "sql.insert"),
        ("CREATE TABLE t (id INT)", Low, "sql.create"),
        ("SELECT * FROM users WHERE id = 1", Safe, "sql.select"),
        ("SHOW TABLES", Safe, "sql.read"),
        ("EXPLAIN SELECT 1", Safe, "sql.explain"),
        ("BEGIN", Safe, "sql.session"),
    ];
    for (sql, want, id) in cases {
        assert_eq!((level(sql), rule(sql).as_str()), (*want, *id), "{sql}");
    }
}

#[test]
fn tautological_where_is_no_where() {
    for sql in [
        "DELETE FROM users WHERE 1=1",
        "DELETE FROM users WHERE true",
        "DELETE FROM users WHERE 'a'='a'",
        "DELETE FROM users WHERE (1 = 1)",
        "DELETE FROM users WHERE id = 5 OR 1 = 1",
        "UPDATE users SET x = 1 WHERE 2 > 1",
        "DELETE FROM users WHERE name LIKE '%'",
        "DELETE FROM users WHERE id = id",
        "DELETE FROM users WHERE NOT false",
    ] {
        assert_eq!(level(sql), High, "{sql}");
    }
    for sql in [
        "DELETE FROM users WHERE 1=0 OR id = 3",
        "DELETE FROM users WHERE id = 1 AND 1=1",
        "DELETE FROM users WHERE name = 'a'",
    ] {
        assert_eq!(level(sql), Medium, "{sql}");
    }
}

#[test]
fn production_writes_are_one_level_higher() {
    assert_eq!(
        assess_sql(
            "UPDATE users SET balance = 0 WHERE id = 7",
            Dialect::Postgres,
            &PROD
        )
        .level,
        High
    );
    assert_eq!(
        assess_sql("DELETE FROM users", Dialect::Postgres, &PROD).level,
        Critical
    );
    assert_eq!(
        assess_sql("INSERT INTO t VALUES (1)", Dialect::Postgres, &PROD).level,
        Medium
    );
    assert_eq!(
        assess_sql("SELECT * FROM users", Dialect::Postgres, &PROD).level,
        Safe
    );
    assert_eq!(
        assess_sql("GRANT SELECT ON t TO x", Dialect::Postgres, &PROD).level,
        High
    );
}

#[test]
fn multiple_statements_each_rated_with_spans() {
    let text =
        "SELECT 1;\n-- DROP DATABASE x;\nDELETE FROM orders WHERE id = 3;\nDROP TABLE sessions;";
    let r = analyze_sql(text, Dialect::Postgres, &SqlOptions::default());
    assert_eq!(r.statements.len(), 3);
    assert_eq!(
        r.statements.iter().map(|s| s.line).collect::<Vec<_>>(),
        vec![1, 3, 4]
    );
    assert_eq!(
        r.statements.iter().map(|s| s.level).collect::<Vec<_>>(),
        vec![Safe, Medium, High]
    );
    let s = &r.statements[2];
    assert_eq!(&text[s.span.start..s.span.end], "DROP TABLE sessions");
    assert_eq!(r.assessment.level, High);
    assert!(
        r.assessment
            .affected_resources
            .contains(&"table:sessions".to_string())
    );
    assert!(
        r.assessment
            .affected_resources
            .contains(&"table:orders".to_string())
    );
    let f = r
        .assessment
        .findings
        .iter()
        .find(|f| f.rule_id == "sql.drop-table")
        .expect("drop");
    assert_eq!(f.location.as_ref().and_then(|l| l.line), Some(4));
    assert_eq!(f.matched.as_deref(), Some("DROP TABLE sessions"));
    assert!(!r.assessment.degraded);
    assert!(r.render_text().contains("statements:"));
}

#[test]
fn strings_and_comments_do_not_count() {
    assert_eq!(level("SELECT 'DROP DATABASE prod; --' AS x"), Safe);
    assert_eq!(level("/* DELETE FROM users */ SELECT 1"), Safe);
    assert_eq!(
        level("INSERT INTO notes (body) VALUES ('TRUNCATE everything')"),
        Low
    );
}

#[test]
fn dialects() {
    let o = SqlOptions::default();
    assert_eq!(
        assess_sql("DELETE FROM `users`", Dialect::MySql, &o).level,
        High
    );
    assert_eq!(
        assess_sql(
            "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql",
            Dialect::Postgres,
            &o
        )
        .level,
        Medium
    );
    assert_eq!(
        assess_sql("COPY t TO PROGRAM 'curl x | sh'", Dialect::Postgres, &o).level,
        Critical
    );
    assert_eq!(
        assess_sql("PRAGMA foreign_keys = 1", Dialect::Sqlite, &o).level,
        Low
    );
    assert_eq!(
        assess_sql("PRAGMA writable_schema = 1", Dialect::Sqlite, &o).level,
        Medium
    );
    assert_eq!("postgresql".parse::<Dialect>(), Ok(Dialect::Postgres));
    assert!("oracle9".parse::<Dialect>().is_err());
    assert_eq!(
        assess_sql("EXPLAIN ANALYZE DELETE FROM users", Dialect::Postgres, &o).level,
        High
    );
    assert_eq!(
        assess_sql(
            "WITH d AS (SELECT 1) DELETE FROM users",
            Dialect::Postgres,
            &o
        )
        .level,
        High
    );
}

#[test]
fn unparseable_sql_falls_back_to_keywords_and_needs_a_person() {
    let r = assess_sql(
        "DELETE FROM users WHERE (((",
        Dialect::Generic,
        &SqlOptions::default(),
    );
    assert!(r.degraded && r.level >= Medium);
    let r = assess_sql("SHUTDOWN", Dialect::MySql, &SqlOptions::default());
    assert!(r.degraded && r.level == High, "{:?}", r.findings);
    let r = assess_sql(
        "FROB NICATE 'DROP TABLE x'",
        Dialect::Generic,
        &SqlOptions::default(),
    );
    // not understood: HIGH (a person decides), and says why
    assert!(
        r.degraded
            && r.level == High
            && r.rule_ids() == vec!["analysis.incomplete", "sql.unparsed"],
        "{:?}",
        r.findings
    );
    let r = assess_sql(
        "SELECT 'unterminated",
        Dialect::Generic,
        &SqlOptions::default(),
    );
    assert!(r.degraded);
    assert_eq!(
        assess_sql("", Dialect::Generic, &SqlOptions::default()).level,
        Safe
    );
    let deep = format!("SELECT {}1{}", "(".repeat(5000), ")".repeat(5000));
    assert!(assess_sql(&deep, Dialect::Generic, &SqlOptions::default()).level >= Safe);
}

#[test]
fn redis_and_mongo() {
    let o = SqlOptions::default();
    assert_eq!(assess_redis("FLUSHALL", &o).level, Critical);
    assert_eq!(assess_redis("FLUSHDB", &o).level, High);
    assert_eq!(assess_redis("DEL user:1 user:2", &o).level, Medium);
    assert_eq!(assess_redis("CONFIG SET maxmemory 1gb", &o).level, High);
    assert_eq!(assess_redis("KEYS *", &o).level, Medium);
    assert_eq!(assess_redis("SHUTDOWN NOSAVE", &o).level, High);
    assert_eq!(assess_redis("SET a 1", &PROD).level, Medium);
    // a stream or list trimmed to nothing loses every entry; a bounded trim keeps the tail
    assert_eq!(assess_redis("XTRIM events MAXLEN 0", &o).level, Medium);
    assert_eq!(assess_redis("XTRIM events MAXLEN ~ 0", &PROD).level, High);
    assert_eq!(assess_redis("LTRIM queue 1 0", &o).level, Medium);
    assert_eq!(assess_redis("XTRIM events MAXLEN ~ 10000", &o).level, Low);
    assert_eq!(assess_mongo("db.dropDatabase()", &o).level, Critical);
    assert_eq!(assess_mongo("db.orders.drop()", &o).level, High);
    assert_eq!(assess_mongo("db.orders.deleteMany({})", &o).level, High);
    assert_eq!(assess_mongo("db.orders.remove({})", &o).level, High);
    assert_eq!(
        assess_mongo("db.getCollection('orders').deleteMany({status: 'old'})", &o).level,
        Medium
    );
    assert_eq!(assess_mongo("db.orders.find({}).limit(5)", &o).level, Safe);
    assert_eq!(
        assess_mongo("db.createUser({user: 'x', pwd: 'y', roles: ['root']})", &o).level,
        High
    );
}

/// Issue 12 item 4: client commands are not SQL; MySQL executable comments are; open-ended
/// filters are no filter; a Redis script is rated by the commands it runs.
#[test]
fn client_commands_executable_comments_open_ended_where_and_redis_scripts() {
    let o = SqlOptions::default();
    for meta in [
        "\\dt",
        "\\d+ users",
        "\\l",
        ".tables",
        ".schema users",
        "\\x\nSELECT 1;",
    ] {
        let a = assess_sql(meta, Dialect::Generic, &o);
        assert!(!a.degraded && a.level <= Low, "{meta}: {:?}", a.findings);
    }
    let a = assess_sql("\\! rm -rf /var/lib/postgresql", Dialect::Postgres, &o);
    assert!(a.level >= High, "{:?}", a.findings);
    assert_eq!(
        riskgate_analyzers::sql::shell_escapes(".system curl x | bash"),
        ["curl x | bash"]
    );
    assert_eq!(level("/*!50000 DROP TABLE users */"), High);
    assert_eq!(level("/*!DROP DATABASE prod*/"), Critical);
    assert!(level("SELECT /*!50000 SQL_NO_CACHE */ id FROM users") <= Low);
    assert!(level("DELETE FROM users WHERE id > 0") >= High);
    assert!(level("UPDATE users SET role = 'admin' WHERE user_id >= 1") >= High);
    assert!(level("DELETE FROM users WHERE id > 100") < High);
    assert!(level("DELETE FROM tokens WHERE revoked_at IS NOT NULL") < High);
    assert_eq!(
        assess_redis("EVAL \"return redis.call('FLUSHALL')\" 0", &o).level,
        Critical
    );
    assert!(
        assess_redis(
            "EVAL \"for _,k in ipairs(redis.call('KEYS','*')) do redis.call('DEL',k) end\" 0",
            &o
        )
        .level
            >= High
    );
    assert!(
        assess_redis("EVAL \"return redis.call('GET', KEYS[1])\" 1 user:1", &o).level <= Medium
    );
}
