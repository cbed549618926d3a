//! Level profiles: `default` (riskgate's own levels, fewer prompts) and `seeds`, which follows
//! seed 001's rule table and seed 002's risk categories exactly, on top of riskgate's own
//! assessment. Selected with `profile: seeds` in a policy file (or `--set profile=seeds`).
//!
//! Under `seeds` every action also gets the level of the highest seed row it matches, as a
//! floor (riskgate's own level stays when it is higher):
//!
//! | seed | level | rows |
//! |---|---|---|
//! | 001 | CRITICAL | `rm_recursive` `rm\s+-rf?\s+`, `drop_database` `DROP (DATABASE\|TABLE\|SCHEMA)`, `format_disk` (mkfs, fdisk, `format X:`) |
//! | 001 | HIGH | `file_delete` (os.remove, os.unlink, shutil.rmtree, Path…unlink), `git_force_push`, `git_reset_hard`, `sudo_command`, `network_request` (requests/httpx post, put, delete, patch; urllib) |
//! | 001 | MEDIUM | `file_write` (open(…'w'), .write(, Path…write_), `subprocess_exec` (subprocess.run/call/Popen, os.system), `git_commit`, `pip_install` |
//! | 001 | LOW | `file_read` (open(…'r'), .read(, Path…read_) |
//! | 002 | CRITICAL | force push, `--force`, `destroy` (terraform destroy, apps:destroy …), `rm -rf`, `DROP` |
//! | 002 | HIGH | auth changes (login, `auth`, passwd, keys), migrations (`migrate`), deployments (`deploy`, releases to hosts), production, state-changing network requests |
//! | 002 | MEDIUM | installs, commits, builds, file modifications (every file write; redirections, `sed -i`, `cp`, `mv`, `touch` …) |
//! | 002 | LOW | everything else a command does (read, list, get, show, test) |
//!
//! Two deliberate readings: seed 001's `format` alone would match Python's `str.format`, so
//! only the disk-formatting forms count; where the two seeds disagree (a force push is HIGH in
//! seed 001, CRITICAL in seed 002) the higher level wins.

use std::fmt;
use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use riskgate_model::{Action, RiskLevel};
use serde::{Deserialize, Serialize};

/// A level profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// riskgate's own levels (deployments, migrations and production at least MEDIUM).
    #[default]
    Default,
    /// Seed 001's rule table and seed 002's categories, exactly.
    Seeds,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Default => "default",
            Profile::Seeds => "seeds",
        })
    }
}

/// The seed row an action matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Floor {
    /// The row's level.
    pub level: RiskLevel,
    /// The seed and row (`seed 001 rm_recursive`).
    pub row: &'static str,
    /// The seed's reason.
    pub reason: &'static str,
}

struct Row {
    level: RiskLevel,
    row: &'static str,
    reason: &'static str,
    re: Option<Regex>,
}

fn row(level: RiskLevel, row: &'static str, reason: &'static str, pattern: &str) -> Row {
    let re = RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(1 << 20)
        .build()
        .ok();
    Row {
        level,
        row,
        reason,
        re,
    }
}

use RiskLevel::{Critical, High, Low, Medium};

/// Seed 001's table (regexes over the code or command, case-insensitive, as the seed searches).
static SEED_001: LazyLock<Vec<Row>> = LazyLock::new(|| {
    vec![
        row(
            Critical,
            "seed 001 rm_recursive",
            "Recursive file deletion can cause irreversible data loss",
            r"rm\s+-rf?\s+",
        ),
        row(
            Critical,
            "seed 001 drop_database",
            "Database deletion is typically irreversible",
            r"DROP\s+(DATABASE|TABLE|SCHEMA)",
        ),
        row(
            Critical,
            "seed 001 format_disk",
            "Disk formatting destroys all data",
            r"\bmkfs\b|\bmkfs\.\w+|\bfdisk\b|\bformat(?:\.com)?\s+[a-z]:",
        ),
        row(
            High,
            "seed 001 file_delete",
            "File deletion may cause data loss",
            r"os\.remove|os\.unlink|shutil\.rmtree|Path.*\.unlink",
        ),
        row(
            High,
            "seed 001 git_force_push",
            "Force push can overwrite remote history",
            r"git\s+push\s+.*(-f|--force)",
        ),
        row(
            High,
            "seed 001 git_reset_hard",
            "Hard reset discards uncommitted changes",
            r"git\s+reset\s+--hard",
        ),
        row(
            High,
            "seed 001 sudo_command",
            "Elevated privileges can affect system stability",
            r"sudo\s+",
        ),
        row(
            High,
            "seed 001 network_request",
            "Modifying external resources via network",
            r"requests\.(post|put|delete|patch)|urllib|httpx\.(post|put|delete)",
        ),
        row(
            Medium,
            "seed 001 file_write",
            "File modification may overwrite existing content",
            r#"open\(.*['"]w|\.write\(|Path.*\.write_"#,
        ),
        row(
            Medium,
            "seed 001 subprocess_exec",
            "Executing system commands",
            r"subprocess\.(run|call|Popen)|os\.system",
        ),
        row(
            Medium,
            "seed 001 git_commit",
            "Creating git commits",
            r"git\s+commit",
        ),
        row(
            Medium,
            "seed 001 pip_install",
            "Installing packages may affect environment",
            r"pip\s+install",
        ),
        row(
            Low,
            "seed 001 file_read",
            "Reading files",
            r#"open\(.*['"]r|\.read\(|Path.*\.read_"#,
        ),
    ]
});

/// Seed 002's categories for commands (and the SQL and code that carry them).
static SEED_002: LazyLock<Vec<Row>> = LazyLock::new(|| {
    vec![
        row(
            Critical,
            "seed 002 force push",
            "Force push is dangerous",
            r"\bgit\s+(?:-\S+\s+)*push\b[^;&|\n]*(?:\s-[a-z]*f[a-z]*\b|--force|\s\+\S)",
        ),
        row(
            Critical,
            "seed 002 --force",
            "Forced operations are never auto-approved",
            r"(?:^|\s)--force(?:\s|=|$)",
        ),
        row(
            Critical,
            "seed 002 destroy",
            "Destroying infrastructure or applications",
            r"\bdestroy\b|:destroy\b|\s-destroy\b",
        ),
        row(
            Critical,
            "seed 002 rm -rf",
            "Recursive forced deletion",
            r"\brm\s+(?:-\S+\s+)*-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\b|\brm\s+(?:-\S+\s+)*--recursive\b",
        ),
        row(
            Critical,
            "seed 002 DROP",
            "Dropping database objects",
            r"\bDROP\s+(?:DATABASE|TABLE|SCHEMA|USER|ROLE|VIEW|INDEX|COLUMN|KEYSPACE|COLLECTION)\b|\.drop(?:Database|Collection)\(|\bdropdb\b",
        ),
        row(
            High,
            "seed 002 auth",
            "Authentication changes",
            r"\bauth\b|\b(?:login|logout|passwd|chpasswd|htpasswd|ssh-keygen|ssh-copy-id|adduser|useradd|usermod)\b|authorized_keys|\b(?:gh|gcloud|az|aws|doctl)\s+(?:\S+\s+)*(?:auth|login|configure)\b|\bGRANT\b|\bREVOKE\b|\bALTER\s+(?:USER|ROLE)\b",
        ),
        row(
            High,
            "seed 002 migrate",
            "Database migrations",
            r"\bmigrat(?:e|ion|ions)\b|:migrate\b|\.migrate\b|\bmigrate:|\balembic\s+(?:upgrade|downgrade)\b|\bliquibase\s+update\b|\bef\s+database\s+update\b|\b(?:goose|dbmate)\s+(?:up|down)\b",
        ),
        row(
            High,
            "seed 002 deploy",
            "Deployments",
            r"\bdeploy\w*\b|\brelease\b|\bgit\s+push\s+(?:\S+\s+)*heroku\b|\brailway\s+up\b|\bwrangler\s+publish\b|\bhelm\s+(?:install|upgrade)\b|\bkubectl\s+(?:\S+\s+)*(?:apply|rollout|set\s+image)\b|\bterraform\s+apply\b|\bvercel\b.*--prod\b",
        ),
        row(
            High,
            "seed 002 production",
            "Production operations",
            r"\bprod(?:uction)?\b",
        ),
        row(
            High,
            "seed 002 network",
            "Modifying external resources via network",
            r"\b(?:curl|wget|http|https|xh)\b[^;&|\n]*(?:-X\s*|--request[=\s]+|--method[=\s]+|\s)(?:POST|PUT|DELETE|PATCH)\b|\bcurl\b[^;&|\n]*\s(?:-d|--data\S*|-F|--form|-T|--upload-file)\b",
        ),
        row(
            Medium,
            "seed 002 install",
            "Package installation",
            r"\b(?:npm|pnpm|yarn|bun|pip\d?|pipx|uv|poetry|pdm|conda|mamba|cargo|gem|bundle|go|brew|port|apt|apt-get|aptitude|dnf|yum|zypper|apk|pacman|snap|flatpak|composer|dotnet|nuget|mix|cabal|stack|opam|deno|npx)\s+(?:\S+\s+)*?(?:install|i|add|get|require|ci|-S\w*)\b|\bmake\s+install\b",
        ),
        row(Medium, "seed 002 commit", "Commits", r"\bcommit\b"),
        row(
            Medium,
            "seed 002 build",
            "Builds",
            r"\bbuild\b|\bmake\b|\bmvn\s+(?:\S+\s+)*(?:package|install|compile)\b|\bgradle\w*\s+(?:\S+\s+)*(?:assemble|build)\b",
        ),
        row(
            Medium,
            "seed 002 write",
            "File modifications",
            r"(?:^|[^0-9&<>|])>>?\s*[^\s&>|]|\btee\b|\bsed\s+(?:-\S+\s+)*-i|\b(?:cp|mv|touch|mkdir|rm|rmdir|truncate|ln|install|chmod|chown|patch|dd|rsync|unzip|tar)\b|\bwrite\b",
        ),
    ]
});

fn best(rows: &'static [Row], text: &str, acc: &mut Option<Floor>) {
    for r in rows {
        if acc.is_some_and(|f| f.level >= r.level) {
            continue;
        }
        if r.re.as_ref().is_some_and(|re| re.is_match(text)) {
            *acc = Some(Floor {
                level: r.level,
                row: r.row,
                reason: r.reason,
            });
        }
    }
}

/// Output redirected to the null device or to another descriptor is not a file modification.
fn without_null_redirects(text: &str) -> String {
    text.replace(">/dev/null", " ")
        .replace("> /dev/null", " ")
        .replace(">>/dev/null", " ")
        .replace(">> /dev/null", " ")
}

impl Profile {
    /// The seed row `action` matches under this profile, if any (always none for `default`).
    pub fn floor(&self, action: &Action) -> Option<Floor> {
        if *self == Profile::Default {
            return None;
        }
        let mut acc = None;
        match action {
            Action::Command { command, .. } => {
                let text = without_null_redirects(command);
                best(&SEED_001, &text, &mut acc);
                best(&SEED_002, &text, &mut acc);
                // seed 002: read-only and safe commands are LOW, never SAFE
                if acc.is_none() && !command.trim().is_empty() {
                    acc = Some(Floor {
                        level: Low,
                        row: "seed 002 read-only",
                        reason: "Read-only and safe commands",
                    });
                }
            }
            Action::Code { code, .. } => best(&SEED_001, code, &mut acc),
            Action::Sql { sql, .. } => {
                best(&SEED_001, sql, &mut acc);
                best(&SEED_002, sql, &mut acc);
            }
            Action::FileWrite { .. } => {
                acc = Some(Floor {
                    level: Medium,
                    row: "seed 002 file modification",
                    reason: "File modifications",
                });
            }
            Action::ChangeSet { .. } | Action::Fetch { .. } | Action::Workflow { .. } => {}
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(c: &str) -> Option<RiskLevel> {
        Profile::Seeds
            .floor(&Action::Command {
                command: c.to_string(),
                shell: None,
            })
            .map(|f| f.level)
    }

    #[test]
    fn default_profile_adds_nothing() {
        let a = Action::Command {
            command: "rm -rf /".into(),
            shell: None,
        };
        assert_eq!(Profile::Default.floor(&a), None);
    }

    #[test]
    fn seed_002_categories_for_commands() {
        assert_eq!(cmd("git status"), Some(Low));
        assert_eq!(cmd("ls -la"), Some(Low));
        assert_eq!(cmd("npm install"), Some(Medium));
        assert_eq!(cmd("git commit -m 'fix typo'"), Some(Medium));
        assert_eq!(cmd("echo hi > notes.txt"), Some(Medium));
        assert_eq!(cmd("cargo test 2>&1 >/dev/null"), Some(Low));
        assert_eq!(cmd("python manage.py migrate"), Some(High));
        assert_eq!(cmd("npm run deploy"), Some(High));
        assert_eq!(cmd("git push --force origin main"), Some(Critical));
        assert_eq!(cmd("terraform destroy"), Some(Critical));
        assert_eq!(cmd("rm -rf build"), Some(Critical));
        assert_eq!(cmd("psql -c 'DROP DATABASE app'"), Some(Critical));
    }
}
