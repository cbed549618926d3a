//! One simple command: unwrap its wrappers, canonicalize its argv, record it, then follow what
//! it runs in turn (shell strings, `find -exec`, heredocs fed to shells, interpreter code).

use crate::canon::{canonical_args, program_name};
use crate::ctx::{Feed, Frame, Inherited, Norm, Pending, Range, XWord};
use crate::interp::{self, Reader};
use crate::script::quote;
use crate::unwrap::{self, Next};
use crate::{NestedInput, Origin, Signal, SimpleCommand, Word, Wrapper};

/// Most wrappers peeled from one command and fully analyzed (and recorded on it).
const MAX_WRAPPERS: usize = 64;

/// Most wrappers peeled from one command at all (past [`MAX_WRAPPERS`] the result is marked
/// incomplete).
const MAX_PEELS: usize = 4096;

/// Most words of a literal stdin taken as `xargs` arguments.
const MAX_STDIN_ARGS: usize = 64;

/// A word a shell would take as it is: no quoting, expansion or operator characters.
fn is_plain(w: &str) -> bool {
    !w.is_empty() && !w.contains(|c: char| "\"'`$\\;&|<>(){}*?[]!#~\n\t ".contains(c))
}

struct Ctx {
    wrappers: Vec<Wrapper>,
    privileged: bool,
    remote: Option<String>,
}

/// Most nested shell texts kept for the raw rules, and the longest.
const MAX_SCRIPTS: usize = 64;
const MAX_SCRIPT_BYTES: usize = 64 * 1024;

impl Norm<'_> {
    /// Keep a nested shell text for [`crate::ParsedCommand::scripts`].
    pub(crate) fn note_script(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty()
            || text.len() > MAX_SCRIPT_BYTES
            || self.scripts.len() >= MAX_SCRIPTS
            || text == self.src.trim()
            || self.scripts.iter().any(|s| s == text)
        {
            return;
        }
        self.scripts.push(text.to_string());
    }

    /// `time [-p] PIPELINE`: the pipeline's text without `time`, as a script of its own.
    pub(crate) fn note_timed(
        &mut self,
        timed: &brush_parser::ast::PipelineTimed,
        p: &brush_parser::ast::Pipeline,
    ) {
        use brush_parser::ast::SourceLocation;
        let (Some(t), Some(end)) = (
            timed.location(),
            p.seq.last().and_then(SourceLocation::location),
        ) else {
            return;
        };
        let text = self
            .nested_src
            .clone()
            .unwrap_or_else(|| self.src.to_string());
        let byte = |i: usize| text.char_indices().nth(i).map_or(text.len(), |(b, _)| b);
        if let Some(s) = text.get(byte(t.end.index)..byte(end.end.index)) {
            let s = s.trim_start();
            let s = s.strip_prefix("-p").unwrap_or(s).to_string();
            self.note_script(&s);
        }
    }

    /// Unwrap, canonicalize and record `p`; returns the commands it became.
    pub(crate) fn finish_simple(&mut self, mut p: Pending, frame: &Frame) -> Option<Range> {
        if p.stdin.is_none()
            && p.stdin_text.is_none()
            && let Some(inh) = self.inherited_stdin.take()
        {
            p.stdin = inh.stdin;
            p.stdin_text = inh.stdin_text;
            p.stdin_feed = inh.stdin_feed;
        }
        crate::progword::normalize(&mut p.argv);
        self.inline_request_files(&mut p.argv);
        // `$(echo Y3VybCAu… | base64 -d)`: a command line decoded at run time. Its words run
        // as they split, but a decoded pipeline or list says what its author meant (and `eval`
        // is one edit away): it is read as a script too.
        if p.argv.first().is_some_and(|w| w.feed.decoder.is_some())
            && frame.depth < self.limits.max_depth
        {
            let text = p
                .argv
                .iter()
                .map(|w| w.w.text.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if text.contains(['|', ';', '&', '>', '<']) {
                let inner = Frame {
                    depth: frame.depth + 1,
                    origin: Origin::Decoded,
                    wrappers: frame.wrappers.clone(),
                    privileged: frame.privileged,
                    remote: frame.remote.clone(),
                    span: Some(frame.span.unwrap_or(p.span)),
                };
                let _ = self.parse_text(&text, &inner);
            }
        }
        let mut c = Ctx {
            wrappers: frame.wrappers.clone(),
            privileged: frame.privileged,
            remote: frame.remote.clone(),
        };
        for k in 0..MAX_PEELS {
            // Past the bound, peeling goes on (within the time budget) so that the command at
            // the end is still found (`timeout 5` × 65 then `rm -rf /`), and says so.
            if k == MAX_WRAPPERS {
                self.limit(format!("more than {MAX_WRAPPERS} wrappers"));
            }
            if k >= MAX_WRAPPERS && self.over_time() {
                break;
            }
            let Some(peeled) = unwrap::peel(&p.argv) else {
                return self
                    .push_full(p, c, frame)
                    .map(|i| Range { first: i, last: i });
            };
            let outer = Ctx {
                wrappers: c.wrappers.clone(),
                privileged: c.privileged,
                remote: c.remote.clone(),
            };
            if let Some(keep) = peeled.keep {
                let k = Pending {
                    argv: keep,
                    span: p.span,
                    ..Pending::default()
                };
                let _ = self.push_full(
                    k,
                    Ctx {
                        wrappers: outer.wrappers.clone(),
                        privileged: outer.privileged,
                        remote: outer.remote.clone(),
                    },
                    frame,
                );
            }
            let from_stdin = peeled.wrapper.name == "xargs";
            let per_entry = peeled.wrapper.name == "parallel";
            let xargs_opts = peeled.wrapper.args.clone();
            if c.wrappers.len() < MAX_WRAPPERS {
                c.wrappers.push(peeled.wrapper);
            }
            c.privileged |= peeled.privileged;
            if peeled.remote.is_some() {
                c.remote = peeled.remote;
            }
            p.assignments.extend(peeled.assignments);
            match peeled.next {
                Next::Argv(a) => {
                    p.argv = a;
                    // The inner program word expands as bash would (`nice {rm,-rf,~}`).
                    crate::progword::normalize(&mut p.argv);
                    // `xargs rm -rf <<< "$HOME"`, `echo /x | xargs rm`: the literal words on
                    // stdin are arguments; with `-I R`, each line takes the place of `R`.
                    let input = match (&p.stdin_text, &p.pipe_text) {
                        (Some((body, true)), _) => Some(body.clone()),
                        (None, Some(t)) => Some(t.clone()),
                        _ => None,
                    };
                    if from_stdin && let Some(body) = input {
                        if let Some(lines) = self.xargs_lines(&xargs_opts, &p.argv, &body) {
                            let mut lines = lines.into_iter();
                            if let Some(first) = lines.next() {
                                p.argv = first;
                            }
                            for argv in lines {
                                let more = Pending {
                                    argv,
                                    span: p.span,
                                    listing: p.listing.clone(),
                                    ..Pending::default()
                                };
                                let mut f = frame.clone();
                                f.wrappers = c.wrappers.clone();
                                f.privileged = c.privileged;
                                f.remote = c.remote.clone();
                                let _ = self.finish_simple(more, &f);
                            }
                        } else if xargs_opts
                            .iter()
                            .any(|o| matches!(o.as_str(), "-0" | "--null"))
                        {
                            // NUL-separated: text without a NUL is one argument, whole
                            // (`… | base64 -d | xargs -0 bash -c`)
                            for item in body.split('\0').take(MAX_STDIN_ARGS) {
                                let item = item.trim_end_matches('\n');
                                if !item.is_empty() {
                                    p.argv.push(XWord::lit(item));
                                }
                            }
                        } else {
                            let words = body.split_whitespace().take(MAX_STDIN_ARGS);
                            p.argv.extend(words.map(XWord::lit));
                        }
                    }
                }
                // `ssh host bash <<EOF`: a plain command line keeps the heredoc on its stdin.
                Next::Script(words)
                    if p.stdin_text.is_some()
                        && words.iter().all(|w| !w.w.dynamic && is_plain(&w.w.text)) =>
                {
                    p.argv = words;
                }
                // `find … | parallel truncate -s 0`: a plain command line run once per entry of
                // the listing on stdin, as `xargs` runs it
                Next::Script(words)
                    if per_entry
                        && p.listing.is_some()
                        && !words.is_empty()
                        && words.iter().all(|w| !w.w.dynamic && is_plain(&w.w.text)) =>
                {
                    p.argv = words;
                    crate::progword::normalize(&mut p.argv);
                }
                Next::Nothing => {
                    c.wrappers.pop();
                    return self
                        .push_full(p, c, frame)
                        .map(|i| Range { first: i, last: i });
                }
                Next::Script(words) => {
                    // `sh -c SCRIPT NAME ARGS…`: the script's `$1` … are known for its parse.
                    let saved = self.env.get("@").cloned();
                    let saved0 = self.env.get("0").cloned();
                    if let Some(pos) = &peeled.positional {
                        // `$0` is the first word after the script (`sh -c '… "$0"' {}`).
                        let zero = pos.first().filter(|w| !w.w.dynamic);
                        self.set_var("0", zero.map(|w| w.w.text.clone()));
                        let known = pos
                            .iter()
                            .skip(1)
                            .all(|w| !w.w.dynamic && !w.w.text.contains(char::is_whitespace));
                        let v: Vec<&str> = pos.iter().skip(1).map(|w| w.w.text.as_str()).collect();
                        self.set_var("@", known.then(|| v.join(" ")));
                    }
                    // what the wrapper reads from a file is the script's input (`parallel
                    // --pipe 'curl -d @- URL' < ~/.bash_history`, `sh -c 'cat' < key`)
                    // (on this machine, and straight from the wrapper: not what `find -exec`
                    // or `ssh` hand on)
                    let reads_input = match c.wrappers.as_slice() {
                        [w] if w.name == "parallel" => w
                            .args
                            .iter()
                            .any(|a| matches!(a.as_str(), "--pipe" | "--pipepart")),
                        [w] => crate::unwrap::is_shell(&w.name),
                        _ => false,
                    };
                    let outer_stdin = match &p.stdin {
                        Some(s @ crate::StdinSource::File { .. })
                            if reads_input && c.remote.is_none() =>
                        {
                            Some(s.clone())
                        }
                        _ => None,
                    };
                    let r = self.shell_string(words, p, outer, c, frame);
                    if let (Some(s), Some(r)) = (outer_stdin, r) {
                        for cmd in self.commands.iter_mut().take(r.last + 1).skip(r.first) {
                            if cmd.stdin.is_none() {
                                cmd.stdin = Some(s.clone());
                            }
                        }
                    }
                    if peeled.positional.is_some() {
                        for (name, old) in [("@", saved), ("0", saved0)] {
                            match old {
                                Some(v) => self.set_var(name, v),
                                None => {
                                    self.env.remove(name);
                                }
                            }
                        }
                    }
                    return r;
                }
            }
        }
        // Out of peels or time: what is left is still a command.
        self.limit(format!("more than {MAX_PEELS} wrappers"));
        self.push_full(p, c, frame)
            .map(|i| Range { first: i, last: i })
    }

    /// A wrapper runs a shell string (`bash -c`, `eval`, `su -c`, `ssh host CMD`, `watch`).
    fn shell_string(
        &mut self,
        words: Vec<XWord>,
        p: Pending,
        outer: Ctx,
        c: Ctx,
        frame: &Frame,
    ) -> Option<Range> {
        let mut text = String::new();
        let mut feed = Feed::default();
        let mut dynamic = false;
        for (k, w) in words.iter().enumerate() {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(&w.w.text);
            dynamic |= w.w.dynamic;
            feed.merge(w.feed);
        }
        let origin = if feed.decoder.is_some() && !dynamic {
            Origin::Decoded
        } else {
            Origin::ShellString
        };
        let inner = Frame {
            depth: frame.depth + 1,
            origin,
            wrappers: c.wrappers,
            privileged: c.privileged,
            remote: c.remote,
            span: Some(frame.span.unwrap_or(p.span)),
        };
        if dynamic {
            // Not a literal: the wrapper itself is what we can show.
            let idx = self.push_full(p, outer, frame)?;
            self.signal(Signal::DynamicEval { index: idx });
            if let Some(d) = feed.downloader {
                self.signal(Signal::DownloadToShell {
                    downloader: d,
                    shell: idx,
                });
            }
            if let Some(d) = feed.decoder {
                self.signal(Signal::EncodedToShell {
                    decoder: d,
                    shell: idx,
                    decoded: false,
                });
            }
            // the text is still read when its program is written out: what a substitution
            // gives stays an unknown word (`eval "sudo userdel -rf $(whoami)"` runs `userdel
            // -rf` on something); a text that is all run-time output (`eval "$(ssh-agent
            // -s)"`) is the dynamic eval above
            if !feed.subst || !text.trim_start().starts_with(['$', '`']) {
                let _ = self.parse_text(&text, &inner);
            }
            return Some(Range {
                first: idx,
                last: idx,
            });
        }
        let start = self.commands.len();
        // the string's commands read the wrapper's input (`ssh h 'sudo bash -s' <<EOF`)
        let inherited = (p.stdin.is_some() || p.stdin_text.is_some()).then(|| Inherited {
            stdin: p.stdin.clone(),
            stdin_text: p.stdin_text.clone(),
            stdin_feed: p.stdin_feed,
        });
        let saved = std::mem::replace(&mut self.inherited_stdin, inherited);
        let r = self.parse_text(&text, &inner);
        self.inherited_stdin = saved;
        if let Some(d) = feed.decoder {
            self.signal(Signal::EncodedToShell {
                decoder: d,
                shell: r.map_or(start, |r| r.first),
                decoded: r.is_some(),
            });
        }
        r
    }

    /// Canonicalize and record one command, then follow what it runs.
    fn push_full(&mut self, p: Pending, c: Ctx, frame: &Frame) -> Option<usize> {
        if self.at_command_limit(&p.argv) {
            return None;
        }
        let raw_argv: Vec<Word> = p.argv.iter().map(|w| w.w.clone()).collect();
        let (program, program_dynamic) = match raw_argv.first() {
            Some(w) if w.dynamic => (w.text.clone(), true),
            Some(w) => (program_name(&w.text), false),
            None => (String::new(), false),
        };
        let mut args = if raw_argv.len() > 1 {
            canonical_args(&program, &raw_argv[1..])
        } else {
            Vec::new()
        };
        if let Some(cwd) = &self.cwd {
            crate::globs::under_cwd(&program, cwd, &mut args);
        }
        crate::globs::expand(&mut args);
        let idx = self.commands.len();
        // a sourced file or evaluated text may set any variable: none is certain any more
        let assigns = matches!(
            program.as_str(),
            "source"
                | "."
                | "eval"
                | "declare"
                | "typeset"
                | "export"
                | "readonly"
                | "set"
                | "unset"
                | "local"
                | "let"
                | "getopts"
                | "enable"
                | "shopt"
        ) || (program == "printf"
            && p.argv.iter().any(|w| w.text().starts_with("-v")));
        if assigns {
            self.script.certain.clear();
        }
        let mut fed = p.stdin_feed;
        for w in p.argv.iter().skip(1) {
            fed.merge(w.feed);
        }
        if (fed.downloader.is_some() || fed.decoder.is_some()) && self.arg_feed.len() < 4096 {
            self.arg_feed.push((idx, fed));
        }
        self.commands.push(SimpleCommand {
            program,
            program_dynamic,
            args,
            raw_argv,
            wrappers: c.wrappers.clone(),
            privileged: c.privileged,
            remote: c.remote.clone(),
            assignments: p.assignments.clone(),
            redirects: p.redirects.clone(),
            stdin: p.stdin.clone(),
            origin: frame.origin,
            span: p.span,
            depth: frame.depth,
            iterates: p.listing.clone(),
            context_env: crate::model::ENV_CONTEXT_VARS
                .iter()
                .filter_map(|n| {
                    let v = self.env.get(*n)?.as_ref()?;
                    Some(((*n).to_string(), v.clone()))
                })
                .collect(),
            function_call: false,
        });
        if program_dynamic {
            self.signal(Signal::DynamicProgram { index: idx });
            self.read_unset_as_empty(idx, &c, frame);
            self.read_named_in_unknown_dir(idx, &c, frame);
        }
        self.follow(idx, &p, &c, frame);
        Some(idx)
    }

    /// A program word built around variables the script never set (`r${x}m -r${x}f /data`):
    /// unset, they expand to nothing, so the command is also read that way (`rm -rf /data`),
    /// words that become empty dropped. Only words whose unknown parts are all plain
    /// references to such names are rewritten; the dynamic reading stays recorded too.
    fn read_unset_as_empty(&mut self, idx: usize, c: &Ctx, frame: &Frame) {
        if frame.depth >= self.limits.max_depth {
            return;
        }
        let Some(cmd) = self.commands.get(idx) else {
            return;
        };
        let mut words: Vec<String> = Vec::with_capacity(cmd.raw_argv.len());
        for (k, w) in cmd.raw_argv.iter().enumerate() {
            let text = if w.dynamic {
                match without_unset_refs(&w.text, &self.env) {
                    Some(t) => t,
                    None => return,
                }
            } else {
                w.text.clone()
            };
            // the program word itself must stay, and read as a name (`r${x}m` is `rm`; a word
            // that was all variables leaves the next word, which bash would run, to guessing)
            if k == 0
                && (text.is_empty()
                    || !text
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')))
            {
                return;
            }
            if !text.is_empty() || !w.dynamic {
                words.push(quote(&Word {
                    text,
                    dynamic: false,
                }));
            }
        }
        let text = words.join(" ");
        let span = cmd.span;
        self.reread(&text, "unset variables empty", span, c, frame);
    }

    /// Read `text` as a second reading of the command at `span`, one level deeper, the reading
    /// named by a wrapper (`unset variables empty`).
    fn reread(
        &mut self,
        text: &str,
        why: &str,
        span: riskgate_model::Span,
        c: &Ctx,
        frame: &Frame,
    ) {
        let mut wrappers = c.wrappers.clone();
        wrappers.push(Wrapper {
            name: why.into(),
            args: vec![],
        });
        let f = Frame {
            depth: frame.depth + 1,
            origin: frame.origin,
            wrappers,
            privileged: c.privileged,
            remote: c.remote.clone(),
            span: Some(frame.span.unwrap_or(span)),
        };
        let _ = self.parse_text(text, &f);
    }

    /// A program named after a directory only known at run time (`"$BIN"/rm -rf /srv`,
    /// `${SHELL%/*}/chmod -R 0777 /etc`): whatever the directory, the name is the program's,
    /// so the command is also read with that name.
    fn read_named_in_unknown_dir(&mut self, idx: usize, c: &Ctx, frame: &Frame) {
        if frame.depth >= self.limits.max_depth {
            return;
        }
        let Some(cmd) = self.commands.get(idx) else {
            return;
        };
        let Some(first) = cmd.raw_argv.first() else {
            return;
        };
        let Some((dir, name)) = first.text.rsplit_once('/') else {
            return;
        };
        let literal_name = !name.is_empty()
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.' | '+'))
            && name.chars().any(|ch| ch.is_ascii_alphabetic());
        if !literal_name || !dir.contains('$') {
            return;
        }
        let mut words = vec![name.to_string()];
        words.extend(cmd.raw_argv.iter().skip(1).map(|w| {
            quote(&Word {
                text: w.text.clone(),
                dynamic: false,
            })
        }));
        let text = words.join(" ");
        let span = cmd.span;
        self.reread(
            &text,
            "program in a directory known at run time",
            span,
            c,
            frame,
        );
    }

    fn follow(&mut self, idx: usize, p: &Pending, c: &Ctx, frame: &Frame) {
        let Some(cmd) = self.commands.get(idx) else {
            return;
        };
        let program = cmd.program.clone();
        let raw = cmd.raw_argv.clone();
        let nested_frame = |origin: Origin, extra: Wrapper| Frame {
            depth: frame.depth + 1,
            origin,
            wrappers: {
                let mut w = c.wrappers.clone();
                w.push(extra);
                w
            },
            privileged: c.privileged,
            remote: c.remote.clone(),
            span: Some(frame.span.unwrap_or(p.span)),
        };
        // Shell builtins that change variables.
        match program.as_str() {
            "read" => self.read_builtin(idx, p.stdin_text.as_ref()),
            "mapfile" | "readarray" => self.mapfile_builtin(idx, &raw, p.stdin_text.as_ref()),
            "printf" => self.printf_var(&raw),
            "cd" | "pushd" => {
                let target = raw
                    .iter()
                    .skip(1)
                    .find(|w| !w.text.starts_with('-') || w.text == "-");
                self.cwd = match target {
                    None => Some("~".to_string()),
                    Some(w) if w.dynamic || w.text == "-" => None,
                    Some(w) => crate::globs::join_cwd(self.cwd.as_deref(), &w.text),
                };
            }
            // `set -- a b`, `set a b`: the positional parameters `"$@"`, `$1` … become known.
            "set" => {
                let args = raw.get(1..).unwrap_or(&[]);
                let rest = match args.iter().position(|w| w.text == "--") {
                    Some(k) => args.get(k + 1..),
                    None if args
                        .first()
                        .is_some_and(|w| !w.text.starts_with(['-', '+'])) =>
                    {
                        Some(args)
                    }
                    None => None,
                };
                if let Some(rest) = rest {
                    let known = !rest
                        .iter()
                        .any(|w| w.dynamic || w.text.contains(char::is_whitespace));
                    let v: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
                    self.set_var("@", known.then(|| v.join(" ")));
                }
            }
            "unset" => {
                for w in raw.iter().skip(1) {
                    self.env.remove(&w.text);
                }
            }
            "find" | "fd" | "fdfind" => {
                let execs = if program == "find" {
                    unwrap::find_execs(&p.argv)
                } else {
                    unwrap::fd_execs(&p.argv)
                };
                for (name, argv) in execs {
                    let f = nested_frame(frame.origin, Wrapper { name, args: vec![] });
                    if f.depth > self.limits.max_depth {
                        self.limit(format!("nesting deeper than {}", self.limits.max_depth));
                        break;
                    }
                    // The action inherits find's open files: its redirections and stdin.
                    let inner = Pending {
                        argv,
                        span: p.span,
                        redirects: p.redirects.clone(),
                        stdin: p.stdin.clone(),
                        stdin_text: p.stdin_text.clone(),
                        stdin_feed: p.stdin_feed,
                        ..Pending::default()
                    };
                    let _ = self.finish_simple(inner, &f);
                }
            }
            _ => {}
        }
        // Definitions, files written and run, traps, git aliases, recipes, expect scripts.
        let base = Frame {
            depth: frame.depth,
            origin: frame.origin,
            wrappers: c.wrappers.clone(),
            privileged: c.privileged,
            remote: c.remote.clone(),
            span: Some(frame.span.unwrap_or(p.span)),
        };
        // a program that reads its script on stdin gets the literal text piped into it too
        // (`printf 'all:\n\trm …' | make -f -`, `echo 'exec rm …' | tclsh`)
        let piped = p
            .pipe_text
            .clone()
            .filter(|_| {
                matches!(
                    program.as_str(),
                    "make" | "gmake" | "expect" | "tclsh" | "wish" | "jimsh"
                )
            })
            .map(|t| (t, true));
        self.follow_script(
            idx,
            p.stdin_text.as_ref().or(piped.as_ref()),
            p.pipe_text.as_ref(),
            &base,
        );
        // Commands other programs run through a shell (`script -c`, `vim -c '!…'`, awk and
        // interpreter `system("…")`, `tar --checkpoint-action=exec=`, `pssh`, `gcloud … ssh`).
        for e in crate::embedded::commands(&program, &raw) {
            let mut f = nested_frame(
                Origin::ShellString,
                Wrapper {
                    name: e.runner.clone(),
                    args: vec![],
                },
            );
            if e.remote.is_some() {
                f.remote = e.remote.clone();
            }
            if f.depth > self.limits.max_depth {
                self.limit(format!("nesting deeper than {}", self.limits.max_depth));
                break;
            }
            if e.decoded {
                f.origin = Origin::Decoded;
            }
            let start = self.commands.len();
            let r = match e.shell {
                crate::Shell::PowerShell => self.ps_text(&e.text, &f),
                crate::Shell::Cmd => self.cmd_text(&e.text, &f),
                crate::Shell::Bash => self.parse_text(&e.text, &f),
            };
            // awk running a command built from the fields of each input line (`ps aux | awk
            // '{system("kill -9 " $2)}'`): that command runs once per entry of the listing
            if matches!(program.as_str(), "awk" | "gawk" | "mawk" | "nawk")
                && e.text.contains("$ARG")
                && let Some(l) = &p.listing
            {
                // a pattern before the action (`$11 == "python x.py" { … }`) or a test in it
                // selects the lines: not every entry
                let mut l = l.clone();
                if let Some(sel) = crate::embedded::awk::selection(
                    &raw.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(),
                ) {
                    l.every = false;
                    l.filter = Some(sel);
                }
                for c in self.commands.iter_mut().skip(start) {
                    if c.iterates.is_none() {
                        c.iterates = Some(l.clone());
                    }
                }
            }
            if e.decoded && r.is_none() {
                // `powershell -EncodedCommand …` that does not decode into commands: what runs
                // is hidden from a reader. One that does is rated by what it decodes to (its
                // commands are read above, `Origin::Decoded`).
                self.signal(Signal::EncodedToShell {
                    decoder: idx,
                    shell: start.min(idx),
                    decoded: false,
                });
            }
            if e.from_input {
                // `sed 's/.*/rm &/e' list`: lines of the input are run as commands; when the
                // input is literal (`echo 'rm -rf /srv' | sed e`), those lines are read too
                let known = match (&p.stdin_text, &p.pipe_text) {
                    (Some((body, true)), _) => Some(body.clone()),
                    (None, Some(t)) => Some(t.clone()),
                    _ => None,
                };
                match known {
                    Some(input) => {
                        for line in input.lines().filter(|l| !l.trim().is_empty()).take(32) {
                            let text = e.text.replace(crate::embedded::SED_LINE, line);
                            let _ = self.parse_text(&text, &f);
                        }
                    }
                    None => self.signal(Signal::ShellFromStdin { index: idx }),
                }
            }
        }
        // Interpreter and database one-liners.
        for (language, text, literal) in interp::one_liners(&program, &raw) {
            self.nested.push(NestedInput {
                language,
                text,
                program: program.clone(),
                command_index: idx,
                literal,
            });
        }
        // A heredoc or here-string fed to a shell, an interpreter or a database client.
        if let Some((body, literal)) = &p.stdin_text {
            match interp::stdin_reader(&program, &raw) {
                Some(Reader::Shell) => {
                    let f = nested_frame(
                        Origin::Heredoc,
                        Wrapper {
                            name: "heredoc".into(),
                            args: vec![program.clone()],
                        },
                    );
                    let _ = self.shell_text(&program, body, &f);
                    if let Some(d) = p.stdin_feed.downloader {
                        self.signal(Signal::DownloadToShell {
                            downloader: d,
                            shell: idx,
                        });
                    }
                    if !literal && p.stdin_feed.downloader.is_none() {
                        self.signal(Signal::ShellFromStdin { index: idx });
                    }
                }
                Some(Reader::Lang(language)) => {
                    self.nested.push(NestedInput {
                        language,
                        text: body.clone(),
                        program: program.clone(),
                        command_index: idx,
                        literal: *literal,
                    });
                }
                Some(Reader::Translated) => {
                    for text in crate::embedded::stdin_commands(&program, body) {
                        let f = nested_frame(
                            Origin::Heredoc,
                            Wrapper {
                                name: program.clone(),
                                args: vec![],
                            },
                        );
                        let _ = self.parse_text(&text, &f);
                    }
                }
                None => {}
            }
        }
        // `bash <(echo …)`, `psql -f <(echo 'DROP …')`: a process substitution with a known
        // output, read as a script or as code by a shell, an interpreter or a database client.
        for w in p.argv.iter().skip(1) {
            let Some(text) = w
                .feed
                .subst_out
                .and_then(|i| self.subst_texts.get(i))
                .cloned()
            else {
                continue;
            };
            if unwrap::is_shell(&program) || program == "source" {
                let f = nested_frame(
                    Origin::ProcessSubstitution,
                    Wrapper {
                        name: "file".into(),
                        args: vec![program.clone()],
                    },
                );
                let _ = self.parse_text(&text, &f);
            } else if let Some(language) = interp::language(&program) {
                self.nested.push(NestedInput {
                    language,
                    text,
                    program: program.clone(),
                    command_index: idx,
                    literal: true,
                });
            }
        }
        // `bash <(curl …)`, `source <(wget -O- …)`: a process substitution run as a script;
        // `python3 <(aws s3 cp s3://b/k -)`, `node -e "$(unzip -p t.zip run.js)"`: the program
        // text of an interpreter.
        let code_word = if unwrap::is_shell(&program) || program == "source" {
            p.argv.iter().skip(1).find(|w| w.feed.subst)
        } else if interp::language(&program).is_some_and(|l| l != crate::NestedLanguage::Sql) {
            let mut it = p.argv.iter().skip(1);
            let mut found = None;
            while let Some(w) = it.next() {
                if matches!(
                    w.text(),
                    "-c" | "-e" | "-E" | "--eval" | "-r" | "-p" | "--print"
                ) {
                    found = it.next();
                    break;
                }
                if !w.text().starts_with('-') {
                    found = Some(w);
                    break;
                }
            }
            found.filter(|w| w.feed.downloader.is_some() || w.feed.decoder.is_some())
        } else {
            None
        };
        if let Some(w) = code_word {
            if let Some(d) = w.feed.downloader {
                self.signal(Signal::DownloadToShell {
                    downloader: d,
                    shell: idx,
                });
            }
            if let Some(d) = w.feed.decoder {
                self.signal(Signal::EncodedToShell {
                    decoder: d,
                    shell: idx,
                    decoded: false,
                });
            }
        }
    }
}

/// `text` with every `$name` / `${name}` of a variable the script never assigned removed, or
/// None when an unknown part is anything else (`$(…)`, `${x:-…}`, a special parameter) or no
/// reference was removed.
fn without_unset_refs(text: &str, env: &crate::ctx::Env) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut removed = false;
    while let Some(k) = rest.find('$') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let (name, len) = if let Some(inner) = after.strip_prefix('{') {
            let end = inner.find('}')?;
            (&inner[..end], end + 2)
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], end)
        };
        let plain = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        // a name the environment usually sets is not empty
        if !plain || env.contains_key(name) || name.chars().any(|c| c.is_ascii_uppercase()) {
            return None;
        }
        removed = true;
        rest = &after[len..];
    }
    out.push_str(rest);
    (removed && !out.contains('`')).then_some(out)
}
