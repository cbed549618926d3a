//! Codex's `apply_patch` format: the files a patch touches, each as a [`Tool::Write`].
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path        → a write of the `+` lines
//! *** Update File: path     → an edit with the `+` lines
//! *** Move to: new/path     → (after Update) also a write of new/path
//! *** Delete File: path     → a deletion
//! *** End Patch
//! ```
//! Text before `*** Begin Patch` (an `apply_patch <<'EOF'` wrapper) is skipped; a text
//! without it is malformed.

use riskgate::model::WriteOp;

use crate::HookError;
use crate::request::Tool;

struct Pending {
    path: String,
    op: WriteOp,
    added: String,
    moved_to: Option<String>,
}

/// The files of an `apply_patch` text.
pub fn parse_patch(text: &str) -> Result<Vec<Tool>, HookError> {
    let Some(start) = text.find("*** Begin Patch") else {
        return Err(HookError::Malformed(
            "apply_patch input has no `*** Begin Patch` line".into(),
        ));
    };
    let mut out = Vec::new();
    let mut cur: Option<Pending> = None;
    for line in text[start..].lines().skip(1) {
        let header = |p: &str| line.strip_prefix(p).map(|s| s.trim().to_string());
        let next = if let Some(p) = header("*** Add File:") {
            Some((p, WriteOp::Write))
        } else if let Some(p) = header("*** Update File:") {
            Some((p, WriteOp::Edit))
        } else {
            header("*** Delete File:").map(|p| (p, WriteOp::Delete))
        };
        if let Some((path, op)) = next {
            flush(&mut out, cur.take());
            cur = Some(Pending {
                path,
                op,
                added: String::new(),
                moved_to: None,
            });
        } else if let Some(p) = header("*** Move to:") {
            if let Some(c) = cur.as_mut() {
                c.moved_to = Some(p);
            }
        } else if line.starts_with("*** End Patch") {
            break;
        } else if let Some(added) = line.strip_prefix('+')
            && let Some(c) = cur.as_mut()
        {
            c.added.push_str(added);
            c.added.push('\n');
        }
    }
    flush(&mut out, cur);
    Ok(out)
}

fn flush(out: &mut Vec<Tool>, p: Option<Pending>) {
    let Some(p) = p else { return };
    if p.path.is_empty() {
        return;
    }
    if let Some(to) = p.moved_to.filter(|t| !t.is_empty()) {
        out.push(Tool::Write {
            path: to,
            content: p.added.clone(),
            op: WriteOp::Write,
            language: None,
        });
        out.push(Tool::Write {
            path: p.path,
            content: String::new(),
            op: WriteOp::Delete,
            language: None,
        });
        return;
    }
    out.push(Tool::Write {
        path: p.path,
        content: p.added,
        op: p.op,
        language: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_a_patch() {
        let t = "*** Begin Patch\n*** Add File: a.py\n+import os\n+os.remove('x')\n*** Update File: b.rs\n@@ fn main\n-old\n+new\n*** Move to: c.rs\n*** Delete File: .env\n*** End Patch\n";
        let files = parse_patch(t).unwrap();
        let paths: Vec<(String, WriteOp)> = files
            .iter()
            .map(|f| match f {
                Tool::Write { path, op, .. } => (path.clone(), *op),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(
            paths,
            vec![
                ("a.py".into(), WriteOp::Write),
                ("c.rs".into(), WriteOp::Write),
                ("b.rs".into(), WriteOp::Delete),
                (".env".into(), WriteOp::Delete),
            ]
        );
        assert!(matches!(&files[0], Tool::Write { content, .. } if content.contains("os.remove")));
        assert!(parse_patch("rm -rf /").is_err());
    }
}
