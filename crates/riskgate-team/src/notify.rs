//! Announcing a new approval request to a webhook (`approvals.webhook`): a generic JSON POST
//! (`{"event": "approval_requested", "request": {…}, "grant": "riskgate approvals grant ID"}`)
//! or a Slack-compatible one (`{"text": …}`), with retries.
//!
//! Never on the hook's path: the hook starts `riskgate approvals notify` in the background
//! (see the CLI) and answers at once. A 2xx answer is success; a connection error, a timeout,
//! a 429 or a 5xx is retried after 0.5 s, 1 s, 2 s, 4 s (5 tries); another 4xx is final.

use std::time::Duration;

use riskgate_gate::policy::{Webhook, WebhookFormat};
use riskgate_gate::queue::Request;
use serde_json::{Value, json};

use crate::TeamError;

/// Tries before giving up.
pub const ATTEMPTS: u32 = 5;
/// The wait before the first retry (doubled each time).
pub const FIRST_BACKOFF: Duration = Duration::from_millis(500);

/// The payload for `request` in `format`.
pub fn payload(request: &Request, format: WebhookFormat) -> Value {
    let grant = format!("riskgate approvals grant {}", request.id);
    match format {
        WebhookFormat::Generic => json!({
            "event": "approval_requested",
            "request": request,
            "grant": grant,
            "refuse": format!("riskgate approvals refuse {} --reason …", request.id),
        }),
        WebhookFormat::Slack => {
            let who = request.agent.as_deref().unwrap_or("a person");
            let two = if request.required > 1 {
                " (needs two reviewers)"
            } else {
                ""
            };
            json!({
                "text": format!(
                    "riskgate: {who} asks to run a {} action in {} on {}{two}:\n```{}```\n{}\nGrant: `{grant}` · refuse: `riskgate approvals refuse {} --reason …`",
                    request.level.as_str(),
                    request.cwd,
                    request.host,
                    request.input,
                    request.reason,
                    request.id
                )
            })
        }
    }
}

/// POST the announcement of `request` to `hook`, retrying; returns the number of tries used.
pub fn send(hook: &Webhook, request: &Request) -> Result<u32, TeamError> {
    let body = payload(request, hook.format).to_string();
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(10))
        .user_agent(concat!("riskgate/", env!("CARGO_PKG_VERSION")))
        .build();
    let mut wait = FIRST_BACKOFF;
    let mut last = String::new();
    for attempt in 1..=ATTEMPTS {
        match agent
            .post(&hook.url)
            .set("Content-Type", "application/json")
            .send_string(&body)
        {
            Ok(_) => return Ok(attempt),
            Err(ureq::Error::Status(code, _)) if code != 429 && code < 500 => {
                return Err(TeamError::Config(format!(
                    "webhook {}: refused with HTTP {code}",
                    hook.url
                )));
            }
            Err(e) => last = e.to_string(),
        }
        if attempt < ATTEMPTS {
            std::thread::sleep(wait);
            wait *= 2;
        }
    }
    Err(TeamError::Config(format!(
        "webhook {}: no answer after {ATTEMPTS} tries: {last}",
        hook.url
    )))
}
