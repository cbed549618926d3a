//! Scripts followed as bash runs them: what one step leaves for the next. Functions called
//! with their arguments bound, aliases, git aliases, files written earlier and then run
//! (`cat > x.sh <<EOF … EOF; sh x.sh`), `trap`, `PROMPT_COMMAND`, `make -f -` recipes,
//! `git submodule foreach`, namerefs (listings and `read` are in `listing`, `expect` scripts
//! in `expect`).
//!
//! Everything is bounded: at most [`MAX_EXPANSIONS`] function, alias and file expansions per
//! input (past it the result is marked incomplete), none re-entered while it runs, files and
//! definitions capped in number and size.

use std::collections::HashMap;

use brush_parser::ast;

use crate::canon::program_name;
use crate::ctx::{Feed, Frame, Norm, Range, XWord};
use crate::interp::{self, Reader};
use crate::{Listing, NestedInput, Origin, SimpleCommand, Word, Wrapper, unwrap};

/// Most function, alias, git alias and file expansions per input.
pub(crate) const MAX_EXPANSIONS: usize = 256;
/// Most definitions (functions, aliases, git aliases, namerefs) and files remembered.
pub(crate) const MAX_DEFS: usize = 256;
/// Largest file content remembered.
const MAX_FILE_BYTES: usize = 64 * 1024;
/// Most source bytes of function bodies kept (their syntax trees are cloned).
const MAX_FUNCTION_BYTES: usize = 1024 * 1024;

/// What the script has defined so far.
#[derive(Default)]
pub(crate) struct State {
    /// Variables whose value is certain: assigned a literal at the top level of the script,
    /// outside any branch, and not touched since (see `Norm::decided_test`).
    pub certain: std::collections::HashSet<String>,
    /// Functions defined so far.
    pub functions: HashMap<String, Def>,
    defined: usize,
    function_bytes: usize,
    pub aliases: HashMap<String, String>,
    pub git_aliases: HashMap<String, String>,
    /// Files written by the script: path → content when known.
    pub files: HashMap<String, Option<String>>,
    pub namerefs: HashMap<String, String>,
    /// Variables that hold entries of a listing (`for p in $(pgrep x)`, `ps | while read p`).
    pub var_listing: HashMap<String, Listing>,
    /// Variables assigned the output of a download or a decoder (`x=$(curl …)`,
    /// `x=$(gpg -d f)`): expanding them carries that feed (`bash -c "$x"`).
    pub var_feed: HashMap<String, Feed>,
    /// Variables assigned text that is only partly known (`DEST=host:/data/$(whoami)`,
    /// `NS="preview-pr-$PR"`): that text, whose known parts still say what it names (a host,
    /// an environment). Expanding such a variable gives this text as a dynamic word.
    pub var_shape: HashMap<String, String>,
    /// Expansions under way (no re-entry) and how many were made.
    expanding: Vec<String>,
    expansions: usize,
    /// Known input of the enclosing compound command (`while read …; done < file`).
    pub loop_stdin: Vec<Option<String>>,
    /// The listing piped into the enclosing compound command.
    pub pipe_listing: Vec<Option<Listing>>,
    /// For the next simple command of a pipeline: the known output and the listing of the
    /// commands before it.
    pub pipe_text: Option<String>,
    pub pipe_list: Option<Listing>,
}

/// A function definition, walked when called.
#[derive(Clone)]
pub(crate) struct Def {
    body: ast::FunctionBody,
    /// Its source size.
    bytes: usize,
    /// Where it was defined (nested text keeps its own offsets).
    frame: Frame,
    nested_src: Option<String>,
    /// Definition order, and whether a call walked it.
    seq: usize,
    walked: bool,
}

fn plain(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c))
}

/// A word as shell text that reads back as the same word.
pub(crate) fn quote(w: &Word) -> String {
    if w.dynamic || plain(&w.text) {
        w.text.clone()
    } else {
        format!("'{}'", w.text.replace('\'', "'\\''"))
    }
}

impl Norm<'_> {
    /// Start expanding `key` (a function, alias or file): false when it is already being
    /// expanded or the budget is spent (then the result says so).
    fn enter(&mut self, key: String) -> bool {
        if self.script.expanding.contains(&key) {
            return false;
        }
        if self.script.expansions >= MAX_EXPANSIONS {
            self.limit(format!(
                "more than {MAX_EXPANSIONS} function, alias or file expansions"
            ));
            return false;
        }
        self.script.expansions += 1;
        self.script.expanding.push(key);
        true
    }

    fn leave(&mut self) {
        self.script.expanding.pop();
    }

    /// Remember a function definition (false past the bounds: the caller walks it now). A
    /// definition replaced before any call is walked first, its arguments unknown.
    pub(crate) fn define_function(
        &mut self,
        name: &str,
        body: &ast::FunctionBody,
        bytes: usize,
        frame: &Frame,
    ) -> bool {
        let s = &self.script;
        if s.function_bytes.saturating_add(bytes) > MAX_FUNCTION_BYTES
            || (s.functions.len() >= MAX_DEFS && !s.functions.contains_key(name))
        {
            self.limit("too many or too large function definitions to follow".into());
            return false;
        }
        if let Some(old) = self.script.functions.remove(name)
            && !old.walked
        {
            self.walk_def(name, &old);
        }
        let def = Def {
            body: body.clone(),
            bytes,
            frame: frame.clone(),
            nested_src: self.nested_src.clone(),
            seq: self.script.defined,
            walked: false,
        };
        self.script.defined += 1;
        self.script.function_bytes += bytes;
        self.script.functions.insert(name.to_string(), def);
        true
    }

    fn walk_def(&mut self, name: &str, def: &Def) {
        let outer = std::mem::replace(&mut self.nested_src, def.nested_src.clone());
        let _ = self.walk_unbound(name, &def.body, &def.frame);
        self.nested_src = outer;
    }

    /// Functions never called: their bodies, arguments unknown (a sourced library's
    /// functions may be called from elsewhere).
    pub(crate) fn walk_uncalled_functions(&mut self) {
        let mut left: Vec<(String, Def)> = self
            .script
            .functions
            .iter()
            .filter(|(_, d)| !d.walked)
            .map(|(n, d)| (n.clone(), d.clone()))
            .collect();
        left.sort_by_key(|(_, d)| d.seq);
        for (name, def) in left {
            if let Some(d) = self.script.functions.get_mut(&name) {
                d.walked = true;
            }
            self.walk_def(&name, &def);
        }
    }

    /// A call of a function the script defined: its body again, with `$1` … bound to the
    /// call's arguments.
    pub(crate) fn call_function(
        &mut self,
        argv: &[XWord],
        frame: &Frame,
        span: riskgate_model::Span,
    ) -> Option<Range> {
        let first = argv.first()?;
        if first.w.dynamic || self.script.functions.is_empty() {
            return None;
        }
        let name = first.text().to_string();
        let def = self.script.functions.get(&name)?;
        let (body, bytes) = (def.body.clone(), def.bytes);
        // Each call walks the body again: it counts as that much more text analyzed.
        if self.over_time() || !self.spend(bytes) || !self.enter(format!("fn:{name}")) {
            return None;
        }
        if let Some(d) = self.script.functions.get_mut(&name) {
            d.walked = true;
        }
        let args = argv.get(1..).unwrap_or(&[]);
        let known = args
            .iter()
            .all(|w| !w.w.dynamic && !w.text().contains(char::is_whitespace));
        let v: Vec<&str> = args.iter().map(|w| w.text()).collect();
        let saved = self.env.get("@").cloned();
        self.set_var("@", known.then(|| v.join(" ")));
        let f = Frame {
            depth: frame.depth + 1,
            origin: Origin::Function,
            span: Some(frame.span.unwrap_or(span)),
            ..frame.clone()
        };
        let r = if f.depth > self.limits.max_depth {
            self.limit(format!("nesting deeper than {}", self.limits.max_depth));
            None
        } else {
            self.walk_function_body(&name, &body, &f)
        };
        match saved {
            Some(v) => self.set_var("@", v),
            None => {
                self.env.remove("@");
            }
        }
        self.leave();
        r
    }

    /// A command whose first word is an alias the script defined: the alias text with the
    /// rest of the words, parsed as a script.
    pub(crate) fn call_alias(
        &mut self,
        argv: &[XWord],
        frame: &Frame,
        span: riskgate_model::Span,
    ) -> Option<Option<Range>> {
        let first = argv.first()?;
        if first.w.dynamic || self.script.aliases.is_empty() {
            return None;
        }
        let name = first.text().to_string();
        let value = self.script.aliases.get(&name)?.clone();
        if !self.enter(format!("alias:{name}")) {
            return None;
        }
        let mut text = value;
        for w in argv.iter().skip(1) {
            text.push(' ');
            text.push_str(&quote(&w.w));
        }
        let mut f = frame.nested(Origin::ShellString, span);
        f.wrappers.push(Wrapper {
            name: "alias".into(),
            args: vec![name],
        });
        let r = self.parse_text(&text, &f);
        self.leave();
        Some(r)
    }

    /// Parse `text` as a script run by `runner` (a trap, a git alias, a recipe …).
    pub(crate) fn run_text(
        &mut self,
        text: &str,
        runner: &str,
        arg: &str,
        base: &Frame,
    ) -> Option<Range> {
        if text.trim().is_empty() {
            return None;
        }
        let mut f = base.clone();
        f.depth += 1;
        f.origin = Origin::ShellString;
        f.wrappers.push(Wrapper {
            name: runner.to_string(),
            args: if arg.is_empty() {
                vec![]
            } else {
                vec![arg.to_string()]
            },
        });
        self.parse_text(text, &f)
    }

    /// Remember the partly known text a variable was assigned (see [`State::var_shape`]):
    /// only text with a literal part worth reading, bounded in size and number.
    pub(crate) fn note_var_shape(&mut self, name: &str, text: &str) {
        let shapes = &mut self.script.var_shape;
        let literal = text
            .split(['$', '`'])
            .next()
            .is_some_and(|head| head.chars().any(|c| c.is_ascii_alphanumeric()))
            // a path under another variable (`"${PREFIX}/"`, `$ROOT/etc`): `/` when it is empty
            || text.strip_prefix('$').is_some_and(|rest| {
                let rest = rest.trim_start_matches('{');
                let name_end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                name_end > 0 && rest[name_end..].trim_start_matches('}').starts_with('/')
            });
        if literal && text.len() <= 1024 && (shapes.len() < MAX_DEFS || shapes.contains_key(name)) {
            shapes.insert(name.to_string(), text.to_string());
        }
    }

    /// Remember (or forget) that `name` holds downloaded or decoded text.
    pub(crate) fn note_var_feed(&mut self, name: &str, feed: Feed) {
        let vf = &mut self.script.var_feed;
        if feed.downloader.is_none() && feed.decoder.is_none() {
            vf.remove(name);
        } else if vf.len() < MAX_DEFS || vf.contains_key(name) {
            vf.insert(
                name.to_string(),
                Feed {
                    downloader: feed.downloader,
                    decoder: feed.decoder,
                    ..Feed::default()
                },
            );
        }
    }

    /// The key a path is remembered under (resolved against a literal `cd`).
    fn file_key(&self, path: &str) -> Option<String> {
        if path.is_empty() || path.contains(['$', '`']) || path.starts_with("/dev/") {
            return None;
        }
        let p = path.strip_prefix("./").unwrap_or(path);
        crate::globs::join_cwd(self.cwd.as_deref(), p)
            .or_else(|| (!p.starts_with(['/', '~'])).then(|| p.to_string()))
    }

    pub(crate) fn file_content(&self, path: &str) -> Option<String> {
        let key = self.file_key(path)?;
        self.script.files.get(&key).cloned().flatten()
    }

    /// Known content of a file read as stdin (`< file`).
    pub(crate) fn stdin_file_text(&self, path: &str) -> Option<String> {
        self.file_content(path)
    }

    fn write_file(&mut self, path: &str, content: Option<String>, append: bool) {
        let Some(key) = self.file_key(path) else {
            return;
        };
        let files = &mut self.script.files;
        if files.len() >= MAX_DEFS && !files.contains_key(&key) {
            return;
        }
        let new = if append {
            match (files.get(&key), content) {
                (Some(Some(old)), Some(c)) => Some(format!("{old}{c}")),
                (None, Some(c)) => Some(c),
                _ => None,
            }
        } else {
            content
        };
        files.insert(key, new.filter(|c| c.len() <= MAX_FILE_BYTES));
    }

    /// What a recorded command does for the steps after it: definitions, files written,
    /// files and strings run. `nested` makes the frame for what it runs.
    pub(crate) fn follow_script(
        &mut self,
        idx: usize,
        stdin_text: Option<&(String, bool)>,
        pipe_text: Option<&String>,
        base: &Frame,
    ) {
        let Some(cmd) = self.commands.get(idx).cloned() else {
            return;
        };
        self.note_writes(&cmd, stdin_text, pipe_text);
        self.follow_cli_context(&cmd);
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let args: Vec<&Word> = cmd.raw_argv.iter().skip(1).collect();
        for (name, value) in &cmd.assignments {
            if name == "PROMPT_COMMAND" && !value.dynamic {
                let _ = self.run_text(&value.text, "PROMPT_COMMAND", "", base);
            }
        }
        match cmd.program.as_str() {
            "alias" => {
                for w in &args {
                    if let Some((n, v)) = w.text.split_once('=')
                        && unwrap::is_name(n)
                        && !w.dynamic
                        && (self.script.aliases.len() < MAX_DEFS
                            || self.script.aliases.contains_key(n))
                    {
                        self.script.aliases.insert(n.to_string(), v.to_string());
                    }
                }
            }
            // `hash -p /bin/rm ls`: the name runs that file from now on, as an alias to it
            // would (bash looks the table up before PATH)
            "hash" => {
                let mut it = args.iter();
                while let Some(w) = it.next() {
                    if w.text == "-p"
                        && let (Some(path), Some(name)) = (it.next(), it.next())
                        && !path.dynamic
                        && !name.dynamic
                        && !name.text.is_empty()
                        && (self.script.aliases.len() < MAX_DEFS
                            || self.script.aliases.contains_key(&name.text))
                    {
                        self.script
                            .aliases
                            .insert(name.text.clone(), path.text.clone());
                    }
                }
            }
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                let nameref = args
                    .iter()
                    .any(|w| w.text.starts_with('-') && w.text.contains('n'));
                for w in &args {
                    let Some((n, v)) = w.text.split_once('=') else {
                        continue;
                    };
                    if n == "PROMPT_COMMAND" && !w.dynamic {
                        let _ = self.run_text(v, "PROMPT_COMMAND", "", base);
                    }
                    if nameref && unwrap::is_name(n) && unwrap::is_name(v) {
                        let s = &mut self.script;
                        if s.namerefs.len() < MAX_DEFS || s.namerefs.contains_key(n) {
                            s.namerefs.insert(n.to_string(), v.to_string());
                        }
                        self.env.remove(n);
                    }
                }
            }
            "trap" => {
                let mut it = args.iter().filter(|w| w.text != "--");
                if let Some(action) = it.next()
                    && !action.text.starts_with('-')
                    && !action.dynamic
                {
                    let sigs: Vec<&str> = it.map(|w| w.text.as_str()).collect();
                    let _ = self.run_text(&action.text, "trap", &sigs.join(" "), base);
                }
            }
            "git" => self.follow_git(&cmd, base),
            "npm" | "pnpm" => self.follow_npm_scripts(&cmd, base),
            "make" | "gmake" => self.follow_make(&cmd, stdin_text, base),
            "just" | "task" | "go-task" => self.follow_task_runner(&cmd, base),
            // Tcl: expect, and the plain Tcl shells whose `exec` runs commands as expect's does
            "expect" | "tclsh" | "wish" | "jimsh" => {
                self.follow_expect(idx, &cmd, stdin_text, base)
            }
            _ => {}
        }
        self.follow_file_run(idx, &cmd, &raw, base);
        self.follow_build_files(idx, &cmd, base);
    }

    /// Build files the script wrote, run by the build that reads them: `setup.py` by `pip
    /// install .` or `python setup.py …` (Python), `build.rs` by `cargo build|run|test|check`
    /// (the shell lines its `Command`s run), a `runner` of `.cargo/config.toml` by `cargo
    /// run|test` (a shell line).
    fn follow_build_files(&mut self, idx: usize, cmd: &SimpleCommand, base: &Frame) {
        if self.script.files.is_empty() {
            return;
        }
        let pos: Vec<&str> = cmd.positionals().map(|w| w.text.as_str()).collect();
        let program = cmd.program.as_str();
        let pip_here = matches!(program, "pip" | "pip3" | "uv" | "pipx")
            && pos.contains(&"install")
            && pos.iter().any(|p| matches!(*p, "." | "./" | "-e"));
        let python_setup = program.starts_with("python") && pos.first() == Some(&"setup.py");
        if (pip_here || python_setup)
            && let Some(code) = self.file_content("setup.py")
        {
            self.nested.push(NestedInput {
                language: crate::NestedLanguage::Python,
                text: code,
                program: program.to_string(),
                command_index: idx,
                literal: true,
            });
        }
        if program != "cargo" {
            return;
        }
        let sub = pos.first().copied().unwrap_or("");
        if matches!(
            sub,
            "build" | "run" | "test" | "check" | "install" | "b" | "r" | "t"
        ) && let Some(code) = self.file_content("build.rs")
        {
            for line in crate::embedded::rust_shell_lines(&code) {
                let _ = self.run_text(&line, "build.rs", "", base);
            }
        }
        if matches!(sub, "run" | "test" | "r" | "t" | "bench")
            && let Some(config) = self.file_content(".cargo/config.toml")
        {
            for line in config.lines() {
                let l = line.trim();
                if let Some(v) = l.strip_prefix("runner").map(str::trim_start)
                    && let Some(v) = v.strip_prefix('=')
                {
                    let v = v.trim();
                    let v = v
                        .strip_prefix('"')
                        .and_then(|x| x.strip_suffix('"'))
                        .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
                        .unwrap_or(v);
                    let _ = self.run_text(v, ".cargo/config.toml runner", "", base);
                }
            }
        }
    }

    fn note_writes(
        &mut self,
        cmd: &SimpleCommand,
        stdin_text: Option<&(String, bool)>,
        pipe_text: Option<&String>,
    ) {
        let mut out: Option<Option<String>> = None;
        for r in &cmd.redirects {
            let op = r.op.trim_start_matches('1');
            let append = matches!(op, ">>" | "&>>");
            if !matches!(op, ">" | ">|" | ">>" | "&>" | "&>>") || r.target.dynamic {
                continue;
            }
            let content = out
                .get_or_insert_with(|| {
                    if cmd.program.is_empty() {
                        Some(String::new())
                    } else {
                        // what it makes of a known input (`echo cm0g… | base64 -d > /tmp/z`)
                        crate::payload::produce(cmd)
                            .or_else(|| pipe_text.and_then(|t| crate::payload::transform(cmd, t)))
                    }
                })
                .clone();
            self.write_file(&r.target.text, content, append);
        }
        match cmd.program.as_str() {
            "tee" => {
                let append = cmd
                    .raw_argv
                    .iter()
                    .any(|w| w.text == "-a" || w.text == "--append");
                let body = stdin_text.filter(|(_, lit)| *lit).map(|(b, _)| b.clone());
                for w in cmd
                    .raw_argv
                    .iter()
                    .skip(1)
                    .filter(|w| !w.text.starts_with('-'))
                {
                    if !w.dynamic {
                        self.write_file(&w.text, body.clone(), append);
                    }
                }
            }
            "cp" | "mv" | "install" => {
                let pos: Vec<&Word> = cmd
                    .raw_argv
                    .iter()
                    .skip(1)
                    .filter(|w| !w.text.starts_with('-'))
                    .collect();
                if let [src, dst] = pos.as_slice()
                    && !src.dynamic
                    && !dst.dynamic
                    && let Some(c) = self.file_content(&src.text)
                {
                    self.write_file(&dst.text, Some(c), false);
                }
            }
            _ => {}
        }
    }

    /// A file the script wrote, run as a script (`sh f`, `source f`, `./f`) or as code
    /// (`python3 f`, `psql -f f`).
    fn follow_file_run(&mut self, idx: usize, cmd: &SimpleCommand, raw: &[&str], base: &Frame) {
        if self.script.files.is_empty() {
            return;
        }
        let program = cmd.program.as_str();
        let first_operand = |from: usize| {
            cmd.raw_argv
                .iter()
                .skip(from)
                .find(|w| !w.text.starts_with('-') && !w.text.starts_with('+'))
        };
        let mut target: Option<(&Word, Option<Reader>)> = None;
        if raw.first().is_some_and(|p| p.contains('/'))
            && let Some(w) = cmd.raw_argv.first()
        {
            target = Some((w, None));
        } else if unwrap::is_shell(program) || program == "source" {
            if interp::stdin_reader(program, &cmd.raw_argv).is_none()
                && let Some(w) = first_operand(1)
            {
                target = Some((w, Some(Reader::Shell)));
            }
        } else if let Some(lang) = interp::language(program) {
            let w = if lang == crate::NestedLanguage::Sql {
                let k = raw.iter().position(|t| *t == "-f" || *t == "--file");
                k.and_then(|k| cmd.raw_argv.get(k + 1))
            } else {
                first_operand(1)
            };
            if let Some(w) = w {
                target = Some((w, Some(Reader::Lang(lang))));
            }
        } else if crate::embedded::translates_script_file(program)
            && let Some(w) = first_operand(crate::embedded::script_file_operand(program, raw))
        {
            // Lua and R scripts: read for the commands they run
            target = Some((w, Some(Reader::Translated)));
        }
        let Some((w, reader)) = target else {
            return;
        };
        if w.dynamic {
            return;
        }
        let Some(content) = self.file_content(&w.text) else {
            return;
        };
        let path = w.text.clone();
        let reader = reader.unwrap_or_else(|| shebang_reader(&content));
        match reader {
            Reader::Shell => {
                if self.enter(format!("file:{path}")) {
                    let _ = self.run_text(&content, "file", &path, base);
                    self.leave();
                }
            }
            Reader::Lang(language) => self.nested.push(NestedInput {
                language,
                text: content,
                program: program.to_string(),
                command_index: idx,
                literal: true,
            }),
            Reader::Translated => {
                if self.enter(format!("file:{path}")) {
                    for text in crate::embedded::stdin_commands(program, &content) {
                        let _ = self.run_text(&text, "file", &path, base);
                    }
                    self.leave();
                }
            }
        }
    }

    /// `npm pkg set scripts.postinstall="curl … | sh"`, `npm set-script prepare "…"`: a
    /// package script runs on the next `npm install` / `npm run` — rated as the commands it
    /// holds.
    fn follow_npm_scripts(&mut self, cmd: &SimpleCommand, base: &Frame) {
        let pos: Vec<&str> = cmd.positionals().map(|w| w.text.as_str()).collect();
        match pos.as_slice() {
            ["pkg", "set", rest @ ..] => {
                for kv in rest.iter().take(MAX_DEFS) {
                    if let Some((key, value)) = kv.split_once('=')
                        && let Some(name) = key.strip_prefix("scripts.")
                    {
                        let _ = self.run_text(value, "npm package script", name, base);
                    }
                }
            }
            ["set-script", name, value, ..] => {
                let _ = self.run_text(value, "npm package script", name, base);
            }
            _ => {}
        }
    }

    fn follow_git(&mut self, cmd: &SimpleCommand, base: &Frame) {
        let pos: Vec<&str> = cmd.positionals().map(|w| w.text.as_str()).collect();
        match pos.first().copied() {
            Some("config") => {
                if let Some(k) = pos.iter().position(|p| p.starts_with("alias."))
                    && let Some(v) = pos.get(k + 1)
                {
                    let name = pos[k].trim_start_matches("alias.").to_string();
                    let s = &mut self.script;
                    if s.git_aliases.len() < MAX_DEFS || s.git_aliases.contains_key(&name) {
                        s.git_aliases.insert(name, v.to_string());
                    }
                }
            }
            Some("submodule") => {
                let raw: Vec<&Word> = cmd.raw_argv.iter().collect();
                if let Some(k) = raw.iter().position(|w| w.text == "foreach") {
                    let rest: Vec<String> = raw
                        .iter()
                        .skip(k + 1)
                        .filter(|w| !matches!(w.text.as_str(), "--recursive" | "--quiet" | "-q"))
                        .map(|w| w.text.clone())
                        .collect();
                    let _ = self.run_text(&rest.join(" "), "git submodule foreach", "", base);
                }
            }
            // `git bisect run CMD ARGS…`: CMD runs at every step (its words, quoted again)
            Some("bisect") if pos.get(1) == Some(&"run") => {
                let rest: Vec<String> = cmd
                    .raw_argv
                    .iter()
                    .skip_while(|w| w.text != "run")
                    .skip(1)
                    .map(quote)
                    .collect();
                let _ = self.run_text(&rest.join(" "), "git bisect run", "", base);
            }
            // `git rebase -x 'CMD'` / `--exec=CMD`: a shell command after every commit
            Some("rebase") => {
                let raw: Vec<&Word> = cmd.raw_argv.iter().collect();
                for (k, w) in raw.iter().enumerate() {
                    let text = match w.text.as_str() {
                        "-x" | "--exec" => raw.get(k + 1).map(|v| v.text.as_str()),
                        t => t.strip_prefix("--exec="),
                    };
                    if let Some(text) = text {
                        let _ = self.run_text(text, "git rebase --exec", "", base);
                    }
                }
            }
            Some(name) => {
                let Some(value) = self.script.git_aliases.get(name).cloned() else {
                    return;
                };
                if !self.enter(format!("git-alias:{name}")) {
                    return;
                }
                let rest: Vec<String> = cmd
                    .raw_argv
                    .iter()
                    .skip_while(|w| w.text != name)
                    .skip(1)
                    .map(quote)
                    .collect();
                let text = match value.strip_prefix('!') {
                    Some(shell) => format!("{shell} {}", rest.join(" ")),
                    None => format!("git {value} {}", rest.join(" ")),
                };
                let _ = self.run_text(&text, "git alias", name, base);
                self.leave();
            }
            None => {}
        }
    }

    fn follow_make(&mut self, cmd: &SimpleCommand, stdin: Option<&(String, bool)>, base: &Frame) {
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let file = raw.iter().enumerate().find_map(|(k, t)| match *t {
            "-f" | "--file" | "--makefile" => raw.get(k + 1).copied(),
            t => t
                .strip_prefix("--file=")
                .or_else(|| t.strip_prefix("-f").filter(|r| !r.is_empty())),
        });
        let text = match file {
            Some("-" | "/dev/stdin") => stdin.map(|(b, _)| b.clone()),
            Some(f) => self.file_content(f),
            None => ["Makefile", "makefile", "GNUmakefile"]
                .iter()
                .find_map(|f| self.file_content(f)),
        };
        // `make --eval='x:;@rm -rf ~/src' x`: makefile text given on the command line, read
        // after the makefiles; a rule's recipe may follow its `;` on the same line
        let evals: Vec<&str> = raw
            .iter()
            .enumerate()
            .filter_map(|(k, t)| match *t {
                "--eval" | "-E" => raw.get(k + 1).copied(),
                t => t.strip_prefix("--eval="),
            })
            .collect();
        if text.is_none() && evals.is_empty() {
            return;
        }
        let mut recipes: Vec<String> = text
            .iter()
            .flat_map(|t| t.lines())
            .filter_map(|l| l.strip_prefix('\t'))
            .map(|l| make_to_shell(l.trim_start_matches(['@', '-', '+'])))
            .collect();
        for e in evals {
            for l in e.lines() {
                let recipe = match l.strip_prefix('\t') {
                    Some(r) => Some(r),
                    // `target: prerequisites; recipe`
                    None => l
                        .split_once(':')
                        .and_then(|(_, rest)| rest.split_once(';'))
                        .map(|(_, r)| r),
                };
                if let Some(r) = recipe {
                    recipes.push(make_to_shell(
                        r.trim_start().trim_start_matches(['@', '-', '+']),
                    ));
                }
            }
        }
        let _ = self.run_text(&recipes.join("\n"), "make", "", base);
    }
}

/// A recipe line as the shell receives it: make's `$$` is the shell's `$`, and a make
/// variable `$(NAME)` (the environment's, when the makefile does not set it) becomes `${NAME}`.
fn make_to_shell(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push('$');
            rest = r;
        } else if let Some(r) = after.strip_prefix('(')
            && let Some(end) = r.find(')')
            && end > 0
            && r[..end]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str("${");
            out.push_str(&r[..end]);
            out.push('}');
            rest = &r[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// How a file run as a program reads: its `#!` line names an interpreter, else a shell.
fn shebang_reader(content: &str) -> Reader {
    let first = content.lines().next().unwrap_or("");
    if let Some(line) = first.strip_prefix("#!") {
        let mut words = line.split_whitespace();
        let mut prog = words.next().map(program_name).unwrap_or_default();
        if prog == "env" {
            prog = words
                .find(|w| !w.starts_with('-'))
                .map(program_name)
                .unwrap_or_default();
        }
        if !unwrap::is_shell(&prog)
            && let Some(l) = interp::language(&prog)
        {
            return Reader::Lang(l);
        }
    }
    Reader::Shell
}
