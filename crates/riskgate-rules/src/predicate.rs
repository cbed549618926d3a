//! Compiled predicates: argument and redirect-target predicates (`exact:`, `glob:`, `re:`) and a
//! pattern rule's regex, compiled once per rule on first use.
//!
//! Globs that are literal, `DIR/**`, `PREFIX*` or `*SUFFIX` are answered by string comparisons
//! with globset's semantics (`literal_separator`); the rest are translated by globset into a
//! regex. Every regex is linear-time. Rule regexes are compiled with `regex-lite`: a check
//! only ever runs the few rules its command selects, on a short text, so what counts is
//! compile time in a process that lives for one hook call (~10 µs a regex instead of
//! ~140 µs with `regex`'s optimizing compiler, measured over the built-in packs). A regex
//! `regex-lite` does not accept falls back to `regex` (bytes, Unicode classes off); one used
//! more than a few times in the process (scan, workflows, the library) is recompiled with
//! `regex`, whose lazy DFA runs several times faster.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use regex::bytes::RegexBuilder;

use crate::rule::{Matcher, PatternKind, Pred, Text};

/// Size limit for one compiled regex (and a regex set's lazy DFA).
pub(crate) const REGEX_SIZE_LIMIT: usize = 8 * (1 << 20);
/// Lazy DFA cache size for regexes and regex sets (DESIGN.md: the default makes large sets slow).
pub(crate) const DFA_SIZE_LIMIT: usize = 64 * (1 << 20);

/// Uses after which a `regex-lite` regex is recompiled with `regex`: a hook call runs a rule
/// once or twice, a scan, a workflow or a long-lived library user thousands of times, where
/// `regex`'s lazy DFA is several times faster than `regex-lite`'s PikeVM.
const PROMOTE_AFTER: u32 = 16;

/// A compiled rule regex.
#[derive(Debug, Clone)]
pub(crate) enum Regex {
    /// Compiled by `regex-lite` (fast to compile); promoted to `regex` when used often.
    Lite(Arc<Tiered>),
    /// Compiled by `regex` (what `regex-lite` does not support).
    Full(regex::bytes::Regex),
}

/// A `regex-lite` regex and, once it has been used [`PROMOTE_AFTER`] times, its `regex`
/// compilation.
#[derive(Debug)]
pub(crate) struct Tiered {
    lite: regex_lite::Regex,
    source: String,
    uses: AtomicU32,
    full: OnceLock<Option<regex::bytes::Regex>>,
}

impl Tiered {
    fn full(&self) -> Option<&regex::bytes::Regex> {
        if let Some(f) = self.full.get() {
            return f.as_ref();
        }
        if self.uses.fetch_add(1, Ordering::Relaxed) < PROMOTE_AFTER {
            return None;
        }
        self.full
            .get_or_init(|| full_regex(&non_capturing(&self.source)).ok())
            .as_ref()
    }
}

impl Regex {
    /// Whether the regex matches somewhere in `hay`.
    pub(crate) fn is_match(&self, hay: &str) -> bool {
        match self {
            Regex::Lite(t) => match t.full() {
                Some(f) => f.is_match(hay.as_bytes()),
                None => t.lite.is_match(hay),
            },
            Regex::Full(r) => r.is_match(hay.as_bytes()),
        }
    }

    /// The span of the first match in `hay`.
    pub(crate) fn find(&self, hay: &str) -> Option<(usize, usize)> {
        match self {
            Regex::Lite(t) => match t.full() {
                Some(f) => f.find(hay.as_bytes()).map(|m| (m.start(), m.end())),
                None => t.lite.find(hay).map(|m| (m.start(), m.end())),
            },
            Regex::Full(r) => r.find(hay.as_bytes()).map(|m| (m.start(), m.end())),
        }
    }
}

/// Compile a rule regex the way every rule regex is compiled. Rules share regexes (YAML
/// anchors: the list of regenerable build directories serves a dozen rules), so compiled
/// regexes are kept per process by source text.
pub(crate) fn compile_regex(re: &str) -> Result<Regex, String> {
    static CACHE: LazyLock<Mutex<HashMap<String, Regex>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    if let Ok(cache) = CACHE.lock()
        && let Some(r) = cache.get(re)
    {
        return Ok(r.clone());
    }
    let compiled = compile_uncached(re)?;
    if let Ok(mut cache) = CACHE.lock() {
        cache.insert(re.to_string(), compiled.clone());
    }
    Ok(compiled)
}

fn compile_uncached(re: &str) -> Result<Regex, String> {
    // Rules only ask whether and where a regex matches. Capture groups would make
    // `regex-lite` allocate and zero a slot table of states × groups for every regex a
    // command selects (megabytes for the large alternations of the network rules).
    let re = &non_capturing(re);
    if let Ok(r) = regex_lite::RegexBuilder::new(re)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
    {
        return Ok(Regex::Lite(Arc::new(Tiered {
            lite: r,
            source: re.to_string(),
            uses: AtomicU32::new(0),
            full: OnceLock::new(),
        })));
    }
    full_regex(re).map(Regex::Full)
}

/// `re` with every capture group `( … )` made non-capturing `(?: … )`; escapes and
/// character classes are left alone, as are groups that already start with `(?`.
fn non_capturing(re: &str) -> String {
    let mut out = String::with_capacity(re.len() + 16);
    let mut chars = re.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        out.push(c);
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '[' if !in_class => {
                in_class = true;
                // `[]…]` and `[^]…]`: a leading `]` is a literal.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.peek() != Some(&'?') => out.push_str("?:"),
            _ => {}
        }
    }
    out
}

fn full_regex(re: &str) -> Result<regex::bytes::Regex, String> {
    RegexBuilder::new(re)
        .unicode(false)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
        .map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or("invalid regex")
                .trim()
                .to_string()
        })
}

/// A compiled argument predicate.
#[derive(Debug, Clone)]
pub(crate) enum CPred {
    /// Equal to the text.
    Exact(Text),
    /// Starts with the text (`DIR/**` → `DIR/`).
    Under(String),
    /// Starts with the prefix and the rest has no `/` (`PREFIX*`).
    PrefixNoSep(String),
    /// Ends with the suffix and the rest has no `/` (`*SUFFIX`).
    SuffixNoSep(String),
    /// A general glob (globset's translation to a regex, anchored).
    Glob(Regex),
    /// A regex search.
    Regex(Regex),
    /// A regex search, compiled on first use, and only tried on words that contain one of
    /// its required literals (lowercase; found at build time for the built-in rules).
    Gated {
        required: &'static [&'static str],
        source: String,
        compiled: OnceLock<Option<Regex>>,
    },
    /// Could not be compiled: never matches (reported by lint).
    Never,
}

const GLOB_META: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

fn has_meta(s: &str) -> bool {
    s.contains(GLOB_META)
}

impl CPred {
    pub(crate) fn compile(p: &Pred) -> Result<CPred, String> {
        match p {
            Pred::Exact(t) => Ok(CPred::Exact(t.clone())),
            Pred::Regex(r) => match crate::builtin::predicate_literals(r) {
                Some(required) => Ok(CPred::Gated {
                    required,
                    source: r.to_string(),
                    compiled: OnceLock::new(),
                }),
                None => compile_regex(r).map(CPred::Regex),
            },
            Pred::Glob(g) => Ok(compile_glob(g)?),
        }
    }

    /// Whether `word` satisfies the predicate.
    pub(crate) fn matches(&self, word: &str) -> bool {
        match self {
            CPred::Exact(t) => word == t.as_ref(),
            CPred::Under(p) => word.starts_with(p.as_str()),
            CPred::PrefixNoSep(p) => word
                .strip_prefix(p.as_str())
                .is_some_and(|rest| !rest.contains('/')),
            CPred::SuffixNoSep(s) => word
                .strip_suffix(s.as_str())
                .is_some_and(|rest| !rest.contains('/')),
            CPred::Glob(r) | CPred::Regex(r) => r.is_match(word),
            CPred::Gated {
                required,
                source,
                compiled,
            } => {
                required.iter().any(|l| contains_ignore_ascii_case(word, l))
                    && compiled
                        .get_or_init(|| compile_regex(source).ok())
                        .as_ref()
                        .is_some_and(|r| r.is_match(word))
            }
            CPred::Never => false,
        }
    }
}

/// Whether `hay` holds `needle` (lower-case ASCII) in any ASCII case, without lowering a copy
/// of `hay` (a predicate runs on every word of every command its rule selects).
fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.len() >= n.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

fn compile_glob(g: &str) -> Result<CPred, String> {
    if !has_meta(g) {
        return Ok(CPred::Exact(Text::Owned(g.to_string())));
    }
    if let Some(dir) = g.strip_suffix("/**")
        && !has_meta(dir)
    {
        return Ok(CPred::Under(format!("{dir}/")));
    }
    if let Some(prefix) = g.strip_suffix('*')
        && !has_meta(prefix)
    {
        return Ok(CPred::PrefixNoSep(prefix.to_string()));
    }
    if let Some(suffix) = g.strip_prefix('*')
        && !has_meta(suffix)
    {
        return Ok(CPred::SuffixNoSep(suffix.to_string()));
    }
    let glob = globset::GlobBuilder::new(g)
        .literal_separator(true)
        .build()
        .map_err(|e| e.to_string())?;
    compile_regex(glob.regex()).map(CPred::Glob)
}

/// A pattern rule's compiled text matcher.
#[derive(Debug, Clone)]
pub(crate) enum CPattern {
    /// The whole text equals this.
    Exact(Text),
    /// A regex search.
    Regex(Regex),
}

impl CPattern {
    /// The span of the first match in `hay`.
    pub(crate) fn find(&self, hay: &str) -> Option<(usize, usize)> {
        match self {
            CPattern::Exact(t) => (hay == t.as_ref()).then_some((0, hay.len())),
            CPattern::Regex(r) => r.find(hay),
        }
    }
}

/// Everything of a rule that needs compiling.
#[derive(Debug, Clone, Default)]
pub(crate) struct CompiledRule {
    pub(crate) args_any: Vec<CPred>,
    pub(crate) args_all: Vec<CPred>,
    pub(crate) args_none: Vec<CPred>,
    pub(crate) args_except: Vec<CPred>,
    pub(crate) args_first: Vec<CPred>,
    pub(crate) args_last: Vec<CPred>,
    pub(crate) redirect_to: Vec<CPred>,
    pub(crate) pattern: Option<CPattern>,
    /// Compilation errors (the failing predicate never matches; lint reports these).
    pub(crate) errors: Vec<String>,
}

impl CompiledRule {
    pub(crate) fn compile(m: &Matcher) -> CompiledRule {
        let mut out = CompiledRule::default();
        match m {
            Matcher::Command(c) => {
                out.args_any = compile_list(&c.args_any, "args_any", &mut out.errors);
                out.args_all = compile_list(&c.args_all, "args_all", &mut out.errors);
                out.args_none = compile_list(&c.args_none, "args_none", &mut out.errors);
                out.args_except = compile_list(&c.args_except, "args_except", &mut out.errors);
                out.args_first = compile_list(&c.args_first, "args_first", &mut out.errors);
                out.args_last = compile_list(&c.args_last, "args_last", &mut out.errors);
                out.redirect_to = compile_list(&c.redirect_to, "redirect_to", &mut out.errors);
            }
            Matcher::Pattern(p) => {
                out.pattern = match p.kind {
                    PatternKind::Exact => Some(CPattern::Exact(p.text.clone())),
                    PatternKind::Regex | PatternKind::Glob => match compile_regex(&p.regex) {
                        Ok(r) => Some(CPattern::Regex(r)),
                        Err(e) => {
                            out.errors
                                .push(format!("invalid pattern `{}`: {e}", p.text));
                            None
                        }
                    },
                };
            }
        }
        out
    }
}

fn compile_list(preds: &[Pred], key: &str, errors: &mut Vec<String>) -> Vec<CPred> {
    preds
        .iter()
        .map(|p| {
            CPred::compile(p).unwrap_or_else(|e| {
                errors.push(format!("`{key}`: invalid predicate `{}`: {e}", p.to_spec()));
                CPred::Never
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob_agrees(pattern: &str, words: &[&str]) {
        let fast = compile_glob(pattern).unwrap();
        let slow = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .unwrap()
            .compile_matcher();
        for w in words {
            assert_eq!(
                fast.matches(w),
                slow.is_match(w),
                "glob `{pattern}` on `{w}` differs from globset"
            );
        }
    }

    #[test]
    fn glob_fast_paths_agree_with_globset() {
        let words = [
            "/",
            "/etc",
            "/etc/",
            "/etc/passwd",
            "/etc/a/b",
            "etc",
            "~",
            "~/",
            "~/.ssh/id_rsa",
            "/*",
            "a.txt",
            "dir/a.txt",
            "/home/u",
            "node_modules",
            "",
        ];
        for p in [
            "/",
            "/etc/**",
            "/etc/*",
            "~/*",
            "*.txt",
            "/home/*",
            "*",
            "~/.ssh/**",
        ] {
            glob_agrees(p, &words);
        }
    }

    #[test]
    fn regex_and_exact_predicates() {
        let r = CPred::compile(&Pred::Regex("^/dev/sd[a-z]$".into())).unwrap();
        assert!(r.matches("/dev/sda") && !r.matches("/dev/sda1"));
        let e = CPred::compile(&Pred::Exact("/".into())).unwrap();
        assert!(e.matches("/") && !e.matches("/tmp"));
        assert!(CPred::compile(&Pred::Regex("(".into())).is_err());
    }
}

#[cfg(test)]
mod capture_tests {
    use super::non_capturing;

    #[test]
    fn groups_become_non_capturing_and_nothing_else_changes() {
        assert_eq!(non_capturing("^(rm|rmdir)\\s"), "^(?:rm|rmdir)\\s");
        assert_eq!(non_capturing("(?i)(a)"), "(?i)(?:a)");
        assert_eq!(non_capturing("\\(x\\)"), "\\(x\\)");
        assert_eq!(non_capturing("[(]a[^)(]"), "[(]a[^)(]");
        assert_eq!(non_capturing("[]()]"), "[]()]");
        assert_eq!(non_capturing("(?:a)(b)"), "(?:a)(?:b)");
        assert_eq!(non_capturing("[\\]](c)"), "[\\]](?:c)");
    }
}
