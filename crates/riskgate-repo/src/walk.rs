//! The files of a tree that say what will run: a walk with `.gitignore` semantics (the `ignore`
//! crate, also outside a git repository), `.riskgateignore` files (same syntax: what a scan
//! must not read, such as test fixtures of dangerous pipelines), and directories that are
//! never a project's own (`.git`, `node_modules`, `target`, vendored code, virtualenvs)
//! skipped. Symbolic links are not followed. Extensionless files are read up to 128 bytes for
//! a shell shebang.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::FileKind;
use crate::kind::{kind_of, shebang_is_shell, wants_shebang};

/// Directory names never entered.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "bower_components",
    "target",
    "vendor",
    "third_party",
    "third-party",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".terraform",
];

/// The name of riskgate's ignore files.
pub const IGNORE_FILE: &str = ".riskgateignore";

/// A file to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Its path.
    pub path: PathBuf,
    /// Relative to the root, `/` separators.
    pub rel: String,
    /// How to read it.
    pub kind: FileKind,
    /// Its size in bytes.
    pub size: u64,
}

/// What a walk found.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    /// Files looked at.
    pub seen: usize,
    /// Files to read, by path.
    pub candidates: Vec<Candidate>,
    /// Entries that could not be read (`path: why`).
    pub errors: Vec<String>,
}

/// Walk `root` (a directory, or one file).
pub fn find_files(root: &Path) -> Walked {
    let mut out = Walked::default();
    if root.is_file() {
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let rel = root.to_string_lossy().replace('\\', "/");
        out.seen = 1;
        let kind = kind_of(&rel).or_else(|| {
            (wants_shebang(&name) && shebang_is_shell(&head(root))).then_some(FileKind::ShellScript)
        });
        if let Some(kind) = kind {
            let size = root.metadata().map(|m| m.len()).unwrap_or(0);
            out.candidates.push(Candidate {
                path: root.to_path_buf(),
                rel,
                kind,
                size,
            });
        }
        return out;
    }
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .parents(true)
        .follow_links(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && e.depth() > 0
                && SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
        })
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.errors.push(e.to_string());
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        out.seen += 1;
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let kind = match kind_of(&rel) {
            Some(k) => k,
            None if wants_shebang(&rel) && shebang_is_shell(&head(path)) => FileKind::ShellScript,
            None => continue,
        };
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        out.candidates.push(Candidate {
            path: path.to_path_buf(),
            rel,
            kind,
            size,
        });
    }
    out.candidates.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// The first bytes of a file (empty when unreadable).
fn head(path: &Path) -> Vec<u8> {
    let mut buf = Vec::with_capacity(128);
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(128).read_to_end(&mut buf);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_ci_files_and_respects_ignores() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |p: &str, s: &str| {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, s).unwrap();
        };
        write(".github/workflows/ci.yml", "on: push\n");
        write("node_modules/x/package.json", "{}");
        write("package.json", "{}");
        write("tests/fixtures/Makefile", "all:\n\ttrue\n");
        write(".riskgateignore", "tests/fixtures/\n");
        write(".gitignore", "build/\n");
        write("build/Dockerfile", "FROM x\n");
        write("bin/tool", "#!/usr/bin/env bash\necho hi\n");
        write("bin/other", "#!/usr/bin/env python3\n");
        write("README.md", "hi");
        let w = find_files(root);
        let rels: Vec<&str> = w.candidates.iter().map(|c| c.rel.as_str()).collect();
        assert_eq!(
            rels,
            vec![".github/workflows/ci.yml", "bin/tool", "package.json"]
        );
        assert!(w.seen >= 6);
    }
}
