//! Files a command writes with content it shows: a here-document into
//! `.github/workflows/ci.yml` or `.git/hooks/pre-commit`. Writing such a file is HIGH because
//! what it holds runs later (with the pipeline's secrets, on the next commit); when the
//! command shows that content, the content is rated where it lands — a workflow as a workflow,
//! a hook as the script it is — and the finding about the place follows what the content does:
//! at most MEDIUM for content rated MEDIUM or below, the content's own level otherwise.

use std::path::Path;

use riskgate_model::{Assessment, Finding, RiskLevel};

use crate::Engine;

/// Findings about writing a file whose content runs later.
const PLACEMENT: &[&str] = &["path.ci-config", "path.git-hooks", "persist.git-hook-write"];

/// `a`, with its findings about placing files that run later rated by the content `command`
/// writes into them (see the module documentation).
pub(crate) fn rate_written_content(
    engine: &Engine,
    command: &str,
    cwd: &Path,
    a: Assessment,
) -> Assessment {
    if !a
        .findings
        .iter()
        .any(|f| PLACEMENT.contains(&f.rule_id.as_str()))
    {
        return a;
    }
    let written = riskgate_rules::file_heredocs(command);
    if written.is_empty() {
        return a;
    }
    // every file the command places where it runs later is one whose content is shown
    let placed_unseen = a
        .findings
        .iter()
        .filter(|f| PLACEMENT.contains(&f.rule_id.as_str()))
        .any(|f| {
            f.resources.is_empty()
                || f.resources
                    .iter()
                    .any(|r| !written.iter().any(|(file, _)| r.ends_with(file.as_str())))
        });
    let mut worst: Option<(RiskLevel, u8, String)> = None;
    let mut all_known = true;
    for (file, body) in &written {
        let kind = riskgate_repo::kind::kind_of_with_shebang(file, body.as_bytes()).or_else(|| {
            file.contains(".git/hooks/")
                .then_some(riskgate_repo::FileKind::ShellScript)
        });
        let Some(kind) = kind else {
            // content riskgate cannot read as what it becomes
            all_known = false;
            continue;
        };
        let ex = riskgate_repo::extract(file, kind, body);
        let report = crate::repo::rate_file(engine, None, &ex, cwd);
        for r in &report.results {
            if worst
                .as_ref()
                .is_none_or(|(l, s, _)| (r.level, r.score) > (*l, *s))
            {
                let why = r
                    .findings
                    .iter()
                    .max_by_key(|f| (f.level, f.score))
                    .map_or_else(String::new, |f| f.description.clone());
                worst = Some((r.level, r.score, format!("`{file}`: {why}")));
            }
        }
    }
    let mut findings = a.findings.clone();
    match worst {
        Some((level, score, why)) if level > RiskLevel::Medium => {
            findings.push(Finding::new(
                "path.written-content",
                level,
                score,
                format!("Writes a file that runs later with content rated {level}: {why}"),
            ));
        }
        _ if all_known && !placed_unseen => {
            for f in findings
                .iter_mut()
                .filter(|f| PLACEMENT.contains(&f.rule_id.as_str()))
            {
                riskgate_rules::cap_at_medium(
                    f,
                    "the content written is shown and rated here: at most MEDIUM",
                );
            }
        }
        _ => return a,
    }
    let degraded = a.degraded;
    let effects = a.effects;
    let mut out = Assessment::from_findings(a.kind, a.input, findings);
    out.degraded = degraded;
    out.effects = effects;
    out
}
