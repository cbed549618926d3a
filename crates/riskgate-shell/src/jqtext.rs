//! What a jq (or yq, gojq, jaq) filter prints as raw text when its output is built from
//! string literals: `.buckets[] | "aws s3 rb s3://" + . + " --force"` prints
//! `aws s3 rb s3://$JQ_VALUE --force` (the value read from the input is not known, and stands
//! as a variable nobody set), `"cm0gLXJmIC8=" | @base64d` prints `rm -rf /`. A shell that reads
//! that output runs it, so `jq -r … | sh` is rated by what it runs. A filter whose output
//! holds no literal text (`.name`, `keys`) prints data: `None`.
//!
//! Linear in the filter's length; filters past [`MAX_FILTER`] are not read.

use base64::Engine as _;

/// Longest filter read.
const MAX_FILTER: usize = 4 * 1024;

/// The word standing for a value the filter reads from its input.
pub(crate) const VALUE: &str = "$JQ_VALUE";

/// The raw output of `jq -r FILTER`, when it holds literal text.
pub(crate) fn output(filter: &str) -> Option<String> {
    if filter.len() > MAX_FILTER {
        return None;
    }
    let mut value: Option<String> = None;
    let mut literal = false;
    for stage in split_top(filter, b'|') {
        let stage = stage.trim();
        if let Some(f) = stage.strip_prefix('@') {
            value = match f {
                "base64d" => value.as_deref().and_then(|v| {
                    base64::engine::general_purpose::STANDARD
                        .decode(v.trim())
                        .ok()
                        .and_then(|b| String::from_utf8(b).ok())
                }),
                "sh" | "text" | "json" => value,
                _ => None,
            };
            continue;
        }
        let mut built = String::new();
        for operand in split_top(stage, b'+') {
            let o = operand.trim();
            if let Some(text) = string_literal(o) {
                literal = true;
                built.push_str(&text);
            } else if o == "." {
                built.push_str(value.as_deref().unwrap_or(VALUE));
            } else if let Some(name) = o
                .strip_prefix("env.")
                .or_else(|| o.strip_prefix("$ENV."))
                .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            {
                // an environment variable: the shell's own (`env.HOME` is `$HOME`)
                built.push('$');
                built.push_str(name);
            } else {
                built.push_str(VALUE);
            }
        }
        value = Some(built);
    }
    let v = value?;
    (literal && v != VALUE && !v.trim().is_empty()).then(|| format!("{v}\n"))
}

/// `text` split at `sep` outside strings and brackets.
fn split_top(text: &str, sep: u8) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            // (`|=` is another operator)
            c if c == sep && depth == 0 && !(sep == b'|' && b.get(i + 1) == Some(&b'=')) => {
                out.push(text.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(text.get(start..).unwrap_or(""));
    out
}

/// The text of a JSON string literal; an interpolation `\(…)` is a value read.
fn string_literal(o: &str) -> Option<String> {
    let inner = o.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('(') => {
                // skip the interpolated expression
                let mut depth = 1;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                out.push_str(VALUE);
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_text_is_printed() {
        assert_eq!(
            output(r#".buckets[] | "aws s3 rb s3://" + . + " --force""#).as_deref(),
            Some("aws s3 rb s3://$JQ_VALUE --force\n")
        );
        assert_eq!(
            output(r#""cm0gLXJmIC8=" | @base64d"#).as_deref(),
            Some("rm -rf /\n")
        );
        assert_eq!(
            output(r#".hosts[] | "ssh \(.name) sudo reboot""#).as_deref(),
            Some("ssh $JQ_VALUE sudo reboot\n")
        );
        assert_eq!(
            output(r#""rm -rf " + env.HOME"#).as_deref(),
            Some("rm -rf $HOME\n")
        );
        assert_eq!(output(".name"), None);
        assert_eq!(output("keys"), None);
        assert_eq!(output(r#".a |= "x""#), None);
    }
}
