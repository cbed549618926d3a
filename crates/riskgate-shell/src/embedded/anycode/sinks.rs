//! What a call does, by the last segment of its name, and the helpers that turn folded
//! values into shell words and commands.

use super::{MAX_TEXT, Val};
use crate::embedded::langs::{join, quote};

/// What a call does, by the last segment of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Run,
    Delete,
    Write,
    Read,
    Env,
    Send,
    Download,
    Sql,
    Join,
    Listing,
    Decode,
    Chars,
    Concat,
}

pub(super) fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '/'])
        .next()
        .unwrap_or(name)
        .trim_end_matches(['!', '?'])
}

pub(super) fn known(name: &str) -> Option<Kind> {
    let last = last_segment(name).to_ascii_lowercase();
    let full = name.to_ascii_lowercase();
    // Racket's `delete-directory/files`
    if full.ends_with("delete-directory/files") {
        return Some(Kind::Delete);
    }
    Some(match last.as_str() {
        "system"
        | "shell"
        | "sh"
        | "exec"
        | "spawn"
        | "popen"
        | "cmd"
        | "command"
        | "run"
        | "callcommand"
        | "runcommand"
        | "spawncommand"
        | "readprocess"
        | "doshellscript"
        | "shell_exec"
        | "passthru"
        | "proc_open"
        | "execute"
        | "shell-command"
        | "call-process-shell-command"
        | "cmd_run"
        | "system2"
        | "spawn_command" => Kind::Run,
        "start" if full.contains("process") => Kind::Run,
        "delete"
        | "remove"
        | "unlink"
        | "rm"
        | "rmdir"
        | "rmtree"
        | "rm_rf"
        | "rm_r"
        | "del_dir_r"
        | "del_dir"
        | "delete_dir"
        | "deleterecursively"
        | "delete-tree"
        | "delete-directory"
        | "delete-file"
        | "delete-recursively"
        | "removeitem"
        | "removedirectoryrecursive"
        | "removedirectory"
        | "removefile"
        | "deletedirectory"
        | "deletefile"
        | "dir_delete"
        | "file_delete"
        | "deleteifexists"
        | "delete_file"
        | "remove_dir_all"
        | "remove_file"
        | "remove_dir"
        | "rm_f"
        | "deletedir"
        | "removeall"
        | "delete-dir" => Kind::Delete,
        "write_file" | "writefile" | "write-file" | "spit" | "file_put_contents" | "writetext"
        | "write_text" | "writealltext" | "appendalltext" | "write_all" | "writestring"
        | "open" | "fopen" => Kind::Write,
        "write" if full.starts_with("file") => Kind::Write,
        "read" | "readfile" | "read_file" | "slurp" | "file_get_contents" | "readalltext"
        | "readlines" | "read_text" | "readtext" | "read-file" | "readstring" | "contents" => {
            Kind::Read
        }
        "getenv" | "get_env" | "getproperty" | "environ" => Kind::Env,
        "post" | "put" | "patch" | "request" | "fetch" | "urlopen" | "http_post" | "httppost"
        | "post_form" | "sendall" | "postform" | "upload" | "put_object" | "curl"
        | "send_request" => Kind::Send,
        "download" | "download_file" | "urlretrieve" | "downloadfile" => Kind::Download,
        "dbexecute" | "dbsendquery" | "dbgetquery" | "dbsendstatement" | "query" | "exec_query"
        | "executescript" | "statement" | "run_sql" | "sql" | "execute_sql" => Kind::Sql,
        "combine" | "of" | "get" if path_joiner(&full) => Kind::Join,
        "path" | "file" | "joinpath" | "join_path" | "file_path" => Kind::Join,
        "files" | "readdir" | "listdir" | "glob" | "ls" | "list_dir" | "listfiles" => Kind::Listing,
        "base64decode" | "decode64" | "b64decode" | "atob" | "decodebase64"
        | "frombase64string" | "base64_decode" | "decode_base64" => Kind::Decode,
        "char" | "chr" | "fromcharcode" | "inttoutf8" | "chars" => Kind::Chars,
        "paste0" | "paste" | "concat" | "str" | "string-append" | "strcat" => Kind::Concat,
        _ if full == "file.path" => Kind::Join,

        _ => return None,
    })
}

pub(super) fn path_joiner(full: &str) -> bool {
    full.contains("path") || full.contains("file")
}

pub(super) fn is_home(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    matches!(
        last_segment(&l),
        "homedir"
            | "home_dir"
            | "user_home"
            | "nshomedirectory"
            | "homedirectory"
            | "home-dir"
            | "userprofile"
            | "gethomedir"
            | "home"
    ) || l.contains("user.home")
}

pub(super) fn flatten(args: &[Val]) -> Vec<Val> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Val::List(items) => out.extend(flatten(items)),
            v => out.push(v.clone()),
        }
    }
    out
}

pub(super) fn concat(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) if x.len() + y.len() <= MAX_TEXT => Val::Str(x + &y),
        _ => Val::Unknown,
    }
}

pub(super) fn decode_base64(v: &Val) -> Val {
    use base64::Engine as _;
    let Val::Str(s) = v else {
        return Val::Unknown;
    };
    base64::engine::general_purpose::STANDARD
        .decode(s.trim().as_bytes())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map_or(Val::Unknown, Val::Str)
}

/// The command a value stands for: a command line, a command literal, or an argv list.
pub(super) fn command_text(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) | Val::Cmd(s) => Some(s.clone()),
        Val::List(items) => {
            let words: Option<Vec<String>> = flatten(items)
                .iter()
                .map(|w| match w {
                    Val::Str(s) => Some(s.clone()),
                    Val::Num(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            let words = words?;
            let (prog, rest) = words.split_first()?;
            Some(join(&quote(prog), rest))
        }
        _ => None,
    }
}

/// A path, not a name or a sentence: absolute, home-relative, `./`, or with a slash.
pub(super) fn path_like(p: &str) -> bool {
    !p.is_empty()
        && !p.contains("://")
        && !p.contains('\n')
        && (p.starts_with('/')
            || p.starts_with('~')
            || p.starts_with("./")
            || p.starts_with("../")
            || (p.contains('/') && !p.contains(' ')))
}

/// A path as a shell word: `~` stays the home directory, a trailing `/*` stays a glob.
pub(super) fn path_word(p: &str) -> String {
    let (base, glob) = match p.strip_suffix("/*") {
        Some(b) => (b, "/*"),
        None => (p, ""),
    };
    let plain = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+@:,%".contains(c))
    };
    let word = match base.strip_prefix('~') {
        Some(rest) if plain(rest) => format!("~{rest}"),
        Some(rest) => format!("~/{}", quote(rest.trim_start_matches('/'))),
        None => quote(base),
    };
    format!("{word}{glob}")
}

pub(super) fn looks_like_sql(s: &str) -> bool {
    let t = s.trim_start().to_ascii_uppercase();
    let first = t.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "DROP"
            | "TRUNCATE"
            | "DELETE"
            | "ALTER"
            | "UPDATE"
            | "GRANT"
            | "REVOKE"
            | "INSERT"
            | "SELECT"
            | "CREATE"
            | "COPY"
            | "VACUUM"
    ) && t.split_whitespace().nth(1).is_some()
        && !t.contains(" -")
}
