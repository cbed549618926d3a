//! Dockerfile / Containerfile: a small line parser (the instruction grammar is line-based).
//!
//! Handled: the `# escape=` directive, continuation lines (comment lines inside them are
//! dropped, as the builder does), `RUN` in shell form (with `--mount`/`--network` flags) and
//! exec form (a JSON array), heredocs (`RUN <<EOF … EOF`), `SHELL` (PowerShell and cmd images),
//! `ONBUILD RUN`, `CMD`/`ENTRYPOINT` (what the container runs) and `ADD` of a remote URL
//! without `--checksum` (a notice). Linear in the file.

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::{LineIndex, join_argv};

/// One logical instruction: its physical lines (text, 1-based line number), continuations
/// joined, comment lines inside dropped.
struct Instruction<'a> {
    lines: Vec<(&'a str, u32)>,
}

/// Extract a Dockerfile.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let index = LineIndex::new(text);
    let physical: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let escape = escape_char(&physical);
    let mut shell_lang = SnippetLang::Shell;
    // files fetched by `ADD URL DEST`: where they land
    let mut remote: Vec<String> = Vec::new();
    let mut i = 0;
    while i < physical.len() {
        let line = physical[i];
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let mut ins = Instruction {
            lines: vec![(line, i as u32 + 1)],
        };
        let mut cur = line;
        while continues(cur, escape) && i + 1 < physical.len() {
            i += 1;
            if physical[i].trim_start().starts_with('#') {
                continue;
            }
            cur = physical[i];
            ins.lines.push((cur, i as u32 + 1));
            if cur.trim().is_empty() {
                break;
            }
        }
        i += 1;
        let (word, rest) = split_word(trimmed);
        let word = word.to_ascii_uppercase();
        let (word, rest) = if word == "ONBUILD" {
            let (w, r) = split_word(rest);
            (w.to_ascii_uppercase(), r)
        } else {
            (word, rest)
        };
        match word.as_str() {
            "RUN" | "CMD" | "ENTRYPOINT" => {
                let heredoc_end = run(
                    &mut out, &index, &physical, &ins, &word, rest, escape, shell_lang, i,
                );
                if let Some(end) = heredoc_end {
                    i = end;
                }
                let ran = out
                    .snippets
                    .last()
                    .filter(|_| !remote.is_empty())
                    .and_then(|s| runs_any(&s.text, &remote).map(|p| (s.start(), p)));
                if let Some((pos, path)) = ran {
                    out.notice("docker.add-remote-run", pos, path, word.as_str());
                }
            }
            "SHELL" => {
                let argv = exec_form(rest).unwrap_or_default();
                let prog = argv
                    .first()
                    .map(|p| p.to_ascii_lowercase())
                    .unwrap_or_default();
                let prog = prog
                    .rsplit(['/', '\\'])
                    .next()
                    .unwrap_or("")
                    .trim_end_matches(".exe")
                    .to_string();
                shell_lang = match prog.as_str() {
                    "powershell" | "pwsh" => SnippetLang::PowerShell,
                    "cmd" => SnippetLang::Cmd,
                    _ => SnippetLang::Shell,
                };
            }
            "ADD" => remote.extend(add(&mut out, &ins, rest)),
            _ => {}
        }
    }
    out
}

/// The `# escape=` parser directive (before any instruction), else `\`.
fn escape_char(lines: &[&str]) -> char {
    for l in lines {
        let t = l.trim();
        if !t.starts_with('#') {
            break;
        }
        let d = t.trim_start_matches('#').trim().to_ascii_lowercase();
        if let Some(v) = d.strip_prefix("escape")
            && let Some(v) = v.trim_start().strip_prefix('=')
            && let Some(c) = v.trim().chars().next()
        {
            return c;
        }
    }
    '\\'
}

fn continues(line: &str, escape: char) -> bool {
    line.trim_end().ends_with(escape)
}

fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim_start()),
        None => (s, ""),
    }
}

/// A JSON array of strings (exec form), if `rest` is one.
fn exec_form(rest: &str) -> Option<Vec<String>> {
    let t = rest.trim();
    if !t.starts_with('[') {
        return None;
    }
    serde_json::from_str::<Vec<String>>(t).ok()
}

/// Strip `--flag=value` options before a RUN's command.
fn strip_flags(mut rest: &str) -> &str {
    while rest.starts_with("--") {
        let (_, r) = split_word(rest);
        rest = r;
    }
    rest
}

/// A RUN / CMD / ENTRYPOINT. Returns the index of the line after a heredoc it consumed.
#[allow(clippy::too_many_arguments)]
fn run(
    out: &mut Extracted,
    index: &LineIndex<'_>,
    physical: &[&str],
    ins: &Instruction<'_>,
    word: &str,
    rest: &str,
    escape: char,
    lang: SnippetLang,
    next_line: usize,
) -> Option<usize> {
    let (first_line, first_no) = ins.lines.first().copied()?;
    let name = if word == "RUN" { "build" } else { "run" };
    let body = if word == "RUN" {
        strip_flags(rest)
    } else {
        rest
    };
    let body_col = first_line.len() - body.len() + 1;
    if body.trim_start().starts_with('[')
        && let Some(argv) = exec_form(&joined(body, ins, escape))
    {
        let text = join_argv(&argv);
        let lines = vec![(first_no, body_col as u32)];
        out.push(Snippet::new(word, text, SnippetLang::Shell, lines).named(name));
        return None;
    }
    // heredocs: `RUN <<EOF` (the body is the script) or `RUN python3 <<EOF` (fed to a command)
    if let Some(delim) = heredoc_delimiter(body) {
        let mut body_lines: Vec<(&str, u32)> = Vec::new();
        let mut end = next_line;
        let mut closed = false;
        while end < physical.len() {
            let l = physical[end];
            end += 1;
            if l.trim() == delim {
                closed = true;
                break;
            }
            body_lines.push((l, end as u32));
        }
        if !closed {
            out.not_analyzed(first_no, 1, &format!("heredoc `{delim}` is not closed"));
        }
        let script: String = body_lines
            .iter()
            .map(|(l, _)| *l)
            .collect::<Vec<_>>()
            .join("\n");
        let mut lines: Vec<(u32, u32)> = body_lines.iter().map(|(_, n)| (*n, 1)).collect();
        let only_heredoc = body.trim_start().starts_with("<<");
        let text = if only_heredoc {
            script
        } else {
            lines.insert(0, (first_no, body_col as u32));
            format!("{body}\n{script}\n{delim}")
        };
        if lines.is_empty() {
            lines.push((first_no, body_col as u32));
        }
        let lang = if only_heredoc {
            shebang_lang(&text).unwrap_or(lang)
        } else {
            lang
        };
        out.push(Snippet::new(word, text, lang, lines).named(name));
        return Some(end);
    }
    let mut text = String::new();
    let mut lines = Vec::new();
    for (k, (l, no)) in ins.lines.iter().enumerate() {
        let part = if k == 0 { body } else { l };
        let col = if k == 0 { body_col as u32 } else { 1 };
        if k > 0 {
            text.push('\n');
        }
        let part = match part.trim_end().strip_suffix(escape) {
            Some(p) if escape != '\\' => format!("{p}\\"),
            _ => part.to_string(),
        };
        text.push_str(&part);
        lines.push((*no, col));
    }
    let _ = index;
    out.push(Snippet::new(word, text, lang, lines).named(name));
    None
}

/// `first` (the rest of the instruction's first line) and its continuation lines, joined
/// (for the exec form).
fn joined(first: &str, ins: &Instruction<'_>, escape: char) -> String {
    let mut s = String::new();
    for l in std::iter::once(first).chain(ins.lines.iter().skip(1).map(|(l, _)| *l)) {
        let t = l.trim_end();
        s.push_str(t.strip_suffix(escape).unwrap_or(t));
    }
    s
}

/// The delimiter of a heredoc started on the RUN line (`<<EOF`, `<<-EOF`, `<<"EOF"`).
fn heredoc_delimiter(body: &str) -> Option<String> {
    let i = body.find("<<")?;
    let after = body[i + 2..].trim_start_matches('-').trim_start();
    let word: String = after
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '&' | '|' | '>' | '<' | ')'))
        .collect();
    let word = word.trim_matches(['"', '\'']).to_string();
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(word)
}

/// The language of a script that starts with a shebang (`#!/usr/bin/env python3`).
pub(crate) fn shebang_lang(script: &str) -> Option<SnippetLang> {
    use riskgate_model::Language;
    let first = script.lines().next()?.strip_prefix("#!")?;
    let mut words = first.split_whitespace();
    let mut prog = words.next()?.rsplit('/').next()?.to_string();
    if prog == "env" {
        prog = words.find(|w| !w.starts_with('-'))?.to_string();
    }
    Some(match prog.as_str() {
        p if p.starts_with("python") => SnippetLang::Code(Language::Python),
        "node" | "deno" | "bun" => SnippetLang::Code(Language::Js),
        "perl" => SnippetLang::Code(Language::Perl),
        "ruby" => SnippetLang::Code(Language::Ruby),
        "php" => SnippetLang::Code(Language::Php),
        "pwsh" | "powershell" => SnippetLang::PowerShell,
        _ => SnippetLang::Shell,
    })
}

/// The first of `files` that a command of `script` runs (`sh F`, `bash F`, `python F`, `F`).
fn runs_any(script: &str, files: &[String]) -> Option<String> {
    let parsed = riskgate_shell::parse(script);
    for c in &parsed.commands {
        let argv0 = c.raw_argv.first().map(|w| w.text.as_str()).unwrap_or("");
        let first = c
            .positionals()
            .next()
            .map(|w| w.text.as_str())
            .unwrap_or("");
        let interpreter = matches!(
            c.program.as_str(),
            "sh" | "bash"
                | "dash"
                | "zsh"
                | "ash"
                | "python"
                | "python3"
                | "perl"
                | "ruby"
                | "node"
                | "source"
                | "."
        );
        for f in files {
            if argv0 == f || (interpreter && first == f) {
                return Some(f.clone());
            }
        }
    }
    None
}

/// `ADD` of a remote URL without `--checksum` (a notice); returns where remote files land.
fn add(out: &mut Extracted, ins: &Instruction<'_>, rest: &str) -> Vec<String> {
    let Some((first_line, first_no)) = ins.lines.first().copied() else {
        return Vec::new();
    };
    let mut words: Vec<String> = match exec_form(rest) {
        Some(argv) => argv,
        None => rest.split_whitespace().map(str::to_string).collect(),
    };
    let has_checksum = words.iter().any(|w| w.starts_with("--checksum"));
    words.retain(|w| !w.starts_with("--"));
    let mut landed = Vec::new();
    if words.len() < 2 {
        return landed;
    }
    let dest = words[words.len() - 1].clone();
    for src in &words[..words.len() - 1] {
        let l = src.to_ascii_lowercase();
        let plain = l.starts_with("http://") || l.starts_with("ftp://");
        if !(plain || l.starts_with("https://") || l.starts_with("git@")) {
            continue;
        }
        landed.push(if dest.ends_with('/') {
            let base = src
                .rsplit('/')
                .next()
                .unwrap_or("")
                .split('?')
                .next()
                .unwrap_or("");
            format!("{dest}{base}")
        } else {
            dest.clone()
        });
        if has_checksum {
            continue;
        }
        let col = first_line.find(src.as_str()).map_or(1, |c| c + 1);
        let rule = if plain {
            "docker.add-remote-http"
        } else {
            "docker.add-remote-url"
        };
        out.notice(rule, (first_no, col as u32), src.clone(), "ADD");
    }
    landed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_exec_heredoc_and_continuations() {
        let src = "# syntax=docker/dockerfile:1\nFROM debian:12\nRUN apt-get update && \\\n    # a comment inside\n    apt-get install -y curl\nRUN [\"sh\", \"-c\", \"echo hi\"]\nRUN --mount=type=cache,target=/root/.cache pip install -r req.txt\nRUN <<EOF\nset -e\nmake\nEOF\nRUN python3 <<PY\nprint(1)\nPY\nCMD [\"./serve\"]\n";
        let out = extract(src);
        let s: Vec<(&str, u32)> = out
            .snippets
            .iter()
            .map(|s| (s.text.as_str(), s.start().0))
            .collect();
        assert_eq!(
            s[0],
            ("apt-get update && \\\n    apt-get install -y curl", 3)
        );
        assert_eq!(out.snippets[0].lines, vec![(3, 5), (5, 1)]);
        assert_eq!(s[1], ("sh -c 'echo hi'", 6));
        assert_eq!(s[2], ("pip install -r req.txt", 7));
        assert_eq!(s[3], ("set -e\nmake", 9));
        assert_eq!(s[4], ("python3 <<PY\nprint(1)\nPY", 12));
        assert_eq!(s[5], ("./serve", 15));
        assert_eq!(out.snippets[5].name.as_deref(), Some("run"));
        assert!(out.notices.is_empty());
    }

    #[test]
    fn windows_escape_and_shell() {
        let src = "# escape=`\nFROM mcr.microsoft.com/windows/servercore\nSHELL [\"powershell\", \"-Command\"]\nRUN Remove-Item -Recurse -Force C:\\\\data `\n    ; echo done\n";
        let out = extract(src);
        assert_eq!(out.snippets.len(), 1);
        assert_eq!(out.snippets[0].lang, SnippetLang::PowerShell);
        assert_eq!(out.snippets[0].lines.len(), 2);
    }

    #[test]
    fn add_remote() {
        let out = extract("FROM x\nADD --chown=1 https://example.com/a.tgz /opt/\n");
        assert_eq!(out.notices.len(), 1);
        assert_eq!(out.notices[0].line, 2);
        assert_eq!(out.notices[0].column, 15);
    }
}
