//! .NET in PowerShell expressions: members of strings (`.Replace()`, `.ToLower()`), static
//! calls (`[Convert]::FromBase64String`, `[Text.Encoding]::Unicode.GetString`,
//! `[string]::Join`, `[char]::ConvertFromUtf32`, `[scriptblock]::Create`) and the calls that
//! act like cmdlets, collected as [`Synth`] commands (`[IO.File]::Delete`,
//! `[IO.Directory]::Delete(P, $true)`, `Net.WebClient` downloads, `[Diagnostics.Process]::Start`,
//! `[Reflection.Assembly]::Load`, `$ExecutionContext.InvokeCommand.InvokeScript`, WebClient
//! uploads, a listed process's `.Kill()`); indexes and ranges (`$s[-1..-3]`); and the operators'
//! helpers (`-join`, `-replace`, `-f`).

use base64::Engine as _;

use super::expr::{Eval, MAX_TEXT, Synth, V};

/// The argument of a synthesized `Invoke-Expression` that runs downloaded code in the process
/// (an assembly loaded from a download): followed by the URL.
pub(crate) const DOWNLOADED: &str = "\u{0}downloaded:";

impl Eval<'_> {
    pub(crate) fn member(&mut self, on: V, name: &str, args: &[V]) -> V {
        let arg_text = |k: usize| args.get(k).and_then(V::text);
        match (&on, name) {
            (V::Str(s), "replace") => match (arg_text(0), arg_text(1)) {
                (Some(a), Some(b)) if !a.is_empty() => V::Str(s.replace(&a, &b)),
                _ => V::Dyn,
            },
            (V::Str(s), "tolower" | "tolowerinvariant") => V::Str(s.to_lowercase()),
            (V::Str(s), "toupper" | "toupperinvariant") => V::Str(s.to_uppercase()),
            (V::Str(s), "trim") => V::Str(s.trim().to_string()),
            (V::Str(s), "trimstart") => V::Str(s.trim_start().to_string()),
            (V::Str(s), "trimend") => V::Str(s.trim_end().to_string()),
            (V::Str(s), "tostring") => V::Str(s.clone()),
            // a path's item (`$_` of a file listing): its full name is the path
            (V::Str(s), "fullname" | "pspath" | "fullpath") => V::Str(s.clone()),
            (V::Str(s), "length") => V::Num(s.chars().count() as i64),
            (V::Arr(a), "length" | "count") => V::Num(a.len() as i64),
            (V::Str(s), "tochararray") => {
                V::Arr(s.chars().map(|c| V::Str(c.to_string())).collect())
            }
            // what a download gives, in any form: its content, its task's result, its bytes
            (V::Download(u), "content" | "tostring" | "result" | "rawcontent" | "getawaiter") => {
                V::Download(u.clone())
            }
            // `[scriptblock]::Create($s).Invoke()`: the block's text runs, as `iex` runs it
            (V::Block(t), "invoke" | "invokereturnasis" | "invokewithcontext") => {
                self.calls.push(Synth {
                    argv: vec!["Invoke-Expression".into(), t.clone()],
                    via: "ScriptBlock::Invoke".into(),
                });
                V::Dyn
            }
            (V::Obj(t), m) => self.static_or_object(t, m, args),
            _ => V::Dyn,
        }
    }

    /// `v[INDEX]`: one item (negative counts from the end), a range `a..b` (either way) or a
    /// list of indexes, of an array or of a text's characters.
    pub(crate) fn index(&mut self, v: V, from: usize, to: usize) -> V {
        let items: Vec<V> = match &v {
            V::Str(t) => t.chars().map(|c| V::Str(c.to_string())).collect(),
            V::Arr(a) => a.clone(),
            _ => return V::Dyn,
        };
        let len = items.len() as i64;
        let text = self.s.text(from, to);
        let mut idx: Vec<i64> = Vec::new();
        if let Some(k) = text.find("..") {
            let a = from + text[..k].chars().count();
            let lo = self.eval(from, a);
            let hi = self.eval(a + 2, to);
            let (V::Num(lo), V::Num(hi)) = (lo, hi) else {
                return V::Dyn;
            };
            if lo.abs_diff(hi) > MAX_TEXT as u64 {
                return V::Dyn;
            }
            if lo <= hi {
                idx.extend(lo..=hi);
            } else {
                idx.extend((hi..=lo).rev());
            }
        } else {
            for x in self.eval(from, to).items() {
                match x {
                    V::Num(n) => idx.push(n),
                    _ => return V::Dyn,
                }
            }
        }
        let pick = |n: i64| {
            let k = if n < 0 { len + n } else { n };
            (0..len).contains(&k).then(|| items[k as usize].clone())
        };
        let picked: Vec<V> = idx.into_iter().filter_map(pick).collect();
        match (&v, picked.len()) {
            (_, 1) if !text.contains("..") && !text.contains(',') => {
                picked.into_iter().next().unwrap_or(V::Dyn)
            }
            _ => V::Arr(picked),
        }
    }

    fn static_or_object(&mut self, ty: &str, m: &str, args: &[V]) -> V {
        let text = |k: usize| args.get(k).and_then(V::text);
        let via = |t: &str, m: &str| format!("{t}::{m}");
        match (ty, m) {
            ("psreadlineoption", "historysavepath") => V::Str(
                "~/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt"
                    .into(),
            ),
            // decoding downloaded text gives downloaded bytes
            ("[convert]", "frombase64string") | (_, "getstring" | "getbytes")
                if matches!(args.first(), Some(V::Download(_))) =>
            {
                args.first().cloned().unwrap_or(V::Dyn)
            }
            // `[Net.Http.HttpClient]::new()`: its GET methods download
            ("[net.http.httpclient]" | "[system.net.http.httpclient]", "new") => {
                V::Obj("net.http.httpclient".into())
            }
            (
                "net.http.httpclient",
                "getbytearrayasync" | "getstringasync" | "getstreamasync" | "getasync",
            ) => {
                let url = text(0).unwrap_or_else(|| "URL".into());
                self.calls.push(Synth {
                    argv: vec!["Invoke-WebRequest".into(), url.clone()],
                    via: via("HttpClient", m),
                });
                V::Download(url)
            }
            // downloaded bytes written to a file: the download saved there
            ("[io.file]", "writeallbytes" | "writealltext" | "writealllines")
                if matches!(args.get(1), Some(V::Download(_))) =>
            {
                let url = match args.get(1) {
                    Some(V::Download(u)) => u.clone(),
                    _ => "URL".into(),
                };
                let mut argv = vec!["Invoke-WebRequest".to_string(), url];
                argv.extend(text(0).map(|p| format!("-OutFile={p}")));
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            // an assembly loaded from downloaded bytes: received code, run in the process
            ("[reflection.assembly]", "load" | "unsafeloadfrom")
                if matches!(args.first(), Some(V::Download(_))) =>
            {
                let url = match args.first() {
                    Some(V::Download(u)) => u.clone(),
                    _ => "URL".into(),
                };
                self.calls.push(Synth {
                    argv: vec!["Invoke-Expression".into(), format!("{DOWNLOADED}{url}")],
                    via: via(ty, m),
                });
                V::Obj("assembly".into())
            }
            ("[convert]", "frombase64string") => match text(0) {
                Some(b) => base64::engine::general_purpose::STANDARD
                    .decode(b.trim().as_bytes())
                    .ok()
                    .filter(|d| d.len() <= MAX_TEXT)
                    .map_or(V::Dyn, V::Bytes),
                None => V::Dyn,
            },
            (
                "[text.encoding]",
                "unicode" | "utf8" | "ascii" | "default" | "utf32" | "bigendianunicode" | "latin1",
            ) => V::Obj(format!("encoding:{m}")),
            (enc, "getstring") if enc.starts_with("encoding:") => match args.first() {
                Some(V::Bytes(b)) => decode(b, enc.trim_start_matches("encoding:")),
                _ => V::Dyn,
            },
            ("[string]", "join") => match text(0) {
                Some(sep) => {
                    let rest: Vec<V> = args.iter().skip(1).flat_map(V::items).collect();
                    join(&V::Arr(rest), &sep)
                }
                None => V::Dyn,
            },
            ("[string]", "concat") => join(&V::Arr(args.to_vec()), ""),
            ("[char]", "convertfromutf32") => match args.first() {
                Some(V::Num(n)) => {
                    char::from_u32(*n as u32).map_or(V::Dyn, |c| V::Str(c.to_string()))
                }
                _ => V::Dyn,
            },
            // a block made of downloaded text runs the download
            ("[scriptblock]", "create") | ("invokecommand", "newscriptblock") => {
                match args.first() {
                    Some(V::Download(u)) => V::Download(u.clone()),
                    _ => text(0).map_or(V::Dyn, V::Block),
                }
            }
            ("executioncontext", "invokecommand") => V::Obj("invokecommand".into()),
            // a listed process's name or id: the names the listing selected (`Stop-Process -Id
            // $_.Id` stops those processes)
            (p, "id" | "name" | "processname") if p.starts_with("process:") => {
                V::Str(p.trim_start_matches("process:").to_string())
            }
            // `$p.Kill()` of a process a `Get-Process` listing gave
            (p, "kill") if p.starts_with("process:") => {
                let names = p.trim_start_matches("process:");
                self.calls.push(Synth {
                    argv: vec![
                        "Stop-Process".into(),
                        format!("-Name={names}"),
                        "-Force".into(),
                    ],
                    via: "Process::Kill".into(),
                });
                V::Dyn
            }
            ("[powershell]", "create") => V::Obj("powershell".into()),
            // `$ExecutionContext.InvokeCommand.InvokeScript(T)`,
            // `[PowerShell]::Create().AddScript(T).Invoke()`: T runs as `iex` runs it
            ("invokecommand", "invokescript") | ("powershell", "addscript") => {
                let mut argv = vec!["Invoke-Expression".to_string()];
                argv.extend(text(0));
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                if ty == "powershell" {
                    V::Obj("powershell".into())
                } else {
                    V::Dyn
                }
            }
            ("net.webclient" | "net.webclient:", "downloadstring" | "downloaddata") => {
                let url = text(0).unwrap_or_else(|| "URL".into());
                self.calls.push(Synth {
                    argv: vec!["Invoke-WebRequest".into(), url.clone()],
                    via: via("Net.WebClient", m),
                });
                V::Download(url)
            }
            // `UploadData(URL, $bytes)`, `UploadString(URL, 'POST', $s)`, `UploadFile(URL,
            // PATH)`: a request that sends, its data as written when not known
            (
                "net.webclient",
                "uploaddata" | "uploadstring" | "uploadfile" | "uploadvalues" | "uploaddataasync"
                | "uploadstringasync" | "uploadfileasync",
            ) => {
                let url = text(0).unwrap_or_else(|| "URL".into());
                let last = args.len().saturating_sub(1);
                let data = text(last)
                    .filter(|_| last > 0)
                    .or_else(|| {
                        let src = self.call_src.rsplit(',').next().unwrap_or("").trim();
                        src.starts_with('$').then(|| src.to_string())
                    })
                    .unwrap_or_else(|| "(data)".into());
                let flag = if m.starts_with("uploadfile") {
                    "-InFile"
                } else {
                    "-Body"
                };
                self.calls.push(Synth {
                    argv: vec![
                        "Invoke-WebRequest".into(),
                        url,
                        "-Method=POST".into(),
                        format!("{flag}={data}"),
                    ],
                    via: via("Net.WebClient", m),
                });
                V::Dyn
            }
            ("net.webclient", "downloadfile") => {
                let url = text(0).unwrap_or_else(|| "URL".into());
                let mut argv = vec!["Invoke-WebRequest".into(), url];
                if let Some(p) = text(1) {
                    argv.push(format!("-OutFile={p}"));
                }
                self.calls.push(Synth {
                    argv,
                    via: via("Net.WebClient", m),
                });
                V::Dyn
            }
            ("[io.file]", "delete")
            | ("[io.directory]", "delete")
            | ("io.fileinfo" | "io.directoryinfo", "delete") => {
                let mut argv = vec!["Remove-Item".to_string()];
                argv.extend(text(0));
                let recurse = ty == "[io.directory]"
                    && args
                        .get(1)
                        .is_some_and(|a| matches!(a, V::Str(s) if s.eq_ignore_ascii_case("true")));
                if recurse {
                    argv.push("-Recurse".into());
                }
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            (
                "[io.file]",
                "writealltext" | "writeallbytes" | "writealllines" | "appendalltext"
                | "appendalllines" | "create",
            ) => {
                let prog = if m.starts_with("append") {
                    "Add-Content"
                } else {
                    "Set-Content"
                };
                let mut argv = vec![prog.to_string()];
                argv.extend(text(0));
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            ("[io.file]", "readallbytes" | "readalltext" | "readalllines" | "openread") => {
                let mut argv = vec!["Get-Content".to_string()];
                argv.extend(text(0));
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            ("[io.file]", "copy" | "move") | ("[io.directory]", "move") => {
                let prog = if m == "copy" {
                    "Copy-Item"
                } else {
                    "Move-Item"
                };
                let mut argv = vec![prog.to_string()];
                argv.extend(text(0));
                argv.extend(text(1));
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            ("[diagnostics.process]", "start") => {
                let mut argv = vec!["Start-Process".to_string()];
                argv.extend(text(0));
                if let Some(a) = text(1) {
                    argv.push(format!("-ArgumentList={a}"));
                }
                self.calls.push(Synth {
                    argv,
                    via: via(ty, m),
                });
                V::Dyn
            }
            ("[reflection.assembly]", "load" | "loadfile" | "loadfrom" | "unsafeloadfrom") => {
                self.calls.push(Synth {
                    argv: vec![
                        "Add-Type".into(),
                        "-AssemblyName=(loaded at run time)".into(),
                    ],
                    via: via(ty, m),
                });
                V::Obj("assembly".into())
            }
            _ => V::Dyn,
        }
    }
}

pub(crate) fn join(v: &V, sep: &str) -> V {
    let items = v.items();
    let mut out = String::new();
    for (k, x) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(sep);
        }
        match x.text() {
            Some(t) => out.push_str(&t),
            None => return V::Dyn,
        }
        if out.len() > MAX_TEXT {
            return V::Dyn;
        }
    }
    V::Str(out)
}

pub(crate) fn replace_ci(text: &str, pat: &str, with: &str) -> String {
    if pat.is_empty() {
        return text.to_string();
    }
    let lt = text.to_lowercase();
    let lp = pat.to_lowercase();
    if lt.len() != text.len() {
        return text.replace(pat, with);
    }
    let mut out = String::new();
    let mut i = 0;
    while let Some(k) = lt.get(i..).and_then(|r| r.find(&lp)) {
        out.push_str(&text[i..i + k]);
        out.push_str(with);
        i += k + lp.len();
    }
    out.push_str(&text[i..]);
    out
}

/// `'{0}{1}' -f 'a','b'`.
pub(crate) fn format_op(fmt: &str, args: &[V]) -> V {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '{' {
            if chars.peek() == Some(&'{') {
                chars.next();
                out.push('{');
                continue;
            }
            let mut idx = String::new();
            for d in chars.by_ref() {
                if d == '}' {
                    break;
                }
                idx.push(d);
            }
            let n: Option<usize> = idx
                .split([',', ':'])
                .next()
                .and_then(|x| x.trim().parse().ok());
            match n.and_then(|n| args.get(n)).and_then(V::text) {
                Some(t) => out.push_str(&t),
                None => return V::Dyn,
            }
        } else if c == '}' && chars.peek() == Some(&'}') {
            chars.next();
            out.push('}');
        } else {
            out.push(c);
        }
        if out.len() > MAX_TEXT {
            return V::Dyn;
        }
    }
    V::Str(out)
}

/// Bytes decoded as `Encoding.X.GetString` would.
pub(crate) fn decode(b: &[u8], enc: &str) -> V {
    match enc {
        "unicode" => {
            if !b.len().is_multiple_of(2) {
                return V::Dyn;
            }
            let units: Vec<u16> = b
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16(&units).map_or(V::Dyn, V::Str)
        }
        "bigendianunicode" => {
            if !b.len().is_multiple_of(2) {
                return V::Dyn;
            }
            let units: Vec<u16> = b
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16(&units).map_or(V::Dyn, V::Str)
        }
        "utf32" => V::Dyn,
        _ => V::Str(String::from_utf8_lossy(b).into_owned()),
    }
}
