//! MEDIUM, LOW and SAFE default rules.

use riskgate_model::RiskLevel;

use super::super::analysis::Store;
use super::super::commands as cmd;
use super::super::matchers::{self as m, call_hit, calls, cmd_hit, cmds};
use super::super::resources;
use super::super::rule::{Hit, RiskRule};
use super::data::{database_modify, hardcoded_secret};
use super::{join, rule};

use RiskLevel::{Low, Medium, Safe};

/// Push the MEDIUM, LOW and SAFE rules.
pub(super) fn push(r: &mut Vec<RiskRule>) {
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
                let walks = super::super::effects::walks_regenerable_only(a);
                calls(a, |c| {
                    m::is_file_delete(c)
                        && (super::super::effects::is_regenerable_delete(c)
                            || walks && super::super::effects::target_is_variable(c))
                })
            },
        )
        .score(40)
        .tags(&["filesystem"]),
    );

    r.push(
        rule(
            "temp_cleanup",
            Low,
            "Deletes a temporary directory the code created itself",
            true,
            |a| calls(a, super::super::tempdirs::is_temp_delete),
        )
        .score(18)
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
}
