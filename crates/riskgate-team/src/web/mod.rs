//! The reviewer's page (`riskgate serve`): pending approval requests with grant and refuse
//! buttons, the audit trail with filters and paging, and the friction report, as
//! server-rendered HTML.
//!
//! - [`http`]: the bounded HTTP/1.1 transport (sizes, time-outs, connection cap).
//! - [`auth`]: token, sessions, CSRF tokens, host check.
//! - [`pages`]: the HTML.
//!
//! Binding anything but a loopback address requires a token ([`Server::bind`] refuses
//! otherwise). Actions are POSTs carrying the session's CSRF token, never GETs. A grant or a
//! refusal goes through [`crate::review`], the very code of `riskgate approvals grant|refuse`,
//! with the logged-in reviewer's name. Reads come from this machine's SQLite files, or from
//! the team's PostgreSQL database when `audit.url` is configured.

pub mod auth;
pub mod http;
pub mod pages;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use riskgate_gate::queue::{GrantFor, Request};
use riskgate_gate::{AuditQuery, Policy, QueueError};
use riskgate_model::{Decision, RiskLevel, Span};

use self::auth::{Auth, COOKIE, Caller};
use self::http::{Response, first};
use crate::TeamError;
use crate::report::Source;

/// Records per page of the audit trail.
pub const PAGE: usize = 50;
/// The last page that can be asked for.
const MAX_PAGE: usize = 100_000;

/// Where the risky parts of a request's text are (the binary assesses it again).
pub type Highlighter = Arc<dyn Fn(&Request) -> Vec<Span> + Send + Sync>;

/// How to serve.
pub struct Config {
    /// The address (`127.0.0.1:8700` by default in the CLI).
    pub listen: SocketAddr,
    /// The access token; required unless `listen` is a loopback address.
    pub token: Option<String>,
    /// The policy (state directory, queue, audit log, `audit.url`).
    pub policy: Policy,
    /// The risky spans of a request.
    pub highlight: Highlighter,
}

struct State {
    auth: Auth,
    policy: Policy,
    highlight: Highlighter,
    source: Source,
    active: AtomicUsize,
}

/// A bound server.
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    /// Bind `config.listen`; an error when it is not a loopback address and there is no
    /// token.
    pub fn bind(config: Config) -> Result<Server, TeamError> {
        let loopback = config.listen.ip().is_loopback();
        let token = config.token.filter(|t| !t.trim().is_empty());
        if !loopback && token.is_none() {
            return Err(TeamError::Config(format!(
                "serving on {} (not a loopback address) requires an access token",
                config.listen
            )));
        }
        let listener = TcpListener::bind(config.listen)
            .map_err(|e| TeamError::Config(format!("cannot listen on {}: {e}", config.listen)))?;
        let port = listener
            .local_addr()
            .map_err(|e| TeamError::Config(format!("listening socket: {e}")))?
            .port();
        let source = Source::of(&config.policy);
        Ok(Server {
            listener,
            state: Arc::new(State {
                auth: Auth::new(token, port),
                policy: config.policy,
                highlight: config.highlight,
                source,
                active: AtomicUsize::new(0),
            }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> Result<SocketAddr, TeamError> {
        self.listener
            .local_addr()
            .map_err(|e| TeamError::Config(format!("listening socket: {e}")))
    }

    /// Serve until the process ends: each connection on its own thread, at most
    /// [`http::MAX_CONNECTIONS`] at once.
    pub fn run(self) -> Result<(), TeamError> {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            if self.state.active.fetch_add(1, Ordering::AcqRel) >= http::MAX_CONNECTIONS {
                self.state.active.fetch_sub(1, Ordering::AcqRel);
                busy(stream);
                continue;
            }
            let state = Arc::clone(&self.state);
            let spawned = std::thread::Builder::new()
                .name("riskgate-serve".into())
                .spawn(move || {
                    let _slot = Slot(&state.active);
                    connection(&state, stream);
                });
            if spawned.is_err() {
                self.state.active.fetch_sub(1, Ordering::AcqRel);
            }
        }
        Ok(())
    }
}

/// Gives a connection's slot back when its thread ends (even by a panic).
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Past the cap: a 503, written without waiting, and closed.
fn busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    http::write_response(&mut stream, &Response::text(503, "busy: try again\n"));
}

fn connection(state: &State, mut stream: TcpStream) {
    let response = match http::read_request(&mut stream) {
        Ok(None) => return,
        Err(refusal) => Response::text(refusal.status, &format!("{}\n", refusal.message)),
        Ok(Some(req)) => handle(state, &req),
    };
    http::write_response(&mut stream, &response);
}

fn who(caller: &Caller) -> Option<(&str, &str)> {
    match caller {
        Caller::Session(s) => Some((s.reviewer.as_str(), s.csrf.as_str())),
        Caller::Bearer => None,
    }
}

fn source_label(source: &Source) -> &'static str {
    match source {
        Source::Local => "this machine's audit log and queue",
        Source::Team(_) => "the team's database (PostgreSQL)",
    }
}

fn handle(st: &State, req: &http::Request) -> Response {
    if !st.auth.host_ok(req) {
        return Response::text(421, "this page answers on its loopback address only\n");
    }
    if req.method == "POST"
        && let (Some(origin), Some(host)) = (req.header("origin"), req.header("host"))
        && origin != "null"
        && !origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|o| o.eq_ignore_ascii_case(host.trim()))
    {
        return Response::text(403, "a form from another site\n");
    }
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/login") => {
            return Response::html(200, pages::login(st.auth.needs_token(), None));
        }
        ("POST", "/login") => return login(st, req),
        _ => {}
    }
    let Some(caller) = st.auth.caller(req) else {
        return if req.method == "GET" {
            Response::redirect("/login")
        } else {
            Response::html(
                401,
                pages::problem(
                    "Not logged in",
                    "log in first (or send the access token)",
                    None,
                ),
            )
        };
    };
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/") => Response::redirect("/pending"),
        ("GET", "/pending") => pending(st, &caller, None),
        ("GET", "/audit") => audit(st, &caller, req),
        ("GET", "/report") => report(st, &caller, req),
        ("POST", "/grant") => decide(st, &caller, req, true),
        ("POST", "/refuse") => decide(st, &caller, req, false),
        ("POST", "/logout") => logout(st, &caller, req),
        (_, "/" | "/pending" | "/audit" | "/report" | "/grant" | "/refuse" | "/logout") => {
            Response::text(405, "method not allowed\n")
        }
        _ => Response::html(
            404,
            pages::problem("Not found", "no such page", who(&caller)),
        ),
    }
}

fn login(st: &State, req: &http::Request) -> Response {
    let form = req.form();
    if !st.auth.token_ok(first(&form, "token").as_deref()) {
        return Response::html(
            401,
            pages::login(st.auth.needs_token(), Some("wrong access token")),
        );
    }
    let Some(name) = first(&form, "reviewer").and_then(|n| auth::valid_name(&n)) else {
        return Response::html(
            400,
            pages::login(
                st.auth.needs_token(),
                Some("your name, please (1 to 64 characters)"),
            ),
        );
    };
    match st.auth.login(name) {
        Ok(id) => Response::redirect("/pending").with(
            "Set-Cookie",
            format!("{COOKIE}={id}; HttpOnly; SameSite=Strict; Path=/"),
        ),
        Err(e) => Response::text(500, &format!("no session: {e}\n")),
    }
}

/// The reviewer of a POST: the session's (when its CSRF token came back), or the bearer's
/// form field.
fn poster(caller: &Caller, form: &[(String, String)]) -> Result<String, Response> {
    match caller {
        Caller::Session(s) => {
            if first(form, "csrf").is_some_and(|t| auth::same(&t, &s.csrf)) {
                Ok(s.reviewer.clone())
            } else {
                Err(Response::html(
                    403,
                    pages::problem(
                        "Refused",
                        "the form's CSRF token is missing or wrong: reload the page",
                        who(caller),
                    ),
                ))
            }
        }
        Caller::Bearer => first(form, "reviewer")
            .and_then(|n| auth::valid_name(&n))
            .ok_or_else(|| {
                Response::html(
                    400,
                    pages::problem("Refused", "a `reviewer` name is required", None),
                )
            }),
    }
}

fn logout(st: &State, caller: &Caller, req: &http::Request) -> Response {
    if let Err(r) = poster(caller, &req.form()) {
        return r;
    }
    if let Some(id) = req.cookie(COOKIE) {
        st.auth.logout(&id);
    }
    Response::redirect("/login").with(
        "Set-Cookie",
        format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    )
}

fn failure(e: &TeamError, caller: &Caller) -> Response {
    let status = match e {
        TeamError::Queue(QueueError::NotFound(_)) => 404,
        TeamError::Queue(
            QueueError::Critical(_)
            | QueueError::SameReviewer { .. }
            | QueueError::NotPending { .. },
        ) => 409,
        TeamError::Queue(QueueError::Invalid(_)) => 400,
        TeamError::Postgres(_) => 503,
        _ => 500,
    };
    let title = if status == 503 {
        "The team database is unreachable"
    } else {
        "Not done"
    };
    Response::html(status, pages::problem(title, &e.to_string(), who(caller)))
}

fn pending(st: &State, caller: &Caller, flash: Option<&str>) -> Response {
    match crate::review::pending(&st.policy) {
        Ok(p) => {
            let mut flash = flash.map(str::to_string);
            for w in &p.warnings {
                flash = Some(match flash {
                    Some(f) => format!("{f} — warning: {w}"),
                    None => format!("warning: {w}"),
                });
            }
            let with_spans: Vec<(Request, Vec<Span>)> = p
                .requests
                .into_iter()
                .map(|r| {
                    let spans = (st.highlight)(&r);
                    (r, spans)
                })
                .collect();
            let body = pages::pending(
                &with_spans,
                who(caller).map(|(_, csrf)| csrf),
                flash.as_deref(),
                if p.team {
                    "the team's queue (PostgreSQL) and this machine's"
                } else {
                    "this machine's queue"
                },
            );
            Response::html(
                200,
                pages::layout("Pending requests", "/pending", who(caller), &body),
            )
        }
        Err(e) => failure(&e, caller),
    }
}

fn decide(st: &State, caller: &Caller, req: &http::Request, grant: bool) -> Response {
    let form = req.form();
    let reviewer = match poster(caller, &form) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(id) = first(&form, "id") else {
        return Response::html(
            400,
            pages::problem("Not done", "no request id", who(caller)),
        );
    };
    let done = if grant {
        let how = match first(&form, "for").as_deref() {
            None | Some("once") => GrantFor::Once,
            Some(d) => match riskgate_gate::clock::parse_duration(d) {
                Some(d) if !d.is_zero() => GrantFor::Ttl(d),
                _ => {
                    return Response::html(
                        400,
                        pages::problem(
                            "Not done",
                            &format!("`{d}`: expected once or a duration (30m, 1h, 2d)"),
                            who(caller),
                        ),
                    );
                }
            },
        };
        crate::review::grant(&st.policy, &id, &reviewer, how)
    } else {
        let Some(reason) = first(&form, "reason") else {
            return Response::html(
                400,
                pages::problem("Not done", "a refusal needs a reason", who(caller)),
            );
        };
        crate::review::refuse(&st.policy, &id, &reviewer, &reason)
    };
    match done {
        Ok(r) => {
            let mut flash = format!("request {}: {} (by {reviewer})", r.request.id, r.summary);
            if let Some(w) = r.warning {
                flash.push_str(&format!(" — warning: {w}"));
            }
            pending(st, caller, Some(&flash))
        }
        Err(e) => failure(&e, caller),
    }
}

/// The audit query of the filters; an error names the bad value.
fn query_of(f: &pages::Filters, page: usize) -> Result<AuditQuery, String> {
    let now = riskgate_gate::clock::now();
    let time = |v: &Option<String>, what: &str| match v {
        None => Ok(None),
        Some(s) => riskgate_gate::clock::parse_since(s, now)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "{what} `{s}`: expected a duration (30m, 2h, 7d), an RFC 3339 time or a date"
                )
            }),
    };
    let level =
        match &f.level {
            None => None,
            Some(l) => Some(l.parse::<RiskLevel>().map_err(|_| {
                format!("level `{l}`: expected SAFE, LOW, MEDIUM, HIGH or CRITICAL")
            })?),
        };
    let decision = match f.decision.as_deref() {
        None => None,
        Some("allow") => Some(Decision::Allow),
        Some("ask") => Some(Decision::Ask),
        Some("deny") => Some(Decision::Deny),
        Some(d) => return Err(format!("decision `{d}`: expected allow, ask or deny")),
    };
    Ok(AuditQuery {
        since: time(&f.since, "from")?,
        until: time(&f.until, "until")?,
        decision,
        level,
        agent: f.agent.clone(),
        repository: f.repo.clone(),
        rule: f.rule.clone(),
        limit: Some(PAGE + 1),
        offset: (page - 1) * PAGE,
    })
}

fn audit(st: &State, caller: &Caller, req: &http::Request) -> Response {
    let f = pages::Filters {
        since: req.param("since"),
        until: req.param("until"),
        agent: req.param("agent"),
        repo: req.param("repo"),
        level: req.param("level"),
        decision: req.param("decision"),
        rule: req.param("rule"),
    };
    let page = req
        .param("page")
        .and_then(|p| p.parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, MAX_PAGE);
    let label = source_label(&st.source);
    let page_of =
        |status: u16, records: &[riskgate_gate::AuditRecord], more: bool, error: Option<&str>| {
            let body = pages::audit(records, &f, page, more, label, error);
            Response::html(
                status,
                pages::layout("Audit trail", "/audit", who(caller), &body),
            )
        };
    let q = match query_of(&f, page) {
        Ok(q) => q,
        Err(e) => return page_of(400, &[], false, Some(&e)),
    };
    match crate::report::records(&st.policy, &st.source, &q) {
        Ok(mut records) => {
            let more = records.len() > PAGE;
            records.truncate(PAGE);
            page_of(200, &records, more, None)
        }
        Err(e) => failure(&e, caller),
    }
}

fn report(st: &State, caller: &Caller, req: &http::Request) -> Response {
    let since_text = req.param("since").unwrap_or_else(|| "30d".to_string());
    let Some(since) = riskgate_gate::clock::parse_since(&since_text, riskgate_gate::clock::now())
    else {
        return Response::html(
            400,
            pages::problem(
                "Not shown",
                &format!(
                    "since `{since_text}`: expected a duration (30m, 2h, 7d), an RFC 3339 time or a date"
                ),
                who(caller),
            ),
        );
    };
    match crate::report::gather(&st.policy, &st.source, since) {
        Ok(r) => {
            let body = pages::report(&r, &since_text, source_label(&st.source));
            Response::html(
                200,
                pages::layout("Friction report", "/report", who(caller), &body),
            )
        }
        Err(e) => failure(&e, caller),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_non_loopback_address_without_a_token_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let policy = |dir: &std::path::Path| {
            Policy::builtin_at(dir, &riskgate_gate::Locations::isolated(dir))
        };
        let config = |listen: &str, token: Option<&str>| Config {
            listen: listen.parse().unwrap(),
            token: token.map(str::to_string),
            policy: policy(dir.path()),
            highlight: Arc::new(|_| Vec::new()),
        };
        let err = Server::bind(config("0.0.0.0:0", None))
            .err()
            .expect("refused");
        assert!(
            err.to_string().contains("requires an access token"),
            "{err}"
        );
        assert!(Server::bind(config("0.0.0.0:0", Some("  "))).is_err());
        assert!(Server::bind(config("0.0.0.0:0", Some("a-long-enough-token"))).is_ok());
        assert!(Server::bind(config("127.0.0.1:0", None)).is_ok());
    }
}
