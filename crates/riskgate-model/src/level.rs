//! Risk levels and their score bands.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How dangerous an action is. Ordered: `Safe < Low < Medium < High < Critical`.
///
/// Serialized as the uppercase names (`"SAFE"` … `"CRITICAL"`); parsed case-insensitively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum RiskLevel {
    /// No risk: display operations, reads of non-sensitive data (score 0-20).
    Safe,
    /// Minor, easily reversible (score 21-40).
    Low,
    /// Moderate, generally reversible: writes, installs, subprocesses (score 41-60).
    Medium,
    /// Significant: deletions, force pushes, privilege, network writes (score 61-80).
    High,
    /// Severe and usually irreversible: `rm -rf /`, `DROP DATABASE`, disk formatting (81-100).
    Critical,
}

/// An unknown risk level name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown risk level `{0}` (expected one of SAFE, LOW, MEDIUM, HIGH, CRITICAL)")]
pub struct ParseLevelError(pub String);

impl RiskLevel {
    /// All levels, lowest first.
    pub const ALL: [RiskLevel; 5] = [
        RiskLevel::Safe,
        RiskLevel::Low,
        RiskLevel::Medium,
        RiskLevel::High,
        RiskLevel::Critical,
    ];

    /// The level whose band contains `score` (SAFE 0-20, LOW 21-40, MEDIUM 41-60,
    /// HIGH 61-80, CRITICAL 81-100; anything above 100 is CRITICAL).
    pub fn from_score(score: u8) -> RiskLevel {
        match score {
            0..=20 => RiskLevel::Safe,
            21..=40 => RiskLevel::Low,
            41..=60 => RiskLevel::Medium,
            61..=80 => RiskLevel::High,
            _ => RiskLevel::Critical,
        }
    }

    /// The lowest score of this level's band.
    pub fn min_score(self) -> u8 {
        match self {
            RiskLevel::Safe => 0,
            RiskLevel::Low => 21,
            RiskLevel::Medium => 41,
            RiskLevel::High => 61,
            RiskLevel::Critical => 81,
        }
    }

    /// The highest score of this level's band.
    pub fn max_score(self) -> u8 {
        match self {
            RiskLevel::Safe => 20,
            RiskLevel::Low => 40,
            RiskLevel::Medium => 60,
            RiskLevel::High => 80,
            RiskLevel::Critical => 100,
        }
    }

    /// The level `steps` above this one, saturating at CRITICAL.
    pub fn raised(self, steps: u8) -> RiskLevel {
        let idx = (self as usize + steps as usize).min(4);
        RiskLevel::ALL[idx]
    }

    /// The uppercase name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::Safe => "SAFE",
            RiskLevel::Low => "LOW",
            RiskLevel::Medium => "MEDIUM",
            RiskLevel::High => "HIGH",
            RiskLevel::Critical => "CRITICAL",
        }
    }

    /// Seed 001's estimated impact for this level.
    pub fn estimated_impact(self) -> &'static str {
        match self {
            RiskLevel::Critical => "Potentially severe and irreversible impact",
            RiskLevel::High => "Significant impact, may require manual intervention to undo",
            RiskLevel::Medium => "Moderate impact, generally reversible",
            RiskLevel::Low => "Minor impact, easily reversible",
            RiskLevel::Safe => "No significant impact expected",
        }
    }
}

impl fmt::Display for RiskLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RiskLevel {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().as_str() {
            "SAFE" => Ok(RiskLevel::Safe),
            "LOW" => Ok(RiskLevel::Low),
            "MEDIUM" => Ok(RiskLevel::Medium),
            "HIGH" => Ok(RiskLevel::High),
            "CRITICAL" => Ok(RiskLevel::Critical),
            _ => Err(ParseLevelError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_and_banded() {
        assert!(RiskLevel::Safe < RiskLevel::Low && RiskLevel::High < RiskLevel::Critical);
        for level in RiskLevel::ALL {
            assert_eq!(RiskLevel::from_score(level.min_score()), level);
            assert_eq!(RiskLevel::from_score(level.max_score()), level);
        }
        assert_eq!(RiskLevel::from_score(255), RiskLevel::Critical);
    }

    #[test]
    fn serializes_uppercase_and_parses_any_case() {
        assert_eq!(serde_json::to_string(&RiskLevel::High).unwrap(), "\"HIGH\"");
        assert_eq!(
            "critical".parse::<RiskLevel>().unwrap(),
            RiskLevel::Critical
        );
        assert!("severe".parse::<RiskLevel>().is_err());
    }

    #[test]
    fn raised_saturates() {
        assert_eq!(RiskLevel::Medium.raised(1), RiskLevel::High);
        assert_eq!(RiskLevel::High.raised(3), RiskLevel::Critical);
    }
}
