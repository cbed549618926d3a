//! The revision of a policy taken from a git checkout: the commit its `HEAD` names, read from
//! the `.git` directory's files (no `git` process, nothing on the network), so that every audit
//! record can say which version of the team's policy decided.
//!
//! Handles a `.git` directory or a `.git` file (`gitdir: …`, worktrees and submodules), a
//! symbolic `HEAD` (`ref: refs/heads/main`) resolved through the loose ref or `packed-refs`
//! (in the worktree's common directory too), and a detached `HEAD`. Bounded: at most 64
//! ancestors are searched and each file read is capped. Anything unexpected: no revision.

use std::path::{Path, PathBuf};

/// Cap on the bytes read from one git file (`packed-refs` of a large repository included).
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// How many directories upward a `.git` is looked for.
const MAX_ANCESTORS: usize = 64;

fn read_small(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let f = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    f.take(MAX_FILE_BYTES).read_to_string(&mut text).ok()?;
    Some(text)
}

fn is_object_id(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The git directory of the checkout containing `dir`, if any.
fn git_dir(dir: &Path) -> Option<PathBuf> {
    for d in dir.ancestors().take(MAX_ANCESTORS) {
        let dot = d.join(".git");
        if dot.is_dir() {
            return Some(dot);
        }
        if dot.is_file() {
            let text = read_small(&dot)?;
            let target = text.trim().strip_prefix("gitdir:")?.trim();
            return Some(d.join(target));
        }
    }
    None
}

fn lookup_ref(dir: &Path, name: &str) -> Option<String> {
    if name.split('/').any(|c| c == ".." || c.is_empty()) {
        return None;
    }
    if let Some(text) = read_small(&dir.join(name)) {
        let id = text.trim();
        if is_object_id(id) {
            return Some(id.to_ascii_lowercase());
        }
    }
    let packed = read_small(&dir.join("packed-refs"))?;
    packed.lines().find_map(|l| {
        let (id, r) = l.split_once(' ')?;
        (r.trim() == name && is_object_id(id)).then(|| id.to_ascii_lowercase())
    })
}

/// The commit checked out in the git work tree containing `dir`, as hex; `None` when `dir` is
/// not in a checkout or its `HEAD` cannot be resolved.
pub fn revision(dir: &Path) -> Option<String> {
    let gd = git_dir(dir)?;
    let head = read_small(&gd.join("HEAD"))?;
    let head = head.trim();
    if is_object_id(head) {
        return Some(head.to_ascii_lowercase());
    }
    let name = head.strip_prefix("ref:")?.trim();
    lookup_ref(&gd, name).or_else(|| {
        let common = read_small(&gd.join("commondir"))?;
        lookup_ref(&gd.join(common.trim()), name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "0123456789abcdef0123456789abcdef01234567";
    const B: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn write(p: &Path, text: &str) {
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn loose_packed_detached_and_gitfile() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("policy");
        write(&repo.join(".git/HEAD"), "ref: refs/heads/main\n");
        write(&repo.join(".git/refs/heads/main"), &format!("{A}\n"));
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        assert_eq!(revision(&repo.join("sub")).as_deref(), Some(A));
        std::fs::remove_file(repo.join(".git/refs/heads/main")).unwrap();
        write(
            &repo.join(".git/packed-refs"),
            &format!("# pack-refs with: peeled\n{B} refs/heads/other\n{A} refs/heads/main\n"),
        );
        assert_eq!(revision(&repo).as_deref(), Some(A));
        write(&repo.join(".git/HEAD"), &format!("{B}\n"));
        assert_eq!(revision(&repo).as_deref(), Some(B));
        // a worktree: `.git` is a file, the branch lives in the common directory
        let wt = t.path().join("wt");
        write(&wt.join(".git"), "gitdir: ../policy/.git/worktrees/wt\n");
        write(
            &repo.join(".git/worktrees/wt/HEAD"),
            "ref: refs/heads/main\n",
        );
        write(&repo.join(".git/worktrees/wt/commondir"), "../..\n");
        assert_eq!(revision(&wt).as_deref(), Some(A));
    }

    #[test]
    fn no_checkout_or_garbage_is_none() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("r");
        write(&repo.join(".git/HEAD"), "ref: refs/heads/../../x\n");
        assert_eq!(revision(&repo), None);
        write(&repo.join(".git/HEAD"), "not a ref\n");
        assert_eq!(revision(&repo), None);
        write(&repo.join(".git/HEAD"), "ref: refs/heads/main\n");
        write(&repo.join(".git/refs/heads/main"), "xyz\n");
        assert_eq!(revision(&repo), None);
    }
}
