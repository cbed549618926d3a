//! Makefiles: a small line parser for targets and their recipes.
//!
//! A rule line (`target [more]: [prerequisites] [; recipe]`, not an assignment) starts a rule;
//! the recipe is the lines after it that start with a tab (or `.RECIPEPREFIX`), continuation
//! lines joined. Recipe prefixes `@`, `-`, `+` are dropped; `$$` is `$`; `$(VAR)` / `${VAR}` of
//! a variable assigned in the file is replaced by its value (nested up to 4 deep), `$@` by the
//! target and `$<` by its first prerequisite; a variable the file never assigns is what make
//! gives it (see [`undefined`]); functions become values unknown to the analysis. One snippet
//! per target, named by it.

use std::collections::HashMap;

use crate::snippet::{Extracted, Snippet, SnippetLang};
use crate::text::variable_name;

/// Most variables remembered.
const MAX_VARS: usize = 1024;

/// Most bytes of variable values pasted into one recipe line (past it, references stay
/// unknown variables): `A = $(A)$(A)…` cannot blow up.
const EXPANSION_BUDGET: usize = 64 * 1024;

struct Rule {
    line: u32,
    targets: Vec<String>,
    prereqs: Vec<String>,
    /// Recipe lines: text, source line, column.
    recipe: Vec<(String, u32, u32)>,
}

/// Extract a Makefile.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut rules: Vec<Rule> = Vec::new();
    let mut prefix = '\t';
    let mut in_rule = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let no = i as u32 + 1;
        i += 1;
        if in_rule && line.starts_with(prefix) {
            // a recipe line, with its continuations
            let mut body = line[prefix.len_utf8()..].to_string();
            while body.ends_with('\\') && i < lines.len() {
                body.push('\n');
                body.push_str(lines[i].strip_prefix(prefix).unwrap_or(lines[i]));
                i += 1;
            }
            let trimmed = body.trim_start_matches(['@', '-', '+', ' ', '\t']);
            let col =
                (line.len() - line.trim_start_matches(['\t', '@', '-', '+', ' ']).len()) as u32 + 1;
            if let Some(r) = rules.last_mut()
                && !trimmed.trim().is_empty()
                && !trimmed.trim_start().starts_with('#')
            {
                r.recipe.push((trimmed.to_string(), no, col));
            }
            continue;
        }
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        // logical line with continuations (assignments, rule lines)
        let mut logical = line.to_string();
        while logical.ends_with('\\') && i < lines.len() {
            logical.pop();
            logical.push(' ');
            logical.push_str(lines[i].trim());
            i += 1;
        }
        if let Some((name, value)) = assignment(&logical) {
            if name == ".RECIPEPREFIX" {
                prefix = value.chars().next().unwrap_or('\t');
            } else if vars.len() < MAX_VARS || vars.contains_key(&name) {
                vars.insert(name, value);
            }
            continue;
        }
        let directive = t.split_whitespace().next().unwrap_or("");
        if matches!(
            directive,
            "include"
                | "-include"
                | "sinclude"
                | "ifeq"
                | "ifneq"
                | "ifdef"
                | "ifndef"
                | "else"
                | "endif"
                | "define"
                | "endef"
                | "export"
                | "unexport"
                | "vpath"
                | "override"
        ) {
            in_rule = false;
            continue;
        }
        if let Some(rule) = rule_line(&logical, no) {
            in_rule = true;
            rules.push(rule);
        } else {
            in_rule = false;
        }
    }
    for r in rules {
        if r.targets
            .iter()
            .all(|t| t.starts_with('.') && !t.contains('/'))
        {
            continue;
        }
        if r.recipe.is_empty() {
            // no recipe: kept (empty) for what it depends on (`all: build test`)
            if !r.prereqs.is_empty() {
                for name in r.targets.iter().take(4) {
                    out.snippets.push(
                        Snippet::new(
                            format!("target {name}"),
                            String::new(),
                            SnippetLang::Shell,
                            vec![(r.line, 1)],
                        )
                        .named(name.clone())
                        .with_deps(r.prereqs.clone()),
                    );
                }
            }
            continue;
        }
        // `$@` and `$<` stand for the target and first prerequisite as make expands them
        // (`$(BUILD)/$(TARGET).bin` → `build/blinky.bin`)
        let mut budget = EXPANSION_BUDGET;
        let raw_target = r.targets.first().cloned().unwrap_or_default();
        let target = expand(&raw_target, &vars, "", None, 0, &mut budget);
        let first = r
            .prereqs
            .first()
            .map(|p| expand(p, &vars, "", None, 0, &mut budget));
        let mut text = String::new();
        let mut positions = Vec::new();
        for (k, (body, no, col)) in r.recipe.iter().enumerate() {
            if k > 0 {
                text.push('\n');
            }
            let mut budget = EXPANSION_BUDGET;
            let expanded = expand(body, &vars, &target, first.as_deref(), 0, &mut budget);
            for (j, _) in expanded.split('\n').enumerate() {
                positions.push((no + j as u32, if j == 0 { *col } else { 1 }));
            }
            text.push_str(&expanded);
        }
        for name in r.targets.iter().take(4) {
            let snippet = Snippet::new(
                format!("target {name}"),
                text.clone(),
                SnippetLang::Shell,
                positions.clone(),
            )
            .named(name.clone())
            .with_deps(r.prereqs.clone());
            out.push(snippet);
        }
    }
    let mut installs: Vec<String> = Vec::new();
    for s in &out.snippets {
        for f in installed_files(&s.text) {
            if !installs.contains(&f) && installs.len() < MAX_INSTALLS {
                installs.push(f);
            }
        }
    }
    for s in &mut out.snippets {
        s.installs = installs.clone();
    }
    out
}

/// Most installed files remembered.
const MAX_INSTALLS: usize = 256;

/// The files an `install` or `cp` of a recipe puts in place: `DEST/NAME` for each source when
/// the destination is a directory (`-t DIR`, a trailing `/`, several sources), and for a single
/// source both `DEST` and `DEST/NAME` (the text does not say which `DEST` is).
fn installed_files(text: &str) -> Vec<String> {
    let parsed = riskgate_shell::parse(text);
    let mut out = Vec::new();
    for c in parsed.commands.iter().take(512) {
        if !matches!(c.program.as_str(), "install" | "cp") {
            continue;
        }
        let mut operands: Vec<&str> = Vec::new();
        let mut target_dir: Option<&str> = None;
        let mut words = c.raw_argv.iter().skip(1).map(|w| w.text.as_str());
        while let Some(w) = words.next() {
            match w {
                "-d" | "--directory" | "-r" | "-R" | "--recursive" => {
                    operands.clear();
                    target_dir = None;
                    break;
                }
                "-m" | "-o" | "-g" | "-S" | "--mode" | "--owner" | "--group" | "--suffix" => {
                    words.next();
                }
                "-t" | "--target-directory" => target_dir = words.next(),
                _ if w.starts_with("--target-directory=") => {
                    target_dir = w.split_once('=').map(|(_, d)| d);
                }
                _ if w.starts_with('-') => {}
                _ => operands.push(w),
            }
        }
        let (sources, dest, is_dir) = match (target_dir, operands.split_last()) {
            (Some(d), _) => (operands.as_slice(), d, true),
            (None, Some((last, rest))) if !rest.is_empty() => {
                (rest, *last, rest.len() > 1 || last.ends_with('/'))
            }
            _ => continue,
        };
        let dest = dest.trim_end_matches('/');
        for src in sources {
            let name = src.rsplit('/').next().unwrap_or(src);
            out.push(squash_slashes(&format!("{dest}/{name}")));
            if !is_dir {
                out.push(squash_slashes(dest));
            }
        }
    }
    out
}

/// `//` → `/` (an empty `$(DESTDIR)` before `/$(PREFIX)`).
fn squash_slashes(p: &str) -> String {
    let mut s = p.to_string();
    while s.contains("//") {
        s = s.replace("//", "/");
    }
    s
}

/// `NAME = value` (also `:=`, `::=`, `?=`, `+=`, `!=`, `export`/`override` before it).
fn assignment(line: &str) -> Option<(String, String)> {
    let l = line.trim_start();
    let l = l
        .strip_prefix("export ")
        .or_else(|| l.strip_prefix("override "))
        .unwrap_or(l);
    let eq = l.find('=')?;
    let colon = l.find(':');
    let (name_part, value) = (&l[..eq], &l[eq + 1..]);
    if let Some(c) = colon
        && c < eq
        && !name_part[c..].chars().all(|ch| ch == ':')
    {
        return None; // a rule with a target-specific variable, or `a: b=c`
    }
    let name = name_part.trim_end_matches([':', '?', '+', '!']).trim();
    if name.is_empty()
        || name.contains(char::is_whitespace)
        || name.contains('$') && !name.starts_with("$(")
    {
        return None;
    }
    Some((name.to_string(), value.trim().to_string()))
}

/// `targets: prerequisites [; recipe]`.
fn rule_line(line: &str, no: u32) -> Option<Rule> {
    let bytes = line.as_bytes();
    let mut depth = 0i32;
    let mut colon = None;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b':' if depth <= 0 => {
                colon = Some(i);
                break;
            }
            _ => {}
        }
    }
    let c = colon?;
    let targets: Vec<String> = line[..c].split_whitespace().map(str::to_string).collect();
    if targets.is_empty() {
        return None;
    }
    let rest = line[c + 1..].trim_start_matches(':');
    let (prereqs, inline) = match rest.split_once(';') {
        Some((p, r)) => (p, Some(r)),
        None => (rest, None),
    };
    let mut rule = Rule {
        line: no,
        targets,
        prereqs: prereqs.split_whitespace().map(str::to_string).collect(),
        recipe: Vec::new(),
    };
    if let Some(r) = inline.filter(|r| !r.trim().is_empty()) {
        let col = line.len() - r.trim_start().len() + 1;
        rule.recipe.push((r.trim().to_string(), no, col as u32));
    }
    Some(rule)
}

/// What make puts for a variable the file never assigns: its built-in value (`$(RM)` is
/// `rm -f`), the environment's for environment variables (`$(HOME)` → `$HOME`), and nothing for
/// the rest — as `make` runs without arguments (`rm -rf $(HOME)/$(CACHE_DIR)` with
/// `CACHE_DIR` unset deletes the home directory). Functions (`$(shell …)`, `$(wildcard …)`)
/// stay values unknown to the analysis.
fn undefined(name: &str) -> String {
    if name.contains(char::is_whitespace) || name.contains(',') {
        return format!("${{{}}}", variable_name(name));
    }
    match name {
        "RM" => "rm -f".to_string(),
        "MAKE" => "make".to_string(),
        "CC" => "cc".to_string(),
        "CXX" => "g++".to_string(),
        "AR" => "ar".to_string(),
        "CURDIR" => ".".to_string(),
        "HOME" | "USER" | "PATH" | "PWD" | "SHELL" | "TMPDIR" | "LOGNAME" => format!("${name}"),
        _ => String::new(),
    }
}

/// Expand make references in a recipe line (see the module's doc).
fn expand(
    s: &str,
    vars: &HashMap<String, String>,
    target: &str,
    first_prereq: Option<&str>,
    depth: u32,
    budget: &mut usize,
) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek().map(|p| p.1) {
            Some('$') => {
                chars.next();
                out.push('$');
            }
            Some('@') => {
                chars.next();
                out.push_str(target);
            }
            Some('<') => {
                chars.next();
                match first_prereq {
                    Some(p) => out.push_str(p),
                    None => out.push_str("${TPL_PREREQUISITE}"),
                }
            }
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                let start = i + 2;
                let mut level = 0;
                let mut end = None;
                for (j, ch) in s[start..].char_indices() {
                    if ch == open {
                        level += 1;
                    } else if ch == close {
                        if level == 0 {
                            end = Some(start + j);
                            break;
                        }
                        level -= 1;
                    }
                }
                let Some(end) = end else {
                    out.push(c);
                    continue;
                };
                let inner = &s[start..end];
                while chars.peek().is_some_and(|(j, _)| *j <= end) {
                    chars.next();
                }
                let name = inner.trim();
                match vars.get(name) {
                    Some(v) if depth < 4 && *budget >= v.len() => {
                        *budget -= v.len();
                        out.push_str(&expand(v, vars, target, first_prereq, depth + 1, budget));
                    }
                    Some(_) => {
                        out.push_str("${");
                        out.push_str(&variable_name(inner));
                        out.push('}');
                    }
                    None => out.push_str(&undefined(name)),
                }
            }
            Some(ch) if ch.is_ascii_alphanumeric() || matches!(ch, '^' | '*' | '?' | '+' | '|') => {
                chars.next();
                out.push_str("${");
                out.push_str(&variable_name(&ch.to_string()));
                out.push('}');
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_recipes_and_variables() {
        let src = "PREFIX ?= /usr/local\nDIR := build\n.PHONY: all clean\n\nall: build\n\t@echo building $@\n\tcargo build\n\nclean:\n\t-rm -rf $(DIR) \\\n\t  dist\n\ninstall: all ; install -m 755 app $(PREFIX)/bin\n\n%.o: %.c\n\t$(CC) -c $< -o $@ $$HOME\n";
        let out = extract(src);
        let s: Vec<(&str, &str, (u32, u32))> = out
            .snippets
            .iter()
            .map(|s| (s.name.as_deref().unwrap_or(""), s.text.as_str(), s.start()))
            .collect();
        assert_eq!(s[0], ("all", "echo building all\ncargo build", (6, 3)));
        assert_eq!(s[1], ("clean", "rm -rf build \\\n  dist", (10, 3)));
        assert_eq!(s[2].0, "install");
        assert_eq!(s[2].1, "install -m 755 app /usr/local/bin");
        assert_eq!(s[2].2.0, 13);
        assert_eq!(s[3].1, "cc -c %.c -o %.o $HOME");
        // the target and prerequisite of `$@` and `$<` are expanded as make expands them
        let fw = extract(
            "BUILD = build\nT = fw\nflash: $(BUILD)/$(T).bin\n\tst-flash write $< 0x08000000\n$(BUILD)/$(T).bin:\n\tobjcopy -O binary x $@\n",
        );
        assert_eq!(
            fw.snippets[0].text,
            "st-flash write build/fw.bin 0x08000000"
        );
        assert_eq!(fw.snippets[1].text, "objcopy -O binary x build/fw.bin");
    }

    #[test]
    fn unknown_references_and_recursion_are_bounded() {
        let src = "A = $(A) x\nt:\n\techo $(A) $(shell id) $(foo\n";
        let out = extract(src);
        assert_eq!(out.snippets.len(), 1);
        assert!(out.snippets[0].text.starts_with("echo "));
    }
}
