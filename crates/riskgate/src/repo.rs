//! Repositories: rate what a tree's CI pipelines, build files, package scripts, hooks and shell
//! scripts will run (`riskgate repo scan`), with the same engine and policy as every other
//! entry point. `riskgate-repo` finds the files and extracts each command and code snippet
//! with its position; here each snippet is assessed by the [`Engine`] (shell, code, SQL,
//! effects, flows), each notice becomes its rule's finding, and the policy's level applies
//! (blocklist, extra patterns, overrides: [`riskgate_gate::decide::effective_level`]).
//!
//! Path classes (writes outside the project, agents' settings …) are not applied here: CI
//! jobs run on throw-away machines, and the agent's view ([`crate::project`]) rates what runs
//! on this one.

use std::path::Path;

use riskgate_gate::{Context, Policy};
use riskgate_model::{Action, Assessment, Finding, Language, Location, RiskLevel};
use riskgate_repo::report::{FileReport, ResultKind, ScanReport, ScanResult};
use riskgate_repo::{Extracted, FileKind, MAX_FILE_BYTES, Snippet, SnippetLang};

use crate::Engine;

/// The assessment of a snippet: the engine's, its findings placed at their file, line and
/// column.
pub fn assess_snippet(engine: &Engine, path: &str, snippet: &Snippet, cwd: &Path) -> Assessment {
    let (mut a, shift) = match snippet.lang {
        SnippetLang::Shell | SnippetLang::Cmd => {
            (engine.assess_command_in(&snippet.text, None, cwd).0, 0usize)
        }
        SnippetLang::Code(language) => (
            engine.assess(&Action::Code {
                code: snippet.text.clone(),
                language: Some(language),
            }),
            0,
        ),
        SnippetLang::PowerShell => {
            let prefix = "pwsh -Command ";
            let text = format!(
                "{prefix}{}",
                riskgate_repo::text::shell_quote(&snippet.text)
            );
            (
                engine.assess_command_in(&text, None, cwd).0,
                prefix.len() + 1,
            )
        }
    };
    a.input = snippet.text.clone();
    for f in &mut a.findings {
        let offset = f.span.map_or(0, |s| s.start.saturating_sub(shift));
        if shift > 0 {
            f.span = f.span.map(|s| {
                riskgate_model::Span::new(
                    s.start.saturating_sub(shift),
                    s.end.saturating_sub(shift),
                )
            });
        }
        let old = f.location.take().unwrap_or_default();
        // code findings carry their own line within the snippet
        let (line, column) = match (snippet.lang, old.line) {
            (SnippetLang::Code(_), Some(l)) if l >= 1 => {
                let at = snippet.lines.get(l as usize - 1).or(snippet.lines.last());
                at.copied().unwrap_or_else(|| snippet.start())
            }
            _ => snippet.position_of(offset),
        };
        // a finding whose span runs over several lines (a flow from one step to a later
        // one) names its last line too, so a report places it on both steps
        let end_line = match (snippet.lang, f.span) {
            (SnippetLang::Code(_), _) | (_, None) => None,
            (_, Some(s)) => {
                let end = s.end.saturating_sub(shift).saturating_sub(1).max(offset);
                Some(snippet.position_of(end).0).filter(|&l| l > line)
            }
        };
        f.location = Some(Location {
            file: Some(path.to_string()),
            line: Some(line),
            column: Some(column),
            context: Some(match old.context {
                Some(c) => format!("{}; {c}", snippet.context),
                None => snippet.context.clone(),
            }),
            end_line,
        });
    }
    a
}

/// Whether files of `kind` run on a CI runner or in an image build, machines that are
/// discarded after the job.
pub fn runs_on_runner(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::GithubWorkflow
            | FileKind::GithubAction
            | FileKind::GitlabCi
            | FileKind::Dockerfile
    )
}

/// The assessment of a snippet that runs on a CI runner: writing the runner's own credential
/// and home configuration files (`~/.npmrc`, `~/.docker/config.json`, `~/.kube/config`) is how
/// a job authenticates, on a machine thrown away after it, and publishing (`npm publish`,
/// `twine upload`, `docker push`) is what a release pipeline is for, so those count at most
/// MEDIUM. Deletions, and everything else, keep their level.
///
/// `publish_is_purpose` is false in a workflow that runs an outsider's code with the
/// repository's secrets (`gha.pr-target-checkout`): publishing there is not the pipeline's
/// purpose but the attack, and keeps its level.
pub fn runner_view(a: Assessment, publish_is_purpose: bool) -> Assessment {
    let is_runner_write = |f: &Finding| {
        ["effect.overwrite.", "effect.modify."]
            .iter()
            .filter_map(|p| f.rule_id.strip_prefix(p))
            .any(|class| matches!(class, "credentials" | "home"))
            // publishing is what release pipelines are for; who may trigger them is rated by
            // the pipeline's own rules (privileged triggers, injection, unpinned code)
            || (publish_is_purpose && f.tags.iter().any(|t| t == "publish"))
            // a remote URL carrying the job's own token variable (`https://x:${TOKEN}@…`)
            // stores it in the runner's checkout, which is thrown away with the runner
            || (f.rule_id == "git.credentials-in-url"
                && f.matched.as_deref().is_some_and(token_from_variable))
    };
    cap_at_medium(a, is_runner_write, "in a CI job")
}

/// Whether every password of the URLs in `text` is a variable reference (`:${GH_TOKEN}@`,
/// `:$CI_JOB_TOKEN@`), not a literal secret.
fn token_from_variable(text: &str) -> bool {
    let mut any = false;
    for (i, _) in text.match_indices("://") {
        let rest = text.get(i + 3..).unwrap_or("");
        let Some(at) = rest.find('@') else { continue };
        let userinfo = rest.get(..at).unwrap_or("");
        if userinfo.contains('/') {
            continue;
        }
        let Some((_, password)) = userinfo.split_once(':') else {
            continue;
        };
        any = true;
        let var = password
            .strip_prefix("${")
            .and_then(|p| p.strip_suffix('}'))
            .or_else(|| password.strip_prefix('$'));
        if !var.is_some_and(|v| {
            !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }) {
            return false;
        }
    }
    any
}

/// The assessment of a Dockerfile's `RUN`: it changes the image being built, not a machine.
/// Deleting or changing the image's own system files, logs, start-up files and home
/// (`rm -rf /usr/share/nginx/html/*`, `rm -rf /var/lib/apt/lists/*`, `>> /etc/profile`) is
/// how images are made, so those count at most MEDIUM. What reaches outside the image —
/// downloads run, secrets read or sent, the network — keeps its level.
pub fn image_view(a: Assessment) -> Assessment {
    let in_image = |f: &Finding| {
        let effect_on_image = ["effect.delete.", "effect.overwrite.", "effect.modify."]
            .iter()
            .filter_map(|p| f.rule_id.strip_prefix(p))
            .any(|class| {
                matches!(
                    class,
                    "system" | "logs" | "persistence" | "home" | "user_data" | "unknown" | "root"
                )
            });
        // the image's files, or its logs (cleaned so a layer does not carry them)
        let local_files = f.tags.iter().any(|t| t == "filesystem" || t == "logs")
            && !f.tags.iter().any(|t| {
                matches!(
                    t.as_str(),
                    "exfiltration"
                        | "secrets"
                        | "credentials"
                        | "remote-code"
                        | "disk"
                        | "device"
                        | "permissions"
                        | "privilege"
                )
            });
        effect_on_image || local_files
    };
    cap_at_medium(a, in_image, "in the image being built")
}

/// The assessment of a build-file snippet that deletes only files the same build file installs
/// (`make uninstall` removing `$(PREFIX)/lib/libx.*` that `make install` put there): it takes
/// back what the project added, not the system's files, so such deletions count at most
/// MEDIUM. A deletion of anything else keeps its level.
pub fn uninstall_view(a: Assessment, installs: &[String]) -> Assessment {
    if installs.is_empty() {
        return a;
    }
    let own = |f: &Finding| {
        f.rule_id.starts_with("effect.delete.")
            && !f.resources.is_empty()
            && f.resources.iter().all(|r| {
                r.strip_prefix("file:")
                    .is_some_and(|p| riskgate_repo::snippet::installed_by(p, installs))
            })
    };
    cap_at_medium(a, own, "files this build file installs")
}

/// `a` with every finding above MEDIUM that `capped` selects lowered to MEDIUM (its
/// description saying `why`), keeping room for the other findings' bump: when nothing above
/// MEDIUM is left, several MEDIUM findings of one action do not add up to HIGH again.
fn cap_at_medium(a: Assessment, capped: impl Fn(&Finding) -> bool, why: &str) -> Assessment {
    if !a
        .findings
        .iter()
        .any(|f| f.level > RiskLevel::Medium && capped(f))
    {
        return a;
    }
    let degraded = a.degraded;
    let effects = a.effects;
    let findings = a
        .findings
        .into_iter()
        .map(|mut f| {
            if f.level > RiskLevel::Medium && capped(&f) {
                f.level = RiskLevel::Medium;
                f.score = f
                    .score
                    .min(RiskLevel::Medium.max_score().saturating_sub(10));
                f.description = format!("{} ({why})", f.description);
            }
            f
        })
        .collect();
    let mut out = Assessment::from_findings(a.kind, a.input, findings);
    if out.findings.iter().all(|f| f.level <= RiskLevel::Medium) && out.level > RiskLevel::Medium {
        out.level = RiskLevel::Medium;
        out.score = out.score.min(RiskLevel::Medium.max_score());
    }
    out.degraded = degraded;
    out.effects = effects;
    out
}

fn kind_of_lang(lang: SnippetLang) -> ResultKind {
    match lang {
        SnippetLang::Code(_) => ResultKind::Code,
        _ => ResultKind::Command,
    }
}

fn action_of(snippet: &Snippet) -> Action {
    match snippet.lang {
        SnippetLang::Code(language) => Action::Code {
            code: snippet.text.clone(),
            language: Some(language),
        },
        _ => Action::command(snippet.text.clone()),
    }
}

/// Rate one extracted file. `dir` is the directory its commands run in.
pub fn rate_file(
    engine: &Engine,
    policy: Option<&Policy>,
    ex: &Extracted,
    dir: &Path,
) -> FileReport {
    let mut results = Vec::new();
    let on_runner = ex.kind.is_some_and(runs_on_runner);
    let publish_is_purpose = !ex
        .notices
        .iter()
        .any(|n| n.rule_id == "gha.pr-target-checkout");
    for s in ex.snippets.iter().filter(|s| !s.text.trim().is_empty()) {
        let mut a = assess_snippet(engine, &ex.path, s, dir);
        if on_runner {
            a = runner_view(a, publish_is_purpose);
        }
        if ex.kind == Some(FileKind::Dockerfile) {
            a = image_view(a);
        }
        a = uninstall_view(a, &s.installs);
        let (level, score) = match policy {
            Some(p) => {
                let ctx = Context::new(dir.to_path_buf());
                let lv = riskgate_gate::decide::effective_level(&a, &action_of(s), p, &ctx);
                let score = if lv.level == a.level {
                    a.score
                } else {
                    a.score.clamp(lv.level.min_score(), lv.level.max_score())
                };
                (lv.level, score)
            }
            None => (a.level, a.score),
        };
        let (line, column) = s.start();
        results.push(ScanResult {
            line,
            column,
            context: s.context.clone(),
            kind: kind_of_lang(s.lang),
            name: s.name.clone(),
            trigger: s.trigger.clone(),
            text: s.text.clone(),
            level,
            score,
            findings: a.findings.clone(),
            assessment: Some(a),
        });
    }
    for n in &ex.notices {
        let f: Finding = riskgate_repo::rules::finding_for(n, &ex.path);
        let level = f.level;
        let score = f.effective_score();
        results.push(ScanResult {
            line: n.line,
            column: n.column,
            context: n.context.clone(),
            kind: ResultKind::Notice,
            name: None,
            trigger: None,
            text: n.matched.clone(),
            level,
            score,
            findings: vec![f],
            assessment: None,
        });
    }
    FileReport {
        path: ex.path.clone(),
        kind: ex.kind.unwrap_or(FileKind::ShellScript),
        level: RiskLevel::Safe,
        results,
    }
}

/// Read and extract one file (`rel` relative to the root, `/` separators). An unreadable,
/// oversized or non-UTF-8 file gives the `repo.not-analyzed` notice.
pub fn read_and_extract(path: &Path, rel: &str, kind: FileKind) -> Extracted {
    let size = path.metadata().map(|m| m.len()).unwrap_or(0);
    let text = if size > MAX_FILE_BYTES {
        Err(format!(
            "{size} bytes, over the {MAX_FILE_BYTES}-byte limit"
        ))
    } else {
        std::fs::read(path)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|b| String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_string()))
    };
    match text {
        Ok(t) => riskgate_repo::extract(rel, kind, t.strip_prefix('\u{feff}').unwrap_or(&t)),
        Err(why) => {
            let mut e = Extracted {
                path: rel.to_string(),
                kind: Some(kind),
                ..Extracted::default()
            };
            e.not_analyzed(1, 1, &why);
            e
        }
    }
}

/// Scan the tree at `root` (a directory or one file): every CI, build and script file, rated.
pub fn scan_tree(engine: &Engine, policy: Option<&Policy>, root: &Path) -> ScanReport {
    let walked = riskgate_repo::walk::find_files(root);
    let base = if root.is_file() {
        root.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        root.to_path_buf()
    };
    let mut files = Vec::with_capacity(walked.candidates.len());
    for c in &walked.candidates {
        let ex = read_and_extract(&c.path, &c.rel, c.kind);
        let dir = c
            .path
            .parent()
            .map_or_else(|| base.clone(), Path::to_path_buf);
        files.push(rate_file(engine, policy, &ex, &dir));
    }
    ScanReport::new(root.to_string_lossy(), walked.seen, files)
}

/// What the changed CI and build files and code of a diff will run, as change-set criteria:
/// each file of `diff` that CI, a build tool or a package manager reads is read from the tree
/// at `root` (its new content) and rated like `repo scan` does, each code file (Python,
/// JavaScript, Perl, Ruby, PHP) by the code analyzer, and every finding at HIGH or above placed
/// on an added line becomes a criterion — `ci.runs-critical` (class C) or `ci.runs-high`
/// (class B). A file that cannot be read gives `repo.not-analyzed` (class B, HIGH).
pub fn diff_run_criteria(
    engine: &Engine,
    policy: Option<&Policy>,
    root: &Path,
    diff: &riskgate_analyzers::diff::ParsedDiff,
) -> Vec<riskgate_analyzers::diff::Criterion> {
    use riskgate_analyzers::diff::{ChangeStatus, Criterion, RiskClass};
    let mut out: Vec<Criterion> = Vec::new();
    for change in &diff.files {
        if change.status == ChangeStatus::Deleted || change.binary {
            continue;
        }
        let path = change.path();
        let added: std::collections::HashSet<u32> = change.added.iter().map(|l| l.line).collect();
        if added.is_empty() {
            continue;
        }
        let abs = root.join(path);
        if !abs.is_file() {
            continue; // not in this tree (a diff read from a file)
        }
        // code (Python, JavaScript …) is Python that runs as well: a file a CI or build tool
        // reads is extracted, any other code file is read whole
        let ex = match (riskgate_repo::kind::kind_of(path), code_language(path)) {
            (Some(kind), _) => read_and_extract(&abs, path, kind),
            (None, Some(language)) => {
                let mut ex = read_and_extract(&abs, path, FileKind::ShellScript);
                for s in &mut ex.snippets {
                    s.lang = SnippetLang::Code(language);
                    s.context = "code".to_string();
                }
                ex
            }
            (None, None) => continue,
        };
        let dir = abs
            .parent()
            .map_or_else(|| root.to_path_buf(), Path::to_path_buf);
        let report = rate_file(engine, policy, &ex, &dir);
        for r in &report.results {
            for f in &r.findings {
                let line = f.location.as_ref().and_then(|l| l.line).unwrap_or(r.line);
                let on_added =
                    added.contains(&line) || f.rule_id == riskgate_repo::snippet::NOT_ANALYZED;
                if f.level < RiskLevel::High || !on_added {
                    continue;
                }
                let (id, class) = if f.level == RiskLevel::Critical {
                    ("ci.runs-critical", RiskClass::C)
                } else {
                    ("ci.runs-high", RiskClass::B)
                };
                if let Some(c) = out
                    .iter_mut()
                    .find(|c| c.id == id && c.file.as_deref() == Some(path))
                {
                    c.occurrences += 1;
                    continue;
                }
                out.push(Criterion {
                    id: id.to_string(),
                    class,
                    level: f.level,
                    description: format!(
                        "{} will run: {} [{}]",
                        r.context, f.description, f.rule_id
                    ),
                    file: Some(path.to_string()),
                    line: Some(line),
                    evidence: Some(
                        riskgate_model::secrets::redact(r.text.lines().next().unwrap_or(""))
                            .chars()
                            .take(160)
                            .collect(),
                    ),
                    occurrences: 1,
                    data_modification: false,
                });
            }
        }
    }
    out
}

/// The language of a code file, by its extension (shell scripts are read as scripts).
fn code_language(path: &str) -> Option<Language> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyw" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" => Language::Js,
        "pl" | "pm" => Language::Perl,
        "rb" => Language::Ruby,
        "php" => Language::Php,
        _ => return None,
    })
}

/// The language of a code snippet, for callers that print it.
pub fn language_name(lang: SnippetLang) -> &'static str {
    match lang {
        SnippetLang::Shell => "shell",
        SnippetLang::Cmd => "cmd",
        SnippetLang::PowerShell => "powershell",
        SnippetLang::Code(Language::Python) => "python",
        SnippetLang::Code(Language::Js) => "javascript",
        SnippetLang::Code(Language::Sh) => "shell",
        SnippetLang::Code(Language::Perl) => "perl",
        SnippetLang::Code(Language::Ruby) => "ruby",
        SnippetLang::Code(Language::Php) => "php",
    }
}
