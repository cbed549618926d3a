//! Registering `riskgate hook <agent>` with each agent, and removing it: pure text → text
//! edits (the CLI does the file work: lock-free atomic write, a backup kept only while the
//! write is under way, `--dry-run`). Where each agent's file is and how it is laid out comes
//! from [`crate::agents::AGENTS`].
//!
//! - Settings and hooks files (JSON, or JSON with comments where the agent reads them):
//!   [`settings`]. riskgate's entries are added and removed as text, so every other byte of
//!   the file — comments, formatting, key order — stays as it was, and uninstalling gives the
//!   file back byte for byte (an empty `hooks` object or event list riskgate's entry was added
//!   to goes with it: nothing tells it from one riskgate created). A file left with nothing in it (`{}`, or Cursor's and Copilot's
//!   `{"version": 1}`) and no comment is removed.
//! - Files riskgate owns (OpenCode's and Kilo's plugin, Cline's hook script): [`owned`];
//!   written whole, removed on uninstall, never overwritten when someone else wrote them.
//!
//! Idempotent: an entry is riskgate's when its command runs `riskgate hook <agent>` (any path
//! to the binary); installing replaces riskgate's entries with one current entry (nothing
//! changes when that entry is already there, alone); uninstalling removes only riskgate's.

mod owned;
mod settings;

use std::path::{Path, PathBuf};

use crate::agents::Layout;
use crate::{Agent, HookError};

pub use owned::{cline_script, companion};

/// Where to install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The project's settings (under the project directory).
    Project,
    /// The user's settings (under the home directory).
    User,
}

/// What an edit does to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Nothing to do.
    Unchanged,
    /// Write this text.
    Write(String),
    /// Remove the file (riskgate's own file, or a settings file left empty).
    Delete,
}

/// The hook file of `agent` for `scope`. `env` reads environment variables.
pub fn settings_path(
    agent: Agent,
    scope: Scope,
    project: &Path,
    home: &Path,
    env: impl Fn(&str) -> Option<String>,
) -> PathBuf {
    let info = agent.info();
    match scope {
        Scope::Project => project.join(info.project_file),
        Scope::User => info.user_file.resolve(home, &env),
    }
}

/// Whether the file must be executable (Cline runs its hook files directly).
pub fn executable(agent: Agent) -> bool {
    agent == Agent::Cline
}

/// Whether `command` runs `riskgate hook <agent>`.
pub fn is_ours(command: &str, agent: Agent) -> bool {
    let words = split_words(command);
    words.windows(3).any(|w| {
        let prog = w[0].rsplit(['/', '\\']).next().unwrap_or(&w[0]);
        (prog == "riskgate" || prog == "riskgate.exe")
            && w[1] == "hook"
            && crate::agents::by_name(&w[2]) == Some(agent)
    })
}

/// The words of a command line: whitespace separates them, single and double quotes group
/// (the way riskgate writes its own command, `'/path with space/riskgate' hook claude`).
pub fn split_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        _ => cur.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The new text of `agent`'s file (`text`: its current content, `None` when missing) with the
/// hook running `command` (`riskgate hook claude`, or with a path).
pub fn install(
    agent: Agent,
    path: &Path,
    text: Option<&str>,
    command: &str,
) -> Result<Change, HookError> {
    match agent.info().layout {
        Layout::Owned => owned::install(agent, path, text, command),
        layout => settings::install(agent, layout, path, text, command),
    }
}

/// The new text of `agent`'s file without riskgate's hook.
pub fn uninstall(agent: Agent, path: &Path, text: Option<&str>) -> Result<Change, HookError> {
    let Some(text) = text else {
        return Ok(Change::Unchanged);
    };
    match agent.info().layout {
        Layout::Owned => Ok(owned::uninstall(agent, text)),
        layout => settings::uninstall(agent, layout, path, text),
    }
}

/// The command of riskgate's hook that `text` (the content of `agent`'s file) registers, if
/// any. An error when the file cannot be read as the agent's format.
pub fn registered(agent: Agent, path: &Path, text: &str) -> Result<Option<String>, HookError> {
    match agent.info().layout {
        Layout::Owned => Ok(owned::command(agent, text)),
        _ => settings::registered(agent, path, text),
    }
}

#[cfg(test)]
mod tests;
