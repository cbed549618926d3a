//! The quote- and comment-aware scanner of Perl, Ruby and PHP: calls with their argument
//! values (literals, interpolation, decoded base64/hex, command output).

use base64::Engine as _;
use riskgate_model::Language;

use std::cell::RefCell;
use std::collections::HashMap;

use super::{ARG_BYTES, FCall, MAX_ARG_BYTES, MAX_CALLS, Val, WINDOW, WINDOW_HIT};

thread_local! {
    /// Variables of the snippet being scanned that hold a literal (see `vars`).
    pub(super) static VARS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

pub(super) fn scan(code: &str, lang: Language) -> Vec<FCall> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() && out.len() < MAX_CALLS {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'#' if lang != Language::Php || b.get(i + 1).is_none_or(|n| *n != b'[') => {
                if lang == Language::Ruby && b.get(i + 1) == Some(&b'{') {
                    i += 1;
                    continue;
                }
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if lang == Language::Php && b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let (_, end) = string_at(code, i);
                line += count_nl(code, i, end);
                i = end;
                continue;
            }
            b'`' => {
                let (s, end) = string_at(code, i);
                out.push(FCall {
                    name: "`".into(),
                    args: vec![Val::Str(s)],
                    raw: code.get(i..end).unwrap_or("").to_string(),
                    start: i,
                    end,
                    line,
                });
                line += count_nl(code, i, end);
                i = end;
                continue;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c == b'%' => {
                let prev = i.checked_sub(1).and_then(|p| b.get(p)).copied();
                if prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_' || p == b'$') {
                    i += 1;
                    continue;
                }
                let start = i;
                let mut j = i + 1;
                while j < b.len() {
                    let ch = b[j];
                    let qualified = (ch == b':' && b.get(j + 1) == Some(&b':'))
                        || (ch == b'.' && b.get(j + 1).is_some_and(|n| n.is_ascii_alphabetic()))
                        || (ch == b'-' && b.get(j + 1) == Some(&b'>'));
                    if ch.is_ascii_alphanumeric() || ch == b'_' {
                        j += 1;
                    } else if qualified {
                        j += if ch == b'.' { 1 } else { 2 };
                    } else {
                        break;
                    }
                }
                let mut name = code.get(start..j).unwrap_or("").replace("->", ".");
                // a method of an object held in a variable (`$db->exec(…)`, `$dbh->do(…)`) is
                // not the function of that name (PHP's `exec`): it keeps a leading `->`
                if start >= 2 && code.get(start - 2..start) == Some("->") {
                    name.insert_str(0, "->");
                }
                // Ruby: a method of an expression's value (`PG.connect(u).exec(…)`) keeps a
                // leading `.`: it is not the function of that name
                if lang == Language::Ruby && prev == Some(b'.') {
                    name.insert(0, '.');
                }
                // quote-like operators: qx(…), q(…), %x(…)
                if matches!(name.as_str(), "qx" | "%x")
                    && let Some((body, end)) = delimited(code, j)
                {
                    out.push(FCall {
                        name,
                        args: vec![Val::Str(body)],
                        raw: code.get(start..end).unwrap_or("").to_string(),
                        start,
                        end,
                        line,
                    });
                    line += count_nl(code, start, end);
                    i = end;
                    continue;
                }
                if matches!(name.as_str(), "q" | "qq" | "qw" | "%q" | "%Q" | "%w")
                    && let Some((_, end)) = delimited(code, j)
                {
                    line += count_nl(code, start, end);
                    i = end;
                    continue;
                }
                let (mut args, end) = call_args(code, j, lang);
                // Perl's `unlink`, `rmdir`, `truncate`-less defaults: with no argument they act
                // on `$_` (`perl -ne 'chomp; unlink'` deletes each line read)
                if args.is_none()
                    && lang == Language::Perl
                    && matches!(name.as_str(), "unlink" | "rmdir" | "CORE::unlink")
                    && code
                        .get(j..)
                        .map(|r| r.trim_start_matches([' ', '\t']))
                        .is_some_and(|r| r.is_empty() || r.starts_with([';', '}', '\n']))
                {
                    args = Some(vec![Val::Other("$_".into())]);
                }
                if let Some(args) = args {
                    out.push(FCall {
                        name: name.replace("::", if lang == Language::Perl { "::" } else { "." }),
                        args,
                        raw: code.get(start..end).unwrap_or("").to_string(),
                        start,
                        end,
                        line,
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

pub(super) fn count_nl(code: &str, from: usize, to: usize) -> u32 {
    code.get(from..to)
        .map(|s| s.matches('\n').count() as u32)
        .unwrap_or(0)
}

/// The string literal starting at `i` (its value and the index after it).
pub(super) fn string_at(code: &str, i: usize) -> (String, usize) {
    let b = code.as_bytes();
    let q = b[i];
    let mut out = Vec::new();
    let mut j = i + 1;
    while j < b.len() {
        let c = b[j];
        if c == b'\\' && (q != b'`' || b.get(j + 1) == Some(&q)) {
            if let Some(n) = b.get(j + 1) {
                out.push(match (q, n) {
                    (b'"', b'n') => b'\n',
                    (b'"', b't') => b'\t',
                    _ => *n,
                });
            }
            j += 2;
            continue;
        }
        if c == q {
            return (String::from_utf8_lossy(&out).into_owned(), j + 1);
        }
        out.push(c);
        j += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), b.len())
}

/// A delimited body after a quote-like operator: `(…)`, `{…}`, `[…]`, `<…>`, or the same
/// punctuation on both sides.
pub(super) fn delimited(code: &str, j: usize) -> Option<(String, usize)> {
    let b = code.as_bytes();
    let open = *b.get(j)?;
    let close = match open {
        b'(' => b')',
        b'{' => b'}',
        b'[' => b']',
        b'<' => b'>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    let mut depth = 0usize;
    let mut k = j + 1;
    let stop = b.len().min(j.saturating_add(WINDOW));
    while k < stop {
        let c = b[k];
        if c == b'\\' {
            k += 2;
            continue;
        }
        if c == open && open != close {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return Some((code.get(j + 1..k)?.to_string(), k + 1));
            }
            depth -= 1;
        }
        k += 1;
    }
    if stop < b.len() {
        WINDOW_HIT.with(|w| w.set(true));
    }
    None
}

/// The arguments of a call whose name ends at `j`: `name(…)`, or (Perl, Ruby) `name ARGS`
/// up to the end of the statement. None when what follows is not an argument list.
pub(super) fn call_args(code: &str, j: usize, lang: Language) -> (Option<Vec<Val>>, usize) {
    let b = code.as_bytes();
    let mut k = j;
    while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
        k += 1;
    }
    match b.get(k) {
        Some(b'(') => match delimited(code, k) {
            Some((inner, end)) => (Some(split_args(&inner, lang)), end),
            None => (None, j),
        },
        Some(b'[') if code.get(..j).is_some_and(|n| n.ends_with("Dir")) => {
            match delimited(code, k) {
                Some((inner, end)) => (Some(split_args(&inner, lang)), end),
                None => (None, j),
            }
        }
        Some(c)
            if lang != Language::Php
                && k > j
                && (matches!(c, b'"' | b'\'' | b'`' | b'$' | b'@' | b'-')
                    // a Ruby symbol: `Process.kill :KILL, 1`
                    || *c == b':' && lang == Language::Ruby
                    // a list or a quote-like literal given to a sink: `eval [115, …].pack("c*")`
                    || matches!(*c, b'[' | b'%')
                        && ["eval", "system", "exec", "spawn"]
                            .iter()
                            .any(|n| code.get(..j).is_some_and(|h| h.ends_with(n)))
                    || c.is_ascii_digit()
                    // a sink given an expression: `eval Net::HTTP.get(…)`, `system cmd`
                    || c.is_ascii_alphabetic()
                        && ["eval", "system", "exec", "spawn", "unlink", "rmtree", "remove_tree", "open"]
                            .iter()
                            .any(|n| code.get(..j).is_some_and(|h| h.ends_with(n)))
                    || code.get(k..).is_some_and(|r| {
                        r.starts_with("glob")
                            || r.starts_with("Dir")
                            || r.starts_with("qx")
                            || r.starts_with("%x")
                    })) =>
        {
            let mut e = k;
            let mut depth = 0i32;
            let stop = b.len().min(k.saturating_add(WINDOW));
            // bytes, not `str` slicing: `stop` may fall inside a multi-byte character
            if stop < b.len()
                && b.get(k..stop)
                    .is_some_and(|s| !s.iter().any(|&c| c == b'\n' || c == b';'))
            {
                WINDOW_HIT.with(|w| w.set(true));
            }
            while e < stop {
                match b[e] {
                    b'\'' | b'"' | b'`' => {
                        // skip the string, within the window
                        let q = b[e];
                        e += 1;
                        while e < stop && b[e] != q {
                            e += if b[e] == b'\\' { 2 } else { 1 };
                        }
                        e += 1;
                        continue;
                    }
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' if depth == 0 => break,
                    b')' | b']' | b'}' => depth -= 1,
                    b';' | b'\n' if depth == 0 => break,
                    _ => {}
                }
                e += 1;
            }
            let mut inner = code.get(k..e).unwrap_or("");
            for kw in [" if ", " unless ", " or ", " and ", " do ", " rescue "] {
                if let Some(p) = inner.find(kw) {
                    inner = &inner[..p];
                }
            }
            (Some(split_args(inner, lang)), e)
        }
        _ => (None, j),
    }
}

/// Split at top-level commas and read each argument.
pub(super) fn split_args(inner: &str, lang: Language) -> Vec<Val> {
    let spent = ARG_BYTES.with(|n| n.get()).saturating_add(inner.len());
    ARG_BYTES.with(|n| n.set(spent));
    if spent > MAX_ARG_BYTES {
        // Past the budget the arguments are not read: the analysis is incomplete (HIGH).
        WINDOW_HIT.with(|w| w.set(true));
        return Vec::new();
    }
    let parts: Vec<&str> = top_level_parts(inner)
        .into_iter()
        .filter(|p| !p.contains("=>") && !p.contains(": ") || p.starts_with(['"', '\'']))
        .collect();
    // a list given alone is the call's arguments (`FileUtils.rm_rf(%w[a b])`, `unlink qw(a
    // b)`); a list among other arguments keeps its place (`run3([argv], \undef, \$out)`)
    if let [only] = parts.as_slice()
        && let Some(items) = list_items(only, lang)
    {
        return items;
    }
    parts.into_iter().map(|p| value(p, lang, 0)).collect()
}

/// The trimmed, non-empty parts of `inner` between top-level commas.
fn top_level_parts(inner: &str) -> Vec<&str> {
    let b = inner.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\'' | b'"' | b'`' => {
                k = string_at(inner, k).1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
        k += 1;
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A literal list given as one argument, read as its items when every item is a literal
/// string: `%w[tmp/cache coverage]`, `qw(a b)`, `["build", "dist"]`, `('a', 'b')`. A list
/// holding anything else stays one unknown argument.
fn list_items(p: &str, lang: Language) -> Option<Vec<Val>> {
    let words = |body: &str| -> Option<Vec<Val>> {
        let items: Vec<Val> = body
            .split_whitespace()
            .map(|w| Val::Str(w.to_string()))
            .collect();
        (!items.is_empty()).then_some(items)
    };
    for op in ["%w", "%W", "qw"] {
        if let Some(rest) = p.strip_prefix(op)
            && let Some((body, end)) = delimited(rest, 0)
            && end == rest.len()
            && !(op == "%W" && body.contains("#{"))
        {
            return words(&body);
        }
    }
    let inner = p
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .or_else(|| p.strip_prefix('(').and_then(|r| r.strip_suffix(')')))?;
    if !inner.contains(',') && !inner.trim_start().starts_with(['"', '\'']) {
        return None;
    }
    let items: Vec<Val> = top_level_parts(inner)
        .into_iter()
        .map(|x| value(x, lang, 1))
        .collect();
    (!items.is_empty() && items.iter().all(|v| matches!(v, Val::Str(_)))).then_some(items)
}

/// Read one argument.
pub(super) fn value(p: &str, lang: Language, depth: usize) -> Val {
    let p = p.trim();
    if depth > 4 {
        return Val::Other(p.to_string());
    }
    if p.is_empty() {
        return Val::Other(String::new());
    }
    let b = p.as_bytes();
    if matches!(b[0], b'\'' | b'"') {
        let (s, end) = string_at(p, 0);
        if end == p.len() {
            return Val::Str(interpolate(&s, b[0] == b'"'));
        }
    }
    if b[0] == b'`' {
        let (s, end) = string_at(p, 0);
        if end == p.len() {
            return Val::Cmd(s);
        }
    }
    for op in ["qx", "%x"] {
        if let Some(rest) = p.strip_prefix(op)
            && let Some((body, end)) = delimited(rest, 0)
            && end == rest.len()
        {
            return Val::Cmd(body);
        }
    }
    if let Some(v) = super::decode::built(p, lang, depth) {
        return v;
    }
    if p.chars()
        .all(|c| c.is_ascii_digit() || c == '-' || c == 'o' || c == 'x')
        && p.chars().any(|c| c.is_ascii_digit())
    {
        return Val::Num(p.to_string());
    }
    let home = [
        "Dir.home",
        "$ENV{HOME}",
        "$ENV{'HOME'}",
        "$ENV{\"HOME\"}",
        "ENV['HOME']",
        "ENV[\"HOME\"]",
        "getenv('HOME')",
        "getenv(\"HOME\")",
        "$_SERVER['HOME']",
        "File.expand_path('~')",
        "File.expand_path(\"~\")",
    ];
    if home.contains(&p) {
        return Val::Str("~".into());
    }
    // concatenation: `"/x/" . $y`, `Dir.home + "/x"`
    for op in [" . ", " + "] {
        if p.contains(op) {
            let parts: Vec<Val> = p.split(op).map(|x| value(x, lang, depth + 1)).collect();
            if parts.iter().any(|v| matches!(v, Val::Str(_))) {
                let s: String = parts
                    .iter()
                    .map(|v| match v {
                        Val::Str(s) | Val::Num(s) => s.clone(),
                        _ => "$ARG".into(),
                    })
                    .collect();
                return Val::Str(s);
            }
        }
    }
    // Ruby's decoders as methods: `["726d…"].pack("H*")`, `"cm0g…".unpack1("m")`
    for (suffix, hexed) in [
        (".pack(\"H*\")", true),
        (".pack('H*')", true),
        (".unpack1(\"m\")", false),
        (".unpack1('m')", false),
        (".unpack(\"m\").first", false),
    ] {
        if let Some(head) = p.strip_suffix(suffix) {
            let head = head.trim();
            let head = head
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .unwrap_or(head);
            if let Val::Str(s) = value(head, lang, depth + 1) {
                let decoded = if hexed { hex(&s) } else { b64(&s) };
                if let Some(d) = decoded {
                    return Val::Str(d);
                }
            }
        }
    }
    // a call inside: glob("…"), decode_base64("…"), pack("H*", "…"), Dir.glob("…")
    if let Some(open) = p.find('(')
        && p.ends_with(')')
    {
        let fname = p[..open].trim();
        let inner = &p[open + 1..p.len() - 1];
        let args = split_args(inner, lang);
        let first = match args.first() {
            Some(Val::Str(s)) => Some(s.clone()),
            _ => None,
        };
        match fname {
            // `File.expand_path("~/.bashrc")`, `Pathname.new("/etc/x")`: the path it names
            "File.expand_path" | "File.absolute_path" | "Pathname.new" | "Pathname"
            | "realpath" => {
                if let Some(s) = first {
                    return Val::Str(s);
                }
            }
            "glob" | "Dir.glob" | "bsd_glob" => {
                if let Some(s) = first {
                    return Val::Str(s);
                }
            }
            "decode_base64"
            | "base64_decode"
            | "Base64.decode64"
            | "Base64.strict_decode64"
            | "MIME::Base64::decode_base64"
            | "MIME::Base64::decode" => {
                if let Some(s) = first
                    && let Some(d) = b64(&s)
                {
                    return Val::Str(d);
                }
            }
            "pack" => {
                if let Some(Val::Str(h)) = args.get(1)
                    && let Some(d) = hex(h)
                {
                    return Val::Str(d);
                }
            }
            "File.join" | "join" => {
                let words: Vec<String> = args.iter().map(Val::word).collect();
                if !words.is_empty() && fname == "File.join" {
                    return Val::Str(words.join("/"));
                }
            }
            "getenv" if first.as_deref() == Some("HOME") => return Val::Str("~".into()),
            _ => {}
        }
    }
    if let Some(rest) = p.strip_prefix("glob ") {
        return value(rest, lang, depth + 1);
    }
    if let Some(s) = VARS.with(|v| v.borrow().get(p).cloned()) {
        return Val::Str(s);
    }
    if let Some(rest) = p.strip_prefix("Dir[")
        && let Some(inner) = rest.strip_suffix(']')
    {
        return value(inner, lang, depth + 1);
    }
    Val::Other(p.to_string())
}

/// `"$ENV{HOME}/x"`, `"#{Dir.home}/x"` → `~/x`; other interpolations stay as `$name`.
pub(super) fn interpolate(s: &str, double: bool) -> String {
    if !double {
        return s.to_string();
    }
    s.replace("$ENV{HOME}", "~")
        .replace("#{Dir.home}", "~")
        .replace("#{ENV['HOME']}", "~")
        .replace("{$_SERVER['HOME']}", "~")
}

pub(super) fn b64(s: &str) -> Option<String> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(clean.as_bytes())
        .ok()?;
    String::from_utf8(bytes).ok()
}

pub(super) fn hex(s: &str) -> Option<String> {
    if !s.len().is_multiple_of(2) || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}
