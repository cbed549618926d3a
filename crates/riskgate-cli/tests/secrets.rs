//! Issue 11 item 8: secrets never reach disk. More than 60 secret shapes, each in a command run
//! through `riskgate check`, `riskgate scan` and `riskgate hook claude` (a valid payload, a
//! truncated one and ones with wrong types); then the audit journal, the audit database (its
//! files and `riskgate log`), settings.json and every captured stderr are searched for the
//! distinctive part of each secret. All secrets here are synthetic (`Zq7…Fake…`).

mod hooks_common;

use std::path::Path;

use hooks_common::*;
use serde_json::json;

/// (command, the distinctive part of its secret).
fn cases() -> Vec<(String, String)> {
    let pad = |s: &str, n: usize| format!("{s}{}", "x".repeat(n.saturating_sub(s.len())));
    let ghp = pad("Zq7ghpFake25", 36);
    let npm = pad("Zq7npmFake40", 36);
    let aiza = pad("Zq7googleFake33", 35);
    let pypi = pad("Zq7pypiFake74", 44);
    let awsid = "AKIAZQ7FAKEID27XYZ0".to_string() + "W";
    let raw: Vec<(String, &str)> = vec![
        ("sshpass -p Zq7sshpassFake01 ssh root@10.0.0.5".into(), "Zq7sshpassFake01"),
        ("sshpass -pZq7sshpassGlued02 scp a b:/c".into(), "Zq7sshpassGlued02"),
        ("docker login -u ci -p Zq7dockerFake03 registry.example.com".into(), "Zq7dockerFake03"),
        ("podman login --password Zq7podmanFake04 quay.io".into(), "Zq7podmanFake04"),
        ("curl -u admin:Zq7curlUserFake05 https://jenkins.example.com/api/json".into(), "Zq7curlUserFake05"),
        ("curl --user admin:Zq7curlLongFake06 https://x.example.com".into(), "Zq7curlLongFake06"),
        ("curl --user=admin:Zq7curlEqFake07 https://x.example.com".into(), "Zq7curlEqFake07"),
        ("redis-cli -h cache -a Zq7redisFake08 FLUSHALL".into(), "Zq7redisFake08"),
        ("htpasswd -b /etc/nginx/.htpasswd admin Zq7htpasswdFake09".into(), "Zq7htpasswdFake09"),
        ("htpasswd -bc .htpasswd bob Zq7htpasswdFake10".into(), "Zq7htpasswdFake10"),
        ("aws configure set aws_secret_access_key Zq7awsConfigureFake11".into(), "Zq7awsConfigureFake11"),
        ("psql 'postgresql://admin:Zq7psqlUrlFake12@db.example.com/app'".into(), "Zq7psqlUrlFake12"),
        ("mysql -u root -pZq7mysqlFake13 app".into(), "Zq7mysqlFake13"),
        ("mysqldump --password=Zq7mysqldumpFake14 app > d.sql".into(), "Zq7mysqldumpFake14"),
        ("MYSQL_PWD=Zq7mysqlPwdFake15 mysql app".into(), "Zq7mysqlPwdFake15"),
        ("PGPASSWORD='Zq7pgpasswordFake16' psql -h db app".into(), "Zq7pgpasswordFake16"),
        ("export API_TOKEN=Zq7apiTokenFake17".into(), "Zq7apiTokenFake17"),
        ("export DB_PASSWORD=\"Zq7dbPasswordFake18\"".into(), "Zq7dbPasswordFake18"),
        ("echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEZq7rsaKeyBodyFake19AAAA\n-----END RSA PRIVATE KEY-----' > /tmp/k".into(), "Zq7rsaKeyBodyFake19"),
        ("echo '-----begin openssh private key-----\nb3BlZq7opensshFake20AAAA\n-----end openssh private key-----' > k".into(), "Zq7opensshFake20"),
        ("printf '%s' '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEZq7ecKeyFake21AAAA".into(), "Zq7ecKeyFake21"),
        ("gpg --import <<EOF\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBZq7pgpFake22AAAA\n-----END PGP PRIVATE KEY BLOCK-----\nEOF".into(), "Zq7pgpFake22"),
        ("printf 'machine api.example.com login bob password Zq7netrcFake23\\n' >> ~/.netrc".into(), "Zq7netrcFake23"),
        ("echo 'db.example.com:5432:app:admin:Zq7pgpassFake24' >> ~/.pgpass".into(), "Zq7pgpassFake24"),
        (format!("git clone https://ghp_{ghp}@github.com/a/b"), "Zq7ghpFake25"),
        ("gh api user -H x --jq . # github_pat_Zq7patFake26_bbbbbbbbbbbbbbbbbbbb".into(), "Zq7patFake26"),
        (format!("aws s3 ls # {awsid}"), "AKIAZQ7FAKEID27XYZ0W"),
        ("export AWS_SECRET_ACCESS_KEY=Zq7awsEnvFake28/K7MDENG/bPxRfiCYEXAMPLE".into(), "Zq7awsEnvFake28"),
        ("echo xoxb-1234567890-Zq7slackFake29".into(), "Zq7slackFake29"),
        ("curl -X POST https://hooks.slack.com/services/T0000/B0000/Zq7webhookFake30".into(), "Zq7webhookFake30"),
        ("stripe --api-key sk_live_Zq7stripeFake31cccccccc charges list".into(), "Zq7stripeFake31"),
        ("STRIPE=sk_test_Zq7stripeTestFake32dd node x.js".into(), "Zq7stripeTestFake32"),
        (format!("curl 'https://maps.googleapis.com/x?q=1' -H 'X-Goog: AIza{aiza}'"), "Zq7googleFake33"),
        ("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ6cTcifQ.Zq7jwtSigFake34' https://api".into(), "Zq7jwtSigFake34"),
        ("curl -H \"Authorization: Bearer Zq7bearerFake35\" https://api".into(), "Zq7bearerFake35"),
        ("curl -H 'Authorization: Basic Zq7basicFake36==' https://api".into(), "Zq7basicFake36"),
        ("OPENAI_KEY=sk-proj-Zq7openaiFake37eeeeeeeee python x.py".into(), "Zq7openaiFake37"),
        ("curl -H 'x-api-key: sk-ant-api03-Zq7anthropicFake38ffff' https://api.anthropic.com".into(), "Zq7anthropicFake38"),
        ("git clone https://oauth2:glpat-Zq7gitlabFake39gggggg@gitlab.com/a/b".into(), "Zq7gitlabFake39"),
        (format!("npm config set //registry.npmjs.org/:_authToken npm_{npm}"), "Zq7npmFake40"),
        ("npm config set _auth Zq7npmAuthFake41".into(), "Zq7npmAuthFake41"),
        ("git config --global github.token Zq7gitConfigFake42".into(), "Zq7gitConfigFake42"),
        ("echo '{\"password\": \"Zq7jsonPassFake43\"}' > cfg.json".into(), "Zq7jsonPassFake43"),
        ("curl -d '{\"api_key\":\"Zq7jsonApiKeyFake44\"}' https://x.example.com".into(), "Zq7jsonApiKeyFake44"),
        ("printf 'db:\\n  password: Zq7yamlFake45\\n' > c.yml".into(), "Zq7yamlFake45"),
        ("curl 'https://api.example.com/v1?access_token=Zq7queryFake46&x=1'".into(), "Zq7queryFake46"),
        ("vault login --token=Zq7vaultFlagFake47".into(), "Zq7vaultFlagFake47"),
        ("VAULT_ADDR=x vault kv get -address x secret/a # hvs.Zq7vaultFake48hhhhhhhhhhhh".into(), "Zq7vaultFake48"),
        ("kubectl --token Zq7kubeTokenFake49 get pods".into(), "Zq7kubeTokenFake49"),
        ("kubectl create secret generic db --from-literal=password=Zq7kubeLiteralFake50".into(), "Zq7kubeLiteralFake50"),
        ("docker run -e POSTGRES_PASSWORD=Zq7dockerEnvFake51 postgres".into(), "Zq7dockerEnvFake51"),
        ("heroku config:set SECRET_KEY_BASE=Zq7herokuFake52 -a app".into(), "Zq7herokuFake52"),
        ("gh secret set API_KEY --body Zq7ghSecretFake53".into(), "Zq7ghSecretFake53"),
        ("mongosh -u admin -p Zq7mongoFake54 mongodb://db".into(), "Zq7mongoFake54"),
        ("sqlcmd -S db -U sa -P Zq7sqlcmdFake55 -Q 'select 1'".into(), "Zq7sqlcmdFake55"),
        ("ldapsearch -x -D cn=admin -w Zq7ldapFake56 -b dc=x".into(), "Zq7ldapFake56"),
        ("openssl rsa -in k.pem -passin pass:Zq7opensslFake57 -out k2.pem".into(), "Zq7opensslFake57"),
        ("zip -P Zq7zipFake58 out.zip file".into(), "Zq7zipFake58"),
        ("7z a -pZq7sevenzipFake59 out.7z file".into(), "Zq7sevenzipFake59"),
        ("smbclient //fs/share -U bob%Zq7smbFake60".into(), "Zq7smbFake60"),
        ("lftp -u bob,Zq7lftpFake61 ftp.example.com".into(), "Zq7lftpFake61"),
        ("redis-cli -u redis://:Zq7redisUrlFake62@cache:6379 ping".into(), "Zq7redisUrlFake62"),
        ("celery -b amqp://user:Zq7amqpFake63@mq// worker".into(), "Zq7amqpFake63"),
        ("wget --http-password=Zq7wgetFake64 --http-user=bob https://x.example.com".into(), "Zq7wgetFake64"),
        ("keytool -importkeystore -srcstorepass Zq7keytoolFake65 -destkeystore k".into(), "Zq7keytoolFake65"),
        ("ssh-keygen -t ed25519 -N Zq7sshkeygenFake66 -f k".into(), "Zq7sshkeygenFake66"),
        ("useradd -p Zq7useraddFake67 bob".into(), "Zq7useraddFake67"),
        ("echo 'bob:Zq7chpasswdFake68' | chpasswd".into(), "Zq7chpasswdFake68"),
        ("curl -H 'Cookie: session=Zq7cookieFake69' https://x.example.com".into(), "Zq7cookieFake69"),
        ("curl -b 'sid=Zq7curlCookieFake70' https://x.example.com".into(), "Zq7curlCookieFake70"),
        ("az login --service-principal -u app -p Zq7azureFake71 --tenant t".into(), "Zq7azureFake71"),
        ("export GITHUB_TOKEN=Zq7ghEnvFake72".into(), "Zq7ghEnvFake72"),
        ("set -x API_SECRET Zq7fishFake73".into(), "Zq7fishFake73"),
        (format!("twine upload -u __token__ -p pypi-{pypi} dist/*"), "Zq7pypiFake74"),
        ("curl --header 'PRIVATE-TOKEN: Zq7gitlabHeaderFake76' https://gitlab.com/api/v4/user".into(), "Zq7gitlabHeaderFake76"),
        ("curl -H 'X-Api-Key: Zq7xApiKeyFake77' https://x.example.com".into(), "Zq7xApiKeyFake77"),
        ("security add-generic-password -a bob -s svc -w Zq7keychainFake78".into(), "Zq7keychainFake78"),
        ("mysql --password Zq7mysqlSepFake79 app".into(), "Zq7mysqlSepFake79"),
        ("docker login -pZq7dockerGluedFake81 -u ci reg.example.com".into(), "Zq7dockerGluedFake81"),
        ("psql \"host=db user=admin password=Zq7libpqFake82 dbname=app\"".into(), "Zq7libpqFake82"),
        ("curl -u 'admin:Zq7curlQuotedFake83' https://x.example.com".into(), "Zq7curlQuotedFake83"),
        ("git remote add origin https://bob:Zq7gitUrlFake84@github.com/a/b.git".into(), "Zq7gitUrlFake84"),
        ("pip install --index-url https://__token__:Zq7pipUrlFake85@pypi.example.com/simple pkg".into(), "Zq7pipUrlFake85"),
        ("sudo -u deploy sshpass -p 'Zq7 quoted Fake86' ssh h".into(), "Zq7 quoted Fake86"),
        ("echo ok && curl --oauth2-bearer Zq7oauthFake87 https://x.example.com".into(), "Zq7oauthFake87"),
        ("mysql -h db -uroot -p\"Zq7mysqlQuotedFake88\" app".into(), "Zq7mysqlQuotedFake88"),
    ];
    raw.into_iter().map(|(c, s)| (c, s.to_string())).collect()
}

fn files_under(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if let Ok(bytes) = std::fs::read(&p) {
            out.push((p.display().to_string(), bytes));
        }
    }
}

fn leaks<'a>(haystack: &[u8], cases: &'a [(String, String)]) -> Vec<&'a str> {
    cases
        .iter()
        .map(|(_, s)| s.as_str())
        .filter(|s| haystack.windows(s.len()).any(|w| w == s.as_bytes()))
        .collect()
}

#[test]
fn no_secret_reaches_the_audit_log_the_journal_or_stderr() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} shapes", cases.len());
    let mut distinct: Vec<&str> = cases.iter().map(|(_, s)| s.as_str()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), cases.len(), "every secret distinct");
    let e = env();
    let mut stderr: Vec<u8> = Vec::new();
    let mut run = |args: &[&str], stdin: Option<Vec<u8>>| {
        let mut c = riskgate(&e);
        c.args(args);
        if let Some(s) = stdin {
            c.write_stdin(s);
        }
        let out = c.output().unwrap();
        stderr.extend_from_slice(&out.stderr);
    };
    let mut jsonl = String::new();
    for (cmd, secret) in &cases {
        assert!(cmd.contains(secret.as_str()), "{cmd}");
        run(&["check", "--no-prompt", "--", cmd], None);
        jsonl.push_str(&json!({"command": cmd}).to_string());
        jsonl.push('\n');
        let payload = claude(&e, "Bash", json!({"command": cmd})).to_string();
        run(&["hook", "claude"], Some(payload.clone().into_bytes()));
        // truncated right after the secret
        let cut = payload
            .find(secret.as_str())
            .map_or(payload.len(), |i| (i + secret.len() + 2).min(payload.len()));
        run(
            &["hook", "claude"],
            Some(payload.as_bytes()[..cut].to_vec()),
        );
        // wrong types: the command in a list, the tool input a string
        let listed = claude(&e, "Bash", json!({"command": [cmd]})).to_string();
        run(&["hook", "claude"], Some(listed.into_bytes()));
        let stringly = claude(&e, "Bash", json!(cmd)).to_string();
        run(&["hook", "claude"], Some(stringly.into_bytes()));
    }
    std::fs::write(e.project.join("cmds.jsonl"), &jsonl).unwrap();
    run(&["scan", "cmds.jsonl"], None);

    // the journal (and anything else written) before `riskgate log` moves it
    let mut files = Vec::new();
    files_under(&e.root, &mut files);
    let journal: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.contains("journal"))
        .collect();
    assert!(!journal.is_empty(), "the journal was written");
    for (path, bytes) in &files {
        if path.ends_with("cmds.jsonl") {
            continue;
        }
        let found = leaks(bytes, &cases);
        let lines: Vec<String> = String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| found.iter().any(|s| l.contains(s)))
            .map(|l| l.chars().take(400).collect())
            .collect();
        assert!(
            found.is_empty(),
            "{path} holds {found:?}:\n{}",
            lines.join("\n")
        );
    }
    let log = riskgate(&e)
        .args(["log", "--format", "json", "--limit", "100000"])
        .output()
        .unwrap();
    stderr.extend_from_slice(&log.stderr);
    let records: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    let n = records.as_array().map_or(0, Vec::len);
    assert!(n >= cases.len() * 5, "{n} records");
    let found = leaks(&log.stdout, &cases);
    assert!(found.is_empty(), "`riskgate log` shows {found:?}");
    let mut files = Vec::new();
    files_under(&e.root, &mut files);
    for (path, bytes) in &files {
        if path.ends_with("cmds.jsonl") {
            continue;
        }
        let found = leaks(bytes, &cases);
        assert!(found.is_empty(), "{path} holds {found:?}");
    }
    let found = leaks(&stderr, &cases);
    assert!(
        found.is_empty(),
        "stderr shows {found:?}:\n{}",
        String::from_utf8_lossy(&stderr)
    );
}

/// The rules and the redaction agree: every example a rule of the `secrets` pack must match no
/// longer matches once its secrets are replaced by a reference (and the examples of the other
/// rules about a literal secret lose something to the redaction) — the redaction knows every
/// shape the rules recognise as a secret.
#[test]
fn every_secret_the_rules_recognise_is_redacted() {
    use riskgate::model::secrets::redact_with;
    let engine = riskgate::Engine::builtin();
    let mut checked = 0;
    let mut missed = Vec::new();
    for rule in engine.commands().rules().rules() {
        const LITERAL_SECRET_RULES: &[&str] =
            &["git.credentials-in-url", "pulumi.config-plaintext-secret"];
        if rule.pack() != "secrets" && !LITERAL_SECRET_RULES.contains(&rule.id()) {
            continue;
        }
        for ex in rule.examples_match() {
            let ex: &str = ex.as_ref();
            let fires = |text: &str| engine.assess_command(text).rule_ids().contains(&rule.id());
            if !fires(ex) {
                continue;
            }
            checked += 1;
            let redacted = redact_with(ex, "$REDACTED");
            // the secrets pack matches literal values; the others match the structure (a URL
            // with userinfo, `config set NAME VALUE`) whatever the value: there, the value goes
            let kept = if rule.pack() == "secrets" {
                fires(&redacted)
            } else {
                redacted == ex
            };
            if kept {
                missed.push(format!("{}: {ex}  →  {redacted}", rule.id()));
            }
        }
    }
    assert!(checked >= 15, "{checked} examples checked");
    assert!(missed.is_empty(), "not redacted:\n{}", missed.join("\n"));
}
