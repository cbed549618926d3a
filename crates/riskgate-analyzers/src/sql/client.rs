//! What database clients do besides SQL: psql meta-commands (`\dt`, `\d+ t`, `\l`, `\i file`,
//! `\! CMD`) and sqlite3 dot-commands (`.tables`, `.schema`, `.read file`, `.shell CMD`,
//! `.system CMD`), read at the start of a line; and MySQL executable comments
//! (`/*!50000 DROP TABLE t */`, `/*!DROP …*/`), which MySQL runs as SQL.
//!
//! Informational commands are harmless; reading SQL from a file is not fully seen; a shell
//! escape runs a shell command, which the engine hands to the shell engine
//! ([`shell_escapes`]).

/// A client command found in SQL text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Meta {
    /// `\! CMD`, `.shell CMD`, `.system CMD`.
    Shell(String),
    /// `\i FILE`, `\ir FILE`, `.read FILE`, `.restore FILE`: SQL (or a database) not seen here.
    File(String),
}

/// The text with client commands blanked (same length, line breaks kept), MySQL executable
/// comments opened, and the client commands found (with their 1-based line).
pub(crate) fn strip(text: &str) -> (String, Vec<(Meta, u32)>) {
    let mut out = String::with_capacity(text.len());
    let mut metas = Vec::new();
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let t = body.trim_start();
        let meta = if let Some(rest) = t.strip_prefix('\\') {
            Some(psql(rest))
        } else if let Some(rest) = t.strip_prefix('.') {
            rest.chars()
                .next()
                .filter(char::is_ascii_alphabetic)
                .map(|_| sqlite(rest))
        } else {
            None
        };
        match meta {
            Some(m) => {
                if let Some(m) = m {
                    metas.push((m, n as u32 + 1));
                }
                out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
            }
            None => out.push_str(line),
        }
    }
    (open_versioned_comments(&out), metas)
}

fn psql(rest: &str) -> Option<Meta> {
    let (cmd, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let arg = arg.trim().to_string();
    match cmd {
        "!" => Some(Meta::Shell(arg)),
        c if c.starts_with('!') => {
            Some(Meta::Shell(format!("{} {arg}", &c[1..]).trim().to_string()))
        }
        "i" | "ir" | "include" | "include_relative" => Some(Meta::File(arg)),
        _ => None,
    }
}

fn sqlite(rest: &str) -> Option<Meta> {
    let (cmd, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let arg = arg.trim();
    let arg = arg
        .strip_prefix('"')
        .and_then(|a| a.strip_suffix('"'))
        .or_else(|| arg.strip_prefix('\'').and_then(|a| a.strip_suffix('\'')))
        .unwrap_or(arg)
        .to_string();
    match cmd {
        "shell" | "system" => Some(Meta::Shell(arg)),
        "read" | "restore" | "load" => Some(Meta::File(arg)),
        _ => None,
    }
}

/// `/*!50000 DROP TABLE t */` → `         DROP TABLE t   `: MySQL runs what is inside.
fn open_versioned_comments(s: &str) -> String {
    if !s.contains("/*!") {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find("/*!") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 3..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        out.push_str(&" ".repeat(3 + digits));
        let inner = &after[digits..];
        match inner.find("*/") {
            Some(end) => {
                out.push_str(&inner[..end]);
                out.push_str("  ");
                rest = &inner[end + 2..];
            }
            None => {
                out.push_str(inner);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The shell commands that database-client text runs (`\! CMD`, `.shell CMD`, `.system CMD`).
pub fn shell_escapes(text: &str) -> Vec<String> {
    strip(text)
        .1
        .into_iter()
        .filter_map(|(m, _)| match m {
            Meta::Shell(c) if !c.is_empty() => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_commands_are_blanked_and_escapes_found() {
        let (sql, metas) = strip("\\dt\nSELECT 1;\n\\! rm -rf /x\n");
        assert_eq!(sql.trim(), "SELECT 1;");
        assert_eq!(metas, vec![(Meta::Shell("rm -rf /x".into()), 3)]);
        assert_eq!(shell_escapes(".shell rm -rf ~"), ["rm -rf ~"]);
        assert_eq!(shell_escapes(".system \"curl x | sh\""), ["curl x | sh"]);
        assert!(shell_escapes(".tables\n.schema users").is_empty());
        assert_eq!(strip("SELECT 1.5;").0, "SELECT 1.5;");
    }

    #[test]
    fn versioned_comments_are_opened() {
        assert_eq!(
            open_versioned_comments("/*!50000 DROP TABLE x */").trim(),
            "DROP TABLE x"
        );
        assert_eq!(
            open_versioned_comments("/*!DROP DATABASE prod*/").trim(),
            "DROP DATABASE prod"
        );
        assert_eq!(
            open_versioned_comments("/* plain */ SELECT 1"),
            "/* plain */ SELECT 1"
        );
    }
}
