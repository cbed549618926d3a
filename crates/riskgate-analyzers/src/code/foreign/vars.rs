//! Variables of Perl, Ruby and PHP snippets assigned once (`my $d = "/srv"`, `d = Dir.mktmpdir`,
//! `$c = get("http://…")`), and shells opened for writing (`open(my $fh, "|sh")`,
//! `IO.popen("sh", "w") { |io| … }`, `$h = popen("sh", "w")`) with what is written to them.
//!
//! A variable holds a literal (folded by [`value`]), a temporary directory the code made, or
//! text read from the network; a name assigned twice holds nothing known.

use std::collections::HashMap;

use riskgate_model::Language;

use super::Val;
use super::scan::{VARS, string_at, value};

/// What a variable holds.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum VarVal {
    /// A literal string (or one folded from literals).
    Str(String),
    /// A temporary directory or file the code made.
    Temp,
    /// Text read from this URL.
    Remote(String),
}

/// At most this many statements are read for assignments.
const MAX_STATEMENTS: usize = 10_000;

const TEMP_MAKERS: [&str; 10] = [
    "Dir.mktmpdir",
    "tempdir(",
    "tempdir;",
    "tempdir()",
    "File::Temp->newdir",
    "File::Temp::tempdir",
    "Tempfile.new",
    "Tempfile.create",
    "tempnam(",
    "tmpfile(",
];

const NET_READS: [&str; 14] = [
    "get(",
    "get ",
    "->get(",
    "getprint(",
    "Net::HTTP.get",
    "URI.open(",
    "open(\"http",
    "open('http",
    "HTTParty.get",
    "RestClient.get",
    "Faraday.get",
    "file_get_contents(",
    "curl_exec(",
    "fopen(",
];

/// Variables assigned once: name (with its sigil) → value (None when not known).
pub(super) fn assignments(code: &str, lang: Language) -> HashMap<String, Option<VarVal>> {
    let mut vars: HashMap<String, Option<VarVal>> = HashMap::new();
    VARS.with(|v| v.borrow_mut().clear());
    let heredocs = heredoc_bodies(code);
    for stmt in statements(code).into_iter().take(MAX_STATEMENTS) {
        let Some((name, rhs)) = assignment(stmt, lang) else {
            continue;
        };
        // `my $script = <<'SH';` … `SH`: the variable holds the lines between
        let v = match rhs.trim_start().strip_prefix("<<") {
            Some(op) => heredoc_tag(op)
                .and_then(|(tag, _, _)| heredocs.iter().find(|(t, _)| *t == tag))
                .map(|(_, body)| VarVal::Str(body.clone())),
            None => classify(rhs, lang, &vars),
        };
        let seen = vars.contains_key(name);
        let v = if seen { None } else { v };
        // literals are seen by the scanner's values too (`'rm -rf ' . $p`)
        VARS.with(|m| match &v {
            Some(VarVal::Str(s)) => {
                m.borrow_mut().insert(name.to_string(), s.clone());
            }
            _ => {
                m.borrow_mut().remove(name);
            }
        });
        vars.insert(name.to_string(), v);
    }
    vars
}

fn classify(rhs: &str, lang: Language, vars: &HashMap<String, Option<VarVal>>) -> Option<VarVal> {
    let rhs = rhs.trim().trim_end_matches(';').trim();
    if TEMP_MAKERS.iter().any(|t| rhs.contains(t)) {
        return Some(VarVal::Temp);
    }
    if NET_READS.iter().any(|n| rhs.contains(n))
        && let Some(url) = url_in(rhs, vars)
    {
        return Some(VarVal::Remote(url));
    }
    if let Some(v) = resolve(rhs, vars) {
        return Some(v.clone());
    }
    match value(rhs, lang, 0) {
        Val::Str(s) if !s.contains("$ARG") => Some(VarVal::Str(s)),
        _ => None,
    }
}

/// A URL in `text`: a literal, or a variable holding one.
pub(super) fn url_in(text: &str, vars: &HashMap<String, Option<VarVal>>) -> Option<String> {
    for q in ['"', '\''] {
        for (k, _) in text.match_indices(q) {
            let (s, _) = string_at(text, k);
            if s.starts_with("http://") || s.starts_with("https://") {
                return Some(s);
            }
        }
    }
    vars.iter().find_map(|(name, v)| match v {
        Some(VarVal::Str(s))
            if (s.starts_with("http://") || s.starts_with("https://"))
                && text.contains(name.as_str()) =>
        {
            Some(s.clone())
        }
        Some(VarVal::Remote(u)) if text.contains(name.as_str()) => Some(u.clone()),
        _ => None,
    })
}

/// The variable named by `text` (`$d`, `d`, `@d`), if assigned once.
pub(super) fn resolve<'a>(
    text: &str,
    vars: &'a HashMap<String, Option<VarVal>>,
) -> Option<&'a VarVal> {
    vars.get(text.trim()).and_then(Option::as_ref)
}

/// The here-documents of Perl and Ruby code (`<<'TAG'`, `<<"TAG"`, `<<TAG`, `<<~TAG`,
/// `<<-TAG`): (tag, body), the body's lines up to the line holding only the tag, without
/// the common indentation of `<<~`. A tag used twice keeps its first body; a body whose
/// closing line is missing is none. Interpolating bodies keep their text as written.
fn heredoc_bodies(code: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    for (n, line) in lines.iter().enumerate().take(MAX_STATEMENTS) {
        let Some(k) = line.find("<<") else {
            continue;
        };
        let Some((tag, indented, _)) = line.get(k + 2..).and_then(heredoc_tag) else {
            continue;
        };
        if out.iter().any(|(t, _)| *t == tag) {
            continue;
        }
        let rest = lines.get(n + 1..).unwrap_or(&[]);
        let Some(end) = rest
            .iter()
            .position(|l| if indented { l.trim() == tag } else { *l == tag })
        else {
            continue;
        };
        let body = &rest[..end];
        let cut = if indented {
            body.iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0)
        } else {
            0
        };
        let text: String = body
            .iter()
            .map(|l| format!("{}\n", l.get(cut..).unwrap_or(l.trim_start())))
            .collect();
        out.push((tag, text));
    }
    out
}

/// The tag after `<<` (`'SH';`, `~EOS`, `-"END"`): (tag, closing line may be indented,
/// quoted).
fn heredoc_tag(op: &str) -> Option<(&str, bool, bool)> {
    let (indented, op) = match op.strip_prefix(['~', '-']) {
        Some(rest) => (true, rest),
        None => (false, op),
    };
    let (quoted, op) = match op.strip_prefix(['\'', '"']) {
        Some(rest) => (true, rest),
        None => (false, op),
    };
    let len = op
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(op.len());
    let tag = op.get(..len)?;
    if tag.is_empty() || tag.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((tag, indented, quoted))
}

/// Statements: split at `;` and newlines outside quotes.
fn statements(code: &str) -> Vec<&str> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let (_, end) = string_at(code, i);
                i = end.max(i + 1);
                continue;
            }
            // a `map`/`grep` block is part of its expression: `$c = join "", map { chr } 114, 109`
            b'{' if is_block_of_expr(code.get(start..i).unwrap_or("")) => {
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        b'\n' | b';' if depth == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
            }
            b';' | b'\n' | b'{' | b'}' => {
                out.push(code.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(code.get(start..).unwrap_or(""));
    out
}

/// Whether a `{` after `head` opens a block of an expression (`map {`, `grep {`) rather than
/// a statement block.
fn is_block_of_expr(head: &str) -> bool {
    let h = head.trim_end();
    ["map", "grep"].iter().any(|k| {
        h.strip_suffix(k).is_some_and(|before| {
            !before
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
    })
}

/// `my $x = …`, `$x = …`, `x = …` (Ruby), `@x = …`: (name, right-hand side).
fn assignment(stmt: &str, lang: Language) -> Option<(&str, &str)> {
    let s = stmt.trim();
    let s = ["my ", "our ", "local "]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .unwrap_or(s)
        .trim_start();
    let sigil = matches!(lang, Language::Perl | Language::Php);
    let body = s
        .strip_prefix('$')
        .filter(|_| sigil)
        .or_else(|| (!sigil).then_some(s))?;
    let body = body.strip_prefix('@').unwrap_or(body);
    let n = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    if n == 0 {
        return None;
    }
    let name_len = s.len() - body.len() + n;
    let name = s.get(..name_len)?;
    let rest = s.get(name_len..)?.trim_start();
    let rhs = rest.strip_prefix('=')?;
    if rhs.starts_with(['=', '~', '>']) {
        return None;
    }
    Some((name, rhs))
}

/// The variable assigned the value of the call whose text is `call` (`my $s =
/// IO::Socket::INET->new(…)` → `$s`).
pub(super) fn assigned_name(code: &str, lang: Language, call: &str) -> Option<String> {
    let head = call.get(..call.len().min(40))?;
    statements(code)
        .into_iter()
        .take(MAX_STATEMENTS)
        .filter_map(|s| assignment(s, lang))
        .find(|(_, rhs)| rhs.contains(head))
        .map(|(name, _)| name.to_string())
}

/// Commands written into a shell opened for writing.
pub(super) fn shell_writes(
    code: &str,
    lang: Language,
    vars: &HashMap<String, Option<VarVal>>,
) -> Vec<String> {
    let mut handles: Vec<String> = Vec::new();
    for stmt in statements(code).into_iter().take(MAX_STATEMENTS) {
        let t = stmt.trim();
        // Perl `open(my $fh, "|sh")`, `open(FH, "| bash")`, `open($fh, "|-", "sh")`
        if lang == Language::Perl && t.starts_with("open") {
            let inner = t
                .trim_start_matches("open")
                .trim_start()
                .trim_start_matches('(');
            let mut parts = inner.splitn(2, ',');
            let h = parts
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches("my ")
                .trim();
            let rest = parts.next().unwrap_or("");
            // the string literals of the rest: `"|sh"`, or `"|-", "sh"`
            let mut lits = Vec::new();
            let mut k = 0;
            while let Some(q) = rest.get(k..).and_then(|r| r.find(['"', '\''])) {
                let (lit, end) = string_at(rest, k + q);
                lits.push(lit);
                k = end;
                if lits.len() >= 2 {
                    break;
                }
            }
            let first = lits.first().map(|l| l.trim()).unwrap_or("");
            let piped = first
                .strip_prefix('|')
                .is_some_and(|prog| is_shell(prog.split_whitespace().next().unwrap_or("")));
            let forked = first == "|-"
                && lits
                    .get(1)
                    .is_some_and(|p| is_shell(p.split_whitespace().next().unwrap_or("")));
            if piped || forked {
                handles.push(h.to_string());
            }
        }
        // PHP `$h = popen("sh", "w")`, Ruby `p = IO.popen("sh", "w")`, Ruby blocks `{ |io| …`
        if let Some(k) = t.find("popen(") {
            let args = &t[k + "popen(".len()..];
            let Some(q) = args.find(['"', '\'']) else {
                continue;
            };
            let (prog, end) = string_at(args, q);
            let mode = &args[end.min(args.len())..];
            if is_shell(prog.split_whitespace().next().unwrap_or(""))
                && (mode.contains("\"w") || mode.contains("'w") || mode.contains("r+"))
            {
                if let Some((name, _)) = assignment(t, lang) {
                    handles.push(name.to_string());
                }
                if let Some(bar) = code[code.find(t).unwrap_or(0)..].find('|')
                    && lang == Language::Ruby
                {
                    let from = code.find(t).unwrap_or(0) + bar + 1;
                    let name: String = code[from..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        handles.push(name);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for h in handles.iter().filter(|h| !h.is_empty()) {
        let forms: Vec<String> = match lang {
            Language::Perl => vec![
                format!("print {h} "),
                format!("print {{{h}}} "),
                format!("printf {h} "),
            ],
            Language::Php => vec![
                format!("fwrite({h},"),
                format!("fputs({h},"),
                format!("fwrite({h}, "),
                format!("fputs({h}, "),
            ],
            _ => vec![
                format!("{h}.puts "),
                format!("{h}.puts("),
                format!("{h}.write("),
                format!("{h}.write "),
                format!("{h}.print "),
                format!("{h} << "),
            ],
        };
        for f in &forms {
            for (k, _) in code.match_indices(f.as_str()) {
                let rest = code[k + f.len()..].trim_start();
                let off = code.len() - rest.len();
                if rest.starts_with(['"', '\'']) {
                    let (s, _) = string_at(code, off);
                    out.push(s.trim_end().to_string());
                } else {
                    let word: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$'))
                        .collect();
                    if let Some(VarVal::Str(s)) = resolve(&word, vars) {
                        out.push(s.trim_end().to_string());
                    }
                }
                if out.len() > 1_000 {
                    return out;
                }
            }
        }
    }
    out
}

fn is_shell(p: &str) -> bool {
    let p = p.rsplit('/').next().unwrap_or(p);
    matches!(p, "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash")
}
