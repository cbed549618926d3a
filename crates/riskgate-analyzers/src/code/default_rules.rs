//! The default rules (seed 001's table and more): file operations, network, subprocesses,
//! databases and system administration. Seed 001's rule names and reasons are kept
//! (`rm_recursive`, `file_delete`, `file_write`, …) so that `remove_rule("print_output")` and
//! the seed's examples hold; each finding's id is `code.NAME`.
//!
//! Rules over commands (`rm_recursive`, `git_force_push`, …) look at the commands the code runs;
//! when a shell engine is plugged in with `set_command_assessor`, those commands are given to it
//! instead and these rules see none.

use riskgate_model::{Finding, RiskLevel};

use super::analysis::{Analysis, Store};
use super::commands as cmd;
use super::matchers::{self as m, call_hit, calls, cmd_hit, cmds};
use super::resources;
use super::rule::{Hit, RiskRule};
use crate::sql::{self, Dialect, SqlOptions};

use RiskLevel::{Critical, High, Low, Medium, Safe};

fn rule(
    name: &str,
    level: RiskLevel,
    reason: &str,
    reversible: bool,
    f: impl Fn(&Analysis) -> Vec<Hit> + Send + Sync + 'static,
) -> RiskRule {
    RiskRule::analysis(name, f, level, reason).reversible(reversible)
}

fn join(mut a: Vec<Hit>, b: Vec<Hit>) -> Vec<Hit> {
    a.extend(b);
    a
}

/// The default rule set.
pub fn default_rules() -> Vec<RiskRule> {
    let mut r = Vec::with_capacity(64);
    // ---- CRITICAL ----
    r.push(
        rule(
            "rm_recursive",
            Critical,
            "Recursive file deletion can cause irreversible data loss",
            false,
            |a| cmds(a, cmd::rm_recursive),
        )
        .score(95)
        .tags(&["filesystem", "destructive"])
        .mitigation("Delete specific files, or move them to a trash directory first"),
    );
    r.push(
        rule(
            "drop_database",
            Critical,
            "Database deletion is typically irreversible",
            false,
            drop_database,
        )
        .score(93)
        .tags(&["database", "destructive"])
        .mitigation("Take a backup (pg_dump, mysqldump) and run it by hand if really intended"),
    );
    r.push(
        rule(
            "format_disk",
            Critical,
            "Disk formatting destroys all data",
            false,
            |a| cmds(a, cmd::formats_disk),
        )
        .score(98)
        .tags(&["system", "destructive"]),
    );
    r.push(
        rule(
            "delete_critical_path",
            Critical,
            "Deleting a system or home directory destroys the machine or the user's data",
            false,
            |a| {
                join(
                    calls(a, m::deletes_critical_path),
                    cmds(a, |c| {
                        cmd::deletes_files(c)
                            && c.positionals()
                                .iter()
                                .any(|p| resources::is_critical_path(p))
                    }),
                )
            },
        )
        .score(97)
        .tags(&["filesystem", "destructive"]),
    );
    r.push(
        rule(
            "raw_device_write",
            Critical,
            "Writing to a raw disk device destroys its file system",
            false,
            |a| {
                calls(a, |c| {
                    (m::is_file_write(c) || c.is(&["open", "os.open"]))
                        && c.arg(0)
                            .and_then(|x| x.value.text())
                            .is_some_and(resources::is_raw_device)
                })
            },
        )
        .score(97)
        .tags(&["system", "destructive"]),
    );
    r.push(
        rule(
            "pipe_to_shell",
            Critical,
            "Downloaded code is piped into a shell or interpreter without review",
            false,
            pipe_to_shell,
        )
        .score(90)
        .tags(&["network", "execution"])
        .mitigation("Download the script, read it, then run it"),
    );
    r.push(
        rule(
            "remote_code_exec",
            Critical,
            "Executes code that is downloaded or decoded at run time",
            false,
            |a| {
                a.dynamic_code
                    .iter()
                    .filter(|c| is_remote_or_decoded(c))
                    .map(|c| call_hit(c, Vec::new()))
                    .collect()
            },
        )
        .score(92)
        .tags(&["execution", "network"]),
    );
    r.push(
        rule(
            "fork_bomb",
            Critical,
            "Fork bomb exhausts the machine's processes",
            false,
            |a| {
                a.commands
                    .iter()
                    .filter(|c| c.text.replace(' ', "").contains(":(){:|:&};:"))
                    .map(|c| Hit::new(c.text.clone()).at(c.span, c.line))
                    .collect()
            },
        )
        .score(90)
        .tags(&["system"]),
    );
    r.push(
        rule(
            "infra_destroy",
            Critical,
            "Destroys a whole environment (infrastructure, bucket or namespace)",
            false,
            |a| cmds(a, cmd::infra_destroy),
        )
        .score(94)
        .tags(&["cloud", "destructive"]),
    );

    // ---- HIGH ----
    r.push(
        rule(
            "file_delete",
            High,
            "File deletion may cause data loss",
            false,
            |a| {
                let mocked = super::effects::mocked(a);
                let walks = super::effects::walks_regenerable_only(a);
                join(
                    calls(a, |c| {
                        let cleanup = super::effects::is_regenerable_delete(c)
                            || walks && super::effects::target_is_variable(c);
                        let mock = mocked.iter().any(|n| c.is(&[n.as_str()]));
                        m::is_file_delete(c) && !cleanup && !mock
                    }),
                    cmds(a, |c| cmd::deletes_files(c) && !cmd::rm_recursive(c)),
                )
            },
        )
        .score(70)
        .tags(&["filesystem", "destructive"])
        .mitigation("Move files to a trash or backup directory instead of deleting them"),
    );
    r.push(
        rule(
            "git_force_push",
            High,
            "Force push can overwrite remote history",
            false,
            |a| {
                join(
                    cmds(a, cmd::git_force_push),
                    calls(a, |c| m::gitpython(c, "push_force")),
                )
            },
        )
        .score(72)
        .tags(&["git"])
        .mitigation("Use --force-with-lease, or push to a new branch"),
    );
    r.push(
        rule(
            "git_reset_hard",
            High,
            "Hard reset discards uncommitted changes",
            false,
            |a| {
                join(
                    cmds(a, cmd::git_reset_hard),
                    calls(a, |c| m::gitpython(c, "reset_hard")),
                )
            },
        )
        .score(70)
        .tags(&["git"])
        .mitigation("Stash first (git stash), or use git reset --keep"),
    );
    r.push(
        rule(
            "git_clean",
            High,
            "git clean deletes untracked files permanently",
            false,
            |a| cmds(a, cmd::git_clean),
        )
        .score(68)
        .tags(&["git", "destructive"])
        .mitigation("Preview with git clean -n first"),
    );
    r.push(
        rule(
            "sudo_command",
            High,
            "Elevated privileges can affect system stability",
            true,
            |a| cmds(a, |c| c.privileged || c.prog == "su"),
        )
        .score(66)
        .tags(&["privilege"]),
    );
    r.push(
        rule(
            "network_request",
            High,
            "Modifying external resources via network",
            false,
            |a| {
                join(
                    calls(a, |c| {
                        m::is_network_write(c) && !super::effects::is_loopback_call(c)
                    }),
                    cmds(a, cmd::network_write),
                )
            },
        )
        .score(66)
        .tags(&["network"])
        .mitigation("Check the target URL and payload; prefer a staging endpoint"),
    );
    r.push(
        rule(
            "credential_access",
            High,
            "Accesses credentials or secrets (keys, tokens, password files)",
            false,
            |a| {
                join(
                    calls(a, m::touches_credentials),
                    cmds(a, |c| {
                        cmd::read_files(c)
                            .iter()
                            .any(|p| resources::is_sensitive_path(p))
                    }),
                )
            },
        )
        .score(72)
        .tags(&["credentials"]),
    );
    r.push(
        rule(
            "sensitive_file_write",
            High,
            "Modifies system configuration, shell startup files or scheduled tasks",
            true,
            |a| {
                let calls_hits = calls(a, |c| {
                    m::is_file_write(c)
                        && c.arg(0)
                            .and_then(|x| x.value.text())
                            .is_some_and(resources::is_persistence_path)
                });
                let cmd_hits = cmds(a, |c| {
                    cmd::written_files(c)
                        .iter()
                        .any(|p| resources::is_persistence_path(p))
                });
                join(calls_hits, cmd_hits)
            },
        )
        .score(72)
        .tags(&["persistence", "system"]),
    );
    r.push(
        rule(
            "privilege_change",
            High,
            "Changes process privileges",
            true,
            |a| calls(a, m::is_privilege_change),
        )
        .score(68)
        .tags(&["privilege"]),
    );
    r.push(
        rule(
            "dynamic_code_exec",
            High,
            "Executes code built at run time, which cannot be checked before it runs",
            false,
            |a| {
                a.dynamic_code
                    .iter()
                    .filter(|c| !is_remote_or_decoded(c))
                    .map(|c| call_hit(c, Vec::new()))
                    .collect()
            },
        )
        .score(66)
        .tags(&["execution"])
        .mitigation("Call the intended functions directly instead of eval/exec"),
    );
    r.push(
        rule(
            "permission_broad",
            High,
            "World-writable, setuid or system-wide permission change",
            true,
            |a| {
                join(
                    calls(a, m::is_permission_broad),
                    cmds(a, cmd::permission_broad),
                )
            },
        )
        .score(70)
        .tags(&["permissions"])
        .mitigation("Grant the narrowest mode needed (e.g. 0o640)"),
    );
    r.push(
        rule(
            "system_power",
            High,
            "Shuts down or reboots the machine",
            false,
            |a| cmds(a, cmd::system_power),
        )
        .score(75)
        .tags(&["system"]),
    );
    r.push(
        rule(
            "cloud_resource_delete",
            High,
            "Deletes cloud, cluster or container resources",
            false,
            |a| join(calls(a, m::is_cloud_delete), cmds(a, cmd::cloud_delete)),
        )
        .score(74)
        .tags(&["cloud", "destructive"])
        .mitigation("Run a dry run or plan first and delete by explicit name"),
    );
    r.push(
        rule(
            "email_send",
            High,
            "Sends email, which cannot be recalled",
            false,
            |a| calls(a, m::is_email_send),
        )
        .score(64)
        .tags(&["network"]),
    );
    r.push(
        rule(
            "registry_modify",
            High,
            "Modifies the Windows registry",
            false,
            |a| join(calls(a, m::is_registry_write), cmds(a, cmd::registry)),
        )
        .score(68)
        .tags(&["system"]),
    );
    r.push(
        rule(
            "crontab_modify",
            High,
            "Changes scheduled tasks (a common persistence mechanism)",
            true,
            |a| cmds(a, cmd::crontab),
        )
        .score(66)
        .tags(&["persistence"]),
    );
    r.push(
        rule(
            "user_admin",
            High,
            "Changes system users, groups or passwords",
            true,
            |a| cmds(a, cmd::user_admin),
        )
        .score(70)
        .tags(&["system", "privilege"]),
    );
    r.push(
        rule(
            "firewall_change",
            High,
            "Changes firewall rules",
            true,
            |a| cmds(a, cmd::firewall),
        )
        .score(68)
        .tags(&["network", "system"]),
    );

    // ---- MEDIUM ----
    r.push(
        rule(
            "file_write",
            Medium,
            "File modification may overwrite existing content",
            true,
            |a| {
                let call_hits = calls(a, m::is_file_write);
                let cmd_hits: Vec<Hit> = a
                    .shell
                    .iter()
                    .filter_map(|sc| {
                        let c = cmd::view(sc)?;
                        let files = cmd::written_files(&c);
                        (!files.is_empty()).then(|| {
                            cmd_hit(&c, files.iter().map(|f| resources::file(f)).collect())
                        })
                    })
                    .collect();
                join(call_hits, cmd_hits)
            },
        )
        .score(48)
        .tags(&["filesystem"]),
    );
    r.push(
        rule(
            "subprocess_exec",
            Medium,
            "Executing system commands",
            true,
            |a| {
                a.calls
                    .iter()
                    .filter(|c| m::is_subprocess(c))
                    .map(|c| {
                        let res = a
                            .shell
                            .iter()
                            .filter(|s| s.span == c.span)
                            .flat_map(|s| resources::of_words(&s.words))
                            .collect();
                        call_hit(c, res)
                    })
                    .collect()
            },
        )
        .score(46)
        .tags(&["execution"]),
    );
    r.push(
        rule(
            "shell_injection",
            Medium,
            "Shell command built from run-time values cannot be fully checked",
            true,
            |a| {
                a.commands
                    .iter()
                    .filter(|c| c.dynamic && c.argv.is_none())
                    .map(|c| Hit::new(c.text.clone()).at(c.span, c.line))
                    .collect()
            },
        )
        .score(50)
        .tags(&["execution", "injection"])
        .mitigation("Pass an argument list without a shell (shell=False) and validate inputs"),
    );
    r.push(
        rule("git_commit", Medium, "Creating git commits", true, |a| {
            join(
                cmds(a, cmd::git_commit),
                calls(a, |c| m::gitpython(c, "commit")),
            )
        })
        .score(42)
        .tags(&["git"]),
    );
    r.push(
        rule(
            "pip_install",
            Medium,
            "Installing packages may affect environment",
            true,
            |a| join(cmds(a, cmd::pip_install), calls(a, m::is_pip_api_install)),
        )
        .score(46)
        .tags(&["packages"]),
    );
    r.push(
        rule(
            "package_install",
            Medium,
            "Installs packages or runs package code (third-party code)",
            true,
            |a| cmds(a, cmd::package_install),
        )
        .score(46)
        .tags(&["packages"]),
    );
    r.push(
        rule(
            "file_move",
            Medium,
            "Moving or renaming files may overwrite the destination",
            true,
            |a| join(calls(a, m::is_file_move), cmds(a, |c| c.prog == "mv")),
        )
        .score(44)
        .tags(&["filesystem"]),
    );
    r.push(
        rule(
            "archive_extract",
            Medium,
            "Extracting archives writes many files (beware path traversal)",
            true,
            |a| {
                join(
                    calls(a, m::is_archive_extract),
                    cmds(a, cmd::extracts_archive),
                )
            },
        )
        .score(44)
        .tags(&["filesystem"]),
    );
    r.push(
        rule(
            "download_file",
            Medium,
            "Downloads files from the network",
            true,
            |a| join(calls(a, m::is_download), cmds(a, cmd::downloads_file)),
        )
        .score(44)
        .tags(&["network"]),
    );
    r.push(
        rule(
            "socket_connect",
            Medium,
            "Opens a raw network connection",
            true,
            |a| {
                join(
                    calls(a, m::is_socket_connect),
                    cmds(a, |c| {
                        matches!(
                            c.prog.as_str(),
                            "nc" | "ncat" | "netcat" | "socat" | "telnet"
                        )
                    }),
                )
            },
        )
        .score(44)
        .tags(&["network"]),
    );
    r.push(
        rule(
            "network_listen",
            Medium,
            "Opens a network listener that exposes this machine",
            true,
            |a| {
                join(
                    calls(a, m::is_network_listen),
                    cmds(a, |c| {
                        (matches!(c.prog.as_str(), "nc" | "ncat" | "netcat")
                            && c.flag(Some('l'), &["listen"]))
                            || (c.prog.starts_with("python")
                                && c.args.windows(2).any(|w| {
                                    w.first().is_some_and(|x| x == "-m")
                                        && w.get(1).is_some_and(|x| x == "http.server")
                                }))
                    }),
                )
            },
        )
        .score(46)
        .tags(&["network"]),
    );
    r.push(
        rule(
            "remote_access",
            Medium,
            "Runs commands or copies files on a remote host",
            true,
            |a| join(calls(a, m::is_remote_access), cmds(a, cmd::remote_access)),
        )
        .score(48)
        .tags(&["network", "remote"]),
    );
    r.push(
        rule(
            "deserialization",
            Medium,
            "Unsafe deserialization can execute arbitrary code",
            true,
            |a| calls(a, m::is_deserialization),
        )
        .score(48)
        .tags(&["execution"])
        .mitigation("Use json, or yaml.safe_load; only unpickle trusted data"),
    );
    r.push(
        rule(
            "native_code",
            Medium,
            "Loads native code into the process",
            true,
            |a| calls(a, m::is_native_code),
        )
        .score(46)
        .tags(&["execution"]),
    );
    r.push(
        rule(
            "permission_change",
            Medium,
            "Changes file permissions or ownership",
            true,
            |a| {
                join(
                    calls(a, m::is_permission_change),
                    cmds(a, cmd::permission_change),
                )
            },
        )
        .score(44)
        .tags(&["permissions"]),
    );
    r.push(
        rule(
            "process_kill",
            Medium,
            "Sends signals to (kills) other processes",
            true,
            |a| join(calls(a, m::is_process_kill), cmds(a, cmd::process_kill)),
        )
        .score(44)
        .tags(&["system"]),
    );
    r.push(
        rule(
            "service_control",
            Medium,
            "Starts, stops or changes system services",
            true,
            |a| cmds(a, cmd::service_control),
        )
        .score(50)
        .tags(&["system"]),
    );
    r.push(
        rule(
            "container_exec",
            Medium,
            "Container operation detected",
            true,
            |a| join(calls(a, m::is_container_exec), cmds(a, cmd::container_exec)),
        )
        .score(44)
        .tags(&["containers"]),
    );
    r.push(
        rule(
            "hardcoded_secret",
            Medium,
            "Hardcoded credential in code",
            true,
            hardcoded_secret,
        )
        .score(50)
        .tags(&["credentials"])
        .mitigation("Read secrets from the environment or a secret manager"),
    );
    r.push(
        rule(
            "database_modify",
            Medium,
            "Modifies database contents or schema",
            true,
            database_modify,
        )
        .score(48)
        .tags(&["database"]),
    );
    r.push(
        rule(
            "sql_dynamic",
            Medium,
            "SQL built from run-time values (SQL injection risk)",
            true,
            |a| {
                a.sql
                    .iter()
                    .filter(|q| q.dynamic && q.store == Store::Sql)
                    .map(|q| Hit::new(q.text.clone()).at(q.span, q.line))
                    .collect()
            },
        )
        .score(46)
        .tags(&["database", "injection"])
        .mitigation("Use parameterized queries"),
    );

    // ---- LOW ----
    r.push(
        rule("file_read", Low, "Reading files", true, |a| {
            calls(a, m::is_file_read)
        })
        .score(25)
        .tags(&["filesystem"]),
    );
    r.push(
        rule(
            "file_copy",
            Low,
            "Copies files (the destination may be overwritten)",
            true,
            |a| join(calls(a, m::is_file_copy), cmds(a, |c| c.prog == "cp")),
        )
        .score(30)
        .tags(&["filesystem"]),
    );
    r.push(
        rule("dir_list", Low, "Lists directory contents", true, |a| {
            calls(a, m::is_dir_list)
        })
        .score(22)
        .tags(&["filesystem"]),
    );
    r.push(
        rule("dir_create", Low, "Creates directories", true, |a| {
            join(calls(a, m::is_dir_create), cmds(a, |c| c.prog == "mkdir"))
        })
        .score(24)
        .tags(&["filesystem"]),
    );
    r.push(
        rule(
            "network_fetch",
            Low,
            "Network read from an external service",
            true,
            |a| join(calls(a, m::is_network_read), cmds(a, cmd::network_read)),
        )
        .score(30)
        .tags(&["network"]),
    );
    r.push(
        rule(
            "env_modify",
            Low,
            "Modifies environment variables",
            true,
            |a| {
                let assigns = a
                    .assignments
                    .iter()
                    .filter(|x| {
                        x.target.starts_with("os.environ") || x.target.starts_with("process.env")
                    })
                    .map(|x| Hit::new(x.target.clone()).at(x.span, x.line));
                let calls_hits = calls(a, |c| {
                    c.is(&["os.putenv", "os.unsetenv"])
                        || (c.name.starts_with("os.environ.")
                            && matches!(
                                c.method.as_str(),
                                "update" | "setdefault" | "pop" | "clear"
                            ))
                });
                assigns.chain(calls_hits).collect()
            },
        )
        .score(26)
        .tags(&["environment"]),
    );
    r.push(
        rule("browser_open", Low, "Opens a web browser", true, |a| {
            calls(a, m::is_browser_open)
        })
        .score(22)
        .tags(&["network"]),
    );

    r.push(
        rule(
            "cleanup_delete",
            Medium,
            "Deletes regenerable output inside the project (build, cache, logs)",
            true,
            |a| {
                let walks = super::effects::walks_regenerable_only(a);
                calls(a, |c| {
                    m::is_file_delete(c)
                        && (super::effects::is_regenerable_delete(c)
                            || walks && super::effects::target_is_variable(c))
                })
            },
        )
        .score(40)
        .tags(&["filesystem"]),
    );

    // ---- SAFE ----
    r.push(
        rule("print_output", Safe, "Output display only", true, |a| {
            calls(a, m::is_output)
        })
        .score(0)
        .tags(&["output"]),
    );
    // what the code's parts do together (bulk kills, reverse shells, untrusted input …)
    r.extend(super::effects::rules());
    r
}

fn is_remote_or_decoded(c: &super::analysis::Call) -> bool {
    let t = c
        .args
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(",");
    [
        "requests.",
        "urlopen",
        "fetch(",
        "httpx.",
        "axios",
        "urllib",
        "b64decode",
        "base64",
        "atob(",
        "decode(",
        "Buffer.from(",
        "codecs.decode",
        "zlib.decompress",
        "http.get",
        "https.get",
    ]
    .iter()
    .any(|k| t.contains(k))
}

fn pipe_to_shell(a: &Analysis) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut prev: Option<cmd::Cmd<'_>> = None;
    for sc in &a.shell {
        let Some(c) = cmd::view(sc) else { continue };
        let p = prev
            .as_ref()
            .filter(|p| p.sc.span == sc.span && p.sc.via == sc.via);
        if cmd::pipe_to_shell(p, &c) {
            let mut h = cmd_hit(&c, Vec::new());
            if let Some(p) = p {
                h.matched = format!("{} | {}", p.text(), c.text());
                h.resources = p
                    .positionals()
                    .iter()
                    .flat_map(|x| resources::urls(x))
                    .collect();
            }
            out.push(h);
        }
        prev = Some(c);
    }
    out
}

fn store_findings(store: Store, text: &str) -> Vec<Finding> {
    let opts = SqlOptions::default();
    match store {
        Store::Sql => sql::sql_findings(text, Dialect::Generic, &opts),
        Store::Redis => sql::redis_findings(text, &opts),
        Store::Mongo => sql::mongo_findings(text, &opts),
    }
}

const DROP_IDS: [&str; 4] = [
    "sql.drop-database",
    "sql.drop-schema",
    "sql.drop-table",
    "mongo.drop-database",
];

fn drop_database(a: &Analysis) -> Vec<Hit> {
    let mut out = Vec::new();
    for q in &a.sql {
        for f in store_findings(q.store, &q.text) {
            if DROP_IDS.contains(&f.rule_id.as_str()) {
                out.push(
                    Hit::new(f.matched.clone().unwrap_or_else(|| q.text.clone()))
                        .at(q.span, q.line)
                        .with_resources(f.resources.clone()),
                );
            }
        }
    }
    out.extend(calls(a, |c| {
        matches!(c.method.as_str(), "drop_database" | "dropDatabase")
    }));
    out.extend(cmds(a, cmd::drops_database));
    out
}

fn database_modify(a: &Analysis) -> Vec<Hit> {
    let mut out = Vec::new();
    for q in &a.sql {
        for f in store_findings(q.store, &q.text) {
            if DROP_IDS.contains(&f.rule_id.as_str()) || f.level <= Low {
                continue;
            }
            let mut h = Hit::new(f.matched.clone().unwrap_or_else(|| q.text.clone()))
                .at(q.span, q.line)
                .with_resources(f.resources.clone());
            h.level = Some(f.level);
            h.reason = Some(f.description.clone());
            h.reversible = Some(f.reversible);
            out.push(h);
        }
    }
    // ORM and NoSQL client calls
    for c in &a.calls {
        let Some((level, reason)) = orm_call(c) else {
            continue;
        };
        let mut h = call_hit(c, Vec::new());
        h.level = Some(level);
        h.reason = Some(reason.to_string());
        h.reversible = Some(level < High);
        out.push(h);
    }
    out
}

fn empty_filter(c: &super::analysis::Call) -> bool {
    match c.arg(0) {
        None => true,
        Some(a) => a.text.replace(char::is_whitespace, "") == "{}",
    }
}

fn orm_call(c: &super::analysis::Call) -> Option<(RiskLevel, &'static str)> {
    let m = c.method.as_str();
    let mongo = c.starts_with("pymongo.")
        || c.starts_with("motor.")
        || c.starts_with("mongodb.")
        || c.starts_with("mongoose.")
        || c.name.starts_with("db.")
        || c.name.contains("MongoClient");
    let redis = c.starts_with("redis.") || c.starts_with("ioredis") || c.starts_with("aioredis.");
    match m {
        "flushall" | "flushAll" => Some((Critical, "Deletes every key in every Redis database")),
        "flushdb" | "flushDb" => Some((High, "Deletes every key in the Redis database")),
        "delete_many" | "deleteMany" | "remove" | "update_many" | "updateMany"
            if (mongo || c.unresolved_receiver && m != "remove") && empty_filter(c) =>
        {
            Some((High, "Deletes or updates every document of a collection"))
        }
        "delete_many"
        | "deleteMany"
        | "delete_one"
        | "deleteOne"
        | "find_one_and_delete"
        | "findOneAndDelete"
        | "update_many"
        | "updateMany" => Some((Medium, "Deletes or updates documents")),
        "drop" | "drop_collection" | "dropCollection" if mongo => {
            Some((High, "Drops a collection"))
        }
        "delete" | "unlink" | "getdel" if redis => Some((Medium, "Deletes Redis keys")),
        "destroy" | "truncate" if c.name.contains("sequelize") || c.args_contain("truncate") => {
            Some((High, "Deletes every row of a table"))
        }
        "delete" | "update" if c.name.contains(".objects.") => {
            if c.name.contains(".objects.all()") || c.name.ends_with(".objects.delete") {
                Some((High, "Deletes or updates every row of a table"))
            } else {
                Some((Medium, "Deletes or updates table rows"))
            }
        }
        "to_sql" => Some((Medium, "Writes a data frame into a database table")),
        _ => None,
    }
}

fn hardcoded_secret(a: &Analysis) -> Vec<Hit> {
    let mut out = Vec::new();
    for s in &a.strings {
        for m in crate::secrets::find_secrets(&s.value) {
            if m.kind == "generic-assignment" {
                continue;
            }
            out.push(Hit::new(format!("{}: {}", m.description, m.redacted)).at(s.span, s.line));
        }
    }
    // `password = "hunter2"` style assignments (the name is code, the value a literal)
    for m in crate::secrets::find_secrets(&a.executable) {
        if m.kind == "generic-assignment" {
            let line = a
                .executable
                .get(..m.start)
                .map(|p| p.matches('\n').count() as u32 + 1)
                .unwrap_or(1);
            out.push(
                Hit::new(format!("{}: {}", m.description, m.redacted))
                    .at(riskgate_model::Span::new(m.start, m.end), line),
            );
        }
    }
    out
}
