//! Python projects: `pyproject.toml` (the commands of task runners that live there — hatch
//! environment scripts, PDM scripts, poethepoet and taskipy tasks) read with `toml`'s spans,
//! and `setup.py` (Python that every install from source runs), as code.

use riskgate_model::Language;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, follow_lines};

/// Extract `setup.py`: the whole file is Python run by `pip install .` / `python setup.py`.
pub fn extract_setup_py(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let lines = (1..=text.matches('\n').count() as u32 + 1)
        .map(|l| (l, 1))
        .collect();
    out.push(
        Snippet::new(
            "setup.py",
            text.to_string(),
            SnippetLang::Code(Language::Python),
            lines,
        )
        .named("setup.py")
        .triggered_by("pip install"),
    );
    out
}

/// Extract `pyproject.toml`.
pub fn extract_pyproject(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let doc = match DeTable::parse(text) {
        Ok(d) => d,
        Err(e) => {
            let index = LineIndex::new(text);
            let (l, c) = e.span().map_or((1, 1), |s| index.pos(s.start));
            out.not_analyzed(l, c, &format!("invalid TOML: {}", e.message()));
            return out;
        }
    };
    let index = LineIndex::new(text);
    let root = doc.get_ref();
    let Some(tool) = table(root, "tool") else {
        return out;
    };
    if let Some(envs) = table(tool, "hatch").and_then(|h| table(h, "envs")) {
        for (env, v) in envs {
            if let DeValue::Table(t) = v.get_ref()
                && let Some(scripts) = table(t, "scripts")
            {
                for (name, cmd) in scripts {
                    commands(
                        &mut out,
                        &index,
                        cmd,
                        &format!("hatch env {} script {}", env.get_ref(), name.get_ref()),
                        name.get_ref(),
                        &["cmd"],
                    );
                }
            }
        }
    }
    if let Some(scripts) = table(tool, "pdm").and_then(|p| table(p, "scripts")) {
        for (name, cmd) in scripts {
            if name.get_ref() == "_" {
                continue;
            }
            commands(
                &mut out,
                &index,
                cmd,
                &format!("pdm script {}", name.get_ref()),
                name.get_ref(),
                &["cmd", "shell", "composite"],
            );
        }
    }
    if let Some(tasks) = table(tool, "poe").and_then(|p| table(p, "tasks")) {
        for (name, cmd) in tasks {
            commands(
                &mut out,
                &index,
                cmd,
                &format!("poe task {}", name.get_ref()),
                name.get_ref(),
                &["cmd", "shell", "sequence"],
            );
        }
    }
    if let Some(tasks) = table(tool, "taskipy").and_then(|p| table(p, "tasks")) {
        for (name, cmd) in tasks {
            commands(
                &mut out,
                &index,
                cmd,
                &format!("taskipy task {}", name.get_ref()),
                name.get_ref(),
                &["cmd"],
            );
        }
    }
    out
}

fn table<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<&'a DeTable<'i>> {
    t.iter()
        .find(|(k, _)| k.get_ref() == key)
        .and_then(|(_, v)| match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        })
}

/// A command value: a string, an array of strings (a sequence), or a table whose `keys` hold
/// them.
fn commands(
    out: &mut Extracted,
    index: &LineIndex<'_>,
    v: &Spanned<DeValue<'_>>,
    ctx: &str,
    name: &str,
    keys: &[&str],
) {
    match v.get_ref() {
        DeValue::String(s) => {
            let start = v.span().start;
            let quote = index.text().get(start..).map_or(1, |r| {
                if r.starts_with("\"\"\"") || r.starts_with("'''") {
                    3
                } else {
                    1
                }
            });
            let (l, c) = index.pos(start + quote);
            let multiline = quote == 3
                && index
                    .text()
                    .get(start + 3..)
                    .is_some_and(|r| r.starts_with('\n') || r.starts_with("\r\n"));
            let first = (!multiline).then_some((l, c));
            let lines = follow_lines(index, first, l + 1, s);
            out.push(Snippet::new(ctx, s.to_string(), SnippetLang::Shell, lines).named(name));
        }
        DeValue::Array(items) => {
            for item in items.iter().take(256) {
                commands(out, index, item, ctx, name, keys);
            }
        }
        DeValue::Table(t) => {
            for (k, item) in t {
                if keys.contains(&k.get_ref().as_ref()) {
                    commands(out, index, item, ctx, name, keys);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_runners() {
        let src = "[project]\nname = \"x\"\n\n[tool.hatch.envs.default.scripts]\ntest = \"pytest\"\nall = [\"ruff check\", \"pytest -x\"]\n\n[tool.pdm.scripts]\nclean = {shell = \"rm -rf build\"}\n\n[tool.poe.tasks]\nlint = \"ruff .\"\n[tool.poe.tasks.deploy]\ncmd = \"\"\"\n./deploy.sh\n\"\"\"\n";
        let out = extract_pyproject(src);
        let s: Vec<(&str, (u32, u32))> = out
            .snippets
            .iter()
            .map(|s| (s.text.as_str(), s.start()))
            .collect();
        assert!(s.contains(&("pytest", (5, 9))), "{s:?}");
        assert!(s.contains(&("pytest -x", (6, 23))), "{s:?}");
        assert!(s.contains(&("rm -rf build", (9, 19))), "{s:?}");
        assert!(s.contains(&("ruff .", (12, 9))), "{s:?}");
        assert!(
            s.iter()
                .any(|(t, p)| t.trim() == "./deploy.sh" && p.0 == 15),
            "{s:?}"
        );
        assert_eq!(extract_pyproject("[x\n").notices.len(), 1);
    }
}
