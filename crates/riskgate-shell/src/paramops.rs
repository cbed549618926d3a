//! Parameter expansions that transform a value: substrings (`${x:1:3}`, `${x: -2}`), case
//! changes (`${x,,}`, `${x^^}`, `${x^}`, `${x,}`), and what is known of the well-known
//! variables whose value always starts with `/` (`${PATH:0:1}` is `/` whatever `PATH` holds).
//! Pure functions on strings; `words` applies them to the values a script made known.

/// Variables whose value always starts with `/` on a Unix system (set by the login, the
/// shell or `cd`), even when the script never assigns them.
const ROOTED_VARS: &[&str] = &["PATH", "HOME", "PWD", "OLDPWD", "SHELL", "BASH"];

/// Longest offset or length expression read (longer ones are left unknown).
const MAX_ARITH_LEN: usize = 32;

/// A literal integer of an offset or length expression (`3`, ` -2`, `(1)`), if it is one.
fn int(expr: &str) -> Option<i64> {
    if expr.len() > MAX_ARITH_LEN {
        return None;
    }
    let t = expr.trim();
    let t = t
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .map(str::trim)
        .unwrap_or(t);
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// `${x:offset}` / `${x:offset:length}` of a known value, as bash computes it (characters,
/// negative offsets count from the end, a negative length is an end counted from the end).
/// `None` when an expression is not a literal integer or bash would report an error.
pub(crate) fn substring(value: &str, offset: &str, length: Option<&str>) -> Option<String> {
    let chars: Vec<char> = value.chars().collect();
    let n = i64::try_from(chars.len()).ok()?;
    let mut start = int(offset)?;
    if start < 0 {
        start += n;
        if start < 0 {
            return Some(String::new());
        }
    }
    let start = start.min(n);
    let end = match length {
        None => n,
        Some(l) => {
            let l = int(l)?;
            if l < 0 {
                let e = n + l;
                if e < start {
                    return None;
                }
                e
            } else {
                start.saturating_add(l).min(n)
            }
        }
    };
    let (s, e) = (usize::try_from(start).ok()?, usize::try_from(end).ok()?);
    Some(chars.get(s..e)?.iter().collect())
}

/// `${NAME:offset:length}` of a well-known variable the script did not set: `/` when the
/// substring is exactly its first character, otherwise unknown.
pub(crate) fn rooted_substring(name: &str, offset: &str, length: Option<&str>) -> Option<String> {
    if !ROOTED_VARS.contains(&name) {
        return None;
    }
    match (int(offset)?, length.map(int)) {
        (0, Some(Some(1))) => Some("/".to_string()),
        (0, Some(Some(0))) => Some(String::new()),
        _ => None,
    }
}

/// Which case change a `^`/`,` expansion makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    /// `${x^^}`
    UpperAll,
    /// `${x^}`
    UpperFirst,
    /// `${x,,}`
    LowerAll,
    /// `${x,}`
    LowerFirst,
}

/// A case change of a known value. `pattern` (`${x^^[aeiou]}`) is honoured when it is absent,
/// `?`/`*`, or one literal character; any other pattern leaves the result unknown.
pub(crate) fn change_case(value: &str, case: Case, pattern: Option<&str>) -> Option<String> {
    let pattern = pattern.filter(|p| !p.is_empty());
    let matches: Box<dyn Fn(char) -> bool> = match pattern {
        None | Some("?") | Some("*") => Box::new(|_| true),
        Some(p) => {
            let mut it = p.chars();
            let c = it.next()?;
            if it.next().is_some() || matches!(c, '[' | '\\' | '*' | '?') {
                return None;
            }
            Box::new(move |x| x == c)
        }
    };
    let upper = matches!(case, Case::UpperAll | Case::UpperFirst);
    let all = matches!(case, Case::UpperAll | Case::LowerAll);
    let mut out = String::with_capacity(value.len());
    for (i, ch) in value.chars().enumerate() {
        if (all || i == 0) && matches(ch) {
            if upper {
                out.extend(ch.to_uppercase());
            } else {
                out.extend(ch.to_lowercase());
            }
        } else {
            out.push(ch);
        }
    }
    Some(out)
}

/// Where a pattern is removed or replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// `${x#p}` / `${x##p}` / `${x/#p/r}`
    Prefix,
    /// `${x%p}` / `${x%%p}` / `${x/%p/r}`
    Suffix,
    /// `${x/p/r}`
    First,
    /// `${x//p/r}`
    All,
}

/// A pattern without glob characters, its quotes and escapes removed; `None` when it has
/// any (`*`, `?`, `[`): those are left unknown.
fn literal(pattern: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = pattern.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => out.push(c),
            (None, '\\') => out.push(chars.next()?),
            (None, '*' | '?' | '[' | '$' | '`') => return None,
            (None, c) => out.push(c),
        }
    }
    Some(out)
}

/// `${x#p}`, `${x%p}`, `${x/p/r}`, `${x//p/r}` … of a known value with a literal pattern
/// (with no glob characters the shortest and longest matches are the same).
pub(crate) fn replace(value: &str, pattern: &str, with: Option<&str>, at: At) -> Option<String> {
    let p = literal(pattern)?;
    let r = match with {
        Some(w) => literal(w)?,
        None => String::new(),
    };
    if p.is_empty() {
        return Some(value.to_string());
    }
    Some(match at {
        At::Prefix => match value.strip_prefix(p.as_str()) {
            Some(rest) => format!("{r}{rest}"),
            None => value.to_string(),
        },
        At::Suffix => match value.strip_suffix(p.as_str()) {
            Some(rest) => format!("{rest}{r}"),
            None => value.to_string(),
        },
        At::First => value.replacen(p.as_str(), &r, 1),
        At::All => value.replace(p.as_str(), &r),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_removals_and_replacements() {
        assert_eq!(
            replace("/srvXX/data", "XX", None, At::All).as_deref(),
            Some("/srv/data")
        );
        assert_eq!(
            replace("/srv/dataXX", "XX", None, At::Suffix).as_deref(),
            Some("/srv/data")
        );
        assert_eq!(
            replace("XX/srv/data", "XX", None, At::Prefix).as_deref(),
            Some("/srv/data")
        );
        assert_eq!(
            replace("aQbQc", "Q", Some("/"), At::First).as_deref(),
            Some("a/bQc")
        );
        assert_eq!(
            replace("aQbQc", "'Q'", Some("/"), At::All).as_deref(),
            Some("a/b/c")
        );
        assert_eq!(
            replace("abc", "x", None, At::Suffix).as_deref(),
            Some("abc")
        );
        // globs are left unknown
        assert_eq!(replace("/srv/data.bak", ".*", None, At::Suffix), None);
        assert_eq!(replace("abc", "[ab]", None, At::All), None);
    }

    #[test]
    fn substrings_follow_bash() {
        assert_eq!(substring("abcrm", "3", Some("2")).as_deref(), Some("rm"));
        assert_eq!(
            substring("/varnish", "0", Some("4")).as_deref(),
            Some("/var")
        );
        assert_eq!(substring("hello", "1", None).as_deref(), Some("ello"));
        assert_eq!(substring("hello", " -3", None).as_deref(), Some("llo"));
        assert_eq!(substring("hello", "(-3)", Some("2")).as_deref(), Some("ll"));
        assert_eq!(substring("hello", "1", Some("-1")).as_deref(), Some("ell"));
        assert_eq!(substring("hello", "9", Some("2")).as_deref(), Some(""));
        assert_eq!(substring("hello", " -9", None).as_deref(), Some(""));
        assert_eq!(substring("héllo", "1", Some("1")).as_deref(), Some("é"));
        // bash: "substring expression < 0"
        assert_eq!(substring("hello", "3", Some("-4")), None);
        // not a literal integer
        assert_eq!(substring("hello", "i", Some("2")), None);
        assert_eq!(substring("hello", "1+1", None), None);
        assert_eq!(substring("hello", "99999999999999999999999", None), None);
    }

    #[test]
    fn well_known_variables_start_with_a_slash() {
        for v in ["PATH", "HOME", "PWD", "SHELL"] {
            assert_eq!(
                rooted_substring(v, "0", Some("1")).as_deref(),
                Some("/"),
                "{v}"
            );
        }
        assert_eq!(rooted_substring("PATH", "0", Some("4")), None);
        assert_eq!(rooted_substring("PATH", "1", Some("1")), None);
        assert_eq!(rooted_substring("USER", "0", Some("1")), None);
    }

    #[test]
    fn case_changes() {
        assert_eq!(
            change_case("RM", Case::LowerAll, None).as_deref(),
            Some("rm")
        );
        assert_eq!(
            change_case("/ETC", Case::LowerAll, None).as_deref(),
            Some("/etc")
        );
        assert_eq!(
            change_case("rm", Case::UpperAll, None).as_deref(),
            Some("RM")
        );
        assert_eq!(
            change_case("Rm", Case::LowerFirst, None).as_deref(),
            Some("rm")
        );
        assert_eq!(
            change_case("rm", Case::UpperFirst, None).as_deref(),
            Some("Rm")
        );
        assert_eq!(
            change_case("RMR", Case::LowerAll, Some("R")).as_deref(),
            Some("rMr")
        );
        assert_eq!(change_case("RM", Case::LowerAll, Some("[A-Z]")), None);
    }
}
