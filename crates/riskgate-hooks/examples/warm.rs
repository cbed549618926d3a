//! A warm hook call, as the hook server makes it: `run` on one payload, many times in one
//! process; prints the median per call. Usage: `warm [COMMAND] [N]`. State and audit log go
//! where `RISKGATE_STATE_DIR` / `RISKGATE_DATA_DIR` say (set them to a scratch directory).
use std::time::Instant;

use riskgate::gate::{CliOverrides, Policy};
use riskgate_hooks::{Agent, HookEnv, Options, run};

fn main() {
    let command = std::env::args().nth(1).unwrap_or_else(|| "ls -la".into());
    let n: usize = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let payload = serde_json::json!({
        "session_id": "warm", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t"
    })
    .to_string();
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let opts = Options {
            agent: Agent::Claude,
            timeout: riskgate_hooks::run::DEFAULT_TIMEOUT,
            load_policy: Box::new(|cwd| {
                Policy::load(cwd, &CliOverrides::default()).map_err(|e| e.to_string())
            }),
            on_timeout: None,
            env: HookEnv::from_process(),
        };
        let reply = run(opts, payload.as_bytes());
        std::hint::black_box(reply);
        times.push(start.elapsed());
    }
    times.sort();
    println!("{command}: median {:?} per call over {n}", times[n / 2]);
}
