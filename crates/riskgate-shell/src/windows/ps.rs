//! The PowerShell walk: statements, pipelines and commands of a PowerShell text → every simple
//! command that would run, recorded in the same model as bash's. Cmdlets (by name, built-in
//! or script-defined alias, any case) are recorded with their canonical name and bound
//! parameters ([`super::bind`]); native programs go through the bash side's unwrapping and
//! canonicalization (`git push -f`, `cmd /c …`, `bash -c …`). The walk descends into
//! `( )`, `$( )`, `@( )`, script blocks (as if they run), hashtables, conditions and loop
//! bodies, function bodies, `Invoke-Expression` of a literal (or of text built from literals,
//! or decoded from base64), `Invoke-Command`/`Start-Job` blocks (remote with
//! `-ComputerName`), `Start-Process FILE ARGS` (privileged with `-Verb RunAs`) and `&`/`.`
//! calls. A download run by `Invoke-Expression` (`iwr … | iex`, `iex (New-Object
//! Net.WebClient).DownloadString(…)`) is a download piped to a shell.

use riskgate_model::Span;

use crate::ctx::{Frame, Norm, Range, XWord, join};
use crate::{Origin, ParseIssue, Word, Wrapper};

use super::bind::Arg;
use super::expr::{Eval, V};
use super::lex::{self, Part, Src, Tok};
use super::syntax::{assignment, expand_colon_args, groups, is_number, keyword_at, split_in};

/// Most values of a literal `foreach` list walked one by one.
const MAX_FOREACH_VALUES: usize = 8;

/// What the previous element of a pipeline gave the next one.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    None,
    Value(V),
    /// A command (its index and canonical program, and the canonical args of a listing).
    Cmd(usize, String),
}

pub(crate) fn sub_frame(frame: &Frame, origin: Origin) -> Frame {
    Frame {
        depth: frame.depth + 1,
        origin,
        wrappers: frame.wrappers.clone(),
        privileged: frame.privileged,
        remote: frame.remote.clone(),
        span: frame.span,
    }
}

pub(crate) fn xw(w: &Word) -> XWord {
    XWord {
        w: w.clone(),
        feed: crate::ctx::Feed::default(),
    }
}

impl Norm<'_> {
    /// Walk `text` as PowerShell under `frame`.
    pub(crate) fn ps_text(&mut self, text: &str, frame: &Frame) -> Option<Range> {
        if frame.depth > 0 {
            self.note_script(text);
        }
        if self.over_time() || !self.spend(text.len()) {
            return None;
        }
        let s = Src::new(text);
        let frame = Frame {
            depth: frame.depth,
            ..frame.clone()
        };
        self.ps_block(&s, 0, s.len(), &frame)
    }

    /// Walk `text` as the shell `program` reads it from stdin: PowerShell's and cmd.exe's own
    /// syntax for `pwsh`/`powershell`/`cmd`, else bash's.
    pub(crate) fn shell_text(&mut self, program: &str, text: &str, frame: &Frame) -> Option<Range> {
        if !super::is_windows_shell(program) {
            return self.parse_text(text, frame);
        }
        if program.to_ascii_lowercase().starts_with("cmd") {
            self.cmd_text(text, frame)
        } else {
            self.ps_text(text, frame)
        }
    }

    /// Walk `s[from..to]` as a list of statements.
    pub(crate) fn ps_block(
        &mut self,
        s: &Src,
        from: usize,
        to: usize,
        frame: &Frame,
    ) -> Option<Range> {
        if frame.depth > self.limits.max_depth {
            let m = format!("nesting deeper than {}", self.limits.max_depth);
            self.limit(m);
            return None;
        }
        let (stmts, err) = lex::statements(s, from, to);
        if let Some(e) = err {
            self.issue(ParseIssue::Syntax {
                message: format!("PowerShell: {e}"),
            });
        }
        let mut r = None;
        for st in &stmts {
            if self.over_time() {
                break;
            }
            r = join(r, self.ps_statement(s, &st.elems, frame));
        }
        r
    }

    fn span_of_range(&self, s: &Src, a: usize, b: usize, frame: &Frame) -> Span {
        frame.span.unwrap_or(Span::new(s.byte(a), s.byte(b)))
    }

    fn ps_statement(&mut self, s: &Src, elems: &[(usize, usize)], frame: &Frame) -> Option<Range> {
        let &(a, b) = elems.first()?;
        let mut a = a;
        while a < b && (lex::is_space(s.at(a)) || matches!(s.at(a), '\r' | '\n')) {
            a += 1;
        }
        // `$x = …`, `$x += …`, `[string]$x = …`, `$env:X = …`
        if let Some((name, rhs)) = assignment(s, a, b) {
            // `$p = @{ Path = …; Recurse = $true }`: kept for splatting (`Remove-Item @p`)
            if let (Some(n), 1) = (&name, elems.len()) {
                let key = n.to_ascii_lowercase();
                match super::syntax::hash_entries(s, rhs, b) {
                    Some(entries) => {
                        let mut table = Vec::new();
                        for (k, x, y) in entries {
                            let v = self.ps_eval(s, x, y, frame, false);
                            table.push((k, v));
                        }
                        if self.ps.splats.len() < 256 || self.ps.splats.contains_key(&key) {
                            self.ps.splats.insert(key, table);
                        }
                    }
                    None => {
                        self.ps.splats.remove(&key);
                    }
                }
            }
            let mut rest = vec![(rhs, b)];
            rest.extend_from_slice(&elems[1..]);
            let start = self.commands.len();
            let (r, v) = self.ps_pipeline(s, &rest, frame);
            // `$procs = Get-Process [NAME] | Where-Object …`: the processes it lists
            let v = match (&v, self.commands.get(start)) {
                (V::Dyn, Some(c)) if c.program == "Get-Process" => {
                    V::Obj(format!("process:{}", self.process_names(start)))
                }
                // `$code = (Invoke-WebRequest … URL).Content`, `$s = irm URL`: the text
                // downloaded (what `iex $code` then runs)
                (V::Dyn, _) => self.downloaded_by(start).map_or(v, V::Download),
                _ => v,
            };
            if let Some(n) = name {
                // what the commands on the right output goes into the variable, as bash's
                // `x=$(cmd)`: recorded as an assignment fed by the last of them
                if self.commands.len() > start {
                    let span = self.span_of_range(s, a, b, frame);
                    self.push_ps_assignment(&n, self.commands.len() - 1, frame, span);
                }
                self.ps_set(&n, v);
            }
            return r;
        }
        // `[array]::Reverse($x)` reverses the array in the variable, in place
        if let Some(name) = super::syntax::reversed_var(&s.text(a, b)) {
            let v = match self.ps.vars.get(&name) {
                Some(V::Arr(items)) => V::Arr(items.iter().rev().cloned().collect()),
                Some(V::Str(t)) => V::Arr(t.chars().rev().map(|c| V::Str(c.to_string())).collect()),
                _ => V::Dyn,
            };
            self.ps_set(&name, v);
            return None;
        }
        let first_word = keyword_at(s, a, b);
        if let Some(k) = first_word {
            return self.ps_keyword(s, &k, a, b, elems, frame);
        }
        self.ps_pipeline(s, elems, frame).0
    }

    /// A statement that starts with a keyword: its groups are walked (conditions, bodies),
    /// `foreach` over a literal list walks its body once per value.
    fn ps_keyword(
        &mut self,
        s: &Src,
        k: &str,
        a: usize,
        b: usize,
        elems: &[(usize, usize)],
        frame: &Frame,
    ) -> Option<Range> {
        let after = a + k.chars().count();
        match k {
            "return" | "throw" | "exit" => {
                let mut rest = vec![(after, b)];
                rest.extend_from_slice(&elems[1..]);
                return self.ps_pipeline(s, &rest, frame).0;
            }
            // `param([string]$Root = "C:\Users", …)`: the defaults are the values
            "param" => {
                if let Some(&(ga, gb)) = groups(s, after, b).first() {
                    for (mut x, y) in super::syntax::top_level_commas(s, ga, gb) {
                        while x < y && (lex::is_space(s.at(x)) || matches!(s.at(x), '\r' | '\n')) {
                            x += 1;
                        }
                        if let Some((Some(n), rhs)) = assignment(s, x, y) {
                            let v = self.ps_eval(s, rhs, y, frame, false);
                            self.ps_set(&n, v);
                        }
                    }
                }
                return None;
            }
            "function" | "filter" | "workflow" | "configuration" => {
                let toks = lex::tokens(s, after, b);
                if let Some(Tok::Word { parts, .. }) = toks.first()
                    && let Some(Part::Lit(name)) = parts.first()
                {
                    self.ps.functions.insert(name.to_ascii_lowercase());
                }
                let f = sub_frame(frame, Origin::Function);
                let mut r = None;
                for (x, y) in groups(s, after, b) {
                    r = join(r, self.ps_block(s, x, y, &f));
                }
                return r;
            }
            "foreach" => {
                let gs = groups(s, after, b);
                if let (Some(&(ca, cb)), Some(&(ba, bb))) = (gs.first(), gs.get(1)) {
                    let cond = s.text(ca, cb);
                    if let Some((var, list)) = split_in(&cond) {
                        let off = ca + cond[..cond.len() - list.len()].chars().count();
                        let f = sub_frame(frame, frame.origin);
                        let first_new = self.commands.len();
                        let mut r = self.ps_pipeline(s, &[(off, cb)], &f).0;
                        let v = self.ps_eval(s, off, cb, &f, false);
                        let items = v.items();
                        let known: Vec<V> = items
                            .into_iter()
                            .filter(|x| x.text().is_some())
                            .take(MAX_FOREACH_VALUES)
                            .collect();
                        let name = var.trim().trim_start_matches('$').to_ascii_lowercase();
                        // over a listing's items (`foreach ($d in Get-ChildItem P)`, or a
                        // variable assigned one) or a process listing's processes
                        let known = if known.is_empty() {
                            self.listed_items(list.trim(), r, &v)
                        } else {
                            known
                        };
                        if known.is_empty() {
                            // each process of a process listing (`foreach ($p in
                            // Get-Process)`: `$p.Id` names one of them)
                            let listed = r
                                .map(|rg| rg.first)
                                .or((self.commands.len() > first_new).then_some(first_new))
                                .map(|k| self.listing_source(k));
                            let each = match (v, listed) {
                                (V::Obj(o), _) if o.starts_with("process:") => V::Obj(o),
                                (_, Some((k, p))) if p == "Get-Process" => {
                                    V::Obj(format!("process:{}", self.process_names(k)))
                                }
                                _ => V::Dyn,
                            };
                            self.ps_set(&name, each);
                            r = join(r, self.ps_block(s, ba, bb, &f));
                        }
                        for x in known {
                            self.ps_set(&name, x);
                            r = join(r, self.ps_block(s, ba, bb, &f));
                        }
                        return r;
                    }
                }
            }
            _ => {}
        }
        let f = sub_frame(frame, frame.origin);
        let mut r = None;
        for (x, y) in groups(s, after, b) {
            r = join(r, self.ps_block(s, x, y, &f));
        }
        for &(x, y) in &elems[1..] {
            r = join(r, self.ps_pipeline(s, &[(x, y)], frame).0);
        }
        r
    }

    /// Set a PowerShell variable (bounded like bash's).
    pub(crate) fn ps_set(&mut self, name: &str, v: V) {
        let name = name.trim_start_matches('$').to_ascii_lowercase();
        let v = match &v {
            V::Str(t) if t.len() > crate::ctx::MAX_VAR_LEN => V::Dyn,
            _ => v,
        };
        if let Some(env) = name.strip_prefix("env:")
            && let Some(t) = v.text()
        {
            // Windows variables are case-insensitive; bash's context reads upper case names.
            self.set_var(&env.to_ascii_uppercase(), Some(t));
        }
        if self.ps.vars.len() < 4096 || self.ps.vars.contains_key(&name) {
            self.ps.vars.insert(name, v);
        }
    }

    /// Evaluate `s[a..b]` as an expression; .NET calls found in it are recorded as commands and
    /// (with `walk`) the commands inside its groups are walked.
    pub(crate) fn ps_eval(&mut self, s: &Src, a: usize, b: usize, frame: &Frame, walk: bool) -> V {
        if !self.spend(b.saturating_sub(a)) {
            return V::Dyn;
        }
        let vars = self.ps.vars.clone();
        let lookup = move |n: &str| vars.get(n).cloned();
        let mut e = Eval::new(s, &lookup);
        let v = e.eval(a, b);
        let calls = std::mem::take(&mut e.calls);
        if let Some(why) = e.incomplete.take() {
            self.limit(why);
        }
        let span = self.span_of_range(s, a, b, frame);
        for c in calls.into_iter().take(64) {
            let argv: Vec<Arg> = c
                .argv
                .iter()
                .skip(1)
                .map(|t| match t.split_once('=') {
                    // a value written as a variable (`-Body=$b`) is only known at run time
                    Some((n, v)) if n.starts_with('-') => {
                        Arg::Value(vec![(format!("{n}:{v}"), v.starts_with('$'))])
                    }
                    _ => Arg::Value(vec![(t.clone(), false)]),
                })
                .collect();
            let argv = expand_colon_args(argv);
            let name = c.argv.first().cloned().unwrap_or_default();
            let mut f = frame.clone();
            f.wrappers.push(Wrapper {
                name: c.via.clone(),
                args: vec![],
            });
            // `[scriptblock]::Create($s).Invoke()`: the text is run as `iex` runs it
            let downloaded = c
                .argv
                .get(1)
                .and_then(|t| t.strip_prefix(super::dotnet::DOWNLOADED));
            let values: Vec<V> = if let Some(url) = downloaded {
                vec![V::Download(url.to_string())]
            } else if name == "Invoke-Expression" {
                c.argv
                    .get(1)
                    .map(|t| vec![V::Str(t.clone())])
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            let argv = if downloaded.is_some() {
                Vec::new()
            } else {
                argv
            };
            self.ps_cmdlet(
                &name,
                &argv,
                Vec::new(),
                &Input::None,
                &f,
                span,
                Vec::new(),
                &values,
            );
        }
        if walk {
            let f = sub_frame(frame, Origin::CommandSubstitution);
            for (x, y) in groups(s, a, b) {
                let _ = self.ps_block(s, x, y, &f);
            }
        }
        v
    }

    /// A pipeline: each element a command or an expression. Returns the commands and the value
    /// of the last element (for assignments).
    fn ps_pipeline(
        &mut self,
        s: &Src,
        elems: &[(usize, usize)],
        frame: &Frame,
    ) -> (Option<Range>, V) {
        let mut input = Input::None;
        let mut r = None;
        let mut last = V::Dyn;
        for &(a, b) in elems {
            let toks = lex::tokens(s, a, b);
            let span = self.span_of_range(s, a, b, frame);
            let is_command = match toks.first() {
                Some(Tok::Word {
                    parts,
                    quoted: false,
                }) => match parts.first() {
                    Some(Part::Lit(t)) => !t.starts_with('[') && !is_number(t),
                    _ => false,
                },
                _ => false,
            };
            if !is_command {
                let start = self.commands.len();
                let v = self.ps_eval(s, a, b, frame, true);
                last = v.clone();
                // an expression whose value is not known passes on what the commands it ran
                // output (`[IO.File]::ReadAllBytes(P) | …`), or what a variable was assigned
                // from (`$found | Compress-Archive …`)
                let var = s
                    .text(a, b)
                    .trim()
                    .trim_start_matches('$')
                    .to_ascii_lowercase();
                input = match &v {
                    V::Dyn if self.commands.len() > start => {
                        Input::Cmd(self.commands.len() - 1, String::new())
                    }
                    // a variable assigned a listing passes its items on (`$all = gci P | sort;
                    // $all | Remove-Item`)
                    V::Dyn if self.ps.var_cmds.contains_key(&var) => {
                        let k = self.ps.var_cmds.get(&var).copied().unwrap_or(0);
                        match self.listing_source(k) {
                            (i, p) if !p.is_empty() && p.starts_with("Get-") => Input::Cmd(i, p),
                            _ => Input::Cmd(k, String::new()),
                        }
                    }
                    _ => Input::Value(v),
                };
                continue;
            }
            self.ps.elem_text = s.text(a, b);
            let (got, out) = self.ps_command(s, &toks, &input, frame, span);
            r = join(r, got);
            last = out;
            let prog = got
                .and_then(|rg| self.commands.get(rg.last))
                .map(|c| c.program.clone())
                .unwrap_or_default();
            input = match (got, &input) {
                // a filter passes its input's listing on
                (Some(_), Input::Cmd(..)) if super::follow::FILTERS.contains(&prog.as_str()) => {
                    input
                }
                (Some(rg), _) => Input::Cmd(rg.last, prog),
                (None, _) => Input::None,
            };
        }
        (r, last)
    }
}
