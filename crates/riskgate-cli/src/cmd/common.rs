//! Options shared by the subcommands that load the policy and build the engine.

use std::path::PathBuf;

use anyhow::Context as _;
use riskgate::gate::policy::Environment;
use riskgate::gate::{CliOverrides, Policy};
use riskgate::{Engine, EngineOptions};

/// Policy options (the command-line layer of the configuration).
#[derive(Debug, Clone, Default, PartialEq, clap::Args)]
pub struct PolicyArgs {
    /// Read this policy file as a layer above the project's `.riskgate.*`.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Ignore the user and project policy files.
    #[arg(long, global = true)]
    pub no_config: bool,
    /// Environment: `test` or `production` (production raises data changes one level).
    #[arg(long = "env", value_name = "ENV", global = true)]
    pub environment: Option<String>,
    /// Extra rule pack (YAML, TOML or JSON); repeatable.
    #[arg(long = "rules", value_name = "FILE", global = true)]
    pub rules: Vec<PathBuf>,
    /// Set any policy key, e.g. `--set agents.claude=trusted`; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    pub set: Vec<String>,
    /// Where approvals and session caches are kept.
    #[arg(long, value_name = "DIR", global = true)]
    pub state_dir: Option<PathBuf>,
    /// Where the audit log is kept.
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
}

impl PolicyArgs {
    /// Load the effective policy for the current directory.
    pub fn load(&self) -> anyhow::Result<Policy> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        self.load_at(&cwd).map_err(anyhow::Error::msg)
    }

    /// Load the effective policy for `cwd` (an agent's working directory for hooks).
    pub fn load_at(&self, cwd: &std::path::Path) -> Result<Policy, String> {
        let environment = match &self.environment {
            Some(e) => Some(match e.to_ascii_lowercase().as_str() {
                "test" | "testing" | "dev" | "development" | "staging" => Environment::Test,
                "production" | "prod" => Environment::Production,
                other => {
                    return Err(format!(
                        "--env: unknown environment `{other}` (expected test or production)"
                    ));
                }
            }),
            None => None,
        };
        let cli = CliOverrides {
            config_file: self.config.clone(),
            no_config_files: self.no_config,
            environment,
            state_dir: self.state_dir.clone(),
            data_dir: self.data_dir.clone(),
            rules_extra: self.rules.clone(),
            set: self.set.clone(),
            ..CliOverrides::default()
        };
        Policy::load(cwd, &cli).map_err(|e| e.to_string())
    }
}

/// The engine for `policy`: built-in rules plus the policy's extra packs, with the path classes
/// of the policy's working directory (see `riskgate::verdict`). Problems with the extra packs
/// are warnings on stderr, never silent.
pub fn engine_for(policy: &Policy) -> Engine {
    let options = EngineOptions {
        rule_packs: policy
            .rules_extra()
            .iter()
            .map(|s| s.value.clone())
            .collect(),
        environment_production: policy.environment().value == Environment::Production,
    };
    let scope = riskgate::verdict::Scope::for_policy(policy, policy.cwd(), &[]);
    let engine = Engine::new(&options).with_scope(scope);
    for w in engine.warnings() {
        eprintln!("riskgate: warning: {w}");
    }
    for w in policy.warnings() {
        eprintln!("riskgate: warning: {w}");
    }
    engine
}

/// `--shell VALUE`: bash, powershell (pwsh) or cmd.
pub fn parse_shell(s: &str) -> Result<riskgate::Shell, String> {
    s.parse()
}
