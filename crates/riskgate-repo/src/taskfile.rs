//! Task (`Taskfile.yml`): the commands of every task — `cmds` items (strings, `cmd:`,
//! `defer:`), a single `cmd:`, or a task written as a string or a list. Go templates
//! (`{{.VAR}}`) become variables whose value is unknown; `task:` items call other tasks and are
//! rated where those are defined.

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, normalize_braces};
use crate::yaml::{self, Node, Y, scalar_lines};

/// Extract a Taskfile.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let doc = match yaml::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.not_analyzed(e.line, e.col, &format!("invalid YAML: {}", e.message));
            return out;
        }
    };
    let index = LineIndex::new(text);
    for (name, task) in doc
        .get("tasks")
        .map(Node::str_entries)
        .into_iter()
        .flatten()
    {
        let mut items: Vec<&Node> = Vec::new();
        match &task.v {
            Y::Str(_) => items.push(task),
            Y::Seq(list) => items.extend(list.iter()),
            Y::Map(_) => {
                if let Some(c) = task.get("cmd") {
                    items.push(c);
                }
                items.extend(task.get("cmds").map(Node::items).unwrap_or(&[]).iter());
            }
            _ => {}
        }
        for item in items {
            let cmd = match &item.v {
                Y::Str(_) => Some(item),
                Y::Map(_) => item
                    .get("cmd")
                    .or_else(|| item.get("defer"))
                    .filter(|n| n.as_str().is_some()),
                _ => None,
            };
            let Some(node) = cmd else { continue };
            let Some(value) = node.as_str() else { continue };
            let lines = scalar_lines(&index, node, value);
            let (text, _) = normalize_braces(value);
            out.push(
                Snippet::new(format!("task {name}"), text, SnippetLang::Shell, lines).named(name),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_in_every_shape() {
        let src = "version: '3'\ntasks:\n  build:\n    cmds:\n      - go build ./...\n      - cmd: echo {{.NAME}}\n      - task: lint\n  lint: golangci-lint run\n  clean:\n    cmd: rm -rf dist\n";
        let out = extract(src);
        let s: Vec<(&str, &str, u32)> = out
            .snippets
            .iter()
            .map(|s| {
                (
                    s.name.as_deref().unwrap_or(""),
                    s.text.as_str(),
                    s.start().0,
                )
            })
            .collect();
        assert_eq!(
            s,
            vec![
                ("build", "go build ./...", 5),
                ("build", "echo ${TPL_NAME}", 6),
                ("lint", "golangci-lint run", 8),
                ("clean", "rm -rf dist", 10)
            ]
        );
    }
}
