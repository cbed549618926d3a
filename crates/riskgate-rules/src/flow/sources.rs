//! Taint sources: secrets and database dumps a command reads, and the files a command writes
//! what it read into.

use riskgate_model::credentials::sensitive_kind;
use riskgate_shell::SimpleCommand;

use super::{pos, raw};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Data {
    Secret,
    Dump,
    /// A clipboard's content: sending it off is a finding, printing it is not.
    Clipboard,
}

#[derive(Clone, Debug)]
pub(super) struct Taint {
    pub(super) data: Data,
    /// Index of the command that read it.
    pub(super) from: usize,
    pub(super) what: String,
    /// It went through a file or a variable (the name no longer says it is a secret).
    pub(super) renamed: bool,
}

/// A dump of a database's schema only (`pg_dump -s`, `mysqldump --no-data`): no data.
fn schema_only(c: &SimpleCommand) -> bool {
    raw(c).any(|t| match c.program.as_str() {
        "pg_dump" | "pg_dumpall" => matches!(t, "-s" | "--schema-only" | "-g" | "--globals-only"),
        "mysqldump" | "mariadb-dump" => matches!(t, "-d" | "--no-data"),
        _ => false,
    })
}

/// The shell's variables (which hold the environment's secrets) printed whole: `set`,
/// `export -p`, `declare -p`, `env`, `printenv`.
fn env_dump(c: &SimpleCommand) -> bool {
    let words: Vec<&str> = raw(c).collect();
    match c.program.as_str() {
        "env" | "printenv" => c.positionals().next().is_none(),
        "set" => words.is_empty(),
        "export" | "declare" | "typeset" => {
            words.is_empty()
                || words
                    .iter()
                    .all(|w| matches!(*w, "-p" | "-x" | "-px" | "-xp"))
        }
        "compgen" => words == ["-v"] || words == ["-e"],
        // `jq -n env`, `jq -n '$ENV | to_entries[]'`: the environment as JSON
        "jq" | "gojq" | "jaq" | "yq" => c.positionals().next().is_some_and(|f| {
            let first = f.text.split('|').next().unwrap_or("").trim();
            matches!(first, "env" | "$ENV")
        }),
        _ => false,
    }
}

/// A secrets manager's export or read of values (`bw export`, `bw get password`, `chamber
/// export`, `conjur variable get`, `gopass show`, `gcloud secrets versions access`, `az
/// keyvault secret show`, `doppler secrets download`): its output is secret values.
fn secret_manager_read(c: &SimpleCommand) -> bool {
    let (p0, p1, p2) = (pos(c, 0), pos(c, 1), pos(c, 2));
    match c.program.as_str() {
        "bw" => {
            p0 == "export" || (p0 == "get" && matches!(p1, "password" | "item" | "notes" | "totp"))
        }
        "chamber" => matches!(p0, "export" | "read" | "env"),
        "conjur" => p0 == "variable" && matches!(p1, "get" | "value"),
        "gopass" => matches!(p0, "show" | "cat"),
        "pass" => p0 == "show",
        "doppler" => p0 == "secrets" && matches!(p1, "download" | "get"),
        "gcloud" => p0 == "secrets" && p1 == "versions" && p2 == "access",
        "az" => p0 == "keyvault" && p1 == "secret" && matches!(p2, "show" | "download"),
        _ => false,
    }
}

/// A clipboard's content read out (`xsel -b`, `xclip -o`, `pbpaste`, `wl-paste`): what the user
/// copied last, often a password or a token.
fn clipboard_read(c: &SimpleCommand) -> bool {
    let has = |flags: &[&str]| raw(c).any(|t| flags.contains(&t));
    match c.program.as_str() {
        "pbpaste" | "wl-paste" | "Get-Clipboard" | "termux-clipboard-get" => true,
        "xclip" => has(&["-o", "-out"]),
        // xsel outputs the selection unless told to change it, or when fed by a pipe
        "xsel" => {
            has(&["-o", "--output"])
                || (c.stdin.is_none()
                    && !has(&[
                        "-i",
                        "--input",
                        "-a",
                        "--append",
                        "-f",
                        "--follow",
                        "-c",
                        "--clear",
                        "-d",
                        "--delete",
                        "-k",
                        "--keep",
                        "-x",
                        "--exchange",
                    ]))
        }
        _ => false,
    }
}

/// An interpreter one-liner that prints its whole environment (`ruby -e 'ENV.each { |k, v|
/// puts … }'`, `python3 -c 'import os; print(dict(os.environ))'`, `node -e
/// 'console.log(JSON.stringify(process.env))'`, `perl -e 'print "$_=$ENV{$_}\n" for keys %ENV'`).
fn code_env_dump(c: &SimpleCommand) -> bool {
    let interp = matches!(
        c.program
            .trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.'),
        "python" | "ruby" | "perl" | "node" | "nodejs" | "bun" | "deno" | "php"
    );
    if !interp {
        return false;
    }
    let code: String = c
        .raw_argv
        .iter()
        .skip(1)
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let prints = [
        "print",
        "puts",
        "console.log",
        "echo",
        "say",
        "write",
        "dump",
        "json",
        "JSON",
    ]
    .iter()
    .any(|k| code.contains(k));
    // the whole environment, not one variable of it
    let whole = [
        "ENV.each",
        "ENV.to_h",
        "ENV.to_a",
        "ENV.inspect",
        "ENV.map",
        "ENV.sort",
        "keys %ENV",
        "%ENV)",
        "%ENV;",
        "Dumper(\\%ENV",
        "each %ENV",
        "dict(os.environ)",
        "os.environ.items()",
        "print(os.environ)",
        "os.environ.copy()",
        "json.dumps(os.environ",
        "JSON.stringify(process.env",
        "console.log(process.env",
        "Object.entries(process.env",
        "getenv()",
        "$_ENV",
        "$_SERVER",
        "Deno.env.toObject()",
    ]
    .iter()
    .any(|k| code.contains(k))
        // Ruby's `puts ENV` / `p ENV` whole, not `puts ENV["HOME"]`
        || ["puts ENV", "p ENV", "pp ENV"].iter().any(|k| {
            code.match_indices(k).any(|(at, _)| {
                !code[at + k.len()..]
                    .starts_with(|ch: char| ch == '[' || ch == '.' || ch == '_' || ch.is_alphanumeric())
            })
        });
    prints && whole
}

/// A database dump or a secret-store read.
pub(super) fn dump_source(c: &SimpleCommand) -> Option<Taint> {
    let p0 = pos(c, 0);
    let what = match c.program.as_str() {
        "pg_dump" | "pg_dumpall" | "mysqldump" | "mariadb-dump" if schema_only(c) => None,
        "pg_dump" | "pg_dumpall" | "mysqldump" | "mariadb-dump" | "mongodump" | "mongoexport"
        | "pg_basebackup" => Some(Data::Dump),
        "redis-cli" if raw(c).any(|t| t == "--rdb") => Some(Data::Dump),
        "etcdctl" if p0 == "snapshot" => Some(Data::Dump),
        // captured traffic written to stdout (`tcpdump -w -`): credentials and sessions
        "tcpdump" | "tshark" | "dumpcap" | "windump"
            if raw(c)
                .zip(raw(c).skip(1))
                .any(|(a, b)| a == "-w" && b == "-")
                || raw(c).any(|t| t == "-w-") =>
        {
            Some(Data::Dump)
        }
        "sqlite3" | "sqlite" if raw(c).any(|t| t.starts_with(".dump")) => Some(Data::Dump),
        "vault" if c.positionals().any(|w| w.text == "export") => Some(Data::Secret),
        "vault" if c.positionals().any(|w| w.text == "snapshot") => Some(Data::Dump),
        "vault" if matches!(p0, "kv" | "read") => Some(Data::Secret),
        "aws"
            if matches!(
                pos(c, 1),
                "get-secret-value" | "get-parameter" | "get-parameters"
            ) =>
        {
            Some(Data::Secret)
        }
        // a table's items printed whole (`aws dynamodb scan --table-name users`), not a count
        "aws"
            if p0 == "dynamodb"
                && matches!(pos(c, 1), "scan" | "query" | "batch-get-item")
                && !raw(c).any(|t| t == "COUNT" || t == "--select=COUNT") =>
        {
            Some(Data::Dump)
        }
        _ if secret_manager_read(c) => Some(Data::Secret),
        _ if clipboard_read(c) => Some(Data::Clipboard),
        _ if env_dump(c) || code_env_dump(c) => Some(Data::Secret),
        _ => None,
    }?;
    Some(Taint {
        data: what,
        from: 0,
        what: c.canonical(),
        renamed: false,
    })
}

/// A directory that holds secrets (archived or copied whole: `tar czf k.tgz ~/.ssh`).
/// A Windows profile's credential store (`~/AppData/Roaming/Microsoft/Credentials`, a
/// browser's `Login Data`, the Vault and DPAPI keys): the places Windows classes with the
/// credentials.
fn windows_store(p: &str) -> Option<&'static str> {
    let l = p.to_ascii_lowercase();
    if KEY_FILES
        .iter()
        .any(|k| k.starts_with('.') && l.ends_with(k))
    {
        return Some("a key, certificate or password database file");
    }
    (l.contains("/appdata/")
        && riskgate_model::effect::classify_path(p)
            == riskgate_model::effect::TargetClass::Credentials)
        .then_some("a Windows credential store")
}

fn secret_dir(p: &str) -> Option<&'static str> {
    let d = p.trim_end_matches('/');
    match d {
        "~/.ssh" => Some("the SSH keys directory"),
        "~/.aws" | "~/.azure" | "~/.config/gcloud" | "~/.kube" | "~/.docker" => {
            Some("a cloud credentials directory")
        }
        "~/.gnupg" | "~/.password-store" => Some("a key or password store"),
        "/etc/ssl/private" => Some("the TLS private keys directory"),
        _ => None,
    }
}

/// A secret file the command reads.
pub(super) fn secret_source(c: &SimpleCommand) -> Option<Taint> {
    // the shell's history: commands typed with their passwords and tokens
    if matches!(c.program.as_str(), "history" | "fc")
        && !raw(c).any(|t| matches!(t, "-c" | "-d" | "-w" | "-a" | "-s"))
    {
        return Some(Taint {
            data: Data::Secret,
            from: 0,
            what: "the shell history".to_string(),
            renamed: false,
        });
    }
    // a secret variable of the environment printed by name: `printenv AWS_SECRET_ACCESS_KEY`,
    // `echo "$GITHUB_TOKEN"`
    if let Some(name) = printed_secret_variable(c) {
        return Some(Taint {
            data: Data::Secret,
            from: 0,
            what: format!("the environment variable `{name}`"),
            renamed: false,
        });
    }
    // Windows and PowerShell credential stores read by a command of their own
    if let Some(what) = credential_reader(c) {
        return Some(Taint {
            data: Data::Secret,
            from: 0,
            what: what.to_string(),
            renamed: false,
        });
    }
    if matches!(
        c.program.as_str(),
        "ls" | "stat"
            | "chmod"
            | "chown"
            | "rm"
            | "ssh-keygen"
            | "ssh-add"
            | "echo"
            | "printf"
            | "test"
            | "["
            | "touch"
            | "mkdir"
            | "ssh"
            | "scp"
            | "git"
    ) {
        return None;
    }
    // A key given to an option (`ssh -i key.pem`, `-e "ssh -i key"`) is used, not read.
    let uses = |k: usize| {
        c.raw_argv.get(k).is_some_and(|p| {
            matches!(
                p.text.as_str(),
                "-i" | "-e"
                    | "--rsh"
                    | "--key"
                    | "--identity"
                    | "--cert"
                    | "--cacert"
                    | "--key-file"
                    | "--kubeconfig"
                    | "-E"
            )
        })
    };
    let from_args = c.raw_argv.iter().enumerate().skip(1).find_map(|(k, w)| {
        if uses(k - 1) || w.text.contains(char::is_whitespace) {
            return None;
        }
        let t = w.text.as_str();
        let f = t
            .strip_prefix('@')
            .or_else(|| t.split_once("=@").map(|(_, f)| f))
            .unwrap_or(t);
        sensitive_kind(f)
            .or_else(|| secret_dir(f))
            .map(|k| (f.to_string(), k))
    });
    let from_redirect = c.redirects.iter().find_map(|r| {
        (r.op == "<")
            .then(|| sensitive_kind(&r.target.text).map(|k| (r.target.text.clone(), k)))
            .flatten()
    });
    // PowerShell's words as written (`"$env:USERPROFILE\.aws\credentials"`) are in the
    // canonical arguments as paths (`~/.aws/credentials`)
    let from_canonical = || {
        c.args.iter().find_map(|w| {
            let t = w.text.as_str();
            let f = t.split_once('=').map_or(t, |(_, f)| f);
            // a canonical Windows path is one word, spaces and all (`…/User Data/…`)
            let windows_path =
                f.starts_with("~/") || f.as_bytes().get(1..3) == Some(b":/".as_slice());
            ((windows_path || !f.contains(char::is_whitespace)) && f.contains('/'))
                .then(|| {
                    sensitive_kind(f)
                        .or_else(|| secret_dir(f))
                        .or_else(|| windows_store(f))
                        .map(|k| (f.to_string(), k))
                })
                .flatten()
        })
    };
    let windows =
        c.program.contains('-') && c.program.starts_with(|ch: char| ch.is_ascii_uppercase());
    let (path, kind) = from_args
        .or_else(|| if windows { from_canonical() } else { None })
        .or(from_redirect)?;
    // `cp .env.example .env`: writing a secret file is not reading one.
    if matches!(c.program.as_str(), "cp" | "mv" | "install")
        && c.positionals().last().is_some_and(|w| w.text == path)
    {
        return None;
    }
    Some(Taint {
        data: Data::Secret,
        from: 0,
        what: format!("{kind} `{path}`"),
        renamed: false,
    })
}

/// The secret-named environment variable `c` prints: `printenv NAME`, or `echo`/`printf` of
/// `$NAME` / `${NAME}`.
fn printed_secret_variable(c: &SimpleCommand) -> Option<String> {
    let names: Vec<String> = match c.program.as_str() {
        "printenv" => c.positionals().map(|w| w.text.clone()).collect(),
        "echo" | "printf" => raw(c)
            .filter_map(|t| {
                let t = t.trim_matches('"');
                let name = t
                    .strip_prefix("${")
                    .and_then(|r| r.strip_suffix('}'))
                    .or_else(|| t.strip_prefix('$'))?;
                name.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                    .then(|| name.to_string())
            })
            .collect(),
        _ => return None,
    };
    names
        .into_iter()
        .find(|n| riskgate_model::secrets::is_secret_name(n))
}

/// Commands whose output is stored credentials (PowerShell's credential and secret cmdlets,
/// `cmdkey /list`, `vaultcmd /listcreds`, a secure string made readable).
/// Names and extensions (after a `*`) of key, certificate and password-database files.
const KEY_FILES: &[&str] = &[
    ".pfx",
    ".p12",
    ".pem",
    ".key",
    ".kdbx",
    ".ppk",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    ".jks",
    ".keystore",
    ".ovpn",
    ".rdp",
];

fn credential_reader(c: &SimpleCommand) -> Option<&'static str> {
    let p = c.program.as_str();
    Some(match p {
        "Get-StoredCredential" => "the Windows Credential Manager",
        "Get-Credential" => "a credential typed in",
        "Get-Secret" | "Get-SecretInfo" => "a SecretManagement vault's secret",
        "ConvertFrom-SecureString" => "a secure string made readable",
        "Get-AzKeyVaultSecret"
        | "Get-AzAccessToken"
        | "Get-SECSecretValue"
        | "Get-AWSCredential" => "a cloud secret or token",
        "cmdkey" if raw(c).any(|t| t.eq_ignore_ascii_case("/list") || t == "-list") => {
            "the Windows Credential Manager"
        }
        "vaultcmd" if raw(c).any(|t| t.to_ascii_lowercase().contains("listcreds")) => {
            "the Windows Vault"
        }
        // the state of the whole infrastructure, every resource's secrets in clear
        // (`terraform state pull`, `terraform show -json`, `pulumi stack export
        // --show-secrets`)
        "terraform" | "tofu" | "terragrunt"
            if {
                let pos: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
                pos.starts_with(&["state", "pull"])
                    || pos.first() == Some(&"show") && raw(c).any(|t| t == "-json")
            } =>
        {
            "Terraform state (every resource's secrets)"
        }
        "pulumi" if raw(c).any(|t| t == "--show-secrets") => "Pulumi state with its secrets",
        // `nmcli -s -g 802-11-wireless-security.psk connection show X`
        "nmcli" if raw(c).any(|t| t == "-s" || t == "--show-secrets") => "Wi-Fi and VPN passwords",
        // `netsh wlan show profile name=X key=clear`: the Wi-Fi password in clear
        "netsh"
            if raw(c).any(|t| t.eq_ignore_ascii_case("wlan"))
                && raw(c).any(|t| t.eq_ignore_ascii_case("key=clear")) =>
        {
            "Wi-Fi passwords"
        }
        // a search for key, certificate and password-database files (`Get-ChildItem C:\
        // -Recurse -Include *.pfx,*.pem,id_rsa`), or for files that hold passwords in clear
        // (Group Policy Preferences, unattended setup answers, `.env` files)
        "Get-ChildItem"
            if c.args.iter().any(|a| {
                a.text
                    .split_once('=')
                    .filter(|(f, _)| matches!(*f, "-Include" | "-Filter"))
                    .is_some_and(|(_, v)| {
                        v.split(',').any(|p| {
                            let p = p.trim().trim_start_matches('*').to_ascii_lowercase();
                            KEY_FILES.iter().any(|k| p == *k)
                                || PASSWORD_FILES.contains(&p.as_str())
                                || riskgate_model::credentials::is_env_file(&p)
                        })
                    })
            }) =>
        {
            "key, certificate and password files found by a search"
        }
        // the environment drive listed whole (`Get-ChildItem Env:`, `dir env:`)
        "Get-ChildItem" | "Get-Item"
            if c.positionals().any(|w| {
                let l = w.text.to_ascii_lowercase();
                matches!(l.as_str(), "env:" | "env:/" | "env:/*" | "env:*" | "env:\\")
            }) =>
        {
            "the environment's variables"
        }
        _ if secret_cmdlet(p) => "a secret, key or token a cmdlet returns",
        _ => return None,
    })
}

/// Files that hold passwords in clear or reversibly encrypted (lower case names): Group
/// Policy Preferences (`Groups.xml` …, the `cpassword` attribute), unattended setup answers.
const PASSWORD_FILES: &[&str] = &[
    "groups.xml",
    "services.xml",
    "scheduledtasks.xml",
    "datasources.xml",
    "drives.xml",
    "printers.xml",
    "unattend.xml",
    "autounattend.xml",
    "sysprep.xml",
    "sysprep.inf",
];

/// A cmdlet whose output is a secret by its name: a verb that returns or creates one (`Get`,
/// `Add`, `New`, `Export`, `Read`, `Reset`, `Unprotect`) on a noun whose last word is a key,
/// secret, password, credential or token (`Get-AzStorageAccountKey`,
/// `Add-MgApplicationPassword`, `New-AzADSpCredential`, `Get-AzAccessToken`).
fn secret_cmdlet(program: &str) -> bool {
    let Some((verb, noun)) = program.split_once('-') else {
        return false;
    };
    if !matches!(
        verb,
        "Get" | "Add" | "New" | "Export" | "Read" | "Reset" | "Unprotect" | "Show"
    ) || !noun.chars().all(|ch| ch.is_ascii_alphanumeric())
    {
        return false;
    }
    // the last word of the noun: from its last upper-case letter after a lower-case one
    let chars: Vec<char> = noun.chars().collect();
    let start = (1..chars.len())
        .rev()
        .find(|&i| {
            chars[i].is_ascii_uppercase()
                && chars
                    .get(i - 1)
                    .is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        })
        .unwrap_or(0);
    let last: String = chars[start..]
        .iter()
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "key"
            | "keys"
            | "secret"
            | "secrets"
            | "password"
            | "passwords"
            | "credential"
            | "credentials"
            | "token"
            | "tokens"
            | "connectionstring"
            | "connectionstrings"
    )
}

/// Files a command writes its output or its input to.
pub(super) fn outputs(c: &SimpleCommand) -> Vec<String> {
    let mut out: Vec<String> = c
        .redirects
        .iter()
        .filter(|r| {
            let op = r.op.trim_start_matches('1');
            matches!(op, ">" | ">>" | ">|" | "&>" | "&>>")
        })
        .map(|r| r.target.text.clone())
        .collect();
    let raws: Vec<&str> = raw(c).collect();
    let value_of = |names: &[&str]| -> Option<String> {
        raws.iter().enumerate().find_map(|(k, t)| {
            if names.contains(t) {
                return raws.get(k + 1).map(|v| v.to_string());
            }
            names
                .iter()
                .find_map(|n| t.strip_prefix(&format!("{n}=")).map(str::to_string))
        })
    };
    match c.program.as_str() {
        "cp" | "mv" | "install" | "rsync" | "ditto" => {
            if let Some(last) = c.positionals().last()
                && !last.text.contains(':')
            {
                out.push(last.text.clone());
            }
        }
        "tar" | "bsdtar" => {
            let cluster = raws
                .first()
                .is_some_and(|t| !t.starts_with('-') && t.contains('f'));
            let f = if cluster {
                raws.get(1).map(|s| s.to_string())
            } else {
                raws.iter().enumerate().find_map(|(k, t)| {
                    (t.starts_with('-') && !t.starts_with("--") && t.ends_with('f'))
                        .then(|| raws.get(k + 1).map(|s| s.to_string()))
                        .flatten()
                })
            };
            out.extend(f.or_else(|| value_of(&["--file"])));
        }
        "zip" | "7z" | "rar" => {
            let skip = usize::from(c.program == "7z");
            if let Some(w) = c.positionals().nth(skip) {
                out.push(w.text.clone());
            }
        }
        // PowerShell: an archive or a copy of what it reads (`Compress-Archive ~/.ssh k.zip`,
        // `Copy-Item ~/.aws/credentials c.txt`), a file written with it (`Out-File`, `Set-Content`)
        "Compress-Archive" | "Copy-Item" | "Move-Item" => {
            let dest = c
                .args
                .iter()
                .find_map(|a| {
                    a.text
                        .strip_prefix("-DestinationPath=")
                        .or_else(|| a.text.strip_prefix("-Destination="))
                })
                .map(str::to_string)
                // `Compress-Archive A B DEST`: the last of several positionals; with its input
                // piped (`$found | Compress-Archive -DestinationPath DEST`), the only one
                .or_else(|| {
                    let p: Vec<_> = c.positionals().collect();
                    let piped = c.stdin.is_some() && p.len() == 1;
                    p.get(usize::from(!piped)..)
                        .and_then(|r| r.last())
                        .map(|w| w.text.clone())
                });
            out.extend(dest);
        }
        "Out-File" | "Set-Content" | "Add-Content" | "Export-Csv" | "Export-Clixml" => {
            out.extend(c.positionals().next().map(|w| w.text.clone()));
        }
        "gzip" | "bzip2" | "xz" | "zstd" => {
            for w in c.positionals() {
                out.push(format!("{}.gz", w.text));
                out.push(w.text.clone());
            }
        }
        _ => {}
    }
    // Where a dump tool writes its dump.
    match c.program.as_str() {
        "redis-cli" => out.extend(value_of(&["--rdb"])),
        "etcdctl" | "vault" => {
            let ops: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
            if let Some(k) = ops.iter().position(|t| *t == "save") {
                out.extend(ops.get(k + 1).map(|s| s.to_string()));
            }
        }
        "pg_basebackup" => out.extend(value_of(&["-D", "--pgdata"])),
        _ => {}
    }
    out.extend(value_of(&[
        "-o",
        "--output",
        "--out",
        "--archive",
        "-f",
        "--file",
        "--result-file",
        "-out",
    ]));
    out.retain(|f| !f.is_empty() && f != "-" && !f.starts_with("/dev/"));
    out
}
