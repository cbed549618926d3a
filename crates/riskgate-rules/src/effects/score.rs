//! Scoring effects: effect × target class × scope. The base comes from the kind and the class;
//! scope and context add (recursive, bulk, no confirmation, production, a resource noun); running
//! under sudo/doas/su multiplies by 1.5 (seed 004's privilege multiplier); an effect alone never
//! makes a command CRITICAL (at most [`EFFECT_CAP`]: that takes a rule), and effects on
//! development resources stay at most MEDIUM.

use riskgate_model::effect::{Effect, EffectKind, Environment, Scope, TargetClass};

/// The highest score an effect reaches on its own (HIGH).
pub(crate) const EFFECT_CAP: u32 = 80;
/// Effects scoring below this make no finding.
pub(crate) const EFFECT_THRESHOLD: u32 = 15;

/// How a permissions change acts, from the inference's weight.
pub(crate) const LOOSENS: u32 = 1;
/// An ownership change (chown, chgrp).
pub(crate) const OWNER: u32 = 2;
/// A mode that takes read access away from the owner too (`chmod 000`, `chmod a-r`): the
/// system, the user or a service is locked out of the files.
pub(crate) const LOCKS: u32 = 3;

/// The base score of `kind` on `class` (`weight`: for permissions, [`LOOSENS`] or [`OWNER`]).
fn base(kind: EffectKind, class: TargetClass, weight: u32) -> u32 {
    let loose = weight == LOOSENS;
    let owner = weight == OWNER;
    let locks = weight == LOCKS;
    use EffectKind as K;
    use TargetClass as C;
    match kind {
        K::Delete => match class {
            C::Root => 80,
            C::Boot | C::Device | C::Home => 78,
            C::System | C::Credentials | C::Backups => 70,
            C::Persistence | C::Logs => 66,
            C::PublicHost | C::IpLiteral => 66,
            C::ProjectSecret => 45,
            C::PrivateHost => 64,
            C::CloudResource | C::ClusterResource => 62,
            C::UserData => 35,
            C::Unknown => 30,
            C::Project => 15,
            C::BuildOutput => 10,
            _ => 0,
        },
        K::Overwrite => match class {
            C::Root | C::Device => 80,
            C::Boot => 78,
            C::Credentials => 70,
            C::Persistence | C::Logs => 66,
            C::Home => 60,
            C::CloudResource | C::ClusterResource => 50,
            C::System => 40,
            C::PublicHost | C::IpLiteral | C::PrivateHost => 55,
            // writing into a backup directory is how backups are made
            C::UserData | C::Backups => 25,
            C::Unknown => 20,
            C::ProjectSecret => 20,
            _ => 0,
        },
        K::Modify => match class {
            C::Device => 70,
            C::Credentials => 66,
            C::Boot => 60,
            C::PublicHost | C::IpLiteral => 62,
            C::PrivateHost => 50,
            C::Persistence => 45,
            C::Logs => 35,
            C::System | C::CloudResource | C::ClusterResource => 30,
            _ => 0,
        },
        K::Permissions => match class {
            C::Root if loose || owner || locks => 80,
            C::System | C::Boot | C::Device if locks => 70,
            C::Home | C::Credentials | C::Persistence | C::Logs if locks => 62,
            C::Backups if locks => 50,
            C::Credentials if loose => 75,
            C::Credentials if owner => 60,
            C::System | C::Boot | C::Device if loose => 62,
            C::Home | C::Persistence if loose => 60,
            C::System | C::Boot | C::Device | C::Home if owner => 25,
            _ if loose => 20,
            _ => 0,
        },
        K::Stop => match class {
            C::AllProcesses => 78,
            C::Machine => 70,
            C::SystemDaemon => 40,
            C::CloudResource | C::ClusterResource => 40,
            _ => 0,
        },
        K::Power => 72,
        K::Security => 72,
        K::Publish => match class {
            // a deploy started through a service's API (`POST …/job/deploy-prod/build`)
            C::CloudResource | C::ClusterResource | C::PublicHost | C::PrivateHost => 35,
            _ => 0,
        },
        K::Send => match class {
            C::PublicHost | C::IpLiteral | C::PrivateHost => 30,
            _ => 0,
        },
        K::Install | K::Read | K::Execute | K::ReceiveAndRun | K::Persistence => 0,
    }
}

/// The score of an effect, with the inference's extra `weight` (for permissions: non-zero when
/// the mode loosens access).
pub(crate) fn score(e: &Effect, weight: u32) -> u32 {
    let class = e.target.class;
    let mut s = base(
        e.kind,
        class,
        if e.kind == EffectKind::Permissions {
            weight
        } else {
            0
        },
    );
    if s == 0 {
        return 0;
    }
    let resource = matches!(
        class,
        TargetClass::CloudResource | TargetClass::ClusterResource
    );
    let remote = resource || class.is_remote_host();
    if remote {
        match e.target.environment {
            Some(Environment::Prod) => {
                s += if e.kind == EffectKind::Publish {
                    27
                } else {
                    15
                }
            }
            Some(Environment::Dev) => s = s.min(45),
            _ => {}
        }
    }
    if e.kind == EffectKind::Stop && class == TargetClass::SystemDaemon {
        s += weight;
    }
    if e.kind == EffectKind::Send && class.is_remote_host() {
        s += weight;
        if e.has(Scope::Bulk) {
            s += 15;
        }
    }
    if resource {
        if e.has(Scope::Forced) {
            s += 8;
        }
        if e.has(Scope::Bulk) {
            s += 8;
        }
        s += weight;
    } else if e.kind == EffectKind::Delete
        && !matches!(class, TargetClass::BuildOutput | TargetClass::Project)
    {
        if e.has(Scope::Recursive) {
            // A whole tree of the user's own files (documents, settings, sources: neither a
            // cache nor build output) is HIGH, as `rm -r ~/x` is (fs.rm-recursive-home-path),
            // whatever program deletes it (`Remove-Item -Recurse`, `rd /s`, `find -delete`).
            s += if class == TargetClass::UserData {
                USER_TREE
            } else {
                8
            };
        }
        if e.has(Scope::Bulk) {
            s += 5;
        }
    }
    // every file of a whole system tree edited or replaced at once (`find /etc -name '*.conf'
    // -exec sed -i …`): the machine's configuration, not one setting of it
    if matches!(e.kind, EffectKind::Modify | EffectKind::Overwrite)
        && matches!(
            class,
            TargetClass::System
                | TargetClass::Boot
                | TargetClass::Persistence
                | TargetClass::Credentials
                | TargetClass::Logs
        )
        && e.has(Scope::Bulk)
        && (e.has(Scope::Recursive) || e.target.text.contains("**"))
        && e.target
            .text
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains(['*', '?']))
    {
        s += SYSTEM_TREE;
    }
    if e.target.environment == Some(Environment::Dev) {
        s = s.min(45);
    }
    if e.has(Scope::Privileged) {
        s = s * 3 / 2;
    }
    s.min(EFFECT_CAP)
}

/// What editing every file of a whole system tree adds to one file's edit (30 → 60: HIGH).
const SYSTEM_TREE: u32 = 30;

/// What deleting a whole tree of the user's own files adds to a file's delete (35 → 66).
const USER_TREE: u32 = 31;

/// What running on a production host adds to an effect on that machine.
pub(crate) const REMOTE_PRODUCTION: u32 = 25;

/// Words for a finding's description: "deletes", "a system file".
pub(crate) fn describe(e: &Effect) -> String {
    use TargetClass as C;
    let verb = match e.kind {
        EffectKind::Delete => "Deletes",
        EffectKind::Overwrite => "Overwrites",
        EffectKind::Modify => "Modifies",
        EffectKind::Permissions => "Changes permissions or ownership of",
        EffectKind::Execute => "Runs",
        EffectKind::Read => "Reads",
        EffectKind::Send => "Sends data to",
        EffectKind::ReceiveAndRun => "Downloads and runs",
        EffectKind::Install => "Installs or removes",
        EffectKind::Publish => "Publishes or deploys",
        EffectKind::Stop => "Stops",
        EffectKind::Power => "Changes the power state of",
        EffectKind::Security => "Weakens the security controls of",
        EffectKind::Persistence => "Sets up persistence in",
    };
    let what = match e.target.class {
        C::Root => "the root directory",
        C::System => "a system file or directory",
        C::Boot => "the boot files",
        C::Device => "a block device",
        C::Home => "the home directory",
        C::UserData => "a file in the home directory",
        C::Credentials => "credentials or authentication data",
        C::ProjectSecret => "a secret file of the project",
        C::Persistence => "a start-up file (shell rc, cron, services)",
        C::Logs => "logs or audit trails",
        C::Backups => "backups or snapshots",
        C::Project => "project files",
        C::BuildOutput => "regenerable build output",
        C::Temp => "temporary files",
        C::Loopback => "this machine's network service",
        C::PrivateHost => "a resource on a private-network host",
        C::PublicHost => "a resource on a remote host",
        C::IpLiteral => "a resource on a raw IP address",
        C::CloudResource => "a remote (cloud or service) resource",
        C::ClusterResource => "a cluster resource",
        C::SystemDaemon => "a system service",
        C::AllProcesses => "every process",
        C::OneProcess => "a process",
        C::Machine => "the machine",
        C::Unknown => "a path",
    };
    let mut s = format!("{verb} {what} `{}`", e.target.text);
    match e.target.environment {
        Some(Environment::Prod) => s.push_str(" in production"),
        Some(Environment::Staging) => s.push_str(" in staging"),
        _ => {}
    }
    let scope: Vec<&str> = e
        .scope
        .iter()
        .map(|x| match x {
            Scope::Recursive => "recursively",
            Scope::Bulk => "in bulk",
            Scope::Forced => "without confirmation",
            Scope::Privileged => "with elevated privileges",
        })
        .collect();
    if !scope.is_empty() {
        s.push_str(&format!(" ({})", scope.join(", ")));
    }
    if !e.reversible {
        s.push_str("; not reversible");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::effect::Target;

    fn e(
        kind: EffectKind,
        class: TargetClass,
        env: Option<Environment>,
        scope: &[Scope],
    ) -> Effect {
        let mut e = Effect::new(
            0,
            kind,
            Target {
                class,
                text: "x".into(),
                environment: env,
            },
        );
        for s in scope {
            e = e.with_scope(*s);
        }
        e
    }

    #[test]
    fn targets_and_scope_decide() {
        use EffectKind::*;
        use TargetClass::*;
        assert!(score(&e(Delete, System, None, &[]), 0) > 60);
        assert!(score(&e(Delete, BuildOutput, None, &[Scope::Recursive]), 0) <= 40);
        // one file of the user's is MEDIUM at most, a whole tree of them HIGH
        assert!(score(&e(Delete, UserData, None, &[Scope::Forced]), 0) <= 60);
        assert!(score(&e(Delete, UserData, None, &[Scope::Bulk]), 0) <= 60);
        assert!(score(&e(Delete, UserData, None, &[Scope::Recursive]), 0) > 60);
        assert!(
            score(
                &e(
                    Delete,
                    CloudResource,
                    Some(Environment::Prod),
                    &[Scope::Forced]
                ),
                8
            ) > 60
        );
        assert!(
            score(
                &e(
                    Delete,
                    CloudResource,
                    Some(Environment::Dev),
                    &[Scope::Forced]
                ),
                8
            ) <= 60
        );
        // deleting a remote object of unknown environment is irreversible: HIGH (the blind
        // rounds 10-13 label it so; dev resources stay MEDIUM, above)
        assert!(
            score(
                &e(Delete, CloudResource, Some(Environment::Unknown), &[]),
                0
            ) > 60
        );
        assert!(score(&e(Overwrite, System, None, &[Scope::Privileged]), 0) <= 60);
        assert!(score(&e(Modify, Credentials, None, &[Scope::Privileged]), 0) > 60);
        assert!(score(&e(Overwrite, ProjectSecret, None, &[]), 0) <= 40);
        assert!(score(&e(Permissions, Credentials, None, &[]), 0) < 15);
        assert!(score(&e(Permissions, Credentials, None, &[]), OWNER) > 40);
        assert!(
            score(
                &e(Permissions, Credentials, None, &[Scope::Privileged]),
                LOOSENS
            ) > 60
        );
        assert_eq!(
            score(&e(Delete, Root, None, &[Scope::Privileged]), 0),
            EFFECT_CAP
        );
        assert_eq!(score(&e(Read, PublicHost, None, &[]), 0), 0);
    }
}
