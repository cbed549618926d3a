//! Shell commands embedded in other programs' arguments, which those programs run through a
//! shell: `script -c CMD`, `vim -c '!CMD'`, `tar --checkpoint-action=exec=CMD`,
//! `awk 'BEGIN { system("CMD") }'`, `perl -e 'system("CMD")'` (and Ruby, PHP, Python
//! `os.system`), remote runners (`pssh -i CMD`, `pdsh -w hosts CMD`, `gcloud compute ssh
//! --command CMD`), GNU sed's `e` command and `s///e` flag (`sed`), PowerShell (`pwsh -c
//! SCRIPT`, `powershell -EncodedCommand B64`, read as PowerShell) and cmd.exe (`cmd /c LINE`,
//! read as cmd.exe). Each text found is parsed as a nested script by the walker, in its shell.

use crate::Shell;
use crate::model::Word;

mod adhoc;
mod anycode;
pub(crate) mod awk;
mod gitcfg;
mod jvm;
mod langs;
mod lua;
pub(crate) mod prints;
mod rlang;
mod sed;
mod stdin;
mod unread;

pub(crate) use stdin::{
    script_file_operand, stdin_commands, translates_script_file, translates_stdin,
};

/// The word standing for a line of sed's input in a command a sed script builds from it.
pub(crate) const SED_LINE: &str = sed::LINE;

/// One embedded command: the program that runs it, the text, and a remote target if the
/// text runs on other hosts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Embedded {
    pub runner: String,
    pub text: String,
    pub remote: Option<String>,
    /// Part of the text is data the program reads (a line of sed's input run by `s///e`).
    pub from_input: bool,
    /// The shell that reads `text`.
    pub shell: Shell,
    /// The text was decoded (`-EncodedCommand`).
    pub decoded: bool,
}

/// The text a terminal multiplexer types into a session (`tmux send-keys -t s 'TEXT' Enter`,
/// `screen -X stuff 'TEXT\r'`), without its final newline or key names.
pub(crate) fn typed_text(program: &str, args: &[&str]) -> Option<String> {
    let text = match program {
        "screen" => {
            let k = args.iter().position(|a| *a == "stuff")?;
            args.get(k + 1)?.to_string()
        }
        "tmux" => {
            let k = args
                .iter()
                .position(|a| matches!(*a, "send-keys" | "send"))?;
            let mut rest: Vec<&str> = Vec::new();
            let mut i = k + 1;
            while let Some(a) = args.get(i) {
                if matches!(*a, "-t" | "-N" | "-c") {
                    i += 2;
                    continue;
                }
                if !a.starts_with('-') && !matches!(*a, "Enter" | "C-m" | "KPEnter") {
                    rest.push(a);
                }
                i += 1;
            }
            rest.join(" ")
        }
        _ => return None,
    };
    let t = text.trim_end_matches(['\r', '\n']).to_string();
    (!t.trim().is_empty()).then_some(t)
}

fn emb(runner: &str, text: &str, remote: Option<&str>) -> Embedded {
    Embedded {
        runner: runner.to_string(),
        text: text.to_string(),
        remote: remote.map(str::to_string),
        from_input: false,
        shell: Shell::Bash,
        decoded: false,
    }
}

/// The embedded commands of `program` run with the raw `argv` (argv[0] is the program).
pub(crate) fn commands(program: &str, argv: &[Word]) -> Vec<Embedded> {
    let args: Vec<&str> = argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let mut out = Vec::new();
    match program {
        "script" => {
            // `script -c CMD`, `-qc CMD`, `--command CMD`, `--command=CMD`.
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if let Some(v) = a.strip_prefix("--command=") {
                    out.push(emb(program, v, None));
                } else if *a == "--command"
                    || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('c'))
                {
                    if let Some(v) = args.get(i + 1) {
                        out.push(emb(program, v, None));
                    }
                    i += 1;
                }
                i += 1;
            }
        }
        "vim" | "vi" | "nvim" | "ex" | "view" | "vimdiff" | "gvim" => {
            // `-c '!CMD'`, `-c ':!CMD'`, `+'!CMD'`, `--cmd '!CMD'`; also `:silent !CMD`.
            let mut i = 0;
            while let Some(a) = args.get(i) {
                let cmd = if *a == "-c" || *a == "--cmd" {
                    i += 1;
                    args.get(i).copied()
                } else {
                    a.strip_prefix('+')
                };
                if let Some(c) = cmd.and_then(vim_shell) {
                    out.push(emb(program, c, None));
                }
                i += 1;
            }
        }
        // Emacs Lisp given with `--eval`: `(shell-command "CMD")` runs CMD; deleting a file
        // or a directory is the `rm` of it
        "emacs" | "emacsclient" => {
            let mut i = 0;
            while let Some(a) = args.get(i) {
                let code = if *a == "--eval" || *a == "-eval" {
                    i += 1;
                    args.get(i).copied()
                } else {
                    a.strip_prefix("--eval=")
                };
                if let Some(code) = code {
                    for s in
                        called_strings(code, &["(shell-command", "(call-process-shell-command"])
                    {
                        out.push(emb(program, &s, None));
                    }
                    for (call, rm) in [("(delete-directory", "rm -r"), ("(delete-file", "rm -f")] {
                        for p in called_strings(code, &[call]) {
                            // `(delete-directory "P" t)`: recursive
                            let rm = if rm == "rm -r" && code.contains(" t)") {
                                "rm -rf"
                            } else {
                                rm
                            };
                            // a plain path stays unquoted so that `~` is the home
                            let plain = p
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || "/._-~+@:".contains(c));
                            let word = if plain {
                                p.clone()
                            } else {
                                format!("'{}'", p.replace('\'', ""))
                            };
                            out.push(emb(program, &format!("{rm} -- {word}"), None));
                        }
                    }
                }
                i += 1;
            }
        }
        "tar" | "gtar" | "bsdtar" => {
            for a in &args {
                for key in [
                    "--checkpoint-action=exec=",
                    "--to-command=",
                    "--use-compress-program=",
                    "--info-script=",
                    "--new-volume-script=",
                ] {
                    if let Some(v) = a.strip_prefix(key) {
                        out.push(emb(program, v, None));
                    }
                }
            }
        }
        // `zip -T -TT CMD`, `--unzip-command CMD`: the archive test runs CMD through the shell
        "zip" => {
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if (*a == "-TT" || *a == "--unzip-command")
                    && let Some(v) = args.get(i + 1)
                {
                    out.push(emb(program, v, None));
                    i += 1;
                } else if let Some(v) = a
                    .strip_prefix("--unzip-command=")
                    .or_else(|| a.strip_prefix("-TT").filter(|v| !v.is_empty()))
                {
                    out.push(emb(program, v, None));
                }
                i += 1;
            }
        }
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => {
            for s in awk::commands(&args) {
                out.push(emb(program, &s, None));
            }
        }
        // AppleScript: `do shell script "CMD"` runs CMD with sh.
        "osascript" => {
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if *a == "-e"
                    && let Some(code) = args.get(i + 1)
                {
                    for s in called_strings(code, &["do shell script"]) {
                        out.push(emb(program, &s.replace("\\\"", "\""), None));
                    }
                    i += 1;
                }
                i += 1;
            }
        }
        "perl" | "ruby" | "php" | "python" | "python2" | "python3" | "node" | "nodejs" | "bun"
        | "deno" => {
            for code in one_liner_code(program, &args) {
                let calls: &[&str] = match program {
                    "perl" => &["system", "exec", "qx"],
                    "ruby" => &[
                        "system",
                        "exec",
                        "spawn",
                        "%x",
                        "IO.popen",
                        "Open3.capture2",
                    ],
                    "php" => &[
                        "system",
                        "exec",
                        "shell_exec",
                        "passthru",
                        "popen",
                        "proc_open",
                    ],
                    "node" | "nodejs" | "bun" | "deno" => &["execSync", "exec", "spawnSync"],
                    _ => &[
                        "os.system",
                        "os.popen",
                        "subprocess.run",
                        "subprocess.call",
                        "subprocess.check_output",
                        "subprocess.Popen",
                    ],
                };
                for s in called_strings(code, calls) {
                    out.push(emb(program, &s, None));
                }
                if program != "python" && !program.starts_with("python") {
                    let js = matches!(program, "node" | "nodejs" | "bun" | "deno");
                    for s in backtick_strings(code) {
                        // zx / Bun shell templates: `${process.env.HOME}` is `$HOME`.
                        let s = if js { js_env_to_shell(&s) } else { s };
                        out.push(emb(program, &s, None));
                    }
                }
            }
        }
        // JVM scripts: `groovy -e CODE`, `kotlinc -e CODE`, `kotlin -e CODE`
        "groovy" | "kotlinc" | "kotlin" | "kotlinc-jvm" => {
            for code in one_liner_code("ruby", &args) {
                for s in jvm::commands(code) {
                    out.push(emb(program, &s, None));
                }
            }
        }
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" => {
            for code in one_liner_code(program, &args) {
                for s in called_strings(code, &["os.execute", "io.popen"]) {
                    out.push(emb(program, &s, None));
                }
                for s in lua::lua_commands(code) {
                    out.push(emb(program, &s, None));
                }
            }
        }
        // R: `Rscript -e CODE`, `R -e CODE` (system, system2, unlink, file.remove, source(URL))
        "Rscript" | "rscript" | "R" | "r" => {
            for code in one_liner_code("ruby", &args) {
                for s in rlang::r_commands(code) {
                    out.push(emb(program, &s, None));
                }
            }
        }
        // PowerShell: `pwsh -c SCRIPT`, `powershell -Command …`, `-EncodedCommand B64`
        "pwsh" | "powershell" | "pwsh-preview" | "powershell_ise" => {
            if let Some((script, decoded)) = langs::powershell_script(&args) {
                let mut e = emb(program, &script, None);
                e.runner = if decoded {
                    format!("{program} -EncodedCommand")
                } else {
                    format!("{program} -Command")
                };
                e.shell = Shell::PowerShell;
                e.decoded = decoded;
                out.push(e);
            }
        }
        // cmd.exe: `cmd /c LINE`, `cmd /k LINE`, `cmd /s /c "LINE"`
        "cmd" => {
            if let Some(k) = args.iter().position(|a| {
                let l = a.to_ascii_lowercase();
                l == "/c" || l == "/k" || l == "/r" || l == "-c"
            }) {
                let line = crate::windows::cmdtext::cmd_c_line(args.get(k + 1..).unwrap_or(&[]));
                if !line.trim().is_empty() {
                    let mut e = emb(program, &line, None);
                    e.runner = "cmd /c".into();
                    e.shell = Shell::Cmd;
                    out.push(e);
                }
            }
        }
        // `wmic process call create "LINE"`: a process started with that command line
        "wmic" => {
            if let Some(line) = crate::windows::cmdtext::wmic_created(&args) {
                let mut e = emb(program, &line, None);
                e.runner = "wmic process call create".into();
                e.shell = Shell::Cmd;
                out.push(e);
            }
        }
        // `tmux new -d 'CMD'`, `tmux split-window CMD`, `tmux send-keys -t s 'CMD' Enter`.
        "tmux" => {
            let sub = args.iter().position(|a| !a.starts_with('-'));
            let Some(k) = sub else { return out };
            let takes_value = [
                "-s", "-n", "-t", "-c", "-x", "-y", "-e", "-F", "-l", "-L", "-S", "-f", "-p",
            ];
            let mut rest: Vec<&str> = Vec::new();
            let mut i = k + 1;
            while let Some(a) = args.get(i) {
                if takes_value.contains(a) {
                    i += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    rest.push(a);
                }
                i += 1;
            }
            let text = match args[k] {
                "new-session" | "new" | "new-window" | "neww" | "split-window" | "splitw"
                | "respawn-pane" | "respawnp" | "respawn-window" | "respawnw" | "run-shell"
                | "run" => rest.join(" "),
                "send-keys" | "send" => typed_text(program, &args).unwrap_or_default(),
                _ => String::new(),
            };
            if !text.is_empty() {
                out.push(emb(program, &text, None));
            }
        }
        // `screen -S s -X stuff 'CMD\r'`: text typed into a session's window runs there
        "screen" => {
            if let Some(text) = typed_text(program, &args) {
                out.push(emb(program, &text, None));
            }
        }
        // fleet tools' ad-hoc commands (`ansible web -b -m shell -a …`, `salt '*' cmd.run …`,
        // `fab -H h -- …`): run on their hosts
        "ansible" | "salt" | "salt-ssh" | "fab" | "fabric" | "fab2" => {
            for a in adhoc::commands(program, &args) {
                out.push(emb(program, &a.text, Some(&a.hosts)));
            }
        }
        "pssh" | "parallel-ssh" | "pdsh" | "clush" => {
            // `pssh -h hosts.txt -i 'CMD'`: the last argument that is not an option value.
            let takes_value = [
                "-h", "-H", "-l", "-p", "-o", "-e", "-t", "-O", "-x", "-X", "-w", "-g", "-x", "-R",
                "-f", "-b",
            ];
            let mut last = None;
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if takes_value.contains(a) {
                    i += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    last = Some(*a);
                }
                i += 1;
            }
            if let Some(c) = last {
                out.push(emb(program, c, Some("(hosts)")));
            }
        }
        // `gcloud compute ssh VM --command CMD` (also `tpus tpu-vm ssh`).
        "gcloud" if args.contains(&"ssh") => {
            let host = args
                .iter()
                .skip_while(|a| **a != "ssh")
                .nth(1)
                .copied()
                .filter(|h| !h.starts_with('-'));
            let mut i = 0;
            while let Some(a) = args.get(i) {
                let v = if *a == "--command" {
                    i += 1;
                    args.get(i).copied()
                } else {
                    a.strip_prefix("--command=")
                };
                if let Some(v) = v {
                    out.push(emb(program, v, Some(host.unwrap_or("(vm)"))));
                }
                i += 1;
            }
        }
        p if unread::code(p, &args).is_some() => {
            if let Some(code) = unread::code(p, &args) {
                let cmds = unread::commands(code);
                if !cmds.is_empty() {
                    out.push(emb(program, &cmds.join("\n"), None));
                }
            }
        }
        // the remote shell rsync and scp start (`rsync -e 'sh -c …'`, `scp -S prog`), and
        // ssh options a local shell runs (ProxyCommand, LocalCommand, KnownHostsCommand)
        "rsync" | "scp" | "sftp" | "ssh" | "autossh" => {
            let shell_opts: &[&str] = match program {
                "rsync" => &["-e", "--rsh"],
                "scp" | "sftp" => &["-S"],
                _ => &[],
            };
            for (k, a) in args.iter().enumerate() {
                let v = if shell_opts.contains(a) {
                    args.get(k + 1).copied()
                } else if program == "rsync" {
                    a.strip_prefix("--rsh=")
                } else {
                    None
                };
                if let Some(v) = v.filter(|v| v.contains(char::is_whitespace)) {
                    out.push(emb(program, v, None));
                }
                if program == "rsync" {
                    continue;
                }
                let opt = if *a == "-o" {
                    args.get(k + 1).copied()
                } else {
                    a.strip_prefix("-o").filter(|o| !o.is_empty())
                };
                let Some((key, value)) = opt.and_then(|o| o.split_once(['=', ' '])) else {
                    continue;
                };
                if matches!(
                    key.trim().to_ascii_lowercase().as_str(),
                    "proxycommand" | "localcommand" | "knownhostscommand"
                ) && !value.trim().eq_ignore_ascii_case("none")
                {
                    out.push(emb(program, value.trim(), None));
                }
            }
        }
        "git" => {
            for c in gitcfg::commands(&args) {
                out.push(emb("git config", &c, None));
            }
        }
        // `less +'!CMD' FILE`: less runs `!CMD` through the shell at start
        "less" | "more" => {
            for a in &args {
                if let Some(c) = a
                    .strip_prefix('+')
                    .map(|r| r.trim_start_matches(':'))
                    .and_then(|r| r.strip_prefix('!'))
                    .filter(|c| !c.trim().is_empty())
                {
                    out.push(emb(program, c, None));
                }
            }
        }
        "sed" | "gsed" => {
            for c in sed::commands(&args) {
                out.push(Embedded {
                    from_input: c.from_input,
                    ..emb(program, &c.text, None)
                });
            }
        }
        _ => {}
    }
    // a second, language-neutral reading of code read here in part (see `anycode`)
    // (one script, so that a file downloaded by one call and run by the next is one flow)
    for code in partly_read_code(program, &args) {
        let new: Vec<String> = anycode::commands(code)
            .into_iter()
            .filter(|c| !out.iter().any(|e| e.text == *c))
            .collect();
        if !new.is_empty() {
            out.push(emb(program, &new.join("\n"), None));
        }
    }
    out
}

/// The code of interpreters whose own reader covers part of their language (JVM, Lua, R,
/// AppleScript, Emacs Lisp, awk, `php artisan tinker`), for [`anycode`]'s second reading.
fn partly_read_code<'a>(program: &str, args: &[&'a str]) -> Vec<&'a str> {
    match program {
        "groovy" | "kotlinc" | "kotlin" | "kotlinc-jvm" | "Rscript" | "rscript" | "R" | "r" => {
            one_liner_code("ruby", args)
        }
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" => one_liner_code("lua", args),
        "osascript" => option_values(args, &["-e"]),
        "emacs" | "emacsclient" => option_values(args, &["--eval", "-eval"]),
        "php" if args.contains(&"tinker") => option_values(args, &["--execute"]),
        "php" | "node" | "nodejs" | "bun" | "deno" => one_liner_code(program, args),
        "tsx" | "ts-node" => one_liner_code("node", args),
        p if p.starts_with("python") => one_liner_code("python", args),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => {
            // the program text: the first word that is not an option or an option's value
            let mut i = 0;
            while let Some(a) = args.get(i) {
                match *a {
                    "-f" | "--file" => return Vec::new(),
                    "-F" | "-v" | "--assign" | "--field-separator" => i += 2,
                    "--" => return args.get(i + 1).copied().into_iter().collect(),
                    a if a.starts_with('-') && a.len() > 1 => i += 1,
                    a => return vec![a],
                }
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// The values of `opts` in `args` (`-e V`, `--eval V`, `--eval=V`).
fn option_values<'a>(args: &[&'a str], opts: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (k, a) in args.iter().enumerate() {
        if opts.contains(a) {
            out.extend(args.get(k + 1).copied());
        } else if let Some((flag, v)) = a.split_once('=')
            && opts.contains(&flag)
        {
            out.push(v);
        }
    }
    out
}

/// A vim command that runs a shell command: `!CMD`, `:!CMD`, `silent !CMD`, `r !CMD`.
fn vim_shell(c: &str) -> Option<&str> {
    let c = c.trim_start_matches(':').trim_start();
    let c = c
        .strip_prefix("silent")
        .or_else(|| c.strip_prefix("r "))
        .or_else(|| c.strip_prefix("read "))
        .map_or(c, str::trim_start);
    c.strip_prefix('!').map(str::trim).filter(|s| !s.is_empty())
}

/// The code of `-e` / `-r` / `-c` / `--eval` one-liners.
fn one_liner_code<'a>(program: &str, args: &[&'a str]) -> Vec<&'a str> {
    let flags: &[&str] = match program {
        "perl" => &["-e", "-E"],
        "ruby" => &["-e"],
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" => &["-e"],
        "php" => &["-r"],
        "node" | "nodejs" | "bun" => &["-e", "--eval", "-p", "--print"],
        "deno" => &["eval"],
        _ => &["-c"],
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if flags.contains(a) {
            if let Some(v) = args.get(i + 1) {
                out.push(*v);
            }
            i += 2;
            continue;
        }
        // Attached or clustered: `-le 'code'`, `-ne'code'` (not `-MLWP::Simple`, `-Ilib`).
        if program == "perl"
            && a.starts_with('-')
            && !a.starts_with("--")
            && !a.starts_with("-M")
            && !a.starts_with("-m")
            && !a.starts_with("-I")
            && let Some(pos) = a.find(['e', 'E'])
        {
            let rest = &a[pos + 1..];
            if rest.is_empty() {
                if let Some(v) = args.get(i + 1) {
                    out.push(*v);
                }
                i += 2;
                continue;
            }
            out.push(rest);
        }
        i += 1;
    }
    out
}

/// String literals passed as the first argument to any of `calls`: `system("rm -rf ~")`,
/// `os.system('…')`, `exec "…"`, `qx(…)`.
fn called_strings(code: &str, calls: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for call in calls {
        let mut from = 0;
        while let Some(pos) = code.get(from..).and_then(|s| s.find(call)) {
            let at = from + pos;
            from = at + call.len();
            // A whole name: not `mysystem(`.
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = code[from..].trim_start();
            let rest = rest.strip_prefix('(').map_or(rest, str::trim_start);
            if let Some(s) = leading_string(rest) {
                out.push(s);
            }
        }
    }
    out
}

/// The shell lines Rust code runs through a shell: the string arguments of a `Command` whose
/// program is a shell (`Command::new("sh").arg("-c").arg("curl … | sh")`).
pub(crate) fn rust_shell_lines(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, _) in code.match_indices("Command::new(").take(32) {
        let rest = &code[k + "Command::new(".len()..];
        let Some(program) = leading_string(rest.trim_start()) else {
            continue;
        };
        let base = program.rsplit('/').next().unwrap_or(&program).to_string();
        if !crate::unwrap::is_shell(&base) {
            continue;
        }
        // the arguments of this command, up to the end of its statement
        let stmt = rest.split(';').next().unwrap_or(rest);
        for s in called_strings(stmt, &[".arg"]) {
            if s != "-c" && s.contains(' ') {
                out.push(s);
            }
        }
    }
    out
}

/// Backtick command strings: `` `rm -rf ~` ``.
/// `${process.env.NAME}` / `${Deno.env.get("NAME")}` → `${NAME}`; `${os.homedir()}` → `~`.
fn js_env_to_shell(s: &str) -> String {
    let mut out = s
        .replace("${os.homedir()}", "~")
        .replace("${require('os').homedir()}", "~")
        .replace("${process.env.", "${");
    for q in ['"', '\''] {
        out = out.replace(&format!("${{Deno.env.get({q}"), "${");
        out = out.replace(&format!("{q})}}"), "}");
    }
    out
}

fn backtick_strings(code: &str) -> Vec<String> {
    code.split('`')
        .enumerate()
        .filter(|(k, s)| k % 2 == 1 && !s.trim().is_empty())
        .map(|(_, s)| s.to_string())
        .collect()
}

/// The string literal at the start of `s` (`"…"` or `'…'`, simple escapes), if any.
fn leading_string(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let q = chars.next().filter(|c| *c == '"' || *c == '\'')?;
    let mut out = String::new();
    let mut esc = false;
    for c in chars {
        if esc {
            out.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else if c == q {
            return Some(out);
        } else {
            out.push(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<Word> {
        v.iter()
            .map(|t| Word {
                text: t.to_string(),
                dynamic: false,
            })
            .collect()
    }

    fn texts(v: &[&str]) -> Vec<String> {
        commands(v[0], &words(v))
            .into_iter()
            .map(|e| e.text)
            .collect()
    }

    #[test]
    fn finds_embedded_commands() {
        assert_eq!(
            texts(&["script", "-qc", "rm -rf ~", "/dev/null"]),
            ["rm -rf ~"]
        );
        assert_eq!(
            texts(&["vim", "-es", "-c", "!rm -rf ~", "-c", "q"]),
            ["rm -rf ~"]
        );
        assert_eq!(
            texts(&[
                "tar",
                "-cf",
                "/dev/null",
                "--checkpoint-action=exec=rm -rf ~"
            ]),
            ["rm -rf ~"]
        );
        assert_eq!(
            texts(&["zip", "-q", "z.zip", "a", "-T", "-TT", "rm -rf ~ #"]),
            ["rm -rf ~ #"]
        );
        assert_eq!(
            texts(&["zip", "z.zip", "a", "-T", "--unzip-command=rm -rf ~"]),
            ["rm -rf ~"]
        );
        assert!(texts(&["zip", "-r", "z.zip", "src", "-T"]).is_empty());
        assert_eq!(
            texts(&["awk", "BEGIN { system(\"rm -rf ~\") }"]),
            ["rm -rf ~"]
        );
        assert_eq!(
            texts(&["awk", "BEGIN { print \"rm -rf ~\" | \"sh\" }"]),
            ["rm -rf ~"]
        );
        assert_eq!(texts(&["perl", "-e", "system(\"rm -rf ~\")"]), ["rm -rf ~"]);
        assert_eq!(texts(&["ruby", "-e", "system('rm -rf /*')"]), ["rm -rf /*"]);
        assert_eq!(texts(&["php", "-r", "system(\"rm -rf ~\");"]), ["rm -rf ~"]);
        assert_eq!(
            texts(&["python3", "-c", "import os; os.system('rm -rf ~')"]),
            ["rm -rf ~"]
        );
        assert_eq!(
            texts(&["pssh", "-h", "hosts.txt", "-i", "sudo rm -rf /var/log/*"]),
            ["sudo rm -rf /var/log/*"]
        );
        let g = commands(
            "gcloud",
            &words(&[
                "gcloud",
                "compute",
                "ssh",
                "prod-vm",
                "--zone",
                "z",
                "--command",
                "sudo rm -rf /x",
            ]),
        );
        assert_eq!(g[0].text, "sudo rm -rf /x");
        assert_eq!(g[0].remote.as_deref(), Some("prod-vm"));
    }

    #[test]
    fn ordinary_use_embeds_nothing() {
        assert!(texts(&["vim", "-c", "set nu", "file.txt"]).is_empty());
        assert!(texts(&["awk", "{ print $1 }", "file"]).is_empty());
        assert!(texts(&["perl", "-ne", "print if /x/", "f"]).is_empty());
        assert!(texts(&["tar", "-czf", "a.tgz", "dir"]).is_empty());
        assert!(texts(&["python3", "-c", "print(mysystem('x'))"]).is_empty());
    }
}
