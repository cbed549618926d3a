//! Where approval requests live: [`QueueStore`] is what the gate and a reviewer need of a
//! queue — this machine's SQLite [`Queue`], or the team's database (PostgreSQL, in
//! `riskgate-team`, which the `riskgate` binary registers with [`set_team_store`] so that
//! this crate needs no database driver).
//!
//! The rules of a review are here once, for every store: [`check_grant`] (pending, never
//! CRITICAL, a reviewer counts once), [`check_refusal`], [`completes`] (enough distinct
//! reviewers) and [`grant_terms`] (once, or until when).

use std::sync::OnceLock;

use riskgate_model::RiskLevel;
use time::OffsetDateTime;

use crate::error::QueueError;
use crate::policy::Policy;
use crate::queue::{GrantFor, NewRequest, Queue, Request, Status};

/// A queue of approval requests (see [`Queue`] for what each step means).
pub trait QueueStore {
    /// Use a grant in force for the action `key` (a once-grant is used up, atomically).
    fn claim_grant(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError>;
    /// The newest refusal of the action `key` still standing.
    fn standing_refusal(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError>;
    /// The pending request for the action, or a new one; `true` when it was created now.
    fn request(
        &mut self,
        new: &NewRequest,
        now: OffsetDateTime,
    ) -> Result<(Request, bool), QueueError>;
    /// The request `id`.
    fn get(&mut self, id: &str) -> Result<Option<Request>, QueueError>;
    /// Requests with `status`, oldest first.
    fn list(&mut self, status: Status, limit: usize) -> Result<Vec<Request>, QueueError>;
    /// `reviewer` grants request `id`.
    fn grant(
        &mut self,
        id: &str,
        reviewer: &str,
        grant: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError>;
    /// `reviewer` refuses request `id`, saying why.
    fn refuse(
        &mut self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError>;
}

impl QueueStore for Queue {
    fn claim_grant(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        Queue::claim_grant(self, key, now)
    }

    fn standing_refusal(
        &mut self,
        key: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Request>, QueueError> {
        Queue::standing_refusal(self, key, now)
    }

    fn request(
        &mut self,
        new: &NewRequest,
        now: OffsetDateTime,
    ) -> Result<(Request, bool), QueueError> {
        Queue::request(self, new, now)
    }

    fn get(&mut self, id: &str) -> Result<Option<Request>, QueueError> {
        Queue::get(self, id)
    }

    fn list(&mut self, status: Status, limit: usize) -> Result<Vec<Request>, QueueError> {
        Queue::list(self, status, limit)
    }

    fn grant(
        &mut self,
        id: &str,
        reviewer: &str,
        grant: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        Queue::grant(self, id, reviewer, grant, now)
    }

    fn refuse(
        &mut self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, QueueError> {
        Queue::refuse(self, id, reviewer, reason, now)
    }
}

/// A queue store that can move between threads.
pub type BoxedStore = Box<dyn QueueStore + Send>;

/// Opens the team's queue for a policy: `None` when the policy names no team database.
pub type TeamOpener = fn(&Policy) -> Option<Result<BoxedStore, QueueError>>;

static TEAM: OnceLock<TeamOpener> = OnceLock::new();

/// Register how the team's queue is opened (once per process; later calls are ignored).
pub fn set_team_store(open: TeamOpener) {
    let _ = TEAM.set(open);
}

/// The team's queue for `policy`, if one is registered and configured.
pub fn open_team(policy: &Policy) -> Option<Result<BoxedStore, QueueError>> {
    TEAM.get().and_then(|open| open(policy))
}

/// Whether `reviewer` may grant `req`: it is pending, not CRITICAL, and `reviewer` has not
/// granted it already.
pub fn check_grant(req: &Request, reviewer: &str) -> Result<(), QueueError> {
    if reviewer.trim().is_empty() {
        return Err(QueueError::Invalid(
            "a grant needs a reviewer's name".into(),
        ));
    }
    if req.status != Status::Pending {
        return Err(QueueError::NotPending {
            id: req.id.clone(),
            status: req.status.to_string(),
        });
    }
    if req.level == RiskLevel::Critical {
        return Err(QueueError::Critical(req.id.clone()));
    }
    if req
        .reviews
        .iter()
        .any(|r| r.reviewer == reviewer.trim() && r.verdict == "grant")
    {
        return Err(QueueError::SameReviewer {
            id: req.id.clone(),
            reviewer: reviewer.trim().to_string(),
        });
    }
    Ok(())
}

/// Whether `reviewer` may refuse `req` for `reason`: it is pending, and both are given.
pub fn check_refusal(req: &Request, reviewer: &str, reason: &str) -> Result<(), QueueError> {
    if reviewer.trim().is_empty() || reason.trim().is_empty() {
        return Err(QueueError::Invalid(
            "a refusal needs a reviewer's name and a reason".into(),
        ));
    }
    if req.status != Status::Pending {
        return Err(QueueError::NotPending {
            id: req.id.clone(),
            status: req.status.to_string(),
        });
    }
    Ok(())
}

/// Whether one more grant (after [`check_grant`]) makes `req` granted.
pub fn completes(req: &Request) -> bool {
    let grants = req.reviews.iter().filter(|r| r.verdict == "grant").count() + 1;
    grants >= usize::try_from(req.required).unwrap_or(1)
}

/// A grant's note (`once`, `for 3600s`), its once flag and when it ends (microseconds).
pub fn grant_terms(grant: GrantFor, now: OffsetDateTime) -> (String, bool, Option<i64>) {
    match grant {
        GrantFor::Once => ("once".to_string(), true, None),
        GrantFor::Ttl(d) => (
            format!("for {}s", d.as_secs()),
            false,
            Some(
                crate::queue::micros(now)
                    .saturating_add(i64::try_from(d.as_micros()).unwrap_or(i64::MAX / 2)),
            ),
        ),
    }
}
