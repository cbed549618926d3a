//! Statement-level bookkeeping for the call walker: imports (`import a.b as c`,
//! `from m import x as y`, `from m import *`, ES `import … from 'm'`, TS `import x = require`),
//! aliases (`rt = shutil.rmtree`, `const fs = require('fs')`, destructuring), constant strings
//! (`path = '/home/u'`), `with … as name`, and assignments to attribute paths.

use riskgate_model::Language;

use super::analysis::{Analysis, ArgValue};
use super::calls::{Scope, Walker, norm_module, resolve};
use super::token::{Token, TokenKind};

/// Handle the statement starting at token `i`. Returns the index to continue at when the
/// statement was consumed entirely (imports), or None to let the walker scan it.
pub(crate) fn statement(
    w: &Walker<'_>,
    i: usize,
    scope: &mut Scope,
    a: &mut Analysis,
) -> Option<usize> {
    let end = stmt_end(w, i);
    if w.lang == Language::Python {
        comprehension_loops(w, i, end, scope);
    }
    let first = w.toks.get(i)?.ident()?;
    match (w.lang, first) {
        (Language::Python, "import") => {
            py_import(w, i + 1, end, scope, a);
            Some(end)
        }
        (Language::Python, "from") => {
            py_from_import(w, i + 1, end, scope, a);
            Some(end)
        }
        (Language::Js, "import")
            if !w
                .toks
                .get(i + 1)
                .is_some_and(|t| t.is_punct("(") || t.is_punct(".")) =>
        {
            js_import(w, i + 1, end, scope, a);
            Some(end)
        }
        (Language::Js, "export") => statement(w, i + 1, scope, a).or(Some(i + 1)),
        (Language::Js, "const" | "let" | "var") => {
            declaration(w, i + 1, end, scope);
            None
        }
        (_, "for") => {
            loop_over_literals(w, i, scope);
            None
        }
        _ => {
            if w.toks.get(i + 1).is_some_and(|t| t.is_punct("=")) {
                declaration(w, i, end, scope);
            } else if let Some(eq) = assignment_eq(w, i, end) {
                w.assignment(i, eq, scope, a);
            }
            None
        }
    }
}

/// A loop over a literal list of strings (`for d in ["dist", "build"]:`, `for (const d of
/// ["dist", ".next"])`): the loop variable holds one of them, the list as its value.
fn loop_over_literals(w: &Walker<'_>, i: usize, scope: &mut Scope) {
    let ident = |k: usize| w.toks.get(k).and_then(Token::ident);
    let (name, open) = match w.lang {
        Language::Python if ident(i + 2) == Some("in") => (ident(i + 1), i + 3),
        Language::Js
            if w.toks.get(i + 1).is_some_and(|t| t.is_punct("("))
                && matches!(ident(i + 2), Some("const" | "let" | "var"))
                && ident(i + 4) == Some("of") =>
        {
            (ident(i + 3), i + 5)
        }
        _ => return,
    };
    let Some(name) = name.map(String::from) else {
        return;
    };
    if !w
        .toks
        .get(open)
        .is_some_and(|t| t.is_punct("[") || t.is_punct("("))
    {
        return;
    }
    let close = w.skip_group(open);
    match w.value(open, close + 1, scope) {
        ArgValue::List(items)
            if !items.is_empty()
                && items.iter().all(|v| matches!(v, ArgValue::Str(_)))
                && !scope.mutated.contains(&name) =>
        {
            scope.aliases.remove(&name);
            scope.consts.insert(name, ArgValue::List(items));
        }
        _ => {
            scope.consts.remove(&name);
        }
    }
}

/// The loops of the comprehensions and generator expressions inside a statement
/// (`[shutil.rmtree(p) for p in ("build", "dist")]`): each binds its variable as a `for`
/// statement over the same list does, before the call that uses it is read.
fn comprehension_loops(w: &Walker<'_>, i: usize, end: usize, scope: &mut Scope) {
    for k in i + 1..end {
        if w.toks.get(k).and_then(Token::ident) == Some("for") {
            loop_over_literals(w, k, scope);
        }
    }
}

/// End of the statement starting at `i` (exclusive): the next newline, `;` or unbalanced `}`
/// outside brackets.
pub(crate) fn stmt_end(w: &Walker<'_>, i: usize) -> usize {
    let mut k = i;
    while let Some(t) = w.toks.get(k) {
        if matches!(t.kind, TokenKind::Newline)
            || t.is_punct(";")
            || t.is_punct("}")
            || t.is_punct(")")
            || t.is_punct("]")
        {
            return k;
        }
        k = w.skip_group(k) + 1;
    }
    k
}

/// The first `=` (or augmented assignment) at bracket depth 0 in `[i, end)`.
fn assignment_eq(w: &Walker<'_>, i: usize, end: usize) -> Option<usize> {
    let mut k = i;
    while k < end {
        let t = w.toks.get(k)?;
        if let TokenKind::Punct(p) = &t.kind
            && (p == "="
                || (p.ends_with('=')
                    && p.len() >= 2
                    && !matches!(p.as_str(), "==" | "!=" | "<=" | ">=" | "===" | "!==")))
        {
            return Some(k);
        }
        k = w.skip_group(k) + 1;
    }
    None
}

/// `NAME = rhs`, `NAME: T = rhs` (after `const`/`let`/`var` in JS), and JS destructuring.
fn declaration(w: &Walker<'_>, i: usize, end: usize, scope: &mut Scope) {
    let Some(eq) = assignment_eq(w, i, end) else {
        return;
    };
    if !w.toks.get(eq).is_some_and(|t| t.is_punct("=")) {
        return;
    }
    let mut rhs = eq + 1;
    // JS: stop at the first declarator (`const a = 1, b = 2`)
    let mut rhs_end = end;
    let mut k = rhs;
    while k < end {
        if w.lang == Language::Js && w.toks.get(k).is_some_and(|t| t.is_punct(",")) {
            rhs_end = k;
            break;
        }
        k = w.skip_group(k) + 1;
    }
    while w
        .toks
        .get(rhs)
        .and_then(Token::ident)
        .is_some_and(|x| x == "await" || x == "new")
    {
        rhs += 1;
    }
    let Some(target) = w.toks.get(i) else { return };
    if target.is_punct("{") {
        let Some(base) = rhs_name(w, rhs, rhs_end, scope) else {
            return;
        };
        let close = w.skip_group(i);
        destructure(w, i + 1, close, &base, scope);
        return;
    }
    let Some(name) = target.ident().map(String::from) else {
        return;
    };
    // only simple names (a type annotation may sit between the name and `=`)
    if !(eq == i + 1 || w.toks.get(i + 1).is_some_and(|t| t.is_punct(":"))) {
        return;
    }
    if let Some(base) = rhs_name(w, rhs, rhs_end, scope) {
        if base != name {
            scope.consts.remove(&name);
            scope.aliases.insert(name, base);
        }
        return;
    }
    match w.value(rhs, rhs_end, scope) {
        v @ (ArgValue::Str(_) | ArgValue::Dynamic(_) | ArgValue::List(_))
            if !scope.mutated.contains(&name) =>
        {
            scope.aliases.remove(&name);
            scope.consts.insert(name, v);
        }
        _ => {
            scope.aliases.remove(&name);
            scope.consts.remove(&name);
        }
    }
}

/// The resolved name of a right-hand side that is a single chain (`shutil.rmtree`,
/// `require('fs')`, `Path('/x')` → `pathlib.Path()`).
fn rhs_name(w: &Walker<'_>, from: usize, to: usize, scope: &Scope) -> Option<String> {
    let first = w.toks.get(from)?;
    let word = first.ident()?;
    if matches!(
        word,
        "True" | "False" | "None" | "true" | "false" | "null" | "undefined"
    ) {
        return None;
    }
    let (base, cands, _) = resolve(scope, word, w.lang);
    let (name, end, _) = w.chain(from, base, cands, false, scope, None);
    (end == to).then_some(name)
}

/// `{ a, b: c, d = 1, ...rest }` bound from `base`.
fn destructure(w: &Walker<'_>, from: usize, close: usize, base: &str, scope: &mut Scope) {
    let mut k = from;
    while k < close {
        let key = w.toks.get(k).and_then(Token::ident).map(String::from);
        let mut local = key.clone();
        let mut next = k + 1;
        if w.toks.get(k + 1).is_some_and(|t| t.is_punct(":")) {
            local = w.toks.get(k + 2).and_then(Token::ident).map(String::from);
            next = k + 3;
        }
        if let (Some(key), Some(local)) = (key, local) {
            scope.consts.remove(&local);
            scope.aliases.insert(local, format!("{base}.{key}"));
        }
        // skip to the next comma
        k = next;
        while k < close && !w.toks.get(k).is_some_and(|t| t.is_punct(",")) {
            k = w.skip_group(k) + 1;
        }
        k += 1;
    }
}

/// `with X as NAME, Y as NAME2:`
pub(crate) fn with_items(w: &Walker<'_>, from: usize, scope: &mut Scope) {
    let mut k = from;
    // `with (a as x, b as y):`
    if w.toks.get(k).is_some_and(|t| t.is_punct("(")) && w.skip_group(k) > k {
        k += 1;
    }
    loop {
        while w.toks.get(k).and_then(Token::ident) == Some("await") {
            k += 1;
        }
        let Some(word) = w.toks.get(k).and_then(Token::ident) else {
            return;
        };
        let (base, cands, _) = resolve(scope, word, w.lang);
        let (name, end, _) = w.chain(k, base, cands, false, scope, None);
        k = end;
        if w.toks.get(k).and_then(Token::ident) == Some("as") {
            if let Some(local) = w.toks.get(k + 1).and_then(Token::ident) {
                scope.aliases.insert(local.to_string(), name);
            }
            k += 2;
        }
        if !w.toks.get(k).is_some_and(|t| t.is_punct(",")) {
            return;
        }
        k += 1;
    }
}

/// A dotted name `a.b.c` from `k`: (name, next index).
fn dotted(w: &Walker<'_>, mut k: usize, end: usize) -> (String, usize) {
    let mut name = String::new();
    while k < end {
        match w.toks.get(k).map(|t| &t.kind) {
            Some(TokenKind::Ident(x)) if name.is_empty() || name.ends_with('.') => name.push_str(x),
            Some(TokenKind::Punct(p)) if p == "." || p == "..." => name.push_str(p),
            _ => break,
        }
        k += 1;
    }
    (name, k)
}

fn py_import(w: &Walker<'_>, from: usize, end: usize, scope: &mut Scope, a: &mut Analysis) {
    let mut k = from;
    while k < end {
        let (module, next) = dotted(w, k, end);
        k = next;
        if module.is_empty() {
            k += 1;
            continue;
        }
        a.imports.push(module.clone());
        if w.toks.get(k).and_then(Token::ident) == Some("as") {
            if let Some(local) = w.toks.get(k + 1).and_then(Token::ident) {
                scope.aliases.insert(local.to_string(), module.clone());
            }
            k += 2;
        } else if let Some(top) = module.split('.').next() {
            scope.aliases.insert(top.to_string(), top.to_string());
        }
        while k < end && !w.toks.get(k).is_some_and(|t| t.is_punct(",")) {
            k += 1;
        }
        k += 1;
    }
}

fn py_from_import(w: &Walker<'_>, from: usize, end: usize, scope: &mut Scope, a: &mut Analysis) {
    let (module, mut k) = dotted(w, from, end);
    let module = module.trim_start_matches('.').to_string();
    if w.toks.get(k).and_then(Token::ident) != Some("import") {
        return;
    }
    k += 1;
    a.imports.push(module.clone());
    let prefix = |n: &str| {
        if module.is_empty() {
            n.to_string()
        } else {
            format!("{module}.{n}")
        }
    };
    while k < end {
        let t = w.toks.get(k);
        if t.is_some_and(|t| t.is_punct("*")) {
            scope.star.push(module.clone());
        } else if let Some(name) = t.and_then(Token::ident) {
            let mut local = name.to_string();
            if w.toks.get(k + 1).and_then(Token::ident) == Some("as") {
                if let Some(l) = w.toks.get(k + 2).and_then(Token::ident) {
                    local = l.to_string();
                }
                k += 2;
            }
            scope.consts.remove(&local);
            scope.aliases.insert(local, prefix(name));
        }
        k += 1;
    }
}

fn js_import(w: &Walker<'_>, from: usize, end: usize, scope: &mut Scope, a: &mut Analysis) {
    // the module: the last string literal of the statement
    let Some((mpos, module)) = (from..end).rev().find_map(|k| {
        w.toks
            .get(k)
            .and_then(Token::str_lit)
            .map(|s| (k, norm_module(&s.value)))
    }) else {
        return;
    };
    a.imports.push(module.clone());
    let mut k = from;
    if w.toks.get(k).and_then(Token::ident) == Some("type") {
        return;
    }
    // TS `import x = require('m')`
    if let (Some(local), Some(eq)) = (w.toks.get(k).and_then(Token::ident), w.toks.get(k + 1))
        && eq.is_punct("=")
    {
        scope.aliases.insert(local.to_string(), module);
        return;
    }
    while k < mpos {
        let Some(t) = w.toks.get(k) else { break };
        if t.is_punct("*") {
            if w.toks.get(k + 1).and_then(Token::ident) == Some("as")
                && let Some(local) = w.toks.get(k + 2).and_then(Token::ident)
            {
                scope.aliases.insert(local.to_string(), module.clone());
            }
            k += 3;
            continue;
        }
        if t.is_punct("{") {
            let close = w.skip_group(k);
            let mut j = k + 1;
            while j < close {
                if let Some(name) = w.toks.get(j).and_then(Token::ident) {
                    if name == "type" && w.toks.get(j + 1).and_then(Token::ident).is_some() {
                        j += 1;
                        continue;
                    }
                    let mut local = name.to_string();
                    if w.toks.get(j + 1).and_then(Token::ident) == Some("as") {
                        if let Some(l) = w.toks.get(j + 2).and_then(Token::ident) {
                            local = l.to_string();
                        }
                        j += 2;
                    }
                    let target = if name == "default" {
                        module.clone()
                    } else {
                        format!("{module}.{name}")
                    };
                    scope.aliases.insert(local, target);
                }
                j += 1;
            }
            k = close + 1;
            continue;
        }
        if let Some(name) = t.ident()
            && name != "from"
        {
            scope.aliases.insert(name.to_string(), module.clone());
        }
        k += 1;
    }
}
