//! Affected resources (seed 001): files, URLs and database tables, with their `file:`, `url:`
//! and `table:` prefixes; and the path classes rules care about (system and home directories,
//! credentials, shell startup and scheduling files, raw disk devices).

use std::sync::LazyLock;

use regex::Regex;

use super::analysis::{Analysis, ArgValue, Call, Store};

static URL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(?i)\b(?:https?|ftp|wss?|s3|gs)://[^\s'"<>`)]+"#).ok());

static TABLE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(?:FROM|INTO|UPDATE|JOIN|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?|TRUNCATE(?:\s+TABLE)?)\s+([`"\[]?[A-Za-z_][\w$]*(?:[`"\]]?\.[`"\[]?[A-Za-z_][\w$]*)?)"#).ok()
});

static PERSISTENCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^/etc/|^/usr/(?:s?bin|lib)/|^/boot/|^/var/spool/cron|(?:^|/|~)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|config/fish/config\.fish)$|(?:^|/|~)\.ssh/authorized_keys|(?:^|/|~)\.config/(?:systemd|autostart)/|/Library/Launch(?:Agents|Daemons)/|^/lib/systemd/|crontab)")
        .ok()
});

static DEVICE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"^/dev/(?:sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|mmcblk\d|disk\d|md\d|dm-\d|mapper/|loop\d|rdisk\d)").ok()
});

/// Directories whose deletion destroys the system or a user's data.
const CRITICAL_DIRS: [&str; 26] = [
    "/",
    "/*",
    "~",
    "~/",
    "~/*",
    "$HOME",
    "${HOME}",
    "$HOME/",
    "/home",
    "/home/",
    "/home/*",
    "/etc",
    "/usr",
    "/var",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/boot",
    "/opt",
    "/root",
    "/sys",
    "/proc",
    "/dev",
    "C:\\",
    "C:\\Windows",
];

/// True for a path that names the root, a top-level system directory or a home directory.
pub fn is_critical_path(p: &str) -> bool {
    let t = p.trim();
    if t.is_empty() {
        return false;
    }
    let trimmed = if t.len() > 1 {
        t.trim_end_matches('/')
    } else {
        t
    };
    let trimmed = if trimmed.is_empty() { "/" } else { trimmed };
    if CRITICAL_DIRS
        .iter()
        .any(|d| d.eq_ignore_ascii_case(trimmed) || d.eq_ignore_ascii_case(t))
    {
        return true;
    }
    // /home/USER itself (not deeper)
    if let Some(rest) = trimmed
        .strip_prefix("/home/")
        .or_else(|| trimmed.strip_prefix("/Users/"))
    {
        return rest == "*" || (!rest.contains('/') && !rest.is_empty());
    }
    trimmed == "/Users" || trimmed == "/System" || trimmed == "/Library"
}

/// True for paths of credentials and secrets.
pub fn is_sensitive_path(p: &str) -> bool {
    let l = p.to_ascii_lowercase();
    riskgate_model::credentials::sensitive_kind(&l).is_some()
        // what code touches in ~/.ssh besides keys (trust and persistence), service-account
        // files, the macOS keychain
        || l.contains("/.ssh/")
        || l.starts_with(".ssh/")
        || l.ends_with("credentials.json")
        || l.contains("keychain")
}

/// True for shell startup files, system configuration, scheduling and service files.
pub fn is_persistence_path(p: &str) -> bool {
    PERSISTENCE.as_ref().is_some_and(|r| r.is_match(p))
}

/// True for raw block devices.
pub fn is_raw_device(p: &str) -> bool {
    DEVICE.as_ref().is_some_and(|r| r.is_match(p))
}

/// True for a string that looks like a filesystem path.
pub fn is_path_like(s: &str) -> bool {
    let s = s.trim();
    if s.is_empty() || s.len() > 512 || s.contains('\n') || s.contains("://") {
        return false;
    }
    if s.starts_with('/')
        || s.starts_with("~/")
        || s == "~"
        || s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with("$HOME")
    {
        return !s.contains(' ') || s.starts_with('/');
    }
    let b = s.as_bytes();
    if b.len() >= 3
        && b.first().is_some_and(u8::is_ascii_alphabetic)
        && b.get(1) == Some(&b':')
        && matches!(b.get(2), Some(b'\\' | b'/'))
    {
        return true;
    }
    s.contains('/')
        && !s.contains(' ')
        && !s.starts_with('-')
        && s.chars().all(|c| c.is_ascii_graphic())
}

/// `file:PATH`.
pub fn file(p: &str) -> String {
    format!("file:{p}")
}

/// URLs in a text.
pub fn urls(text: &str) -> Vec<String> {
    URL.as_ref()
        .map(|r| {
            r.find_iter(text)
                .map(|m| format!("url:{}", m.as_str().trim_end_matches(['.', ',', ';'])))
                .collect()
        })
        .unwrap_or_default()
}

/// Table names in SQL text.
pub fn tables(sql: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(r) = TABLE.as_ref() {
        for c in r.captures_iter(sql) {
            if let Some(m) = c.get(1) {
                let name: String = m
                    .as_str()
                    .chars()
                    .filter(|c| !matches!(c, '`' | '"' | '[' | ']'))
                    .collect();
                let upper = name.to_ascii_uppercase();
                if matches!(
                    upper.as_str(),
                    "SELECT"
                        | "VALUES"
                        | "SET"
                        | "WHERE"
                        | "IF"
                        | "ONLY"
                        | "TABLE"
                        | "LATERAL"
                        | "DUAL"
                ) {
                    continue;
                }
                let r = format!("table:{name}");
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// Resources named by one argument value (paths given to a file function are files whatever
/// their shape).
pub fn of_value(v: &ArgValue, file_arg: bool) -> Vec<String> {
    match v {
        ArgValue::Str(s) | ArgValue::Dynamic(s) => {
            let u = urls(s);
            if !u.is_empty() {
                u
            } else if (file_arg && !s.is_empty() && !s.contains('\n') && s.len() < 512)
                || is_path_like(s)
            {
                vec![file(s)]
            } else {
                Vec::new()
            }
        }
        ArgValue::List(items) => items.iter().flat_map(|i| of_value(i, false)).collect(),
        _ => Vec::new(),
    }
}

/// Functions and constructors whose first argument is a path whatever its shape
/// (`open('notes')`, `Path('config.yaml')`, `fs.rmSync('dist')`); any other call's arguments
/// are files only when they look like paths (`print('hello')` names no file).
#[rustfmt::skip]
const PATH_FIRST: &[&str] = &[
    "open", "Path", "PurePath", "PosixPath", "WindowsPath", "unlink", "remove", "removedirs",
    "rmtree", "rmdir", "mkdir", "makedirs", "chmod", "chown", "lchown", "copy", "copy2",
    "copyfile", "copytree", "move", "rename", "renames", "truncate", "listdir", "scandir",
    "walk", "stat", "lstat", "exists", "isfile", "isdir", "symlink", "link", "utime",
    "readFileSync", "writeFileSync", "appendFileSync", "readFile", "writeFile", "appendFile",
    "rmSync", "rm", "unlinkSync", "rmdirSync", "mkdirSync", "createReadStream",
    "createWriteStream", "existsSync", "statSync", "copyFileSync", "renameSync", "chmodSync",
    "chownSync", "truncateSync", "readdir", "readdirSync", "opendir", "delete", "read", "write",
    "foreach", "readlines", "binread", "binwrite", "file_get_contents", "file_put_contents",
    "fopen", "rm_rf", "rm_r", "mkdir_p", "touch", "cp", "mv",
];

/// Whether the call's first argument names a file whatever its shape.
fn first_arg_is_path(c: &Call) -> bool {
    // `f.write(data)` / `sys.stdout.write(x)`: data, not a path; `File.write(path, …)` and
    // `IO.read(path)` name the file first.
    if matches!(
        c.method.as_str(),
        "read" | "write" | "delete" | "foreach" | "readlines"
    ) && !(c.name.starts_with("File.") || c.name.starts_with("IO."))
    {
        return false;
    }
    PATH_FIRST.contains(&c.method.as_str())
}

/// Resources named by a call's arguments: URLs and path-shaped strings, and the first argument
/// of a file function (see [`PATH_FIRST`]).
pub fn of_call(c: &Call) -> Vec<String> {
    c.args
        .iter()
        .filter(|a| a.keyword.is_none())
        .take(2)
        .flat_map(|a| of_value(&a.value, false))
        .chain(
            c.args
                .first()
                .filter(|_| first_arg_is_path(c))
                .map(|a| of_value(&a.value, true))
                .unwrap_or_default(),
        )
        .fold(Vec::new(), |mut acc, r| {
            if !acc.contains(&r) {
                acc.push(r);
            }
            acc
        })
}

/// Paths among command words (the non-flag arguments that look like paths).
pub fn of_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .skip(1)
        .filter(|w| {
            !w.starts_with('-') && w.as_str() != "$ARG" && (is_path_like(w) || w.starts_with('/'))
        })
        .map(|w| file(w))
        .collect()
}

/// Every resource the code names: URLs and paths in evaluated strings, tables in SQL.
pub fn global(a: &Analysis) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |r: String| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    for s in &a.strings {
        for u in urls(&s.value) {
            push(u);
        }
        if s.value == "/" || is_path_like(&s.value) {
            push(file(&s.value));
        }
    }
    for q in &a.sql {
        if q.store == Store::Sql {
            for t in tables(&q.text) {
                push(t);
            }
        }
    }
    for c in &a.shell {
        for r in of_words(&c.words) {
            push(r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_classes() {
        assert!(is_critical_path("/"));
        assert!(is_critical_path("/home/"));
        assert!(is_critical_path("/home/alice"));
        assert!(!is_critical_path("/home/alice/tmp"));
        assert!(is_critical_path("~"));
        assert!(!is_critical_path("/tmp/build"));
        assert!(is_sensitive_path("/home/u/.ssh/id_rsa"));
        assert!(is_sensitive_path("~/.aws/credentials"));
        assert!(is_sensitive_path("app/.env"));
        assert!(!is_sensitive_path("/tmp/environment.txt"));
        assert!(is_persistence_path("~/.bashrc"));
        assert!(is_persistence_path("/etc/hosts"));
        assert!(is_raw_device("/dev/sda"));
        assert!(!is_raw_device("/dev/null"));
    }

    #[test]
    fn extraction() {
        assert_eq!(
            urls("see https://api.example.com/data."),
            vec!["url:https://api.example.com/data"]
        );
        assert_eq!(
            tables("DELETE FROM users WHERE id IN (SELECT id FROM old_users)"),
            vec!["table:users", "table:old_users"]
        );
        assert!(
            is_path_like("/tmp/data.csv")
                && is_path_like("data/out.csv")
                && !is_path_like("hello world")
        );
        assert!(!is_path_like("{}") && !is_path_like("-rf"));
    }
}
