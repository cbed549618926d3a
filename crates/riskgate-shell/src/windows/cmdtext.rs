//! cmd.exe text read before it runs: `for` loops over a set (the body once per item),
//! variables' edits (`%VAR:~a,b%`, `%VAR:old=new%`), and diskpart scripts on stdin as the
//! cmdlets that do the same.

/// The commands of a `for` loop over a set (`for /d %%D in ("C:\\x\\*") do rd /s /q "%%D"`,
/// `for /r C:\\logs %%f in (*.log) do del "%%f"`, `for %i in (a b) do …`), joined by `&`: the
/// body once per item (at most 8), `%%X`/`%X` replaced by it (`DIR\\**\\ITEM` with `/r`).
/// `None` when the line is no such loop (`for /f` reads a file or a command's output: left
/// as it is).
pub(crate) fn for_bodies(line: &str) -> Option<String> {
    let t = line.trim_start().trim_start_matches('@');
    let lower = t.to_ascii_lowercase();
    if !lower.starts_with("for ") {
        return None;
    }
    let mut rest = t[4..].trim_start();
    let mut root: Option<String> = None;
    loop {
        let l = rest.to_ascii_lowercase();
        if l.starts_with("/d ") || l.starts_with("/l ") {
            rest = rest[3..].trim_start();
        } else if l.starts_with("/r ") {
            rest = rest[3..].trim_start();
            if !rest.starts_with('%') {
                let (dir, r) = rest.split_once(' ')?;
                root = Some(dir.trim_matches('"').to_string());
                rest = r.trim_start();
            }
        } else if l.starts_with("/f") {
            return None;
        } else {
            break;
        }
    }
    let (var, r) = rest.split_once(' ')?;
    let name = var.trim_start_matches('%');
    if !var.starts_with('%') || name.is_empty() || name.len() > 2 {
        return None;
    }
    let r = r.trim_start();
    let r = r
        .strip_prefix("in ")
        .or_else(|| r.strip_prefix("IN "))?
        .trim_start();
    let r = r.strip_prefix('(')?;
    let close = r.find(')')?;
    let set = &r[..close];
    let after = r[close + 1..].trim_start();
    let body = after
        .strip_prefix("do ")
        .or_else(|| after.strip_prefix("DO "))?
        .trim_start();
    let items: Vec<String> = set
        .split([' ', ',', ';', '\t'])
        .filter(|x| !x.is_empty())
        .take(8)
        .map(|x| {
            let x = x.trim_matches('"');
            match &root {
                Some(d) => format!("{}\\**\\{x}", d.trim_end_matches('\\')),
                None => x.to_string(),
            }
        })
        .collect();
    if items.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for it in &items {
        let b = body
            .replace(&format!("%%{name}"), it)
            .replace(&format!("%{name}"), it);
        out.push(b);
    }
    Some(out.join(" & "))
}

/// The command line `cmd /c` runs, from the words after `/c` (quotes removed): one word is
/// the line itself (`cmd /c "a & b"`: cmd strips the quotes); among several, a word that was
/// quoted stays one word (`cmd /c powershell -c "gci | Remove-Item"`).
pub(crate) fn cmd_c_line<S: AsRef<str>>(rest: &[S]) -> String {
    if let [one] = rest {
        return one.as_ref().to_string();
    }
    // the first word is the program, or a quoted run of the line's own words (`cmd /c "cmd
    // /c "dir""`: cmd strips the outer quotes): left as it is
    rest.iter()
        .enumerate()
        .map(|(i, w)| {
            let w = w.as_ref();
            if i > 0 && w.contains([' ', '|', '&', '<', '>', '(', ')']) && !w.contains('"') {
                format!("\"{w}\"")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The command line `wmic … process call create "LINE"` starts (`wmic /node:h process call
/// create …` too): the word after `call create`, when the class is `process`.
pub(crate) fn wmic_created<S: AsRef<str>>(args: &[S]) -> Option<String> {
    let l: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_ascii_lowercase())
        .collect();
    let k = l
        .windows(2)
        .position(|w| w[0] == "call" && w[1] == "create")?;
    if !l[..k]
        .iter()
        .any(|w| w == "process" || w == "win32_process")
    {
        return None;
    }
    let line = cmd_c_line(args.get(k + 2..)?);
    (!line.trim().is_empty()).then_some(line)
}

/// The lines of a cmd.exe text with each parenthesized block that spans lines joined into
/// its first line, its lines separated by `&` (`for /d %%u in (…) do (⏎ echo %%u⏎ rd /s /q
/// "%%u"⏎)` is one line, so the loop's body is read once per item). Parentheses in quotes
/// and after `rem`/`::` do not count; a block left open joins the rest of the text.
pub(crate) fn logical_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(String, i32)> = None;
    for line in text.split('\n') {
        let line = line.trim_end_matches('\r');
        let t = line.trim_start().to_ascii_lowercase();
        let comment = t.starts_with("rem ") || t == "rem" || t.starts_with("::");
        let mut depth = 0i32;
        if !comment {
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    '(' if !quoted => depth += 1,
                    ')' if !quoted => depth -= 1,
                    _ => {}
                }
            }
        }
        match open.take() {
            Some((mut acc, d)) => {
                let body = line.trim();
                if !body.is_empty() && !comment {
                    if !(acc.ends_with('(') || body.starts_with(')')) {
                        acc.push_str(" & ");
                    }
                    acc.push_str(body);
                }
                let d = d + depth;
                if d > 0 && acc.len() < 1 << 16 {
                    open = Some((acc, d));
                } else {
                    out.push(acc);
                }
            }
            None if depth > 0 => open = Some((line.to_string(), depth)),
            None => out.push(line.to_string()),
        }
    }
    if let Some((acc, _)) = open {
        out.push(acc);
    }
    out
}

/// A diskpart script (read from stdin) as the cmdlets that do the same: `clean` of the
/// selected disk is `Clear-Disk`, `format` of the selected volume `Format-Volume`, `delete
/// partition|volume` `Remove-Partition`. Words may be abbreviated as diskpart allows (`sel
/// dis 1`, `cle all`).
pub(crate) fn diskpart_commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut disk = String::from("selected-disk");
    let mut volume = String::from("selected-volume");
    for line in script.lines().take(4096) {
        let words: Vec<String> = line
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let is = |k: usize, full: &str| {
            words
                .get(k)
                .is_some_and(|w| w.len() >= 3 && full.starts_with(w.as_str()))
        };
        let arg = words.get(2).cloned();
        if is(0, "select") {
            if is(1, "disk") {
                disk = arg.unwrap_or(disk);
            } else if is(1, "volume") {
                volume = arg.unwrap_or(volume);
            }
        } else if is(0, "clean") {
            out.push(format!("Clear-Disk -Number {disk} -RemoveData -RemoveOEM"));
        } else if is(0, "format") {
            out.push(format!("Format-Volume -DriveLetter {volume} -Force"));
        } else if is(0, "delete") && (is(1, "partition") || is(1, "volume") || is(1, "disk")) {
            out.push(format!("Remove-Partition -DiskNumber {disk}"));
        }
        if out.len() >= 64 {
            break;
        }
    }
    out
}

/// cmd.exe's edits of a variable's value: `~a,b` the substring from `a` of length `b`
/// (negative: from the end), `old=new` every `old` replaced (any case); `None` when `op` is not
/// one.
pub(crate) fn var_op(value: &str, op: &str) -> Option<String> {
    if op.is_empty() {
        return Some(value.to_string());
    }
    let chars: Vec<char> = value.chars().collect();
    let len = chars.len() as i64;
    if let Some(range) = op.strip_prefix('~') {
        let (a, b) = range.split_once(',').unwrap_or((range, ""));
        let a: i64 = if a.trim().is_empty() {
            0
        } else {
            a.trim().parse().ok()?
        };
        let start = if a < 0 { (len + a).max(0) } else { a.min(len) };
        let end = if b.trim().is_empty() {
            len
        } else {
            let b: i64 = b.trim().parse().ok()?;
            if b < 0 {
                (len + b).max(start)
            } else {
                (start + b).min(len)
            }
        };
        return Some(
            chars[start as usize..end.max(start) as usize]
                .iter()
                .collect(),
        );
    }
    let (old, new) = op.split_once('=')?;
    if old.is_empty() {
        return None;
    }
    Some(super::dotnet::replace_ci(
        value,
        old.trim_start_matches('*'),
        new,
    ))
}
