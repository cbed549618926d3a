//! Temporary directories the code makes for itself (`tempfile.mkdtemp()`,
//! `TemporaryDirectory()`, `fs.mkdtempSync(…)`, `tmp.dirSync()`, `Deno.makeTempDir()`), and
//! deletions of them: a variable bound to one of these and then deleted (`d =
//! tempfile.mkdtemp(); …; shutil.rmtree(d)`) is the code cleaning up after itself, LOW, while
//! the same deletion of a variable bound to a literal path (`p = '/etc'; shutil.rmtree(p)`) is
//! rated by that path.

use super::analysis::{ArgValue, Call};
use super::matchers as m;

/// Calls that create a fresh temporary directory (resolved names, as values carry them).
const MAKERS: [&str; 12] = [
    "tempfile.mkdtemp",
    "tempfile.TemporaryDirectory",
    "tempfile.TemporaryDirectory().name",
    "fs.mkdtempSync",
    "fs.mkdtemp",
    "tmp.dirSync",
    "tmp.dirSync().name",
    "tmp.dir",
    "tmp-promise.dir",
    "Deno.makeTempDir",
    "Deno.makeTempDirSync",
    "pytest.tmp_path",
];

/// True when `v` is the value of a temporary-directory maker (directly or through a variable).
pub(crate) fn is_temp_dir(v: &ArgValue) -> bool {
    let name = match v {
        ArgValue::Name(n) | ArgValue::Call(n) => n.as_str(),
        _ => return false,
    };
    let bare = name.replace("()", "");
    MAKERS.iter().any(|mk| {
        let mk_bare = mk.replace("()", "");
        bare == mk_bare
    }) || matches!(
        bare.as_str(),
        "tmp_path" | "tmpdir" | "tmp_path_factory.mktemp"
    )
}

/// A deletion whose target is a temporary directory the code made.
pub(crate) fn is_temp_delete(c: &Call) -> bool {
    if !m::is_file_delete(c) {
        return false;
    }
    match c.arg(0).or_else(|| c.kwarg("path")) {
        Some(a) => is_temp_dir(&a.value),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Analysis;
    use riskgate_model::Language;

    fn deletes_temp(code: &str, lang: Language) -> bool {
        let a = Analysis::new(code, lang);
        a.calls.iter().any(is_temp_delete)
    }

    #[test]
    fn temp_dirs_the_code_made() {
        let py = Language::Python;
        assert!(deletes_temp(
            "import tempfile, shutil\nd = tempfile.mkdtemp()\nshutil.rmtree(d)",
            py
        ));
        assert!(deletes_temp(
            "import tempfile, shutil\nwith tempfile.TemporaryDirectory() as w:\n    shutil.rmtree(w)",
            py
        ));
        assert!(deletes_temp(
            "from tempfile import mkdtemp\nimport shutil\nwork = mkdtemp(prefix='b')\nshutil.rmtree(work, ignore_errors=True)",
            py
        ));
        assert!(deletes_temp(
            "const fs = require('fs'), os = require('os');\nconst d = fs.mkdtempSync(os.tmpdir() + '/x-');\nfs.rmSync(d, { recursive: true, force: true });",
            Language::Js
        ));
        assert!(deletes_temp(
            "import { mkdtempSync, rmSync } from 'node:fs';\nconst t = mkdtempSync('/tmp/a-');\nrmSync(t, { recursive: true });",
            Language::Js
        ));
    }

    #[test]
    fn literal_paths_through_variables_are_not_temp() {
        let py = Language::Python;
        assert!(!deletes_temp(
            "import shutil\np = '/etc'\nshutil.rmtree(p)",
            py
        ));
        assert!(!deletes_temp(
            "import shutil, tempfile\nd = tempfile.mkdtemp()\nd = '/srv'\nshutil.rmtree(d)",
            py
        ));
        assert!(!deletes_temp("import shutil\nshutil.rmtree(target)", py));
        assert!(!deletes_temp(
            "const fs = require('fs');\nconst t = '/var/www';\nfs.rmSync(t, { recursive: true });",
            Language::Js
        ));
        assert!(!deletes_temp(
            "import shutil, tempfile\nd = tempfile.gettempdir()\nshutil.rmtree(d)",
            py
        ));
    }
}
