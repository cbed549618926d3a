//! The approval queues a reviewer works on: the team's (PostgreSQL, when `audit.url` is set:
//! requests of every machine) and this machine's (SQLite, `state_dir/queue.db`: its requests
//! from before the team database, or made while it was unreachable). A list shows both; a
//! request is decided in the queue that holds it.

use riskgate_gate::Policy;
use riskgate_gate::QueueError;
use riskgate_gate::queue::{GrantFor, Queue, Request, Status};
use riskgate_gate::queue_store::{BoxedStore, QueueStore};
use time::OffsetDateTime;

use crate::TeamError;

/// How long a reviewer waits for the team's database.
const CONNECT_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The queues of a policy.
pub struct Queues {
    /// The team's queue, when configured and reachable.
    team: Option<BoxedStore>,
    /// This machine's; `None`: no request was ever made here (reading creates no file).
    local: Option<Queue>,
    /// Why the team's queue is missing (unreachable, not migrated).
    pub warnings: Vec<String>,
    /// Whether a team database is configured.
    pub team_configured: bool,
}

impl std::fmt::Debug for Queues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queues")
            .field("team", &self.team.is_some())
            .field("local", &self.local)
            .field("warnings", &self.warnings)
            .finish()
    }
}

impl Queues {
    /// Open the queues `policy` names. An unreachable team database is a warning: this
    /// machine's queue is still there.
    pub fn open(policy: &Policy) -> Result<Queues, TeamError> {
        let mut warnings = Vec::new();
        let url = policy.audit_url().map(|u| u.value.clone());
        let team = match &url {
            Some(url) => match crate::pg_queue::connect(url, CONNECT_LIMIT) {
                Ok(q) => Some(Box::new(q) as BoxedStore),
                Err(e) => {
                    warnings.push(format!(
                        "the team's approval queue is not available ({e}): showing this machine's only"
                    ));
                    None
                }
            },
            None => None,
        };
        Ok(Queues {
            team,
            local: Queue::open_existing(&policy.queue_path())?,
            warnings,
            team_configured: url.is_some(),
        })
    }

    /// Requests with `status`, oldest first (the team's and this machine's).
    pub fn list(&mut self, status: Status, limit: usize) -> Result<Vec<Request>, TeamError> {
        let mut all = Vec::new();
        if let Some(t) = self.team.as_mut() {
            all.extend(t.list(status, limit)?);
        }
        if let Some(q) = &self.local {
            all.extend(q.list(status, limit)?);
        }
        all.sort_by(|a, b| a.created.cmp(&b.created));
        all.truncate(limit);
        Ok(all)
    }

    /// The request `id`, and the queue that holds it.
    fn holder(&mut self, id: &str) -> Result<&mut dyn QueueStore, TeamError> {
        let in_team = match self.team.as_mut() {
            Some(t) => t.get(id)?.is_some(),
            None => false,
        };
        if in_team && let Some(t) = self.team.as_mut() {
            return Ok(t.as_mut() as &mut dyn QueueStore);
        }
        match self.local.as_mut() {
            Some(q) => Ok(q as &mut dyn QueueStore),
            None => Err(QueueError::NotFound(id.trim().to_string()).into()),
        }
    }

    /// The request `id`.
    pub fn get(&mut self, id: &str) -> Result<Option<Request>, TeamError> {
        if let Some(t) = self.team.as_mut()
            && let Some(r) = t.get(id)?
        {
            return Ok(Some(r));
        }
        match &self.local {
            Some(q) => Ok(q.get(id)?),
            None => Ok(None),
        }
    }

    /// `reviewer` grants `id` in the queue that holds it (see [`Queue::grant`]).
    pub fn grant(
        &mut self,
        id: &str,
        reviewer: &str,
        how: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, TeamError> {
        Ok(self.holder(id)?.grant(id, reviewer, how, now)?)
    }

    /// `reviewer` refuses `id` in the queue that holds it (see [`Queue::refuse`]).
    pub fn refuse(
        &mut self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, TeamError> {
        Ok(self.holder(id)?.refuse(id, reviewer, reason, now)?)
    }
}
