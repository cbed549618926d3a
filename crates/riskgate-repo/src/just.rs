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
    let vars = assignments(&lines);
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
        let raw = substitute(&raw, &vars, &params(line));
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

/// Most variables of a justfile substituted.
const MAX_VARS: usize = 256;

/// The justfile's variables set to a plain string literal at the top level
/// (`bucket := "s3://b"`, `export ENV := 'prod'`): just pastes their value into the recipes, so
/// they are known text, not unknown variables. Values with escapes, concatenations, backticks
/// or function calls stay unknown.
fn assignments(lines: &[&str]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) || out.len() >= MAX_VARS {
            continue;
        }
        let Some((name, value)) = line.split_once(":=") else {
            continue;
        };
        let name = name.trim();
        let name = name.strip_prefix("export ").unwrap_or(name).trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            continue;
        }
        let v = value.trim();
        let literal = ['"', '\''].iter().find_map(|q| {
            let inner = v.strip_prefix(*q)?.strip_suffix(*q)?;
            (!inner.contains(*q) && !inner.contains('\\')).then_some(inner)
        });
        if let Some(literal) = literal {
            out.retain(|(n, _)| n != name);
            out.push((name.to_string(), literal.to_string()));
        }
    }
    out
}

/// The parameter names of a recipe header (`deploy env="dev" +args:` → `env`, `args`).
fn params(header: &str) -> Vec<String> {
    let head = header.split_once(':').map_or(header, |(h, _)| h);
    head.split_whitespace()
        .skip(1)
        .map(|w| {
            let w = w.trim_start_matches(['+', '*', '$']);
            w.split('=').next().unwrap_or(w).to_string()
        })
        .collect()
}

/// `{{ name }}` of a known variable (not shadowed by a parameter) replaced by its value.
fn substitute(text: &str, vars: &[(String, String)], params: &[String]) -> String {
    if vars.is_empty() || !text.contains("{{") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        let after = &rest[i + 2..];
        let Some(end) = after.find("}}") else { break };
        let expr = after[..end].trim();
        out.push_str(&rest[..i]);
        match vars.iter().find(|(n, _)| n == expr) {
            Some((_, v)) if !params.iter().any(|p| p == expr) => out.push_str(v),
            _ => out.push_str(&rest[i..i + 2 + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
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

    #[test]
    fn literal_variables_are_pasted_in() {
        let src = "bucket := \"s3://open-data\"\nexport ctx := 'prod-eu'\nver := `git describe`\ntarget := \"shadowed\"\n\npush target=\"x\":\n    aws s3 cp out.sql {{ bucket }}/out.sql --context {{ctx}}\n    echo {{ver}} {{target}}\n";
        let out = extract(src);
        assert_eq!(
            out.snippets[0].text,
            "aws s3 cp out.sql s3://open-data/out.sql --context prod-eu\necho ${TPL_VER} ${TPL_TARGET}"
        );
    }
}
