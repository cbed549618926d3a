//! Seed 004's generic scoring stages for one simple command: executable base score (the table in
//! `data/executables.yaml`), argument score (`/`, `~`, system paths, globs, `--recursive`,
//! `--force`, weighted by the executable's class) and the privilege multiplier
//! (`(base + args) × 1.5` under sudo/doas/su).
//!
//! The generic score alone stays at most MEDIUM ([`UNPRIVILEGED_CAP`]): everyday commands must
//! not become HIGH by arithmetic. Under privilege it may reach HIGH ([`PRIVILEGED_CAP`]), never
//! CRITICAL: that takes a rule.

use riskgate_model::{Finding, RiskLevel};

use crate::builtin;
use crate::matcher::CommandView;

/// How much dangerous arguments add for an executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecClass {
    /// Display and search: arguments add nothing.
    Read,
    /// Modify files or settings: arguments add half.
    Write,
    /// Delete, overwrite, wipe: arguments add fully.
    Destroy,
    /// Run other code: arguments add nothing.
    Exec,
    /// Talk to other hosts: arguments add nothing.
    Network,
    /// Change the machine: arguments add half.
    System,
    /// Anything else: arguments add a quarter.
    Other,
}

impl ExecClass {
    /// Percentage of the argument score that counts.
    pub fn arg_weight(self) -> u32 {
        match self {
            ExecClass::Read | ExecClass::Exec | ExecClass::Network => 0,
            ExecClass::Write | ExecClass::System => 50,
            ExecClass::Destroy => 100,
            ExecClass::Other => 25,
        }
    }
}

/// Base score and class of an executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecInfo {
    /// Base score 0-100.
    pub base: u8,
    /// Class.
    pub class: ExecClass,
}

/// Score of a program that is not in the table.
pub const UNKNOWN_EXECUTABLE: ExecInfo = ExecInfo {
    base: 5,
    class: ExecClass::Other,
};

/// Highest generic score without privilege (MEDIUM).
pub const UNPRIVILEGED_CAP: u32 = 55;
/// Highest generic score under privilege (HIGH, never CRITICAL).
pub const PRIVILEGED_CAP: u32 = 70;
/// Generic scores below this are not reported as findings.
pub const REPORT_THRESHOLD: u32 = 10;

/// Base score and class of `program` (unknown programs: [`UNKNOWN_EXECUTABLE`]).
pub fn executable(program: &str) -> ExecInfo {
    builtin::executable(program).unwrap_or(UNKNOWN_EXECUTABLE)
}

/// Top-level directories whose loss breaks the system (one list, in the effect model).
pub(crate) use riskgate_model::effect::SYSTEM_DIRS;

/// How dangerous a path-like argument is as the target of a destructive command, and why.
pub(crate) fn path_danger(word: &str) -> (u32, &'static str) {
    // a loop's variable over lines read: the most dangerous of its values
    if word.contains('\n') {
        return riskgate_shell::word_values(word)
            .map(path_danger)
            .max_by_key(|(points, _)| *points)
            .unwrap_or((0, ""));
    }
    let trimmed = word.trim_end_matches(['*', '.']).trim_end_matches('/');
    let trimmed_root = word.trim_end_matches('*').trim_end_matches('/');
    match word {
        "/" | "/*" | "/." | "//" | "/.*" => return (45, "the root directory"),
        "~" | "~/" | "~/*" | "~/." | "~/.*" => return (35, "the home directory"),
        "." | "./" | "*" | "./*" | ".*" | ".." | "../" | "../*" => {
            return (20, "the current directory or all its files");
        }
        _ => {}
    }
    if trimmed_root.is_empty() {
        return (45, "the root directory");
    }
    if SYSTEM_DIRS.contains(&trimmed) || SYSTEM_DIRS.contains(&trimmed_root) {
        return (35, "a system directory");
    }
    if SYSTEM_DIRS
        .iter()
        .any(|d| word.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
    {
        // a package manager's cache or downloaded indexes, fetched again on the next update
        if riskgate_model::effect::classify_path(word)
            == riskgate_model::effect::TargetClass::BuildOutput
        {
            return (0, "a package manager's cache");
        }
        return (20, "a path under a system directory");
    }
    if word.starts_with("~/") {
        return (10, "a path in the home directory");
    }
    if word.starts_with('/') {
        return (5, "an absolute path");
    }
    (0, "")
}

/// The generic score of one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GenericScore {
    pub(crate) base: u32,
    pub(crate) args: u32,
    pub(crate) privileged: bool,
    pub(crate) total: u32,
    pub(crate) reasons: Vec<String>,
}

/// True when the command only shows what it would do. A dry-run option set to a value that
/// turns it off (`kubectl … --dry-run=none`, `--dry-run=false`) is no dry run (the flag match
/// says so).
pub(crate) fn is_dry_run(view: &CommandView<'_>) -> bool {
    view.help
        || [
            "--dry-run",
            "--dry_run",
            "--dryrun",
            "--simulate",
            "--what-if",
            "--version",
            "-WhatIf",
        ]
        .iter()
        .any(|f| view.has_flag(f))
}

/// Whether `view` is a dry run of a program whose dry run is documented to stop its change
/// (`data/effects.yaml` `dry_run_programs`, and any PowerShell cmdlet's `-WhatIf`): the rules
/// it matches describe what would happen, not what happens.
pub(crate) fn is_honoured_dry_run(view: &CommandView<'_>) -> bool {
    let program = view.cmd.program.as_str();
    let cmdlet = program.split_once('-').is_some_and(|(verb, noun)| {
        verb.starts_with(|c: char| c.is_ascii_uppercase()) && !noun.is_empty()
    });
    !view.help
        && is_dry_run(view)
        && (crate::effects::honours_dry_run(program) || (cmdlet && view.has_flag("-WhatIf")))
}

/// Executable, argument and privilege stages for one command.
pub(crate) fn generic_score(view: &CommandView<'_>) -> GenericScore {
    let cmd = view.cmd;
    let info = executable(&cmd.program);
    // When the effect table says this invocation only reads (`wipefs` without `--all`,
    // `sfdisk --dump`), the executable counts as a look and its arguments add nothing.
    let harmless = crate::effects::described_as_harmless(view);
    let base = if harmless {
        u32::from(info.base).min(10)
    } else {
        u32::from(info.base)
    };
    let mut reasons = Vec::new();
    let mut raw_args = 0u32;
    if !is_dry_run(view) && !harmless {
        let mut worst = (0u32, "", "");
        for p in &view.positionals {
            let (s, why) = path_danger(&p.text);
            if s > worst.0 {
                worst = (s, why, &p.text);
            }
        }
        if worst.0 > 0 {
            raw_args += worst.0;
            reasons.push(format!("{} `{}`", worst.1, worst.2));
        }
        for (flag, s) in [
            ("--recursive", 10),
            ("--force", 5),
            ("--no-preserve-root", 40),
        ] {
            if view.has_flag(flag) {
                raw_args += s;
                reasons.push(flag.to_string());
            }
        }
    }
    let args = raw_args * info.class.arg_weight() / 100;
    if args == 0 {
        reasons.clear();
    }
    let privileged = cmd.privileged;
    let mut total = base + args;
    let cap = if privileged {
        total = total * 3 / 2;
        PRIVILEGED_CAP
    } else {
        UNPRIVILEGED_CAP
    };
    GenericScore {
        base,
        args,
        privileged,
        total: total.min(cap),
        reasons,
    }
}

/// The `score.executable` finding of one command, when it is worth reporting.
pub(crate) fn executable_finding(view: &CommandView<'_>) -> Option<Finding> {
    let g = generic_score(view);
    if g.total < REPORT_THRESHOLD {
        return None;
    }
    let score = u8::try_from(g.total).unwrap_or(100);
    let program = if view.cmd.program.is_empty() {
        "command"
    } else {
        &view.cmd.program
    };
    let mut description = format!("`{program}`: executable base {}", g.base);
    if g.args > 0 {
        description.push_str(&format!(
            " + arguments {} ({})",
            g.args,
            g.reasons.join(", ")
        ));
    }
    if g.privileged {
        description.push_str(" × 1.5 with elevated privileges");
    }
    Some(
        Finding::new(
            "score.executable",
            RiskLevel::from_score(score),
            score,
            description,
        )
        .with_match(view.canonical.clone(), Some(view.cmd.span)),
    )
}

/// The wrapper that elevated privileges (`sudo`, `doas`, `su` …), if any.
pub(crate) fn privilege_wrapper<'a>(view: &CommandView<'a>) -> Option<&'a str> {
    if !view.cmd.privileged {
        return None;
    }
    Some(
        view.cmd
            .wrappers
            .iter()
            .map(|w| w.name.as_str())
            .find(|n| ["sudo", "doas", "su", "pkexec", "run0", "su -c"].contains(n))
            .unwrap_or("sudo"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_danger_ranks_targets() {
        assert_eq!(path_danger("/").0, 45);
        assert_eq!(path_danger("/*").0, 45);
        assert_eq!(path_danger("~").0, 35);
        assert_eq!(path_danger("/etc").0, 35);
        assert_eq!(path_danger("/etc/").0, 35);
        assert_eq!(path_danger("/usr/*").0, 35);
        assert_eq!(path_danger("/etc/nginx").0, 20);
        assert_eq!(path_danger(".").0, 20);
        assert_eq!(path_danger("node_modules").0, 0);
        assert_eq!(path_danger("/tmp/x").0, 5);
        assert_eq!(path_danger("/etcetera").0, 5);
    }

    #[test]
    fn table_has_rm_above_ls() {
        assert!(executable("rm").base > executable("ls").base);
        assert_eq!(executable("rm").class, ExecClass::Destroy);
        assert_eq!(executable("no-such-tool"), UNKNOWN_EXECUTABLE);
    }
}
