//! The agent-neutral form of one pre-tool call: who (session), where (working directory,
//! workspace roots) and what ([`Tool`]s). The adapters build it from each agent's payload; the
//! judge decides on it.

use std::path::PathBuf;

use riskgate::model::{Language, WriteOp};

/// One tool call an agent is about to make.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The hook event as the agent named it (`PreToolUse`, `BeforeTool`, `beforeShellExecution` …).
    pub event: String,
    /// The agent's session (or conversation) id: the key of the session cache.
    pub session_id: Option<String>,
    /// The agent's working directory, when it says.
    pub cwd: Option<PathBuf>,
    /// Workspace roots the agent names (Cursor), besides the project directory.
    pub workspace_roots: Vec<PathBuf>,
    /// The project directory the agent puts in the hook's environment (`CLAUDE_PROJECT_DIR`,
    /// `GEMINI_PROJECT_DIR`); filled in by [`crate::run`] from [`crate::run::HookEnv`].
    pub project_dir: Option<PathBuf>,
    /// The tool as the agent named it (`Bash`, `run_shell_command`, `apply_patch` …).
    pub tool_name: String,
    /// What the tool does, one entry per file for multi-file edits.
    pub tools: Vec<Tool>,
    /// Whether the agent can ask its user for this event (Cursor's `beforeReadFile` cannot).
    pub can_ask: bool,
    /// The tool has run (`PostToolUse`, `AfterTool`): what riskgate asked about was approved.
    pub after: bool,
}

impl Call {
    /// A call of `tool_name` doing `tools`, for `event`, askable.
    pub fn new(event: impl Into<String>, tool_name: impl Into<String>, tools: Vec<Tool>) -> Call {
        Call {
            event: event.into(),
            session_id: None,
            cwd: None,
            workspace_roots: Vec::new(),
            project_dir: None,
            tool_name: tool_name.into(),
            tools,
            can_ask: true,
            after: false,
        }
    }
}

/// What a tool call does, as far as riskgate judges it.
#[derive(Debug, Clone, PartialEq)]
pub enum Tool {
    /// Run a shell command line (in `dir`, relative to the call's cwd, when given).
    Shell {
        /// The command text.
        command: String,
        /// A directory the command runs in, relative to the call's cwd.
        dir: Option<String>,
    },
    /// Run a PowerShell command line (Claude Code's `PowerShell` tool, Copilot CLI's
    /// `powershell`): read by the PowerShell normalizer.
    PowerShell {
        /// The command text.
        command: String,
        /// A directory the command runs in, relative to the call's cwd.
        dir: Option<String>,
    },
    /// Create, overwrite, edit or delete a file.
    Write {
        /// The path as the agent gave it.
        path: String,
        /// The new content, or the new text of an edit (empty for a deletion).
        content: String,
        /// Write, edit or delete.
        op: WriteOp,
        /// The language of the content when the tool says (notebook code cells).
        language: Option<Language>,
    },
    /// Read a file (its content goes to the model provider).
    Read {
        /// The path as the agent gave it.
        path: String,
    },
    /// Fetch a URL.
    Fetch {
        /// The URL.
        url: String,
    },
    /// Run SQL (an MCP database tool's query; see [`crate::mcp_tools`]).
    Sql {
        /// The SQL text.
        sql: String,
        /// The dialect, when known (`postgres`, `mysql`, `sqlite`).
        dialect: Option<String>,
    },
    /// Run code (an MCP code runner's snippet; see [`crate::mcp_tools`]).
    Code {
        /// The source.
        code: String,
        /// Its language, when known.
        language: Option<Language>,
    },
    /// Call an MCP tool, named `mcp__<server>__<tool>`.
    Mcp {
        /// The normalized name.
        name: String,
        /// The arguments.
        input: serde_json::Value,
    },
    /// A tool riskgate has no opinion on (search, listing, planning …).
    Other {
        /// A short rendering of the input, for the audit log.
        summary: String,
    },
}
