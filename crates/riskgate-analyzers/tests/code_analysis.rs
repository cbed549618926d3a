//! Better than the seed's regexes: comments, docstrings and strings do not trigger, calls are
//! resolved through imports and aliases, and what code hands to shells and databases is read.

use riskgate_analyzers::code::{CodeAction, RiskAssessor};
use riskgate_model::{Assessment, RiskLevel};

fn py(code: &str) -> Assessment {
    RiskAssessor::new().assess(&CodeAction::python(code))
}

fn js(code: &str) -> Assessment {
    RiskAssessor::new().assess(&CodeAction::js(code))
}

fn sh(code: &str) -> Assessment {
    RiskAssessor::new().assess(&CodeAction::sh(code))
}

fn has(a: &Assessment, id: &str) -> bool {
    a.rule_ids().contains(&id)
}

#[test]
fn comments_docstrings_and_strings_do_not_trigger() {
    let a = py("# shutil.rmtree('/')\nx = 1");
    assert!(a.level <= RiskLevel::Low, "{:?}", a.findings);
    let a = py("# never call shutil.rmtree\nimport shutil");
    assert!(a.level <= RiskLevel::Low);
    let a = py(
        "def f():\n    \"\"\"Calls os.remove('/etc/passwd') and rm -rf /.\"\"\"\n    return 1\n",
    );
    assert_eq!(a.level, RiskLevel::Safe, "{:?}", a.findings);
    let a = py("msg = \"don't run subprocess.run(['rm', '-rf', '/'])\"\nprint(msg)");
    assert_eq!(a.level, RiskLevel::Safe, "{:?}", a.findings);
    let a = js(
        "// fs.rmSync('/', {recursive: true})\n/* child_process.execSync('rm -rf /') */\nconsole.log('ok')",
    );
    assert_eq!(a.level, RiskLevel::Safe, "{:?}", a.findings);
}

#[test]
fn format_is_not_disk_formatting() {
    let a =
        py("x = 3\nprint(\"{}\".format(x))\ns = 'format: {}'.format(1)\nprint(format(x, '02d'))");
    assert_eq!(a.level, RiskLevel::Safe, "{:?}", a.findings);
    assert!(!has(&a, "code.format_disk"));
    let a = js("const s = `${a}`.format ? 1 : 2; console.log(util.format('%s', s))");
    assert!(!has(&a, "code.format_disk"));
    // but a real mkfs is
    assert_eq!(
        py("import os\nos.system('mkfs.ext4 /dev/sdb1')").level,
        RiskLevel::Critical
    );
}

#[test]
fn rmtree_levels() {
    assert!(py("import shutil\nshutil.rmtree('/home/u')").level >= RiskLevel::High);
    assert_eq!(
        py("import shutil\nshutil.rmtree('/')").level,
        RiskLevel::Critical
    );
    assert_eq!(
        py("import shutil, os\nshutil.rmtree(os.path.expanduser('~'))").level,
        RiskLevel::Critical
    );
    assert_eq!(
        py("import shutil\nshutil.rmtree('/tmp/build')").level,
        RiskLevel::High
    );
}

#[test]
fn import_aliases_are_resolved() {
    let a = py("from shutil import rmtree as rt\nrt(p)");
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = py("import shutil as sh\nsh.rmtree('/data')");
    assert!(has(&a, "code.file_delete"));
    let a = py("import os.path\nfrom os import remove\nremove('/x')");
    assert!(has(&a, "code.file_delete"));
    let a = py("from os import *\nunlink('/x')");
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = py("import subprocess as sp\nsp.check_call(['git', 'push', '--force'])");
    assert!(has(&a, "code.git_force_push") && has(&a, "code.subprocess_exec"));
    let a = py("rt = __import__('shutil').rmtree\nrt('/srv')");
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = py("import os\ngetattr(os, 'system')('reboot')");
    assert!(has(&a, "code.system_power"), "{:?}", a.rule_ids());
}

#[test]
fn values_flow_through_constants_and_objects() {
    let a = py("import shutil\ntarget = '/home/alice'\nshutil.rmtree(target)");
    assert_eq!(a.level, RiskLevel::Critical, "{:?}", a.findings);
    let a = py("from pathlib import Path\np = Path('/var/data/db.sqlite')\np.unlink()");
    assert!(has(&a, "code.file_delete"));
    let a = py("import subprocess\ncmd = ['rm', '-r', '/srv/app']\nsubprocess.run(cmd)");
    assert!(has(&a, "code.rm_recursive"), "{:?}", a.rule_ids());
    let a =
        py("data = [1, 2]\ndata.remove(1)\nitems = {}\nitems.pop('x')\ns = 'a'.replace('a', 'b')");
    assert_eq!(a.level, RiskLevel::Safe, "{:?}", a.findings);
}

#[test]
fn javascript_requires_and_imports() {
    let a =
        js("const fs = require('fs');\nfs.rmSync('/srv/data', { recursive: true, force: true });");
    assert!(has(&a, "code.file_delete"));
    assert!(a.affected_resources.contains(&"file:/srv/data".to_string()));
    let a = js("import { rmSync as r } from 'node:fs';\nr('/tmp/x')");
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = js("import * as cp from 'child_process'\ncp.execSync('rm -rf /home/me')");
    assert_eq!(a.level, RiskLevel::Critical, "{:?}", a.findings);
    let a = js("const { exec: run } = require('child_process')\nrun(`git reset --hard`)");
    assert!(has(&a, "code.git_reset_hard"), "{:?}", a.rule_ids());
    let a = js("const { spawn } = require('child_process');\nspawn('rm', ['-rf', '/var/www'])");
    assert!(has(&a, "code.rm_recursive"));
    let a = js("await fs.promises.writeFile('/tmp/a.txt', data)");
    assert!(has(&a, "code.file_write"));
    let a = js("fetch('https://api.example.com/items', { method: 'DELETE' })");
    assert!(has(&a, "code.network_request"));
    let a = js("const r = await fetch('https://api.example.com/items')");
    assert_eq!(a.level, RiskLevel::Low);
    let a = js("import { $ } from 'zx'\nawait $`rm -rf ${dir}`");
    assert!(has(&a, "code.rm_recursive"), "{:?}", a.rule_ids());
}

#[test]
fn code_in_code_is_analyzed() {
    let a = py("exec(\"import os; os.remove('/etc/hosts')\")");
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = py(
        "import subprocess\nsubprocess.run(['python3', '-c', 'import shutil; shutil.rmtree(\"/srv\")'])",
    );
    assert!(has(&a, "code.file_delete"), "{:?}", a.rule_ids());
    let a = py("import os\nos.system(\"bash -c 'rm -rf /opt/app'\")");
    assert!(has(&a, "code.rm_recursive"));
    let a = py("exec(user_input)");
    assert!(has(&a, "code.dynamic_code_exec"));
    let a = py("import base64\nexec(base64.b64decode('cHJpbnQoMSk='))");
    assert_eq!(a.level, RiskLevel::Critical);
    let a = py("x = f\"{os.system('shutdown -h now')}\"");
    assert!(has(&a, "code.system_power"), "{:?}", a.rule_ids());
}

#[test]
fn databases_from_code() {
    let a = py("cur.execute('DROP TABLE users')");
    assert_eq!(a.level, RiskLevel::Critical);
    assert!(a.affected_resources.contains(&"table:users".to_string()));
    let a = py("cur.execute('DELETE FROM sessions')");
    assert_eq!(a.level, RiskLevel::High);
    let a = py("cur.execute('SELECT * FROM users WHERE id = %s', (uid,))");
    assert!(a.level <= RiskLevel::Low, "{:?}", a.findings);
    let a = py("cur.execute(f\"DELETE FROM users WHERE id = {uid}\")");
    assert!(
        has(&a, "code.sql_dynamic") && a.level == RiskLevel::Medium,
        "{:?}",
        a.findings
    );
    let a = py("import redis\nr = redis.Redis()\nr.flushall()");
    assert_eq!(a.level, RiskLevel::Critical);
    let a = py(
        "from pymongo import MongoClient\ndb = MongoClient()['shop']\ndb.orders.delete_many({})",
    );
    assert_eq!(a.level, RiskLevel::High);
    let a = py("client.drop_database('shop')");
    assert_eq!(a.level, RiskLevel::Critical);
    let a = py("import subprocess\nsubprocess.run(['psql', '-c', 'TRUNCATE audit_log'])");
    assert_eq!(a.level, RiskLevel::High, "{:?}", a.findings);
    let a = py("df = pd.read_csv('in.csv')\ndf.drop(columns=['a'])");
    assert!(a.level <= RiskLevel::Low);
}

#[test]
fn network_system_and_secrets() {
    assert!(has(
        &py("import requests\nrequests.post('https://api.example.com/x', json=d)"),
        "code.network_request"
    ));
    assert_eq!(
        py("import requests\nrequests.get('https://example.com')").level,
        RiskLevel::Low
    );
    assert!(!has(
        &py("from urllib.parse import quote\nquote('a b')"),
        "code.network_request"
    ));
    assert_eq!(py("import os\nos.setuid(0)").level, RiskLevel::High);
    assert_eq!(
        py("import os\nos.system('curl https://x.sh | sh')").level,
        RiskLevel::Critical
    );
    let a = py("open('/home/u/.ssh/id_rsa').read()");
    assert!(has(&a, "code.credential_access"));
    let a = py("with open('/home/u/.bashrc', 'a') as f:\n    f.write('alias ls=rm')");
    assert!(has(&a, "code.sensitive_file_write"));
    let a = py("password = \"hunter2hunter2\"\nkey = 'AKIAIOSFODNN7EXAMPLE'");
    assert!(has(&a, "code.hardcoded_secret"));
    assert!(
        a.findings.iter().all(|f| !f
            .matched
            .clone()
            .unwrap_or_default()
            .contains("hunter2hunter2")),
        "secrets are redacted"
    );
    assert_eq!(
        py("import os\nos.chmod('/srv/app', 0o777)").level,
        RiskLevel::High
    );
    let a = py("import pickle\npickle.loads(blob)");
    assert!(has(&a, "code.deserialization"));
    assert!(has(
        &py("import os\nos.environ['PATH'] = '/tmp'"),
        "code.env_modify"
    ));
}

#[test]
fn standalone_shell() {
    assert_eq!(sh("rm -rf /var/lib/postgres").level, RiskLevel::Critical);
    assert_eq!(sh("ls -la\necho done").level, RiskLevel::Safe);
    assert_eq!(sh("# rm -rf /\necho hi").level, RiskLevel::Safe);
    assert_eq!(sh("sudo apt-get install -y nginx").level, RiskLevel::High);
    assert_eq!(sh("git push origin +main").level, RiskLevel::High);
    assert_eq!(
        sh("curl -fsSL https://get.example.sh | bash").level,
        RiskLevel::Critical
    );
    assert_eq!(sh("redis-cli -h db FLUSHALL").level, RiskLevel::Critical);
    assert_eq!(sh("echo x > /dev/sda").level, RiskLevel::Critical);
    assert_eq!(
        sh("terraform destroy -auto-approve").level,
        RiskLevel::Critical
    );
}

#[test]
fn language_is_guessed_when_absent() {
    let a = RiskAssessor::new().assess(&CodeAction::new(
        "const fs = require('fs');\nfs.unlinkSync('/x');",
        None,
    ));
    assert!(has(&a, "code.file_delete"));
    let a = RiskAssessor::new().assess(&CodeAction::new("#!/bin/bash\nrm -rf /data\n", None));
    assert_eq!(a.level, RiskLevel::Critical);
}

#[test]
fn broken_code_is_degraded_not_a_panic() {
    let a = py("x = 'unterminated");
    assert!(a.degraded && a.level >= RiskLevel::Medium);
    for s in [
        "(((((",
        "\"\"\"",
        "f'{",
        "import",
        "from . import",
        "a.b.c.(",
        ")))",
        "`${",
        "=>=",
        "\\",
    ] {
        let _ = py(s);
        let _ = js(s);
        let _ = sh(s);
    }
    let deep = "(".repeat(10_000) + &")".repeat(10_000);
    let _ = py(&deep);
    let nested = "exec(\"".to_string() + &"exec(\\\"".repeat(50);
    let _ = py(&nested);
}

#[test]
fn base64_literals_handed_to_shells_are_decoded_and_read() {
    // `rm -rf ~` and `ls -la`, base64-encoded.
    let a = py("import base64, os\nos.system(base64.b64decode('cm0gLXJmIH4=').decode())");
    assert!(a.level >= RiskLevel::High, "{:?}", a.findings);
    let a =
        js("require('child_process').execSync(Buffer.from('cm0gLXJmIH4=', 'base64').toString())");
    assert!(a.level >= RiskLevel::High, "{:?}", a.findings);
    let benign = py("import base64, os\nos.system(base64.b64decode('bHMgLWxh').decode())");
    assert!(benign.level < RiskLevel::High, "{:?}", benign.findings);
}

/// Issue 11: `f(` × n … `)` × n was cubic (every call resolved its arguments all the way
/// down). Nesting past the value bound is analyzed linearly and marked incomplete (HIGH,
/// needs a person); calls at every depth are still collected, so a dangerous call at the
/// bottom is still found. Speed is measured by `scripts/code-nesting.sh`, not asserted here.
#[test]
fn deep_call_nesting_is_bounded_incomplete_and_still_sees_calls() {
    let n = 6_000;
    for (open, close, lang) in [("f(", ")", "py"), ("f(", ")", "js"), ("g([", "])", "py")] {
        let code = format!("{}0{}", open.repeat(n), close.repeat(n));
        let a = if lang == "py" { py(&code) } else { js(&code) };
        assert!(a.degraded, "{open} × {n} must be incomplete");
        assert!(a.level >= RiskLevel::High, "{open} × {n}: {:?}", a.level);
    }
    let code = format!(
        "import shutil\n{}shutil.rmtree('/'){}",
        "f(".repeat(n),
        ")".repeat(n)
    );
    let a = py(&code);
    assert_eq!(a.level, RiskLevel::Critical, "{:?}", a.rule_ids());
    // Shallow nesting is analyzed completely.
    let a = py("print(len(str(int(float(abs(round(1.5)))))))");
    assert!(!a.degraded && a.level <= RiskLevel::Low, "{:?}", a.findings);
}

/// Perl, Ruby and PHP: many calls on one long line, and a call whose arguments run past the
/// scanner's window, stay linear; the cut call makes the analysis incomplete (HIGH).
#[test]
fn foreign_scanner_is_bounded() {
    use riskgate_model::Language;
    let many = "a 1 ".repeat(200_000);
    let a = RiskAssessor::new().assess(&CodeAction::new(many, Some(Language::Perl)));
    assert!(a.level <= RiskLevel::High);
    let padded = format!("system(\"rm -rf / #{}\")", "A".repeat(20_000));
    let a = RiskAssessor::new().assess(&CodeAction::new(padded, Some(Language::Perl)));
    assert!(a.level >= RiskLevel::High, "{:?}", a.findings);
    let a = RiskAssessor::new().assess(&CodeAction::new(
        "unlink \"/etc/passwd\";".to_string(),
        Some(Language::Perl),
    ));
    assert!(a.level >= RiskLevel::High, "{:?}", a.findings);
}

/// Found by the `code` fuzz target: PHP calls nested 2,000 deep read the same argument text
/// once per level (1.6 s in release). Argument lists are now read within a budget; past it the
/// analysis is incomplete, so the snippet needs a person.
#[test]
fn php_calls_nested_past_the_argument_budget_are_incomplete() {
    let code = format!(
        "<?php {}`rm -rf ~`{} exec(\"rm -rf /\");",
        "f(".repeat(3000),
        ")".repeat(3000)
    );
    let a =
        RiskAssessor::new().assess(&CodeAction::new(&code, Some(riskgate_model::Language::Php)));
    assert!(a.level >= RiskLevel::High, "{:?}", a.level);
    assert!(
        a.rule_ids().contains(&"analysis.incomplete"),
        "{:?}",
        a.rule_ids()
    );
}
