//! Interpreters and database clients: code and SQL given on the command line (`python -c`,
//! `node -e`, `perl -e`, `ruby -e`, `php -r`, `psql -c`, `mysql -e`, `sqlite3 DB SQL`,
//! `redis-cli CMD`, `mongosh --eval`), and which programs read a script from stdin.

use crate::unwrap::is_shell;
use crate::{NestedLanguage, Word};

/// What a program does with a script on stdin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    Shell,
    Lang(NestedLanguage),
    /// A program whose script is translated into commands (`embedded::stdin_commands`).
    Translated,
}

/// The parameters of PowerShell's SQL cmdlets that carry the query (lower case, with the dash).
const SQL_PARAMS: &[&str] = &["-query", "-sql", "-commandtext", "-sqlquery"];

/// Whether `program` is a PowerShell cmdlet that runs SQL it is given: `Invoke-Sqlcmd`
/// (SqlServer), `Invoke-DbaQuery` (dbatools), `Invoke-SqlQuery` (SimplySql),
/// `Invoke-MySqlQuery`, `Invoke-PgQuery` …: `Invoke-` and a noun about SQL or queries.
pub(crate) fn is_sql_cmdlet(program: &str) -> bool {
    let Some(noun) = program
        .get(..7)
        .filter(|v| v.eq_ignore_ascii_case("invoke-"))
        .and_then(|_| program.get(7..))
    else {
        return false;
    };
    let n = noun.to_ascii_lowercase();
    n.contains("sql") || n.ends_with("query") || n.ends_with("dbquery")
}

/// The language a program runs, if it is an interpreter or a database client.
pub(crate) fn language(program: &str) -> Option<NestedLanguage> {
    use NestedLanguage as L;
    let p = program;
    if p == "python"
        || p.starts_with("python2")
        || p.starts_with("python3")
        || p.starts_with("pypy")
    {
        return Some(L::Python);
    }
    Some(match p {
        "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node" | "ts-node-esm" | "esno" => L::Js,
        "perl" | "perl5" => L::Perl,
        "ruby" | "jruby" => L::Ruby,
        "php" | "php-cli" => L::Php,
        "psql" | "mysql" | "mariadb" | "sqlite3" | "sqlite" | "duckdb" | "clickhouse-client"
        | "sqlcmd" | "cqlsh" | "pgcli" | "mycli" | "litecli" | "usql" | "sqlplus" | "sql"
        | "snowsql" | "trino" | "presto" | "vsql" | "beeline" | "spark-sql" | "impala-shell"
        | "mssql-cli" | "isql" | "surreal" | "cockroach" | "yb-sqlsh" | "ysqlsh" | "tsql" => L::Sql,
        _ if is_sql_cmdlet(p) => L::Sql,
        "redis-cli" | "valkey-cli" | "keydb-cli" => L::Redis,
        "mongosh" | "mongo" => L::Mongo,
        _ => return None,
    })
}

fn value_of<'a>(argv: &'a [Word], i: usize, attached: &'a str) -> Option<(&'a str, bool)> {
    if !attached.is_empty() {
        return argv.get(i).map(|w| (attached, w.dynamic));
    }
    argv.get(i + 1).map(|w| (w.text.as_str(), w.dynamic))
}

/// Code or SQL on the command line: `(language, text, literal)`.
pub(crate) fn one_liners(program: &str, argv: &[Word]) -> Vec<(NestedLanguage, String, bool)> {
    // SQL typed into a session (`tmux send-keys -t prod-psql 'DROP TABLE t;' Enter`): the
    // session runs a database client
    if matches!(program, "tmux" | "screen") {
        let args: Vec<&str> = argv.iter().skip(1).map(|w| w.text.as_str()).collect();
        return crate::embedded::typed_text(program, &args)
            .filter(|t| reads_as_sql(t))
            .map(|t| (NestedLanguage::Sql, t, !argv.iter().any(|w| w.dynamic)))
            .into_iter()
            .collect();
    }
    // `rails runner 'User.delete_all' -e production`: Ruby code run in the app
    let bundled = program == "bundle"
        && argv.get(1).is_some_and(|w| w.text == "exec")
        && argv
            .get(2)
            .is_some_and(|w| w.text.rsplit('/').next() == Some("rails"));
    let at = if bundled { 3 } else { 1 };
    if (program == "rails" || bundled)
        && argv
            .get(at)
            .is_some_and(|w| matches!(w.text.as_str(), "runner" | "r"))
    {
        let mut i = at + 1;
        while let Some(w) = argv.get(i) {
            if matches!(w.text.as_str(), "-e" | "--environment") {
                i += 2;
                continue;
            }
            if w.text.starts_with('-') {
                i += 1;
                continue;
            }
            if w.text.ends_with(".rb") {
                return Vec::new();
            }
            return vec![(NestedLanguage::Ruby, w.text.clone(), !w.dynamic)];
        }
        return Vec::new();
    }
    // `python manage.py shell -c CODE`, `django-admin shell --command CODE`: Python run in the
    // Django project, with its settings and database
    let django_at = match program {
        "django-admin" => Some(1),
        p if language(p) == Some(NestedLanguage::Python) => argv
            .get(1)
            .filter(|w| w.text.rsplit('/').next() == Some("manage.py"))
            .map(|_| 2),
        _ => None,
    };
    if let Some(at) = django_at
        && argv.get(at).is_some_and(|w| w.text == "shell")
    {
        let mut parts = Vec::new();
        collect_opt(argv, &["-c", "--command"], &mut parts);
        return parts
            .into_iter()
            .map(|(t, lit)| (NestedLanguage::Python, t, lit))
            .collect();
    }
    let Some(lang) = language(program) else {
        return statement_options(program, argv);
    };
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut i = 1;
    match program {
        p if lang == NestedLanguage::Python => {
            let _ = p;
            while let Some(w) = argv.get(i) {
                let t = w.text.as_str();
                if t == "-m" || !t.starts_with('-') || t == "-" || t == "--" {
                    break;
                }
                if let Some(k) = t.find('c').filter(|_| !t.starts_with("--")) {
                    if let Some((v, d)) = value_of(argv, i, &t[k + 1..]) {
                        parts.push((v.to_string(), !d));
                    }
                    break;
                }
                i += if matches!(t, "-W" | "-X") { 2 } else { 1 };
            }
        }
        "deno" => {
            if argv.get(1).is_some_and(|w| w.text == "eval")
                && let Some(w) = argv.iter().skip(2).find(|w| !w.text.starts_with('-'))
            {
                parts.push((w.text.clone(), !w.dynamic));
            }
        }
        "node" | "nodejs" | "bun" | "tsx" | "ts-node" | "ts-node-esm" | "esno" => {
            while let Some(w) = argv.get(i) {
                let t = w.text.as_str();
                if let Some(v) = t
                    .strip_prefix("--eval=")
                    .or_else(|| t.strip_prefix("--print="))
                {
                    parts.push((v.to_string(), !w.dynamic));
                    break;
                }
                if matches!(t, "-e" | "--eval" | "-p" | "--print" | "-pe") {
                    if let Some((v, d)) = value_of(argv, i, "") {
                        parts.push((v.to_string(), !d));
                    }
                    break;
                }
                if !t.starts_with('-') {
                    break;
                }
                i += 1;
            }
        }
        "perl" | "perl5" | "ruby" | "jruby" | "php" | "php-cli" => {
            let flag = if program.starts_with("php") { 'r' } else { 'e' };
            while let Some(w) = argv.get(i) {
                let t = w.text.as_str();
                if t == "--" || !t.starts_with('-') {
                    break;
                }
                // `-MLWP::Simple`, `-Ilib`, `-rsocket`: an option with its value attached
                if t.starts_with("-M")
                    || t.starts_with("-m")
                    || t.starts_with("-I")
                    || t.starts_with("-d:")
                    || t.starts_with("-r") && !program.starts_with("php")
                {
                    // `-r socket`: the value is the next word
                    i += if t.len() == 2 { 2 } else { 1 };
                    continue;
                }
                if !t.starts_with("--") {
                    let body = &t[1..];
                    if let Some(k) = body.find(|c| c == flag || (flag == 'e' && c == 'E')) {
                        if let Some((v, d)) = value_of(argv, i, &body[k + 1..]) {
                            parts.push((v.to_string(), !d));
                        }
                        i += if body[k + 1..].is_empty() { 2 } else { 1 };
                        continue;
                    }
                }
                i += 1;
            }
        }
        "psql" => collect_opt(argv, &["-c", "--command"], &mut parts),
        "mysql" | "mariadb" => collect_opt(argv, &["-e", "--execute"], &mut parts),
        "clickhouse-client" => collect_opt(argv, &["-q", "--query"], &mut parts),
        "snowsql" | "impala-shell" => collect_opt(argv, &["-q", "--query"], &mut parts),
        "trino" | "presto" | "beeline" | "spark-sql" => {
            collect_opt(argv, &["-e", "--execute"], &mut parts)
        }
        "usql" | "pgcli" | "ysqlsh" | "cockroach" => {
            collect_opt(argv, &["-c", "--command", "-e", "--execute"], &mut parts)
        }
        "sqlcmd" => collect_opt(argv, &["-Q", "-q"], &mut parts),
        // PowerShell's SQL cmdlets: `Invoke-Sqlcmd -Query "…"`, `Invoke-DbaQuery -Query`,
        // `Invoke-SqlQuery -Query` (any case, `-Query:"…"`, `-Sql`, `-CommandText`)
        p if is_sql_cmdlet(p) => {
            let mut i = 1;
            while let Some(w) = argv.get(i) {
                let l = w.text.to_ascii_lowercase();
                if SQL_PARAMS.contains(&l.as_str()) {
                    if let Some(v) = argv.get(i + 1) {
                        parts.push((v.text.clone(), !v.dynamic));
                    }
                    i += 1;
                } else if let Some((_, v)) = l
                    .split_once([':', '='])
                    .filter(|(f, _)| SQL_PARAMS.contains(f))
                    .and_then(|(f, _)| Some((f, w.text.get(f.len() + 1..)?)))
                {
                    parts.push((v.to_string(), !w.dynamic));
                }
                i += 1;
            }
        }
        "cqlsh" => collect_opt(argv, &["-e", "--execute"], &mut parts),
        "mongosh" | "mongo" => collect_opt(argv, &["--eval"], &mut parts),
        "sqlite3" | "sqlite" | "duckdb" => {
            collect_opt(argv, &["-cmd"], &mut parts);
            let pos = sqlite_positionals(argv);
            for w in pos.iter().skip(1) {
                parts.push((w.text.clone(), !w.dynamic));
            }
        }
        "redis-cli" | "valkey-cli" | "keydb-cli" => {
            let rest = redis_command(argv);
            if !rest.is_empty() {
                let text = rest
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                parts.push((text, rest.iter().all(|w| !w.dynamic)));
            }
        }
        _ => {}
    }
    if parts.is_empty() {
        return if lang == NestedLanguage::Sql {
            statement_options(program, argv)
        } else {
            Vec::new()
        };
    }
    let literal = parts.iter().all(|(_, l)| *l);
    let text = parts
        .into_iter()
        .map(|(t, _)| t)
        .collect::<Vec<_>>()
        .join("\n");
    vec![(lang, text, literal)]
}

/// Options that hand a client a statement to run (`vsql -c`, `influx -execute`, `surreal sql
/// --query`, `--sql`, `--statement`).
const STATEMENT_OPTIONS: &[&str] = &[
    "-c",
    "-e",
    "-q",
    "-execute",
    "-query",
    "-command",
    "-sql",
    "--command",
    "--execute",
    "--query",
    "--sql",
    "--statement",
    "--stmt",
];

/// Programs whose text options are patterns, messages or data, never statements they run.
const TEXT_AS_DATA: &[&str] = &[
    "grep",
    "egrep",
    "fgrep",
    "zgrep",
    "rg",
    "ag",
    "ack",
    "sed",
    "echo",
    "printf",
    "logger",
    "git",
    "jq",
    "yq",
    "sqlfluff",
    "sqlformat",
    "pg_format",
    "sql-formatter",
    "prettier",
    "xargs",
    "find",
    "awk",
    "gawk",
    "tr",
    "notify-send",
    "wall",
    "write",
];

/// SQL a client of any database is given on its command line: the value of a statement
/// option, or for a program named for a database, console or shell, a positional that reads
/// as a statement (`cypher-shell … "MATCH …"` excepted: only SQL verbs count).
fn statement_options(program: &str, argv: &[Word]) -> Vec<(NestedLanguage, String, bool)> {
    if crate::unwrap::is_shell(program) || TEXT_AS_DATA.contains(&program) {
        return Vec::new();
    }
    let named_for_db = ["sql", "db", "console", "shell", "query", "cli"]
        .iter()
        .any(|n| program.to_ascii_lowercase().contains(n));
    let mut out = Vec::new();
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text.as_str();
        i += 1;
        let value = if STATEMENT_OPTIONS.contains(&t) {
            i += 1;
            argv.get(i - 1).map(|v| (v.text.as_str(), v.dynamic))
        } else if let Some((name, v)) = t.split_once('=')
            && STATEMENT_OPTIONS.contains(&name)
        {
            Some((v, w.dynamic))
        } else if named_for_db && !t.starts_with('-') {
            Some((t, w.dynamic))
        } else {
            None
        };
        if let Some((text, dynamic)) = value
            && reads_as_sql(text)
            && out.len() < 8
        {
            out.push((NestedLanguage::Sql, text.to_string(), !dynamic));
        }
    }
    out
}

/// Whether `text` reads as SQL statements: a statement verb with the word SQL puts after it
/// (`select … from`, `delete from`, `drop table`, `update … set`, `insert into`, `truncate`,
/// `alter table`, `grant … on` …), not an editor command (`set number`) or prose.
pub(crate) fn reads_as_sql(text: &str) -> bool {
    const OBJECTS: &[&str] = &[
        "table",
        "database",
        "schema",
        "index",
        "view",
        "keyspace",
        "collection",
        "user",
        "role",
        "namespace",
        "sequence",
        "function",
        "procedure",
        "trigger",
        "materialized",
        "measurement",
        "retention",
        "continuous",
        "class",
        "cluster",
        "tablespace",
        "type",
        "extension",
        "tables",
        "databases",
    ];
    if text.len() > 64 * 1024 {
        return false;
    }
    // statements end at `;` outside quotes (`select 'drop table ' || t || ';' from …`)
    let mut statements: Vec<&str> = Vec::new();
    let mut quote: Option<char> = None;
    let mut from = 0;
    for (i, ch) in text.char_indices() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '\'' || ch == '"' => quote = Some(ch),
            None if ch == ';' => {
                statements.push(&text[from..i]);
                from = i + 1;
            }
            None => {}
        }
    }
    statements.push(&text[from..]);
    statements.iter().take(64).any(|stmt| {
        let words: Vec<String> = stmt
            .split_whitespace()
            .take(64)
            .map(|w| {
                w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                    .to_ascii_lowercase()
            })
            .collect();
        let w = |k: usize| words.get(k).map_or("", String::as_str);
        let has = |word: &str| words.iter().any(|x| x == word);
        match w(0) {
            "select" => has("from"),
            "insert" | "merge" => w(1) == "into",
            "update" => w(2) == "set",
            "delete" => w(1) == "from",
            "truncate" | "vacuum" | "reindex" => true,
            "drop" | "alter" | "create" | "remove" | "rename" => OBJECTS.contains(&w(1)),
            "grant" | "revoke" => has("on"),
            _ => false,
        }
    })
}

fn collect_opt(argv: &[Word], names: &[&str], parts: &mut Vec<(String, bool)>) {
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text.as_str();
        i += 1;
        for n in names {
            if t == *n {
                if let Some(v) = argv.get(i) {
                    parts.push((v.text.clone(), !v.dynamic));
                }
                i += 1;
            } else if let Some(v) = t.strip_prefix(n) {
                let v = if n.starts_with("--") {
                    v.strip_prefix('=')
                } else {
                    Some(v)
                };
                if let Some(v) = v.filter(|v| !v.is_empty()) {
                    parts.push((v.to_string(), !w.dynamic));
                }
            }
        }
    }
}

fn sqlite_positionals(argv: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text.as_str();
        i += 1;
        if t.starts_with('-') && t.len() > 1 {
            if matches!(
                t,
                "-cmd"
                    | "-separator"
                    | "-newline"
                    | "-nullvalue"
                    | "-init"
                    | "-vfs"
                    | "-mmap"
                    | "-pagecache"
                    | "-lookaside"
                    | "-maxsize"
            ) {
                i += 1;
            }
            continue;
        }
        out.push(w);
    }
    out
}

fn redis_command(argv: &[Word]) -> &[Word] {
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text.as_str();
        if !t.starts_with('-') || t == "-" {
            break;
        }
        i += 1;
        if matches!(
            t,
            "-h" | "-p"
                | "-s"
                | "-a"
                | "-u"
                | "-n"
                | "-r"
                | "-i"
                | "-d"
                | "--user"
                | "--pass"
                | "--cacert"
                | "--cacertdir"
                | "--cert"
                | "--key"
                | "--sni"
                | "--pattern"
                | "--count"
                | "--quoted-pattern"
                | "--eval"
                | "--rdb"
                | "--functions-rdb"
                | "--memkeys-samples"
                | "--bigkeys-samples"
                | "--pipe-timeout"
                | "--tls-ciphers"
                | "--tls-ciphersuites"
                | "--hotkeys-samples"
        ) {
            i += 1;
        }
    }
    argv.get(i..).unwrap_or(&[])
}

/// Does `program` (with `argv`) read a script from stdin?
pub(crate) fn stdin_reader(program: &str, argv: &[Word]) -> Option<Reader> {
    if crate::windows::is_windows_shell(program) {
        return crate::windows::reads_stdin(program, argv).then_some(Reader::Shell);
    }
    if is_shell(program) {
        let mut i = 1;
        while let Some(w) = argv.get(i) {
            let t = w.text.as_str();
            if t == "-s" || t == "-" || t == "--" {
                return Some(Reader::Shell);
            }
            if !(t.starts_with('-') || t.starts_with('+')) || w.dynamic {
                return None; // a script file
            }
            if t.starts_with('-') && !t.starts_with("--") && t.contains('s') {
                return Some(Reader::Shell);
            }
            i += if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
                2
            } else {
                1
            };
        }
        return Some(Reader::Shell);
    }
    if program == "ssh" {
        // `ssh host <<EOF`: with no remote command, the remote shell reads its script from stdin.
        let mut positionals = 0;
        let mut i = 1;
        while let Some(w) = argv.get(i) {
            let t = w.text.as_str();
            i += 1;
            if let Some(opt) = t.strip_prefix('-') {
                if opt.len() == 1 && "bcDEeFIiJLlmOoPpQRSWw".contains(opt) {
                    i += 1;
                }
                continue;
            }
            positionals += 1;
        }
        return (positionals == 1).then_some(Reader::Shell);
    }
    if matches!(program, "at" | "batch") {
        // at and batch read the commands to schedule from stdin unless `-f FILE`; `-l`, `-r`,
        // `-d`, `-c` list, remove or print jobs.
        let other = argv.iter().skip(1).any(|w| {
            w.text.starts_with('-')
                && !w.text.starts_with("--")
                && w.text.contains(['f', 'l', 'r', 'd', 'c'])
        });
        return (!other).then_some(Reader::Shell);
    }
    // `… | parallel`: with no command, every input line is a command line of its own.
    if matches!(program, "parallel" | "sem") {
        let command = argv
            .iter()
            .skip(1)
            .any(|w| !w.text.starts_with('-') || w.text.starts_with(":::"));
        return (!command).then_some(Reader::Shell);
    }
    if program == "source" {
        // fish's `… | source` (no file) runs its standard input
        let Some(arg) = argv.get(1) else {
            return Some(Reader::Shell);
        };
        return matches!(arg.text.as_str(), "/dev/stdin" | "-" | "/proc/self/fd/0")
            .then_some(Reader::Shell);
    }
    if crate::embedded::translates_stdin(program, argv) {
        return Some(Reader::Translated);
    }
    let lang = language(program)?;
    if !one_liners(program, argv).is_empty() {
        return None;
    }
    match lang {
        NestedLanguage::Sql => {
            if program == "psql" {
                // `-f -` reads stdin; `-f FILE` does not.
                let mut it = argv.iter().skip(1);
                while let Some(w) = it.next() {
                    if w.text == "-f" || w.text == "--file" {
                        return it
                            .next()
                            .is_some_and(|v| v.text == "-")
                            .then_some(Reader::Lang(lang));
                    }
                    if let Some(v) = w.text.strip_prefix("--file=") {
                        return (v == "-").then_some(Reader::Lang(lang));
                    }
                }
            }
            Some(Reader::Lang(lang))
        }
        NestedLanguage::Redis | NestedLanguage::Mongo => Some(Reader::Lang(lang)),
        _ => {
            // An interpreter reads stdin when given no script (or `-`).
            let mut i = 1;
            while let Some(w) = argv.get(i) {
                let t = w.text.as_str();
                if t == "-" {
                    return Some(Reader::Lang(lang));
                }
                // A script, a module (`-m json.tool`, `-mjson.tool`) or a required file.
                if !t.starts_with('-')
                    || t == "-m"
                    || t.starts_with("-m") && lang == NestedLanguage::Python
                    || t == "-r" && lang == NestedLanguage::Js
                {
                    return None;
                }
                i += 1;
            }
            Some(Reader::Lang(lang))
        }
    }
}
