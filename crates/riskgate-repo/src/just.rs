//! justfiles: a small line parser. A recipe is a line at column 0 `[@]name [params]: [deps]`
//! (not an assignment `:=`), its body the indented lines after it. `@` and `-` line prefixes are
//! dropped, `{{ … }}` interpolations become variables whose value is unknown, and a body
//! starting with a shebang (`#!/usr/bin/env python3`) is code in that language.

use crate::docker::shebang_lang;
use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::normalize_braces;

/// Extract a justfile.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let mut i = 0;
    let mut first = true;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        let Some(name) = recipe_name(line) else {
            continue;
        };
        let deps: Vec<String> = line
            .split_once(':')
            .map(|(_, d)| {
                d.split_whitespace()
                    .filter(|w| {
                        w.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    })
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let header_line = i as u32;
        let mut body: Vec<(String, u32, u32)> = Vec::new();
        while i < lines.len() {
            let l = lines[i];
            if !l.is_empty() && !l.starts_with([' ', '\t']) {
                break;
            }
            i += 1;
            let t = l.trim_start();
            if t.is_empty() {
                continue;
            }
            let indent = l.len() - t.len();
            let stripped = t.trim_start_matches(['@', '-']);
            let col = (indent + t.len() - stripped.len()) as u32 + 1;
            body.push((stripped.to_string(), i as u32, col));
        }
        if body.is_empty() {
            if !deps.is_empty() {
                let mut s = Snippet::new(
                    format!("recipe {name}"),
                    String::new(),
                    SnippetLang::Shell,
                    vec![(header_line, 1)],
                )
                .named(name.clone())
                .with_deps(deps);
                if first {
                    s = s.triggered_by("just");
                    first = false;
                }
                out.snippets.push(s);
            }
            continue;
        }
        let raw: String = body
            .iter()
            .map(|(t, _, _)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let (text, _) = normalize_braces(&raw);
        let lang = shebang_lang(&text).unwrap_or(SnippetLang::Shell);
        let lines_pos = body.iter().map(|(_, l, c)| (*l, *c)).collect();
        let mut s = Snippet::new(format!("recipe {name}"), text, lang, lines_pos)
            .named(name.clone())
            .with_deps(deps);
        if first {
            s = s.triggered_by("just");
            first = false;
        }
        out.push(s);
    }
    out
}

/// The recipe a header line starts, if it is one.
fn recipe_name(line: &str) -> Option<String> {
    if line.is_empty() || line.starts_with([' ', '\t', '#', '[']) {
        return None;
    }
    let colon = line.find(':')?;
    if line[colon..].starts_with(":=") {
        return None;
    }
    let head = line[..colon].trim_start_matches('@');
    let first = head.split_whitespace().next()?;
    if matches!(first, "set" | "alias" | "export" | "import" | "mod") || first.contains('=') {
        return None;
    }
    first
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        .then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::Language;

    #[test]
    fn recipes_and_shebangs() {
        let src = "set shell := [\"bash\", \"-c\"]\nversion := \"1\"\n\n# build it\nbuild target=\"x\": deps\n    @echo building {{target}}\n    cargo build\n\n[private]\npy:\n  #!/usr/bin/env python3\n  print('hi')\n";
        let out = extract(src);
        assert_eq!(out.snippets.len(), 2);
        assert_eq!(out.snippets[0].name.as_deref(), Some("build"));
        assert_eq!(
            out.snippets[0].text,
            "echo building ${TPL_TARGET}\ncargo build"
        );
        assert_eq!(out.snippets[0].start(), (6, 6));
        assert_eq!(out.snippets[0].trigger.as_deref(), Some("just"));
        assert_eq!(out.snippets[1].lang, SnippetLang::Code(Language::Python));
    }
}
