//! CRITICAL and HIGH default rules.

use riskgate_model::RiskLevel;

use super::super::analysis::Analysis;
use super::super::commands as cmd;
use super::super::matchers::{self as m, call_hit, calls, cmd_hit, cmds};
use super::super::resources;
use super::super::rule::{Hit, RiskRule};
use super::data::drop_database;
use super::{join, rule};

use RiskLevel::{Critical, High};
use riskgate_model::effect::TargetClass;

/// Targets a build or a run recreates.
const REGENERABLE: &[TargetClass] = &[TargetClass::BuildOutput, TargetClass::Temp];
/// Files of the project and regenerable ones.
const PROJECT_OR_REGENERABLE: &[TargetClass] = &[
    TargetClass::BuildOutput,
    TargetClass::Temp,
    TargetClass::Project,
];

/// Push the CRITICAL and HIGH rules.
pub(super) fn push(r: &mut Vec<RiskRule>) {
    // ---- CRITICAL ----
    r.push(
        rule(
            "rm_recursive",
            Critical,
            "Recursive file deletion can cause irreversible data loss",
            false,
            // the code's own cleanup of regenerable output (`FileUtils.rm_rf("tmp/cache")`) is
            // rated as the shell rates that `rm -rf`
            |a| {
                cmds(a, |c| {
                    cmd::rm_recursive(c) && !cmd::deletes_only(c, REGENERABLE)
                })
            },
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
            "tree_rewrite",
            High,
            "Rewrites the files of a whole directory tree in place (the shape of ransomware)",
            false,
            tree_rewrite,
        )
        .score(78)
        .tags(&["filesystem", "destructive"])
        .mitigation("Write changed copies to a new directory and keep the originals"),
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
                let mocked = super::super::effects::mocked(a);
                let walks = super::super::effects::walks_regenerable_only(a);
                join(
                    calls(a, |c| {
                        let cleanup = super::super::effects::is_regenerable_delete(c)
                            || walks && super::super::effects::target_is_variable(c)
                            || super::super::tempdirs::is_temp_delete(c);
                        let mock = mocked.iter().any(|n| c.is(&[n.as_str()]));
                        m::is_file_delete(c) && !cleanup && !mock
                    }),
                    // files of the project deleted one by one (`unlink glob("*.tmp")`): as
                    // the shell rates that `rm`
                    cmds(a, |c| {
                        cmd::deletes_files(c)
                            && !cmd::rm_recursive(c)
                            && !cmd::targets_only(c, PROJECT_OR_REGENERABLE)
                    }),
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
                        m::is_network_write(c) && !super::super::effects::is_loopback_call(c)
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
            |a| {
                let mut hits = join(calls(a, m::is_cloud_delete), cmds(a, cmd::cloud_delete));
                if m::imports_cloud_sdk(a) {
                    hits.extend(calls(a, m::is_untraced_cloud_delete));
                }
                hits
            },
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
}

fn is_remote_or_decoded(c: &super::super::analysis::Call) -> bool {
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

/// Code that walks a directory tree outside the project (`os.walk('/srv')`, `Path.home().rglob(
/// '*')`, `fs.readdirSync('/data', {recursive: true})`) and writes to files it found (a path
/// it computed, not one it names): every file of that tree rewritten, as encrypting them for a
/// ransom does.
fn tree_rewrite(a: &Analysis) -> Vec<Hit> {
    use super::super::analysis::ArgValue;
    let walked = a.calls.iter().find_map(|c| {
        let walks = c.is(&["os.walk", "os.fwalk", "glob.glob", "glob.iglob"])
            || matches!(
                c.method.as_str(),
                "rglob" | "walk" | "readdirSync" | "readdir"
            ) && (c.method != "readdirSync" && c.method != "readdir"
                || c.args.iter().any(|x| x.text.contains("recursive")));
        if !walks {
            return None;
        }
        let root = match c.arg(0).map(|x| &x.value) {
            Some(ArgValue::Str(p)) => p.clone(),
            _ if c.name.contains("home()") || c.name.contains("expanduser") => "~".to_string(),
            _ => return None,
        };
        let root = root
            .split("**")
            .next()
            .unwrap_or(&root)
            .trim_end_matches('/')
            .to_string();
        let class =
            riskgate_model::effect::classify_path(if root.is_empty() { "/" } else { &root });
        matches!(
            class,
            TargetClass::Root
                | TargetClass::System
                | TargetClass::Home
                | TargetClass::UserData
                | TargetClass::Backups
                | TargetClass::Logs
                | TargetClass::Boot
                | TargetClass::Credentials
        )
        .then_some(root)
    });
    let Some(root) = walked else {
        return Vec::new();
    };
    calls(a, |c| {
        m::is_file_write(c)
            && c.arg(0)
                .or_else(|| c.kwarg("file"))
                .is_some_and(|x| !matches!(x.value, ArgValue::Str(_)))
    })
    .into_iter()
    .map(|mut h| {
        h.reason = Some(format!(
            "Rewrites the files it walks under `{root}` in place (the shape of ransomware)"
        ));
        h.resources.push(format!("file:{root}/**"));
        h
    })
    .collect()
}
