//! Dependencies declared in manifests: which were added (new third-party code), removed, or
//! changed version — and whether a version change crosses a major version (`^16` → `^18`, or
//! `0.4` → `0.5`), a potentially breaking upgrade.

use std::sync::LazyLock;

use regex::Regex;

use super::parse::{DiffLine, FileChange};

mod sources;
pub use sources::unreviewed_sources;

/// One dependency line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dep {
    /// Package name.
    pub name: String,
    /// Version specification as written.
    pub version: String,
    /// Line number.
    pub line: u32,
}

/// What changed in one manifest.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DepChanges {
    /// Dependencies that were not there before.
    pub added: Vec<Dep>,
    /// Version changes crossing a major version: (old, new).
    pub major: Vec<(Dep, Dep)>,
}

fn re(p: &str) -> Option<Regex> {
    Regex::new(p).ok()
}

static JSON_DEP: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"^\s*"(@?[A-Za-z0-9][\w.\-/@]*)"\s*:\s*"([^"]*)"\s*,?\s*$"#));
static VERSIONISH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"^\s*(?:[\^~<>=!]{0,3}\s*v?\d+(?:[.\w*+-]*)|\*|latest|next|x|workspace:.*|file:.*|link:.*|git\+.*|git://.*|github:.*|npm:.*|https?://.*|[\w-]+/[\w.-]+(?:#.*)?)(?:\s*(?:\|\||,|\s)\s*[\^~<>=!]{0,3}\s*v?\d[.\w*+-]*)*\s*$",
    )
});
static REQ_DEP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*((?:[<>=!~]=?|===)\s*[^\s;#]+(?:\s*,\s*[<>=!~]=?\s*[^\s;#,]+)*)?\s*(?:;.*)?(?:#.*)?$",
    )
});
static PEP621_DEP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([<>=!~^][^";]*)?(?:;[^"]*)?"\s*,?\s*$"#,
    )
});
static TOML_DEP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r#"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\.workspace)?\s*=\s*(\{.*\}|"[^"]*"|true)\s*$"#)
});
static GO_DEP: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"^\s*(?:require\s+)?([\w.-]+\.[\w.-]+/[\w./-]+)\s+(v\d[\w.+-]*)"));
static GEM_DEP: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"^\s*gem\s+['"]([\w.-]+)['"](?:\s*,\s*['"]([^'"]*)['"])?"#));
static GRADLE_DEP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*(?:implementation|api|compile|runtimeOnly|testImplementation|compileOnly|kapt|annotationProcessor|classpath)\s*\(?\s*['"]([\w.-]+:[\w.-]+)(?::([\w.+-]+))?['"]"#,
    )
});
static POM_ARTIFACT: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"<artifactId>\s*([\w.-]+)\s*</artifactId>"));

/// Keys of manifests that look like dependencies but are not.
const NOT_DEPS: [&str; 40] = [
    "name",
    "version",
    "description",
    "main",
    "module",
    "types",
    "typings",
    "license",
    "author",
    "private",
    "type",
    "homepage",
    "node",
    "npm",
    "yarn",
    "pnpm",
    "packageManager",
    "edition",
    "rust-version",
    "readme",
    "documentation",
    "repository",
    "resolver",
    "python",
    "requires-python",
    "build-backend",
    "publish",
    "build",
    "default-run",
    "path",
    "debug",
    "opt-level",
    "lto",
    "strip",
    "panic",
    "codegen-units",
    "incremental",
    "workspace",
    "members",
    "exclude",
];

fn dep(name: &str, version: &str, line: u32) -> Dep {
    Dep {
        name: name.to_string(),
        version: version.trim().to_string(),
        line,
    }
}

fn parse_line(file: &str, l: &DiffLine, has_dependency_tag: bool) -> Option<Dep> {
    let b = file.rsplit('/').next().unwrap_or(file);
    let t = l.text.as_str();
    let cap = |r: &Option<Regex>| r.as_ref().and_then(|r| r.captures(t));
    let group = |c: &regex::Captures<'_>, i: usize| {
        c.get(i).map(|m| m.as_str().to_string()).unwrap_or_default()
    };
    match b {
        "package.json" | "composer.json" | "deno.json" | "vcpkg.json" => {
            let c = cap(&JSON_DEP)?;
            let (name, version) = (group(&c, 1), group(&c, 2));
            if NOT_DEPS.contains(&name.as_str())
                || !VERSIONISH.as_ref().is_some_and(|r| r.is_match(&version))
            {
                return None;
            }
            Some(dep(&name, &version, l.line))
        }
        "pyproject.toml" | "Cargo.toml" | "Pipfile" => {
            if let Some(c) = cap(&PEP621_DEP) {
                return Some(dep(&group(&c, 1), &group(&c, 2), l.line));
            }
            let c = cap(&TOML_DEP)?;
            let (name, value) = (group(&c, 1), group(&c, 2));
            if NOT_DEPS.contains(&name.as_str()) {
                return None;
            }
            let ok = if value.starts_with('{') {
                ["version", "path", "git", "workspace", "registry"]
                    .iter()
                    .any(|k| value.contains(k))
            } else if value == "true" {
                t.contains(".workspace")
            } else {
                VERSIONISH
                    .as_ref()
                    .is_some_and(|r| r.is_match(value.trim_matches('"')))
            };
            ok.then(|| dep(&name, value.trim_matches('"'), l.line))
        }
        "go.mod" => cap(&GO_DEP).map(|c| dep(&group(&c, 1), &group(&c, 2), l.line)),
        "Gemfile" => cap(&GEM_DEP).map(|c| dep(&group(&c, 1), &group(&c, 2), l.line)),
        "build.gradle" | "build.gradle.kts" => {
            cap(&GRADLE_DEP).map(|c| dep(&group(&c, 1), &group(&c, 2), l.line))
        }
        "pom.xml" if has_dependency_tag => {
            cap(&POM_ARTIFACT).map(|c| dep(&group(&c, 1), "", l.line))
        }
        _ if b.starts_with("requirements") => {
            let tt = t.trim();
            if tt.is_empty() || tt.starts_with('#') || tt.starts_with('-') {
                return None;
            }
            cap(&REQ_DEP).map(|c| {
                dep(
                    &group(&c, 1).to_ascii_lowercase().replace('_', "-"),
                    &group(&c, 2),
                    l.line,
                )
            })
        }
        _ => None,
    }
}

/// The first one or two numeric components of a version specification.
fn major_minor(v: &str) -> Option<(u64, u64)> {
    let start = v.find(|c: char| c.is_ascii_digit())?;
    let rest = v.get(start..)?;
    let mut parts = rest.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
    Some((major, minor))
}

/// True when going from `old` to `new` crosses a major version (or a 0.x minor).
pub fn is_major_change(old: &str, new: &str) -> bool {
    match (major_minor(old), major_minor(new)) {
        (Some((a, am)), Some((b, bm))) => a != b || (a == 0 && b == 0 && am != bm),
        _ => false,
    }
}

/// Dependency changes of one manifest.
pub fn changes(f: &FileChange) -> DepChanges {
    let path = f.path();
    let pom_added = f.added.iter().any(|l| l.text.contains("<dependency>"));
    let pom_removed = f.removed.iter().any(|l| l.text.contains("<dependency>"));
    let added: Vec<Dep> = f
        .added
        .iter()
        .filter_map(|l| parse_line(path, l, pom_added))
        .collect();
    let removed: Vec<Dep> = f
        .removed
        .iter()
        .filter_map(|l| parse_line(path, l, pom_removed))
        .collect();
    let mut out = DepChanges::default();
    for a in added {
        match removed.iter().find(|r| r.name == a.name) {
            None => out.added.push(a),
            Some(r) if is_major_change(&r.version, &a.version) => out.major.push((r.clone(), a)),
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::parse::parse_diff;

    fn one(path: &str, removed: &[&str], added: &[&str]) -> DepChanges {
        let mut d = format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{} +1,{} @@\n",
            removed.len(),
            added.len()
        );
        for r in removed {
            d.push_str(&format!("-{r}\n"));
        }
        for a in added {
            d.push_str(&format!("+{a}\n"));
        }
        parse_diff(&d)
            .files
            .first()
            .map(changes)
            .unwrap_or_default()
    }

    #[test]
    fn package_json() {
        let c = one(
            "package.json",
            &[r#"    "react": "^16.14.0","#],
            &[
                r#"    "react": "^18.2.0","#,
                r#"    "left-pad": "1.3.0""#,
                r#"  "version": "2.0.0","#,
                r#"    "build": "tsc -p .","#,
            ],
        );
        assert_eq!(
            c.added.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
            vec!["left-pad"]
        );
        assert_eq!(c.major.len(), 1);
        let c = one(
            "package.json",
            &[r#"    "lodash": "^4.17.20""#],
            &[r#"    "lodash": "^4.17.21""#],
        );
        assert!(c.added.is_empty() && c.major.is_empty());
    }

    #[test]
    fn other_manifests() {
        assert_eq!(
            one(
                "requirements.txt",
                &["flask==2.0.1"],
                &["flask==3.0.0", "requests>=2.31", "# comment", "-r base.txt"]
            )
            .added
            .len(),
            1
        );
        assert_eq!(
            one(
                "Cargo.toml",
                &[],
                &[
                    "serde = \"1\"",
                    "tokio = { version = \"1\", features = [\"full\"] }",
                    "edition = \"2024\"",
                    "lto = \"fat\""
                ]
            )
            .added
            .len(),
            2
        );
        assert_eq!(
            one("go.mod", &[], &["\tgithub.com/x/y v1.2.3"]).added.len(),
            1
        );
        assert_eq!(
            one(
                "pyproject.toml",
                &[],
                &["    \"httpx>=0.27\",", "name = \"app\""]
            )
            .added
            .len(),
            1
        );
        assert!(
            is_major_change("0.4.1", "0.5.0")
                && !is_major_change("1.2", "1.9")
                && is_major_change("^16", "^18")
        );
    }
}
