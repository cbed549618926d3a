//! The five agents' pre-tool payload parsers (`riskgate_hooks::adapters::parse`): the first
//! byte picks the agent, the rest is the payload as the agent would send it on stdin. Any
//! shell command found is normalized too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use riskgate_hooks::{Agent, Tool};

const AGENTS: [Agent; 5] = [
    Agent::Claude,
    Agent::Gemini,
    Agent::Codex,
    Agent::Cursor,
    Agent::Copilot,
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    let agent = AGENTS[usize::from(pick) % AGENTS.len()];
    if let Ok(call) = riskgate_hooks::adapters::parse(agent, payload) {
        for tool in &call.tools {
            if let Tool::Shell { command, .. } = tool {
                let limits = riskgate_shell::Limits {
                    max_time: std::time::Duration::from_millis(400),
                    ..Default::default()
                };
                let _ = riskgate_shell::parse_with(command, &limits);
            }
        }
    }
});
