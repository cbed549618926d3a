//! The hook's answer before it is put in an agent's words ([`Verdict`]), and after ([`Reply`]:
//! what to print and how to exit).

use riskgate::RiskLevel;

/// The hook's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Answer {
    /// riskgate does not judge this tool: the agent's own permission flow applies.
    NoOpinion,
    /// Let it run.
    Allow,
    /// A person must confirm (the agent asks its user).
    Ask,
    /// Refuse.
    Deny,
}

impl Answer {
    /// `allow`, `ask`, `deny` (`allow` for no opinion).
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::NoOpinion | Answer::Allow => "allow",
            Answer::Ask => "ask",
            Answer::Deny => "deny",
        }
    }
}

/// The decision for one call, with the reason the agent and its user read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The decision.
    pub answer: Answer,
    /// Why (never empty: Codex rejects a deny without a reason).
    pub reason: String,
    /// The final risk level, when an assessment was made.
    pub level: Option<RiskLevel>,
    /// The verdict comes from an error (malformed payload, internal error, time limit).
    pub error: bool,
}

impl Verdict {
    /// A verdict.
    pub fn new(answer: Answer, reason: impl Into<String>, level: Option<RiskLevel>) -> Verdict {
        let mut reason = reason.into();
        if reason.trim().is_empty() {
            reason = "riskgate gave no reason".to_string();
        }
        Verdict {
            answer,
            reason,
            level,
            error: false,
        }
    }

    /// The verdict on an error: ask (an agent that cannot ask gets deny), never allow.
    pub fn on_error(err: &crate::HookError) -> Verdict {
        Verdict {
            answer: Answer::Ask,
            reason: format!(
                "riskgate could not assess this tool call ({err}); a person must decide"
            ),
            level: None,
            error: true,
        }
    }

    /// No opinion.
    pub fn no_opinion(reason: impl Into<String>) -> Verdict {
        Verdict::new(Answer::NoOpinion, reason, None)
    }

    /// This verdict for an agent that cannot ask: ask becomes deny, saying so.
    pub fn without_ask(mut self) -> Verdict {
        if self.answer == Answer::Ask {
            self.answer = Answer::Deny;
            self.reason = format!(
                "{} (refused: a person's approval is needed and this agent cannot ask for it)",
                self.reason
            );
        }
        self
    }

    /// The verdict for several actions of one call: the strictest answer wins; its reasons are
    /// joined (at most three).
    pub fn combine(verdicts: Vec<Verdict>) -> Verdict {
        let Some(worst) = verdicts.iter().map(|v| v.answer).max() else {
            return Verdict::no_opinion("nothing to judge");
        };
        let level = verdicts.iter().filter_map(|v| v.level).max();
        let error = verdicts.iter().any(|v| v.error);
        let top: Vec<&Verdict> = verdicts.iter().filter(|v| v.answer == worst).collect();
        let mut reason = top
            .iter()
            .take(3)
            .map(|v| v.reason.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        if top.len() > 3 {
            reason.push_str(&format!(" (and {} more)", top.len() - 3));
        }
        Verdict {
            answer: worst,
            reason,
            level,
            error,
        }
    }
}

/// What the hook process prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Standard output: one JSON object, or nothing.
    pub stdout: String,
    /// Standard error (for people and logs).
    pub stderr: String,
    /// The exit code.
    pub exit: u8,
}

impl Reply {
    /// One JSON object on stdout, exit 0.
    pub fn json(value: &serde_json::Value) -> Reply {
        Reply {
            stdout: format!("{value}\n"),
            stderr: String::new(),
            exit: 0,
        }
    }

    /// Nothing on stdout ("no opinion"), exit 0.
    pub fn empty() -> Reply {
        Reply {
            stdout: String::new(),
            stderr: String::new(),
            exit: 0,
        }
    }
}
