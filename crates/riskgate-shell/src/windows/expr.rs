//! PowerShell expressions, evaluated as far as a literal reading goes: string literals and
//! here-strings, known variables, `+` concatenation, `,` arrays, `-join`, `-replace`, `-f`,
//! `.Replace()`, `.ToLower()`, `[char]N`, `[string]::Join()`, `[Text.Encoding]::…GetString(
//! [Convert]::FromBase64String(…))`, `(New-Object Net.WebClient).DownloadString(URL)` and
//! `(iwr URL).Content` (a download). What cannot be read is [`V::Dyn`].
//!
//! .NET calls that act like cmdlets are collected as [`Synth`] commands
//! (`[IO.Directory]::Delete(P, $true)` → `Remove-Item P -Recurse`,
//! `(New-Object Net.WebClient).DownloadFile(U, P)` → `Invoke-WebRequest U -OutFile=P`,
//! `[Diagnostics.Process]::Start(F, A)` → `Start-Process F A`) for the walker to record.
//!
//! .NET members and static calls are read in `dotnet`.
//!
//! Work is bounded: nesting depth and steps, past which the value is dynamic and the reading
//! is marked incomplete.

use super::dotnet::{format_op, join, replace_ci};
use super::lex::{Src, is_double_quote, is_single_quote, is_space};

/// A value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum V {
    Str(String),
    Num(i64),
    Arr(Vec<V>),
    Bytes(Vec<u8>),
    /// An object of a .NET type (lower case name, without `System.`).
    Obj(String),
    /// The text downloaded from a URL.
    Download(String),
    /// A script block's text.
    Block(String),
    Dyn,
}

impl V {
    /// The value as text, when it is one (numbers and arrays of texts joined by spaces, as
    /// PowerShell converts them).
    pub(crate) fn text(&self) -> Option<String> {
        match self {
            V::Str(s) => Some(s.clone()),
            V::Num(n) => Some(n.to_string()),
            V::Arr(items) => {
                let parts: Option<Vec<String>> = items.iter().map(V::text).collect();
                parts.map(|p| p.join(" "))
            }
            _ => None,
        }
    }

    /// The items of an array (a single value is one item).
    pub(crate) fn items(&self) -> Vec<V> {
        match self {
            V::Arr(a) => a.clone(),
            other => vec![other.clone()],
        }
    }
}

/// A .NET call that acts like a cmdlet: its argv in cmdlet form, and the call as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Synth {
    pub argv: Vec<String>,
    pub via: String,
}

/// Most nested expression levels read.
const MAX_DEPTH: u32 = 48;
/// Most steps (primaries read) per evaluation.
const MAX_STEPS: usize = 20_000;
/// Longest text built by concatenation, repetition or decoding.
pub(crate) const MAX_TEXT: usize = 1 << 20;

/// An evaluation of expressions in one text.
pub(crate) struct Eval<'a> {
    pub(crate) s: &'a Src,
    vars: &'a dyn Fn(&str) -> Option<V>,
    pub calls: Vec<Synth>,
    pub incomplete: Option<String>,
    /// The source text of the arguments of the method call being read (`"u", $b`).
    pub(crate) call_src: String,
    depth: u32,
    steps: usize,
}

pub(crate) fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// A .NET type name without `System.` and brackets, lower case (`[System.IO.File]` → `io.file`).
pub(crate) fn type_name(t: &str) -> String {
    // one layer of brackets: `[char[]]` and `char[]` are both `char[]`
    let t = t.trim();
    let t = match t.strip_prefix('[') {
        Some(r) => r.strip_suffix(']').unwrap_or(r),
        None => t,
    };
    let t = lower(t.trim());
    t.strip_prefix("system.").map(str::to_string).unwrap_or(t)
}

impl<'a> Eval<'a> {
    pub(crate) fn new(s: &'a Src, vars: &'a dyn Fn(&str) -> Option<V>) -> Eval<'a> {
        Eval {
            s,
            vars,
            calls: Vec::new(),
            incomplete: None,
            call_src: String::new(),
            depth: 0,
            steps: 0,
        }
    }

    pub(crate) fn c(&self, i: usize) -> char {
        self.s.at(i)
    }

    fn ws(&self, mut i: usize, to: usize) -> usize {
        while i < to && (is_space(self.c(i)) || matches!(self.c(i), '\r' | '\n')) {
            i += 1;
        }
        i
    }

    fn stop(&mut self, why: &str) -> bool {
        self.steps += 1;
        if self.depth > MAX_DEPTH || self.steps > MAX_STEPS {
            if self.incomplete.is_none() {
                self.incomplete = Some(format!("PowerShell expression {why}"));
            }
            return true;
        }
        false
    }

    /// The value of the expression `s[from..to]`.
    pub(crate) fn eval(&mut self, from: usize, to: usize) -> V {
        let (v, _) = self.binary(from, to);
        v
    }

    /// Lowest precedence: comparison-like operators (`-join`, `-replace`, `-f`, `-eq` …).
    fn binary(&mut self, from: usize, to: usize) -> (V, usize) {
        let (mut v, mut i) = self.additive(from, to);
        loop {
            let j = self.ws(i, to);
            if j >= to || self.c(j) != '-' {
                return (v, j);
            }
            let mut k = j + 1;
            while k < to && self.c(k).is_ascii_alphabetic() {
                k += 1;
            }
            let op = lower(&self.s.text(j + 1, k));
            if op.is_empty() {
                return (v, j);
            }
            let (rhs, e) = self.additive(k, to);
            v = match op.as_str() {
                "join" => join(&v, rhs.text().as_deref().unwrap_or("")),
                "replace" | "ireplace" | "creplace" => {
                    let items = rhs.items();
                    match (v.text(), items.first().and_then(V::text)) {
                        (Some(t), Some(pat))
                            if !pat.contains([
                                '\\', '[', '(', '.', '*', '+', '?', '^', '$', '|', '{',
                            ]) =>
                        {
                            let with = items.get(1).and_then(V::text).unwrap_or_default();
                            V::Str(replace_ci(&t, &pat, &with))
                        }
                        _ => V::Dyn,
                    }
                }
                // `$text -split "`n"`: the parts, split at a literal separator
                "split" | "isplit" | "csplit" => match (v.text(), rhs.text()) {
                    (Some(t), Some(sep))
                        if !sep.is_empty()
                            && !sep.contains([
                                '\\', '[', '(', '.', '*', '+', '?', '^', '$', '|', '{',
                            ]) =>
                    {
                        V::Arr(
                            t.split(sep.as_str())
                                .take(4096)
                                .map(|x| V::Str(x.trim_end_matches('\r').to_string()))
                                .collect(),
                        )
                    }
                    _ => V::Dyn,
                },
                "f" => match v.text() {
                    Some(fmt) => format_op(&fmt, &rhs.items()),
                    None => V::Dyn,
                },
                _ => V::Dyn,
            };
            i = e;
        }
    }

    /// `+` and `*` (and the other arithmetic operators, read as dynamic).
    fn additive(&mut self, from: usize, to: usize) -> (V, usize) {
        let (mut v, mut i) = self.comma(from, to);
        loop {
            let j = self.ws(i, to);
            let op = self.c(j);
            if j >= to || !matches!(op, '+' | '*' | '/' | '%') || self.c(j + 1) == '=' {
                return (v, j);
            }
            let (rhs, e) = self.comma(j + 1, to);
            v = match (op, v, rhs) {
                ('+', V::Str(a), b) => match b.text() {
                    Some(t) if a.len() + t.len() <= MAX_TEXT => V::Str(a + &t),
                    _ => V::Dyn,
                },
                ('+', V::Arr(mut a), b) => {
                    a.extend(b.items());
                    V::Arr(a)
                }
                ('+', V::Num(a), V::Num(b)) => V::Num(a.saturating_add(b)),
                ('*', V::Num(a), V::Num(b)) => V::Num(a.saturating_mul(b)),
                ('*', V::Str(a), V::Num(n))
                    if n >= 0 && a.len().saturating_mul(n as usize) <= MAX_TEXT =>
                {
                    V::Str(a.repeat(n as usize))
                }
                _ => V::Dyn,
            };
            i = e;
        }
    }

    /// `a, b, c`: an array.
    fn comma(&mut self, from: usize, to: usize) -> (V, usize) {
        let (first, mut i) = self.unary(from, to);
        let j = self.ws(i, to);
        if j >= to || self.c(j) != ',' {
            return (first, i);
        }
        let mut items = vec![first];
        i = j;
        while i < to && self.c(i) == ',' && items.len() < 4096 {
            let (v, e) = self.unary(i + 1, to);
            items.push(v);
            i = self.ws(e, to);
        }
        (V::Arr(items), i)
    }

    /// Unary `-join`, `-not`, `!`, casts `[type]`.
    fn unary(&mut self, from: usize, to: usize) -> (V, usize) {
        let i = self.ws(from, to);
        if self.stop("nested too deeply") {
            return (V::Dyn, to);
        }
        if self.c(i) == '-' && self.s.text(i + 1, i + 5).eq_ignore_ascii_case("join") {
            let (v, e) = self.unary(i + 5, to);
            return (join(&v, ""), e);
        }
        // `-1`, `-($s.Length)`: a negative number
        if self.c(i) == '-'
            && (self.c(i + 1).is_ascii_digit() || matches!(self.c(i + 1), '(' | '$'))
        {
            let (v, e) = self.unary(i + 1, to);
            return match v {
                V::Num(n) => (V::Num(n.saturating_neg()), e),
                _ => (V::Dyn, e),
            };
        }
        if self.c(i) == '!'
            || (self.c(i) == '-' && self.s.text(i + 1, i + 4).eq_ignore_ascii_case("not"))
        {
            let skip = if self.c(i) == '!' { 1 } else { 4 };
            let (_, e) = self.unary(i + skip, to);
            return (V::Dyn, e);
        }
        if self.c(i) == '[' {
            // A cast `[char]65`, `[string]$x`; or a static member `[Type]::M(…)`.
            let Some(end) = super::lex::group_end(self.s, i) else {
                return (V::Dyn, to);
            };
            let ty = type_name(&self.s.text(i + 1, end - 1));
            if self.c(end) == ':' && self.c(end + 1) == ':' {
                return self.postfix(V::Obj(format!("[{ty}]")), end, to);
            }
            self.depth += 1;
            let (v, e) = self.unary(end, to);
            self.depth -= 1;
            let v = match (ty.as_str(), v) {
                ("char", V::Num(n)) => {
                    char::from_u32(n as u32).map_or(V::Dyn, |c| V::Str(c.to_string()))
                }
                ("char[]", V::Arr(items)) => V::Arr(
                    items
                        .into_iter()
                        .map(|x| match x {
                            V::Num(n) => {
                                char::from_u32(n as u32).map_or(V::Dyn, |c| V::Str(c.to_string()))
                            }
                            other => other,
                        })
                        .collect(),
                ),
                ("string", v) => v.text().map_or(V::Dyn, V::Str),
                ("scriptblock", V::Str(t)) => V::Block(t),
                (_, v) => v,
            };
            return (v, e);
        }
        let (v, e) = self.primary(i, to);
        self.postfix(v, e, to)
    }

    /// `.Member`, `.Method(args)`, `::Method(args)`, `[index]` after a value.
    fn postfix(&mut self, mut v: V, mut i: usize, to: usize) -> (V, usize) {
        while i < to {
            let c = self.c(i);
            if c == '[' {
                let Some(end) = super::lex::group_end(self.s, i).filter(|e| *e <= to) else {
                    return (V::Dyn, to);
                };
                v = self.index(v, i + 1, end - 1);
                i = end;
                continue;
            }
            let stat = c == ':' && self.c(i + 1) == ':';
            if c != '.' && !stat {
                break;
            }
            let mut k = if stat { i + 2 } else { i + 1 };
            let start = k;
            while k < to && (self.c(k).is_alphanumeric() || self.c(k) == '_') {
                k += 1;
            }
            if k == start {
                break;
            }
            let name = lower(&self.s.text(start, k));
            let mut args = Vec::new();
            let mut end = k;
            if self.c(k) == '(' {
                let Some(e) = super::lex::group_end(self.s, k).filter(|e| *e <= to) else {
                    return (V::Dyn, to);
                };
                self.depth += 1;
                let inner = self.eval(k + 1, e - 1);
                self.depth -= 1;
                args = if k + 1 < e - 1 && self.s.c[k + 1..e - 1].iter().any(|c| !is_space(*c)) {
                    inner.items()
                } else {
                    Vec::new()
                };
                end = e;
                self.call_src = self.s.text(k + 1, e - 1);
            }
            v = self.member(v, &name, &args);
            i = end;
        }
        (v, i)
    }

    fn primary(&mut self, from: usize, to: usize) -> (V, usize) {
        let i = self.ws(from, to);
        if i >= to {
            return (V::Dyn, to);
        }
        let c = self.c(i);
        if is_single_quote(c) {
            let e = super::lex::single_end(self.s, i).unwrap_or(to).min(to);
            let mut out = String::new();
            let mut k = i + 1;
            while k + 1 < e {
                if is_single_quote(self.c(k)) && is_single_quote(self.c(k + 1)) {
                    out.push('\'');
                    k += 2;
                    continue;
                }
                out.push(self.c(k));
                k += 1;
            }
            return (V::Str(out), e);
        }
        if is_double_quote(c) {
            let e = super::lex::double_end(self.s, i).unwrap_or(to).min(to);
            let mut parts = Vec::new();
            super::lex::expandable_parts(self.s, i + 1, e.saturating_sub(1).max(i + 1), &mut parts);
            return (self.parts_value(&parts), e);
        }
        if c == '@'
            && (is_single_quote(self.c(i + 1)) || is_double_quote(self.c(i + 1)))
            && let Some(e) = super::lex::here_end(self.s, i).filter(|e| *e <= to)
        {
            let body = super::lex::here_body(self.s, i, e);
            if is_single_quote(self.c(i + 1)) {
                return (V::Str(body), e);
            }
            let inner = Src::new(&body);
            let mut parts = Vec::new();
            super::lex::expandable_parts(&inner, 0, inner.len(), &mut parts);
            let has_sub = parts.iter().any(|p| matches!(p, super::lex::Part::Sub(..)));
            if has_sub {
                return (V::Dyn, e);
            }
            return (self.parts_value(&parts), e);
        }
        if c.is_ascii_digit() {
            let mut k = i;
            let hex = self.c(i) == '0' && matches!(self.c(i + 1), 'x' | 'X');
            if hex {
                k += 2;
            }
            let start = k;
            while k < to && (self.c(k).is_ascii_hexdigit() && hex || self.c(k).is_ascii_digit()) {
                k += 1;
            }
            let digits = self.s.text(start, k);
            let n = if hex {
                i64::from_str_radix(&digits, 16).ok()
            } else {
                digits.parse::<i64>().ok()
            };
            // `1MB`, `2.5`: a number all the same, not a text
            while k < to && (self.c(k).is_alphanumeric() || self.c(k) == '.') {
                k += 1;
            }
            return (n.map_or(V::Dyn, V::Num), k);
        }
        if c == '$' {
            let open = self.c(i + 1);
            if open == '(' {
                return self.group(i + 1, to);
            }
            let mut parts = Vec::new();
            super::lex::expandable_parts(self.s, i, self.var_end(i, to), &mut parts);
            let e = self.var_end(i, to);
            // a variable alone keeps its value (an array stays an array: `foreach ($s in
            // $list)` walks its items)
            if let [super::lex::Part::Var(name)] = parts.as_slice() {
                return (var_value(self.vars, name).unwrap_or(V::Dyn), e);
            }
            return (self.parts_value(&parts), e);
        }
        if c == '@' && self.c(i + 1) == '(' {
            let (v, e) = self.group(i + 1, to);
            return (V::Arr(v.items()), e);
        }
        if c == '(' {
            return self.group(i, to);
        }
        if c == '{' {
            let Some(e) = super::lex::group_end(self.s, i).filter(|e| *e <= to) else {
                return (V::Dyn, to);
            };
            return (V::Block(self.s.text(i + 1, e - 1)), e);
        }
        // A bareword: a command inside parentheses (`(New-Object Net.WebClient)`, `(iwr u)`)
        // or an operator we do not read.
        let mut k = i;
        while k < to
            && !is_space(self.c(k))
            && !matches!(self.c(k), ')' | '(' | ',' | ';' | '|' | '.' | '[')
        {
            k += 1;
        }
        if k == i {
            return (V::Dyn, i + 1);
        }
        // backticks escape ordinary letters: `n`ew-ob`ject` is `new-object`
        let word = lower(&self.s.text(i, k).replace('`', ""));
        let rest_end = to;
        match word.as_str() {
            "new-object" => {
                let mut j = self.ws(k, rest_end);
                if self.s.text(j, j + 9).eq_ignore_ascii_case("-typename") {
                    j = self.ws(j + 9, rest_end);
                }
                // `New-Object ('Net.'+'WebClient')`, `New-Object $t`: the type name built
                if matches!(self.c(j), '(' | '$') {
                    let (v, _) = self.primary(j, rest_end);
                    return match v.text() {
                        Some(t) => (V::Obj(type_name(&t.replace('`', ""))), rest_end),
                        None => (V::Dyn, rest_end),
                    };
                }
                let mut e = j;
                while e < rest_end && !is_space(self.c(e)) && !matches!(self.c(e), ')' | ';' | '|')
                {
                    e += 1;
                }
                let ty = type_name(&self.s.text(j, e).trim_matches(['\'', '"']).replace('`', ""));
                (V::Obj(ty), rest_end)
            }
            "iwr" | "irm" | "invoke-webrequest" | "invoke-restmethod" | "curl" | "wget" => {
                let rest = self.s.text(k, rest_end);
                let url = rest
                    .split(|c: char| is_space(c) || c == '\'' || c == '"')
                    .find(|w| w.contains("://"))
                    .unwrap_or("URL")
                    .to_string();
                (V::Download(url), rest_end)
            }
            "$true" => (V::Str("true".into()), k),
            // `(Get-PSReadLineOption).HistorySavePath`: PowerShell's history file
            "get-psreadlineoption" => (V::Obj("psreadlineoption".into()), rest_end),
            _ => (V::Dyn, rest_end),
        }
    }

    fn var_end(&self, i: usize, to: usize) -> usize {
        let mut k = i + 1;
        if self.c(k) == '{' {
            while k < to && self.c(k) != '}' {
                k += 1;
            }
            return (k + 1).min(to);
        }
        if matches!(self.c(k), '_' | '?' | '^' | '$') && !self.c(k + 1).is_alphanumeric() {
            return k + 1;
        }
        while k < to
            && (self.c(k).is_alphanumeric()
                || self.c(k) == '_'
                || (self.c(k) == ':' && self.c(k + 1) != ':'))
        {
            k += 1;
        }
        k
    }

    fn group(&mut self, open: usize, to: usize) -> (V, usize) {
        let Some(e) = super::lex::group_end(self.s, open).filter(|e| *e <= to) else {
            return (V::Dyn, to);
        };
        self.depth += 1;
        let v = self.eval(open + 1, e - 1);
        self.depth -= 1;
        (v, e)
    }

    /// The value of word parts (from an expandable string or a bareword).
    pub(crate) fn parts_value(&mut self, parts: &[super::lex::Part]) -> V {
        use super::lex::Part;
        let mut out = String::new();
        for p in parts {
            match p {
                Part::Lit(t) => out.push_str(t),
                // a variable alone is its value, whatever it holds (a download, an object,
                // a block: `iex $code` of `$code = $wc.DownloadString(…)`)
                Part::Var(name) if parts.len() == 1 => {
                    return match var_value(self.vars, name) {
                        Some(v @ (V::Download(_) | V::Block(_) | V::Obj(_) | V::Bytes(_))) => v,
                        Some(v) => v.text().map_or(V::Dyn, V::Str),
                        None => V::Dyn,
                    };
                }
                Part::Var(name) => match var_value(self.vars, name).and_then(|v| v.text()) {
                    Some(t) => out.push_str(&t),
                    None => return V::Dyn,
                },
                Part::Sub(a, b) | Part::Paren(a, b) => {
                    self.depth += 1;
                    let v = self.eval(*a, *b);
                    self.depth -= 1;
                    if parts.len() == 1 {
                        return v;
                    }
                    match v.text() {
                        Some(t) => out.push_str(&t),
                        None => return V::Dyn,
                    }
                }
                Part::Expr(a, b) => {
                    self.depth += 1;
                    let v = self.eval(*a, *b);
                    self.depth -= 1;
                    if parts.len() == 1 {
                        return v;
                    }
                    match v.text() {
                        Some(t) => out.push_str(&t),
                        None => return V::Dyn,
                    }
                }
                Part::Block(a, b) if parts.len() == 1 => return V::Block(self.s.text(*a, *b)),
                _ => return V::Dyn,
            }
            if out.len() > MAX_TEXT {
                return V::Dyn;
            }
        }
        V::Str(out)
    }
}

/// The value of variable `name` (`env:X` for environment variables; well-known ones known).
pub(crate) fn var_value(vars: &dyn Fn(&str) -> Option<V>, name: &str) -> Option<V> {
    let l = lower(name);
    match l.as_str() {
        "true" => return Some(V::Str("true".into())),
        "false" => return Some(V::Str("false".into())),
        "null" => return Some(V::Str(String::new())),
        "home" => return Some(V::Str("~".into())),
        "pshome" => return Some(V::Str("C:/Windows/System32/WindowsPowerShell/v1.0".into())),
        // `$ExecutionContext.InvokeCommand.InvokeScript(…)` runs text as `iex` does
        "executioncontext" => return Some(V::Obj("executioncontext".into())),
        _ => {}
    }
    if let Some(v) = vars(&l) {
        return Some(v);
    }
    let env = l.strip_prefix("env:")?;
    super::winpath::known_env(env).map(|v| V::Str(v.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(t: &str) -> V {
        let s = Src::new(t);
        let vars = |n: &str| (n == "a").then(|| V::Str("Remove-".into()));
        let mut e = Eval::new(&s, &vars);
        e.eval(0, s.len())
    }

    fn st(t: &str) -> V {
        V::Str(t.into())
    }

    #[test]
    fn literal_values() {
        assert_eq!(ev("'Rem' + 'ove-Item'"), st("Remove-Item"));
        assert_eq!(ev("$a + \"Item\""), st("Remove-Item"));
        assert_eq!(ev("('a','b','c') -join ''"), st("abc"));
        assert_eq!(ev("-join ('x','y')"), st("xy"));
        assert_eq!(ev("'{0}-{1}' -f 'Remove','Item'"), st("Remove-Item"));
        assert_eq!(ev("'RXmove-Item'.Replace('X','e')"), st("Remove-Item"));
        assert_eq!(ev("'RXmove-Item' -replace 'x','e'"), st("Remove-Item"));
        assert_eq!(ev("[char]105 + [char]101 + [char]120"), st("iex"));
        assert_eq!(ev("[string]::Join('', @('a', 'b'))"), st("ab"));
        assert_eq!(ev("$env:SystemRoot"), st("C:/Windows"));
        // rm -rf / in UTF-16LE base64
        assert_eq!(
            ev(
                "[System.Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('cgBtACAALQByAGYAIAAvAA=='))"
            ),
            st("rm -rf /")
        );
        assert_eq!(
            ev("(New-Object Net.WebClient).DownloadString('https://x.example/a.ps1')"),
            V::Download("https://x.example/a.ps1".into())
        );
        assert_eq!(
            ev("(iwr https://x.example/a.ps1 -UseBasicParsing).Content"),
            V::Download("https://x.example/a.ps1".into())
        );
        assert_eq!(ev("'a,b' -split ','"), V::Arr(vec![st("a"), st("b")]));
        assert_eq!(ev("'abc'[-1..-3] -join ''"), st("cba"));
        assert_eq!(ev("'abc'[0]"), st("a"));
        assert_eq!(ev("('x','y','z')[2, 0] -join ''"), st("zx"));
        assert_eq!(ev("'abc'.Length"), V::Num(3));
        assert_eq!(ev("-join 'ab'[1..0]"), st("ba"));
        assert_eq!(ev("$unknown + 'x'"), V::Dyn);
        assert_eq!(ev("Get-Date"), V::Dyn);
    }

    #[test]
    fn dotnet_calls_become_cmdlets() {
        let s = Src::new("[IO.Directory]::Delete('C:\\Users\\me', $true)");
        let vars = |_: &str| None;
        let mut e = Eval::new(&s, &vars);
        e.eval(0, s.len());
        assert_eq!(
            e.calls[0].argv,
            ["Remove-Item", "C:\\Users\\me", "-Recurse"]
        );
    }

    #[test]
    fn bounded() {
        let deep = format!("{}'x'{}", "(".repeat(200), ")".repeat(200));
        let s = Src::new(&deep);
        let vars = |_: &str| None;
        let mut e = Eval::new(&s, &vars);
        let v = e.eval(0, s.len());
        assert_eq!(v, V::Dyn);
        assert!(e.incomplete.is_some());
    }
}
