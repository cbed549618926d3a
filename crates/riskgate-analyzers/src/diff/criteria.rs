//! Seed 003's criteria, evaluated on each file of a change set: its path (what kind of file),
//! its status and mode, and its added and removed lines. Each criterion that fires is reported
//! once per file with the first line where it fired and how often.

use std::sync::LazyLock;

use regex::Regex;
use riskgate_model::RiskLevel::{self, Critical, High, Medium};

use super::parse::{ChangeStatus, DiffLine, FileChange};
use super::{Criterion, RiskClass, deps, paths};
use crate::secrets;

fn re(p: &str) -> Option<Regex> {
    Regex::new(p).ok()
}

macro_rules! regex {
    ($name:ident, $pat:expr) => {
        static $name: LazyLock<Option<Regex>> = LazyLock::new(|| re($pat));
    };
}

regex!(
    ROUTE,
    r#"(?i)@(?:app|router|bp|blueprint|api|\w+_bp)\.(?:route|get|post|put|delete|patch|websocket)\s*\(|^\s*(?:re_)?path\(\s*r?['"]|^\s*url\(\s*r?['"]\^|\b(?:app|router|server|api|fastify)\.(?:get|post|put|delete|patch|all|route|use)\(\s*['"`]/|@(?:Get|Post|Put|Delete|Patch|Request)Mapping\b|@(?:Get|Post|Put|Delete|Patch)\(\s*['"]?|@Path\(|\bHandleFunc\(\s*"/|\.(?:GET|POST|PUT|DELETE|PATCH|Handle)\(\s*"/|^\s*(?:get|post|put|patch|delete|resources?|namespace)\s+['":/]"#
);
regex!(
    EXPORT_DECL,
    r"^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function|class|const|let|var|interface|type|enum)\b|^\s*pub\s+(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|const|static|mod)\b|^func\s+(?:\([^)]*\)\s*)?[A-Z]\w*\s*\(|^\s*public\s+(?:static\s+)?(?:final\s+)?[\w<>\[\], ?]+\s+\w+\s*\(|^(?:async\s+)?def\s+[A-Za-z]\w*\s*\(|^class\s+[A-Z]\w*|^\s*module\.exports\b"
);
regex!(
    DDL,
    r"(?i)\b(?:CREATE|ALTER)\s+TABLE\b|\bADD\s+COLUMN\b|\bDROP\s+COLUMN\b|\bCREATE\s+(?:UNIQUE\s+)?INDEX\b|\bop\.(?:add_column|drop_column|create_table|alter_column|create_index)\b|\b(?:add_column|remove_column|create_table|change_column|rename_column)\b|\.(?:addColumn|removeColumn|createTable|alterTable|dropColumn)\(|\bmigrations\.(?:AddField|RemoveField|AlterField|CreateModel|RenameField)\b|^\s*model\s+\w+\s*\{"
);
regex!(
    DROP_DB,
    r"(?i)\bDROP\s+(?:DATABASE|SCHEMA)\b|\bdropDatabase\(\)|\bdropdb\s"
);
regex!(
    DELETE_SQL,
    r"(?i)\bDROP\s+TABLE\b|\bTRUNCATE\s+(?:TABLE\s+)?\w|\bDELETE\s+FROM\b|\bop\.drop_table\b|\bdrop_table\b|\.dropTable\(|\bmigrations\.DeleteModel\b|\.deleteMany\(\s*\{\s*\}\s*\)"
);
regex!(
    DATA_WRITE,
    r#"(?i)\bUPDATE\s+[\w."`\[\]]+\s+SET\b|\bINSERT\s+(?:INTO\s+)?[\w."`]+\s*(?:\(|VALUES|SELECT)|\bMERGE\s+INTO\b|\bREPLACE\s+INTO\b|\bCOPY\s+\w+\s+FROM\b"#
);
regex!(
    GRANT,
    r"(?i)\bGRANT\s+[\w\s,()]+?\s+(?:ON|TO)\b|\bREVOKE\s+[\w\s,()]+?\s+(?:ON|FROM)\b|\b(?:CREATE|ALTER)\s+(?:USER|ROLE)\b|\bgrantRolesToUser\b"
);
regex!(
    IAM,
    r#"(?i)"Effect"\s*:\s*"(?:Allow|Deny)"|^\s*Effect\s*:\s*(?:Allow|Deny)\b|resource\s+"(?:aws_iam_|google_project_iam|google_\w+_iam_|azurerm_role_assignment|azurerm_role_definition)|\biam\.PolicyStatement\b|"Action"\s*:\s*"\*"|\bAssumeRolePolicyDocument\b|\bsts:AssumeRole\b"#
);
regex!(
    RBAC,
    r"(?i)^\s*kind\s*:\s*(?:Cluster)?Role(?:Binding)?\s*$|\bclusterrolebinding\b|\brbac\.authorization\.k8s\.io\b"
);
regex!(
    ACL,
    r#"(?i)\bacl\s*[:=]\s*["']?(?:public-read|public-read-write|authenticated-read)|\bPutBucketAcl\b|\bPutObjectAcl\b|\bsetfacl\b|\bicacls\b|\bblock_public_acls\s*=\s*false|^\s*permissions\s*:\s*write-all|\ballUsers\b|\ballAuthenticatedUsers\b"#
);
regex!(
    ADMIN,
    r#"(?i)\b(?:is_admin|is_superuser|is_staff|isAdmin|isSuperuser|admin)\s*(?:=|:|=>)\s*(?:True|true|1|yes)\b|\broles?\s*(?:=|:|=>)\s*\[?\s*["']?(?:admin|administrator|superuser|root|owner)["']?|\b(?:add_role|addRole|assign_role|assignRole|grant_role)\(\s*[\w.]*\s*,?\s*["']?(?:admin|superuser|root)|\bGRANT\s+ALL\b|\bNOPASSWD\b|\busermod\s+-a?G\s+(?:sudo|wheel|admin|docker|root)\b|\bSUPERUSER\b"#
);
regex!(
    CHMOD_DANGER,
    r"(?i)\bchmod\s+(?:-R\s+)?(?:0?777|0?666|[0-7]?[2467][0-7]{3}|[ugoa]*\+[rwx]*s|o\+w|a\+w)\b|\bchmod\(\s*[^,]+,\s*0o?777\b|S_ISUID|S_ISGID"
);
regex!(CHMOD, r"(?:^|[\s;&|]|\bRUN\s+)(?:chmod|chown|chgrp)\s+\S");
regex!(
    RM,
    r#"(?:^|[\s;&|(`]|\bRUN\s+|run:\s*)(?:sudo\s+)?rm\s+((?:-[A-Za-z]+\s+|--[a-z-]+\s+)*)(.*)"#
);
regex!(
    RMTREE,
    r"\bshutil\.rmtree\(|\brmSync\([^)]*recursive\s*:\s*true|\brimraf\b|Remove-Item\b[^\n]*-Recurse|\bfs\.rm\([^)]*recursive|\bFileUtils\.rm_r[f]?\b|\bos\.RemoveAll\("
);
regex!(
    CODE_DELETE,
    r"\bos\.(?:remove|unlink|rmdir)\(|\bfs\.(?:unlink|unlinkSync|rmdir|rmdirSync)\(|\.unlink\(\)|\bFile\.delete\(|\bos\.Remove\("
);
regex!(
    SYSADMIN,
    r"(?:^|[;&|]\s*|\bsudo\s+|\bRUN\s+|run:\s*|-\s+|\b(?:os\.system|subprocess\.\w+|exec|execSync)\(\s*\[?['\x22])(?:shutdown|reboot|halt|poweroff|mkfs(?:\.\w+)?|fdisk|sfdisk|parted|wipefs|init\s+[06])\b|\bdd\s[^\n]*\bof=/dev/(?:sd|nvme|hd|xvd|vd|disk|mmcblk)|\bformat\s+[A-Za-z]:"
);
regex!(
    REMOTE_SCRIPT,
    r"(?i)\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?python\d?\b|\b(?:bash|sh)\s+<\(\s*(?:curl|wget)|\biex\s*\(?\s*\(?(?:New-Object\s+Net\.WebClient|iwr|Invoke-WebRequest)"
);
regex!(
    USES,
    r#"^\s*(?:-\s+)?uses:\s*['"]?([\w.-]+)/([\w.-]+)[\w./-]*@([\w.-]+)"#
);
regex!(
    ENV_SECRET_KEY,
    r"(?i)^\s*(?:export\s+)?([A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIAL|PRIVATE|AUTH)[A-Z0-9_]*)\s*[=:]"
);
regex!(K8S_SECRET, r"^\s*kind\s*:\s*Secret\s*$");

fn m(r: &LazyLock<Option<Regex>>, t: &str) -> bool {
    r.as_ref().is_some_and(|r| r.is_match(t))
}

/// Accumulates criteria per (id, file).
#[derive(Default)]
pub(crate) struct Sink {
    pub out: Vec<Criterion>,
}

impl Sink {
    #[allow(clippy::too_many_arguments)]
    pub fn fire(
        &mut self,
        id: &str,
        class: RiskClass,
        level: RiskLevel,
        description: &str,
        file: Option<&str>,
        line: Option<u32>,
        evidence: Option<String>,
        data_modification: bool,
    ) {
        if let Some(c) = self
            .out
            .iter_mut()
            .find(|c| c.id == id && c.file.as_deref() == file)
        {
            c.occurrences += 1;
            return;
        }
        self.out.push(Criterion {
            id: id.to_string(),
            class,
            level,
            description: description.to_string(),
            file: file.map(String::from),
            line,
            evidence: evidence.map(|e| crate::code::truncate_text(e.trim(), 160)),
            occurrences: 1,
            data_modification,
        });
    }
}

use RiskClass::{B, C};

/// Targets of an `rm -r`: C unless every target is a build or cache directory.
fn rm_is_dangerous(flags: &str, targets: &str) -> Option<bool> {
    let recursive = flags.split_whitespace().any(|f| {
        (f.starts_with('-') && !f.starts_with("--") && f.contains(['r', 'R'])) || f == "--recursive"
    });
    if !recursive {
        return None;
    }
    let words: Vec<&str> = targets
        .split(|c: char| c.is_whitespace() || c == ';' || c == '&' || c == '|')
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    if words.is_empty() {
        return Some(true);
    }
    let benign = |w: &str| {
        let w = w.trim_matches(|c| c == '"' || c == '\'');
        if w.ends_with('/') && (w.starts_with('$') || w.contains("}/") || w.contains(")/"))
            || w.starts_with("$HOME")
            || w.starts_with("${HOME}")
            || w.starts_with('~')
        {
            return false;
        }
        if w.starts_with('$') || w.starts_with("${") {
            return true;
        }
        if let Some(abs) = w.strip_prefix('/') {
            return [
                "tmp/",
                "var/tmp/",
                "var/lib/apt/lists",
                "var/cache/",
                "root/.cache",
                "usr/share/doc",
                "usr/share/man",
            ]
            .iter()
            .any(|p| abs.starts_with(p));
        }
        !w.starts_with("..")
    };
    Some(!words.iter().all(|w| benign(w)))
}

fn check_added_line(sink: &mut Sink, path: &str, l: &DiffLine, doc: bool) {
    let t = l.text.as_str();
    let file = Some(path);
    let line = Some(l.line);
    // secrets count even in comments and documentation
    for s in secrets::find_secrets(t) {
        sink.fire(
            "sensitive.secret",
            C,
            Critical,
            "Sensitive data: a secret is added",
            file,
            line,
            Some(format!("{}: {}", s.description, s.redacted)),
            false,
        );
    }
    if doc || paths::is_comment_line(path, t) {
        return;
    }
    if m(&DROP_DB, t) {
        sink.fire(
            "deletion.database",
            C,
            Critical,
            "Deletion: a database or schema is dropped",
            file,
            line,
            Some(t.to_string()),
            true,
        );
    } else if m(&DELETE_SQL, t) {
        sink.fire(
            "deletion.sql",
            B,
            High,
            "Deletion: a table is dropped or rows are deleted",
            file,
            line,
            Some(t.to_string()),
            true,
        );
    }
    if m(&DATA_WRITE, t) {
        sink.fire(
            "data.write",
            B,
            High,
            "Data write: rows are inserted or updated",
            file,
            line,
            Some(t.to_string()),
            true,
        );
    }
    if m(&DDL, t) {
        sink.fire(
            "schema.ddl",
            B,
            High,
            "Database schema change",
            file,
            line,
            Some(t.to_string()),
            true,
        );
    }
    if m(&GRANT, t) {
        sink.fire(
            "permissions.grant",
            C,
            Critical,
            "Permission change: database privileges or users",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&IAM, t) {
        sink.fire(
            "permissions.iam",
            C,
            Critical,
            "Permission change: IAM policy",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&RBAC, t) {
        sink.fire(
            "permissions.rbac",
            C,
            Critical,
            "Permission change: RBAC role or binding",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&ACL, t) {
        sink.fire(
            "permissions.acl",
            C,
            Critical,
            "Permission change: access control list or public access",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&ADMIN, t) {
        sink.fire(
            "permissions.admin",
            C,
            Critical,
            "Permission change: administrator rights granted",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&CHMOD_DANGER, t) {
        sink.fire(
            "permissions.dangerous-mode",
            C,
            Critical,
            "Permission change: world-writable or setuid mode",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    } else if m(&CHMOD, t) {
        sink.fire(
            "permissions.file",
            B,
            Medium,
            "File permission or ownership change",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if let Some(c) = RM.as_ref().and_then(|r| r.captures(t)) {
        let flags = c.get(1).map(|x| x.as_str()).unwrap_or("");
        let targets = c.get(2).map(|x| x.as_str()).unwrap_or("");
        match rm_is_dangerous(flags, targets) {
            Some(true) => sink.fire(
                "deletion.recursive",
                C,
                Critical,
                "Permanent deletion: recursive rm of data",
                file,
                line,
                Some(t.to_string()),
                true,
            ),
            Some(false) => sink.fire(
                "deletion.cleanup",
                B,
                Medium,
                "Deletion: recursive rm of build or cache files",
                file,
                line,
                Some(t.to_string()),
                false,
            ),
            None => sink.fire(
                "deletion.code",
                B,
                Medium,
                "Deletion: files are removed",
                file,
                line,
                Some(t.to_string()),
                false,
            ),
        }
    } else if m(&RMTREE, t) {
        sink.fire(
            "deletion.recursive",
            C,
            Critical,
            "Permanent deletion: recursive directory removal in code",
            file,
            line,
            Some(t.to_string()),
            true,
        );
    } else if m(&CODE_DELETE, t) {
        sink.fire(
            "deletion.code",
            B,
            Medium,
            "Deletion: code that deletes files is added",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&SYSADMIN, t) {
        sink.fire(
            "system.admin",
            C,
            Critical,
            "System administration: shutdown, reboot or disk formatting",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&REMOTE_SCRIPT, t) {
        sink.fire(
            "third-party.remote-script",
            C,
            Critical,
            "Unreviewed third-party code: a downloaded script is executed",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
    if m(&K8S_SECRET, t) {
        sink.fire(
            "sensitive.k8s-secret",
            C,
            Critical,
            "Sensitive data: a Kubernetes Secret manifest",
            file,
            line,
            Some(t.to_string()),
            false,
        );
    }
}

/// Evaluate the criteria of one file.
pub(crate) fn file_criteria(sink: &mut Sink, f: &FileChange) {
    let path = f.path();
    let file = Some(path);
    let doc = paths::is_doc(path);
    let first_line = f.added.first().or(f.removed.first()).map(|l| l.line);

    // what the file is
    if paths::is_key_file(path) && f.status != ChangeStatus::Deleted {
        sink.fire(
            "sensitive.file",
            C,
            Critical,
            "Sensitive data: key or credential file",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_env(path) {
        sink.fire(
            "config.env",
            B,
            High,
            "Environment variables changed",
            file,
            first_line,
            None,
            true,
        );
        for l in f.added.iter().chain(f.removed.iter()) {
            if let Some(c) = ENV_SECRET_KEY.as_ref().and_then(|r| r.captures(&l.text)) {
                let key = c.get(1).map(|x| x.as_str()).unwrap_or("");
                sink.fire(
                    "sensitive.env-secret",
                    C,
                    Critical,
                    "Sensitive data: a secret in an environment file is changed",
                    file,
                    Some(l.line),
                    Some(format!("{key}=…")),
                    true,
                );
            }
        }
    } else if paths::is_config(path) || paths::is_env_example(path) {
        sink.fire(
            "config.file",
            B,
            Medium,
            "Configuration file changed",
            file,
            first_line,
            None,
            true,
        );
    }
    if paths::is_ci(path) {
        sink.fire(
            "ci.config",
            B,
            Medium,
            "CI/CD configuration changed",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_docker(path) {
        sink.fire(
            "ci.docker",
            B,
            Medium,
            "Container build or deployment definition changed",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_infra(path) {
        sink.fire(
            "infra.config",
            B,
            High,
            "Infrastructure or deployment configuration changed",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_production(path) {
        sink.fire(
            "production.file",
            B,
            High,
            "Production-specific change",
            file,
            first_line,
            None,
            true,
        );
    }
    if paths::is_migration(path) {
        sink.fire(
            "schema.migration",
            B,
            High,
            "Database migration or schema file changed",
            file,
            first_line,
            None,
            true,
        );
    }
    if paths::is_api_spec(path) {
        sink.fire(
            "api.spec",
            B,
            High,
            "API specification changed",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_vendored(path)
        && matches!(
            f.status,
            ChangeStatus::Added | ChangeStatus::Modified | ChangeStatus::Copied
        )
    {
        sink.fire(
            "third-party.vendored",
            C,
            Critical,
            "Unreviewed third-party code: vendored files added or changed",
            file,
            first_line,
            None,
            false,
        );
    }
    if path.ends_with(".gitmodules") && f.added.iter().any(|l| l.text.contains("[submodule")) {
        sink.fire(
            "third-party.submodule",
            C,
            Critical,
            "Unreviewed third-party code: a git submodule is added",
            file,
            first_line,
            None,
            false,
        );
    }
    if paths::is_manifest(path) {
        sink.fire(
            "deps.manifest",
            B,
            Medium,
            "Dependency manifest changed",
            file,
            first_line,
            None,
            false,
        );
        let ch = deps::changes(f);
        for d in &ch.added {
            let ev = if d.version.is_empty() {
                d.name.clone()
            } else {
                format!("{} {}", d.name, d.version)
            };
            sink.fire(
                "third-party.new-dependency",
                C,
                Critical,
                "Unreviewed third-party code: a new dependency is added",
                file,
                Some(d.line),
                Some(ev),
                false,
            );
        }
        for (old, new) in &ch.major {
            sink.fire(
                "breaking.major-upgrade",
                B,
                High,
                "Potential breaking change: major version upgrade",
                file,
                Some(new.line),
                Some(format!("{} {} → {}", new.name, old.version, new.version)),
                false,
            );
        }
    } else if paths::is_lockfile(path) {
        sink.fire(
            "deps.lockfile",
            B,
            Medium,
            "Dependency lockfile changed",
            file,
            first_line,
            None,
            false,
        );
    }
    for s in deps::unreviewed_sources(f) {
        sink.fire(
            "third-party.unreviewed-source",
            C,
            Critical,
            "Unreviewed third-party code: a dependency from a URL, a Git repository or an unknown registry",
            file,
            Some(s.line),
            Some(format!("{} {}", s.name, s.source)),
            false,
        );
    }

    // how it changes
    if f.status == ChangeStatus::Deleted {
        sink.fire(
            "deletion.file",
            B,
            Medium,
            "Deletion: a file is deleted (recoverable from version control)",
            file,
            None,
            None,
            false,
        );
    }
    if let (Some(old), Some(new)) = (&f.old_mode, &f.new_mode) {
        if old != new {
            sink.fire(
                "permissions.file-mode",
                B,
                Medium,
                "File mode changed",
                file,
                None,
                Some(format!("{old} → {new}")),
                false,
            );
        }
    } else if f.status == ChangeStatus::Added && f.new_mode.as_deref() == Some("100755") {
        sink.fire(
            "permissions.file-mode",
            B,
            Medium,
            "New executable file",
            file,
            None,
            Some("100755".into()),
            false,
        );
    }

    // what the lines say
    for l in &f.added {
        check_added_line(sink, path, l, doc);
    }
    if !doc {
        for l in f.added.iter().chain(f.removed.iter()) {
            if !paths::is_comment_line(path, &l.text) && m(&ROUTE, &l.text) {
                sink.fire(
                    "api.route",
                    B,
                    High,
                    "API endpoint added, changed or removed",
                    file,
                    Some(l.line),
                    Some(l.text.clone()),
                    false,
                );
            }
        }
        // exported declarations removed or changed (their old line is gone)
        let added_norm: Vec<String> = f.added.iter().map(|l| norm(&l.text)).collect();
        for l in &f.removed {
            if m(&EXPORT_DECL, &l.text)
                && !l.text.trim_start().starts_with("def _")
                && !added_norm.contains(&norm(&l.text))
            {
                sink.fire(
                    "api.signature",
                    B,
                    High,
                    "Potential breaking change: an exported signature is changed or removed",
                    file,
                    Some(l.line),
                    Some(l.text.clone()),
                    false,
                );
            }
        }
    }
    // GitHub Actions from new third parties, not pinned to a commit
    if paths::is_ci(path) {
        let owners_before: Vec<(String, String)> = f
            .removed
            .iter()
            .filter_map(|l| uses(&l.text))
            .map(|(o, r, _)| (o, r))
            .collect();
        for l in &f.added {
            if let Some((owner, repo, rev)) = uses(&l.text) {
                let first_party = matches!(
                    owner.as_str(),
                    "actions"
                        | "github"
                        | "docker"
                        | "aws-actions"
                        | "azure"
                        | "google-github-actions"
                        | "hashicorp"
                );
                let pinned = rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit());
                if !first_party
                    && !pinned
                    && !owners_before.contains(&(owner.clone(), repo.clone()))
                {
                    sink.fire(
                        "third-party.action",
                        C,
                        Critical,
                        "Unreviewed third-party code: a new CI action not pinned to a commit",
                        file,
                        Some(l.line),
                        Some(l.text.clone()),
                        false,
                    );
                }
            }
        }
    }
}

fn uses(t: &str) -> Option<(String, String, String)> {
    let c = USES.as_ref()?.captures(t)?;
    let g = |i| c.get(i).map(|x| x.as_str().to_string()).unwrap_or_default();
    Some((g(1), g(2), g(3)))
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rm_targets() {
        assert_eq!(rm_is_dangerous("-rf ", "/data/*"), Some(true));
        assert_eq!(
            rm_is_dangerous("-rf ", "build dist node_modules"),
            Some(false)
        );
        assert_eq!(rm_is_dangerous("-rf ", "/var/lib/apt/lists/*"), Some(false));
        assert_eq!(rm_is_dangerous("-rf ", "\"$DIR/\""), Some(true));
        assert_eq!(rm_is_dangerous("-f ", "x"), None);
        assert_eq!(rm_is_dangerous("-r ", "~/"), Some(true));
    }
}
