//! What can be assessed.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kind of an [`Action`], used in approvals (seed 000's `node_type`) and the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A shell command line.
    Command,
    /// A code snippet (Python, JavaScript/TypeScript, shell).
    Code,
    /// SQL statements.
    Sql,
    /// A file write, edit or deletion.
    FileWrite,
    /// A change set (unified diff).
    ChangeSet,
    /// A network fetch.
    Fetch,
    /// A workflow IR.
    Workflow,
}

impl ActionKind {
    /// The snake_case name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Command => "command",
            ActionKind::Code => "code",
            ActionKind::Sql => "sql",
            ActionKind::FileWrite => "file_write",
            ActionKind::ChangeSet => "change_set",
            ActionKind::Fetch => "fetch",
            ActionKind::Workflow => "workflow",
        }
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Programming language of a code action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Python.
    Python,
    /// JavaScript or TypeScript.
    #[serde(alias = "javascript", alias = "typescript", alias = "ts")]
    Js,
    /// POSIX shell / bash.
    #[serde(alias = "bash", alias = "shell")]
    Sh,
    /// Perl.
    Perl,
    /// Ruby.
    Ruby,
    /// PHP.
    Php,
}

/// The shell a command line is written for. Bash is the default; PowerShell and cmd.exe
/// commands are normalized by their own readers into the same simple commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Shell {
    /// bash (and POSIX sh): the default.
    #[default]
    #[serde(alias = "sh", alias = "zsh", alias = "shell")]
    Bash,
    /// PowerShell (Windows PowerShell 5.1 and PowerShell 7, `pwsh`).
    #[serde(alias = "pwsh", alias = "ps")]
    PowerShell,
    /// cmd.exe.
    #[serde(alias = "cmd.exe", alias = "bat")]
    Cmd,
}

impl Shell {
    /// The lowercase name (`bash`, `powershell`, `cmd`).
    pub fn as_str(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::PowerShell => "powershell",
            Shell::Cmd => "cmd",
        }
    }
}

impl fmt::Display for Shell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Shell {
    type Err = String;

    fn from_str(s: &str) -> Result<Shell, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bash" | "sh" | "zsh" | "shell" => Ok(Shell::Bash),
            "powershell" | "pwsh" | "ps" | "powershell.exe" | "pwsh.exe" => Ok(Shell::PowerShell),
            "cmd" | "cmd.exe" | "bat" => Ok(Shell::Cmd),
            other => Err(format!(
                "unknown shell `{other}` (expected bash, powershell or cmd)"
            )),
        }
    }
}

/// How a file is touched by a [`Action::FileWrite`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum WriteOp {
    /// Create or overwrite the whole file.
    #[default]
    Write,
    /// Replace part of the file.
    Edit,
    /// Delete the file.
    Delete,
}

/// Something an agent, a workflow or a person wants to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A shell command line, as it would be given to `bash -c` (or to PowerShell or cmd.exe
    /// when `shell` says so).
    Command {
        /// The command text.
        command: String,
        /// The shell that runs it, when it is not bash (or not known to be bash: absent means
        /// bash, with clearly PowerShell text read as PowerShell too).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
    },
    /// A code snippet (seed 001's `{"action": "code", "code": …}`).
    Code {
        /// The source text.
        code: String,
        /// The language, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        language: Option<Language>,
    },
    /// SQL statements.
    Sql {
        /// The SQL text.
        sql: String,
        /// The dialect name (generic, postgres, mysql, sqlite), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dialect: Option<String>,
    },
    /// A file write, edit or deletion.
    FileWrite {
        /// The target path.
        path: String,
        /// The new content (or the new text of an edit), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// How the file is touched.
        #[serde(default)]
        op: WriteOp,
    },
    /// A change set as a unified diff.
    ChangeSet {
        /// The diff text.
        diff: String,
    },
    /// A network fetch.
    Fetch {
        /// The URL.
        url: String,
        /// The HTTP method (GET when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        method: Option<String>,
    },
    /// A workflow IR (seed 000), as JSON.
    Workflow {
        /// The IR document.
        ir: serde_json::Value,
    },
}

impl Action {
    /// A shell command action.
    pub fn command(command: impl Into<String>) -> Action {
        Action::Command {
            command: command.into(),
            shell: None,
        }
    }

    /// A shell command action for `shell` (`None`: bash, with clearly PowerShell text read as
    /// PowerShell too).
    pub fn command_in(command: impl Into<String>, shell: Option<Shell>) -> Action {
        Action::Command {
            command: command.into(),
            shell,
        }
    }

    /// This action's kind.
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Command { .. } => ActionKind::Command,
            Action::Code { .. } => ActionKind::Code,
            Action::Sql { .. } => ActionKind::Sql,
            Action::FileWrite { .. } => ActionKind::FileWrite,
            Action::ChangeSet { .. } => ActionKind::ChangeSet,
            Action::Fetch { .. } => ActionKind::Fetch,
            Action::Workflow { .. } => ActionKind::Workflow,
        }
    }

    /// The text that approvals patterns and overrides are matched against
    /// (the command, the code, the path, the URL …).
    pub fn subject(&self) -> String {
        match self {
            Action::Command { command, .. } => command.clone(),
            Action::Code { code, .. } => code.clone(),
            Action::Sql { sql, .. } => sql.clone(),
            Action::FileWrite { path, .. } => path.clone(),
            Action::ChangeSet { diff } => diff.clone(),
            Action::Fetch { url, .. } => url.clone(),
            Action::Workflow { ir } => ir.to_string(),
        }
    }
}
