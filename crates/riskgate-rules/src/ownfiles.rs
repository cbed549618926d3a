//! Files a script made itself: a delete of only those (`pg_dump -f "$OUT" db; gpg -e "$OUT";
//! rm -f "$OUT"`, the plain dump removed once encrypted) removes the script's own intermediate
//! output, not files that were there before it ran. What the earlier step wrote over is rated
//! at that step.

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

#[cfg(test)]
mod tests {
    use super::*;

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
