//! Warnings of a hook call (an ignored project setting, an audit log that could not be
//! written …), collected per thread and handed back with the [`crate::Reply`]'s stderr: the
//! call may be answered by the hook server, whose own stderr nobody reads.

use std::cell::RefCell;

thread_local! {
    static WARNINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Note a warning for the current hook call.
pub(crate) fn warn(message: String) {
    WARNINGS.with(|w| w.borrow_mut().push(message));
}

/// The warnings noted on this thread since the last call, as stderr lines.
pub(crate) fn take() -> String {
    WARNINGS.with(|w| {
        w.borrow_mut()
            .drain(..)
            .map(|m| format!("riskgate: warning: {m}\n"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn warnings_are_taken_once_as_lines() {
        super::warn("a".into());
        super::warn("b".into());
        assert_eq!(
            super::take(),
            "riskgate: warning: a\nriskgate: warning: b\n"
        );
        assert_eq!(super::take(), "");
    }
}
