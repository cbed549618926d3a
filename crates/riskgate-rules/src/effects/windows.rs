//! Effects of PowerShell cmdlets and Windows programs whose effect depends on their words (the
//! file cmdlets are described in `data/effects.yaml`): `Stop-Process` (a critical process,
//! every process), services stopped, disabled or deleted (`Stop-Service`, `Set-Service
//! -StartupType Disabled`, `sc stop|delete|config`), disks and volumes (`Format-Volume`,
//! `Clear-Disk`, `format C:`, `diskpart`), Defender and firewall switched off, event logs
//! cleared (`Clear-EventLog`, `wevtutil cl`), the registry (`reg add|delete`), ownership and
//! ACLs (`takeown`, `icacls`), `taskkill`, downloads written to disk (`-OutFile`), and unknown
//! `Verb-Noun` cmdlets read from their verb and noun (`Remove-AzResourceGroup -Name prod-rg`).

use riskgate_model::effect::{Effect, EffectKind, Scope, Target, TargetClass, classify_env};

use super::infer::{Found, file_scope, found, path_target};
use super::table;
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
    } else if SECURITY_SERVICES.contains(&n.as_str()) {
        (EffectKind::Security, TargetClass::Machine)
    } else {
        (EffectKind::Stop, TargetClass::SystemDaemon)
    }
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
    let mut push = |e: Effect| out.push(found(e));
    match program {
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
                let (kind, class) = service_effect(n);
                let kind = if program == "Remove-Service" && kind == EffectKind::Stop {
                    EffectKind::Delete
                } else {
                    kind
                };
                push(forced(v, Effect::new(0, kind, target(class, n))));
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
                    let (kind, class) = service_effect(name);
                    push(Effect::new(0, kind, target(class, name)));
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
            if let Some(p) = dest {
                push(Effect::new(0, EffectKind::Overwrite, path_target(p)));
            }
            // the request itself is rated like curl's (see `infer::http_effects`)
            false
        }
        _ => unknown_cmdlet(v, out),
    }
}

/// A `Verb-Noun` cmdlet nobody described: the verb states the effect, a resource noun in the
/// noun makes it a resource of some service, in the environment its words name
/// (`Remove-AzResourceGroup -Name prod-rg -Force`).
fn unknown_cmdlet(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let program = v.cmd.program.as_str();
    let Some((verb, noun)) = program.split_once('-') else {
        return false;
    };
    if !verb.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        || noun.is_empty()
        || !noun.chars().all(|c| c.is_ascii_alphanumeric())
        || crate::builtin::executable(program).is_some()
    {
        return false;
    }
    let kind = match verb {
        "Remove" | "Clear" | "Uninstall" | "Unregister" | "Revoke" | "Reset" => EffectKind::Delete,
        "Stop" | "Restart" | "Suspend" => EffectKind::Stop,
        "Disable" | "Set" | "Update" | "Edit" | "Rename" | "Move" => EffectKind::Modify,
        "Publish" | "Deploy" => EffectKind::Publish,
        _ => return true,
    };
    let nouns = super::infer::parts(noun);
    if !nouns
        .iter()
        .any(|n| table::is_resource_noun(n) || n == "vm" || n == "group")
    {
        return true;
    }
    let name = v
        .cmd
        .flag_value("-Name")
        .or_else(|| v.cmd.flag_value("-ResourceGroupName"))
        .or_else(|| v.positionals.first().map(|p| p.text.as_ref()))
        .unwrap_or(noun);
    let env = classify_env(v.cmd.args.iter().map(|a| a.text.as_str()));
    let mut e = Effect::new(
        0,
        kind,
        Target {
            class: TargetClass::CloudResource,
            text: format!("{noun} {name}"),
            environment: Some(env),
        },
    );
    if v.has_flag("-Force") || v.has_flag("-Confirm=false") {
        e = e.with_scope(Scope::Forced);
    }
    out.push(Found {
        effect: e,
        weight: 0,
        guessed: true,
    });
    true
}
