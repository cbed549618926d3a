//! Where dependency code comes from (seed 003, "execute unreviewed third-party code"): a
//! dependency taken from a URL, a Git repository or a registry other than the ecosystem's
//! default is unreviewed third-party code whatever its version. Read from the added lines of
//! manifests (`package.json`, requirements files, `pyproject.toml`, `Pipfile`, `Cargo.toml`,
//! `Gemfile`, `go.mod` replacements), lockfiles (`resolved`/`source`/`remote` entries) and the
//! package managers' registry settings (`.npmrc`, `.yarnrc.yml`, `pip.conf`, `uv.toml`,
//! `.cargo/config.toml`).

use std::sync::LazyLock;

use regex::Regex;

use super::super::parse::FileChange;

/// A dependency (or a whole index) whose code does not come from the default registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Package name, or `index` for a registry setting, or `lockfile entry`.
    pub name: String,
    /// The URL, Git reference or registry, credentials removed.
    pub source: String,
    /// Line number in the new file.
    pub line: u32,
}

fn re(p: &str) -> Option<Regex> {
    Regex::new(p).ok()
}

/// Hosts of the default registries (npm, PyPI, crates.io, RubyGems, the Go proxy).
const DEFAULT_HOSTS: [&str; 11] = [
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "pypi.org",
    "pypi.python.org",
    "files.pythonhosted.org",
    "index.crates.io",
    "static.crates.io",
    "crates.io",
    "rubygems.org",
    "proxy.golang.org",
    "sum.golang.org",
];

/// Manifest keys whose values are URLs but not dependencies.
const NOT_DEPS: [&str; 12] = [
    "url",
    "homepage",
    "repository",
    "funding",
    "bugs",
    "email",
    "directory",
    "registry",
    "$schema",
    "web",
    "documentation",
    "source",
];

/// A JSON `"name": "spec"` pair.
static JSON_PAIR: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"^\s*"(@?[A-Za-z0-9][\w.\-/@]*)"\s*:\s*"([^"]*)"\s*,?\s*$"#));
/// An npm version spec that is not a registry version.
static NPM_REMOTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"^(?:git\+|git://|git@|github:|gitlab:|bitbucket:|gist:|https?://|[A-Za-z0-9][\w.-]*/[\w.-]+(?:#.*)?$)",
    )
});
/// A requirements line: an index option, or a URL / VCS requirement.
static REQ_INDEX: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"^\s*(?:-i|--index-url|--extra-index-url|-f|--find-links)(?:\s+|=)(\S+)"));
static REQ_URL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"^\s*(?:-e\s+|--editable(?:\s+|=))?(?:([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*@\s*)?((?:git\+|hg\+|svn\+|bzr\+)?[a-z]+://\S+)",
    )
});
/// A PEP 508 direct reference inside a TOML string: `"name @ https://…"`.
static PEP508_URL: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"^\s*"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*@\s*([^";]+)"#));
/// A TOML dependency table with a `git`, `url` or `registry` key.
static TOML_REMOTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*=\s*\{[^}]*\b(git|url|registry|registry-index)\s*=\s*"([^"]+)""#,
    )
});
/// A TOML index / source URL line (`url = "…"`, `index-url = "…"`, `index = "…"`).
static TOML_INDEX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r#"^\s*(?:url|index-url|extra-index-url|index|registry|default-index)\s*=\s*"([^"]+)""#)
});
/// Gemfile: a gem from Git, GitHub or another source; or a `source` line.
static GEM_REMOTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*gem\s+['"]([\w.-]+)['"].*?\b(?:git|github|source|path)\s*(?::|=>)\s*['"]([^'"]+)['"]"#,
    )
});
static GEM_SOURCE: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"^\s*source\s+['"]([^'"]+)['"]"#));
/// go.mod: `replace A [v] => B v` (a module replaced by another module, not a local path).
static GO_REPLACE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"^\s*(?:replace\s+)?([\w.-]+\.[\w.-]+/[\w./-]+)(?:\s+v\S+)?\s*=>\s*([\w.-]+\.[\w.-]+/[\w./-]+)\s+(v\S+)",
    )
});
/// Registry settings: `.npmrc` `registry=`, `.yarnrc.yml` `npmRegistryServer:`, pip/uv
/// `index-url`, Cargo `[registries]`/`[source]` entries.
static REGISTRY_SETTING: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*(?:@[\w.-]+:)?(?:registry|npmRegistryServer|index-url|extra-index-url|find-links|index|replace-with|default-index|url)\s*[=:]\s*["']?([^\s"']+)"#,
    )
});
/// Lockfile entries naming where a package came from.
static LOCK_SOURCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"^\s*(?:"resolved"\s*:\s*"|resolved\s+"|resolution:\s*\{?\s*tarball:\s*|tarball:\s*|source\s*=\s*"|source\s*=\s*\{\s*(?:git|url|registry)\s*=\s*"|url\s*=\s*"|remote:\s*)([^\s"',}]+)"#,
    )
});

fn host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let end = rest.find(['/', ':', '?', '#']).unwrap_or(rest.len());
    rest.get(..end).unwrap_or(rest)
}

/// The URL without user, password or token (`https://user:token@host/…` → `https://host/…`).
fn clean(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let path_start = rest.find('/').unwrap_or(rest.len());
            let (auth, path) = rest.split_at(path_start);
            let auth = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
            format!("{scheme}://{auth}{path}")
        }
        None => url.to_string(),
    }
}

/// True for a URL or Git reference outside the default registries; local paths are not.
fn is_foreign(spec: &str) -> bool {
    let s = spec.trim();
    if s.starts_with("git+")
        || s.starts_with("git://")
        || s.starts_with("git@")
        || s.starts_with("ssh://")
    {
        return true;
    }
    if s.contains("://") {
        let h = host(s).to_ascii_lowercase();
        // crates.io's Git index is the default registry too
        if s.contains("github.com/rust-lang/crates.io-index") {
            return false;
        }
        return !DEFAULT_HOSTS.iter().any(|d| h == *d);
    }
    false
}

fn src(name: &str, source: &str, line: u32) -> Source {
    Source {
        name: name.to_string(),
        source: clean(source.trim()),
        line,
    }
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn is_registry_settings(path: &str) -> bool {
    let b = base(path);
    matches!(
        b,
        ".npmrc" | ".yarnrc" | ".yarnrc.yml" | "pip.conf" | "pip.ini" | "uv.toml" | ".pnpmrc"
    ) || path.ends_with(".cargo/config.toml")
        || path.ends_with(".cargo/config")
}

fn cap<'t>(r: &LazyLock<Option<Regex>>, t: &'t str) -> Option<regex::Captures<'t>> {
    r.as_ref().and_then(|r| r.captures(t))
}

fn group(c: &regex::Captures<'_>, i: usize) -> String {
    c.get(i).map(|m| m.as_str().to_string()).unwrap_or_default()
}

/// One added line of `path`: the dependency or index it takes from outside the defaults.
fn line_source(path: &str, text: &str, line: u32) -> Option<Source> {
    let b = base(path);
    match b {
        "package.json" | "deno.json" | "composer.json" => {
            let c = cap(&JSON_PAIR, text)?;
            let (name, spec) = (group(&c, 1), group(&c, 2));
            if NOT_DEPS.contains(&name.as_str())
                || !NPM_REMOTE.as_ref().is_some_and(|r| r.is_match(&spec))
            {
                return None;
            }
            let foreign = if spec.contains("://") {
                is_foreign(&spec)
            } else {
                // `git@…`, `github:…`; the bare `owner/repo` shorthand only in package.json
                spec.contains(':') || b == "package.json"
            };
            foreign.then(|| src(&name, &spec, line))
        }
        "pyproject.toml" | "Pipfile" | "Cargo.toml" => {
            if let Some(c) = cap(&PEP508_URL, text) {
                let spec = group(&c, 2);
                return spec
                    .contains("://")
                    .then(|| src(&group(&c, 1), &spec, line));
            }
            if let Some(c) = cap(&TOML_REMOTE, text) {
                let (name, key, value) = (group(&c, 1), group(&c, 2), group(&c, 3));
                let foreign = key == "git" || key == "registry" || is_foreign(&value);
                return foreign.then(|| src(&name, &value, line));
            }
            let c = cap(&TOML_INDEX, text)?;
            let url = group(&c, 1);
            is_foreign(&url).then(|| src("index", &url, line))
        }
        "Gemfile" => {
            if let Some(c) = cap(&GEM_REMOTE, text) {
                let value = group(&c, 2);
                let local = text.contains("path:") || text.contains(":path");
                return (!local && (value.contains('/') || value.contains("://")))
                    .then(|| src(&group(&c, 1), &value, line));
            }
            let c = cap(&GEM_SOURCE, text)?;
            let url = group(&c, 1);
            is_foreign(&url).then(|| src("index", &url, line))
        }
        "go.mod" => {
            let c = cap(&GO_REPLACE, text)?;
            let (from, to) = (group(&c, 1), group(&c, 2));
            (from != to).then(|| src(&from, &format!("{to} {}", group(&c, 3)), line))
        }
        _ if b.starts_with("requirements") || b.starts_with("constraints") => {
            if let Some(c) = cap(&REQ_INDEX, text) {
                let url = group(&c, 1);
                return (is_foreign(&url) || !url.contains("://"))
                    .then(|| src("index", &url, line));
            }
            let c = cap(&REQ_URL, text)?;
            let name = c.get(1).map_or("requirement", |m| m.as_str());
            let url = group(&c, 2);
            is_foreign(&url).then(|| src(name, &url, line))
        }
        _ if is_registry_settings(path) => {
            let c = cap(&REGISTRY_SETTING, text)?;
            let url = group(&c, 1);
            (url.contains("://") && is_foreign(&url)).then(|| src("index", &url, line))
        }
        _ if super::super::paths::is_lockfile(path) => {
            let c = cap(&LOCK_SOURCE, text)?;
            let url = group(&c, 1);
            let url = url.strip_prefix("registry+").unwrap_or(&url);
            let url = url.strip_prefix("sparse+").unwrap_or(url);
            let foreign = url.contains("://") && is_foreign(url);
            foreign.then(|| src("lockfile entry", url, line))
        }
        _ => None,
    }
}

/// Dependencies of one changed file that come from a URL, Git or an unknown registry (added
/// lines only: what the change brings in).
pub fn unreviewed_sources(f: &FileChange) -> Vec<Source> {
    let path = f.path();
    f.added
        .iter()
        .filter_map(|l| line_source(path, &l.text, l.line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::parse::parse_diff;

    fn sources(path: &str, added: &[&str]) -> Vec<(String, String)> {
        let mut d = format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,0 +1,{} @@\n",
            added.len()
        );
        for a in added {
            d.push_str(&format!("+{a}\n"));
        }
        parse_diff(&d)
            .files
            .first()
            .map(unreviewed_sources)
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.name, s.source))
            .collect()
    }

    #[test]
    fn npm_specs_from_git_urls_and_shorthands_are_foreign() {
        let s = sources(
            "package.json",
            &[
                r#"    "left-pad": "git+https://github.com/someone/left-pad.git","#,
                r#"    "util": "someone/util#main","#,
                r#"    "tar": "https://evil.example/tar-1.0.0.tgz","#,
                r#"    "react": "^18.2.0","#,
                r#"    "lib": "file:../lib","#,
                r#"    "url": "git+https://github.com/acme/web.git""#,
                r#"    "ok": "https://registry.npmjs.org/ok/-/ok-1.0.0.tgz""#,
            ],
        );
        let names: Vec<&str> = s.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["left-pad", "util", "tar"]);
    }

    #[test]
    fn python_indexes_and_direct_references() {
        let s = sources(
            "requirements.txt",
            &[
                "--extra-index-url https://user:s3cret@pypi.evil.example/simple",
                "git+https://github.com/someone/pkg.git@main#egg=pkg",
                "mypkg @ https://files.example.net/mypkg-1.0.tar.gz",
                "requests==2.31.0",
                "-i https://pypi.org/simple",
            ],
        );
        assert_eq!(s.len(), 3);
        // credentials never reach the evidence
        assert_eq!(s[0].1, "https://pypi.evil.example/simple");
        let s = sources(
            "pyproject.toml",
            &[
                r#"    "pkg @ git+https://github.com/x/pkg.git","#,
                r#"tool = { git = "https://github.com/x/tool.git", rev = "abc" }"#,
                r#"httpx = "^0.27""#,
                r#"url = "https://pypi.internal.example/simple""#,
            ],
        );
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn cargo_gems_go_and_lockfiles() {
        assert_eq!(
            sources(
                "Cargo.toml",
                &[
                    r#"foo = { git = "https://github.com/x/foo" }"#,
                    r#"bar = { version = "1", registry = "corp" }"#,
                    r#"serde = { version = "1", features = ["derive"] }"#,
                ]
            )
            .len(),
            2
        );
        assert_eq!(
            sources(
                "Gemfile",
                &[
                    "gem 'rails', github: 'someone/rails'",
                    "gem 'pg', '~> 1.5'",
                    "source 'https://gems.evil.example'",
                    "source 'https://rubygems.org'",
                ]
            )
            .len(),
            2
        );
        assert_eq!(
            sources(
                "go.mod",
                &["replace github.com/acme/lib => github.com/someone/lib v1.2.3"]
            )
            .len(),
            1
        );
        assert!(sources("go.mod", &["replace github.com/acme/lib => ../lib"]).is_empty());
        let lock = sources(
            "package-lock.json",
            &[
                r#"      "resolved": "https://registry.npmjs.org/react/-/react-18.2.0.tgz","#,
                r#"      "resolved": "https://npm.evil.example/react/-/react-18.2.0.tgz","#,
            ],
        );
        assert_eq!(lock.len(), 1);
        assert_eq!(
            sources(
                "Cargo.lock",
                &[
                    r#"source = "registry+https://github.com/rust-lang/crates.io-index""#,
                    r#"source = "git+https://github.com/x/foo?rev=abc#abc""#,
                ]
            )
            .len(),
            1
        );
        assert_eq!(
            sources(".npmrc", &["registry=https://npm.evil.example/"]).len(),
            1
        );
        assert!(sources(".npmrc", &["registry=https://registry.npmjs.org/"]).is_empty());
    }
}
