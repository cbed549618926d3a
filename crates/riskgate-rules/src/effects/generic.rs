//! Generic inference for programs nobody described (and service CLIs no rule knows): the
//! verbs their subcommand words, their own names and their action files state, verb flags,
//! no-confirm and bulk flags, the nouns of what they act on and the environment their words
//! name. A program riskgate does not know still gets its effects from what it can see.

use riskgate_model::effect::{
    Effect, EffectKind, Environment, Scope, Target, TargetClass, classify_env,
};

use super::infer::Found;
use super::table;
use crate::matcher::CommandView;

/// The lowercase words of a word (`apps:destroy`, `DeleteCluster`, `delete_vhost`): the one
/// splitter the secret-name check uses too.
pub(crate) use riskgate_model::secrets::name_parts as parts;

/// Whether the program's own name may state its verb: a name of several words (`apps:destroy`,
/// `octodns-sync`, `purge_queue`) called as an installed program, not a file of the project.
fn named_verb(v: &CommandView<'_>) -> bool {
    let name = v.cmd.program.as_str();
    let written = v.cmd.raw_argv.first().map_or(name, |w| w.text.as_str());
    name.contains([':', '-', '_'])
        && (name.contains(':') || (!written.contains('/') && !name.contains('.')))
}

/// A web framework's console run by its interpreter (`php bin/console doctrine:schema:drop`,
/// `php artisan queue:flush`, `node ace migration:reset`): its commands are read like an
/// unknown CLI's, after the script's name (Django's `manage.py` has rules of its own, which
/// read its settings module).
pub(super) fn framework_console(v: &CommandView<'_>) -> bool {
    let interpreter = matches!(v.cmd.program.as_str(), "php" | "node" | "bun" | "ruby")
        || v.cmd.program.starts_with("php")
        || v.cmd.program.starts_with("python");
    interpreter
        && v.positionals.first().is_some_and(|p| {
            matches!(
                p.text.rsplit('/').next(),
                Some("console" | "artisan" | "ace" | "yii" | "spark" | "think" | "cake")
            )
        })
}

/// A task runner's target (`npm run db:drop`, `just db-reset`, `make destroy`, `task
/// deploy:prod`): the index in the positionals of the word that names the project's own task.
/// The task is read like an unknown CLI's subcommand; what it acts on is whatever the
/// project's configuration says, so only a production environment named on the command line
/// makes its verb count (see `command_effects`).
pub(super) fn task_target(v: &CommandView<'_>) -> Option<usize> {
    let program = v.cmd.program.as_str();
    let first = |from: usize| {
        v.positionals
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, p)| !p.after_flag && !p.text.contains(['=', '/', '@']))
            .map(|(i, _)| i)
    };
    match program {
        "npm" | "pnpm" | "yarn" | "bun" | "turbo" | "mise" | "nx" | "lerna" => v
            .positionals
            .first()
            .is_some_and(|p| matches!(p.text.as_ref(), "run" | "run-script"))
            .then(|| first(1))
            .flatten(),
        "just" | "make" | "gmake" | "task" | "go-task" | "invoke" | "inv" | "nox" | "tox"
        | "cake" | "grunt" | "gulp" | "mage" => first(0),
        _ => None,
    }
}

/// What a framework console clears that the application rebuilds (`cache:clear`,
/// `view:clear`, `cache/flush-all`, `optimize:clear`).
fn rebuilt_by_the_app(zone: &[(usize, &str)]) -> bool {
    zone.iter().flat_map(|(_, w)| parts(w)).any(|p| {
        matches!(
            p.as_str(),
            "cache"
                | "caches"
                | "view"
                | "views"
                | "route"
                | "routes"
                | "config"
                | "optimize"
                | "compiled"
                | "event"
                | "events"
                | "assets"
                | "debugbar"
        )
    })
}

/// Whether a word can be a subcommand (`projects`, `apps:destroy`, `delete-bucket`).
fn is_subcommand_word(w: &str) -> bool {
    w.len() <= 64
        && w.starts_with(|c: char| c.is_ascii_alphabetic())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-' | '_'))
}

/// Strength of a kind when a command states several (the strongest wins).
/// A subcommand that only reads, shows or checks (`list`, `view`, `plan`, `logs`).
fn is_look_verb(w: &str) -> bool {
    matches!(
        w,
        "list"
            | "ls"
            | "get"
            | "show"
            | "describe"
            | "view"
            | "status"
            | "info"
            | "inspect"
            | "diff"
            | "plan"
            | "preview"
            | "validate"
            | "check"
            | "logs"
            | "open"
    )
}

pub(super) fn strength(k: EffectKind) -> u8 {
    match k {
        EffectKind::Delete => 6,
        EffectKind::Overwrite => 5,
        EffectKind::Stop => 4,
        EffectKind::Publish => 3,
        EffectKind::Modify => 2,
        EffectKind::Install => 1,
        _ => 0,
    }
}

pub(super) fn env_words<'a>(v: &'a CommandView<'_>) -> impl Iterator<Item = &'a str> {
    v.cmd
        .args
        .iter()
        .map(|a| a.text.as_str())
        .chain(v.cmd.assignments.iter().map(|(_, w)| w.text.as_str()))
}

fn scope_flags(v: &CommandView<'_>, mut e: Effect) -> Effect {
    for a in &v.cmd.raw_argv[1.min(v.cmd.raw_argv.len())..] {
        let t = a.text.as_str();
        if t.starts_with('-') {
            if table::is_forced_flag(t) {
                e = e.with_scope(Scope::Forced);
            }
            // `--delete-all`, `--purge-all`: a verb flag for every entry
            if table::is_bulk_flag(t) || (t.ends_with("-all") && table::verb_flag(t).is_some()) {
                e = e.with_scope(Scope::Bulk);
            }
        } else if t.contains('*') || t == "_all" || t.contains("=all") {
            e = e.with_scope(Scope::Bulk);
        }
    }
    e
}

/// Intent read from the subcommand words and flags of a program nobody described.
/// CLIs that act on a test-mode account unless a flag says live.
const TEST_MODE: &[(&str, &[&str])] = &[("stripe", &["--live"])];

pub(super) fn generic_effects(v: &CommandView<'_>, out: &mut Vec<Found>) {
    // a function of the script: what its body runs is rated, not its name and arguments;
    // the shell's own tests and printers act on nothing their words name (`[ "$1" = --reset ]`)
    if v.cmd.function_call
        || matches!(
            v.cmd.program.as_str(),
            "[" | "[[" | "test" | "echo" | "printf" | ":" | "true" | "false" | "read" | "local"
        )
    {
        return;
    }
    let mut best: Option<(EffectKind, usize)> = None;
    let mut noun = false;
    // A verb that says "all" (`deleteall`, `flushall`, `purge_all`) is bulk.
    let mut says_all = false;
    // `apps:destroy shop --force` (dokku over ssh), `octodns-sync`, `purge_queue`: the
    // program's name states its verb (an installed program called by name: a script of the
    // project, `./scripts/reset-db.sh`, is rated by what it does, not by its file name)
    if named_verb(v) {
        for part in parts(&v.cmd.program) {
            if let Some(k) = table::verb(&part)
                && best.is_none_or(|(b, _)| strength(k) > strength(b))
            {
                best = Some((k, usize::MAX - 1));
            }
            noun |= table::is_resource_noun(&part);
        }
    }
    let task = task_target(v);
    let zone: Vec<(usize, &str)> = v
        .positionals
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.after_flag)
        .map(|(i, p)| (i, p.text.as_ref()))
        .skip(usize::from(framework_console(v)))
        .skip_while(|(i, _)| task.is_some_and(|t| *i < t))
        .take(4)
        .take_while(|(_, w)| is_subcommand_word(w))
        .collect();
    if framework_console(v) && rebuilt_by_the_app(&zone) {
        return;
    }
    for (i, w) in &zone {
        let ps = parts(w);
        for (j, part) in ps.iter().enumerate() {
            if table::is_resource_noun(part) {
                noun = true;
            }
            if table::verb(part).is_some()
                && (part.ends_with("all") || ps.get(j + 1).is_some_and(|n| n == "all"))
            {
                says_all = true;
            }
            if let Some(k) = table::verb(part)
                && best.is_none_or(|(b, _)| strength(k) > strength(b))
            {
                best = Some((k, *i));
            }
        }
    }
    // cleaning a data store (`atlas schema clean`, `… database clean`) drops what it holds;
    // a plain `clean` is a build's
    if best.is_none()
        && let Some((i, _)) = zone.iter().find(|(_, w)| *w == "clean")
        && zone.iter().any(|(_, w)| {
            matches!(
                *w,
                "schema"
                    | "schemas"
                    | "database"
                    | "databases"
                    | "db"
                    | "index"
                    | "indices"
                    | "table"
                    | "tables"
                    | "bucket"
                    | "queue"
                    | "topic"
                    | "keyspace"
                    | "data"
                    | "eventdata"
                    | "events"
                    | "store"
            )
        })
    {
        best = Some((EffectKind::Delete, *i));
        noun = true;
    }
    // an action file named for what it does (`curator delete_all.yml`, `runner
    // purge-stale.json`): the first word of its name is the verb, unless the command's own
    // verb only looks (`gh workflow view deploy-prod.yml`)
    if best.is_none() && !zone.iter().any(|(_, w)| is_look_verb(w)) {
        for (i, p) in v.positionals.iter().enumerate().take(4) {
            let name = p.text.rsplit('/').next().unwrap_or(&p.text);
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            if p.after_flag || !matches!(ext, "yml" | "yaml" | "json" | "toml") {
                continue;
            }
            let ps = parts(stem);
            if let Some(k) = ps.first().and_then(|w| table::verb(w)) {
                says_all |= ps.get(1).is_some_and(|n| n == "all");
                noun |= ps.iter().any(|w| table::is_resource_noun(w));
                best = Some((k, i));
                break;
            }
        }
    }
    // a later word that only creates, reads or checks is the command's verb: the earlier one
    // named a kind of object (`pscale deploy-request create`, `… delete-protection show`)
    if let Some((_, b)) = best
        && zone
            .iter()
            .any(|(i, w)| *i > b && (matches!(*w, "create" | "new" | "add") || is_look_verb(w)))
    {
        best = None;
    }
    let mut target_text: Option<String> = None;
    if let Some((_, i)) = best {
        target_text = v
            .positionals
            .iter()
            .skip(i + 1)
            .find(|p| !p.after_flag)
            .map(|p| p.text.to_string());
    }
    // `kcadm.sh delete realms/acme`: a REST-style target names its kind first
    if let Some(t) = &target_text
        && let Some((kind, _)) = t.split_once('/')
        && table::is_resource_noun(&kind.to_ascii_lowercase())
    {
        noun = true;
    }
    for a in v.cmd.raw_argv.iter().skip(1) {
        if let Some(k) = table::verb_flag(&a.text)
            && best.is_none_or(|(b, _)| strength(k) > strength(b))
        {
            best = Some((k, usize::MAX));
        }
    }
    // code handed to a database or service shell (`arangosh --javascript.execute-string
    // 'db._dropDatabase("shop")'`, `gremlin.sh -e 'g.V().drop()'`): a call named for a delete
    let mut called: Option<String> = None;
    if best.is_none_or(|(b, _)| b != EffectKind::Delete)
        && is_data_shell(&v.cmd.program)
        && let Some(name) = v
            .cmd
            .raw_argv
            .iter()
            .skip(1)
            .find_map(|a| deleting_call(&a.text))
    {
        best = Some((EffectKind::Delete, usize::MAX));
        called = Some(name);
        noun = true;
    }
    let Some((kind, i)) = best else {
        return;
    };
    let text = called
        .or(target_text)
        .or_else(|| v.positionals.get(i).map(|p| p.text.to_string()))
        .or_else(|| {
            v.positionals
                .iter()
                .find(|p| !p.after_flag)
                .map(|p| p.text.to_string())
        })
        .unwrap_or_else(|| v.cmd.program.clone());
    // switching off what guards the code or the account (`gh workflow disable
    // security-scan.yml`, `… rules pause waf-prod`) weakens a security control
    let switch_off = zone.iter().flat_map(|(_, w)| parts(w)).any(|p| {
        matches!(
            p.as_str(),
            "disable" | "deactivate" | "pause" | "suspend" | "stop" | "mute" | "off"
        )
    });
    // dropping requirements (`--no-require-symbols`, `--no-enforce-mfa`,
    // `--allow-weak-ciphers`) on a modification lowers a policy's protection
    let drops_requirement = matches!(kind, EffectKind::Modify | EffectKind::Overwrite)
        && v.cmd.raw_argv.iter().skip(1).any(|w| {
            let t = w.text.to_ascii_lowercase();
            [
                "--no-require",
                "--no-enforce",
                "--allow-weak",
                "--disable-mfa",
                "--no-mfa",
            ]
            .iter()
            .any(|p| t.starts_with(p))
                || switches_off_protection(&t)
        });
    let mut environment = classify_env(env_words(v));
    // a topic branch of a branching service (`neonctl branches delete feature-x`, a
    // PlanetScale or Supabase branch): a development copy, as a Git topic branch is
    // (`pscale branch delete DATABASE BRANCH`: the branch is the last operand)
    let last_operand = v
        .positionals
        .iter()
        .skip(i.saturating_add(1))
        .rfind(|p| !p.after_flag)
        .map(|p| p.text.to_string());
    if environment == Environment::Unknown
        && zone
            .iter()
            .any(|(_, w)| matches!(*w, "branch" | "branches"))
        && (is_topic_branch(&text) || last_operand.as_deref().is_some_and(is_side_branch))
    {
        environment = Environment::Dev;
    }
    // a CLI that works in test mode unless told otherwise (`stripe … --live`)
    if let Some((_, live)) = TEST_MODE.iter().find(|(p, _)| *p == v.cmd.program)
        && environment == Environment::Unknown
        && !live.iter().any(|f| v.has_flag(f))
    {
        environment = Environment::Dev;
    }
    let kind = if (switch_off && names_security_control(&text)) || drops_requirement {
        EffectKind::Security
    } else if kind == EffectKind::Modify && wipes_value(v, &zone, &text, environment) {
        EffectKind::Delete
    } else {
        kind
    };
    let said = |word: &str| {
        let name = named_verb(v).then(|| parts(&v.cmd.program));
        zone.iter()
            .flat_map(|(_, w)| parts(w))
            .chain(name.into_iter().flatten())
            .any(|p| p == word)
    };
    // purging named entries of a cache (`fastly purge --key product-123`, `--url …`) drops
    // copies the origin serves again
    if kind == EffectKind::Delete
        && said("purge")
        && !says_all
        && [
            "--key",
            "--url",
            "--surrogate-key",
            "--path",
            "--file",
            "--tag",
        ]
        .iter()
        .any(|f| {
            v.cmd
                .raw_argv
                .iter()
                .any(|a| a.text == *f || a.text.starts_with(&format!("{f}=")))
        })
        && !v.cmd.raw_argv.iter().any(|a| table::is_bulk_flag(&a.text))
    {
        return;
    }
    let t = Target {
        class: TargetClass::CloudResource,
        text,
        environment: Some(environment),
    };
    let mut e = scope_flags(v, Effect::new(0, kind, t));
    if says_all {
        e = e.with_scope(Scope::Bulk);
    }
    out.push(Found {
        effect: e,
        weight: if noun { 8 } else { 0 },
        guessed: true,
    });
}

/// Whether a program is named as the shell or client of a data store or service
/// (`arangosh`, `gremlin.sh`, `rethinkdb-cli`, `orientdb-console`), not a system shell or an
/// interpreter of a general language (whose code their own analyzers read).
fn is_data_shell(program: &str) -> bool {
    let p = program.to_ascii_lowercase();
    let shell = matches!(
        p.as_str(),
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "csh" | "tcsh" | "ash" | "busybox"
    );
    !shell
        && ["sh", "db", "cli", "console", "gremlin", "query"]
            .iter()
            .any(|n| p.contains(n))
}

/// The name of a call in code text whose words state a delete (`db._dropDatabase("shop")`,
/// `r.dbDrop('x')`, `g.V().drop()`, `client.deleteIndex(…)`); text that is no code (no call
/// parenthesis, a URL) has none.
fn deleting_call(text: &str) -> Option<String> {
    if !text.contains('(') || text.contains("://") || text.len() > 4096 {
        return None;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find('(') {
        let open = from + k;
        let start = text[..open]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .map_or(0, |p| p + 1);
        let name = &text[start..open];
        // a method or a function of the code (`.drop(`, `dbDrop(`), not a word in prose
        // a method of an object of the code (`db._dropDatabase(`, `r.dbDrop(`, `.drop(`)
        let method = start > 0 && bytes.get(start - 1) == Some(&b'.');
        if method
            && !name.is_empty()
            && parts(name)
                .iter()
                .any(|p| table::verb(p) == Some(EffectKind::Delete))
        {
            return Some(name.to_string());
        }
        from = open + 1;
    }
    None
}

/// A branch name of a feature, fix, preview or experiment (`feature-x`, `feat/search`,
/// `fix-123`, `preview-pr-42`), not a long-lived one (`main`, `production`).
/// A branch that is not the service's trunk or a release line (`add-orders-index`, not
/// `main`, `production`, `release-2024-11`): what a branching database makes for a change.
fn is_side_branch(name: &str) -> bool {
    let ps = parts(name);
    !ps.is_empty()
        && !ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "main"
                    | "master"
                    | "trunk"
                    | "prod"
                    | "production"
                    | "live"
                    | "staging"
                    | "stage"
                    | "release"
                    | "default"
                    | "primary"
            )
        })
        && !name.starts_with(['$', '-'])
}

fn is_topic_branch(name: &str) -> bool {
    let first = parts(name).into_iter().next().unwrap_or_default();
    matches!(
        first.as_str(),
        "feature"
            | "feat"
            | "fix"
            | "bugfix"
            | "topic"
            | "preview"
            | "wip"
            | "spike"
            | "exp"
            | "experiment"
            | "test"
            | "dev"
            | "pr"
            | "dependabot"
            | "renovate"
            | "chore"
    )
}

/// A setting that turns a protection off: `bruteForceProtected=false`, `otpPolicyType=none`,
/// `sslRequired=none`, `mfa_enabled=0`, `--verify-tls=false` (lower case).
fn switches_off_protection(arg: &str) -> bool {
    let Some((key, value)) = arg.trim_start_matches('-').split_once('=') else {
        return false;
    };
    let off = matches!(
        value.trim_matches(['"', '\'']),
        "false" | "off" | "none" | "disabled" | "disable" | "0" | "no"
    );
    off && [
        "protect",
        "mfa",
        "otp",
        "2fa",
        "totp",
        "ssl",
        "tls",
        "verify",
        "encrypt",
        "audit",
        "firewall",
        "security",
        "bruteforce",
        "lockout",
        "captcha",
    ]
    .iter()
    .any(|w| key.contains(w))
}

/// A modification that removes what it names: a secret unset from a service (`travis env
/// unset AWS_SECRET_ACCESS_KEY`), any variable unset in production (`heroku config:unset
/// DATABASE_URL --app acme-prod`), or a value set to nothing
/// (`conjur variable set -i prod/db/password -v ''`).
fn wipes_value(
    v: &CommandView<'_>,
    zone: &[(usize, &str)],
    target: &str,
    environment: Environment,
) -> bool {
    let unsets = zone
        .iter()
        .flat_map(|(_, w)| parts(w))
        .any(|p| p == "unset");
    let names_secret = riskgate_model::secrets::is_secret_name(target);
    let sets = zone
        .iter()
        .flat_map(|(_, w)| parts(w))
        .any(|p| matches!(p.as_str(), "set" | "put" | "update" | "write"));
    let empty_value = v.cmd.raw_argv.iter().skip(1).any(|w| w.text.is_empty());
    (unsets && (names_secret || environment == Environment::Prod)) || (sets && empty_value)
}

/// Words that name a security control: scanners, audits, firewalls, protections.
const SECURITY_CONTROLS: &[&str] = &[
    "security",
    "secscan",
    "scan",
    "scanning",
    "scanner",
    "codeql",
    "sast",
    "dast",
    "audit",
    "auditing",
    "dependabot",
    "snyk",
    "trivy",
    "semgrep",
    "gitleaks",
    "trufflehog",
    "firewall",
    "waf",
    "guardduty",
    "defender",
    "antivirus",
    "malware",
    "falco",
    "protection",
    "mfa",
    "2fa",
    "vulnerability",
    "vulnerabilities",
    "secrets",
    "sentinel",
    // what records who did what: stopping it blinds the audit
    "recorder",
    "recording",
    "trail",
    "cloudtrail",
    "logging",
    "detector",
    "inspector",
    "macie",
    "securityhub",
    "compliance",
];

/// Whether a target's name names a security control (`security-scan.yml`, `waf-prod`).
fn names_security_control(text: &str) -> bool {
    text.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| SECURITY_CONTROLS.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_parts() {
        assert_eq!(parts("apps:destroy"), ["apps", "destroy"]);
        assert_eq!(parts("DeleteCluster"), ["delete", "cluster"]);
        assert_eq!(parts("delete_vhost"), ["delete", "vhost"]);
        assert_eq!(
            parts("service-instance-delete"),
            ["service", "instance", "delete"]
        );
    }
}
