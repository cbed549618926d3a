//! Code in any language, read by what its calls visibly do, without a grammar of the language:
//! the reader for inline code riskgate has no analyzer for (Julia, Elixir, Erlang, Clojure,
//! Scala, Swift, Haskell, OCaml, Octave, .NET, Crystal, Raku …) and a second reading of the
//! languages it reads in part (JVM, Lua, R, AppleScript, Emacs Lisp, awk).
//!
//! The code is split into language-neutral tokens (strings, command literals, dotted names,
//! numbers, punctuation) and its expressions are folded: literals joined by a concatenation
//! operator, home-directory constructors (`homedir()`, `System.getProperty("user.home")`,
//! `NSHomeDirectory()`, `SpecialFolder.UserProfile`), path joiners, decoders (base64, char
//! codes), listings (`list.files(P)` is `P/*`), environment reads, file reads, and any other
//! call of one foldable argument (a conversion: `String(x)`, `to_charlist`). Calls are
//! recognized in the three shapes languages write them: `name(args)`, `(name args)` and
//! `name "arg"`, plus methods on a receiver (`File(P).deleteRecursively()`, `"cmd".execute()`).
//!
//! Each call is then classified by the last segment of its name (`babashka.fs/delete-tree`,
//! `:os.cmd`, `System.IO.Directory.Delete`) against sinks every language spells alike — run a
//! command, delete a path, write a file, send over the network, download, run SQL — and
//! becomes the shell command with the same effect (`rm -rf -- ~`, `: >> /etc/sudoers`,
//! `curl --data-binary @~/.ssh/id_rsa URL`, `psql -h HOST -c 'DROP …'`), which the shell
//! engine rates as it rates the command. Only targets that look like paths are deleted or
//! written (`list.remove("x")` is not a file), and what cannot be folded is not invented.
//!
//! Linear in the code's length: tokens, folded text and commands are bounded.

mod lex;
mod sinks;
#[cfg(test)]
mod tests;

use super::langs::quote;
use lex::{Tok, tokens};
use sinks::{
    Kind, command_text, concat, decode_base64, flatten, is_home, known, last_segment,
    looks_like_sql, path_like, path_word,
};

/// Longest code read.
const MAX_CODE: usize = 64 * 1024;
/// Most tokens read.
const MAX_TOKENS: usize = 20_000;
/// Most commands returned.
const MAX_COMMANDS: usize = 64;
/// Longest folded string.
const MAX_TEXT: usize = 16 * 1024;
/// Most variables remembered.
const MAX_VARS: usize = 256;
/// Deepest expression nesting folded.
const MAX_DEPTH: usize = 32;

/// A folded value.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Str(String),
    Num(i64),
    List(Vec<Val>),
    /// A command (a command literal or a command object).
    Cmd(String),
    /// What a command prints.
    Output(String),
    /// The value of an environment variable.
    Env(String),
    /// The whole environment.
    AllEnv,
    /// The content of a file.
    Read(String),
    Unknown,
}

/// The shell commands with the effects of `code`'s calls.
pub(crate) fn commands(code: &str) -> Vec<String> {
    let (toks, gaps) = tokens(code);
    let mut r = Reader {
        toks: &toks,
        gaps: &gaps,
        vars: Vec::new(),
        out: Vec::new(),
        sends: false,
        secrets: Vec::new(),
        urls: Vec::new(),
        host: None,
    };
    r.host = r.db_host();
    let mut i = 0;
    while i < toks.len() && r.out.len() < MAX_COMMANDS {
        // `name = value` (also `<-`, `:=`, `let`/`val`/`var`/`local`/`def` before it)
        if let Some(Tok::Name(n)) = toks.get(i)
            && matches!(toks.get(i + 1), Some(Tok::Punct("=" | "<-" | ":=")))
            && !matches!(toks.get(i + 2), Some(Tok::Punct("=")))
        {
            let (v, next) = r.expr(i + 2, 0);
            if r.vars.len() < MAX_VARS {
                r.vars.push((n.clone(), v));
            }
            i = next.max(i + 1);
            continue;
        }
        let (_, next) = r.expr(i, 0);
        i = next.max(i + 1);
    }
    r.finish_sends();
    let mut seen = std::collections::HashSet::new();
    r.out.retain(|c| seen.insert(c.clone()));
    r.out
}

struct Reader<'a> {
    toks: &'a [Tok],
    /// Whether a blank stands before each token.
    gaps: &'a [bool],
    vars: Vec<(String, Val)>,
    out: Vec<String>,
    /// A call sends data over the network.
    sends: bool,
    /// What the code reads that is worth sending: `@PATH` or `$NAME` or the whole environment.
    secrets: Vec<Val>,
    /// URLs (and `/inet/tcp/HOST/PORT` endpoints) the code names.
    urls: Vec<String>,
    /// The database host named by a `host` argument.
    host: Option<String>,
}

impl Reader<'_> {
    fn tok(&self, i: usize) -> Option<&Tok> {
        self.toks.get(i)
    }

    fn punct(&self, i: usize, p: &str) -> bool {
        matches!(self.tok(i), Some(Tok::Punct(q)) if *q == p)
    }

    /// `(` right after the token before it: a call's argument list.
    fn call_paren(&self, i: usize) -> bool {
        self.punct(i, "(") && !self.gaps.get(i).copied().unwrap_or(false)
    }

    /// One expression from `i`: a primary, its postfix calls, and concatenations.
    fn expr(&mut self, i: usize, depth: usize) -> (Val, usize) {
        if depth > MAX_DEPTH {
            return (Val::Unknown, i + 1);
        }
        let (mut v, mut i) = self.postfix(i, depth);
        loop {
            match self.tok(i) {
                // concatenation: `+`, `..`, `<>`, `~`, `*`, `++`, `.` (PHP, Perl)
                // a path joined to a name (Python's `Path.home() / ".bashrc"`)
                Some(Tok::Punct("/")) if matches!(&v, Val::Str(p) if path_like(p) || p == "~") => {
                    let (w, next) = self.postfix(i + 1, depth + 1);
                    v = match (v, w) {
                        (Val::Str(a), Val::Str(b)) if !b.is_empty() => {
                            Val::Str(format!("{}/{}", a.trim_end_matches('/'), b))
                        }
                        _ => Val::Unknown,
                    };
                    i = next;
                }
                Some(Tok::Punct("+" | ".." | "<>" | "~" | "*" | "++" | "."))
                    if matches!(v, Val::Str(_)) =>
                {
                    let (w, next) = self.postfix(i + 1, depth + 1);
                    v = concat(v, w);
                    i = next;
                }
                // Scala's `"a" #| "b"`: a pipeline (run by a `!` after it)
                Some(Tok::Punct("#|")) => {
                    let (w, next) = self.primary(i + 1, depth + 1);
                    v = match (command_text(&v), command_text(&w)) {
                        (Some(a), Some(b)) => Val::Cmd(format!("{a} | {b}")),
                        _ => Val::Unknown,
                    };
                    i = next;
                }
                // Elixir's pipe: `x |> f()` is `f(x)`
                Some(Tok::Punct("|>")) => {
                    let (name, next) = match self.tok(i + 1) {
                        Some(Tok::Name(n)) => (n.clone(), i + 2),
                        _ => return (v, i + 1),
                    };
                    let (mut args, next) = if self.punct(next, "(") {
                        self.args(next, depth + 1)
                    } else {
                        (Vec::new(), next)
                    };
                    args.insert(0, v);
                    v = self.call(&name, args);
                    i = next;
                }
                Some(Tok::Punct("!" | "!!")) if matches!(v, Val::Cmd(_)) => {
                    self.run(&v);
                    return (Val::Output(command_text(&v).unwrap_or_default()), i + 1);
                }
                _ => return (v, i),
            }
        }
    }

    /// A primary and the method calls on it.
    fn postfix(&mut self, i: usize, depth: usize) -> (Val, usize) {
        let (mut v, mut i) = self.primary(i, depth);
        if depth > MAX_DEPTH {
            return (v, i);
        }
        loop {
            // `.name(args)`, `.name`, `->name(args)` (PHP), `.!` / `.!!` / ` !` (Scala)
            let arrow = self.punct(i, ".") || self.punct(i, "->");
            if arrow && let Some(Tok::Name(m)) = self.tok(i + 1) {
                let m = m.clone();
                let (mut args, next) = if self.punct(i + 2, "(") {
                    self.args(i + 2, depth + 1)
                } else {
                    (Vec::new(), i + 2)
                };
                // `File(P).text = "…"` (Groovy), `File(P) << "…"`: a write
                if (m == "text" || m == "bytes") && self.punct(next, "=") {
                    self.write(&v, false);
                    return (Val::Unknown, next + 1);
                }
                args.insert(0, v);
                v = self.method(&m, args);
                i = next;
                continue;
            }
            if (arrow && matches!(self.tok(i + 1), Some(Tok::Punct("!" | "!!"))))
                || (matches!(self.tok(i), Some(Tok::Punct("!" | "!!")))
                    && matches!(v, Val::Str(_) | Val::Cmd(_)))
            {
                self.run(&v);
                let next = if arrow { i + 2 } else { i + 1 };
                return (Val::Output(command_text(&v).unwrap_or_default()), next);
            }
            return (v, i);
        }
    }

    fn primary(&mut self, i: usize, depth: usize) -> (Val, usize) {
        let Some(t) = self.tok(i).cloned() else {
            return (Val::Unknown, i + 1);
        };
        match t {
            Tok::Str(s) => {
                self.note_string(&s);
                (Val::Str(s), i + 1)
            }
            Tok::Cmd(c) => (Val::Cmd(c), i + 1),
            Tok::Num(n) => (Val::Num(n), i + 1),
            Tok::Punct("(") => {
                // a Lisp form `(name args…)`
                if let Some(Tok::Name(n)) = self.tok(i + 1)
                    && !self.call_paren(i + 2)
                    && !self.punct(i + 2, ".")
                    && !matches!(self.tok(i + 2), Some(Tok::Punct("=" | "+" | ",")))
                {
                    let n = n.clone();
                    let (args, next) = self.until(i + 2, &[")"], depth + 1);
                    return (self.call(&n, args), next + 1);
                }
                let (v, next) = self.expr(i + 1, depth + 1);
                let (_, next) = self.until(next, &[")"], depth + 1);
                (v, next + 1)
            }
            Tok::Punct("[" | "{") => {
                let close = if t == Tok::Punct("[") { "]" } else { "}" };
                let (items, next) = self.list(i + 1, close, depth + 1);
                (Val::List(items), next + 1)
            }
            Tok::Name(n) => {
                let name = n.clone();
                if matches!(
                    name.as_str(),
                    "new" | "await" | "try" | "try!" | "return" | "do"
                ) || name.ends_with(".default")
                {
                    return self.postfix(i + 1, depth + 1);
                }
                // `name(args)`, Julia's broadcast `name.(args)`
                if self.call_paren(i + 1) || (self.punct(i + 1, "(") && known(&name).is_some()) {
                    let (mut args, next) = self.args(i + 1, depth + 1);
                    // a method of a variable (`p.write_text(…)` after `p = Path.home() / "x"`)
                    if let Some((head, method)) = name.split_once('.')
                        && let Some((_, recv)) = self.vars.iter().rev().find(|(k, _)| k == head)
                        && !matches!(recv, Val::Unknown)
                    {
                        args.insert(0, recv.clone());
                        let m = last_segment(method).to_string();
                        return (self.method(&m, args), next);
                    }
                    // a variable holding a function's name (`$f = "sys"."tem"; $f("…")`)
                    let callee = match self.vars.iter().rev().find(|(k, _)| *k == name) {
                        Some((_, Val::Str(f))) if known(f).is_some() => f.clone(),
                        _ => name,
                    };
                    return (self.call(&callee, args), next);
                }
                if self.punct(i + 1, ".") && self.punct(i + 2, "(") {
                    let (args, next) = self.args(i + 2, depth + 1);
                    return (self.call(&name, args), next);
                }
                // `name "arg" …` (Haskell, OCaml, Raku, AppleScript): a known sink or folder
                if (matches!(self.tok(i + 1), Some(Tok::Str(_) | Tok::Cmd(_)))
                    || (matches!(self.tok(i + 1), Some(Tok::Punct("("))) && known(&name).is_some()))
                    && (known(&name).is_some() || name.contains(['.', ':', '/']))
                {
                    {
                        let (args, next) = self.until(i + 1, &[";", ")", "]", "}"], depth + 1);
                        return (self.call(&name, args), next);
                    }
                }
                if let Some((_, v)) = self.vars.iter().rev().find(|(k, _)| *k == name) {
                    return (v.clone(), i + 1);
                }
                if is_home(&name) {
                    return (Val::Str("~".into()), i + 1);
                }
                (Val::Unknown, i + 1)
            }
            _ => (Val::Unknown, i + 1),
        }
    }

    /// `(a, b, label: c)` from the `(` at `i`: the values and the index past `)`.
    fn args(&mut self, i: usize, depth: usize) -> (Vec<Val>, usize) {
        let (items, next) = self.list(i + 1, ")", depth);
        (items, next + 1)
    }

    /// Comma-separated expressions up to `close` (named arguments' labels dropped).
    fn list(&mut self, mut i: usize, close: &str, depth: usize) -> (Vec<Val>, usize) {
        let mut items = Vec::new();
        while i < self.toks.len() && !self.punct(i, close) && depth <= MAX_DEPTH {
            if self.punct(i, ",") || self.tok(i) == Some(&Tok::Newline) {
                i += 1;
                continue;
            }
            // `label: v`, `label = v`, `label => v`
            if matches!(self.tok(i), Some(Tok::Name(_)))
                && matches!(self.tok(i + 1), Some(Tok::Punct(":" | "=" | "=>")))
            {
                i += 2;
            }
            let (v, next) = self.expr(i, depth + 1);
            // more follows before the separator (awk's `"mv " $0`, juxtaposed): the value is
            // not known, though the calls in it still count
            let whole = self.punct(next, ",")
                || self.punct(next, ";")
                || self.punct(next, close)
                || self.tok(next) == Some(&Tok::Newline);
            items.push(if whole { v } else { Val::Unknown });
            let (_, next) = self.until(next, &[",", close], depth + 1);
            i = if self.punct(next, ",") {
                next + 1
            } else {
                next
            };
        }
        (items, i)
    }

    /// Space-separated expressions up to one of `stops` or the end of the line (Lisp forms,
    /// calls without parentheses); nested brackets are skipped whole.
    fn until(&mut self, mut i: usize, stops: &[&str], depth: usize) -> (Vec<Val>, usize) {
        let mut items = Vec::new();
        while let Some(t) = self.tok(i) {
            match t {
                Tok::Punct(p) if stops.contains(p) => break,
                Tok::Newline if !stops.contains(&")") => break,
                Tok::Newline | Tok::Punct(",") => i += 1,
                Tok::Punct(")" | "]" | "}") => break,
                _ if depth > MAX_DEPTH => i += 1,
                _ => {
                    let (v, next) = self.expr(i, depth + 1);
                    items.push(v);
                    i = next.max(i + 1);
                }
            }
        }
        (items, i)
    }

    /// A method `m` called on `args[0]`.
    fn method(&mut self, m: &str, args: Vec<Val>) -> Val {
        let lower = m.to_ascii_lowercase();
        match lower.as_str() {
            // Groovy `"cmd".execute()`, `["sh","-c","cmd"].execute()`
            "output" | "outputsync" | "status" | "spawnsync" | "wait"
                if matches!(args.first(), Some(Val::Cmd(_))) =>
            {
                if let Some(v) = args.first() {
                    self.run(v);
                }
                Val::Unknown
            }
            "execute" | "run" | "spawn" => {
                if let Some(v) = args.first() {
                    self.run(v);
                }
                Val::Unknown
            }
            "decodebase64" | "decode64" | "b64decode" | "frombase64" => {
                args.first().map_or(Val::Unknown, decode_base64)
            }
            // an ORM's `table("users")->truncate()`
            "truncate" => {
                if let Some(Val::Str(t)) = args.first()
                    && !t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_.".contains(c))
                {
                    self.sql(&format!("TRUNCATE TABLE {t}"));
                }
                Val::Unknown
            }
            "reverse" => match args.first() {
                Some(Val::Str(s)) => Val::Str(s.chars().rev().collect()),
                _ => Val::Unknown,
            },
            _ => self.call(m, args),
        }
    }

    /// A call of `name` with folded `args`: its effect recorded, its value returned.
    fn call(&mut self, name: &str, args: Vec<Val>) -> Val {
        let last = last_segment(name);
        if is_home(name) {
            return Val::Str("~".into());
        }
        // a command object built, not run (`Cmd([…])` in Julia, `new Deno.Command(…)`,
        // `exec.Command(…)`): run by a method called on it
        if matches!(last, "Cmd" | "Command") {
            let v = if args.len() == 1 {
                args.into_iter().next().unwrap_or(Val::Unknown)
            } else {
                Val::List(args)
            };
            return command_text(&v).map_or(Val::Unknown, Val::Cmd);
        }
        match known(name) {
            Some(Kind::Run) => {
                // a command and its arguments, or one command line
                if let Some(Val::Output(inner)) = args.first() {
                    self.out.push(format!("{inner} | sh"));
                    return Val::Unknown;
                }
                let v = if last.eq_ignore_ascii_case("start") && args.len() == 2 {
                    // .NET `Process.Start(FILE, ARGUMENTS)`: one argument string
                    match (&args[0], &args[1]) {
                        (Val::Str(f), Val::Str(a)) => Val::Cmd(format!("{} {a}", quote(f))),
                        _ => Val::List(args),
                    }
                } else if args.len() == 1 {
                    args.into_iter().next().unwrap_or(Val::Unknown)
                } else {
                    Val::List(args)
                };
                let text = command_text(&v);
                self.run(&v);
                text.map_or(Val::Unknown, Val::Output)
            }
            Some(Kind::Delete) => {
                let recursive = [
                    "dir",
                    "tree",
                    "recursive",
                    "rf",
                    "_r",
                    "all",
                    "item",
                    "files",
                ]
                .iter()
                .any(|k| name.to_ascii_lowercase().contains(k))
                    || args.iter().skip(1).any(|a| matches!(a, Val::Unknown));
                match args.first() {
                    Some(Val::Str(p)) if p.contains("://") => {
                        self.out.push(format!("curl -X DELETE {}", quote(p)));
                    }
                    Some(Val::Str(p)) if path_like(p) => {
                        let flag = if recursive || p.ends_with("/*") {
                            "-rf"
                        } else {
                            "-f"
                        };
                        self.out.push(format!("rm {flag} -- {}", path_word(p)));
                    }
                    _ => {}
                }
                Val::Unknown
            }
            Some(Kind::Write) => {
                let Some(p) = args.first() else {
                    return Val::Unknown;
                };
                // an opener writes only with a write or append mode (`open(P, "a")`); other
                // writers' second argument is the content
                if matches!(last, "open" | "fopen") {
                    match args.get(1) {
                        Some(Val::Str(m)) if m.contains('a') => self.write(p, true),
                        Some(Val::Str(m)) if m.contains('w') => self.write(p, false),
                        _ => {
                            if let Val::Str(s) = p
                                && path_like(s)
                            {
                                self.secret(Val::Read(s.clone()));
                                return Val::Read(s.clone());
                            }
                        }
                    }
                } else {
                    self.write(p, false);
                }
                Val::Unknown
            }
            Some(Kind::Read) => match args.into_iter().next() {
                Some(Val::Str(p)) if path_like(&p) => {
                    self.secret(Val::Read(p.clone()));
                    Val::Read(p)
                }
                _ => Val::Unknown,
            },
            Some(Kind::Env) => match args.first() {
                None => {
                    self.secret(Val::AllEnv);
                    Val::AllEnv
                }
                Some(Val::Str(n)) if matches!(n.as_str(), "HOME" | "user.home" | "USERPROFILE") => {
                    Val::Str("~".into())
                }
                Some(Val::Str(n)) => {
                    self.secret(Val::Env(n.clone()));
                    Val::Env(n.clone())
                }
                _ => Val::Unknown,
            },
            Some(Kind::Send) => {
                self.sends = true;
                Val::Unknown
            }
            Some(Kind::Download) => {
                if let (Some(Val::Str(url)), Some(Val::Str(dest))) = (args.first(), args.get(1))
                    && url.contains("://")
                {
                    self.out
                        .push(format!("curl -fsSL {} -o {}", quote(url), path_word(dest)));
                }
                Val::Unknown
            }
            Some(Kind::Sql) => {
                for a in &args {
                    if let Val::Str(s) = a
                        && looks_like_sql(s)
                    {
                        self.sql(s);
                    }
                }
                Val::Unknown
            }
            Some(Kind::Join) => {
                let mut parts = Vec::new();
                for a in &args {
                    match a {
                        Val::Str(s) => parts.push(s.clone()),
                        _ => return Val::Unknown,
                    }
                }
                Val::Str(parts.join("/").replace("//", "/"))
            }
            Some(Kind::Listing) => match args.first() {
                Some(Val::Str(p)) => Val::Str(format!("{}/*", p.trim_end_matches('/'))),
                _ => Val::Unknown,
            },
            Some(Kind::Decode) => args.first().map_or(Val::Unknown, decode_base64),
            Some(Kind::Chars) => {
                let codes: Vec<i64> = flatten(&args)
                    .iter()
                    .filter_map(|a| match a {
                        Val::Num(n) => Some(*n),
                        _ => None,
                    })
                    .collect();
                let s: Option<String> = codes
                    .iter()
                    .map(|c| u32::try_from(*c).ok().and_then(char::from_u32))
                    .collect();
                s.filter(|s| !s.is_empty()).map_or(Val::Unknown, Val::Str)
            }
            Some(Kind::Concat) => {
                let sep = if last.eq_ignore_ascii_case("paste") {
                    " "
                } else {
                    ""
                };
                let parts: Option<Vec<String>> = flatten(&args)
                    .iter()
                    .filter(|a| !matches!(a, Val::Unknown))
                    .map(|a| match a {
                        Val::Str(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                parts.map_or(Val::Unknown, |p| Val::Str(p.join(sep)))
            }
            // a conversion of one value (`String(x)`, `to_charlist(x)`, `split(x)`)
            None if args.len() == 1 => args.into_iter().next().unwrap_or(Val::Unknown),
            None => Val::Unknown,
        }
    }

    fn secret(&mut self, v: Val) {
        if self.secrets.len() < 64 && !self.secrets.contains(&v) {
            self.secrets.push(v);
        }
    }

    /// `v` run as a command.
    fn run(&mut self, v: &Val) {
        if let Val::Output(inner) = v {
            self.out.push(format!("{inner} | sh"));
            return;
        }
        if let Some(text) = command_text(v) {
            if looks_like_sql(&text) {
                self.sql(&text);
            } else if !text.trim().is_empty() {
                self.out.push(text);
            }
        }
    }

    fn write(&mut self, target: &Val, append: bool) {
        if let Val::Str(p) = target
            && path_like(p)
        {
            let op = if append { ">>" } else { ">" };
            self.out.push(format!(": {op} {}", path_word(p)));
        }
    }

    fn sql(&mut self, text: &str) {
        let host = self
            .host
            .as_deref()
            .map(|h| format!(" -h {}", quote(h)))
            .unwrap_or_default();
        self.out.push(format!("psql{host} -c {}", quote(text)));
    }

    /// A string literal: URLs and `/inet/tcp/HOST/PORT` endpoints are where data may go.
    fn note_string(&mut self, s: &str) {
        if self.urls.len() < 8
            && (s.starts_with("http://") || s.starts_with("https://") || s.starts_with("s3://"))
        {
            self.urls.push(s.to_string());
        }
        if let Some(rest) = s
            .strip_prefix("/inet/tcp/")
            .or_else(|| s.strip_prefix("/inet/udp/"))
        {
            // `/inet/tcp/LOCALPORT/HOST/PORT`
            let parts: Vec<&str> = rest.split('/').collect();
            if let [_, host, port] = parts.as_slice() {
                self.urls.push(format!("http://{host}:{port}"));
                self.sends = true;
            }
        }
        if self.sends_secret_path(s) {
            self.secret(Val::Read(s.to_string()));
        }
    }

    /// A literal path that names a secret (read by awk's `getline < P`, Tcl's `open`): kept
    /// for a send found anywhere in the code. The model's one list of secret files decides.
    fn sends_secret_path(&self, s: &str) -> bool {
        path_like(s) && riskgate_model::credentials::sensitive_kind(s).is_some()
    }

    /// Secrets read and a send: the flow as a shell pipeline.
    fn finish_sends(&mut self) {
        if !self.sends {
            return;
        }
        // a send needs a destination the code names (`->fetch()` of a database row is no
        // request)
        let Some(url) = self.urls.first().cloned() else {
            return;
        };
        let secrets = std::mem::take(&mut self.secrets);
        for s in secrets.iter().take(8) {
            let cmd = match s {
                Val::Read(p) => format!("curl --data-binary @{} {}", path_word(p), quote(&url)),
                Val::Env(n) if n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                    format!("printenv {n} | curl --data-binary @- {}", quote(&url))
                }
                Val::AllEnv => format!("env | curl --data-binary @- {}", quote(&url)),
                _ => continue,
            };
            self.out.push(cmd);
        }
    }

    /// The value given to a `host` argument (`host = "prod-db.internal"`, `host: "…"`).
    fn db_host(&self) -> Option<String> {
        self.toks.windows(3).find_map(|w| match w {
            [Tok::Name(k), Tok::Punct("=" | ":" | "=>"), Tok::Str(h)]
                if k.eq_ignore_ascii_case("host") || k.eq_ignore_ascii_case("hostname") =>
            {
                Some(h.clone())
            }
            _ => None,
        })
    }
}
