//! The databases a snippet connects to, and whether every one of them is a development or test
//! copy: a loopback server, an in-memory or test-fixture SQLite file, a database named for
//! tests (`sqlite3.connect("tests/fixtures/test.db")`, `psycopg2.connect(host="localhost",
//! dbname="app_test")`, `MongoClient("mongodb://127.0.0.1:27017")`). The data rules cap what
//! such a snippet does to its tables at MEDIUM, as the command rules cap `psql -h localhost
//! -d app_test -c 'TRUNCATE …'`.
//!
//! A snippet that connects nowhere the analyser can read (a DSN from the environment, a name
//! built at run time) or to anything else is not development: nothing is capped.

use riskgate_model::effect::{Environment, TargetClass, classify_env, classify_host};

use super::analysis::{Analysis, ArgValue, Call};

/// Client libraries whose constructors or `connect` open a database connection.
const CLIENTS: &[&str] = &[
    "sqlite3",
    "aiosqlite",
    "psycopg",
    "psycopg2",
    "asyncpg",
    "pymysql",
    "MySQLdb",
    "mysql",
    "mysql2",
    "mariadb",
    "sqlalchemy",
    "duckdb",
    "pymongo",
    "motor",
    "mongodb",
    "mongoose",
    "redis",
    "ioredis",
    "pg",
    "postgres",
    "better-sqlite3",
    "sqlite",
    "pyodbc",
    "oracledb",
];

/// Methods and constructors of those libraries that open a connection.
const OPENERS: &[&str] = &[
    "connect",
    "create_engine",
    "create_async_engine",
    "create_pool",
    "createPool",
    "createConnection",
    "createClient",
    "MongoClient",
    "AsyncIOMotorClient",
    "Redis",
    "StrictRedis",
    "from_url",
    "Client",
    "Pool",
    "Database",
    "Connection",
];

/// True when the snippet opens at least one database connection and every one it opens is a
/// development or test database.
pub(crate) fn only_dev_databases(a: &Analysis) -> bool {
    let mut any = false;
    for c in a.calls.iter().filter(|c| opens_connection(c)) {
        if !is_dev_connection(c) {
            return false;
        }
        any = true;
    }
    any
}

fn opens_connection(c: &Call) -> bool {
    OPENERS.contains(&c.method.as_str())
        && std::iter::once(&c.name)
            .chain(&c.candidates)
            .any(|n| n.split('.').next().is_some_and(|m| CLIENTS.contains(&m)))
}

/// The literal words of a connection call: string arguments (positional and keyword), and the
/// quoted values of an options object (`{host: 'localhost', database: 'app_test'}`).
fn literal_words(c: &Call) -> Vec<(Option<&str>, String)> {
    let mut out = Vec::new();
    for arg in &c.args {
        match &arg.value {
            ArgValue::Str(s) => out.push((arg.keyword.as_deref(), s.clone())),
            ArgValue::Object(text) => out.extend(object_values(text)),
            _ => {}
        }
    }
    out
}

/// `key: 'value'` and `"key": "value"` pairs of an object literal's text (host keys kept).
fn object_values(text: &str) -> Vec<(Option<&'static str>, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut quoted_key: Option<&str> = None;
    while let Some(open) = rest.find(['\'', '"']) {
        let q = rest.as_bytes()[open];
        let after = &rest[open + 1..];
        let Some(close) = after.bytes().position(|b| b == q) else {
            break;
        };
        let value = &after[..close];
        let tail = &after[close + 1..];
        if tail.trim_start().starts_with(':') {
            // a quoted key (`"host": …`)
            quoted_key = Some(value);
            rest = tail;
            continue;
        }
        let key = quoted_key.take().unwrap_or_else(|| {
            let bare = rest[..open].trim_end().trim_end_matches(':').trim_end();
            bare.rsplit(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .next()
                .unwrap_or("")
        });
        out.push((host_key(key), value.to_string()));
        rest = tail;
    }
    out
}

fn host_key(key: &str) -> Option<&'static str> {
    matches!(key, "host" | "hostname" | "server" | "address").then_some("host")
}

fn is_dev_connection(c: &Call) -> bool {
    let words = literal_words(c);
    if words.is_empty() {
        return false;
    }
    match classify_env(words.iter().map(|(_, w)| w.as_str())) {
        Environment::Prod | Environment::Staging => false,
        Environment::Dev => true,
        _ => words.iter().any(|(key, w)| {
            w == ":memory:"
                || (host_key(key.unwrap_or("")).is_some() || w.contains("://"))
                    && classify_host(w) == TargetClass::Loopback
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::analysis::Arg;
    use riskgate_model::Span;

    fn call(name: &str, args: Vec<(Option<&str>, ArgValue)>) -> Call {
        Call {
            name: name.to_string(),
            candidates: Vec::new(),
            method: name.rsplit('.').next().unwrap_or(name).to_string(),
            unresolved_receiver: false,
            args: args
                .into_iter()
                .map(|(k, v)| Arg {
                    keyword: k.map(String::from),
                    value: v,
                    text: String::new(),
                })
                .collect(),
            span: Span::new(0, 0),
            line: 1,
            text: String::new(),
            context: None,
        }
    }

    fn s(v: &str) -> ArgValue {
        ArgValue::Str(v.to_string())
    }

    #[test]
    fn test_and_loopback_databases_are_development() {
        assert!(is_dev_connection(&call(
            "sqlite3.connect",
            vec![(None, s("tests/fixtures/test.db"))]
        )));
        assert!(is_dev_connection(&call(
            "psycopg2.connect",
            vec![(Some("host"), s("localhost")), (Some("dbname"), s("myapp"))]
        )));
        assert!(is_dev_connection(&call(
            "pymongo.MongoClient",
            vec![(None, s("mongodb://127.0.0.1:27017"))]
        )));
        assert!(is_dev_connection(&call(
            "pg.Client",
            vec![(
                None,
                ArgValue::Object("{ host: 'localhost', database: 'app' }".into())
            )]
        )));
        assert!(is_dev_connection(&call(
            "mysql.connector.connect",
            vec![(
                None,
                ArgValue::Object(r#"{"host": "127.0.0.1", "db": "shop"}"#.into())
            )]
        )));
        assert!(is_dev_connection(&call(
            "sqlite3.connect",
            vec![(None, s(":memory:"))]
        )));
    }

    #[test]
    fn production_unknown_and_run_time_databases_are_not() {
        assert!(!is_dev_connection(&call(
            "psycopg2.connect",
            vec![
                (Some("host"), s("localhost")),
                (Some("dbname"), s("app_prod"))
            ]
        )));
        assert!(!is_dev_connection(&call(
            "psycopg2.connect",
            vec![(Some("host"), s("db.acme.com")), (Some("dbname"), s("app"))]
        )));
        assert!(!is_dev_connection(&call(
            "sqlite3.connect",
            vec![(None, s("app.db"))]
        )));
        assert!(!is_dev_connection(&call(
            "psycopg2.connect",
            vec![(None, ArgValue::Name("os.environ".into()))]
        )));
        // a positional word is not a host: `localhost` must be where a host is
        assert!(!is_dev_connection(&call(
            "sqlite3.connect",
            vec![(None, s("localhost"))]
        )));
    }
}
