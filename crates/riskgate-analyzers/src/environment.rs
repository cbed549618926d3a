//! The deployment environment an action targets. Production escalates data changes (seed 003:
//! the same `DELETE FROM users` is B in a test environment and C in production; SQL data writes
//! are rated one level higher).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where an action will take effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// A developer machine (the default).
    #[default]
    Development,
    /// A test or CI environment.
    Test,
    /// A staging / pre-production environment.
    Staging,
    /// Production: real users' data.
    Production,
}

impl Environment {
    /// True for production.
    pub fn is_production(self) -> bool {
        self == Environment::Production
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Development => "development",
            Environment::Test => "test",
            Environment::Staging => "staging",
            Environment::Production => "production",
        }
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An environment name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown environment `{0}` (expected development, test, staging or production; also dev, ci, stage, prod)"
)]
pub struct ParseEnvironmentError(pub String);

impl FromStr for Environment {
    type Err = ParseEnvironmentError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dev" | "development" | "local" => Ok(Environment::Development),
            "test" | "testing" | "ci" | "qa" => Ok(Environment::Test),
            "stage" | "staging" | "preprod" | "pre-production" => Ok(Environment::Staging),
            "prod" | "production" | "live" => Ok(Environment::Production),
            _ => Err(ParseEnvironmentError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_aliases() {
        assert_eq!("PROD".parse::<Environment>(), Ok(Environment::Production));
        assert_eq!("ci".parse::<Environment>(), Ok(Environment::Test));
        assert!("moon".parse::<Environment>().is_err());
        assert!(!Environment::default().is_production());
    }
}
