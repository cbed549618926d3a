use super::*;

fn r(s: &str) -> String {
    redact(s).into_owned()
}

#[test]
fn every_row_compiles() {
    for (i, s) in SHAPES.iter().enumerate() {
        assert!(shapes::compiled(i).is_some(), "{}: {}", s.kind, s.pattern);
    }
    assert!(shapes::key_begin().is_some() && shapes::key_end().is_some());
    assert!(shapes::key_body().is_some());
}

#[test]
fn token_shapes() {
    let gh = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    assert_eq!(
        r(&format!("git clone https://{gh}@github.com/x")),
        "git clone https://[REDACTED]@github.com/x"
    );
    assert_eq!(
        r("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"),
        "export AWS_ACCESS_KEY_ID=[REDACTED]"
    );
    assert_eq!(
        r("aws --profile x s3 ls # AKIAIOSFODNN7EXAMPLE"),
        "aws --profile x s3 ls # [REDACTED]"
    );
    assert_eq!(
        r("OPENAI=sk-proj-abcdefghijklmnop1234 run"),
        "OPENAI=[REDACTED] run"
    );
    assert_eq!(
        r("curl -d token=xoxb-1234567890-abcdef slack"),
        "curl -d token=[REDACTED] slack"
    );
    assert_eq!(r("echo xoxp-1234567890-abcdef"), "echo [REDACTED]");
}

#[test]
fn headers_urls_and_assignments() {
    assert_eq!(
        r("curl -H 'Authorization: Bearer abc.def.ghi123' https://api"),
        "curl -H 'Authorization: Bearer [REDACTED]' https://api"
    );
    assert_eq!(
        r("psql postgres://admin:hunter2@db:5432/app"),
        "psql postgres://admin:[REDACTED]@db:5432/app"
    );
    assert_eq!(
        r("psql 'postgresql://admin:p@ss/w0rd@db/app'"),
        "psql 'postgresql://admin:[REDACTED]@db/app'"
    );
    assert_eq!(
        r("mysql -u root -phunter2 app"),
        "mysql -u root -p[REDACTED] app"
    );
    assert_eq!(r("mkdir -p build"), "mkdir -p build");
    assert_eq!(r("PASSWORD=hunter2 ./run"), "PASSWORD=[REDACTED] ./run");
    assert_eq!(
        r("login --password 'a b c' --user x"),
        "login --password [REDACTED] --user x"
    );
    assert_eq!(
        r(r#"{"api_key": "k-123", "name": "x"}"#),
        r#"{"api_key": [REDACTED], "name": "x"}"#
    );
    assert_eq!(
        r("kubectl create secret generic db --from-literal=password=hunter2"),
        "kubectl create secret generic db --from-literal=password=[REDACTED]"
    );
    assert_eq!(r("export TOKEN=$GH_TOKEN"), "export TOKEN=$GH_TOKEN");
    assert_eq!(
        r("git commit -m 'fix: token refresh, password reset'"),
        "git commit -m 'fix: token refresh, password reset'"
    );
    // a password may hold `/` and `@`: up to the last `@` (over-redacting a rare URL)
    assert_eq!(
        r("echo https://example.com:8443/a@b"),
        "echo https://example.com:[REDACTED]@b"
    );
    assert_eq!(
        r("see (`PGPASSWORD=… psql`, `export API_TOKEN=…`)"),
        "see (`PGPASSWORD=… psql`, `export API_TOKEN=…`)"
    );
}

#[test]
fn netrc_and_pgpass() {
    assert_eq!(
        r("printf 'machine h login u password hunter2' > ~/.netrc"),
        "printf 'machine h login u password [REDACTED]' > ~/.netrc"
    );
    assert_eq!(
        r("echo 'db:5432:app:admin:hunter2' >> ~/.pgpass"),
        "echo 'db:5432:app:admin:[REDACTED]' >> ~/.pgpass"
    );
}

#[test]
fn private_key_blocks() {
    let text = "cat > id <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nEOF";
    assert_eq!(r(text), "cat > id <<EOF\n[REDACTED PRIVATE KEY]\nEOF");
    let cut = "echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkq";
    assert_eq!(r(cut), "echo '[REDACTED PRIVATE KEY]");
    let lower = "echo '-----begin rsa private key-----\nMIIEvQIBADANBgkq\n-----end rsa private key-----' > k";
    assert_eq!(r(lower), "echo '[REDACTED PRIVATE KEY]' > k");
    let json = r#"{"content": "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk"#;
    assert_eq!(r(json), r#"{"content": "[REDACTED PRIVATE KEY]"#);
}

#[test]
fn plain_text_is_borrowed() {
    for t in [
        "git status",
        "rm -rf build",
        "docker run -p 8080:80 nginx",
        "ssh -p 2222 host",
        "cargo test -p riskgate-model",
        "ls -la /etc/ssh",
        "echo $PWD",
        "ifconfig eth0 hw ether 00:80:48:BA:d1:30",
        "sudo find / -name mysql -print",
        "read -s -p \"Enter your password: \" passwd",
        "target_PWD=$(readlink -f .)",
    ] {
        assert!(matches!(redact(t), Cow::Borrowed(_)), "{t}: {}", r(t));
    }
}

#[test]
fn glued_short_options_are_not_option_names() {
    assert_eq!(
        r("mysqldump -uUSER -pPASS OLD_DB_NAME | gzip > x"),
        "mysqldump -uUSER -p[REDACTED] OLD_DB_NAME | gzip > x"
    );
}

#[test]
fn approval_patterns_keep_matching() {
    assert_eq!(
        redact_with("mysql -u root -phunter2 app", "*"),
        "mysql -u root -p* app"
    );
}
