//! Constant folding of string expressions in Python and JavaScript, so that what a snippet
//! hides behind run-time string building is read as the text it builds before rules match
//! module names, member names, commands and paths.
//!
//! Folded: concatenation of constants (by the caller), f-strings and template literals whose
//! parts are constant, `%` and `.format` with constant arguments, `SEP.join([…])` and
//! `[…].join(SEP)`, `chr(N)` / `map(chr, […])` / `chr(c) for c in […]`,
//! `String.fromCharCode(…)`, `bytes.fromhex(…)`, `base64.b64decode(…)`, `Buffer.from(…,
//! 'base64'|'hex')`, `atob(…)`, `codecs.decode(…, 'rot13')`, `LIT[::-1]`,
//! `.split('').reverse().join('')`, `.replace`, `.lower`/`.upper`/`.strip`; and path
//! constructors: the home directory (`os.homedir()`, `process.env.HOME`, `Path.home()`,
//! `os.path.expanduser('~')`, `os.environ['HOME']`, `os.getenv('HOME')`) is `~`, and
//! `os.path.join` / `path.join` / `path.resolve` join their folded parts.
//!
//! Text that was decoded (hex, base64, rot13, char codes, reversal) stays a run-time string
//! ([`ArgValue::Dynamic`]) with its decoded value, so decoding remains a signal. Every folded
//! string is capped at [`MAX_FOLDED`] bytes; past it the value is not folded and the analysis is
//! incomplete.

use base64::Engine as _;
use riskgate_model::Language;

use super::analysis::ArgValue;
use super::calls::{Scope, Walker};
use super::token::Token;

mod concat;
mod primary;

use primary::{num, utf8};

/// Largest string a fold may produce.
pub(crate) const MAX_FOLDED: usize = 64 * 1024;

/// Last segments of the calls a fold may start with (`os.homedir`, `base64.b64decode` …).
const PRIMARY_LAST: &[&str] = &[
    "b64decode",
    "standard_b64decode",
    "urlsafe_b64decode",
    "decodebytes",
    "decodestring",
    "b16decode",
    "reversed",
    "list",
    "homedir",
    "home",
    "tmpdir",
    "gettempdir",
    "getenv",
    "get",
    "expanduser",
    "Path",
    "PurePath",
    "abspath",
    "normpath",
    "realpath",
    "str",
    "String",
    "join",
    "resolve",
    "chr",
    "fromCharCode",
    "fromCodePoint",
    "fromhex",
    "unhexlify",
    "a2b_hex",
    "atob",
    "from",
    "decode",
    "encode",
    "map",
];

/// Methods a fold may apply (besides the primaries' names).
const METHODS: &[&str] = &[
    "joinpath",
    "decode",
    "toString",
    "encode",
    "strip",
    "trim",
    "lower",
    "toLowerCase",
    "upper",
    "toUpperCase",
    "replace",
    "replaceAll",
    "split",
    "reverse",
    "join",
    "format",
    "concat",
];

/// A folded value.
#[derive(Debug, Clone)]
pub(super) enum Fv {
    Str(String),
    List(Vec<String>),
    /// Bytes from a decoder, before `.decode()` / `.toString()`.
    Bytes(Vec<u8>),
    Num(i64),
}

impl Walker<'_> {
    /// The folded value of the expression in tokens `[from, to)`, when it is built from
    /// constants only (or decodes constants). None when it is not foldable.
    pub(crate) fn fold(&self, from: usize, to: usize, scope: &Scope) -> Option<ArgValue> {
        if !self.foldable_shape(from, to) {
            return None;
        }
        // Every attempt that passed the shape check costs one unit of a per-snippet budget:
        // a failed fold is followed by the ordinary resolution of the same tokens, so without
        // the bound nested failing folds would cost 2^depth.
        if !self.spend_fold() {
            self.mark_truncated();
            return None;
        }
        let mut decoded = false;
        let v = self.fold_expr(from, to, scope, &mut decoded)?;
        let wrap = |s: String| {
            if decoded {
                ArgValue::Dynamic(s)
            } else {
                ArgValue::Str(s)
            }
        };
        let out = match v {
            Fv::Str(s) => s,
            Fv::Bytes(b) => utf8(b)?,
            Fv::List(items) => {
                if items.iter().map(String::len).sum::<usize>() > MAX_FOLDED {
                    self.mark_truncated();
                    return None;
                }
                return Some(ArgValue::List(items.into_iter().map(wrap).collect()));
            }
            Fv::Num(_) => return None,
        };
        if out.len() > MAX_FOLDED {
            self.mark_truncated();
            return None;
        }
        Some(wrap(out))
    }

    /// True when `[from, to)` is a primary the folder knows (a string, a list, a known call or
    /// environment read) followed only by `.method(…)` of known methods and `[…]`, checked
    /// without evaluating anything.
    fn foldable_shape(&self, from: usize, to: usize) -> bool {
        let Some(first) = self.toks.get(from) else {
            return false;
        };
        let mut k = if first.str_lit().is_some() {
            if self.lang == Language::Python
                && self.toks.get(from + 1).is_some_and(|t| t.is_punct("%"))
            {
                return true;
            }
            from + 1
        } else if first.is_punct("[") || first.is_punct("(") {
            let close = self.skip_group(from);
            if close == from || close + 1 >= to {
                return false;
            }
            close + 1
        } else if let Some(w) = first.ident() {
            let mut k = from;
            let mut name = w.to_string();
            while self.toks.get(k + 1).is_some_and(|t| t.is_punct("."))
                && let Some(next) = self.toks.get(k + 2).and_then(Token::ident)
            {
                name.push('.');
                name.push_str(next);
                k += 2;
            }
            let last = name.rsplit('.').next().unwrap_or(&name);
            let env = name.contains("env") || name.contains("environ");
            if !(PRIMARY_LAST.contains(&last) || env || name == "require") {
                return false;
            }
            k + 1
        } else {
            return false;
        };
        while k < to {
            let Some(t) = self.toks.get(k) else {
                return false;
            };
            if t.is_punct("[") || t.is_punct("(") {
                let close = self.skip_group(k);
                if close == k {
                    return false;
                }
                k = close + 1;
                continue;
            }
            if !(t.is_punct(".") || t.is_punct("?.")) {
                return false;
            }
            match self.toks.get(k + 1).and_then(Token::ident) {
                Some(m) if METHODS.contains(&m) || PRIMARY_LAST.contains(&m) => k += 2,
                _ => return false,
            }
        }
        true
    }

    /// A literal's value with its interpolations folded, when every part folds.
    pub(crate) fn fold_interpolated(
        &self,
        parts: &[Vec<Token>],
        value: &str,
        scope: &Scope,
    ) -> Option<String> {
        if parts.is_empty() || value.matches("{}").count() != parts.len() {
            return None;
        }
        let mut out = String::new();
        let mut rest = value;
        for part in parts {
            let sub = self.sub(part);
            let v = sub.value(0, part.len(), scope);
            self.settle(&sub);
            let s = match v {
                ArgValue::Str(s) | ArgValue::Num(s) => s,
                ArgValue::Dynamic(s) if !s.contains("{}") => s,
                _ => return None,
            };
            let (head, tail) = rest.split_once("{}")?;
            out.push_str(head);
            out.push_str(&s);
            rest = tail;
            if out.len() > MAX_FOLDED {
                self.mark_truncated();
                return None;
            }
        }
        out.push_str(rest);
        Some(out)
    }

    /// A value as a folded string (constants and fully decoded strings), through
    /// [`Walker::value`] (which folds): each range is evaluated once.
    pub(super) fn known(
        &self,
        from: usize,
        to: usize,
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<Fv> {
        let item = |v: ArgValue, decoded: &mut bool| match v {
            ArgValue::Str(s) | ArgValue::Num(s) => Some(s),
            ArgValue::Dynamic(s) if !s.contains("{}") => {
                *decoded = true;
                Some(s)
            }
            _ => None,
        };
        match self.value(from, to, scope) {
            ArgValue::Num(n) => num(&n).map(Fv::Num),
            ArgValue::List(items) => {
                let mut out = Vec::new();
                for i in items {
                    out.push(item(i, decoded)?);
                }
                Some(Fv::List(out))
            }
            v => item(v, decoded).map(Fv::Str),
        }
    }

    pub(super) fn known_str(
        &self,
        from: usize,
        to: usize,
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<String> {
        match self.known(from, to, scope, decoded)? {
            Fv::Str(s) => Some(s),
            Fv::Num(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// Argument token ranges of the call whose `(` is at `open`: (ranges, index after `)`).
    pub(super) fn arg_ranges(&self, open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
        let close = self
            .partner
            .get(open)
            .copied()
            .flatten()
            .filter(|c| *c > open)?;
        Some((self.arg_ranges_of(open, close), close + 1))
    }

    fn fold_expr(&self, from: usize, to: usize, scope: &Scope, decoded: &mut bool) -> Option<Fv> {
        let first = self.toks.get(from)?;
        if from >= to {
            return None;
        }
        // primary
        let (mut v, mut k) = if let Some(lit) = first.str_lit() {
            let s = if lit.interpolated {
                self.fold_interpolated(&lit.parts, &lit.value, scope)?
            } else {
                lit.value.clone()
            };
            // Python `'%s -rf %s' % (a, b)`
            if self.lang == Language::Python
                && self.toks.get(from + 1).is_some_and(|t| t.is_punct("%"))
            {
                return self.percent(&s, from + 2, to, scope, decoded).map(Fv::Str);
            }
            (Fv::Str(s), from + 1)
        } else if first.is_punct("[") || first.is_punct("(") {
            let close = self.skip_group(from);
            if close == from {
                return None;
            }
            if close + 1 == to {
                return None; // a plain list or parenthesized value: the caller handles it
            }
            if first.is_punct("(") {
                (self.known(from + 1, close, scope, decoded)?, close + 1)
            } else {
                let mut items = Vec::new();
                for (a, b) in self.arg_ranges_of(from, close) {
                    items.push(self.known_str(a, b, scope, decoded)?);
                }
                (Fv::List(items), close + 1)
            }
        } else if first.ident().is_some() {
            self.call_primary(from, to, scope, decoded)?
        } else {
            return None;
        };
        // postfix: `.method(args)` and `[slice]`
        while k < to {
            let t = self.toks.get(k)?;
            if t.is_punct("[") {
                let close = self.skip_group(k);
                let inner: String = self
                    .code
                    .get(t.end..self.toks.get(close)?.start)?
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                if inner != "::-1" {
                    return None;
                }
                *decoded = true;
                v = match v {
                    Fv::Str(s) => Fv::Str(s.chars().rev().collect()),
                    Fv::List(mut l) => {
                        l.reverse();
                        Fv::List(l)
                    }
                    Fv::Bytes(mut b) => {
                        b.reverse();
                        Fv::Bytes(b)
                    }
                    Fv::Num(_) => return None,
                };
                k = close + 1;
                continue;
            }
            if !(t.is_punct(".") || t.is_punct("?.")) {
                return None;
            }
            let method = self.toks.get(k + 1)?.ident()?;
            let open = k + 2;
            if !self.toks.get(open).is_some_and(|t| t.is_punct("(")) {
                return None;
            }
            let (args, next) = self.arg_ranges(open)?;
            v = self.method(v, method, &args, scope, decoded)?;
            k = next;
            if let Fv::Str(s) = &v
                && s.len() > MAX_FOLDED
            {
                self.mark_truncated();
                return None;
            }
        }
        Some(v)
    }

    pub(super) fn arg_ranges_of(&self, open: usize, close: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = open + 1;
        let mut k = open + 1;
        while k < close {
            if self.toks.get(k).is_some_and(|t| t.is_punct(",")) {
                out.push((start, k));
                start = k + 1;
                k += 1;
                continue;
            }
            k = self.skip_group(k) + 1;
        }
        if start < close {
            out.push((start, close));
        }
        out
    }

    /// `'%s %s' % (a, b)` / `'%s' % a` with constant operands.
    fn percent(
        &self,
        fmt: &str,
        from: usize,
        to: usize,
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<String> {
        let first = self.toks.get(from)?;
        let operands: Vec<String> = if first.is_punct("(") && self.skip_group(from) + 1 == to {
            let close = self.skip_group(from);
            let mut out = Vec::new();
            for (a, b) in self.arg_ranges_of(from, close) {
                out.push(self.known_str(a, b, scope, decoded)?);
            }
            out
        } else {
            vec![self.known_str(from, to, scope, decoded)?]
        };
        let mut out = String::new();
        let mut it = operands.into_iter();
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next()? {
                '%' => out.push('%'),
                's' | 'd' | 'r' | 'i' => out.push_str(&it.next()?),
                _ => return None,
            }
        }
        it.next().is_none().then_some(out)
    }

    fn method(
        &self,
        v: Fv,
        method: &str,
        args: &[(usize, usize)],
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<Fv> {
        let arg = |i: usize, decoded: &mut bool| -> Option<String> {
            let (a, b) = *args.get(i)?;
            self.known_str(a, b, scope, decoded)
        };
        Some(match (v, method) {
            (Fv::Bytes(b), "decode" | "toString") => {
                let enc = match args.first() {
                    Some(_) => arg(0, decoded)?.to_ascii_lowercase(),
                    None => "utf8".into(),
                };
                match enc.as_str() {
                    "utf8" | "utf-8" | "ascii" | "latin1" | "latin-1" => Fv::Str(utf8(b)?),
                    "base64" => Fv::Str(base64::engine::general_purpose::STANDARD.encode(b)),
                    "hex" => Fv::Str(b.iter().map(|x| format!("{x:02x}")).collect()),
                    _ => return None,
                }
            }
            (Fv::Str(s), "encode") => Fv::Bytes(s.into_bytes()),
            (Fv::Str(s), "decode") if self.lang == Language::Python => Fv::Str(s),
            (Fv::Str(s), "strip" | "trim") => Fv::Str(s.trim().to_string()),
            (Fv::Str(s), "lower" | "toLowerCase") => Fv::Str(s.to_lowercase()),
            (Fv::Str(s), "upper" | "toUpperCase") => Fv::Str(s.to_uppercase()),
            (Fv::Str(s), "toString") => Fv::Str(s),
            (Fv::Str(mut s), "joinpath") => {
                for i in 0..args.len() {
                    let p = arg(i, decoded)?;
                    if p.starts_with('/') {
                        s = p;
                    } else {
                        if !s.ends_with('/') {
                            s.push('/');
                        }
                        s.push_str(&p);
                    }
                }
                Fv::Str(s)
            }
            (Fv::Str(s), "replace" | "replaceAll") => {
                let a = arg(0, decoded)?;
                let b = arg(1, decoded)?;
                if a.is_empty() {
                    return None;
                }
                if method == "replace" && self.lang == Language::Js {
                    Fv::Str(s.replacen(&a, &b, 1))
                } else {
                    Fv::Str(s.replace(&a, &b))
                }
            }
            (Fv::Str(s), "split") => {
                let sep = arg(0, decoded)?;
                if sep.is_empty() {
                    Fv::List(s.chars().map(String::from).collect())
                } else {
                    Fv::List(s.split(sep.as_str()).map(String::from).collect())
                }
            }
            (Fv::List(mut l), "reverse") => {
                *decoded = true;
                l.reverse();
                Fv::List(l)
            }
            (Fv::List(l), "join") if self.lang == Language::Js => {
                let sep = match args.first() {
                    Some(_) => arg(0, decoded)?,
                    None => ",".into(),
                };
                Fv::Str(l.join(&sep))
            }
            (Fv::Str(sep), "join") if self.lang == Language::Python => {
                let (a, b) = *args.first()?;
                let items = match self.chr_generator(a, b, scope, decoded) {
                    Some(items) => items,
                    None => match self.known(a, b, scope, decoded)? {
                        Fv::List(l) => l,
                        Fv::Str(s) => s.chars().map(String::from).collect(),
                        _ => return None,
                    },
                };
                Fv::Str(items.join(&sep))
            }
            (Fv::Str(fmt), "format") => Fv::Str(self.format(&fmt, args, scope, decoded)?),
            (Fv::Str(s), "concat") => {
                let mut s = s;
                for i in 0..args.len() {
                    s.push_str(&arg(i, decoded)?);
                }
                Fv::Str(s)
            }
            _ => return None,
        })
    }

    /// `'{} {}'.format(a, b)`, `'{0}'.format(a)`: positional fields with constant arguments.
    fn format(
        &self,
        fmt: &str,
        args: &[(usize, usize)],
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<String> {
        let mut vals = Vec::new();
        for &(a, b) in args {
            // keyword arguments are not folded
            if self.toks.get(a + 1).is_some_and(|t| t.is_punct("=")) {
                return None;
            }
            vals.push(self.known_str(a, b, scope, decoded)?);
        }
        let mut out = String::new();
        let mut next = 0usize;
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    out.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    out.push('}');
                }
                '{' => {
                    let mut field = String::new();
                    for x in chars.by_ref() {
                        if x == '}' {
                            break;
                        }
                        field.push(x);
                    }
                    let idx = if field.is_empty() {
                        next += 1;
                        next - 1
                    } else {
                        field.parse().ok()?
                    };
                    out.push_str(vals.get(idx)?);
                }
                _ => out.push(c),
            }
        }
        Some(out)
    }
}
