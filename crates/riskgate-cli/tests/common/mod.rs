//! What the CLI test files share: the built binary, isolated from the user's state and config.

use std::path::Path;

use assert_cmd::Command;

/// `riskgate` run in `dir`, with its state, audit log and config under `dir` and no color.
pub fn riskgate(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("riskgate").expect("binary is built");
    cmd.current_dir(dir)
        .env("HOME", dir)
        .env("RISKGATE_STATE_DIR", dir.join("state"))
        .env("RISKGATE_DATA_DIR", dir.join("data"))
        .env("RISKGATE_CONFIG_DIR", dir.join("config"))
        // no managed policy of the machine running the tests (tests put one here)
        .env("RISKGATE_MANAGED_POLICY", dir.join("managed"))
        .env("NO_COLOR", "1")
        // every hook call decided in its own process (tests/hooks_server.rs tests the server)
        .env("RISKGATE_HOOK_SERVER", "0")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME");
    cmd
}
