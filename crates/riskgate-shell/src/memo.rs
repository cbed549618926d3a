//! One action, one parse: the engine's reading of a command line is kept on its thread so
//! that the gate, which matches the policy's command patterns against the same line right
//! after (a hook, `check`, `scan`), reuses it instead of normalizing the line again.
//!
//! The engine always parses afresh ([`parse_kept`]); only readers that come after it take the
//! kept reading ([`parse_shared`]). Normalization with default [`Limits`] is a function of the
//! text and the shell, so the kept reading is the one a fresh call would give (a call cut off
//! at its deadline is kept as cut off: the gate sees the reading the engine rated).

use std::cell::RefCell;
use std::sync::Arc;

use crate::{Limits, ParsedCommand, Shell};

/// Readings kept per thread: the line an action is about and the few that rating it parses
/// in turn (the scripts a project definition runs).
const KEPT: usize = 4;

/// Longest line kept (a longer one is parsed again: rare, and not worth the memory).
const MAX_KEPT_BYTES: usize = 64 * 1024;

struct Kept {
    shell: Option<Shell>,
    input: String,
    parsed: Arc<ParsedCommand>,
}

thread_local! {
    /// Most recently kept last.
    static KEPT_LINES: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// [`crate::parse_as`] of `input`, always normalized afresh, and kept on this thread for
/// [`parse_shared`].
pub fn parse_kept(input: &str, shell: Option<Shell>) -> Arc<ParsedCommand> {
    let parsed = Arc::new(crate::parse_as_with(input, shell, &Limits::default()));
    if input.len() <= MAX_KEPT_BYTES {
        KEPT_LINES.with(|k| {
            let mut k = k.borrow_mut();
            k.retain(|e| !(e.shell == shell && e.input == input));
            if k.len() >= KEPT {
                k.remove(0);
            }
            k.push(Kept {
                shell,
                input: input.to_string(),
                parsed: Arc::clone(&parsed),
            });
        });
    }
    parsed
}

/// [`crate::parse_as`] of `input`: the reading [`parse_kept`] last kept on this thread for the
/// same text and shell, else a fresh one (not kept).
pub fn parse_shared(input: &str, shell: Option<Shell>) -> Arc<ParsedCommand> {
    let kept = KEPT_LINES.with(|k| {
        k.borrow()
            .iter()
            .rev()
            .find(|e| e.shell == shell && e.input == input)
            .map(|e| Arc::clone(&e.parsed))
    });
    kept.unwrap_or_else(|| Arc::new(crate::parse_as_with(input, shell, &Limits::default())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn debug(p: &ParsedCommand) -> String {
        format!("{p:?}")
    }

    #[test]
    fn a_reader_after_the_engine_gets_its_reading() {
        let a = parse_kept("git push origin main -f", None);
        let b = parse_shared("git push origin main -f", None);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(debug(&a), debug(&crate::parse("git push origin main -f")));
        assert_eq!(a.commands[0].program, "git");
    }

    #[test]
    fn the_engine_always_parses_afresh() {
        let a = parse_kept("ls -la /srv", None);
        let b = parse_kept("ls -la /srv", None);
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(debug(&a), debug(&b));
        KEPT_LINES.with(|k| assert_eq!(k.borrow().len(), 1));
    }

    #[test]
    fn another_shell_or_text_is_parsed_on_its_own() {
        let bash = parse_kept("Remove-Item -Recurse x", Some(Shell::Bash));
        let auto = parse_shared("Remove-Item -Recurse x", None);
        assert!(!Arc::ptr_eq(&bash, &auto));
        assert_eq!(debug(&auto), debug(&crate::parse("Remove-Item -Recurse x")));
        let kept = parse_kept("rm -rf /tmp/x", None);
        assert!(!Arc::ptr_eq(&parse_shared("rm -rf /tmp/y", None), &kept));
    }

    #[test]
    fn only_the_last_few_readings_are_kept() {
        let first = parse_kept("ls -la /first", None);
        for i in 0..KEPT {
            parse_kept(&format!("ls /other{i}"), None);
        }
        assert!(!Arc::ptr_eq(&parse_shared("ls -la /first", None), &first));
        KEPT_LINES.with(|k| assert_eq!(k.borrow().len(), KEPT));
    }
}
