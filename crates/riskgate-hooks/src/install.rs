//! Registering `riskgate hook <agent>` in each agent's settings file, and removing it: pure
//! text → text edits (the CLI does the file work: backup, lock, atomic write, `--dry-run`).
//!
//! | agent | project file | user file | what is added |
//! |---|---|---|---|
//! | claude | `.claude/settings.json` | `~/.claude/settings.json` | `hooks.PreToolUse[]`: a matcher group for the judged tools, `timeout` 30 s, `onFailure: block`; `hooks.PostToolUse[]` (session approvals) |
//! | gemini | `.gemini/settings.json` | `~/.gemini/settings.json` | `hooks.BeforeTool[]`: an anchored matcher group, `timeout` 10000 ms; `hooks.AfterTool[]` |
//! | codex | `.codex/hooks.json` | `$CODEX_HOME/hooks.json` (`~/.codex`) | `hooks.PreToolUse[]`: `Bash`, `apply_patch`, MCP, `timeout` 30 s |
//! | cursor | `.cursor/hooks.json` | `~/.cursor/hooks.json` | `beforeShellExecution`, `beforeMCPExecution` (`failClosed`), `beforeReadFile` |
//! | copilot | `.github/hooks/riskgate.json` | `$COPILOT_HOME/hooks/riskgate.json` (`~/.copilot`) | `hooks.preToolUse[]` with `bash` and `powershell` |
//!
//! Idempotent: an entry is riskgate's when its command runs `riskgate hook <agent>` (any path
//! to the binary); installing replaces riskgate's entries with one current entry (nothing
//! changes when that entry is already there, alone); uninstalling removes only riskgate's
//! entries, and the groups, event lists and `hooks` object that they leave empty. Everything
//! else in the file is kept, in its order.

use std::path::{Path, PathBuf};

use crate::ordered::Json;
use crate::{Agent, HookError};

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
    /// Remove the file (riskgate's own file, left empty).
    Delete,
}

/// The settings file of `agent` for `scope`. `env` reads environment variables.
pub fn settings_path(
    agent: Agent,
    scope: Scope,
    project: &Path,
    home: &Path,
    env: impl Fn(&str) -> Option<String>,
) -> PathBuf {
    let var_dir = |var: &str, dflt: &str| {
        env(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(dflt))
    };
    match (agent, scope) {
        (Agent::Claude, Scope::Project) => project.join(".claude/settings.json"),
        (Agent::Claude, Scope::User) => home.join(".claude/settings.json"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Agent::Gemini, Scope::User) => home.join(".gemini/settings.json"),
        (Agent::Codex, Scope::Project) => project.join(".codex/hooks.json"),
        (Agent::Codex, Scope::User) => var_dir("CODEX_HOME", ".codex").join("hooks.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor/hooks.json"),
        (Agent::Cursor, Scope::User) => home.join(".cursor/hooks.json"),
        (Agent::Copilot, Scope::Project) => project.join(".github/hooks/riskgate.json"),
        (Agent::Copilot, Scope::User) => {
            var_dir("COPILOT_HOME", ".copilot").join("hooks/riskgate.json")
        }
    }
}

/// Whether the file at [`settings_path`] belongs to riskgate alone (removed when empty).
fn own_file(agent: Agent) -> bool {
    agent == Agent::Copilot
}

/// Whether `command` runs `riskgate hook <agent>`.
pub fn is_ours(command: &str, agent: Agent) -> bool {
    let words: Vec<&str> = command
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']))
        .collect();
    words.windows(3).any(|w| {
        let prog = w[0].rsplit(['/', '\\']).next().unwrap_or(w[0]);
        (prog == "riskgate" || prog == "riskgate.exe") && w[1] == "hook" && w[2] == agent.name()
    })
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn s(v: &str) -> Json {
    Json::String(v.to_string())
}

fn n(v: u64) -> Json {
    Json::Number(v.into())
}

/// How an agent's file is laid out.
enum Layout {
    /// `hooks.EVENT[]` of `{matcher, hooks: [entry]}` groups.
    Grouped,
    /// `hooks.EVENT[]` of entries, with a top-level `version`.
    Flat,
}

/// The entries riskgate adds: (event, group or entry).
fn ours(agent: Agent, command: &str) -> (Layout, Vec<(&'static str, Json)>) {
    let entry = |timeout: Json, extra: Vec<(&str, Json)>| {
        let mut e = vec![
            ("type", s("command")),
            ("command", s(command)),
            ("timeout", timeout),
        ];
        e.extend(extra);
        obj(e)
    };
    let group = |matcher: &str, e: Json| {
        obj(vec![
            ("matcher", s(matcher)),
            ("hooks", Json::Array(vec![e])),
        ])
    };
    match agent {
        Agent::Claude => {
            let m = "^(Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|WebFetch|mcp__.*)$";
            (
                Layout::Grouped,
                vec![
                    (
                        "PreToolUse",
                        group(m, entry(n(30), vec![("onFailure", s("block"))])),
                    ),
                    ("PostToolUse", group(m, entry(n(30), vec![]))),
                ],
            )
        }
        Agent::Gemini => {
            let m = "^(run_shell_command|write_file|replace|read_file|web_fetch|mcp_.*)$";
            (
                Layout::Grouped,
                vec![
                    ("BeforeTool", group(m, entry(n(10000), vec![]))),
                    ("AfterTool", group(m, entry(n(10000), vec![]))),
                ],
            )
        }
        Agent::Codex => (
            Layout::Grouped,
            vec![(
                "PreToolUse",
                group("^(Bash|apply_patch|mcp__.*)$", entry(n(30), vec![])),
            )],
        ),
        Agent::Cursor => {
            let e = |fail_closed: bool| {
                let mut v = vec![("command", s(command)), ("timeout", n(30))];
                if fail_closed {
                    v.push(("failClosed", Json::Bool(true)));
                }
                obj(v)
            };
            (
                Layout::Flat,
                vec![
                    ("beforeShellExecution", e(true)),
                    ("beforeMCPExecution", e(true)),
                    ("beforeReadFile", e(false)),
                ],
            )
        }
        Agent::Copilot => (
            Layout::Flat,
            vec![(
                "preToolUse",
                obj(vec![
                    ("type", s("command")),
                    ("bash", s(command)),
                    ("powershell", s(command)),
                    ("timeoutSec", n(30)),
                ]),
            )],
        ),
    }
}

fn entry_is_ours(e: &Json, agent: Agent) -> bool {
    ["command", "bash", "powershell"]
        .iter()
        .filter_map(|k| e.get(k).and_then(Json::as_str))
        .any(|c| is_ours(c, agent))
}

fn parse(path: &Path, text: Option<&str>) -> Result<Json, HookError> {
    let bad = |message: String| HookError::Settings {
        path: path.display().to_string(),
        message,
    };
    let doc = match text.filter(|t| !t.trim().is_empty()) {
        None => Json::Object(Vec::new()),
        Some(t) => serde_json::from_str::<Json>(t)
            .map_err(|e| bad(format!("not valid JSON ({e}); left untouched")))?,
    };
    if !matches!(doc, Json::Object(_)) {
        return Err(bad(
            "the top level is not a JSON object; left untouched".into()
        ));
    }
    match doc.get("hooks") {
        None | Some(Json::Object(_)) => {}
        Some(_) => return Err(bad("`hooks` is not an object; left untouched".into())),
    }
    if let Some(Json::Object(events)) = doc.get("hooks") {
        for (name, list) in events {
            if !matches!(list, Json::Array(_)) {
                return Err(bad(format!(
                    "`hooks.{name}` is not an array; left untouched"
                )));
            }
        }
    }
    Ok(doc)
}

/// Remove riskgate's entries for `agent`; true when something was removed.
fn strip(doc: &mut Json, agent: Agent) -> bool {
    let Some(Json::Object(events)) = doc.get_mut("hooks") else {
        return false;
    };
    let mut changed = false;
    for (_, list) in events.iter_mut() {
        let Json::Array(items) = list else { continue };
        let before = items.len();
        let mut out = Vec::with_capacity(items.len());
        for mut item in items.drain(..) {
            if entry_is_ours(&item, agent) {
                changed = true;
                continue;
            }
            if let Some(Json::Array(inner)) = item.get_mut("hooks") {
                let n = inner.len();
                inner.retain(|e| !entry_is_ours(e, agent));
                if inner.len() != n {
                    changed = true;
                    if inner.is_empty() {
                        continue;
                    }
                }
            }
            out.push(item);
        }
        *items = out;
        if items.is_empty() && before > 0 {
            *list = Json::Null;
        }
    }
    events.retain(|(_, l)| !matches!(l, Json::Null));
    if changed && events.is_empty() {
        doc.remove("hooks");
    }
    changed
}

fn count_ours(doc: &Json, agent: Agent, event: &str) -> (usize, bool, Vec<Json>) {
    let Some(Json::Array(items)) = doc.get("hooks").and_then(|h| h.get(event)) else {
        return (0, false, Vec::new());
    };
    let mut n = 0;
    let mut mixed = false;
    let mut found = Vec::new();
    for item in items {
        if entry_is_ours(item, agent) {
            n += 1;
            found.push(item.clone());
        } else if let Some(Json::Array(inner)) = item.get("hooks") {
            let k = inner.iter().filter(|e| entry_is_ours(e, agent)).count();
            n += k;
            if k > 0 {
                mixed |= inner.len() > k;
                found.push(item.clone());
            }
        }
    }
    (n, mixed, found)
}

fn render(doc: &Json) -> Result<String, HookError> {
    serde_json::to_string_pretty(doc)
        .map(|t| t + "\n")
        .map_err(|e| HookError::Internal(e.to_string()))
}

/// The new text of `agent`'s settings file (`text`: its current content, `None` when missing)
/// with the hook running `command` (`riskgate hook claude`, or with a path).
pub fn install(
    agent: Agent,
    path: &Path,
    text: Option<&str>,
    command: &str,
) -> Result<Change, HookError> {
    let mut doc = parse(path, text)?;
    let (layout, wanted) = ours(agent, command);
    let already = wanted.iter().all(|(event, want)| {
        let (n, mixed, found) = count_ours(&doc, agent, event);
        n == 1 && !mixed && found.first() == Some(want)
    }) && {
        // no riskgate entry for this agent under other events
        let total: usize = doc
            .get("hooks")
            .map(|h| match h {
                Json::Object(ev) => ev.iter().map(|(e, _)| count_ours(&doc, agent, e).0).sum(),
                _ => 0,
            })
            .unwrap_or(0);
        total == wanted.len()
    };
    if already && (matches!(layout, Layout::Grouped) || doc.get("version").is_some()) {
        return Ok(Change::Unchanged);
    }
    strip(&mut doc, agent);
    if matches!(layout, Layout::Flat)
        && doc.get("version").is_none()
        && let Json::Object(m) = &mut doc
    {
        m.insert(0, ("version".to_string(), n(1)));
    }
    if doc.get("hooks").is_none() {
        doc.set("hooks", Json::Object(Vec::new()));
    }
    if let Some(hooks) = doc.get_mut("hooks") {
        for (event, item) in wanted {
            match hooks.get_mut(event) {
                Some(Json::Array(items)) => items.push(item),
                _ => hooks.set(event, Json::Array(vec![item])),
            }
        }
    }
    let new = render(&doc)?;
    if text == Some(new.as_str()) {
        return Ok(Change::Unchanged);
    }
    Ok(Change::Write(new))
}

/// The new text of `agent`'s settings file without riskgate's hook.
pub fn uninstall(agent: Agent, path: &Path, text: Option<&str>) -> Result<Change, HookError> {
    let Some(text) = text else {
        return Ok(Change::Unchanged);
    };
    let mut doc = parse(path, Some(text))?;
    if !strip(&mut doc, agent) {
        return Ok(Change::Unchanged);
    }
    if own_file(agent) {
        let only_version = match &doc {
            Json::Object(m) => m.iter().all(|(k, _)| k == "version"),
            _ => false,
        };
        if only_version {
            return Ok(Change::Delete);
        }
    }
    Ok(Change::Write(render(&doc)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "riskgate hook claude";

    fn write(c: Change) -> String {
        match c {
            Change::Write(t) => t,
            other => panic!("expected a write, got {other:?}"),
        }
    }

    #[test]
    fn install_is_idempotent_and_keeps_other_settings() {
        let p = Path::new("settings.json");
        let user = r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-linter"}]}],"Stop":[]},"z":1}"#;
        let once = write(install(Agent::Claude, p, Some(user), CMD).unwrap());
        assert_eq!(
            install(Agent::Claude, p, Some(&once), CMD).unwrap(),
            Change::Unchanged
        );
        // one entry under PreToolUse, one under PostToolUse
        assert_eq!(once.matches("riskgate hook claude").count(), 2);
        assert!(once.contains("my-linter") && once.contains("\"model\": \"opus\""));
        assert!(once.find("\"model\"") < once.find("\"z\""));
        // another path to the binary replaces the entry, never adds one
        let moved = write(
            install(
                Agent::Claude,
                p,
                Some(&once),
                "/opt/bin/riskgate hook claude",
            )
            .unwrap(),
        );
        assert_eq!(moved.matches("hook claude").count(), 2);
        let back: serde_json::Value =
            serde_json::from_str(&write(uninstall(Agent::Claude, p, Some(&moved)).unwrap()))
                .unwrap();
        let orig: serde_json::Value = serde_json::from_str(user).unwrap();
        assert_eq!(back, orig);
    }

    #[test]
    fn own_file_is_deleted_when_empty_and_bad_files_are_left_alone() {
        let p = Path::new("riskgate.json");
        let t = write(install(Agent::Copilot, p, None, "riskgate hook copilot").unwrap());
        assert!(t.starts_with("{\n  \"version\": 1"));
        assert_eq!(
            uninstall(Agent::Copilot, p, Some(&t)).unwrap(),
            Change::Delete
        );
        assert!(install(Agent::Claude, p, Some("[1]"), CMD).is_err());
        assert!(install(Agent::Claude, p, Some("{\"hooks\": 3}"), CMD).is_err());
        assert!(install(Agent::Claude, p, Some("{oops"), CMD).is_err());
        assert!(is_ours(
            "'/usr/local/bin/riskgate' hook claude",
            Agent::Claude
        ));
        assert!(!is_ours("riskgate hook gemini", Agent::Claude));
    }
}
