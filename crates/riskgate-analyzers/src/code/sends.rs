//! What code sends off the machine, rated with what it read first: file contents or the
//! environment written to a raw socket, credential files (cloud keys, SSH private keys,
//! package-registry tokens) read and then sent in a request — the shape of an install hook
//! that harvests `~/.aws/credentials` and posts it — and the environment, or a variable named
//! for a secret, carried in a request.
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

/// The whole environment, or a variable named for a secret, carried in a request to another
/// host (`fetch(url + Buffer.from(JSON.stringify(process.env)).toString("base64"))`,
/// `requests.post(u, json=dict(os.environ))`, `urlopen(u + os.environ["GITHUB_TOKEN"])`).
///
/// A token sent to the service it is named for is its use, not a leak:
/// `requests.get("https://api.github.com/…", headers={"Authorization": f"Bearer
/// {os.environ['GITHUB_TOKEN']}"})` authenticates to GitHub.
pub(super) fn environment_send(a: &Analysis) -> Vec<Hit> {
    m::calls(a, |c| {
        (m::is_network_write(c) || m::is_network_read(c))
            && !is_loopback_call(c)
            && carries_environment(&args_text(c), request_host(c).as_deref())
    })
}

/// The host a request goes to, when its URL is written in the code.
fn request_host(c: &Call) -> Option<String> {
    let url = c.param(0, "url")?.value.text()?;
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', '?', '#', ':', '{']).next()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Whether the secret variable `key` is named for the service at `host` (`GITHUB_TOKEN` and
/// `api.github.com`, `NPM_TOKEN` and `registry.npmjs.org`, `GH_TOKEN` and `github.com`).
fn secret_for_host(key: &str, host: &str) -> bool {
    let Some(first) = key.split('_').find(|w| !w.is_empty()) else {
        return false;
    };
    let service = match first.to_ascii_lowercase().as_str() {
        "gh" => "github".to_string(),
        "hf" => "huggingface".to_string(),
        "cf" => "cloudflare".to_string(),
        other => other.to_string(),
    };
    // the registrable domain's name, before its top-level domain: `github` of
    // `api.github.com`, never a subdomain an attacker chooses (`github.evil.example`)
    let mut labels = host.rsplit('.');
    let (Some(_tld), Some(name)) = (labels.next(), labels.next()) else {
        return false;
    };
    service.len() >= 3
        && name
            .strip_prefix(service.as_str())
            .is_some_and(|rest| matches!(rest, "" | "js" | "usercontent" | "apis" | "app" | "hq"))
}

/// Whether call arguments' text carries the environment (see [`environment_send`]) to
/// `host` (a secret named for that host's service does not count).
fn carries_environment(t: &str, host: Option<&str>) -> bool {
    let foreign = |key: &str| {
        riskgate_model::secrets::is_secret_name(key)
            && !host.is_some_and(|h| secret_for_host(key, h))
    };
    ["process.env", "os.environ", "ENV", "%ENV"]
        .iter()
        .any(|name| whole_or_secret(t, name, &foreign))
        || ["os.getenv(", "getenv(", "Sys.getenv(", "System.getenv("]
            .iter()
            .any(|f| secret_argument(t, f, &foreign))
}

/// An occurrence of `name` used whole (not `.NAME`, `[…]`, `.get(…)` after it), or with a
/// member named for a secret (`process.env.AWS_SECRET_ACCESS_KEY`, `os.environ["TOKEN"]`).
fn whole_or_secret(t: &str, name: &str, secret: &dyn Fn(&str) -> bool) -> bool {
    let mut rest = t;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().last();
        let after = &rest[i + name.len()..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let member = after
            .strip_prefix('.')
            .filter(|m| !m.starts_with("get"))
            .or_else(|| {
                after
                    .strip_prefix("[\"")
                    .or_else(|| after.strip_prefix("['"))
            })
            .or_else(|| {
                after
                    .strip_prefix(".get(\"")
                    .or_else(|| after.strip_prefix(".get('"))
            });
        match member {
            Some(m) => {
                let key: String = m
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if secret(&key) {
                    return true;
                }
            }
            None if after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '[') => {}
            None => return true,
        }
    }
    false
}

/// A call of `f` whose first argument names a secret (`os.getenv("AWS_SECRET_ACCESS_KEY")`).
fn secret_argument(t: &str, f: &str, secret: &dyn Fn(&str) -> bool) -> bool {
    t.match_indices(f).any(|(i, _)| {
        let arg = t[i + f.len()..].trim_start_matches(['"', '\'', ' ']);
        let key: String = arg
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        secret(&key)
    })
}

#[cfg(test)]
mod tests {
    use super::secret_for_host;

    fn carries_environment(t: &str) -> bool {
        super::carries_environment(t, Some("x.example.io"))
    }

    #[test]
    fn a_token_sent_to_its_own_service_is_its_use() {
        let t = "\"https://api.github.com/repos/a/b/pulls\", headers={\"Authorization\": f\"Bearer {os.environ['GITHUB_TOKEN']}\"}";
        assert!(!super::carries_environment(t, Some("api.github.com")));
        assert!(super::carries_environment(t, Some("collect.example.io")));
        assert!(super::carries_environment(t, None));
        assert!(secret_for_host("GH_TOKEN", "uploads.github.com"));
        assert!(secret_for_host("NPM_TOKEN", "registry.npmjs.org"));
        assert!(!secret_for_host("NPM_TOKEN", "npm-stats.example.io.evil"));
        assert!(!secret_for_host("AWS_SECRET_ACCESS_KEY", "api.github.com"));
        assert!(!secret_for_host("GITHUB_TOKEN", "github.evil.example"));
        assert!(!secret_for_host("GITHUB_TOKEN", "githubevil.com"));
        // the whole environment is never a token's use
        assert!(super::carries_environment(
            "\"https://api.github.com/gists\", json=dict(os.environ)",
            Some("api.github.com")
        ));
    }

    #[test]
    fn the_environment_in_a_request() {
        assert!(carries_environment(
            "\"https://x.example.io/e?d=\" + Buffer.from(JSON.stringify(process.env)).toString(\"base64\")"
        ));
        assert!(carries_environment("u, json=dict(os.environ)"));
        assert!(carries_environment("u + os.environ[\"GITHUB_TOKEN\"]"));
        assert!(carries_environment("u + process.env.AWS_SECRET_ACCESS_KEY"));
        assert!(carries_environment("u, data=os.getenv(\"NPM_TOKEN\")"));
        // one setting that is no secret
        assert!(!carries_environment("process.env.API_URL + \"/health\""));
        assert!(!carries_environment("os.environ.get(\"PORT\", \"8000\")"));
        assert!(!carries_environment("\"https://example.com/ENVIRONMENT\""));
    }
}
