//! Parameter binding: a cmdlet's arguments as PowerShell binds them, written in one canonical
//! form. Parameter names resolve through the cmdlet's table (exact names, aliases, unambiguous
//! prefixes, any case: `-rec`, `-Fo`, `-LP`); positional arguments bind the positional
//! parameters in order; then the canonical argv is: the positional parameters' values as
//! positionals, in position order (`Remove-Item -Path C:\x` and `ri C:\x` are both
//! `Remove-Item C:/x`), then switches as `-Name` and other values as `-Name=value`, in the order
//! written. Switches set to `$false` are left out, except `-Confirm:$false` and
//! `-WhatIf:$false`, which say something (`-Confirm=false`). Path parameters are written in
//! canonical Windows form ([`super::winpath`]).

use crate::Word;

/// A value's items: text and whether it is only known at run time.
type Items = Vec<(String, bool)>;
/// A named parameter: canonical name, kind, value.
type Named = (String, u8, Items);

use super::cmdlets::Cmdlet;
use super::winpath;

/// One argument of a command, after evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    /// `-Name` / `-Name:` as written.
    Param { name: String, colon: bool },
    /// A value: its items (one unless written as an array `a,b`), each text and whether it is
    /// only known at run time.
    Value(Vec<(String, bool)>),
    /// `--`.
    EndOfParams,
}

/// The canonical form of a cmdlet's arguments.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bound {
    pub args: Vec<Word>,
    /// Named values by canonical parameter name (positional ones included), as given.
    pub values: Vec<(String, Vec<(String, bool)>)>,
}

impl Bound {
    /// The value of parameter `name` (canonical), if bound.
    pub(crate) fn value(&self, name: &str) -> Option<&[(String, bool)]> {
        self.values
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first item of parameter `name` as text.
    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        self.value(name)
            .and_then(|v| v.first())
            .map(|(t, _)| t.as_str())
    }
}

fn falsy(t: &str) -> bool {
    matches!(
        t.to_ascii_lowercase().trim_start_matches('$'),
        "false" | "0" | "" | "null"
    )
}

fn truthy_text(t: &str) -> String {
    match t.to_ascii_lowercase().as_str() {
        "$true" | "true" => "true".into(),
        "$false" | "false" => "false".into(),
        _ => t.to_string(),
    }
}

fn word(text: String, dynamic: bool) -> Word {
    Word { text, dynamic }
}

/// Bind `args` for the cmdlet `spec` (or an unknown one: its parameters kept as written, its
/// other words positionals).
pub(crate) fn bind(spec: Option<&Cmdlet>, args: &[Arg]) -> Bound {
    let Some(spec) = spec else {
        return as_written(args);
    };
    bind_known(spec, args)
}

/// An unknown cmdlet's arguments in the order written: `-Name:value` as `-Name=value`, other
/// parameters as `-Name`, values as positionals (paths in canonical form).
fn as_written(args: &[Arg]) -> Bound {
    let mut out = Bound::default();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a {
            Arg::EndOfParams => out.args.push(word("--".into(), false)),
            Arg::Value(v) => {
                for (t, d) in v {
                    let text = if *d {
                        t.clone()
                    } else {
                        winpath::canonical_if_path(t)
                    };
                    out.args.push(word(text, *d));
                }
            }
            Arg::Param { name, colon: true } => {
                let v = match args.get(i) {
                    Some(Arg::Value(v)) => {
                        i += 1;
                        v.clone()
                    }
                    _ => Vec::new(),
                };
                let dynamic = v.iter().any(|(_, d)| *d);
                let joined: Vec<String> = v.iter().map(|(t, _)| truthy_text(t)).collect();
                out.args
                    .push(word(format!("-{name}={}", joined.join(",")), dynamic));
                out.values.push((name.clone(), v));
            }
            Arg::Param { name, colon: false } => {
                out.args.push(word(format!("-{name}"), false));
                if let Some(Arg::Value(v)) = args.get(i) {
                    out.values.push((name.clone(), v.clone()));
                }
            }
        }
    }
    out
}

fn bind_known(spec: &Cmdlet, args: &[Arg]) -> Bound {
    let spec = Some(spec);
    let mut named: Vec<Named> = Vec::new();
    let mut order: Vec<usize> = Vec::new(); // indexes into `named`, as written
    let mut positionals: Vec<Vec<(String, bool)>> = Vec::new();
    let mut switches: Vec<(String, bool)> = Vec::new(); // name, on
    let mut i = 0;
    let mut params_done = false;
    while let Some(a) = args.get(i) {
        i += 1;
        match a {
            Arg::EndOfParams => params_done = true,
            Arg::Value(v) => positionals.push(v.clone()),
            Arg::Param { name, colon } if !params_done => {
                let p = spec.and_then(|c| c.param(name));
                let (canon, kind) = match p {
                    Some(p) => (p.name.to_string(), p.kind),
                    // Unknown: a switch unless a value is attached with `:`.
                    None => (name.clone(), if *colon { b'v' } else { b's' }),
                };
                if kind == b's' {
                    let on = if *colon {
                        match args.get(i) {
                            Some(Arg::Value(v)) => {
                                i += 1;
                                !v.first().is_some_and(|(t, d)| !d && falsy(t))
                            }
                            _ => true,
                        }
                    } else {
                        true
                    };
                    switches.push((canon, on));
                    continue;
                }
                let value = match args.get(i) {
                    Some(Arg::Value(v)) => {
                        i += 1;
                        Some(v.clone())
                    }
                    _ => None,
                };
                match value {
                    Some(v) => {
                        order.push(named.len());
                        named.push((canon, kind, v));
                    }
                    None => switches.push((canon, true)),
                }
            }
            Arg::Param { name, .. } => positionals.push(vec![(format!("-{name}"), false)]),
        }
    }
    // Positional arguments bind the positional parameters not bound by name, in order.
    let mut by_position: Vec<(u8, Named)> = Vec::new();
    let mut extra: Vec<Vec<(String, bool)>> = Vec::new();
    if let Some(c) = spec {
        let mut pos = 0u8;
        for v in positionals {
            let slot = loop {
                match c.at(pos) {
                    Some(p) if named.iter().any(|(n, _, _)| n == p.name) => pos += 1,
                    other => break other,
                }
            };
            match slot {
                Some(p) => {
                    by_position.push((pos, (p.name.to_string(), p.kind, v)));
                    pos += 1;
                }
                None => extra.push(v),
            }
        }
    } else {
        extra = positionals;
    }
    // Named values of positional parameters move to their position (`-Path X` is `X`);
    // `-LiteralPath` is read as `-Path`.
    let mut rest: Vec<Named> = Vec::new();
    for k in order {
        let Some((n, kind, v)) = named.get(k).cloned() else {
            continue;
        };
        let position = spec
            .and_then(|c| c.param(&n))
            .and_then(|p| p.position)
            .or_else(|| {
                (n == "LiteralPath")
                    .then(|| spec.and_then(|c| c.param("Path")).and_then(|p| p.position))
                    .flatten()
            });
        match position {
            Some(pos) => by_position.push((pos, (n, kind, v))),
            None => rest.push((n, kind, v)),
        }
    }
    by_position.sort_by_key(|(p, ..)| *p);
    let mut out = Bound::default();
    let item = |(t, d): &(String, bool), kind: u8| -> Word {
        let text = if kind == b'p' && !d {
            winpath::canonical(t)
        } else {
            truthy_text(t)
        };
        word(text, *d)
    };
    for (_, (n, kind, v)) in &by_position {
        // A value that reads as options or words (`-ArgumentList '-c x'`) stays named, so
        // that it is not taken for flags or several positionals.
        if *kind == b'v'
            && v.iter()
                .any(|(t, _)| t.starts_with('-') || t.contains(char::is_whitespace))
        {
            rest.push((n.clone(), *kind, v.clone()));
            continue;
        }
        for it in v {
            out.args.push(item(it, *kind));
        }
        out.values.push((n.clone(), v.clone()));
    }
    for v in &extra {
        for it in v {
            // An unbound word: a path when it reads as one.
            let text = if it.1 {
                it.0.clone()
            } else {
                winpath::canonical_if_path(&it.0)
            };
            out.args.push(word(text, it.1));
        }
    }
    for (n, kind, v) in &rest {
        let dynamic = v.iter().any(|(_, d)| *d);
        // Enumeration-like values are case-insensitive: `-Verb RunAs` is `-Verb=runas`.
        let joined: Vec<String> = v
            .iter()
            .map(|it| {
                let t = item(it, *kind).text;
                if *kind == b'v'
                    && !it.1
                    && !t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    t.to_ascii_lowercase()
                } else {
                    t
                }
            })
            .collect();
        out.args
            .push(word(format!("-{n}={}", joined.join(",")), dynamic));
        out.values.push((n.clone(), v.clone()));
    }
    for (n, on) in switches {
        if on {
            out.args.push(word(format!("-{n}"), false));
        } else if n == "Confirm" || n == "WhatIf" {
            out.args.push(word(format!("-{n}=false"), false));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::windows::cmdlets::cmdlet;

    fn p(n: &str) -> Arg {
        Arg::Param {
            name: n.into(),
            colon: false,
        }
    }
    fn pc(n: &str) -> Arg {
        Arg::Param {
            name: n.into(),
            colon: true,
        }
    }
    fn v(t: &str) -> Arg {
        Arg::Value(vec![(t.into(), false)])
    }

    fn canon(c: &str, args: &[Arg]) -> String {
        bind(cmdlet(c), args)
            .args
            .iter()
            .map(|w| w.text.clone())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn remove_item_spellings_agree() {
        let want = "C:/Users/me -Recurse -Force";
        assert_eq!(
            canon(
                "Remove-Item",
                &[p("Recurse"), p("Force"), v("C:\\Users\\me")]
            ),
            want
        );
        assert_eq!(
            canon(
                "Remove-Item",
                &[p("path"), v("C:\\Users\\me"), p("r"), p("fo")]
            ),
            want
        );
        assert_eq!(
            canon(
                "Remove-Item",
                &[p("LiteralPath"), v("C:/Users/me"), p("Rec"), p("Force")]
            ),
            want
        );
        assert_eq!(
            canon(
                "Remove-Item",
                &[v("C:\\Users\\me"), pc("Recurse"), v("$true"), p("Force")]
            ),
            want
        );
        // -Recurse:$false is off; -Confirm:$false is said
        assert_eq!(
            canon("Remove-Item", &[v("x"), pc("Recurse"), v("$false")]),
            "x"
        );
        assert_eq!(
            canon("Remove-Item", &[v("x"), pc("Confirm"), v("$false")]),
            "x -Confirm=false"
        );
    }

    #[test]
    fn values_and_positions() {
        assert_eq!(
            canon(
                "Copy-Item",
                &[p("Destination"), v("D:\\bak"), v("C:\\data"), p("Recurse")]
            ),
            "C:/data D:/bak -Recurse"
        );
        assert_eq!(
            canon("Stop-Process", &[p("Name"), v("lsass"), p("Force")]),
            "-Name=lsass -Force"
        );
        assert_eq!(
            canon(
                "Set-MpPreference",
                &[p("DisableRealtimeMonitoring"), v("$true")]
            ),
            "-DisableRealtimeMonitoring=true"
        );
        assert_eq!(
            canon(
                "Set-ExecutionPolicy",
                &[v("Bypass"), p("Scope"), v("LocalMachine"), p("Force")]
            ),
            "Bypass LocalMachine -Force"
        );
        // an unknown cmdlet keeps what was written
        assert_eq!(
            canon(
                "Remove-AzResourceGroup",
                &[p("Name"), v("prod-rg"), p("Force")]
            ),
            "-Name prod-rg -Force"
        );
        assert_eq!(
            canon("Remove-AzThing", &[pc("Force"), v("$true")]),
            "-Force=true"
        );
    }
}
