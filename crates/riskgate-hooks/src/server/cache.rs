//! The hook server's assessment cache (seed 004, 3.7; issue 16): a shell command assessed once
//! is answered from memory the next time it comes with the same everything, without parsing
//! and rating it again. Only the *assessment* is cached: the gate still decides every call
//! (standing approvals and denials, the session cache, the audit log), so an approval given
//! or revoked in between counts at once.
//!
//! - Key: a SHA-256 of the command's text, the directory it runs in (working directory and
//!   the tool's `dir`), the project roots of the call, the agent, the policy's fingerprint
//!   ([`riskgate::gate::Policy::fingerprint`]: every policy file's text, the command line,
//!   the locations) and the rules' fingerprint (riskgate's version, whose built-in rules are
//!   in the binary, and the text of every extra rule pack). A policy or rule pack edited is
//!   another key: re-assessed.
//! - What is stored: only an assessment that is complete (never a degraded one: that one is
//!   made afresh, and asked about, every time) and that does not depend on the file system
//!   (a command that writes or removes no file: the path classes of targets follow symbolic
//!   links, which may change between calls). Nor when a rule pack changed while assessing.
//! - Bounded: [`CAPACITY`] entries, the least recently used evicted; an entry lives
//!   [`TTL`] at most.
//! - Per user: the cache lives in the memory of one user's server (its socket directory is
//!   private and both ends check the peer's uid, see `fsperm`); nothing is shared or written.
//! - Off unless [`enable`]d (by the server): a hook deciding alone has nothing to reuse.
//!
//! Observable: [`stats`] counts hits and misses; [`take_call_stats`] tells what the calls of
//! the current thread used (the server's trace line says it).

use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use riskgate::Action;
use riskgate::gate::Policy;
use riskgate::verdict::{Prepared, Scope};
use sha2::{Digest, Sha256};

use crate::judge::LazyEngine;

/// Most entries kept.
pub const CAPACITY: usize = 2048;
/// Longest an entry is used.
pub const TTL: Duration = Duration::from_secs(300);
/// Longest command cached (a longer one is assessed every time).
const MAX_COMMAND_BYTES: usize = 64 * 1024;

static ENABLED: AtomicBool = AtomicBool::new(false);
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// (hits, misses) of the calls on this thread since [`take_call_stats`].
    static CALL: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
}

/// A cache key.
type Key = [u8; 32];

struct Entry {
    prepared: Prepared,
    at: Instant,
    used: u64,
}

#[derive(Default)]
struct Lru {
    map: HashMap<Key, Entry>,
    tick: u64,
}

impl Lru {
    fn get(&mut self, key: &Key) -> Option<Prepared> {
        let fresh = self.map.get(key).map(|e| e.at.elapsed() < TTL)?;
        if !fresh {
            self.map.remove(key);
            return None;
        }
        self.tick += 1;
        let tick = self.tick;
        let e = self.map.get_mut(key)?;
        e.used = tick;
        Some(e.prepared.clone())
    }

    fn put(&mut self, key: Key, prepared: Prepared) {
        if self.map.len() >= CAPACITY && !self.map.contains_key(&key) {
            let oldest = self.map.iter().min_by_key(|(_, e)| e.used).map(|(k, _)| *k);
            if let Some(k) = oldest {
                self.map.remove(&k);
            }
        }
        self.tick += 1;
        self.map.insert(
            key,
            Entry {
                prepared,
                at: Instant::now(),
                used: self.tick,
            },
        );
    }
}

fn cache() -> MutexGuard<'static, Lru> {
    static CACHE: OnceLock<Mutex<Lru>> = OnceLock::new();
    let m = CACHE.get_or_init(|| Mutex::new(Lru::default()));
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => {
            // a call panicked while holding it: start afresh rather than trust the entries
            let mut g = poisoned.into_inner();
            g.map.clear();
            g
        }
    }
}

/// Turn the cache on (the hook server does, once).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether the cache is on.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Hits and misses since the process started.
pub fn stats() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// Hits and misses of this thread's calls since the last time this was called (reset).
pub fn take_call_stats() -> (u32, u32) {
    CALL.with(|c| c.replace((0, 0)))
}

fn note(hit: bool) {
    let counter = if hit { &HITS } else { &MISSES };
    counter.fetch_add(1, Ordering::Relaxed);
    CALL.with(|c| {
        let (h, m) = c.get();
        c.set(if hit {
            (h.saturating_add(1), m)
        } else {
            (h, m.saturating_add(1))
        });
    });
}

fn put(h: &mut Sha256, part: &[u8]) {
    h.update((part.len() as u64).to_le_bytes());
    h.update(part);
}

/// What every assessment of one hook call depends on besides the command itself.
#[derive(Debug, Clone)]
pub struct CallScope {
    base: Key,
    packs: Vec<PathBuf>,
    rules: Key,
}

impl CallScope {
    /// The scope of a call by `agent` under `policy`, with the call's extra project `roots`;
    /// `None` when the cache is off.
    pub fn new(policy: &Policy, agent: &str, roots: &[PathBuf]) -> Option<CallScope> {
        if !enabled() {
            return None;
        }
        let packs: Vec<PathBuf> = policy
            .rules_extra()
            .iter()
            .map(|s| s.value.clone())
            .collect();
        let mut h = Sha256::new();
        put(&mut h, b"riskgate hook assessment");
        put(&mut h, policy.fingerprint().as_bytes());
        put(&mut h, agent.as_bytes());
        for r in roots {
            put(&mut h, r.as_os_str().as_encoded_bytes());
        }
        Some(CallScope {
            base: h.finalize().into(),
            rules: rules_fingerprint(&packs),
            packs,
        })
    }

    fn key(&self, command: &str, dir: Option<&str>, cwd: &Path) -> Key {
        let mut h = Sha256::new();
        put(&mut h, &self.base);
        put(&mut h, &self.rules);
        put(&mut h, cwd.as_os_str().as_encoded_bytes());
        put(&mut h, dir.unwrap_or("").as_bytes());
        put(&mut h, command.as_bytes());
        h.finalize().into()
    }
}

/// riskgate's version (the built-in rules are in the binary) and every extra pack's text.
fn rules_fingerprint(packs: &[PathBuf]) -> Key {
    let mut h = Sha256::new();
    put(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    for p in packs {
        put(&mut h, p.as_os_str().as_encoded_bytes());
        match std::fs::read(p) {
            Ok(bytes) => put(&mut h, &bytes),
            Err(e) => put(&mut h, format!("unreadable: {}", e.kind()).as_bytes()),
        }
    }
    h.finalize().into()
}

/// The shell command `command` (run in `dir`, relative to the scope's working directory)
/// assessed in `scope`, as [`riskgate::verdict::prepare`] does: from the cache when `call`
/// is given (the cache is on) and an entry matches, else assessed now, and stored when it may
/// be reused (complete, no file written or removed, rules unchanged meanwhile).
pub fn shell(
    engine: &LazyEngine,
    scope: &Scope,
    command: &str,
    shell: Option<riskgate::Shell>,
    dir: Option<&str>,
    call: Option<&CallScope>,
) -> Prepared {
    let action = Action::command_in(command.to_string(), shell);
    let Some(call) = call.filter(|_| command.len() <= MAX_COMMAND_BYTES) else {
        return riskgate::verdict::prepare(engine.get(), scope, &action, dir);
    };
    // The shell is part of the key: the same text reads differently in PowerShell.
    let keyed;
    let key_text = match shell {
        Some(s) => {
            keyed = format!("{s}\0{command}");
            keyed.as_str()
        }
        None => command,
    };
    let key = call.key(key_text, dir, scope.cwd());
    if let Some(p) = cache().get(&key) {
        note(true);
        return p;
    }
    note(false);
    let cwd = match dir.filter(|d| !d.is_empty()) {
        Some(d) => scope.cwd().join(d),
        None => scope.cwd().to_path_buf(),
    };
    let (assessment, targets) =
        engine
            .get()
            .assess_command_in_as(command, shell, Some(scope), &cwd);
    let prepared = Prepared {
        action,
        assessment,
        write_targets: targets.writes.clone(),
        cwd,
    };
    let reusable = !prepared.assessment.degraded
        && targets.writes.is_empty()
        && targets.removals.is_empty()
        && targets.definitions.is_empty()
        && rules_fingerprint(&call.packs) == call.rules;
    if reusable {
        cache().put(key, prepared.clone());
    }
    prepared
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate::gate::{CliOverrides, Locations};

    fn policy(dir: &Path) -> Policy {
        Policy::load_with(dir, &Locations::isolated(dir), &CliOverrides::default()).unwrap()
    }

    #[test]
    fn the_lru_is_bounded_and_keeps_what_is_used() {
        let mut lru = Lru::default();
        let p = Prepared {
            action: Action::command("ls"),
            assessment: riskgate::Assessment::safe(riskgate::ActionKind::Command, "ls"),
            write_targets: Vec::new(),
            cwd: PathBuf::from("/"),
        };
        for i in 0..CAPACITY {
            let mut k = [0u8; 32];
            k[..8].copy_from_slice(&(i as u64).to_le_bytes());
            lru.put(k, p.clone());
        }
        let first = [0u8; 32];
        assert!(lru.get(&first).is_some());
        lru.put([9u8; 32], p.clone());
        assert_eq!(lru.map.len(), CAPACITY);
        // the one just used stays; the least recently used (key 1) went
        assert!(lru.get(&first).is_some());
        let mut second = [0u8; 32];
        second[0] = 1;
        assert!(lru.get(&second).is_none());
    }

    #[test]
    fn keys_change_with_everything_the_assessment_depends_on() {
        enable();
        let dir = tempfile::tempdir().unwrap();
        let a = CallScope::new(&policy(dir.path()), "claude", &[]).unwrap();
        let k = a.key("ls", None, Path::new("/r"));
        assert_eq!(k, a.key("ls", None, Path::new("/r")));
        assert_ne!(k, a.key("ls -a", None, Path::new("/r")));
        assert_ne!(k, a.key("ls", Some("sub"), Path::new("/r")));
        assert_ne!(k, a.key("ls", None, Path::new("/s")));
        let b = CallScope::new(&policy(dir.path()), "gemini", &[]).unwrap();
        assert_ne!(k, b.key("ls", None, Path::new("/r")));
        let c = CallScope::new(&policy(dir.path()), "claude", &[PathBuf::from("/p")]).unwrap();
        assert_ne!(k, c.key("ls", None, Path::new("/r")));
        // a policy file edited is another policy
        std::fs::write(
            dir.path().join(".riskgate.yaml"),
            "environment: production\n",
        )
        .unwrap();
        let d = CallScope::new(&policy(dir.path()), "claude", &[]).unwrap();
        assert_ne!(k, d.key("ls", None, Path::new("/r")));
        // a rule pack edited is other rules
        let pack = dir.path().join("pack.yaml");
        std::fs::write(&pack, "rules: []\n").unwrap();
        let before = rules_fingerprint(std::slice::from_ref(&pack));
        std::fs::write(&pack, "rules: []\n# edited\n").unwrap();
        assert_ne!(before, rules_fingerprint(std::slice::from_ref(&pack)));
    }
}
