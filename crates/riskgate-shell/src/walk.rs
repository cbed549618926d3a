//! The AST walk: brush's program → every simple command that would run. Descends into lists,
//! pipelines, subshells, groups, functions, loops, conditionals, `[[ ]]`, process
//! substitutions and redirect targets; falls back to a quote-aware split on a syntax error.

use brush_parser::ast;
use riskgate_model::Span;

use crate::ctx::{Frame, Norm, Pending, Range, XWord, join};
use crate::{Origin, ParseIssue, Redirect, Signal, StdinSource, Word, Wrapper, fallback, limits};

/// Most literal `for` values walked one by one (`for d in / /home; do rm -rf $d; done`).
const MAX_FOR_VALUES: usize = 8;

impl Norm<'_> {
    /// Parse `text` as a script under `frame` and record its commands.
    pub(crate) fn parse_text(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        // Past a bound the text is still scanned linearly (see `flat`).
        if frame.depth > self.limits.max_depth {
            let m = format!("nesting deeper than {}", self.limits.max_depth);
            self.limit(m);
            return self.flat_extract(text, frame);
        }
        if self.over_time() || !self.spend(text.len()) {
            return self.flat_extract(text, frame);
        }
        if frame.depth > 0 {
            self.note_script(text);
        }
        if !crate::watchdog::admit(text, frame.depth) {
            // An inline run met text it may not parse here: the input goes to a worker.
            self.brush_off = true;
            return None;
        }
        if let Err(m) = limits::check_program(text) {
            self.limit(m);
            let r = self.fallback_only(text, frame);
            return join(r, self.flat_extract(text, frame));
        }
        // nushell text (`nu -c '…'`): its pipelines of tables and closures, read as the bash
        // that does the same (see `nushell`)
        if frame
            .wrappers
            .last()
            .is_some_and(|w| w.name == "nu" || w.name.starts_with("nu "))
            && let Some(alt) = crate::nushell::nu_to_bash(text)
            && crate::watchdog::admit(&alt, frame.depth)
            && let Some(r) = self.walk_alt(&alt, frame)
        {
            return r;
        }
        let opts = crate::words::parser_options();
        let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text.as_bytes()), &opts);
        match parser.parse_program() {
            Ok(program) => {
                let outer = match frame.span {
                    Some(_) => self.nested_src.replace(text.to_string()),
                    None => self.nested_src.take(),
                };
                let mut r = None;
                for cc in &program.complete_commands {
                    r = join(r, self.walk_list(cc, frame, 0));
                }
                self.nested_src = outer;
                r
            }
            Err(e) => {
                // zsh or fish text (`zsh -c`, `fish -c`, zsh habits sent as bash), or bash's
                // `select` loop: its reading in the syntax the parser knows, when that parses
                if let Some(alt) = crate::othershell::zsh_to_bash(text)
                    .or_else(|| crate::othershell::fish_to_bash(text))
                    .or_else(|| crate::othershell::select_to_for(text))
                    && crate::watchdog::admit(&alt, frame.depth)
                    && let Some(r) = self.walk_alt(&alt, frame)
                {
                    return r;
                }
                self.issue(ParseIssue::Syntax {
                    message: e.to_string(),
                });
                self.fallback_only(text, frame)
            }
        }
    }

    /// Walk `alt`, another shell's text rewritten as bash, in place of the text it reads;
    /// None when `alt` does not parse either.
    fn walk_alt(&mut self, alt: &str, frame: &Frame) -> Option<Option<Range>> {
        let opts = crate::words::parser_options();
        let mut parser = brush_parser::Parser::new(std::io::Cursor::new(alt.as_bytes()), &opts);
        let program = parser.parse_program().ok()?;
        let outer = self.nested_src.replace(alt.to_string());
        let mut r = None;
        for cc in &program.complete_commands {
            r = join(r, self.walk_list(cc, frame, 0));
        }
        self.nested_src = outer;
        Some(r)
    }

    /// Best-effort: a quote-aware split into commands and words.
    pub(crate) fn fallback_only(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        let mut r = None;
        for pipeline in fallback::split(text) {
            let mut elems = Vec::new();
            for cmd in pipeline {
                let span = frame.span.unwrap_or(Span::new(cmd.start, cmd.end));
                let mut p = Pending {
                    span,
                    ..Pending::default()
                };
                for tok in &cmd.words {
                    if tok.is_empty() {
                        continue;
                    }
                    let before = self.issues.len();
                    self.expand_into(tok, frame, span, &mut p.argv);
                    // The word parser may reject a fragment: the issue is already recorded.
                    let _ = before;
                }
                elems.push(self.finish_simple(p, frame));
            }
            r = join(r, self.pipeline_done(&elems, frame));
        }
        r
    }

    fn walk_list(&mut self, list: &ast::CompoundList, frame: &Frame, lvl: u32) -> Option<Range> {
        if !self.ast_level_ok(lvl) {
            return None;
        }
        let mut r = None;
        for item in &list.0 {
            let ao = &item.0;
            r = join(r, self.walk_pipeline(&ao.first, frame, lvl + 1));
            if !ao.additional.is_empty() {
                self.begin_branch();
            }
            for next in &ao.additional {
                let (ast::AndOr::And(p) | ast::AndOr::Or(p)) = next;
                r = join(r, self.walk_pipeline(p, frame, lvl + 1));
            }
            if !ao.additional.is_empty() {
                self.end_branch();
            }
        }
        r
    }

    fn walk_pipeline(&mut self, p: &ast::Pipeline, frame: &Frame, lvl: u32) -> Option<Range> {
        let timed;
        if let Some(t) = &p.timed {
            self.note_timed(t, p);
        }
        let frame = if p.timed.is_some() {
            let mut f = frame.clone();
            f.wrappers.push(Wrapper {
                name: "time".into(),
                args: vec![],
            });
            timed = f;
            &timed
        } else {
            frame
        };
        let mut elems: Vec<Option<Range>> = Vec::with_capacity(p.seq.len());
        // every element of a pipeline runs in a subshell of its own
        let piped = p.seq.len() > 1;
        if piped {
            self.scoped += 1;
        }
        for c in &p.seq {
            let r = if elems.is_empty() {
                self.walk_command(c, frame, lvl + 1)
            } else {
                self.walk_consumer(c, &elems, frame, lvl + 1)
            };
            elems.push(r);
        }
        if piped {
            self.scoped -= 1;
        }
        self.pipeline_done(&elems, frame)
    }

    /// A pipeline element after the first: what the elements before it output (when known)
    /// and list (`ps …`, `docker ps -q` …) is its input.
    fn walk_consumer(
        &mut self,
        c: &ast::Command,
        before: &[Option<Range>],
        frame: &Frame,
        lvl: u32,
    ) -> Option<Range> {
        let chain: Vec<Range> = before.iter().flatten().copied().collect();
        let text = if chain.len() == before.len() {
            self.chain_output(&chain)
        } else {
            None
        };
        let listing = chain.first().and_then(|r| {
            let end = chain.last().map_or(r.last, |l| l.last);
            self.listing_range(r.first, end)
        });
        if matches!(c, ast::Command::Compound(..)) {
            self.script.loop_stdin.push(text);
            self.script.pipe_listing.push(listing);
            let r = self.walk_command(c, frame, lvl);
            self.script.loop_stdin.pop();
            self.script.pipe_listing.pop();
            r
        } else {
            self.script.pipe_text = text;
            self.script.pipe_list = listing;
            let r = self.walk_command(c, frame, lvl);
            self.script.pipe_text = None;
            self.script.pipe_list = None;
            r
        }
    }

    /// The listing among the recorded commands `first..=last`.
    fn listing_range(&self, first: usize, last: usize) -> Option<crate::Listing> {
        let cmds = self.commands.get(first..=last)?;
        crate::listing::listing_of(cmds, self.cwd.as_deref()).or_else(|| {
            // `echo "$pids" | xargs kill`: a producer that prints a listing-fed variable
            cmds.iter()
                .filter(|c| matches!(c.program.as_str(), "echo" | "printf" | "cat"))
                .find_map(|c| self.listing_of_argv(&c.raw_argv))
        })
    }

    /// Join pipeline elements: stdin of each consumer, then download/decoder analysis.
    pub(crate) fn pipeline_done(
        &mut self,
        elems: &[Option<Range>],
        frame: &Frame,
    ) -> Option<Range> {
        let mut r = None;
        for e in elems {
            r = join(r, *e);
        }
        if elems.len() > 1 {
            self.link_pipeline(elems, frame);
        }
        r
    }

    fn walk_command(&mut self, c: &ast::Command, frame: &Frame, lvl: u32) -> Option<Range> {
        if !self.ast_level_ok(lvl) {
            return None;
        }
        match c {
            ast::Command::Simple(sc) => self.walk_simple(sc, frame),
            ast::Command::Compound(cc, redirects) => {
                // The redirections first (`while read l; do …; done < file`): the loop's
                // `read` takes known input from them, and a listing from `< <(ps …)`.
                let mut pending = None;
                if let Some(rl) = redirects {
                    let span = frame.span.unwrap_or_else(|| self.loc_span(c));
                    let mut p = Pending {
                        span,
                        ..Pending::default()
                    };
                    let start = self.commands.len();
                    for red in &rl.0 {
                        self.redirect(red, &mut p, frame, lvl);
                    }
                    let listing = self.listing_since(start);
                    pending = Some((p, listing));
                }
                let pushed = match &pending {
                    Some((p, listing)) if p.stdin.is_some() => {
                        self.script
                            .loop_stdin
                            .push(p.stdin_text.as_ref().map(|(t, _)| t.clone()));
                        self.script.pipe_listing.push(listing.clone());
                        true
                    }
                    _ => false,
                };
                let r = self.walk_compound(cc, frame, lvl + 1);
                if pushed {
                    self.script.loop_stdin.pop();
                    self.script.pipe_listing.pop();
                }
                if let Some((p, _)) = pending {
                    // Feed a compound's heredoc (`while read …; done <<EOF`) as its stdin.
                    if let (Some(range), Some(stdin)) = (r, p.stdin.clone())
                        && let Some(cmd) = self.commands.get_mut(range.first)
                        && cmd.stdin.is_none()
                    {
                        cmd.stdin = Some(stdin);
                    }
                }
                r
            }
            ast::Command::Function(fd) => {
                // Remembered, and walked when called with its arguments bound (or at the end,
                // unbound, when it never is).
                let mut f = frame.clone();
                f.origin = Origin::Function;
                let name = fd.fname.value.as_str();
                let bytes = {
                    let s = self.loc_span(c);
                    s.end.saturating_sub(s.start)
                };
                if self.define_function(name, &fd.body, bytes, &f) {
                    return None;
                }
                // Past the bounds on definitions: walked here, its arguments unknown.
                self.walk_unbound(name, &fd.body, &f)
            }
            ast::Command::ExtendedTest(et, _) => {
                let span = frame.span.unwrap_or_else(|| self.loc_span(c));
                self.walk_test(&et.expr, frame, span, lvl + 1);
                None
            }
        }
    }

    /// A function's body with `$1` … unknown (a definition never called).
    pub(crate) fn walk_unbound(
        &mut self,
        name: &str,
        body: &ast::FunctionBody,
        frame: &Frame,
    ) -> Option<Range> {
        let outer_args = self.env.remove("@");
        let r = self.walk_function_body(name, body, frame);
        if let Some(v) = outer_args {
            self.env.insert("@".to_string(), v);
        }
        r
    }

    /// A function's body (its redirections included).
    pub(crate) fn walk_function_body(
        &mut self,
        name: &str,
        body: &ast::FunctionBody,
        frame: &Frame,
    ) -> Option<Range> {
        let first = self.commands.len();
        let r = self.walk_compound(&body.0, frame, 1);
        // A function that calls itself twice or more (`f(){ f | f & }`) forks without end
        // once called: a fork bomb, whatever its name.
        let calls: Vec<usize> = (first..self.commands.len())
            .filter(|&i| self.commands.get(i).is_some_and(|c| c.program == name))
            .collect();
        if calls.len() >= 2 {
            self.signal(Signal::RecursiveFork {
                name: name.to_string(),
                index: calls[0],
            });
        }
        if let Some(rl) = &body.1 {
            let mut p = Pending {
                span: frame.span.unwrap_or(Span::new(0, self.src.len())),
                ..Pending::default()
            };
            for red in &rl.0 {
                self.redirect(red, &mut p, frame, 1);
            }
        }
        r
    }

    fn walk_test(&mut self, e: &ast::ExtendedTestExpr, frame: &Frame, span: Span, lvl: u32) {
        if !self.ast_level_ok(lvl) {
            return;
        }
        match e {
            ast::ExtendedTestExpr::And(a, b) | ast::ExtendedTestExpr::Or(a, b) => {
                self.walk_test(a, frame, span, lvl + 1);
                self.walk_test(b, frame, span, lvl + 1);
            }
            ast::ExtendedTestExpr::Not(a) | ast::ExtendedTestExpr::Parenthesized(a) => {
                self.walk_test(a, frame, span, lvl + 1)
            }
            ast::ExtendedTestExpr::UnaryTest(_, w) => {
                let _ = self.expand_one(&w.value, frame, span);
            }
            ast::ExtendedTestExpr::BinaryTest(_, a, b) => {
                let _ = self.expand_one(&a.value, frame, span);
                let _ = self.expand_one(&b.value, frame, span);
            }
        }
    }

    fn walk_compound(
        &mut self,
        cc: &ast::CompoundCommand,
        frame: &Frame,
        lvl: u32,
    ) -> Option<Range> {
        use ast::CompoundCommand as C;
        if !self.ast_level_ok(lvl) {
            return None;
        }
        match cc {
            C::Arithmetic(a) => {
                self.script.certain.clear();
                let span = self.span_or(frame, &a.loc);
                // `( ( ls ) )` is two subshells: `((` opens arithmetic only when adjacent.
                // brush reads both as arithmetic, so the text at the node's start decides (the
                // nested text's own, for `bash -c '( ( rm /tmp/x ) )'`).
                let start = a.loc.start.index;
                let spaced = match (frame.span, self.nested_src.as_deref()) {
                    (None, _) => self.src.get(span.start..).is_some_and(spaced_parens),
                    (Some(_), Some(text)) => {
                        let rest: String = text.chars().skip(start).take(2).collect();
                        spaced_parens(&rest)
                    }
                    (Some(_), None) => false,
                };
                if spaced || !crate::limits::is_arithmetic(&a.expr.value) {
                    let f = Frame {
                        depth: frame.depth + 1,
                        span: Some(span),
                        ..frame.clone()
                    };
                    return self.parse_text(&a.expr.value, &f);
                }
                self.arith(&a.expr.value, frame, span);
                None
            }
            C::ArithmeticForClause(f) => {
                self.script.certain.clear();
                let span = self.span_or(frame, &f.loc);
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arith(&e.value, frame, span);
                }
                self.scoped += 1;
                let r = self.walk_list(&f.body.list, frame, lvl + 1);
                self.scoped -= 1;
                r
            }
            C::BraceGroup(g) => self.walk_list(&g.list, frame, lvl + 1),
            // a subshell's assignments do not reach the script after it
            C::Subshell(s) => {
                self.scoped += 1;
                self.begin_branch();
                let r = self.walk_list(&s.list, frame, lvl + 1);
                self.end_branch();
                self.scoped -= 1;
                r
            }
            C::ForClause(f) => {
                let span = self.span_or(frame, &f.loc);
                let mut values: Vec<XWord> = Vec::new();
                let start = self.commands.len();
                match &f.values {
                    Some(ws) => {
                        for w in ws {
                            self.expand_into(&w.value, frame, span, &mut values);
                        }
                    }
                    // `for f; do …` runs over the positional parameters.
                    None => match self.env.get("@").cloned().flatten() {
                        Some(v) => {
                            values.extend(v.split(' ').filter(|w| !w.is_empty()).map(XWord::lit))
                        }
                        None => values.push(XWord::lit("$@")),
                    },
                }
                // `for p in $(pgrep x)`, `for f in $files` (from a listing): the loop variable
                // holds its entries.
                let listing = self
                    .listing_since(start)
                    .or_else(|| self.listing_of_words(&values));
                let entries = listing.as_ref().and_then(|l| l.entries.clone());
                if let Some(l) = listing {
                    self.taint_var(&f.variable_name, l);
                }
                // Literal values and globs: a glob value stands for every file it matches
                // (`for d in /dev/sd[b-z]; do dd of="$d"` writes every such device).
                let literal = values.iter().all(|v| !v.w.dynamic);
                // the body runs once per value: surely for literal values, maybe not at all
                // for a listing's
                let sure = literal && !values.is_empty() && values.len() <= MAX_FOR_VALUES;
                // walked once per value, in order, as bash runs it; a listing's body is walked
                // once for all its runs
                if !sure {
                    self.scoped += 1;
                }
                if !sure {
                    self.begin_branch();
                }
                let r = if sure {
                    let mut r = None;
                    for v in &values {
                        self.set_var(&f.variable_name, Some(v.w.text.clone()));
                        r = join(r, self.walk_list(&f.body.list, frame, lvl + 1));
                    }
                    r
                } else {
                    // `for f in $(find /srv -name '*.bak')`: each entry of the listing
                    self.set_var(&f.variable_name, entries);
                    self.walk_list(&f.body.list, frame, lvl + 1)
                };
                if !sure {
                    self.end_branch();
                    self.scoped -= 1;
                }
                r
            }
            C::CaseClause(c) => {
                let span = self.span_or(frame, &c.loc);
                let _ = self.expand_one(&c.value.value, frame, span);
                let mut r = None;
                self.begin_branch();
                for item in &c.cases {
                    if let Some(list) = &item.cmd {
                        r = join(r, self.walk_list(list, frame, lvl + 1));
                    }
                }
                self.end_branch();
                r
            }
            C::IfClause(i) => {
                let start = self.commands.len();
                let mut r = self.walk_list(&i.condition, frame, lvl + 1);
                // a test of values the script fixed (`DRY_RUN=1 … if [ "$DRY_RUN" = 1 ]`):
                // only the branch it takes runs
                let cond = self.loc_span(&i.condition);
                // one plain pipeline of one command: no `!`, `&&`, `||`, `|` or `;`
                let plain = match i.condition.0.as_slice() {
                    [item] => {
                        let ao = &item.0;
                        ao.additional.is_empty()
                            && !ao.first.bang
                            && ao.first.timed.is_none()
                            && ao.first.seq.len() == 1
                    }
                    _ => false,
                };
                let decided = if plain {
                    self.decided_test(start, cond)
                } else {
                    None
                };
                match decided {
                    Some(true) => return join(r, self.walk_list(&i.then, frame, lvl + 1)),
                    Some(false) => {
                        self.begin_branch();
                        for e in i.elses.iter().flatten() {
                            if let Some(c) = &e.condition {
                                r = join(r, self.walk_list(c, frame, lvl + 1));
                            }
                            r = join(r, self.walk_list(&e.body, frame, lvl + 1));
                        }
                        self.end_branch();
                        return r;
                    }
                    None => {}
                }
                self.begin_branch();
                r = join(r, self.walk_list(&i.then, frame, lvl + 1));
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        r = join(r, self.walk_list(c, frame, lvl + 1));
                    }
                    r = join(r, self.walk_list(&e.body, frame, lvl + 1));
                }
                self.end_branch();
                r
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                // a loop runs its condition and body again with what the body changed: no
                // test inside it is decided
                self.scoped += 1;
                let r = self.walk_list(&w.0, frame, lvl + 1);
                self.begin_branch();
                let r = join(r, self.walk_list(&w.1.list, frame, lvl + 1));
                self.end_branch();
                self.scoped -= 1;
                r
            }
            C::Coprocess(c) => self.walk_command(&c.body, frame, lvl + 1),
        }
    }

    /// The outcome of an `if` condition recorded from `start` on, when it is certain: one
    /// `[ A = B ]` / `[[ A != B ]]` / `test A -eq B` whose words are all literal after
    /// expansion and whose variables hold values the script fixed ([`State::certain`]). A
    /// variable set from outside, in a branch, by `read` or a loop, or after `source`/`eval`,
    /// leaves it undecided (both branches are read).
    fn decided_test(&self, start: usize, cond: Span) -> Option<bool> {
        let [c] = self.commands.get(start..)? else {
            return None;
        };
        if !matches!(c.program.as_str(), "[" | "[[" | "test") || c.program_dynamic {
            return None;
        }
        // the condition as written (top-level text only: nested text has its own offsets);
        // not when `[`/`test` may be redefined or variables may be reached by reference
        if self.nested_src.is_some()
            || self.scoped > 0
            || ["[", "test"].iter().any(|n| {
                self.script.functions.contains_key(*n) || self.script.aliases.contains_key(*n)
            })
            || [
                "declare -n",
                "typeset -n",
                "local -n",
                "enable ",
                "alias test",
                "alias [",
            ]
            .iter()
            .any(|k| self.src.contains(k))
        {
            return None;
        }
        let text = self.src.get(cond.start..cond.end)?.trim_start();
        let text = text.trim_end().trim_end_matches(';').trim_end();
        if !(text.starts_with('[') || text.starts_with("test ")) || text.contains(['`', '(']) {
            return None;
        }
        // every variable the test reads is one the script fixed
        let mut rest = text;
        while let Some(k) = rest.find('$') {
            rest = &rest[k + 1..];
            let name: String = rest
                .trim_start_matches('{')
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            if name.is_empty() || !self.script.certain.contains(&name) {
                return None;
            }
        }
        if c.raw_argv.iter().any(|w| w.dynamic) {
            return None;
        }
        let words: Vec<&str> = c
            .raw_argv
            .iter()
            .skip(1)
            .map(|w| w.text.as_str())
            .filter(|w| !matches!(*w, "]" | "]]"))
            .collect();
        let [a, op, b] = words.as_slice() else {
            return None;
        };
        // `[[ $x == 1* ]]` matches a pattern: only plain text is compared here
        if c.program == "[[" && b.contains(['*', '?', '[', '\\']) {
            return None;
        }
        match *op {
            "=" | "==" => Some(a == b),
            "!=" => Some(a != b),
            "-eq" | "-ne" => {
                let (x, y) = (a.parse::<i64>().ok()?, b.parse::<i64>().ok()?);
                Some((x == y) == (*op == "-eq"))
            }
            _ => None,
        }
    }

    /// `$(( … ))` and `(( … ))` bodies can hold command substitutions.
    fn arith(&mut self, expr: &str, frame: &Frame, span: Span) {
        if expr.contains("$(") || expr.contains('`') {
            let _ = self.expand_one(&format!("\"{expr}\""), frame, span);
        }
    }

    fn walk_simple(&mut self, sc: &ast::SimpleCommand, frame: &Frame) -> Option<Range> {
        use ast::CommandPrefixOrSuffixItem as I;
        let span = match frame.span {
            Some(s) => s,
            None => self.simple_span(sc),
        };
        let mut p = Pending {
            span,
            pipe_text: self.script.pipe_text.take(),
            ..Pending::default()
        };
        let pipe_list = self.script.pipe_list.take();
        let start = self.commands.len();
        let mut declaration = false;
        let prefix = sc.prefix.iter().flat_map(|x| x.0.iter());
        for item in prefix {
            match item {
                I::IoRedirect(r) => self.redirect(r, &mut p, frame, 0),
                I::AssignmentWord(a, _) => {
                    let (name, value) = self.assignment(a, frame, span);
                    p.assignments.push((name, value));
                }
                I::Word(w) => self.expand_into(&w.value, frame, span, &mut p.argv),
                I::ProcessSubstitution(kind, sub) => {
                    let xw = self.process_substitution(kind, sub, frame, span);
                    p.argv.push(xw);
                }
            }
        }
        if let Some(w) = &sc.word_or_name {
            self.expand_into(&w.value, frame, span, &mut p.argv);
            declaration = p.argv.first().is_some_and(|w| is_declaration(w.text()));
        }
        for item in sc.suffix.iter().flat_map(|x| x.0.iter()) {
            match item {
                I::IoRedirect(r) => self.redirect(r, &mut p, frame, 0),
                I::AssignmentWord(a, w) => {
                    if declaration {
                        let (name, value) = self.assignment(a, frame, span);
                        p.argv.push(XWord {
                            w: Word {
                                text: format!("{name}={}", value.text),
                                dynamic: value.dynamic,
                            },
                            feed: Default::default(),
                        });
                        let v = if value.dynamic {
                            crate::listing::mktemp_value(&value.text)
                        } else {
                            Some(value.text.clone())
                        };
                        let shape = v.is_none() && value.dynamic;
                        self.set_var(&name, v);
                        if shape {
                            self.note_var_shape(&name, &value.text);
                        }
                    } else {
                        self.expand_into(&w.value, frame, span, &mut p.argv);
                    }
                }
                I::Word(w) => self.expand_into(&w.value, frame, span, &mut p.argv),
                I::ProcessSubstitution(kind, sub) => {
                    let xw = self.process_substitution(kind, sub, frame, span);
                    p.argv.push(xw);
                }
            }
        }
        // What the command's words draw from: `kill $(pgrep x)`, `ps | xargs kill`, `$pid`.
        let listing = self.listing_since(start);
        if p.argv.is_empty() {
            let feed = self.feed_since(start);
            for (name, value) in &p.assignments {
                let v = if value.dynamic {
                    crate::listing::mktemp_value(&value.text)
                } else {
                    Some(value.text.clone())
                };
                let shape = v.is_none() && value.dynamic;
                self.set_var(name, v);
                // `DRY_RUN=1` written out at the top of the script, outside any branch
                let literal = frame.span.is_none()
                    && self.branches.is_empty()
                    && self.scoped == 0
                    && !value.dynamic
                    && !value.text.is_empty()
                    && self.src.get(span.start..span.end).is_some_and(|t| {
                        !t.contains(['$', '`', '(', '<', '>']) && !t.contains("+=")
                    });
                if literal && self.script.certain.len() < 256 {
                    self.script.certain.insert(name.clone());
                }
                if shape {
                    self.note_var_shape(name, &value.text);
                }
                self.note_var_feed(name, feed);
                if let Some(l) = listing.clone().or_else(|| {
                    let w = XWord {
                        w: value.clone(),
                        feed: Default::default(),
                    };
                    self.listing_of_words(std::slice::from_ref(&w))
                }) {
                    self.taint_var(name, l);
                }
            }
        }
        // xargs and parallel run a command per entry; awk's `system(…)` and pipes run per
        // input line (`ps aux | awk '{system("kill " $2)}'`)
        let runs_each = p.argv.iter().take(4).any(|w| {
            matches!(
                crate::canon::program_name(w.text()).as_str(),
                "xargs" | "parallel" | "awk" | "gawk" | "mawk" | "nawk"
            )
        });
        p.listing = listing
            .or_else(|| pipe_list.filter(|_| runs_each))
            .or_else(|| self.listing_of_words(&p.argv));
        if let Some(r) = self.call_alias(&p.argv, frame, span) {
            return r;
        }
        let call = p.argv.clone();
        let r = self.finish_simple(p, frame);
        let body = self.call_function(&call, frame, span);
        if body.is_some()
            && let Some(c) = r.and_then(|r| self.commands.get_mut(r.first))
        {
            c.function_call = true;
        }
        join(r, body)
    }

    fn assignment(&mut self, a: &ast::Assignment, frame: &Frame, span: Span) -> (String, Word) {
        let name = match &a.name {
            ast::AssignmentName::VariableName(n) => n.clone(),
            ast::AssignmentName::ArrayElementName(n, i) => format!("{n}[{i}]"),
        };
        let value = match &a.value {
            ast::AssignmentValue::Scalar(w) => self.expand_one(&w.value, frame, span).w,
            ast::AssignmentValue::Array(items) => {
                let mut w = Word {
                    text: String::from("("),
                    dynamic: false,
                };
                let mut elements = Vec::new();
                for (i, (_, v)) in items.iter().enumerate() {
                    let x = self.expand_one(&v.value, frame, span);
                    if i > 0 {
                        w.text.push(' ');
                    }
                    w.text.push_str(&x.w.text);
                    elements.push(x.w.text);
                    w.dynamic |= x.w.dynamic;
                }
                w.text.push(')');
                // `"${arr[@]}"` expands to the elements (`$arr` stays unknown); `arr+=(x)`
                // appends to known elements.
                let key = format!("{name}[@]");
                let value = match (a.append, w.dynamic) {
                    (_, true) => None,
                    (false, false) => Some(crate::words::array_value(&elements)),
                    (true, false) => match self.env.get(&key) {
                        Some(Some(old)) => {
                            let mut all: Vec<String> = crate::words::array_items(old)
                                .into_iter()
                                .map(str::to_string)
                                .collect();
                            all.extend(elements);
                            Some(crate::words::array_value(&all))
                        }
                        _ => None,
                    },
                };
                self.set_var(&key, value);
                Word {
                    text: w.text,
                    dynamic: true,
                }
            }
        };
        let value = if a.append {
            match self.env.get(&name) {
                Some(Some(old)) => Word {
                    text: format!("{old}{}", value.text),
                    dynamic: value.dynamic,
                },
                _ => Word {
                    text: value.text,
                    dynamic: true,
                },
            }
        } else {
            value
        };
        (name, value)
    }

    fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        sub: &ast::SubshellCommand,
        frame: &Frame,
        span: Span,
    ) -> XWord {
        let start = self.commands.len();
        let inner = Frame {
            origin: Origin::ProcessSubstitution,
            depth: frame.depth + 1,
            ..frame.clone()
        };
        let _ = self.walk_list(&sub.list, &inner, 1);
        let mut feed = self.feed_since(start);
        feed.subst = true;
        // `<(echo 'DROP TABLE t')`: a single pipeline of literal producers and transformers
        // has a known output, which the reader of the file reads like a heredoc.
        if matches!(kind, ast::ProcessSubstitutionKind::Read)
            && let [item] = sub.list.0.as_slice()
            && item.0.additional.is_empty()
            && item.0.first.seq.len() == self.commands.len() - start
        {
            let chain: Vec<Range> = (start..self.commands.len())
                .map(|i| Range { first: i, last: i })
                .collect();
            if let Some(out) = self.chain_output(&chain) {
                feed.subst_out = Some(self.subst_texts.len());
                self.subst_texts.push(out);
            }
        }
        let op = match kind {
            ast::ProcessSubstitutionKind::Read => "<",
            ast::ProcessSubstitutionKind::Write => ">",
        };
        let text = match frame.span {
            None => {
                let s = self.span_of(&sub.loc);
                let body = self.src.get(s.start..s.end).unwrap_or("…");
                if body.starts_with('(') {
                    format!("{op}{body}")
                } else {
                    format!("{op}({body})")
                }
            }
            Some(_) => format!("{op}(…)"),
        };
        let _ = span;
        XWord {
            w: Word {
                text,
                dynamic: true,
            },
            feed,
        }
    }

    fn redirect(&mut self, r: &ast::IoRedirect, p: &mut Pending, frame: &Frame, _lvl: u32) {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        let span = p.span;
        let fd_str = |fd: &Option<i32>| fd.map(|n| n.to_string()).unwrap_or_default();
        match r {
            ast::IoRedirect::File(fd, kind, target) => {
                let op = match kind {
                    K::Read => "<",
                    K::Write => ">",
                    K::Append => ">>",
                    K::ReadAndWrite => "<>",
                    K::Clobber => ">|",
                    K::DuplicateInput => "<&",
                    K::DuplicateOutput => ">&",
                };
                let target = match target {
                    T::Filename(w) | T::Duplicate(w) => self.expand_one(&w.value, frame, span).w,
                    T::Fd(n) => Word {
                        text: n.to_string(),
                        dynamic: false,
                    },
                    T::ProcessSubstitution(k, sub) => {
                        let x = self.process_substitution(k, sub, frame, span);
                        if matches!(kind, K::Read)
                            && fd.is_none_or(|n| n == 0)
                            && let Some(out) =
                                x.feed.subst_out.and_then(|i| self.subst_texts.get(i))
                        {
                            p.stdin_text = Some((out.clone(), true));
                        }
                        x.w
                    }
                };
                if matches!(kind, K::Read) && fd.is_none_or(|n| n == 0) {
                    p.stdin = Some(StdinSource::File {
                        path: target.text.clone(),
                    });
                    if p.stdin_text.is_none()
                        && !target.dynamic
                        && let Some(text) = self.stdin_file_text(&target.text)
                    {
                        p.stdin_text = Some((text, true));
                    }
                }
                p.redirects.push(Redirect {
                    op: format!("{}{op}", fd_str(fd)),
                    target,
                });
            }
            ast::IoRedirect::HereDocument(fd, hd) => {
                let body = if hd.requires_expansion {
                    self.expand_heredoc(&hd.doc.value, frame, span)
                } else {
                    Word {
                        text: hd.doc.value.clone(),
                        dynamic: false,
                    }
                };
                let op = if hd.remove_tabs { "<<-" } else { "<<" };
                if fd.is_none_or(|n| n == 0) {
                    p.stdin = Some(StdinSource::Heredoc);
                    p.stdin_text = Some((body.text.clone(), !body.dynamic));
                }
                p.redirects.push(Redirect {
                    op: format!("{}{op}", fd_str(fd)),
                    target: body,
                });
            }
            ast::IoRedirect::HereString(fd, w) => {
                let x = self.expand_one(&w.value, frame, span);
                if fd.is_none_or(|n| n == 0) {
                    p.stdin = Some(StdinSource::Heredoc);
                    p.stdin_text = Some((format!("{}\n", x.w.text), !x.w.dynamic));
                    p.stdin_feed = x.feed;
                }
                p.redirects.push(Redirect {
                    op: format!("{}<<<", fd_str(fd)),
                    target: x.w,
                });
            }
            ast::IoRedirect::OutputAndError(w, append) => {
                let target = self.expand_one(&w.value, frame, span).w;
                let op = if *append { "&>>" } else { "&>" };
                p.redirects.push(Redirect {
                    op: op.into(),
                    target,
                });
            }
        }
    }

    fn ast_level_ok(&mut self, lvl: u32) -> bool {
        if lvl > limits::MAX_AST_LEVEL {
            self.limit(format!(
                "syntax nesting deeper than {}",
                limits::MAX_AST_LEVEL
            ));
            return false;
        }
        true
    }

    fn span_or(&self, frame: &Frame, loc: &brush_parser::SourceSpan) -> Span {
        frame.span.unwrap_or_else(|| self.span_of(loc))
    }

    fn loc_span(&self, n: &impl ast::SourceLocation) -> Span {
        n.location()
            .map(|l| self.span_of(&l))
            .unwrap_or(Span::new(0, self.src.len()))
    }

    /// The span of a simple command: from its first to its last word (redirect operators
    /// before the first word included; heredoc bodies excluded).
    fn simple_span(&self, sc: &ast::SimpleCommand) -> Span {
        use ast::CommandPrefixOrSuffixItem as I;
        let mut lo = usize::MAX;
        let mut hi = 0usize;
        let mut first_is_redirect = false;
        let mut add = |loc: Option<&brush_parser::SourceSpan>, redirect: bool, this: &Self| {
            if let Some(l) = loc {
                let s = this.span_of(l);
                if s.start < lo {
                    lo = s.start;
                    first_is_redirect = redirect;
                }
                hi = hi.max(s.end);
            }
        };
        let items = sc
            .prefix
            .iter()
            .flat_map(|x| x.0.iter())
            .chain(sc.suffix.iter().flat_map(|x| x.0.iter()));
        for item in items {
            match item {
                I::Word(w) => add(w.loc.as_ref(), false, self),
                I::AssignmentWord(a, w) => {
                    add(w.loc.as_ref(), false, self);
                    add(Some(&a.loc), false, self);
                }
                I::ProcessSubstitution(_, s) => add(Some(&s.loc), false, self),
                I::IoRedirect(r) => add(redirect_loc(r), true, self),
            }
        }
        if let Some(w) = &sc.word_or_name {
            add(w.loc.as_ref(), false, self);
        }
        if lo == usize::MAX {
            return Span::new(0, self.src.len());
        }
        if first_is_redirect {
            lo = back_over_operator(self.src, lo);
        }
        Span::new(lo, hi.max(lo))
    }
}

fn redirect_loc(r: &ast::IoRedirect) -> Option<&brush_parser::SourceSpan> {
    use ast::IoFileRedirectTarget as T;
    match r {
        ast::IoRedirect::File(_, _, T::Filename(w) | T::Duplicate(w)) => w.loc.as_ref(),
        ast::IoRedirect::File(_, _, T::ProcessSubstitution(_, s)) => Some(&s.loc),
        ast::IoRedirect::File(_, _, T::Fd(_)) => None,
        ast::IoRedirect::HereDocument(_, hd) => hd.here_end.loc.as_ref(),
        ast::IoRedirect::HereString(_, w) | ast::IoRedirect::OutputAndError(w, _) => w.loc.as_ref(),
    }
}

/// Move `at` back over blanks and a redirect operator (`2>`, `>>`, `<<<`, `&>`, `>|`).
fn back_over_operator(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let mut i = at.min(b.len());
    while i > 0 && matches!(b.get(i - 1), Some(b' ' | b'\t')) {
        i -= 1;
    }
    let mut j = i;
    while j > 0 {
        match b.get(j - 1) {
            Some(b'<' | b'>' | b'&' | b'0'..=b'9') => j -= 1,
            Some(b'|') if j >= 2 && b.get(j - 2) == Some(&b'>') => j -= 1,
            _ => break,
        }
    }
    if j < i { j } else { at }
}

fn is_declaration(p: &str) -> bool {
    matches!(p, "export" | "declare" | "typeset" | "local" | "readonly")
}

/// `( (` — two subshells — rather than the `((` that opens arithmetic.
fn spaced_parens(t: &str) -> bool {
    t.starts_with('(') && !t.starts_with("((")
}
