//! pre-commit: the `entry` (with its `args`) of hooks whose code is in this repository — the
//! `repo: local` hooks of `.pre-commit-config.yaml` and the hooks a `.pre-commit-hooks.yaml`
//! publishes — which run on every commit. `pygrep` and `fail` entries are patterns and
//! messages, not commands.

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, join_argv};
use crate::yaml::{self, Node, scalar_lines};

/// Extract `.pre-commit-config.yaml` or `.pre-commit-hooks.yaml`.
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
    // .pre-commit-hooks.yaml: a list of hooks
    for hook in doc.items() {
        one(&mut out, &index, hook);
    }
    for repo in doc.get("repos").map(Node::items).unwrap_or(&[]) {
        let url = repo.get("repo").and_then(Node::as_str).unwrap_or("");
        if url != "local" && url != "meta" {
            // a hook repository at a branch: whatever is pushed there runs on the next commit
            if let Some(rev) = repo.get("rev")
                && let Some(r) = rev.as_str()
                && !(r.len() == 40 && r.bytes().all(|b| b.is_ascii_hexdigit()))
                && !crate::github::is_version(r)
            {
                let at = repo.get("repo").map_or(rev.pos(), Node::pos);
                out.notice("precommit.rev-branch", at, format!("{url}@{r}"), "repos");
            }
            continue;
        }
        for hook in repo.get("hooks").map(Node::items).unwrap_or(&[]) {
            one(&mut out, &index, hook);
        }
    }
    out
}

fn one(out: &mut Extracted, index: &LineIndex<'_>, hook: &Node) {
    let language = hook
        .get("language")
        .and_then(Node::as_str)
        .unwrap_or("system");
    if matches!(language, "pygrep" | "fail") {
        return;
    }
    let Some(entry_node) = hook.get("entry") else {
        return;
    };
    let Some(entry) = entry_node.as_str() else {
        return;
    };
    let id = hook.get("id").and_then(Node::as_str).unwrap_or("hook");
    let args: Vec<String> = hook
        .get("args")
        .map(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect();
    let text = if args.is_empty() {
        entry.to_string()
    } else {
        format!("{entry} {}", join_argv(&args))
    };
    let lines = scalar_lines(index, entry_node, entry);
    out.push(
        Snippet::new(
            format!("hook {id} ({language})"),
            text,
            SnippetLang::Shell,
            lines,
        )
        .named(id)
        .triggered_by("git commit"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hooks_only() {
        let src = "repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n  - repo: local\n    hooks:\n      - id: tests\n        name: tests\n        entry: cargo test\n        language: system\n        args: [--quiet]\n      - id: no-todo\n        entry: 'TODO'\n        language: pygrep\n";
        let out = extract(src);
        assert_eq!(out.snippets.len(), 1);
        assert_eq!(out.snippets[0].text, "cargo test --quiet");
        assert_eq!(out.snippets[0].start(), (10, 16));
        let hooks = extract("- id: x\n  name: x\n  entry: ./check.sh\n  language: script\n");
        assert_eq!(hooks.snippets[0].text, "./check.sh");
    }
}
