//! Change sets (seed 003): classify a unified diff as A (safe: applied without asking), B
//! (confirm first) or C (refused: a person must do it), by the seed's risk matrix.
//!
//! Criteria, each reported with its file and line:
//!
//! | class | criterion ids |
//! |---|---|
//! | B | `files.count` (more than 3 files), `api.route`, `api.spec`, `api.signature`, `schema.migration`, `schema.ddl`, `breaking.major-upgrade`, `deps.manifest`, `deps.lockfile`, `ci.config`, `ci.docker`, `infra.config`, `config.env`, `config.file`, `production.file`, `deletion.file`, `deletion.sql`, `deletion.code`, `deletion.cleanup`, `data.write`, `permissions.file`, `permissions.file-mode` |
//! | C | `files.cumulative` (more than 10 files), `sensitive.secret`, `sensitive.env-secret`, `sensitive.file`, `sensitive.k8s-secret`, `permissions.grant`, `permissions.iam`, `permissions.rbac`, `permissions.acl`, `permissions.admin`, `permissions.dangerous-mode`, `deletion.database`, `deletion.recursive`, `system.admin`, `third-party.new-dependency`, `third-party.action`, `third-party.submodule`, `third-party.vendored`, `third-party.remote-script`, `environment.production` |
//!
//! Choices where the seed is ambiguous (its tables disagree with its lists):
//! - SQL `DROP TABLE`, `DELETE FROM`, `UPDATE … SET`, `INSERT` and `.env` changes are B, and C in
//!   production (the seed's "test vs production" table); `DROP DATABASE` is always C.
//! - A deleted file is B: it is recoverable from version control. `rm -r` of data paths is C;
//!   of build and cache directories (`build/`, `/var/lib/apt/lists/*`) B.
//! - A file made executable and plain `chmod`/`chown` are B; setuid, world-writable modes, IAM,
//!   RBAC, ACL, GRANT/REVOKE and admin rights are C.
//! - A version change of an existing dependency is B (C only for a new dependency); crossing a
//!   major version adds `breaking.major-upgrade`.
//! - Production escalates B to C when a B criterion modifies data or configuration
//!   (`data.write`, `deletion.sql`, `schema.*`, `config.*`, `production.file`).
//!
//! The five-level view: A ↦ SAFE (documentation only) or LOW, decision allow; B ↦ MEDIUM or
//! HIGH (each criterion carries its level), decision ask; C ↦ CRITICAL, decision deny.

mod criteria;
mod deps;
mod parse;
mod paths;

use riskgate_model::{ActionKind, Assessment, Decision, Finding, Location, RiskLevel};
use serde::{Deserialize, Serialize};

use crate::Environment;

pub use deps::is_major_change;
pub use parse::{ChangeStatus, DiffLine, FileChange, ParsedDiff, parse_diff, unquote};

/// Seed 003's classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum RiskClass {
    /// Safe: auto-execute.
    A,
    /// Confirm before executing.
    B,
    /// Forbidden: refuse, a person does it.
    C,
}

impl RiskClass {
    /// The decision of seed 003: A allow, B ask, C deny.
    pub fn decision(self) -> Decision {
        match self {
            RiskClass::A => Decision::Allow,
            RiskClass::B => Decision::Ask,
            RiskClass::C => Decision::Deny,
        }
    }

    /// The seed's name of the class.
    pub fn name(self) -> &'static str {
        match self {
            RiskClass::A => "safe",
            RiskClass::B => "confirm",
            RiskClass::C => "forbidden",
        }
    }
}

/// Options for classifying a change set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffOptions {
    /// The environment the change goes to; production escalates data changes from B to C.
    #[serde(default)]
    pub environment: Environment,
}

/// One criterion that fired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Criterion {
    /// Stable id (`deps.manifest`, `sensitive.secret` …).
    pub id: String,
    /// The class it asks for.
    pub class: RiskClass,
    /// Its five-level rating.
    pub level: RiskLevel,
    /// What fired, for a person.
    pub description: String,
    /// The file, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The first line where it fired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The text that made it fire (secrets redacted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// How often it fired in this file.
    pub occurrences: u32,
    /// True when it modifies data or configuration (escalated in production).
    pub data_modification: bool,
}

/// One file of the change set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileSummary {
    /// Path (the new one).
    pub path: String,
    /// The old path, for renames and copies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// Status.
    pub status: ChangeStatus,
    /// Binary.
    pub binary: bool,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
    /// Old mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_mode: Option<String>,
    /// New mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_mode: Option<String>,
}

/// The classification of a change set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangeSetReport {
    /// A, B or C.
    pub class: RiskClass,
    /// Allow, ask or deny (seed 003's AI behaviour for the class).
    pub decision: Decision,
    /// The five-level view.
    pub level: RiskLevel,
    /// Score 0-100.
    pub score: u8,
    /// The environment.
    pub environment: Environment,
    /// True when production escalated the class from B to C.
    pub escalated: bool,
    /// True when the diff could not be fully parsed (the class is then at least B).
    pub degraded: bool,
    /// One sentence.
    pub summary: String,
    /// The files.
    pub files: Vec<FileSummary>,
    /// Every criterion that fired, C first.
    pub criteria: Vec<Criterion>,
    /// The same as an assessment (one finding per criterion), for the gate and the audit log;
    /// its `input` is the diff with secrets redacted.
    pub assessment: Assessment,
}

/// Files above which a change set is B, and C (seed 003's cumulative risk).
pub const MANY_FILES: usize = 3;
/// See [`MANY_FILES`].
pub const TOO_MANY_FILES: usize = 10;

/// Classify a unified diff.
pub fn classify_diff(text: &str, opts: &DiffOptions) -> ChangeSetReport {
    classify_diff_with(text, opts, Vec::new())
}

/// [`classify_diff`] with criteria found by the caller (what changed CI and build files will
/// run, rated by the engine), classed with the seed's own.
pub fn classify_diff_with(
    text: &str,
    opts: &DiffOptions,
    extra: Vec<Criterion>,
) -> ChangeSetReport {
    let parsed = parse_diff(text);
    let mut sink = criteria::Sink::default();
    for f in &parsed.files {
        criteria::file_criteria(&mut sink, f);
    }
    let n = parsed.files.len();
    if n > TOO_MANY_FILES {
        sink.fire(
            "files.cumulative",
            RiskClass::C,
            RiskLevel::Critical,
            "Cumulative risk: more than 10 files affected",
            None,
            None,
            Some(format!("{n} files")),
            false,
        );
    } else if n > MANY_FILES {
        sink.fire(
            "files.count",
            RiskClass::B,
            RiskLevel::Medium,
            "More than 3 files affected",
            None,
            None,
            Some(format!("{n} files")),
            false,
        );
    }
    if parsed.incomplete {
        sink.fire(
            "parse.incomplete",
            RiskClass::B,
            RiskLevel::Medium,
            "The change set could not be fully parsed",
            None,
            None,
            None,
            false,
        );
    }
    let mut criteria = sink.out;
    criteria.extend(extra);
    let mut class = criteria
        .iter()
        .map(|c| c.class)
        .max()
        .unwrap_or(RiskClass::A);
    let mut escalated = false;
    if opts.environment.is_production() && class == RiskClass::B {
        let triggers: Vec<String> = criteria
            .iter()
            .filter(|c| c.data_modification)
            .map(|c| c.id.clone())
            .collect();
        if !triggers.is_empty() {
            class = RiskClass::C;
            escalated = true;
            let mut uniq = triggers;
            uniq.dedup();
            criteria.push(Criterion {
                id: "environment.production".into(),
                class: RiskClass::C,
                level: RiskLevel::Critical,
                description: "Production: data or configuration change escalated from B to C"
                    .into(),
                file: None,
                line: None,
                evidence: Some(uniq.join(", ")),
                occurrences: 1,
                data_modification: true,
            });
        }
    }
    criteria.sort_by(|a, b| b.class.cmp(&a.class).then(b.level.cmp(&a.level)));

    let files: Vec<FileSummary> = parsed
        .files
        .iter()
        .map(|f| FileSummary {
            path: f.path().to_string(),
            old_path: if matches!(f.status, ChangeStatus::Renamed | ChangeStatus::Copied) {
                f.old_path.clone()
            } else {
                None
            },
            status: f.status,
            binary: f.binary,
            added: f.added.len(),
            removed: f.removed.len(),
            old_mode: f.old_mode.clone(),
            new_mode: f.new_mode.clone(),
        })
        .collect();

    let mut findings: Vec<Finding> = criteria.iter().map(finding_of).collect();
    if class == RiskClass::A {
        let docs_only = parsed.files.iter().all(|f| paths::is_doc(f.path()));
        findings.push(if docs_only {
            Finding::new(
                "changeset.docs",
                RiskLevel::Safe,
                5,
                format!(
                    "Documentation only ({n} file{})",
                    if n == 1 { "" } else { "s" }
                ),
            )
        } else {
            Finding::new(
                "changeset.small",
                RiskLevel::Low,
                25,
                format!(
                    "Small, reversible change ({n} file{})",
                    if n == 1 { "" } else { "s" }
                ),
            )
        });
    }
    // the input is kept for the gate and the audit log, with secrets redacted: the findings'
    // redaction first (it names each kind), then everything the secrets table calls a secret,
    // placeholders included (a documented example key is still not repeated)
    let shown = crate::secrets::redact_text(text);
    let shown = riskgate_model::secrets::redact(&shown).into_owned();
    let mut assessment = Assessment::from_findings(ActionKind::ChangeSet, shown, findings);
    if parsed.incomplete {
        assessment.mark_degraded();
    }
    let (added, removed) = files
        .iter()
        .fold((0, 0), |(a, r), f| (a + f.added, r + f.removed));
    let summary = match criteria.first() {
        None => format!(
            "Class A ({}): {n} file{} changed (+{added} -{removed}), nothing requires confirmation",
            class.name(),
            if n == 1 { "" } else { "s" }
        ),
        Some(top) => format!(
            "Class {:?} ({}): {}{}",
            class,
            class.name(),
            top.description,
            if criteria.len() > 1 {
                format!(" (and {} more criteria)", criteria.len() - 1)
            } else {
                String::new()
            }
        ),
    };
    ChangeSetReport {
        class,
        decision: class.decision(),
        level: assessment.level,
        score: assessment.score,
        environment: opts.environment,
        escalated,
        degraded: parsed.incomplete,
        summary,
        files,
        criteria,
        assessment,
    }
}

fn finding_of(c: &Criterion) -> Finding {
    let score = match c.level {
        RiskLevel::Safe => 5,
        RiskLevel::Low => 25,
        RiskLevel::Medium => 48,
        RiskLevel::High => 66,
        RiskLevel::Critical => 88,
    };
    let mut f = Finding::new(
        format!("changeset.{}", c.id),
        c.level,
        score,
        c.description.clone(),
    )
    .reversible(c.class != RiskClass::C)
    .with_location(Location {
        file: c.file.clone(),
        line: c.line,
        context: (c.occurrences > 1).then(|| format!("{} occurrences", c.occurrences)),
        ..Location::default()
    });
    if let Some(e) = &c.evidence {
        f.matched = Some(e.clone());
    }
    if let Some(file) = &c.file {
        f.resources = vec![format!("file:{file}")];
    }
    f.tags = vec![format!("class-{:?}", c.class).to_ascii_lowercase()];
    f
}

impl ChangeSetReport {
    /// A human rendering: verdict, files, criteria.
    pub fn render_text(&self) -> String {
        let mut out = format!(
            "Change set: class {:?} ({}) — decision {}, level {} (score {}){}{}\n",
            self.class,
            self.class.name(),
            self.decision,
            self.level,
            self.score,
            if self.escalated {
                ", escalated for production"
            } else {
                ""
            },
            if self.degraded {
                ", not fully parsed"
            } else {
                ""
            }
        );
        out.push_str(&format!("{}\n", self.summary));
        let (a, r) = self
            .files
            .iter()
            .fold((0, 0), |(a, r), f| (a + f.added, r + f.removed));
        out.push_str(&format!(
            "{} file{} (+{a} -{r}), environment {}\n",
            self.files.len(),
            if self.files.len() == 1 { "" } else { "s" },
            self.environment
        ));
        for f in &self.files {
            let from = f
                .old_path
                .as_ref()
                .map(|o| format!("{o} → "))
                .unwrap_or_default();
            let mode = match (&f.old_mode, &f.new_mode) {
                (Some(o), Some(n)) if o != n => format!(" mode {o} → {n}"),
                _ => String::new(),
            };
            out.push_str(&format!(
                "  {} {from}{}{}{mode}\n",
                f.status.letter(),
                f.path,
                if f.binary { " (binary)" } else { "" }
            ));
        }
        if !self.criteria.is_empty() {
            out.push_str("criteria:\n");
        }
        for c in &self.criteria {
            let loc = match (&c.file, c.line) {
                (Some(f), Some(l)) => format!("{f}:{l}"),
                (Some(f), None) => f.clone(),
                _ => String::new(),
            };
            out.push_str(&format!("  [{:?}] {:<28} {}", c.class, c.id, c.description));
            if !loc.is_empty() {
                out.push_str(&format!(
                    "  ({loc}{})",
                    if c.occurrences > 1 {
                        format!(", {}×", c.occurrences)
                    } else {
                        String::new()
                    }
                ));
            }
            out.push('\n');
            if let Some(e) = &c.evidence {
                out.push_str(&format!("        `{e}`\n"));
            }
        }
        out
    }
}
