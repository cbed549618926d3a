//! Wrapping keeps what runs (issue 11): each wrapper grammar, `cd` before operands that are not
//! paths, and the nested shell texts the raw rules read. The metamorphic test in
//! crates/riskgate/tests/metamorphic.rs checks the same property over the whole corpus.

use riskgate_shell::{ParsedCommand, SimpleCommand, parse};

fn canon(p: &ParsedCommand) -> Vec<String> {
    p.commands.iter().map(SimpleCommand::canonical).collect()
}

fn get<'a>(p: &'a ParsedCommand, line: &str) -> &'a SimpleCommand {
    match p.commands.iter().find(|c| c.canonical() == line) {
        Some(c) => c,
        None => panic!("no `{line}` in {:#?}", canon(p)),
    }
}

#[test]
fn sudo_takes_assignments_before_the_program() {
    let p = parse("sudo -u root AWS_PROFILE=prod LC_ALL=C aws s3 rb s3://acme-prod-logs --force");
    let c = get(&p, "aws s3 rb s3://acme-prod-logs --force");
    assert!(c.privileged);
    let names: Vec<&str> = c.assignments.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["AWS_PROFILE", "LC_ALL"]);
    // doas has no such operands: `doas X=1 rm` runs a program named `X=1`.
    let p = parse("doas X=1 rm -rf /");
    assert!(
        p.commands.iter().all(|c| c.program != "rm"),
        "{:?}",
        canon(&p)
    );
}

#[test]
fn parallel_without_a_command_runs_each_input() {
    let p = parse("parallel -j 2 --halt now,fail=1 ::: 'rm -rf /' 'mkfs.ext4 /dev/sda'");
    get(&p, "rm --recursive --force /");
    assert!(p.commands.iter().any(|c| c.program == "mkfs.ext4"));
}

#[test]
fn the_inner_program_word_expands_like_the_first() {
    for src in [
        "nice {rm,-rf,~}",
        "timeout 5 rm${IFS}-rf${IFS}$HOME",
        "sudo -u root {rm,-rf,~}",
    ] {
        let p = parse(src);
        get(&p, "rm --recursive --force ~");
    }
}

#[test]
fn cd_resolves_path_operands_only() {
    let p = parse("cd /srv && chmod u+s /bin/bash");
    get(&p, "chmod u+s /bin/bash");
    let p = parse("cd /srv && sudo chmod -R 777 /etc build");
    get(&p, "chmod --recursive 777 /etc /srv/build");
    let p = parse("cd /srv && chown root:root x");
    get(&p, "chown root:root /srv/x");
    let p = parse("cd /tmp && find / -maxdepth 1 -mindepth 1 -exec rm -rf {} +");
    get(&p, "find / -maxdepth 1 -mindepth 1 -exec rm -rf {} +");
    get(&p, "rm --recursive --force /**");
    let p = parse("cd /tmp && find . -name '*.o' -delete");
    assert!(
        canon(&p).iter().any(|c| c.starts_with("find /tmp -name")),
        "{:?}",
        canon(&p)
    );
}

#[test]
fn find_actions_inherit_finds_redirections() {
    let p = parse("find / -maxdepth 0 -exec cat /dev/null \\; > /var/log/auth.log");
    let c = get(&p, "cat /dev/null");
    assert!(
        c.redirects
            .iter()
            .any(|r| r.target.text == "/var/log/auth.log"),
        "{:?}",
        c.redirects
    );
}

#[test]
fn function_bodies_do_not_see_the_scripts_arguments() {
    // `sh -c SCRIPT sh` sets no `$1`; inside the function `$1` is the call's argument.
    let p = parse("sh -c 'cleanup() { rm -rf \"$1\"; }; cleanup ~' sh");
    get(&p, "rm --recursive --force ~");
    // Called with no arguments, its `$1` is empty, never the script's `/etc`.
    let p = parse("sh -c 'cleanup() { rm -rf \"$1\"; }; cleanup' sh /etc");
    assert!(
        !canon(&p)
            .iter()
            .any(|c| c.starts_with("rm") && c.contains("/etc"))
    );
}

#[test]
fn case_inside_a_quoted_substitution_is_followed() {
    let p = parse("echo \"$(case x in x) rm -rf / ;; esac)\"");
    get(&p, "rm --recursive --force /");
    let p = parse("echo \"$(\ncase x in x) rm -rf / ;; esac\n)\" tail");
    get(&p, "rm --recursive --force /");
    // An ordinary substitution is untouched.
    let p = parse("echo \"$(date) (x)\"");
    assert!(p.fully_parsed);
}

#[test]
fn nested_shell_texts_are_kept_for_the_raw_rules() {
    let p = parse("bash -c 'ps aux | xargs kill -9'");
    assert_eq!(p.scripts, ["ps aux | xargs kill -9"]);
    let p = parse("eval \"HISTSIZE=0\"; sh <<'EOF'\nyes > /tmp/y\nEOF");
    assert!(
        p.scripts.contains(&"HISTSIZE=0".to_string()),
        "{:?}",
        p.scripts
    );
    assert!(
        p.scripts.contains(&"yes > /tmp/y".to_string()),
        "{:?}",
        p.scripts
    );
    let p = parse("time -p ps aux | awk '{print $2}' | xargs kill -9");
    assert_eq!(p.scripts, ["ps aux | awk '{print $2}' | xargs kill -9"]);
    // A plain command has none.
    assert!(parse("ls -la").scripts.is_empty());
}

#[test]
fn editors_and_debuggers_run_their_shell_escapes() {
    for src in [
        "gdb -batch -ex 'shell rm -rf /var/www'",
        "gdb -q ./a.out -ex run -ex '!rm -rf /var/www'",
        "gdb -batch --eval-command='shell rm -rf /var/www'",
        "lldb -o 'platform shell rm -rf /var/www'",
        "lldb --one-line 'platform shell -- rm -rf /var/www'",
        "vim -c '!rm -rf /var/www' -c q",
        "vim -c ':!rm -rf /var/www' -c q",
        "nvim --headless -c 'silent !rm -rf /var/www' +q",
        "ex -c ':silent! !rm -rf /var/www' -c q",
        "vi '+!rm -rf /var/www' +q notes.txt",
        "vim --cmd 'r !rm -rf /var/www'",
    ] {
        let p = parse(src);
        get(&p, "rm --recursive --force /var/www");
    }
    // Their own commands and operands are not programs.
    for src in [
        "gdb -batch -ex run -ex bt ./a.out",
        "vim -c 'set nu' -c 'wq' rm",
        "vim +10 rm",
        "lldb -o 'breakpoint set -n main' ./rm",
    ] {
        let p = parse(src);
        assert!(
            p.commands.iter().all(|c| c.program != "rm"),
            "{src}: {:?}",
            canon(&p)
        );
    }
}

#[test]
fn more_prefix_wrappers_run_their_command() {
    for src in [
        "flock /tmp/l -c 'rm -rf /var/www'",
        "flock -n /tmp/l rm -rf /var/www",
        "script -qc 'rm -rf /var/www' /dev/null",
        "unbuffer rm -rf /var/www",
        "chronic rm -rf /var/www",
        "ionice -c3 rm -rf /var/www",
        "taskset -c 0 rm -rf /var/www",
        "chrt -i 0 rm -rf /var/www",
        "setsid -f rm -rf /var/www",
        "stdbuf -oL rm -rf /var/www",
        "systemd-run --user rm -rf /var/www",
        "systemd-run --scope -p MemoryMax=1G rm -rf /var/www",
        "run-one rm -rf /var/www",
    ] {
        let p = parse(src);
        get(&p, "rm --recursive --force /var/www");
    }
}
