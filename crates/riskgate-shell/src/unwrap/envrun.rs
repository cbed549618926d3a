//! Environment runners: a subcommand that runs a command inside a project's or a toolchain's
//! environment (`poetry run`, `uv run --with X`, `conda run -n base`, `bundle exec`, `nix
//! develop -c`, `mise exec --`, `op run --`, `direnv exec DIR`), described as data
//! ([`RUNNERS`]), and the peel that reads them. What such a runner runs is the command, with
//! the environment's tools on its PATH; the runner adds nothing the rules should forgive.

use super::*;

/// One environment runner.
struct EnvRunner {
    /// Program names.
    names: &'static [&'static str],
    /// The subcommand that runs a command (empty: the program itself does).
    sub: &'static [&'static str],
    /// Short options taking a value (before and after the subcommand).
    short_arg: &'static str,
    /// Long options taking a value (without `=`).
    long_arg: &'static [&'static str],
    /// Positionals between the subcommand and the command (`direnv exec DIR`).
    skip: usize,
    /// The command comes only after `--` (`mise exec node@20 -- CMD`, `op run -- CMD`).
    after_dashdash: bool,
    /// Options whose following words are the command (`nix develop -c CMD …`).
    command_opt: &'static [&'static str],
    /// Options whose value is a shell string (`nix-shell --run 'CMD'`).
    script_opt: &'static [&'static str],
    /// The last operand is a shell string (`scl enable COLLECTION 'CMD'`).
    script_last: bool,
    /// A version may come before the command (`nvm exec 20 CMD`, `nvm exec lts/iron CMD`).
    version: bool,
}

const R: EnvRunner = EnvRunner {
    names: &[],
    sub: &[],
    short_arg: "",
    long_arg: &[],
    skip: 0,
    after_dashdash: false,
    command_opt: &[],
    script_opt: &[],
    script_last: false,
    version: false,
};

/// Python environments' value options common to uv's subcommands.
const UV_LONG: &[&str] = &[
    "--with",
    "--with-editable",
    "--with-requirements",
    "--python",
    "--project",
    "--directory",
    "--package",
    "--env-file",
    "--group",
    "--extra",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "--from",
    "--config-file",
    "--cache-dir",
];

static RUNNERS: &[EnvRunner] = &[
    EnvRunner {
        names: &["poetry"],
        sub: &["run"],
        short_arg: "CP",
        long_arg: &["--directory", "--project"],
        ..R
    },
    EnvRunner {
        names: &["pipenv", "rye", "pdm", "hatch", "devbox", "flox"],
        sub: &["run"],
        short_arg: "pe",
        long_arg: &["--project", "--env", "--config"],
        ..R
    },
    EnvRunner {
        names: &["uv"],
        sub: &["run"],
        short_arg: "p",
        long_arg: UV_LONG,
        ..R
    },
    EnvRunner {
        names: &["uvx"],
        short_arg: "p",
        long_arg: UV_LONG,
        ..R
    },
    EnvRunner {
        names: &["pipx"],
        sub: &["run"],
        long_arg: &["--spec", "--python", "--pip-args", "--index-url"],
        ..R
    },
    EnvRunner {
        names: &["conda", "mamba", "micromamba"],
        sub: &["run"],
        short_arg: "np",
        long_arg: &["--name", "--prefix", "--cwd", "--root-prefix"],
        ..R
    },
    EnvRunner {
        names: &["pixi"],
        sub: &["run", "exec"],
        short_arg: "e",
        long_arg: &["--environment", "--manifest-path", "--spec", "--with"],
        ..R
    },
    EnvRunner {
        names: &["bundle", "bundler"],
        sub: &["exec"],
        long_arg: &["--gemfile"],
        ..R
    },
    EnvRunner {
        names: &["asdf", "rbenv", "pyenv", "nodenv", "goenv", "jenv", "plenv"],
        sub: &["exec"],
        ..R
    },
    EnvRunner {
        names: &["volta"],
        sub: &["run"],
        long_arg: &["--node", "--npm", "--yarn", "--pnpm", "--env"],
        ..R
    },
    EnvRunner {
        names: &["nvm"],
        sub: &["exec"],
        version: true,
        ..R
    },
    EnvRunner {
        names: &["fnm"],
        sub: &["exec"],
        long_arg: &["--using"],
        ..R
    },
    EnvRunner {
        names: &["direnv"],
        sub: &["exec"],
        skip: 1,
        ..R
    },
    EnvRunner {
        names: &["envdir"],
        skip: 1,
        ..R
    },
    EnvRunner {
        names: &["mise", "rtx"],
        sub: &["exec", "x"],
        after_dashdash: true,
        ..R
    },
    // secret injectors: the command runs with the secrets in its environment
    EnvRunner {
        names: &["op", "doppler", "infisical", "dotenv", "dotenvx", "teller"],
        sub: &["run", "exec"],
        after_dashdash: true,
        ..R
    },
    EnvRunner {
        names: &["dotenv", "dotenvx"],
        after_dashdash: true,
        ..R
    },
    EnvRunner {
        names: &["nix"],
        sub: &["shell", "develop"],
        command_opt: &["-c", "--command"],
        ..R
    },
    EnvRunner {
        names: &["nix-shell"],
        script_opt: &["--run", "--command"],
        ..R
    },
    EnvRunner {
        names: &["scl"],
        sub: &["enable"],
        script_last: true,
        ..R
    },
];

/// Skip options (with their values per the runner) from `i`; stops at `--` (not consumed).
fn skip_runner_opts(argv: &[XWord], mut i: usize, r: &EnvRunner) -> usize {
    while let Some(w) = argv.get(i) {
        let t = w.text();
        if t == "--" || !t.starts_with('-') || t == "-" {
            return i;
        }
        i += 1;
        if t.starts_with("--") {
            if !t.contains('=') && r.long_arg.contains(&t) {
                i += 1;
            }
            continue;
        }
        if t.len() == 2 && r.short_arg.contains(&t[1..]) {
            i += 1;
        }
    }
    i
}

/// `nix run INSTALLABLE -- ARGS`: the installable's program (`nixpkgs#coreutils` →
/// `coreutils`, `github:o/r#pkgs.x86_64-linux.tool` → `tool`) run with ARGS.
fn peel_nix_run(argv: &[XWord]) -> Option<Peeled> {
    let words: Vec<&str> = argv.iter().map(XWord::text).collect();
    if words.get(1) != Some(&"run") {
        return None;
    }
    let dd = words.iter().position(|w| *w == "--");
    let before = &words[2..dd.unwrap_or(words.len())];
    let installable = before.iter().find(|w| !w.starts_with('-'))?;
    let attr = installable.rsplit('#').next()?.rsplit('.').next()?;
    if attr.is_empty() || argv.iter().any(|w| w.w.dynamic && w.text() == *installable) {
        return None;
    }
    let mut inner = vec![XWord::lit(attr)];
    if let Some(k) = dd {
        inner.extend(argv.get(k + 1..).unwrap_or(&[]).iter().cloned());
    }
    peeled(
        wrapper(
            "nix run",
            argv.get(1..dd.unwrap_or(argv.len())).unwrap_or(&[]),
        ),
        Next::Argv(inner),
    )
}

/// Remove an environment runner from `argv`, if it is one (see [`RUNNERS`]). The runner's own
/// command is kept as a command of its own: what it fetches or which environment it selects
/// (`uvx --from git+https://…`, `doppler run --config prd`) is rated there.
pub(super) fn peel_env_runner(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    let mut p = peel_runner(prog, argv)?;
    p.keep = Some(argv.to_vec());
    Some(p)
}

fn peel_runner(prog: &str, argv: &[XWord]) -> Option<Peeled> {
    if prog == "nix" && argv.get(1).map(XWord::text) == Some("run") {
        return peel_nix_run(argv);
    }
    let r = RUNNERS
        .iter()
        .find(|r| r.names.contains(&prog) && (r.sub.is_empty() || sub_at(argv, r).is_some()))?;
    let mut i = 1;
    if !r.sub.is_empty() {
        i = sub_at(argv, r)? + 1;
    }
    let label = match r.sub.is_empty() {
        true => prog.to_string(),
        false => format!("{prog} {}", argv.get(i - 1).map(XWord::text).unwrap_or("")),
    };
    let words: Vec<&str> = argv.iter().map(XWord::text).collect();
    // options whose value is a shell string, or after which the command follows
    for (k, t) in words.iter().enumerate().skip(i) {
        if *t == "--" {
            break;
        }
        if let Some((flag, v)) = t.split_once('=')
            && r.script_opt.contains(&flag)
        {
            let mut w = argv.get(k)?.clone();
            w.w.text = v.to_string();
            return peeled(
                wrapper(&label, argv.get(i..k).unwrap_or(&[])),
                Next::Script(vec![w]),
            );
        }
        if r.script_opt.contains(t) {
            let value = argv.get(k + 1)?.clone();
            return peeled(
                wrapper(&label, argv.get(i..k).unwrap_or(&[])),
                Next::Script(vec![value]),
            );
        }
        if r.command_opt.contains(t) {
            let rest = argv.get(k + 1..).filter(|r| !r.is_empty())?.to_vec();
            return peeled(
                wrapper(&label, argv.get(i..k).unwrap_or(&[])),
                Next::Argv(rest),
            );
        }
    }
    if !r.command_opt.is_empty() || !r.script_opt.is_empty() {
        // an interactive shell of the environment: nothing to unwrap
        return None;
    }
    if r.script_last {
        let last = argv.last().filter(|_| argv.len() > i + 1)?;
        return peeled(
            wrapper(&label, argv.get(i..argv.len() - 1).unwrap_or(&[])),
            Next::Script(vec![last.clone()]),
        );
    }
    let start = if r.after_dashdash {
        words.iter().skip(i).position(|w| *w == "--")? + i + 1
    } else {
        let mut j = skip_runner_opts(argv, i, r);
        if words.get(j) == Some(&"--") {
            j += 1;
        }
        for _ in 0..r.skip {
            j = skip_runner_opts(argv, j + 1, r);
        }
        if r.version && words.get(j).is_some_and(|w| looks_like_version(w)) {
            j = skip_runner_opts(argv, j + 1, r);
        }
        if words.get(j) == Some(&"--") {
            j += 1;
        }
        j
    };
    let mut rest = argv.get(start..).filter(|r| !r.is_empty())?.to_vec();
    // `hatch run test:pytest`: an environment's script or command, named ENV:CMD
    if prog == "hatch"
        && let Some(first) = rest.first_mut()
        && let Some((_, cmd)) = first.w.text.split_once(':')
        && !cmd.is_empty()
    {
        first.w.text = cmd.to_string();
    }
    peeled(
        wrapper(&label, argv.get(1..start).unwrap_or(&[])),
        Next::Argv(rest),
    )
}

/// A version or alias of a toolchain (`20`, `v18.19.0`, `lts/iron`, `node`, `system`).
fn looks_like_version(w: &str) -> bool {
    let v = w.strip_prefix('v').unwrap_or(w);
    v.starts_with(|c: char| c.is_ascii_digit())
        || w.starts_with("lts/")
        || matches!(w, "node" | "stable" | "system" | "default" | "iojs" | "lts")
}

/// Where the runner's subcommand is: the first positional, after global options.
fn sub_at(argv: &[XWord], r: &EnvRunner) -> Option<usize> {
    let k = skip_runner_opts(argv, 1, r);
    argv.get(k)
        .filter(|w| !w.w.dynamic && r.sub.contains(&w.text()))
        .map(|_| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inner(cmd: &str) -> Option<(String, Vec<String>)> {
        let argv: Vec<XWord> = cmd.split_whitespace().map(XWord::lit).collect();
        let prog = argv.first()?.text().to_string();
        let p = peel_env_runner(&prog, &argv)?;
        match p.next {
            Next::Argv(v) => Some((
                "argv".into(),
                v.iter().map(|w| w.text().to_string()).collect(),
            )),
            Next::Script(v) => Some((
                "script".into(),
                v.iter().map(|w| w.text().to_string()).collect(),
            )),
            Next::Nothing => None,
        }
    }

    fn argv(cmd: &str) -> Vec<String> {
        inner(cmd).map(|(_, v)| v).unwrap_or_default()
    }

    #[test]
    fn the_command_an_environment_runs() {
        assert_eq!(argv("poetry run rm -rf x"), ["rm", "-rf", "x"]);
        assert_eq!(argv("poetry -C app run pytest -q"), ["pytest", "-q"]);
        assert_eq!(
            argv("uv run --with pymysql python -c x"),
            ["python", "-c", "x"]
        );
        assert_eq!(
            argv("uvx --from httpie http DELETE u"),
            ["http", "DELETE", "u"]
        );
        assert_eq!(argv("conda run -n base rm x"), ["rm", "x"]);
        assert_eq!(argv("bundle exec rake db:drop"), ["rake", "db:drop"]);
        assert_eq!(argv("direnv exec . make deploy"), ["make", "deploy"]);
        assert_eq!(argv("mise exec node@20 -- npm test"), ["npm", "test"]);
        assert_eq!(argv("op run --env-file x -- ./deploy.sh"), ["./deploy.sh"]);
        assert_eq!(argv("nix develop -c cargo test"), ["cargo", "test"]);
        assert_eq!(
            argv("nix run nixpkgs#coreutils -- rm -rf x"),
            ["coreutils", "rm", "-rf", "x"]
        );
        assert_eq!(argv("hatch run test:pytest -x"), ["pytest", "-x"]);
        assert_eq!(argv("nvm exec 20 npm test"), ["npm", "test"]);
        assert_eq!(argv("nvm exec npm test"), ["npm", "test"]);
        assert_eq!(
            inner("nix-shell -p jq --run ls"),
            Some(("script".into(), vec!["ls".into()]))
        );
        assert_eq!(
            inner("scl enable devtoolset-9 make"),
            Some(("script".into(), vec!["make".into()]))
        );
    }

    #[test]
    fn runners_without_a_command_stay() {
        assert!(inner("poetry install").is_none());
        assert!(inner("nix develop").is_none());
        assert!(inner("mise exec node@20").is_none());
        assert!(inner("conda run").is_none());
    }
}
