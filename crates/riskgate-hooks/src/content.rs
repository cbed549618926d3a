//! Content checks for file writes and edits: secrets written into files (riskgate's secrets
//! analyzer), destructive code in scripts (the code assessor, or the shell engine for shell
//! scripts), install scripts added to `package.json`.
//!
//! Writing code is not running it, so a finding from the code is capped at HIGH (the write is
//! asked about, never refused outright for its content). At most [`MAX_CONTENT_BYTES`] are
//! examined; a larger content gets a MEDIUM "too large to check" finding (fail-safe).

use std::path::Path;

use riskgate::model::Language;
use riskgate::{Action, Finding, RiskLevel};

use crate::judge::LazyEngine;

/// Content beyond this many bytes is not examined.
pub const MAX_CONTENT_BYTES: usize = 1 << 20;

/// The language of a file from its extension or shebang; `None` for data and prose.
pub fn language_of(path: &str, content: &str) -> Option<Language> {
    let ext = Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("py" | "pyw" | "ipynb") => Some(Language::Python),
        Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx") => Some(Language::Js),
        Some("sh" | "bash" | "zsh" | "ksh" | "command") => Some(Language::Sh),
        Some("rb") => Some(Language::Ruby),
        Some("pl" | "pm") => Some(Language::Perl),
        Some("php") => Some(Language::Php),
        Some(_) => None,
        None => {
            let first = content.lines().next().unwrap_or("");
            first
                .starts_with("#!")
                .then(|| riskgate::analyzers::code::detect_language(content))
        }
    }
}

fn cut(content: &str) -> &str {
    if content.len() <= MAX_CONTENT_BYTES {
        return content;
    }
    let mut end = MAX_CONTENT_BYTES;
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    &content[..end]
}

/// Findings for writing `content` to `path`. `engine` is built only when code is examined.
pub fn content_findings(
    engine: &LazyEngine,
    path: &str,
    content: &str,
    language: Option<Language>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if content.len() > MAX_CONTENT_BYTES {
        out.push(Finding::new(
            "hook.content.too-large",
            RiskLevel::Medium,
            45,
            format!(
                "content of {} bytes: only the first {} were checked",
                content.len(),
                MAX_CONTENT_BYTES
            ),
        ));
    }
    let text = cut(content);
    let mut kinds: Vec<&str> = Vec::new();
    for s in riskgate::analyzers::secrets::find_secrets(text) {
        if kinds.contains(&s.kind) {
            continue;
        }
        kinds.push(s.kind);
        out.push(
            Finding::new(
                "hook.content.secret",
                RiskLevel::High,
                72,
                format!("writes a {} ({}) into {path}", s.description, s.redacted),
            )
            .with_mitigation("read the secret from the environment or a secret store")
            .reversible(false),
        );
    }
    if Path::new(path)
        .file_name()
        .is_some_and(|n| n == "package.json")
        && [
            "\"preinstall\"",
            "\"install\"",
            "\"postinstall\"",
            "\"prepare\"",
        ]
        .iter()
        .any(|k| text.contains(k))
    {
        out.push(Finding::new(
            "hook.content.install-script",
            RiskLevel::High,
            70,
            "adds an npm install script: it runs on every `npm install`",
        ));
    }
    let Some(lang) = language.or_else(|| language_of(path, text)) else {
        return out;
    };
    let assessment = engine.get().assess(&Action::Code {
        code: text.to_string(),
        language: Some(lang),
    });
    for mut f in assessment.findings {
        if f.level > RiskLevel::High {
            f.level = RiskLevel::High;
            f.score = f.score.min(RiskLevel::High.max_score());
        }
        f.description = format!("{} (in the code written to {path})", f.description);
        out.push(f);
    }
    out
}
