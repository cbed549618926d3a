//! One hook call from end to end, with its safety net.
//!
//! A worker thread reads the payload, parses it, loads the policy and judges; the calling
//! thread waits at most [`Options::timeout`]. Whatever goes wrong — a payload that is not
//! JSON, a missing field, another event's shape, an invalid policy file, a panic, the time
//! limit — the answer is "ask" with the reason, or "deny" where the agent cannot ask (Codex,
//! Gemini by default, Cursor's `beforeReadFile`). Never "allow", never no opinion. Each of
//! those answers is recorded in the audit log too (kind `hook`, decided by `error`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use riskgate::gate::{Context, Policy};

use crate::adapters::{self, MAX_PAYLOAD_BYTES};
use crate::judge;
use crate::request::Call;
use crate::verdict::{Reply, Verdict};
use crate::{Agent, AskSupport, HookError};

/// Loads the policy for a working directory (the CLI's layers: files, flags).
pub type PolicyLoader = Box<dyn Fn(&Path) -> Result<Policy, String> + Send>;

/// How to run a hook call.
pub struct Options {
    /// The agent whose protocol is spoken.
    pub agent: Agent,
    /// The time limit for reading and deciding.
    pub timeout: Duration,
    /// Loads the policy.
    pub load_policy: PolicyLoader,
}

/// The default time limit: well inside every agent's own hook timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);

struct Done {
    verdict: Verdict,
    event: Option<String>,
}

/// Answer one hook call whose payload is read from `input`.
pub fn run(opts: Options, input: impl Read + Send + 'static) -> Reply {
    let agent = opts.agent;
    let timeout = opts.timeout;
    let (tx, rx) = mpsc::channel::<Done>();
    let start = Instant::now();
    let spawned = std::thread::Builder::new()
        .name("riskgate-hook".into())
        .stack_size(32 << 20)
        .spawn(move || {
            let done = work(agent, &opts.load_policy, input);
            let _ = tx.send(done);
        });
    let done = match spawned {
        Err(e) => Err(HookError::Internal(format!("cannot start the worker: {e}"))),
        Ok(_) => match rx.recv_timeout(timeout) {
            Ok(done) => Ok(done),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                Err(HookError::TimedOut(timeout.as_millis() as u64))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(HookError::Internal(
                "the assessment stopped unexpectedly (panic)".into(),
            )),
        },
    };
    let done = done.unwrap_or_else(|err| {
        let verdict = error_verdict(agent, &err, None);
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let mut ctx = Context::new(cwd).agent(agent.name(), None);
        ctx.source = agent.source();
        judge::record(
            &fallback_audit_path(),
            &ctx,
            "hook",
            &err.to_string(),
            &verdict,
            "error",
            start.elapsed(),
        );
        Done {
            verdict,
            event: None,
        }
    });
    adapters::reply(agent, &done.verdict, done.event.as_deref())
}

/// The verdict on `err` for `agent` (and the event, when known): ask where the agent can,
/// deny elsewhere.
pub fn error_verdict(agent: Agent, err: &HookError, event: Option<&str>) -> Verdict {
    let v = Verdict::on_error(err);
    if agent.ask_support() == AskSupport::Native && event != Some("beforeReadFile") {
        v
    } else {
        v.without_ask()
    }
}

/// The audit database when the policy cannot be loaded: `RISKGATE_DATA_DIR`, else the XDG
/// data directory.
fn fallback_audit_path() -> PathBuf {
    use riskgate::gate::paths;
    paths::data_dir_from_env()
        .unwrap_or_else(paths::default_data_dir)
        .join("audit.db")
}

fn read_payload(mut input: impl Read) -> Result<Vec<u8>, HookError> {
    let mut buf = Vec::new();
    (&mut input)
        .take(MAX_PAYLOAD_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| HookError::Read(e.to_string()))?;
    if buf.len() > MAX_PAYLOAD_BYTES {
        return Err(HookError::Malformed(format!(
            "the payload is larger than {} MiB",
            MAX_PAYLOAD_BYTES >> 20
        )));
    }
    Ok(buf)
}

/// The event name of a payload that failed to parse, when it has one (Cursor's answers
/// depend on it).
fn sniff_event(bytes: &[u8]) -> Option<String> {
    let m = adapters::object(bytes).ok()?;
    m.get("hook_event_name")?.as_str().map(str::to_string)
}

fn work(agent: Agent, load: &PolicyLoader, input: impl Read) -> Done {
    let start = Instant::now();
    let bytes = match read_payload(input) {
        Ok(b) => b,
        Err(err) => return failed(agent, load, err, None, String::new(), start),
    };
    let call: Call = match adapters::parse(agent, &bytes) {
        Ok(c) => c,
        Err(err) => {
            let event = sniff_event(&bytes);
            let raw = String::from_utf8_lossy(&bytes).into_owned();
            return failed(agent, load, err, event, raw, start);
        }
    };
    let cwd = judge::call_cwd(&call);
    let policy = match load(&cwd) {
        Ok(p) => judge::with_agent_defaults(agent, p),
        Err(e) => {
            let err = HookError::Policy(e);
            let verdict = error_verdict(agent, &err, Some(&call.event));
            let mut ctx = Context::new(cwd).agent(agent.name(), call.session_id.clone());
            ctx.source = agent.source();
            judge::record(
                &fallback_audit_path(),
                &ctx,
                "hook",
                &call.tool_name,
                &verdict,
                "error",
                start.elapsed(),
            );
            return Done {
                verdict,
                event: Some(call.event),
            };
        }
    };
    Done {
        verdict: judge::judge(agent, &call, policy),
        event: Some(call.event),
    }
}

/// A payload that could not be read or parsed: answer and record it (with what was received).
fn failed(
    agent: Agent,
    load: &PolicyLoader,
    err: HookError,
    event: Option<String>,
    raw: String,
    start: Instant,
) -> Done {
    let verdict = error_verdict(agent, &err, event.as_deref());
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let audit = load(&cwd)
        .map(|p| p.audit_path())
        .unwrap_or_else(|_| fallback_audit_path());
    let mut ctx = Context::new(cwd).agent(agent.name(), None);
    ctx.source = agent.source();
    let input = if raw.is_empty() {
        err.to_string()
    } else {
        format!("{err}: {raw}")
    };
    judge::record(
        &audit,
        &ctx,
        "hook",
        &input,
        &verdict,
        "error",
        start.elapsed(),
    );
    Done { verdict, event }
}
