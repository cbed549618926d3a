//! Task runners' files followed when the script made their content known: `just` runs the
//! indented recipe lines of its justfile, `task` (go-task) the `cmds:` of its Taskfile. What
//! they run is read as the shell would get it (`printf 'purge:\n    rm -rf ~/\n' >
//! /tmp/justfile && just -f /tmp/justfile purge` deletes the home directory).
//!
//! Textual and bounded: every recipe line and every `cmds:` item of the file is read (not only
//! the named recipe's), as a file's whole text is for `make -f`.

use crate::SimpleCommand;
use crate::ctx::Frame;
use crate::ctx::Norm;

/// Most lines taken from one file.
const MAX_LINES: usize = 512;

/// The file named by one of `opts` (`-f FILE`, `--justfile=FILE`), else the first default
/// that the script wrote.
fn named_file<'a>(raw: &[&'a str], opts: &[&str]) -> Option<&'a str> {
    raw.iter().enumerate().find_map(|(k, t)| {
        if opts.contains(t) {
            return raw.get(k + 1).copied();
        }
        opts.iter()
            .filter(|o| o.starts_with("--"))
            .find_map(|o| t.strip_prefix(*o).and_then(|r| r.strip_prefix('=')))
    })
}

/// The recipe lines of a justfile: indented lines (their `@`/`-` prefixes dropped), `{{…}}`
/// interpolations left as unknown words.
fn just_recipes(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty())
        .take(MAX_LINES)
        .map(|l| {
            l.trim()
                .trim_start_matches(['@', '-'])
                .replace("{{", "${JUST_")
                .replace("}}", "}")
        })
        .filter(|l| !l.starts_with('#'))
        .collect()
}

/// The commands of a Taskfile: the `- CMD` and `- cmd: CMD` items of its `cmds:` lists.
fn task_cmds(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_cmds: Option<usize> = None;
    for line in text.lines() {
        if out.len() >= MAX_LINES {
            break;
        }
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t == "cmds:" {
            in_cmds = Some(indent);
            continue;
        }
        match in_cmds {
            Some(at) if indent > at || (indent == at && t.starts_with('-')) => {
                let item = t.strip_prefix('-').map(str::trim);
                let cmd = item.map(|i| i.strip_prefix("cmd:").map(str::trim).unwrap_or(i));
                if let Some(c) = cmd.filter(|c| !c.is_empty() && !c.ends_with(':')) {
                    out.push(unquote(c).replace("{{", "${TASK_").replace("}}", "}"));
                }
            }
            Some(_) => in_cmds = None,
            None => {}
        }
    }
    out
}

/// A YAML scalar without its surrounding quotes.
fn unquote(s: &str) -> String {
    for q in ['\'', '"'] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return if q == '\'' {
                inner.replace("''", "'")
            } else {
                inner.replace("\\\"", "\"")
            };
        }
    }
    s.to_string()
}

impl Norm<'_> {
    /// `just [-f FILE] [RECIPE…]` and `task [-t FILE] [TASK…]` with a file the script wrote.
    pub(crate) fn follow_task_runner(&mut self, cmd: &SimpleCommand, base: &Frame) {
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let (file, defaults, runner): (Option<&str>, &[&str], &str) = match cmd.program.as_str() {
            "just" => (
                named_file(&raw, &["-f", "--justfile"]),
                &["justfile", "Justfile", ".justfile"],
                "just",
            ),
            "task" | "go-task" => (
                named_file(&raw, &["-t", "--taskfile"]),
                &[
                    "Taskfile.yml",
                    "Taskfile.yaml",
                    "taskfile.yml",
                    "taskfile.yaml",
                ],
                "task",
            ),
            _ => return,
        };
        let text = match file {
            Some(f) => self.file_content(f),
            None => defaults.iter().find_map(|f| self.file_content(f)),
        };
        let Some(text) = text else {
            return;
        };
        let lines = if runner == "just" {
            just_recipes(&text)
        } else {
            task_cmds(&text)
        };
        if !lines.is_empty() {
            let _ = self.run_text(&lines.join("\n"), runner, "", base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_and_cmds_are_read() {
        assert_eq!(
            just_recipes("purge:\n    rm -rf ~/\n\nbuild:\n\t@cargo build {{flags}}\n"),
            ["rm -rf ~/", "cargo build ${JUST_flags}"]
        );
        assert_eq!(
            task_cmds(
                "version: '3'\ntasks:\n  drop:\n    cmds:\n      - psql \"$URL\" -c 'DROP TABLE t'\n      - cmd: echo done\n  other:\n    desc: x\n"
            ),
            ["psql \"$URL\" -c 'DROP TABLE t'", "echo done"]
        );
        assert!(task_cmds("tasks:\n  a:\n    desc: 'rm -rf /'\n").is_empty());
    }
}
