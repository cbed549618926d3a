//! Database and secret matchers shared by the default rules: statements a snippet sends to a
//! store, ORM calls, hard-coded secrets.

use riskgate_model::{Finding, RiskLevel};

use super::super::analysis::{Analysis, Store};
use super::super::commands as cmd;
use super::super::dbenv::only_dev_databases;
use super::super::matchers::{call_hit, calls, cmds};
use super::super::rule::Hit;
use crate::sql::{self, Dialect, SqlOptions};

use RiskLevel::{Critical, High, Low, Medium};

fn store_findings(store: Store, text: &str) -> Vec<Finding> {
    let opts = SqlOptions::default();
    match store {
        Store::Sql => sql::sql_findings(text, Dialect::Generic, &opts),
        Store::Redis => sql::redis_findings(text, &opts),
        Store::Mongo => sql::mongo_findings(text, &opts),
    }
}

const DROP_IDS: [&str; 4] = [
    "sql.drop-database",
    "sql.drop-schema",
    "sql.drop-table",
    "mongo.drop-database",
];

/// Rules of the SQL, Redis and Mongo analysers about what a statement does to the data of
/// the store it is sent to, which a development copy makes at most MEDIUM (not statements that
/// run programs, write files, change accounts or stop the server).
fn is_data_change(rule_id: &str) -> bool {
    let Some((_, rule)) = rule_id.split_once('.') else {
        return false;
    };
    rule.starts_with("drop-")
        || rule.starts_with("delete")
        || rule.starts_with("update")
        || rule.starts_with("alter-")
        || rule.starts_with("insert")
        || rule.starts_with("flush")
        || matches!(
            rule,
            "truncate"
                | "rename"
                | "merge"
                | "upsert"
                | "del"
                | "expire"
                | "write"
                | "empty-collection"
                | "eval-bulk-delete"
                | "aggregate-write"
        )
}

/// At most MEDIUM when every database the snippet opens is a development or test copy.
fn scoped(mut h: Hit, level: RiskLevel, dev: bool) -> Hit {
    if dev && level > Medium {
        h.level = Some(Medium);
        h.reversible = Some(true);
        let reason = h.reason.take().unwrap_or_default();
        h.reason = Some(
            format!("{reason} (on a development or test database: at most MEDIUM)")
                .trim_start()
                .to_string(),
        );
    }
    h
}

pub(super) fn drop_database(a: &Analysis) -> Vec<Hit> {
    let dev = only_dev_databases(a);
    let mut out = Vec::new();
    for q in &a.sql {
        for f in store_findings(q.store, &q.text) {
            if DROP_IDS.contains(&f.rule_id.as_str()) {
                let mut h = Hit::new(f.matched.clone().unwrap_or_else(|| q.text.clone()))
                    .at(q.span, q.line)
                    .with_resources(f.resources.clone());
                if dev {
                    h.reason = Some(f.description.clone());
                }
                out.push(scoped(h, Critical, dev));
            }
        }
    }
    out.extend(
        calls(a, |c| {
            matches!(c.method.as_str(), "drop_database" | "dropDatabase")
        })
        .into_iter()
        .map(|h| scoped(h, Critical, dev)),
    );
    out.extend(cmds(a, cmd::drops_database));
    out
}

pub(super) fn database_modify(a: &Analysis) -> Vec<Hit> {
    let dev = only_dev_databases(a);
    let mut out = Vec::new();
    for q in &a.sql {
        for f in store_findings(q.store, &q.text) {
            if DROP_IDS.contains(&f.rule_id.as_str()) || f.level <= Low {
                continue;
            }
            let mut h = Hit::new(f.matched.clone().unwrap_or_else(|| q.text.clone()))
                .at(q.span, q.line)
                .with_resources(f.resources.clone());
            h.level = Some(f.level);
            h.reason = Some(f.description.clone());
            h.reversible = Some(f.reversible);
            let change = is_data_change(&f.rule_id);
            out.push(scoped(h, f.level, dev && change));
        }
    }
    // ORM and NoSQL client calls
    for c in &a.calls {
        let Some((level, reason)) = orm_call(c) else {
            continue;
        };
        let mut h = call_hit(c, Vec::new());
        h.level = Some(level);
        h.reason = Some(reason.to_string());
        h.reversible = Some(level < High);
        out.push(scoped(h, level, dev));
    }
    out
}

fn empty_filter(c: &super::super::analysis::Call) -> bool {
    match c.arg(0) {
        None => true,
        Some(a) => a.text.replace(char::is_whitespace, "") == "{}",
    }
}

fn orm_call(c: &super::super::analysis::Call) -> Option<(RiskLevel, &'static str)> {
    let m = c.method.as_str();
    let mongo = c.starts_with("pymongo.")
        || c.starts_with("motor.")
        || c.starts_with("mongodb.")
        || c.starts_with("mongoose.")
        || c.name.starts_with("db.")
        || c.name.contains("MongoClient");
    let redis = c.starts_with("redis.") || c.starts_with("ioredis") || c.starts_with("aioredis.");
    match m {
        "flushall" | "flushAll" => Some((Critical, "Deletes every key in every Redis database")),
        "flushdb" | "flushDb" => Some((High, "Deletes every key in the Redis database")),
        "delete_many" | "deleteMany" | "remove" | "update_many" | "updateMany"
            if (mongo || c.unresolved_receiver && m != "remove") && empty_filter(c) =>
        {
            Some((High, "Deletes or updates every document of a collection"))
        }
        "delete_many"
        | "deleteMany"
        | "delete_one"
        | "deleteOne"
        | "find_one_and_delete"
        | "findOneAndDelete"
        | "update_many"
        | "updateMany" => Some((Medium, "Deletes or updates documents")),
        "drop" | "drop_collection" | "dropCollection" if mongo => {
            Some((High, "Drops a collection"))
        }
        "delete" | "unlink" | "getdel" if redis => Some((Medium, "Deletes Redis keys")),
        "destroy" | "truncate" if c.name.contains("sequelize") || c.args_contain("truncate") => {
            Some((High, "Deletes every row of a table"))
        }
        "delete" | "update" if c.name.contains(".objects.") => {
            if c.name.contains(".objects.all()") || c.name.ends_with(".objects.delete") {
                Some((High, "Deletes or updates every row of a table"))
            } else {
                Some((Medium, "Deletes or updates table rows"))
            }
        }
        "to_sql" => Some((Medium, "Writes a data frame into a database table")),
        _ => None,
    }
}

pub(super) fn hardcoded_secret(a: &Analysis) -> Vec<Hit> {
    let mut out = Vec::new();
    for s in &a.strings {
        for m in crate::secrets::find_secrets(&s.value) {
            if m.kind == "generic-assignment" {
                continue;
            }
            out.push(Hit::new(format!("{}: {}", m.description, m.redacted)).at(s.span, s.line));
        }
    }
    // `password = "hunter2"` style assignments (the name is code, the value a literal)
    for m in crate::secrets::find_secrets(&a.executable) {
        if m.kind == "generic-assignment" {
            let line = a
                .executable
                .get(..m.start)
                .map(|p| p.matches('\n').count() as u32 + 1)
                .unwrap_or(1);
            out.push(
                Hit::new(format!("{}: {}", m.description, m.redacted))
                    .at(riskgate_model::Span::new(m.start, m.end), line),
            );
        }
    }
    out
}
