//! Accounts, identities and service resources named by PowerShell's verb-noun convention and by
//! `net.exe`, read as intent when no one described the cmdlet: the verb says what is done
//! (`Remove-`, `Disable-`, `Reset-`…), the noun's words say to what (an account, a group, a
//! mailbox, a role: class `credentials`, the authentication data of people and services; a
//! resource noun: a cloud or service resource; the session's own jobs, variables and drives:
//! nothing), and the arguments say how widely (`-Force`, `-Confirm:$false`, a `Get-*` listing
//! piped in: every item it lists). `net user NAME /delete`, `net user NAME PASS`, `net
//! localgroup administrators NAME /add` and `net stop SERVICE` are read here too.

use riskgate_model::effect::{Effect, EffectKind, Scope, Target, TargetClass};

use super::infer::Found;
use super::score::LOOSENS;
use crate::matcher::CommandView;

/// Nouns (lower case) of what lives in the PowerShell session or is the shell's own: acting on
/// them touches no one's data (`Stop-Job`, `Remove-Variable`, `Remove-PSDrive`).
const SESSION_NOUNS: &[&str] = &[
    "job",
    "threadjob",
    "variable",
    "alias",
    "psdrive",
    "pssession",
    "cimsession",
    "module",
    "event",
    "eventsubscriber",
    "psbreakpoint",
    "typedata",
    "formatdata",
    "runspace",
    "runspacedebug",
    "history",
    "clipboard",
    "location",
    "psreadlineoption",
    "psreadlinekeyhandler",
    "host",
    "temporaryitem",
    "tracesource",
];

/// Words of a noun that name an account, a group of accounts or what grants them access.
const IDENTITY_WORDS: &[&str] = &[
    "user",
    "users",
    "account",
    "accounts",
    "mailbox",
    "mailboxes",
    "principal",
    "serviceprincipal",
    "identity",
    "member",
    "members",
    "credential",
    "credentials",
    "password",
    "group",
    "groups",
    "role",
    "roleassignment",
    "permission",
    // an organizational unit holds accounts (removed with `-Recursive`, all of them)
    "organizational",
];

/// The words of a cmdlet noun, acronyms kept whole: `IAMUser` → `iam user`, `RDSDBInstance` →
/// `rdsdb instance`, `AzResourceGroup` → `az resource group`, `EC2Instance` → `ec2 instance`.
pub(crate) fn noun_words(noun: &str) -> Vec<String> {
    let cs: Vec<char> = noun.chars().take(128).collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in cs.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).and_then(|k| cs.get(k)).copied();
        let next = cs.get(i + 1).copied();
        let split = c.is_ascii_uppercase()
            && !cur.is_empty()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if split {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `noun` is one of the session's own things.
pub(crate) fn is_session_noun(noun: &str) -> bool {
    let l = noun.to_ascii_lowercase();
    SESSION_NOUNS.contains(&l.as_str())
}

/// Whether the noun's words name an account or identity (a `ResourceGroup` is a container of
/// cloud resources, not of people).
fn is_identity(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        IDENTITY_WORDS.contains(&w.as_str())
            && !(w.starts_with("group")
                && i > 0
                && words
                    .get(i - 1)
                    .is_some_and(|p| p == "resource" || p == "security" || p == "log"))
    })
}

/// Whether a word names a group or role that grants administrative access.
pub(crate) fn privileged_group(word: &str) -> bool {
    let l = word.to_ascii_lowercase();
    let l = l.trim_matches(['"', '\'']);
    let value = l.split_once('=').map_or(l, |(_, v)| v);
    value.contains("admin")
        || value.contains("operators")
        || value.contains("owner")
        || value.contains("fullaccess")
        || value.contains("fullcontrol")
        || value.contains("sendas")
        || value.contains("genericall")
        || value == "remote desktop users"
        || value == "remote management users"
        || value == "wheel"
        || value == "sudo"
        || value == "root"
}

fn truthy_false(t: &str) -> bool {
    matches!(t.to_ascii_lowercase().as_str(), "false" | "0" | "$false")
}

/// The scope words of a cmdlet: no confirmation (`-Force`, `-Confirm:$false`), every item a
/// `Get-*` listing piped in passes on.
pub(crate) fn cmdlet_scope(v: &CommandView<'_>, mut e: Effect) -> Effect {
    if v.has_flag("-Force") || v.has_flag("-Confirm=false") || v.has_flag("-Confirm=$false") {
        e = e.with_scope(Scope::Forced);
    }
    if v.stdin_program.is_some_and(|p| p.starts_with("Get-")) || v.has_flag("-All") {
        e = e.with_scope(Scope::Bulk);
    }
    e
}

/// The name a cmdlet acts on: the value of its `-Identity`, `-Name`, `-…Name` or `-…Id`
/// parameter, else its first positional argument.
pub(crate) fn acted_on<'a>(v: &'a CommandView<'_>) -> Option<&'a str> {
    let named = v.cmd.args.iter().find_map(|a| {
        let (flag, value) = a.text.split_once('=')?;
        let f = flag.to_ascii_lowercase();
        (f == "-identity"
            || f == "-name"
            || f.ends_with("name")
            || f.ends_with("id")
            || f.ends_with("identifier"))
        .then_some(value)
    });
    named.or_else(|| v.positionals.first().map(|p| p.text.as_ref()))
}

/// Effects of a `Verb-Noun` cmdlet whose noun names an account or identity; true when it
/// does (then nothing else reads the cmdlet).
pub(crate) fn identity_cmdlet(
    v: &CommandView<'_>,
    verb: &str,
    words: &[String],
    out: &mut Vec<Found>,
) -> bool {
    if !is_identity(words) {
        return false;
    }
    let args: Vec<&str> = v.cmd.args.iter().map(|a| a.text.as_str()).collect();
    let password = words.iter().any(|w| w == "password")
        || args.iter().any(|a| {
            let l = a.to_ascii_lowercase();
            l.starts_with('-') && (l.contains("password") || l == "-reset")
        });
    let disables = args.iter().any(|a| {
        a.split_once('=').is_some_and(|(f, x)| {
            f.eq_ignore_ascii_case("-Enabled") && truthy_false(x)
                || f.eq_ignore_ascii_case("-AccountDisabled") && !truthy_false(x)
        })
    });
    let grants = args.iter().any(|a| privileged_group(a));
    let kind = match verb {
        "Remove" | "Clear" | "Revoke" | "Uninstall" | "Unregister" => Some((EffectKind::Delete, 0)),
        "Disable" | "Lock" | "Block" | "Suspend" => Some((EffectKind::Modify, 0)),
        "Add" | "New" | "Grant" if grants => Some((EffectKind::Permissions, LOOSENS)),
        "Set" | "Reset" | "Update" | "Unlock" if password || disables => {
            Some((EffectKind::Modify, 0))
        }
        _ => None,
    };
    let Some((kind, weight)) = kind else {
        // reading, creating or renaming an account: nothing rated here
        return true;
    };
    let name = acted_on(v).unwrap_or("(account)");
    let e = Effect::new(
        0,
        kind,
        Target {
            class: TargetClass::Credentials,
            text: format!("account {name}"),
            environment: None,
        },
    );
    out.push(Found {
        effect: cmdlet_scope(v, e),
        weight,
        guessed: true,
    });
    true
}

fn account(kind: EffectKind, name: &str) -> Effect {
    Effect::new(
        0,
        kind,
        Target {
            class: TargetClass::Credentials,
            text: format!("account {name}"),
            environment: None,
        },
    )
}

/// `net user|localgroup|group …` (the service verbs are read by the caller): accounts deleted,
/// passwords set, the built-in administrator switched on, members added to an administrators'
/// group. True when the words were `net`'s account verbs.
pub(crate) fn net_accounts(v: &CommandView<'_>, out: &mut Vec<Found>) -> bool {
    let p: Vec<&str> = v.positionals.iter().map(|x| x.text.as_ref()).collect();
    let has = |f: &str| {
        v.cmd.args.iter().any(|a| {
            let l = a.text.to_ascii_lowercase();
            l == f || l.starts_with(&format!("{f}="))
        })
    };
    let push = |out: &mut Vec<Found>, e: Effect, weight: u32| {
        out.push(Found {
            effect: e,
            weight,
            guessed: false,
        })
    };
    match p.first().map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("user" | "users") => {
            let Some(name) = p.get(1) else {
                return true;
            };
            if has("-delete") || has("-del") {
                push(out, account(EffectKind::Delete, name), 0);
            } else if has("-active") && !has("-active=no") {
                // switching on an account (the built-in administrator's, usually)
                push(out, account(EffectKind::Modify, name), 0);
            } else if p.get(2).is_some() && !has("-add") {
                // `net user NAME PASS`: sets the account's password
                push(out, account(EffectKind::Modify, name), 0);
            }
            true
        }
        Some("localgroup" | "group") => {
            if let (Some(group), Some(member)) = (p.get(1), p.get(2))
                && has("-add")
                && privileged_group(group)
            {
                push(
                    out,
                    account(EffectKind::Permissions, &format!("{member} in {group}")),
                    LOOSENS,
                );
            }
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noun_words_keep_acronyms() {
        let w = |n: &str| noun_words(n).join(" ");
        assert_eq!(w("IAMUser"), "iam user");
        assert_eq!(w("RDSDBInstance"), "rdsdb instance");
        assert_eq!(w("AzResourceGroup"), "az resource group");
        assert_eq!(w("EC2Instance"), "ec2 instance");
        assert_eq!(w("S3Bucket"), "s3 bucket");
        assert_eq!(w("ADGroupMember"), "ad group member");
        assert_eq!(w("MgUser"), "mg user");
        assert_eq!(w("Mailbox"), "mailbox");
    }

    #[test]
    fn identities_groups_and_session_nouns() {
        let id = |n: &str| is_identity(&noun_words(n));
        assert!(id("ADUser") && id("MgUser") && id("Mailbox") && id("LocalGroupMember"));
        assert!(id("ADAccountPassword") && id("AzRoleAssignment") && id("ADGroup"));
        assert!(!id("AzResourceGroup") && !id("EC2Instance") && !id("S3Bucket"));
        assert!(is_session_noun("Job") && is_session_noun("PSDrive") && !is_session_noun("Vm"));
        assert!(privileged_group("Administrators") && privileged_group("\"Domain Admins\""));
        assert!(privileged_group("-RoleDefinitionName=Owner"));
        assert!(privileged_group("-AccessRights=FullAccess") && privileged_group("SendAs"));
        assert!(id("ADOrganizationalUnit"));
        assert!(!privileged_group("developers") && !privileged_group("Users"));
    }
}
