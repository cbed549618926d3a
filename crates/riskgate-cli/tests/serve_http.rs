//! `riskgate serve` over real HTTP: the server is started on a free port, requests are
//! written on a socket by hand. Every page and action: login, the pending requests (risky span
//! underlined, hostile command text escaped), grant and refuse through the page with the same
//! effects as `riskgate approvals grant|refuse` (the next hook call is allowed once, the review
//! is audited with the reviewer's name), CSRF and token refusals, two-reviewer patterns and
//! CRITICAL never grantable, the audit trail's filters and paging, the report, and bad requests
//! answered with a 4xx.

mod hooks_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use hooks_common::{Env, codex, decision, env, riskgate};
use serde_json::{Value, json};

const PUSH: &str = "git push --force origin main";
/// A command whose text tries to get markup into the page.
const HOSTILE: &str =
    "git push --force origin main # <script>alert('x')</script><img src=x onerror=alert(1)>";

/// A `riskgate serve` process, killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
    token: Option<String>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `riskgate serve --listen LISTEN ARGS` in `e`; its address (and printed token).
fn serve(e: &Env, listen: &str, args: &[&str], token_env: Option<&str>) -> Served {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("riskgate"));
    cmd.current_dir(&e.project)
        .env("HOME", e.root.join("home"))
        .env("XDG_CONFIG_HOME", e.root.join("config"))
        .env("XDG_DATA_HOME", e.root.join("data"))
        .env("XDG_STATE_HOME", e.root.join("state"))
        .env("NO_COLOR", "1")
        .env("RISKGATE_HOOK_SERVER", "0")
        .env_remove("RISKGATE_STATE_DIR")
        .env_remove("RISKGATE_DATA_DIR")
        .env_remove("RISKGATE_CONFIG_DIR")
        .env("RISKGATE_MANAGED_POLICY", e.root.join("managed"))
        .args(["serve", "--listen", listen])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env_remove("RISKGATE_SERVE_TOKEN");
    if let Some(t) = token_env {
        cmd.env("RISKGATE_SERVE_TOKEN", t);
    }
    let mut child = cmd.spawn().expect("riskgate serve");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("first line");
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("riskgate serve: listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("address");
    let token = if token_env.is_none()
        && (listen.starts_with("0.0.0.0") || args.contains(&"--require-token"))
    {
        let mut l = String::new();
        out.read_line(&mut l).expect("token line");
        Some(
            l.trim()
                .strip_prefix("access token (shown once): ")
                .unwrap_or_else(|| panic!("no token in {l:?}"))
                .to_string(),
        )
    } else {
        None
    };
    Served {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], addr.port())),
        token,
    }
}

/// An answer: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn raw(addr: SocketAddr, bytes: &[u8]) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(bytes);
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A request with `Host: 127.0.0.1:PORT` and `extra` headers; a body makes it a form POST.
fn http(
    s: &Served,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: Option<&str>,
) -> Answer {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n",
        s.addr.port()
    );
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{b}",
            b.len()
        ));
    } else {
        req.push_str("\r\n");
    }
    raw(s.addr, req.as_bytes())
}

/// Log in as `name` (with `token` when needed); the cookie header value.
fn login(s: &Served, name: &str, token: Option<&str>) -> String {
    let mut pairs = vec![("reviewer", name)];
    if let Some(t) = token {
        pairs.push(("token", t));
    }
    let a = http(s, "POST", "/login", &[], Some(&form(&pairs)));
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(a.header("location"), Some("/pending"));
    let cookie = a.header("set-cookie").expect("a session cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    cookie.split(';').next().unwrap_or("").to_string()
}

/// The CSRF token of a page's forms.
fn csrf(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a csrf field");
    let rest = &page[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The hook's decision for `command` through codex (which cannot ask), and its answer.
fn codex_call(e: &Env, extra: &[&str], command: &str) -> (Option<String>, String) {
    let out = riskgate(e)
        .args(["hook", "codex"])
        .args(extra)
        .write_stdin(codex(e, "Bash", json!({"command": command})).to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (decision("codex", &stdout), stdout)
}

fn request_id(answer: &str) -> String {
    let at = answer
        .find("Approval requested: request ")
        .unwrap_or_else(|| panic!("no request in {answer}"));
    answer[at + "Approval requested: request ".len()..]
        .chars()
        .take(6)
        .collect()
}

fn pending(e: &Env, extra: &[&str]) -> Vec<Value> {
    let out = riskgate(e)
        .args(["approvals", "pending", "--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let p = entry.path();
        if p.is_dir() {
            if let Some(f) = find(&p, name) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
    }
    None
}

#[test]
fn the_pending_page_grants_once_like_the_cli_and_escapes_the_command() {
    let e = env();
    let (d, out) = codex_call(&e, &[], HOSTILE);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    let id = request_id(&out);
    let s = serve(&e, "127.0.0.1:0", &[], None);

    // every page needs a reviewer's name first
    let a = http(&s, "GET", "/pending", &[], None);
    assert_eq!((a.status, a.header("location")), (303, Some("/login")));
    let a = http(&s, "GET", "/login", &[], None);
    assert_eq!(a.status, 200);
    assert!(a.body.contains("name=\"reviewer\"") && !a.body.contains("name=\"token\""));
    assert!(
        a.header("content-security-policy")
            .is_some_and(|c| c.contains("default-src 'none'"))
    );
    let a = http(&s, "POST", "/login", &[], Some("reviewer="));
    assert_eq!(a.status, 400);
    let cookie = login(&s, "alice", None);

    let page = http(&s, "GET", "/pending", &[("Cookie", &cookie)], None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&id), "{}", page.body);
    // the hostile text is shown, escaped, never as markup
    assert!(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"));
    assert!(
        page.body
            .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    );
    // the risky span is underlined, not the whole text
    assert!(
        page.body.contains("<u class=\"risk\">git push --force"),
        "{}",
        page.body
    );
    assert!(
        !page
            .body
            .contains("<u class=\"risk\">git push --force origin main # &lt;script")
    );
    assert!(page.body.contains("reviewer: alice"));
    let token = csrf(&page.body);

    // actions are POSTs with the session's CSRF token
    let a = http(&s, "GET", "/grant", &[("Cookie", &cookie)], None);
    assert_eq!(a.status, 405);
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Cookie", &cookie)],
        Some(&form(&[("id", &id)])),
    );
    assert_eq!(a.status, 403, "{}", a.body);
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Cookie", &cookie)],
        Some(&form(&[("id", &id), ("csrf", "0000")])),
    );
    assert_eq!(a.status, 403);
    // a form posted from another site
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Cookie", &cookie), ("Origin", "http://evil.example")],
        Some(&form(&[("id", &id), ("csrf", &token)])),
    );
    assert_eq!(a.status, 403);
    // no session, no grant
    let a = http(
        &s,
        "POST",
        "/grant",
        &[],
        Some(&form(&[("id", &id), ("csrf", &token)])),
    );
    assert_eq!(a.status, 401);
    assert_eq!(
        pending(&e, &[]).len(),
        1,
        "still pending after the refused posts"
    );

    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Cookie", &cookie)],
        Some(&form(&[("id", &id), ("csrf", &token), ("for", "once")])),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(
        a.body
            .contains(&format!("request {id}: granted once (by alice)")),
        "{}",
        a.body
    );
    assert!(pending(&e, &[]).is_empty());
    // a second grant of the same request: it is no longer pending
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Cookie", &cookie)],
        Some(&form(&[("id", &id), ("csrf", &token)])),
    );
    assert_eq!(a.status, 409, "{}", a.body);

    // the same effect as `approvals grant --once`: allowed once, then a new request
    let (d, out) = codex_call(&e, &[], HOSTILE);
    assert_ne!(d.as_deref(), Some("deny"), "{out}");
    let (d, out) = codex_call(&e, &[], HOSTILE);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    // audited with the reviewer's name
    let log = riskgate(&e)
        .args(["log", "--format", "json", "--limit", "50"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(log.contains("reviewer:alice"), "{log}");
    assert!(
        log.contains(&format!("request {id} granted once by alice")),
        "{log}"
    );

    // logging out ends the session
    let a = http(
        &s,
        "POST",
        "/logout",
        &[("Cookie", &cookie)],
        Some(&form(&[("csrf", &token)])),
    );
    assert_eq!((a.status, a.header("location")), (303, Some("/login")));
    let a = http(&s, "GET", "/pending", &[("Cookie", &cookie)], None);
    assert_eq!(a.status, 303);
}

#[test]
fn refusals_ttl_grants_two_reviewers_and_critical() {
    let e = env();
    let two = ["--set", "approvals.two_reviewers=[\"git push --force\"]"];
    let (d, out) = codex_call(&e, &two, PUSH);
    assert_eq!(d.as_deref(), Some("deny"), "{out}");
    let pushed = request_id(&out);
    let (_, out) = codex_call(&e, &two, "git reset --hard HEAD~3");
    let reset = request_id(&out);
    // a CRITICAL request (the gate never makes one; an old or forged one is never granted)
    let queue = find(&e.root, "queue.db").expect("the queue database");
    let q = riskgate::gate::queue::Queue::open(&queue).unwrap();
    let (critical, _) = q
        .request(
            &riskgate::gate::queue::NewRequest {
                key: "k".into(),
                kind: "command".into(),
                input: "rm -rf /".into(),
                cwd: e.project.display().to_string(),
                agent: Some("codex".into()),
                session: None,
                level: riskgate::model::RiskLevel::Critical,
                score: 100,
                rules: vec!["fs.rm-recursive-root".into()],
                reason: "deletes everything".into(),
                required: 1,
            },
            riskgate::gate::clock::now(),
        )
        .unwrap();
    drop(q);

    let s = serve(&e, "127.0.0.1:0", &two, None);
    let alice = login(&s, "alice", None);
    let page = http(&s, "GET", "/pending", &[("Cookie", &alice)], None);
    assert!(
        page.body.contains("needs 2 distinct reviewers"),
        "{}",
        page.body
    );
    assert!(page.body.contains("CRITICAL: never grantable"));
    let t_alice = csrf(&page.body);
    let grant = |cookie: &str, csrf: &str, id: &str, how: &str| {
        http(
            &s,
            "POST",
            "/grant",
            &[("Cookie", cookie)],
            Some(&form(&[("id", id), ("csrf", csrf), ("for", how)])),
        )
    };
    // CRITICAL: refused whoever asks
    let a = grant(&alice, &t_alice, &critical.id, "once");
    assert_eq!(a.status, 409);
    assert!(a.body.contains("CRITICAL"), "{}", a.body);
    // two reviewers: alice's grant is recorded, the request stays pending
    let a = grant(&alice, &t_alice, &pushed, "1h");
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(
        a.body.contains("1 of 2 reviewers, still pending"),
        "{}",
        a.body
    );
    let a = grant(&alice, &t_alice, &pushed, "1h");
    assert_eq!(a.status, 409, "the same reviewer twice: {}", a.body);
    let bob = login(&s, "bob", None);
    let page = http(&s, "GET", "/pending", &[("Cookie", &bob)], None);
    let t_bob = csrf(&page.body);
    assert_ne!(t_bob, t_alice);
    let a = grant(&bob, &t_bob, &pushed, "1h");
    assert_eq!(a.status, 200);
    assert!(
        a.body.contains(&format!("request {pushed}: granted until")),
        "{}",
        a.body
    );
    let a = grant(&bob, &t_bob, &reset, "soon");
    assert_eq!(a.status, 400);
    // for an hour: allowed twice
    for _ in 0..2 {
        let (d, out) = codex_call(&e, &two, PUSH);
        assert_ne!(d.as_deref(), Some("deny"), "{out}");
    }
    // a refusal needs a reason, and the agent is told it
    let refuse = |reason: &str| {
        http(
            &s,
            "POST",
            "/refuse",
            &[("Cookie", &bob)],
            Some(&form(&[
                ("id", &reset),
                ("csrf", &t_bob),
                ("reason", reason),
            ])),
        )
    };
    assert_eq!(refuse("  ").status, 400);
    let a = refuse("use git revert, not reset <b>");
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body.contains("refused (by bob)"));
    let (d, out) = codex_call(&e, &two, "git reset --hard HEAD~3");
    assert_eq!(d.as_deref(), Some("deny"));
    assert!(
        out.contains("refused by bob") && out.contains("use git revert"),
        "{out}"
    );
    let left: Vec<String> = pending(&e, &two)
        .iter()
        .filter_map(|r| r["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(left, vec![critical.id.clone()]);
    // an unknown id
    let a = grant(&bob, &t_bob, "zzzzzz", "once");
    assert_eq!(a.status, 404);
}

#[test]
fn a_non_loopback_address_requires_the_token_for_every_page_and_action() {
    let e = env();
    let (_, out) = codex_call(&e, &[], PUSH);
    let id = request_id(&out);
    let s = serve(&e, "0.0.0.0:0", &[], None);
    let token = s.token.clone().expect("a token printed once");
    assert_eq!(token.len(), 64);

    let a = http(&s, "GET", "/pending", &[], None);
    assert_eq!((a.status, a.header("location")), (303, Some("/login")));
    for page in ["/audit", "/report"] {
        assert_eq!(http(&s, "GET", page, &[], None).status, 303, "{page}");
    }
    let a = http(&s, "GET", "/login", &[], None);
    assert!(a.body.contains("name=\"token\""));
    // a grant without the token is refused and changes nothing
    let a = http(
        &s,
        "POST",
        "/grant",
        &[],
        Some(&form(&[("id", &id), ("reviewer", "mallory")])),
    );
    assert_eq!(a.status, 401);
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Authorization", "Bearer not-the-token")],
        Some(&form(&[("id", &id), ("reviewer", "mallory")])),
    );
    assert_eq!(a.status, 401);
    let a = http(
        &s,
        "POST",
        "/login",
        &[],
        Some(&form(&[("reviewer", "mallory"), ("token", "guess")])),
    );
    assert_eq!(a.status, 401);
    assert!(a.header("set-cookie").is_none());
    assert_eq!(pending(&e, &[]).len(), 1);

    // with the token: a session, or a bearer (with a name)
    let cookie = login(&s, "carol", Some(&token));
    let page = http(&s, "GET", "/pending", &[("Cookie", &cookie)], None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&id));
    let bearer = format!("Bearer {token}");
    let a = http(&s, "GET", "/audit", &[("Authorization", &bearer)], None);
    assert_eq!(a.status, 200);
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Authorization", &bearer)],
        Some(&form(&[("id", &id)])),
    );
    assert_eq!(a.status, 400, "a bearer names the reviewer");
    let a = http(
        &s,
        "POST",
        "/grant",
        &[("Authorization", &bearer)],
        Some(&form(&[("id", &id), ("reviewer", "dave")])),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(pending(&e, &[]).is_empty());
    // any Host is fine with a token (the token is the guard)
    let a = raw(
        s.addr,
        format!("GET /audit HTTP/1.1\r\nHost: reviewer.example\r\nAuthorization: {bearer}\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(a.status, 200);
}

#[test]
fn the_audit_trail_filters_and_pages() {
    let e = env();
    for i in 0..55 {
        let (d, out) = codex_call(&e, &[], &format!("echo page-{i}"));
        assert!(d.is_none() || d.as_deref() == Some("allow"), "{out}");
    }
    let (d, _) = codex_call(&e, &[], PUSH);
    assert_eq!(d.as_deref(), Some("deny"));
    let out = riskgate(&e)
        .args(["check", "--format", "json", "ls -la"])
        .output()
        .unwrap();
    assert!(
        out.status.success() || out.status.code() == Some(0),
        "{out:?}"
    );
    let s = serve(&e, "127.0.0.1:0", &[], None);
    let c = login(&s, "erin", None);
    let rows = |path: &str| -> (u16, usize, String) {
        let a = http(&s, "GET", path, &[("Cookie", &c)], None);
        (
            a.status,
            a.body.matches("<tr class=\"rec\">").count(),
            a.body,
        )
    };
    let (status, n, body) = rows("/audit");
    assert_eq!((status, n), (200, 50), "the first page");
    assert!(body.contains("rel=\"next\"") && !body.contains("rel=\"prev\""));
    let (_, n, body) = rows("/audit?page=2");
    assert_eq!(n, 7, "57 decisions: 50 + 7");
    assert!(body.contains("rel=\"prev\"") && !body.contains("rel=\"next\""));
    let (_, n, body) = rows("/audit?decision=deny");
    assert_eq!(n, 1);
    assert!(body.contains("git push --force origin main"));
    let (_, n, _) = rows("/audit?level=HIGH");
    assert_eq!(n, 1);
    let (_, n, _) = rows("/audit?agent=codex&page=2");
    assert_eq!(n, 6, "56 of codex: 50 + 6");
    let (_, n, body) = rows("/audit?agent=cli");
    assert_eq!(n, 1, "{body}");
    let (_, n, _) = rows("/audit?agent=claude");
    assert_eq!(n, 0);
    let repo = enc(&e.project.display().to_string());
    let (_, n, _) = rows(&format!("/audit?repo={repo}&decision=allow"));
    assert_eq!(n, 50);
    let (_, n, _) = rows("/audit?repo=%2Fnowhere");
    assert_eq!(n, 0);
    let (_, n, _) = rows("/audit?rule=no.such-rule");
    assert_eq!(n, 0);
    let (_, n, _) = rows("/audit?since=1h");
    assert_eq!(n, 50);
    let (_, n, _) = rows("/audit?until=2000-01-01");
    assert_eq!(n, 0);
    // the filter values travel in the paging links, escaped
    let (_, _, body) = rows("/audit?agent=codex&rule=%22%3E%3Cscript%3E");
    assert!(!body.contains("\"><script>"));
    let (status, n, body) = rows("/audit?since=yesterday-ish");
    assert_eq!((status, n), (400, 0));
    assert!(body.contains("expected a duration"));
    assert_eq!(rows("/audit?level=SEVERE").0, 400);
    assert_eq!(rows("/audit?decision=maybe").0, 400);
    // the rule filter finds the rule of the denied push
    let denied: Vec<Value> = serde_json::from_slice(
        &riskgate(&e)
            .args(["log", "--decision", "deny", "--format", "json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let rule = denied[0]["rules"][0].as_str().expect("a rule").to_string();
    let (_, n, _) = rows(&format!("/audit?rule={}", enc(&rule)));
    assert_eq!(n, 1);
}

#[test]
fn the_report_page_and_bad_requests() {
    let e = env();
    let (_, out) = codex_call(&e, &[], PUSH);
    let id = request_id(&out);
    let s = serve(&e, "127.0.0.1:0", &[], None);
    let c = login(&s, "frank", None);
    let a = http(&s, "GET", "/report", &[("Cookie", &c)], None);
    assert_eq!(a.status, 200);
    assert!(a.body.contains("<svg") && a.body.contains("decisions per day"));
    assert!(a.body.contains("Asks and denies per rule"));
    assert!(a.body.contains("Most often approved"));
    assert!(a.body.contains("Approvals expiring within 7 days"));
    assert!(a.body.contains(&id), "the waiting request");
    assert!(!a.body.contains("<script"));
    let a = http(&s, "GET", "/report?since=7d", &[("Cookie", &c)], None);
    assert_eq!(a.status, 200);
    let a = http(&s, "GET", "/report?since=whenever", &[("Cookie", &c)], None);
    assert_eq!(a.status, 400);
    assert_eq!(http(&s, "GET", "/", &[("Cookie", &c)], None).status, 303);
    assert_eq!(
        http(&s, "GET", "/nothing", &[("Cookie", &c)], None).status,
        404
    );
    assert_eq!(
        http(&s, "DELETE", "/pending", &[("Cookie", &c)], None).status,
        405
    );

    // the host check (a name rebound to 127.0.0.1 by another site)
    let a = raw(
        s.addr,
        format!(
            "GET /pending HTTP/1.1\r\nHost: evil.example:{}\r\nCookie: {c}\r\n\r\n",
            s.addr.port()
        )
        .as_bytes(),
    );
    assert_eq!(a.status, 421);
    // malformed, oversized, unsupported: 4xx, and the server goes on
    assert_eq!(raw(s.addr, b"NOT HTTP AT ALL\r\n\r\n").status, 400);
    let big = format!(
        "GET /pending HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(raw(s.addr, big.as_bytes()).status, 431);
    let many: String = (0..60).map(|i| format!("X-H{i}: v\r\n")).collect();
    let req = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}\r\n");
    assert_eq!(raw(s.addr, req.as_bytes()).status, 431);
    let req = format!(
        "POST /login HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 100000000\r\n\r\nreviewer=x",
        s.addr.port()
    );
    assert_eq!(raw(s.addr, req.as_bytes()).status, 413);
    let req =
        "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    assert_eq!(raw(s.addr, req.as_bytes()).status, 411);
    let req = "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcde";
    assert_eq!(raw(s.addr, req.as_bytes()).status, 400);
    let a = http(&s, "GET", "/pending", &[("Cookie", &c)], None);
    assert_eq!(a.status, 200, "still serving");
}
