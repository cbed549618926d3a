//! The agents' pre-tool payload parsers (`riskgate_hooks::adapters::parse`): the first byte
//! picks the agent, the rest is the payload as the agent would send it on stdin. Any shell
//! command found is normalized too. The same bytes, read as the agent's settings file, go
//! through `install` and `uninstall` (the JSON-with-comments text editor).
#![no_main]

use libfuzzer_sys::fuzz_target;
use riskgate_hooks::{Agent, Tool};

const AGENTS: &[Agent] = &Agent::ALL;

fuzz_target!(|data: &[u8]| {
    quiet_contained_panics();
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    let agent = AGENTS[usize::from(pick) % AGENTS.len()];
    if let Ok(text) = std::str::from_utf8(payload) {
        let path = std::path::Path::new("settings.json");
        let command = format!("riskgate hook {}", agent.name());
        if let Ok(riskgate_hooks::install::Change::Write(t)) =
            riskgate_hooks::install::install(agent, path, Some(text), &command)
        {
            let _ = riskgate_hooks::install::uninstall(agent, path, Some(&t));
        }
    }
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

/// riskgate_shell contains a panic of its parser dependency (the result is then the linear
/// scan, marked incomplete): such a panic is not a failure of the contract. libfuzzer-sys's
/// hook would abort on it, so a quiet one replaces it; a panic that escapes `parse` still
/// aborts (libfuzzer-sys aborts on any panic reaching it).
fn quiet_contained_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}
