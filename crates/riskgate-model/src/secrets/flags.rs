//! The option half of the secrets table: which programs take a credential as an option value
//! (`sshpass -p`, `mysql -pSECRET`, `curl -u user:pass`, `redis-cli -a`, `htpasswd -b`,
//! `docker login -p`, `aws configure set aws_secret_access_key …`), plus every option whose
//! name looks secret (`--password`, `--token=…`, `--client-secret`).
//!
//! Works on raw text, without the bash parser: the text is cut into words at whitespace and
//! into commands at `; | & ( )` newlines and backticks, once honouring quotes and once
//! ignoring them (so the command inside a JSON string, a truncated payload or an error
//! message is seen too). A word's program is its last path or quote component.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::Found;
use super::names::{is_elided, is_reference, is_secret_name};

/// How a credential follows its flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `-p VALUE` or `-pVALUE`.
    Either,
    /// `-pVALUE` only (`mysql -p db` prompts; `db` is the database).
    Glued,
    /// `-p VALUE` only.
    Separate,
    /// `-u user:pass` / `-uuser:pass`: the part after the first of these separators (none:
    /// a user name only, the tool prompts).
    UserPass(&'static str),
    /// A flag cluster containing this letter makes the last positional argument the password
    /// (`htpasswd -b FILE USER PASS`, `htpasswd -nb USER PASS`).
    LastPositional(char),
    /// A secret-named word followed by its value (`aws configure set aws_secret_access_key V`,
    /// `git config github.token V`, `setenv API_TOKEN V`); `flags` is unused.
    NamedPair,
}

/// One row: programs, a word that must also occur in the command (a subcommand, or empty),
/// the flags and how the credential follows them.
#[derive(Debug)]
pub struct CredentialFlags {
    /// Program names (the command word's base name).
    pub programs: &'static [&'static str],
    /// A word that must follow the program (`login` for `docker login`), or `""`.
    pub subcommand: &'static str,
    /// The flags.
    pub flags: &'static [&'static str],
    /// How the value follows.
    pub form: Form,
}

const fn cf(
    programs: &'static [&'static str],
    subcommand: &'static str,
    flags: &'static [&'static str],
    form: Form,
) -> CredentialFlags {
    CredentialFlags {
        programs,
        subcommand,
        flags,
        form,
    }
}

const MYSQL: &[&str] = &[
    "mysql",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlshow",
    "mysqlcheck",
    "mysqlpump",
    "mysqlsh",
    "mysqlslap",
    "mariadb",
    "mariadb-dump",
    "mariadb-admin",
    "mariadb-import",
    "mariadb-check",
];

/// Program-specific credential options. Options whose own name looks secret (`--password`,
/// `--api-token=…`, `-storepass`) need no row: see [`is_secret_flag`].
pub const CREDENTIAL_FLAGS: &[CredentialFlags] = &[
    cf(MYSQL, "", &["-p"], Form::Glued),
    cf(&["sshpass"], "", &["-p"], Form::Either),
    cf(
        &[
            "docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "cf", "oc",
        ],
        "login",
        &["-p"],
        Form::Either,
    ),
    cf(&["az"], "login", &["-p"], Form::Either),
    cf(&["twine"], "", &["-p"], Form::Either),
    cf(
        &["curl"],
        "",
        &["-u", "--user", "-U", "--proxy-user"],
        Form::UserPass(":"),
    ),
    cf(&["curl"], "", &["-b", "--cookie"], Form::Separate),
    cf(&["lftp"], "", &["-u", "--user"], Form::UserPass(",")),
    cf(
        &["smbclient", "rpcclient", "smbmap", "smbget", "net"],
        "",
        &["-U", "--user"],
        Form::UserPass("%"),
    ),
    cf(&["redis-cli", "keydb-cli"], "", &["-a"], Form::Either),
    cf(
        &[
            "mongo",
            "mongosh",
            "mongodump",
            "mongorestore",
            "mongoexport",
            "mongoimport",
        ],
        "",
        &["-p"],
        Form::Separate,
    ),
    cf(
        &["sqlcmd", "bcp", "osql", "isql"],
        "",
        &["-P"],
        Form::Either,
    ),
    cf(
        &[
            "ldapsearch",
            "ldapadd",
            "ldapmodify",
            "ldapdelete",
            "ldappasswd",
            "ldapwhoami",
            "ldapcompare",
            "ldapmodrdn",
        ],
        "",
        &["-w"],
        Form::Either,
    ),
    cf(&["useradd", "usermod"], "", &["-p"], Form::Separate),
    cf(
        &["openssl"],
        "",
        &["-passin", "-passout", "-pass", "-k", "-password"],
        Form::Separate,
    ),
    cf(&["zip", "unzip"], "", &["-P"], Form::Separate),
    cf(
        &["7z", "7za", "7zr", "rar", "unrar"],
        "",
        &["-p"],
        Form::Glued,
    ),
    cf(&["ssh-keygen"], "", &["-N", "-P"], Form::Separate),
    cf(&["security"], "", &["-w"], Form::Separate),
    cf(&["gh"], "secret", &["-b", "--body"], Form::Either),
    cf(
        &["xfreerdp", "wlfreerdp", "sdl-freerdp"],
        "",
        &["/p:"],
        Form::Glued,
    ),
    cf(&["htpasswd"], "", &[], Form::LastPositional('b')),
    cf(
        &[
            "aws", "npm", "pnpm", "yarn", "pip", "pip3", "conda", "dotnet",
        ],
        "set",
        &[],
        Form::NamedPair,
    ),
    cf(&["git"], "config", &[], Form::NamedPair),
    cf(&["setenv", "set"], "", &[], Form::NamedPair),
];

/// Options whose value is a name or pattern: a program name after them is not run.
const NAME_OPTIONS: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-regex",
    "-iregex",
    "-wholename",
    "-lname",
    "-e",
    "--regexp",
    "which",
    "type",
    "install",
    "remove",
    "purge",
    "search",
    "info",
    "show",
];

/// Whether an option's own name makes its value a secret: `--password`, `--db-pass`,
/// `-storepass`, `--client-secret`, `--oauth2-bearer`; not `--password-stdin`, `--token-file`.
pub fn is_secret_flag(flag: &str) -> bool {
    let Some(name) = flag.strip_prefix('-') else {
        return false;
    };
    let name = name.strip_prefix('-').unwrap_or(name);
    // `-pPASS` is a short option with a glued value, not an option named "pass"
    let glued_short = flag.len() - name.len() == 1
        && name.chars().nth(1).is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    !glued_short
        && name.len() > 2
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && (is_secret_name(name) || name.ends_with("pass") && !name.ends_with("bypass"))
}

#[derive(Debug, Clone, Copy)]
struct Word {
    start: usize,
    end: usize,
}

/// Cut `text` into commands of words and hand each to `f` in turn (one buffer, so memory
/// stays bounded by the longest command, not the whole text). `quotes`: quoted text stays in
/// one word.
fn for_each_command(text: &str, quotes: bool, mut f: impl FnMut(&[Word])) {
    let bytes = text.as_bytes();
    let mut cmd: Vec<Word> = Vec::new();
    let mut start: Option<usize> = None;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    let end_word = |cmd: &mut Vec<Word>, start: &mut Option<usize>, i: usize| {
        if let Some(s) = start.take() {
            cmd.push(Word { start: s, end: i });
        }
    };
    while let Some(&b) = bytes.get(i) {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            } else if b == b'\\' && q == b'"' {
                i += 1;
            }
            i += 1;
            continue;
        }
        match b {
            b'\'' | b'"' if quotes => {
                quote = Some(b);
                start.get_or_insert(i);
            }
            b'\\' if quotes => {
                start.get_or_insert(i);
                i += 1;
            }
            b' ' | b'\t' | b'\r' => end_word(&mut cmd, &mut start, i),
            b'\n' | b';' | b'|' | b'&' | b'(' | b')' | b'`' => {
                end_word(&mut cmd, &mut start, i);
                if !cmd.is_empty() {
                    f(&cmd);
                    cmd.clear();
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    end_word(&mut cmd, &mut start, bytes.len().min(i));
    f(&cmd);
}

/// The word as a program name: its last component after a path, quote or JSON punctuation.
fn program_of(w: &str) -> &str {
    let w = w.trim_end_matches(['"', '\'', '\\', ',', '}', ']', ':']);
    w.rsplit(['/', '"', '\'', ':', '{', '[', '=', '\\'])
        .next()
        .unwrap_or(w)
}

/// The word as an option: without surrounding quotes.
fn option_of(w: &str) -> &str {
    w.trim_start_matches(['"', '\'', '\\'])
        .trim_end_matches(['"', '\'', '\\', ',', '}'])
}

fn text_of(text: &str, w: Word) -> &str {
    text.get(w.start..w.end).unwrap_or("")
}

/// A value word that opens a quote it does not close (cut at whitespace when quotes were
/// ignored): extended to the closing quote, else to the end of the line.
fn whole_value(text: &str, w: Word) -> (usize, usize) {
    let v = text_of(text, w);
    let q = if v.starts_with("\\\"") {
        "\\\""
    } else if v.starts_with('"') {
        "\""
    } else if v.starts_with('\'') {
        "'"
    } else {
        return (w.start, w.end);
    };
    if v.len() > q.len() && v.ends_with(q) {
        return (w.start, w.end);
    }
    let from = w.start + q.len();
    let rest = text.get(from..).unwrap_or("");
    let end = match rest.find(q) {
        Some(i) => from + i + q.len(),
        None => from + rest.find('\n').unwrap_or(rest.len()),
    };
    (w.start, end.max(w.end))
}

/// The value span inside a word (from `from`), without JSON escapes' tails.
fn value_span(text: &str, from: usize, end: usize) -> Option<(usize, usize)> {
    let v = text.get(from..end)?;
    let end = if v.starts_with(['"', '\'', '\\']) {
        end
    } else {
        from + v.trim_end_matches(['"', '\\']).len()
    };
    let v = text.get(from..end)?;
    if v.is_empty() || is_reference(v) || is_elided(v) {
        return None;
    }
    Some((from, end))
}

fn push(found: &mut Vec<Found>, span: Option<(usize, usize)>, description: &'static str) {
    if let Some((start, end)) = span
        && end > start
    {
        found.push(Found {
            kind: "password-option",
            description,
            start,
            end,
            token: false,
        });
    }
}

/// Credentials given as option values, in both cuttings of the text.
pub(crate) fn scan(text: &str, found: &mut Vec<Found>) {
    for quotes in [true, false] {
        for_each_command(text, quotes, |cmd| scan_command(text, cmd, found));
    }
}

/// Every program of [`CREDENTIAL_FLAGS`]: a word naming none of them needs no look at the rows.
static CREDENTIAL_PROGRAMS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    CREDENTIAL_FLAGS
        .iter()
        .flat_map(|r| r.programs.iter().copied())
        .collect()
});

fn scan_command(text: &str, words: &[Word], found: &mut Vec<Found>) {
    // options named like secrets, whatever the program
    for (i, &w) in words.iter().enumerate() {
        let raw = text_of(text, w);
        let opt = option_of(raw);
        let lead = raw.len() - raw.trim_start_matches(['"', '\'', '\\']).len();
        if let Some((name, _)) = opt.split_once('=') {
            if is_secret_flag(name) {
                let from = w.start + lead + name.len() + 1;
                push(
                    found,
                    value_span(text, from, w.end),
                    "password given as an option",
                );
            }
        } else if is_secret_flag(opt)
            && let Some(&next) = words.get(i + 1)
            && !option_of(text_of(text, next)).starts_with('-')
        {
            let (s, e) = whole_value(text, next);
            push(found, value_span(text, s, e), "password given as an option");
        }
    }
    // program-specific options
    for (p, &pw) in words.iter().enumerate() {
        let prog = program_of(text_of(text, pw));
        if !CREDENTIAL_PROGRAMS.contains(prog) {
            continue;
        }
        // `find -name mysql -print`: a name searched for, not a program run
        if p > 0
            && words
                .get(p - 1)
                .is_some_and(|&w| NAME_OPTIONS.contains(&option_of(text_of(text, w))))
        {
            continue;
        }
        for row in CREDENTIAL_FLAGS
            .iter()
            .filter(|r| r.programs.contains(&prog))
        {
            let rest = words.get(p + 1..).unwrap_or(&[]);
            if !row.subcommand.is_empty()
                && !rest
                    .iter()
                    .any(|&w| option_of(text_of(text, w)) == row.subcommand)
            {
                continue;
            }
            scan_row(text, row, rest, found);
        }
    }
}

fn scan_row(text: &str, row: &CredentialFlags, rest: &[Word], found: &mut Vec<Found>) {
    const WHAT: &str = "password given as an option";
    match row.form {
        Form::NamedPair => {
            // `PROGRAM … SUBCOMMAND [flags] NAME VALUE`: the name is among the first few
            // words after the subcommand
            let from = if row.subcommand.is_empty() {
                0
            } else {
                rest.iter()
                    .position(|&w| option_of(text_of(text, w)) == row.subcommand)
                    .map_or(rest.len(), |i| i + 1)
            };
            let rest = rest.get(from..).unwrap_or(&[]);
            for (i, &w) in rest.iter().enumerate().take(4) {
                let name = option_of(text_of(text, w));
                if !name.starts_with('-')
                    && !name.contains('=')
                    && is_secret_name(name)
                    && let Some(&next) = rest.get(i + 1)
                {
                    let (s, e) = whole_value(text, next);
                    push(found, value_span(text, s, e), WHAT);
                }
            }
            return;
        }
        Form::LastPositional(letter) => {
            let batch = rest.iter().any(|&w| {
                let o = option_of(text_of(text, w));
                o.starts_with('-') && !o.starts_with("--") && o.contains(letter)
            });
            let positional: Vec<Word> = rest
                .iter()
                .copied()
                .filter(|&w| !option_of(text_of(text, w)).starts_with('-'))
                .collect();
            if batch
                && positional.len() >= 2
                && let Some(&last) = positional.last()
            {
                push(found, value_span(text, last.start, last.end), WHAT);
            }
            return;
        }
        _ => {}
    }
    for (i, &w) in rest.iter().enumerate() {
        let raw = text_of(text, w);
        let opt = option_of(raw);
        let lead = raw.len() - raw.trim_start_matches(['"', '\'', '\\']).len();
        for flag in row.flags {
            let next = rest.get(i + 1).copied();
            let glued_from = (opt.len() > flag.len() && opt.starts_with(flag))
                .then(|| w.start + lead + flag.len());
            let glued_from = glued_from.map(|f| {
                // `--user=u:p`
                if text.as_bytes().get(f) == Some(&b'=') && flag.starts_with("--") {
                    f + 1
                } else {
                    f
                }
            });
            let separate = (opt == *flag).then_some(next).flatten().map(|n| {
                let (start, end) = whole_value(text, n);
                Word { start, end }
            });
            let span = match row.form {
                Form::Glued => glued_from.map(|f| (f, w.end)),
                Form::Separate => separate.map(|n| (n.start, n.end)),
                Form::Either => glued_from
                    .map(|f| (f, w.end))
                    .or(separate.map(|n| (n.start, n.end))),
                Form::UserPass(seps) => glued_from
                    .map(|f| (f, w.end))
                    .or(separate.map(|n| (n.start, n.end)))
                    .and_then(|(s, e)| {
                        let v = text.get(s..e)?;
                        let cut = v.find(|c| seps.contains(c))?;
                        Some((s + cut + 1, e))
                    }),
                Form::NamedPair | Form::LastPositional(_) => None,
            };
            if let Some((s, e)) = span
                && !(row.form == Form::Glued && flag.len() == 2 && is_flag_word(text, s, e))
            {
                push(found, value_span(text, s, e), WHAT);
            }
        }
    }
}

/// `-pX` where the rest is itself a long option (`--protocol`) is no glued password.
fn is_flag_word(text: &str, s: usize, e: usize) -> bool {
    text.get(s..e).is_some_and(|v| v.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<&str> {
        let mut f = Vec::new();
        scan(text, &mut f);
        let mut v: Vec<&str> = f
            .iter()
            .map(|f| text.get(f.start..f.end).unwrap_or(""))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn program_flags() {
        assert_eq!(values("sshpass -p hunter2 ssh host"), ["hunter2"]);
        assert_eq!(values("sshpass -phunter2 ssh host"), ["hunter2"]);
        assert_eq!(values("mysql -u root -phunter2 app"), ["hunter2"]);
        assert!(values("mysql -u root -p app").is_empty());
        assert!(values("mkdir -p build; ssh -p 22 h").is_empty());
        assert_eq!(values("docker login -u ci -p hunter2 reg.io"), ["hunter2"]);
        assert!(values("docker run -p 80:80 nginx").is_empty());
        assert_eq!(values("curl -u admin:hunter2 https://x"), ["hunter2"]);
        assert_eq!(values("curl --user=admin:hunter2 https://x"), ["hunter2"]);
        assert!(values("curl -u admin https://x").is_empty());
        assert_eq!(values("redis-cli -h r -a hunter2 ping"), ["hunter2"]);
        assert_eq!(values("htpasswd -bc .htpasswd admin hunter2"), ["hunter2"]);
        assert_eq!(
            values("aws configure set aws_secret_access_key hunter2"),
            ["hunter2"]
        );
        assert_eq!(values("smbclient //h/s -U bob%hunter2"), ["hunter2"]);
    }

    #[test]
    fn secret_named_options() {
        assert_eq!(values("x --password hunter2 --user bob"), ["hunter2"]);
        assert_eq!(values("x --api-token=hunter2"), ["hunter2"]);
        assert_eq!(values("keytool -storepass hunter2"), ["hunter2"]);
        assert!(values("docker login --password-stdin reg.io").is_empty());
        assert!(values("x --token $TOKEN").is_empty());
        assert!(values("wget --passive-ftp https://x").is_empty());
    }

    #[test]
    fn inside_json_and_quotes() {
        assert_eq!(
            values(r#"{"command": "sshpass -p hunter2 ssh h"}"#),
            ["hunter2"]
        );
        assert_eq!(values(r#"{"command":"mysql -phunter2"#), ["hunter2"]);
        assert_eq!(values("x --password 'a b c' y"), ["'a b c'"]);
    }
}
