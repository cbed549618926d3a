//! riskgate's agent hooks: what `riskgate hook <agent>` does between an agent's pre-tool JSON
//! on stdin and the answer on stdout, for Claude Code, Gemini CLI, Codex CLI, Cursor, GitHub
//! Copilot CLI, OpenCode, Kilo Code, Windsurf, Cline, Qwen Code, Factory Droid, Augment and Goose
//! (protocols: `docs/protocols.md`).
//!
//! - [`agents`]: the one table of per-agent facts (events, answers, ask support, behaviour on a
//!   hook failure, file locations) that install, `riskgate doctor` and the README use.
//! - [`adapters`]: one module per agent: its payload → a [`Call`], a [`Verdict`] → its answer
//!   ([`Reply`]: stdout, stderr, exit code). Each module documents its mapping.
//! - [`judge`]: a [`Call`] → gate decisions: shell commands through the engine, file writes
//!   and edits through [`paths`] and [`content`], fetches through [`url`], MCP tools by the
//!   policy's `mcp.tools` and, for known servers' tools, the analyzer their arguments call for
//!   ([`mcp_tools`]); each decision recorded in the audit log with the agent as source.
//! - [`run`]: the whole hook call with its safety net: a malformed payload, an internal error,
//!   a panic or the time limit answer `ask` (or `deny` where the agent cannot ask), never allow.
//! - [`server`]: the hook server: a warm process per user and configuration that answers
//!   hook calls sent over a Unix socket, so a call costs little more than starting a process.
//! - [`install`]: registering the hook in each agent's settings file, idempotently;
//!   [`mcp_install`]: registering `riskgate mcp` in the MCP configuration of agents that read one.
//!
//! ```
//! use riskgate_hooks::{Agent, adapters};
//! let call = adapters::parse(Agent::Claude, br#"{"session_id":"s","cwd":"/repo",
//!   "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#).unwrap();
//! assert_eq!(call.tool_name, "Bash");
//! assert!(adapters::parse(Agent::Claude, b"{}").is_err());
//! ```
#![deny(missing_docs)]

pub mod adapters;
pub mod agents;
pub mod content;
pub mod error;
pub mod install;
pub mod jsonc;
pub mod judge;
pub mod mcp_install;
pub mod mcp_tools;
pub mod ordered;
pub mod patch;

pub mod request;
pub mod run;
pub mod server;
pub mod url;
pub mod verdict;
mod warn;

pub use error::HookError;
pub use request::{Call, Tool};
pub use run::{HookEnv, Options, run};
pub use verdict::{Answer, Reply, Verdict};

use std::fmt;
use std::str::FromStr;

/// The agents riskgate has a hook adapter for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// Claude Code (`PreToolUse`).
    Claude,
    /// Gemini CLI (`BeforeTool`).
    Gemini,
    /// OpenAI Codex CLI (`PreToolUse`).
    Codex,
    /// Cursor (`beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile`, `preToolUse`).
    Cursor,
    /// GitHub Copilot CLI (`preToolUse`, or `PreToolUse` in Claude's format).
    Copilot,
    /// OpenCode (a plugin's `tool.execute.before`).
    OpenCode,
    /// Kilo Code CLI (OpenCode's plugin API).
    Kilo,
    /// Windsurf's Cascade hooks (`pre_run_command`, `pre_write_code` …).
    Windsurf,
    /// Cline (a `PreToolUse` hook file).
    Cline,
    /// Qwen Code (`PreToolUse`).
    Qwen,
    /// Factory Droid (`PreToolUse`, Claude Code's protocol with Droid's tool names).
    Droid,
    /// Augment's Auggie CLI (`PreToolUse`).
    Augment,
    /// Goose (a plugin's `PreToolUse` hook).
    Goose,
}

/// Whether an agent can put a question to its user when the hook answers "ask".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskSupport {
    /// It can: "ask" is answered unless the policy sets `hooks.ask_fallback: deny`.
    Native,
    /// It can in some modes only: "ask" only when the policy sets `hooks.ask_fallback: ask`.
    ByPolicy,
    /// Never: "ask" would be a failed hook (and the tool would run), so it becomes "deny".
    Never,
}

impl Agent {
    /// Every agent, in documentation order.
    pub const ALL: [Agent; 13] = [
        Agent::Claude,
        Agent::Gemini,
        Agent::Codex,
        Agent::Cursor,
        Agent::Copilot,
        Agent::OpenCode,
        Agent::Kilo,
        Agent::Windsurf,
        Agent::Cline,
        Agent::Qwen,
        Agent::Droid,
        Agent::Augment,
        Agent::Goose,
    ];

    /// What riskgate knows about this agent ([`agents::AGENTS`]).
    pub fn info(self) -> &'static agents::AgentInfo {
        agents::info(self)
    }

    /// The name used on the command line and in the audit log.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The audit log source of this agent's hook calls: `hook:<name>`.
    pub fn source(self) -> String {
        format!("hook:{}", self.name())
    }

    /// How this agent handles an "ask".
    pub fn ask_support(self) -> AskSupport {
        self.info().ask
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Agent {
    type Err = HookError;

    fn from_str(s: &str) -> Result<Agent, HookError> {
        agents::by_name(s).ok_or_else(|| HookError::UnknownAgent(s.to_string()))
    }
}
