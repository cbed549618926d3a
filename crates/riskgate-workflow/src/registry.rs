//! The node registry (seed 000 rule 1): for each node type, the parameters to inspect, how
//! (patterns only, or also the command engine or the SQL analyzer) and its RISK_PATTERNS.
//!
//! Built-in types: `shell`, `claude_code` (`agent`), `http`, `write_file`, `git`, `sql` (`db`)
//! and `llm` (safe: no patterns). User registry files (JSON or YAML) add types or replace
//! built-in ones:
//!
//! ```yaml
//! node_types:
//!   deploy:
//!     aliases: [deployer]
//!     parameters:
//!       - command                      # a bare name: patterns of the type
//!       - name: script
//!         analyzer: shell              # text (default) | shell | sql
//!       - name: target
//!         risk_patterns: {HIGH: [prod]}
//!     risk_patterns:                   # also accepted: RISK_PATTERNS
//!       CRITICAL: ["--wipe-all"]
//!       HIGH: ["--force"]
//!       MEDIUM: ["*"]                  # `*` matches every value
//! ```
//!
//! A type without any pattern is skipped (seed: "node without RISK_PATTERNS → skip"); a level
//! name that is not a risk level is skipped with a warning; an empty pattern likewise. Patterns
//! are compiled once, when the registry is built.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use riskgate::RiskLevel;
use serde::Deserialize;

use crate::builtin::{self, Levels};
use crate::error::RegistryError;
use crate::matcher::Compiled;

/// How a parameter's value is analyzed besides the RISK_PATTERNS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamAnalyzer {
    /// Patterns only.
    #[default]
    Text,
    /// Patterns, and the full command engine (bash parsing and the rules database).
    Shell,
    /// Patterns, and the SQL analyzer.
    Sql,
}

/// RISK_PATTERNS by level, compiled. Levels are kept highest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RiskPatterns {
    levels: Vec<(RiskLevel, Vec<Compiled>)>,
}

impl RiskPatterns {
    /// Compile `map` (level name → patterns). Unknown level names and empty patterns are
    /// skipped, each with a warning naming `origin`.
    pub fn compile(
        map: &BTreeMap<String, Vec<String>>,
        origin: &str,
    ) -> (RiskPatterns, Vec<String>) {
        let mut warnings = Vec::new();
        let mut levels: Vec<(RiskLevel, Vec<Compiled>)> = Vec::new();
        for (name, patterns) in map {
            let level = match name.parse::<RiskLevel>() {
                Ok(RiskLevel::Safe) => continue,
                Ok(l) => l,
                Err(e) => {
                    warnings.push(format!(
                        "{origin}: RISK_PATTERNS level `{name}` skipped: {e}"
                    ));
                    continue;
                }
            };
            let mut compiled = Vec::new();
            for p in patterns {
                match Compiled::new(p) {
                    Some(c) => compiled.push(c),
                    None => warnings.push(format!("{origin}: empty {level} pattern skipped")),
                }
            }
            match levels.iter_mut().find(|(l, _)| *l == level) {
                Some((_, v)) => v.extend(compiled),
                None => levels.push((level, compiled)),
            }
        }
        levels.retain(|(_, v)| !v.is_empty());
        levels.sort_by_key(|b| std::cmp::Reverse(b.0));
        (RiskPatterns { levels }, warnings)
    }

    fn from_levels(l: &Levels) -> RiskPatterns {
        let mut levels = Vec::new();
        for (level, list) in [
            (RiskLevel::Critical, l.0),
            (RiskLevel::High, l.1),
            (RiskLevel::Medium, l.2),
        ] {
            let compiled: Vec<Compiled> = list.iter().filter_map(|p| Compiled::new(p)).collect();
            if !compiled.is_empty() {
                levels.push((level, compiled));
            }
        }
        RiskPatterns { levels }
    }

    /// True when there is no pattern at all.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// Levels with their patterns, highest first.
    pub fn levels(&self) -> impl Iterator<Item = (RiskLevel, &[Compiled])> {
        self.levels.iter().map(|(l, v)| (*l, v.as_slice()))
    }
}

/// One inspected parameter of a node type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamSpec {
    /// The parameter name in the node's `config` / `params`.
    pub name: String,
    /// The analyzer besides the patterns.
    pub analyzer: ParamAnalyzer,
    /// Text put before the value for the analyzer (`git ` for a git node's `command`), unless
    /// the value already starts with it.
    pub prefix: Option<String>,
    /// The parameter's own patterns (`None`: the type's).
    pub patterns: Option<RiskPatterns>,
}

/// A node type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeType {
    /// The type name.
    pub name: String,
    /// Other names of the type.
    pub aliases: Vec<String>,
    /// What nodes of this type do.
    pub description: String,
    /// The inspected parameters.
    pub params: Vec<ParamSpec>,
    /// The type's RISK_PATTERNS.
    pub patterns: RiskPatterns,
}

impl NodeType {
    /// True when the type has no pattern at all (it is skipped).
    pub fn has_no_patterns(&self) -> bool {
        self.patterns.is_empty()
            && self
                .params
                .iter()
                .all(|p| p.patterns.as_ref().is_none_or(RiskPatterns::is_empty))
    }

    /// The patterns that apply to `param`.
    pub fn patterns_for<'a>(&'a self, param: &'a ParamSpec) -> &'a RiskPatterns {
        param.patterns.as_ref().unwrap_or(&self.patterns)
    }
}

/// A registry file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegistryFile {
    #[serde(default)]
    node_types: BTreeMap<String, TypeFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TypeFile {
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    parameters: Vec<ParamFile>,
    #[serde(default, alias = "RISK_PATTERNS")]
    risk_patterns: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ParamFile {
    Name(String),
    Full(ParamObject),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamObject {
    name: String,
    #[serde(default)]
    analyzer: ParamAnalyzer,
    #[serde(default)]
    prefix: Option<String>,
    #[serde(default, alias = "RISK_PATTERNS")]
    risk_patterns: Option<BTreeMap<String, Vec<String>>>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The node registry.
#[derive(Debug, Clone)]
pub struct NodeRegistry {
    types: Vec<NodeType>,
    index: HashMap<String, usize>,
    warnings: Vec<String>,
    files: Vec<PathBuf>,
    id: u64,
}

impl Default for NodeRegistry {
    fn default() -> Self {
        NodeRegistry::builtin()
    }
}

impl NodeRegistry {
    /// A registry with no types.
    pub fn empty() -> NodeRegistry {
        NodeRegistry {
            types: Vec::new(),
            index: HashMap::new(),
            warnings: Vec::new(),
            files: Vec::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The built-in types.
    pub fn builtin() -> NodeRegistry {
        let mut r = NodeRegistry::empty();
        for t in builtin::TYPES {
            r.register(NodeType {
                name: t.name.to_string(),
                aliases: t.aliases.iter().map(|a| a.to_string()).collect(),
                description: t.description.to_string(),
                params: t
                    .params
                    .iter()
                    .map(|p| ParamSpec {
                        name: p.name.to_string(),
                        analyzer: p.analyzer,
                        prefix: p.prefix.map(str::to_string),
                        patterns: p.patterns.as_ref().map(RiskPatterns::from_levels),
                    })
                    .collect(),
                patterns: t
                    .patterns
                    .as_ref()
                    .map(RiskPatterns::from_levels)
                    .unwrap_or_default(),
            });
        }
        r
    }

    /// The built-in types, then the types of the registry file at `path` over them.
    /// A missing file is [`RegistryError::Missing`].
    pub fn from_file(path: &Path) -> Result<NodeRegistry, RegistryError> {
        let mut r = NodeRegistry::builtin();
        r.load_file(path)?;
        Ok(r)
    }

    /// Add (or replace) the types of the registry file at `path` (JSON, or YAML for `.yaml` /
    /// `.yml`; other names are tried as JSON, then YAML).
    pub fn load_file(&mut self, path: &Path) -> Result<(), RegistryError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(RegistryError::Missing {
                    path: path.to_path_buf(),
                });
            }
            Err(e) => {
                return Err(RegistryError::Io {
                    path: path.to_path_buf(),
                    source: e,
                });
            }
        };
        let origin = path.display().to_string();
        self.load_str(&text, crate::ir::Format::for_path(path), &origin)
            .map_err(|message| RegistryError::Invalid {
                path: path.to_path_buf(),
                message,
            })?;
        self.files.push(path.to_path_buf());
        Ok(())
    }

    /// Add (or replace) the types of a registry document; `origin` names it in warnings.
    pub fn load_str(
        &mut self,
        text: &str,
        format: crate::ir::Format,
        origin: &str,
    ) -> Result<(), String> {
        let file: RegistryFile = crate::ir::deserialize(text, format)?;
        for (name, t) in file.node_types {
            let where_ = format!("{origin}: node type `{name}`");
            let (patterns, w) = match &t.risk_patterns {
                Some(map) => RiskPatterns::compile(map, &where_),
                None => (RiskPatterns::default(), Vec::new()),
            };
            self.warnings.extend(w);
            let mut params = Vec::new();
            for p in t.parameters {
                params.push(match p {
                    ParamFile::Name(name) => ParamSpec {
                        name,
                        analyzer: ParamAnalyzer::Text,
                        prefix: None,
                        patterns: None,
                    },
                    ParamFile::Full(o) => {
                        let own = o.risk_patterns.as_ref().map(|map| {
                            let (p, w) = RiskPatterns::compile(
                                map,
                                &format!("{where_}, parameter `{}`", o.name),
                            );
                            self.warnings.extend(w);
                            p
                        });
                        ParamSpec {
                            name: o.name,
                            analyzer: o.analyzer,
                            prefix: o.prefix,
                            patterns: own,
                        }
                    }
                });
            }
            self.register(NodeType {
                name,
                aliases: t.aliases,
                description: t.description.unwrap_or_default(),
                params,
                patterns,
            });
        }
        Ok(())
    }

    /// Add a type, replacing any type of the same name (its aliases go with it).
    pub fn register(&mut self, node_type: NodeType) {
        self.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let slot = match self.index.get(&node_type.name) {
            Some(&i) if self.types.get(i).is_some_and(|t| t.name == node_type.name) => {
                let old_aliases = self
                    .types
                    .get(i)
                    .map(|t| t.aliases.clone())
                    .unwrap_or_default();
                for a in old_aliases {
                    if self.index.get(&a) == Some(&i) {
                        self.index.remove(&a);
                    }
                }
                if let Some(t) = self.types.get_mut(i) {
                    *t = node_type;
                }
                i
            }
            _ => {
                self.types.push(node_type);
                self.types.len() - 1
            }
        };
        if let Some(t) = self.types.get(slot) {
            self.index.insert(t.name.clone(), slot);
            for a in &t.aliases {
                self.index.insert(a.clone(), slot);
            }
        }
    }

    /// The type named `name` (or with that alias); exact, then ASCII case-insensitive.
    pub fn get(&self, name: &str) -> Option<&NodeType> {
        let i = match self.index.get(name) {
            Some(i) => *i,
            None => *self.index.get(&name.to_ascii_lowercase())?,
        };
        self.types.get(i)
    }

    /// All types, in registration order.
    pub fn types(&self) -> &[NodeType] {
        &self.types
    }

    /// Problems met while loading (skipped levels and patterns).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The registry files loaded.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// An identifier that changes whenever the registry does (for caches).
    pub fn id(&self) -> u64 {
        self.id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_types_and_aliases() {
        let r = NodeRegistry::builtin();
        assert_eq!(r.get("shell").map(|t| t.name.as_str()), Some("shell"));
        assert_eq!(r.get("agent").map(|t| t.name.as_str()), Some("claude_code"));
        assert_eq!(r.get("DB").map(|t| t.name.as_str()), Some("sql"));
        assert!(r.get("llm").is_some_and(NodeType::has_no_patterns));
        assert!(r.get("fake").is_none());
    }

    #[test]
    fn yaml_parameters_by_name_or_object() {
        let mut r = NodeRegistry::empty();
        r.load_str(
            "node_types:\n  deploy:\n    parameters: [target, {name: script, analyzer: shell}]\n    risk_patterns: {CRITICAL: [\"--wipe\"], HIGH: [prod], MEDIUM: [\"*\"]}\n",
            crate::ir::Format::Yaml,
            "test",
        )
        .unwrap();
        let t = r.get("deploy").unwrap();
        assert_eq!(t.params[1].analyzer, ParamAnalyzer::Shell);
        assert_eq!(t.patterns.levels().count(), 3);
    }

    #[test]
    fn user_types_replace_builtin_and_bad_levels_warn() {
        let mut r = NodeRegistry::builtin();
        r.load_str(
            r#"{"node_types": {"shell": {"parameters": ["command"],
                 "RISK_PATTERNS": {"SEVERE": ["x"], "HIGH": ["deploy"]}}}}"#,
            crate::ir::Format::Json,
            "test",
        )
        .unwrap();
        let t = r.get("bash").map(|t| t.name.clone());
        assert_eq!(t, None, "the old aliases went with the replaced type");
        let shell = r.get("shell").unwrap();
        assert_eq!(shell.patterns.levels().count(), 1);
        assert!(
            r.warnings()[0].contains("`SEVERE` skipped"),
            "{:?}",
            r.warnings()
        );
    }
}
