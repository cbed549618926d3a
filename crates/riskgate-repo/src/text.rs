//! Text helpers shared by the extractors: byte offset → line and column, snippets cut from the
//! source with the position of each line, and templates normalized.
//!
//! Templates (`${{ expr }}` of GitHub Actions, `{{ expr }}` of just, Task and Jinja) are never
//! evaluated. As seed 000 reads `${var}` as "any value", each becomes a shell variable whose
//! value is unknown to the analysis — `${{ secrets.NPM_TOKEN }}` becomes
//! `${TPL_SECRETS_NPM_TOKEN}` — so `rm -rf ${{ inputs.dir }}/` is rated as a recursive delete
//! of an unknown path, and the explanation still names the expression.

/// Byte offset → 1-based line and column (columns count characters).
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `text`.
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The 1-based line and column of byte `offset` (clamped to the text).
    pub fn pos(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    /// Byte offset of the start of 1-based `line` (the end of the text past the last line).
    pub fn line_start(&self, line: u32) -> usize {
        let i = (line as usize).saturating_sub(1);
        self.starts.get(i).copied().unwrap_or(self.text.len())
    }

    /// The text.
    pub fn text(&self) -> &'a str {
        self.text
    }
}

/// The positions of each line of a snippet that is `slice`, found at byte `start` of the
/// indexed source.
pub fn lines_at(index: &LineIndex<'_>, start: usize, slice: &str) -> Vec<(u32, u32)> {
    let mut out = vec![index.pos(start)];
    for (i, _) in slice.match_indices('\n') {
        out.push(index.pos(start + i + 1));
    }
    out
}

/// The source position of each line of `value`, a string whose text was decoded from the
/// source (quotes, escapes, indentation and folding removed): the first line at `first` when
/// given, the others found by walking the source forward from line `from` (a line whose
/// trimmed text starts the value line, or that the value line starts). A line that cannot be
/// found within 64 lines is placed one line after the previous one. Linear in the lines walked.
pub fn follow_lines(
    index: &LineIndex<'_>,
    first: Option<(u32, u32)>,
    from: u32,
    value: &str,
) -> Vec<(u32, u32)> {
    let text = index.text();
    let total = text.matches('\n').count() as u32 + 1;
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut next = from;
    for (k, vline) in value.split('\n').enumerate() {
        if k == 0
            && let Some(p) = first
        {
            out.push(p);
            next = next.max(p.0 + 1);
            continue;
        }
        let want = vline.trim();
        let mut found = None;
        if !want.is_empty() {
            let limit = (next + 64).min(total);
            let mut l = next;
            while l <= limit {
                let src = text
                    .get(index.line_start(l)..index.line_start(l + 1))
                    .unwrap_or("")
                    .trim_end_matches(['\n', '\r']);
                let trimmed = src.trim_start();
                if !trimmed.is_empty() && (want.starts_with(trimmed) || trimmed.starts_with(want)) {
                    found = Some((l, (src.len() - trimmed.len()) as u32 + 1));
                    break;
                }
                l += 1;
            }
        }
        let prev = out.last().copied();
        let pos = found.unwrap_or_else(|| match prev {
            Some((l, c)) => (l + 1, c),
            None => (next, 1),
        });
        next = pos.0 + 1;
        out.push(pos);
    }
    out
}

/// One template found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The expression inside the braces, trimmed (`github.event.issue.title`).
    pub expr: String,
    /// Byte offset of the template in the original text.
    pub offset: usize,
}

/// `${{ … }}` (GitHub Actions) templates of `text` → variables; returns the new text and the
/// templates found. An unclosed `${{` is kept as it is.
pub fn normalize_gha(text: &str) -> (String, Vec<Template>) {
    normalize_with(text, "${{")
}

/// `{{ … }}` templates (just, Task, Jinja) → variables; returns the new text and the templates.
pub fn normalize_braces(text: &str) -> (String, Vec<Template>) {
    normalize_with(text, "{{")
}

/// Most templates replaced in one text (the rest stay as written).
const MAX_TEMPLATES: usize = 4096;

fn normalize_with(text: &str, open: &str) -> (String, Vec<Template>) {
    let mut out = String::with_capacity(text.len());
    let mut found = Vec::new();
    let mut rest = text;
    let mut base = 0;
    while let Some(i) = rest.find(open) {
        if found.len() >= MAX_TEMPLATES {
            break;
        }
        let after = &rest[i + open.len()..];
        let Some(end) = after.find("}}") else { break };
        let expr = after[..end].trim();
        out.push_str(&rest[..i]);
        out.push_str("${");
        out.push_str(&variable_name(expr));
        out.push('}');
        found.push(Template {
            expr: expr.to_string(),
            offset: base + i,
        });
        let consumed = i + open.len() + end + 2;
        base += consumed;
        rest = &rest[consumed..];
    }
    out.push_str(rest);
    (out, found)
}

/// The variable a template expression becomes: `TPL_` and the expression's letters and digits
/// in upper case, other characters as `_` (at most 48 of them).
pub fn variable_name(expr: &str) -> String {
    let mut name = String::from("TPL_");
    let mut last_underscore = true;
    for c in expr.chars() {
        if name.len() >= 52 {
            break;
        }
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_uppercase());
            last_underscore = false;
        } else if !last_underscore {
            name.push('_');
            last_underscore = true;
        }
    }
    while name.ends_with('_') && name.len() > 4 {
        name.pop();
    }
    if name.len() == 4 {
        name.push('X');
    }
    name
}

/// Quote `s` for a POSIX shell (single quotes; `'` as `'\''`).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// An argv (exec form) as one shell command line.
pub fn join_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let idx = LineIndex::new("ab\ncdé\nf");
        assert_eq!(idx.pos(0), (1, 1));
        assert_eq!(idx.pos(3), (2, 1));
        assert_eq!(idx.pos(6), (2, 4));
        assert_eq!(idx.pos(8), (3, 1));
        assert_eq!(idx.pos(100), (3, 2));
        assert_eq!(lines_at(&idx, 3, "cdé\nf"), vec![(2, 1), (3, 1)]);
    }

    #[test]
    fn templates_become_variables() {
        let (t, found) =
            normalize_gha("echo ${{ github.event.issue.title }} > x; rm -rf ${{inputs.dir}}/");
        assert_eq!(
            t,
            "echo ${TPL_GITHUB_EVENT_ISSUE_TITLE} > x; rm -rf ${TPL_INPUTS_DIR}/"
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].expr, "github.event.issue.title");
        assert_eq!(found[0].offset, 5);
        let (t, _) = normalize_gha("echo ${{ unclosed");
        assert_eq!(t, "echo ${{ unclosed");
        let (t, found) = normalize_braces("rm -rf {{.DIR}} {{ x }}");
        assert_eq!(t, "rm -rf ${TPL_DIR} ${TPL_X}");
        assert_eq!(found.len(), 2);
        assert_eq!(variable_name("'{}'"), "TPL_X");
        assert_eq!(variable_name("toJSON(secrets)"), "TPL_TOJSON_SECRETS");
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("abc"), "abc");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(
            join_argv(&["sh".into(), "-c".into(), "echo hi".into()]),
            "sh -c 'echo hi'"
        );
    }
}
