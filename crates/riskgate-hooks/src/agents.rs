//! The one table of what riskgate knows about each agent: its names, the events riskgate
//! registers, the answers it is sent, whether it can ask its user, what it does when the hook
//! fails, where its hook settings live and how they are laid out, and where the protocol was
//! verified (`docs/protocols.md`). `install`, `doctor`, the adapters' ask handling and the
//! README's agent table all read it; nothing else lists agents.

use std::path::{Path, PathBuf};

use crate::{Agent, AskSupport};

/// What the agent does when the hook cannot answer (crash, non-zero exit, timeout, bad
/// output), with the hook installed the way `riskgate install` installs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFailure {
    /// The tool call is blocked.
    Closed,
    /// The tool call runs.
    Open,
    /// Blocked in some failure cases, run in others (see [`AgentInfo::failure`]).
    Partly,
}

impl OnFailure {
    /// `closed`, `open` or `partly open`.
    pub fn as_str(self) -> &'static str {
        match self {
            OnFailure::Closed => "closed",
            OnFailure::Open => "open",
            OnFailure::Partly => "partly open",
        }
    }
}

/// How the file riskgate writes is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A JSON(C) settings file shared with the user: `hooks.EVENT[]` of `{matcher, hooks:
    /// [entry]}` groups (Claude Code's layout).
    Grouped,
    /// A JSON(C) hooks file: `hooks.EVENT[]` of entries; `version: 1` at the top when `true`.
    Flat(bool),
    /// A file riskgate writes whole and owns: a plugin (OpenCode, Kilo) or a hook script
    /// (Cline).
    Owned,
}

/// A file under the home directory, or under a directory an environment variable names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserPath {
    /// The variable that overrides the base directory (`CODEX_HOME`, `XDG_CONFIG_HOME` …).
    pub var: Option<&'static str>,
    /// The base directory relative to home when the variable is unset.
    pub base: &'static str,
    /// The file relative to the base.
    pub file: &'static str,
}

impl UserPath {
    /// The path for `home` and the environment `env`.
    pub fn resolve(&self, home: &Path, env: &impl Fn(&str) -> Option<String>) -> PathBuf {
        let base = self
            .var
            .and_then(env)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(self.base));
        base.join(self.file)
    }

    /// How it is written in documentation (`~/.claude/settings.json`, `$CODEX_HOME/hooks.json`).
    pub fn display(&self) -> String {
        match self.var {
            Some(v) => format!("${v}/{} (~/{}/{})", self.file, self.base, self.file),
            None => format!("~/{}/{}", self.base, self.file),
        }
    }
}

/// Everything riskgate knows about one agent.
#[derive(Debug, Clone, Copy)]
pub struct AgentInfo {
    /// The agent.
    pub agent: Agent,
    /// The name on the command line and in the audit log.
    pub name: &'static str,
    /// Other names accepted on the command line.
    pub aliases: &'static [&'static str],
    /// The product's name.
    pub title: &'static str,
    /// The hook events (or plugin hooks) riskgate registers.
    pub events: &'static [&'static str],
    /// The answers riskgate sends it (what the agent accepts and honours).
    pub answers: &'static [&'static str],
    /// Whether it can put riskgate's "ask" to its user.
    pub ask: AskSupport,
    /// What it does when the hook fails, as installed.
    pub on_failure: OnFailure,
    /// The failure behaviour in a few words.
    pub failure: &'static str,
    /// The hook file in a project, relative to its root.
    pub project_file: &'static str,
    /// The user's hook file.
    pub user_file: UserPath,
    /// How that file is laid out.
    pub layout: Layout,
    /// A condition of the agent's for project hooks, said after a project install.
    pub project_note: Option<&'static str>,
    /// A condition of the agent's for every hook, project or user, said after any install.
    pub agent_note: Option<&'static str>,
    /// Programs that show the agent is installed (looked up on `PATH`).
    pub programs: &'static [&'static str],
    /// A directory under home that shows the agent was used.
    pub home_dir: &'static str,
    /// Where the protocol was verified, and which version (`docs/protocols.md`).
    pub source: &'static str,
}

const fn home(base: &'static str, file: &'static str) -> UserPath {
    UserPath {
        var: None,
        base,
        file,
    }
}

const fn under(var: &'static str, base: &'static str, file: &'static str) -> UserPath {
    UserPath {
        var: Some(var),
        base,
        file,
    }
}

/// Every agent riskgate has an adapter for, in documentation order.
pub const AGENTS: [AgentInfo; 13] = [
    AgentInfo {
        agent: Agent::Claude,
        name: "claude",
        aliases: &["claude-code"],
        title: "Claude Code",
        events: &["PreToolUse", "PostToolUse"],
        answers: &["allow", "ask", "deny"],
        ask: AskSupport::Native,
        on_failure: OnFailure::Closed,
        failure: "closed (`onFailure: block`); an unreadable answer with exit 0 runs",
        project_file: ".claude/settings.json",
        user_file: home(".claude", "settings.json"),
        layout: Layout::Grouped,
        project_note: None,
        agent_note: None,
        programs: &["claude"],
        home_dir: ".claude",
        source: "@anthropic-ai/claude-code 2.1.330 (package)",
    },
    AgentInfo {
        agent: Agent::Gemini,
        name: "gemini",
        aliases: &["gemini-cli"],
        title: "Gemini CLI",
        events: &["BeforeTool", "AfterTool"],
        answers: &["allow", "deny", "ask (hooks.ask_fallback: ask)"],
        ask: AskSupport::ByPolicy,
        on_failure: OnFailure::Open,
        failure: "open (timeout, spawn error, exit 1, unreadable answer)",
        project_file: ".gemini/settings.json",
        user_file: home(".gemini", "settings.json"),
        layout: Layout::Grouped,
        project_note: Some("Gemini CLI runs project hooks only in trusted folders."),
        agent_note: None,
        programs: &["gemini"],
        home_dir: ".gemini",
        source: "@google/gemini-cli 0.61.0 (package)",
    },
    AgentInfo {
        agent: Agent::Codex,
        name: "codex",
        aliases: &["codex-cli"],
        title: "Codex CLI",
        events: &["PreToolUse"],
        answers: &["deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (every failure)",
        project_file: ".codex/hooks.json",
        user_file: under("CODEX_HOME", ".codex", "hooks.json"),
        layout: Layout::Grouped,
        project_note: Some("Codex runs a new or changed hook only after you trust it in /hooks."),
        agent_note: None,
        programs: &["codex"],
        home_dir: ".codex",
        source: "@openai/codex 0.169.0 (package, source)",
    },
    AgentInfo {
        agent: Agent::Cursor,
        name: "cursor",
        aliases: &[],
        title: "Cursor",
        events: &[
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
        ],
        answers: &["allow", "ask", "deny (reads: allow, deny)"],
        ask: AskSupport::Native,
        on_failure: OnFailure::Partly,
        failure: "closed (`failClosed`), reads open",
        project_file: ".cursor/hooks.json",
        user_file: home(".cursor", "hooks.json"),
        layout: Layout::Flat(true),
        project_note: Some("Cursor runs project hooks only in trusted workspaces."),
        agent_note: None,
        programs: &["cursor-agent", "cursor"],
        home_dir: ".cursor",
        source: "cursor.com/docs (documentation only)",
    },
    AgentInfo {
        agent: Agent::Copilot,
        name: "copilot",
        aliases: &["copilot-cli"],
        title: "Copilot CLI",
        events: &["preToolUse", "postToolUse"],
        answers: &["allow", "ask", "deny"],
        ask: AskSupport::Native,
        on_failure: OnFailure::Partly,
        failure: "closed on a crash, open on a timeout or an unreadable answer",
        project_file: ".github/hooks/riskgate.json",
        user_file: under("COPILOT_HOME", ".copilot", "hooks/riskgate.json"),
        layout: Layout::Flat(true),
        project_note: Some(
            "Copilot CLI 1.0.102 ran no repository hook (.github/hooks) in `copilot -p`, in a trusted folder too (scripts/e2e.py): install with --user for non-interactive runs.",
        ),
        agent_note: None,
        programs: &["copilot"],
        home_dir: ".copilot",
        source: "@github/copilot 1.0.102 (documentation, package strings)",
    },
    AgentInfo {
        agent: Agent::OpenCode,
        name: "opencode",
        aliases: &["open-code"],
        title: "OpenCode",
        events: &["tool.execute.before (plugin)"],
        answers: &["allow", "deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Closed,
        failure: "closed (the plugin throws)",
        project_file: ".opencode/plugins/riskgate.js",
        user_file: under("XDG_CONFIG_HOME", ".config", "opencode/plugins/riskgate.js"),
        layout: Layout::Owned,
        project_note: Some("OpenCode loads plugins when it starts: restart it."),
        agent_note: None,
        programs: &["opencode"],
        home_dir: ".config/opencode",
        source: "opencode-ai 1.18.34 + @opencode-ai/plugin 1.18.33 (package)",
    },
    AgentInfo {
        agent: Agent::Kilo,
        name: "kilo",
        aliases: &["kilocode", "kilo-code"],
        title: "Kilo Code CLI",
        events: &["tool.execute.before (plugin)"],
        answers: &["allow", "deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Closed,
        failure: "closed (the plugin throws)",
        project_file: ".kilo/plugins/riskgate.js",
        user_file: under("XDG_CONFIG_HOME", ".config", "kilo/plugins/riskgate.js"),
        layout: Layout::Owned,
        project_note: Some("Kilo loads plugins when it starts: restart it."),
        agent_note: None,
        programs: &["kilo", "kilocode"],
        home_dir: ".config/kilo",
        source: "@kilocode/cli 7.7.9 (package)",
    },
    AgentInfo {
        agent: Agent::Windsurf,
        name: "windsurf",
        aliases: &["cascade"],
        title: "Windsurf (Cascade)",
        events: &[
            "pre_run_command",
            "pre_write_code",
            "pre_read_code",
            "pre_mcp_tool_use",
        ],
        answers: &["allow (exit 0)", "deny (exit 2)"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (only exit 2 blocks)",
        project_file: ".windsurf/hooks.json",
        user_file: home(".codeium/windsurf", "hooks.json"),
        layout: Layout::Flat(false),
        project_note: None,
        agent_note: None,
        programs: &["windsurf"],
        home_dir: ".codeium/windsurf",
        source: "docs.windsurf.com cascade/hooks (documentation only)",
    },
    AgentInfo {
        agent: Agent::Cline,
        name: "cline",
        aliases: &[],
        title: "Cline",
        events: &["PreToolUse (hook file)"],
        answers: &["allow", "deny (cancel)"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (timeout, exit 1, bad output)",
        project_file: ".clinerules/hooks/PreToolUse",
        user_file: under("CLINE_DIR", ".cline", "hooks/PreToolUse"),
        layout: Layout::Owned,
        project_note: None,
        agent_note: None,
        programs: &["cline"],
        home_dir: ".cline",
        source: "cline 3.0.65, @cline/core 0.0.86 (package)",
    },
    AgentInfo {
        agent: Agent::Qwen,
        name: "qwen",
        aliases: &["qwen-code"],
        title: "Qwen Code",
        events: &["PreToolUse"],
        answers: &["allow", "deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (timeout, spawn error, exit 1, unreadable answer)",
        project_file: ".qwen/settings.json",
        user_file: home(".qwen", "settings.json"),
        layout: Layout::Grouped,
        project_note: Some("Qwen Code runs project hooks only in trusted folders."),
        agent_note: None,
        programs: &["qwen"],
        home_dir: ".qwen",
        source: "@qwen-code/qwen-code 0.15.10 (package)",
    },
    AgentInfo {
        agent: Agent::Droid,
        name: "droid",
        aliases: &["factory", "factory-droid"],
        title: "Factory Droid",
        events: &["PreToolUse"],
        answers: &["allow", "deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (only exit 2 and deny block)",
        project_file: ".factory/settings.json",
        user_file: home(".factory", "settings.json"),
        layout: Layout::Grouped,
        project_note: None,
        agent_note: None,
        programs: &["droid"],
        home_dir: ".factory",
        source: "@factory/cli 0.225.2 (package)",
    },
    AgentInfo {
        agent: Agent::Augment,
        name: "augment",
        aliases: &["auggie"],
        title: "Augment (Auggie CLI)",
        events: &["PreToolUse"],
        answers: &["allow", "deny"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Open,
        failure: "open (only exit 2 and deny block)",
        project_file: ".augment/settings.json",
        user_file: home(".augment", "settings.json"),
        layout: Layout::Grouped,
        project_note: None,
        agent_note: Some(
            "Auggie runs hooks only when your Augment tenant has its `enableHooks` feature flag on \
             (docs/protocols.md); without it no hook runs.",
        ),
        programs: &["auggie"],
        home_dir: ".augment",
        source: "@augmentcode/auggie 0.36.0 (package)",
    },
    AgentInfo {
        agent: Agent::Goose,
        name: "goose",
        aliases: &[],
        title: "Goose",
        events: &["PreToolUse (plugin hook)"],
        answers: &["allow", "deny (block)"],
        ask: AskSupport::Never,
        on_failure: OnFailure::Closed,
        failure: "closed (`on_failure: block`)",
        project_file: ".agents/plugins/riskgate/hooks/hooks.json",
        user_file: home(".agents", "plugins/riskgate/hooks/hooks.json"),
        layout: Layout::Owned,
        project_note: Some("Goose loads project plugins when it is started from the project."),
        agent_note: None,
        programs: &["goose"],
        home_dir: ".config/goose",
        source: "block/goose hooks guide @0825b57 (documentation only)",
    },
];

/// The table's row for `agent`.
pub fn info(agent: Agent) -> &'static AgentInfo {
    // every agent has a row (tested); the first row is a harmless fallback
    AGENTS
        .iter()
        .find(|i| i.agent == agent)
        .unwrap_or(&AGENTS[0])
}

/// The agent named `name` (or one of its aliases), any case.
pub fn by_name(name: &str) -> Option<Agent> {
    let n = name.to_ascii_lowercase();
    AGENTS
        .iter()
        .find(|i| i.name == n || i.aliases.contains(&n.as_str()))
        .map(|i| i.agent)
}

/// The README's agent table (events, answers, ask, failure), generated from [`AGENTS`].
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| agent | `riskgate install` | events | answers sent | a person must decide | on a hook failure |\n|---|---|---|---|---|---|\n",
    );
    for i in &AGENTS {
        let ask = match i.ask {
            AskSupport::Native => "ask",
            AskSupport::ByPolicy => "deny (ask with `hooks.ask_fallback: ask`)",
            AskSupport::Never => "deny",
        };
        out.push_str(&format!(
            "| {} | `{}` → `{}` | {} | {} | {} | {} |\n",
            i.title,
            i.name,
            i.project_file,
            i.events
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", "),
            i.answers.join(", "),
            ask,
            i.failure,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_has_one_row_and_names_are_unique() {
        for a in Agent::ALL {
            assert_eq!(AGENTS.iter().filter(|i| i.agent == a).count(), 1, "{a:?}");
            assert_eq!(info(a).agent, a);
            assert_eq!(by_name(info(a).name), Some(a));
        }
        let mut names: Vec<&str> = AGENTS
            .iter()
            .flat_map(|i| std::iter::once(i.name).chain(i.aliases.iter().copied()))
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a name or alias is used twice");
        assert_eq!(by_name("Claude-Code"), Some(Agent::Claude));
        assert_eq!(by_name("vim"), None);
    }

    #[test]
    fn the_readme_table_is_this_table() {
        let readme = include_str!("../../../README.md");
        assert!(
            readme.contains(&markdown_table()),
            "README.md's agent table differs from riskgate_hooks::agents::markdown_table():\n{}",
            markdown_table()
        );
    }
}
