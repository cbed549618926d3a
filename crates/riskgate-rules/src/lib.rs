//! The rules database (packs in `rules/`), its matching engine and seed-004 scoring for shell
//! commands.
//!
//! The packs `rules/*.yaml` are validated and turned into static tables at build time
//! (`build.rs`), so loading the database costs nothing at start-up; regexes and globs compile
//! lazily, per rule, the first time a rule is a candidate. Structured rules are indexed by
//! program name; text patterns sit behind an Aho-Corasick literal prefilter and a regex set.
//! User packs (YAML, TOML, JSON) add rules and override built-in ones by id.
//!
//! ```no_run
//! use riskgate_model::RiskLevel;
//! use riskgate_rules::CommandEngine;
//!
//! let engine = CommandEngine::builtin();
//! // An everyday command.
//! assert_eq!(engine.assess("ls -la").level, RiskLevel::Safe);
//! // A destructive one: the finding says which rule and why.
//! let a = engine.assess("git push --force origin main");
//! assert!(a.requires_approval());
//! assert!(a.rule_ids().contains(&"git.push-force"));
//! // An evasion: wrappers, quotes and variables are seen through.
//! assert_eq!(engine.assess("sudo bash -c 'x=rm; $x -rf /'").level, RiskLevel::Critical);
//! ```
//!
//! Pipeline stages, one module each: `spec` (the pack format) → `builtin` / `loader` →
//! [`RuleSet`] → `matcher` (+ `predicate`, `prefilter`) → `scoring`, `exposure`, `heuristics`
//! → `effects` (what each command does to what, scored by effect × target × scope)
//! → [`CommandEngine`]; [`test_rules`] and [`lint`] check the database.
#![deny(missing_docs)]

mod builtin;
mod credscope;
mod effects;
mod engine;
mod envscope;
mod exposure;
mod flow;
mod gitscope;
mod heuristics;
mod hookscope;
mod lint;
mod loader;
mod matcher;
mod ownfiles;
mod predicate;
mod prefilter;
mod printed;
mod psdata;
mod psliteral;
mod rawtext;
mod rcappend;
mod rule;
mod ruleset;
mod scoring;
mod seed004;
mod sinks;
mod spec;
mod testing;

pub use engine::CommandEngine;
pub use envscope::{cap_at_medium, cap_for_development, command_environment, may_be_lowered};
pub use hookscope::{cap_for_project_hook, installs_project_hook};
pub use lint::{LintIssue, LintKind, Severity, lint};
pub use loader::RuleLoadError;
pub use rawtext::file_heredocs;
pub use rcappend::{appends_only_settings, cap_for_settings};
pub use rule::{
    CommandMatch, List, Matcher, PackInfo, PatternKind, PatternMatch, Pred, Rule, RuleOrigin,
    Target, Text,
};
pub use ruleset::RuleSet;
pub use scoring::{ExecClass, ExecInfo, executable};
pub use testing::{FailureKind, TestFailure, TestReport, example_shell, test_rule, test_rules};
