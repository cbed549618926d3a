//! The two level profiles through the whole pipeline (engine assessment, then the gate's
//! decision under a policy): `profile: seeds` reproduces every row of seed 001's rule table
//! and seed 002's category table; the default profile keeps fewer prompts but rates
//! deployments, migrations and production changes at least MEDIUM.

use riskgate::gate::{CliOverrides, Context, Locations, Policy, decide};
use riskgate::model::{Language, WriteOp};
use riskgate::{Action, Engine, RiskLevel};

use RiskLevel::{Critical, High, Low, Medium, Safe};

struct Setup {
    engine: Engine,
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            engine: Engine::builtin(),
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn policy(&self, set: &[&str]) -> Policy {
        let cli = CliOverrides {
            set: set.iter().map(|s| s.to_string()).collect(),
            ..CliOverrides::default()
        };
        Policy::load_with(self.dir.path(), &Locations::isolated(self.dir.path()), &cli)
            .expect("policy loads")
    }

    fn level(&self, policy: &Policy, action: &Action) -> RiskLevel {
        let assessment = self.engine.assess(action);
        decide(&assessment, action, policy, &Context::new(self.dir.path())).level
    }
}

fn cmd(c: &str) -> Action {
    Action::Command {
        command: c.to_string(),
        shell: None,
    }
}

fn py(c: &str) -> Action {
    Action::Code {
        code: c.to_string(),
        language: Some(Language::Python),
    }
}

fn check(s: &Setup, policy: &Policy, rows: &[(&str, Action, RiskLevel)]) {
    let mut wrong = Vec::new();
    for (row, action, want) in rows {
        let got = s.level(policy, action);
        if got != *want {
            wrong.push(format!("{row}: {} is {got}, want {want}", action.subject()));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn seeds_profile_reproduces_seed_001_rule_table() {
    let s = Setup::new();
    let seeds = s.policy(&["profile=seeds"]);
    let rows = [
        // CRITICAL
        (
            "rm_recursive",
            py("import os\nos.system('rm -rf /tmp/build')"),
            Critical,
        ),
        (
            "drop_database",
            py("cursor.execute('DROP TABLE users')"),
            Critical,
        ),
        (
            "format_disk",
            py("import os\nos.system('mkfs.ext4 /dev/sdb1')"),
            Critical,
        ),
        // HIGH
        (
            "file_delete",
            py("import os\nos.remove('/tmp/build.log')"),
            High,
        ),
        (
            "git_force_push",
            py("import os\nos.system('git push --force origin feature/x')"),
            High,
        ),
        (
            "git_reset_hard",
            py("import os\nos.system('git reset --hard HEAD~1')"),
            High,
        ),
        (
            "sudo_command",
            py("import os\nos.system('sudo systemctl restart nginx')"),
            High,
        ),
        (
            "network_request",
            py("import requests\nrequests.post('https://api.example.com/items', json={'a': 1})"),
            High,
        ),
        // MEDIUM
        (
            "file_write",
            py("with open('/tmp/output.txt', 'w') as f:\n    f.write('data')"),
            Medium,
        ),
        (
            "subprocess_exec",
            py("import subprocess\nsubprocess.run(['make', 'clean'])"),
            Medium,
        ),
        (
            "git_commit",
            py("import os\nos.system('git commit -m update')"),
            Medium,
        ),
        (
            "pip_install",
            py("import subprocess\nsubprocess.run('pip install requests', shell=True)"),
            Medium,
        ),
        // LOW
        (
            "file_read",
            py("data = open('config.yaml', 'r').read()"),
            Low,
        ),
        // SAFE
        ("print_output", py("print('hello')"), Safe),
    ];
    check(&s, &seeds, &rows);
}

#[test]
fn seeds_profile_reproduces_seed_002_categories() {
    let s = Setup::new();
    let seeds = s.policy(&["profile=seeds"]);
    let write = Action::FileWrite {
        path: s.dir.path().join("src/app.py").display().to_string(),
        content: Some("print('hi')\n".into()),
        op: WriteOp::default(),
    };
    let rows = [
        // LOW: read files, list directories, run tests, git status
        ("read files", cmd("cat README.md"), Low),
        ("list directories", cmd("ls -la src"), Low),
        ("run tests", cmd("pytest -q tests/"), Low),
        ("git status", cmd("git status"), Low),
        // MEDIUM: npm install, git commit, file modifications (install, commit, build, write)
        ("npm install", cmd("npm install"), Medium),
        ("git commit", cmd("git commit -m 'fix typo'"), Medium),
        ("file modification", write, Medium),
        ("build", cmd("npm run build"), Medium),
        // HIGH: authentication changes, database migrations, deployments, production
        ("auth", cmd("gh auth login"), High),
        ("migration", cmd("python manage.py migrate"), High),
        ("migration", cmd("npx prisma migrate deploy"), High),
        ("deployment", cmd("npm run deploy"), High),
        ("deployment", cmd("fly deploy"), High),
        (
            "production",
            cmd("heroku config:set FEATURE_X=1 -a acme-production"),
            High,
        ),
        // CRITICAL: force push, terraform destroy, rm -rf, DROP DATABASE
        (
            "force push",
            cmd("git push --force origin feature/x"),
            Critical,
        ),
        ("terraform destroy", cmd("terraform destroy"), Critical),
        ("rm -rf", cmd("rm -rf build"), Critical),
        (
            "DROP DATABASE",
            cmd("psql -c 'DROP DATABASE app'"),
            Critical,
        ),
    ];
    check(&s, &seeds, &rows);
}

#[test]
fn default_profile_side_by_side() {
    let s = Setup::new();
    let default = s.policy(&[]);
    let rows = [
        // fewer prompts: installs, commits and reads stay as riskgate rates them
        ("npm install", cmd("npm install"), Safe),
        ("git commit", cmd("git commit -m 'fix typo'"), Safe),
        ("git status", cmd("git status"), Safe),
        ("rm -rf build", cmd("rm -rf build"), Low),
        // deployments, migrations and production changes at least MEDIUM
        ("deployment", cmd("npm run deploy"), Medium),
        ("deployment", cmd("fly deploy"), Medium),
        ("migration", cmd("python manage.py migrate"), Medium),
        ("migration", cmd("npx prisma migrate deploy"), Medium),
        (
            "production",
            cmd("heroku config:set FEATURE_X=1 -a acme-production"),
            Medium,
        ),
    ];
    check(&s, &default, &rows);
}

#[test]
fn a_project_file_selects_seeds_but_cannot_relax_it() {
    let s = Setup::new();
    // the project file alone selects it
    std::fs::write(s.dir.path().join(".riskgate.yaml"), "profile: seeds\n").expect("write");
    let p = s.policy(&[]);
    assert_eq!(p.profile().value.to_string(), "seeds");
    assert_eq!(s.level(&p, &cmd("npm install")), Medium);
    // the user file sets seeds; the project file's `default` is ignored with a warning
    let user = s.dir.path().join("user");
    std::fs::create_dir_all(&user).expect("user dir");
    std::fs::write(user.join("config.yaml"), "profile: seeds\n").expect("write");
    std::fs::write(s.dir.path().join(".riskgate.yaml"), "profile: default\n").expect("write");
    let locations = Locations {
        user_config_dir: Some(user),
        ..Locations::isolated(s.dir.path())
    };
    let p = Policy::load_with(s.dir.path(), &locations, &CliOverrides::default()).expect("loads");
    assert_eq!(p.profile().value.to_string(), "seeds");
    assert!(
        p.warnings().iter().any(|w| w.contains("profile: default")),
        "{:?}",
        p.warnings()
    );
}
