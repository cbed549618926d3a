//! The schema of one policy file (YAML, TOML or JSON) and its parsing into typed values, with
//! errors that name the file, the line, the column and the key. Unknown keys are errors.
//!
//! ```yaml
//! patterns:                        # extra patterns; a bare string is a CRITICAL blocklist entry
//!   - git push --force
//!   - { pattern: "terraform apply*", level: HIGH, description: Infrastructure change }
//! overrides:                       # list (seed 002) or map pattern -> level
//!   - { pattern: "npm install --save-dev*", level: LOW, description: Dev dependencies }
//! allowed_paths: ["/src/**", "/tests/**"]
//! blocked_paths: ["/.env", "/secrets/**", "~/.ssh/**"]
//! protected_branches: [main, master, production, "release/*"]
//! environment: production          # test | production
//! profile: seeds                    # default | seeds (seed 001's and 002's level tables)
//! agents: { claude: trusted, "*": untrusted }
//! approval_timeout: 60             # seconds
//! approval_ttl_days: 30
//! state_dir: ~/.local/state/riskgate
//! data_dir: ~/.local/share/riskgate
//! rules: { extra: [./rules/local.yaml] }
//! hooks: { ask_fallback: deny }    # deny | ask
//! mcp: { tools: { "mcp__github__*": HIGH } }
//! ```
//! The same keys may be nested under `risk_policy:` (seed 002's layout).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use riskgate_model::RiskLevel;
use serde::de::{self, MapAccess, SeqAccess, Visitor, value::MapAccessDeserializer};
use serde::{Deserialize, Deserializer};

use super::locate;
use super::{AskFallback, Environment, Profile, Trust};
use crate::error::PolicyError;

/// The syntax of a policy file, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.yaml` / `.yml`
    Yaml,
    /// `.toml`
    Toml,
    /// `.json`
    Json,
}

impl Format {
    /// The format for a file name's extension.
    pub fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "yaml" | "yml" => Some(Format::Yaml),
            "toml" => Some(Format::Toml),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// A risk level in a file: any case (`high`, `HIGH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Level(pub RiskLevel);

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<RiskLevel>().map(Level).map_err(de::Error::custom)
    }
}

/// One entry of `patterns`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PatternEntry {
    pub pattern: String,
    pub level: Option<RiskLevel>,
    pub description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    pattern: String,
    #[serde(default)]
    level: Option<Level>,
    #[serde(default)]
    description: Option<String>,
}

impl<'de> Deserialize<'de> for PatternEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PatternEntry;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a pattern string, or a mapping with `pattern`, `level`, `description`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PatternEntry, E> {
                Ok(PatternEntry {
                    pattern: v.to_string(),
                    level: None,
                    description: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PatternEntry, A::Error> {
                let raw = RawEntry::deserialize(MapAccessDeserializer::new(map))?;
                Ok(PatternEntry {
                    pattern: raw.pattern,
                    level: raw.level.map(|l| l.0),
                    description: raw.description,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// `overrides`: a list of `{pattern, level, description}` or a map `pattern: level`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Overrides(pub Vec<PatternEntry>);

impl<'de> Deserialize<'de> for Overrides {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Overrides;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of {pattern, level, description} or a map of pattern to level")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Overrides, A::Error> {
                let mut out = Vec::new();
                while let Some(raw) = seq.next_element::<RawEntry>()? {
                    let Some(level) = raw.level else {
                        return Err(de::Error::missing_field("level"));
                    };
                    out.push(PatternEntry {
                        pattern: raw.pattern,
                        level: Some(level.0),
                        description: raw.description,
                    });
                }
                Ok(Overrides(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Overrides, A::Error> {
                let mut out = Vec::new();
                while let Some((pattern, level)) = map.next_entry::<String, Level>()? {
                    out.push(PatternEntry {
                        pattern,
                        level: Some(level.0),
                        description: None,
                    });
                }
                Ok(Overrides(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// `rules:` section.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesSection {
    #[serde(default)]
    pub extra: Option<Vec<String>>,
}

/// `hooks:` section.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct HooksSection {
    #[serde(default)]
    pub ask_fallback: Option<AskFallback>,
}

/// `audit:` section.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct AuditSection {
    /// The team's database (`postgres://user@host:port/db`, no password).
    #[serde(default)]
    pub url: Option<String>,
}

/// `approvals:` section (the approval queue).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ApprovalsSection {
    /// Patterns whose requests need two distinct reviewers.
    #[serde(default)]
    pub two_reviewers: Option<Vec<String>>,
    /// Where new requests are announced.
    #[serde(default)]
    pub webhook: Option<WebhookSection>,
}

/// `approvals.webhook:`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct WebhookSection {
    /// `http://…` / `https://…`
    pub url: String,
    /// `generic` (riskgate's JSON) or `slack` (`{"text": …}`).
    #[serde(default)]
    pub format: Option<super::WebhookFormat>,
}

/// `mcp:` section.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct McpSection {
    #[serde(default)]
    pub tools: Option<BTreeMap<String, Level>>,
}

/// One policy file, as written. Every key is optional: absent means "not set at this layer".
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct PolicyFile {
    #[serde(default)]
    pub risk_policy: Option<Box<PolicyFile>>,
    #[serde(default)]
    pub patterns: Option<Vec<PatternEntry>>,
    #[serde(default)]
    pub overrides: Option<Overrides>,
    #[serde(default)]
    pub allowed_paths: Option<Vec<String>>,
    #[serde(default)]
    pub blocked_paths: Option<Vec<String>>,
    #[serde(default)]
    pub protected_branches: Option<Vec<String>>,
    #[serde(default)]
    pub environment: Option<Environment>,
    #[serde(default)]
    pub profile: Option<Profile>,
    #[serde(default)]
    pub agents: Option<BTreeMap<String, Trust>>,
    #[serde(default)]
    pub approval_timeout: Option<u64>,
    #[serde(default)]
    pub approval_ttl_days: Option<u32>,
    #[serde(default)]
    pub state_dir: Option<String>,
    #[serde(default)]
    pub data_dir: Option<String>,
    #[serde(default)]
    pub rules: Option<RulesSection>,
    #[serde(default)]
    pub hooks: Option<HooksSection>,
    #[serde(default)]
    pub mcp: Option<McpSection>,
    #[serde(default)]
    pub approvals: Option<ApprovalsSection>,
    #[serde(default)]
    pub audit: Option<AuditSection>,
}

impl PolicyFile {
    /// Flatten `risk_policy:` into the top level (its keys win over top-level duplicates).
    pub(crate) fn flattened(mut self) -> PolicyFile {
        let Some(inner) = self.risk_policy.take() else {
            return self;
        };
        let inner = inner.flattened();
        macro_rules! take {
            ($($f:ident),*) => { $( if inner.$f.is_some() { self.$f = inner.$f; } )* };
        }
        take!(
            patterns,
            overrides,
            allowed_paths,
            blocked_paths,
            protected_branches,
            environment,
            profile,
            agents,
            approval_timeout,
            approval_ttl_days,
            state_dir,
            data_dir,
            rules,
            hooks,
            mcp,
            approvals,
            audit
        );
        self
    }
}

/// Parse `text` (the contents of `path`) as a policy file in `format`.
pub(crate) fn parse(path: &Path, text: &str, format: Format) -> Result<PolicyFile, PolicyError> {
    let parse_error = |line: usize, column: usize, message: String| {
        let key = match unknown_field(&message) {
            Some(k) if line == 0 => k,
            _ => locate::key_path(text, format, line, column),
        };
        PolicyError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            key,
            message,
        }
    };
    let file = match format {
        Format::Yaml => serde_saphyr::from_str::<Option<PolicyFile>>(text)
            .map(Option::unwrap_or_default)
            .map_err(|e| {
                let (line, col) = e
                    .location()
                    .map(|l| (l.line() as usize, l.column() as usize))
                    .unwrap_or((0, 0));
                parse_error(line, col, yaml_message(&e))
            })?,
        Format::Toml => toml::from_str::<PolicyFile>(text).map_err(|e| {
            let (line, col) = e
                .span()
                .map(|s| locate::line_col(text, s.start))
                .unwrap_or((0, 0));
            parse_error(line, col, e.message().trim().to_string())
        })?,
        Format::Json => {
            if text.trim().is_empty() {
                PolicyFile::default()
            } else {
                serde_json::from_str::<PolicyFile>(text).map_err(|e| {
                    let full = e.to_string();
                    let message = match full.rfind(" at line ") {
                        Some(i) => full.get(..i).unwrap_or(&full).to_string(),
                        None => full,
                    };
                    parse_error(e.line(), e.column(), message)
                })?
            }
        }
    };
    Ok(file.flattened())
}

/// The plain message of a serde-saphyr error, without its position prefix and snippet.
fn yaml_message(e: &serde_saphyr::Error) -> String {
    let rendered = e.without_snippet().to_string();
    let first = rendered.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // "line 3 column 3: unknown field …"
    if first.starts_with("line ")
        && let Some((_, rest)) = first.split_once(": ")
    {
        return rest.to_string();
    }
    first.to_string()
}

/// The name in "unknown field `x`, expected …".
fn unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(rest.split('`').next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Result<PolicyFile, PolicyError> {
        parse(Path::new("/p/.riskgate.yaml"), text, Format::Yaml)
    }

    #[test]
    fn pattern_entries_accept_strings_and_maps() {
        let f = yaml("patterns:\n  - rm -rf /\n  - {pattern: 'terraform apply*', level: high}\n")
            .unwrap();
        let p = f.patterns.unwrap();
        assert_eq!(p[0].pattern, "rm -rf /");
        assert_eq!(p[0].level, None);
        assert_eq!(p[1].level, Some(RiskLevel::High));
    }

    #[test]
    fn overrides_accept_list_and_map() {
        let f = yaml("overrides:\n  - pattern: npm install --save-dev*\n    level: LOW\n").unwrap();
        assert_eq!(f.overrides.unwrap().0[0].level, Some(RiskLevel::Low));
        let f = yaml("overrides:\n  'npm test*': safe\n").unwrap();
        assert_eq!(f.overrides.unwrap().0[0].level, Some(RiskLevel::Safe));
        let e = yaml("overrides:\n  - pattern: x\n").unwrap_err();
        assert!(e.to_string().contains("level"), "{e}");
    }

    #[test]
    fn risk_policy_wrapper_is_flattened() {
        let f =
            yaml("risk_policy:\n  environment: production\n  blocked_paths: [/.env]\n").unwrap();
        assert_eq!(f.environment, Some(Environment::Production));
        assert_eq!(f.blocked_paths.unwrap(), vec!["/.env"]);
    }

    #[test]
    fn errors_name_line_and_key() {
        let e = yaml("approval_timeout: 5\nhooks:\n  ask_fallbak: deny\n").unwrap_err();
        assert_eq!((e.line(), e.key()), (Some(3), Some("hooks.ask_fallbak")));
        let e = parse(
            Path::new("c.toml"),
            "[hooks]\nask_fallback = \"maybe\"\n",
            Format::Toml,
        )
        .unwrap_err();
        assert_eq!((e.line(), e.key()), (Some(2), Some("hooks.ask_fallback")));
        let e = parse(
            Path::new("c.json"),
            "{\n \"environment\": \"prod\",\n \"x\": 1}",
            Format::Json,
        )
        .unwrap_err();
        assert_eq!((e.line(), e.key()), (Some(3), Some("x")));
    }

    #[test]
    fn empty_files_are_empty_policies() {
        assert_eq!(yaml("").unwrap(), PolicyFile::default());
        assert_eq!(yaml("# nothing\n").unwrap(), PolicyFile::default());
        let j = parse(Path::new("c.json"), " ", Format::Json).unwrap();
        assert_eq!(j, PolicyFile::default());
    }
}
