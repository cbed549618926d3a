//! Mongo shell code (`mongosh --eval`, scripts): `db.dropDatabase()` CRITICAL; dropping a
//! collection, deleting or updating every document (`deleteMany({})`, `remove({})`) and user
//! administration HIGH; filtered deletes and updates MEDIUM; inserts LOW; reads SAFE. The code
//! is tokenized as JavaScript, so comments and strings cannot trigger.

use riskgate_model::RiskLevel::{Critical, High, Low, Medium, Safe};
use riskgate_model::{ActionKind, Assessment, Finding, Language};

use super::{Rating, SqlOptions};
use crate::code::{Analysis, Call};

fn empty_filter(c: &Call) -> bool {
    match c.arg(0) {
        None => true,
        Some(a) => a.text.replace(char::is_whitespace, "") == "{}",
    }
}

fn collection(c: &Call) -> Option<String> {
    let rest = c.name.strip_prefix("db.")?;
    let coll = rest.rsplit_once('.').map(|(a, _)| a)?;
    (!coll.contains('(')).then(|| coll.to_string())
}

fn rate(c: &Call) -> Option<Rating> {
    // `db.orders`, `db[name]` (every collection in a loop), `db.getCollection(name)`.
    if !(c.name.starts_with("db.")
        || c.name.starts_with("db[")
        || c.name.contains("getSiblingDB")
        || c.name.contains("getCollection"))
    {
        return None;
    }
    let r = |rule, level, d: &str, rev, w| Some(Rating::new(rule, level, d, rev, w));
    let rating = match c.method.as_str() {
        "dropDatabase" => r(
            "mongo.drop-database",
            Critical,
            "db.dropDatabase() deletes the whole database",
            false,
            true,
        ),
        "drop" => r(
            "mongo.drop-collection",
            High,
            "Drops a collection and all its documents",
            false,
            true,
        ),
        "deleteMany" | "remove" if empty_filter(c) => r(
            "mongo.delete-all",
            High,
            "Deletes every document of the collection",
            false,
            true,
        ),
        "updateMany" | "update" if empty_filter(c) => r(
            "mongo.update-all",
            High,
            "Updates every document of the collection",
            false,
            true,
        ),
        "deleteMany" | "deleteOne" | "remove" | "findOneAndDelete" | "findAndModify" => {
            r("mongo.delete", Medium, "Deletes documents", false, true)
        }
        "updateMany" | "updateOne" | "update" | "replaceOne" | "findOneAndUpdate"
        | "findOneAndReplace" | "bulkWrite" => {
            r("mongo.update", Medium, "Updates documents", false, true)
        }
        "insertOne" | "insertMany" | "insert" | "save" => {
            r("mongo.insert", Low, "Inserts documents", true, true)
        }
        "createUser"
        | "dropUser"
        | "dropAllUsers"
        | "updateUser"
        | "grantRolesToUser"
        | "revokeRolesFromUser"
        | "changeUserPassword"
        | "createRole"
        | "dropRole"
        | "grantPrivilegesToRole"
        | "revokePrivilegesFromRole" => r(
            "mongo.user-admin",
            High,
            "Creates or changes database users, roles or privileges",
            true,
            false,
        ),
        "shutdownServer" => r(
            "mongo.shutdown",
            High,
            "Shuts the database server down",
            false,
            false,
        ),
        "adminCommand" | "runCommand" if c.args_contain("shutdown") => r(
            "mongo.shutdown",
            High,
            "Shuts the database server down",
            false,
            false,
        ),
        "adminCommand" | "runCommand" => r(
            "mongo.command",
            Medium,
            "Runs a database command whose effects are not visible here",
            true,
            true,
        ),
        "dropIndex" | "dropIndexes" => r(
            "mongo.drop-index",
            Medium,
            "Drops indexes (queries may become slow)",
            true,
            false,
        ),
        "renameCollection" if c.args_contain("true") => r(
            "mongo.rename",
            High,
            "Renames a collection, dropping the target",
            false,
            true,
        ),
        "renameCollection" => r("mongo.rename", Medium, "Renames a collection", true, true),
        "aggregate" if c.args_contain("$out") || c.args_contain("$merge") => r(
            "mongo.aggregate-write",
            Medium,
            "Aggregation writes its result into a collection ($out/$merge)",
            false,
            true,
        ),
        "createIndex" | "createCollection" => r(
            "mongo.create",
            Low,
            "Creates an index or a collection",
            true,
            false,
        ),
        "find"
        | "findOne"
        | "aggregate"
        | "count"
        | "countDocuments"
        | "estimatedDocumentCount"
        | "distinct"
        | "getCollectionNames"
        | "stats" => r("mongo.read", Safe, "Reads data", true, false),
        _ => None,
    }?;
    Some(match collection(c) {
        Some(coll) => rating.tables(vec![coll]),
        None => rating,
    })
}

/// The findings for Mongo shell code (one per database call).
pub fn mongo_findings(text: &str, opts: &SqlOptions) -> Vec<Finding> {
    let a = Analysis::new(text, Language::Js);
    a.calls
        .iter()
        .filter_map(|c| rate(c).map(|r| r.finding(&c.text, c.span, c.line, None, opts)))
        .collect()
}

/// Assess Mongo shell code.
pub fn assess_mongo(text: &str, opts: &SqlOptions) -> Assessment {
    let a = Analysis::new(text, Language::Js);
    let findings = a
        .calls
        .iter()
        .filter_map(|c| rate(c).map(|r| r.finding(&c.text, c.span, c.line, None, opts)))
        .collect();
    let mut out = Assessment::from_findings(ActionKind::Code, text, findings);
    if a.incomplete {
        out.mark_degraded();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::RiskLevel;

    #[test]
    fn levels() {
        let o = SqlOptions::default();
        assert_eq!(
            assess_mongo("db.dropDatabase()", &o).level,
            RiskLevel::Critical
        );
        assert_eq!(assess_mongo("db.users.drop()", &o).level, RiskLevel::High);
        assert_eq!(
            assess_mongo("db.getCollectionNames().forEach(c => db[c].drop())", &o).level,
            RiskLevel::High
        );
        assert_eq!(
            assess_mongo("db.users.deleteMany({})", &o).level,
            RiskLevel::High
        );
        assert_eq!(
            assess_mongo("db.users.remove({ })", &o).level,
            RiskLevel::High
        );
        assert_eq!(
            assess_mongo("db.users.deleteMany({age: {$lt: 18}})", &o).level,
            RiskLevel::Medium
        );
        assert_eq!(assess_mongo("db.users.find({})", &o).level, RiskLevel::Safe);
        assert_eq!(
            assess_mongo("// db.dropDatabase()\nprint('db.dropDatabase()')", &o).level,
            RiskLevel::Safe
        );
        assert!(
            assess_mongo("db.users.drop()", &o)
                .affected_resources
                .contains(&"table:users".to_string())
        );
    }
}
