//! Seed 003's risk matrix on diffs made by git in temporary repositories: every row of the
//! seed's example tables, its test-versus-production table and its cumulative-risk rule, plus
//! renames, copies, binary files, mode changes and deletions.

use std::path::Path;
use std::process::Command;

use riskgate_analyzers::Environment;
use riskgate_analyzers::diff::{
    ChangeSetReport, ChangeStatus, DiffOptions, RiskClass, classify_diff,
};
use riskgate_model::{Decision, RiskLevel};

struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new(files: &[(&str, &str)]) -> Repo {
        let dir = tempfile::tempdir().expect("tempdir");
        let r = Repo { dir };
        r.git(&["init", "-q"]);
        for (p, c) in files {
            r.write(p, c.as_bytes());
        }
        r.git(&["add", "-A"]);
        r.git(&["commit", "-q", "--allow-empty", "-m", "base"]);
        r
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.autocrlf=false",
                "-c",
                "core.quotepath=true",
            ])
            .args(args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.path())
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn write(&self, p: &str, content: &[u8]) {
        let full = self.path().join(p);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(full, content).expect("write");
    }

    fn remove(&self, p: &str) {
        std::fs::remove_file(self.path().join(p)).expect("rm");
    }

    fn diff(&self) -> String {
        self.git(&["add", "-A"]);
        self.git(&["diff", "--cached", "-M", "-C"])
    }
}

/// Change `before` into `after` (None: delete) and return `git diff`.
fn diff_of(before: &[(&str, &str)], after: &[(&str, Option<&str>)]) -> String {
    let r = Repo::new(before);
    for (p, c) in after {
        match c {
            Some(c) => r.write(p, c.as_bytes()),
            None => r.remove(p),
        }
    }
    r.diff()
}

fn classify(d: &str, env: Environment) -> ChangeSetReport {
    classify_diff(d, &DiffOptions { environment: env })
}

fn test_env(d: &str) -> ChangeSetReport {
    classify(d, Environment::Test)
}

fn ids(r: &ChangeSetReport) -> Vec<&str> {
    r.criteria.iter().map(|c| c.id.as_str()).collect()
}

fn assert_class(r: &ChangeSetReport, class: RiskClass) {
    assert_eq!(r.class, class, "{}", r.render_text());
    let (decision, levels): (Decision, &[RiskLevel]) = match class {
        RiskClass::A => (Decision::Allow, &[RiskLevel::Safe, RiskLevel::Low]),
        RiskClass::B => (Decision::Ask, &[RiskLevel::Medium, RiskLevel::High]),
        RiskClass::C => (Decision::Deny, &[RiskLevel::Critical]),
    };
    assert_eq!(r.decision, decision);
    assert!(
        levels.contains(&r.level),
        "level {} for class {:?}",
        r.level,
        class
    );
}

const APP: &str = "from flask import Flask\n\napp = Flask(__name__)\n\n\ndef total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n\n\n@app.route('/health')\ndef health():\n    return 'ok'\n";

// ---- A ----

#[test]
fn a_fix_typo_in_one_file() {
    let d = diff_of(
        &[("src/app.py", "print(\"recieve\")\n")],
        &[("src/app.py", Some("print(\"receive\")\n"))],
    );
    let r = test_env(&d);
    assert_class(&r, RiskClass::A);
    assert!(r.criteria.is_empty());
}

#[test]
fn a_add_comments_in_two_files() {
    let d = diff_of(
        &[("a.py", "x = 1\n"), ("b.js", "const y = 2;\n")],
        &[
            ("a.py", Some("# the answer, roughly\nx = 1\n")),
            ("b.js", Some("// why two: see issue 12\nconst y = 2;\n")),
        ],
    );
    assert_class(&test_env(&d), RiskClass::A);
}

#[test]
fn a_adjust_css_in_three_files() {
    let before = [
        ("css/a.css", "a { color: red; }\n"),
        ("css/b.css", "b { margin: 0; }\n"),
        ("css/c.css", "c { padding: 1px; }\n"),
    ];
    let d = diff_of(
        &before,
        &[
            ("css/a.css", Some("a { color: blue; }\n")),
            ("css/b.css", Some("b { margin: 2px; }\n")),
            ("css/c.css", Some("c { padding: 4px; }\n")),
        ],
    );
    let r = test_env(&d);
    assert_class(&r, RiskClass::A);
    assert_eq!(r.files.len(), 3);
}

#[test]
fn a_refactor_single_function_internals() {
    let after = APP.replace(
        "    s = 0\n    for i in items:\n        s += i\n    return s\n",
        "    return sum(items)\n",
    );
    let d = diff_of(&[("app.py", APP)], &[("app.py", Some(&after))]);
    assert_class(&test_env(&d), RiskClass::A);
}

#[test]
fn a_update_readme() {
    let d = diff_of(
        &[("README.md", "# Tool\n")],
        &[(
            "README.md",
            Some("# Tool\n\nRun `make`. Never `rm -rf /` here.\n"),
        )],
    );
    let r = test_env(&d);
    assert_class(&r, RiskClass::A);
    assert_eq!(r.level, RiskLevel::Safe);
}

// ---- B ----

#[test]
fn b_refactor_across_five_files() {
    let before: Vec<(String, String)> = (0..5)
        .map(|i| {
            (
                format!("src/m{i}.py"),
                format!("def f{i}(x):\n    return x + {i}\n"),
            )
        })
        .collect();
    let before_ref: Vec<(&str, &str)> = before
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let after: Vec<(String, String)> = (0..5)
        .map(|i| {
            (
                format!("src/m{i}.py"),
                format!("def f{i}(x):\n    y = x\n    return y + {i}\n"),
            )
        })
        .collect();
    let after_ref: Vec<(&str, Option<&str>)> = after
        .iter()
        .map(|(a, b)| (a.as_str(), Some(b.as_str())))
        .collect();
    let r = test_env(&diff_of(&before_ref, &after_ref));
    assert_class(&r, RiskClass::B);
    assert_eq!(ids(&r), vec!["files.count"]);
}

#[test]
fn b_add_api_endpoint() {
    let after = format!(
        "{APP}\n\n@app.route('/users', methods=['POST'])\ndef create_user():\n    return 'created', 201\n"
    );
    let r = test_env(&diff_of(&[("app.py", APP)], &[("app.py", Some(&after))]));
    assert_class(&r, RiskClass::B);
    let c = r
        .criteria
        .iter()
        .find(|c| c.id == "api.route")
        .expect("api.route");
    assert_eq!((c.file.as_deref(), c.line), (Some("app.py"), Some(18)));
}

#[test]
fn b_add_database_column() {
    let r = test_env(&diff_of(
        &[("migrations/0001_init.sql", "CREATE TABLE users (id int);\n")],
        &[(
            "migrations/0002_add_age.sql",
            Some("ALTER TABLE users ADD COLUMN age integer;\n"),
        )],
    ));
    assert_class(&r, RiskClass::B);
    assert!(ids(&r).contains(&"schema.migration") && ids(&r).contains(&"schema.ddl"));
}

#[test]
fn b_upgrade_react_16_to_18() {
    let before = "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"react\": \"^16.14.0\",\n    \"react-dom\": \"^16.14.0\"\n  }\n}\n";
    let after = before.replace("^16.14.0", "^18.2.0");
    let r = test_env(&diff_of(
        &[("package.json", before)],
        &[("package.json", Some(&after))],
    ));
    assert_class(&r, RiskClass::B);
    assert!(ids(&r).contains(&"breaking.major-upgrade") && ids(&r).contains(&"deps.manifest"));
    assert!(!ids(&r).contains(&"third-party.new-dependency"));
}

#[test]
fn b_modify_dockerfile() {
    let before = "FROM node:18\nWORKDIR /app\nCOPY . .\n";
    let after = "FROM node:20\nWORKDIR /app\nRUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*\nCOPY . .\n";
    let r = test_env(&diff_of(
        &[("Dockerfile", before)],
        &[("Dockerfile", Some(after))],
    ));
    assert_class(&r, RiskClass::B);
    assert!(ids(&r).contains(&"ci.docker"));
}

#[test]
fn b_adjust_env_production() {
    let r = test_env(&diff_of(
        &[(".env.production", "LOG_LEVEL=debug\nPORT=80\n")],
        &[(".env.production", Some("LOG_LEVEL=info\nPORT=80\n"))],
    ));
    assert_class(&r, RiskClass::B);
    assert!(ids(&r).contains(&"config.env") && ids(&r).contains(&"production.file"));
}

// ---- C ----

#[test]
fn c_modify_api_key_in_env() {
    let r = test_env(&diff_of(
        &[(".env", "API_KEY=old-value-123\nDEBUG=1\n")],
        &[(".env", Some("API_KEY=new-value-456\nDEBUG=1\n"))],
    ));
    assert_class(&r, RiskClass::C);
    let c = r
        .criteria
        .iter()
        .find(|c| c.id == "sensitive.env-secret")
        .expect("env secret");
    assert_eq!(c.file.as_deref(), Some(".env"));
    assert!(
        !r.render_text().contains("new-value-456"),
        "secret values are not echoed"
    );
}

#[test]
fn c_add_admin_permission_to_user() {
    let r = test_env(&diff_of(
        &[("users.py", "def promote(user):\n    pass\n")],
        &[(
            "users.py",
            Some("def promote(user):\n    user.is_admin = True\n    user.save()\n"),
        )],
    ));
    assert_class(&r, RiskClass::C);
    assert!(ids(&r).contains(&"permissions.admin"));
    let r = test_env(&diff_of(
        &[],
        &[(
            "db/grants.sql",
            Some("GRANT ALL PRIVILEGES ON DATABASE app TO alice;\n"),
        )],
    ));
    assert_class(&r, RiskClass::C);
    assert!(ids(&r).contains(&"permissions.grant"));
}

#[test]
fn c_drop_database_production() {
    let r = test_env(&diff_of(
        &[],
        &[("scripts/reset.sql", Some("DROP DATABASE production;\n"))],
    ));
    assert_class(&r, RiskClass::C);
    assert!(ids(&r).contains(&"deletion.database"));
}

#[test]
fn c_execute_rm_rf_data() {
    let r = test_env(&diff_of(
        &[("scripts/cleanup.sh", "#!/bin/sh\necho start\n")],
        &[(
            "scripts/cleanup.sh",
            Some("#!/bin/sh\necho start\nrm -rf /data/*\n"),
        )],
    ));
    assert_class(&r, RiskClass::C);
    let c = r
        .criteria
        .iter()
        .find(|c| c.id == "deletion.recursive")
        .expect("rm -rf");
    assert_eq!(
        (c.file.as_deref(), c.line),
        (Some("scripts/cleanup.sh"), Some(3))
    );
    // the same in a comment is not a deletion
    let r = test_env(&diff_of(
        &[("scripts/cleanup.sh", "#!/bin/sh\n")],
        &[(
            "scripts/cleanup.sh",
            Some("#!/bin/sh\n# never: rm -rf /data/*\n"),
        )],
    ));
    assert_class(&r, RiskClass::A);
}

#[test]
fn c_direct_update_users_set_balance_in_production() {
    let d = diff_of(
        &[],
        &[(
            "ops/fix_balance.sql",
            Some("UPDATE users SET balance = 0;\n"),
        )],
    );
    let prod = classify(&d, Environment::Production);
    assert_class(&prod, RiskClass::C);
    assert!(prod.escalated && ids(&prod).contains(&"environment.production"));
    // the same in a test environment needs confirmation (seed 003's special cases)
    assert_class(&test_env(&d), RiskClass::B);
}

#[test]
fn c_install_unknown_npm_package() {
    let before =
        "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"react\": \"^18.2.0\"\n  }\n}\n";
    let after = "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"react\": \"^18.2.0\",\n    \"left-pad-ultra\": \"^0.0.1\"\n  }\n}\n";
    let r = test_env(&diff_of(
        &[("package.json", before)],
        &[("package.json", Some(after))],
    ));
    assert_class(&r, RiskClass::C);
    let c = r
        .criteria
        .iter()
        .find(|c| c.id == "third-party.new-dependency")
        .expect("new dep");
    assert_eq!(
        (c.line, c.evidence.as_deref()),
        (Some(5), Some("left-pad-ultra ^0.0.1"))
    );
}

#[test]
fn c_dependency_from_git_url_or_unknown_registry() {
    // an existing dependency switched from the registry to someone's Git repository
    let before =
        "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"lodash\": \"^4.17.21\"\n  }\n}\n";
    let after = before.replace("^4.17.21", "git+https://github.com/someone/lodash.git#main");
    let r = test_env(&diff_of(
        &[("package.json", before)],
        &[("package.json", Some(&after))],
    ));
    assert_class(&r, RiskClass::C);
    let c = r
        .criteria
        .iter()
        .find(|c| c.id == "third-party.unreviewed-source")
        .expect("unreviewed source");
    assert_eq!(
        c.evidence.as_deref(),
        Some("lodash git+https://github.com/someone/lodash.git#main")
    );
    // a lockfile entry resolved from an unknown registry, credentials kept out of the report
    let lock_before = "{\n  \"packages\": {\n    \"node_modules/lodash\": {\n      \"version\": \"4.17.21\",\n      \"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\"\n    }\n  }\n}\n";
    let lock_after = lock_before.replace(
        "https://registry.npmjs.org/",
        "https://ci:hunter2@npm.mirror.example/",
    );
    let r = test_env(&diff_of(
        &[("package-lock.json", lock_before)],
        &[("package-lock.json", Some(&lock_after))],
    ));
    assert_class(&r, RiskClass::C);
    assert!(!r.render_text().contains("hunter2"), "{}", r.render_text());
    // a requirements file gaining an extra index
    let r = test_env(&diff_of(
        &[("requirements.txt", "flask==3.0.0\n")],
        &[(
            "requirements.txt",
            Some("--extra-index-url https://pypi.internal.example/simple\nflask==3.0.0\n"),
        )],
    ));
    assert_class(&r, RiskClass::C);
    // a registry version bump stays B
    let r = test_env(&diff_of(
        &[("package.json", before)],
        &[(
            "package.json",
            Some(&before.replace("^4.17.21", "^4.17.22")),
        )],
    ));
    assert_class(&r, RiskClass::B);
}

// ---- test environment vs production ----

fn both(d: &str) -> (RiskClass, RiskClass) {
    (
        classify(d, Environment::Test).class,
        classify(d, Environment::Production).class,
    )
}

#[test]
fn special_cases_test_b_production_c() {
    let drop = diff_of(
        &[],
        &[(
            "migrations/0003_drop_users.sql",
            Some("DROP TABLE users;\n"),
        )],
    );
    assert_eq!(both(&drop), (RiskClass::B, RiskClass::C));
    let delete = diff_of(&[], &[("ops/purge.sql", Some("DELETE FROM users;\n"))]);
    assert_eq!(both(&delete), (RiskClass::B, RiskClass::C));
    let env = diff_of(
        &[(".env", "LOG_LEVEL=debug\n")],
        &[(".env", Some("LOG_LEVEL=warn\n"))],
    );
    assert_eq!(both(&env), (RiskClass::B, RiskClass::C));
    let balance = diff_of(
        &[],
        &[(
            "ops/credit.sql",
            Some("UPDATE users SET balance = balance + 10 WHERE id = 7;\n"),
        )],
    );
    assert_eq!(both(&balance), (RiskClass::B, RiskClass::C));
    // a production-only escalation does not touch changes that write no data
    let five: Vec<(String, String)> = (0..5)
        .map(|i| (format!("m{i}.py"), format!("x = {i}\n")))
        .collect();
    let before: Vec<(&str, &str)> = five.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let after: Vec<(&str, Option<&str>)> = five
        .iter()
        .map(|(a, _)| (a.as_str(), Some("x = 42\n")))
        .collect();
    assert_eq!(
        both(&diff_of(&before, &after)),
        (RiskClass::B, RiskClass::B)
    );
}

// ---- cumulative risk ----

fn n_small_changes(n: usize) -> String {
    let files: Vec<(String, String)> = (0..n)
        .map(|i| (format!("src/f{i}.py"), format!("v = {i}\n")))
        .collect();
    let before: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let after: Vec<(&str, Option<&str>)> = files
        .iter()
        .map(|(a, _)| (a.as_str(), Some("v = 100\n")))
        .collect();
    diff_of(&before, &after)
}

#[test]
fn cumulative_risk() {
    assert_eq!(test_env(&n_small_changes(3)).class, RiskClass::A);
    assert_eq!(test_env(&n_small_changes(4)).class, RiskClass::B);
    assert_eq!(test_env(&n_small_changes(10)).class, RiskClass::B);
    let r = test_env(&n_small_changes(11));
    assert_class(&r, RiskClass::C);
    assert_eq!(ids(&r), vec!["files.cumulative"]);
}

// ---- must hold ----

#[test]
fn five_files_with_package_json_and_workflow_is_b_with_both_reasons() {
    let pkg =
        "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"lodash\": \"^4.17.20\"\n  }\n}\n";
    let wf = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n";
    let before = [
        ("package.json", pkg),
        (".github/workflows/ci.yml", wf),
        ("src/a.js", "export const a = 1;\n"),
        ("src/b.js", "const b = 2;\n"),
        ("src/c.js", "const c = 3;\n"),
    ];
    let after = [
        ("package.json", Some(pkg.replace("4.17.20", "4.17.21"))),
        (
            ".github/workflows/ci.yml",
            Some(wf.replace("npm test", "npm ci && npm test")),
        ),
        (
            "src/a.js",
            Some("export const a = 1;\nconst a2 = 2;\n".to_string()),
        ),
        ("src/b.js", Some("const b = 20;\n".to_string())),
        ("src/c.js", Some("const c = 30;\n".to_string())),
    ];
    let after_ref: Vec<(&str, Option<&str>)> =
        after.iter().map(|(p, c)| (*p, c.as_deref())).collect();
    let r = test_env(&diff_of(&before, &after_ref));
    assert_class(&r, RiskClass::B);
    let fired = ids(&r);
    assert!(
        fired.contains(&"deps.manifest")
            && fired.contains(&"ci.config")
            && fired.contains(&"files.count"),
        "{fired:?}"
    );
    let deps = r
        .criteria
        .iter()
        .find(|c| c.id == "deps.manifest")
        .expect("deps");
    assert_eq!(deps.file.as_deref(), Some("package.json"));
    let ci = r.criteria.iter().find(|c| c.id == "ci.config").expect("ci");
    assert_eq!(ci.file.as_deref(), Some(".github/workflows/ci.yml"));
    assert!(ci.line.is_some());
    // JSON for machines
    let v = serde_json::to_value(&r).expect("json");
    assert_eq!(v["class"], "B");
    assert_eq!(v["decision"], "ask");
    assert_eq!(v["files"].as_array().map(Vec::len), Some(5));
    let text = r.render_text();
    assert!(
        text.contains("class B") && text.contains("package.json") && text.contains("ci.config"),
        "{text}"
    );
}

#[test]
fn aws_secret_access_key_is_c() {
    let d = diff_of(
        &[("config/aws.ini", "[default]\nregion = eu-west-1\n")],
        &[(
            "config/aws.ini",
            Some(
                "[default]\nregion = eu-west-1\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
            ),
        )],
    );
    let r = test_env(&d);
    assert_class(&r, RiskClass::C);
    let s = r
        .criteria
        .iter()
        .find(|c| c.id == "sensitive.secret")
        .expect("secret");
    assert_eq!(
        (s.file.as_deref(), s.line, s.occurrences),
        (Some("config/aws.ini"), Some(3), 2)
    );
    let json = serde_json::to_string(&r).expect("json");
    assert!(
        !json.contains("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
            && !json.contains("AKIAIOSFODNN7EXAMPLE"),
        "secrets are redacted everywhere"
    );
    assert!(!r.render_text().contains("wJalrXUtnFEMI"));
}

// ---- git's kinds of change ----

// an executable bit is set with Unix permissions (git on Windows does not track it)
#[cfg(unix)]
#[test]
fn renames_copies_binary_modes_and_deletions() {
    let body: String = (0..30).map(|i| format!("line {i}\n")).collect();
    let r = Repo::new(&[
        ("docs/old name.md", &body),
        ("tool.sh", "#!/bin/sh\necho hi\n"),
        ("gone.txt.py", "x = 1\n"),
        ("logo.png", "placeholder"),
    ]);
    r.git(&["mv", "docs/old name.md", "docs/new näme.md"]);
    r.write("docs/new näme.md", format!("{body}line 30\n").as_bytes());
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            r.path().join("tool.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .expect("chmod");
    }
    r.remove("gone.txt.py");
    r.write("logo.png", &[0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0]);
    r.write("new.bin", &[0, 1, 2, 3, 0, 255]);
    let d = r.diff();
    let rep = test_env(&d);
    let by_path = |p: &str| {
        rep.files
            .iter()
            .find(|f| f.path == p)
            .unwrap_or_else(|| panic!("{p} in {:?}", rep.files))
    };
    let renamed = by_path("docs/new näme.md");
    assert_eq!(
        (renamed.status, renamed.old_path.as_deref()),
        (ChangeStatus::Renamed, Some("docs/old name.md"))
    );
    let tool = by_path("tool.sh");
    assert_eq!(
        (tool.old_mode.as_deref(), tool.new_mode.as_deref()),
        (Some("100644"), Some("100755"))
    );
    assert_eq!(by_path("gone.txt.py").status, ChangeStatus::Deleted);
    assert!(by_path("logo.png").binary);
    let nb = by_path("new.bin");
    assert!(nb.binary && nb.status == ChangeStatus::Added);
    assert_eq!(rep.files.len(), 5);
    let fired = ids(&rep);
    assert!(
        fired.contains(&"permissions.file-mode")
            && fired.contains(&"deletion.file")
            && fired.contains(&"files.count"),
        "{fired:?}"
    );
    assert_class(&rep, RiskClass::B);
    assert!(!rep.degraded);
}

#[test]
fn copies_are_recognized() {
    let body: String = (0..40).map(|i| format!("value_{i} = {i}\n")).collect();
    let r = Repo::new(&[("settings_base.py", &body)]);
    r.write("settings_copy.py", body.as_bytes());
    r.git(&["add", "-A"]);
    let d = r.git(&["diff", "--cached", "-C", "--find-copies-harder"]);
    let rep = test_env(&d);
    assert_eq!(
        rep.files.first().map(|f| (f.status, f.old_path.clone())),
        Some((ChangeStatus::Copied, Some("settings_base.py".to_string())))
    );
}

#[test]
fn empty_and_garbage_input() {
    let r = test_env("");
    assert_class(&r, RiskClass::A);
    let r = test_env("@@ -1,2 +1,2 @@\n-a\n+b\n");
    assert!(r.degraded && r.class >= RiskClass::B && r.level >= RiskLevel::Medium);
}
