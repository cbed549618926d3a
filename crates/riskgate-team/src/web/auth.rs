//! Who may use the reviewer's page: the access token, the reviewers' sessions and their CSRF
//! tokens, and the host check.
//!
//! - Bound to a loopback address without a token, the page asks only for the reviewer's
//!   name; the `Host` header must then name the loopback address (a web page elsewhere that
//!   rebinds a name of its own to 127.0.0.1 is refused).
//! - With a token (required for any other address), every page and action needs a session,
//!   opened by the login form with the token, or `Authorization: Bearer TOKEN` on each request
//!   (for scripts; the reviewer's name then comes with the form).
//! - A session is a random id in an `HttpOnly; SameSite=Strict` cookie; it carries the
//!   reviewer's name and a random CSRF token that every form posts back. Sessions end after
//!   [`SESSION_TTL`]; at most [`MAX_SESSIONS`] are kept (the oldest go first).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::http::Request;

/// The session cookie's name.
pub const COOKIE: &str = "riskgate_session";
/// How long a session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(12 * 3600);
/// Sessions kept at once.
pub const MAX_SESSIONS: usize = 1000;
/// The longest reviewer name.
pub const MAX_NAME: usize = 64;

/// `n` random bytes as hex, from the operating system's generator.
pub fn random_hex(n: usize) -> Result<String, getrandom::Error> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// A fresh access token (32 random bytes, hex).
pub fn new_token() -> Result<String, getrandom::Error> {
    random_hex(32)
}

/// Equal, in a time that does not depend on where they differ.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A reviewer's name as typed, if usable: trimmed, 1 to [`MAX_NAME`] characters, no control
/// characters.
pub fn valid_name(name: &str) -> Option<String> {
    let name = name.trim();
    (!name.is_empty() && name.chars().count() <= MAX_NAME && !name.chars().any(char::is_control))
        .then(|| name.to_string())
}

/// One reviewer's session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The reviewer's name (recorded with each grant and refusal).
    pub reviewer: String,
    /// The token every form of this session posts back.
    pub csrf: String,
    created: Instant,
}

/// Who is asking: a session, or a bearer of the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// A logged-in reviewer.
    Session(Session),
    /// `Authorization: Bearer TOKEN`.
    Bearer,
}

/// The page's access rules and sessions.
#[derive(Debug)]
pub struct Auth {
    token: Option<String>,
    /// The `Host` values accepted without a token (`127.0.0.1:PORT`, `localhost:PORT` …).
    loopback_hosts: Vec<String>,
    sessions: Mutex<HashMap<String, Session>>,
}

impl Auth {
    /// Rules for a server at `port`: `token` required when given.
    pub fn new(token: Option<String>, port: u16) -> Auth {
        Auth {
            token,
            loopback_hosts: ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .map(|h| format!("{h}:{port}"))
                .collect(),
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the login form asks for the token.
    pub fn needs_token(&self) -> bool {
        self.token.is_some()
    }

    /// Whether `req` may be answered at all: without a token, only when its `Host` names the
    /// loopback address (DNS rebinding).
    pub fn host_ok(&self, req: &Request) -> bool {
        if self.token.is_some() {
            return true;
        }
        req.header("host").is_some_and(|h| {
            self.loopback_hosts
                .iter()
                .any(|l| l.eq_ignore_ascii_case(h.trim()))
        })
    }

    /// Whether `token` is the access token (always, when there is none).
    pub fn token_ok(&self, token: Option<&str>) -> bool {
        match &self.token {
            None => true,
            Some(t) => token.is_some_and(|given| same(given.trim(), t)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Open a session for `reviewer`; returns its id.
    pub fn login(&self, reviewer: String) -> Result<String, getrandom::Error> {
        let id = random_hex(24)?;
        let session = Session {
            reviewer,
            csrf: random_hex(24)?,
            created: Instant::now(),
        };
        let mut sessions = self.lock();
        sessions.retain(|_, s| s.created.elapsed() < SESSION_TTL);
        while sessions.len() >= MAX_SESSIONS {
            let oldest = sessions
                .iter()
                .min_by_key(|(_, s)| s.created)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => sessions.remove(&k),
                None => break,
            };
        }
        sessions.insert(id.clone(), session);
        Ok(id)
    }

    /// End the session `id`.
    pub fn logout(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Who `req` comes from, if anyone allowed.
    pub fn caller(&self, req: &Request) -> Option<Caller> {
        if let Some(token) = &self.token
            && let Some(given) = req
                .header("authorization")
                .and_then(|v| v.trim().strip_prefix("Bearer "))
        {
            return same(given.trim(), token).then_some(Caller::Bearer);
        }
        let id = req.cookie(COOKIE)?;
        let sessions = self.lock();
        sessions
            .get(&id)
            .filter(|s| s.created.elapsed() < SESSION_TTL)
            .cloned()
            .map(Caller::Session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(headers: &[(&str, &str)]) -> Request {
        Request {
            method: "GET".into(),
            path: "/".into(),
            query: Vec::new(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: Vec::new(),
        }
    }

    #[test]
    fn sessions_bearers_and_hosts() {
        let auth = Auth::new(Some("s3cret".into()), 8080);
        assert!(auth.needs_token() && auth.token_ok(Some("s3cret")));
        assert!(!auth.token_ok(Some("s3cre")) && !auth.token_ok(None));
        assert_eq!(
            auth.caller(&req(&[("authorization", "Bearer s3cret")])),
            Some(Caller::Bearer)
        );
        assert_eq!(auth.caller(&req(&[("authorization", "Bearer nope")])), None);
        let id = auth.login("ann".into()).unwrap();
        let cookie = format!("a=b; {COOKIE}={id}");
        let Some(Caller::Session(s)) = auth.caller(&req(&[("cookie", &cookie)])) else {
            panic!("no session");
        };
        assert_eq!(s.reviewer, "ann");
        assert_eq!(s.csrf.len(), 48);
        auth.logout(&id);
        assert_eq!(auth.caller(&req(&[("cookie", &cookie)])), None);

        let open = Auth::new(None, 8080);
        assert!(open.host_ok(&req(&[("host", "127.0.0.1:8080")])));
        assert!(open.host_ok(&req(&[("host", "localhost:8080")])));
        assert!(!open.host_ok(&req(&[("host", "evil.example:8080")])));
        assert!(!open.host_ok(&req(&[])));
        assert_eq!(valid_name("  ann "), Some("ann".into()));
        assert_eq!(valid_name(""), None);
        assert_eq!(valid_name("a\nb"), None);
        assert_eq!(valid_name(&"x".repeat(65)), None);
    }
}
