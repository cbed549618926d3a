//! Reading the team's audit trail (`riskgate log --team`, the reviewer's page): the records of
//! every machine, newest first, with the same filters as the local log ([`AuditQuery`]).

use postgres::Client;
use riskgate_gate::{AuditQuery, AuditRecord};
use riskgate_model::{Decision, RiskLevel};
use serde_json::{Value, json};

use crate::TeamError;

/// One record of the team's database: the local record and where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamRecord {
    /// The record (its `id` is the local row id on its machine).
    pub record: AuditRecord,
    /// The audit log it was shipped from.
    pub origin: String,
    /// The machine.
    pub host: Option<String>,
    /// The user.
    pub user: Option<String>,
    /// The agent.
    pub agent: Option<String>,
    /// The repository (working directory).
    pub repository: Option<String>,
}

fn micros(t: Option<time::OffsetDateTime>, none: i64) -> i64 {
    t.map(|t| i64::try_from(t.unix_timestamp_nanos() / 1000).unwrap_or(none))
        .unwrap_or(none)
}

/// Records matching `q`, newest first.
pub fn records(client: &mut Client, q: &AuditQuery) -> Result<Vec<TeamRecord>, TeamError> {
    crate::store::require_latest(client)?;
    let since = micros(q.since, i64::MIN);
    let until = micros(q.until, i64::MAX);
    let decision = q.decision.map(|d| d.as_str().to_string());
    let level = q.level.map(|l| l.as_str().to_string());
    let limit = i64::try_from(q.limit.unwrap_or(100)).unwrap_or(i64::MAX);
    let offset = i64::try_from(q.offset).unwrap_or(i64::MAX);
    let rows = client.query(
        "SELECT origin, local_id, time, source, session, cwd, kind, input, level, score, rules,
                decision, decided_by, reason, latency_us, host, os_user, agent, repository,
                policy_rev
         FROM riskgate_decisions
         WHERE ts_us >= $1 AND ts_us < $4 AND ($2::TEXT IS NULL OR decision = $2)
           AND ($5::TEXT IS NULL OR agent = $5 OR source = $5)
           AND ($6::TEXT IS NULL OR repository = $6
                OR left(repository, length($6) + 1) = $6 || '/')
           AND ($7::TEXT IS NULL OR level = $7)
           AND ($8::TEXT IS NULL OR strpos(rules, '\"' || $8 || '\"') > 0)
         ORDER BY ts_us DESC, origin, local_id DESC LIMIT $3 OFFSET $9",
        &[
            &since,
            &decision,
            &limit,
            &until,
            &q.agent,
            &q.repository,
            &level,
            &q.rule,
            &offset,
        ],
    )?;
    Ok(rows
        .iter()
        .map(|r| {
            let rules: String = r.get(10);
            let level: String = r.get(8);
            let decision: String = r.get(11);
            TeamRecord {
                record: AuditRecord {
                    id: r.get(1),
                    time: r.get(2),
                    source: r.get(3),
                    session: r.get(4),
                    cwd: r.get(5),
                    kind: r.get(6),
                    input: r.get(7),
                    level: level.parse().unwrap_or(RiskLevel::Critical),
                    score: u8::try_from(r.get::<_, i16>(9).clamp(0, 100)).unwrap_or(100),
                    rules: serde_json::from_str(&rules).unwrap_or_default(),
                    decision: match decision.as_str() {
                        "allow" => Decision::Allow,
                        "ask" => Decision::Ask,
                        _ => Decision::Deny,
                    },
                    decided_by: r.get(12),
                    reason: r.get(13),
                    latency_us: u64::try_from(r.get::<_, i64>(14)).unwrap_or(0),
                    policy_rev: r.get(19),
                },
                origin: r.get(0),
                host: r.get(15),
                user: r.get(16),
                agent: r.get(17),
                repository: r.get(18),
            }
        })
        .collect())
}

/// Records matching `q`, newest first, as JSON objects (the local record's fields plus
/// `origin`, `host`, `user`, `agent`, `repository`; the row id as `local_id`).
pub fn query(client: &mut Client, q: &AuditQuery) -> Result<Vec<Value>, TeamError> {
    Ok(records(client, q)?
        .into_iter()
        .map(|t| {
            let r = t.record;
            json!({
                "origin": t.origin,
                "local_id": r.id,
                "time": r.time,
                "source": r.source,
                "session": r.session,
                "cwd": r.cwd,
                "kind": r.kind,
                "input": r.input,
                "level": r.level.as_str(),
                "score": r.score,
                "rules": r.rules,
                "decision": r.decision.as_str(),
                "decided_by": r.decided_by,
                "reason": r.reason,
                "latency_us": r.latency_us,
                "host": t.host,
                "user": t.user,
                "agent": t.agent,
                "repository": t.repository,
                "policy_rev": r.policy_rev,
            })
        })
        .collect())
}
