//! Strings the code builds from literals at run time, read as the literal they become:
//! quote-like operators (`qq{…}`, `q(…)`, `%q{…}`, `%Q(…)`, `%(…)`), reversed strings
//! (`scalar reverse "…"`, `"…".reverse`), character codes (`join "", map { chr } 114, 109`,
//! `pack("c*", 114, 109)`, `[114, 109].pack("c*")`, `[114, 109].map(&:chr).join`), Ruby
//! symbols (`:KILL`) and URI objects (`URI("https://…")`, `URI.parse(…)`, `URI->new(…)`).

use riskgate_model::Language;

use super::Val;
use super::scan::{delimited, interpolate, split_args, value};

/// At most this many character codes are decoded from one list.
const MAX_CODES: usize = 64 * 1024;

/// The literal `p` builds, when it is one of the forms above.
pub(super) fn built(p: &str, lang: Language, depth: usize) -> Option<Val> {
    quote_like(p, lang)
        .or_else(|| symbol(p, lang))
        .or_else(|| reversed(p, lang, depth))
        .or_else(|| char_codes(p, lang, depth))
        .or_else(|| uri(p, lang, depth))
}

/// `qq{…}`, `q(…)` (Perl); `%q{…}`, `%Q(…)`, `%(…)` (Ruby).
fn quote_like(p: &str, lang: Language) -> Option<Val> {
    let ops: &[(&str, bool)] = match lang {
        Language::Perl => &[("qq", true), ("q", false)],
        Language::Ruby => &[("%Q", true), ("%q", false), ("%", true)],
        _ => &[],
    };
    for (op, double) in ops {
        let Some(rest) = p.strip_prefix(op) else {
            continue;
        };
        // `%` alone opens a literal only with a bracket (`%(…)`), not `%w[…]` or `% 2`
        if *op == "%" && !rest.starts_with(['(', '{', '[', '<', '|', '!']) {
            continue;
        }
        if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c.is_whitespace()) {
            continue;
        }
        if let Some((body, end)) = delimited(rest, 0)
            && end == rest.len()
        {
            return Some(Val::Str(interpolate(&body, *double)));
        }
    }
    None
}

/// A Ruby symbol (`:KILL`, `:system`) is the name it spells.
fn symbol(p: &str, lang: Language) -> Option<Val> {
    let name = p.strip_prefix(':').filter(|_| lang == Language::Ruby)?;
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .trim_end_matches(['?', '!'])
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_');
    ok.then(|| Val::Str(name.to_string()))
}

/// `scalar reverse "…"`, `scalar(reverse("…"))`, `reverse "…"` (Perl); `"…".reverse` (Ruby).
fn reversed(p: &str, lang: Language, depth: usize) -> Option<Val> {
    let inner = match lang {
        Language::Perl => {
            let s = p.strip_prefix("scalar").map(str::trim_start).unwrap_or(p);
            let s = unparen(s);
            let s = s.strip_prefix("reverse")?;
            if s.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return None;
            }
            unparen(s.trim_start())
        }
        Language::Ruby => p.strip_suffix(".reverse")?,
        _ => return None,
    };
    match value(inner, lang, depth + 1) {
        Val::Str(s) => Some(Val::Str(s.chars().rev().collect())),
        _ => None,
    }
}

/// `(x)` → `x`, else `x`.
fn unparen(s: &str) -> &str {
    let t = s.trim();
    match t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) if delimited(t, 0).is_some_and(|(_, end)| end == t.len()) => inner.trim(),
        _ => t,
    }
}

/// A list of character codes (`114, 109`, `(114,109)`, `[114, 109]`, `qw(114 109)`) as text.
fn codes(list: &str) -> Option<String> {
    let t = unparen(list.trim());
    let t = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(t);
    let t = t
        .strip_prefix("qw(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t);
    let mut out = String::new();
    let mut n = 0usize;
    for part in t.split([',', ' ', '\t', '\n']).filter(|s| !s.is_empty()) {
        n += 1;
        if n > MAX_CODES {
            return None;
        }
        let code = match part.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).ok()?,
            None => part.parse::<u32>().ok()?,
        };
        out.push(char::from_u32(code)?);
    }
    (n >= 2).then_some(out)
}

/// Character codes turned into text: `join "", map { chr } …`, `join("", map(chr, …))`,
/// `pack("c*", …)` (Perl); `[…].pack("c*")`, `[…].map(&:chr).join`,
/// `[…].map { |c| c.chr }.join` (Ruby).
fn char_codes(p: &str, lang: Language, depth: usize) -> Option<Val> {
    const PACK_TEMPLATES: [&str; 4] = ["c*", "C*", "U*", "W*"];
    match lang {
        Language::Perl => {
            if let Some(rest) = p.strip_prefix("pack") {
                let args = split_args(unparen(rest.trim_start()), lang);
                let Some(Val::Str(t)) = args.first() else {
                    return None;
                };
                if !PACK_TEMPLATES.contains(&t.as_str()) {
                    return None;
                }
                let nums: Vec<String> = args[1..]
                    .iter()
                    .map(|v| match v {
                        Val::Num(n) => Some(n.clone()),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                return codes(&nums.join(",")).map(Val::Str);
            }
            let rest = unparen(p.strip_prefix("join")?.trim_start());
            // the separator, then the mapped list
            let (sep, after) = split_first_arg(rest)?;
            let Val::Str(sep) = value(sep, lang, depth + 1) else {
                return None;
            };
            let m = unparen(after.trim()).strip_prefix("map")?.trim_start();
            let list = if let Some(block) = m.strip_prefix('{') {
                let close = block.find('}')?;
                if !block[..close].contains("chr") {
                    return None;
                }
                &block[close + 1..]
            } else {
                let m = unparen(m);
                m.strip_prefix("chr")?.trim_start().strip_prefix(',')?
            };
            let text = codes(list)?;
            Some(Val::Str(
                text.chars()
                    .map(String::from)
                    .collect::<Vec<_>>()
                    .join(&sep),
            ))
        }
        Language::Ruby if p.contains(".pack(") || p.contains("chr") => {
            let head = PACK_TEMPLATES
                .iter()
                .flat_map(|t| [format!(".pack(\"{t}\")"), format!(".pack('{t}')")])
                .chain([
                    ".map(&:chr).join".to_string(),
                    ".map(&:chr).join('')".to_string(),
                    ".map(&:chr).join(\"\")".to_string(),
                ])
                .find_map(|s| p.strip_suffix(s.as_str()))
                .or_else(|| {
                    let (head, block) = p.strip_suffix(".join")?.split_once(".map")?;
                    block.contains(".chr").then_some(head)
                })?;
            codes(head).map(Val::Str)
        }
        _ => None,
    }
}

/// `"", rest` → (`""`, `rest`): the first argument of a list and what follows its comma.
fn split_first_arg(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\'' | b'"' => {
                let q = b[k];
                k += 1;
                while k < b.len() && b[k] != q {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
            }
            b',' => return Some((&s[..k], &s[k + 1..])),
            _ => {}
        }
        k += 1;
    }
    None
}

/// `URI("https://…")`, `URI.parse("…")`, `URI->new("…")`: the URL.
fn uri(p: &str, lang: Language, depth: usize) -> Option<Val> {
    let rest = ["URI.parse", "URI::parse", "URI->new", "URI.new", "URI"]
        .iter()
        .find_map(|h| p.strip_prefix(h))?;
    if !rest.starts_with('(') {
        return None;
    }
    let (inner, end) = delimited(rest, 0)?;
    if end != rest.len() {
        return None;
    }
    match split_args(&inner, lang).first() {
        Some(Val::Str(s)) if depth < 4 => Some(Val::Str(s.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(p: &str, lang: Language) -> Option<String> {
        match built(p, lang, 0) {
            Some(Val::Str(s)) => Some(s),
            _ => None,
        }
    }

    #[test]
    fn built_strings_are_read() {
        let perl = Language::Perl;
        let ruby = Language::Ruby;
        assert_eq!(lit("qq{a \"b\"}", perl).as_deref(), Some("a \"b\""));
        assert_eq!(
            lit("scalar reverse \"~ fr- mr\"", perl).as_deref(),
            Some("rm -rf ~")
        );
        assert_eq!(lit("'cba'.reverse", ruby).as_deref(), Some("abc"));
        assert_eq!(
            lit("join \"\", map { chr } 114,109,32,126", perl).as_deref(),
            Some("rm ~")
        );
        assert_eq!(
            lit("join('', map(chr, 114, 109))", perl).as_deref(),
            Some("rm")
        );
        assert_eq!(lit("pack(\"C*\", 114, 109)", perl).as_deref(), Some("rm"));
        assert_eq!(lit("[114,109].pack(\"c*\")", ruby).as_deref(), Some("rm"));
        assert_eq!(
            lit("[114, 109].map(&:chr).join", ruby).as_deref(),
            Some("rm")
        );
        assert_eq!(lit(":KILL", ruby).as_deref(), Some("KILL"));
        assert_eq!(
            lit("URI(\"https://x.example/a\")", ruby).as_deref(),
            Some("https://x.example/a")
        );
    }

    #[test]
    fn other_text_is_not_a_built_string() {
        assert_eq!(lit("quit", Language::Perl), None);
        assert_eq!(lit("%w[a b]", Language::Ruby), None);
        assert_eq!(lit("reverse @list", Language::Perl), None);
        assert_eq!(lit("[1].pack(\"c*\")", Language::Ruby), None);
        assert_eq!(lit(":KILL", Language::Perl), None);
        assert_eq!(lit("[114, 999999999].pack(\"U*\")", Language::Ruby), None);
    }
}
