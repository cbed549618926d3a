//! One verdict everywhere: the assessment every entry point (`check`, `scan`, `code`, `sql`,
//! workflows, agent hooks, the library) makes of an action before the gate decides on it.
//!
//! A shell command is assessed by the [`Engine`] (rules, analyzers, the not-fully-analyzed
//! floor) and then by the [path classes](crate::paths) of the files it writes (redirections,
//! `tee`, `cp`/`mv` destinations, `dd of=` …) and of the files it deletes or moves away (`rm`,
//! `shred`, `mv` sources …): riskgate's own state, configuration, audit log and binary, agents'
//! hook settings, project policy files, system files. Code and SQL go to their analyzers. The
//! caller then hands the [`Prepared`] action to the gate ([`Prepared::evaluate`] or
//! [`Prepared::decide`]) with its [`Context`]: the same input under the same policy gets the same
//! level and decision in every entry point.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use riskgate_gate::{Context, Gate, Outcome, Policy};
use riskgate_model::{Action, Assessment, Finding};

use crate::Engine;
use crate::paths::{self, Project};

/// Where actions run: the working directory, the project roots and riskgate's own directories.
/// The resolved [`Project`] is built on first use (a SAFE command that writes nothing never
/// needs it).
#[derive(Debug, Clone)]
pub struct Scope {
    cwd: PathBuf,
    roots: Vec<PathBuf>,
    riskgate_dirs: Vec<PathBuf>,
    project: OnceLock<Project>,
}

impl Scope {
    /// The scope of `policy` in `cwd`: the project roots are `extra_roots` (an agent's project
    /// directory, workspace roots), the policy's project root and the git work tree around
    /// `cwd` — `cwd` itself when there is none. riskgate's directories are the policy's state
    /// and data directories and the configuration directory, except those that contain a
    /// project root (a project kept inside them is not "riskgate's own").
    pub fn for_policy(policy: &Policy, cwd: &Path, extra_roots: &[PathBuf]) -> Scope {
        let mut roots: Vec<PathBuf> = extra_roots
            .iter()
            .filter(|r| r.is_absolute())
            .cloned()
            .collect();
        roots.extend(policy.project_root().map(Path::to_path_buf));
        if let Some(git) = cwd.ancestors().find(|d| d.join(".git").exists()) {
            roots.push(git.to_path_buf());
        }
        if roots.is_empty() {
            roots.push(cwd.to_path_buf());
        }
        let mut riskgate_dirs = vec![
            policy.state_dir().to_path_buf(),
            policy.data_dir().to_path_buf(),
            riskgate_gate::paths::config_dir(),
        ];
        riskgate_dirs.retain(|d| !roots.iter().any(|r| r.starts_with(d)));
        Scope {
            cwd: cwd.to_path_buf(),
            roots,
            riskgate_dirs,
            project: OnceLock::new(),
        }
    }

    /// The working directory.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The resolved project (built now if needed).
    pub fn project(&self) -> &Project {
        self.project
            .get_or_init(|| Project::new(&self.cwd, &self.roots, &self.riskgate_dirs))
    }

    /// The project with another working directory (a hook's shell tool run in a subdirectory).
    pub(crate) fn project_in(&self, cwd: &Path) -> Project {
        if cwd == self.cwd {
            return self.project().clone();
        }
        Project {
            cwd: paths::resolve(&cwd.to_string_lossy(), Path::new("/"), None),
            ..self.project().clone()
        }
    }
}

/// An action with its assessment and what the gate needs to know about it.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The action.
    pub action: Action,
    /// Its assessment, path classes included.
    pub assessment: Assessment,
    /// The files it writes, for the policy's blocked and allowed paths.
    pub write_targets: Vec<String>,
    /// The directory it runs in.
    pub cwd: PathBuf,
}

impl Prepared {
    /// `ctx` for this action: its working directory and write targets.
    pub fn context(&self, ctx: &Context) -> Context {
        let mut c = ctx.clone();
        c.cwd = self.cwd.clone();
        c.write_targets = self.write_targets.clone();
        c
    }

    /// Decide through `gate` (standing approvals and denials, session cache, prompt, audit).
    pub fn evaluate(self, gate: &mut Gate, ctx: &Context) -> Outcome {
        let ctx = self.context(ctx);
        gate.evaluate(&self.action, self.assessment, &ctx)
    }
}

/// Assess `action` in `scope`, as every entry point does. A command runs in `dir` (relative
/// to the scope's working directory) when given.
pub fn prepare(engine: &Engine, scope: &Scope, action: &Action, dir: Option<&str>) -> Prepared {
    let cwd = match dir.filter(|d| !d.is_empty()) {
        Some(d) => scope.cwd().join(d),
        None => scope.cwd().to_path_buf(),
    };
    match action {
        Action::Command { command, shell } => {
            let (assessment, targets) =
                engine.assess_command_in_as(command, *shell, Some(scope), &cwd);
            Prepared {
                action: action.clone(),
                assessment,
                write_targets: targets.writes,
                cwd,
            }
        }
        other => Prepared {
            action: other.clone(),
            assessment: engine.assess(other),
            write_targets: Vec::new(),
            cwd,
        },
    }
}

/// The path-class findings of a command's targets in `project`.
pub(crate) fn target_findings(project: &Project, targets: &crate::Targets) -> Vec<Finding> {
    let mut extra: Vec<Finding> = Vec::new();
    for t in &targets.writes {
        let mut found = paths::write_findings(project, t, riskgate_model::WriteOp::Write);
        if targets.settings_appends.contains(t) {
            found
                .iter_mut()
                .filter(|f| f.rule_id == "path.persistence")
                .for_each(riskgate_rules::cap_for_settings);
        }
        if targets.template_copies.contains(t) {
            found.iter_mut().for_each(paths::cap_for_template);
        }
        if targets.hook_installs.contains(t) {
            found
                .iter_mut()
                .filter(|f| f.rule_id == "path.git-hooks")
                .for_each(riskgate_rules::cap_for_project_hook);
        }
        extra.extend(found);
    }
    for t in &targets.removals {
        extra.extend(paths::removal_findings(project, t));
    }
    extra
}

/// `a` with `extra` findings, its degraded state (and reason) kept.
pub fn with_extra(a: Assessment, extra: Vec<Finding>) -> Assessment {
    if extra.is_empty() {
        return a;
    }
    let degraded = a.degraded;
    let effects = a.effects;
    let mut findings = a.findings;
    findings.extend(extra);
    let mut out = Assessment::from_findings(a.kind, a.input, findings);
    out.degraded = degraded;
    out.effects = effects;
    out
}
