//! `riskgate hook <agent>`: the pre-tool hook of a coding agent. Reads the agent's JSON on
//! stdin, answers on stdout in that agent's format and exits as its protocol wants (0, with
//! the decision in the JSON). Never prompts on the terminal: when a person must decide, the
//! agent asks its user (the answer is "ask"), or — for agents that cannot ask — the answer is
//! "deny" with how to approve. Malformed payloads, errors and the time limit never allow.
//! The adapters and the judging live in `riskgate-hooks`.

use std::process::ExitCode;
use std::time::Duration;

use riskgate_hooks::{Agent, Options, Reply, run};

use crate::cmd::common::PolicyArgs;

/// Arguments of `riskgate hook`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent whose protocol to speak: claude, gemini, codex, cursor or copilot.
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

/// `riskgate hook AGENT` exactly, as the agents run it: answered without building the whole
/// command-line parser (a hook call is a fresh process each time; clap's set-up of every
/// subcommand is a good part of its start-up). Any other form goes through clap.
pub fn fast_path() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let (Some(sub), Some(agent), None) = (args.next(), args.next(), args.next()) else {
        return None;
    };
    if sub != "hook" {
        return None;
    }
    let agent = agent.to_str()?.parse::<Agent>().ok()?;
    let args = Args {
        agent,
        timeout_ms: None,
        policy: PolicyArgs::default(),
    };
    Some(run_hook(args).unwrap_or_else(|e| {
        eprintln!("riskgate: error: {e:#}");
        crate::exit::Code::Error.into()
    }))
}

/// Run `riskgate hook`.
pub fn run_hook(args: Args) -> anyhow::Result<ExitCode> {
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
    let opts = Options {
        agent: args.agent,
        timeout,
        load_policy: Box::new(move |cwd| policy_args.load_at(cwd)),
        on_timeout: (!timeout.is_zero()).then(|| -> riskgate_hooks::run::OnTimeout {
            Box::new(|reply: &Reply| {
                print_reply(reply);
                std::process::exit(i32::from(reply.exit));
            })
        }),
    };
    let reply = run(opts, std::io::stdin().lock());
    print_reply(&reply);
    Ok(ExitCode::from(reply.exit))
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
