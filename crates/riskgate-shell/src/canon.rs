//! Canonical argv: program basename, flag clusters expanded, aliases mapped through the table
//! in [`crate::aliases`], value-taking options joined into one `--name=value` word, global
//! options of subcommand programs moved after the subcommand, and positional hooks (`git push
//! origin +main` adds `--force`, `:branch` adds `--delete`; old-style `tar xzf`).

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};

use crate::Word;
use crate::aliases::{NO_CLUSTER, SPECS, SUB_ALIASES, SUBCOMMAND_PROGRAMS};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    None,
    Required,
    /// Attached value only (`-i.bak`, `--in-place=.bak`).
    Optional,
}

#[derive(Debug, Clone)]
struct Opt {
    canon: Vec<&'static str>,
    arity: Arity,
}

#[derive(Debug, Default)]
struct Spec {
    short: HashMap<char, Opt>,
    long: HashMap<&'static str, Opt>,
    /// Single-dash words matched whole (`-auto-approve`, `-9`, `-nv`).
    whole: HashMap<&'static str, Opt>,
    stop: bool,
}

#[derive(Default)]
struct Prog {
    specs: HashMap<String, Spec>,
    /// Every subcommand path prefix with a spec (`system`, `system prune`).
    paths: HashSet<String>,
    /// Subcommand spellings → canonical (`i` → `install`, `container rm` → `rm`).
    sub_aliases: HashMap<String, &'static str>,
}

/// The flag table of `program`, built on first use from the static entries that name it (a
/// process that sees three programs builds three small tables, not the whole table: start-up
/// cost matters to a hook that runs once per tool call). Built tables live for the process;
/// programs without entries share the empty table.
fn table(program: &str) -> &'static Prog {
    static CACHE: LazyLock<Mutex<HashMap<String, &'static Prog>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    static EMPTY: LazyLock<Prog> = LazyLock::new(Prog::default);
    // most programs have no entry: they get the empty table without a scan of the entries
    if !NAMED.contains(program) {
        return &EMPTY;
    }
    let Ok(mut cache) = CACHE.lock() else {
        return &EMPTY;
    };
    if let Some(p) = cache.get(program) {
        return p;
    }
    let p = build_for(program);
    if p.specs.is_empty() && p.paths.is_empty() && p.sub_aliases.is_empty() {
        return &EMPTY;
    }
    let p: &'static Prog = Box::leak(Box::new(p));
    cache.insert(program.to_string(), p);
    p
}

/// Every program some entry names (in [`SPECS`] or [`SUB_ALIASES`]): [`build_for`] of any
/// other program is empty.
static NAMED: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    let specs = SPECS.iter().flat_map(|(names, _, _)| {
        names
            .split('|')
            .map(|p| p.split_once(' ').map_or(p, |(p, _)| p))
    });
    specs.chain(SUB_ALIASES.iter().map(|(p, _)| *p)).collect()
});

fn parse_entry(e: &'static str) -> Option<(Vec<&'static str>, Opt)> {
    let (left, right) = match e.split_once("=>") {
        Some((l, r)) => (l.trim(), Some(r.trim())),
        None => (e.trim(), None),
    };
    let mut arity = Arity::None;
    let spellings: Vec<&'static str> = left
        .split_whitespace()
        .map(|s| match s.strip_suffix("=?") {
            Some(x) => {
                arity = Arity::Optional;
                x
            }
            None => s,
        })
        .collect();
    let right = right.unwrap_or_else(|| {
        spellings
            .iter()
            .rev()
            .find(|s| s.starts_with("--"))
            .or(spellings.first())
            .copied()
            .unwrap_or("")
    });
    let mut canon: Vec<&'static str> = right.split_whitespace().collect();
    if let Some(last) = canon.last_mut() {
        if let Some(s) = last.strip_suffix("=?") {
            *last = s;
            arity = Arity::Optional;
        } else if let Some(s) = last.strip_suffix('=') {
            *last = s;
            arity = Arity::Required;
        }
    }
    if spellings.is_empty() || canon.is_empty() {
        return None;
    }
    Some((spellings, Opt { canon, arity }))
}

fn build_for(program: &str) -> Prog {
    let mut entry = Prog::default();
    for (names, sub, opts) in SPECS {
        for prog in names.split('|') {
            let (prog, extra) = match prog.split_once(' ') {
                Some((p, e)) => (p, Some(e)),
                None => (prog, None),
            };
            if prog != program {
                continue;
            }
            for sub1 in sub.split('|') {
                let sub_path = match (extra, sub1.is_empty()) {
                    (Some(e), true) => e.to_string(),
                    (Some(e), false) => format!("{e} {sub1}"),
                    (None, _) => sub1.to_string(),
                };
                let mut acc = String::new();
                for part in sub_path.split_whitespace() {
                    if !acc.is_empty() {
                        acc.push(' ');
                    }
                    acc.push_str(part);
                    entry.paths.insert(acc.clone());
                }
                let spec = entry.specs.entry(sub_path).or_default();
                for e in *opts {
                    if *e == "!stop" {
                        spec.stop = true;
                        continue;
                    }
                    let Some((spellings, opt)) = parse_entry(e) else {
                        continue;
                    };
                    for s in spellings {
                        if s.starts_with("--") {
                            spec.long.insert(s, opt.clone());
                        } else if let Some(short) = s.strip_prefix('-') {
                            let mut cs = short.chars();
                            if let (Some(c), None) = (cs.next(), cs.next()) {
                                spec.short.insert(c, opt.clone());
                            }
                            spec.whole.insert(s, opt.clone());
                        }
                    }
                }
            }
        }
    }
    for (prog, e) in SUB_ALIASES {
        if *prog != program {
            continue;
        }
        let Some((l, r)) = e.split_once("=>") else {
            continue;
        };
        let r = r.trim();
        for s in l.split(',').map(str::trim) {
            if let Some((first, _)) = s.split_once(' ') {
                entry.paths.insert(first.to_string());
            }
            entry.sub_aliases.entry(s.to_string()).or_insert(r);
        }
    }
    entry
}

/// Canonical program name: no leading backslashes, no zsh `=` (`=rm` is the path of `rm`),
/// basename, no `.exe` (WSL runs Windows programs by that name: `shutdown.exe`, `wsl.exe`,
/// `powershell.exe`).
pub(crate) fn program_name(raw: &str) -> String {
    let s = raw.trim_start_matches('\\');
    let s = match s.strip_prefix('=') {
        Some(name) if !name.is_empty() && !name.contains(['=', '/']) => name,
        _ => s,
    };
    let base = s.rsplit('/').next().unwrap_or(s);
    let base = if base.is_empty() { s } else { base };
    let base = match base.len().checked_sub(4) {
        Some(k)
            if k > 0
                && base
                    .get(k..)
                    .is_some_and(|e| e.eq_ignore_ascii_case(".exe")) =>
        {
            base.get(..k).unwrap_or(base)
        }
        _ => base,
    };
    if base == "." {
        return "source".to_string();
    }
    // Windows programs are case-insensitive: `VSSADMIN.EXE` is `vssadmin`, `format.com` is
    // `format`.
    if base.bytes().any(|b| b.is_ascii_uppercase()) || base.ends_with(".com") {
        let lower = base.to_ascii_lowercase();
        let stem = lower.strip_suffix(".com").unwrap_or(&lower);
        if crate::windows::is_windows_program(stem) {
            return stem.to_string();
        }
    }
    base.to_string()
}

fn is_subcommand_program(p: &str) -> bool {
    SUBCOMMAND_PROGRAMS.contains(&p)
}

/// The canonical args of `program` (already canonical) given the args as written.
pub(crate) fn canonical_args(program: &str, args: &[Word]) -> Vec<Word> {
    if crate::windows::is_windows_program(program) {
        return crate::windows::windows_args(args);
    }
    let t = table(program);
    let global = t.specs.get("");
    let has_sub = is_subcommand_program(program);
    let no_cluster = NO_CLUSTER.contains(&program);
    let mut out: Vec<Word> = Vec::with_capacity(args.len() + 2);
    let mut globals: Vec<Word> = Vec::new();
    let mut path = String::new();
    let mut cur: Option<&Spec> = global;
    let mut positional_since_sub = 0usize;
    let mut after_dd = false;
    let mut stopped = false;

    let mut args_v: Vec<Word>;
    let find_v: Vec<Word>;
    let mut args = args;
    // `find . -delete -name '*.pyc'`: find evaluates left to right, so a `-delete` before any
    // test deletes every entry; the tests after it select nothing it deletes
    if program == "find"
        && let Some(d) = args.iter().position(|w| w.text == "-delete")
        && !args[..d].iter().any(|w| {
            w.text.starts_with('-')
                && !matches!(
                    w.text.as_str(),
                    "-L" | "-H"
                        | "-P"
                        | "-maxdepth"
                        | "-mindepth"
                        | "-depth"
                        | "-xdev"
                        | "-mount"
                        | "-follow"
                        | "-noleaf"
                        | "-ignore_readdir_race"
                )
        })
        && args[d + 1..].iter().any(|w| w.text.starts_with('-'))
    {
        find_v = args[..=d].to_vec();
        args = &find_v;
    }
    // Old-style tar: `tar xzf a.tgz` → `tar -xzf a.tgz`.
    if program == "tar"
        && let Some(first) = args.first()
        && !first.dynamic
        && !first.text.starts_with('-')
        && first.text.chars().all(|c| c.is_ascii_alphabetic())
        && first.text.contains(['c', 't', 'x', 'r', 'u'])
    {
        args_v = args.to_vec();
        args_v[0] = Word {
            text: format!("-{}", first.text),
            dynamic: false,
        };
        args = &args_v;
    }

    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let before_sub = has_sub && path.is_empty();
        let target: &mut Vec<Word> = if before_sub { &mut globals } else { &mut out };
        if after_dd || stopped || a.dynamic && !a.text.starts_with('-') {
            if !after_dd && !stopped && has_sub && path.is_empty() {
                // A dynamic subcommand: take it as the subcommand.
                path = a.text.clone();
                out.push(a.clone());
                continue;
            }
            target.push(a.clone());
            continue;
        }
        let text = a.text.as_str();
        let lookup_long = |name: &str| -> Option<&Opt> {
            cur.and_then(|s| s.long.get(name))
                .or_else(|| global.and_then(|s| s.long.get(name)))
        };
        let lookup_whole = |name: &str| -> Option<&Opt> {
            cur.and_then(|s| s.whole.get(name))
                .or_else(|| global.and_then(|s| s.whole.get(name)))
        };
        let lookup_short = |c: char| -> Option<&Opt> {
            cur.and_then(|s| s.short.get(&c))
                .or_else(|| global.and_then(|s| s.short.get(&c)))
        };
        if text == "--" {
            after_dd = true;
            target.push(a.clone());
            continue;
        }
        if let Some(body) = text.strip_prefix("--").filter(|b| !b.is_empty()) {
            let (name_len, val) = match body.find('=') {
                Some(k) => (k + 2, Some(&body[k + 1..])),
                None => (text.len(), None),
            };
            let name = &text[..name_len];
            match lookup_long(name).or_else(|| abbreviated(cur, global, name)) {
                Some(opt) => {
                    let value = match (opt.arity, val) {
                        (Arity::Required, None) => {
                            let v = args.get(i).map(|w| w.text.clone());
                            i += 1;
                            v
                        }
                        (_, v) => v.map(str::to_string),
                    };
                    emit(
                        target,
                        opt,
                        value,
                        a.dynamic || args.get(i.wrapping_sub(1)).is_some_and(|w| w.dynamic),
                    );
                }
                None => target.push(a.clone()),
            }
            continue;
        }
        if text.len() > 1 && text.starts_with('-') {
            if let Some(opt) = lookup_whole(text) {
                let value = if opt.arity == Arity::Required {
                    let v = args.get(i).map(|w| w.text.clone());
                    i += 1;
                    v
                } else {
                    None
                };
                emit(target, opt, value, a.dynamic);
                continue;
            }
            let body = &text[1..];
            let chmod_mode = program == "chmod" && body.chars().all(|c| "rwxXst".contains(c));
            // a camel-case action option (`sysadminctl -deleteUser`, `-setRemoteLogin`) of a
            // program whose short options do not spell it is one word, not a cluster
            let camel_option = camel_case(body) && !body.chars().all(|c| lookup_short(c).is_some());
            let is_cluster = !no_cluster
                && !chmod_mode
                && !camel_option
                && body.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && cluster_shape(body, |c| {
                    lookup_short(c).is_some_and(|o| o.arity != Arity::None)
                });
            if !is_cluster {
                target.push(a.clone());
                continue;
            }
            for (k, c) in body.char_indices() {
                match lookup_short(c) {
                    Some(opt) if opt.arity != Arity::None => {
                        let rest = &body[k + c.len_utf8()..];
                        let value = if !rest.is_empty() {
                            Some(rest.to_string())
                        } else if opt.arity == Arity::Required {
                            let v = args.get(i).map(|w| w.text.clone());
                            i += 1;
                            v
                        } else {
                            None
                        };
                        emit(target, opt, value, a.dynamic);
                        break;
                    }
                    Some(opt) => emit(target, opt, None, false),
                    None => target.push(Word {
                        text: format!("-{c}"),
                        dynamic: false,
                    }),
                }
            }
            continue;
        }
        // A positional.
        if has_sub && (path.is_empty() || (positional_since_sub == 0 && deeper(t, &path, text))) {
            if !path.is_empty() {
                // A multi-word alias (`container rm` → `rm`).
                let joined = format!("{path} {text}");
                if let Some(alias) = t.sub_aliases.get(&joined) {
                    path = (*alias).to_string();
                    out.pop();
                    out.push(Word {
                        text: path.clone(),
                        dynamic: false,
                    });
                    cur = t.specs.get(&path);
                    continue;
                }
                path.push(' ');
            }
            let name = t.sub_aliases.get(text).copied().unwrap_or(text);
            path.push_str(name);
            out.push(Word {
                text: name.to_string(),
                dynamic: false,
            });
            cur = t.specs.get(&path);
            positional_since_sub = 0;
            continue;
        }
        positional_since_sub += 1;
        out.push(a.clone());
        if cur.is_some_and(|s| s.stop) {
            stopped = true;
        }
    }
    hooks(program, &path, &mut out);
    out.extend(globals);
    out
}

/// A long option abbreviated to an unambiguous prefix (`--rec` → `--recursive`, `git reset
/// --ha`), as getopt_long and git's option parser accept: every known option it begins must
/// mean the same thing.
fn abbreviated<'t>(cur: Option<&'t Spec>, global: Option<&'t Spec>, name: &str) -> Option<&'t Opt> {
    if name.len() < 4 || name.contains('=') {
        return None;
    }
    let mut found: Option<&Opt> = None;
    for spec in [cur, global].into_iter().flatten() {
        for (long, opt) in &spec.long {
            if !long.starts_with(name) {
                continue;
            }
            match found {
                Some(f) if f.canon != opt.canon || f.arity != opt.arity => return None,
                _ => found = Some(opt),
            }
        }
    }
    found
}

/// A camel-case word: three or more lower-case letters, then capitalised words (`deleteUser`,
/// `setRemoteLogin`), as macOS and Java tools spell their options; never a cluster of short
/// options like `fNL` or `xzvf`.
fn camel_case(body: &str) -> bool {
    let Some(first_upper) = body.find(|c: char| c.is_ascii_uppercase()) else {
        return false;
    };
    first_upper >= 3
        && body[..first_upper].chars().all(|c| c.is_ascii_lowercase())
        && body[first_upper..]
            .split(|c: char| c.is_ascii_uppercase())
            .skip(1)
            .all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
}

/// Letters and digits, up to a value-taking letter after which anything goes (`-i.bak`).
fn cluster_shape(body: &str, takes_value: impl Fn(char) -> bool) -> bool {
    for c in body.chars() {
        if !c.is_ascii_alphanumeric() {
            return false;
        }
        if takes_value(c) {
            return true;
        }
    }
    true
}

/// Whether `path + word` is a known deeper subcommand of `program`.
fn deeper(t: &Prog, path: &str, word: &str) -> bool {
    let joined = format!("{path} {word}");
    t.paths.contains(&joined) || t.sub_aliases.contains_key(&joined)
}

fn emit(target: &mut Vec<Word>, opt: &Opt, value: Option<String>, dynamic: bool) {
    let n = opt.canon.len();
    for (k, c) in opt.canon.iter().enumerate() {
        let text = match (&value, k + 1 == n) {
            (Some(v), true) => format!("{c}={v}"),
            _ => (*c).to_string(),
        };
        target.push(Word {
            text,
            dynamic: dynamic && k + 1 == n,
        });
    }
}

/// Positional rules that add flags.
fn hooks(program: &str, path: &str, out: &mut Vec<Word>) {
    if program == "git" && path == "push" {
        let mut add: Vec<&str> = Vec::new();
        let mut seen_remote = false;
        let mut after_dd = false;
        for w in out.iter().skip(1) {
            if w.text == "--" {
                after_dd = true;
                continue;
            }
            if !after_dd && w.text.starts_with('-') {
                continue;
            }
            if !seen_remote {
                seen_remote = true;
                continue;
            }
            if w.text.starts_with('+') {
                add.push("--force");
            } else if w.text.starts_with(':') && w.text.len() > 1 {
                add.push("--delete");
            }
        }
        for f in add {
            if !out.iter().any(|w| w.text == f) {
                out.push(Word {
                    text: f.to_string(),
                    dynamic: false,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(cmd: &str) -> String {
        let mut it = cmd.split_whitespace();
        let p = program_name(it.next().unwrap_or(""));
        let args: Vec<Word> = it
            .map(|s| Word {
                text: s.to_string(),
                dynamic: false,
            })
            .collect();
        let mut s = p.clone();
        for a in canonical_args(&p, &args) {
            s.push(' ');
            s.push_str(&a.text);
        }
        s
    }

    #[test]
    fn rm_spellings_agree() {
        for c in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /",
            "rm -R --force /",
            "/bin/rm -Rf /",
        ] {
            let got = canon(c);
            assert!(
                got == "rm --recursive --force /" || got == "rm --force --recursive /",
                "{c} → {got}"
            );
        }
    }

    #[test]
    fn camel_case_options_are_one_word() {
        // macOS and Java tools' action options stay whole: their letters are no short options
        assert_eq!(
            canon("sysadminctl -deleteUser bob"),
            "sysadminctl -deleteUser bob"
        );
        assert_eq!(
            canon("systemsetup -setRemoteLogin on"),
            "systemsetup -setRemoteLogin on"
        );
        // short-option clusters still expand, with or without capitals
        assert_eq!(canon("acmectl -xzvf a"), "acmectl -x -z -v -f a");
        assert_eq!(canon("acmectl -fNL a"), "acmectl -f -N -L a");
        assert!(!canon("ssh -fNL 8080:db:5432 host").contains("-fNL"));
    }

    #[test]
    fn git_globals_and_force() {
        assert_eq!(
            canon("git -C /repo push -f origin main"),
            "git push --force origin main -C=/repo"
        );
        assert_eq!(
            canon("git push origin +main"),
            "git push origin +main --force"
        );
        assert_eq!(
            canon("git push origin +HEAD:main"),
            "git push origin +HEAD:main --force"
        );
        assert_eq!(
            canon("git push origin :old"),
            "git push origin :old --delete"
        );
        assert_eq!(canon("git branch -D x"), "git branch --delete --force x");
        assert_eq!(canon("git clean -fdx"), "git clean --force -d -x");
        assert_eq!(
            canon("git push --force-with-lease origin main"),
            "git push --force-with-lease origin main"
        );
    }

    #[test]
    fn values_join_and_subcommands() {
        assert_eq!(
            canon("kubectl -n prod delete pod x --grace-period 0 --force"),
            "kubectl delete pod x --grace-period=0 --force --namespace=prod"
        );
        assert_eq!(
            canon("docker -H tcp://h system prune -af"),
            "docker system prune --all --force --host=tcp://h"
        );
        assert_eq!(canon("docker container rm -f x"), "docker rm --force x");
        assert_eq!(canon("npm i -g x"), "npm install --global x");
        assert_eq!(
            canon("terraform destroy -auto-approve"),
            "terraform destroy --auto-approve"
        );
        assert_eq!(canon("sed -i.bak s/a/b/ f"), "sed --in-place=.bak s/a/b/ f");
        assert_eq!(canon("mysql -uroot -e x"), "mysql --user=root --execute=x");
        assert_eq!(canon("tar xzf a.tgz"), "tar --extract --gzip --file=a.tgz");
        assert_eq!(canon("chmod -x f"), "chmod -x f");
        assert_eq!(canon("find / -name x -delete"), "find / -name x -delete");
        assert_eq!(canon("kill -9 1"), "kill --signal=KILL 1");
        assert_eq!(
            canon("curl -X POST -d @f u"),
            "curl --request=POST --data=@f u"
        );
    }
}
