//! What a PowerShell cmdlet runs in turn, and what it takes from the pipeline: recording a
//! cmdlet in the shared model, `Invoke-Expression` of text, blocks and downloads,
//! `Invoke-Command`/`Start-Job`/`ForEach-Object` blocks (remote, per input value),
//! `Start-Process FILE ARGS`, aliases, variables and locations set by cmdlets, and the targets
//! a cmdlet inherits from a listing before it (`Get-ChildItem C:\ -Recurse | Remove-Item` is
//! `Remove-Item C:/ -Recurse`, `Get-Process | Stop-Process` stops every process).

use riskgate_model::Span;

use crate::ctx::{Frame, Norm, Pending, Range, XWord, join};
use crate::{Origin, Redirect, Signal, SimpleCommand, StdinSource, Word, Wrapper};

use super::bind::Bound;
use super::expr::V;
use super::ps::Input;
use super::syntax::native_program;

/// Cmdlets that download (their output is remote content).
pub(crate) const DOWNLOADERS: &[&str] = &[
    "Invoke-WebRequest",
    "Invoke-RestMethod",
    "Start-BitsTransfer",
    "curl",
    "wget",
];

/// Cmdlets that pass their input through, narrowed or reordered.
pub(crate) const FILTERS: &[&str] = &[
    "Where-Object",
    "Select-Object",
    "Sort-Object",
    "Get-Unique",
    "Select-String",
];

/// Listing cmdlets whose output feeds a file cmdlet (paths) and the file cmdlets.
pub(crate) const FILE_LISTINGS: &[&str] = &["Get-ChildItem", "Get-Item", "Resolve-Path"];
const FILE_TAKERS: &[&str] = &[
    "Remove-Item",
    "Clear-Content",
    "Set-Content",
    "Add-Content",
    "Copy-Item",
    "Move-Item",
    "Rename-Item",
    "Set-Acl",
    "Clear-Item",
];

/// A frame for text nested under the command at `span` (its commands get that span).
fn frame_with(frame: &Frame, origin: Origin, wrapper: &str, span: Span) -> Frame {
    let mut wrappers = frame.wrappers.clone();
    wrappers.push(Wrapper {
        name: wrapper.to_string(),
        args: vec![],
    });
    Frame {
        depth: frame.depth + 1,
        origin,
        wrappers,
        privileged: frame.privileged,
        remote: frame.remote.clone(),
        span: Some(frame.span.unwrap_or(span)),
    }
}

impl Norm<'_> {
    /// Record a cmdlet (`program` canonical) with its canonical args.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_ps_cmd(
        &mut self,
        program: &str,
        args: Vec<Word>,
        raw_argv: Vec<Word>,
        redirects: Vec<Redirect>,
        input: &Input,
        frame: &Frame,
        span: Span,
    ) -> Option<usize> {
        let xs: Vec<XWord> = raw_argv
            .iter()
            .map(|w| XWord {
                w: w.clone(),
                feed: crate::ctx::Feed::default(),
            })
            .collect();
        if self.at_command_limit(&xs) {
            return None;
        }
        let idx = self.commands.len();
        self.commands.push(SimpleCommand {
            program: program.to_string(),
            program_dynamic: false,
            args,
            raw_argv,
            wrappers: frame.wrappers.clone(),
            privileged: frame.privileged,
            remote: frame.remote.clone(),
            assignments: Vec::new(),
            redirects,
            stdin: match input {
                Input::Cmd(i, _) => Some(StdinSource::Pipe { index: *i }),
                _ => None,
            },
            origin: frame.origin,
            span,
            depth: frame.depth,
            iterates: None,
            // `$env:RAILS_ENV = 'production'` before it, as bash's `export`
            context_env: crate::model::ENV_CONTEXT_VARS
                .iter()
                .filter_map(|n| {
                    let v = self.env.get(*n)?.as_ref()?;
                    Some(((*n).to_string(), v.clone()))
                })
                .collect(),
            function_call: false,
        });
        Some(idx)
    }

    /// Record `$name = …` whose value is the output of command `from`: a command with no
    /// program, the assignment, and `from` on its stdin (data flows follow it to where
    /// `$name` is used, as they follow bash's `x=$(cmd)`).
    pub(crate) fn push_ps_assignment(
        &mut self,
        name: &str,
        from: usize,
        frame: &Frame,
        span: Span,
    ) {
        let name = name.trim_start_matches('$').to_ascii_lowercase();
        if name.is_empty() || name.starts_with("env:") {
            return;
        }
        if let Some(idx) = self.push_ps_cmd(
            "",
            Vec::new(),
            Vec::new(),
            Vec::new(),
            &Input::Cmd(from, String::new()),
            frame,
            span,
        ) && let Some(c) = self.commands.get_mut(idx)
        {
            if self.ps.var_cmds.len() < 4096 {
                self.ps.var_cmds.insert(name.clone(), idx);
            }
            c.assignments.push((
                name,
                Word {
                    text: String::new(),
                    dynamic: true,
                },
            ));
        }
    }

    /// Record a command whose argv stays as written (a script function, a dynamic name).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_ps_raw(
        &mut self,
        argv: Vec<Word>,
        raw: Vec<Word>,
        redirects: Vec<Redirect>,
        input: &Input,
        frame: &Frame,
        span: Span,
        dynamic: bool,
    ) -> Option<usize> {
        let program = argv.first().map(|w| w.text.clone()).unwrap_or_default();
        let idx = self.push_ps_cmd(
            &program,
            argv.get(1..).unwrap_or(&[]).to_vec(),
            raw,
            redirects,
            input,
            frame,
            span,
        )?;
        if let Some(c) = self.commands.get_mut(idx) {
            c.program_dynamic = dynamic;
        }
        Some(idx)
    }

    /// Targets a cmdlet takes from the listing before it in the pipeline.
    pub(crate) fn inherit(&mut self, canonical: &str, bound: &mut Bound, input: &Input) {
        let Input::Cmd(i, upstream) = input else {
            return;
        };
        let Some(up) = self.commands.get(*i) else {
            return;
        };
        let has_target = bound.args.iter().any(|w| !w.text.starts_with('-'));
        if has_target {
            return;
        }
        let up_pos: Vec<Word> = up.positionals().cloned().collect();
        let up_recurse = up.has_flag("-Recurse");
        if FILE_TAKERS.contains(&canonical) && FILE_LISTINGS.contains(&upstream.as_str()) {
            let paths = if up_pos.is_empty() {
                vec![Word {
                    text: ".".into(),
                    dynamic: false,
                }]
            } else {
                up_pos
            };
            let mut args = paths;
            args.append(&mut bound.args);
            if up_recurse && !args.iter().any(|w| w.text == "-Recurse") {
                args.push(Word {
                    text: "-Recurse".into(),
                    dynamic: false,
                });
            }
            bound.args = args;
            return;
        }
        // `Get-Process -Name x | Stop-Process`, `Get-Disk | Clear-Disk`: the upstream `Get-*`
        // selects what the cmdlet acts on; with nothing selected, every item.
        let verb = canonical.split('-').next().unwrap_or("");
        let acts = matches!(
            verb,
            "Remove"
                | "Stop"
                | "Clear"
                | "Format"
                | "Disable"
                | "Uninstall"
                | "Unregister"
                | "Initialize"
                | "Restart"
                | "Suspend"
                | "Set"
                | "Reset"
        );
        if !acts || !upstream.starts_with("Get-") {
            return;
        }
        let selectors: Vec<Word> = up
            .args
            .iter()
            .filter(|w| {
                let t = w.text.as_str();
                !t.starts_with('-')
                    || [
                        "-Name=",
                        "-Id=",
                        "-Number=",
                        "-DriveLetter=",
                        "-DisplayName=",
                        "-TaskName=",
                        "-TaskPath=",
                        "-Identity=",
                        "-ResourceGroupName=",
                        "-ProcessName=",
                    ]
                    .iter()
                    .any(|p| t.starts_with(p))
            })
            .cloned()
            .collect();
        if selectors.is_empty() {
            bound.args.push(Word {
                text: "-All".into(),
                dynamic: false,
            });
        } else {
            for w in selectors {
                let t = if w.text.starts_with('-') {
                    w.text.clone()
                } else {
                    format!("-Name={}", w.text.to_ascii_lowercase())
                };
                bound.args.push(Word {
                    text: t,
                    dynamic: w.dynamic,
                });
            }
        }
    }

    /// Follow what cmdlet `idx` runs; returns its value for assignments.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn follow_cmdlet(
        &mut self,
        idx: usize,
        canonical: &str,
        bound: &Bound,
        input: &Input,
        frame: &Frame,
        span: Span,
        blocks: &[(String, usize, usize)],
        values: &[V],
        r: &mut Option<Range>,
    ) -> V {
        let block_frame = |w: &str| frame_with(frame, Origin::Function, w, span);
        match canonical {
            "Invoke-Expression" => {
                let f = frame_with(frame, Origin::ShellString, "Invoke-Expression", span);
                let source = values.first().cloned().or_else(|| match input {
                    Input::Value(v) => Some(v.clone()),
                    _ => None,
                });
                let encoded = self
                    .ps
                    .elem_text
                    .to_ascii_lowercase()
                    .contains("frombase64string");
                match (source, input) {
                    (Some(V::Str(t)) | Some(V::Block(t)), _) => {
                        let start = self.commands.len();
                        *r = join(*r, self.ps_text(&t, &f));
                        if encoded {
                            self.signal(Signal::EncodedToShell {
                                decoder: idx,
                                shell: self
                                    .commands
                                    .len()
                                    .saturating_sub(1)
                                    .max(start)
                                    .min(idx.max(start)),
                                decoded: true,
                            });
                        }
                    }
                    (Some(V::Download(_)), _) => {
                        let d = self.last_downloader(idx).unwrap_or(idx);
                        self.signal(Signal::DownloadToShell {
                            downloader: d,
                            shell: idx,
                        });
                    }
                    (_, Input::Cmd(i, prog)) if DOWNLOADERS.contains(&prog.as_str()) => {
                        self.signal(Signal::DownloadToShell {
                            downloader: *i,
                            shell: idx,
                        });
                    }
                    _ => {
                        if encoded {
                            self.signal(Signal::EncodedToShell {
                                decoder: idx,
                                shell: idx,
                                decoded: false,
                            });
                        }
                        self.signal(Signal::DynamicEval { index: idx });
                    }
                }
            }
            "Invoke-Command" | "Start-Job" | "Register-ScheduledJob" | "Start-ThreadJob" => {
                let mut f = block_frame(canonical);
                if canonical == "Invoke-Command"
                    && let Some(host) = bound.text("ComputerName")
                {
                    f.remote = Some(host.to_string());
                }
                for (t, _, _) in blocks {
                    *r = join(*r, self.ps_text(t, &f));
                }
                // `Invoke-Command -ScriptBlock $sb` with a known block
                for v in values {
                    if let V::Block(t) = v
                        && !blocks.iter().any(|(b, _, _)| b == t)
                    {
                        *r = join(*r, self.ps_text(t, &f));
                    }
                }
            }
            "ForEach-Object" | "Where-Object" => {
                let f = block_frame(canonical);
                let items: Vec<V> = match input {
                    Input::Value(v) => v
                        .items()
                        .into_iter()
                        .filter(|x| x.text().is_some())
                        .take(8)
                        .collect(),
                    // `Get-ChildItem P -Recurse | ForEach-Object { Remove-Item $_.FullName }`:
                    // `$_` is each item of the listing, `P/**` (the tree) or `P/*`.
                    Input::Cmd(i, up) if FILE_LISTINGS.contains(&up.as_str()) => {
                        self.listing_items(*i)
                    }
                    _ => Vec::new(),
                };
                // each item a command outputs is `$_` in the block: data flows follow it
                if let (true, Input::Cmd(i, _), "ForEach-Object") =
                    (items.is_empty(), input, canonical)
                    && !blocks.is_empty()
                {
                    self.push_ps_assignment("_", *i, frame, span);
                }
                // `Get-Process | ForEach-Object { $_.Kill() }`: each item a process
                let each = match input {
                    Input::Cmd(i, _)
                        if self
                            .commands
                            .get(*i)
                            .is_some_and(|c| c.program == "Get-Process") =>
                    {
                        V::Obj(format!("process:{}", self.process_names(*i)))
                    }
                    _ => V::Dyn,
                };
                for (t, _, _) in blocks {
                    if items.is_empty() {
                        self.ps_set("_", each.clone());
                        self.ps_set("psitem", each.clone());
                        *r = join(*r, self.ps_text(t, &f));
                    }
                    for it in &items {
                        self.ps_set("_", it.clone());
                        self.ps_set("psitem", it.clone());
                        *r = join(*r, self.ps_text(t, &f));
                    }
                }
            }
            "Start-Process" => {
                if let Some(file) = bound.text("FilePath") {
                    let mut argv = vec![Word {
                        text: native_program(file),
                        dynamic: false,
                    }];
                    if let Some(list) = bound.value("ArgumentList") {
                        for (t, d) in list {
                            if list.len() == 1 && !d {
                                argv.extend(split_args(t).into_iter().map(|w| Word {
                                    text: w,
                                    dynamic: false,
                                }));
                            } else {
                                argv.push(Word {
                                    text: t.clone(),
                                    dynamic: *d,
                                });
                            }
                        }
                    }
                    let f = frame_with(frame, frame.origin, "Start-Process", span);
                    let p = Pending {
                        argv: argv
                            .into_iter()
                            .map(|w| XWord {
                                w,
                                feed: crate::ctx::Feed::default(),
                            })
                            .collect(),
                        span,
                        ..Pending::default()
                    };
                    if f.depth <= self.limits.max_depth {
                        let done = self.finish_simple(p, &f);
                        self.keep_program_path(done, file);
                        *r = join(*r, done);
                    }
                }
            }
            // `$acl.SetAccessRule((New-Object …FileSystemAccessRule('Everyone','FullControl',
            // 'Allow'))); Set-Acl P $acl`: the access rules built before it are what it grants
            "Set-Acl" => {
                let grants: Vec<String> = self
                    .commands
                    .iter()
                    .take(idx)
                    .filter(|c| {
                        c.program == "New-Object"
                            && c.args
                                .iter()
                                .any(|a| a.text.to_ascii_lowercase().contains("accessrule"))
                    })
                    .filter_map(|c| {
                        c.args
                            .iter()
                            .find_map(|a| a.text.strip_prefix("-ArgumentList="))
                            .map(|t| t.split_whitespace().take(2).collect::<Vec<_>>().join(":"))
                    })
                    .take(8)
                    .collect();
                if let Some(c) = self.commands.get_mut(idx) {
                    for g in grants {
                        c.args.push(Word {
                            text: format!("-Grant={g}"),
                            dynamic: false,
                        });
                    }
                }
            }
            "Set-Alias" | "New-Alias" => {
                if let (Some(n), Some(v)) = (bound.text("Name"), bound.text("Value"))
                    && self.ps.aliases.len() < 1024
                {
                    self.ps
                        .aliases
                        .insert(n.to_ascii_lowercase(), v.to_string());
                }
            }
            "Set-Variable" | "New-Variable" => {
                if let Some(n) = bound.text("Name") {
                    let v = bound
                        .value("Value")
                        .and_then(|v| v.first())
                        .filter(|(_, d)| !d)
                        .map_or(V::Dyn, |(t, _)| V::Str(t.clone()));
                    self.ps_set(n, v);
                }
            }
            _ => {
                if !blocks.is_empty() {
                    let f = block_frame(canonical);
                    for (t, _, _) in blocks {
                        *r = join(*r, self.ps_text(t, &f));
                    }
                }
            }
        }
        if DOWNLOADERS.contains(&canonical) {
            let url = bound
                .args
                .iter()
                .find(|w| !w.text.starts_with('-'))
                .map_or_else(|| "URL".to_string(), |w| w.text.clone());
            return V::Download(url);
        }
        // `$f = Join-Path $env:TEMP 'x.ps1'`: the path, for what is written to it and run
        if canonical == "Join-Path"
            && let (Some(a), Some(b)) = (bound.value("Path"), bound.value("ChildPath"))
            && let ([(a, false)], [(b, false)]) = (a, b)
        {
            return V::Str(format!(
                "{}\\{}",
                a.trim_end_matches(['\\', '/']),
                b.trim_start_matches(['\\', '/'])
            ));
        }
        // `$wc = New-Object ('Net.'+'WebClient')`: the object, for its methods later
        if canonical == "New-Object"
            && let Some(t) = bound.text("TypeName")
        {
            return V::Obj(super::expr::type_name(&t.replace('`', "")));
        }
        V::Dyn
    }

    /// Keep the path a native program was run by (`%TEMP%\\a.bat`, `& "$env:TEMP\\u.exe"`) as
    /// the first word of its raw argv (its program is the bare name): flows compare it with
    /// the files written before.
    pub(crate) fn keep_program_path(&mut self, r: Option<Range>, written: &str) {
        let written = written.trim_matches('"');
        if !written.contains(['\\', '/']) || written.contains("://") {
            return;
        }
        let Some(r) = r else {
            return;
        };
        let name = native_program(written);
        let path = super::winpath::canonical(written);
        let last = r.last.min(self.commands.len().saturating_sub(1));
        if let Some(c) = self.commands.get_mut(r.first..=last).and_then(|cs| {
            cs.iter_mut()
                .find(|c| c.program.eq_ignore_ascii_case(&name))
        }) && let Some(w) = c.raw_argv.first_mut()
            && !w.dynamic
        {
            w.text = path;
        }
    }

    /// The last downloader recorded before command `before`.
    fn last_downloader(&self, before: usize) -> Option<usize> {
        (0..before).rev().find(|i| {
            self.commands.get(*i).is_some_and(|c| {
                DOWNLOADERS.contains(&c.program.as_str())
                    || c.program == "curl"
                    || c.program == "wget"
            })
        })
    }
}

/// Split a command line as Windows programs receive it (blanks, double quotes).
pub(crate) fn split_args(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in t.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if !quoted && c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => cur.push(c),
        }
        if out.len() >= 256 {
            break;
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}
