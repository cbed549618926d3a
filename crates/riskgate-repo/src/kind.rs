//! Which files say what will run, told by their path (and, for an extensionless file, by a
//! shebang the caller read).

use std::fmt;

use serde::Serialize;

/// The kinds of file riskgate reads in a repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `.github/workflows/*.yml`.
    GithubWorkflow,
    /// `action.yml` / `action.yaml`: a composite action's steps.
    GithubAction,
    /// `.gitlab-ci.yml` (and `*.gitlab-ci.yml` includes).
    GitlabCi,
    /// `Dockerfile`, `Containerfile`, `*.dockerfile`, `Dockerfile.*`.
    Dockerfile,
    /// `Makefile`, `makefile`, `GNUmakefile`, `*.mk`.
    Makefile,
    /// `package.json`: npm/yarn/pnpm scripts, lifecycle hooks included.
    PackageJson,
    /// `pyproject.toml`: task runners' commands (hatch, pdm, poe, taskipy).
    Pyproject,
    /// `setup.py`: Python run by every install from source.
    SetupPy,
    /// `.pre-commit-config.yaml` (local hooks) and `.pre-commit-hooks.yaml`.
    PreCommit,
    /// `.devcontainer.json`, `.devcontainer/**/devcontainer.json`.
    Devcontainer,
    /// `justfile`, `Justfile`, `.justfile`, `*.just`.
    Justfile,
    /// `Taskfile.yml` and its variants.
    Taskfile,
    /// `*.sh`, `*.bash`, or a file whose shebang names a POSIX shell.
    ShellScript,
}

impl FileKind {
    /// The kebab-case name (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::GithubWorkflow => "github-workflow",
            FileKind::GithubAction => "github-action",
            FileKind::GitlabCi => "gitlab-ci",
            FileKind::Dockerfile => "dockerfile",
            FileKind::Makefile => "makefile",
            FileKind::PackageJson => "package-json",
            FileKind::Pyproject => "pyproject",
            FileKind::SetupPy => "setup-py",
            FileKind::PreCommit => "pre-commit",
            FileKind::Devcontainer => "devcontainer",
            FileKind::Justfile => "justfile",
            FileKind::Taskfile => "taskfile",
            FileKind::ShellScript => "shell-script",
        }
    }

    /// Whether a change to this kind of file changes what CI or a build runs.
    pub fn is_ci_or_build(self) -> bool {
        !matches!(self, FileKind::ShellScript)
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of the file at `path` (relative, `/` separators), from its name alone; `None` for
/// files riskgate does not read. Extensionless files are not shell scripts here: see
/// [`kind_of_with_shebang`].
pub fn kind_of(path: &str) -> Option<FileKind> {
    let path = path.trim_start_matches("./");
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let dir = path.get(..path.len() - name.len()).unwrap_or("");
    if (dir.ends_with(".github/workflows/") || dir == ".github/workflows/")
        && (lower.ends_with(".yml") || lower.ends_with(".yaml"))
    {
        return Some(FileKind::GithubWorkflow);
    }
    Some(match lower.as_str() {
        "action.yml" | "action.yaml" => FileKind::GithubAction,
        ".gitlab-ci.yml" | ".gitlab-ci.yaml" => FileKind::GitlabCi,
        "dockerfile" | "containerfile" => FileKind::Dockerfile,
        "makefile" | "gnumakefile" => FileKind::Makefile,
        "package.json" => FileKind::PackageJson,
        "pyproject.toml" => FileKind::Pyproject,
        "setup.py" => FileKind::SetupPy,
        ".pre-commit-config.yaml" | ".pre-commit-config.yml" | ".pre-commit-hooks.yaml" => {
            FileKind::PreCommit
        }
        ".devcontainer.json" => FileKind::Devcontainer,
        "devcontainer.json" if dir.contains(".devcontainer/") => FileKind::Devcontainer,
        "justfile" | ".justfile" => FileKind::Justfile,
        "taskfile.yml" | "taskfile.yaml" | "taskfile.dist.yml" | "taskfile.dist.yaml" => {
            FileKind::Taskfile
        }
        _ if lower.ends_with(".gitlab-ci.yml") => FileKind::GitlabCi,
        _ if lower.starts_with("dockerfile.")
            || lower.ends_with(".dockerfile")
            || lower.starts_with("containerfile.") =>
        {
            FileKind::Dockerfile
        }
        _ if lower.ends_with(".mk") => FileKind::Makefile,
        _ if lower.ends_with(".just") => FileKind::Justfile,
        _ if lower.ends_with(".sh") || lower.ends_with(".bash") => FileKind::ShellScript,
        _ => return None,
    })
}

/// Whether a file without an extension should be read for its shebang (the caller reads its
/// first bytes and calls [`shebang_is_shell`]).
pub fn wants_shebang(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    !name.contains('.') && !name.is_empty()
}

/// Whether `head` (the first bytes of a file) starts with a shebang naming a POSIX shell.
pub fn shebang_is_shell(head: &[u8]) -> bool {
    let Some(rest) = head.strip_prefix(b"#!") else {
        return false;
    };
    let line = rest.split(|b| *b == b'\n').next().unwrap_or(rest);
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let prog = first.rsplit('/').next().unwrap_or(first);
    let prog = if prog == "env" {
        match words.find(|w| !w.starts_with('-')) {
            Some(p) => p,
            None => return false,
        }
    } else {
        prog
    };
    matches!(prog, "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash")
}

/// [`kind_of`], or a shell script when `head` has a shell shebang and the name no extension.
pub fn kind_of_with_shebang(path: &str, head: &[u8]) -> Option<FileKind> {
    kind_of(path).or_else(|| {
        (wants_shebang(path) && shebang_is_shell(head)).then_some(FileKind::ShellScript)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_path() {
        assert_eq!(
            kind_of(".github/workflows/ci.yml"),
            Some(FileKind::GithubWorkflow)
        );
        assert_eq!(
            kind_of("sub/.github/workflows/x.yaml"),
            Some(FileKind::GithubWorkflow)
        );
        assert_eq!(kind_of(".github/ci.yml"), None);
        assert_eq!(kind_of("Dockerfile.dev"), Some(FileKind::Dockerfile));
        assert_eq!(kind_of("app/Containerfile"), Some(FileKind::Dockerfile));
        assert_eq!(kind_of("GNUmakefile"), Some(FileKind::Makefile));
        assert_eq!(
            kind_of(".devcontainer/devcontainer.json"),
            Some(FileKind::Devcontainer)
        );
        assert_eq!(kind_of("devcontainer.json"), None);
        assert_eq!(kind_of("scripts/x.sh"), Some(FileKind::ShellScript));
        assert_eq!(kind_of("README.md"), None);
        assert_eq!(kind_of("Taskfile.yml"), Some(FileKind::Taskfile));
    }

    #[test]
    fn shebangs() {
        assert!(shebang_is_shell(b"#!/bin/sh\necho"));
        assert!(shebang_is_shell(b"#!/usr/bin/env bash\n"));
        assert!(shebang_is_shell(b"#!/usr/bin/env -S bash -e\n"));
        assert!(!shebang_is_shell(b"#!/usr/bin/env python3\n"));
        assert!(!shebang_is_shell(b"echo hi"));
        assert_eq!(
            kind_of_with_shebang("bin/deploy", b"#!/bin/bash\n"),
            Some(FileKind::ShellScript)
        );
        assert_eq!(
            kind_of_with_shebang("bin/deploy.py", b"#!/bin/bash\n"),
            None
        );
    }
}
