//! Shared fixtures for the gate's integration tests: an isolated directory tree (no user
//! file, state and data under a temp dir), assessments at a chosen level, gates with scripted
//! prompters.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use riskgate_gate::prompt::Answer;
use riskgate_gate::{CliOverrides, Context, Gate, Locations, Policy};
use riskgate_model::{Action, ActionKind, Assessment, Finding, RiskLevel};

pub struct Fixture {
    pub dir: tempfile::TempDir,
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The project directory (policy files are written here).
    pub fn project(&self) -> PathBuf {
        let p = self.root().join("project");
        std::fs::create_dir_all(&p).expect("project dir");
        p
    }

    pub fn locations(&self) -> Locations {
        Locations::isolated(self.root())
    }

    pub fn policy(&self) -> Policy {
        self.policy_with(&CliOverrides::default())
    }

    pub fn policy_with(&self, cli: &CliOverrides) -> Policy {
        Policy::load_with(&self.project(), &self.locations(), cli).expect("policy loads")
    }

    pub fn settings(&self) -> PathBuf {
        self.root().join("state").join("settings.json")
    }

    pub fn ctx(&self) -> Context {
        Context::new(self.project())
    }

    /// A gate whose prompter must not be called.
    pub fn gate(&self) -> Gate {
        Gate::new(self.policy())
            .with_prompter(|_: &str, _| -> Answer { panic!("the prompt must not be shown") })
    }

    /// A gate whose prompter answers `answer` and counts the questions in `asked`.
    pub fn gate_answering(&self, answer: Answer, asked: std::rc::Rc<std::cell::Cell<u32>>) -> Gate {
        Gate::new(self.policy()).with_prompter(move |_: &str, _| {
            asked.set(asked.get() + 1);
            answer
        })
    }
}

/// An assessment of `text` with one finding at `level`.
pub fn assessed(kind: ActionKind, text: &str, level: RiskLevel, rule: &str) -> Assessment {
    if level == RiskLevel::Safe {
        return Assessment::safe(kind, text);
    }
    let f = Finding::new(
        rule,
        level,
        level.min_score() + 5,
        format!("{rule} matched"),
    );
    Assessment::from_findings(kind, text, vec![f])
}

/// A command action and its assessment at `level`.
pub fn command(text: &str, level: RiskLevel) -> (Action, Assessment) {
    (
        Action::command(text),
        assessed(ActionKind::Command, text, level, "test.rule"),
    )
}

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("settings file");
    serde_json::from_str(&text).expect("valid JSON")
}
