//! The literal prefilter for built-in text-pattern rules: one Aho-Corasick automaton over the
//! literals extracted at build time (one of a rule's literals occurs in every match), and one
//! regex set over the patterns without literals. Both are built on first use, so a command that
//! never reaches a pattern check costs nothing, and a check costs the same for 10 or 1,000
//! patterns. Candidates are then confirmed by the rule's own regex.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::{RegexSet, RegexSetBuilder};

use crate::predicate::{DFA_SIZE_LIMIT, REGEX_SIZE_LIMIT};

/// A compiled prefilter over one group of pattern rules (canonical or raw).
#[derive(Debug)]
pub(crate) struct Prefilter {
    ac: Option<AhoCorasick>,
    lit_rules: Vec<&'static [u32]>,
    set: Option<RegexSet>,
    set_rules: Vec<u32>,
    /// Unfiltered rules whose regex the set could not take: always candidates.
    always: Vec<u32>,
}

impl Prefilter {
    /// Build from the generated tables; `regex_of` gives a rule's regex source.
    pub(crate) fn build(
        literals: &'static [(&'static str, &'static [u32])],
        unfiltered: &'static [u32],
        regex_of: impl Fn(u32) -> Option<&'static str>,
    ) -> Prefilter {
        let ac = if literals.is_empty() {
            None
        } else {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .build(literals.iter().map(|(l, _)| *l))
                .ok()
        };
        // Without an automaton every literal rule must be checked.
        let mut always: Vec<u32> = if ac.is_none() {
            literals
                .iter()
                .flat_map(|(_, r)| r.iter().copied())
                .collect()
        } else {
            Vec::new()
        };
        let mut set_rules = Vec::new();
        let mut sources = Vec::new();
        for &r in unfiltered {
            match regex_of(r) {
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
        Prefilter {
            ac,
            lit_rules: literals.iter().map(|(_, r)| *r).collect(),
            set,
            set_rules,
            always,
        }
    }

    /// Rules that may match `hay`, sorted and deduplicated.
    pub(crate) fn candidates(&self, hay: &str) -> Vec<u32> {
        let mut out = self.always.clone();
        if let Some(ac) = &self.ac {
            for m in ac.find_overlapping_iter(hay) {
                if let Some(rules) = self.lit_rules.get(m.pattern().as_usize()) {
                    out.extend_from_slice(rules);
                }
            }
        }
        if let Some(set) = &self.set {
            for i in set.matches(hay.as_bytes()).iter() {
                if let Some(r) = self.set_rules.get(i) {
                    out.push(*r);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
