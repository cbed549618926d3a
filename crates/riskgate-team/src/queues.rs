//! The approval queues a reviewer works on: this machine's (SQLite, `state_dir/queue.db`).

use riskgate_gate::Policy;
use riskgate_gate::QueueError;
use riskgate_gate::queue::{GrantFor, Queue, Request, Status};
use time::OffsetDateTime;

use crate::TeamError;

/// The queues of a policy.
#[derive(Debug)]
pub struct Queues {
    /// `None`: no request was ever made here (the file is not created by reading).
    local: Option<Queue>,
}

impl Queues {
    /// Open the queues `policy` names.
    pub fn open(policy: &Policy) -> Result<Queues, TeamError> {
        Ok(Queues {
            local: Queue::open_existing(&policy.queue_path())?,
        })
    }

    fn local(&self, id: &str) -> Result<&Queue, TeamError> {
        self.local
            .as_ref()
            .ok_or_else(|| QueueError::NotFound(id.trim().to_string()).into())
    }

    /// Requests with `status`, oldest first.
    pub fn list(&self, status: Status, limit: usize) -> Result<Vec<Request>, TeamError> {
        match &self.local {
            Some(q) => Ok(q.list(status, limit)?),
            None => Ok(Vec::new()),
        }
    }

    /// The request `id`.
    pub fn get(&self, id: &str) -> Result<Option<Request>, TeamError> {
        match &self.local {
            Some(q) => Ok(q.get(id)?),
            None => Ok(None),
        }
    }

    /// See [`Queue::grant`].
    pub fn grant(
        &self,
        id: &str,
        reviewer: &str,
        how: GrantFor,
        now: OffsetDateTime,
    ) -> Result<Request, TeamError> {
        Ok(self.local(id)?.grant(id, reviewer, how, now)?)
    }

    /// See [`Queue::refuse`].
    pub fn refuse(
        &self,
        id: &str,
        reviewer: &str,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<Request, TeamError> {
        Ok(self.local(id)?.refuse(id, reviewer, reason, now)?)
    }
}
