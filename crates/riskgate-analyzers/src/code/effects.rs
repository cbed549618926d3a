//! Code rated by what its parts do together (issue 16 item 5), on top of the per-call rules:
//! processes killed over a process listing (bulk), sockets wired to a shell (reverse shells),
//! what code sends off the machine ([`super::sends`]: file contents over raw sockets, credential
//! files read and then posted), deserialization and `eval` of data that came from the
//! network or the user, commands chosen at run time, a download that is later run, writes and
//! ownership changes on system and persistence paths, native calls into libc, bulk removal
//! of containers and administrator grants through cloud SDKs.
//!
//! Each rule names its effect in its tags as `effect:KIND` with the names of
//! `riskgate_model::effect::EffectKind` (`effect:stop`, `effect:execute`, `effect:send`,
//! `effect:receive_and_run`, `effect:overwrite`, `effect:delete`) and the targets in its
//! resources (`process:*`, `file:…`), so the findings map onto the engine's effect model.

use riskgate_model::RiskLevel;

use super::analysis::{Analysis, ArgValue, Call};
use super::commands as cmd;
use super::matchers::{self as m, call_hit, cmd_hit};
use super::resources;
use super::rule::{Hit, RiskRule};
use super::sends;

use RiskLevel::{Critical, High, Low};

fn rule(
    name: &str,
    level: RiskLevel,
    reason: &str,
    f: impl Fn(&Analysis) -> Vec<Hit> + Send + Sync + 'static,
) -> RiskRule {
    RiskRule::analysis(name, f, level, reason).reversible(false)
}

/// The effect rules.
pub(crate) fn rules() -> Vec<RiskRule> {
    vec![
        rule(
            "reverse_shell",
            Critical,
            "A network connection is wired to a shell or to commands it receives (reverse shell)",
            reverse_shell,
        )
        .score(97)
        .tags(&["effect:execute", "network", "remote-control"]),
        rule(
            "download_then_run",
            Critical,
            "A file downloaded by the code is then executed",
            download_then_run,
        )
        .score(92)
        .tags(&["effect:receive_and_run", "network", "execution"]),
        rule(
            "remote_code_eval",
            Critical,
            "Code fetched from the network is evaluated",
            remote_eval,
        )
        .score(92)
        .tags(&["effect:receive_and_run", "network", "execution"]),
        rule(
            "bulk_process_kill",
            High,
            "Kills processes picked from a process listing (every matching process), or init / every process",
            bulk_kill,
        )
        .score(78)
        .tags(&["effect:stop", "bulk", "system"])
        .mitigation("Stop the service through its manager (systemctl stop NAME) or kill one known PID"),
        rule(
            "socket_file_send",
            High,
            "Sends file contents or the environment over a raw network socket",
            sends::socket_send,
        )
        .score(76)
        .tags(&["effect:send", "network", "exfiltration"]),
        rule(
            "secret_file_send",
            Critical,
            "Reads credential files (cloud keys, SSH private keys, package tokens) and sends data over the network",
            sends::secret_file_send,
        )
        .score(90)
        .tags(&["effect:send", "network", "exfiltration", "credentials"])
        .mitigation("Keep credential files on the machine; pass one scoped token through the environment to the service that needs it"),
        rule(
            "environment_send",
            High,
            "Sends the environment, or a variable named for a secret, to another host",
            sends::environment_send,
        )
        .score(80)
        .tags(&["effect:send", "network", "exfiltration", "credentials"])
        .mitigation("Send only the one setting the service needs, never the whole environment"),
        rule(
            "untrusted_deserialization",
            High,
            "Deserializes data from the network or the user (pickle, marshal, unsafe yaml): arbitrary code",
            untrusted_deserialization,
        )
        .score(78)
        .tags(&["effect:execute", "deserialization"]),
        rule(
            "runtime_command",
            High,
            "Runs a command taken from the user, the arguments or the network",
            runtime_command,
        )
        .score(74)
        .tags(&["effect:execute", "injection"]),
        rule(
            "system_file_write",
            High,
            "Writes, truncates or changes the ownership of system, log or persistence files",
            system_write,
        )
        .score(76)
        .tags(&["effect:overwrite", "system", "persistence"]),
        rule(
            "native_libc",
            High,
            "Calls into libc or writes raw memory through ctypes (setuid, system, memmove …)",
            native_libc,
        )
        .score(72)
        .tags(&["effect:execute", "privilege"]),
        rule(
            "bulk_cloud_change",
            High,
            "Removes every container listed, or grants administrator access, through an SDK",
            bulk_cloud,
        )
        .score(74)
        .tags(&["effect:delete", "bulk", "cloud"]),
        rule(
            "local_request",
            Low,
            "Sends a request to a service on this machine (loopback)",
            |a| m::calls(a, |c| m::is_network_write(c) && is_loopback_call(c)),
        )
        .score(20)
        .tags(&["network"]),
    ]
}

fn any_call(a: &Analysis, pred: impl Fn(&Call) -> bool) -> bool {
    a.calls.iter().any(pred)
}

fn any_cmd(a: &Analysis, pred: impl Fn(&cmd::Cmd<'_>) -> bool) -> bool {
    a.shell.iter().filter_map(cmd::view).any(|c| pred(&c))
}

fn is_shell_prog(p: &str) -> bool {
    let p = p.rsplit('/').next().unwrap_or(p);
    matches!(
        p,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" | "cmd" | "cmd.exe" | "powershell" | "pwsh"
    )
}

pub(super) fn args_text(c: &Call) -> String {
    c.args
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Code that reads data from outside: the network, stdin, the user, the arguments, a request.
fn has_external_input(a: &Analysis) -> bool {
    any_call(a, |c| {
        m::is_socket_connect(c)
            || c.method == "recv"
            || c.method == "recvfrom"
            || c.name.starts_with("requests.")
            || c.name.starts_with("urllib")
            || c.name.starts_with("httpx.")
            || c.name == "fetch"
            || c.name.starts_with("https.")
            || c.name.starts_with("http.")
            || c.name.starts_with("axios")
            || c.name == "input"
            || c.name == "raw_input"
            || c.name.starts_with("sys.stdin")
    }) || a.calls.iter().any(|c| {
        let t = args_text(c);
        t.contains("sys.argv")
            || t.contains("process.argv")
            || t.contains("sys.stdin")
            || t.contains("request.")
            || t.contains("req.body")
            || t.contains("req.query")
            || t.contains("input(")
    })
}

fn reverse_shell(a: &Analysis) -> Vec<Hit> {
    let Some(sock) = a
        .calls
        .iter()
        .find(|c| m::is_socket_connect(c) || c.method == "connect" && c.name.contains("ocket"))
    else {
        return Vec::new();
    };
    // descriptors of the socket become the standard streams, or a pty is spawned on it
    let dup = a.calls.iter().find(|c| {
        c.is(&["os.dup2", "pty.spawn", "os.execv", "os.execl", "os.execve"]) || c.method == "dup2"
    });
    let shell_spawned = a
        .shell
        .iter()
        .filter_map(cmd::view)
        .any(|c| is_shell_prog(&c.prog) || is_shell_prog(c.sc.words.first().map_or("", |w| w)));
    // a command received over the socket is run
    let runs_received = a
        .calls
        .iter()
        .any(|c| c.method == "recv" || c.method == "gets")
        && a.commands
            .iter()
            .any(|c| c.dynamic || c.text.contains("$ARG"));
    let js_pipe = a.calls.iter().any(|c| c.method == "pipe") && shell_spawned;
    if dup.is_some() && (shell_spawned || a.calls.iter().any(|c| c.is(&["pty.spawn"])))
        || runs_received
        || js_pipe
    {
        let mut h = call_hit(sock, resources::urls(&sock.text));
        h.matched = sock.text.clone();
        return vec![h];
    }
    Vec::new()
}

/// Paths the code downloads into.
fn downloaded_paths(a: &Analysis) -> Vec<String> {
    let fetches = any_call(a, |c| {
        m::is_download(c)
            || c.name.starts_with("requests.")
            || c.name.starts_with("urllib")
            || c.name == "fetch"
            || c.name.starts_with("httpx.")
    });
    if !fetches {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in &a.calls {
        // urlretrieve(url, PATH), open(PATH, 'w') in code that downloads
        let path = if c.method == "urlretrieve" {
            c.arg(1).and_then(|x| x.value.text())
        } else if m::is_file_write(c) {
            c.arg(0).and_then(|x| x.value.text())
        } else {
            None
        };
        if let Some(p) = path {
            out.push(p.to_string());
        }
    }
    out
}

fn download_then_run(a: &Analysis) -> Vec<Hit> {
    let paths = downloaded_paths(a);
    if paths.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for sc in &a.shell {
        let Some(c) = cmd::view(sc) else { continue };
        let runs = |p: &str| {
            sc.words.first().is_some_and(|w| w == p)
                || (c.prog.starts_with("python")
                    || is_shell_prog(&c.prog)
                    || matches!(c.prog.as_str(), "node" | "perl" | "ruby" | "source" | "."))
                    && c.args.iter().any(|w| w == p)
        };
        if let Some(p) = paths.iter().find(|p| runs(p)) {
            out.push(cmd_hit(&c, vec![resources::file(p)]));
        }
    }
    out
}

fn remote_eval(a: &Analysis) -> Vec<Hit> {
    let fetch = any_call(a, |c| {
        c.name == "fetch"
            || c.name.starts_with("https.")
            || c.name.starts_with("http.")
            || c.name.starts_with("axios")
            || c.name.starts_with("requests.")
            || c.name.starts_with("urllib")
    });
    if !fetch {
        return Vec::new();
    }
    m::calls(a, |c| {
        // `.then(eval)`, `vm.runInThisContext(d)`, `new Function(code)`
        (c.method == "then"
            && c.args
                .iter()
                .any(|x| matches!(&x.value, ArgValue::Name(n) if n == "eval" || n == "Function")))
            || (c.starts_with("vm.")
                && matches!(
                    c.method.as_str(),
                    "runInThisContext" | "runInNewContext" | "runInContext" | "Script"
                ))
            || (c.is(&["Function", "eval", "exec"])
                && c.arg(0).is_some_and(|x| x.value.as_str().is_none()))
    })
}

/// Names of process objects from a listing, and kill calls on them.
fn bulk_kill(a: &Analysis) -> Vec<Hit> {
    let listing = any_call(a, |c| {
        c.is(&[
            "psutil.process_iter",
            "psutil.pids",
            "psutil.Process",
            "ps-list",
            "psList",
            "find-process",
        ]) || (c.is(&["os.listdir", "os.scandir", "glob.glob"])
            && c.str_arg(0).is_some_and(|p| p.starts_with("/proc")))
    }) || any_cmd(a, |c| {
        matches!(c.prog.as_str(), "ps" | "pgrep" | "pidof" | "lsof" | "fuser")
    }) || a.strings.iter().any(|s| {
        let v = s.value.trim_start();
        v.starts_with("ps ") || v.starts_with("pgrep ") || v.starts_with("pidof ")
    });
    let mut out = Vec::new();
    for c in &a.calls {
        let kill_call = m::is_process_kill(c)
            || (matches!(c.method.as_str(), "kill" | "terminate" | "send_signal")
                && c.unresolved_receiver
                && c.args.len() <= 1);
        if !kill_call {
            continue;
        }
        let pid = c
            .arg(0)
            .map(|x| x.text.trim().to_string())
            .unwrap_or_default();
        let everyone = matches!(pid.as_str(), "1" | "-1") || (c.is(&["os.killpg"]) && pid == "0");
        if listing && !c.is(&["os.abort"]) || everyone {
            out.push(call_hit(c, vec!["process:*".to_string()]));
        }
    }
    if listing {
        for sc in &a.shell {
            if let Some(c) = cmd::view(sc)
                && cmd::process_kill(&c)
            {
                out.push(cmd_hit(&c, vec!["process:*".to_string()]));
            }
        }
    }
    out
}

fn untrusted_deserialization(a: &Analysis) -> Vec<Hit> {
    if !has_external_input(a) {
        return Vec::new();
    }
    m::calls(a, |c| {
        m::is_deserialization(c)
            || c.is(&[
                "marshal.loads",
                "marshal.load",
                "shelve.open",
                "jsonpickle.decode",
            ])
    })
}

fn runtime_command(a: &Analysis) -> Vec<Hit> {
    if !has_external_input(a) {
        return Vec::new();
    }
    a.commands
        .iter()
        .filter(|c| {
            let t = c.text.trim_start();
            let whole = t == "$ARG" || t.starts_with("$ARG ") || t == "{}" || t.starts_with("{} ");
            let piped_to_shell = c.dynamic
                && t.split('|')
                    .skip(1)
                    .any(|seg| is_shell_prog(seg.split_whitespace().next().unwrap_or("")));
            whole || piped_to_shell
        })
        .map(|c| Hit::new(c.text.clone()).at(c.span, c.line))
        .collect()
}

const SYSTEM_MARKERS: [&str; 16] = [
    "/etc/",
    "/var/log/",
    "/usr/",
    "/boot/",
    "/root/",
    "/bin/",
    "/sbin/",
    "/lib/",
    ".bashrc",
    ".zshrc",
    ".bash_profile",
    ".profile",
    "authorized_keys",
    "cron",
    "systemd/system",
    "LaunchAgents",
];

fn system_target(p: &str) -> bool {
    resources::is_persistence_path(p)
        || (p.starts_with('/') && SYSTEM_MARKERS.iter().take(8).any(|m| p.starts_with(m)))
        || SYSTEM_MARKERS.iter().skip(8).any(|m| p.contains(m))
}

fn system_write(a: &Analysis) -> Vec<Hit> {
    let literals: Vec<&str> = a
        .strings
        .iter()
        .map(|s| s.value.as_str())
        .filter(|v| v.len() < 256 && system_target(v))
        .collect();
    m::calls(a, |c| {
        let write = m::is_file_write(c)
            || c.is(&[
                "os.truncate",
                "os.chown",
                "os.lchown",
                "shutil.chown",
                "fs.chownSync",
                "fs.chown",
                "fs.truncateSync",
                "fs.truncate",
            ])
            || matches!(c.method.as_str(), "write_text" | "write_bytes");
        // `Path.home().joinpath('.ssh', 'authorized_keys').open('a')`: the path is the receiver
        if c.method == "open"
            && c.arg(0)
                .and_then(|x| x.value.as_str())
                .is_some_and(|m| m.len() <= 3 && m.contains(['w', 'a', 'x', '+']))
        {
            return system_target(&c.text);
        }
        let copy_dest = c.is(&[
            "shutil.copy",
            "shutil.copy2",
            "shutil.copyfile",
            "shutil.move",
            "os.rename",
            "os.replace",
            "fs.copyFileSync",
            "fs.renameSync",
        ]) && c
            .arg(1)
            .and_then(|x| x.value.text())
            .is_some_and(system_target);
        if copy_dest {
            return true;
        }
        if !write {
            return false;
        }
        let path = c.arg(0).and_then(|x| x.value.text());
        match path {
            Some(p) => system_target(p),
            // the path is a name or a call: its text, or a system path the code names
            None => {
                system_target(&c.text)
                    || c.arg(0).is_some_and(|x| system_target(&x.text))
                    || (!literals.is_empty()
                        && c.arg(0)
                            .is_some_and(|x| matches!(x.value, ArgValue::Name(_))))
            }
        }
    })
}

fn native_libc(a: &Analysis) -> Vec<Hit> {
    let native = any_call(a, m::is_native_code) || a.imports.iter().any(|i| i == "ctypes");
    if !native {
        return Vec::new();
    }
    m::calls(a, |c| {
        matches!(
            c.method.as_str(),
            "setuid" | "setgid" | "seteuid" | "system" | "execve" | "execv" | "ptrace" | "mprotect"
        ) && !c.name.starts_with("os.")
            || (c.is(&["ctypes.memmove", "ctypes.memset"])
                && c.arg(0)
                    .is_some_and(|x| matches!(x.value, ArgValue::Num(_))))
    })
}

fn bulk_cloud(a: &Analysis) -> Vec<Hit> {
    let containers_listed = any_call(a, |c| c.name.ends_with("containers.list"));
    let mut out = m::calls(a, |c| {
        matches!(
            c.method.as_str(),
            "attach_user_policy" | "attach_role_policy" | "attach_group_policy" | "put_user_policy"
        ) && (args_text(c).contains("AdministratorAccess") || args_text(c).contains("\"*\""))
    });
    if containers_listed {
        out.extend(m::calls(a, |c| {
            matches!(c.method.as_str(), "remove" | "kill" | "stop") && c.unresolved_receiver
        }));
    }
    out
}

/// A request to localhost / 127.0.0.1 / [::1].
pub(crate) fn is_loopback_call(c: &Call) -> bool {
    let Some(url) = c.arg(0).and_then(|x| x.value.text()) else {
        return false;
    };
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .or_else(|| url.strip_prefix("ws://"))
        .unwrap_or("");
    let host = rest.split(['/', '?']).next().unwrap_or("");
    let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
    matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "0.0.0.0")
}

/// A deletion whose target is regenerable output inside the project (build directories,
/// caches, logs and outputs given as relative paths): cleanup, at most MEDIUM.
pub(crate) fn is_regenerable_delete(c: &Call) -> bool {
    match c.arg(0).or_else(|| c.kwarg("path")).map(|x| &x.value) {
        Some(ArgValue::Str(p)) => regenerable_path(p),
        // a loop's variable over a literal list (`for d of ["dist", ".next"]`): every entry
        Some(ArgValue::List(items)) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|v| v.as_str().is_some_and(regenerable_path))
        }
        // a name joined onto a literal directory (`"tmp/" + f`, `f"build/{name}"`): inside it
        Some(ArgValue::Dynamic(p)) => p
            .split_once("{}")
            .and_then(|(prefix, _)| prefix.rsplit_once('/'))
            .is_some_and(|(dir, _)| !dir.is_empty() && regenerable_path(dir)),
        _ => false,
    }
}

/// A relative path into build output, a cache or the code's own output files.
fn regenerable_path(p: &str) -> bool {
    let p = p.trim().trim_start_matches("./");
    if p.is_empty()
        || p.starts_with('/')
        || p.starts_with('~')
        || p.contains("..")
        || p.contains('$')
    {
        return false;
    }
    // the model's build outputs and caches, and the names code gives its own output
    const OWN_OUTPUT: [&str; 5] = ["output", "outputs", "cache", "temp", ".tmp"];
    let first = p.split('/').next().unwrap_or(p);
    let base = p.rsplit('/').next().unwrap_or(p);
    riskgate_model::effect::BUILD_OUTPUTS.contains(&first)
        || OWN_OUTPUT.contains(&first)
        || base.starts_with("out.")
        || base.starts_with("output.")
        || [".pyc", ".o", ".log", ".tmp", ".out"]
            .iter()
            .any(|e| base.ends_with(e))
}

/// The code walks only regenerable output (`Path('.').rglob('__pycache__')`,
/// `Path('logs').glob('*.log')`, relative paths): a deletion of what it yields (a loop variable)
/// is cleanup.
pub(crate) fn walks_regenerable_only(a: &Analysis) -> bool {
    let globs: Vec<&Call> = a
        .calls
        .iter()
        .filter(|c| matches!(c.method.as_str(), "glob" | "rglob" | "iglob" | "walk"))
        .collect();
    !globs.is_empty()
        && globs.iter().all(|g| {
            let relative = !g.text.contains("'/")
                && !g.text.contains("\"/")
                && !g.text.contains('~')
                && !g.text.contains("home");
            let pattern = g.str_arg(0).unwrap_or("");
            let probe = Call {
                args: g.args.clone(),
                ..(*g).clone()
            };
            relative
                && (is_regenerable_delete(&probe)
                    || pattern.ends_with(".log")
                    || pattern.ends_with(".pyc")
                    || pattern == "__pycache__")
        })
}

/// The deletion's target is a loop variable (`shutil.rmtree(p)`, `p.unlink()`).
pub(crate) fn target_is_variable(c: &Call) -> bool {
    match c.arg(0) {
        None => c.unresolved_receiver,
        Some(x) => matches!(x.value, ArgValue::Name(_)),
    }
}

/// Functions replaced by `mock.patch('NAME')` in the code (test doubles, not real calls).
pub(crate) fn mocked(a: &Analysis) -> Vec<String> {
    a.calls
        .iter()
        .filter(|c| c.name.ends_with("mock.patch") || c.name == "patch")
        .filter_map(|c| c.str_arg(0).map(str::to_string))
        .collect()
}
