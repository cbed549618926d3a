//! Concatenation (`"rm -rf " + path`), `%` and `.format` on strings that are not all
//! constants: a dynamic string with its literal parts.

use super::super::analysis::ArgValue;
use super::super::calls::{Scope, Walker};
use super::super::token::Token;

impl Walker<'_> {
    /// `"rm -rf " + path`, `"rm %s" % p`, `"rm {}".format(p)`: a dynamic string with its literal
    /// parts; or a plain string when every operand is literal.
    pub(crate) fn concatenation(&self, from: usize, to: usize, scope: &Scope) -> Option<ArgValue> {
        let first = self.toks.get(from)?;
        // "…".format(…) / "…" % x
        if let Some(lit) = first.str_lit() {
            let next = self.toks.get(from + 1);
            if next.is_some_and(|t| t.is_punct("%")) {
                let v = lit
                    .value
                    .replace("%s", "{}")
                    .replace("%d", "{}")
                    .replace("%r", "{}");
                return Some(ArgValue::Dynamic(v));
            }
            if next.is_some_and(|t| t.is_punct("."))
                && self.toks.get(from + 2).and_then(Token::ident) == Some("format")
            {
                return Some(ArgValue::Dynamic(lit.value.clone()));
            }
        }
        let mut parts: Vec<(usize, usize)> = Vec::new();
        let mut k = from;
        let mut piece = from;
        let mut saw_plus = false;
        while k < to {
            if self.toks.get(k).is_some_and(|t| t.is_punct("+")) {
                parts.push((piece, k));
                piece = k + 1;
                saw_plus = true;
                k += 1;
                continue;
            }
            k = self.skip_group(k) + 1;
        }
        if !saw_plus {
            return None;
        }
        parts.push((piece, to));
        let mut s = String::new();
        let mut dynamic = false;
        let mut any_str = false;
        for (a, b) in parts {
            match self.value(a, b, scope) {
                ArgValue::Str(v) => {
                    any_str = true;
                    s.push_str(&v);
                }
                ArgValue::Dynamic(v) => {
                    any_str = true;
                    dynamic = true;
                    s.push_str(&v);
                }
                _ => {
                    dynamic = true;
                    s.push_str("{}");
                }
            }
            if s.len() > super::MAX_FOLDED {
                // constants doubled through variables (`b = a + a; c = b + b …`) are cut here
                self.mark_truncated();
                return Some(ArgValue::Other(self.text(from, to.saturating_sub(1))));
            }
        }
        if !any_str {
            return None;
        }
        Some(if dynamic {
            ArgValue::Dynamic(s)
        } else {
            ArgValue::Str(s)
        })
    }
}
