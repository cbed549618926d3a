//! `riskgate hook <agent>`: the pre-tool hook of a coding agent. Reads the agent's JSON on
//! stdin, answers on stdout in that agent's format and exits as its protocol wants (0, with
//! the decision in the JSON). Never prompts on the terminal: when a person must decide, the
//! agent asks its user (the answer is "ask"), or — for agents that cannot ask — the answer is
//! "deny" with how to approve. Malformed payloads, errors and the time limit never allow.
//! The adapters and the judging live in `riskgate-hooks`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use riskgate_hooks::{Agent, HookEnv, Options, Reply, run, server};

use crate::cmd::common::PolicyArgs;

/// Arguments of `riskgate hook`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent whose protocol to speak: claude, gemini, codex, cursor, copilot, opencode,
    /// kilo, windsurf, cline, qwen, droid, augment or goose.
    #[arg(value_parser = parse_agent)]
    agent: Agent,
    /// Time limit in milliseconds (default 8000, or RISKGATE_HOOK_TIMEOUT_MS; 0: none).
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Parse an agent name for clap.
pub fn parse_agent(s: &str) -> Result<Agent, String> {
    s.parse::<Agent>().map_err(|e| e.to_string())
}

/// Arguments of `riskgate hook-server`.
#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    /// Stop the hook servers of this user: the one of this binary and environment, and any
    /// other found in the socket directories (started with other RISKGATE_* variables).
    #[arg(long, conflicts_with = "socket")]
    stop: bool,
    /// Serve on this socket (what `riskgate hook` starts; the default is the socket of this
    /// binary and environment).
    socket: Option<PathBuf>,
}

/// `riskgate hook AGENT` and `riskgate hook-server SOCKET` exactly, as the agents (and the
/// hook itself) run them: answered without building the whole command-line parser (a hook
/// call is a fresh process each time; clap's set-up of every subcommand is a good part of its
/// start-up). Any other form goes through clap.
pub fn fast_path() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let (Some(sub), Some(arg), None) = (args.next(), args.next(), args.next()) else {
        return None;
    };
    let result = if sub == "hook" {
        let agent = arg.to_str()?.parse::<Agent>().ok()?;
        let args = Args {
            agent,
            timeout_ms: None,
            policy: PolicyArgs::default(),
        };
        run_hook_with(args, server::enabled())
    } else if sub == "hook-server" && !arg.to_string_lossy().starts_with('-') {
        run_server(ServerArgs {
            stop: false,
            socket: Some(PathBuf::from(arg)),
        })
    } else {
        return None;
    };
    Some(result.unwrap_or_else(|e| {
        eprintln!("riskgate: error: {e:#}");
        crate::exit::Code::Error.into()
    }))
}

/// Run `riskgate hook-server`: serve hook calls until idle, or stop the running server.
pub fn run_server(args: ServerArgs) -> anyhow::Result<ExitCode> {
    let socket = match args.socket {
        Some(s) => s,
        None => {
            let exe = std::env::current_exe()?;
            server::socket_path(&exe)
                .ok_or_else(|| anyhow::anyhow!("the hook server's socket path is too long"))?
        }
    };
    if args.stop {
        // this environment's server first (the first line names its socket), then every
        // other server of this user that can be found: one started with other RISKGATE_*
        // variables hashes to another socket
        let mut failed = false;
        for (n, sock) in server::known_sockets(Some(&socket)).into_iter().enumerate() {
            match server::stop(&sock) {
                Ok(true) => println!("{}: stopped", sock.display()),
                Ok(false) if n == 0 => println!("{}: no server", sock.display()),
                Ok(false) => {}
                Err(e) => {
                    failed = true;
                    eprintln!("riskgate: {}: not stopped: {e}", sock.display());
                }
            }
        }
        return Ok(if failed {
            crate::exit::Code::Error.into()
        } else {
            ExitCode::SUCCESS
        });
    }
    let trace = std::env::var_os(server::ENV_TRACE).is_some();
    let handler: server::Handler = Arc::new(move |agent, env, payload: &[u8]| {
        let start = std::time::Instant::now();
        let opts = Options {
            agent,
            timeout: riskgate_hooks::run::DEFAULT_TIMEOUT,
            load_policy: Box::new(|cwd| PolicyArgs::default().load_at(cwd)),
            on_timeout: None,
            env,
        };
        // counted per call: this thread answers one call at a time
        let _ = server::cache::take_call_stats();
        let mut reply = run(opts, payload);
        if trace {
            let took = start.elapsed().as_micros();
            let (hits, misses) = server::cache::take_call_stats();
            let (all_hits, all_misses) = server::cache::stats();
            reply.stderr.push_str(&format!(
                "riskgate: decided by the hook server in {took} µs (assessment cache: {hits} from cache, {misses} assessed; since start {all_hits} from cache, {all_misses} assessed)\n"
            ));
        }
        reply
    });
    // the journal goes to the team's database from here, in the background: never on a
    // call's path (the hook's only synchronous write stays the journal)
    // (what the last calls recorded is shipped by the next server or CLI call: a stopped
    // server ends at once, it does not wait for the database)
    crate::cmd::admin::spawn_shipper();
    server::serve(&socket, server::idle_from_env(), handler)?;
    Ok(ExitCode::SUCCESS)
}

/// Run `riskgate hook`.
pub fn run_hook(args: Args) -> anyhow::Result<ExitCode> {
    // flags (policy files, overrides) are this process's own: no server for them
    let plain = args.policy == PolicyArgs::default();
    run_hook_with(args, plain && server::enabled())
}

/// Run `riskgate hook`, through the hook server when `use_server`.
fn run_hook_with(args: Args, use_server: bool) -> anyhow::Result<ExitCode> {
    // the one start every deadline of this call is taken from
    let start = Instant::now();
    let timeout = args
        .timeout_ms
        .or_else(|| {
            std::env::var("RISKGATE_HOOK_TIMEOUT_MS")
                .ok()
                .and_then(|v| v.trim().parse().ok())
        })
        .map(Duration::from_millis)
        .unwrap_or(riskgate_hooks::run::DEFAULT_TIMEOUT);
    let policy_args = args.policy;
    let env = HookEnv::from_process();
    let opts = || Options {
        agent: args.agent,
        timeout,
        load_policy: Box::new(move |cwd| policy_args.load_at(cwd)),
        on_timeout: (!timeout.is_zero()).then(|| -> riskgate_hooks::run::OnTimeout {
            Box::new(|reply: &Reply| {
                print_reply(reply);
                std::process::exit(i32::from(reply.exit));
            })
        }),
        env: env.clone(),
    };
    // the server of this binary and environment, if any
    let server = use_server
        .then(|| std::env::current_exe().ok())
        .flatten()
        .and_then(|exe| server::socket_path(&exe).map(|socket| (exe, socket)));
    let Some((exe, socket)) = server else {
        let reply = run(opts(), std::io::stdin().lock());
        print_reply(&reply);
        return Ok(ExitCode::from(reply.exit));
    };
    let (reply, start_server) = through_server(args.agent, &socket, &env, timeout, start, opts);
    print_reply(&reply);
    if start_server {
        // answered here; the next calls go to a server (a failure to start one only costs speed)
        let _ = server::spawn(&exe, &socket);
    }
    Ok(ExitCode::from(reply.exit))
}

/// A time limit of zero (none) still bounds the wait for a server.
#[cfg(unix)]
const UNLIMITED_SERVER_SHARE: Duration = Duration::from_secs(4);
/// Less than this left of the time limit: the time limit's answer rather than deciding alone.
#[cfg(unix)]
const MIN_ALONE: Duration = Duration::from_millis(20);

/// One call through the hook server, from `start`, ending by `timeout` after it (plus the
/// moment it takes to print and record the time limit's answer) whatever the server does.
/// The payload is read and sent without a watchdog thread. The server gets half the time
/// limit; when it does not answer in it, this process decides alone in what is left (with a
/// watchdog), or answers the time limit's ask (deny where the agent cannot ask). True with
/// the reply when no server listens (one should be started).
#[cfg(unix)]
fn through_server(
    agent: Agent,
    socket: &std::path::Path,
    env: &HookEnv,
    timeout: Duration,
    start: Instant,
    opts: impl FnOnce() -> Options,
) -> (Reply, bool) {
    // a time limit too large to add to an instant is no limit
    let deadline = (!timeout.is_zero())
        .then(|| start.checked_add(timeout))
        .flatten();
    let payload = match server::read_within(std::io::stdin().lock(), deadline) {
        Ok(p) => p,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            return (
                riskgate_hooks::run::time_limit_reply(agent, timeout, env),
                false,
            );
        }
        Err(e) => return (run(opts(), FailingInput(Some(e))), false),
    };
    let share = if timeout.is_zero() {
        UNLIMITED_SERVER_SHARE
    } else {
        timeout / 2
    };
    let mut start_server = false;
    let mut warning = String::new();
    let server_deadline = start
        .checked_add(share)
        .unwrap_or(start + UNLIMITED_SERVER_SHARE);
    match server::request(socket, agent, env, &payload, timeout, server_deadline) {
        Ok(mut reply) => {
            if std::env::var_os(server::ENV_TRACE).is_some() {
                let note = format!(
                    "riskgate: answered by the hook server at {}\n",
                    socket.display()
                );
                reply.stderr.push_str(&note);
            }
            return (reply, false);
        }
        Err(server::CallError::NoServer) => start_server = true,
        Err(server::CallError::Untrusted(why)) => {
            warning = format!("riskgate: warning: hook server not used: {why}\n");
        }
        Err(server::CallError::Failed(_)) => {}
    }
    let mut reply = match deadline {
        None => run(opts(), payload.as_slice()),
        Some(deadline) => {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < MIN_ALONE {
                riskgate_hooks::run::time_limit_reply(agent, timeout, env)
            } else {
                riskgate_hooks::run::run_within(opts(), payload.as_slice(), left)
            }
        }
    };
    reply.stderr.insert_str(0, &warning);
    (reply, start_server)
}

/// No hook server outside Unix: every call decided alone.
#[cfg(not(unix))]
fn through_server(
    _agent: Agent,
    _socket: &std::path::Path,
    _env: &HookEnv,
    _timeout: Duration,
    _start: Instant,
    opts: impl FnOnce() -> Options,
) -> (Reply, bool) {
    (run(opts(), std::io::stdin().lock()), false)
}

/// Stdin that could not be read in time: `run` answers with the error.
#[cfg(unix)]
struct FailingInput(Option<std::io::Error>);

#[cfg(unix)]
impl std::io::Read for FailingInput {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(self
            .0
            .take()
            .unwrap_or_else(|| std::io::Error::other("stdin unreadable")))
    }
}

/// Print a reply; a closed stdout (the agent gave up) is not an error worth more words.
fn print_reply(reply: &Reply) {
    use std::io::Write as _;
    if !reply.stderr.is_empty() {
        eprint!("{}", reply.stderr);
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(reply.stdout.as_bytes());
    let _ = out.flush();
}
