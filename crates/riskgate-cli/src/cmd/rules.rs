//! `riskgate rules list|show|test|lint`: the rules database, for people who read and write rules.

use std::path::PathBuf;
use std::process::ExitCode;

use riskgate::rules::{Rule, RuleSet, Severity, lint, test_rules};
use serde_json::json;

use crate::exit::Code;
use crate::output::Format;

/// Arguments of `riskgate rules`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// List the rules (built-in, plus the packs given with --pack-file).
    List {
        /// Only the rules of this pack (`git`, `filesystem` …).
        #[arg(long)]
        pack: Option<String>,
        /// Extra pack files to load over the built-in ones.
        #[arg(long = "pack-file", value_name = "FILE")]
        pack_files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Show one rule in full: what it does, why, examples, the safer alternative.
    Show {
        /// The rule id (`git.reset-hard`).
        id: String,
        /// Extra pack files to load over the built-in ones.
        #[arg(long = "pack-file", value_name = "FILE")]
        pack_files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run every rule's `match` / `not_match` examples (built-in packs and the FILEs given).
    /// Fails on a rule without examples, an example that disagrees, or a pack that does not load.
    Test {
        /// Pack files to test with the built-in ones.
        files: Vec<PathBuf>,
    },
    /// Report duplicate ids, shadowed rules and invalid patterns.
    Lint {
        /// Pack files to lint with the built-in ones.
        files: Vec<PathBuf>,
    },
}

/// Run `riskgate rules`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::List {
            pack,
            pack_files,
            format,
        } => {
            let (rules, ok) = load(&pack_files);
            let selected: Vec<&Rule> = rules
                .rules()
                .filter(|r| pack.as_deref().is_none_or(|p| r.pack() == p))
                .collect();
            match format {
                Format::Json => {
                    let v: Vec<_> = selected.iter().map(|r| rule_json(r)).collect();
                    outln!("{}", serde_json::to_string_pretty(&v)?);
                }
                Format::Text => {
                    for r in &selected {
                        outln!(
                            "{:<44} {:<8} {:>3}  {}",
                            r.id(),
                            r.level().to_string(),
                            r.score(),
                            r.description()
                        );
                    }
                    outln!("{} rules", selected.len());
                }
            }
            Ok(if ok { Code::Allow } else { Code::Error }.into())
        }
        Sub::Show {
            id,
            pack_files,
            format,
        } => {
            let (rules, _) = load(&pack_files);
            let Some(rule) = rules.get(&id) else {
                anyhow::bail!("no rule `{id}` (see `riskgate rules list`)");
            };
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&rule_json(rule))?),
                Format::Text => out!("{}", rule.explain()),
            }
            Ok(Code::Allow.into())
        }
        Sub::Test { files } => {
            let (rules, loaded) = load(&files);
            let report = test_rules(&rules);
            for f in &report.failures {
                eprintln!("riskgate: rule test failed: {f}");
            }
            outln!(
                "{} rules, {} examples: {} failure(s)",
                report.rules,
                report.examples,
                report.failures.len()
            );
            // the repository rules (rules/ci/repo.yaml): whole example files
            let repo_failures = riskgate::repo_files::rules::test_examples();
            for f in &repo_failures {
                eprintln!("riskgate: repository rule test failed: {f}");
            }
            let repo_rules = riskgate::repo_files::rules::rules().map_or(0, |r| r.len());
            outln!(
                "{repo_rules} repository rules ({}): {} failure(s)",
                riskgate::repo_files::rules::PACK_PATH,
                repo_failures.len()
            );
            Ok(if report.passed() && loaded && repo_failures.is_empty() {
                Code::Allow
            } else {
                Code::Error
            }
            .into())
        }
        Sub::Lint { files } => {
            let (rules, loaded) = load(&files);
            let issues = lint(&rules);
            for i in &issues {
                outln!("{i}");
            }
            let errors = issues
                .iter()
                .filter(|i| i.severity == Severity::Error)
                .count();
            outln!(
                "{} rules: {errors} error(s), {} warning(s)",
                rules.len(),
                issues.len() - errors
            );
            Ok(if errors == 0 && loaded {
                Code::Allow
            } else {
                Code::Error
            }
            .into())
        }
    }
}

/// The built-in rules plus `files`; load problems are printed, and make the result `false`.
fn load(files: &[PathBuf]) -> (RuleSet, bool) {
    if files.is_empty() {
        return (RuleSet::builtin(), true);
    }
    let (rules, errors) = RuleSet::with_user_packs(files);
    for e in &errors {
        eprintln!("riskgate: error: {e}");
    }
    (rules, errors.is_empty())
}

fn rule_json(r: &Rule) -> serde_json::Value {
    json!({
        "id": r.id(),
        "pack": r.pack(),
        "level": r.level(),
        "score": r.score(),
        "description": r.description(),
        "rationale": r.rationale(),
        "reversible": r.reversible(),
        "tags": r.tags().iter().map(|t| t.as_ref()).collect::<Vec<&str>>(),
        "alternative": r.alternative(),
        "condition": r.condition_summary(),
        "source": r.source(),
        "line": r.line(),
        "examples": {
            "match": r.examples_match().iter().map(|t| t.as_ref()).collect::<Vec<&str>>(),
            "not_match": r.examples_not_match().iter().map(|t| t.as_ref()).collect::<Vec<&str>>(),
        },
    })
}
