//! What code sends off the machine, rated with what it read first: file contents or the
//! environment written to a raw socket, and credential files (cloud keys, SSH private keys,
//! package-registry tokens) read and then sent in a request — the shape of an install hook
//! that harvests `~/.aws/credentials` and posts it.
//!
//! Within one snippet, by names: the code names a credential store in a string, reads a file,
//! and makes a request that carries a payload to a host that is not this machine. The findings
//! sit on the reads and on the sends, so a report places them where each happens.

use riskgate_model::credentials::sensitive_kind;

use super::analysis::{Analysis, ArgValue, Call};
use super::effects::{args_text, is_loopback_call};
use super::matchers as m;
use super::resources;
use super::rule::Hit;

/// File contents or the environment sent over a raw socket the code connected.
pub(super) fn socket_send(a: &Analysis) -> Vec<Hit> {
    if !a.calls.iter().any(m::is_socket_connect) {
        return Vec::new();
    }
    let reads_outside = a.calls.iter().any(|c| {
        let p = c.arg(0).and_then(|x| x.value.text()).unwrap_or("");
        let reads = m::is_open(c) && !m::is_file_write(c)
            || matches!(
                c.method.as_str(),
                "readFileSync" | "readFile" | "read_text" | "read_bytes"
            );
        (reads && (p.starts_with('/') || p.starts_with('~') || resources::is_sensitive_path(p)))
            || args_text(c).contains("expanduser")
            || args_text(c).contains("os.environ")
            || args_text(c).contains("process.env")
    });
    if !reads_outside {
        return Vec::new();
    }
    m::calls(a, |c| {
        matches!(c.method.as_str(), "send" | "sendall" | "sendto" | "write")
            && (c.unresolved_receiver
                || c.name.to_ascii_lowercase().contains("socket")
                || c.name.starts_with("?."))
            && !m::is_file_write(c)
    })
}

/// A string that names a credential store: a path or a file name, not a sentence.
fn names_credential_store(s: &str) -> bool {
    s.len() <= 256
        && !s.contains(char::is_whitespace)
        && sensitive_kind(&s.to_ascii_lowercase()).is_some()
}

/// Keyword arguments that carry a request's payload.
const PAYLOAD_KEYWORDS: [&str; 5] = ["data", "json", "body", "files", "content"];

fn has_payload(c: &Call) -> bool {
    c.args.iter().any(|x| {
        x.keyword
            .as_deref()
            .is_some_and(|k| PAYLOAD_KEYWORDS.contains(&k))
    }) || args_text(c).contains("body:")
}

/// A request object built with a payload (`urllib.request.Request(url, data=…)`).
fn is_request_with_payload(c: &Call) -> bool {
    c.method == "Request" && (has_payload(c) || c.args.len() >= 2)
}

/// A call that opens a request object built earlier (`urlopen(req)`): the act of sending.
fn opens_built_request(c: &Call) -> bool {
    m::is_network_read(c)
        && c.arg(0)
            .is_some_and(|x| !matches!(x.value, ArgValue::Str(_) | ArgValue::Dynamic(_)))
}

/// Credential files read and data sent in a request by the same code.
pub(super) fn secret_file_send(a: &Analysis) -> Vec<Hit> {
    if !a.strings.iter().any(|s| names_credential_store(&s.value)) {
        return Vec::new();
    }
    let reads_credentials = |c: &Call| {
        m::is_file_read(c)
            && c.arg(0).is_none_or(|x| match &x.value {
                ArgValue::Str(p) => names_credential_store(p),
                _ => true,
            })
    };
    // A request object built with a payload is sent where it is opened; one never seen
    // opened counts as the send itself.
    let built_request = a.calls.iter().any(is_request_with_payload);
    let opened = built_request && a.calls.iter().any(opens_built_request);
    let sends = |c: &Call| {
        !is_loopback_call(c)
            && if is_request_with_payload(c) {
                !opened
            } else {
                m::is_network_write(c)
                    || (m::is_network_read(c) && has_payload(c))
                    || (opened && opens_built_request(c))
            }
    };
    if !a.calls.iter().any(reads_credentials) || !a.calls.iter().any(sends) {
        return Vec::new();
    }
    // two findings, so each is placed where it happens: the reads, then the sends
    let mut hits = m::calls(a, reads_credentials);
    for h in &mut hits {
        h.reason = Some("Reads credential files (cloud keys, SSH private keys, package tokens) that the code then sends over the network".into());
    }
    for mut h in m::calls(a, sends) {
        h.reason = Some("Sends data over the network after reading credential files (cloud keys, SSH private keys, package tokens)".into());
        hits.push(h);
    }
    hits
}
