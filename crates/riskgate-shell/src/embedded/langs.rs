//! PowerShell command lines: the script of `pwsh -c …` / `powershell -Command …`, or of
//! `-EncodedCommand` decoded from UTF-16LE base64, which the PowerShell reader walks
//! (`crate::windows`). Also the small readers of call syntax shared with R and Lua (`rlang`,
//! `lua`).

use base64::Engine as _;

/// The script of a PowerShell command line: `-Command`/`-c` and what follows, a decoded
/// `-EncodedCommand` (then `true`), or the first positional argument (a script file and its
/// arguments, read as a command).
pub(crate) fn powershell_script(args: &[&str]) -> Option<(String, bool)> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let l = a.to_ascii_lowercase();
        let flag = l.trim_start_matches('-').trim_start_matches('/');
        if a.starts_with(['-', '/']) && !flag.is_empty() {
            if "command".starts_with(flag) && flag.starts_with('c') {
                return Some((args.get(i + 1..)?.join(" "), false));
            }
            if ("encodedcommand".starts_with(flag)
                && flag.starts_with('e')
                && !flag.is_empty()
                && flag != "executionpolicy")
                || flag == "ec"
            {
                if let Some(enc) = args.get(i + 1) {
                    // undecodable: an empty script, which reads as nothing (the caller says
                    // what runs could not be read)
                    return Some((decode_utf16_b64(enc).unwrap_or_default(), true));
                }
                return None;
            }
            // options with a value
            if [
                "executionpolicy",
                "ep",
                "ex",
                "windowstyle",
                "w",
                "file",
                "f",
                "workingdirectory",
                "wd",
                "configurationname",
                "inputformat",
                "outputformat",
                "of",
                "if",
            ]
            .contains(&flag)
            {
                if flag == "file" || flag == "f" {
                    return None;
                }
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        return Some((args.get(i..)?.join(" "), false));
    }
    None
}

fn decode_utf16_b64(s: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(s.trim().as_bytes())
        .ok()?;
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

/// Calls `name(args)` in R or Lua text (names with `.`, `::`), strings skipped.
pub(super) fn calls(code: &str) -> Vec<(String, Vec<String>)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < 1_000 {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i = skip_string(b, i);
            continue;
        }
        if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b':'))
            {
                i += 1;
            }
            let name = &code[start..i];
            let mut k = i;
            while k < b.len() && b[k] == b' ' {
                k += 1;
            }
            if b.get(k) == Some(&b'(')
                && let Some(end) = close_paren(b, k)
            {
                out.push((name.to_string(), split_top(&code[k + 1..end])));
            }
            continue;
        }
        i += 1;
    }
    out
}

pub(super) fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() {
        if b[j] == b'\\' {
            j += 2;
            continue;
        }
        if b[j] == q {
            return j + 1;
        }
        j += 1;
    }
    b.len()
}

pub(super) fn close_paren(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < b.len() {
        match b[j] {
            b'"' | b'\'' => {
                j = skip_string(b, j);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

pub(super) fn split_top(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut j = 0;
    while j < b.len() {
        match b[j] {
            b'"' | b'\'' => {
                j = skip_string(b, j);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(s[start..j].trim().to_string());
                start = j + 1;
            }
            _ => {}
        }
        j += 1;
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last.to_string());
    }
    out
}

/// The value of a string literal argument.
pub(super) fn literal(a: &str) -> Option<&str> {
    let a = a.trim();
    let q = a.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    a.strip_prefix(q)?.strip_suffix(q)
}

pub(super) fn quote(w: &str) -> String {
    if w == "~" || w.starts_with("~/") && !w.contains([' ', '\'', '"', ';', '&', '|']) {
        return w.to_string();
    }
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@%*?,".contains(c))
    {
        return w.to_string();
    }
    format!("'{}'", w.replace('\'', "'\\''"))
}

pub(super) fn quote_all(ws: &[String]) -> String {
    ws.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

pub(super) fn join(prog: &str, args: &[String]) -> String {
    let mut s = prog.to_string();
    for a in args {
        s.push(' ');
        s.push_str(&quote(a));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_command_lines() {
        assert_eq!(
            powershell_script(&["-EncodedCommand", "cgBtACAALQByAGYAIAAvAA=="]),
            Some(("rm -rf /".to_string(), true))
        );
        assert_eq!(
            powershell_script(&["-NoProfile", "-c", "Get-Date"]),
            Some(("Get-Date".to_string(), false))
        );
        assert_eq!(
            powershell_script(&["-ep", "bypass", "-enc", "cgBtACAALQByAGYAIAAvAA=="]),
            Some(("rm -rf /".to_string(), true))
        );
    }
}
