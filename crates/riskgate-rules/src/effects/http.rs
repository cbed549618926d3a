//! Effects of HTTP requests: curl, wget, HTTPie/xh, PowerShell's web cmdlets, `gh api`,
//! grpcurl and the raw API calls of service CLIs. The method and the body say what a request
//! does (a DELETE, a POST to a destructive path, a body that deletes or ends an account, a
//! GraphQL mutation named for a delete, money moved), the host and the words say where.

use riskgate_model::effect::{
    Effect, EffectKind, Environment, Scope, Target, TargetClass, classify_env, classify_host,
};

use super::generic::{env_words, parts, strength};
use super::infer::{Found, found, is_unknown};
use super::table;
use crate::matcher::CommandView;

/// The path of a URL, without host, query or fragment (`https://h/a/b?q` → `a/b`).
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let path = rest.split_once('/').map(|(_, p)| p).unwrap_or("");
    path.split(['?', '#']).next().unwrap_or("")
}

/// A path whose last segments switch something off: `deactivate`, `disable`, `suspend`,
/// `off`, `lock`, mute its monitoring (`downtime`, `silences`, `mute_all`), or give it away
/// (`repos/x/transfer`).
fn switches_off(path: &str) -> bool {
    path.split('/').rev().take(2).flat_map(parts).any(|p| {
        matches!(
            p.as_str(),
            "deactivate"
                | "disable"
                | "suspend"
                | "off"
                | "lock"
                | "downtime"
                | "silences"
                | "silence"
                | "mute"
                | "transfer"
                | "cancel"
                | "revoke"
                | "terminate"
        )
    })
}

/// Whether the body text `t` holds the field `m` (`enabled:false`) as a whole key: not a
/// longer key that ends in it (`default_enabled:false` sets a new object's default).
fn has_field(t: &str, m: &str) -> bool {
    t.match_indices(m).any(|(i, _)| {
        t[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    })
}

/// A request body that switches its object off (`disabled=true`, `{"enabled": false}`,
/// `active=false`) or deletes what a query selects (`<delete><query>…`, `{"delete": …}`):
/// (switches off, deletes).
fn body_says(v: &CommandView<'_>, path: &str) -> (bool, bool) {
    // closing or cancelling an account, a subscription or an organization ends it; a ticket
    // or a pull request closes and reopens
    let ends_account = path.split('/').flat_map(parts).any(|w| {
        matches!(
            w.as_str(),
            "account"
                | "accounts"
                | "subscription"
                | "subscriptions"
                | "organization"
                | "organizations"
                | "org"
                | "orgs"
                | "tenant"
                | "tenants"
                | "workspace"
                | "workspaces"
                | "project"
                | "projects"
        )
    });
    let mut off = false;
    let mut deletes = false;
    for a in v.cmd.args.iter().filter(|a| !a.text.contains("://")) {
        // the body of an option (`--data=Status=closed`)
        let text = match a.text.split_once('=') {
            Some((name, body)) if name.starts_with('-') => body,
            _ => a.text.as_str(),
        };
        let t: String = text
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
            .collect();
        off |= [
            "disabled=true",
            "disabled:true",
            "enabled=false",
            "enabled:false",
            "active=false",
            "active:false",
        ]
        .iter()
        .any(|m| has_field(&t, m));
        deletes |= t.contains("<delete>") || t.starts_with("{delete:") || t.contains(",delete:{");
        // a field that says what to do or what the object becomes: `Status=closed`,
        // `{"regulationType":"DELETE_ONLY"}`, `{"action":"purge"}`, `state=terminated`
        for (key, value) in body_fields(&t) {
            if !matches!(
                key,
                "status" | "state" | "action" | "operation" | "op" | "command" | "type"
            ) && !key.ends_with("type")
                && !key.ends_with("action")
            {
                continue;
            }
            let words = parts(value);
            let first = words.first().cloned().unwrap_or_default();
            // `DELETE_ONLY`, `SUPPRESS_WITH_DELETE`, `hard_delete`
            if words
                .iter()
                .any(|w| table::verb(w) == Some(EffectKind::Delete))
                || matches!(first.as_str(), "deleted" | "terminated" | "destroyed")
                || (ends_account && matches!(first.as_str(), "closed" | "cancelled" | "canceled"))
            {
                deletes = true;
            } else if matches!(first.as_str(), "suspended" | "disabled" | "inactive") {
                off = true;
            }
        }
    }
    (off, deletes)
}

/// `key=value` / `key:value` pairs of a body (lower case, quotes and blanks removed): the
/// key's last word and the value's text.
fn body_fields(t: &str) -> impl Iterator<Item = (&str, &str)> {
    t.split([',', '&', '{', '}', '[', ']'])
        .take(64)
        .filter_map(|pair| pair.split_once(['=', ':']))
        .map(|(k, v)| (k.rsplit(['.', '_', '-']).next().unwrap_or(k), v))
}

/// A GraphQL request (`…/graphql`) whose body is a mutation named for a delete
/// (`mutation { alertsPolicyDelete(…) }`, `deleteRepository`).
fn graphql_mutation_deletes(v: &CommandView<'_>, path: &str) -> bool {
    if !path.to_ascii_lowercase().ends_with("graphql") {
        return false;
    }
    v.cmd.args.iter().any(|a| {
        let t = a.text.as_str();
        let Some(at) = t.find("mutation") else {
            return false;
        };
        t.get(at..)
            .unwrap_or("")
            .split(|c: char| !c.is_ascii_alphanumeric())
            .take(64)
            .any(|w| {
                parts(w)
                    .iter()
                    .any(|p| table::verb(p) == Some(EffectKind::Delete))
            })
    })
}

/// A path naming a deploy, release or rollout (`job/deploy-production/build`, `deploys`).
fn publishes(path: &str) -> bool {
    path.split('/').flat_map(parts).any(|w| {
        table::verb(&w) == Some(EffectKind::Publish)
            || matches!(
                w.as_str(),
                "deploys" | "releases" | "deployments" | "rollouts"
            )
    })
}

/// A path that moves money: payouts, transfers, refunds, charges, withdrawals.
fn moves_money(path: &str) -> bool {
    path.split('/').any(|seg| {
        matches!(
            seg.to_ascii_lowercase().as_str(),
            "payouts"
                | "payout"
                | "transfers"
                | "transfer"
                | "refunds"
                | "refund"
                | "charges"
                | "withdrawals"
                | "withdraw"
                | "disbursements"
                | "payments"
        )
    })
}

/// The value of the first of `names` given as `NAME VALUE` or `NAME=VALUE` (options of a
/// program nobody described).
fn option_value<'a>(v: &'a CommandView<'_>, names: &[&str]) -> Option<&'a str> {
    let argv = &v.cmd.raw_argv;
    argv.iter().enumerate().skip(1).find_map(|(i, w)| {
        let t = w.text.as_str();
        names.iter().find_map(|n| {
            if t == *n {
                argv.get(i + 1).map(|x| x.text.as_str())
            } else {
                t.strip_prefix(n).and_then(|r| r.strip_prefix('='))
            }
        })
    })
}

fn is_method(w: &str) -> Option<String> {
    let u = w.to_ascii_uppercase();
    ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        .contains(&u.as_str())
        .then_some(u)
}

fn looks_like_url(w: &str) -> bool {
    // a base URL held in a variable, then a path (`"$API_URL/v1/items/3"`, `${HOST}/admin`)
    let var_base = w.strip_prefix('$').is_some_and(|rest| {
        let name = rest.trim_start_matches('{');
        let end = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        let upper = name[..end].to_ascii_uppercase();
        end > 0
            && name[end..].trim_start_matches('}').starts_with('/')
            && [
                "URL", "HOST", "API", "ENDPOINT", "ADDR", "BASE", "SERVER", "URI",
            ]
            .iter()
            .any(|k| upper.contains(k))
    });
    var_base
        || w.contains("://")
        || w.starts_with(':')
        || w.starts_with("localhost")
        || (w.contains('.') && !w.starts_with(['.', '/', '@', '{', '[']) && !w.contains('=') && {
            let host = riskgate_model::effect::host_of(w);
            host.contains('.')
                && host.rsplit('.').next().is_some_and(|tld| {
                    tld.chars().all(|c| c.is_ascii_alphanumeric()) && !tld.is_empty()
                })
        })
}

/// HTTP clients: the method and the host decide the effect. True when the program was one.
pub(super) fn http_effects(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let program = v.cmd.program.as_str();
    let pos: Vec<&str> = v
        .positionals
        .iter()
        .filter(|p| !p.after_flag)
        .map(|p| p.text.as_ref())
        .collect();
    let (method, url): (String, Option<String>) = match program {
        "curl" | "curlie" => {
            let data = [
                "--data",
                "--data-raw",
                "--data-binary",
                "--data-urlencode",
                "--form",
                "--json",
                "-d",
                "-F",
            ]
            .iter()
            .any(|f| v.has_flag(f) || v.flags.iter().any(|x| x.starts_with(&format!("{f}="))));
            let upload = v.has_flag("--upload-file") || v.has_flag("-T");
            let m = v
                .cmd
                .flag_value("--request")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| {
                    if upload {
                        "PUT".into()
                    } else if data {
                        "POST".into()
                    } else {
                        "GET".into()
                    }
                });
            // A URL with a scheme is the URL wherever it stands: a boolean option that riskgate
            // does not know (`-g`, `-k`) must not hide it as that option's value.
            let schemed = v
                .positionals
                .iter()
                .map(|p| p.text.as_ref())
                .find(|w: &&str| {
                    let l = w.to_ascii_lowercase();
                    l.starts_with("http://") || l.starts_with("https://")
                });
            let url = v
                .cmd
                .flag_value("--url")
                .or(schemed)
                .map(str::to_string)
                .or_else(|| {
                    pos.iter()
                        .find(|w| looks_like_url(w))
                        .map(|w| w.to_string())
                });
            (m, url)
        }
        "wget" => {
            let m = v
                .cmd
                .flag_value("--method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| {
                    if v.has_flag("--post-data") || v.has_flag("--post-file") {
                        "POST".into()
                    } else {
                        "GET".into()
                    }
                });
            (
                m,
                pos.iter()
                    .find(|w| looks_like_url(w))
                    .map(|w| w.to_string()),
            )
        }
        "http" | "https" | "xh" | "xhs" | "httpie" => {
            // Boolean flags (`--ignore-stdin`) make the next word look like a flag's value:
            // the method is the first positional that is one, whatever precedes it.
            let all: Vec<&str> = v.positionals.iter().map(|p| p.text.as_ref()).collect();
            let at = all.iter().take(3).position(|w| is_method(w).is_some());
            let (m, rest) = match at {
                Some(i) => (all.get(i).and_then(|w| is_method(w)), &all[i + 1..]),
                None => (None, &pos[..]),
            };
            let url = rest.first().map(|w| w.to_string());
            let data = rest
                .iter()
                .skip(1)
                .any(|w| w.contains(":=") || (w.contains('=') && !w.contains("==")));
            let m = m.unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            (m, url)
        }
        "Invoke-WebRequest" | "Invoke-RestMethod" => {
            let data = ["-Body", "-InFile", "-Form"].iter().any(|f| v.has_flag(f));
            let m = v
                .cmd
                .flag_value("-Method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            let url = v.cmd.flag_value("-Uri").map(str::to_string).or_else(|| {
                pos.iter()
                    .find(|w| looks_like_url(w))
                    .map(|w| w.to_string())
            });
            (m, url)
        }
        "gh" => {
            if pos.first() != Some(&"api") {
                return false;
            }
            let fields = ["-f", "-F", "--field", "--raw-field", "--input"]
                .iter()
                .any(|f| v.has_flag(f));
            let m = v
                .cmd
                .flag_value("--method")
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if fields { "POST".into() } else { "GET".into() });
            let path = pos.get(1).map(|p| p.trim_start_matches('/')).unwrap_or("");
            (m, Some(format!("https://api.github.com/{path}")))
        }
        "grpcurl" => {
            let Some(method) = pos.last() else {
                return true;
            };
            let host = pos.iter().rev().nth(1).map(|h| h.to_string());
            let name = method.rsplit(['/', '.']).next().unwrap_or(method);
            let kind = parts(name)
                .iter()
                .filter_map(|p| table::verb(p))
                .max_by_key(|k| strength(*k));
            if let (Some(kind), Some(host)) = (kind, host) {
                let t = Target {
                    class: classify_host(&host),
                    text: format!("{host}/{method}"),
                    environment: Some(classify_env(env_words(v))),
                };
                out.push(found(Effect::new(0, kind, t)));
            }
            return true;
        }
        // `caprover api --path /user/apps/appDefinitions/delete --method POST`, `foo api -X
        // DELETE /v1/tenants/x`: a CLI's raw call to its service's API
        _ if pos.first() == Some(&"api")
            && (is_unknown(program) || table::is_service_cli(program)) =>
        {
            let path = option_value(v, &["--path", "--endpoint"])
                .or_else(|| pos.get(1).copied().filter(|p| p.starts_with('/')));
            let Some(path) = path else {
                return false;
            };
            let data = option_value(
                v,
                &["--data", "-d", "--body", "--field", "-f", "-F", "--input"],
            )
            .is_some();
            let m = option_value(v, &["--method", "-X", "--request", "-m"])
                .map(str::to_ascii_uppercase)
                .unwrap_or_else(|| if data { "POST".into() } else { "GET".into() });
            let path = path.trim_start_matches('/');
            (m, Some(format!("https://{program}.api/{path}")))
        }
        // `stripe post /v1/payouts …`, `foo-cli delete /v2/tenants/acme`: a service CLI that
        // passes HTTP calls through, its host the service's own.
        _ => match (pos.first().and_then(|m| is_method(m)), pos.get(1)) {
            (Some(m), Some(path)) if path.starts_with('/') && is_unknown(program) => {
                (m, Some(format!("https://{program}.api{path}")))
            }
            _ => return false,
        },
    };
    let Some(url) = url else {
        return true;
    };
    let class = classify_host(&url);
    // `POST /zones/Z/purge_cache`, `/_cache/clear`: a cache is regenerable, not a delete
    let cache = url_path(&url)
        .split('/')
        .flat_map(parts)
        .any(|w| w == "cache" || w == "caches");
    let path_kind = url_path(&url)
        .split('/')
        .flat_map(parts)
        .filter_map(|w| table::verb(&w))
        .filter(|k| *k == EffectKind::Delete && !cache)
        .max_by_key(|k| strength(*k));
    let path = url_path(&url);
    // A state-changing request to a destructive path (`POST /purge_cache`, `POST
    // /indexes/x/clear`, `POST …/delete?query=…`, `PUT /admin/reset-all`) deletes, whatever
    // its method says.
    let mutation = method == "POST" && graphql_mutation_deletes(v, path);
    let (body_off, body_deletes) = body_says(v, path);
    let kind = match method.as_str() {
        "DELETE" => EffectKind::Delete,
        "POST" | "PUT" | "PATCH" if path_kind.is_some() || mutation || body_deletes => {
            EffectKind::Delete
        }
        "POST" | "PUT" | "PATCH" if body_off => EffectKind::Modify,
        // `POST …/lifecycle/deactivate`, `…/environments/production/off`, `POST
        // /api/v1/downtime`: switching a service, an account or its monitoring off
        "POST" if switches_off(path) => EffectKind::Modify,
        // `POST /job/deploy-production/build`, `POST /v1/apps/x/deploys`: a deploy or release
        // started through the service's API
        "POST" if publishes(path) => EffectKind::Publish,
        "PUT" | "PATCH" => EffectKind::Modify,
        "POST" => EffectKind::Send,
        _ => EffectKind::Read,
    };
    // A POST that moves money (`/v1/payouts`, `/transfers`, `/refunds`) weighs more: with a
    // live key or a production host it is HIGH.
    let weight = if kind == EffectKind::Send && moves_money(path) {
        20
    } else {
        0
    };
    let bulk_body = v.cmd.args.iter().any(|a| {
        let l = a.text.to_ascii_lowercase();
        l.contains("everything") || l.contains("\"all\"") || l.contains("all=true")
    });
    let mut environment = classify_env(std::iter::once(url.as_str()).chain(env_words(v)));
    // money moved through a public payment API that names no sandbox or test key is live
    if weight > 0 && environment == Environment::Unknown && class == TargetClass::PublicHost {
        environment = Environment::Prod;
    }
    let t = Target {
        class,
        text: url.clone(),
        environment: (environment != Environment::Unknown).then_some(environment),
    };
    let mut e = Effect::new(0, kind, t);
    if kind == EffectKind::Read {
        e.reversible = true;
    }
    if url.contains('*') || url.ends_with("/_all") || bulk_body {
        e = e.with_scope(Scope::Bulk);
    }
    out.push(Found {
        effect: e,
        weight,
        guessed: false,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert!(looks_like_url("https://x.io") && looks_like_url("api.acme.io/v1"));
        assert!(looks_like_url(":8080/health") && looks_like_url("localhost:3000/x"));
        assert!(!looks_like_url("key=value.x") && !looks_like_url("./a.b"));
    }
}
