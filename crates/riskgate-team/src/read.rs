//! Reading the team's audit trail (`riskgate log --team`): the records of every machine,
//! newest first, with the same filters as the local log.

use postgres::Client;
use riskgate_gate::AuditQuery;
use serde_json::{Value, json};

use crate::TeamError;

/// Records matching `q`, newest first, as JSON objects (the local record's fields plus
/// `origin`, `host`, `user`, `agent`, `repository`).
pub fn query(client: &mut Client, q: &AuditQuery) -> Result<Vec<Value>, TeamError> {
    crate::store::require_latest(client)?;
    let since = q
        .since
        .map(|t| i64::try_from(t.unix_timestamp_nanos() / 1000).unwrap_or(i64::MIN))
        .unwrap_or(i64::MIN);
    let decision = q.decision.map(|d| d.as_str().to_string());
    let limit = i64::try_from(q.limit.unwrap_or(100)).unwrap_or(i64::MAX);
    let rows = client.query(
        "SELECT origin, local_id, time, source, session, cwd, kind, input, level, score, rules,
                decision, decided_by, reason, latency_us, host, os_user, agent, repository,
                policy_rev
         FROM riskgate_decisions
         WHERE ts_us >= $1 AND ($2::TEXT IS NULL OR decision = $2)
         ORDER BY ts_us DESC, origin, local_id DESC LIMIT $3",
        &[&since, &decision, &limit],
    )?;
    Ok(rows
        .iter()
        .map(|r| {
            let rules: String = r.get(10);
            json!({
                "origin": r.get::<_, String>(0),
                "local_id": r.get::<_, i64>(1),
                "time": r.get::<_, String>(2),
                "source": r.get::<_, String>(3),
                "session": r.get::<_, Option<String>>(4),
                "cwd": r.get::<_, String>(5),
                "kind": r.get::<_, String>(6),
                "input": r.get::<_, String>(7),
                "level": r.get::<_, String>(8),
                "score": r.get::<_, i16>(9),
                "rules": serde_json::from_str::<Value>(&rules).unwrap_or(Value::Null),
                "decision": r.get::<_, String>(11),
                "decided_by": r.get::<_, String>(12),
                "reason": r.get::<_, String>(13),
                "latency_us": r.get::<_, i64>(14),
                "host": r.get::<_, Option<String>>(15),
                "user": r.get::<_, Option<String>>(16),
                "agent": r.get::<_, Option<String>>(17),
                "repository": r.get::<_, Option<String>>(18),
                "policy_rev": r.get::<_, Option<String>>(19),
            })
        })
        .collect())
}
