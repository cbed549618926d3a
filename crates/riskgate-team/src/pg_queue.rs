//! The approval queue in the team's PostgreSQL database (schema version 3): when `audit.url`
//! is set, the hook stores a request there, a reviewer on any machine lists and decides it,
//! and the requesting machine finds the grant on its next try.
//!
//! The same steps and rules as this machine's SQLite queue ([`riskgate_gate::queue`]; the
//! rules of a review are [`riskgate_gate::queue_store`]'s): a request is found again by its
//! action key *and its host* (a grant on one machine lets nothing run on another), a pending
//! request is made once per action (an advisory lock on the key), a once-grant is claimed in
//! one `UPDATE`, and a grant or refusal locks the request's row while it is decided.

use std::time::Duration;

use postgres::{Client, GenericClient, Row};
use riskgate_gate::queue::{
    GrantFor, NewRequest, REFUSAL_STANDS, Request, Review, Status, current_user, host_name, micros,
    rfc3339, short_id,
};
use riskgate_gate::queue_store::{
    BoxedStore, QueueStore, check_grant, check_refusal, completes, grant_terms,
};
use riskgate_gate::{Policy, QueueError};
use riskgate_model::RiskLevel;
use time::OffsetDateTime;

use crate::TeamError;

/// How long the hook waits for the team's database before it keeps the request on this
/// machine.
pub const CONNECT_LIMIT: Duration = Duration::from_secs(2);

const COLUMNS: &str = "id, created, kind, input, cwd, agent, session, requester, host, level, \
                       score, rules, reason, required, status, once, expires_us, note";

/// The team's approval queue.
pub struct PgQueue {
    client: Client,
    host: String,
}

impl std::fmt::Debug for PgQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgQueue").field("host", &self.host).finish()
    }
}

fn remote(e: impl std::fmt::Display) -> QueueError {
    QueueError::Remote(e.to_string())
}

/// `?` on a driver call: its error as the queue's.
trait Pg<T> {
    fn pg(self) -> Result<T, QueueError>;
}

impl<T> Pg<T> for Result<T, postgres::Error> {
    fn pg(self) -> Result<T, QueueError> {
        self.map_err(remote)
    }
}

/// Connect to the team's queue at `url` (schema version 3 or later required).
pub fn connect(url: &str, limit: Duration) -> Result<PgQueue, TeamError> {
    let mut client = crate::store::connect_within(url, limit)?;
    crate::store::require_latest(&mut client)?;
    Ok(PgQueue {
        client,
        host: host_name(),
    })
}

/// The team's queue of `policy`, for [`riskgate_gate::queue_store::set_team_store`]: `None`
/// without `audit.url`.
pub fn open_for(policy: &Policy) -> Option<Result<BoxedStore, QueueError>> {
    let url = policy.audit_url()?.value.clone();
    Some(
        connect(&url, CONNECT_LIMIT)
            .map(|q| Box::new(q) as BoxedStore)
            .map_err(remote),
    )
}

fn to_request(r: &Row) -> Request {
    let level: String = r.get(9);
    let rules: String = r.get(11);
    let status: String = r.get(14);
    let expires: Option<i64> = r.get(16);
    Request {
        id: r.get(0),
        created: r.get(1),
        kind: r.get(2),
        input: r.get(3),
        cwd: r.get(4),
        agent: r.get(5),
        session: r.get(6),
        requester: r.get(7),
        host: r.get(8),
        level: level.parse().unwrap_or(RiskLevel::Critical),
        score: u8::try_from(r.get::<_, i16>(10).clamp(0, 100)).unwrap_or(100),
        rules: serde_json::from_str(&rules).unwrap_or_default(),
        reason: r.get(12),
        required: u32::try_from(r.get::<_, i32>(13).clamp(1, 10)).unwrap_or(1),
        status: Status::parse(&status),
        once: r.get(15),
        expires: expires
            .and_then(|us| OffsetDateTime::from_unix_timestamp_nanos(i128::from(us) * 1000).ok())
            .map(rfc3339),
        note: r.get(17),
        reviews: Vec::new(),
    }
}

/// The request `id` with its reviews (`lock`: `FOR UPDATE`, inside a transaction).
fn fetch(c: &mut impl GenericClient, id: &str, lock: bool) -> Result<Option<Request>, QueueError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM riskgate_requests WHERE id = $1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    let id = id.trim().to_ascii_lowercase();
    let Some(row) = c.query_opt(sql.as_str(), &[&id]).pg()? else {
        return Ok(None);
    };
    let mut req = to_request(&row);
    req.reviews = c
        .query(
            "SELECT reviewer, verdict, at, note FROM riskgate_reviews WHERE request = $1
             ORDER BY at",
            &[&req.id],
        )
        .pg()?
        .iter()
        .map(|r| Review {
            reviewer: r.get(0),
            verdict: r.get(1),
            at: r.get(2),
            note: r.get(3),
        })
        .collect();
    Ok(Some(req))
}

impl PgQueue {
    fn must_get(&mut self, id: &str) -> Result<Request, QueueError> {
        fetch(&mut self.client, id, false)?.ok_or_else(|| QueueError::NotFound(id.to_string()))
    }
}

impl QueueStore for PgQueue {
    fn claim_grant(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        let ttl = self.client.query_opt(
            "SELECT id FROM riskgate_requests WHERE key = $1 AND host = $2 AND status = 'granted'
               AND NOT once AND expires_us > $3 ORDER BY created_us DESC LIMIT 1",
            &[&key, &self.host, &micros(now)],
        ).pg()?;
        if let Some(row) = ttl {
            let id: String = row.get(0);
            return fetch(&mut self.client, &id, false);
        }
        let claimed = self
            .client
            .query_opt(
                "UPDATE riskgate_requests SET status = 'used'
             WHERE id = (SELECT id FROM riskgate_requests WHERE key = $1 AND host = $2
                           AND status = 'granted' AND once ORDER BY created_us LIMIT 1
                           FOR UPDATE SKIP LOCKED)
               AND status = 'granted'
             RETURNING id",
                &[&key, &self.host],
            )
            .pg()?;
        match claimed {
            Some(row) => {
                let id: String = row.get(0);
                fetch(&mut self.client, &id, false)
            }
            None => Ok(None),
        }
    }

    fn standing_refusal(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        let since = micros(now) - i64::try_from(REFUSAL_STANDS.as_micros()).unwrap_or(0);
        let row = self.client.query_opt(
            "SELECT id FROM riskgate_requests WHERE key = $1 AND host = $2 AND status = 'refused'
               AND created_us >= $3 ORDER BY created_us DESC LIMIT 1",
            &[&key, &self.host, &since],
        ).pg()?;
        match row {
            Some(row) => {
                let id: String = row.get(0);
                fetch(&mut self.client, &id, false)
            }
            None => Ok(None),
        }
    }

    fn request(
        &mut self,
        new: &NewRequest,
        now: OffsetDateTime,
    ) -> Result<(Request, bool), QueueError> {
        let host = self.host.clone();
        let mut tx = self.client.transaction().pg()?;
        // one request per action and machine, whoever asks at the same time
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext($1 || '@' || $2))",
            &[&new.key, &host],
        )
        .pg()?;
        let pending = tx.query_opt(
            "SELECT id FROM riskgate_requests WHERE key = $1 AND host = $2 AND status = 'pending'
             ORDER BY created_us LIMIT 1",
            &[&new.key, &host],
        ).pg()?;
        let (id, created) = match pending {
            Some(row) => (row.get::<_, String>(0), false),
            None => {
                let rules = serde_json::to_string(&new.rules).unwrap_or_else(|_| "[]".into());
                let score = i16::from(new.score.min(100));
                let required = i32::try_from(new.required.clamp(1, 10)).unwrap_or(1);
                let mut made = None;
                for salt in 0..16 {
                    let id = short_id(&new.key, now, salt);
                    let n = tx.execute(
                        "INSERT INTO riskgate_requests (id, key, created_us, created, kind, input,
                             cwd, agent, session, requester, host, level, score, rules, reason,
                             required, status, once)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                             $15, $16, 'pending', TRUE)
                         ON CONFLICT (id) DO NOTHING",
                        &[
                            &id,
                            &new.key,
                            &micros(now),
                            &rfc3339(now),
                            &new.kind,
                            &new.input,
                            &new.cwd,
                            &new.agent,
                            &new.session,
                            &current_user(),
                            &host,
                            &new.level.as_str(),
                            &score,
                            &rules,
                            &new.reason,
                            &required,
                        ],
                    ).pg()?;
                    if n == 1 {
                        made = Some(id);
                        break;
                    }
                }
                let id = made.ok_or_else(|| {
                    QueueError::Invalid("could not find a free request id".to_string())
                })?;
                (id, true)
            }
        };
        tx.commit().pg()?;
        Ok((self.must_get(&id)?, created))
    }

    fn get(&mut self, id: &str) -> Result<Option<Request>, QueueError> {
        fetch(&mut self.client, id, false)
    }

    fn list(&mut self, status: Status, limit: usize) -> Result<Vec<Request>, QueueError> {
        let ids: Vec<String> = self
            .client
            .query(
                "SELECT id FROM riskgate_requests WHERE status = $1 ORDER BY created_us LIMIT $2",
                &[&status.as_str(), &i64::try_from(limit).unwrap_or(i64::MAX)],
            )
            .pg()?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(r) = fetch(&mut self.client, &id, false)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    fn grant(
        &mut self,
        id: &str,
        reviewer: &str,
        grant: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        let reviewer = reviewer.trim();
        let mut tx = self.client.transaction().pg()?;
        let req = fetch(&mut tx, id, true)?.ok_or_else(|| QueueError::NotFound(id.to_string()))?;
        check_grant(&req, reviewer)?;
        let (note, once, expires) = grant_terms(grant, now);
        tx.execute(
            "INSERT INTO riskgate_reviews (request, reviewer, verdict, at, note)
             VALUES ($1, $2, 'grant', $3, $4)
             ON CONFLICT (request, reviewer) DO UPDATE
                 SET verdict = 'grant', at = excluded.at, note = excluded.note",
            &[&req.id, &reviewer, &rfc3339(now), &note],
        )
        .pg()?;
        if completes(&req) {
            tx.execute(
                "UPDATE riskgate_requests SET status = 'granted', once = $2, expires_us = $3,
                     decided = $4
                 WHERE id = $1 AND status = 'pending'",
                &[&req.id, &once, &expires, &rfc3339(now)],
            )
            .pg()?;
        }
        tx.commit().pg()?;
        self.must_get(&req.id)
    }

    fn refuse(
        &mut self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        let (reviewer, reason) = (reviewer.trim(), reason.trim());
        let mut tx = self.client.transaction().pg()?;
        let req = fetch(&mut tx, id, true)?.ok_or_else(|| QueueError::NotFound(id.to_string()))?;
        check_refusal(&req, reviewer, reason)?;
        tx.execute(
            "INSERT INTO riskgate_reviews (request, reviewer, verdict, at, note)
             VALUES ($1, $2, 'refuse', $3, $4)
             ON CONFLICT (request, reviewer) DO UPDATE
                 SET verdict = 'refuse', at = excluded.at, note = excluded.note",
            &[&req.id, &reviewer, &rfc3339(now), &reason],
        )
        .pg()?;
        tx.execute(
            "UPDATE riskgate_requests SET status = 'refused', note = $2, decided = $3
             WHERE id = $1 AND status = 'pending'",
            &[&req.id, &reason, &rfc3339(now)],
        )
        .pg()?;
        tx.commit().pg()?;
        self.must_get(&req.id)
    }
}
