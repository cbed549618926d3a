//! `riskgate doctor`: is riskgate wired in, and will it work? For every agent of
//! `riskgate_hooks::agents::AGENTS`: whether it is installed (its program on `PATH`; its
//! directory under home is shown too), whether riskgate's hook is registered in its project and user
//! files (and whether the command that hook runs exists), which answers it takes and whether
//! it fails open or closed when the hook fails. Then the hook server (on or off, running,
//! other servers of this user), whether the state and data directories are writable, and the
//! policy files found and whether they are valid. Exit 1 when something is broken: an
//! invalid policy, a directory that cannot be written, a hook file that cannot be read, a
//! registered hook whose program is missing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use riskgate_hooks::agents::{AGENTS, AgentInfo};
use riskgate_hooks::install::{self, Scope};
use riskgate_hooks::{AskSupport, server};
use serde_json::{Value, json};

use crate::cmd::common::PolicyArgs;
use crate::output::Format;

/// Arguments of `riskgate doctor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// What was found, and what is broken.
struct Report {
    problems: Vec<String>,
    notes: Vec<String>,
}

fn on_path(program: &str) -> Option<PathBuf> {
    if program.contains('/') || program.contains('\\') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|d| {
        let c = d.join(program);
        if c.is_file() {
            return Some(c);
        }
        let exe = d.join(format!("{program}.exe"));
        exe.is_file().then_some(exe)
    })
}

fn ask_text(a: AskSupport) -> &'static str {
    match a {
        AskSupport::Native => "asks its user",
        AskSupport::ByPolicy => "denied (asked with hooks.ask_fallback: ask)",
        AskSupport::Never => "denied (the agent cannot ask)",
    }
}

fn hook_file(
    info: &AgentInfo,
    scope: Scope,
    project: &Path,
    home: Option<&Path>,
    r: &mut Report,
) -> Value {
    let scope_name = match scope {
        Scope::Project => "project",
        Scope::User => "user",
    };
    let Some(home) = home.or((scope == Scope::Project).then_some(Path::new(""))) else {
        return json!({"scope": scope_name, "path": null, "error": "HOME is not set"});
    };
    let path = install::settings_path(info.agent, scope, project, home, |v| std::env::var(v).ok());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            r.problems
                .push(format!("{}: cannot read ({e})", path.display()));
            return json!({"scope": scope_name, "path": path, "exists": true,
                "registered": null, "error": e.to_string()});
        }
    };
    let Some(text) = text else {
        return json!({"scope": scope_name, "path": path, "exists": false, "registered": false});
    };
    match install::registered(info.agent, &path, &text) {
        Ok(Some(command)) => {
            let program = install::split_words(&command).into_iter().next();
            let found = program.as_deref().and_then(on_path);
            if found.is_none() {
                r.problems.push(format!(
                    "{}: the hook runs `{command}`, but {} is not found",
                    path.display(),
                    program.as_deref().unwrap_or("its program")
                ));
            }
            let how = match info.on_failure {
                riskgate_hooks::agents::OnFailure::Closed => None,
                riskgate_hooks::agents::OnFailure::Open => Some("lets the tool call run"),
                riskgate_hooks::agents::OnFailure::Partly => Some("may let the tool call run"),
            };
            if let Some(how) = how {
                r.notes.push(format!(
                    "{}: a hook that crashes or times out {how} ({}); riskgate cannot stop a call it never answered",
                    info.title, info.failure
                ));
            }
            json!({"scope": scope_name, "path": path, "exists": true, "registered": true,
                "command": command, "program_found": found.is_some()})
        }
        Ok(None) => {
            json!({"scope": scope_name, "path": path, "exists": true, "registered": false})
        }
        Err(e) => {
            r.problems.push(e.to_string());
            json!({"scope": scope_name, "path": path, "exists": true, "registered": null,
                "error": e.to_string()})
        }
    }
}

fn agents(project: &Path, home: Option<&Path>, r: &mut Report) -> Vec<Value> {
    AGENTS
        .iter()
        .map(|info| {
            let programs: Vec<PathBuf> = info.programs.iter().filter_map(|p| on_path(p)).collect();
            let dir = home.map(|h| h.join(info.home_dir)).filter(|d| d.is_dir());
            let hooks = vec![
                hook_file(info, Scope::Project, project, home, r),
                hook_file(info, Scope::User, project, home, r),
            ];
            json!({
                "agent": info.name,
                "title": info.title,
                "installed": !programs.is_empty(),
                "programs": programs,
                "home_dir": dir,
                "events": info.events,
                "answers": info.answers,
                "when_a_person_must_decide": ask_text(info.ask),
                "on_hook_failure": info.on_failure.as_str(),
                "failure": info.failure,
                "hooks": hooks,
                "protocol_source": info.source,
            })
        })
        .collect()
}

fn hook_server() -> Value {
    let enabled = server::enabled();
    let own = std::env::current_exe()
        .ok()
        .and_then(|exe| server::socket_path(&exe));
    let mut servers = Vec::new();
    for sock in server::known_sockets(own.as_deref()) {
        let state = probe(&sock);
        let this = own.as_deref() == Some(sock.as_path());
        if state == "no server" && !this {
            continue;
        }
        servers.push(json!({"socket": sock, "this_environment": this, "state": state}));
    }
    json!({"enabled": enabled, "socket": own, "servers": servers})
}

#[cfg(unix)]
fn probe(sock: &Path) -> String {
    match server::probe(sock) {
        Ok(()) => "running".into(),
        Err(server::CallError::NoServer) => "no server".into(),
        Err(e) => e.to_string(),
    }
}

#[cfg(not(unix))]
fn probe(_sock: &Path) -> String {
    "no server".into()
}

/// Whether `dir` can be written: created if missing, a file written and removed.
fn writable(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create it: {e}"))?;
    let probe = dir.join(format!(".riskgate-doctor-{}", std::process::id()));
    std::fs::write(&probe, b"riskgate doctor\n").map_err(|e| format!("cannot write in it: {e}"))?;
    std::fs::remove_file(&probe).map_err(|e| format!("cannot remove {}: {e}", probe.display()))
}

fn directories(policy: Option<&riskgate::gate::Policy>, r: &mut Report) -> Vec<Value> {
    use riskgate::gate::paths;
    let (state, data) = match policy {
        Some(p) => (p.state_dir().to_path_buf(), p.data_dir().to_path_buf()),
        None => (
            paths::state_dir_from_env().unwrap_or_else(paths::default_state_dir),
            paths::data_dir_from_env().unwrap_or_else(paths::default_data_dir),
        ),
    };
    [("state", state), ("data", data)]
        .into_iter()
        .map(|(what, dir)| match writable(&dir) {
            Ok(()) => json!({"what": what, "path": dir, "writable": true}),
            Err(e) => {
                r.problems
                    .push(format!("the {what} directory {}: {e}", dir.display()));
                json!({"what": what, "path": dir, "writable": false, "error": e})
            }
        })
        .collect()
}

fn text_report(v: &Value) -> String {
    let mut out = String::new();
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    out.push_str("agents\n");
    for a in v["agents"].as_array().into_iter().flatten() {
        let installed = if a["installed"] == true {
            "installed"
        } else if !a["home_dir"].is_null() {
            "not on PATH (its directory exists)"
        } else {
            "not found"
        };
        out.push_str(&format!(
            "  {:<22} {installed}; answers: {}; needs a person: {}; on a hook failure: {}\n",
            s(&a["title"]),
            a["answers"]
                .as_array()
                .map(|l| l.iter().map(s).collect::<Vec<_>>().join(", "))
                .unwrap_or_default(),
            s(&a["when_a_person_must_decide"]),
            s(&a["failure"]),
        ));
        for h in a["hooks"].as_array().into_iter().flatten() {
            let state = match (&h["registered"], &h["exists"]) {
                (Value::Bool(true), _) => format!("riskgate hook registered: {}", s(&h["command"])),
                (Value::Bool(false), Value::Bool(true)) => "no riskgate hook".to_string(),
                (Value::Bool(false), _) => "no file".to_string(),
                _ => format!("unreadable: {}", s(&h["error"])),
            };
            out.push_str(&format!(
                "      {:<7} {} — {state}\n",
                s(&h["scope"]),
                s(&h["path"])
            ));
        }
    }
    let hs = &v["hook_server"];
    out.push_str(&format!(
        "hook server\n  {}; socket {}\n",
        if hs["enabled"] == true {
            "on"
        } else {
            "off (RISKGATE_HOOK_SERVER=0, or not Unix)"
        },
        if hs["socket"].is_null() {
            "none".to_string()
        } else {
            s(&hs["socket"])
        }
    ));
    for srv in hs["servers"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "  {}{}: {}\n",
            s(&srv["socket"]),
            if srv["this_environment"] == true {
                " (this environment)"
            } else {
                ""
            },
            s(&srv["state"])
        ));
    }
    out.push_str("directories\n");
    for d in v["directories"].as_array().into_iter().flatten() {
        let ok = if d["writable"] == true {
            "writable".to_string()
        } else {
            s(&d["error"])
        };
        out.push_str(&format!(
            "  {:<5} {} — {ok}\n",
            s(&d["what"]),
            s(&d["path"])
        ));
    }
    out.push_str("policy\n");
    let p = &v["policy"];
    for f in p["files"].as_array().into_iter().flatten() {
        out.push_str(&format!("  {}\n", s(f)));
    }
    if p["valid"] == true {
        out.push_str("  valid\n");
    } else {
        out.push_str(&format!("  INVALID: {}\n", s(&p["error"])));
    }
    for n in v["notes"].as_array().into_iter().flatten() {
        out.push_str(&format!("note: {}\n", s(n)));
    }
    for n in v["problems"].as_array().into_iter().flatten() {
        out.push_str(&format!("problem: {}\n", s(n)));
    }
    out.push_str(if v["ok"] == true {
        "no problem found\n"
    } else {
        "something is broken (see the problems above)\n"
    });
    out
}

/// Run `riskgate doctor`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut r = Report {
        problems: Vec::new(),
        notes: Vec::new(),
    };
    let project = crate::cmd::install::project_dir()?;
    let home = riskgate::gate::paths::home_dir();
    let agents = agents(&project, home.as_deref(), &mut r);
    let policy = args.policy.load();
    let policy_json = match &policy {
        Ok(p) => json!({
            "valid": true,
            "files": p.files().iter().map(|f| f.to_string()).collect::<Vec<_>>(),
            "warnings": p.warnings(),
        }),
        Err(e) => {
            r.problems.push(format!("the policy is invalid: {e:#}"));
            json!({"valid": false, "files": [], "error": format!("{e:#}")})
        }
    };
    let dirs = directories(policy.as_ref().ok(), &mut r);
    r.notes.sort();
    r.notes.dedup();
    let report = json!({
        "ok": r.problems.is_empty(),
        "problems": r.problems,
        "notes": r.notes,
        "agents": agents,
        "hook_server": hook_server(),
        "directories": dirs,
        "policy": policy_json,
    });
    match args.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => out!("{}", text_report(&report)),
    }
    Ok(if report["ok"] == true {
        ExitCode::SUCCESS
    } else {
        crate::exit::Code::Error.into()
    })
}
