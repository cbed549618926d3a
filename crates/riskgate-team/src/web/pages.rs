//! The reviewer's pages as HTML: server-rendered, no script, no external asset, and every
//! text that comes from outside (commands, paths, names, reasons, filter values) escaped —
//! a command is hostile text.

use riskgate_gate::AuditRecord;
use riskgate_gate::queue::Request;
use riskgate_model::{RiskLevel, Span};

use crate::report::{self, Report, escape};

/// The pages' style (inline).
const STYLE: &str = "nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ddd;\
padding-bottom:.5rem;margin-bottom:1rem}nav a.on{font-weight:bold}nav .who{margin-left:auto;color:#555}\
form.inline{display:inline-flex;gap:.3rem;margin:.2rem .5rem .2rem 0}.flash{background:#e8f5e9;\
padding:.5rem;border-left:4px solid #4c9a5b}.error{background:#fdecea;padding:.5rem;border-left:4px solid #c0392b}\
.filters{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:1rem}.filters label{display:flex;flex-direction:column;\
font-size:.8rem}.req{border:1px solid #ddd;padding:.6rem;margin-bottom:.8rem}pre{white-space:pre-wrap;\
word-break:break-all;background:#f4f4f4;padding:.4rem}.muted{color:#666;font-size:.9rem}";

/// A page around `body`: the navigation (with `active` marked), the reviewer's name and a
/// logout button when there is a session.
pub fn layout(title: &str, active: &str, who: Option<(&str, &str)>, body: &str) -> String {
    let mut nav = String::from("<nav><strong>riskgate</strong>");
    for (href, name) in [
        ("/pending", "Pending requests"),
        ("/audit", "Audit trail"),
        ("/report", "Friction report"),
    ] {
        let on = if href == active { " class=\"on\"" } else { "" };
        nav.push_str(&format!("<a href=\"{href}\"{on}>{name}</a>"));
    }
    if let Some((reviewer, csrf)) = who {
        nav.push_str(&format!(
            "<span class=\"who\">reviewer: {}</span><form class=\"inline\" method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"csrf\" value=\"{}\"><button type=\"submit\">Log out</button></form>",
            escape(reviewer),
            escape(csrf)
        ));
    }
    nav.push_str("</nav>");
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} · riskgate</title><style>{}{STYLE}</style></head><body>{nav}{body}</body></html>\n",
        escape(title),
        report::STYLE
    )
}

/// The login form: the reviewer's name, and the token when one is required.
pub fn login(needs_token: bool, error: Option<&str>) -> String {
    let mut body = String::from("<h1>Reviewer login</h1>");
    if let Some(e) = error {
        body.push_str(&format!("<p class=\"error\">{}</p>", escape(e)));
    }
    body.push_str(
        "<form method=\"post\" action=\"/login\"><p><label>Your name (recorded with every grant and refusal)<br><input name=\"reviewer\" required maxlength=\"64\" autofocus></label></p>",
    );
    if needs_token {
        body.push_str(
            "<p><label>Access token (printed by <code>riskgate serve</code>)<br><input name=\"token\" type=\"password\" required></label></p>",
        );
    }
    body.push_str("<p><button type=\"submit\">Log in</button></p></form>");
    layout("Login", "", None, &body)
}

/// A page saying what went wrong.
pub fn problem(title: &str, message: &str, who: Option<(&str, &str)>) -> String {
    layout(
        title,
        "",
        who,
        &format!(
            "<h1>{}</h1><p class=\"error\">{}</p><p><a href=\"/pending\">Back to the pending requests</a></p>",
            escape(title),
            escape(message)
        ),
    )
}

/// `text` escaped, with the byte ranges `spans` underlined (`<u class="risk">`); spans are
/// merged, clipped to the text and moved to character boundaries. No span: all of it.
pub fn underline(text: &str, spans: &[Span]) -> String {
    let mut ranges: Vec<(usize, usize)> = spans
        .iter()
        .map(|s| (s.start.min(text.len()), s.end.min(text.len())))
        .map(|(mut a, mut b)| {
            while a > 0 && !text.is_char_boundary(a) {
                a -= 1;
            }
            while b < text.len() && !text.is_char_boundary(b) {
                b += 1;
            }
            (a, b)
        })
        .filter(|(a, b)| a < b)
        .collect();
    if ranges.is_empty() {
        return format!("<u class=\"risk\">{}</u>", escape(text));
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let mut out = String::new();
    let mut at = 0;
    for (a, b) in merged {
        out.push_str(&escape(text.get(at..a).unwrap_or("")));
        out.push_str(&format!(
            "<u class=\"risk\">{}</u>",
            escape(text.get(a..b).unwrap_or(""))
        ));
        at = b;
    }
    out.push_str(&escape(text.get(at..).unwrap_or("")));
    out
}

/// How a form identifies its sender: the session's CSRF token, or (for a bearer) a name field.
fn sender(csrf: Option<&str>) -> String {
    match csrf {
        Some(t) => format!(
            "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
            escape(t)
        ),
        None => "<input name=\"reviewer\" placeholder=\"your name\" required maxlength=\"64\">"
            .to_string(),
    }
}

/// The pending requests, each with its command (risky spans underlined), its assessment,
/// who asks, and the grant and refuse forms.
pub fn pending(
    requests: &[(Request, Vec<Span>)],
    csrf: Option<&str>,
    flash: Option<&str>,
    source: &str,
) -> String {
    let mut body = format!(
        "<h1>Pending approval requests</h1><p class=\"muted\">{} waiting · {}</p>",
        requests.len(),
        escape(source)
    );
    if let Some(f) = flash {
        body.push_str(&format!("<p class=\"flash\">{}</p>", escape(f)));
    }
    if requests.is_empty() {
        body.push_str("<p class=\"empty\">No request is waiting for a reviewer.</p>");
    }
    for (r, spans) in requests {
        let id = escape(&r.id);
        let grants: Vec<&str> = crate::review::granted_by(r);
        body.push_str(&format!(
            "<div class=\"req\" id=\"req-{id}\"><p><code>{id}</code> <span class=\"lvl-{lvl}\">{lvl}</span> score {score} · {agent} for {user}@{host} · {created}</p><pre>{cmd}</pre><p>{reason}</p><p class=\"muted\">in <code>{cwd}</code> · rules: {rules}</p>",
            lvl = escape(r.level.as_str()),
            score = r.score,
            agent = escape(r.agent.as_deref().unwrap_or("a person")),
            user = escape(&r.requester),
            host = escape(&r.host),
            created = escape(&r.created),
            cmd = underline(&r.input, spans),
            reason = escape(&r.reason),
            cwd = escape(&r.cwd),
            rules = escape(&r.rules.join(", ")),
        ));
        if r.required > 1 {
            body.push_str(&format!(
                "<p class=\"muted\">needs {} distinct reviewers; granted by: {}</p>",
                r.required,
                if grants.is_empty() {
                    "nobody yet".to_string()
                } else {
                    escape(&grants.join(", "))
                }
            ));
        }
        if r.level == RiskLevel::Critical {
            body.push_str(
                "<p class=\"error\">CRITICAL: never grantable. CRITICAL actions are not run, whoever approves.</p>",
            );
        } else {
            body.push_str(&format!(
                "<form class=\"inline\" method=\"post\" action=\"/grant\">{}<input type=\"hidden\" name=\"id\" value=\"{id}\"><select name=\"for\" aria-label=\"how long\"><option value=\"once\">once</option><option value=\"15m\">for 15 minutes</option><option value=\"1h\">for 1 hour</option><option value=\"8h\">for 8 hours</option><option value=\"1d\">for 1 day</option></select><button type=\"submit\" class=\"grant\">Grant</button></form>",
                sender(csrf)
            ));
        }
        body.push_str(&format!(
            "<form class=\"inline\" method=\"post\" action=\"/refuse\">{}<input type=\"hidden\" name=\"id\" value=\"{id}\"><input name=\"reason\" placeholder=\"reason (told to the agent)\" required maxlength=\"500\"><button type=\"submit\" class=\"refuse\">Refuse</button></form></div>",
            sender(csrf)
        ));
    }
    body
}

/// The audit trail's filter values, as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    /// From (duration, RFC 3339 time or date).
    pub since: Option<String>,
    /// Until (same forms).
    pub until: Option<String>,
    /// Agent or source.
    pub agent: Option<String>,
    /// Repository (directory).
    pub repo: Option<String>,
    /// Level.
    pub level: Option<String>,
    /// Decision.
    pub decision: Option<String>,
    /// Rule id.
    pub rule: Option<String>,
}

impl Filters {
    /// The filters as query pairs (for the paging links).
    fn pairs(&self) -> Vec<(&'static str, &str)> {
        [
            ("since", &self.since),
            ("until", &self.until),
            ("agent", &self.agent),
            ("repo", &self.repo),
            ("level", &self.level),
            ("decision", &self.decision),
            ("rule", &self.rule),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
        .collect()
    }
}

fn page_link(f: &Filters, page: usize) -> String {
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in f.pairs() {
        ser.append_pair(k, v);
    }
    ser.append_pair("page", &page.to_string());
    format!("/audit?{}", ser.finish())
}

fn select(name: &str, label: &str, options: &[&str], current: Option<&str>) -> String {
    let mut s = format!("<label>{label}<select name=\"{name}\"><option value=\"\">any</option>");
    for o in options {
        let sel = if current == Some(*o) { " selected" } else { "" };
        s.push_str(&format!("<option{sel}>{o}</option>"));
    }
    s.push_str("</select></label>");
    s
}

fn text_input(name: &str, label: &str, value: Option<&str>, hint: &str) -> String {
    format!(
        "<label>{label}<input name=\"{name}\" value=\"{}\" placeholder=\"{hint}\"></label>",
        escape(value.unwrap_or(""))
    )
}

/// The audit trail: the filter form, one page of records, and the paging links.
pub fn audit(
    records: &[AuditRecord],
    f: &Filters,
    page: usize,
    more: bool,
    source: &str,
    error: Option<&str>,
) -> String {
    let mut body = format!(
        "<h1>Audit trail</h1><p class=\"muted\">{}</p><form class=\"filters\" method=\"get\" action=\"/audit\">{}{}{}{}{}{}{}<button type=\"submit\">Filter</button></form>",
        escape(source),
        text_input("since", "from", f.since.as_deref(), "7d, 2024-05-01"),
        text_input("until", "until", f.until.as_deref(), "1h, RFC 3339"),
        text_input("agent", "agent", f.agent.as_deref(), "claude, cli"),
        text_input("repo", "repository", f.repo.as_deref(), "/path/to/repo"),
        select(
            "level",
            "level",
            &["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"],
            f.level.as_deref()
        ),
        select(
            "decision",
            "decision",
            &["allow", "ask", "deny"],
            f.decision.as_deref()
        ),
        text_input("rule", "rule", f.rule.as_deref(), "git.force-push"),
    );
    if let Some(e) = error {
        body.push_str(&format!("<p class=\"error\">{}</p>", escape(e)));
    }
    if records.is_empty() {
        body.push_str("<p class=\"empty\">No decision matches.</p>");
    } else {
        body.push_str("<table><thead><tr><th>time</th><th>source</th><th>decision</th><th>level</th><th>command</th><th>rules</th><th>decided by</th><th>where</th></tr></thead><tbody>");
        for r in records {
            body.push_str(&format!(
                "<tr class=\"rec\"><td>{}</td><td>{}</td><td>{}</td><td><span class=\"lvl-{lvl}\">{lvl}</span> {}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                escape(&r.time),
                escape(&r.source),
                escape(r.decision.as_str()),
                r.score,
                escape(&r.input),
                escape(&r.rules.join(", ")),
                escape(&r.decided_by),
                escape(&r.cwd),
                lvl = escape(r.level.as_str()),
            ));
        }
        body.push_str("</tbody></table>");
    }
    body.push_str(&format!("<p>page {page}"));
    if page > 1 {
        body.push_str(&format!(
            " · <a rel=\"prev\" href=\"{}\">newer</a>",
            escape(&page_link(f, page - 1))
        ));
    }
    if more {
        body.push_str(&format!(
            " · <a rel=\"next\" href=\"{}\">older</a>",
            escape(&page_link(f, page + 1))
        ));
    }
    body.push_str("</p>");
    body
}

/// The friction report, with a choice of period.
pub fn report(r: &Report, since: &str, source: &str) -> String {
    format!(
        "<form class=\"filters\" method=\"get\" action=\"/report\">{}<button type=\"submit\">Show</button></form><p class=\"muted\">{}</p>{}",
        text_input("since", "since", Some(since), "30d"),
        escape(source),
        report::body(r)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underline_merges_clips_and_escapes() {
        let t = "rm -rf <b> && ls";
        assert_eq!(
            underline(t, &[Span::new(0, 6)]),
            "<u class=\"risk\">rm -rf</u> &lt;b&gt; &amp;&amp; ls"
        );
        // overlapping and out-of-range spans
        assert_eq!(
            underline(t, &[Span::new(3, 6), Span::new(0, 4), Span::new(14, 99)]),
            "<u class=\"risk\">rm -rf</u> &lt;b&gt; &amp;&amp; <u class=\"risk\">ls</u>"
        );
        // no span: all of it; a span inside a character moves to its boundaries
        assert_eq!(underline("<x>", &[]), "<u class=\"risk\">&lt;x&gt;</u>");
        assert_eq!(
            underline("aé", &[Span::new(2, 3)]),
            "a<u class=\"risk\">é</u>"
        );
        assert_eq!(
            underline("ab", &[Span::new(5, 9)]),
            "<u class=\"risk\">ab</u>"
        );
    }
}
