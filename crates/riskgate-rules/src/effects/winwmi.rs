//! WMI and CIM methods read as what they do, whoever calls them: `wmic CLASS [where …] call
//! METHOD`, `Invoke-CimMethod -ClassName C -MethodName M`, `Invoke-WmiMethod -Class C -Name M`.
//! A volume or disk formatted (`Format`), the machine shut down or restarted
//! (`Win32Shutdown`, `Reboot`), a service stopped, disabled or deleted, a process terminated,
//! shadow copies deleted. The class is matched by its WMI name or wmic's alias (`logicaldisk`,
//! `os`, `service`); `Win32_Process.Create` is read by the shell (the command line it starts).

use riskgate_model::effect::{Effect, EffectKind, Scope, Target, TargetClass};

use super::infer::{Found, found};
use crate::matcher::CommandView;

fn target(class: TargetClass, text: &str) -> Target {
    Target {
        class,
        text: text.to_string(),
        environment: None,
    }
}

/// The class (lower case, without `win32_`) and method (lower case) a WMI call names, and the
/// words of its `where` condition or arguments.
fn class_and_method(v: &CommandView<'_>) -> Option<(String, String)> {
    let program = v.cmd.program.as_str();
    let strip = |c: &str| {
        let l = c.trim_matches(['"', '\'']).to_ascii_lowercase();
        l.strip_prefix("win32_").map(str::to_string).unwrap_or(l)
    };
    if program.eq_ignore_ascii_case("wmic") {
        let words: Vec<&str> = v
            .cmd
            .args
            .iter()
            .map(|a| a.text.as_str())
            .filter(|w| !w.starts_with('-'))
            .collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let class = match lower.first().map(String::as_str) {
            Some("path") => lower.get(1)?.clone(),
            Some(c) => c.to_string(),
            None => return None,
        };
        let k = lower.iter().position(|w| w == "call")?;
        return Some((strip(&class), lower.get(k + 1)?.clone()));
    }
    let class = v
        .cmd
        .flag_value("-ClassName")
        .or_else(|| v.cmd.flag_value("-Class"))
        .or_else(|| v.positionals.first().map(|p| p.text.as_ref()))?;
    let method = v
        .cmd
        .flag_value("-MethodName")
        .or_else(|| v.cmd.flag_value("-Name"))
        .or_else(|| v.positionals.get(1).map(|p| p.text.as_ref()))?;
    Some((
        strip(class),
        method.trim_matches(['"', '\'']).to_ascii_lowercase(),
    ))
}

/// Effects of a WMI method call; true when the command was one (`wmic`, `Invoke-CimMethod`,
/// `Invoke-WmiMethod`).
pub(crate) fn wmi_effects(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let program = v.cmd.program.to_ascii_lowercase();
    if !matches!(
        program.as_str(),
        "wmic" | "invoke-cimmethod" | "invoke-wmimethod"
    ) {
        return false;
    }
    let Some((class, method)) = class_and_method(v) else {
        return program != "wmic";
    };
    let text = format!("{class}.{method}");
    let e = match (class.as_str(), method.as_str()) {
        ("logicaldisk" | "volume" | "diskdrive" | "diskpartition", "format" | "delete") => {
            Effect::new(0, EffectKind::Overwrite, target(TargetClass::Device, &text))
        }
        (
            "os" | "operatingsystem",
            "shutdown" | "reboot" | "win32shutdown" | "win32shutdowntracker",
        ) => Effect::new(0, EffectKind::Power, target(TargetClass::Machine, &text)),
        ("service", "stopservice" | "delete" | "changestartmode" | "pauseservice") => {
            // the service the `where` condition names (`name='WinDefend'`), else any
            let name = v
                .cmd
                .args
                .iter()
                .find_map(|a| {
                    let l = a.text.to_ascii_lowercase();
                    let k = l.find("name=")?;
                    let rest = a.text.get(k + 5..)?;
                    Some(rest.trim_matches(['"', '\'', ' ', '(', ')']).to_string())
                })
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "(service)".into());
            out.push(super::windows::service_found(&name, method == "delete"));
            return true;
        }
        ("process", "terminate") => {
            Effect::new(0, EffectKind::Stop, target(TargetClass::OneProcess, &text))
        }
        ("shadowcopy", "delete") => {
            Effect::new(0, EffectKind::Delete, target(TargetClass::Backups, &text))
                .with_scope(Scope::Bulk)
        }
        _ => return true,
    };
    out.push(found(e));
    true
}
