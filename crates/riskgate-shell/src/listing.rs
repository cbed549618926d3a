//! Listings and known input: which commands run once per entry of a listing (`for p in
//! $(pgrep x)`, `ps … | while read pid`, `docker ps -q | xargs docker rm`, `redis-cli --scan |
//! xargs redis-cli DEL`), and what `read`, `mapfile`, `printf -v` and `xargs -I` take from
//! input the script made known (a here-string, a file it wrote, a pipeline of literal
//! producers).

use crate::ctx::{Norm, XWord};
use crate::script::MAX_DEFS;
use crate::{Listing, SimpleCommand, Word, unwrap};

/// Most lines of known input taken by `xargs -I`.
const MAX_XARGS_LINES: usize = 64;

/// Longest known input `read` takes (longer input leaves its variables unknown).
const MAX_READ_BYTES: usize = crate::ctx::MAX_VAR_LEN;

/// Variable names a dynamic word refers to (`"$pid"`, `${f}` …).
fn var_refs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let mut j = i + 1;
            if b.get(j) == Some(&b'{') {
                j += 1;
            }
            let s = j;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > s
                && let Some(name) = text.get(s..j)
            {
                out.push(name);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn positional(c: &SimpleCommand, n: usize) -> Option<&str> {
    c.positionals().nth(n).map(|w| w.text.as_str())
}

/// A command that lists processes, resources or files, one per line.
fn is_listing(c: &SimpleCommand) -> bool {
    let p0 = positional(c, 0).unwrap_or("");
    let p1 = positional(c, 1).unwrap_or("");
    match c.program.as_str() {
        "ps" | "pgrep" | "pidof" | "ls" | "find" | "lsblk" | "who" | "users" => true,
        // the sockets' owning processes (`ss -ltnp`, `netstat -tlnp`): every network daemon
        "ss" | "netstat" => c.raw_argv.iter().skip(1).any(|w| {
            w.text == "--processes"
                || w.text == "--program"
                || (w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains('p'))
        }),
        // the accounts (`getent passwd`, `awk -F: … /etc/passwd`, `cut -d: -f6 /etc/passwd`)
        "getent" => matches!(p0, "passwd" | "group" | "shadow"),
        "awk" | "gawk" | "mawk" | "cut" | "cat" => account_file(c),
        "lsof" => c.raw_argv.iter().any(|w| w.text == "-t"),
        "docker" | "podman" | "nerdctl" => {
            matches!(p0, "ps" | "images")
                || (matches!(p0, "container" | "volume" | "image" | "network" | "system")
                    && matches!(p1, "ls" | "list" | "ps"))
        }
        "kubectl" | "oc" => p0 == "get",
        "helm" => matches!(p0, "list" | "ls"),
        "aws" => {
            (p0 == "s3" && p1 == "ls") || p1.starts_with("describe-") || p1.starts_with("list-")
        }
        "gcloud" | "az" | "doctl" => c.positionals().any(|w| w.text == "list"),
        "git" => matches!(p0, "branch" | "for-each-ref" | "ls-remote" | "tag"),
        "psql" | "mysql" => c
            .raw_argv
            .iter()
            .any(|w| w.text.to_ascii_lowercase().contains("select")),
        "systemctl" => p0.starts_with("list-"),
        "virsh" => p0 == "list",
        _ => store_listing(c).is_some(),
    }
}

/// Whether `c` reads the system's account database (`/etc/passwd`, `/etc/shadow`,
/// `/etc/group`) as an operand.
fn account_file(c: &SimpleCommand) -> bool {
    c.raw_argv.iter().skip(1).any(|w| {
        matches!(
            w.text.as_str(),
            "/etc/passwd" | "/etc/shadow" | "/etc/group"
        )
    })
}

/// The home directories an account listing yields: `$6` printed by awk or field 6 cut from
/// `passwd` entries, anywhere in the pipeline (`getent passwd | cut -d: -f6`). Each is a user's
/// home: `/home/*` stands for them.
fn home_entries(cmds: &[SimpleCommand]) -> Option<String> {
    let passwd = cmds.iter().any(|c| {
        (c.program == "getent" && positional(c, 0) == Some("passwd"))
            || c.raw_argv.iter().skip(1).any(|w| w.text == "/etc/passwd")
    });
    let home =
        cmds.iter().any(|c| match c.program.as_str() {
            "awk" | "gawk" | "mawk" => c.raw_argv.iter().skip(1).any(|w| {
                w.text.contains("print") && w.text.contains("$6") && !w.text.contains("$60")
            }),
            "cut" => {
                c.raw_argv.iter().skip(1).any(|w| {
                    let f = w
                        .text
                        .strip_prefix("-f")
                        .or_else(|| w.text.strip_prefix("--fields="));
                    f.is_some_and(|f| f.split(',').any(|x| x == "6"))
                }) || c
                    .raw_argv
                    .windows(2)
                    .any(|w| w[0].text == "-f" && w[1].text.split(',').any(|x| x == "6"))
            }
            _ => false,
        });
    (passwd && home).then(|| "/home/*".to_string())
}

/// A listing of the keys or objects of a key-value or object store, with the pattern or
/// prefix that selects them (`None`: all of them): `redis-cli --scan --pattern P`,
/// `redis-cli KEYS P`, `etcdctl get PREFIX --prefix --keys-only`, `consul kv get -recurse
/// PREFIX`, `gsutil ls URL`, `rclone lsf REMOTE:PATH`, `mc ls ALIAS/BUCKET`.
pub(crate) fn store_listing(c: &SimpleCommand) -> Option<Option<&str>> {
    let raw: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let after = |o: &str| {
        raw.windows(2)
            .find(|w| w[0] == o)
            .map(|w| w[1])
            .or_else(|| {
                raw.iter()
                    .find_map(|t| t.strip_prefix(o).and_then(|v| v.strip_prefix('=')))
            })
    };
    fn selection(p: Option<&str>) -> Option<&str> {
        p.filter(|p| !matches!(p.trim_matches(['"', '\'']), "" | "*" | "/" | "**"))
    }
    let p0 = positional(c, 0).unwrap_or("");
    match c.program.as_str() {
        "redis-cli" | "valkey-cli" | "keydb-cli" => {
            if raw.contains(&"--scan") {
                return Some(selection(after("--pattern")));
            }
            let k = raw.iter().position(|t| t.eq_ignore_ascii_case("keys"))?;
            Some(selection(raw.get(k + 1).copied()))
        }
        "etcdctl" if p0 == "get" && (raw.contains(&"--prefix") || raw.contains(&"--from-key")) => {
            Some(selection(positional(c, 1)))
        }
        "consul" if p0 == "kv" && positional(c, 1) == Some("get") => {
            let recurse = raw
                .iter()
                .any(|t| matches!(*t, "-recurse" | "--recurse" | "-keys"));
            recurse.then(|| selection(positional(c, 2)))
        }
        "gsutil" if matches!(p0, "ls" | "du") => {
            Some(positional(c, 1).filter(|u| u.contains(['*', '?'])))
        }
        "rclone" if matches!(p0, "lsf" | "ls" | "lsl" | "lsd" | "lsjson") => {
            Some(positional(c, 1).filter(|u| u.contains(['*', '?'])))
        }
        "mc" if matches!(p0, "ls" | "find") => {
            let name = after("--name");
            Some(name.or_else(|| positional(c, 1).filter(|u| u.contains(['*', '?']))))
        }
        _ => None,
    }
}

/// Whether a listing narrows itself (a name, a selector, a filter).
fn narrowed(c: &SimpleCommand) -> bool {
    let raw: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let has = |o: &str| {
        raw.iter()
            .any(|t| *t == o || t.starts_with(&format!("{o}=")))
    };
    match c.program.as_str() {
        "pgrep" | "pidof" | "lsof" => true,
        "ps" => {
            let root = raw
                .windows(2)
                .any(|w| matches!(w[0], "-U" | "-u") && w[1] == "root");
            !root
                && raw.iter().any(|t| {
                    matches!(
                        *t,
                        "-C" | "-p" | "--pid" | "-q" | "-u" | "-U" | "-G" | "--ppid"
                    ) || t.starts_with("--pid=")
                })
        }
        "kubectl" | "oc" => {
            has("-l") || has("--selector") || has("--field-selector") || c.positionals().count() > 2
        }
        "docker" | "podman" | "nerdctl" => has("-f") || has("--filter"),
        // Any test but the type and the depth narrows (`-name`, `-inum`, `-newer…`, `-user`).
        "find" => raw.iter().any(|t| {
            t.starts_with('-')
                && !matches!(
                    *t,
                    "-type"
                        | "-xtype"
                        | "-maxdepth"
                        | "-mindepth"
                        | "-xdev"
                        | "-mount"
                        | "-depth"
                        | "-print"
                        | "-print0"
                        | "-follow"
                        | "-L"
                        | "-H"
                        | "-P"
                        | "-ls"
                )
        }),
        "ls" => raw.iter().any(|t| t.contains(['*', '?', '['])),
        _ => store_listing(c).is_some_and(|sel| sel.is_some()),
    }
}

/// A command that narrows its input lines (`grep sshd`, `awk '/x/'`, `head`).
fn is_filter(c: &SimpleCommand) -> bool {
    match c.program.as_str() {
        "grep" | "egrep" | "fgrep" | "rg" => !c.inverts_match(),
        "awk" | "gawk" | "mawk" => c
            .raw_argv
            .iter()
            .skip(1)
            .any(|w| w.text.contains(['/', '~']) || w.text.contains("==")),
        "head" | "tail" => true,
        "sed" => !substitutes_only(c),
        _ => false,
    }
}

/// `tail -n +N` (N ≥ 2) or `head -n -N` (N ≥ 1): every line but the first or last few.
fn keeps_some(c: &SimpleCommand) -> bool {
    let words: Vec<&str> = c.raw_argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let count = words.iter().enumerate().find_map(|(i, w)| match *w {
        "-n" | "--lines" => words.get(i + 1).copied(),
        w => w
            .strip_prefix("--lines=")
            .or_else(|| w.strip_prefix("-n").filter(|v| !v.is_empty())),
    });
    let Some(count) = count else {
        return false;
    };
    let n = |v: &str| v.parse::<u64>().ok();
    match c.program.as_str() {
        "tail" => count.strip_prefix('+').and_then(n).is_some_and(|v| v >= 2),
        "head" => count.strip_prefix('-').and_then(n).is_some_and(|v| v >= 1),
        _ => false,
    }
}

/// A sed that only rewrites each line (`sed 's#origin/##'`): one script of one `s` command and
/// no `-n`, so every entry goes through (a `d`, a `/re/p` under `-n`, a `q` would select).
fn substitutes_only(c: &SimpleCommand) -> bool {
    let quiet = c
        .raw_argv
        .iter()
        .skip(1)
        .any(|w| matches!(w.text.as_str(), "-n" | "--quiet" | "--silent"));
    let mut scripts = c
        .raw_argv
        .iter()
        .skip(1)
        .filter(|w| !w.text.starts_with('-'));
    let (Some(script), None) = (scripts.next(), scripts.next()) else {
        return false;
    };
    let t = script.text.as_str();
    let mut chars = t.chars();
    let delim = match (chars.next(), chars.next()) {
        (Some('s'), Some(d)) if !d.is_alphanumeric() && d != '\\' && !d.is_whitespace() => d,
        _ => return false,
    };
    // `s` + delimiter + pattern + delimiter + replacement + delimiter + flags (g, I, a number)
    let parts: Vec<&str> = t[1 + delim.len_utf8()..].split(delim).collect();
    !quiet
        && parts.len() == 3
        && parts.get(2).is_some_and(|f| {
            f.chars()
                .all(|c| matches!(c, 'g' | 'i' | 'I') || c.is_ascii_digit())
        })
        && !t.contains(['\n', ';'])
}

/// The value of `$(mktemp …)` (a fresh name in the temporary directory, or in `-p DIR` /
/// `--tmpdir=DIR`): `rm -rf "$WORK"` after `WORK=$(mktemp -d)` deletes a scratch directory.
pub(crate) fn mktemp_value(text: &str) -> Option<String> {
    let inner = text
        .trim_matches('"')
        .strip_prefix("$(")
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| {
            text.trim_matches('"')
                .strip_prefix('`')
                .and_then(|t| t.strip_suffix('`'))
        })?;
    let mut words = inner.split_whitespace();
    if words.next()?.rsplit('/').next()? != "mktemp" || inner.contains(['$', '`', ';', '|', '&']) {
        return None;
    }
    let mut dir = "/tmp".to_string();
    let mut it = words.peekable();
    while let Some(w) = it.next() {
        if w == "-p" || w == "--tmpdir" {
            if let Some(d) = it.next() {
                dir = d.trim_matches(['"', '\'']).to_string();
            }
        } else if let Some(d) = w.strip_prefix("--tmpdir=").or_else(|| w.strip_prefix("-p"))
            && !d.is_empty()
        {
            dir = d.trim_matches(['"', '\'']).to_string();
        }
    }
    if dir.is_empty() || dir.contains("..") {
        return None;
    }
    Some(format!("{}/tmp.mktemp", dir.trim_end_matches('/')))
}

/// The listing among `cmds` (a pipeline or a substitution, in order), if any.
pub(crate) fn listing_of(cmds: &[SimpleCommand], cwd: Option<&str>) -> Option<Listing> {
    let k = cmds.iter().position(is_listing)?;
    let c = cmds.get(k)?;
    let filtered = cmds.iter().skip(k + 1).any(is_filter);
    let path = match c.program.as_str() {
        "ls" | "find" => {
            let first = c
                .raw_argv
                .iter()
                .skip(1)
                .find(|w| !w.text.starts_with('-'))
                .map(|w| w.text.as_str());
            match first {
                Some(p) if !p.contains(['*', '?']) => crate::globs::join_cwd(cwd, p),
                Some(_) => None,
                None => cwd.map(str::to_string),
            }
        }
        _ => None,
    };
    // `ls -1t /backups/db/*.sql.gz`: the files the glob matches
    let glob = (c.program == "ls")
        .then(|| {
            c.raw_argv
                .iter()
                .skip(1)
                .find(|w| !w.text.starts_with('-'))
                .filter(|w| !w.dynamic && w.text.contains(['*', '?']))
                .and_then(|w| crate::globs::join_cwd(cwd, &w.text))
        })
        .flatten();
    // a retention filter over backups or logs (`tail -n +15`: all but the 14 newest) keeps
    // the newest copies: a variable read from it is not every one of them. Other data
    // (`ls -t pg_wal | tail -n +2`) is lost just the same.
    let keeps = cmds.iter().skip(k + 1).any(keeps_some);
    let entries = path
        .as_deref()
        .map(|dir| entries_glob(c, dir))
        .or(glob)
        .or_else(|| home_entries(cmds))
        .filter(|e| {
            !keeps
                || !matches!(
                    riskgate_model::effect::classify_path(e),
                    riskgate_model::effect::TargetClass::Backups
                        | riskgate_model::effect::TargetClass::Logs
                )
        });
    // what selects the entries: pgrep's pattern, the patterns of the greps after the listing
    let mut selection: Vec<&str> = Vec::new();
    if matches!(c.program.as_str(), "pgrep" | "pidof") {
        selection.extend(c.positionals().map(|w| w.text.as_str()));
    }
    if let Some(Some(pattern)) = store_listing(c) {
        selection.push(pattern);
    }
    for f in cmds.iter().skip(k + 1).filter(|f| is_filter(f)) {
        if matches!(f.program.as_str(), "grep" | "egrep" | "fgrep" | "rg") {
            selection.extend(f.positionals().take(1).map(|w| w.text.as_str()));
        }
    }
    let filter = (!selection.is_empty()).then(|| selection.join(" "));
    Some(Listing {
        program: c.program.clone(),
        command: c.canonical(),
        every: !filtered && !narrowed(c),
        path,
        entries,
        filter,
    })
}

/// The entries of a file listing of `dir` as one glob: `find DIR -name PAT` → `DIR/**/PAT`,
/// `find DIR` → `DIR/**`, `ls DIR` → `DIR/*`.
fn entries_glob(c: &SimpleCommand, dir: &str) -> String {
    let dir = dir.trim_end_matches('/');
    let dir = if dir.is_empty() { "/" } else { dir };
    let sep = if dir.ends_with('/') { "" } else { "/" };
    if c.program != "find" {
        return format!("{dir}{sep}*");
    }
    let words: Vec<&str> = c.raw_argv.iter().map(|w| w.text.as_str()).collect();
    let name = crate::find_name_pattern(&words);
    match name {
        Some(n) => format!("{dir}{sep}**/{n}"),
        None => format!("{dir}{sep}**"),
    }
}

impl Norm<'_> {
    /// The listing among the commands recorded from `start` on.
    pub(crate) fn listing_since(&self, start: usize) -> Option<Listing> {
        let cmds = self.commands.get(start..)?;
        listing_of(cmds, self.cwd.as_deref())
    }

    /// The listing a command's words draw from: a listing-fed variable (`$pid`).
    pub(crate) fn listing_of_words(&self, argv: &[XWord]) -> Option<Listing> {
        if self.script.var_listing.is_empty() {
            return None;
        }
        argv.iter()
            .filter(|w| w.w.dynamic)
            .flat_map(|w| var_refs(&w.w.text))
            .find_map(|v| self.script.var_listing.get(v).cloned())
            .or_else(|| self.listing_of_entries(argv.iter().map(|w| w.w.text.as_str())))
    }

    /// A listing whose entries glob a word is (a variable read from `find /var/log` holds
    /// `/var/log/**`, so `rm "$f"` still runs once per entry).
    fn listing_of_entries<'a>(&self, mut words: impl Iterator<Item = &'a str>) -> Option<Listing> {
        words.find_map(|t| {
            self.script
                .var_listing
                .values()
                .find(|l| l.entries.as_deref() == Some(t))
                .cloned()
        })
    }

    /// [`Norm::listing_of_words`] over recorded words.
    pub(crate) fn listing_of_argv(&self, argv: &[Word]) -> Option<Listing> {
        if self.script.var_listing.is_empty() {
            return None;
        }
        argv.iter()
            .filter(|w| w.dynamic)
            .flat_map(|w| var_refs(&w.text))
            .find_map(|v| self.script.var_listing.get(v).cloned())
            .or_else(|| self.listing_of_entries(argv.iter().map(|w| w.text.as_str())))
    }

    /// The listing run by the process substitution command `idx` reads as its input (`< <(find
    /// /srv -name '*.dump')`): the commands recorded just before it, inside its span.
    fn substituted_listing(&self, idx: usize) -> Option<Listing> {
        let cmd = self.commands.get(idx)?;
        let from_subst =
            matches!(&cmd.stdin, Some(crate::StdinSource::File { path }) if path.starts_with("<("));
        if !from_subst {
            return None;
        }
        let mut first = idx;
        while first > 0
            && self
                .commands
                .get(first - 1)
                .is_some_and(|c| cmd.span.start <= c.span.start && c.span.end <= cmd.span.end)
        {
            first -= 1;
        }
        listing_of(self.commands.get(first..idx)?, self.cwd.as_deref())
    }

    /// Remember a variable as holding entries of `l`.
    pub(crate) fn taint_var(&mut self, name: &str, l: Listing) {
        if self.script.var_listing.len() < MAX_DEFS || self.script.var_listing.contains_key(name) {
            self.script.var_listing.insert(name.to_string(), l);
        }
    }

    /// `read` with known input (`read -r c <<< '…'`, `while read l; do …; done < f`): the
    /// variables get the text (every line, inside a loop); from a listing, they hold its
    /// entries.
    pub(crate) fn read_builtin(&mut self, cmd_idx: usize, own: Option<&(String, bool)>) {
        let Some(cmd) = self.commands.get(cmd_idx) else {
            return;
        };
        let own_stdin = cmd.stdin.is_some();
        let raw: Vec<Word> = cmd.raw_argv.iter().skip(1).cloned().collect();
        // the separators `read` splits a line on: its own `IFS=… read`, else the script's
        let ifs = cmd
            .assignments
            .iter()
            .rev()
            .find(|(k, _)| k == "IFS")
            .map(|(_, w)| (!w.dynamic).then(|| w.text.clone()))
            .unwrap_or_else(|| self.env.get("IFS").cloned().flatten())
            .unwrap_or_else(|| crate::words::DEFAULT_IFS.to_string());
        let mut array = None;
        let mut names = Vec::new();
        let mut it = raw.iter();
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if let Some(opts) = t.strip_prefix('-') {
                if opts.contains('a') {
                    array = it.next().map(|w| w.text.clone());
                } else if opts.len() == 1 && "dnNpt".contains(opts) {
                    let _ = it.next();
                }
                continue;
            }
            if unwrap::is_name(t) {
                names.push(t.to_string());
            }
        }
        let text = match own {
            Some((b, true)) if b.len() <= MAX_READ_BYTES => {
                Some(b.lines().next().unwrap_or("").to_string())
            }
            Some(_) => None,
            None if !own_stdin => self
                .script
                .loop_stdin
                .last()
                .and_then(|t| t.as_deref())
                .filter(|t| t.len() <= MAX_READ_BYTES)
                .map(|t| t.lines().collect::<Vec<_>>().join("\n")),
            None => None,
        };
        let listing = if own_stdin {
            // `mapfile -t a < <(find …)`: the listing the process substitution runs
            self.substituted_listing(cmd_idx)
        } else {
            self.script.pipe_listing.last().cloned().flatten()
        };
        if let Some(a) = array {
            let v = text
                .as_ref()
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "));
            self.set_var(&format!("{a}[@]"), v);
            if let Some(l) = &listing {
                self.taint_var(&a, l.clone());
            }
        }
        let n = names.len();
        // A single variable read from a file listing whose directory is known stands for
        // its entries (`find /var/log -name '*.log' | while read f; do : > "$f"; done`).
        let entries = listing
            .as_ref()
            .and_then(|l| l.entries.clone())
            .filter(|_| n == 1 && text.is_none());
        // account entries split into fields (`print $1":"$6` | `IFS=: read -r u h`): the
        // home directory is the last field
        let homes = listing
            .as_ref()
            .and_then(|l| l.entries.clone())
            .filter(|e| n > 1 && text.is_none() && e == "/home/*");
        for (k, name) in names.iter().enumerate() {
            if k + 1 == n
                && let Some(h) = &homes
            {
                self.set_var(name, Some(h.clone()));
                continue;
            }
            if let Some(e) = &entries {
                self.set_var(name, Some(e.clone()));
                if let Some(l) = &listing {
                    self.taint_var(name, l.clone());
                }
                continue;
            }
            // every line read gives each variable a value: inside a loop the variable
            // stands for all of them, one per line (`while IFS='|' read -r name cmd`)
            let v = text.as_ref().map(|t| {
                t.lines()
                    .map(|l| read_fields(l, &ifs, n).swap_remove(k))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .trim()
                    .to_string()
            });
            self.set_var(name, v);
            if let Some(l) = &listing {
                self.taint_var(name, l.clone());
            }
        }
    }

    /// `printf -v NAME FORMAT ARGS…` assigns the formatted text instead of printing it: NAME
    /// holds it when the format and the arguments are literal, else becomes unknown.
    pub(crate) fn printf_var(&mut self, raw: &[Word]) {
        let mut name = None;
        let mut rest: Vec<&Word> = Vec::new();
        let mut it = raw.iter().skip(1);
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if rest.is_empty() && name.is_none() {
                if t == "-v" {
                    name = it.next().map(|w| w.text.clone());
                    continue;
                }
                if let Some(n) = t.strip_prefix("-v").filter(|n| !n.is_empty()) {
                    name = Some(n.to_string());
                    continue;
                }
            }
            if rest.is_empty() && t == "--" {
                continue;
            }
            rest.push(w);
        }
        let Some(name) = name.filter(|n| unwrap::is_name(n)) else {
            return;
        };
        let value = match rest.split_first() {
            Some((fmt, args)) if !fmt.dynamic && !args.iter().any(|w| w.dynamic) => {
                let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                crate::payload::printf(&fmt.text, &args).filter(|v| v.len() <= MAX_READ_BYTES)
            }
            _ => None,
        };
        self.set_var(&name, value);
    }

    /// `mapfile [-t] [NAME]` / `readarray`: the array holds the lines of known input (a
    /// here-string, a heredoc), one element per line; otherwise it becomes unknown.
    pub(crate) fn mapfile_builtin(
        &mut self,
        idx: usize,
        raw: &[Word],
        own: Option<&(String, bool)>,
    ) {
        let mut name = None;
        let mut it = raw.iter().skip(1);
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if t.starts_with('-') {
                // options with a value: -d DELIM, -n COUNT, -O ORIGIN, -s COUNT, -u FD,
                // -C CALLBACK, -c QUANTUM
                if t.get(1..)
                    .is_some_and(|o| o.len() == 1 && "dnOsuCc".contains(o))
                {
                    let _ = it.next();
                }
                continue;
            }
            if unwrap::is_name(t) {
                name = Some(t.to_string());
            }
        }
        let name = name.unwrap_or_else(|| "MAPFILE".to_string());
        let value = match own {
            Some((text, true)) if text.len() <= MAX_READ_BYTES => {
                // One element per line; the trailing newline marks a line-separated array.
                Some(text.lines().map(|l| format!("{l}\n")).collect())
            }
            _ => None,
        };
        // lines of a listing (`mapfile -t a < <(find …)`, `find … | mapfile -t a`): the
        // array holds its entries
        let listing = if value.is_none() {
            self.substituted_listing(idx)
                .or_else(|| self.script.pipe_listing.last().cloned().flatten())
        } else {
            None
        };
        let entries = listing.as_ref().and_then(|l| l.entries.clone());
        self.set_var(&format!("{name}[@]"), value.or(entries));
        self.set_var(&name, None);
        if let Some(l) = listing {
            self.taint_var(&name, l);
        }
    }

    /// `xargs -I R CMD` with known input: one command per input line, `R` replaced.
    pub(crate) fn xargs_lines(
        &self,
        opts: &[String],
        inner: &[XWord],
        input: &str,
    ) -> Option<Vec<Vec<XWord>>> {
        let mut repl = None;
        let mut it = opts.iter();
        while let Some(o) = it.next() {
            if o == "-I" || o == "--replace" {
                repl = it.next().cloned();
            } else if let Some(r) = o.strip_prefix("--replace=") {
                repl = Some(r.to_string());
            } else if let Some(r) = o.strip_prefix("-I") {
                repl = Some(r.to_string());
            } else if o == "-i" {
                repl = Some("{}".into());
            }
        }
        let repl = repl.filter(|r| !r.is_empty())?;
        let lines = input
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(MAX_XARGS_LINES);
        let out: Vec<Vec<XWord>> = lines
            .map(|line| {
                inner
                    .iter()
                    .map(|w| {
                        let mut x = w.clone();
                        if !w.w.dynamic {
                            x.w.text = w.w.text.replace(&repl, line);
                        }
                        x
                    })
                    .collect()
            })
            .collect();
        Some(out)
    }
}

/// The `n` values `read` assigns from one line split on `ifs` (`n` ≥ 1): blanks of IFS around
/// a field are dropped and run together, any other IFS character ends one field; the last
/// variable takes the rest of the line.
pub(crate) fn read_fields(line: &str, ifs: &str, n: usize) -> Vec<String> {
    let blank = |c: char| c.is_whitespace() && ifs.contains(c);
    let delim = |c: char| ifs.contains(c);
    let mut rest = line.trim_matches(blank);
    let mut out = Vec::with_capacity(n.max(1));
    while out.len() + 1 < n {
        let Some(i) = rest.find(delim) else {
            break;
        };
        out.push(rest[..i].to_string());
        // one field separator: IFS blanks around at most one other IFS character
        let sep = &rest[i..];
        let mut r = if sep.starts_with(blank) {
            sep.trim_start_matches(blank)
        } else {
            sep
        };
        if let Some(c) = r.chars().next()
            && delim(c)
            && !blank(c)
        {
            r = r[c.len_utf8()..].trim_start_matches(blank);
        }
        rest = r;
    }
    out.push(rest.to_string());
    out.resize(n.max(1), String::new());
    out
}

#[cfg(test)]
mod tests {
    use super::read_fields;

    #[test]
    fn read_splits_a_line_as_bash_does() {
        assert_eq!(read_fields("  a  b c  ", " \t\n", 2), ["a", "b c"]);
        assert_eq!(read_fields("x|rm -rf /", "|", 2), ["x", "rm -rf /"]);
        assert_eq!(read_fields("a::b", ":", 3), ["a", "", "b"]);
        assert_eq!(read_fields("a : b", ": ", 2), ["a", "b"]);
        assert_eq!(read_fields("only", "|", 3), ["only", "", ""]);
        assert_eq!(read_fields("  keep  ", "", 1), ["  keep  "]);
    }
}
