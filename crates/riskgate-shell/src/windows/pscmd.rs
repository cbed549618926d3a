//! One PowerShell command: its name resolved (script-defined aliases and functions, built-in
//! aliases, cmdlets by name in any case and with a module prefix, cmd.exe builtins with `/x`
//! switches, Unix programs under their PowerShell alias names, native programs), its arguments
//! evaluated (the commands inside them walked), and then recorded: a cmdlet with its bound
//! parameters ([`super::bind`], [`super::follow`]), a native program through the bash side.

use riskgate_model::Span;

use crate::ctx::{Frame, Norm, Pending, Range, join};
use crate::{Origin, Redirect, Signal, StdinSource, Word, Wrapper};

use super::bind::{self, Arg};
use super::cmdlets;
use super::expr::{Eval, V, var_value};
use super::lex::{Part, Src, Tok};
use super::ps::{Input, sub_frame, xw};
use super::syntax::{args_words, blocks_owned, is_cmd_switch, native_program, unix_style, written};
use super::winpath;

/// How a command name was written.
enum Head {
    /// A name (`Remove-Item`, `ri`, `git`, `C:\x\tool.exe`).
    Name(String, bool),
    /// `& { … }` / `. { … }`: a script block run in place.
    Block(usize, usize),
    /// `& $sb` with `$sb` a known script block (`[scriptblock]::Create('…')`): its text.
    Text(String),
    /// `& $x` with `$x` unknown.
    Dynamic(String),
    /// `& ([scriptblock]::Create((iwr URL).Content))`: a block of downloaded text, run.
    Download(V),
}

/// The evaluated arguments of one command.
pub(crate) struct PsArgs {
    args: Vec<Arg>,
    blocks: Vec<(usize, usize)>,
    redirects: Vec<Redirect>,
    /// The value of each `Arg::Value`, in order.
    values: Vec<V>,
}

impl Norm<'_> {
    /// The evaluated arguments of a command, with the groups and blocks they hold.
    pub(crate) fn ps_args(&mut self, s: &Src, toks: &[Tok], frame: &Frame) -> PsArgs {
        let mut values: Vec<V> = Vec::new();
        let mut args: Vec<Arg> = Vec::new();
        let mut blocks = Vec::new();
        let mut redirects = Vec::new();
        let mut k = 0;
        while let Some(t) = toks.get(k) {
            k += 1;
            match t {
                Tok::Param { name, colon } => args.push(Arg::Param {
                    name: name.clone(),
                    colon: *colon,
                }),
                Tok::EndOfParams => args.push(Arg::EndOfParams),
                Tok::StopParsing(rest) => {
                    for w in rest.split_whitespace() {
                        args.push(Arg::Value(vec![(w.to_string(), false)]));
                    }
                }
                Tok::Redirect(op) => {
                    if op.contains('&') {
                        continue;
                    }
                    let target = match toks.get(k) {
                        Some(Tok::Word { parts, .. }) => {
                            k += 1;
                            self.word_value(s, parts, frame).0
                        }
                        _ => String::new(),
                    };
                    let target = if target.eq_ignore_ascii_case("$null")
                        || target.is_empty()
                        || target.eq_ignore_ascii_case("nul")
                    {
                        "/dev/null".to_string()
                    } else {
                        winpath::canonical(&target)
                    };
                    let op = op.trim_start_matches(['1', '*']).to_string();
                    redirects.push(Redirect {
                        op: if op.is_empty() { ">".into() } else { op },
                        target: Word {
                            text: target,
                            dynamic: false,
                        },
                    });
                }
                Tok::Comma => {
                    // `a, b`: the next word joins the previous value.
                    if let (Some(Arg::Value(prev)), Some(Tok::Word { parts, .. })) =
                        (args.last_mut(), toks.get(k))
                    {
                        k += 1;
                        let (t, d, v) = self.word_value(s, parts, frame);
                        prev.push((t, d));
                        if let Some(last) = values.last_mut() {
                            let mut items = last.items();
                            items.push(v);
                            *last = V::Arr(items);
                        }
                    }
                }
                // `@p`: a hashtable's entries become named parameters (`$true` a switch), an
                // array's items positional arguments
                Tok::Word { parts, .. }
                    if matches!(parts.as_slice(), [Part::Splat(n)]
                        if self.ps.splats.contains_key(&n.to_ascii_lowercase())
                            || matches!(self.ps.vars.get(&n.to_ascii_lowercase()), Some(V::Arr(_) | V::Str(_)))) =>
                {
                    let Some(Part::Splat(n)) = parts.first() else {
                        continue;
                    };
                    let n = n.to_ascii_lowercase();
                    if let Some(table) = self.ps.splats.get(&n) {
                        for (key, v) in table.iter().take(64) {
                            let text = v.text();
                            match text.as_deref().map(str::to_ascii_lowercase).as_deref() {
                                Some("true") => args.push(Arg::Param {
                                    name: key.clone(),
                                    colon: false,
                                }),
                                // `-Confirm:$false` says something; other false switches
                                // are left out by the binding
                                Some("false") => {
                                    args.push(Arg::Param {
                                        name: key.clone(),
                                        colon: true,
                                    });
                                    args.push(Arg::Value(vec![("$false".into(), false)]));
                                    values.push(V::Str("false".into()));
                                }
                                Some("") => {}
                                _ => {
                                    args.push(Arg::Param {
                                        name: key.clone(),
                                        colon: true,
                                    });
                                    let (t, d) = match text {
                                        Some(t) => (t, false),
                                        None => (format!("${key}"), true),
                                    };
                                    args.push(Arg::Value(vec![(t, d)]));
                                    values.push(v.clone());
                                }
                            }
                        }
                    } else if let Some(v) = self.ps.vars.get(&n) {
                        for item in v.items().into_iter().take(64) {
                            let (t, d) = match item.text() {
                                Some(t) => (t, false),
                                None => (format!("@{n}"), true),
                            };
                            args.push(Arg::Value(vec![(t, d)]));
                            values.push(item);
                        }
                    }
                }
                Tok::Word { parts, .. } => {
                    for p in parts {
                        if let Part::Block(x, y) = p {
                            blocks.push((*x, *y));
                        }
                    }
                    let (t, d, v) = self.word_value(s, parts, frame);
                    args.push(Arg::Value(vec![(t, d)]));
                    values.push(v);
                }
            }
        }
        PsArgs {
            args,
            blocks,
            redirects,
            values,
        }
    }

    /// A word's text and whether it is only known at run time; the commands of its groups are
    /// walked.
    pub(crate) fn word_value(
        &mut self,
        s: &Src,
        parts: &[Part],
        frame: &Frame,
    ) -> (String, bool, V) {
        if let [Part::Expr(a, b)] = parts {
            let v = self.ps_eval(s, *a, *b, frame, true);
            return match v.text() {
                Some(t) => (t, false, v),
                None => (s.text(*a, *b), true, v),
            };
        }
        let f = sub_frame(frame, Origin::CommandSubstitution);
        for p in parts {
            match p {
                Part::Sub(x, y) | Part::Paren(x, y) | Part::Hash(x, y) => {
                    let _ = self.ps_block(s, *x, *y, &f);
                }
                _ => {}
            }
        }
        let vars = self.ps.vars.clone();
        let lookup = move |n: &str| vars.get(n).cloned();
        let mut e = Eval::new(s, &lookup);
        let v = e.parts_value(parts);
        let calls = std::mem::take(&mut e.calls);
        drop(e);
        if !calls.is_empty() {
            // `(New-Object Net.WebClient).DownloadFile(…)` as an argument.
            for (x, y) in parts.iter().filter_map(|p| match p {
                Part::Paren(x, y) | Part::Sub(x, y) => Some((*x, *y)),
                _ => None,
            }) {
                let _ = self.ps_eval(s, x, y, frame, false);
            }
        }
        match &v {
            V::Block(t) => (format!("{{{t}}}"), true, v.clone()),
            other => match other.text() {
                Some(t) => (t, false, v),
                None => (written(s, parts), true, v),
            },
        }
    }

    /// One command element.
    pub(crate) fn ps_command(
        &mut self,
        s: &Src,
        toks: &[Tok],
        input: &Input,
        frame: &Frame,
        span: Span,
    ) -> (Option<Range>, V) {
        let (head, rest) = match toks.split_first() {
            Some((Tok::Word { parts, quoted }, rest)) => {
                let lit = match parts.as_slice() {
                    [Part::Lit(t)] => Some(t.as_str()),
                    _ => None,
                };
                match lit {
                    Some("&") | Some(".") if !quoted => match rest.split_first() {
                        Some((Tok::Word { parts: p2, .. }, rest2)) => {
                            (self.head_of(s, p2, frame, true), rest2)
                        }
                        _ => return (None, V::Dyn),
                    },
                    _ => (self.head_of(s, parts, frame, false), rest),
                }
            }
            _ => return (None, V::Dyn),
        };
        match head {
            Head::Block(x, y) => {
                let mut f = sub_frame(frame, Origin::Function);
                f.wrappers.push(Wrapper {
                    name: "&".into(),
                    args: vec![],
                });
                let pa = self.ps_args(s, rest, frame);
                let mut r = self.ps_block(s, x, y, &f);
                for (a, b) in pa.blocks {
                    r = join(r, self.ps_block(s, a, b, &f));
                }
                (r, V::Dyn)
            }
            Head::Text(text) => {
                let mut f = sub_frame(frame, Origin::Function);
                f.span = Some(frame.span.unwrap_or(span));
                f.wrappers.push(Wrapper {
                    name: "&".into(),
                    args: vec![],
                });
                (self.ps_text(&text, &f), V::Dyn)
            }
            Head::Dynamic(text) => {
                let PsArgs {
                    args,
                    blocks,
                    redirects,
                    ..
                } = self.ps_args(s, rest, frame);
                let mut argv = vec![Word {
                    text,
                    dynamic: true,
                }];
                argv.extend(args_words(&args));
                let idx = self.push_ps_raw(argv.clone(), argv, redirects, input, frame, span, true);
                if let Some(i) = idx {
                    self.signal(Signal::DynamicProgram { index: i });
                }
                let f = sub_frame(frame, Origin::Function);
                for (a, b) in blocks {
                    let _ = self.ps_block(s, a, b, &f);
                }
                (idx.map(|i| Range { first: i, last: i }), V::Dyn)
            }
            Head::Download(v) => {
                let pa = self.ps_args(s, rest, frame);
                self.ps_cmdlet(
                    "Invoke-Expression",
                    &[],
                    pa.redirects,
                    input,
                    frame,
                    span,
                    Vec::new(),
                    &[v],
                )
            }
            Head::Name(name, explicit_call) => {
                self.ps_named(s, &name, explicit_call, rest, input, frame, span)
            }
        }
    }

    fn head_of(&mut self, s: &Src, parts: &[Part], frame: &Frame, call: bool) -> Head {
        if let [Part::Block(x, y)] = parts {
            return Head::Block(*x, *y);
        }
        // `& (gcm *ke-Exp*) …`, `.(Get-Command Stop-Com*) …`: the command looked up
        if let [Part::Paren(a, b)] = parts
            && let Some(name) = cmdlets::looked_up_command(&s.text(*a, *b))
        {
            let _ = self.word_value(s, parts, frame);
            return Head::Name(name, true);
        }
        let (t, d, _) = self.word_value(s, parts, frame);
        if d {
            // `& $sb` with a known block, `& ([scriptblock]::Create('…'))`
            let vars = self.ps.vars.clone();
            let known = match parts {
                [Part::Var(n)] => var_value(&|x: &str| vars.get(x).cloned(), n),
                [Part::Paren(a, b)] => Some(self.ps_eval(s, *a, *b, frame, false)),
                _ => None,
            };
            match known {
                Some(V::Block(text)) => return Head::Text(text),
                Some(v @ V::Download(_)) => return Head::Download(v),
                _ => {}
            }
            return Head::Dynamic(t);
        }
        Head::Name(t, call)
    }

    /// A command named `name`: an alias, a function, a cmdlet or a native program.
    #[allow(clippy::too_many_arguments)]
    fn ps_named(
        &mut self,
        s: &Src,
        name: &str,
        explicit_call: bool,
        rest: &[Tok],
        input: &Input,
        frame: &Frame,
        span: Span,
    ) -> (Option<Range>, V) {
        let PsArgs {
            args,
            blocks,
            redirects,
            values,
        } = self.ps_args(s, rest, frame);
        // `Microsoft.PowerShell.Management\Remove-Item`: the module prefix is dropped.
        let bare = match name.rsplit_once('\\') {
            Some((m, c)) if !m.contains(':') && cmdlets::is_cmdlet_name(c) => c,
            _ => name,
        };
        let lower = bare.to_ascii_lowercase();
        let user_alias = self.ps.aliases.get(&lower).cloned();
        let resolved = user_alias.clone().unwrap_or_else(|| bare.to_string());
        let rl = resolved.to_ascii_lowercase();
        // `sc stop WinDefend`: sc.exe's words, not Set-Content's
        let sc_exe = rl == "sc"
            && args_words(&args).first().is_some_and(|w| {
                matches!(
                    w.text.to_ascii_lowercase().as_str(),
                    "stop"
                        | "start"
                        | "delete"
                        | "config"
                        | "create"
                        | "query"
                        | "queryex"
                        | "qc"
                        | "pause"
                        | "continue"
                        | "failure"
                        | "sdset"
                        | "sdshow"
                        | "description"
                        | "control"
                ) || w.text.starts_with("\\\\")
            });
        let cmdlet = if self.ps.functions.contains(&rl) || sc_exe {
            None
        } else if let Some(c) = cmdlets::alias(&rl) {
            let raw_words = args_words(&args);
            if cmdlets::CMD_NAMES.contains(&rl.as_str())
                && raw_words.iter().any(|w| is_cmd_switch(&w.text))
            {
                // `rd /s /q C:\x`, `del /f /q x`: cmd.exe's reading
                let mut argv = vec![Word {
                    text: rl.clone(),
                    dynamic: false,
                }];
                argv.extend(raw_words);
                return (self.cmd_builtin_words(argv, redirects, frame, span), V::Dyn);
            }
            if cmdlets::UNIX_NAMES.contains(&rl.as_str()) && unix_style(c, &args) {
                None
            } else {
                Some(c.to_string())
            }
        } else if cmdlets::is_cmdlet_name(&resolved) && !resolved.contains(['\\', '/']) {
            Some(cmdlets::canonical_name(&resolved))
        } else {
            None
        };
        let is_function = self.ps.functions.contains(&rl);
        let Some(cmdlet) = cmdlet else {
            // A native program (or a script function): bash's reading of its argv.
            let mut argv = vec![Word {
                text: native_program(&resolved),
                dynamic: false,
            }];
            let windows = super::is_windows_program(&argv[0].text)
                || resolved.to_ascii_lowercase().ends_with(".exe");
            for w in args_words(&args) {
                let text = if windows && !w.dynamic {
                    winpath::canonical_if_path(&w.text)
                } else {
                    w.text
                };
                argv.push(Word {
                    text,
                    dynamic: w.dynamic,
                });
            }
            let _ = explicit_call;
            let r = if is_function {
                self.push_ps_raw(argv.clone(), argv, redirects, input, frame, span, false)
                    .map(|i| Range { first: i, last: i })
            } else {
                let p = Pending {
                    argv: argv.iter().map(xw).collect(),
                    redirects,
                    stdin: match input {
                        Input::Cmd(i, _) => Some(StdinSource::Pipe { index: *i }),
                        _ => None,
                    },
                    stdin_text: match input {
                        Input::Value(v) => v.text().map(|t| (t, true)),
                        _ => None,
                    },
                    span,
                    ..Pending::default()
                };
                let done = self.finish_simple(p, frame);
                self.keep_program_path(done, &resolved);
                done
            };
            let f = sub_frame(frame, Origin::Function);
            let mut r = r;
            for (a, b) in blocks {
                r = join(r, self.ps_block(s, a, b, &f));
            }
            return (r, V::Dyn);
        };
        self.ps_cmdlet(
            &cmdlet,
            &args,
            redirects,
            input,
            frame,
            span,
            blocks_owned(s, &blocks),
            &values,
        )
    }

    /// Record a cmdlet with its bound arguments and follow what it runs.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ps_cmdlet(
        &mut self,
        name: &str,
        args: &[Arg],
        redirects: Vec<Redirect>,
        input: &Input,
        frame: &Frame,
        span: Span,
        blocks: Vec<(String, usize, usize)>,
        values: &[V],
    ) -> (Option<Range>, V) {
        let spec = cmdlets::cmdlet(name);
        let canonical = spec.map_or_else(|| cmdlets::canonical_name(name), |c| c.name.to_string());
        let mut bound = bind::bind(spec, args);
        self.inherit(&canonical, &mut bound, input);
        // `Stop-Process -Id $_.Id` of a listed process whose names are known: those names
        if canonical == "Stop-Process" {
            for w in bound.args.iter_mut() {
                let t = w.text.strip_prefix("-Id=").unwrap_or(&w.text);
                if !w.dynamic
                    && !t.starts_with('-')
                    && !t.is_empty()
                    && !t.split(',').all(|x| x.trim().parse::<u64>().is_ok())
                {
                    w.text = format!("-Name={t}");
                }
            }
        }
        let mut raw = vec![Word {
            text: name.to_string(),
            dynamic: false,
        }];
        raw.extend(args_words(args));
        // SQL given to a cmdlet (`Invoke-Sqlcmd -Query "…"`), read like `sqlcmd -Q`'s
        let mut canon_argv = vec![Word {
            text: canonical.clone(),
            dynamic: false,
        }];
        canon_argv.extend(raw.iter().skip(1).cloned());
        let sql = crate::interp::one_liners(&canonical, &canon_argv);
        let mut frame = frame.clone();
        if canonical == "Start-Process"
            && bound
                .text("Verb")
                .is_some_and(|v| v.eq_ignore_ascii_case("runas"))
        {
            frame.privileged = true;
        }
        let Some(idx) = self.push_ps_cmd(
            &canonical,
            bound.args.clone(),
            raw,
            redirects,
            input,
            &frame,
            span,
        ) else {
            return (None, V::Dyn);
        };
        for (language, text, literal) in sql {
            self.nested.push(crate::NestedInput {
                language,
                text,
                program: canonical.clone(),
                command_index: idx,
                literal,
            });
        }
        let mut r = Some(Range {
            first: idx,
            last: idx,
        });
        let value = self.follow_cmdlet(
            idx, &canonical, &bound, input, &frame, span, &blocks, values, &mut r,
        );
        (r, value)
    }
}
