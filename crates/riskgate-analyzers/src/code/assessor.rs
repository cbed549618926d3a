//! Seed 001's `RiskAssessor`: evaluate a code action against the rules (or hand it to a custom
//! assessor), and turn the triggered rules into an [`Assessment`] with level, reasons, affected
//! resources, reversibility, impact and recommendations.

use std::fmt;

use riskgate_model::{
    Action, ActionKind, Assessment, Finding, Language, Location, MAX_RESOURCES, RiskLevel, Span,
};
use serde::{Deserialize, Serialize};

use super::analysis::{Analysis, detect_language};
use super::calls::truncate;
use super::default_rules::default_rules;
use super::resources;
use super::rule::{Hit, RiskRule, RulePattern};

/// Seed 001's action dict: `{"action": "code", "code": …}`, with the language when known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeAction {
    /// The action type (seed 001's `action`; `code`).
    #[serde(default = "default_action", rename = "action")]
    pub action_type: String,
    /// The source text.
    pub code: String,
    /// The language; guessed from the code when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
}

fn default_action() -> String {
    "code".to_string()
}

impl CodeAction {
    /// A code action in `language` (None: guess).
    pub fn new(code: impl Into<String>, language: Option<Language>) -> CodeAction {
        CodeAction {
            action_type: default_action(),
            code: code.into(),
            language,
        }
    }

    /// Python code.
    pub fn python(code: impl Into<String>) -> CodeAction {
        CodeAction::new(code, Some(Language::Python))
    }

    /// JavaScript or TypeScript code.
    pub fn js(code: impl Into<String>) -> CodeAction {
        CodeAction::new(code, Some(Language::Js))
    }

    /// Shell code.
    pub fn sh(code: impl Into<String>) -> CodeAction {
        CodeAction::new(code, Some(Language::Sh))
    }

    /// From a model [`Action::Code`]; None for other actions.
    pub fn from_action(action: &Action) -> Option<CodeAction> {
        match action {
            Action::Code { code, language } => Some(CodeAction::new(code.clone(), *language)),
            _ => None,
        }
    }

    /// The language: the given one, or guessed.
    pub fn language(&self) -> Language {
        self.language.unwrap_or_else(|| detect_language(&self.code))
    }
}

/// Assesses a shell command line (the shell engine, plugged in by the facade).
pub type CommandAssessor = Box<dyn Fn(&str) -> Assessment + Send + Sync>;

/// Replaces rule-based evaluation entirely (seed 001's `custom_assessor`).
pub type CustomAssessor = Box<dyn Fn(&CodeAction) -> Assessment + Send + Sync>;

/// Assesses the risk of code actions.
pub struct RiskAssessor {
    rules: Vec<RiskRule>,
    custom: Option<CustomAssessor>,
    command_assessor: Option<CommandAssessor>,
}

impl fmt::Debug for RiskAssessor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RiskAssessor")
            .field("rules", &self.rule_names())
            .field("custom", &self.custom.is_some())
            .field("command_assessor", &self.command_assessor.is_some())
            .finish()
    }
}

impl Default for RiskAssessor {
    fn default() -> Self {
        RiskAssessor::new()
    }
}

impl RiskAssessor {
    /// An assessor with the [default rules](default_rules).
    pub fn new() -> RiskAssessor {
        RiskAssessor::with_rules(default_rules())
    }

    /// An assessor with exactly these rules (seed 001's `RiskAssessor(rules=…)`).
    pub fn with_rules(rules: Vec<RiskRule>) -> RiskAssessor {
        RiskAssessor {
            rules,
            custom: None,
            command_assessor: None,
        }
    }

    /// An assessor that delegates everything to `custom` (seed 001's `custom_assessor`).
    pub fn with_custom_assessor(
        custom: impl Fn(&CodeAction) -> Assessment + Send + Sync + 'static,
    ) -> RiskAssessor {
        RiskAssessor {
            rules: default_rules(),
            custom: Some(Box::new(custom)),
            command_assessor: None,
        }
    }

    /// Set or replace the custom assessor.
    pub fn set_custom_assessor(&mut self, custom: CustomAssessor) {
        self.custom = Some(custom);
    }

    /// Plug in an assessor for the shell commands code runs (subprocess argv, `os.system`
    /// strings …) and for shell code. Without one, the built-in command rules are used.
    pub fn set_command_assessor(&mut self, assessor: CommandAssessor) {
        self.command_assessor = Some(assessor);
    }

    /// Add a rule; a rule with the same name is replaced (names are unique).
    pub fn add_rule(&mut self, rule: RiskRule) {
        self.rules.retain(|r| r.name != rule.name);
        self.rules.push(rule);
    }

    /// Remove the rule named `name`; true if it existed.
    pub fn remove_rule(&mut self, name: &str) -> bool {
        let before = self.rules.len();
        self.rules.retain(|r| r.name != name);
        self.rules.len() != before
    }

    /// The rules, in evaluation order.
    pub fn rules(&self) -> &[RiskRule] {
        &self.rules
    }

    /// The rule names.
    pub fn rule_names(&self) -> Vec<&str> {
        self.rules.iter().map(|r| r.name.as_str()).collect()
    }

    /// Analyze the code without rating it (calls, commands, SQL …): what the rules see.
    pub fn analyze(&self, action: &CodeAction) -> Analysis {
        Analysis::new(&action.code, action.language())
    }

    /// Assess code text in a language (None: guess).
    pub fn assess_code(&self, code: &str, language: Option<Language>) -> Assessment {
        self.assess(&CodeAction::new(code, language))
    }

    /// Evaluate the risk of an action.
    pub fn assess(&self, action: &CodeAction) -> Assessment {
        if let Some(custom) = &self.custom {
            return custom(action);
        }
        let language = action.language();
        let analysis = Analysis::new(&action.code, language);
        let mut findings: Vec<Finding> = Vec::new();
        let mut degraded = analysis.incomplete;
        if let Some(hook) = &self.command_assessor {
            let (f, d) = self.hooked_commands(hook, action, &analysis, language);
            findings.extend(f);
            degraded |= d;
            // The built-in command rules still see the commands: the shell engine's findings
            // come on top, so the code assessor with the engine plugged in never rates lower
            // than the seed-001 assessor alone (one verdict for the library and the CLI).
        }
        for rule in &self.rules {
            let hits = match &rule.pattern {
                RulePattern::Regex(re) => re
                    .find_iter(&analysis.executable)
                    .take(20)
                    .map(|m| {
                        let line = line_of(&analysis.executable, m.start());
                        Hit::new(m.as_str()).at(Span::new(m.start(), m.end()), line)
                    })
                    .collect(),
                RulePattern::Predicate(p) => {
                    if p(action) {
                        vec![Hit::default()]
                    } else {
                        Vec::new()
                    }
                }
                RulePattern::Analysis(f) => f(&analysis),
            };
            findings.extend(findings_of(rule, hits));
        }
        let triggered = !findings.is_empty();
        let mut assessment =
            Assessment::from_findings(ActionKind::Code, action.code.clone(), findings);
        if triggered {
            for r in resources::global(&analysis) {
                if assessment.affected_resources.len() >= MAX_RESOURCES {
                    break;
                }
                if !assessment.affected_resources.contains(&r) {
                    assessment.affected_resources.push(r);
                }
            }
        }
        if degraded {
            assessment.mark_degraded();
        }
        assessment
    }

    /// Give every command the code runs (or the whole shell snippet) to the command assessor.
    fn hooked_commands(
        &self,
        hook: &CommandAssessor,
        action: &CodeAction,
        analysis: &Analysis,
        language: Language,
    ) -> (Vec<Finding>, bool) {
        let mut out = Vec::new();
        let mut degraded = false;
        if language == Language::Sh {
            let a = hook(&action.code);
            degraded |= a.degraded;
            out.extend(a.findings);
            return (out, degraded);
        }
        let mut seen: Vec<&str> = Vec::new();
        for c in &analysis.commands {
            if seen.contains(&c.text.as_str()) {
                continue;
            }
            seen.push(&c.text);
            // a command piped into (`| tail`, split out of a shell text) is read without the
            // pipe mark: the whole pipeline is read where the text it came from is
            let a = hook(c.text.strip_prefix("| ").unwrap_or(&c.text));
            degraded |= a.degraded;
            for mut f in a.findings {
                f.span = Some(c.span);
                let context = format!(
                    "command run by {} (line {}): {}",
                    c.via,
                    c.line,
                    truncate(&c.text, 120)
                );
                let mut loc = f.location.take().unwrap_or_default();
                loc.line = Some(c.line);
                loc.context = Some(match loc.context {
                    Some(inner) => format!("{inner} < {context}"),
                    None => context,
                });
                f.location = Some(loc);
                out.push(f);
            }
        }
        (out, degraded)
    }
}

fn line_of(text: &str, pos: usize) -> u32 {
    text.get(..pos)
        .map(|p| p.matches('\n').count() as u32 + 1)
        .unwrap_or(1)
}

/// One finding per (level, reason) group of a rule's hits.
fn findings_of(rule: &RiskRule, hits: Vec<Hit>) -> Vec<Finding> {
    let mut groups: Vec<(RiskLevel, String, bool, Vec<Hit>)> = Vec::new();
    for h in hits {
        let level = h.level.unwrap_or(rule.risk_level);
        let reason = h.reason.clone().unwrap_or_else(|| rule.reason.clone());
        let reversible = h.reversible.unwrap_or(rule.reversible);
        match groups
            .iter_mut()
            .find(|g| g.0 == level && g.1 == reason && g.2 == reversible)
        {
            Some(g) => g.3.push(h),
            None => groups.push((level, reason, reversible, vec![h])),
        }
    }
    groups
        .into_iter()
        .map(|(level, reason, reversible, hits)| {
            let mut f = Finding::new(rule.id(), level, rule.score_for(level), reason)
                .reversible(reversible);
            if let Some(first) = hits.first() {
                if !first.matched.is_empty() {
                    f = f.with_match(truncate(&first.matched, 200), first.span);
                }
                let mut lines: Vec<u32> = hits.iter().filter_map(|h| h.line).collect();
                lines.dedup();
                let context = match (first.context.clone(), hits.len()) {
                    (c, 1) => c,
                    (c, n) => {
                        let ls: Vec<String> = lines.iter().take(8).map(u32::to_string).collect();
                        let more = format!("{n} occurrences (lines {})", ls.join(", "));
                        Some(c.map_or(more.clone(), |c| format!("{c}; {more}")))
                    }
                };
                if first.line.is_some() || context.is_some() {
                    f = f.with_location(Location {
                        line: first.line,
                        context,
                        ..Location::default()
                    });
                }
            }
            let mut res: Vec<String> = Vec::new();
            for r in hits.iter().flat_map(|h| h.resources.iter()) {
                if res.len() >= MAX_RESOURCES {
                    break;
                }
                if !res.contains(r) {
                    res.push(r.clone());
                }
            }
            f = f.with_resources(res);
            if let Some(m) = &rule.mitigation {
                f = f.with_mitigation(m.clone());
            }
            f.tags = rule.tags.clone();
            f
        })
        .collect()
}
