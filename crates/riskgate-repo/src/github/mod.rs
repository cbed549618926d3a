//! GitHub Actions: workflows (`.github/workflows/*.yml`) and composite actions (`action.yml`).
//!
//! Extracted: every `run:` step in its shell (`shell:`, the job's or workflow's
//! `defaults.run.shell`, else bash — pwsh on a Windows runner; `python`, `pwsh`, `cmd`, `node`,
//! `perl`, `ruby` steps as their language) and the `script:` of `actions/github-script` (JavaScript).
//! Notices ([`crate::rules`]): actions and reusable workflows not pinned to a full commit SHA,
//! `pull_request_target` with a checkout of the pull request's head, `permissions: write-all`,
//! untrusted event text interpolated into a script, secrets dumped, printed or sent.

mod checks;

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, normalize_gha};
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
    let pr_target = triggers.iter().any(|t| t == "pull_request_target");
    permissions(&mut out, &doc, "workflow");
    let wf_env = secret_env(doc.get("env"));
    let wf_shell = default_shell(&doc);
    for (job_name, job) in doc.get("jobs").map(Node::str_entries).into_iter().flatten() {
        let ctx = format!("job {job_name}");
        permissions(&mut out, job, &ctx);
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
}

/// The events of `on:` (a string, a list or a mapping). YAML 1.1 readers take a bare `on` key
/// for `true`; both are looked up.
fn triggers(doc: &Node) -> Vec<String> {
    let on = doc.get("on").or_else(|| doc.get("true"));
    let Some(on) = on else { return Vec::new() };
    let mut out: Vec<String> = Vec::new();
    if let Some(s) = on.as_str() {
        out.push(s.to_string());
    }
    out.extend(
        on.items()
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string)),
    );
    out.extend(on.str_entries().map(|(k, _)| k.to_string()));
    out
}

fn permissions(out: &mut Extracted, node: &Node, ctx: &str) {
    if let Some(p) = node.get("permissions")
        && p.as_str().is_some_and(|s| s.trim() == "write-all")
    {
        out.notice(
            "gha.permissions-write-all",
            p.pos(),
            "permissions: write-all",
            ctx,
        );
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
            }
            if action.starts_with("actions/github-script@")
                && let Some(script) = with.and_then(|w| w.get("script"))
                && let Some(value) = script.as_str()
            {
                let lines = scalar_lines(index, script, value);
                checks::templates(out, value, &lines, &label, &env, false);
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
            checks::templates(out, value, &lines, &label, &env, shell_like);
            if job.pr_target && !checked_out_head && checks::fetches_pr_head(value) {
                checked_out_head = true;
                out.notice(
                    "gha.pr-target-checkout",
                    run.pos(),
                    first_line(value),
                    &label,
                );
            }
            let (text, _) = normalize_gha(value);
            out.push(Snippet::new(label.clone(), text, lang, lines).named(job.name.clone()));
        }
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
    } else {
        "gha.action-unpinned"
    };
    out.notice(rule, node.pos(), value, ctx);
}

#[cfg(test)]
mod tests;
