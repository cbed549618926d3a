//! One hook call from end to end, with its safety net.
//!
//! The calling thread reads the payload, parses it, loads the policy and judges (a panic is
//! caught); a watchdog thread answers instead when [`Options::timeout`] passes first. Whatever goes wrong — a payload that is not
//! JSON, a missing field, another event's shape, an invalid policy file, a panic, the time
//! limit — the answer is "ask" with the reason, or "deny" where the agent cannot ask (Codex,
//! Gemini by default, Cursor's `beforeReadFile`). Never "allow", never no opinion. Each of
//! those answers is recorded in the audit log too (kind `hook`, decided by `error`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use riskgate::gate::{Context, Policy};

use crate::adapters::{self, MAX_PAYLOAD_BYTES};
use crate::judge;
use crate::request::Call;
use crate::verdict::{Reply, Verdict};
use crate::{Agent, AskSupport, HookError};

/// Loads the policy for a working directory (the CLI's layers: files, flags).
pub type PolicyLoader = Box<dyn Fn(&Path) -> Result<Policy, String> + Send>;

/// Called with the error reply when the time limit passes before the decision; it should
/// print the reply and end the process (the CLI does).
pub type OnTimeout = Box<dyn Fn(&Reply) + Send>;

/// How to run a hook call.
pub struct Options {
    /// The agent whose protocol is spoken.
    pub agent: Agent,
    /// The time limit for reading and deciding.
    pub timeout: Duration,
    /// Loads the policy.
    pub load_policy: PolicyLoader,
    /// What to do with the time limit's reply (`None`: no time limit).
    pub on_timeout: Option<OnTimeout>,
    /// The hook process's working directory and agent variables.
    pub env: HookEnv,
}

/// What a hook call takes from the hook process rather than from its payload: the working
/// directory (when the payload names none) and the project directory the agent exports. The
/// hook server gets them from the client with each payload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookEnv {
    /// The process's working directory.
    pub cwd: PathBuf,
    /// `CLAUDE_PROJECT_DIR` (Claude Code, Copilot CLI in Claude's format).
    pub claude_project_dir: Option<PathBuf>,
    /// `GEMINI_PROJECT_DIR`.
    pub gemini_project_dir: Option<PathBuf>,
}

impl HookEnv {
    /// This process's.
    pub fn from_process() -> HookEnv {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        HookEnv {
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            claude_project_dir: var("CLAUDE_PROJECT_DIR"),
            gemini_project_dir: var("GEMINI_PROJECT_DIR"),
        }
    }

    /// The project directory `agent` exports, if any.
    pub fn project_dir(&self, agent: Agent) -> Option<&PathBuf> {
        match agent {
            Agent::Claude | Agent::Copilot => self.claude_project_dir.as_ref(),
            Agent::Gemini => self.gemini_project_dir.as_ref(),
            _ => None,
        }
    }
}

/// The default time limit: well inside every agent's own hook timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);

struct Done {
    verdict: Verdict,
    event: Option<String>,
}

/// A watchdog: a small thread that hands the time limit's reply to `on_timeout` unless the
/// decision is taken first. The decision is taken on the calling thread (no hand-off, the
/// main thread's stack). The watchdog waits on a condition variable (no allocation, so no
/// malloc arena of its own) and is not woken when the decision comes first: the process ends.
struct Watchdog {
    state: Arc<(Mutex<bool>, Condvar)>,
}

impl Watchdog {
    /// Answer after `wait`, with `timeout` (the hook's time limit) as the reason.
    fn start(
        agent: Agent,
        wait: Duration,
        timeout: Duration,
        on_timeout: OnTimeout,
    ) -> Option<Watchdog> {
        let state = Arc::new((Mutex::new(false), Condvar::new()));
        let shared = Arc::clone(&state);
        let spawned = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                let (lock, cvar) = &*shared;
                let Ok(answered) = lock.lock() else { return };
                let Ok((mut answered, _)) = cvar.wait_timeout_while(answered, wait, |a| !*a) else {
                    return;
                };
                if *answered {
                    return;
                }
                *answered = true;
                drop(answered);
                on_timeout(&time_limit_reply(agent, timeout, &HookEnv::from_process()));
            });
        spawned.ok().map(|_| Watchdog { state })
    }

    /// Claim the answer for the decision; false when the watchdog answered already.
    fn claim(&self) -> bool {
        let (lock, _) = &*self.state;
        match lock.lock() {
            Ok(mut answered) if !*answered => {
                // not notified: the watchdog sees the flag at the time limit (or the process
                // ends first), and waking it would cost a context switch on every call
                *answered = true;
                true
            }
            _ => false,
        }
    }
}

/// Answer one hook call whose payload is read from `input`. With `on_timeout`, a watchdog
/// answers in its place when the decision takes longer than the time limit.
pub fn run(opts: Options, input: impl Read) -> Reply {
    let budget = opts.timeout;
    run_within(opts, input, budget)
}

/// [`run`] with the watchdog answering after `budget` rather than the whole time limit: what
/// is left of it when part was spent elsewhere (a hook server that did not answer). The
/// answer's reason still names the time limit.
pub fn run_within(opts: Options, input: impl Read, budget: Duration) -> Reply {
    let agent = opts.agent;
    let start = Instant::now();
    let watchdog = opts
        .on_timeout
        .and_then(|f| Watchdog::start(agent, budget, opts.timeout, f));
    let load = opts.load_policy;
    let env = opts.env;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        work(agent, &load, &env, input)
    }));
    let done = result.unwrap_or_else(|_| {
        let err = HookError::Internal("the assessment stopped unexpectedly (panic)".into());
        failed_without_policy(agent, &env, &err, start.elapsed())
    });
    if let Some(w) = &watchdog
        && !w.claim()
    {
        // the watchdog is answering and ends the process; wait for it
        loop {
            std::thread::park();
        }
    }
    let mut reply = adapters::reply(agent, &done.verdict, done.event.as_deref());
    reply.stderr.insert_str(0, &crate::warn::take());
    reply
}

/// The answer when `timeout` passed before the decision (recorded in the audit log): ask, or
/// deny where the agent cannot ask.
pub fn time_limit_reply(agent: Agent, timeout: Duration, env: &HookEnv) -> Reply {
    let err = HookError::TimedOut(timeout.as_millis() as u64);
    let done = failed_without_policy(agent, env, &err, timeout);
    adapters::reply(agent, &done.verdict, None)
}

/// The answer on `err` when no policy is at hand, recorded in the default audit log.
fn failed_without_policy(agent: Agent, env: &HookEnv, err: &HookError, latency: Duration) -> Done {
    let verdict = error_verdict(agent, err, None);
    let cwd = env.cwd.clone();
    let mut ctx = Context::new(cwd).agent(agent.name(), None);
    ctx.source = agent.source();
    judge::record(
        &fallback_audit_path(),
        &ctx,
        "hook",
        &err.to_string(),
        &verdict,
        "error",
        latency,
    );
    Done {
        verdict,
        event: None,
    }
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

fn work(agent: Agent, load: &PolicyLoader, env: &HookEnv, input: impl Read) -> Done {
    let start = Instant::now();
    match read_payload(input) {
        Ok(bytes) => decide(agent, load, env, &bytes, start),
        Err(err) => failed(agent, load, env, err, None, String::new(), start),
    }
}

fn decide(agent: Agent, load: &PolicyLoader, env: &HookEnv, bytes: &[u8], start: Instant) -> Done {
    let mut call: Call = match adapters::parse(agent, bytes) {
        Ok(c) => c,
        Err(err) => {
            let event = sniff_event(bytes);
            let raw = String::from_utf8_lossy(bytes).into_owned();
            return failed(agent, load, env, err, event, raw, start);
        }
    };
    if !judge::has_cwd(&call) {
        call.cwd = Some(env.cwd.clone());
    }
    call.project_dir = env.project_dir(agent).cloned();
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
    env: &HookEnv,
    err: HookError,
    event: Option<String>,
    raw: String,
    start: Instant,
) -> Done {
    let verdict = error_verdict(agent, &err, event.as_deref());
    let cwd = env.cwd.clone();
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
