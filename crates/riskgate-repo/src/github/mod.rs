//! GitHub Actions: workflows (`.github/workflows/*.yml`) and composite actions (`action.yml`).
//!
//! Extracted: every `run:` step in its shell (`shell:`, the job's or workflow's
//! `defaults.run.shell`, else bash — pwsh on a Windows runner; `python`, `pwsh`, `cmd`, `node`,
//! `perl`, `ruby` steps as their language) and the `script:` of `actions/github-script` (JavaScript).
//! Notices ([`crate::rules`]): actions and reusable workflows not pinned to a full commit SHA,
//! `pull_request_target` with a checkout of the pull request's head, `permissions: write-all`,
//! untrusted event text interpolated into a script, secrets dumped, printed or sent.

mod checks;
mod untrusted;

use crate::snippet::{Extracted, Snippet, SnippetLang, position_in};
use crate::text::{LineIndex, join_argv, normalize_gha, shell_quote};
use crate::yaml::{self, Node, scalar_lines};
use riskgate_model::Language;

/// Extract a workflow file.
pub fn extract_workflow(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let doc = match yaml::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.not_analyzed(e.line, e.col, &format!("invalid YAML: {}", e.message));
            return out;
        }
    };
    let index = LineIndex::new(text);
    let triggers = triggers(&doc);
    // events whose workflows run with the base repository's token and secrets while
    // outsiders choose what they react to (a fork's pull request, a comment, a fork's run)
    let privileged = triggers.iter().find(|(t, _)| {
        matches!(
            t.as_str(),
            "pull_request_target"
                | "issue_comment"
                | "workflow_run"
                | "pull_request_review_comment"
        )
    });
    let pr_target = privileged.is_some();
    let trigger_pos = privileged.map(|(_, p)| *p);
    permissions(&mut out, &doc, "workflow", pr_target);
    let wf_env = secret_env(doc.get("env"));
    let wf_shell = default_shell(&doc);
    for (job_name, job) in doc.get("jobs").map(Node::str_entries).into_iter().flatten() {
        let ctx = format!("job {job_name}");
        permissions(&mut out, job, &ctx, pr_target);
        if let Some(u) = job.get("uses") {
            uses(&mut out, u, &ctx);
        }
        let windows = job
            .get("runs-on")
            .map(|r| {
                format!("{:?}", r.v)
                    .to_ascii_lowercase()
                    .contains("windows")
            })
            .unwrap_or(false);
        let shell = default_shell(job).or_else(|| wf_shell.clone());
        let mut env = wf_env.clone();
        env.extend(secret_env(job.get("env")));
        let info = Job {
            ctx,
            name: job_name.to_string(),
            shell,
            windows,
            env,
            pr_target,
            trigger_pos,
        };
        steps(&mut out, &index, job.get("steps"), &info);
    }
    out
}

/// Extract a composite action (`action.yml`): its `runs.steps`.
pub fn extract_action(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let doc = match yaml::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.not_analyzed(e.line, e.col, &format!("invalid YAML: {}", e.message));
            return out;
        }
    };
    let index = LineIndex::new(text);
    let Some(runs) = doc.get("runs") else {
        return out;
    };
    let job = Job {
        ctx: "action".to_string(),
        name: doc
            .get("name")
            .and_then(Node::as_str)
            .unwrap_or("action")
            .to_string(),
        shell: None,
        windows: false,
        env: Vec::new(),
        pr_target: false,
        trigger_pos: None,
    };
    if let Some(s) = runs.get("steps") {
        steps(&mut out, &index, Some(s), &job);
    }
    out
}

/// What a job's steps inherit.
struct Job {
    ctx: String,
    name: String,
    shell: Option<String>,
    windows: bool,
    /// Environment variables holding secrets (name).
    env: Vec<String>,
    pr_target: bool,
    /// Where the privileged trigger is written.
    trigger_pos: Option<(u32, u32)>,
}

/// The events of `on:` (a string, a list or a mapping). YAML 1.1 readers take a bare `on` key
/// for `true`; both are looked up.
fn triggers(doc: &Node) -> Vec<(String, (u32, u32))> {
    let on = doc.get("on").or_else(|| doc.get("true"));
    let Some(on) = on else { return Vec::new() };
    let mut out: Vec<(String, (u32, u32))> = Vec::new();
    if let Some(s) = on.as_str() {
        out.push((s.to_string(), on.pos()));
    }
    out.extend(
        on.items()
            .iter()
            .filter_map(|n| n.as_str().map(|s| (s.to_string(), n.pos()))),
    );
    out.extend(
        on.entries()
            .iter()
            .filter_map(|(k, _)| k.as_str().map(|s| (s.to_string(), k.pos()))),
    );
    out
}

fn permissions(out: &mut Extracted, node: &Node, ctx: &str, privileged: bool) {
    if let Some(p) = node.get("permissions")
        && p.as_str().is_some_and(|s| s.trim() == "write-all")
    {
        let rule = if privileged {
            "gha.pr-target-write-all"
        } else {
            "gha.permissions-write-all"
        };
        out.notice(rule, p.pos(), "permissions: write-all", ctx);
    }
}

fn default_shell(node: &Node) -> Option<String> {
    node.get("defaults")?
        .get("run")?
        .get("shell")?
        .as_str()
        .map(str::to_string)
}

/// Names of the variables of an `env:` mapping whose value holds a secret.
fn secret_env(env: Option<&Node>) -> Vec<String> {
    env.map(|e| {
        e.str_entries()
            .filter(|(_, v)| v.as_str().is_some_and(checks::mentions_secrets))
            .map(|(k, _)| k.to_string())
            .collect()
    })
    .unwrap_or_default()
}

/// The language of a `shell:` value (`bash -e {0}`, `pwsh`, `python`, `perl {0}` …).
pub(crate) fn shell_lang(shell: Option<&str>, windows: bool) -> SnippetLang {
    let Some(shell) = shell else {
        return if windows {
            SnippetLang::PowerShell
        } else {
            SnippetLang::Shell
        };
    };
    let first = shell.split_whitespace().next().unwrap_or("");
    let prog = first.rsplit(['/', '\\']).next().unwrap_or(first);
    let prog = prog.trim_end_matches(".exe").to_ascii_lowercase();
    match prog.as_str() {
        "pwsh" | "powershell" => SnippetLang::PowerShell,
        "cmd" => SnippetLang::Cmd,
        p if p.starts_with("python") => SnippetLang::Code(Language::Python),
        "node" | "deno" | "bun" => SnippetLang::Code(Language::Js),
        "perl" => SnippetLang::Code(Language::Perl),
        "ruby" => SnippetLang::Code(Language::Ruby),
        "php" => SnippetLang::Code(Language::Php),
        _ => SnippetLang::Shell,
    }
}

fn steps(out: &mut Extracted, index: &LineIndex<'_>, steps: Option<&Node>, job: &Job) {
    let Some(steps) = steps else { return };
    let mut checked_out_head = false;
    // steps whose outputs carry untrusted text (`steps.ID.outputs.*`)
    let mut tainted: Vec<String> = Vec::new();
    let uploads = steps.items().iter().any(|s| {
        s.get("uses")
            .and_then(Node::as_str)
            .is_some_and(|u| u.starts_with("actions/upload-artifact@"))
    });
    let uploaded = upload_paths(steps);
    // where the working tree holds an outsider's code (a pull request's head, a fork run's
    // artifact): "" for the workspace itself, else the `path:` it was put in
    let mut untrusted_at: Vec<String> = Vec::new();
    for (i, step) in steps.items().iter().enumerate() {
        let label = step
            .get("name")
            .and_then(Node::as_str)
            .map(|n| format!("{}, step \"{n}\"", job.ctx))
            .unwrap_or_else(|| format!("{}, step {}", job.ctx, i + 1));
        let mut env = job.env.clone();
        env.extend(secret_env(step.get("env")));
        if let Some(u) = step.get("uses") {
            uses(out, u, &label);
            let action = u.as_str().unwrap_or("");
            let with = step.get("with");
            let with_str = |k: &str| with.and_then(|w| w.get(k)).and_then(Node::as_str);
            if job.pr_target
                && ((action.starts_with("actions/checkout@")
                    && with_str("ref").is_some_and(checks::names_pr_head))
                    || (action.contains("download-artifact@")
                        && ["run-id", "run_id"]
                            .iter()
                            .any(|k| with_str(k).is_some_and(|v| v.contains("workflow_run")))))
            {
                let dir = workspace_dir(with_str("path").unwrap_or(""));
                if !untrusted_at.contains(&dir) {
                    untrusted_at.push(dir);
                }
            }
            if action.starts_with("actions/checkout@")
                && let Some(r) = with.and_then(|w| w.get("ref"))
                && r.as_str().is_some_and(checks::names_pr_head)
                && job.pr_target
                && !checked_out_head
            {
                checked_out_head = true;
                out.notice(
                    "gha.pr-target-checkout",
                    r.pos(),
                    r.as_str().unwrap_or(""),
                    &label,
                );
                trigger_notice(out, job);
            }
            if action.starts_with("actions/github-script@")
                && let Some(script) = with.and_then(|w| w.get("script"))
                && let Some(value) = script.as_str()
            {
                let lines = scalar_lines(index, script, value);
                checks::templates(out, value, &lines, &label, &env, false, &tainted);
                let (text, _) = normalize_gha(value);
                out.push(
                    Snippet::new(
                        format!("{label} (github-script)"),
                        text,
                        SnippetLang::Code(Language::Js),
                        lines,
                    )
                    .named(job.name.clone()),
                );
            }
        }
        if let Some(run) = step.get("run")
            && let Some(value) = run.as_str()
        {
            let shell = step
                .get("shell")
                .and_then(Node::as_str)
                .map(str::to_string)
                .or_else(|| job.shell.clone());
            let lang = shell_lang(shell.as_deref(), job.windows);
            let lines = scalar_lines(index, run, value);
            let shell_like = matches!(lang, SnippetLang::Shell);
            checks::templates(out, value, &lines, &label, &env, shell_like, &tainted);
            if let Some(id) = step.get("id").and_then(Node::as_str)
                && untrusted::taints_outputs(value, &tainted, &untrusted_env(step, &tainted))
            {
                tainted.push(id.to_string());
            }
            if shell_like && !uploaded.is_empty() {
                let (normalized, writes) = untrusted::secret_writes(value, &env);
                for (at, file, shown) in writes {
                    if uploaded.iter().any(|u| untrusted::uploads_file(u, &file)) {
                        let pos = position_in(&normalized, &lines, at);
                        out.notice_with("gha.secret-uploaded", pos, shown, &label, file);
                    }
                }
            }
            if job.pr_target
                && checks::fetches_pr_head(value)
                && !untrusted_at.iter().any(String::is_empty)
            {
                untrusted_at.push(String::new());
            }
            let wd = workspace_dir(
                step.get("working-directory")
                    .and_then(Node::as_str)
                    .unwrap_or(""),
            );
            // the step works in the outsider's tree: the workspace itself, or the directory it
            // was put in (as its working directory, or named in its script)
            let in_untrusted = untrusted_at.iter().any(|d| {
                d.is_empty() || wd == *d || wd.starts_with(&format!("{d}/")) || names_dir(value, d)
            });
            if job.pr_target && in_untrusted && shell_like {
                let (normalized, runs) = untrusted::workspace_runs(value);
                for (at, shown) in runs {
                    let pos = position_in(&normalized, &lines, at);
                    out.notice("gha.privileged-runs-pr-code", pos, shown, &label);
                }
            }
            if shell_like && uploads && checks::dumps_environment(value) {
                out.notice(
                    "gha.env-dump-uploaded",
                    run.pos(),
                    first_line(value),
                    &label,
                );
            }
            if job.pr_target && !checked_out_head && checks::fetches_pr_head(value) {
                checked_out_head = true;
                out.notice(
                    "gha.pr-target-checkout",
                    run.pos(),
                    first_line(value),
                    &label,
                );
                trigger_notice(out, job);
            }
            let (mut text, _) = normalize_gha(value);
            // a script in a language read through its interpreter's one-liner (`julia -e …`)
            if let Some(prefix) = shell.as_deref().and_then(inline_interpreter) {
                text = format!("{prefix} {}", shell_quote(&text));
            }
            out.push(Snippet::new(label.clone(), text, lang, lines).named(job.name.clone()));
        }
    }
}

/// Interpreters a `shell:` may name whose scripts are read as their one-liner with the
/// option that takes code (`shell: julia --project=docs {0}` runs what
/// `julia --project=docs -e '<script>'` runs), so the engine rates them as it rates that
/// command, instead of reading Julia or R as shell.
const INLINE_INTERPRETERS: &[(&str, &str)] = &[
    ("julia", "-e"),
    ("rscript", "-e"),
    ("r", "-e"),
    ("lua", "-e"),
    ("elixir", "-e"),
];

/// The one-liner prefix for a `shell:` value naming one of [`INLINE_INTERPRETERS`]
/// (`julia --project=docs {0}` → `julia --project=docs -e`).
fn inline_interpreter(shell: &str) -> Option<String> {
    let mut words = shell.split_whitespace();
    let first = words.next()?;
    let prog = first.rsplit(['/', '\\']).next().unwrap_or(first);
    let prog = prog.trim_end_matches(".exe").to_ascii_lowercase();
    let (_, flag) = INLINE_INTERPRETERS.iter().find(|(p, _)| *p == prog)?;
    let mut argv = vec![first.to_string()];
    argv.extend(words.filter(|w| *w != "{0}").map(str::to_string));
    argv.push((*flag).to_string());
    Some(join_argv(&argv))
}

/// A directory of the workspace as a step names it (`./pr/` → `pr`; `.`, `""` → `""`, the
/// workspace itself; `${{ github.workspace }}/pr` → `pr`).
fn workspace_dir(p: &str) -> String {
    let p = p.trim();
    let p = p
        .strip_prefix("${{ github.workspace }}")
        .or_else(|| p.strip_prefix("$GITHUB_WORKSPACE"))
        .unwrap_or(p);
    let p = p.trim_start_matches('/');
    let p = p.strip_prefix("./").unwrap_or(p);
    let p = p.trim_end_matches('/');
    if p == "." {
        String::new()
    } else {
        p.to_string()
    }
}

/// Whether a script names directory `dir` of the workspace (`cd pr`, `pr/build.sh`,
/// `npm --prefix pr ci`).
fn names_dir(script: &str, dir: &str) -> bool {
    script
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ';' | '&' | '|' | '='))
        .map(|w| w.strip_prefix("./").unwrap_or(w))
        .any(|w| w == dir || w.starts_with(&format!("{dir}/")))
}

/// The paths (one a line) the `actions/upload-artifact` steps of a job upload.
fn upload_paths(steps: &Node) -> Vec<String> {
    steps
        .items()
        .iter()
        .filter(|s| {
            s.get("uses")
                .and_then(Node::as_str)
                .is_some_and(|u| u.starts_with("actions/upload-artifact@"))
        })
        .filter_map(|s| s.get("with")?.get("path")?.as_str())
        .flat_map(str::lines)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .take(256)
        .collect()
}

/// Names of a step's `env:` variables whose value is untrusted text.
fn untrusted_env(step: &Node, tainted: &[String]) -> Vec<String> {
    step.get("env")
        .map(|e| {
            e.str_entries()
                .filter(|(_, v)| {
                    v.as_str().is_some_and(|v| {
                        normalize_gha(v).1.iter().any(|t| {
                            checks::is_untrusted(&t.expr)
                                || untrusted::from_tainted_step(&t.expr, tainted)
                        })
                    })
                })
                .map(|(k, _)| k.to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The privileged trigger of a workflow whose job runs the pull request's code is part of
/// the finding: placed there too (once).
fn trigger_notice(out: &mut Extracted, job: &Job) {
    if let Some(pos) = job.trigger_pos
        && !out
            .notices
            .iter()
            .any(|n| n.rule_id == "gha.pr-target-checkout" && (n.line, n.column) == pos)
    {
        out.notice(
            "gha.pr-target-checkout",
            pos,
            "privileged trigger",
            "workflow trigger",
        );
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(120).collect()
}

/// `uses:` of a step or a job: pinned to a full commit SHA?
fn uses(out: &mut Extracted, node: &Node, ctx: &str) {
    let Some(value) = node.as_str() else { return };
    let value = value.trim();
    if value.starts_with("./") || value.starts_with(".\\") {
        return;
    }
    if let Some(image) = value.strip_prefix("docker://") {
        if !image.contains("@sha256:") {
            out.notice("gha.action-unpinned", node.pos(), value, ctx);
        }
        return;
    }
    let Some((action, reference)) = value.rsplit_once('@') else {
        out.notice_with(
            "gha.action-unpinned",
            node.pos(),
            value,
            ctx,
            "no version at all",
        );
        return;
    };
    let pinned = reference.len() == 40 && reference.bytes().all(|b| b.is_ascii_hexdigit());
    if pinned {
        return;
    }
    let owner = action.split('/').next().unwrap_or("").to_ascii_lowercase();
    let rule = if owner == "actions" || owner == "github" {
        "gha.action-unpinned-github"
    } else if is_version(reference) {
        "gha.action-unpinned"
    } else {
        "gha.action-branch"
    };
    out.notice(rule, node.pos(), value, ctx);
}

/// Whether a git ref reads as a release tag (`v4`, `1.2.3`, `v2.0.0-beta.1`), not a branch.
pub(crate) fn is_version(reference: &str) -> bool {
    let r = reference.strip_prefix('v').unwrap_or(reference);
    r.chars().next().is_some_and(|c| c.is_ascii_digit())
        && r.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_'))
}

#[cfg(test)]
mod tests;
