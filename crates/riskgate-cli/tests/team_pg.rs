//! The team's audit trail on a real PostgreSQL server, started here (`initdb` + `pg_ctl` in a
//! temporary directory, on a free local port; as the `postgres` user when run as root).
//! Without a server these tests are skipped with a message — unless `RISKGATE_REQUIRE_PG=1`
//! (set by `.ci/run`), where they fail.
//!
//! - 8 processes × 500 hook calls, the database stopped halfway and restarted while a shipper
//!   keeps trying: every record lands exactly once.
//! - Two machines (two state directories) write, a third reads them all.
//! - The hook server ships in the background (no CLI call): 4 × 100 calls through it, the
//!   database stopped and restarted halfway, every record lands exactly once.
//! - Migrations from an empty database and from a previous schema version.
//! - The approval queue shared by two machines: a request made on one is listed and granted
//!   (or refused) on the other, and the first sees the grant on its next try; with the
//!   database down, the request stays on the machine that made it.

#[cfg(unix)]
mod hooks_common;

#[cfg(unix)]
mod pg {
    use std::net::TcpListener;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// A PostgreSQL server in a temporary directory, stopped when dropped.
    pub struct Server {
        _dir: tempfile::TempDir,
        data: PathBuf,
        bin: PathBuf,
        sock: PathBuf,
        log: PathBuf,
        pub port: u16,
        as_postgres: bool,
    }

    fn bin_dir() -> Option<PathBuf> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|p| p.join("pg_ctl").is_file())
            .collect();
        dirs.sort();
        dirs.pop()
    }

    fn is_root() -> bool {
        Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
    }

    fn free_port() -> Option<u16> {
        TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()
            .map(|a| a.port())
    }

    impl Server {
        fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
            let exe = self.bin.join(tool);
            let mut cmd = if self.as_postgres {
                let mut c = Command::new("runuser");
                c.args(["-u", "postgres", "--"]).arg(&exe);
                c
            } else {
                Command::new(&exe)
            };
            let out = cmd
                .args(args)
                .output()
                .map_err(|e| format!("{tool}: {e}"))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "{tool} {args:?}: {}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ))
            }
        }

        fn try_start() -> Result<Server, String> {
            let bin = bin_dir().ok_or("no /usr/lib/postgresql/*/bin/pg_ctl")?;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let as_postgres = is_root();
            let data = dir.path().join("data");
            let sock = dir.path().join("sock");
            std::fs::create_dir_all(&sock).map_err(|e| e.to_string())?;
            if as_postgres {
                use std::os::unix::fs::PermissionsExt as _;
                let out = Command::new("id")
                    .args(["-u", "postgres"])
                    .output()
                    .map_err(|e| e.to_string())?;
                let uid: u32 = String::from_utf8_lossy(&out.stdout)
                    .trim()
                    .parse()
                    .map_err(|_| "no postgres user".to_string())?;
                std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
                    .map_err(|e| e.to_string())?;
                std::os::unix::fs::chown(&sock, Some(uid), None).map_err(|e| e.to_string())?;
                std::os::unix::fs::chown(dir.path(), Some(uid), None).map_err(|e| e.to_string())?;
            }
            let port = free_port().ok_or("no free port")?;
            let server = Server {
                log: dir.path().join("pg.log"),
                _dir: dir,
                data,
                bin,
                sock,
                port,
                as_postgres,
            };
            let data = server.data.display().to_string();
            server.run(
                "initdb",
                &["-D", &data, "-A", "trust", "-U", "riskgate", "--no-sync"],
            )?;
            server.start()?;
            Ok(server)
        }

        /// A running server, or `None` (skip) — a failure when `RISKGATE_REQUIRE_PG=1`.
        pub fn start_or_skip() -> Option<Server> {
            match Server::try_start() {
                Ok(s) => Some(s),
                Err(e) if std::env::var("RISKGATE_REQUIRE_PG").as_deref() == Ok("1") => {
                    panic!("RISKGATE_REQUIRE_PG=1 and PostgreSQL did not start: {e}")
                }
                Err(e) => {
                    eprintln!("skipped: PostgreSQL did not start ({e})");
                    None
                }
            }
        }

        pub fn start(&self) -> Result<(), String> {
            let opts = format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
                self.port,
                self.sock.display()
            );
            let data = self.data.display().to_string();
            let log = self.log.display().to_string();
            self.run(
                "pg_ctl",
                &["-D", &data, "-o", &opts, "-l", &log, "-w", "start"],
            )
        }

        pub fn stop(&self) -> Result<(), String> {
            let data = self.data.display().to_string();
            self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])
        }

        pub fn url(&self) -> String {
            format!("postgres://riskgate@127.0.0.1:{}/postgres", self.port)
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.stop();
        }
    }

    /// A user policy file naming the team database.
    pub fn configure(root: &Path, url: &str) {
        let dir = root.join("config").join("riskgate");
        std::fs::create_dir_all(&dir).unwrap();
        let text = format!("audit: {{ url: \"{url}\" }}\nhooks: {{ ask_fallback: deny }}\n");
        std::fs::write(dir.join("config.yaml"), text).unwrap();
    }
}

#[cfg(unix)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use serde_json::{Value, json};

    use super::hooks_common::{Env, claude, codex, decision, env, riskgate};
    use super::pg::{Server, configure};

    fn ok(e: &Env, args: &[&str]) -> String {
        let out = riskgate(e).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "riskgate {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn team_log(e: &Env) -> Vec<Value> {
        serde_json::from_str(&ok(
            e,
            &["log", "--team", "--format", "json", "--limit", "1000000"],
        ))
        .unwrap()
    }

    fn hook_call(e: &Env, command: &str) {
        let out = riskgate(e)
            .args(["hook", "claude"])
            .write_stdin(claude(e, "Bash", json!({"command": command})).to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
    }

    #[test]
    fn eight_processes_500_calls_each_database_down_halfway_every_record_once() {
        let Some(pg) = Server::start_or_skip() else {
            return;
        };
        let e = Arc::new(env());
        configure(&e.root, &pg.url());
        ok(&e, &["admin", "migrate"]);
        const WORKERS: usize = 8;
        const CALLS: usize = 500;
        let done_calls = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicBool::new(false));
        let ship_failures = Arc::new(AtomicUsize::new(0));
        let shipper = {
            let (e, finished, failures) = (e.clone(), finished.clone(), ship_failures.clone());
            std::thread::spawn(move || {
                while !finished.load(Ordering::SeqCst) {
                    let out = riskgate(&e).args(["admin", "ship"]).output().unwrap();
                    if !out.status.success() {
                        failures.fetch_add(1, Ordering::SeqCst);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(150));
                }
            })
        };
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (e, done_calls) = (e.clone(), done_calls.clone());
                std::thread::spawn(move || {
                    for i in 0..CALLS {
                        hook_call(&e, &format!("echo worker-{w}-call-{i}"));
                        done_calls.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        let total = WORKERS * CALLS;
        while done_calls.load(Ordering::SeqCst) < total / 2 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        pg.stop().expect("stop halfway");
        while done_calls.load(Ordering::SeqCst) < total * 3 / 4 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        pg.start().expect("restart");
        for w in workers {
            w.join().unwrap();
        }
        finished.store(true, Ordering::SeqCst);
        shipper.join().unwrap();
        assert!(
            ship_failures.load(Ordering::SeqCst) > 0,
            "the shipper never met the stopped database"
        );
        ok(&e, &["admin", "ship"]);
        let rows = team_log(&e);
        let inputs: Vec<&str> = rows.iter().filter_map(|r| r["input"].as_str()).collect();
        let unique: HashSet<&str> = inputs.iter().copied().collect();
        assert_eq!(inputs.len(), total, "every record exactly once");
        assert_eq!(unique.len(), total);
        for w in 0..WORKERS {
            assert!(unique.contains(format!("echo worker-{w}-call-{}", CALLS - 1).as_str()));
        }
        let keys: HashSet<(String, i64)> = rows
            .iter()
            .map(|r| {
                (
                    r["origin"].as_str().unwrap_or("").to_string(),
                    r["local_id"].as_i64().unwrap_or(-1),
                )
            })
            .collect();
        assert_eq!(keys.len(), total);
        assert!(
            rows.iter()
                .all(|r| r["agent"] == "claude" && r["host"].is_string())
        );
        // shipping again sends nothing
        let again: Value =
            serde_json::from_str(&ok(&e, &["admin", "ship", "--format", "json"])).unwrap();
        assert_eq!(again["inserted"], 0);
    }

    #[test]
    fn two_machines_write_and_a_third_reads() {
        let Some(pg) = Server::start_or_skip() else {
            return;
        };
        let (a, b, reader) = (env(), env(), env());
        for e in [&a, &b, &reader] {
            configure(&e.root, &pg.url());
        }
        ok(&reader, &["admin", "migrate"]);
        for i in 0..5 {
            hook_call(&a, &format!("echo from-a-{i}"));
        }
        for i in 0..3 {
            hook_call(&b, &format!("git push --force origin main # from-b-{i}"));
        }
        // `riskgate log` ships the journal of the machine it runs on
        ok(&a, &["log"]);
        ok(&b, &["admin", "ship"]);
        let rows = team_log(&reader);
        assert_eq!(rows.len(), 8, "{rows:#?}");
        let origins: HashSet<&str> = rows.iter().filter_map(|r| r["origin"].as_str()).collect();
        assert_eq!(origins.len(), 2);
        assert_eq!(
            rows.iter()
                .filter(|r| r["input"].as_str().is_some_and(|s| s.contains("from-b")))
                .filter(|r| r["decision"] == "deny" && r["level"] == "HIGH")
                .count(),
            3
        );
        assert!(rows.iter().all(|r| r["repository"].is_string()));
        // filters work on the team's records too
        let denied: Vec<Value> = serde_json::from_str(&ok(
            &reader,
            &["log", "--team", "--decision", "deny", "--format", "json"],
        ))
        .unwrap();
        assert_eq!(denied.len(), 3);
    }

    #[test]
    fn migrations_from_empty_and_from_the_previous_version() {
        let Some(pg) = Server::start_or_skip() else {
            return;
        };
        let e = env();
        configure(&e.root, &pg.url());
        let status = |e: &Env| -> Value {
            serde_json::from_str(&ok(e, &["admin", "status", "--format", "json"])).unwrap()
        };
        assert_eq!(status(&e)["version"], 0);
        // an unmigrated database is refused by shipping, and the records are kept
        hook_call(&e, "echo before-migration");
        let out = riskgate(&e).args(["admin", "ship"]).output().unwrap();
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("riskgate admin migrate"));
        // the previous version, with a record written by the previous riskgate
        let out: Value = serde_json::from_str(&ok(
            &e,
            &["admin", "migrate", "--to", "1", "--format", "json"],
        ))
        .unwrap();
        assert_eq!(
            (out["before"].as_i64(), out["after"].as_i64()),
            (Some(0), Some(1))
        );
        let mut client = riskgate_team::store::connect(&pg.url()).unwrap();
        client
            .execute(
                "INSERT INTO riskgate_decisions (origin, local_id, ts_us, time, source, cwd, kind,
                     input, level, score, rules, decision, decided_by, reason, latency_us)
                 VALUES ('old', 1, 1, '1970-01-01T00:00:00Z', 'cli', '/w', 'command', 'ls',
                     'SAFE', 0, '[]', 'allow', 'policy', 'safe', 3)",
                &[],
            )
            .unwrap();
        let latest = i64::from(riskgate_team::store::LATEST);
        let out: Value =
            serde_json::from_str(&ok(&e, &["admin", "migrate", "--format", "json"])).unwrap();
        assert_eq!(
            (out["before"].as_i64(), out["after"].as_i64()),
            (Some(1), Some(latest))
        );
        assert_eq!(status(&e)["version"], latest);
        // migrating again does nothing
        let out: Value =
            serde_json::from_str(&ok(&e, &["admin", "migrate", "--format", "json"])).unwrap();
        assert_eq!(
            (out["before"].as_i64(), out["after"].as_i64()),
            (Some(latest), Some(latest))
        );
        // the approval queue's tables came with version 3
        let n: i64 = client
            .query_one("SELECT count(*) FROM riskgate_requests", &[])
            .unwrap()
            .get(0);
        assert_eq!(n, 0);
        ok(&e, &["admin", "ship"]);
        let rows = team_log(&e);
        assert_eq!(rows.len(), 2, "{rows:#?}");
        assert!(
            rows.iter()
                .any(|r| r["origin"] == "old" && r["host"].is_null())
        );
        assert!(rows.iter().any(|r| r["input"] == "echo before-migration"));
    }

    #[test]
    fn a_password_in_the_url_is_refused() {
        let e = env();
        configure(&e.root, "postgres://riskgate:secret@127.0.0.1:1/postgres");
        let out = riskgate(&e).args(["config", "show"]).output().unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("RISKGATE_PG_PASSWORD"),
            "{out:?}"
        );
    }

    /// A codex hook call on the machine `e` (named `host`): its decision and answer.
    fn codex_on(e: &Env, host: &str, command: &str) -> (Option<String>, String) {
        let out = riskgate(e)
            .env("HOSTNAME", host)
            .args(["hook", "codex"])
            .write_stdin(codex(e, "Bash", json!({"command": command})).to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        (decision("codex", &stdout), format!("{stdout}\n{stderr}"))
    }

    fn request_id(answer: &str) -> String {
        let at = answer
            .find("Approval requested: request ")
            .unwrap_or_else(|| panic!("no request in {answer}"));
        answer[at + "Approval requested: request ".len()..]
            .chars()
            .take(6)
            .collect()
    }

    fn on(e: &Env, host: &str, args: &[&str]) -> String {
        let out = riskgate(e)
            .env("HOSTNAME", host)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "riskgate {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[test]
    fn a_request_made_on_one_machine_is_decided_on_another() {
        let Some(pg) = Server::start_or_skip() else {
            return;
        };
        let (agent, reviewer) = (env(), env());
        for e in [&agent, &reviewer] {
            configure(&e.root, &pg.url());
        }
        ok(&reviewer, &["admin", "migrate"]);
        const PUSH: &str = "git push --force origin main";
        let (d, out) = codex_on(&agent, "build-a", PUSH);
        assert_eq!(d.as_deref(), Some("deny"), "{out}");
        let id = request_id(&out);
        // in the team's database, not in the agent machine's own queue
        assert!(
            !agent
                .root
                .join("state")
                .join("riskgate")
                .join("queue.db")
                .exists(),
            "no local queue"
        );
        let pending: Vec<Value> = serde_json::from_str(&on(
            &reviewer,
            "laptop-b",
            &["approvals", "pending", "--format", "json"],
        ))
        .unwrap();
        assert_eq!(pending.len(), 1, "{pending:#?}");
        assert_eq!(pending[0]["id"], id.as_str());
        assert_eq!(pending[0]["host"], "build-a");
        assert_eq!(pending[0]["input"], PUSH);
        // asking again gives the same request
        let (_, again) = codex_on(&agent, "build-a", PUSH);
        assert_eq!(request_id(&again), id);
        on(
            &reviewer,
            "laptop-b",
            &["approvals", "grant", &id, "--once", "--reviewer", "bob"],
        );
        // the agent's machine sees the grant on its next try: once
        let (d, out) = codex_on(&agent, "build-a", PUSH);
        assert_ne!(d.as_deref(), Some("deny"), "{out}");
        let (d, out) = codex_on(&agent, "build-a", PUSH);
        assert_eq!(d.as_deref(), Some("deny"), "{out}");
        let second = request_id(&out);
        assert_ne!(second, id);
        // a grant is for the machine that asked: the identical action elsewhere is not let through
        on(
            &reviewer,
            "laptop-b",
            &[
                "approvals",
                "grant",
                &second,
                "--ttl",
                "1h",
                "--reviewer",
                "bob",
            ],
        );
        let (d, _) = codex_on(&agent, "build-c", PUSH);
        assert_eq!(d.as_deref(), Some("deny"));
        let (d, _) = codex_on(&agent, "build-a", PUSH);
        assert_ne!(d.as_deref(), Some("deny"));

        // a refusal on the reviewer's machine is told to the agent
        let (_, out) = codex_on(&agent, "build-a", "git reset --hard HEAD~3");
        let reset = request_id(&out);
        on(
            &reviewer,
            "laptop-b",
            &[
                "approvals",
                "refuse",
                &reset,
                "--reason",
                "revert instead",
                "--reviewer",
                "bob",
            ],
        );
        let (d, out) = codex_on(&agent, "build-a", "git reset --hard HEAD~3");
        assert_eq!(d.as_deref(), Some("deny"));
        assert!(
            out.contains("refused by bob") && out.contains("revert instead"),
            "{out}"
        );
        // the reviews are audited on the reviewer's machine, and shipped
        let rows = team_log(&reviewer);
        let by_bob = |decision: &str| {
            rows.iter()
                .filter(|r| r["decided_by"] == "reviewer:bob" && r["decision"] == decision)
                .count()
        };
        assert_eq!((by_bob("allow"), by_bob("deny")), (2, 1), "{rows:#?}");

        // the database down: the request stays on the agent's machine, with a warning
        pg.stop().expect("stop");
        let (d, out) = codex_on(&agent, "build-a", "git push --force origin dev");
        assert_eq!(d.as_deref(), Some("deny"), "{out}");
        assert!(out.contains("kept in this machine's queue"), "{out}");
        let local = request_id(&out);
        let out = riskgate(&agent)
            .env("HOSTNAME", "build-a")
            .args(["approvals", "pending", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("not available"));
        let listed: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0]["id"], local.as_str());
    }

    #[test]
    fn the_hook_server_ships_in_the_background_exactly_once() {
        let Some(pg) = Server::start_or_skip() else {
            return;
        };
        let e = Arc::new(env());
        configure(&e.root, &pg.url());
        ok(&e, &["admin", "migrate"]);
        let served = |e: &Env| {
            let mut c = riskgate(e);
            c.env("RISKGATE_HOOK_SERVER", "1")
                .env("RISKGATE_HOOK_SERVER_IDLE_SECS", "120")
                .env("XDG_RUNTIME_DIR", e.root.join("run"));
            c
        };
        const WORKERS: usize = 4;
        const CALLS: usize = 100;
        let total = WORKERS * CALLS;
        let done = Arc::new(AtomicUsize::new(0));
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (e, done) = (e.clone(), done.clone());
                std::thread::spawn(move || {
                    for i in 0..CALLS {
                        let out = served(&e)
                            .args(["hook", "claude"])
                            .write_stdin(
                                claude(
                                    &e,
                                    "Bash",
                                    json!({"command": format!("echo served-{w}-{i}")}),
                                )
                                .to_string(),
                            )
                            .output()
                            .unwrap();
                        assert_eq!(out.status.code(), Some(0));
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        while done.load(Ordering::SeqCst) < total / 2 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        pg.stop().expect("stop halfway");
        std::thread::sleep(std::time::Duration::from_secs(3));
        pg.start().expect("restart");
        for w in workers {
            w.join().unwrap();
        }
        // read the database directly: no riskgate CLI call ships anything here
        let mut client = riskgate_team::store::connect(&pg.url()).unwrap();
        let all = riskgate::gate::AuditQuery {
            limit: Some(1_000_000),
            ..riskgate::gate::AuditQuery::default()
        };
        let start = std::time::Instant::now();
        let rows = loop {
            let rows = riskgate_team::read::records(&mut client, &all).unwrap();
            if rows.len() >= total || start.elapsed() > std::time::Duration::from_secs(60) {
                break rows;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        let stop = served(&e).args(["hook-server", "--stop"]).output().unwrap();
        assert!(stop.status.success());
        assert_eq!(rows.len(), total, "every record exactly once");
        let inputs: HashSet<&str> = rows.iter().map(|r| r.record.input.as_str()).collect();
        assert_eq!(inputs.len(), total);
        let keys: HashSet<(&str, i64)> = rows
            .iter()
            .map(|r| (r.origin.as_str(), r.record.id))
            .collect();
        assert_eq!(keys.len(), total);
        // and nothing is left to ship
        let again: Value =
            serde_json::from_str(&ok(&e, &["admin", "ship", "--format", "json"])).unwrap();
        assert_eq!(again["inserted"], 0);
    }
}
