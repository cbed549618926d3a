//! Dev containers (`.devcontainer/devcontainer.json`, `.devcontainer.json`, JSON with
//! comments): the lifecycle commands — `initializeCommand` (on the host, before the container
//! exists), `onCreateCommand`, `updateContentCommand`, `postCreateCommand`, `postStartCommand`,
//! `postAttachCommand`. Each is a shell string, an argv array, or an object of named commands
//! run in parallel (each a string or an array).

use serde_json::Value;

use crate::json::{locate_member, next_string, strip_jsonc};
use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, join_argv};

/// The lifecycle keys, in the order they run.
pub const LIFECYCLE: &[&str] = &[
    "initializeCommand",
    "onCreateCommand",
    "updateContentCommand",
    "postCreateCommand",
    "postStartCommand",
    "postAttachCommand",
];

/// Extract a devcontainer.json.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let clean = strip_jsonc(text);
    let value: Value = match serde_json::from_str(&clean) {
        Ok(v) => v,
        Err(e) => {
            out.not_analyzed(
                e.line() as u32,
                e.column() as u32,
                &format!("invalid JSON: {e}"),
            );
            return out;
        }
    };
    let index = LineIndex::new(text);
    for key in LIFECYCLE {
        let Some(v) = value.get(*key) else { continue };
        let at = locate_member(&clean, 0, key).unwrap_or(0);
        let trigger = if *key == "initializeCommand" {
            "devcontainer start (on the host)"
        } else {
            "devcontainer start"
        };
        match v {
            Value::Object(map) => {
                for (name, cmd) in map {
                    let sub = locate_member(&clean, at, name).unwrap_or(at);
                    one(
                        &mut out,
                        &index,
                        &clean,
                        cmd,
                        sub,
                        &format!("{key} {name}"),
                        trigger,
                    );
                }
            }
            other => one(&mut out, &index, &clean, other, at, key, trigger),
        }
    }
    out
}

fn one(
    out: &mut Extracted,
    index: &LineIndex<'_>,
    clean: &str,
    v: &Value,
    at: usize,
    ctx: &str,
    trigger: &str,
) {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect();
            join_argv(&argv)
        }
        _ => return,
    };
    let quote = next_string(clean, at).unwrap_or(at);
    let pos = index.pos(quote + 1);
    let lines = (0..=text.matches('\n').count()).map(|_| pos).collect();
    out.push(
        Snippet::new(ctx, text, SnippetLang::Shell, lines)
            .named(ctx)
            .triggered_by(trigger),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifecycle_commands_in_every_shape() {
        let src = "{\n  // the image\n  \"image\": \"x\",\n  \"postCreateCommand\": \"npm ci\",\n  \"initializeCommand\": [\"bash\", \"-c\", \"echo hi\"],\n  \"postStartCommand\": {\n    \"server\": \"npm start\",\n  },\n}\n";
        let out = extract(src);
        let s: Vec<(&str, &str, (u32, u32))> = out
            .snippets
            .iter()
            .map(|s| (s.context.as_str(), s.text.as_str(), s.start()))
            .collect();
        assert_eq!(s[0], ("initializeCommand", "bash -c 'echo hi'", (5, 26)));
        assert_eq!(s[1], ("postCreateCommand", "npm ci", (4, 25)));
        assert_eq!(s[2], ("postStartCommand server", "npm start", (7, 16)));
        assert_eq!(
            out.snippets[0].trigger.as_deref(),
            Some("devcontainer start (on the host)")
        );
    }
}
