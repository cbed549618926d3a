//! What a cmdlet's parameters say it does, whatever its verb (read before the verb, for
//! cmdlets nobody described): mail forwarded to an address (`New-InboxRule -ForwardTo`,
//! `Set-Mailbox -ForwardingSmtpAddress`: every future message sent out), content deleted by a
//! switch (`Search-Mailbox -DeleteContent`, `Disable-…BackupProtection
//! -RemoveRecoveryPoints`), a protection switched off (`-ProtectedFromAccidentalDeletion
//! $false`, `-RequireSecuritySignature $false`, `-EnableSMB1Protocol $true`,
//! `Set-ProcessMitigation -Disable DEP`), a security product's task, service or component
//! disabled by name; and what some nouns say: a deletion requested (`Request-KMSKeyDeletion`),
//! disks, volumes and storage pools removed (`Remove-VirtualDisk`).

use riskgate_model::effect::{
    Effect, EffectKind, Scope, Target, TargetClass, classify_env, classify_host,
};

use super::infer::Found;
use crate::matcher::CommandView;

/// Parameters that forward or redirect mail to an address (lower case, with the dash).
const FORWARDING: &[&str] = &[
    "-forwardto",
    "-redirectto",
    "-forwardasattachmentto",
    "-forwardingsmtpaddress",
    "-forwardingaddress",
    "-forwardingaddresses",
];

/// Words in a parameter's name that name a protection (switched off when set to false).
const PROTECTION_WORDS: &[&str] = &[
    "protect",
    "require",
    "signature",
    "signing",
    "encrypt",
    "security",
    "secure",
    "validat",
    "verif",
    "audit",
    "firewall",
    "defender",
    "monitor",
    "tamper",
    "mitigation",
    "antivirus",
    "antimalware",
];

/// Protocols and settings that weaken the machine when switched on (`-EnableSMB1Protocol`).
const INSECURE_WORDS: &[&str] = &[
    "smb1",
    "lmhash",
    "wdigest",
    "unencrypted",
    "insecureguest",
    "anonymous",
    "nullsession",
];

/// Names of security products' components (tasks, services, features), lower case.
const SECURITY_NAMES: &[&str] = &[
    "windows defender",
    "windefend",
    "defender",
    "antimalware",
    "antivirus",
    "firewall",
    "eventlog",
    "event log",
    "sysmon",
    "security center",
    "securityhealth",
    "windows security",
];

fn truthy(t: &str) -> bool {
    matches!(
        t.trim_matches(['"', '\'']).to_ascii_lowercase().as_str(),
        "true" | "1" | "$true" | "yes"
    )
}

fn falsy(t: &str) -> bool {
    matches!(
        t.trim_matches(['"', '\'']).to_ascii_lowercase().as_str(),
        "false" | "0" | "$false" | "no"
    )
}

/// The domain of a mail address (`smtp:a@b.example` → `b.example`).
fn mail_domain(addr: &str) -> Option<&str> {
    let a = addr.trim_matches(['"', '\'', ' ']);
    let (_, domain) = a.rsplit_once('@')?;
    let d = domain.trim_end_matches(['>', '"', '\'']);
    (!d.is_empty() && d.contains('.')).then_some(d)
}

fn machine(what: &str) -> Target {
    Target {
        class: TargetClass::Machine,
        text: what.to_string(),
        environment: None,
    }
}

/// `(flag, value)` pairs of the command (flag lower case with its dash; a switch's value is
/// empty). A cmdlet nobody described keeps its words as written: `-Name VALUE` pairs up.
fn params(v: &CommandView<'_>) -> Vec<(String, String)> {
    let args = &v.cmd.args;
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if !a.text.starts_with('-') || a.text.len() < 2 {
            continue;
        }
        match a.text.split_once('=') {
            Some((f, x)) => out.push((f.to_ascii_lowercase(), x.to_string())),
            None => {
                let value = args
                    .get(k)
                    .filter(|n| !n.text.starts_with('-') || n.text.parse::<i64>().is_ok());
                if let Some(n) = value {
                    k += 1;
                    out.push((a.text.to_ascii_lowercase(), n.text.clone()));
                } else {
                    out.push((a.text.to_ascii_lowercase(), String::new()));
                }
            }
        }
    }
    out
}

/// What the noun of the cmdlet deletes content of: backups (a loss cannot be recovered), mail
/// and other service data.
fn content_class(words: &[String]) -> TargetClass {
    if words.iter().any(|w| {
        w.contains("backup") || w.contains("recovery") || w.contains("snapshot") || w == "vault"
    }) {
        TargetClass::Backups
    } else {
        TargetClass::CloudResource
    }
}

/// Effects the parameters (and the noun's words) of cmdlet `verb`-`noun` state; pushed to
/// `out`, true when any was.
pub(crate) fn parameter_effects(
    v: &CommandView<'_>,
    verb: &str,
    noun: &str,
    words: &[String],
    out: &mut Vec<Found>,
) -> bool {
    let before = out.len();
    let ps = params(v);
    let push = |out: &mut Vec<Found>, effect: Effect, weight: u32| {
        out.push(Found {
            effect: super::winident::cmdlet_scope(v, effect),
            weight,
            guessed: false,
        })
    };
    // mail forwarded out: every future message of the mailbox is sent to that address
    for (f, x) in &ps {
        if FORWARDING.contains(&f.as_str())
            && let Some(domain) = x.split(',').find_map(mail_domain)
        {
            let e = Effect::new(
                0,
                EffectKind::Send,
                Target {
                    class: classify_host(domain),
                    text: format!("mail forwarded to {}", x.trim_matches(['"', '\''])),
                    environment: None,
                },
            )
            .with_scope(Scope::Bulk);
            push(out, e, 30);
        }
    }
    // content deleted by a switch: `-DeleteContent`, `-RemoveRecoveryPoints`, `-Purge…`
    for (f, x) in &ps {
        let name = f.trim_start_matches('-');
        let deletes = ["delete", "remove", "purge", "wipe", "erase"]
            .iter()
            .any(|w| name.starts_with(w) && name.len() > w.len())
            // a purge switch (`-Purge`, `-Wipe`)
            || matches!(name, "purge" | "wipe" | "erase");
        // a hard or soft delete asked for by value (`-PurgeType HardDelete`)
        let by_value = ["harddelete", "softdelete", "permanentlydelete"]
            .iter()
            .any(|w| x.trim_matches(['"', '\'']).eq_ignore_ascii_case(w));
        if by_value || deletes && (x.is_empty() || truthy(x)) {
            let e = Effect::new(
                0,
                EffectKind::Delete,
                Target {
                    class: content_class(words),
                    text: format!("{noun} ({f})"),
                    environment: Some(classify_env(v.cmd.args.iter().map(|a| a.text.as_str()))),
                },
            );
            push(out, e, 0);
            break;
        }
    }
    // protections switched off, insecure settings switched on
    for (f, x) in &ps {
        let name = f.trim_start_matches('-');
        let off = PROTECTION_WORDS.iter().any(|w| name.contains(w)) && falsy(x);
        let insecure_on = INSECURE_WORDS.iter().any(|w| name.contains(w))
            && (x.is_empty() || truthy(x))
            && !name.starts_with("disable")
            && !name.starts_with("reject");
        // `Set-ProcessMitigation -Disable DEP,SEHOP`; `-DisableX $true` on a protection's noun
        let disabled = name.starts_with("disable")
            && (x.is_empty() || truthy(x) || name == "disable")
            && (PROTECTION_WORDS
                .iter()
                .any(|w| name.contains(w) || noun_has(words, w)));
        if off || insecure_on || disabled {
            push(
                out,
                Effect::new(0, EffectKind::Security, machine(&format!("{noun} {f}"))),
                0,
            );
            break;
        }
    }
    // a security product's component switched off or removed by name
    if matches!(
        verb,
        "Disable" | "Stop" | "Unregister" | "Remove" | "Uninstall" | "Suspend"
    ) && v.cmd.args.iter().any(|a| {
        let l = a.text.to_ascii_lowercase();
        SECURITY_NAMES.iter().any(|n| l.contains(n))
    }) {
        push(
            out,
            Effect::new(0, EffectKind::Security, machine(&format!("{verb}-{noun}"))),
            0,
        );
    }
    // a deletion requested by the noun (`Request-KMSKeyDeletion`, `Submit-…Removal`)
    if words
        .last()
        .is_some_and(|w| w == "deletion" || w == "removal" || w == "destruction")
    {
        let name = super::winident::acted_on(v).unwrap_or(noun);
        let e = Effect::new(
            0,
            EffectKind::Delete,
            Target {
                class: TargetClass::CloudResource,
                text: format!("{noun} {name}"),
                environment: Some(classify_env(v.cmd.args.iter().map(|a| a.text.as_str()))),
            },
        );
        push(out, e, 0);
    }
    // disks, volumes, partitions and storage pools removed or cleared
    if matches!(verb, "Remove" | "Clear" | "Reset" | "Format")
        && words
            .last()
            .is_some_and(|w| matches!(w.as_str(), "disk" | "volume" | "partition" | "pool"))
    {
        let name = super::winident::acted_on(v).unwrap_or(noun);
        let e = Effect::new(
            0,
            EffectKind::Delete,
            Target {
                class: TargetClass::Device,
                text: format!("{noun} {name}"),
                environment: None,
            },
        );
        push(out, e, 0);
    }
    out.len() > before
}

fn noun_has(words: &[String], w: &str) -> bool {
    words.iter().any(|x| x.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_domains_and_values() {
        assert_eq!(
            mail_domain("'smtp:fin.backup@gmail.com'"),
            Some("gmail.com")
        );
        assert_eq!(mail_domain("archive.cfo@proton.me"), Some("proton.me"));
        assert_eq!(mail_domain("$null"), None);
        assert_eq!(mail_domain("someone@"), None);
        assert!(truthy("$true") && truthy("'True'") && !truthy("$false"));
        assert!(falsy("$false") && falsy("0") && !falsy("$true"));
        let w = |n: &str| super::super::winident::noun_words(n);
        assert_eq!(
            content_class(&w("AzRecoveryServicesBackupProtection")),
            TargetClass::Backups
        );
        assert_eq!(content_class(&w("Mailbox")), TargetClass::CloudResource);
    }
}
