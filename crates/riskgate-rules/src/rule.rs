//! The runtime form of a rule: metadata for `rules show` (ruff's shape: what it does, why it is
//! bad, example, use instead, known false positives) and its condition.
//!
//! Built-in rules live in static tables generated at build time (all `Cow::Borrowed`, no
//! start-up work); user rules are the same type with owned strings. Regexes and globs are
//! compiled lazily, once per rule, the first time the rule is a candidate.

use std::borrow::Cow;
use std::sync::OnceLock;

use riskgate_model::RiskLevel;

use crate::predicate::CompiledRule;

/// A string that is static for built-in rules and owned for user rules.
pub type Text = Cow<'static, str>;
/// A list that is static for built-in rules and owned for user rules.
pub type List<T> = Cow<'static, [T]>;

/// An argument or redirect-target predicate (`glob:`, `re:`, `exact:`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pred {
    /// The word equals this text.
    Exact(Text),
    /// The word matches this glob (`literal_separator`: `*` does not cross `/`).
    Glob(Text),
    /// The regex finds a match in the word (anchor it with `^…$` for a whole-word match).
    Regex(Text),
}

impl Pred {
    /// The predicate as written in a pack (`glob:/etc/**`).
    pub fn to_spec(&self) -> String {
        match self {
            Pred::Exact(t) => format!("exact:{t}"),
            Pred::Glob(t) => format!("glob:{t}"),
            Pred::Regex(t) => format!("re:{t}"),
        }
    }
}

/// A structured command condition (`match:`); every given key must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CommandMatch {
    /// Program names (any of them); empty = any program.
    pub program: List<Text>,
    /// Leading positional words, in order; each may be `a|b`.
    pub subcommand: List<Text>,
    /// Canonical flags that must all be present.
    pub flags_all: List<Text>,
    /// At least one of these flags.
    pub flags_any: List<Text>,
    /// None of these flags.
    pub flags_none: List<Text>,
    /// At least one positional (after the subcommand) matches one of these.
    pub args_any: List<Pred>,
    /// Every positional (after the subcommand) matches one of these; false when there is none.
    pub args_all: List<Pred>,
    /// No positional matches any of these.
    pub args_none: List<Pred>,
    /// Positionals matching one of these are ignored by `args_any`, `args_all`, `args_none`.
    pub args_except: List<Pred>,
    /// The first positional (after the subcommand) matches one of these.
    pub args_first: List<Pred>,
    /// The last positional matches one of these.
    pub args_last: List<Pred>,
    /// Only (`true`) or never (`false`) under sudo/doas/su.
    pub privileged: Option<bool>,
    /// A write redirection whose target matches one of these.
    pub redirect_to: List<Pred>,
    /// Stdin piped from one of these programs.
    pub stdin_from: List<Text>,
    /// Only (`true`) or never (`false`) through `ssh host CMD`.
    pub remote: Option<bool>,
    /// Standard input is one of these kinds (`terminal`, `pipe`, `file`, `heredoc`); the
    /// terminal when nothing is piped, redirected or inherited from a wrapper.
    pub stdin: List<Text>,
}

/// Kind of a text pattern (seed 004's three pattern types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatternKind {
    /// A linear-time regex (the `regex` crate).
    Regex,
    /// A whole-command glob (`*` matches any text, `/` included).
    Glob,
    /// The text equals this exactly.
    Exact,
}

/// What a text pattern is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Each simple command's canonical form (`rm --recursive --force /`).
    Canonical,
    /// The input text.
    Raw,
}

/// A text pattern condition (`pattern:`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PatternMatch {
    /// Regex, glob or exact.
    pub kind: PatternKind,
    /// The pattern as written.
    pub text: Text,
    /// Canonical or raw.
    pub on: Target,
    /// The regex actually compiled (the glob translated, the exact text escaped and anchored).
    pub regex: Text,
    /// Lowercase literals of which one occurs in every match (prefilter); empty = unfiltered.
    pub literals: List<Text>,
}

/// A rule's condition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[allow(clippy::large_enum_variant)] // lives in static tables, where it cannot be boxed
pub enum Matcher {
    /// A structured command condition.
    Command(CommandMatch),
    /// A text pattern.
    Pattern(PatternMatch),
}

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleOrigin {
    /// Embedded from `rules/*.yaml` at build time.
    Builtin,
    /// A built-in rule whose level, score or state a user pack changed.
    Overridden,
    /// A user pack (`--rules FILE`, config `rules.extra`).
    User,
}

/// One rule of the database.
#[derive(Debug)]
pub struct Rule {
    pub(crate) id: Text,
    pub(crate) pack: Text,
    pub(crate) source: Text,
    pub(crate) line: u32,
    pub(crate) level: RiskLevel,
    pub(crate) score: u8,
    pub(crate) description: Text,
    pub(crate) rationale: Option<Text>,
    pub(crate) reversible: bool,
    pub(crate) tags: List<Text>,
    pub(crate) alternative: Option<Text>,
    pub(crate) false_positives: Option<Text>,
    pub(crate) matcher: Matcher,
    pub(crate) examples_match: List<Text>,
    pub(crate) examples_not_match: List<Text>,
    pub(crate) disabled: bool,
    pub(crate) origin: RuleOrigin,
    pub(crate) compiled: OnceLock<CompiledRule>,
}

impl Clone for Rule {
    fn clone(&self) -> Rule {
        Rule {
            id: self.id.clone(),
            pack: self.pack.clone(),
            source: self.source.clone(),
            line: self.line,
            level: self.level,
            score: self.score,
            description: self.description.clone(),
            rationale: self.rationale.clone(),
            reversible: self.reversible,
            tags: self.tags.clone(),
            alternative: self.alternative.clone(),
            false_positives: self.false_positives.clone(),
            matcher: self.matcher.clone(),
            examples_match: self.examples_match.clone(),
            examples_not_match: self.examples_not_match.clone(),
            disabled: self.disabled,
            origin: self.origin,
            compiled: OnceLock::new(),
        }
    }
}

impl Rule {
    /// Stable id (`git.reset-hard`).
    pub fn id(&self) -> &str {
        &self.id
    }
    /// Pack name (`git`).
    pub fn pack(&self) -> &str {
        &self.pack
    }
    /// The file it was read from (`rules/git.yaml` for built-in rules).
    pub fn source(&self) -> &str {
        &self.source
    }
    /// 1-based line of the rule in its file (0 when unknown).
    pub fn line(&self) -> u32 {
        self.line
    }
    /// The level this rule sets at least.
    pub fn level(&self) -> RiskLevel {
        self.level
    }
    /// Base score, 0-100.
    pub fn score(&self) -> u8 {
        self.score
    }
    /// What it detects ("What it does").
    pub fn description(&self) -> &str {
        &self.description
    }
    /// Why it is dangerous ("Why is this bad?").
    pub fn rationale(&self) -> Option<&str> {
        self.rationale.as_deref()
    }
    /// Whether the action can be undone.
    pub fn reversible(&self) -> bool {
        self.reversible
    }
    /// Tags (`filesystem`, `destructive`, …).
    pub fn tags(&self) -> &[Text] {
        &self.tags
    }
    /// Safer alternative ("Use instead").
    pub fn alternative(&self) -> Option<&str> {
        self.alternative.as_deref()
    }
    /// Known false positives ("Known problems").
    pub fn false_positives(&self) -> Option<&str> {
        self.false_positives.as_deref()
    }
    /// The condition.
    pub fn matcher(&self) -> &Matcher {
        &self.matcher
    }
    /// Command lines that must trigger this rule ("Example").
    pub fn examples_match(&self) -> &[Text] {
        &self.examples_match
    }
    /// Near misses that must not trigger it.
    pub fn examples_not_match(&self) -> &[Text] {
        &self.examples_not_match
    }
    /// True when turned off (by a user override).
    pub fn disabled(&self) -> bool {
        self.disabled
    }
    /// Built-in, overridden or user.
    pub fn origin(&self) -> RuleOrigin {
        self.origin
    }

    /// The compiled predicates and pattern, built on first use.
    pub(crate) fn compiled(&self) -> &CompiledRule {
        self.compiled
            .get_or_init(|| CompiledRule::compile(&self.matcher))
    }

    /// `rules show ID` text in ruff's shape: what it does, why it is bad, example, use instead,
    /// known false positives, and the condition.
    pub fn explain(&self) -> String {
        let mut out = format!(
            "{} ({} {}, {}{})\n\n## What it does\n{}\n",
            self.id,
            self.level,
            self.score,
            if self.reversible {
                "reversible"
            } else {
                "irreversible"
            },
            if self.disabled { ", disabled" } else { "" },
            self.description
        );
        if let Some(r) = &self.rationale {
            out.push_str(&format!("\n## Why is this bad?\n{r}\n"));
        }
        if let Some(e) = self.examples_match.first() {
            out.push_str(&format!("\n## Example\n```sh\n{e}\n```\n"));
        }
        if let Some(a) = &self.alternative {
            out.push_str(&format!("\n## Use instead\n{a}\n"));
        }
        if let Some(f) = &self.false_positives {
            out.push_str(&format!("\n## Known problems\n{f}\n"));
        }
        if !self.tags.is_empty() {
            out.push_str(&format!("\nTags: {}\n", self.tags.join(", ")));
        }
        out.push_str(&format!(
            "Source: {}{}\nCondition: {}\n",
            self.source,
            if self.line > 0 {
                format!(":{}", self.line)
            } else {
                String::new()
            },
            self.condition_summary()
        ));
        out
    }

    /// The condition in one line (`program=git subcommand=[reset] flags_all=[--hard]`).
    pub fn condition_summary(&self) -> String {
        match &self.matcher {
            Matcher::Pattern(p) => format!(
                "{} {:?} on {}",
                match p.kind {
                    PatternKind::Regex => "regex",
                    PatternKind::Glob => "glob",
                    PatternKind::Exact => "exact",
                },
                p.text,
                match p.on {
                    Target::Canonical => "canonical",
                    Target::Raw => "raw",
                }
            ),
            Matcher::Command(c) => {
                let mut parts = Vec::new();
                let list = |name: &str, v: &[Text], parts: &mut Vec<String>| {
                    if !v.is_empty() {
                        parts.push(format!("{name}=[{}]", v.join(", ")));
                    }
                };
                let plist = |name: &str, v: &[Pred], parts: &mut Vec<String>| {
                    if !v.is_empty() {
                        let s: Vec<String> = v.iter().map(Pred::to_spec).collect();
                        parts.push(format!("{name}=[{}]", s.join(", ")));
                    }
                };
                list("program", &c.program, &mut parts);
                list("subcommand", &c.subcommand, &mut parts);
                list("flags_all", &c.flags_all, &mut parts);
                list("flags_any", &c.flags_any, &mut parts);
                list("flags_none", &c.flags_none, &mut parts);
                plist("args_any", &c.args_any, &mut parts);
                plist("args_all", &c.args_all, &mut parts);
                plist("args_none", &c.args_none, &mut parts);
                plist("args_except", &c.args_except, &mut parts);
                plist("args_first", &c.args_first, &mut parts);
                plist("args_last", &c.args_last, &mut parts);
                if let Some(p) = c.privileged {
                    parts.push(format!("privileged={p}"));
                }
                plist("redirect_to", &c.redirect_to, &mut parts);
                list("stdin_from", &c.stdin_from, &mut parts);
                if let Some(r) = c.remote {
                    parts.push(format!("remote={r}"));
                }
                list("stdin", &c.stdin, &mut parts);
                parts.join(" ")
            }
        }
    }
}

/// One pack of the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackInfo {
    /// Pack name.
    pub name: Text,
    /// One line about it.
    pub description: Text,
    /// The file.
    pub source: Text,
    /// Number of rules.
    pub rules: usize,
}
