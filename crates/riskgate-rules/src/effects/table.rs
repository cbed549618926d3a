//! The program knowledge of `data/effects.yaml`, compiled into sorted static tables by the
//! build script, and the lookups over them.

use riskgate_model::effect::EffectKind;

/// Which positional arguments of a described program are its targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TargetArgs {
    /// Every positional.
    All,
    /// The last one (a copy's destination).
    Last,
    /// The first one (`Set-Content PATH VALUE`).
    First,
    /// All but the last (a move's sources).
    AllButLast,
    /// None (the effect is on the machine).
    None,
}

/// What a described program does to its arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProgramEffect {
    pub(crate) kind: EffectKind,
    pub(crate) targets: TargetArgs,
    pub(crate) skip: u8,
    pub(crate) only_with: &'static [&'static str],
    pub(crate) unless_with: &'static [&'static str],
    pub(crate) append: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/effects_data.rs"));

/// The description of `program`, if `data/effects.yaml` has one. A member of a family of
/// programs named `FAMILY.KIND` (`mkfs.ext4`, `mkfs.xfs`, `fsck.vfat`) is described as its
/// family when it has no entry of its own; a script named for a program (`rm.sh`) is not.
pub(crate) fn program(program: &str) -> Option<&'static ProgramEffect> {
    exact(program).or_else(|| {
        let (family, kind) = program.split_once('.')?;
        let script = matches!(
            kind,
            "sh" | "bash"
                | "zsh"
                | "py"
                | "pl"
                | "rb"
                | "js"
                | "mjs"
                | "cjs"
                | "ts"
                | "php"
                | "lua"
                | "exe"
                | "bat"
                | "cmd"
                | "ps1"
                | "bak"
                | "old"
                | "orig"
        );
        let named = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric());
        (named && !script).then(|| exact(family)).flatten()
    })
}

fn exact(program: &str) -> Option<&'static ProgramEffect> {
    PROGRAMS
        .binary_search_by(|(p, _)| (*p).cmp(program))
        .ok()
        .and_then(|i| PROGRAMS.get(i))
        .map(|(_, e)| e)
}

/// The flags without which `program` only shows a plan (`octodns-sync` applies with
/// `--doit`), if `data/effects.yaml` lists it under `apply_flags`.
pub(crate) fn apply_flags(program: &str) -> Option<&'static [&'static str]> {
    APPLY_FLAGS
        .binary_search_by(|(p, _)| (*p).cmp(program))
        .ok()
        .and_then(|i| APPLY_FLAGS.get(i))
        .map(|(_, f)| *f)
}

/// Whether `program` acts on local state only (its verbs are not read as intent).
pub(crate) fn is_local(program: &str) -> bool {
    LOCAL.binary_search(&program).is_ok()
}

/// Whether `program` is a service CLI whose subcommands act on remote resources: known to the
/// executable table, but read like an unknown program when no rule knows the command.
pub(crate) fn is_service_cli(program: &str) -> bool {
    SERVICES.binary_search(&program).is_ok()
}

/// The effect a subcommand word (or a part of one) states.
pub(crate) fn verb(word: &str) -> Option<EffectKind> {
    VERBS
        .binary_search_by(|(w, _)| (*w).cmp(word))
        .ok()
        .and_then(|i| VERBS.get(i))
        .map(|(_, k)| *k)
}

/// A long option written with one dash, as Java, Go and Hadoop-style CLIs take them
/// (`kafka-topics -delete`, `-force`, `-all`): its `--` spelling.
fn double_dashed(flag: &str) -> Option<String> {
    (flag.len() > 3 && flag.starts_with('-') && !flag.starts_with("--")).then(|| format!("-{flag}"))
}

/// A one-dash action option written in camel case, as macOS and Java tools take them
/// (`sysadminctl -deleteUser bob`, `-purgeAll`, `-removeAccount`): a delete when its first word
/// is a delete verb and the rest names what is deleted (not when: `-deleteOnExit`).
fn camel_action(flag: &str) -> Option<EffectKind> {
    let body = flag.strip_prefix('-').filter(|b| !b.starts_with('-'))?;
    let body = body.split_once('=').map_or(body, |(n, _)| n);
    let first_upper = body.find(|c: char| c.is_ascii_uppercase())?;
    if first_upper < 2
        || !body.chars().all(|c| c.is_ascii_alphanumeric())
        || !body[..first_upper].chars().all(|c| c.is_ascii_lowercase())
    {
        return None;
    }
    let head = &body[..first_upper];
    let rest = body[first_upper..].to_ascii_lowercase();
    let deletes = matches!(
        head,
        "delete" | "destroy" | "drop" | "purge" | "remove" | "wipe" | "erase" | "nuke"
    );
    let when = [
        "on", "after", "before", "when", "if", "old", "temp", "tmp", "empty",
    ]
    .iter()
    .any(|w| rest.starts_with(w));
    (deletes && !when).then_some(EffectKind::Delete)
}

/// The effect a flag states (`--delete`, `-delete`, `-deleteUser`).
pub(crate) fn verb_flag(flag: &str) -> Option<EffectKind> {
    if let Some(k) = camel_action(flag) {
        return Some(k);
    }
    let long = double_dashed(flag);
    let name = long.as_deref().unwrap_or(flag);
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    VERB_FLAGS
        .iter()
        .find(|(f, _)| {
            *f == name
                // `--delete-all`, `--purge-all`: the verb for every entry (not `--delete-branch`
                // of a merge, `-wipe-data` of an emulator: the verb of a side effect)
                || (f.starts_with("--") && name.strip_prefix(*f) == Some("-all"))
        })
        .map(|(_, k)| *k)
}

/// Whether a flag skips confirmation (`--yes`, `--force`, `--confirm=NAME`, `-force`).
pub(crate) fn is_forced_flag(flag: &str) -> bool {
    let name = flag.split_once('=').map(|(n, _)| n).unwrap_or(flag);
    FORCED_FLAGS.binary_search(&name).is_ok()
        || double_dashed(name).is_some_and(|l| FORCED_FLAGS.binary_search(&l.as_str()).is_ok())
}

/// Whether a flag makes the effect bulk (`--all`, `--recursive`, `--prefix`, `-all`).
pub(crate) fn is_bulk_flag(flag: &str) -> bool {
    let name = flag.split_once('=').map(|(n, _)| n).unwrap_or(flag);
    BULK_FLAGS.binary_search(&name).is_ok()
        || (name.starts_with("--all-") && name.len() > 6)
        || double_dashed(name).is_some_and(|l| BULK_FLAGS.binary_search(&l.as_str()).is_ok())
}

/// Whether a word names a remote resource whose loss matters (`projects`, `bucket`).
pub(crate) fn is_resource_noun(word: &str) -> bool {
    RESOURCE_NOUNS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_found() {
        assert!(PROGRAMS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(VERBS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(program("rm").map(|p| p.kind), Some(EffectKind::Delete));
        // a family's members, not a script named for a program
        assert_eq!(
            program("mkfs.xfs").map(|p| p.kind),
            Some(EffectKind::Overwrite)
        );
        assert!(program("rm.sh").is_none() && program("rm.").is_none());
        assert!(is_local("npm") && !is_local("doctl"));
        assert_eq!(verb("destroy"), Some(EffectKind::Delete));
        assert_eq!(verb("deploy"), Some(EffectKind::Publish));
        assert_eq!(verb("list"), None);
        assert!(is_forced_flag("--yes") && is_forced_flag("--confirm=acme-prod"));
        assert!(is_bulk_flag("--all") && is_bulk_flag("--all-collections"));
        // one-dash long options of Java, Go and Hadoop-style CLIs
        assert_eq!(verb_flag("-delete"), Some(EffectKind::Delete));
        assert!(is_forced_flag("-force") && is_bulk_flag("-all"));
        assert!(verb_flag("-d").is_none() && !is_forced_flag("-f"));
        assert_eq!(verb_flag("--delete-all"), Some(EffectKind::Delete));
        assert!(verb_flag("--deleted").is_none() && verb_flag("--remote").is_none());
        assert!(verb_flag("--delete-branch").is_none() && verb_flag("-wipe-data").is_none());
        // camel-case action options of macOS and Java tools
        assert_eq!(verb_flag("-deleteUser"), Some(EffectKind::Delete));
        assert_eq!(verb_flag("-purgeAll"), Some(EffectKind::Delete));
        assert!(verb_flag("-deleteOnExit").is_none() && verb_flag("-addUser").is_none());
        assert!(verb_flag("-Delete").is_none() && verb_flag("--deleteUser").is_none());
        assert!(is_resource_noun("projects") && !is_resource_noun("logs"));
    }
}
