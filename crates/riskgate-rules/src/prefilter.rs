//! The literal prefilter for built-in text-pattern rules. Every pattern rule has, extracted at
//! build time, a set of lowercase literals one of which occurs in every match; the generated
//! table lists them sorted. A check walks that sorted table like a trie from each position of
//! the (lowercased) haystack, narrowing the range of candidate literals byte by byte with binary
//! searches, so it needs no automaton to be built first: a one-shot process (an agent's hook)
//! pays nothing at start-up, and a check costs O(haystack × depth × log literals) however many
//! rules there are. Patterns without a usable literal go in one regex set, built on first use.
//! Candidates are then confirmed by the rule's own regex.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use aho_corasick::{AhoCorasick, MatchKind};
use regex::bytes::{RegexSet, RegexSetBuilder};

use crate::predicate::{DFA_SIZE_LIMIT, REGEX_SIZE_LIMIT};

/// The generated table: lowercase literal → rules that require it.
pub(crate) type LiteralTable = &'static [(&'static str, &'static [u32])];

/// A prefilter over one group of pattern rules (canonical or raw).
#[derive(Debug)]
pub(crate) struct Prefilter {
    /// Literals sorted by bytes (the generated table already is; sorted here if not).
    literals: Cow<'static, [(&'static str, &'static [u32])]>,
    unfiltered: &'static [u32],
    regex_of: fn(u32) -> Option<&'static str>,
    set: OnceLock<UnfilteredSet>,
    /// The literals as one automaton, built on first use for large texts, or once the
    /// process has made many checks (a one-shot hook keeps the table search and pays
    /// nothing at start-up).
    automaton: OnceLock<Option<AhoCorasick>>,
    /// Checks made so far.
    checks: AtomicUsize,
}

/// Texts at least this long are searched with the automaton: the table search costs up to
/// (longest literal × log literals) per byte, which adversarial megabytes turn into seconds.
const AUTOMATON_FROM: usize = 16 * 1024;

/// After this many checks a process is a long-running one (`scan`, the hook server, a
/// library caller): building the automaton once pays for itself, and every text uses it.
const AUTOMATON_AFTER_CHECKS: usize = 512;

#[derive(Debug)]
struct UnfilteredSet {
    set: Option<RegexSet>,
    set_rules: Vec<u32>,
    /// Unfiltered rules whose regex the set could not take: always candidates.
    always: Vec<u32>,
}

impl Prefilter {
    /// A prefilter over the generated tables; `regex_of` gives a rule's regex source. Costs
    /// nothing when the table is sorted, as generated.
    pub(crate) fn new(
        literals: LiteralTable,
        unfiltered: &'static [u32],
        regex_of: fn(u32) -> Option<&'static str>,
    ) -> Prefilter {
        let sorted = literals.windows(2).all(|w| match w {
            [a, b] => a.0.as_bytes() <= b.0.as_bytes(),
            _ => true,
        });
        let literals = if sorted {
            Cow::Borrowed(literals)
        } else {
            let mut v = literals.to_vec();
            v.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Cow::Owned(v)
        };
        Prefilter {
            literals,
            unfiltered,
            regex_of,
            set: OnceLock::new(),
            automaton: OnceLock::new(),
            checks: AtomicUsize::new(0),
        }
    }

    /// Rules that may match `hay`, sorted and deduplicated.
    pub(crate) fn candidates(&self, hay: &str) -> Vec<u32> {
        let mut out = Vec::new();
        if !self.literals.is_empty() {
            let lower = hay.as_bytes().to_ascii_lowercase();
            match self.automaton_for(lower.len()) {
                Some(ac) => {
                    // Each literal once, however often it occurs.
                    let mut seen = vec![false; self.literals.len()];
                    for m in ac.find_overlapping_iter(&lower[..]) {
                        let i = m.pattern().as_usize();
                        if let (Some(false), Some((_, rules))) = (seen.get(i), self.literals.get(i))
                        {
                            out.extend_from_slice(rules);
                            if let Some(s) = seen.get_mut(i) {
                                *s = true;
                            }
                        }
                    }
                }
                None => {
                    for i in 0..lower.len() {
                        self.literals_at(&lower[i..], &mut out);
                    }
                }
            }
        }
        if !self.unfiltered.is_empty() {
            let u = self.set.get_or_init(|| self.build_set());
            out.extend_from_slice(&u.always);
            if let Some(set) = &u.set {
                for i in set.matches(hay.as_bytes()).iter() {
                    if let Some(r) = u.set_rules.get(i) {
                        out.push(*r);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The automaton, when a text of `len` bytes is to be searched with it.
    fn automaton_for(&self, len: usize) -> Option<&AhoCorasick> {
        let checks = self.checks.fetch_add(1, Ordering::Relaxed);
        if len < AUTOMATON_FROM && checks < AUTOMATON_AFTER_CHECKS {
            return None;
        }
        self.automaton
            .get_or_init(|| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .build(self.literals.iter().map(|(l, _)| l.as_bytes()))
                    .ok()
            })
            .as_ref()
    }

    /// Push the rules of every literal that is a prefix of `rest`.
    fn literals_at(&self, rest: &[u8], out: &mut Vec<u32>) {
        let lits: &[(&str, &[u32])] = &self.literals;
        let (mut lo, mut hi) = (0usize, lits.len());
        let mut k = 0usize;
        while lo < hi {
            // In a range whose literals share the first k bytes, those of length k sort first
            // and equal rest[..k]: they occur here.
            while lo < hi && lits.get(lo).is_some_and(|(l, _)| l.len() == k) {
                if let Some((_, rules)) = lits.get(lo) {
                    out.extend_from_slice(rules);
                }
                lo += 1;
            }
            let (Some(&b), Some(range)) = (rest.get(k), lits.get(lo..hi)) else {
                break;
            };
            let byte = |l: &str| l.as_bytes().get(k).copied().unwrap_or(0);
            let start = range.partition_point(|(l, _)| byte(l) < b);
            let end = range.partition_point(|(l, _)| byte(l) <= b);
            hi = lo + end;
            lo += start;
            k += 1;
        }
    }

    fn build_set(&self) -> UnfilteredSet {
        let mut always = Vec::new();
        let mut set_rules = Vec::new();
        let mut sources = Vec::new();
        for &r in self.unfiltered {
            match (self.regex_of)(r) {
                Some(src) => {
                    set_rules.push(r);
                    sources.push(src);
                }
                None => always.push(r),
            }
        }
        let set = if sources.is_empty() {
            None
        } else {
            match RegexSetBuilder::new(&sources)
                .unicode(false)
                .size_limit(REGEX_SIZE_LIMIT * 4)
                .dfa_size_limit(DFA_SIZE_LIMIT)
                .build()
            {
                Ok(s) => Some(s),
                Err(_) => {
                    always.append(&mut set_rules);
                    None
                }
            }
        };
        UnfilteredSet {
            set,
            set_rules,
            always,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static LITS: &[(&str, &[u32])] = &[
        ("--force", &[1]),
        ("--force-with-lease", &[2]),
        ("-f", &[3]),
        ("drop table", &[4]),
        ("rm", &[5]),
        ("rm -r", &[6]),
    ];

    fn none(_: u32) -> Option<&'static str> {
        None
    }

    #[test]
    fn finds_every_literal_occurrence_case_insensitively() {
        let pf = Prefilter::new(LITS, &[], none);
        assert_eq!(pf.candidates("git push --FORCE-with-lease"), vec![1, 2, 3]);
        assert_eq!(pf.candidates("psql -c 'Drop Table x'"), vec![4]);
        assert_eq!(pf.candidates("rm -r x"), vec![5, 6]);
        assert_eq!(pf.candidates("ls -la"), Vec::<u32>::new());
        assert_eq!(pf.candidates(""), Vec::<u32>::new());
    }

    #[test]
    fn a_long_running_process_switches_to_the_automaton_with_the_same_answers() {
        let pf = Prefilter::new(LITS, &[], none);
        for round in 0..(AUTOMATON_AFTER_CHECKS * 2) {
            assert_eq!(
                pf.candidates("git push --FORCE-with-lease"),
                vec![1, 2, 3],
                "{round}"
            );
            assert_eq!(pf.candidates("rm -r x"), vec![5, 6], "{round}");
            assert_eq!(pf.candidates("ls -la"), Vec::<u32>::new(), "{round}");
        }
        assert!(pf.automaton.get().is_some_and(Option::is_some));
    }

    #[test]
    fn large_texts_find_the_same_literals_through_the_automaton() {
        let pf = Prefilter::new(LITS, &[], none);
        let pad = "x".repeat(AUTOMATON_FROM);
        for (text, want) in [
            ("git push --FORCE-with-lease", vec![1, 2, 3]),
            ("psql -c 'Drop Table x'", vec![4]),
            ("rm -r x", vec![5, 6]),
            ("ls -la", vec![]),
        ] {
            let small = pf.candidates(text);
            assert_eq!(small, want, "{text}");
            for big in [
                format!("{pad}{text}"),
                format!("{text}{pad}"),
                text.repeat(3000),
            ] {
                assert!(big.len() >= AUTOMATON_FROM);
                assert_eq!(pf.candidates(&big), want, "{text} in a large text");
            }
        }
    }

    #[test]
    fn an_unsorted_table_is_sorted_first() {
        static UNSORTED: &[(&str, &[u32])] = &[("rm", &[5]), ("--force", &[1]), ("-f", &[3])];
        let pf = Prefilter::new(UNSORTED, &[], none);
        assert_eq!(pf.candidates("rm --force"), vec![1, 3, 5]);
    }

    #[test]
    fn unfiltered_patterns_go_through_the_set() {
        static UNF: &[u32] = &[7, 8];
        fn re(i: u32) -> Option<&'static str> {
            match i {
                7 => Some("^a+b$"),
                _ => None,
            }
        }
        let pf = Prefilter::new(&[], UNF, re);
        assert_eq!(pf.candidates("aab"), vec![7, 8]);
        assert_eq!(pf.candidates("xyz"), vec![8]);
    }
}
