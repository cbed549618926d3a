//! Predicates over calls for the default rules: which resolved names delete, write, read,
//! move or list files, change permissions and privileges, run code, or touch the network.
//! Methods on receivers that could not be resolved are only matched when the method name is
//! specific enough (`unlink`, `write_text`), never for generic names (`remove`, `replace`).

use super::analysis::{Analysis, ArgValue, Call};
use super::commands::{self, Cmd};
use super::resources;
use super::rule::Hit;

/// A hit on a call, with the given resources.
pub fn call_hit(c: &Call, resources: Vec<String>) -> Hit {
    Hit {
        matched: c.text.clone(),
        span: Some(c.span),
        line: Some(c.line),
        resources,
        context: c.context.clone(),
        ..Hit::default()
    }
}

/// Hits for every call that satisfies `pred` (resources: paths and URLs among its arguments).
pub fn calls(a: &Analysis, pred: impl Fn(&Call) -> bool) -> Vec<Hit> {
    a.calls
        .iter()
        .filter(|c| pred(c))
        .map(|c| call_hit(c, with_receiver_path(a, c, resources::of_call(c))))
        .collect()
}

/// A method called on a path object built in the same expression
/// (`Path('config.yaml').read_text()`, `pathlib.Path(p).unlink()`): the path given to the
/// constructor is the call's resource too. The constructor is the call that starts at the same
/// token and ends inside this one.
fn with_receiver_path(a: &Analysis, c: &Call, mut out: Vec<String>) -> Vec<String> {
    if !c.name.contains("Path().") {
        return out;
    }
    let ctor = a.calls.iter().find(|d| {
        d.span.start == c.span.start
            && d.span.end < c.span.end
            && matches!(
                d.method.as_str(),
                "Path" | "PurePath" | "PosixPath" | "WindowsPath"
            )
    });
    for r in ctor.map(resources::of_call).unwrap_or_default() {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// Hits for every simple command (run by the code) that satisfies `pred`.
pub fn cmds(a: &Analysis, pred: impl Fn(&Cmd<'_>) -> bool) -> Vec<Hit> {
    a.shell
        .iter()
        .filter_map(|sc| {
            let c = commands::view(sc)?;
            pred(&c).then(|| cmd_hit(&c, c.paths()))
        })
        .collect()
}

/// A hit on a command.
pub fn cmd_hit(c: &Cmd<'_>, resources: Vec<String>) -> Hit {
    Hit {
        matched: c.text(),
        span: Some(c.sc.span),
        line: Some(c.sc.line),
        resources,
        context: (c.sc.via != "sh").then(|| format!("command run by {}", c.sc.via)),
        ..Hit::default()
    }
}

fn method_in(c: &Call, methods: &[&str]) -> bool {
    methods.contains(&c.method.as_str()) && c.name.contains('.').then_some(()).is_some()
}

/// Receivers that are the process's own output streams or in-memory buffers.
fn harmless_receiver(c: &Call) -> bool {
    let n = c.name.as_str();
    [
        "sys.stdout",
        "sys.stderr",
        "process.stdout",
        "process.stderr",
        "sys.stdin",
        "process.stdin",
        "StringIO",
        "BytesIO",
        "console",
        "hashlib",
        "hmac",
        "crypto",
        "res.",
        "response.",
    ]
    .iter()
    .any(|r| n.contains(r))
        || n.starts_with("str.")
}

const DELETE_FNS: [&str; 27] = [
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "os.removedirs",
    "shutil.rmtree",
    "fs.unlink",
    "fs.unlinkSync",
    "fs.rm",
    "fs.rmSync",
    "fs.rmdir",
    "fs.rmdirSync",
    "fs-extra.remove",
    "fs-extra.removeSync",
    "fs-extra.emptyDir",
    "fs-extra.emptyDirSync",
    "rimraf",
    "rimraf.sync",
    "rimraf.rimraf",
    "rimraf.rimrafSync",
    "del",
    "del.sync",
    "del.deleteAsync",
    "del.deleteSync",
    "Deno.remove",
    "Deno.removeSync",
    "os.unlinkat",
    "send2trash.send2trash",
];

/// File and directory deletion calls.
pub fn is_file_delete(c: &Call) -> bool {
    if c.name == "send2trash.send2trash" {
        return false;
    }
    c.is(&DELETE_FNS)
        || method_in(
            c,
            &[
                "unlink",
                "rmdir",
                "unlinkSync",
                "rmSync",
                "rmdirSync",
                "removeSync",
                "rmtree",
            ],
        )
}

/// The path argument of a deletion names a system or home directory.
pub fn deletes_critical_path(c: &Call) -> bool {
    if !is_file_delete(c) {
        return false;
    }
    let Some(arg) = c.arg(0).or_else(|| c.kwarg("path")) else {
        // `Path('/').rmdir()`: the receiver carries the path; look at the call text
        return false;
    };
    if let Some(p) = arg.value.text() {
        return resources::is_critical_path(p);
    }
    let t: String = arg.text.chars().filter(|c| !c.is_whitespace()).collect();
    [
        "os.path.expanduser('~')",
        "os.path.expanduser(\"~\")",
        "Path.home()",
        "pathlib.Path.home()",
        "os.homedir()",
        "os.environ['HOME']",
        "os.environ[\"HOME\"]",
        "process.env.HOME",
        "os.getenv('HOME')",
        "os.getenv(\"HOME\")",
    ]
    .contains(&t.as_str())
}

/// Python `open` modes that write.
fn open_mode(c: &Call) -> Option<String> {
    c.param(1, "mode")
        .and_then(|a| a.value.as_str())
        .map(String::from)
}

pub fn is_open(c: &Call) -> bool {
    c.is(&[
        "open",
        "io.open",
        "codecs.open",
        "builtins.open",
        "aiofiles.open",
        "gzip.open",
        "bz2.open",
        "lzma.open",
    ])
}

const WRITE_FNS: [&str; 31] = [
    "os.truncate",
    "fs.writeFile",
    "fs.writeFileSync",
    "fs.appendFile",
    "fs.appendFileSync",
    "fs.createWriteStream",
    "fs.truncate",
    "fs.truncateSync",
    "fs.write",
    "fs.writeSync",
    "fs-extra.outputFile",
    "fs-extra.outputFileSync",
    "fs-extra.writeJson",
    "fs-extra.writeJsonSync",
    "fs-extra.outputJson",
    "fs-extra.outputJsonSync",
    "Deno.writeTextFile",
    "Deno.writeFile",
    "Deno.writeTextFileSync",
    "Deno.writeFileSync",
    "Deno.create",
    "Bun.write",
    "numpy.save",
    "numpy.savetxt",
    "numpy.savez",
    "np.save",
    "np.savetxt",
    "np.savez",
    "torch.save",
    "joblib.dump",
    "shutil.copyfileobj",
];

/// File writes: `open(p, 'w')`, `.write(`, `write_text`, `fs.writeFileSync`, `json.dump(o, f)`,
/// `df.to_csv(p)`.
pub fn is_file_write(c: &Call) -> bool {
    if is_open(c) {
        return open_mode(c).is_some_and(|m| m.contains(['w', 'a', 'x', '+']));
    }
    if c.is(&["os.open"]) {
        return c.args_contain("O_WRONLY")
            || c.args_contain("O_RDWR")
            || c.args_contain("O_CREAT")
            || c.args_contain("O_TRUNC")
            || c.args_contain("O_APPEND");
    }
    if c.is(&WRITE_FNS) {
        return true;
    }
    if c.is(&[
        "json.dump",
        "pickle.dump",
        "yaml.dump",
        "yaml.safe_dump",
        "toml.dump",
        "marshal.dump",
    ]) {
        return c.args.iter().filter(|a| a.keyword.is_none()).count() >= 2;
    }
    if harmless_receiver(c) {
        return false;
    }
    method_in(
        c,
        &[
            "write_text",
            "write_bytes",
            "writelines",
            "writerow",
            "writerows",
            "to_csv",
            "to_excel",
            "to_parquet",
            "to_pickle",
            "to_feather",
            "to_hdf",
            "savefig",
        ],
    ) || (c.method == "write" && c.name.contains('.'))
        || (c.method == "touch" && c.starts_with("pathlib."))
        || (c.method == "open"
            && c.starts_with("pathlib.")
            && open_mode_first(c).is_some_and(|m| m.contains(['w', 'a', 'x', '+'])))
}

fn open_mode_first(c: &Call) -> Option<String> {
    c.param(0, "mode")
        .and_then(|a| a.value.as_str())
        .map(String::from)
}

/// File reads.
pub fn is_file_read(c: &Call) -> bool {
    if is_open(c) {
        return !open_mode(c).is_some_and(|m| m.contains(['w', 'a', 'x', '+']));
    }
    if c.is(&[
        "fs.readFile",
        "fs.readFileSync",
        "fs.createReadStream",
        "fs-extra.readJson",
        "fs-extra.readJsonSync",
        "Deno.readTextFile",
        "Deno.readFile",
        "Deno.readTextFileSync",
        "Deno.readFileSync",
        "Bun.file",
        "numpy.load",
        "np.load",
        "numpy.loadtxt",
        "np.loadtxt",
        "pandas.read_csv",
        "pd.read_csv",
        "pandas.read_excel",
        "pd.read_excel",
        "pandas.read_json",
        "pd.read_json",
        "pandas.read_parquet",
        "pd.read_parquet",
    ]) {
        return true;
    }
    if harmless_receiver(c)
        || c.name.starts_with("urllib")
        || c.name.contains("urlopen")
        || c.name.starts_with("requests.")
    {
        return false;
    }
    method_in(c, &["read_text", "read_bytes"])
        || (matches!(c.method.as_str(), "read" | "readlines" | "readline") && c.name.contains('.'))
}

/// Credentials and secrets touched by a call (any argument naming a sensitive path).
pub fn touches_credentials(c: &Call) -> bool {
    // a look at the file's metadata (`os.stat`, `os.path.exists`, `fs.statSync`) reads
    // nothing of its content
    if matches!(
        c.method.as_str(),
        "stat"
            | "lstat"
            | "statSync"
            | "lstatSync"
            | "exists"
            | "existsSync"
            | "isfile"
            | "isdir"
            | "islink"
            | "is_file"
            | "is_dir"
            | "getsize"
            | "getmtime"
            | "getctime"
            | "getatime"
            | "access"
            | "accessSync"
    ) {
        return false;
    }
    c.args.iter().any(|a| match &a.value {
        ArgValue::Str(s) | ArgValue::Dynamic(s) => resources::is_sensitive_path(s),
        _ => false,
    })
}

/// Directory listing.
pub fn is_dir_list(c: &Call) -> bool {
    c.is(&[
        "os.listdir",
        "os.scandir",
        "os.walk",
        "glob.glob",
        "glob.iglob",
        "fs.readdir",
        "fs.readdirSync",
        "fs.opendir",
        "fs.opendirSync",
        "Deno.readDir",
        "Deno.readDirSync",
        "glob",
        "glob.sync",
        "fast-glob",
        "globby",
    ]) || (c.starts_with("pathlib.") && matches!(c.method.as_str(), "glob" | "rglob" | "iterdir"))
}

/// Directory creation.
pub fn is_dir_create(c: &Call) -> bool {
    c.is(&[
        "os.mkdir",
        "os.makedirs",
        "fs.mkdir",
        "fs.mkdirSync",
        "fs-extra.ensureDir",
        "fs-extra.ensureDirSync",
        "fs-extra.mkdirp",
        "fs-extra.mkdirs",
        "mkdirp",
        "mkdirp.sync",
        "Deno.mkdir",
        "Deno.mkdirSync",
    ]) || (c.starts_with("pathlib.") && c.method == "mkdir")
}

/// Moves and renames.
pub fn is_file_move(c: &Call) -> bool {
    c.is(&[
        "shutil.move",
        "os.rename",
        "os.renames",
        "os.replace",
        "fs.rename",
        "fs.renameSync",
        "fs-extra.move",
        "fs-extra.moveSync",
        "Deno.rename",
        "Deno.renameSync",
    ]) || (c.starts_with("pathlib.") && matches!(c.method.as_str(), "rename" | "replace"))
}

/// Copies.
pub fn is_file_copy(c: &Call) -> bool {
    c.is(&[
        "shutil.copy",
        "shutil.copy2",
        "shutil.copyfile",
        "shutil.copytree",
        "fs.copyFile",
        "fs.copyFileSync",
        "fs.cp",
        "fs.cpSync",
        "fs-extra.copy",
        "fs-extra.copySync",
        "Deno.copyFile",
        "Deno.copyFileSync",
    ])
}

/// Archive extraction.
pub fn is_archive_extract(c: &Call) -> bool {
    c.is(&["shutil.unpack_archive"])
        || method_in(c, &["extractall"])
        || (c.method == "extract" && (c.starts_with("tarfile.") || c.starts_with("zipfile.")))
}

/// Downloads to files.
pub fn is_download(c: &Call) -> bool {
    c.is(&[
        "urllib.request.urlretrieve",
        "urllib.urlretrieve",
        "wget.download",
        "download",
        "gdown.download",
        "huggingface_hub.hf_hub_download",
    ])
}

/// Changes of file modes and owners.
pub fn is_permission_change(c: &Call) -> bool {
    c.is(&[
        "os.chmod",
        "os.lchmod",
        "os.fchmod",
        "os.chown",
        "os.lchown",
        "os.fchown",
        "shutil.chown",
        "fs.chmod",
        "fs.chmodSync",
        "fs.chown",
        "fs.chownSync",
        "fs.lchown",
        "fs.lchownSync",
        "fs.fchmod",
        "fs.fchmodSync",
        "Deno.chmod",
        "Deno.chmodSync",
        "Deno.chown",
        "Deno.chownSync",
    ]) || (c.starts_with("pathlib.") && matches!(c.method.as_str(), "chmod" | "lchmod"))
}

/// World-writable or setuid modes, or changes on system paths.
pub fn is_permission_broad(c: &Call) -> bool {
    if !is_permission_change(c) {
        return false;
    }
    let broad_mode = c.args.iter().any(|a| {
        let t = a.text.replace(' ', "");
        [
            "0o777", "0777", "511", "0o666", "0666", "S_ISUID", "S_ISGID", "S_IWOTH", "0o4",
            "0o2755", "'777'", "\"777\"", "0o1777",
        ]
        .iter()
        .any(|m| t.contains(m))
    });
    broad_mode
        || c.arg(0)
            .and_then(|a| a.value.text())
            .is_some_and(resources::is_critical_path)
}

/// Process privilege changes.
pub fn is_privilege_change(c: &Call) -> bool {
    c.is(&[
        "os.setuid",
        "os.setgid",
        "os.seteuid",
        "os.setegid",
        "os.setreuid",
        "os.setregid",
        "os.setresuid",
        "os.setresgid",
        "os.initgroups",
        "os.setgroups",
        "process.setuid",
        "process.setgid",
        "process.seteuid",
        "process.setegid",
        "process.setgroups",
        "process.initgroups",
    ])
}

/// Signals to other processes.
pub fn is_process_kill(c: &Call) -> bool {
    c.is(&[
        "os.kill",
        "os.killpg",
        "signal.pthread_kill",
        "process.kill",
        "os.abort",
    ]) || (c.starts_with("psutil.")
        && matches!(c.method.as_str(), "kill" | "terminate" | "send_signal"))
}

/// Calls that start processes (whether or not their command could be extracted).
pub fn is_subprocess(c: &Call) -> bool {
    c.starts_with("subprocess.")
        && matches!(
            c.method.as_str(),
            "run"
                | "call"
                | "check_call"
                | "check_output"
                | "Popen"
                | "getoutput"
                | "getstatusoutput"
        )
        || c.is(&[
            "os.system",
            "os.popen",
            "os.popen2",
            "os.popen3",
            "os.posix_spawn",
            "os.posix_spawnp",
            "commands.getoutput",
            "commands.getstatusoutput",
            "pty.spawn",
            "asyncio.create_subprocess_exec",
            "asyncio.create_subprocess_shell",
            "pexpect.run",
            "pexpect.spawn",
            "child_process.exec",
            "child_process.execSync",
            "child_process.spawn",
            "child_process.spawnSync",
            "child_process.execFile",
            "child_process.execFileSync",
            "child_process.fork",
            "Deno.run",
            "Deno.Command",
            "Bun.spawn",
            "Bun.spawnSync",
            "Bun.$",
            "execa",
            "execa.execa",
            "execa.sync",
            "execa.execaSync",
            "execa.command",
            "execa.commandSync",
            "execa.execaCommand",
            "execa.execaCommandSync",
            "execa.$",
            "zx.$",
            "$",
            "shelljs.exec",
        ])
        || ((c.name.starts_with("os.exec") || c.name.starts_with("os.spawn"))
            && !c.name.contains('('))
        || ((c.name.starts_with("sh.") || c.name.starts_with("shelljs."))
            && !c.name.contains('(')
            && c.name.matches('.').count() == 1)
}

/// Network calls that send data or change remote state (POST, PUT, DELETE, PATCH).
pub fn is_network_write(c: &Call) -> bool {
    const WRITE: [&str; 4] = ["post", "put", "delete", "patch"];
    let m = c.method.to_ascii_lowercase();
    let http_lib = [
        "requests.",
        "httpx.",
        "aiohttp.",
        "axios",
        "got",
        "superagent",
        "ky",
        "needle",
        "node-fetch",
        "undici",
        "$.",
        "jQuery.",
    ]
    .iter()
    .any(|p| c.name.starts_with(p));
    if http_lib && WRITE.contains(&m.as_str()) {
        return true;
    }
    let method_arg = |a: &str| {
        let t = a.to_ascii_uppercase().replace(' ', "");
        [
            "'POST'",
            "\"POST\"",
            "'PUT'",
            "\"PUT\"",
            "'DELETE'",
            "\"DELETE\"",
            "'PATCH'",
            "\"PATCH\"",
            "`POST`",
        ]
        .iter()
        .any(|m| t.contains(m))
    };
    if c.is(&[
        "requests.request",
        "httpx.request",
        "urllib3.request",
        "http.client.HTTPConnection().request",
        "http.client.HTTPSConnection().request",
    ]) || (c.method == "request" && c.starts_with("urllib3."))
    {
        return c.arg(0).map(|a| method_arg(&a.text)).unwrap_or(false);
    }
    if c.is(&["urllib.request.urlopen", "urllib2.urlopen"]) {
        return c.arg(1).is_some() || c.kwarg("data").is_some();
    }
    if c.is(&["urllib.request.Request", "urllib2.Request"]) {
        return c.arg(1).is_some()
            || c.kwarg("data").is_some()
            || c.kwarg("method").is_some_and(|a| method_arg(&a.text));
    }
    if c.is(&[
        "fetch",
        "node-fetch",
        "undici.fetch",
        "axios",
        "axios.request",
        "http.request",
        "https.request",
        "$.ajax",
        "jQuery.ajax",
        "got",
    ]) {
        return c.args.iter().any(|a| {
            let t = a.text.to_ascii_uppercase().replace(' ', "");
            ["METHOD:'", "METHOD:\"", "METHOD:`", "TYPE:'", "TYPE:\""]
                .iter()
                .any(|k| {
                    WRITE
                        .iter()
                        .any(|w| t.contains(&format!("{k}{}", w.to_ascii_uppercase())))
                })
        });
    }
    if c.is(&["navigator.sendBeacon"])
        || (c.method == "open"
            && c.name.contains("XMLHttpRequest")
            && c.arg(0).is_some_and(|a| method_arg(&a.text)))
    {
        return true;
    }
    // session.post("https://…") on an unresolved receiver
    WRITE.contains(&m.as_str())
        && c.unresolved_receiver
        && c.arg(0)
            .and_then(|a| a.value.text())
            .is_some_and(|u| u.starts_with("http://") || u.starts_with("https://"))
}

/// Network reads.
pub fn is_network_read(c: &Call) -> bool {
    if is_network_write(c) {
        return false;
    }
    const READ: [&str; 4] = ["get", "head", "options", "stream"];
    let m = c.method.to_ascii_lowercase();
    let http_lib = [
        "requests.",
        "httpx.",
        "aiohttp.",
        "axios",
        "got",
        "superagent",
        "ky.",
        "needle",
        "$.",
        "jQuery.",
    ]
    .iter()
    .any(|p| c.name.starts_with(p));
    (http_lib && (READ.contains(&m.as_str()) || m == "getjson"))
        || c.is(&[
            "urllib.request.urlopen",
            "urllib2.urlopen",
            "urllib.urlopen",
            "fetch",
            "node-fetch",
            "undici.fetch",
            "axios",
            "got",
            "http.get",
            "https.get",
            "requests.request",
            "httpx.request",
            "http.client.HTTPConnection",
            "http.client.HTTPSConnection",
            "ftplib.FTP",
            "xmlrpc.client.ServerProxy",
        ])
        || (READ.contains(&m.as_str())
            && c.unresolved_receiver
            && c.arg(0)
                .and_then(|a| a.value.text())
                .is_some_and(|u| u.starts_with("http://") || u.starts_with("https://")))
}

/// Raw sockets and connections.
pub fn is_socket_connect(c: &Call) -> bool {
    c.is(&[
        "socket.socket",
        "socket.create_connection",
        "ssl.wrap_socket",
        "asyncio.open_connection",
        "net.connect",
        "net.createConnection",
        "net.Socket",
        "tls.connect",
        "dgram.createSocket",
        "WebSocket",
        "ws",
        "websocket.create_connection",
        "websockets.connect",
        "telnetlib.Telnet",
    ])
}

/// Listening servers.
pub fn is_network_listen(c: &Call) -> bool {
    c.is(&[
        "http.server.HTTPServer",
        "http.server.ThreadingHTTPServer",
        "socketserver.TCPServer",
        "socketserver.UDPServer",
        "socketserver.ThreadingTCPServer",
        "asyncio.start_server",
        "uvicorn.run",
        "http.createServer",
        "https.createServer",
        "net.createServer",
        "http2.createServer",
        "Deno.listen",
        "Deno.serve",
        "Bun.serve",
    ]) || (matches!(c.method.as_str(), "listen" | "bind")
        && (c.starts_with("socket.")
            || c.arg(0)
                .is_some_and(|a| matches!(a.value, ArgValue::Num(_)))))
}

/// SSH / SFTP / remote execution libraries.
pub fn is_remote_access(c: &Call) -> bool {
    [
        "paramiko.",
        "fabric.",
        "pysftp.",
        "asyncssh.",
        "ssh2.",
        "node-ssh.",
        "netmiko.",
    ]
    .iter()
    .any(|p| c.name.starts_with(p))
        && matches!(
            c.method.as_str(),
            "connect"
                | "exec_command"
                | "run"
                | "sudo"
                | "put"
                | "get"
                | "execCommand"
                | "exec"
                | "open_sftp"
                | "send_command"
        )
}

/// Sending email.
pub fn is_email_send(c: &Call) -> bool {
    (c.starts_with("smtplib.") && matches!(c.method.as_str(), "sendmail" | "send_message"))
        || (c.starts_with("nodemailer.") && c.method == "sendMail")
        || matches!(c.method.as_str(), "send_mail" | "send_mass_mail") && c.starts_with("django.")
        || (c.unresolved_receiver
            && matches!(c.method.as_str(), "sendmail" | "sendMail" | "send_message")
            && c.name.to_ascii_lowercase().contains("smtp"))
}

/// Unsafe deserialization.
pub fn is_deserialization(c: &Call) -> bool {
    if c.is(&["yaml.load", "yaml.load_all"]) {
        let loader = c
            .param(1, "Loader")
            .map(|a| a.text.clone())
            .unwrap_or_default();
        return !(loader.contains("Safe") || loader.contains("BaseLoader"));
    }
    if c.is(&["torch.load"]) {
        return !c
            .kwarg("weights_only")
            .is_some_and(|a| a.value == ArgValue::Bool(true));
    }
    if c.is(&["numpy.load", "np.load"]) {
        return c
            .kwarg("allow_pickle")
            .is_some_and(|a| a.value == ArgValue::Bool(true));
    }
    c.is(&[
        "pickle.load",
        "pickle.loads",
        "_pickle.load",
        "_pickle.loads",
        "cPickle.load",
        "cPickle.loads",
        "dill.load",
        "dill.loads",
        "marshal.load",
        "marshal.loads",
        "shelve.open",
        "jsonpickle.decode",
        "yaml.unsafe_load",
        "yaml.unsafe_load_all",
        "pandas.read_pickle",
        "pd.read_pickle",
        "joblib.load",
        "node-serialize.unserialize",
        "cloudpickle.load",
        "cloudpickle.loads",
    ])
}

/// Loading native libraries.
pub fn is_native_code(c: &Call) -> bool {
    c.is(&[
        "ctypes.CDLL",
        "ctypes.WinDLL",
        "ctypes.OleDLL",
        "ctypes.PyDLL",
        "ctypes.cdll.LoadLibrary",
        "ctypes.windll.LoadLibrary",
        "ctypes.util.find_library",
        "process.dlopen",
        "Deno.dlopen",
        "ffi-napi.Library",
    ]) || (c.starts_with("cffi.") && c.method == "dlopen")
}

/// Windows registry writes.
pub fn is_registry_write(c: &Call) -> bool {
    (c.starts_with("winreg.") || c.starts_with("_winreg."))
        && matches!(
            c.method.as_str(),
            "SetValue"
                | "SetValueEx"
                | "DeleteKey"
                | "DeleteKeyEx"
                | "DeleteValue"
                | "CreateKey"
                | "CreateKeyEx"
        )
}

/// Printing and logging.
pub fn is_output(c: &Call) -> bool {
    c.is(&[
        "print",
        "pprint",
        "pprint.pprint",
        "sys.stdout.write",
        "sys.stderr.write",
        "process.stdout.write",
        "process.stderr.write",
        "alert",
    ]) || (c.name.starts_with("console.") && c.name.matches('.').count() == 1)
        || (c.name.starts_with("logging.")
            && matches!(
                c.method.as_str(),
                "debug" | "info" | "warning" | "warn" | "error" | "critical" | "exception" | "log"
            ))
        || (c.name.to_ascii_lowercase().contains("log")
            && matches!(
                c.method.as_str(),
                "debug" | "info" | "warning" | "warn" | "error" | "critical" | "exception"
            ))
}

/// Opening a browser.
pub fn is_browser_open(c: &Call) -> bool {
    c.is(&[
        "webbrowser.open",
        "webbrowser.open_new",
        "webbrowser.open_new_tab",
    ])
}

/// Container SDK runs.
pub fn is_container_exec(c: &Call) -> bool {
    c.starts_with("docker.") && matches!(c.method.as_str(), "run" | "exec_run" | "build" | "create")
}

const CLOUD_SDKS: [&str; 14] = [
    "boto3.",
    "botocore.",
    "aioboto3.",
    "google.cloud.",
    "googleapiclient.",
    "azure.",
    "kubernetes.",
    "@aws-sdk/",
    "aws-sdk",
    "@google-cloud/",
    "@azure/",
    "@kubernetes/",
    "docker.",
    "openstack.",
];

/// Deletions through cloud and cluster SDKs.
pub fn is_cloud_delete(c: &Call) -> bool {
    let m = c.method.to_ascii_lowercase();
    CLOUD_SDKS.iter().any(|p| c.name.starts_with(p))
        && (m.starts_with("delete")
            || m.starts_with("terminate")
            || m.starts_with("remove")
            || m.starts_with("destroy")
            || m.starts_with("purge")
            || m == "prune"
            || m.starts_with("empty"))
}

/// Whether the code imports a cloud or cluster SDK (`import boto3`, `from google.cloud import
/// storage`, `require("@aws-sdk/client-s3")`).
pub fn imports_cloud_sdk(a: &Analysis) -> bool {
    a.imports.iter().any(|i| {
        let i = format!("{i}.");
        CLOUD_SDKS.iter().any(|p| i.starts_with(p))
    })
}

/// In code that imports a cloud SDK, a destroying method called on an object the walker could
/// not trace to its maker (`for b in client.list_buckets(): b.delete(force=True)`,
/// `[i.terminate() for i in ec2.instances.all()]`): the SDK's objects are what such code
/// holds. Methods that only change a collection in memory (`remove`, `pop`, `clear`) are not.
pub fn is_untraced_cloud_delete(c: &Call) -> bool {
    let m = c.method.to_ascii_lowercase();
    c.unresolved_receiver
        && (m.starts_with("delete")
            || m.starts_with("terminate")
            || m.starts_with("destroy")
            || m.starts_with("purge"))
}

/// Git history rewrites and commits through GitPython.
pub fn gitpython(c: &Call, what: &str) -> bool {
    if !(c.name.contains(".git.") || c.starts_with("git.")) {
        return false;
    }
    match what {
        "push_force" => {
            c.method == "push"
                && (c.args_contain("--force")
                    || c.args_contain("'-f'")
                    || c.args_contain("force=True"))
        }
        "reset_hard" => {
            c.method == "reset" && (c.args_contain("--hard") || c.args_contain("working_tree=True"))
        }
        "commit" => c.method == "commit",
        _ => false,
    }
}

/// `pip.main(['install', …])`.
pub fn is_pip_api_install(c: &Call) -> bool {
    c.is(&[
        "pip.main",
        "pip._internal.main",
        "pip._internal.cli.main.main",
    ]) && c.args_contain("install")
}
