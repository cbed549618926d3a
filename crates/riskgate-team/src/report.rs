//! The friction report (`riskgate report --format html|json`): what was asked, allowed and
//! refused, to tune the rules.
//!
//! - decisions per day (allow / ask / deny), drawn as an inline SVG bar chart;
//! - asks and denies per rule;
//! - the rules people most often approve (answered yes at a prompt or in the agent, standing
//!   or session approvals, reviewers' grants): false-positive candidates;
//! - approvals expiring within 7 days (standing approvals, time-limited grants);
//! - the requests waiting for a reviewer.
//!
//! One self-contained HTML page: no script, no external asset, every text escaped.

use std::collections::BTreeMap;

use riskgate_gate::AuditRecord;
use riskgate_gate::queue::Request;
use riskgate_model::Decision;
use serde::Serialize;
use time::OffsetDateTime;

/// Counts of one day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Day {
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    /// Allowed.
    pub allow: u64,
    /// Asked.
    pub ask: u64,
    /// Refused.
    pub deny: u64,
}

/// A rule and a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    /// The rule id.
    pub rule: String,
    /// How many.
    pub count: u64,
}

/// An approval that ends soon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expiring {
    /// What it covers (a pattern, or a request's command).
    pub what: String,
    /// When it ends (RFC 3339).
    pub expires: String,
    /// `standing approval` or `grant of request ID`.
    pub kind: String,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// When it was made.
    pub generated: String,
    /// Decisions counted.
    pub decisions: u64,
    /// Per day, oldest first.
    pub days: Vec<Day>,
    /// Asks and denies per rule, most first.
    pub asked_or_denied: Vec<RuleCount>,
    /// Approved by people per rule, most first.
    pub most_approved: Vec<RuleCount>,
    /// Approvals ending within 7 days, soonest first.
    pub expiring: Vec<Expiring>,
    /// Requests waiting for a reviewer.
    pub pending: Vec<Request>,
}

fn approved_by_person(r: &AuditRecord) -> bool {
    r.decision == Decision::Allow
        && (matches!(r.decided_by.as_str(), "user" | "approval" | "session")
            || r.decided_by.starts_with("reviewer:"))
}

fn ranked(map: BTreeMap<String, u64>) -> Vec<RuleCount> {
    let mut v: Vec<RuleCount> = map
        .into_iter()
        .map(|(rule, count)| RuleCount { rule, count })
        .collect();
    v.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.cmp(&b.rule)));
    v.truncate(20);
    v
}

/// Build the report from audit records, approvals `(pattern, expires_at)`, time-limited
/// grants and pending requests, as of `now`.
pub fn build(
    records: &[AuditRecord],
    approvals: &[(String, Option<String>)],
    grants: &[Request],
    pending: Vec<Request>,
    now: OffsetDateTime,
) -> Report {
    let mut days: BTreeMap<String, Day> = BTreeMap::new();
    let mut asked: BTreeMap<String, u64> = BTreeMap::new();
    let mut approved: BTreeMap<String, u64> = BTreeMap::new();
    for r in records {
        let date = r.time.get(..10).unwrap_or("unknown").to_string();
        let d = days.entry(date.clone()).or_insert_with(|| Day {
            date,
            ..Day::default()
        });
        match r.decision {
            Decision::Allow => d.allow += 1,
            Decision::Ask => d.ask += 1,
            Decision::Deny => d.deny += 1,
        }
        let into = if r.decision != Decision::Allow {
            Some(&mut asked)
        } else if approved_by_person(r) {
            Some(&mut approved)
        } else {
            None
        };
        if let Some(map) = into {
            for rule in &r.rules {
                *map.entry(rule.clone()).or_default() += 1;
            }
        }
    }
    let soon = now + time::Duration::days(7);
    let parse = |s: &str| riskgate_gate::clock::parse(s);
    let mut expiring: Vec<Expiring> = approvals
        .iter()
        .filter_map(|(p, e)| {
            let e = e.as_deref()?;
            let t = parse(e)?;
            (t > now && t <= soon).then(|| Expiring {
                what: p.clone(),
                expires: e.to_string(),
                kind: "standing approval".into(),
            })
        })
        .chain(grants.iter().filter_map(|g| {
            let e = g.expires.as_deref()?;
            let t = parse(e)?;
            (t > now && t <= soon).then(|| Expiring {
                what: g.input.clone(),
                expires: e.to_string(),
                kind: format!("grant of request {}", g.id),
            })
        }))
        .collect();
    expiring.sort_by(|a, b| a.expires.cmp(&b.expires));
    Report {
        generated: riskgate_gate::clock::format(now),
        decisions: records.len() as u64,
        days: days.into_values().collect(),
        asked_or_denied: ranked(asked),
        most_approved: ranked(approved),
        expiring,
        pending,
    }
}

/// `text` safe inside HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Stacked bars of allow / ask / deny per day.
pub fn chart(days: &[Day]) -> String {
    let (w, h, pad) = (640.0_f64, 180.0_f64, 24.0_f64);
    let max = days
        .iter()
        .map(|d| d.allow + d.ask + d.deny)
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let n = days.len().max(1) as f64;
    let bw = ((w - 2.0 * pad) / n).min(40.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"decisions per day\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    for (i, d) in days.iter().enumerate() {
        let x = pad + i as f64 * bw;
        let mut y = h - pad;
        for (count, color, name) in [
            (d.allow, "#4c9a5b", "allow"),
            (d.ask, "#d9a21b", "ask"),
            (d.deny, "#c0392b", "deny"),
        ] {
            if count == 0 {
                continue;
            }
            let bh = (count as f64 / max) * (h - 2.0 * pad);
            y -= bh;
            svg.push_str(&format!(
                "<rect class=\"{name}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{color}\"><title>{} {name}: {count}</title></rect>",
                (bw - 2.0).max(1.0),
                escape(&d.date)
            ));
        }
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\">{}</text>",
            x + bw / 2.0,
            h - 8.0,
            escape(d.date.get(5..).unwrap_or(&d.date))
        ));
    }
    for (i, (color, name)) in [
        ("#4c9a5b", "allow"),
        ("#d9a21b", "ask"),
        ("#c0392b", "deny"),
    ]
    .iter()
    .enumerate()
    {
        let x = w - 150.0 + i as f64 * 50.0;
        svg.push_str(&format!(
            "<rect x=\"{x:.1}\" y=\"4\" width=\"10\" height=\"10\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"13\" font-size=\"10\">{name}</text>",
            x + 13.0
        ));
    }
    svg.push_str("</svg>");
    svg
}

fn table(title: &str, head: &[&str], rows: Vec<Vec<String>>) -> String {
    table_with(title, "", head, rows)
}

/// A table under its heading, with `chart` (SVG) between them.
fn table_with(title: &str, chart: &str, head: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut s = format!("<h2>{}</h2>{chart}", escape(title));
    if rows.is_empty() {
        s.push_str("<p class=\"empty\">none</p>");
        return s;
    }
    s.push_str("<table><thead><tr>");
    for h in head {
        s.push_str(&format!("<th>{}</th>", escape(h)));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            s.push_str(&format!("<td>{c}</td>"));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}

/// The page's style (inline: no external asset).
pub const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem;color:#222}\
table{border-collapse:collapse;width:100%;margin-bottom:1rem}th,td{border-bottom:1px solid #ddd;\
padding:.3rem .5rem;text-align:left;vertical-align:top}code{background:#f4f4f4;padding:0 .2rem}\
.empty{color:#777}u.risk{text-decoration:underline wavy #c0392b}.lvl-HIGH{color:#c0392b}\
.lvl-CRITICAL{color:#7b1fa2}.lvl-MEDIUM{color:#b9770e}";

/// The report as one HTML page.
pub fn html(r: &Report) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>riskgate report</title><style>{STYLE}</style></head><body>{}</body></html>\n",
        body(r)
    )
}

/// Horizontal bars of counts per rule (at most 10), one colour.
pub fn bars(label: &str, items: &[RuleCount], color: &str) -> String {
    let items = &items[..items.len().min(10)];
    if items.is_empty() {
        return String::new();
    }
    let (w, row, left) = (640.0_f64, 20.0_f64, 260.0_f64);
    let h = row * items.len() as f64 + 8.0;
    let max = items.iter().map(|c| c.count).max().unwrap_or(1).max(1) as f64;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        escape(label)
    );
    for (i, c) in items.iter().enumerate() {
        let y = 4.0 + i as f64 * row;
        let bw = (c.count as f64 / max) * (w - left - 40.0);
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text><rect x=\"{left}\" y=\"{y:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{color}\"><title>{}: {}</title></rect><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text>",
            left - 6.0,
            y + 13.0,
            escape(&c.rule),
            row - 6.0,
            escape(&c.rule),
            c.count,
            left + bw + 4.0,
            y + 13.0,
            c.count
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// The report's content (headings, charts, tables), for a page of its own or the reviewer's.
pub fn body(r: &Report) -> String {
    let count = |v: &[RuleCount]| {
        v.iter()
            .map(|c| {
                vec![
                    format!("<code>{}</code>", escape(&c.rule)),
                    c.count.to_string(),
                ]
            })
            .collect::<Vec<_>>()
    };
    let mut body = format!(
        "<h1>riskgate friction report</h1><p>{} decisions · generated {}</p><h2>Decisions per day</h2>{}",
        r.decisions,
        escape(&r.generated),
        chart(&r.days)
    );
    body.push_str(&table_with(
        "Asks and denies per rule",
        &bars("asks and denies per rule", &r.asked_or_denied, "#d9a21b"),
        &["rule", "count"],
        count(&r.asked_or_denied),
    ));
    body.push_str(&table_with(
        "Most often approved (false-positive candidates)",
        &bars("most often approved rules", &r.most_approved, "#4c9a5b"),
        &["rule", "approved"],
        count(&r.most_approved),
    ));
    body.push_str(&table(
        "Approvals expiring within 7 days",
        &["what", "expires", "kind"],
        r.expiring
            .iter()
            .map(|e| {
                vec![
                    format!("<code>{}</code>", escape(&e.what)),
                    escape(&e.expires),
                    escape(&e.kind),
                ]
            })
            .collect(),
    ));
    body.push_str(&table(
        "Waiting for a reviewer",
        &["id", "level", "command", "agent", "where"],
        r.pending
            .iter()
            .map(|p| {
                vec![
                    format!("<code>{}</code>", escape(&p.id)),
                    format!(
                        "<span class=\"lvl-{0}\">{0}</span>",
                        escape(p.level.as_str())
                    ),
                    format!("<code><u class=\"risk\">{}</u></code>", escape(&p.input)),
                    escape(p.agent.as_deref().unwrap_or("-")),
                    escape(&p.cwd),
                ]
            })
            .collect(),
    ));
    body
}

/// Where the decisions of a report or a page come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// This machine's audit log (SQLite).
    Local,
    /// The team's database (`audit.url`): every machine's decisions.
    Team(String),
}

impl Source {
    /// The team's database when `policy` names one, else this machine's log.
    pub fn of(policy: &riskgate_gate::Policy) -> Source {
        match policy.audit_url() {
            Some(u) => Source::Team(u.value.clone()),
            None => Source::Local,
        }
    }
}

/// The decisions matching `q`, newest first, from `source`.
pub fn records(
    policy: &riskgate_gate::Policy,
    source: &Source,
    q: &riskgate_gate::AuditQuery,
) -> Result<Vec<AuditRecord>, crate::TeamError> {
    match source {
        Source::Team(url) => {
            let mut client = crate::store::connect(url)?;
            Ok(crate::read::records(&mut client, q)?
                .into_iter()
                .map(|t| t.record)
                .collect())
        }
        Source::Local => {
            let path = policy.audit_path();
            let journal = riskgate_gate::journal::journal_path(&path);
            if path.exists() || journal.exists() {
                Ok(riskgate_gate::AuditLog::open(&path)?.query(q)?)
            } else {
                Ok(Vec::new())
            }
        }
    }
}

/// The report of `policy`'s decisions since `since` (from `source`), standing approvals and
/// approval queue, as of now: what `riskgate report` writes and the reviewer's page shows.
pub fn gather(
    policy: &riskgate_gate::Policy,
    source: &Source,
    since: OffsetDateTime,
) -> Result<Report, crate::TeamError> {
    let query = riskgate_gate::AuditQuery {
        since: Some(since),
        limit: Some(usize::MAX >> 2),
        ..riskgate_gate::AuditQuery::default()
    };
    let records = records(policy, source, &query)?;
    let snap = riskgate_gate::ApprovalStore::new(policy.settings_path()).read();
    let approvals: Vec<(String, Option<String>)> = snap
        .approved
        .iter()
        .filter(|e| !e.expired)
        .map(|e| (e.pattern.clone(), e.expires_at.clone()))
        .collect();
    let mut queues = crate::queues::Queues::open(policy)?;
    let grants = queues.list(
        riskgate_gate::queue::Status::Granted,
        crate::review::LIST_LIMIT,
    )?;
    let pending = queues.list(
        riskgate_gate::queue::Status::Pending,
        crate::review::LIST_LIMIT,
    )?;
    Ok(build(
        &records,
        &approvals,
        &grants,
        pending,
        riskgate_gate::clock::now(),
    ))
}
