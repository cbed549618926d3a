//! What an extractor finds: snippets that will run (with where each of their lines is in the
//! file) and notices (findings that are not commands).

use riskgate_model::Language;
use serde::Serialize;

use crate::FileKind;

/// How a snippet runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SnippetLang {
    /// A POSIX shell / bash script or command line.
    Shell,
    /// Code in a language (a `shell: python` step, `setup.py`, a `github-script`, a shebang
    /// recipe).
    Code(Language),
    /// PowerShell (`shell: pwsh`, `powershell`).
    PowerShell,
    /// Windows `cmd` (read as a shell command line).
    Cmd,
}

/// One piece of the file that will run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snippet {
    /// Where it is in the file: `job build, step "Install"`, `script postinstall`,
    /// `RUN`, `target deploy` …
    pub context: String,
    /// The name that runs it, when there is one: a package script, a make target, a just
    /// recipe, a task, a job (for the agent's view: `npm run NAME`, `make NAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When it runs, when not by its name: `npm install` for `postinstall` …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// What runs before it by name (make prerequisites, just dependencies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
    /// The text, templates normalized (`${{ x }}` → a variable, see [`crate::text`]).
    pub text: String,
    /// How it runs.
    pub lang: SnippetLang,
    /// Source position (1-based line, 1-based column) of the start of each line of `text`.
    pub lines: Vec<(u32, u32)>,
    /// The files the same build file installs (a Makefile's `install` recipes): deleting
    /// exactly those (`make uninstall`) removes what it put there, nothing of the system's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub installs: Vec<String>,
}

/// Whether `path` (as a deletion names it, maybe with a `*` in its file name) is one of
/// `installs` or a glob of the same directory whose fixed start covers an installed file's
/// whole stem (`/usr/local/lib/libx.*` for `/usr/local/lib/libx.so`; not `lib*`, not `*`).
pub fn installed_by(path: &str, installs: &[String]) -> bool {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    installs.iter().any(|i| {
        if i == path {
            return true;
        }
        let (idir, iname) = i.rsplit_once('/').unwrap_or(("", i));
        let Some(star) = name.find('*') else {
            return false;
        };
        let fixed = &name[..star];
        let stem = iname.split('.').next().unwrap_or(iname);
        dir == idir && !stem.is_empty() && fixed.starts_with(stem) && glob_name(name, iname)
    })
}

/// `*` in a file name matches any run of characters.
fn glob_name(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    if !name.starts_with(first) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..];
    for mid in parts.iter().skip(1).take(parts.len().saturating_sub(2)) {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

impl Snippet {
    /// A snippet whose lines start at the given positions.
    pub fn new(
        context: impl Into<String>,
        text: String,
        lang: SnippetLang,
        lines: Vec<(u32, u32)>,
    ) -> Snippet {
        Snippet {
            context: context.into(),
            name: None,
            trigger: None,
            deps: Vec::new(),
            text,
            lang,
            lines,
            installs: Vec::new(),
        }
    }

    /// With the name that runs it.
    pub fn named(mut self, name: impl Into<String>) -> Snippet {
        self.name = Some(name.into());
        self
    }

    /// With what runs before it.
    pub fn with_deps(mut self, deps: Vec<String>) -> Snippet {
        self.deps = deps;
        self
    }

    /// With what triggers it.
    pub fn triggered_by(mut self, trigger: impl Into<String>) -> Snippet {
        self.trigger = Some(trigger.into());
        self
    }

    /// The first line and column of the snippet.
    pub fn start(&self) -> (u32, u32) {
        self.lines.first().copied().unwrap_or((1, 1))
    }

    /// The source position of byte `offset` of [`Snippet::text`].
    pub fn position_of(&self, offset: usize) -> (u32, u32) {
        position_in(&self.text, &self.lines, offset)
    }
}

/// The source position of byte `offset` of `text`, whose lines start at `lines`.
pub fn position_in(text: &str, lines: &[(u32, u32)], offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = text.get(..offset).unwrap_or("");
    let index = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let (line, col) = lines.get(index).or(lines.last()).copied().unwrap_or((1, 1));
    let within = before.get(line_start..).map_or(0, |s| s.chars().count());
    (line, col.saturating_add(within as u32))
}

/// A finding that is not a command, by a rule of [`crate::rules`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The rule id (`gha.action-unpinned`).
    pub rule_id: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The text it is about (`actions/checkout@v4`).
    pub matched: String,
    /// Where (`job build, step 2`).
    pub context: String,
    /// What exactly, when the rule's description needs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Rule id of a file that could not be read or parsed.
pub const NOT_ANALYZED: &str = "repo.not-analyzed";

/// What one file will run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Extracted {
    /// The path, relative to the scanned root.
    pub path: String,
    /// The kind it was read as.
    pub kind: Option<FileKind>,
    /// The commands and code.
    pub snippets: Vec<Snippet>,
    /// Findings that are not commands.
    pub notices: Vec<Notice>,
}

impl Extracted {
    /// Add a notice.
    pub fn notice(
        &mut self,
        rule_id: &str,
        pos: (u32, u32),
        matched: impl Into<String>,
        context: impl Into<String>,
    ) {
        self.notices.push(Notice {
            rule_id: rule_id.to_string(),
            line: pos.0,
            column: pos.1,
            matched: matched.into(),
            context: context.into(),
            detail: None,
        });
    }

    /// Add a notice with a detail.
    pub fn notice_with(
        &mut self,
        rule_id: &str,
        pos: (u32, u32),
        matched: impl Into<String>,
        context: impl Into<String>,
        detail: impl Into<String>,
    ) {
        self.notice(rule_id, pos, matched, context);
        if let Some(n) = self.notices.last_mut() {
            n.detail = Some(detail.into());
        }
    }

    /// The file (or part of it) could not be analyzed: `why`.
    pub fn not_analyzed(&mut self, line: u32, column: u32, why: &str) {
        self.notice_with(NOT_ANALYZED, (line, column), "", "file", why);
    }

    /// Add a snippet unless its text is blank.
    pub fn push(&mut self, s: Snippet) {
        if !s.text.trim().is_empty() {
            self.snippets.push(s);
        }
    }
}
