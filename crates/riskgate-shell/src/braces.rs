//! Brace expansion, as bash does it before every other expansion: an unquoted `{a,b}` or
//! `{1..3}` in a word makes one word per alternative (`~/.{bashrc,zshrc}` → `~/.bashrc`
//! `~/.zshrc`; `{rm,-rf,/}` → `rm -rf /`). Quotes, `${…}` and `$(…)` are left alone, as are
//! braces without a comma or a sequence (`find -exec … {} \;`, `{}`).
//!
//! Bounded: at most [`MAX_WORDS`] words from one word and [`MAX_DEPTH`] nested levels; past
//! either, the word is kept as written (and rated as such).

/// Most words one word may expand into.
pub(crate) const MAX_WORDS: usize = 64;
/// Longest word looked at (the search for a group is quadratic in the worst case).
const MAX_WORD_LEN: usize = 1024;
/// Deepest nesting of braces expanded.
const MAX_DEPTH: usize = 8;

/// The words `raw` expands into, or `None` when it holds no brace expansion (or one past the
/// bounds).
pub(crate) fn expand(raw: &str) -> Option<Vec<String>> {
    if !raw.contains('{') || raw.len() > MAX_WORD_LEN {
        return None;
    }
    let mut out = Vec::new();
    if !expand_into(raw, 0, &mut out) || out.len() <= 1 && out.first().is_some_and(|w| w == raw) {
        return None;
    }
    Some(out)
}

/// Append the expansions of `raw` to `out`; false when a bound was passed.
fn expand_into(raw: &str, depth: usize, out: &mut Vec<String>) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Some((open, close)) = first_group(raw) else {
        if out.len() >= MAX_WORDS {
            return false;
        }
        out.push(raw.to_string());
        return true;
    };
    let (pre, inner, post) = (&raw[..open], &raw[open + 1..close], &raw[close + 1..]);
    let alternatives = match sequence(inner) {
        Some(seq) => seq,
        None => split_commas(inner),
    };
    for alt in alternatives {
        if !expand_into(&format!("{pre}{alt}{post}"), depth + 1, out) {
            return false;
        }
    }
    true
}

/// The bytes of `b` from `from` on that bash would brace-expand, with their offsets: quoted
/// text, escaped bytes, `${…}`, `$(…)` and backquoted substitutions are stepped over (their
/// braces and commas are not expansion syntax). The one scanner of this module.
fn top_level(b: &[u8], from: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = from;
    std::iter::from_fn(move || {
        while let Some(&c) = b.get(i) {
            match c {
                b'\\' => i += 2,
                b'\'' => {
                    i = b
                        .get(i + 1..)
                        .and_then(|r| r.iter().position(|&x| x == b'\''))
                        .map_or(b.len(), |p| i + p + 2);
                }
                b'"' | b'`' => {
                    let mut k = i + 1;
                    while k < b.len() && b[k] != c {
                        k += if b[k] == b'\\' { 2 } else { 1 };
                    }
                    i = k + 1;
                }
                b'$' if matches!(b.get(i + 1), Some(b'{' | b'(')) => {
                    i = skip_dollar_group(b, i + 1)
                }
                _ => {
                    i += 1;
                    return Some((i - 1, c));
                }
            }
        }
        None
    })
}

/// The byte offsets of the first unquoted `{` … `}` group holding a top-level comma or a
/// `..` sequence.
fn first_group(raw: &str) -> Option<(usize, usize)> {
    let b = raw.as_bytes();
    top_level(b, 0)
        .filter(|&(_, c)| c == b'{')
        .find_map(|(i, _)| {
            let close = matching_close(b, i)?;
            let inner = raw.get(i + 1..close)?;
            (has_top_level_comma(inner) || sequence(inner).is_some()).then_some((i, close))
        })
}

/// The index just past the `${…}` / `$(…)` group opened at `i` (the `{` or `(`).
fn skip_dollar_group(b: &[u8], i: usize) -> usize {
    let (open, close) = match b.get(i) {
        Some(b'{') => (b'{', b'}'),
        _ => (b'(', b')'),
    };
    let mut depth = 0usize;
    let mut k = i;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 1,
            c if c == open => depth += 1,
            c if c == close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    b.len()
}

/// The `}` that closes the `{` at `open` (nested braces counted, quotes skipped).
fn matching_close(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in top_level(b, open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The parts of `inner` between its top-level commas.
fn split_commas(inner: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (k, c) in top_level(inner.as_bytes(), 0) {
        match c {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(inner.get(start..k).unwrap_or_default().to_string());
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(inner.get(start..).unwrap_or_default().to_string());
    parts
}

fn has_top_level_comma(inner: &str) -> bool {
    split_commas(inner).len() > 1
}

/// `a..b` (numbers or single letters, optional `..step`), bounded by [`MAX_WORDS`].
fn sequence(inner: &str) -> Option<Vec<String>> {
    let mut parts = inner.split("..");
    let (a, b) = (parts.next()?, parts.next()?);
    let step = match parts.next() {
        Some(s) => s.parse::<i64>().ok()?.unsigned_abs().max(1),
        None => 1,
    };
    if parts.next().is_some() {
        return None;
    }
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let n = x.abs_diff(y) / step + 1;
        if n as usize > MAX_WORDS {
            return None;
        }
        let up = y >= x;
        return Some(
            (0..n)
                .map(|k| {
                    let d = (k * step) as i64;
                    (if up { x + d } else { x - d }).to_string()
                })
                .collect(),
        );
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    let (x, y) = (ca.next()?, cb.next()?);
    if ca.next().is_some()
        || cb.next().is_some()
        || !x.is_ascii_alphabetic()
        || !y.is_ascii_alphabetic()
    {
        return None;
    }
    let (x, y) = (x as u8, y as u8);
    let up = y >= x;
    let n = u64::from(x.abs_diff(y)) / step + 1;
    Some(
        (0..n)
            .map(|k| {
                let d = (k * step) as u8;
                char::from(if up { x + d } else { x - d }).to_string()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::expand;

    fn e(raw: &str) -> Option<Vec<String>> {
        expand(raw)
    }

    #[test]
    fn alternatives_and_sequences() {
        assert_eq!(
            e("~/.{bashrc,profile,zshrc}").unwrap_or_default(),
            ["~/.bashrc", "~/.profile", "~/.zshrc"]
        );
        assert_eq!(e("{rm,-rf,/}").unwrap_or_default(), ["rm", "-rf", "/"]);
        assert_eq!(
            e("/dev/sd{a..c}").unwrap_or_default(),
            ["/dev/sda", "/dev/sdb", "/dev/sdc"]
        );
        assert_eq!(e("x{1..3}").unwrap_or_default(), ["x1", "x2", "x3"]);
        assert_eq!(e("a{b,c{d,e}}").unwrap_or_default(), ["ab", "acd", "ace"]);
        // commas inside quotes and inside `${…}` (case modification) are not separators
        assert_eq!(e("{a,\"b,c\"}").unwrap_or_default(), ["a", "\"b,c\""]);
        assert_eq!(e("{x,${y,,}}").unwrap_or_default(), ["x", "${y,,}"]);
        assert_eq!(e("{p,'}',q}").unwrap_or_default(), ["p", "'}'", "q"]);
    }

    #[test]
    fn what_bash_leaves_alone() {
        for w in [
            "{}",
            "'{a,b}'",
            "\"{a,b}\"",
            "${x,y}",
            "${x:-{a,b}}",
            "$(echo {a,b})",
            "{a}",
            "x{",
            "\\{a,b}",
        ] {
            assert_eq!(e(w), None, "{w}");
        }
    }

    #[test]
    fn bounded() {
        assert_eq!(e("{1..100000}"), None);
        assert_eq!(e(&"{a,b}".repeat(10)), None);
        assert!(e(&"{".repeat(5000)).is_none());
        assert!(e(&"{a,".repeat(300)).is_none());
    }
}
