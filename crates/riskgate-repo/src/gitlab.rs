//! GitLab CI (`.gitlab-ci.yml`): the `script`, `before_script` and `after_script` of every job
//! (hidden `.template` jobs included: other jobs extend them), of `default:` and of the top
//! level. Script items are strings or nested lists (YAML anchors, `!reference` lists).

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::LineIndex;
use crate::yaml::{self, Node, Y, scalar_lines};

/// Top-level keys that are not jobs.
const RESERVED: &[&str] = &[
    "stages",
    "variables",
    "include",
    "workflow",
    "image",
    "services",
    "cache",
    "types",
    "spec",
];

const SCRIPT_KEYS: &[&str] = &["before_script", "script", "after_script"];

/// Extract a GitLab CI file.
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
    for (name, value) in doc.str_entries() {
        if RESERVED.contains(&name) {
            continue;
        }
        if SCRIPT_KEYS.contains(&name) {
            scripts(&mut out, &index, value, &format!("global {name}"), "global");
            continue;
        }
        for key in SCRIPT_KEYS {
            if let Some(s) = value.get(key) {
                let ctx = if name == "default" {
                    format!("default {key}")
                } else {
                    format!("job {name}, {key}")
                };
                scripts(&mut out, &index, s, &ctx, name);
            }
        }
    }
    out
}

/// Each line of a script value (a string or a list, nested lists flattened) as a snippet.
fn scripts(out: &mut Extracted, index: &LineIndex<'_>, node: &Node, ctx: &str, job: &str) {
    let mut items: Vec<&Node> = Vec::new();
    flatten(node, &mut items, 0);
    for item in items {
        if let Some(value) = item.as_str() {
            let lines = scalar_lines(index, item, value);
            for (k, line) in value.split('\n').enumerate() {
                if let Some(var) = evaluates_untrusted(line) {
                    let pos = lines.get(k).copied().unwrap_or_else(|| item.pos());
                    out.notice("gitlab.untrusted-eval", pos, var, ctx);
                }
            }
            out.push(Snippet::new(ctx, value.to_string(), SnippetLang::Shell, lines).named(job));
        }
    }
}

/// Predefined variables whose text the author of a merge request or a commit chooses.
const UNTRUSTED_VARS: &[&str] = &[
    "CI_MERGE_REQUEST_TITLE",
    "CI_MERGE_REQUEST_DESCRIPTION",
    "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
    "CI_COMMIT_MESSAGE",
    "CI_COMMIT_TITLE",
    "CI_COMMIT_DESCRIPTION",
    "CI_COMMIT_BRANCH",
    "CI_COMMIT_REF_NAME",
    "CI_COMMIT_TAG_MESSAGE",
    "CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME",
];

/// The untrusted variable a line evaluates as code (`eval "$CI_MERGE_REQUEST_TITLE"`,
/// `sh -c "… $CI_COMMIT_MESSAGE"`), if any.
fn evaluates_untrusted(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let runs_text = words.contains(&"eval")
        || words
            .windows(2)
            .any(|p| matches!(p[0], "sh" | "bash" | "dash" | "zsh") && p[1] == "-c");
    if !runs_text {
        return None;
    }
    UNTRUSTED_VARS
        .iter()
        .find(|v| line.contains(&format!("${v}")) || line.contains(&format!("${{{v}}}")))
        .map(|v| format!("${v}"))
}

fn flatten<'a>(node: &'a Node, out: &mut Vec<&'a Node>, depth: usize) {
    match &node.v {
        Y::Seq(items) if depth < 16 => {
            for i in items {
                flatten(i, out, depth + 1);
            }
        }
        Y::Str(_) => out.push(node),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_defaults_and_nested_lists() {
        let src = "stages: [build]\nvariables:\n  X: \"1\"\ndefault:\n  before_script:\n    - echo setup\n.tpl: &tpl\n  - make deps\nbuild:\n  stage: build\n  script:\n    - *tpl\n    - make build\n    - |\n      ./deploy.sh\n      echo done\n";
        let out = extract(src);
        assert!(out.notices.is_empty(), "{:?}", out.notices);
        let texts: Vec<(&str, &str, u32)> = out
            .snippets
            .iter()
            .map(|s| (s.context.as_str(), s.text.as_str(), s.start().0))
            .collect();
        assert!(
            texts.contains(&("default before_script", "echo setup", 6)),
            "{texts:?}"
        );
        assert!(
            texts.contains(&("job build, script", "make build", 13)),
            "{texts:?}"
        );
        assert!(
            texts.contains(&("job build, script", "./deploy.sh\necho done\n", 15)),
            "{texts:?}"
        );
        assert!(texts.iter().any(|t| t.1 == "make deps"), "{texts:?}");
    }

    #[test]
    fn reference_tags_and_bad_yaml() {
        let src = ".setup:\n  script:\n    - echo a\njob:\n  script:\n    - !reference [.setup, script]\n    - echo b\n";
        let out = extract(src);
        assert!(out.snippets.iter().any(|s| s.text == "echo b"), "{out:?}");
        let bad = extract("job:\n  script: [\n");
        assert_eq!(bad.notices.len(), 1);
        assert_eq!(bad.notices[0].rule_id, "repo.not-analyzed");
    }
}
