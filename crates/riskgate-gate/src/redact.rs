//! Secret redaction for everything riskgate writes to disk or prints: the audit record's input
//! and reason, the journal (which holds those records), warnings, and the patterns stored by
//! `always` / `never` answers. The knowledge is the model's one secrets table
//! ([`riskgate_model::secrets`]): the same shapes, names and credential flags the analyzers
//! report as findings.
//!
//! Approval patterns keep matching: a secret in a stored pattern becomes `*` (a star does not
//! cross a command separator, see [`crate::pattern`]), so `mysql -u root -phunter2 app`
//! answered `always` is stored as `mysql -u root -p* app` — it approves the same command with
//! any password and the password never reaches settings.json.

use std::borrow::Cow;

pub use riskgate_model::secrets::{REDACTED, redact, redact_with};

/// A pattern to store with its secrets replaced by `*`.
pub fn redact_pattern(pattern: &str) -> Cow<'_, str> {
    redact_with(pattern, "*")
}

/// Every string of `items` redacted in place.
pub fn redact_all(items: &mut [String]) {
    for s in items.iter_mut() {
        if let Cow::Owned(r) = redact(s) {
            *s = r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_keep_a_star_for_the_secret() {
        assert_eq!(
            redact_pattern("sshpass -p hunter2xyz ssh h"),
            "sshpass -p * ssh h"
        );
        assert_eq!(redact_pattern("git push"), "git push");
        let mut w = vec!["PASSWORD=hunter2xyz".to_string(), "ok".to_string()];
        redact_all(&mut w);
        assert_eq!(w, ["PASSWORD=[REDACTED]", "ok"]);
    }
}
