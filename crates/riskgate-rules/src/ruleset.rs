//! [`RuleSet`]: the built-in rules (static, free to load) plus the user's packs, with
//! overrides applied, and the candidate lookups the engine uses (by program name, prefilter).

use std::collections::HashMap;
use std::path::Path;

use crate::builtin;
use crate::loader::{self, RuleLoadError};
use crate::rule::{Matcher, PackInfo, Rule, Target};

/// The rules database: built-in rules and user packs.
///
/// ```
/// use riskgate_rules::RuleSet;
/// let rules = RuleSet::builtin();
/// assert!(rules.rules().any(|r| r.id() == "git.reset-hard"));
/// assert!(!rules.is_degraded());
/// ```
#[derive(Debug, Clone)]
pub struct RuleSet {
    /// Whether the built-in tables are used.
    builtin: bool,
    /// Built-in rules replaced or overridden by a user pack (indexed like the built-in table;
    /// empty when nothing is hidden).
    hidden: Vec<bool>,
    /// User rules and overridden copies of built-in ones.
    extra: Vec<Rule>,
    extra_by_program: HashMap<String, Vec<u32>>,
    extra_any: Vec<u32>,
    extra_canonical: Vec<u32>,
    extra_raw: Vec<u32>,
    user_packs: Vec<PackInfo>,
    degraded: Option<String>,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::builtin()
    }
}

impl RuleSet {
    /// The built-in rules only. Costs nothing: the tables are static.
    pub fn builtin() -> RuleSet {
        RuleSet {
            builtin: true,
            hidden: Vec::new(),
            extra: Vec::new(),
            extra_by_program: HashMap::new(),
            extra_any: Vec::new(),
            extra_canonical: Vec::new(),
            extra_raw: Vec::new(),
            user_packs: Vec::new(),
            degraded: None,
        }
    }

    /// A rule set whose database could not be loaded: no rules, and every command is rated at
    /// least MEDIUM with `reason` in the output (seed 004's fail-safe). Also the test hook for a
    /// failed load.
    pub fn unavailable(reason: impl Into<String>) -> RuleSet {
        RuleSet {
            builtin: false,
            degraded: Some(reason.into()),
            ..RuleSet::builtin()
        }
    }

    /// The built-in rules plus the user packs at `paths`, in order (later packs win). Invalid
    /// rules are skipped; every problem is returned. An unreadable or unparsable pack degrades
    /// the set (see [`RuleSet::is_degraded`]).
    pub fn with_user_packs<P: AsRef<Path>>(paths: &[P]) -> (RuleSet, Vec<RuleLoadError>) {
        let mut set = RuleSet::builtin();
        let mut errors = Vec::new();
        for p in paths {
            match loader::load_pack(p.as_ref()) {
                Ok(pack) => set.add_pack(pack, &p.as_ref().display().to_string(), &mut errors),
                Err(e) => {
                    set.degrade(e.to_string());
                    errors.push(e);
                }
            }
        }
        set.reindex();
        (set, errors)
    }

    fn degrade(&mut self, reason: String) {
        self.degraded = Some(match self.degraded.take() {
            Some(prev) => format!("{prev}; {reason}"),
            None => reason,
        });
    }

    fn hide_builtin(&mut self, idx: usize) {
        if self.hidden.is_empty() {
            self.hidden = vec![false; builtin::rules().len()];
        }
        if let Some(h) = self.hidden.get_mut(idx) {
            *h = true;
        }
    }

    fn add_pack(&mut self, pack: loader::LoadedPack, path: &str, errors: &mut Vec<RuleLoadError>) {
        let count = pack.rules.len();
        for rule in pack.rules {
            // A full rule with an existing id replaces it.
            self.remove_id(rule.id());
            self.extra.push(rule);
        }
        for (o, line) in pack.overrides {
            if let Some(slot) = self.extra.iter_mut().find(|r| r.id() == o.id) {
                *slot = loader::apply_override(slot, &o);
            } else if let Some((idx, base)) = self
                .builtin_position(&o.id)
                .and_then(|i| builtin::rules().get(i).map(|r| (i, r)))
            {
                self.extra.push(loader::apply_override(base, &o));
                self.hide_builtin(idx);
            } else {
                errors.push(RuleLoadError::UnknownRule {
                    path: path.to_string(),
                    line,
                    id: o.id.clone(),
                });
            }
        }
        errors.extend(pack.errors);
        self.user_packs.push(PackInfo {
            name: pack.name.into(),
            description: "user pack".into(),
            source: path.to_string().into(),
            rules: count,
        });
    }

    fn builtin_position(&self, id: &str) -> Option<usize> {
        if !self.builtin {
            return None;
        }
        builtin::rules()
            .iter()
            .enumerate()
            .position(|(i, r)| r.id() == id && !self.is_hidden(i))
    }

    fn remove_id(&mut self, id: &str) {
        self.extra.retain(|r| r.id() != id);
        while let Some(idx) = self.builtin_position(id) {
            self.hide_builtin(idx);
        }
    }

    fn reindex(&mut self) {
        self.extra_by_program.clear();
        self.extra_any.clear();
        self.extra_canonical.clear();
        self.extra_raw.clear();
        for (i, r) in self.extra.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            match &r.matcher {
                Matcher::Command(c) if c.program.is_empty() => self.extra_any.push(i),
                Matcher::Command(c) => {
                    for p in c.program.iter() {
                        self.extra_by_program
                            .entry(p.to_string())
                            .or_default()
                            .push(i);
                    }
                }
                Matcher::Pattern(p) if p.on == Target::Raw => self.extra_raw.push(i),
                Matcher::Pattern(_) => self.extra_canonical.push(i),
            }
        }
    }

    fn is_hidden(&self, idx: usize) -> bool {
        self.hidden.get(idx).copied().unwrap_or(false)
    }

    fn builtin_rule(&self, idx: u32) -> Option<&'static Rule> {
        if !self.builtin || self.is_hidden(idx as usize) {
            return None;
        }
        builtin::rules().get(idx as usize).filter(|r| !r.disabled)
    }

    fn extra_rule(&self, idx: u32) -> Option<&Rule> {
        self.extra.get(idx as usize).filter(|r| !r.disabled)
    }

    /// Every rule (built-in ones not replaced by a user pack, then user rules and overridden
    /// copies), disabled ones included, for `rules list` / `rules show`.
    pub fn rules(&self) -> impl Iterator<Item = &Rule> + '_ {
        let builtin: &'static [Rule] = if self.builtin { builtin::rules() } else { &[] };
        builtin
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.is_hidden(*i))
            .map(|(_, r)| r)
            .chain(self.extra.iter())
    }

    /// The rule with this id.
    pub fn get(&self, id: &str) -> Option<&Rule> {
        self.rules().filter(|r| r.id() == id).last()
    }

    /// Number of rules (disabled ones included).
    pub fn len(&self) -> usize {
        self.rules().count()
    }

    /// True when there is no rule.
    pub fn is_empty(&self) -> bool {
        self.rules().next().is_none()
    }

    /// The packs: built-in ones, then user packs.
    pub fn packs(&self) -> Vec<PackInfo> {
        let mut v: Vec<PackInfo> = if self.builtin {
            builtin::packs().to_vec()
        } else {
            Vec::new()
        };
        v.extend(self.user_packs.iter().cloned());
        v
    }

    /// True when the database is missing or incomplete: every command is then rated at least
    /// MEDIUM.
    pub fn is_degraded(&self) -> bool {
        self.degraded.is_some()
    }

    /// Why the database is incomplete.
    pub fn degraded_reason(&self) -> Option<&str> {
        self.degraded.as_deref()
    }

    /// Call `f` with every enabled structured rule that may apply to `program`.
    pub(crate) fn for_program<'s>(&'s self, program: &str, mut f: impl FnMut(&'s Rule)) {
        if self.builtin {
            for &i in builtin::by_program(program)
                .iter()
                .chain(builtin::any_program())
            {
                if let Some(r) = self.builtin_rule(i) {
                    f(r);
                }
            }
        }
        let extra = self
            .extra_by_program
            .get(program)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for &i in extra.iter().chain(&self.extra_any) {
            if let Some(r) = self.extra_rule(i) {
                f(r);
            }
        }
    }

    /// Call `f` with every enabled pattern rule on `on` that may match `hay`.
    pub(crate) fn for_patterns<'s>(&'s self, on: Target, hay: &str, mut f: impl FnMut(&'s Rule)) {
        if self.builtin {
            let pf = match on {
                Target::Canonical if builtin::has_canonical_patterns() => {
                    Some(builtin::canonical_prefilter())
                }
                Target::Raw if builtin::has_raw_patterns() => Some(builtin::raw_prefilter()),
                _ => None,
            };
            if let Some(pf) = pf {
                for i in pf.candidates(hay) {
                    if let Some(r) = self.builtin_rule(i) {
                        f(r);
                    }
                }
            }
        }
        let extra = match on {
            Target::Canonical => &self.extra_canonical,
            Target::Raw => &self.extra_raw,
        };
        for &i in extra {
            if let Some(r) = self.extra_rule(i) {
                f(r);
            }
        }
    }
}
