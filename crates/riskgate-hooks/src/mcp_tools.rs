//! MCP tools whose arguments carry something riskgate can judge — a shell command, SQL, code,
//! a file path (write, edit, delete, move, read) or a URL — and in which arguments. The
//! knowledge is data, `data/mcp_tools.json`: entries of server-name and tool-name globs, an
//! analyzer and, per role, the argument names to try. [`expand`] adds, after each
//! [`Tool::Mcp`] an entry covers, the [`Tool`]s its arguments describe, so they go through the
//! same gate as the agent's own shell, file and fetch tools (blocklist, overrides, blocked
//! paths, path classes, the SQL and code analyzers). MCP tools no entry covers keep the generic
//! treatment of [`crate::judge`] (the policy's `mcp.tools` level, secrets, command-like
//! arguments). Bounded: at most [`MAX_TARGETS`] tools per call; past that the call is
//! [`Mapping::truncated`] and the judge asks.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use riskgate::model::{Language, WriteOp};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::request::Tool;

const TABLE_JSON: &str = include_str!("../data/mcp_tools.json");

/// Most tools one MCP call expands to (paths of `read_multiple_files`, URLs …).
pub const MAX_TARGETS: usize = 256;

/// What an entry's arguments are judged as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Analyzer {
    /// `command` (a string, or an argv array), `args` appended, run in `dir`.
    Shell,
    /// `sql`, with a dialect guessed from the server name.
    Sql,
    /// `code` in `language` (or the entry's default).
    Code,
    /// A write of `content` to `path`.
    Write,
    /// An edit of `path` with `content`.
    Edit,
    /// A deletion of every `path`.
    Delete,
    /// `source` moved to `destination`: the source is removed, the destination written.
    Move,
    /// A read of every `path`.
    Read,
    /// A fetch of every `url`.
    Fetch,
}

/// One entry of the table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A name for people (shown in reasons).
    pub name: String,
    /// Globs over the server name (`*` any text, case ignored).
    pub servers: Vec<String>,
    /// Globs over the tool name.
    pub tools: Vec<String>,
    /// The analyzer.
    pub analyzer: Analyzer,
    /// The default language of a code entry.
    #[serde(default)]
    pub language: Option<Language>,
    /// Role → argument names to try, in order.
    pub roles: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
struct Table {
    #[allow(dead_code)]
    about: String,
    entries: Vec<Entry>,
}

/// The table, parsed on first use; an unreadable table (a test guards against it) is empty
/// and every MCP tool keeps the generic treatment.
pub fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| match serde_json::from_str::<Table>(TABLE_JSON) {
        Ok(t) => t.entries,
        Err(e) => {
            crate::warn::warn(format!("the MCP tool table cannot be read: {e}"));
            Vec::new()
        }
    })
}

/// `mcp__<server>__<tool>` → (server, tool).
pub fn split_name(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix("mcp__")?
        .split_once("__")
        .filter(|(s, t)| !s.is_empty() && !t.is_empty())
}

/// What an entry made of one MCP call.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// The entry's name.
    pub entry: &'static str,
    /// The analyzer.
    pub analyzer: Analyzer,
    /// The tools the arguments describe (at least one).
    pub tools: Vec<Tool>,
    /// More than [`MAX_TARGETS`] targets: the rest were not judged.
    pub truncated: bool,
}

/// The mapping of MCP tool `name` called with `input`: the first entry whose globs match and
/// whose required arguments are there.
pub fn map(name: &str, input: &Value) -> Option<Mapping> {
    let (server, tool) = split_name(name)?;
    let args = input.as_object()?;
    let server = server.to_ascii_lowercase();
    let tool = tool.to_ascii_lowercase();
    table()
        .iter()
        .filter(|e| e.servers.iter().any(|g| glob(g, &server)))
        .filter(|e| e.tools.iter().any(|g| glob(g, &tool)))
        .find_map(|e| apply(e, &server, args))
}

/// `tools` with, after each MCP tool an entry covers, the tools its arguments describe, each
/// with the name of the MCP tool it comes from.
pub fn expand(tools: &[Tool]) -> Vec<(Tool, Option<String>)> {
    let mut out = Vec::with_capacity(tools.len());
    for t in tools {
        out.push((t.clone(), None));
        if let Tool::Mcp { name, input } = t
            && let Some(m) = map(name, input)
        {
            out.extend(m.tools.into_iter().map(|x| (x, Some(name.clone()))));
        }
    }
    out
}

/// `*`-globs, ASCII case ignored (`text` is already lowercase).
fn glob(pattern: &str, text: &str) -> bool {
    let pattern = pattern.to_ascii_lowercase();
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for p in middle {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Collects argument strings up to [`MAX_TARGETS`].
struct Budget {
    left: usize,
    truncated: bool,
}

impl Budget {
    fn take(&mut self, v: Vec<String>) -> Vec<String> {
        if v.len() > self.left {
            self.truncated = true;
        }
        let n = v.len().min(self.left);
        self.left -= n;
        v.into_iter().take(n).collect()
    }
}

/// The strings of role `role`: the first argument name present that holds a string or strings.
fn role(e: &Entry, role: &str, args: &Map<String, Value>) -> Vec<String> {
    let Some(names) = e.roles.get(role) else {
        return Vec::new();
    };
    names
        .iter()
        .map(|n| strings(args, n))
        .find(|v| !v.is_empty())
        .unwrap_or_default()
}

/// The strings at argument path `path` (`a`, or `a[].b`).
fn strings(args: &Map<String, Value>, path: &str) -> Vec<String> {
    let leaf = |v: &Value| -> Vec<String> {
        match v {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        }
    };
    match path.split_once("[].") {
        Some((array, field)) => match args.get(array) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|i| i.as_object()?.get(field))
                .flat_map(leaf)
                .collect(),
            _ => Vec::new(),
        },
        None => args.get(path).map(leaf).unwrap_or_default(),
    }
}

fn quote_all(words: &[String]) -> String {
    words
        .iter()
        .map(|w| riskgate::gate::decide::shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn dialect(server: &str) -> Option<String> {
    let has = |n: &[&str]| n.iter().any(|x| server.contains(x));
    let d = if has(&[
        "postgres",
        "pg",
        "supabase",
        "neon",
        "cockroach",
        "redshift",
    ]) {
        "postgres"
    } else if has(&["mysql", "maria", "planetscale"]) {
        "mysql"
    } else if has(&["sqlite", "turso", "libsql"]) {
        "sqlite"
    } else {
        return None;
    };
    Some(d.to_string())
}

fn file_path(p: String) -> String {
    match p.strip_prefix("file://") {
        Some(rest) => rest.to_string(),
        None => p,
    }
}

fn apply(e: &'static Entry, server: &str, args: &Map<String, Value>) -> Option<Mapping> {
    let mut budget = Budget {
        left: MAX_TARGETS,
        truncated: false,
    };
    let write = |path: String, content: String, op: WriteOp| Tool::Write {
        path: file_path(path),
        content,
        op,
        language: None,
    };
    let tools: Vec<Tool> = match e.analyzer {
        Analyzer::Shell => {
            let names = e.roles.get("command")?;
            let (name, value) = names.iter().find_map(|n| Some((n, args.get(n)?)))?;
            let mut command = match value {
                Value::String(s) => s.clone(),
                Value::Array(_) => quote_all(&strings(args, name)),
                _ => return None,
            };
            if command.trim().is_empty() {
                return None;
            }
            let extra = role(e, "args", args);
            if !extra.is_empty() {
                command.push(' ');
                command.push_str(&quote_all(&extra));
            }
            let dir = role(e, "dir", args).into_iter().next();
            vec![Tool::Shell { command, dir }]
        }
        Analyzer::Sql => budget
            .take(role(e, "sql", args))
            .into_iter()
            .map(|sql| Tool::Sql {
                sql,
                dialect: dialect(server),
            })
            .collect(),
        Analyzer::Code => {
            let language = role(e, "language", args)
                .into_iter()
                .next()
                .and_then(|l| serde_json::from_value(Value::String(l.to_ascii_lowercase())).ok())
                .or(e.language);
            budget
                .take(role(e, "code", args))
                .into_iter()
                .map(|code| Tool::Code { code, language })
                .collect()
        }
        Analyzer::Write | Analyzer::Edit => {
            let path = role(e, "path", args).into_iter().next()?;
            let content = role(e, "content", args).join("\n");
            let op = if e.analyzer == Analyzer::Write {
                WriteOp::Write
            } else {
                WriteOp::Edit
            };
            vec![write(path, content, op)]
        }
        Analyzer::Delete => budget
            .take(role(e, "path", args))
            .into_iter()
            .map(|p| write(p, String::new(), WriteOp::Delete))
            .collect(),
        Analyzer::Move => {
            let source = role(e, "source", args).into_iter().next()?;
            let destination = role(e, "destination", args).into_iter().next()?;
            vec![
                write(source, String::new(), WriteOp::Delete),
                write(destination, String::new(), WriteOp::Write),
            ]
        }
        Analyzer::Read => budget
            .take(role(e, "path", args))
            .into_iter()
            .map(|p| Tool::Read { path: file_path(p) })
            .collect(),
        Analyzer::Fetch => budget
            .take(role(e, "url", args))
            .into_iter()
            .map(|url| Tool::Fetch { url })
            .collect(),
    };
    if tools.is_empty() {
        return None;
    }
    Some(Mapping {
        entry: &e.name,
        analyzer: e.analyzer,
        tools,
        truncated: budget.truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_table_reads_and_every_entry_has_the_roles_its_analyzer_needs() {
        assert!(table().len() >= 10);
        for e in table() {
            let needed: &[&str] = match e.analyzer {
                Analyzer::Shell => &["command"],
                Analyzer::Sql => &["sql"],
                Analyzer::Code => &["code"],
                Analyzer::Write | Analyzer::Edit | Analyzer::Delete | Analyzer::Read => &["path"],
                Analyzer::Move => &["source", "destination"],
                Analyzer::Fetch => &["url"],
            };
            for r in needed {
                assert!(e.roles.contains_key(*r), "{}: no `{r}` role", e.name);
            }
            assert!(!e.servers.is_empty() && !e.tools.is_empty(), "{}", e.name);
        }
    }

    #[test]
    fn globs() {
        assert!(glob("*shell*", "mcp-shell-server"));
        assert!(glob("*", ""));
        assert!(glob("read_file", "read_file"));
        assert!(!glob("read_file", "read_files"));
        assert!(glob("fetch_*", "fetch_url"));
        assert!(!glob("*_fetch", "fetch"));
        assert!(glob("a*b*c", "abc"));
        assert!(!glob("a*b*c", "acb"));
        assert!(glob("*sql*", "postgresql"));
    }

    #[test]
    fn names_split_at_the_first_double_underscore() {
        assert_eq!(
            split_name("mcp__fs__write_file"),
            Some(("fs", "write_file"))
        );
        assert_eq!(split_name("mcp__a__b__c"), Some(("a", "b__c")));
        assert_eq!(split_name("mcp____x"), None);
        assert_eq!(split_name("Bash"), None);
    }

    #[test]
    fn shell_servers_give_a_shell_command_with_argv_quoted_and_the_directory() {
        let m = map(
            "mcp__shell__shell_execute",
            &json!({"command": ["rm", "-rf", "my dir"], "directory": "/tmp"}),
        )
        .unwrap();
        assert_eq!(
            m.tools,
            vec![Tool::Shell {
                command: "rm -rf 'my dir'".into(),
                dir: Some("/tmp".into())
            }]
        );
        let m = map(
            "mcp__desktop-commander__start_process",
            &json!({"command": "ls", "timeout_ms": 5}),
        )
        .unwrap();
        assert_eq!(m.analyzer, Analyzer::Shell);
        // a shell server's tool without a command is not a command
        assert_eq!(
            map(
                "mcp__desktop-commander__read_file",
                &json!({"path": "/etc/shadow"})
            )
            .unwrap()
            .tools,
            vec![Tool::Read {
                path: "/etc/shadow".into()
            }]
        );
    }

    #[test]
    fn database_servers_give_sql_in_their_dialect() {
        let m = map("mcp__postgres__query", &json!({"sql": "DROP TABLE users"})).unwrap();
        assert_eq!(
            m.tools,
            vec![Tool::Sql {
                sql: "DROP TABLE users".into(),
                dialect: Some("postgres".into())
            }]
        );
        let m = map(
            "mcp__sqlite__write_query",
            &json!({"query": "DELETE FROM t"}),
        )
        .unwrap();
        assert_eq!(m.analyzer, Analyzer::Sql);
        // `query` on a search server is not SQL
        assert!(map("mcp__brave-search__search", &json!({"query": "drop table"})).is_none());
    }

    #[test]
    fn filesystem_tools_give_writes_edits_moves_and_reads() {
        let m = map(
            "mcp__filesystem__edit_file",
            &json!({"path": "a.py", "edits": [{"oldText": "x", "newText": "import os"}, {"oldText": "y", "newText": "os.system('x')"}]}),
        )
        .unwrap();
        assert_eq!(
            m.tools,
            vec![Tool::Write {
                path: "a.py".into(),
                content: "import os\nos.system('x')".into(),
                op: WriteOp::Edit,
                language: None
            }]
        );
        let m = map(
            "mcp__fs__move_file",
            &json!({"source": "a", "destination": "b"}),
        )
        .unwrap();
        assert_eq!(m.tools.len(), 2);
        let paths: Vec<String> = (0..300).map(|i| format!("f{i}")).collect();
        let m = map("mcp__fs__read_multiple_files", &json!({ "paths": paths })).unwrap();
        assert_eq!(m.tools.len(), MAX_TARGETS);
        assert!(m.truncated);
    }

    #[test]
    fn fetch_and_code_and_unknown_tools() {
        let m = map(
            "mcp__puppeteer__puppeteer_navigate",
            &json!({"url": "http://169.254.169.254/"}),
        )
        .unwrap();
        assert_eq!(
            m.tools,
            vec![Tool::Fetch {
                url: "http://169.254.169.254/".into()
            }]
        );
        let m = map(
            "mcp__jupyter__execute_cell",
            &json!({"code": "import shutil; shutil.rmtree('/')"}),
        )
        .unwrap();
        assert!(matches!(
            &m.tools[0],
            Tool::Code {
                language: Some(Language::Python),
                ..
            }
        ));
        assert!(map("mcp__github__create_issue", &json!({"title": "t"})).is_none());
        assert!(map("mcp__fs__write_file", &json!("not an object")).is_none());
        assert!(map("mcp__fs__write_file", &json!({"path": 3})).is_none());
    }
}
