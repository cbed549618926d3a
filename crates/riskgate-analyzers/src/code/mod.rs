//! Code actions (seed 001): a [`RiskAssessor`] with default rules over Python, JavaScript /
//! TypeScript and shell snippets.
//!
//! Unlike the seed's regexes, rules see the code as tokens: comments, docstrings and string
//! literals that are never executed cannot trigger, `"{}".format(x)` is not disk formatting,
//! and calls are matched by their resolved name through imports and aliases.

mod analysis;
mod assessor;
mod bindings;
mod calls;
mod commands;
mod dbenv;
mod default_rules;
mod effects;
mod embedded;
mod fold;
mod foreign;
mod lex_js;
mod lex_python;
mod loops;
mod matchers;
mod resources;
mod rule;
mod sends;
mod shell_words;
mod tempdirs;
mod token;

pub use analysis::{
    Analysis, Arg, ArgValue, Assignment, Call, EmbeddedCommand, EmbeddedSql, MAX_DEPTH,
    ShellCommand, Store, StringLit, detect_language,
};
pub use assessor::{CodeAction, CommandAssessor, CustomAssessor, RiskAssessor};
pub use default_rules::default_rules;
pub use embedded::looks_like_sql;
pub use rule::{ActionPredicate, AnalysisMatcher, CodeError, Hit, RiskRule, RulePattern};
pub use shell_words::{SimpleCommand, Split, join_argv, split as split_shell};

/// Truncate text to at most `max` bytes on a character boundary, marking the cut with `…`.
pub(crate) fn truncate_text(s: &str, max: usize) -> String {
    calls::truncate(s, max)
}

/// `table:NAME` resources named in SQL text (FROM, INTO, UPDATE, JOIN, TABLE clauses).
pub(crate) fn sql_tables(sql: &str) -> Vec<String> {
    resources::tables(sql)
}
