//! The verb model of PowerShell cmdlets nobody described: PowerShell's approved verbs state
//! the effect (`Remove-`, `Clear-`, `Revoke-`, `Unregister-` delete; `Stop-` stops; `Set-`
//! modifies; `Publish-` publishes), the noun says to what. A destructive verb on any noun that
//! is not the session's own or the machine's local state (`Remove-MgApplication`,
//! `Remove-SmbShare`, `Remove-ContosoWidget`) deletes a resource of some service, as bash's
//! generic model reads `contoso widget delete foo`; the other verbs act on a service resource
//! only when the noun names one (`Stop-AzVM`, `Set-AzWebApp`). The scope words (`-Force`,
//! `-Confirm:$false`, `-All`, a listing piped in) and the environment its words name
//! (`prod-rg`) are read as for any service command.

use riskgate_model::effect::{Effect, EffectKind, Target, TargetClass, classify_env};

use super::infer::Found;
use super::table;
use crate::matcher::CommandView;

/// Last words of nouns that name the machine's or the user's local, regenerable state:
/// caches (`Clear-DnsClientCache`), the console, drive mappings, sign-in contexts of a CLI
/// (`Clear-AzContext`), connections and sessions of this client, the recycle bin.
const LOCAL_LAST_WORDS: &[&str] = &[
    "cache",
    "host",
    "console",
    "transcript",
    "history",
    "mapping",
    "context",
    "session",
    "connection",
    "bin",
    "breakpoint",
    "progress",
    "clipboard",
    "screen",
    "neighbor",
    "temp",
    "tempfile",
    "mock",
    "output",
    "view",
];

/// Nouns (any word) of the PowerShell host and its packaging: `PSRepository`,
/// `PSReadLineKeyHandler`, `InstalledModule`, `Package` (software a package manager puts back).
const LOCAL_WORDS: &[&str] = &["ps", "psreadline", "module", "package", "script"];

/// Whether the noun's words name local, regenerable state of the session or the machine.
pub(crate) fn is_local_noun(words: &[String]) -> bool {
    words
        .last()
        .is_some_and(|w| LOCAL_LAST_WORDS.contains(&w.as_str()))
        || words.iter().any(|w| LOCAL_WORDS.contains(&w.as_str()))
}

/// Noun words (prefixes) of protections: switching one off weakens the machine's security or
/// its recovery (`ComputerRestore`, `…Protection`, `…Auditing`, `SmartScreen`).
const PROTECTION_NOUNS: &[&str] = &[
    "restore",
    "recovery",
    "protection",
    "defender",
    "firewall",
    "audit",
    "antivirus",
    "antimalware",
    "tamper",
    "bitlocker",
    "smartscreen",
    "mitigation",
    "applocker",
    "integrity",
];

/// Verbs that delete whatever their noun names.
fn deletes_any_noun(verb: &str) -> bool {
    matches!(verb, "Remove" | "Clear" | "Revoke" | "Unregister")
}

/// A `Verb-Noun` cmdlet nobody described: the verb states the effect; a destructive verb on
/// any noun that is not local state, or any effect verb on a noun that names a service
/// resource, is an effect on a resource of some service, in the environment its words name
/// (`Remove-AzResourceGroup -Name prod-rg -Force`, `Remove-PnPList -Identity Invoices`).
pub(crate) fn unknown_cmdlet(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
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
    if super::winident::is_session_noun(noun) {
        return true;
    }
    let words = super::winident::noun_words(noun);
    if super::winparams::parameter_effects(v, verb, noun, &words, out) {
        return true;
    }
    if super::winident::identity_cmdlet(v, verb, &words, out) {
        return true;
    }
    // a protection switched off by its noun (`Disable-ComputerRestore`, `Suspend-…Protection`,
    // `Stop-…Auditing`)
    if matches!(
        verb,
        "Disable" | "Suspend" | "Stop" | "Remove" | "Uninstall" | "Clear"
    ) && words
        .iter()
        .any(|w| PROTECTION_NOUNS.iter().any(|p| w.starts_with(p)))
    {
        out.push(machine_found(super::winident::cmdlet_scope(
            v,
            machine_effect(EffectKind::Security, program),
        )));
        return true;
    }
    // machines stopped hard or all at once (`Get-VM | Stop-VM -TurnOff`): their power cut
    if matches!(verb, "Stop" | "Restart")
        && words.iter().any(|w| {
            matches!(
                w.as_str(),
                "vm" | "computer" | "server" | "instance" | "host"
            )
        })
        && (v.has_flag("-TurnOff")
            || v.has_flag("-All")
            || v.stdin_program.is_some_and(|p| p.starts_with("Get-")))
    {
        out.push(machine_found(machine_effect(EffectKind::Power, program)));
        return true;
    }
    let kind = match verb {
        "Remove" | "Clear" | "Uninstall" | "Unregister" | "Revoke" | "Reset" => EffectKind::Delete,
        "Stop" | "Restart" | "Suspend" => EffectKind::Stop,
        "Disable" | "Set" | "Update" | "Edit" | "Rename" | "Move" => EffectKind::Modify,
        "Publish" | "Deploy" => EffectKind::Publish,
        _ => return true,
    };
    if is_local_noun(&words) {
        return true;
    }
    // a cloud or service resource: the table's nouns, VMs, groups, a provider's resources
    // (`Remove-AzResource`), web sites and application pools
    let resource = words.iter().any(|n| {
        table::is_resource_noun(n)
            || matches!(
                n.as_str(),
                "vm" | "group" | "resource" | "website" | "webapp" | "site" | "pool"
            )
    });
    if !resource && !deletes_any_noun(verb) {
        return true;
    }
    let name = v
        .cmd
        .flag_value("-Name")
        .or_else(|| v.cmd.flag_value("-ResourceGroupName"))
        .or_else(|| super::winident::acted_on(v))
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
    e = super::winident::cmdlet_scope(v, e);
    out.push(Found {
        effect: e,
        weight: 0,
        guessed: true,
    });
    true
}

/// An effect of `kind` on the machine itself, named by the cmdlet `program`.
fn machine_effect(kind: EffectKind, program: &str) -> Effect {
    Effect::new(
        0,
        kind,
        Target {
            class: TargetClass::Machine,
            text: program.to_string(),
            environment: None,
        },
    )
}

/// A guessed finding of the verb model for `effect`.
fn machine_found(effect: Effect) -> Found {
    Found {
        effect,
        weight: 0,
        guessed: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(noun: &str) -> bool {
        is_local_noun(&super::super::winident::noun_words(noun))
    }

    #[test]
    fn local_nouns_are_the_machines_own_state() {
        for n in [
            "DnsClientCache",
            "BCCache",
            "AzContext",
            "SmbMapping",
            "PSRepository",
            "PSReadLineKeyHandler",
            "InstalledModule",
            "AppxPackage",
            "RecycleBin",
            "VpnConnection",
        ] {
            assert!(local(n), "{n}");
        }
        for n in [
            "MgApplication",
            "SmbShare",
            "PnPList",
            "ContosoWidget",
            "GPO",
            "DnsServerZone",
            "ComputerRestorePoint",
            "ClusterResource",
        ] {
            assert!(!local(n), "{n}");
        }
        assert!(deletes_any_noun("Remove") && deletes_any_noun("Revoke"));
        assert!(!deletes_any_noun("Uninstall") && !deletes_any_noun("Set"));
    }
}
