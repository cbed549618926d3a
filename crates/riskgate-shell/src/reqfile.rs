//! Request files the script wrote: a parameter given as `file://PATH` (`aws route53
//! change-resource-record-sets --change-batch file:///tmp/change.json`, `--cli-input-json
//! fileb://req.json`) is the content of that file, which the program reads as the value. When
//! an earlier step wrote the file with known content (`cat > /tmp/change.json <<'JSON' …`),
//! the word is that content, as if it had been given inline, and the rules read what the
//! request does (a change batch that DELETEs records).

use crate::ctx::{Norm, XWord};

/// Largest request file content put in place of its name.
const MAX_REQUEST_BYTES: usize = 8 * 1024;

/// The path of a `file://` / `fileb://` word (`file:///tmp/x.json` → `/tmp/x.json`,
/// `file://x.json` → `x.json`), and the option it is the value of (`--change-batch=`).
fn request_path(text: &str) -> Option<(&str, &str)> {
    let (prefix, value) = match text.split_once('=') {
        Some((flag, v)) if flag.starts_with("--") => (&text[..flag.len() + 1], v),
        _ => ("", text),
    };
    let path = value
        .strip_prefix("file://")
        .or_else(|| value.strip_prefix("fileb://"))?;
    (!path.is_empty()).then_some((prefix, path))
}

impl Norm<'_> {
    /// Put the known content of the request files `argv` names in place of their names (see
    /// the module doc). Blank runs become one space: the words are read, not sent.
    pub(crate) fn inline_request_files(&self, argv: &mut [XWord]) {
        for w in argv.iter_mut().skip(1) {
            if w.w.dynamic {
                continue;
            }
            let Some((prefix, path)) = request_path(&w.w.text) else {
                continue;
            };
            let Some(content) = self.file_content(path) else {
                continue;
            };
            if content.len() > MAX_REQUEST_BYTES {
                continue;
            }
            let flat = content.split_whitespace().collect::<Vec<_>>().join(" ");
            w.w.text = format!("{prefix}{flat}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths() {
        assert_eq!(
            request_path("file:///tmp/c.json"),
            Some(("", "/tmp/c.json"))
        );
        assert_eq!(request_path("fileb://req.json"), Some(("", "req.json")));
        assert_eq!(
            request_path("--change-batch=file://c.json"),
            Some(("--change-batch=", "c.json"))
        );
        assert_eq!(request_path("file://"), None);
        assert_eq!(request_path("c.json"), None);
    }

    #[test]
    fn a_change_batch_written_earlier_is_read_where_it_is_used() {
        let p = crate::parse(
            "cat > /tmp/change.json <<'JSON'\n{\"Changes\": [{\"Action\": \"DELETE\"}]}\nJSON\naws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch file:///tmp/change.json",
        );
        let aws = p.commands.iter().find(|c| c.program == "aws");
        let text: Vec<String> = aws
            .map(|c| c.args.iter().map(|a| a.text.clone()).collect())
            .unwrap_or_default();
        assert!(
            text.iter().any(|t| t.contains("\"Action\": \"DELETE\"")),
            "{text:?}"
        );
        // a file nobody wrote here keeps its name
        let p =
            crate::parse("aws route53 change-resource-record-sets --change-batch file://c.json");
        assert!(
            p.commands
                .iter()
                .any(|c| c.args.iter().any(|a| a.text.contains("file://c.json")))
        );
    }
}
