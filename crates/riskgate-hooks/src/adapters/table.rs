//! Tool tables: agents whose tools differ only in names and argument keys are mapped by data,
//! not code. Each agent lists which of its tool names run a shell command, write, edit, delete
//! or read a file, fetch a URL or apply a patch; the argument keys are looked up in the order
//! given here (every agent's spelling: `file_path`, `filePath`, `path` …).

use serde_json::{Map, Value};

use super::{opt_str, req_str_any, summary};
use crate::HookError;
use crate::request::Tool;
use riskgate::model::WriteOp;

/// Which of an agent's tools do what.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolTable {
    /// Tools that run `command` (or `commands[]`), in `dir` when given.
    pub shell: &'static [&'static str],
    /// Tools that write a whole file.
    pub write: &'static [&'static str],
    /// Tools that edit part of a file.
    pub edit: &'static [&'static str],
    /// Tools that delete files.
    pub delete: &'static [&'static str],
    /// Tools that read a file.
    pub read: &'static [&'static str],
    /// Tools that fetch a URL.
    pub fetch: &'static [&'static str],
    /// Tools whose input is an apply_patch text (`*** Begin Patch` …).
    pub patch: &'static [&'static str],
    /// The prefix of MCP tools named `mcp__<server>__<tool>`, when the agent uses it.
    pub mcp_prefix: Option<&'static str>,
}

const COMMAND: [&str; 3] = ["command", "cmd", "command_line"];
const DIR: [&str; 4] = ["workdir", "dir_path", "directory", "cwd"];
const PATH: [&str; 5] = [
    "file_path",
    "filePath",
    "path",
    "absolute_path",
    "target_file",
];
const CONTENT: [&str; 5] = [
    "content",
    "file_content",
    "file_text",
    "contents",
    "new_text",
];
const NEW_TEXT: [&str; 6] = [
    "new_string",
    "newString",
    "new_str",
    "new_text",
    "content",
    "diff",
];
const PATHS: [&str; 4] = ["file_paths", "paths", "files", "filePaths"];
const PATCH: [&str; 4] = ["patchText", "input", "patch", "command"];

fn first_str(input: &Map<String, Value>, keys: &[&str]) -> Result<Option<String>, HookError> {
    for k in keys {
        if let Some(v) = opt_str(input, k)? {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// Strings of a list of paths (or of objects with a `path`).
fn paths(input: &Map<String, Value>) -> Result<Vec<String>, HookError> {
    for k in PATHS {
        match input.get(k) {
            Some(Value::String(s)) => return Ok(vec![s.clone()]),
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        Value::Object(o) => out.push(req_str_any(o, &PATH)?),
                        _ => return Err(HookError::field(k, "a list of paths")),
                    }
                }
                return Ok(out);
            }
            Some(Value::Null) | None => {}
            Some(_) => return Err(HookError::field(k, "a list of paths")),
        }
    }
    Ok(vec![req_str_any(input, &PATH)?])
}

/// The commands of a shell tool: `command` (a string, or an argv array), or `commands[]` of
/// strings or `{command, args}` objects.
fn commands(input: &Map<String, Value>) -> Result<Vec<String>, HookError> {
    let one = |v: &Value| -> Result<String, HookError> {
        match v {
            Value::String(s) => Ok(s.clone()),
            Value::Array(words) => {
                let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
                let words = words.ok_or_else(|| HookError::field("command", "a string"))?;
                Ok(words
                    .iter()
                    .map(|w| riskgate::gate::decide::shell_quote(w))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            Value::Object(o) => {
                let mut text = req_str_any(o, &COMMAND)?;
                if let Some(Value::Array(args)) = o.get("args") {
                    for a in args {
                        let a = a
                            .as_str()
                            .ok_or_else(|| HookError::field("args", "strings"))?;
                        text.push(' ');
                        text.push_str(&riskgate::gate::decide::shell_quote(a));
                    }
                }
                Ok(text)
            }
            _ => Err(HookError::field("command", "a string")),
        }
    };
    if let Some(v) = input.get("commands").filter(|v| !v.is_null()) {
        return match v {
            Value::Array(items) => items.iter().map(one).collect(),
            other => Ok(vec![one(other)?]),
        };
    }
    for k in COMMAND {
        if let Some(v) = input.get(k).filter(|v| !v.is_null()) {
            return Ok(vec![one(v)?]);
        }
    }
    Err(HookError::Malformed("`command` is missing".into()))
}

/// The new text of an edit: every `new_*` value (Augment numbers them: `new_str_1` …).
fn edit_text(input: &Map<String, Value>) -> Result<String, HookError> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(t) = first_str(input, &NEW_TEXT)? {
        parts.push(t);
    }
    let mut numbered: Vec<(u32, String)> = input
        .iter()
        .filter_map(|(k, v)| {
            let n = k.strip_prefix("new_str_")?.parse::<u32>().ok()?;
            Some((n, v.as_str()?.to_string()))
        })
        .collect();
    numbered.sort_unstable();
    parts.extend(numbered.into_iter().map(|(_, t)| t));
    if let Some(Value::Array(edits)) = input.get("edits") {
        for e in edits {
            if let Value::Object(e) = e
                && let Some(t) = first_str(e, &NEW_TEXT)?
            {
                parts.push(t);
            }
        }
    }
    Ok(parts.join("\n"))
}

impl ToolTable {
    /// What the tool `name` with arguments `input` does.
    pub fn tools(&self, name: &str, input: &Map<String, Value>) -> Result<Vec<Tool>, HookError> {
        let has = |list: &[&str]| list.contains(&name);
        if has(self.shell) {
            let dir = first_str(input, &DIR)?;
            return Ok(commands(input)?
                .into_iter()
                .map(|command| Tool::Shell {
                    command,
                    dir: dir.clone(),
                })
                .collect());
        }
        if has(self.write) {
            return Ok(vec![Tool::Write {
                path: req_str_any(input, &PATH)?,
                content: first_str(input, &CONTENT)?.unwrap_or_default(),
                op: WriteOp::Write,
                language: None,
            }]);
        }
        if has(self.edit) {
            return Ok(vec![Tool::Write {
                path: req_str_any(input, &PATH)?,
                content: edit_text(input)?,
                op: WriteOp::Edit,
                language: None,
            }]);
        }
        if has(self.delete) {
            return Ok(paths(input)?
                .into_iter()
                .map(|path| Tool::Write {
                    path,
                    content: String::new(),
                    op: WriteOp::Delete,
                    language: None,
                })
                .collect());
        }
        if has(self.read) {
            return Ok(paths(input)?
                .into_iter()
                .map(|path| Tool::Read { path })
                .collect());
        }
        if has(self.fetch) {
            let mut urls: Vec<String> = first_str(input, &["url"])?.into_iter().collect();
            if let Some(Value::Array(reqs)) = input.get("requests") {
                for r in reqs {
                    if let Value::Object(r) = r
                        && let Some(u) = opt_str(r, "url")?
                    {
                        urls.push(u);
                    }
                }
            }
            if let Some(p) = opt_str(input, "prompt")? {
                urls.extend(crate::url::urls_in(&p));
            }
            if urls.is_empty() {
                return Err(HookError::Malformed("a fetch without a `url`".into()));
            }
            return Ok(urls.into_iter().map(|url| Tool::Fetch { url }).collect());
        }
        if has(self.patch) {
            let text = req_str_any(input, &PATCH)?;
            let files = crate::patch::parse_patch(&text)?;
            if !files.is_empty() {
                return Ok(files);
            }
        }
        if let Some(prefix) = self.mcp_prefix
            && name.starts_with(prefix)
        {
            return Ok(vec![Tool::Mcp {
                name: name.to_string(),
                input: Value::Object(input.clone()),
            }]);
        }
        Ok(vec![Tool::Other {
            summary: summary(name, &Value::Object(input.clone())),
        }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const T: ToolTable = ToolTable {
        shell: &["sh"],
        write: &["w"],
        edit: &["e"],
        delete: &["rm"],
        read: &["r"],
        fetch: &["f"],
        patch: &["p"],
        mcp_prefix: Some("mcp__"),
    };

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn shapes_of_each_kind() {
        let t = T
            .tools(
                "sh",
                &obj(json!({"commands": ["ls", {"command": "rm", "args": ["-rf", "a b"]}]})),
            )
            .unwrap();
        assert_eq!(t.len(), 2);
        assert!(matches!(&t[1], Tool::Shell { command, .. } if command == "rm -rf 'a b'"));
        let t = T
            .tools(
                "e",
                &obj(json!({"path": "a.py", "new_str_2": "two", "new_str_1": "one"})),
            )
            .unwrap();
        assert!(matches!(&t[0], Tool::Write { content, .. } if content == "one\ntwo"));
        let t = T
            .tools("rm", &obj(json!({"file_paths": ["a", "b"]})))
            .unwrap();
        assert_eq!(t.len(), 2);
        let t = T
            .tools(
                "f",
                &obj(json!({"requests": [{"url": "https://x.test/a"}]})),
            )
            .unwrap();
        assert!(matches!(&t[0], Tool::Fetch { url } if url == "https://x.test/a"));
        assert!(T.tools("sh", &obj(json!({}))).is_err());
        assert!(T.tools("w", &obj(json!({"content": "x"}))).is_err());
        assert!(matches!(
            &T.tools("grep", &obj(json!({"q": 1}))).unwrap()[0],
            Tool::Other { .. }
        ));
        assert!(matches!(
            &T.tools("mcp__gh__x", &obj(json!({}))).unwrap()[0],
            Tool::Mcp { .. }
        ));
    }
}
