//! `package.json`: every script of `scripts`, named by its key, with what triggers it — the
//! lifecycle hooks run by `npm install` (`preinstall`, `install`, `postinstall`, `prepare`),
//! `npm publish`/`npm pack`, `npm test`, `npm start`, and `preX`/`postX` around `npm run X`.

use crate::json::locate_member;
use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::LineIndex;

/// What runs a script named `name` besides `npm run NAME`.
pub fn trigger_of(name: &str) -> Option<String> {
    Some(match name {
        "preinstall" | "install" | "postinstall" | "prepare" | "preprepare" | "postprepare"
        | "dependencies" => "npm install".to_string(),
        "prepublish" | "prepublishOnly" | "publish" | "postpublish" => "npm publish".to_string(),
        "prepack" | "postpack" => "npm pack".to_string(),
        "pretest" | "test" | "posttest" => "npm test".to_string(),
        "prestart" | "start" | "poststart" => "npm start".to_string(),
        "prestop" | "stop" | "poststop" => "npm stop".to_string(),
        "prerestart" | "restart" | "postrestart" => "npm restart".to_string(),
        n => {
            let base = n.strip_prefix("pre").or_else(|| n.strip_prefix("post"))?;
            if base.is_empty() {
                return None;
            }
            format!("npm run {base}")
        }
    })
}

/// Extract a package.json.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let value: serde_json::Value = match serde_json::from_str(text) {
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
    let Some(scripts) = value.get("scripts").and_then(|s| s.as_object()) else {
        return out;
    };
    let index = LineIndex::new(text);
    let base = locate_member(text, 0, "scripts").unwrap_or(0);
    for (name, v) in scripts {
        let Some(cmd) = v.as_str() else { continue };
        let at = locate_member(text, base, name).unwrap_or(base);
        let (line, col) = index.pos(at + 1);
        let lines = (0..=cmd.matches('\n').count())
            .map(|_| (line, col))
            .collect();
        let mut s = Snippet::new(
            format!("script {name}"),
            cmd.to_string(),
            SnippetLang::Shell,
            lines,
        )
        .named(name.clone());
        if let Some(t) = trigger_of(name) {
            s = s.triggered_by(t);
        }
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_with_positions_and_triggers() {
        let src = "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"test\": \"jest\",\n    \"postinstall\": \"node setup.js\",\n    \"prebuild\": \"rimraf dist\"\n  }\n}\n";
        let out = extract(src);
        let s: Vec<(&str, (u32, u32), Option<&str>)> = out
            .snippets
            .iter()
            .map(|s| (s.text.as_str(), s.start(), s.trigger.as_deref()))
            .collect();
        assert!(s.contains(&("jest", (4, 14), Some("npm test"))), "{s:?}");
        assert!(
            s.contains(&("node setup.js", (5, 21), Some("npm install"))),
            "{s:?}"
        );
        assert!(
            s.contains(&("rimraf dist", (6, 18), Some("npm run build"))),
            "{s:?}"
        );
        assert_eq!(extract("{").notices.len(), 1);
        assert!(extract("[1]").snippets.is_empty());
    }
}
