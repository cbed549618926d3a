//! The analysis cache (seed 000 rule 20, criterion 25): a workflow analyzed in a session is not
//! analyzed again for 5 minutes, across the separate `riskgate workflow check` processes of
//! that session.
//!
//! - The key ([`AnalysisKey`]) is a SHA-256 over everything the analysis depends on: the
//!   workflow's nodes and edges (not its metadata, which holds the approval), the node
//!   registry's types, the rules the engine assesses with (every rule, built-in and user packs,
//!   and riskgate's version), the effective policy (every value `riskgate config show` lists)
//!   and the working directory. A change to any of them is another key: a stale analysis is
//!   never reused after the policy or the rules change.
//! - Shared entries: one small JSON file per (session, key) in `state_dir/workflow-cache/`,
//!   named by a SHA-256 of both (session ids are not trusted as file names), holding the
//!   analysis and its time. Written atomically (temporary file and rename, private
//!   permissions, in a private directory); files older than 5 minutes are removed when a new
//!   entry is written.
//! - Reading never trusts an entry: one that does not parse, names another key or session, or
//!   whose risk hash does not match its own risks, or names nodes the workflow does not have,
//!   is ignored with a warning and the workflow is analyzed again (and the entry replaced).
//!   Entries from the future or older than 5 minutes are misses.
//! - Only analyses without a CRITICAL risk are cached (a CRITICAL risk ends the analysis
//!   early, with an error): a CRITICAL workflow is analyzed every time.

use std::path::{Path, PathBuf};
use std::time::Duration;

use riskgate::Engine;
use riskgate::gate::Policy;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::ir::WorkflowIr;
use crate::registry::NodeRegistry;
use crate::risk::risk_hash;
use crate::scan::Scan;

/// How long an analysis is reused (seed 000 rule 20).
pub const ANALYSIS_TTL_SECS: i64 = 5 * 60;

/// The directory of the shared entries under the state directory.
pub const CACHE_DIR: &str = "workflow-cache";

/// The format of an entry; another number is a miss.
const FORMAT: u32 = 1;

/// What an analysis depends on, hashed.
pub type AnalysisKey = [u8; 32];

fn put(h: &mut Sha256, part: &[u8]) {
    h.update((part.len() as u64).to_le_bytes());
    h.update(part);
}

/// A SHA-256 of the rules `engine` assesses with: riskgate's version, every rule (built-in
/// and user, disabled ones included), the packs and whether the database is degraded.
pub fn engine_fingerprint(engine: &Engine) -> [u8; 32] {
    let mut h = Sha256::new();
    put(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    let rules = engine.commands().rules();
    for r in rules.rules() {
        // every field of the rule, but not its lazily compiled matchers (uninitialized or
        // not, the rule is the same)
        put(&mut h, without_lazy(&format!("{r:?}")).as_bytes());
    }
    for p in rules.packs() {
        put(&mut h, format!("{p:?}").as_bytes());
    }
    put(
        &mut h,
        rules.degraded_reason().unwrap_or("complete").as_bytes(),
    );
    put(&mut h, format!("{:?}", engine.scope()).as_bytes());
    h.finalize().into()
}

/// `text` (a `Debug` rendering) with the contents of every `OnceLock(…)` left out: what a
/// value computes lazily depends on what was asked of it before, not on what it is.
fn without_lazy(text: &str) -> String {
    const LAZY: &str = "OnceLock(";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(LAZY) {
        out.push_str(&rest[..i + LAZY.len()]);
        // skip to the matching `)`, minding string literals (`"…"` with `\` escapes)
        let body = &rest[i + LAZY.len()..];
        let (mut depth, mut in_str, mut escaped, mut end) = (1usize, false, false, body.len());
        for (j, c) in body.char_indices() {
            if in_str {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_str = true,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(')');
        rest = body.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// A SHA-256 of the effective policy (every value with its key) and the working directory.
pub fn policy_fingerprint(policy: &Policy) -> [u8; 32] {
    let mut h = Sha256::new();
    for row in policy.show() {
        put(&mut h, row.key.as_bytes());
        put(&mut h, row.value.as_bytes());
    }
    put(&mut h, policy.cwd().to_string_lossy().as_bytes());
    h.finalize().into()
}

/// A SHA-256 of the registry's node types (names, aliases, parameters, patterns).
pub fn registry_fingerprint(registry: &NodeRegistry) -> [u8; 32] {
    let mut h = Sha256::new();
    for t in registry.types() {
        put(&mut h, format!("{t:?}").as_bytes());
    }
    h.finalize().into()
}

/// The key of analyzing `ir` under the given fingerprints.
pub fn analysis_key(
    ir: &WorkflowIr,
    registry: &[u8; 32],
    engine: &[u8; 32],
    policy: &[u8; 32],
) -> AnalysisKey {
    let mut h = Sha256::new();
    h.update(b"riskgate-workflow-analysis\0");
    h.update(registry);
    h.update(engine);
    h.update(policy);
    for n in &ir.nodes {
        put(&mut h, n.id.as_bytes());
        put(&mut h, n.node_type.as_bytes());
        let config = serde_json::to_string(&n.config).unwrap_or_default();
        put(&mut h, config.as_bytes());
    }
    h.update(b"\0edges\0");
    for e in &ir.edges {
        put(&mut h, e.from.as_bytes());
        put(&mut h, e.to.as_bytes());
    }
    h.finalize().into()
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    format: u32,
    /// SHA-256 (hex) of the session id.
    session: String,
    /// The analysis key (hex).
    key: String,
    /// Unix seconds.
    analyzed_at: i64,
    scan: Scan,
}

/// What a lookup found.
#[derive(Debug)]
pub enum Lookup {
    /// A fresh, consistent analysis.
    Hit(Box<Scan>),
    /// Nothing usable (absent, expired, from the future).
    Miss,
    /// An entry that cannot be trusted: ignored, with the reason.
    Corrupt(String),
}

/// The shared analysis cache of one session.
#[derive(Debug, Clone)]
pub struct SharedCache {
    dir: PathBuf,
    session: String,
}

fn sha_hex(text: &[u8]) -> String {
    hex::encode(Sha256::digest(text))
}

impl SharedCache {
    /// The cache of `session_id` under `state_dir/workflow-cache/` (`None` for an empty id).
    pub fn new(state_dir: &Path, session_id: &str) -> Option<SharedCache> {
        if session_id.trim().is_empty() {
            return None;
        }
        Some(SharedCache {
            dir: state_dir.join(CACHE_DIR),
            session: sha_hex(session_id.as_bytes()),
        })
    }

    /// The file of `key`.
    pub fn path(&self, key: &AnalysisKey) -> PathBuf {
        let mut h = Sha256::new();
        h.update(self.session.as_bytes());
        h.update(b"\0");
        h.update(key);
        let name = hex::encode(h.finalize());
        self.dir
            .join(format!("{}.json", name.get(..40).unwrap_or(&name)))
    }

    /// The analysis of `key` stored within the last 5 minutes before `now`, checked against
    /// `ir`.
    pub fn lookup(&self, key: &AnalysisKey, ir: &WorkflowIr, now: OffsetDateTime) -> Lookup {
        let path = self.path(key);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => return Lookup::Corrupt(format!("cannot read {}: {e}", path.display())),
        };
        let corrupt = |why: String| Lookup::Corrupt(format!("{}: {why}", path.display()));
        let entry: Entry = match serde_json::from_slice(&bytes) {
            Ok(e) => e,
            Err(e) => return corrupt(format!("not an analysis ({e})")),
        };
        if entry.format != FORMAT {
            return Lookup::Miss;
        }
        if entry.session != self.session || !entry.key.eq_ignore_ascii_case(&hex::encode(key)) {
            return corrupt("written for another workflow or session".into());
        }
        let now = now.unix_timestamp();
        if entry.analyzed_at > now || now - entry.analyzed_at >= ANALYSIS_TTL_SECS {
            return Lookup::Miss;
        }
        let scan = entry.scan;
        if risk_hash(&scan.risks) != scan.risk_hash {
            return corrupt("its risk hash does not match its risks".into());
        }
        if let Some(r) = scan
            .risks
            .iter()
            .find(|r| !ir.nodes.iter().any(|n| n.id == r.node_id))
        {
            return corrupt(format!(
                "it names node `{}`, which the workflow does not have",
                r.node_id
            ));
        }
        if scan.nodes_analyzed > ir.nodes.len() {
            return corrupt("it counts more nodes than the workflow has".into());
        }
        Lookup::Hit(Box::new(scan))
    }

    /// Store the analysis of `key` made at `now`, then remove entries older than 5 minutes.
    pub fn store(&self, key: &AnalysisKey, scan: &Scan, now: OffsetDateTime) -> Result<(), String> {
        riskgate::gate::paths::ensure_private_dir(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let entry = Entry {
            format: FORMAT,
            session: self.session.clone(),
            key: hex::encode(key),
            analyzed_at: now.unix_timestamp(),
            scan: scan.clone(),
        };
        let bytes = serde_json::to_vec(&entry).map_err(|e| e.to_string())?;
        let path = self.path(key);
        riskgate::gate::atomic::write_atomic(&path, &bytes).map_err(|e| e.to_string())?;
        prune(&self.dir, &path);
        Ok(())
    }
}

/// Remove entries untouched for 5 minutes (they can no longer be hits) and temporary files
/// left by killed writers.
fn prune(dir: &Path, keep: &Path) {
    riskgate::gate::atomic::sweep_stale_temp_files(dir);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let ttl = Duration::from_secs(ANALYSIS_TTL_SECS as u64);
    for e in entries.flatten() {
        let p = e.path();
        if p == keep || p.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= ttl);
        if old {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_contents_are_left_out() {
        assert_eq!(
            without_lazy(r#"R { a: 1, c: OnceLock(<uninit>) }"#),
            without_lazy(r#"R { a: 1, c: OnceLock(Some(X { s: "a)\"(", v: [1, 2] })) }"#)
        );
        assert_eq!(
            without_lazy("R { a: 1, c: OnceLock(<uninit>) }"),
            "R { a: 1, c: OnceLock() }"
        );
        assert_ne!(
            without_lazy("R { a: 1, c: OnceLock(<uninit>) }"),
            without_lazy("R { a: 2, c: OnceLock(<uninit>) }")
        );
    }

    #[test]
    fn engine_fingerprint_is_stable_across_use() {
        let e = Engine::builtin();
        let before = engine_fingerprint(&e);
        let _ = e.assess_command("sudo cat ~/.ssh/id_rsa; aws s3 rm s3://x --recursive; rm -rf /");
        assert_eq!(before, engine_fingerprint(&e));
        assert_eq!(before, engine_fingerprint(&Engine::builtin()));
    }
}
