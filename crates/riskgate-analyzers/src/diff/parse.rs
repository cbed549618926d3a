//! Unified diff parsing (plain `diff -u` and `git diff` output): per file its old and new path,
//! status (added, deleted, modified, renamed, copied), modes, whether it is binary, and the
//! added and removed lines with their line numbers. Git's quoted paths (`"a/f\303\266o"`) are
//! decoded. Anything that is not a diff (commit messages of `git show`, mail headers) is
//! skipped; the parser never fails, it reports what it understood.

use serde::Serialize;

/// How a file is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeStatus {
    /// A new file.
    Added,
    /// A deleted file.
    Deleted,
    /// Content or mode changed.
    Modified,
    /// Renamed (possibly with changes).
    Renamed,
    /// Copied (possibly with changes).
    Copied,
}

impl ChangeStatus {
    /// One-letter code, as `git status --short` shows it.
    pub fn letter(self) -> char {
        match self {
            ChangeStatus::Added => 'A',
            ChangeStatus::Deleted => 'D',
            ChangeStatus::Modified => 'M',
            ChangeStatus::Renamed => 'R',
            ChangeStatus::Copied => 'C',
        }
    }
}

/// One added or removed line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    /// Line number in the new file (added lines) or the old file (removed lines).
    pub line: u32,
    /// The text without the `+`/`-` marker.
    pub text: String,
}

/// One file of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    /// Path before (None for added files).
    pub old_path: Option<String>,
    /// Path after (None for deleted files).
    pub new_path: Option<String>,
    /// How it changes.
    pub status: ChangeStatus,
    /// Rename / copy similarity in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<u8>,
    /// Old mode (`100644`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_mode: Option<String>,
    /// New mode (`100755`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_mode: Option<String>,
    /// Binary content.
    pub binary: bool,
    /// Added lines.
    #[serde(skip)]
    pub added: Vec<DiffLine>,
    /// Removed lines.
    #[serde(skip)]
    pub removed: Vec<DiffLine>,
}

impl FileChange {
    fn new() -> FileChange {
        FileChange {
            old_path: None,
            new_path: None,
            status: ChangeStatus::Modified,
            similarity: None,
            old_mode: None,
            new_mode: None,
            binary: false,
            added: Vec::new(),
            removed: Vec::new(),
        }
    }

    /// The path that names the file (the new one, or the old one for deletions).
    pub fn path(&self) -> &str {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or("")
    }
}

/// The parsed diff.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ParsedDiff {
    /// Files, in order.
    pub files: Vec<FileChange>,
    /// True when hunks were truncated or the input looked like a diff but no file was found.
    pub incomplete: bool,
}

/// Bounds: past these, the rest is not parsed and the result is incomplete.
const MAX_FILES: usize = 20_000;
const MAX_LINES_PER_FILE: usize = 200_000;

/// Decode a git C-quoted path (`"a/b\tc\303\266"`), or return it unchanged.
pub fn unquote(p: &str) -> String {
    let Some(inner) = p.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return p.to_string();
    };
    let mut bytes = Vec::with_capacity(inner.len());
    let mut it = inner.bytes().peekable();
    while let Some(b) = it.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match it.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'r') => bytes.push(b'\r'),
            Some(b'a') => bytes.push(7),
            Some(b'b') => bytes.push(8),
            Some(b'f') => bytes.push(12),
            Some(b'v') => bytes.push(11),
            Some(d @ b'0'..=b'7') => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    match it.peek() {
                        Some(&n @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(n - b'0');
                            it.next();
                        }
                        _ => break,
                    }
                }
                bytes.push((v & 0xff) as u8);
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn strip_prefix(p: &str) -> String {
    let p = unquote(p.trim_end());
    for pre in ["a/", "b/", "i/", "w/", "c/", "o/"] {
        if let Some(rest) = p.strip_prefix(pre) {
            return rest.to_string();
        }
    }
    p
}

/// A path of a `---`/`+++` line: `/dev/null` is None; a tab-separated timestamp is dropped.
fn marker_path(rest: &str) -> Option<String> {
    let rest = if rest.starts_with('"') {
        rest
    } else {
        rest.split('\t').next().unwrap_or(rest)
    };
    let p = rest.trim_end();
    if p == "/dev/null" {
        None
    } else {
        Some(strip_prefix(p))
    }
}

/// The two paths of a `diff --git A B` line.
fn git_header_paths(rest: &str) -> (Option<String>, Option<String>) {
    if rest.starts_with('"') {
        // quoted first path
        let mut end = None;
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                end = Some(i);
                break;
            }
        }
        if let Some(e) = end {
            let a = rest.get(..=e).unwrap_or("");
            let b = rest.get(e + 1..).unwrap_or("").trim();
            return (Some(strip_prefix(a)), Some(strip_prefix(b)));
        }
        return (None, None);
    }
    // the same path twice: split in the middle
    let len = rest.len();
    if len % 2 == 1 {
        let half = len / 2;
        if let (Some(a), Some(b)) = (rest.get(..half), rest.get(half + 1..)) {
            let (sa, sb) = (strip_prefix(a), strip_prefix(b));
            if sa == sb {
                return (Some(sa), Some(sb));
            }
        }
    }
    match rest.find(" b/") {
        Some(i) => (
            rest.get(..i).map(strip_prefix),
            rest.get(i + 1..).map(strip_prefix),
        ),
        None => {
            let mut it = rest.splitn(2, ' ');
            (it.next().map(strip_prefix), it.next().map(strip_prefix))
        }
    }
}

/// `@@ -a,b +c,d @@` → (a, b, c, d).
fn hunk_header(line: &str) -> Option<(u32, u32, u32, u32)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let parse = |r: &str| -> Option<(u32, u32)> {
        match r.split_once(',') {
            Some((s, n)) => Some((s.parse().ok()?, n.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (a, b) = parse(old)?;
    let (c, d) = parse(new)?;
    Some((a, b, c, d))
}

/// Parse a unified diff.
pub fn parse_diff(text: &str) -> ParsedDiff {
    let mut out = ParsedDiff::default();
    let mut cur: Option<FileChange> = None;
    let (mut old_left, mut new_left, mut old_line, mut new_line) = (0u32, 0u32, 0u32, 0u32);
    let mut in_binary_patch = false;
    let mut combined = false;

    fn finish(cur: &mut Option<FileChange>, out: &mut ParsedDiff) {
        if let Some(f) = cur.take() {
            if out.files.len() < MAX_FILES {
                out.files.push(f);
            } else {
                out.incomplete = true;
            }
        }
    }

    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if old_left > 0 || new_left > 0 {
            if let Some(f) = cur.as_mut() {
                let too_many = f.added.len() + f.removed.len() >= MAX_LINES_PER_FILE;
                if let Some(t) = line.strip_prefix('+') {
                    if !too_many {
                        f.added.push(DiffLine {
                            line: new_line,
                            text: t.to_string(),
                        });
                    }
                    new_line += 1;
                    new_left = new_left.saturating_sub(1);
                    out.incomplete |= too_many;
                    continue;
                }
                if let Some(t) = line.strip_prefix('-') {
                    if !too_many {
                        f.removed.push(DiffLine {
                            line: old_line,
                            text: t.to_string(),
                        });
                    }
                    old_line += 1;
                    old_left = old_left.saturating_sub(1);
                    out.incomplete |= too_many;
                    continue;
                }
                if line.starts_with(' ') || line.is_empty() {
                    old_line += 1;
                    new_line += 1;
                    old_left = old_left.saturating_sub(1);
                    new_left = new_left.saturating_sub(1);
                    continue;
                }
                if line.starts_with('\\') {
                    continue;
                }
            }
            // the hunk ended early: a truncated diff
            out.incomplete = true;
            old_left = 0;
            new_left = 0;
        }
        if line.starts_with('\\') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            finish(&mut cur, &mut out);
            let mut f = FileChange::new();
            let (a, b) = git_header_paths(rest);
            f.old_path = a;
            f.new_path = b;
            cur = Some(f);
            in_binary_patch = false;
            combined = false;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("diff --cc ")
            .or_else(|| line.strip_prefix("diff --combined "))
        {
            finish(&mut cur, &mut out);
            let mut f = FileChange::new();
            f.old_path = Some(unquote(rest));
            f.new_path = Some(unquote(rest));
            cur = Some(f);
            combined = true;
            continue;
        }
        if in_binary_patch {
            continue;
        }
        let Some(f) = cur.as_mut() else {
            if let Some(rest) = line.strip_prefix("--- ") {
                // a plain unified diff without `diff --git` headers
                let mut f = FileChange::new();
                f.old_path = marker_path(rest);
                if f.old_path.is_none() {
                    f.status = ChangeStatus::Added;
                }
                cur = Some(f);
            }
            continue;
        };
        if let Some(m) = line.strip_prefix("old mode ") {
            f.old_mode = Some(m.trim().to_string());
        } else if let Some(m) = line.strip_prefix("new mode ") {
            f.new_mode = Some(m.trim().to_string());
        } else if let Some(m) = line.strip_prefix("deleted file mode ") {
            f.status = ChangeStatus::Deleted;
            f.old_mode = Some(m.trim().to_string());
            f.new_path = None;
        } else if let Some(m) = line.strip_prefix("new file mode ") {
            f.status = ChangeStatus::Added;
            f.new_mode = Some(m.trim().to_string());
            f.old_path = None;
        } else if let Some(s) = line.strip_prefix("similarity index ") {
            f.similarity = s.trim().trim_end_matches('%').parse().ok();
        } else if let Some(p) = line.strip_prefix("rename from ") {
            f.status = ChangeStatus::Renamed;
            f.old_path = Some(unquote(p));
        } else if let Some(p) = line.strip_prefix("rename to ") {
            f.status = ChangeStatus::Renamed;
            f.new_path = Some(unquote(p));
        } else if let Some(p) = line.strip_prefix("copy from ") {
            f.status = ChangeStatus::Copied;
            f.old_path = Some(unquote(p));
        } else if let Some(p) = line.strip_prefix("copy to ") {
            f.status = ChangeStatus::Copied;
            f.new_path = Some(unquote(p));
        } else if line.starts_with("Binary files ") && line.ends_with(" differ") {
            f.binary = true;
            if line.starts_with("Binary files /dev/null and ") {
                f.status = ChangeStatus::Added;
            } else if line.ends_with(" and /dev/null differ") {
                f.status = ChangeStatus::Deleted;
            }
        } else if line == "GIT binary patch" {
            f.binary = true;
            in_binary_patch = true;
        } else if let Some(rest) = line.strip_prefix("--- ") {
            if f.old_path.is_some() && (!f.added.is_empty() || !f.removed.is_empty()) {
                // next file of a plain diff
                finish(&mut cur, &mut out);
                let mut nf = FileChange::new();
                nf.old_path = marker_path(rest);
                if nf.old_path.is_none() {
                    nf.status = ChangeStatus::Added;
                }
                cur = Some(nf);
            } else {
                let p = marker_path(rest);
                if p.is_none() {
                    f.status = ChangeStatus::Added;
                    f.old_path = None;
                } else if f.old_path.is_none() && f.status != ChangeStatus::Added {
                    f.old_path = p;
                }
            }
        } else if let Some(rest) = line.strip_prefix("+++ ") {
            let p = marker_path(rest);
            if p.is_none() {
                f.status = ChangeStatus::Deleted;
                f.new_path = None;
            } else if f.status != ChangeStatus::Deleted {
                f.new_path = p;
            }
        } else if line.starts_with("@@@") || combined {
            // combined (merge) diffs: the file counts, its lines are not analyzed
        } else if line.starts_with("@@ ") {
            match hunk_header(line) {
                Some((a, b, c, d)) => {
                    old_line = a;
                    old_left = b;
                    new_line = c;
                    new_left = d;
                }
                None => out.incomplete = true,
            }
        }
    }
    finish(&mut cur, &mut out);
    if out.files.is_empty()
        && !text.trim().is_empty()
        && (text.contains("\n+") || text.contains("\n-") || text.contains("@@"))
    {
        out.incomplete = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_headers() {
        let d = "diff --git a/old name.txt b/new name.txt\nsimilarity index 90%\nrename from old name.txt\nrename to new name.txt\nindex 1..2 100644\n--- a/old name.txt\n+++ b/new name.txt\n@@ -1,2 +1,2 @@\n keep\n-gone\n+come\ndiff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\ndiff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/img.png differ\ndiff --git a/x.c b/x.c\ndeleted file mode 100644\n--- a/x.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-int x;\n";
        let p = parse_diff(d);
        assert!(!p.incomplete);
        assert_eq!(p.files.len(), 4);
        let r = &p.files[0];
        assert_eq!(
            (
                r.status,
                r.old_path.as_deref(),
                r.new_path.as_deref(),
                r.similarity
            ),
            (
                ChangeStatus::Renamed,
                Some("old name.txt"),
                Some("new name.txt"),
                Some(90)
            )
        );
        assert_eq!(
            r.added,
            vec![DiffLine {
                line: 2,
                text: "come".into()
            }]
        );
        assert_eq!(
            r.removed,
            vec![DiffLine {
                line: 2,
                text: "gone".into()
            }]
        );
        assert_eq!(p.files[1].new_mode.as_deref(), Some("100755"));
        assert!(p.files[2].binary && p.files[2].status == ChangeStatus::Added);
        assert_eq!(
            (p.files[3].status, p.files[3].path()),
            (ChangeStatus::Deleted, "x.c")
        );
    }

    #[test]
    fn plain_unified_and_quoted() {
        let d = "--- a/f.txt\t2024-01-01\n+++ b/f.txt\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1 @@\n+new\n";
        let p = parse_diff(d);
        assert_eq!(p.files.len(), 2);
        assert_eq!(p.files[0].path(), "f.txt");
        assert_eq!(
            (p.files[1].status, p.files[1].path()),
            (ChangeStatus::Added, "g.txt")
        );
        assert_eq!(unquote("\"a/f\\303\\266o\""), "a/föo");
        assert_eq!(
            git_header_paths("\"a/x y\" \"b/x y\""),
            (Some("x y".into()), Some("x y".into()))
        );
    }

    #[test]
    fn garbage_is_tolerated() {
        for t in [
            "",
            "hello",
            "@@ -x +y @@\n+a",
            "diff --git\n@@ -1,99999999999 +1 @@\n+a",
            "--- \n+++ \n@@ -1 +1 @@",
            "\"\\",
        ] {
            let _ = parse_diff(t);
        }
        assert!(parse_diff("@@ -1 +1 @@\n-a\n+b\n").incomplete);
    }
}
