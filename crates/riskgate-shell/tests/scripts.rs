//! Scripts followed as bash runs them: the normalized commands of functions, aliases, files
//! written then run, and the listings loops iterate over; and the bounds that keep following
//! them linear (a script that cannot be followed fully says so).

use riskgate_shell::{ParseIssue, ParsedCommand, SimpleCommand, parse};

fn canon(p: &ParsedCommand) -> Vec<String> {
    p.commands.iter().map(SimpleCommand::canonical).collect()
}

fn find<'a>(p: &'a ParsedCommand, line: &str) -> &'a SimpleCommand {
    match p.commands.iter().find(|c| c.canonical() == line) {
        Some(c) => c,
        None => panic!("no `{line}` in {:#?}", canon(p)),
    }
}

fn limited(p: &ParsedCommand, what: &str) -> bool {
    !p.fully_parsed
        && p.issues
            .iter()
            .any(|i| matches!(i, ParseIssue::Limit { message } if message.contains(what)))
}

#[test]
fn loops_over_listings_mark_their_body() {
    let p = parse(
        "ps aux | grep '[s]shd' | awk '{print $2}' | while read pid; do\n  kill -9 \"$pid\"\ndone",
    );
    let l = find(&p, "kill --signal=KILL $pid")
        .iterates
        .as_ref()
        .expect("iterates");
    assert_eq!(l.program, "ps");
    assert!(!l.every, "grep narrows the listing");
    let p = parse("for pid in $(ps -eo pid --no-headers); do kill -9 \"$pid\"; done");
    let l = find(&p, "kill --signal=KILL $pid")
        .iterates
        .as_ref()
        .expect("iterates");
    assert!(l.every);
    let p = parse("docker ps -aq | xargs docker rm -f");
    assert_eq!(
        p.commands
            .last()
            .and_then(|c| c.iterates.as_ref())
            .map(|l| l.program.as_str()),
        Some("docker")
    );
    let p = parse("pids=$(pgrep -f postgres)\nfor pid in $pids; do kill \"$pid\"; done");
    assert!(find(&p, "kill $pid").iterates.is_some());
    // A file listing with a known directory: the variable stands for its entries, and the
    // command still runs once per entry.
    let p = parse("cd /etc\nfor f in $(ls); do rm -rf \"$f\"; done");
    let rm = p.commands.iter().find(|c| c.program == "rm").expect("rm");
    assert!(rm.canonical().starts_with("rm --recursive --force /etc/*"));
    let l = rm.iterates.as_ref().expect("iterates");
    assert_eq!(l.path.as_deref(), Some("/etc"));
    assert_eq!(l.entries.as_deref(), Some("/etc/*"));
    let p = parse("find /var/log -name '*.log' | while read -r f; do : > \"$f\"; done");
    let c = p
        .commands
        .iter()
        .find(|c| c.program == ":")
        .expect("the loop body");
    assert_eq!(
        c.redirects.first().map(|r| r.target.text.as_str()),
        Some("/var/log/**/*.log")
    );
    // A glob in a for loop stands for every file it matches.
    let p = parse("for d in /dev/sd[b-z]; do dd if=/dev/zero of=\"$d\"; done");
    assert!(
        canon(&p).iter().any(|c| c.contains("of=/dev/sd[b-z]")),
        "{:?}",
        canon(&p)
    );
    // Not a listing: a literal list, or a loop that does not use the entries.
    let p = parse("for d in a b; do rm -rf \"$d\"; done\nps aux | while read l; do date; done");
    assert!(
        p.commands.iter().all(|c| c.iterates.is_none()),
        "{:#?}",
        canon(&p)
    );
}

#[test]
fn calls_bind_arguments_and_definitions_alone_stay_unbound() {
    let p = parse("wipe() {\n  rm -rf \"$1\"\n}\nwipe /");
    find(&p, "rm --recursive --force /");
    assert!(!canon(&p).iter().any(|c| c == "rm --recursive --force $1"));
    // Never called (a library): its body, arguments unknown.
    let p = parse("wipe() { rm -rf \"$1\"; }");
    find(&p, "rm --recursive --force $1");
    // Redefined before a call: both bodies are seen.
    let p = parse("f() { rm -rf /a; }\nf() { rm -rf /b; }\nf");
    find(&p, "rm --recursive --force /a");
    find(&p, "rm --recursive --force /b");
}

#[test]
fn files_written_then_run_are_followed() {
    let p = parse("cat > x.sh <<'EOF'\nrm -rf /srv\nEOF\nchmod +x x.sh\n./x.sh");
    find(&p, "rm --recursive --force /srv");
    let p = parse("echo 'rm -rf /opt' > /tmp/a\necho 'rm -rf /usr' >> /tmp/a\nbash /tmp/a");
    find(&p, "rm --recursive --force /opt");
    find(&p, "rm --recursive --force /usr");
    // Written, never run: data.
    let p = parse("cat > x.sh <<'EOF'\nrm -rf /srv\nEOF\ngit add x.sh");
    assert!(!canon(&p).iter().any(|c| c.starts_with("rm")));
}

#[test]
fn expansions_are_bounded_and_reported() {
    // 300 calls: past the bound the result is incomplete, not silently complete.
    let script = "f() { echo x; }\n".to_string() + &"f\n".repeat(300);
    assert!(limited(&parse(&script), "expansions"), "300 calls");
    // Each function calls the one before twice: 2^24 calls if followed naively.
    let mut s = String::from("f0() { rm -rf /x; }\n");
    for k in 1..25 {
        s.push_str(&format!("f{k}() {{ f{} a; f{} b; }}\n", k - 1, k - 1));
    }
    s.push_str("f24\n");
    let p = parse(&s);
    assert!(!p.fully_parsed);
    assert!(p.commands.len() < 20_000, "{} commands", p.commands.len());
    // Self-reference ends: an alias naming itself, a file that runs itself, a recursive
    // function.
    let p = parse("shopt -s expand_aliases\nalias a='a; rm -rf /x'\na");
    find(&p, "rm --recursive --force /x");
    let p = parse("echo 'sh self.sh; rm -rf /y' > self.sh\nsh self.sh");
    find(&p, "rm --recursive --force /y");
    let p = parse("r() { r; rm -rf /z; }\nr");
    find(&p, "rm --recursive --force /z");
}

#[test]
fn assignments_bash_makes_without_an_equals_sign_hold_commands() {
    // printf -v: the format applied to its arguments.
    for src in [
        "printf -v c 'rm -rf /var/www'; $c",
        "printf -v c '%s' 'rm -rf /var/www'; eval \"$c\"",
        "printf -v c '%s %s' rm '-rf /var/www'; $c",
        "printf -vc '%s%s' 'rm -rf' ' /var/www'; $c",
        "printf -v c -- '%s -rf %s' rm /var/www; $c",
    ] {
        let p = parse(src);
        find(&p, "rm --recursive --force /var/www");
    }
    // A dynamic argument leaves the value unknown, never a stale one.
    let p = parse("c='ls'; printf -v c '%s' \"$1\"; $c /var/www");
    assert!(
        p.commands.iter().all(|c| c.program != "ls"),
        "{:?}",
        canon(&p)
    );
    // read from a here-string, into one variable or an array.
    let p = parse("read -r c <<< 'rm -rf /var/www'; $c");
    find(&p, "rm --recursive --force /var/www");
    let p = parse("read -r -a c <<< 'rm -rf /var/www'; \"${c[@]}\"");
    find(&p, "rm --recursive --force /var/www");
    // Declarations.
    for src in [
        "declare c='rm -rf /var/www'; $c",
        "typeset c='rm -rf /var/www'; eval $c",
        "export c='rm -rf /var/www'; $c",
        "f() { local c='rm -rf /var/www'; $c; }; f",
    ] {
        let p = parse(src);
        find(&p, "rm --recursive --force /var/www");
    }
    // mapfile: one element per line, each split like bash splits an unquoted value.
    let p = parse("mapfile -t c <<< 'rm -rf /var/www'; ${c[0]}");
    find(&p, "rm --recursive --force /var/www");
    let p = parse("readarray -t c <<EOF\nls -la\nrm -rf /srv/data\nEOF\n${c[1]}");
    find(&p, "rm --recursive --force /srv/data");
    let p = parse("mapfile -t <<< 'rm -rf /var/www'; ${MAPFILE[0]}");
    find(&p, "rm --recursive --force /var/www");
    // A harmless value stays harmless.
    let p = parse("printf -v c '%s' 'ls -la'; $c");
    find(&p, "ls -l -a");
}

#[test]
fn key_and_object_store_listings_feed_loops() {
    // (script, the deleting command, the listing program, every entry?)
    let cases = [
        (
            "redis-cli --scan --pattern 'session:*' | while read k; do redis-cli DEL \"$k\"; done",
            "redis-cli",
            false,
        ),
        (
            "redis-cli -h prod-redis --scan | xargs redis-cli -h prod-redis DEL",
            "redis-cli",
            true,
        ),
        (
            "redis-cli KEYS '*' | xargs redis-cli DEL",
            "redis-cli",
            true,
        ),
        (
            "etcdctl get /app --prefix --keys-only | xargs -n1 etcdctl del",
            "etcdctl",
            false,
        ),
        (
            "consul kv get -recurse | cut -d: -f1 | xargs -n1 consul kv delete",
            "consul",
            true,
        ),
        (
            "for o in $(gsutil ls gs://bucket/logs); do gsutil rm \"$o\"; done",
            "gsutil",
            true,
        ),
        (
            "rclone lsf remote:bucket | while read f; do rclone deletefile \"remote:bucket/$f\"; done",
            "rclone",
            true,
        ),
        (
            "mc ls prod/bucket | awk '{print $NF}' | xargs -I{} mc rm prod/bucket/{}",
            "mc",
            true,
        ),
    ];
    for (src, listing, every) in cases {
        let p = parse(src);
        let c = p
            .commands
            .iter()
            .rev()
            .find(|c| c.iterates.is_some())
            .unwrap_or_else(|| panic!("{src}: nothing iterates in {:?}", canon(&p)));
        let l = c.iterates.as_ref().expect("iterates");
        assert_eq!(l.program, listing, "{src}");
        assert_eq!(l.every, every, "{src}");
    }
    // A scan read by a person, or one key, is not a loop.
    let p = parse("redis-cli --scan --pattern 'session:*' | head -20");
    assert!(p.commands.iter().all(|c| c.iterates.is_none()));
    let p = parse("redis-cli GET session:1");
    assert!(p.commands.iter().all(|c| c.iterates.is_none()));
}

#[test]
fn substrings_and_case_changes_assemble_paths() {
    for src in [
        "f=${PATH:0:1}; rm -rf ${f}var${f}www",
        "rm -rf ${HOME:0:1}var${PWD:0:1}www",
        "rm -rf \"${SHELL:0:1}var/www\"",
        "x=/VAR/WWW; rm -rf ${x,,}",
        "x=abcrm; ${x:3:2} -rf /var/www",
        "x=/var/wwwxyz; rm -rf ${x:0:8}",
        "x=zz/var/www; rm -rf ${x:2}",
        "x=RM; ${x,,} -rf /var/www",
        "x=Rm; ${x,} -rf /var/www",
    ] {
        let p = parse(src);
        find(&p, "rm --recursive --force /var/www");
    }
    let p = parse("x=ls; ${x^^} /var/www");
    find(&p, "LS /var/www");
    // literal removals and replacements
    for src in [
        "x=/varXX/www; rm -rf ${x//XX/}",
        "x=/var/wwwXX; rm -rf ${x%XX}",
        "x=XX/var/www; rm -rf ${x##XX}",
        "x=_var_www; rm -rf ${x//_//}",
        "mapfile -t c <<< 'rm -rf /var/www'; ${c[*]}",
    ] {
        let p = parse(src);
        find(&p, "rm --recursive --force /var/www");
    }
    // a glob pattern is left unknown
    let p = parse("x=/var/www.bak; rm -rf ${x%.*}");
    assert!(
        p.commands
            .iter()
            .any(|c| c.raw_argv.iter().any(|w| w.dynamic))
    );
    // What is not known stays dynamic: a longer prefix of PATH, a computed offset.
    let p = parse("rm -rf ${PATH:0:4}");
    let c = find(&p, "rm --recursive --force ${PATH:0:4}");
    assert!(c.raw_argv.iter().any(|w| w.dynamic));
    let p = parse("x=/var/www; rm -rf ${x:$n:2}");
    assert!(
        p.commands
            .iter()
            .any(|c| c.raw_argv.iter().any(|w| w.dynamic))
    );
}
