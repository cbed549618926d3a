//! `riskgate diff`'s untracked files: a new file that git does not track yet (and does not
//! ignore) is part of the change set, written as a unified diff of an added file (git runs,
//! the files are only read). Over 1 MiB or not UTF-8: an added binary file.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Largest untracked file whose lines are read.
const MAX_UNTRACKED_BYTES: u64 = 1024 * 1024;

/// The top of the work tree.
pub fn toplevel() -> anyhow::Result<PathBuf> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        anyhow::bail!("git rev-parse --show-toplevel failed");
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// The untracked, not ignored files of the work tree as a unified diff of added files.
pub fn untracked_diff(top: &Path) -> anyhow::Result<String> {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "core.quotepath=off",
            "ls-files",
            "-z",
            "--others",
            "--exclude-standard",
            "--full-name",
            ":/",
        ])
        .current_dir(top)
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        anyhow::bail!(
            "git ls-files failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let mut diff = String::new();
    for raw in out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(raw).into_owned();
        diff.push_str(&added_file(top, &path));
    }
    Ok(diff)
}

/// `p` as git writes a path in a diff header: quoted (C escapes) when it needs to be.
fn quoted(prefix: &str, p: &str) -> String {
    let plain = format!("{prefix}{p}");
    if p.bytes()
        .all(|b| b > b' ' && b != b'"' && b != b'\\' && b < 0x7f)
    {
        return plain;
    }
    let mut s = String::from("\"");
    for c in plain.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// The diff of one added file.
fn added_file(top: &Path, path: &str) -> String {
    let (a, b) = (quoted("a/", path), quoted("b/", path));
    let mut s = format!("diff --git {a} {b}\nnew file mode 100644\n");
    let abs = top.join(path);
    let text = match std::fs::metadata(&abs) {
        Ok(m) if m.is_file() && m.len() <= MAX_UNTRACKED_BYTES => std::fs::read(&abs)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()),
        _ => None,
    };
    match text {
        Some(t) if !t.is_empty() => {
            let lines: Vec<&str> = t.strip_suffix('\n').unwrap_or(&t).split('\n').collect();
            s.push_str(&format!(
                "--- /dev/null\n+++ {b}\n@@ -0,0 +1,{} @@\n",
                lines.len()
            ));
            for l in lines {
                s.push('+');
                s.push_str(l);
                s.push('\n');
            }
        }
        Some(_) => {}
        None => s.push_str(&format!("Binary files /dev/null and {b} differ\n")),
    }
    s
}
