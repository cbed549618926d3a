//! Shell scripts (`*.sh`, `*.bash`, or a shell shebang): the whole file is one snippet, read
//! by the shell engine as bash reads it (functions, loops, heredocs).

use crate::snippet::{Extracted, Snippet, SnippetLang};

/// Extract a shell script.
pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted::default();
    let lines = (1..=text.matches('\n').count() as u32 + 1)
        .map(|l| (l, 1))
        .collect();
    out.push(Snippet::new(
        "script",
        text.to_string(),
        SnippetLang::Shell,
        lines,
    ));
    out
}
