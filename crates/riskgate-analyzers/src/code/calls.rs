//! Walks a token stream and collects calls with resolved names and parsed arguments, while
//! tracking imports, aliases and constant strings in source order (see `bindings`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use riskgate_model::{Language, Span};

use super::analysis::{Analysis, Arg, ArgValue, Assignment, Call, StringLit};
use super::token::{Token, TokenKind};

/// Source text of arguments is kept up to this many bytes.
const MAX_ARG_TEXT: usize = 300;

/// How deep argument values are resolved (`f(g(h(…)))`, `[[[…]]]`). Every call is still
/// collected by the main walk; past this depth an argument's value is only its text and the
/// analysis is incomplete. Without the bound, resolving the arguments of every call of a
/// nesting `n` deep cost O(n²) per call and O(n³) in all (issue 11: `f(` × 3,000 timed out).
pub(crate) const MAX_VALUE_DEPTH: usize = 32;

/// Names bound by imports and assignments, and constant values.
#[derive(Debug, Default, Clone)]
pub(crate) struct Scope {
    pub aliases: HashMap<String, String>,
    pub consts: HashMap<String, ArgValue>,
    pub star: Vec<String>,
    /// Names changed in place anywhere (`b += c`, `n++`): never constants.
    pub mutated: std::collections::HashSet<String>,
}

pub(crate) struct Walker<'a> {
    pub toks: &'a [Token],
    pub code: &'a str,
    pub lang: Language,
    /// Index of the matching bracket for every opening and closing bracket.
    pub partner: Vec<Option<usize>>,
    consumed: RefCell<Vec<bool>>,
    /// Current nesting of [`Walker::value`].
    depth: Cell<usize>,
    /// Set when a value was cut at [`MAX_VALUE_DEPTH`].
    truncated: Cell<bool>,
    /// Fold attempts left for the whole snippet (see `fold`).
    fold_budget: &'a Cell<usize>,
}

/// Fold attempts per snippet (see `Walker::fold`).
const FOLD_BUDGET: usize = 50_000;

/// Collect calls, assignments, imports and strings from `toks` into `a`.
pub(crate) fn collect(toks: &[Token], lang: Language, code: &str, a: &mut Analysis) {
    let mut scope = Scope::default();
    if lang == Language::Python {
        for (k, v) in [("Path", "pathlib.Path"), ("PurePath", "pathlib.PurePath")] {
            scope.aliases.insert(k.into(), v.into());
        }
    }
    // `b += c` inside a callback changes `b` wherever it is: `let b = ''` is not a constant
    for (k, t) in toks.iter().enumerate() {
        let augmented = toks.get(k + 1).is_some_and(|n| {
            matches!(&n.kind, TokenKind::Punct(p)
                if p.len() >= 2 && p.ends_with('=') && !matches!(p.as_str(), "==" | "!=" | "<=" | ">=" | "===" | "!==" | "=>")
                    || p == "++" || p == "--")
        });
        if augmented && let Some(name) = t.ident() {
            scope.mutated.insert(name.to_string());
        }
    }
    let budget = Cell::new(FOLD_BUDGET);
    walk(toks, lang, code, a, &mut scope, &budget);
}

fn walk(
    toks: &[Token],
    lang: Language,
    code: &str,
    a: &mut Analysis,
    scope: &mut Scope,
    budget: &Cell<usize>,
) {
    let w = Walker::new(toks, code, lang, budget);
    let mut stmt_start = true;
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        if matches!(t.kind, TokenKind::Newline)
            || t.is_punct(";")
            || t.is_punct("{")
            || t.is_punct("}")
        {
            stmt_start = true;
            i += 1;
            continue;
        }
        if stmt_start {
            stmt_start = false;
            if let Some(next) = super::bindings::statement(&w, i, scope, a) {
                i = next;
                continue;
            }
        }
        match &t.kind {
            TokenKind::Str(lit) => {
                a.strings.push(StringLit {
                    value: lit.value.clone(),
                    dynamic: lit.interpolated,
                    span: Span::new(t.start, t.end),
                    line: t.line,
                });
                for part in &lit.parts {
                    walk(part, lang, code, a, scope, budget);
                }
                if w.toks.get(i + 1).is_some_and(|n| n.is_punct(".")) {
                    w.chain(i, "str".into(), Vec::new(), false, scope, Some(a));
                }
            }
            TokenKind::Ident(word) if lang == Language::Python && word == "with" => {
                super::bindings::with_items(&w, i + 1, scope);
            }
            TokenKind::Ident(word) if w.is_chain_start(i, word) => {
                let (name, cands, bound) = resolve(scope, word, lang);
                w.chain(i, name, cands, !bound, scope, Some(a));
            }
            TokenKind::Punct(p)
                if (p == "." || p == "?.")
                    && !w.consumed.borrow().get(i).copied().unwrap_or(true) =>
            {
                // a method call on an arbitrary expression: `(a or b).write(x)`
                if let (Some(m), Some(open)) =
                    (w.toks.get(i + 1).and_then(Token::ident), w.toks.get(i + 2))
                    && open.is_punct("(")
                {
                    let m = m.to_string();
                    w.chain(i + 1, format!("?.{m}"), Vec::new(), true, scope, Some(a));
                }
            }
            _ => {}
        }
        i += 1;
    }
    if w.truncated.get() {
        a.incomplete = true;
    }
}

/// Matching bracket index for each bracket token.
fn partners(toks: &[Token]) -> Vec<Option<usize>> {
    let mut out = vec![None; toks.len()];
    let mut stack: Vec<(usize, &str)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if let TokenKind::Punct(p) = &t.kind {
            match p.as_str() {
                "(" | "[" | "{" => stack.push((i, p.as_str())),
                ")" | "]" | "}" => {
                    let want = match p.as_str() {
                        ")" => "(",
                        "]" => "[",
                        _ => "{",
                    };
                    // tolerate unbalanced input: pop until the matching kind
                    while let Some((j, k)) = stack.pop() {
                        if k == want {
                            if let Some(slot) = out.get_mut(i) {
                                *slot = Some(j);
                            }
                            if let Some(slot) = out.get_mut(j) {
                                *slot = Some(i);
                            }
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

const PY_KEYWORDS: [&str; 34] = [
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match",
    "case",
];

const JS_KEYWORDS: [&str; 36] = [
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "export",
    "extends",
    "finally",
    "for",
    "function",
    "if",
    "in",
    "instanceof",
    "let",
    "new",
    "return",
    "switch",
    "throw",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "yield",
    "async",
    "await",
    "of",
    "static",
    "interface",
    "type",
];

/// Names that are globals of the language (not unresolved receivers).
const GLOBALS: [&str; 24] = [
    "open",
    "print",
    "exec",
    "eval",
    "compile",
    "__import__",
    "getattr",
    "input",
    "os",
    "sys",
    "require",
    "process",
    "console",
    "fetch",
    "Deno",
    "Bun",
    "globalThis",
    "window",
    "document",
    "Function",
    "setTimeout",
    "setInterval",
    "this",
    "self",
];

/// Resolve the first name of a chain: (qualified name, candidates, bound?).
pub(crate) fn resolve(scope: &Scope, word: &str, _lang: Language) -> (String, Vec<String>, bool) {
    if let Some(q) = scope.aliases.get(word) {
        return (q.clone(), Vec::new(), true);
    }
    let global = GLOBALS.contains(&word);
    let cands = if global {
        Vec::new()
    } else {
        scope.star.iter().map(|m| format!("{m}.{word}")).collect()
    };
    (word.to_string(), cands, global)
}

/// Module names as rules know them: `node:fs` and `fs/promises` are `fs`.
pub(crate) fn norm_module(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    match m {
        "fs/promises" => "fs".to_string(),
        "child_process/promises" => "child_process".to_string(),
        _ => m.to_string(),
    }
}

fn norm_name(name: String) -> String {
    if let Some(rest) = name.strip_prefix("fs.promises.") {
        return format!("fs.{rest}");
    }
    name
}

impl<'a> Walker<'a> {
    fn new(
        toks: &'a [Token],
        code: &'a str,
        lang: Language,
        fold_budget: &'a Cell<usize>,
    ) -> Walker<'a> {
        Walker {
            toks,
            code,
            lang,
            partner: partners(toks),
            consumed: RefCell::new(vec![false; toks.len()]),
            depth: Cell::new(0),
            truncated: Cell::new(false),
            fold_budget,
        }
    }

    /// A walker over the tokens of an interpolation of this code (a part of an f-string or
    /// template literal), sharing the fold budget.
    pub(crate) fn sub<'b>(&self, toks: &'b [Token]) -> Walker<'b>
    where
        'a: 'b,
    {
        let w = Walker::new(toks, self.code, self.lang, self.fold_budget);
        w.depth.set(self.depth.get() + 1);
        w
    }

    /// Take over whether a sub-walker was cut.
    pub(crate) fn settle(&self, sub: &Walker<'_>) {
        if sub.truncated.get() {
            self.truncated.set(true);
        }
    }

    /// Mark the analysis incomplete (a bound was hit).
    pub(crate) fn mark_truncated(&self) {
        self.truncated.set(true);
    }

    /// Spend one fold attempt; false when the budget is gone.
    pub(crate) fn spend_fold(&self) -> bool {
        let left = self.fold_budget.get();
        if left == 0 {
            return false;
        }
        self.fold_budget.set(left - 1);
        true
    }

    fn is_chain_start(&self, i: usize, word: &str) -> bool {
        let prev = i.checked_sub(1).and_then(|p| self.toks.get(p));
        if prev.is_some_and(|p| p.is_punct(".") || p.is_punct("?.")) {
            return false;
        }
        if prev
            .and_then(Token::ident)
            .is_some_and(|p| matches!(p, "def" | "function" | "class" | "fn"))
        {
            return false;
        }
        let kw = match self.lang {
            Language::Python => PY_KEYWORDS.contains(&word),
            _ => JS_KEYWORDS.contains(&word),
        };
        if kw {
            return false;
        }
        // JavaScript method definitions `name(args) { … }` are not calls
        if self.lang == Language::Js && self.toks.get(i + 1).is_some_and(|t| t.is_punct("(")) {
            let close = self.partner.get(i + 1).copied().flatten();
            if close
                .and_then(|c| self.toks.get(c + 1))
                .is_some_and(|t| t.is_punct("{"))
            {
                return false;
            }
        }
        true
    }

    pub(crate) fn text(&self, from: usize, to_incl: usize) -> String {
        let s = self.toks.get(from).map(|t| t.start).unwrap_or(0);
        let e = self.toks.get(to_incl).map(|t| t.end).unwrap_or(s);
        let t = self.code.get(s..e.max(s)).unwrap_or("");
        truncate(t, MAX_ARG_TEXT)
    }

    /// Follow a chain of `.name`, `(args)` and `[…]` from token `i` (whose resolved name is
    /// `name`); emits calls into `a` when given. Returns (name after the chain, end index
    /// exclusive, whether the last element was a call).
    pub(crate) fn chain(
        &self,
        i: usize,
        mut name: String,
        cands: Vec<String>,
        unresolved: bool,
        scope: &Scope,
        mut a: Option<&mut Analysis>,
    ) -> (String, usize, bool) {
        let start = self.toks.get(i).map(|t| t.start).unwrap_or(0);
        let line = self.toks.get(i).map(|t| t.line).unwrap_or(1);
        let mut cands = cands;
        let mut j = i + 1;
        let mut last_call = false;
        while let Some(t) = self.toks.get(j) {
            if (t.is_punct(".") || t.is_punct("?."))
                && self.toks.get(j + 1).and_then(Token::ident).is_some()
            {
                let m = self.toks.get(j + 1).and_then(Token::ident).unwrap_or("");
                name = format!("{name}.{m}");
                cands = cands.into_iter().map(|c| format!("{c}.{m}")).collect();
                if a.is_some()
                    && let Some(c) = self.consumed.borrow_mut().get_mut(j)
                {
                    *c = true;
                }
                j += 2;
                last_call = false;
            } else if t.is_punct("(") {
                let Some(close) = self.partner.get(j).copied().flatten() else {
                    break;
                };
                let args = self.args(j + 1, close, scope);
                let end = self.toks.get(close).map(|t| t.end).unwrap_or(start);
                let module = match name.as_str() {
                    "require" | "import" | "__import__" | "importlib.import_module" => args
                        .first()
                        .and_then(|a| a.value.text())
                        .filter(|m| !m.contains("{}"))
                        .map(norm_module),
                    "getattr" => match (
                        args.first().map(|a| &a.value),
                        args.get(1).map(|a| &a.value),
                    ) {
                        (
                            Some(ArgValue::Name(n) | ArgValue::Call(n)),
                            Some(ArgValue::Str(attr)),
                        ) => Some(format!("{n}.{attr}")),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(a) = a.as_deref_mut() {
                    let full = norm_name(name.clone());
                    let method = full.rsplit('.').next().unwrap_or(&full).to_string();
                    a.calls.push(Call {
                        name: full,
                        candidates: cands.clone(),
                        method,
                        unresolved_receiver: unresolved,
                        args,
                        span: Span::new(start, end),
                        line,
                        text: truncate(self.code.get(start..end).unwrap_or(""), 200),
                        context: None,
                    });
                }
                match module {
                    Some(m) => name = m,
                    None => {
                        name.push_str("()");
                        cands = cands.into_iter().map(|c| format!("{c}()")).collect();
                    }
                }
                j = close + 1;
                last_call = true;
            } else if t.is_punct("[") {
                let Some(close) = self.partner.get(j).copied().flatten() else {
                    break;
                };
                // `cp['exec' + 'Sync'](…)`, `o[k](…)`: a member called by a constant name
                let member =
                    if self.toks.get(close + 1).is_some_and(|t| t.is_punct("(")) && close > j + 1 {
                        match self.value(j + 1, close, scope) {
                            ArgValue::Str(m) | ArgValue::Dynamic(m)
                                if !m.is_empty()
                                    && m.len() <= 64
                                    && m.chars()
                                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
                            {
                                Some(m)
                            }
                            _ => None,
                        }
                    } else {
                        None
                    };
                match member {
                    Some(m) => {
                        name = format!("{name}.{m}");
                        cands = cands.into_iter().map(|c| format!("{c}.{m}")).collect();
                    }
                    None => name.push_str("[]"),
                }
                j = close + 1;
                last_call = false;
            } else if self.lang == Language::Js
                && t.str_lit().is_some()
                && matches!(
                    self.toks.get(j.wrapping_sub(1)).map(|p| &p.kind),
                    Some(TokenKind::Ident(_))
                )
            {
                // tagged template: name`…`
                if let Some(a) = a.as_deref_mut() {
                    let lit = t.str_lit().cloned().unwrap_or_default();
                    let value = if lit.interpolated {
                        ArgValue::Dynamic(lit.value)
                    } else {
                        ArgValue::Str(lit.value)
                    };
                    let full = norm_name(name.clone());
                    let method = full.rsplit('.').next().unwrap_or(&full).to_string();
                    a.calls.push(Call {
                        name: full,
                        candidates: cands.clone(),
                        method,
                        unresolved_receiver: unresolved,
                        args: vec![Arg {
                            keyword: None,
                            value,
                            text: self.text(j, j),
                        }],
                        span: Span::new(start, t.end),
                        line,
                        text: truncate(self.code.get(start..t.end).unwrap_or(""), 200),
                        context: None,
                    });
                }
                name.push_str("()");
                j += 1;
                last_call = true;
            } else {
                break;
            }
        }
        (norm_name(name), j, last_call)
    }

    /// Parse the arguments between `from` (inclusive) and `close` (exclusive).
    pub(crate) fn args(&self, from: usize, close: usize, scope: &Scope) -> Vec<Arg> {
        let mut out = Vec::new();
        let mut piece_start = from;
        let mut k = from;
        while k <= close {
            let at_end = k == close;
            let is_comma = self.toks.get(k).is_some_and(|t| t.is_punct(","));
            if at_end || is_comma {
                if piece_start < k {
                    out.push(self.arg(piece_start, k, scope));
                }
                piece_start = k + 1;
                k += 1;
                continue;
            }
            k = self.skip_group(k) + 1;
        }
        out
    }

    /// If token `k` opens a bracket group, the index of its closing bracket; else `k`.
    pub(crate) fn skip_group(&self, k: usize) -> usize {
        match self.toks.get(k) {
            Some(t) if t.is_punct("(") || t.is_punct("[") || t.is_punct("{") => self
                .partner
                .get(k)
                .copied()
                .flatten()
                .filter(|c| *c > k)
                .unwrap_or(k),
            _ => k,
        }
    }

    fn arg(&self, from: usize, to: usize, scope: &Scope) -> Arg {
        let (keyword, vstart) = match (self.toks.get(from), self.toks.get(from + 1)) {
            (Some(t), Some(eq))
                if self.lang == Language::Python && t.ident().is_some() && eq.is_punct("=") =>
            {
                (t.ident().map(String::from), from + 2)
            }
            _ => (None, from),
        };
        let value = self.value(vstart, to, scope);
        Arg {
            keyword,
            value,
            text: self.text(from, to.saturating_sub(1)),
        }
    }

    /// The value of the expression in tokens `[from, to)`, resolved at most
    /// [`MAX_VALUE_DEPTH`] values deep (deeper: its text, and the analysis is incomplete).
    pub(crate) fn value(&self, from: usize, to: usize, scope: &Scope) -> ArgValue {
        let depth = self.depth.get();
        if depth >= MAX_VALUE_DEPTH {
            self.truncated.set(true);
            return ArgValue::Other(self.text(from, to.saturating_sub(1)));
        }
        self.depth.set(depth + 1);
        let v = self.value_at(from, to, scope);
        self.depth.set(depth);
        v
    }

    fn value_at(&self, from: usize, to: usize, scope: &Scope) -> ArgValue {
        let Some(first) = self.toks.get(from) else {
            return ArgValue::Other(String::new());
        };
        let text = || self.text(from, to.saturating_sub(1));
        let len = to.saturating_sub(from);
        // adjacent string literals (implicit concatenation)
        if (from..to).all(|k| self.toks.get(k).is_some_and(|t| t.str_lit().is_some())) {
            let mut s = String::new();
            let mut dynamic = false;
            for k in from..to {
                if let Some(l) = self.toks.get(k).and_then(Token::str_lit) {
                    // f-strings and template literals whose parts are constants
                    match l.interpolated {
                        true => match self.fold_interpolated(&l.parts, &l.value, scope) {
                            Some(v) => s.push_str(&v),
                            None => {
                                s.push_str(&l.value);
                                dynamic = true;
                            }
                        },
                        false => s.push_str(&l.value),
                    }
                }
            }
            if s.len() > super::fold::MAX_FOLDED {
                self.truncated.set(true);
                return ArgValue::Other(text());
            }
            return if dynamic {
                ArgValue::Dynamic(s)
            } else {
                ArgValue::Str(s)
            };
        }
        if len == 1 {
            match &first.kind {
                TokenKind::Num(n) => return ArgValue::Num(n.clone()),
                TokenKind::Ident(w) => {
                    return match w.as_str() {
                        "True" | "true" => ArgValue::Bool(true),
                        "False" | "false" => ArgValue::Bool(false),
                        "None" | "null" | "undefined" => ArgValue::Null,
                        _ => match scope.consts.get(w) {
                            Some(v) => v.clone(),
                            None => ArgValue::Name(resolve(scope, w, self.lang).0),
                        },
                    };
                }
                _ => {}
            }
        }
        if (first.is_punct("[") || first.is_punct("(")) && self.skip_group(from) + 1 == to {
            let close = self.skip_group(from);
            let items = self
                .args(from + 1, close, scope)
                .into_iter()
                .map(|a| a.value)
                .collect();
            return ArgValue::List(items);
        }
        if first.is_punct("{") && self.skip_group(from) + 1 == to {
            return ArgValue::Object(text());
        }
        if let Some(v) = self.fold(from, to, scope) {
            return v;
        }
        if let Some(v) = self.concatenation(from, to, scope) {
            return v;
        }
        if first.ident().is_some() || first.str_lit().is_some() {
            // a chain: resolve it without emitting (its calls are collected by the main walk)
            let (base, cands) = match first.ident() {
                Some(w) if w == "new" || w == "await" => return self.value(from + 1, to, scope),
                Some(w) => {
                    let (n, c, _) = resolve(scope, w, self.lang);
                    (n, c)
                }
                None => ("str".to_string(), Vec::new()),
            };
            let (name, end, was_call) = self.chain(from, base, cands, false, scope, None);
            if end == to {
                return if was_call {
                    ArgValue::Call(name.trim_end_matches("()").to_string())
                } else {
                    ArgValue::Name(name)
                };
            }
        }
        ArgValue::Other(text())
    }

    /// Record `target = …` assignments to attribute or item paths.
    pub(crate) fn assignment(&self, i: usize, eq: usize, scope: &Scope, a: &mut Analysis) {
        let Some(first) = self.toks.get(i).and_then(Token::ident) else {
            return;
        };
        let (base, _, _) = resolve(scope, first, self.lang);
        let (name, end, _) = self.chain(i, base, Vec::new(), false, scope, None);
        if end == eq && name.contains(['.', '[']) {
            let start = self.toks.get(i).map(|t| t.start).unwrap_or(0);
            let stop = self
                .toks
                .get(eq.saturating_sub(1))
                .map(|t| t.end)
                .unwrap_or(start);
            let line = self.toks.get(i).map(|t| t.line).unwrap_or(1);
            a.assignments.push(Assignment {
                target: name,
                span: Span::new(start, stop),
                line,
            });
        }
    }
}

/// Truncate to at most `max` bytes on a character boundary, marking the cut with `…`.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or(""))
}
