//! Shared fixtures for the workflow tests: an isolated directory tree (no user policy, state
//! and audit data under a temp dir), analyzers with scripted prompters and a captured display,
//! and small workflow builders.
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use riskgate::gate::prompt::Answer;
use riskgate::gate::{CliOverrides, Gate, Locations, Policy};
use riskgate_workflow::{AnalyzeOptions, WorkflowIr, WorkflowRiskAnalyzer};
use serde_json::{Value, json};

pub struct Fixture {
    pub dir: tempfile::TempDir,
    /// What the analyzer showed (interactive mode).
    pub shown: Rc<RefCell<Vec<u8>>>,
    /// Prompt questions asked.
    pub asked: Rc<Cell<u32>>,
    /// The last prompt summary.
    pub summary: Rc<RefCell<String>>,
}

#[derive(Clone)]
pub struct Shared(pub Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().expect("temp dir"),
            shown: Rc::default(),
            asked: Rc::default(),
            summary: Rc::default(),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn project(&self) -> PathBuf {
        let p = self.root().join("project");
        std::fs::create_dir_all(&p).expect("project dir");
        p
    }

    pub fn policy(&self) -> Policy {
        Policy::load_with(
            &self.project(),
            &Locations::isolated(self.root()),
            &CliOverrides::default(),
        )
        .expect("policy loads")
    }

    pub fn settings(&self) -> PathBuf {
        self.root().join("state").join("settings.json")
    }

    pub fn write_settings(&self, value: Value) {
        let p = self.settings();
        std::fs::create_dir_all(p.parent().expect("parent")).expect("state dir");
        std::fs::write(&p, serde_json::to_string_pretty(&value).expect("json")).expect("write");
    }

    pub fn read_settings(&self) -> Value {
        let text = std::fs::read_to_string(self.settings()).expect("settings file");
        serde_json::from_str(&text).expect("valid JSON")
    }

    /// An analyzer whose prompt must not be shown.
    pub fn analyzer(&self) -> WorkflowRiskAnalyzer {
        let gate = Gate::new(self.policy())
            .without_audit()
            .with_prompter(|s: &str, _| -> Answer { panic!("the prompt must not be shown:\n{s}") });
        WorkflowRiskAnalyzer::new(gate).with_display(Shared(self.shown.clone()))
    }

    /// An analyzer whose prompt answers `answer`, counting questions and keeping the summary.
    pub fn analyzer_answering(&self, answer: Answer) -> WorkflowRiskAnalyzer {
        let asked = self.asked.clone();
        let summary = self.summary.clone();
        let gate = Gate::new(self.policy())
            .without_audit()
            .with_prompter(move |s: &str, _| {
                asked.set(asked.get() + 1);
                *summary.borrow_mut() = s.to_string();
                answer
            });
        WorkflowRiskAnalyzer::new(gate).with_display(Shared(self.shown.clone()))
    }

    pub fn shown_text(&self) -> String {
        String::from_utf8_lossy(&self.shown.borrow()).into_owned()
    }
}

pub fn shell(id: &str, command: &str) -> Value {
    json!({"id": id, "node_type": "shell", "config": {"command": command}})
}

pub fn workflow(nodes: Vec<Value>) -> WorkflowIr {
    WorkflowIr::from_value(&json!({ "nodes": nodes })).expect("valid IR")
}

pub fn opts() -> AnalyzeOptions {
    AnalyzeOptions::default()
}

pub fn forced() -> AnalyzeOptions {
    AnalyzeOptions {
        force: true,
        ..AnalyzeOptions::default()
    }
}

pub fn interactive() -> AnalyzeOptions {
    AnalyzeOptions {
        interactive: true,
        ..AnalyzeOptions::default()
    }
}

pub fn approval(pattern: &str, expires_at: Option<&str>) -> Value {
    json!({"pattern": pattern, "node_type": "shell", "approved_at": "2024-01-15T10:30:00Z", "expires_at": expires_at})
}
