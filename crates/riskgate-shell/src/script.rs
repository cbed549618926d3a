//! Scripts followed as bash runs them: what one step leaves for the next. Functions called
//! with their arguments bound, aliases, git aliases, files written earlier and then run
//! (`cat > x.sh <<EOF … EOF; sh x.sh`), `trap`, `PROMPT_COMMAND`, `make -f -` recipes,
//! `expect` scripts, `git submodule foreach`, `read` from known text, namerefs, and the
//! listings loops iterate over (`ps … | while read pid; do kill $pid; done`).
//!
//! Everything is bounded: at most [`MAX_EXPANSIONS`] function, alias and file expansions per
//! input (past it the result is marked incomplete), none re-entered while it runs, files and
//! definitions capped in number and size.

use std::collections::HashMap;

use brush_parser::ast;

use crate::canon::program_name;
use crate::ctx::{Frame, Norm, Range, XWord};
use crate::interp::{self, Reader};
use crate::{Listing, NestedInput, Origin, SimpleCommand, Word, Wrapper, unwrap};

/// Most function, alias, git alias and file expansions per input.
pub(crate) const MAX_EXPANSIONS: usize = 256;
/// Most definitions (functions, aliases, git aliases, namerefs) and files remembered.
const MAX_DEFS: usize = 256;
/// Largest file content remembered.
const MAX_FILE_BYTES: usize = 64 * 1024;
/// Most source bytes of function bodies kept (their syntax trees are cloned).
const MAX_FUNCTION_BYTES: usize = 1024 * 1024;
/// Most lines of known input taken by `xargs -I`.
const MAX_XARGS_LINES: usize = 64;

/// What the script has defined so far.
#[derive(Default)]
pub(crate) struct State {
    pub functions: HashMap<String, ast::FunctionBody>,
    function_bytes: usize,
    pub aliases: HashMap<String, String>,
    pub git_aliases: HashMap<String, String>,
    /// Files written by the script: path → content when known.
    pub files: HashMap<String, Option<String>>,
    pub namerefs: HashMap<String, String>,
    /// Variables that hold entries of a listing (`for p in $(pgrep x)`, `ps | while read p`).
    pub var_listing: HashMap<String, Listing>,
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

/// Variable names a dynamic word refers to (`"$pid"`, `${f}` …).
fn var_refs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let mut j = i + 1;
            if b.get(j) == Some(&b'{') {
                j += 1;
            }
            let s = j;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > s
                && let Some(name) = text.get(s..j)
            {
                out.push(name);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn positional(c: &SimpleCommand, n: usize) -> Option<&str> {
    c.positionals().nth(n).map(|w| w.text.as_str())
}

/// A command that lists processes, resources or files, one per line.
fn is_listing(c: &SimpleCommand) -> bool {
    let p0 = positional(c, 0).unwrap_or("");
    let p1 = positional(c, 1).unwrap_or("");
    match c.program.as_str() {
        "ps" | "pgrep" | "pidof" | "ls" | "find" | "lsblk" | "who" | "users" => true,
        "lsof" => c.raw_argv.iter().any(|w| w.text == "-t"),
        "docker" | "podman" | "nerdctl" => {
            matches!(p0, "ps" | "images")
                || (matches!(p0, "container" | "volume" | "image" | "network" | "system")
                    && matches!(p1, "ls" | "list" | "ps"))
        }
        "kubectl" | "oc" => p0 == "get",
        "helm" => matches!(p0, "list" | "ls"),
        "aws" => {
            (p0 == "s3" && p1 == "ls") || p1.starts_with("describe-") || p1.starts_with("list-")
        }
        "gcloud" | "az" | "doctl" => c.positionals().any(|w| w.text == "list"),
        "git" => matches!(p0, "branch" | "for-each-ref" | "ls-remote" | "tag"),
        "psql" | "mysql" => c
            .raw_argv
            .iter()
            .any(|w| w.text.to_ascii_lowercase().contains("select")),
        "systemctl" => p0.starts_with("list-"),
        "virsh" => p0 == "list",
        _ => false,
    }
}

/// Whether a listing narrows itself (a name, a selector, a filter).
fn narrowed(c: &SimpleCommand) -> bool {
    let raw: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let has = |o: &str| {
        raw.iter()
            .any(|t| *t == o || t.starts_with(&format!("{o}=")))
    };
    match c.program.as_str() {
        "pgrep" | "pidof" | "lsof" => true,
        "ps" => {
            let root = raw
                .windows(2)
                .any(|w| matches!(w[0], "-U" | "-u") && w[1] == "root");
            !root
                && raw.iter().any(|t| {
                    matches!(
                        *t,
                        "-C" | "-p" | "--pid" | "-q" | "-u" | "-U" | "-G" | "--ppid"
                    ) || t.starts_with("--pid=")
                })
        }
        "kubectl" | "oc" => {
            has("-l") || has("--selector") || has("--field-selector") || c.positionals().count() > 2
        }
        "docker" | "podman" | "nerdctl" => has("-f") || has("--filter"),
        "find" => raw.iter().any(|t| {
            matches!(
                *t,
                "-name"
                    | "-iname"
                    | "-path"
                    | "-ipath"
                    | "-regex"
                    | "-mtime"
                    | "-mmin"
                    | "-newer"
                    | "-size"
                    | "-user"
                    | "-perm"
                    | "-empty"
            )
        }),
        "ls" => raw.iter().any(|t| t.contains(['*', '?', '['])),
        _ => false,
    }
}

/// A command that narrows its input lines (`grep sshd`, `awk '/x/'`, `head`).
fn is_filter(c: &SimpleCommand) -> bool {
    match c.program.as_str() {
        "grep" | "egrep" | "fgrep" | "rg" => !c.raw_argv.iter().any(|w| w.text == "-v"),
        "awk" | "gawk" | "mawk" => c
            .raw_argv
            .iter()
            .skip(1)
            .any(|w| w.text.contains(['/', '~']) || w.text.contains("==")),
        "head" | "tail" | "sed" => true,
        _ => false,
    }
}

/// The listing among `cmds` (a pipeline or a substitution, in order), if any.
pub(crate) fn listing_of(cmds: &[SimpleCommand], cwd: Option<&str>) -> Option<Listing> {
    let k = cmds.iter().position(is_listing)?;
    let c = cmds.get(k)?;
    let filtered = cmds.iter().skip(k + 1).any(is_filter);
    let path = match c.program.as_str() {
        "ls" | "find" => {
            let first = c
                .raw_argv
                .iter()
                .skip(1)
                .find(|w| !w.text.starts_with('-'))
                .map(|w| w.text.as_str());
            match first {
                Some(p) if !p.contains(['*', '?']) => crate::globs::join_cwd(cwd, p),
                Some(_) => None,
                None => cwd.map(str::to_string),
            }
        }
        _ => None,
    };
    Some(Listing {
        program: c.program.clone(),
        command: c.canonical(),
        every: !filtered && !narrowed(c),
        path,
    })
}

impl Norm<'_> {
    /// The listing among the commands recorded from `start` on.
    pub(crate) fn listing_since(&self, start: usize) -> Option<Listing> {
        let cmds = self.commands.get(start..)?;
        listing_of(cmds, self.cwd.as_deref())
    }

    /// The listing a command's words draw from: a listing-fed variable (`$pid`).
    pub(crate) fn listing_of_words(&self, argv: &[XWord]) -> Option<Listing> {
        if self.script.var_listing.is_empty() {
            return None;
        }
        argv.iter()
            .filter(|w| w.w.dynamic)
            .flat_map(|w| var_refs(&w.w.text))
            .find_map(|v| self.script.var_listing.get(v).cloned())
    }

    /// Remember a variable as holding entries of `l`.
    pub(crate) fn taint_var(&mut self, name: &str, l: Listing) {
        if self.script.var_listing.len() < MAX_DEFS || self.script.var_listing.contains_key(name) {
            self.script.var_listing.insert(name.to_string(), l);
        }
    }

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

    /// Remember a function definition.
    pub(crate) fn define_function(&mut self, name: &str, body: &ast::FunctionBody, bytes: usize) {
        let s = &mut self.script;
        if s.function_bytes.saturating_add(bytes) > MAX_FUNCTION_BYTES
            || (s.functions.len() >= MAX_DEFS && !s.functions.contains_key(name))
        {
            self.limit("too many or too large function definitions to follow".into());
            return;
        }
        s.function_bytes += bytes;
        s.functions.insert(name.to_string(), body.clone());
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
        let body = self.script.functions.get(&name)?.clone();
        if !self.enter(format!("fn:{name}")) {
            return None;
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
            self.walk_function_body(&body, &f)
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
    fn run_text(&mut self, text: &str, runner: &str, arg: &str, base: &Frame) -> Option<Range> {
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

    /// The key a path is remembered under (resolved against a literal `cd`).
    fn file_key(&self, path: &str) -> Option<String> {
        if path.is_empty() || path.contains(['$', '`']) || path.starts_with("/dev/") {
            return None;
        }
        let p = path.strip_prefix("./").unwrap_or(path);
        crate::globs::join_cwd(self.cwd.as_deref(), p)
            .or_else(|| (!p.starts_with(['/', '~'])).then(|| p.to_string()))
    }

    fn file_content(&self, path: &str) -> Option<String> {
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
        base: &Frame,
    ) {
        let Some(cmd) = self.commands.get(idx).cloned() else {
            return;
        };
        self.note_writes(&cmd, stdin_text);
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
            "make" | "gmake" => self.follow_make(&cmd, stdin_text, base),
            "expect" => self.follow_expect(&cmd, stdin_text, base),
            _ => {}
        }
        self.follow_file_run(idx, &cmd, &raw, base);
    }

    fn note_writes(&mut self, cmd: &SimpleCommand, stdin_text: Option<&(String, bool)>) {
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
                        crate::payload::produce(cmd)
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
        let Some(text) = text else {
            return;
        };
        let recipes: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix('\t'))
            .map(|l| l.trim_start_matches(['@', '-', '+']))
            .collect();
        let _ = self.run_text(&recipes.join("\n"), "make", "", base);
    }

    fn follow_expect(&mut self, cmd: &SimpleCommand, stdin: Option<&(String, bool)>, base: &Frame) {
        let raw: Vec<&str> = cmd.raw_argv.iter().map(|w| w.text.as_str()).collect();
        let script = if let Some(k) = raw.iter().position(|t| *t == "-c") {
            raw.get(k + 1).map(|s| s.to_string())
        } else if let Some(f) = raw.iter().skip(1).find(|t| !t.starts_with('-')) {
            self.file_content(f)
        } else {
            stdin.map(|(b, _)| b.clone())
        };
        let Some(script) = script else {
            return;
        };
        let mut shell = String::new();
        for line in script.lines() {
            let line = line.trim();
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            let text = match word {
                "spawn" | "exec" | "system" => rest.trim_start_matches("-noecho").to_string(),
                "send" => {
                    let r = rest.trim_start_matches("--").trim();
                    let r = r
                        .strip_prefix('"')
                        .and_then(|r| r.strip_suffix('"'))
                        .or_else(|| r.strip_prefix('{').and_then(|r| r.strip_suffix('}')))
                        .unwrap_or(r);
                    r.replace("\\r", "\n").replace("\\n", "\n")
                }
                _ => continue,
            };
            shell.push_str(&text);
            shell.push('\n');
        }
        let _ = self.run_text(&shell, "expect", "", base);
    }

    /// `read` with known input (`read -r c <<< '…'`, `while read l; do …; done < f`): the
    /// variables get the text (every line, inside a loop); from a listing, they hold its
    /// entries.
    pub(crate) fn read_builtin(&mut self, cmd_idx: usize, own: Option<&(String, bool)>) {
        let Some(cmd) = self.commands.get(cmd_idx) else {
            return;
        };
        let own_stdin = cmd.stdin.is_some();
        let raw: Vec<Word> = cmd.raw_argv.iter().skip(1).cloned().collect();
        let mut array = None;
        let mut names = Vec::new();
        let mut it = raw.iter();
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if let Some(opts) = t.strip_prefix('-') {
                if opts.contains('a') {
                    array = it.next().map(|w| w.text.clone());
                } else if opts.len() == 1 && "dnNpt".contains(opts) {
                    let _ = it.next();
                }
                continue;
            }
            if unwrap::is_name(t) {
                names.push(t.to_string());
            }
        }
        let text = match own {
            Some((b, true)) => Some(b.lines().next().unwrap_or("").to_string()),
            Some(_) => None,
            None if !own_stdin => self
                .script
                .loop_stdin
                .last()
                .cloned()
                .flatten()
                .map(|t| t.lines().collect::<Vec<_>>().join("\n")),
            None => None,
        };
        let listing = if own_stdin {
            None
        } else {
            self.script.pipe_listing.last().cloned().flatten()
        };
        if let Some(a) = array {
            let v = text
                .as_ref()
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "));
            self.set_var(&format!("{a}[@]"), v);
            if let Some(l) = &listing {
                self.taint_var(&a, l.clone());
            }
        }
        let n = names.len();
        for (k, name) in names.iter().enumerate() {
            let v = text.as_ref().map(|t| {
                if n == 1 {
                    t.trim().to_string()
                } else if k + 1 < n {
                    t.split_whitespace().nth(k).unwrap_or("").to_string()
                } else {
                    t.split_whitespace().skip(k).collect::<Vec<_>>().join(" ")
                }
            });
            self.set_var(name, v);
            if let Some(l) = &listing {
                self.taint_var(name, l.clone());
            }
        }
    }

    /// `xargs -I R CMD` with known input: one command per input line, `R` replaced.
    pub(crate) fn xargs_lines(
        &self,
        opts: &[String],
        inner: &[XWord],
        input: &str,
    ) -> Option<Vec<Vec<XWord>>> {
        let mut repl = None;
        let mut it = opts.iter();
        while let Some(o) = it.next() {
            if o == "-I" || o == "--replace" {
                repl = it.next().cloned();
            } else if let Some(r) = o.strip_prefix("--replace=") {
                repl = Some(r.to_string());
            } else if let Some(r) = o.strip_prefix("-I") {
                repl = Some(r.to_string());
            } else if o == "-i" {
                repl = Some("{}".into());
            }
        }
        let repl = repl.filter(|r| !r.is_empty())?;
        let lines = input
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(MAX_XARGS_LINES);
        let out: Vec<Vec<XWord>> = lines
            .map(|line| {
                inner
                    .iter()
                    .map(|w| {
                        let mut x = w.clone();
                        if !w.w.dynamic {
                            x.w.text = w.w.text.replace(&repl, line);
                        }
                        x
                    })
                    .collect()
            })
            .collect();
        Some(out)
    }
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
