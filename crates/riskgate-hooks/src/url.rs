//! What a fetched URL risks: local files (`file://`), cloud metadata endpoints (instance
//! credentials), internal network addresses, secrets carried in the URL (exfiltration),
//! schemes other than HTTP(S). A plain public HTTP(S) URL has no finding.

use riskgate::{Finding, RiskLevel};

/// The host of `url` (without user info and port), if it has one.
pub fn host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map(|(_, r)| r)?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let hostport = authority.rsplit('@').next()?;
    let host = if let Some(v6) = hostport.strip_prefix('[') {
        v6.split(']').next()?
    } else {
        hostport.split(':').next()?
    };
    (!host.is_empty()).then_some(host)
}

/// HTTP(S) URLs in free text (Gemini's `web_fetch` prompt).
pub fn urls_in(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || "<>\"'`()[]{}".contains(c))
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| {
            w.trim_end_matches(['.', ',', ';', ':', '!', '?'])
                .to_string()
        })
        .collect()
}

fn is_private_v4(h: &str) -> bool {
    let parts: Vec<u8> = h.split('.').filter_map(|p| p.parse().ok()).collect();
    match parts.as_slice() {
        [10, ..] | [127, ..] | [192, 168, ..] | [0, ..] => parts.len() == 4,
        [172, b, ..] => parts.len() == 4 && (16..=31).contains(b),
        [169, 254, ..] => parts.len() == 4,
        _ => false,
    }
}

/// Findings for fetching `url`.
pub fn url_findings(url: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let lower = url.trim().to_ascii_lowercase();
    let scheme = lower.split_once("://").map(|(s, _)| s).unwrap_or("");
    let res = vec![format!("url:{url}")];
    match scheme {
        "http" | "https" => {}
        "file" => out.push(
            Finding::new(
                "hook.fetch.local-file",
                RiskLevel::High,
                70,
                "fetches a local file: its content goes to the model",
            )
            .with_resources(res.clone()),
        ),
        _ => out.push(Finding::new(
            "hook.fetch.scheme",
            RiskLevel::Medium,
            45,
            format!("fetches a URL with an unusual scheme `{scheme}`"),
        )),
    }
    let h = host(&lower).unwrap_or("");
    if matches!(
        h,
        "169.254.169.254" | "metadata.google.internal" | "100.100.100.200" | "fd00:ec2::254"
    ) {
        out.push(
            Finding::new(
                "hook.fetch.cloud-metadata",
                RiskLevel::High,
                78,
                "fetches a cloud metadata endpoint (instance credentials)",
            )
            .with_resources(res.clone()),
        );
    } else if h == "localhost"
        || h.ends_with(".localhost")
        || h.ends_with(".internal")
        || h.ends_with(".local")
        || h == "::1"
        || is_private_v4(h)
    {
        out.push(
            Finding::new(
                "hook.fetch.internal-address",
                RiskLevel::Medium,
                45,
                format!("fetches an internal network address ({h})"),
            )
            .with_resources(res.clone()),
        );
    }
    for s in riskgate::analyzers::secrets::find_secrets(url) {
        out.push(
            Finding::new(
                "hook.fetch.secret-in-url",
                RiskLevel::High,
                75,
                format!("sends a {} ({}) in the URL", s.description, s.redacted),
            )
            .reversible(false),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_findings() {
        assert_eq!(
            host("https://user:pw@Example.com:8443/x?y"),
            Some("Example.com")
        );
        assert_eq!(host("http://[::1]:80/"), Some("::1"));
        assert_eq!(host("no url"), None);
        assert!(url_findings("https://docs.rs/serde").is_empty());
        let ids =
            |u: &str| -> Vec<String> { url_findings(u).into_iter().map(|f| f.rule_id).collect() };
        assert_eq!(
            ids("http://169.254.169.254/latest/meta-data/"),
            ["hook.fetch.cloud-metadata"]
        );
        assert_eq!(
            ids("http://192.168.1.10/admin"),
            ["hook.fetch.internal-address"]
        );
        assert_eq!(ids("file:///etc/passwd"), ["hook.fetch.local-file"]);
        assert_eq!(
            urls_in("summarize https://a.example/x, and http://b.example."),
            ["https://a.example/x", "http://b.example"]
        );
    }
}
