//! Required-literal extraction for the prefilter: from a regex's HIR, a small set of lowercase
//! literals of which at least one occurs in every match. Patterns without such a set (or with
//! literals shorter than 2 bytes) stay unfiltered and go into the regex set.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Most alternatives kept in a literal set.
const MAX_SET: usize = 96;
/// Shortest literal worth prefiltering on.
const MIN_LEN: usize = 2;

type Set = Vec<Vec<u8>>;

/// The required literal set of `hir`, lowercased, deduplicated; `None` when there is none good
/// enough.
pub fn required(hir: &Hir) -> Option<Vec<String>> {
    let set = req(hir)?;
    if set.is_empty() || set.iter().any(|l| l.len() < MIN_LEN) || set.len() > MAX_SET {
        return None;
    }
    let mut out: Vec<String> = set
        .into_iter()
        .map(|l| String::from_utf8_lossy(&l).to_ascii_lowercase())
        .collect();
    out.sort();
    out.dedup();
    Some(out)
}

/// The finite set of strings `hir` matches, lowercased (bounded).
fn exact(hir: &Hir) -> Option<Set> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Some(vec![Vec::new()]),
        HirKind::Literal(lit) => Some(vec![lit.0.to_ascii_lowercase()]),
        HirKind::Class(class) => class_set(class),
        HirKind::Capture(c) => exact(&c.sub),
        HirKind::Concat(children) => {
            let mut acc: Set = vec![Vec::new()];
            for child in children {
                acc = product(&acc, &exact(child)?)?;
            }
            Some(acc)
        }
        HirKind::Alternation(children) => {
            let mut acc: Set = Vec::new();
            for child in children {
                acc.extend(exact(child)?);
                dedup(&mut acc);
                if acc.len() > MAX_SET {
                    return None;
                }
            }
            Some(acc)
        }
        HirKind::Repetition(r) => {
            let max = r.max?;
            if r.min != max || max > 3 {
                return None;
            }
            let sub = exact(&r.sub)?;
            let mut acc: Set = vec![Vec::new()];
            for _ in 0..max {
                acc = product(&acc, &sub)?;
            }
            Some(acc)
        }
    }
}

/// A class as a set of lowercased single bytes, when small.
fn class_set(class: &Class) -> Option<Set> {
    let mut bytes: Vec<u8> = Vec::new();
    match class {
        Class::Bytes(b) => {
            for r in b.ranges() {
                if usize::from(r.end() - r.start()) > 8 {
                    return None;
                }
                bytes.extend(r.start()..=r.end());
            }
        }
        Class::Unicode(u) => {
            for r in u.ranges() {
                let (s, e) = (u32::from(r.start()), u32::from(r.end()));
                if e > 0x7f || e - s > 8 {
                    return None;
                }
                bytes.extend((s..=e).filter_map(|c| u8::try_from(c).ok()));
            }
        }
    }
    let mut set: Set = bytes.iter().map(|b| vec![b.to_ascii_lowercase()]).collect();
    dedup(&mut set);
    (set.len() <= 4).then_some(set)
}

fn product(a: &Set, b: &Set) -> Option<Set> {
    if a.len() * b.len() > MAX_SET {
        return None;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let mut v = x.clone();
            v.extend_from_slice(y);
            out.push(v);
        }
    }
    dedup(&mut out);
    Some(out)
}

fn dedup(s: &mut Set) {
    s.sort();
    s.dedup();
}

/// Quality of a set: (shortest literal, fewer alternatives better).
fn quality(s: &Set) -> (usize, isize) {
    let min = s.iter().map(Vec::len).min().unwrap_or(0);
    (min, -(s.len() as isize))
}

fn better(a: Option<Set>, b: Option<Set>) -> Option<Set> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if quality(&b) > quality(&a) { b } else { a }),
        (a, None) => a,
        (None, b) => b,
    }
}

fn usable(s: &Set) -> bool {
    !s.is_empty() && s.len() <= MAX_SET && s.iter().all(|l| !l.is_empty())
}

/// A set of literals of which one occurs in every match of `hir`.
fn req(hir: &Hir) -> Option<Set> {
    if let Some(e) = exact(hir)
        && usable(&e)
    {
        return Some(e);
    }
    match hir.kind() {
        HirKind::Capture(c) => req(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => req(&r.sub),
        HirKind::Alternation(children) => {
            let mut acc: Set = Vec::new();
            for child in children {
                acc.extend(req(child)?);
            }
            dedup(&mut acc);
            usable(&acc).then_some(acc)
        }
        HirKind::Concat(children) => {
            let mut best: Option<Set> = None;
            let mut run: Option<Set> = Some(vec![Vec::new()]);
            for child in children {
                match exact(child) {
                    Some(e) => {
                        let prev = run.take().unwrap_or_else(|| vec![Vec::new()]);
                        match product(&prev, &e) {
                            Some(p) => run = Some(p),
                            None => {
                                // The run grew too large: keep it as a candidate, restart.
                                if usable(&prev) {
                                    best = better(best, Some(prev));
                                }
                                run = Some(e);
                            }
                        }
                    }
                    None => {
                        if let Some(r) = run.take().filter(usable) {
                            best = better(best, Some(r));
                        }
                        run = Some(vec![Vec::new()]);
                        best = better(best, req(child).filter(usable));
                    }
                }
            }
            if let Some(r) = run.filter(usable) {
                best = better(best, Some(r));
            }
            best
        }
        _ => None,
    }
}
