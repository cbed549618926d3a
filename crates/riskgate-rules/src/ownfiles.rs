//! Files and resources a script made itself: a delete of only those (`pg_dump -f "$OUT" db;
//! gpg -e "$OUT"; rm -f "$OUT"`, the plain dump removed once encrypted; `kubectl create
//! namespace "$NS"` … `kubectl delete namespace "$NS"` with a name unique to the run) removes
//! the script's own intermediate output, not what was there before it ran. What the earlier
//! step wrote over is rated at that step.

use riskgate_shell::ParsedCommand;

/// Programs that delete the files their operands name.
const DELETERS: &[&str] = &["rm", "unlink", "shred", "srm"];

/// Options whose value is a file a program writes (`pg_dump -f FILE`, `curl -o FILE`, `gpg
/// --output FILE`, `tar -cf FILE`); a program's `-f` that is no output (`rm -f`) has no value
/// the next word could be taken for unless it names the same path the delete names, which is
/// what is compared.
const OUTPUT_OPTIONS: &[&str] = &[
    "-o",
    "-f",
    "--output",
    "--out",
    "--file",
    "--output-file",
    "--outfile",
    "--result-file",
    "-cf",
    "-czf",
    "-cjf",
    "-cJf",
];

/// The paths the commands before `index` wrote: write redirections, output options' values.
fn written_before(parsed: &ParsedCommand, index: usize) -> Vec<&str> {
    let mut out = Vec::new();
    for c in parsed.commands.iter().take(index) {
        for r in &c.redirects {
            if r.op.contains('>') && !r.op.contains('&') {
                out.push(r.target.text.as_str());
            }
        }
        let words = &c.raw_argv;
        for (k, w) in words.iter().enumerate().skip(1) {
            let t = w.text.as_str();
            if let Some((flag, v)) = t.split_once('=')
                && OUTPUT_OPTIONS.contains(&flag)
            {
                out.push(v);
            } else if OUTPUT_OPTIONS.contains(&t)
                && let Some(v) = words.get(k + 1)
            {
                out.push(v.text.as_str());
            }
        }
    }
    out
}

/// Whether command `index` deletes only files the commands before it wrote, named by the same
/// words (not a glob: `rm backups/*.dump` may reach files made by anyone).
pub(crate) fn deletes_only_own_output(parsed: &ParsedCommand, index: usize) -> bool {
    let Some(c) = parsed.commands.get(index) else {
        return false;
    };
    if !DELETERS.contains(&c.program.as_str()) {
        return false;
    }
    let operands: Vec<&str> = c
        .args
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .collect();
    if operands.is_empty()
        || operands
            .iter()
            .any(|t| t.contains(['*', '?', '[']) || t.ends_with('/'))
    {
        return false;
    }
    let made = written_before(parsed, index);
    operands.iter().all(|t| made.contains(t))
}

/// How many commands before a delete are searched for the one that made its resource.
const MAX_LOOKBACK: usize = 256;

/// A delete among a program's subcommands: a verb of the effect table (`kubectl delete`,
/// `docker rm`, `git worktree remove`, `aws s3 rb`), or an uninstall of a release (`helm
/// uninstall`) or an image (`docker rmi`).
fn is_delete_word(w: &str) -> bool {
    crate::effects::is_delete_verb(w) || matches!(w, "uninstall" | "rmi")
}

/// Verbs that make a resource (`kubectl create`, `docker run --name`, `git worktree add`,
/// `aws s3 mb`, `helm install`).
const CREATE_VERBS: &[&str] = &["create", "add", "new", "mb", "run", "install", "init"];

/// Programs whose only job is to make or delete one kind of resource, paired.
const CREATE_DELETE_PROGRAMS: &[(&str, &str)] = &[
    ("createdb", "dropdb"),
    ("createuser", "dropuser"),
    ("useradd", "userdel"),
    ("groupadd", "groupdel"),
];

/// A name no earlier run can have used: it holds the process id, a random number, the time
/// to the second or a generated id (`preview-$(date +%s)`, `../wt-$$`, `scratch_$RANDOM`).
fn unique_to_the_run(name: &str) -> bool {
    [
        "$$",
        "${$}",
        "$RANDOM",
        "${RANDOM}",
        "$SRANDOM",
        "$BASHPID",
        "$(uuidgen",
        "$(mktemp",
    ]
    .iter()
    .any(|m| name.contains(m))
        || name.match_indices("$(date").any(|(i, _)| {
            let format = name[i..].split(')').next().unwrap_or("");
            format.contains("%s") || format.contains("%N") || format.contains("%S")
        })
}

/// Whether a word is a glob: a `*` or `?` outside `${…}` (`${NAME:?}` is no pattern).
fn is_glob(word: &str) -> bool {
    let mut rest = word;
    while let Some(i) = rest.find(['*', '?', '$']) {
        if rest[i..].starts_with("${") {
            match rest[i..].find('}') {
                Some(end) => rest = &rest[i + end + 1..],
                None => return true,
            }
        } else if rest[i..].starts_with('$') {
            rest = &rest[i + 1..];
        } else {
            return true;
        }
    }
    false
}

/// Whether command `index` deletes only resources an earlier command of the same script made
/// under a name unique to this run (a namespace, a container, a worktree, a database, a
/// bucket): every word naming what it deletes is a word of that creating command.
pub(crate) fn deletes_only_own_resources(parsed: &ParsedCommand, index: usize) -> bool {
    let Some(c) = parsed.commands.get(index) else {
        return false;
    };
    if DELETERS.contains(&c.program.as_str()) {
        return false;
    }
    let program = c.program.as_str();
    let creator = CREATE_DELETE_PROGRAMS
        .iter()
        .find(|(_, d)| *d == program)
        .map(|(m, _)| *m);
    let positionals: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
    let verb = positionals.iter().position(|p| is_delete_word(p));
    let names: Vec<&str> = match (creator, verb) {
        (Some(_), _) => positionals.clone(),
        (None, Some(k)) => positionals
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != k)
            .map(|(_, p)| *p)
            .collect(),
        (None, None) => return false,
    };
    if names.is_empty()
        || !names.iter().any(|n| unique_to_the_run(n))
        || names.iter().any(|n| is_glob(n))
    {
        return false;
    }
    // the creating command is looked for among the commands just before (bounded: a script
    // of thousands of deletes must not cost thousands of scans each)
    let from = index.saturating_sub(MAX_LOOKBACK);
    let before = parsed.commands.get(from..index).unwrap_or(&[]);
    before.iter().any(|m| {
        let made = match creator {
            Some(p) => m.program == p,
            None => {
                m.program == program
                    && m.positionals()
                        .any(|w| CREATE_VERBS.contains(&w.text.as_str()))
            }
        };
        made && {
            let words: Vec<&str> = m
                .raw_argv
                .iter()
                .map(|w| w.text.as_str())
                .flat_map(|t| [t, t.split_once('=').map_or(t, |(_, v)| v)])
                .collect();
            names.iter().all(|n| words.contains(n))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own_resource(script: &str) -> bool {
        let parsed = riskgate_shell::parse(script);
        let last = parsed.commands.len().saturating_sub(1);
        (0..=last)
            .rev()
            .find(|&i| {
                parsed.commands[i]
                    .positionals()
                    .any(|w| is_delete_word(&w.text))
                    || parsed.commands[i].program == "dropdb"
            })
            .is_some_and(|i| deletes_only_own_resources(&parsed, i))
    }

    #[test]
    fn resources_made_earlier_under_a_name_unique_to_the_run() {
        assert!(own_resource(
            "NS=\"preview-$(date +%s)\"\nkubectl create namespace \"$NS\"\nkubectl delete namespace \"$NS\" --wait=false"
        ));
        assert!(own_resource(
            "WT=../wt-$$\ngit worktree add \"$WT\" origin/main\ngit worktree remove --force \"$WT\""
        ));
        assert!(own_resource(
            "S=scratch_$RANDOM; createdb \"$S\"; dropdb \"$S\""
        ));
        assert!(own_resource(
            "NS=\"pr-${SLUG:?}-$(date +%s)\"; kubectl create ns \"$NS\"; kubectl delete ns \"$NS\""
        ));
        assert!(own_resource(
            "N=it-$$; docker run -d --name \"$N\" redis; docker rm -f \"$N\""
        ));
        // a name an earlier run (or anyone) may have made: the create may have failed
        assert!(!own_resource(
            "kubectl create namespace prod || true; kubectl delete namespace prod"
        ));
        assert!(!own_resource("createdb app; dropdb app"));
        // not made here, or another kind than was made
        assert!(!own_resource("kubectl delete namespace \"ns-$$\""));
        assert!(!own_resource(
            "kubectl create namespace \"ns-$$\"; kubectl delete pvc data -n \"ns-$$\""
        ));
        // made after the delete
        assert!(!own_resource(
            "kubectl delete namespace \"ns-$$\"; kubectl create namespace \"ns-$$\""
        ));
    }

    fn own(script: &str) -> bool {
        let parsed = riskgate_shell::parse(script);
        let last = parsed
            .commands
            .iter()
            .rposition(|c| DELETERS.contains(&c.program.as_str()));
        last.is_some_and(|i| deletes_only_own_output(&parsed, i))
    }

    #[test]
    fn only_files_made_earlier_by_the_same_words() {
        assert!(own(
            "OUT=./backups/a-$STAMP.dump\npg_dump -Fc -f \"$OUT\" app\ngpg -e \"$OUT\"\nrm -f \"$OUT\""
        ));
        assert!(own(
            "tar -czf backups/site.tgz site/ && rm backups/site.tgz"
        ));
        assert!(own(
            "mysqldump shop > backups/shop.sql; gzip -k backups/shop.sql; rm backups/shop.sql"
        ));
        // made by nobody here, or a glob, or only read before
        assert!(!own("rm -f backups/site.tgz"));
        assert!(!own("pg_dump -f backups/a.dump app; rm -f backups/*.dump"));
        assert!(!own("cat backups/a.dump > /dev/null; rm backups/a.dump"));
        assert!(!own(
            "pg_dump -f backups/a.dump app; rm backups/a.dump backups/old.dump"
        ));
        // written after the delete
        assert!(!own("rm backups/a.dump; pg_dump -f backups/a.dump app"));
    }
}
