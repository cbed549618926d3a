//! The built-in node types of the registry: which parameters of each type are inspected, with
//! which analyzer, and their RISK_PATTERNS (seed 000's per-class `RISK_PATTERNS`).
//!
//! The patterns are the coarse, seed-000 layer (case-insensitive substrings, `*` wildcards).
//! Shell-like parameters also go through the full command engine, which is the precise layer:
//! it parses the command as bash would (so `rm -rf /` is CRITICAL and `rm -rf /tmp/x` is not),
//! and SQL parameters through the SQL analyzer. Patterns are therefore chosen to be specific
//! enough not to misfire as substrings (no bare `rm -rf /`, which would also match `/tmp`).

use crate::registry::ParamAnalyzer::{self, Shell, Sql, Text};

/// One built-in parameter: name, analyzer, own patterns (CRITICAL, HIGH, MEDIUM) if any.
pub(crate) struct BuiltinParam {
    pub name: &'static str,
    pub analyzer: ParamAnalyzer,
    pub prefix: Option<&'static str>,
    pub patterns: Option<Levels>,
}

/// Patterns by level: CRITICAL, HIGH, MEDIUM.
pub(crate) type Levels = (
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

/// One built-in node type.
pub(crate) struct BuiltinType {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    pub params: &'static [BuiltinParam],
    pub patterns: Option<Levels>,
}

const fn p(name: &'static str, analyzer: ParamAnalyzer) -> BuiltinParam {
    BuiltinParam {
        name,
        analyzer,
        prefix: None,
        patterns: None,
    }
}

const fn pp(name: &'static str, patterns: Levels) -> BuiltinParam {
    BuiltinParam {
        name,
        analyzer: Text,
        prefix: None,
        patterns: Some(patterns),
    }
}

const SHELL_CRITICAL: &[&str] = &[
    "rm -rf / ",
    "rm -fr / ",
    "rm -rf ~ ",
    "rm -rf ~/ ",
    ":(){ :|:& };:",
    "mkfs.",
    "dd if=/dev/zero of=/dev/",
    "dd if=/dev/random of=/dev/",
    "dd if=/dev/urandom of=/dev/",
    "> /dev/sd",
    "> /dev/nvme",
    "chmod -r 777 / ",
];

const SHELL_HIGH: &[&str] = &[
    "sudo ",
    "doas ",
    "su -",
    "rm -rf ",
    "rm -fr ",
    "git push --force",
    "git push -f",
    "git reset --hard",
    "git clean -fd",
    "curl * | sh",
    "curl * | bash",
    "wget * | sh",
    "wget * | bash",
    "chmod 777",
    "chmod -r ",
    "chown -r ",
    "kill -9 ",
    "killall ",
    "pkill ",
    "shutdown",
    "reboot",
    "poweroff",
    "systemctl stop",
    "systemctl restart",
    "systemctl disable",
    "iptables ",
    "crontab -r",
    "docker system prune",
    "kubectl delete",
    "terraform destroy",
    "drop table",
    "drop database",
    "eval ",
];

const SHELL_MEDIUM: &[&str] = &[
    "rm -",
    "mv ",
    "chmod ",
    "chown ",
    "pip install",
    "npm install",
    "apt install",
    "apt-get install",
    "brew install",
    "git push",
    "docker run",
    "curl ",
    "wget ",
    "ssh ",
    "scp ",
    "rsync ",
];

const AGENT_CRITICAL: &[&str] = &["rm -rf / ", ":(){ :|:& };:", "mkfs."];

const AGENT_HIGH: &[&str] = &[
    "--dangerously-skip-permissions",
    "bypasspermissions",
    "sudo ",
    "rm -rf",
    "git push --force",
    "git reset --hard",
    "curl * | sh",
    "curl * | bash",
    "drop database",
    "drop table",
    "delete all",
    "force push",
];

const AGENT_MEDIUM: &[&str] = &["bash", "delete ", "deploy", "git push", "install "];

const GIT_HIGH: &[&str] = &[
    "--force",
    "push -f",
    "reset --hard",
    "clean -fd",
    "clean -xfd",
    "filter-branch",
    "--mirror",
    "push --delete",
    "branch -d",
    "update-ref -d",
];

const GIT_MEDIUM: &[&str] = &[
    "push",
    "rebase",
    "merge",
    "commit --amend",
    "checkout --",
    "stash drop",
    "tag -d",
];

const SQL_CRITICAL: &[&str] = &["drop database", "drop schema"];
const SQL_HIGH: &[&str] = &[
    "drop table",
    "truncate ",
    "delete from",
    "alter table",
    "grant ",
    "revoke ",
];
const SQL_MEDIUM: &[&str] = &["update ", "insert into", "create table", "alter "];

const PATH_LEVELS: Levels = (
    &[
        "/etc/shadow",
        "/etc/sudoers",
        "/etc/passwd",
        "/boot/",
        "/dev/sd",
        "/dev/nvme",
    ],
    &[
        "/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/var/", ".ssh/", ".aws/", ".gnupg/",
        ".kube/", ".bashrc", ".zshrc", ".profile", ".git/", ".env",
    ],
    &["/root/", ".config/", "../"],
);

const CONTENT_LEVELS: Levels = (
    &[],
    &["-----begin * private key-----", "aws_secret_access_key"],
    &["password=", "api_key=", "token="],
);

/// The built-in node types.
pub(crate) const TYPES: &[BuiltinType] = &[
    BuiltinType {
        name: "shell",
        aliases: &["bash", "sh", "command", "run_shell", "exec"],
        description: "runs a shell command",
        params: &[p("command", Shell), p("script", Shell), p("cmd", Shell)],
        patterns: Some((SHELL_CRITICAL, SHELL_HIGH, SHELL_MEDIUM)),
    },
    BuiltinType {
        name: "claude_code",
        aliases: &["agent", "claude", "codex", "coding_agent"],
        description: "hands a task to a coding agent",
        params: &[
            p("prompt", Text),
            p("task", Text),
            p("instructions", Text),
            p("system_prompt", Text),
            p("allowed_tools", Text),
            pp(
                "permission_mode",
                (&[], &["bypasspermissions"], &["acceptedits"]),
            ),
            pp("dangerously_skip_permissions", (&[], &["true"], &[])),
        ],
        patterns: Some((AGENT_CRITICAL, AGENT_HIGH, AGENT_MEDIUM)),
    },
    BuiltinType {
        name: "http",
        aliases: &["fetch", "http_request", "api", "webhook", "request"],
        description: "sends an HTTP request",
        params: &[
            pp("method", (&[], &["delete"], &["post", "put", "patch"])),
            pp(
                "url",
                (
                    &[],
                    &["169.254.169.254", "metadata.google.internal"],
                    &["http://"],
                ),
            ),
            p("body", Text),
        ],
        patterns: Some((&[], &["drop table", "drop database", "rm -rf"], &[])),
    },
    BuiltinType {
        name: "write_file",
        aliases: &[
            "file_write",
            "write",
            "edit_file",
            "delete_file",
            "copy_file",
            "move_file",
        ],
        description: "writes, edits or deletes a file",
        params: &[
            pp("path", PATH_LEVELS),
            pp("file_path", PATH_LEVELS),
            pp("destination", PATH_LEVELS),
            pp("content", CONTENT_LEVELS),
        ],
        patterns: None,
    },
    BuiltinType {
        name: "git",
        aliases: &["git_push", "git_commit", "git_command"],
        description: "runs a git operation",
        params: &[
            BuiltinParam {
                name: "command",
                analyzer: Shell,
                prefix: Some("git "),
                patterns: None,
            },
            BuiltinParam {
                name: "args",
                analyzer: Shell,
                prefix: Some("git "),
                patterns: None,
            },
            p("operation", Text),
            p("branch", Text),
        ],
        patterns: Some((&[], GIT_HIGH, GIT_MEDIUM)),
    },
    BuiltinType {
        name: "sql",
        aliases: &["db", "database", "postgres", "mysql", "sqlite", "query"],
        description: "runs SQL",
        params: &[p("query", Sql), p("sql", Sql), p("statement", Sql)],
        patterns: Some((SQL_CRITICAL, SQL_HIGH, SQL_MEDIUM)),
    },
    BuiltinType {
        name: "llm",
        aliases: &["chat", "completion", "openai", "anthropic"],
        description: "calls a language model (no side effects: safe)",
        params: &[p("prompt", Text)],
        patterns: None,
    },
];
