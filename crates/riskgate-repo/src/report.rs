//! A repository scan's results, grouped by file: for each snippet and notice its position,
//! context, level, score and findings (each finding placed at its file, line and column).

use riskgate_model::{Assessment, Finding, RiskLevel};
use serde::Serialize;

use crate::FileKind;

/// What a result is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultKind {
    /// A shell command or script.
    Command,
    /// Code (Python, JavaScript …).
    Code,
    /// A finding that is not a command (an unpinned action …).
    Notice,
}

/// One rated snippet or notice.
#[derive(Debug, Clone, Serialize)]
pub struct ScanResult {
    /// 1-based line where it starts.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// Where in the file (`job build, step "Install"`).
    pub context: String,
    /// What it is.
    pub kind: ResultKind,
    /// The name that runs it (script, target, recipe, job), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What triggers it (`npm install`), when not its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The snippet (templates normalized), or the notice's matched text.
    pub text: String,
    /// Level after the policy.
    pub level: RiskLevel,
    /// Score after the policy.
    pub score: u8,
    /// Findings, highest first, each with its file, line and column.
    pub findings: Vec<Finding>,
    /// The assessment (for rendering the snippet with its spans underlined).
    #[serde(skip)]
    pub assessment: Option<Assessment>,
}

/// The results of one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// Path relative to the scanned root, `/` separators.
    pub path: String,
    /// How it was read.
    pub kind: FileKind,
    /// Highest level of its results (SAFE when none).
    pub level: RiskLevel,
    /// Its results, by position.
    pub results: Vec<ScanResult>,
}

/// Counts per level.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LevelCounts {
    /// SAFE results.
    pub safe: usize,
    /// LOW results.
    pub low: usize,
    /// MEDIUM results.
    pub medium: usize,
    /// HIGH results.
    pub high: usize,
    /// CRITICAL results.
    pub critical: usize,
}

impl LevelCounts {
    /// Count one result at `level`.
    pub fn add(&mut self, level: RiskLevel) {
        match level {
            RiskLevel::Safe => self.safe += 1,
            RiskLevel::Low => self.low += 1,
            RiskLevel::Medium => self.medium += 1,
            RiskLevel::High => self.high += 1,
            RiskLevel::Critical => self.critical += 1,
        }
    }

    /// Results at `level` or above.
    pub fn at_least(&self, level: RiskLevel) -> usize {
        [
            (RiskLevel::Safe, self.safe),
            (RiskLevel::Low, self.low),
            (RiskLevel::Medium, self.medium),
            (RiskLevel::High, self.high),
            (RiskLevel::Critical, self.critical),
        ]
        .iter()
        .filter(|(l, _)| *l >= level)
        .map(|(_, n)| n)
        .sum()
    }
}

/// A whole scan.
#[derive(Debug, Clone, Serialize)]
pub struct ScanReport {
    /// The scanned root as given.
    pub root: String,
    /// Files looked at (after ignore rules).
    pub files_seen: usize,
    /// Files read as CI, build or script files.
    pub files_read: usize,
    /// Highest level of any result.
    pub level: RiskLevel,
    /// Results per level.
    pub counts: LevelCounts,
    /// Files with their results, by path. Files whose results are all SAFE are kept (their
    /// results too): `--min-level` in the CLI filters what is shown.
    pub files: Vec<FileReport>,
}

impl ScanReport {
    /// A report of `files`, totals computed.
    pub fn new(
        root: impl Into<String>,
        files_seen: usize,
        mut files: Vec<FileReport>,
    ) -> ScanReport {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut counts = LevelCounts::default();
        let mut level = RiskLevel::Safe;
        for f in &mut files {
            f.results.sort_by_key(|r| (r.line, r.column));
            f.level = f
                .results
                .iter()
                .map(|r| r.level)
                .max()
                .unwrap_or(RiskLevel::Safe);
            level = level.max(f.level);
            for r in &f.results {
                counts.add(r.level);
            }
        }
        ScanReport {
            root: root.into(),
            files_seen,
            files_read: files.len(),
            level,
            counts,
            files,
        }
    }
}
