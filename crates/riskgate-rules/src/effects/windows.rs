//! Effects of PowerShell cmdlets and Windows programs whose effect depends on their words (the
//! file cmdlets are described in `data/effects.yaml`): `Stop-Process` (a critical process,
//! every process), services stopped, disabled or deleted (`Stop-Service`, `Set-Service
//! -StartupType Disabled`, `sc stop|delete|config`), disks and volumes (`Format-Volume`,
//! `Clear-Disk`, `format C:`, `diskpart`), Defender and firewall switched off, event logs
//! cleared (`Clear-EventLog`, `wevtutil cl`), the registry (`reg add|delete`), ownership and
//! ACLs (`takeown`, `icacls`), `taskkill`, downloads written to disk (`-OutFile`), and unknown
//! `Verb-Noun` cmdlets read from their verb and noun (`Remove-AzResourceGroup -Name prod-rg`).

use riskgate_model::effect::{Effect, EffectKind, Scope, Target, TargetClass};

use super::infer::{Found, file_scope, found, path_target};
use crate::matcher::CommandView;

/// Windows processes whose end stops the machine or its security (lower case, no `.exe`).
const CRITICAL_PROCESSES: &[&str] = &[
    "lsass",
    "csrss",
    "wininit",
    "winlogon",
    "smss",
    "services",
    "svchost",
    "system",
    "msmpeng",
    "mssense",
    "sense",
    "securityhealthservice",
    "sqlservr",
    "w3wp",
    "explorer",
    "dwm",
    "spoolsv",
    "lsaiso",
];

/// Services whose stop or removal weakens security (lower case).
const SECURITY_SERVICES: &[&str] = &[
    "windefend",
    "wdnissvc",
    "wdfilter",
    "wdboot",
    "sense",
    "mpssvc",
    "wscsvc",
    "securityhealthservice",
    "eventlog",
    "bfe",
    "wuauserv",
    "sysmon",
    "sysmon64",
    "vss",
    "wbengine",
    "sdrsvc",
    "appidsvc",
    "wecsvc",
    "diagtrack",
];

fn target(class: TargetClass, text: &str) -> Target {
    Target {
        class,
        text: text.to_string(),
        environment: None,
    }
}

fn val<'a>(v: &'a CommandView<'_>, name: &str) -> Option<&'a str> {
    v.cmd.flag_value(name)
}

fn pos<'a>(v: &'a CommandView<'_>) -> Vec<&'a str> {
    v.positionals.iter().map(|p| p.text.as_ref()).collect()
}

fn process_class(name: &str) -> TargetClass {
    let n = name.trim_matches(['"', '\'']).to_ascii_lowercase();
    let n = n.strip_suffix(".exe").unwrap_or(&n);
    if n == "*" || n.is_empty() {
        TargetClass::AllProcesses
    } else if CRITICAL_PROCESSES.contains(&n) {
        TargetClass::SystemDaemon
    } else {
        TargetClass::OneProcess
    }
}

fn service_effect(name: &str) -> (EffectKind, TargetClass) {
    let n = name.trim_matches(['"', '\'']).to_ascii_lowercase();
    if n == "*" {
        (EffectKind::Stop, TargetClass::AllProcesses)
    } else if SECURITY_SERVICES.contains(&n.as_str())
        || [
            "firewall",
            "defender",
            "antivirus",
            "security center",
            "event log",
        ]
        .iter()
        .any(|w| n.contains(w))
    {
        // by its name or its display name (`net stop "Windows Firewall"`)
        (EffectKind::Security, TargetClass::Machine)
    } else {
        (EffectKind::Stop, TargetClass::SystemDaemon)
    }
}

/// Services whose stop takes a data or directory server offline for everyone who uses it
/// (database engines, the web server, Active Directory, DNS, Exchange): prefixes, lower case.
const SERVER_SERVICES: &[&str] = &[
    "mssql",
    "sqlserveragent",
    "sqlagent",
    "mysql",
    "mariadb",
    "postgresql",
    "oracleservice",
    "mongodb",
    "redis",
    "w3svc",
    "was",
    "iisadmin",
    "ntds",
    "dns",
    "dhcpserver",
    "kdc",
    "netlogon",
    "adws",
    "msexchange",
    "elasticsearch",
    "rabbitmq",
];

/// What stopping service `name` adds to a system daemon's stop (a server others rely on).
fn service_weight(name: &str) -> u32 {
    let n = name.trim_matches(['"', '\'']).to_ascii_lowercase();
    if SERVER_SERVICES.iter().any(|p| n.starts_with(p)) {
        25
    } else {
        0
    }
}

/// A stop, disable or delete of service `name`; `delete`: the service is removed (its
/// registration is a persistence point of the machine: nothing starts it again).
pub(super) fn service_found(name: &str, delete: bool) -> Found {
    let (kind, class) = service_effect(name);
    if delete && kind == EffectKind::Stop && class == TargetClass::SystemDaemon {
        return found(Effect::new(
            0,
            EffectKind::Delete,
            target(TargetClass::Persistence, &format!("service {name}")),
        ));
    }
    Found {
        effect: Effect::new(0, kind, target(class, name)),
        weight: if kind == EffectKind::Stop {
            service_weight(name)
        } else {
            0
        },
        guessed: false,
    }
}

/// Ports of remote administration and data services (and "any").
const EXPOSED_PORTS: &[&str] = &[
    "any", "*", "22", "23", "135", "139", "445", "1433", "3306", "3389", "5432", "5900", "5985",
    "5986", "6379", "27017",
];

/// Whether firewall rule words (`name=value` pairs, lower case) open an inbound port of remote
/// administration or data to any address: `dir=in action=allow localport=3389
/// remoteip=any`, `-Direction=Inbound -Action=Allow -Protocol=Any -RemoteAddress=Any`.
fn opens_inbound(pairs: &[(String, String)]) -> bool {
    let get = |keys: &[&str]| {
        pairs
            .iter()
            .find(|(k, _)| keys.contains(&k.as_str()))
            .map(|(_, v)| v.as_str())
    };
    let inbound = get(&["dir", "-direction"]).is_none_or(|d| d.starts_with("in"));
    let allow = get(&["action", "-action"]) == Some("allow");
    let remote_any = get(&["remoteip", "-remoteaddress"])
        .is_none_or(|r| matches!(r, "any" | "*" | "0.0.0.0/0" | "internet"));
    let port = get(&["localport", "-localport"]);
    let protocol_any = get(&["protocol", "-protocol"]).is_some_and(|p| p == "any");
    let exposed = match port {
        Some(p) => p.split(',').any(|x| EXPOSED_PORTS.contains(&x.trim())),
        None => protocol_any,
    };
    inbound && allow && remote_any && exposed
}

/// `name=value` and `-Name=value` words, lower case.
fn pairs(v: &CommandView<'_>) -> Vec<(String, String)> {
    v.cmd
        .args
        .iter()
        .filter_map(|a| {
            let (k, x) = a.text.split_once('=')?;
            Some((
                k.to_ascii_lowercase(),
                x.trim_matches(['"', '\'']).to_ascii_lowercase(),
            ))
        })
        .collect()
}

fn security(what: &str) -> Found {
    found(Effect::new(
        0,
        EffectKind::Security,
        target(TargetClass::Machine, what),
    ))
}

/// Windows programs that switch off a protection of the machine (recovery, disk encryption,
/// antivirus definitions) or open it: true when `program` is one of them.
fn native_security(v: &CommandView<'_>, program: &str, out: &mut Vec<Found>) -> bool {
    let p: Vec<String> = v
        .positionals
        .iter()
        .map(|x| x.text.to_ascii_lowercase())
        .collect();
    let flag = |f: &str| {
        v.cmd.args.iter().any(|a| {
            a.text.eq_ignore_ascii_case(f)
                || a.text
                    .to_ascii_lowercase()
                    .starts_with(&format!("{}=", f.to_ascii_lowercase()))
        })
    };
    match program {
        "reagentc" => {
            if flag("-disable") {
                out.push(security("Windows Recovery Environment"));
            }
        }
        "mpcmdrun" => {
            if flag("-removedefinitions") {
                out.push(security("Microsoft Defender definitions"));
            }
        }
        "manage-bde" => {
            // switched off, or its key protectors deleted (the volume's keys then sit in the
            // clear on disk)
            if flag("-off")
                || flag("-disable")
                || p.first().is_some_and(|w| w == "-off")
                || flag("-protectors") && flag("-delete")
            {
                out.push(security("BitLocker"));
            }
        }
        "netsh" => {
            let words: Vec<&str> = p.iter().map(String::as_str).collect();
            // the old syntax: `netsh firewall add portopening PROTOCOL PORT NAME [MODE]
            // [SCOPE]` (`protocol=TCP port=3389` as pairs too), `… set opmode disable`
            let port = pairs(v)
                .into_iter()
                .find(|(k, _)| k == "port")
                .map(|(_, x)| x)
                .or_else(|| words.get(4).map(|s| s.to_string()));
            if words.starts_with(&["firewall", "add", "portopening"])
                && port.is_some_and(|p| EXPOSED_PORTS.contains(&p.as_str()))
                && !words.contains(&"disable")
                || words.starts_with(&["firewall", "set", "opmode"])
                    && (words.contains(&"disable") || pairs(v).iter().any(|(_, x)| x == "disable"))
            {
                out.push(security("Windows Firewall"));
            } else if words.starts_with(&["advfirewall", "firewall", "add"])
                || words.starts_with(&["firewall", "add"])
            {
                if opens_inbound(&pairs(v)) {
                    out.push(security("Windows Firewall"));
                }
            } else if words.starts_with(&["advfirewall", "reset"]) {
                out.push(security("Windows Firewall"));
            }
        }
        "vssadmin" => {
            // a shadow storage shrunk to megabytes deletes the shadow copies that no longer fit
            if p.first().is_some_and(|w| w == "resize")
                && v.cmd.args.iter().any(|a| {
                    a.text.split_once('=').is_some_and(|(k, x)| {
                        k.eq_ignore_ascii_case("-maxsize") && {
                            let x = x.to_ascii_lowercase();
                            x.ends_with("mb")
                                || x.ends_with("kb")
                                || x.ends_with('b') && !x.ends_with("gb") && !x.ends_with("tb")
                        }
                    })
                })
            {
                out.push(found(Effect::new(
                    0,
                    EffectKind::Delete,
                    target(TargetClass::Backups, "shadow copies"),
                )));
            }
        }
        "robocopy" => {
            // `/MIR` and `/PURGE` delete what the source does not have: from an empty source,
            // everything under the destination
            if let (true, Some(dest)) = (flag("-mir") || flag("-purge"), v.positionals.get(1)) {
                let e = Effect::new(0, EffectKind::Delete, path_target(&dest.text))
                    .with_scope(Scope::Recursive);
                out.push(found(e));
            }
        }
        _ => return false,
    }
    true
}

/// The extra readings of a file cmdlet described in `data/effects.yaml` (called by `infer`
/// after its described effect): a copy to another host's share, `Set-Acl` granting everyone
/// access (see `winfiles`).
pub(crate) fn share_copy(v: &CommandView<'_>, out: &mut Vec<Found>) {
    super::winfiles::share_copy(v, out);
    super::winfiles::acl_grants(v, out);
}

fn forced(v: &CommandView<'_>, e: Effect) -> Effect {
    if v.has_flag("-Force") || v.has_flag("-f") || v.has_flag("-Confirm=false") {
        e.with_scope(Scope::Forced)
    } else {
        e
    }
}

fn truthy(t: &str) -> bool {
    matches!(t.to_ascii_lowercase().as_str(), "true" | "1" | "$true")
}

/// Effects of a cmdlet or Windows program; true when the program was one of them.
pub(crate) fn effects(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let program = v.cmd.program.as_str();
    let lower = program.to_ascii_lowercase();
    if super::winwmi::wmi_effects(v, out) || native_security(v, lower.as_str(), out) {
        return true;
    }
    let mut push = |e: Effect| out.push(found(e));
    match program {
        "net" | "net1" => {
            if super::winident::net_accounts(v, out) {
                return true;
            }
            let p = pos(v);
            if let (Some(&"stop"), Some(name)) = (p.first(), p.get(1)) {
                let mut f = service_found(name, false);
                if v.has_flag("-y") {
                    f.effect = f.effect.with_scope(Scope::Forced);
                }
                out.push(f);
            }
            true
        }
        // Pester: `Mock NAME {…}` replaces a command in a test and `Should -Invoke NAME`
        // asserts it was called; `Describe 'NAME' {…}` and its blocks name a test (their
        // blocks' commands are read on their own): the names are data, nothing they name runs
        "Mock"
        | "Should"
        | "Assert-MockCalled"
        | "Assert-VerifiableMock"
        | "Describe"
        | "Context"
        | "It"
        | "BeforeAll"
        | "AfterAll"
        | "BeforeEach"
        | "AfterEach"
        | "InModuleScope" => true,
        // a package source over plain HTTP or at a bare address: what is installed from it
        // can be anyone's code (`Register-PSRepository -SourceLocation http://203.0.113.5/feed`)
        "Register-PSRepository"
        | "Set-PSRepository"
        | "Register-PackageSource"
        | "Set-PackageSource"
        | "Register-PSResourceRepository"
        | "Set-PSResourceRepository" => {
            let insecure = v.cmd.args.iter().any(|a| {
                let Some((k, x)) = a.text.split_once('=') else {
                    return false;
                };
                let k = k.to_ascii_lowercase();
                let x = x.trim_matches(['"', '\'']).to_ascii_lowercase();
                (k.ends_with("location") || k == "-uri" || k == "-source")
                    && (x.starts_with("http://")
                        || x.strip_prefix("https://").is_some_and(|h| {
                            h.split(['/', ':'])
                                .next()
                                .is_some_and(|host| host.parse::<std::net::IpAddr>().is_ok())
                        }))
            }) || v
                .positionals
                .iter()
                .any(|p| p.text.to_ascii_lowercase().starts_with("http://"));
            if insecure {
                push(Effect::new(
                    0,
                    EffectKind::Security,
                    target(TargetClass::Machine, "package source over plain HTTP"),
                ));
            }
            true
        }
        "Disable-BitLocker" | "Suspend-BitLocker" | "Clear-BitLockerAutoUnlock" => {
            push(Effect::new(
                0,
                EffectKind::Security,
                target(TargetClass::Machine, "BitLocker"),
            ));
            true
        }
        "Remove-NetFirewallRule" | "Disable-NetFirewallRule" => {
            // every rule (`-All`, or nothing named): the firewall's whole policy
            let named = ["-Name", "-DisplayName", "-Group", "-DisplayGroup"]
                .iter()
                .any(|f| val(v, f).is_some())
                || !v.positionals.is_empty()
                || v.stdin_program.is_some();
            if v.has_flag("-All") || !named {
                push(Effect::new(
                    0,
                    EffectKind::Security,
                    target(TargetClass::Machine, "Windows Firewall rules"),
                ));
            }
            true
        }
        "New-NetFirewallRule" | "Set-NetFirewallRule" => {
            if opens_inbound(&pairs(v)) {
                push(Effect::new(
                    0,
                    EffectKind::Security,
                    target(TargetClass::Machine, "Windows Firewall"),
                ));
            }
            true
        }
        "Stop-Process" | "taskkill" | "tskill" => {
            let mut names: Vec<String> = Vec::new();
            for flag in ["-Name", "-ProcessName", "-im"] {
                if let Some(n) = val(v, flag) {
                    names.extend(n.split(',').map(str::to_string));
                }
            }
            if program == "taskkill" {
                // `taskkill /im x.exe`: the value follows the switch as a positional
                names.extend(
                    v.positionals
                        .iter()
                        .filter(|p| p.after_flag)
                        .map(|p| p.text.to_string()),
                );
            }
            if v.has_flag("-All") {
                names.push("*".into());
            }
            if names.is_empty() && (val(v, "-Id").is_some() || !v.positionals.is_empty()) {
                names.push("(one process)".into());
            }
            for n in names.iter().take(8) {
                let e = Effect::new(0, EffectKind::Stop, target(process_class(n), n));
                push(forced(v, e));
            }
            true
        }
        "Stop-Service" | "Suspend-Service" | "Remove-Service" | "Set-Service" => {
            if program == "Set-Service"
                && !val(v, "-StartupType").is_some_and(|t| t.eq_ignore_ascii_case("disabled"))
                && !val(v, "-Status").is_some_and(|t| t.eq_ignore_ascii_case("stopped"))
            {
                return true;
            }
            let mut names: Vec<String> = pos(v).iter().map(|s| s.to_string()).collect();
            names.extend(val(v, "-Name").map(str::to_string));
            names.extend(val(v, "-DisplayName").map(str::to_string));
            if v.has_flag("-All") {
                names.push("*".into());
            }
            for n in names.iter().flat_map(|n| n.split(',')).take(8) {
                let mut f = service_found(n, program == "Remove-Service");
                f.effect = forced(v, f.effect);
                out.push(f);
            }
            true
        }
        "sc" => {
            let p = pos(v);
            if let (Some(verb), Some(name)) = (p.first(), p.get(1))
                && matches!(*verb, "stop" | "delete" | "config" | "pause")
            {
                let disables = *verb != "config" || p.contains(&"disabled");
                if disables {
                    out.push(service_found(name, *verb == "delete"));
                }
            }
            true
        }
        "Format-Volume" | "Clear-Disk" | "Initialize-Disk" | "Remove-Partition" | "format"
        | "diskpart" => {
            if program == "diskpart" {
                return true;
            }
            let what = val(v, "-DriveLetter")
                .or(val(v, "-Number"))
                .or_else(|| pos(v).first().copied())
                .unwrap_or("(disk)");
            let kind = if program == "Remove-Partition" {
                EffectKind::Delete
            } else {
                EffectKind::Overwrite
            };
            push(forced(
                v,
                Effect::new(0, kind, target(TargetClass::Device, what)),
            ));
            true
        }
        "Set-MpPreference" | "Add-MpPreference" => {
            let off = v.cmd.args.iter().any(|a| {
                let t = a.text.as_str();
                (t.starts_with("-Disable") && t.split_once('=').is_none_or(|(_, x)| truthy(x)))
                    || t.starts_with("-Exclusion")
                    || t.eq_ignore_ascii_case("-MAPSReporting=0")
                    || t.eq_ignore_ascii_case("-EnableControlledFolderAccess=Disabled")
                    || t.eq_ignore_ascii_case("-PUAProtection=Disabled")
            });
            if off {
                push(Effect::new(
                    0,
                    EffectKind::Security,
                    target(TargetClass::Machine, "Microsoft Defender"),
                ));
            }
            true
        }
        "Set-NetFirewallProfile" => {
            if val(v, "-Enabled")
                .is_some_and(|x| !truthy(x) && !x.eq_ignore_ascii_case("notconfigured"))
                || val(v, "-DefaultInboundAction").is_some_and(|x| x.eq_ignore_ascii_case("allow"))
            {
                push(Effect::new(
                    0,
                    EffectKind::Security,
                    target(TargetClass::Machine, "Windows Firewall"),
                ));
            }
            true
        }
        "Clear-EventLog" | "Remove-EventLog" => {
            let log = val(v, "-LogName")
                .or_else(|| pos(v).first().copied())
                .unwrap_or("(event logs)");
            push(Effect::new(
                0,
                EffectKind::Delete,
                target(TargetClass::Logs, log),
            ));
            true
        }
        "wevtutil" => {
            let p = pos(v);
            if matches!(p.first(), Some(&("cl" | "clear-log"))) {
                let log = p.get(1).copied().unwrap_or("(event log)");
                push(Effect::new(
                    0,
                    EffectKind::Delete,
                    target(TargetClass::Logs, log),
                ));
            }
            true
        }
        "reg" => {
            let p = pos(v);
            let (Some(verb), Some(key)) = (p.first(), p.get(1)) else {
                return true;
            };
            let kind = match *verb {
                "delete" => EffectKind::Delete,
                "add" | "import" | "restore" | "copy" => EffectKind::Modify,
                _ => return true,
            };
            push(forced(v, Effect::new(0, kind, path_target(key))));
            true
        }
        "takeown" | "icacls" | "cacls" => {
            // the path: `/f PATH` for takeown, the first positional for icacls
            let path = if program == "takeown" {
                val(v, "-f").or_else(|| {
                    v.positionals
                        .iter()
                        .find(|p| p.after_flag)
                        .map(|p| p.text.as_ref())
                })
            } else {
                pos(v).first().copied()
            };
            let loosens = program == "takeown"
                || v.cmd.args.iter().any(|a| {
                    let l = a.text.to_ascii_lowercase();
                    l.starts_with("-grant")
                        || l.starts_with("-setowner")
                        || l.starts_with("-reset")
                        || l.contains("everyone")
                        || l.contains(":f")
                });
            if let (Some(p), true) = (path, loosens) {
                let e = file_scope(
                    v,
                    Effect::new(0, EffectKind::Permissions, path_target(p)),
                    p,
                );
                let e = if v.has_flag("-r") || v.has_flag("-t") {
                    e.with_scope(Scope::Recursive)
                } else {
                    e
                };
                out.push(Found {
                    effect: e,
                    weight: super::score::LOOSENS,
                    guessed: false,
                });
            }
            true
        }
        "Invoke-WebRequest" | "Invoke-RestMethod" | "Start-BitsTransfer" => {
            let dest = val(v, "-OutFile").or(if program == "Start-BitsTransfer" {
                pos(v).get(1).copied()
            } else {
                None
            });
            // an upload's destination is a URL, not a file written here
            if let Some(p) = dest.filter(|p| !p.contains("://")) {
                push(Effect::new(0, EffectKind::Overwrite, path_target(p)));
            }
            // the request itself is rated like curl's (see `infer::http_effects`)
            false
        }
        _ => super::winverbs::unknown_cmdlet(v, out),
    }
}
