//! Redis commands (one per line, as `redis-cli` takes them or as a script): FLUSHALL CRITICAL,
//! FLUSHDB HIGH, CONFIG SET / SHUTDOWN / DEBUG / REPLICAOF / MODULE LOAD / ACL changes HIGH,
//! DEL and KEYS * MEDIUM, writes LOW, reads SAFE.

use riskgate_model::RiskLevel::{Critical, High, Low, Medium, Safe};
use riskgate_model::{ActionKind, Assessment, Finding, Span};

use super::{Rating, SqlOptions};
use crate::code::split_shell;

const WRITES: [&str; 40] = [
    "SET",
    "SETNX",
    "SETEX",
    "PSETEX",
    "MSET",
    "MSETNX",
    "APPEND",
    "INCR",
    "INCRBY",
    "INCRBYFLOAT",
    "DECR",
    "DECRBY",
    "HSET",
    "HSETNX",
    "HMSET",
    "HDEL",
    "HINCRBY",
    "LPUSH",
    "RPUSH",
    "LPOP",
    "RPOP",
    "LSET",
    "LREM",
    "LTRIM",
    "SADD",
    "SREM",
    "SPOP",
    "SMOVE",
    "ZADD",
    "ZREM",
    "ZINCRBY",
    "ZPOPMIN",
    "ZPOPMAX",
    "XADD",
    "XDEL",
    "XTRIM",
    "PFADD",
    "GEOADD",
    "SETRANGE",
    "COPY",
];

fn rate(words: &[String]) -> Option<(Rating, Vec<String>)> {
    let cmd = words.first()?.to_ascii_uppercase();
    let arg = |i: usize| {
        words
            .get(i)
            .map(|w| w.to_ascii_uppercase())
            .unwrap_or_default()
    };
    let keys: Vec<String> = words
        .iter()
        .skip(1)
        .take(5)
        .map(|k| format!("key:{k}"))
        .collect();
    let r = |rule, level, d: &str, rev, w| Rating::new(rule, level, d, rev, w);
    let rating = match cmd.as_str() {
        "FLUSHALL" => r(
            "redis.flushall",
            Critical,
            "FLUSHALL deletes every key in every database",
            false,
            true,
        ),
        "FLUSHDB" => r(
            "redis.flushdb",
            High,
            "FLUSHDB deletes every key in the current database",
            false,
            true,
        ),
        "DEL" | "UNLINK" | "GETDEL" => r("redis.del", Medium, "Deletes keys", false, true),
        // trimmed to nothing: `XTRIM s MAXLEN 0`, `XTRIM s MAXLEN ~ 0`, `LTRIM l 1 0`
        "XTRIM"
            if matches!(arg(2).as_str(), "MAXLEN" | "MINID")
                && words
                    .iter()
                    .skip(3)
                    .find(|w| !matches!(w.as_str(), "~" | "="))
                    .is_some_and(|w| w == "0") =>
        {
            r(
                "redis.empty-collection",
                Medium,
                "Empties a stream or list (every entry deleted)",
                false,
                true,
            )
        }
        "LTRIM" if arg(2) == "1" && arg(3) == "0" => r(
            "redis.empty-collection",
            Medium,
            "Empties a stream or list (every entry deleted)",
            false,
            true,
        ),
        "CONFIG" => match arg(1).as_str() {
            "SET" if matches!(arg(2).as_str(), "DIR" | "DBFILENAME") => r(
                "redis.config-set-dir",
                Critical,
                "CONFIG SET dir/dbfilename lets Redis write files anywhere on the server (a known takeover technique)",
                false,
                false,
            ),
            "SET" => r(
                "redis.config-set",
                High,
                "Changes the server configuration at run time",
                true,
                false,
            ),
            "REWRITE" | "RESETSTAT" => r(
                "redis.config",
                Medium,
                "Rewrites the configuration file or resets statistics",
                true,
                false,
            ),
            _ => r("redis.read", Safe, "Reads server information", true, false),
        },
        "KEYS" => r(
            "redis.keys",
            Medium,
            "KEYS scans the whole keyspace and blocks the server",
            true,
            false,
        ),
        "SHUTDOWN" => r(
            "redis.shutdown",
            High,
            "Shuts the Redis server down",
            false,
            false,
        ),
        "DEBUG" => r(
            "redis.debug",
            High,
            "DEBUG can crash, stall or reload the server",
            false,
            false,
        ),
        "SLAVEOF" | "REPLICAOF" if arg(1) != "NO" => r(
            "redis.replicaof",
            High,
            "Makes this server a replica: its data is replaced by another server's",
            false,
            true,
        ),
        "MODULE" if arg(1) == "LOAD" => r(
            "redis.module-load",
            High,
            "Loads native code into the Redis server",
            false,
            false,
        ),
        "ACL" if matches!(arg(1).as_str(), "SETUSER" | "DELUSER" | "LOAD") => r(
            "redis.acl",
            High,
            "Changes Redis users and permissions",
            true,
            false,
        ),
        "SCRIPT" | "FUNCTION" if arg(1) == "FLUSH" => r(
            "redis.script-flush",
            Medium,
            "Deletes all cached scripts or functions",
            false,
            false,
        ),
        "EVAL" | "EVALSHA" | "EVAL_RO" | "FCALL" => r(
            "redis.eval",
            Medium,
            "Runs a server-side script whose effects are not visible here",
            true,
            true,
        ),
        "CLIENT" if arg(1) == "KILL" => r(
            "redis.client-kill",
            Medium,
            "Disconnects clients",
            true,
            false,
        ),
        "MIGRATE" | "MOVE" | "RENAME" | "RENAMENX" | "SWAPDB" => r(
            "redis.move",
            Medium,
            "Moves or renames keys (the target may be overwritten)",
            false,
            true,
        ),
        "EXPIRE" | "PEXPIRE" | "EXPIREAT" | "PEXPIREAT" | "PERSIST" => {
            r("redis.expire", Low, "Changes key expiry", true, true)
        }
        "SAVE" | "BGSAVE" | "BGREWRITEAOF" => {
            r("redis.save", Low, "Writes a snapshot to disk", true, false)
        }
        c if WRITES.contains(&c) => r("redis.write", Low, "Writes keys", true, true),
        "GET" | "MGET" | "HGET" | "HGETALL" | "HMGET" | "LRANGE" | "SMEMBERS" | "ZRANGE"
        | "SCAN" | "HSCAN" | "SSCAN" | "ZSCAN" | "INFO" | "PING" | "TTL" | "PTTL" | "EXISTS"
        | "TYPE" | "STRLEN" | "LLEN" | "SCARD" | "ZCARD" | "DBSIZE" | "SELECT" | "AUTH"
        | "ECHO" | "TIME" | "MONITOR" | "SUBSCRIBE" | "PUBLISH" | "XRANGE" | "XREAD" => {
            r("redis.read", Safe, "Reads data", true, false)
        }
        _ => r(
            "redis.other",
            Low,
            "Redis command not specifically rated",
            true,
            false,
        ),
    };
    Some((rating, keys))
}

/// The commands a Lua script runs through `redis.call('CMD', 'arg' …)` / `redis.pcall`
/// (literal words only; at most 200).
fn script_calls(script: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (pos, _) in script.match_indices("redis.").take(200) {
        let rest = &script[pos + 6..];
        let Some(args) = rest
            .strip_prefix("call(")
            .or_else(|| rest.strip_prefix("pcall("))
        else {
            continue;
        };
        let end = args.find(')').unwrap_or(args.len());
        let words: Vec<String> = args[..end]
            .split(',')
            .map(|a| a.trim().trim_matches(['\'', '"']).to_string())
            .filter(|a| !a.is_empty())
            .collect();
        if !words.is_empty() {
            out.push(words);
        }
    }
    out
}

/// The findings for Redis commands (one per command).
pub fn redis_findings(text: &str, opts: &SqlOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut offset = 0usize;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        for sc in split_shell(line).commands {
            let Some((mut rating, keys)) = rate(&sc.words) else {
                continue;
            };
            if rating.rule != "redis.flushall" && rating.rule != "redis.flushdb" {
                rating.resources = keys;
            }
            let trimmed = line.trim();
            let eval = rating.rule == "redis.eval";
            if eval {
                // the script's own commands: `redis.call('FLUSHALL')`, a KEYS loop of DEL
                // the whole line: through `redis-cli` the script's quotes are already gone
                let inner = script_calls(line);
                let deletes = inner.iter().any(|w| {
                    w.first().is_some_and(|c| {
                        matches!(c.to_ascii_uppercase().as_str(), "DEL" | "UNLINK")
                    })
                });
                let lists = inner.iter().any(|w| {
                    w.first()
                        .is_some_and(|c| matches!(c.to_ascii_uppercase().as_str(), "KEYS" | "SCAN"))
                });
                let span = Span::new(start, start + line.trim_end().len());
                for words in &inner {
                    if let Some((r, _)) = rate(words) {
                        out.push(r.finding(trimmed, span, n as u32 + 1, None, opts));
                    }
                }
                if deletes && lists {
                    let r = Rating::new(
                        "redis.eval-bulk-delete",
                        High,
                        "A server-side script deletes every key a KEYS/SCAN pattern returns",
                        false,
                        true,
                    );
                    out.push(r.finding(trimmed, span, n as u32 + 1, None, opts));
                }
            }
            out.push(rating.finding(
                trimmed,
                Span::new(start, start + line.trim_end().len()),
                n as u32 + 1,
                None,
                opts,
            ));
        }
    }
    out
}

/// Assess Redis commands.
pub fn assess_redis(text: &str, opts: &SqlOptions) -> Assessment {
    let mut a = Assessment::from_findings(ActionKind::Command, text, redis_findings(text, opts));
    if split_shell(text).incomplete {
        a.mark_degraded();
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::RiskLevel;

    #[test]
    fn levels() {
        let o = SqlOptions::default();
        assert_eq!(assess_redis("FLUSHALL", &o).level, RiskLevel::Critical);
        assert_eq!(assess_redis("flushdb", &o).level, RiskLevel::High);
        assert_eq!(
            assess_redis("CONFIG SET dir /root/.ssh", &o).level,
            RiskLevel::Critical
        );
        assert_eq!(assess_redis("KEYS *", &o).level, RiskLevel::Medium);
        assert_eq!(assess_redis("GET a\nTTL a", &o).level, RiskLevel::Safe);
        assert_eq!(
            assess_redis("DEL session:1", &o).affected_resources,
            vec!["key:session:1".to_string()]
        );
    }
}
