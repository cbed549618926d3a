//! Shell normalization: bash text → [`ParsedCommand`], every simple command that would run,
//! with canonical argv (see ../shared/DESIGN.md, "Shell normalization").
//!
//! Modules: [`walk`](crate) (the AST walk), `words` (expansion), `command` (one simple
//! command: unwrap, canonicalize, follow), `unwrap` (wrappers), `canon` + `aliases` (canonical
//! argv and the alias table), `interp` (interpreter and database one-liners), `payload`
//! (pipelines, downloads, decoded payloads), `escapes` (`$'…'`, printf, echo -e), `fallback`
//! (best-effort splits on a syntax error or past a bound), `flat` (the linear scan past a
//! bound), `limits` (the bounds and the pre-scans that keep the bash parser safe), `watchdog`
//! (the deadline that does not need the parser's cooperation), `windows` (PowerShell and
//! cmd.exe text into the same model: [`parse_as`] with [`Shell::PowerShell`] or
//! [`Shell::Cmd`]; clearly PowerShell text given as bash is read both ways).

mod aliases;
mod arith;
mod braces;
mod canon;
mod clictx;
mod command;
mod ctx;
mod embedded;
mod escapes;
mod expect;
mod fallback;
mod flat;
mod globs;
mod interp;
mod jqtext;
mod limits;
mod listing;
mod memo;
mod model;
mod nushell;
mod othershell;
mod paramops;
mod payload;
mod progword;
mod reqfile;
mod script;
mod taskfiles;
mod unwrap;
mod walk;
mod watchdog;
mod windows;
mod words;

pub use memo::{parse_kept, parse_shared};
pub use model::*;
pub use riskgate_model::Shell;
pub use watchdog::runaway_workers;
pub use windows::{looks_like_cmd, looks_like_powershell};

use std::time::Duration;

use ctx::{Frame, Norm};

/// The values a word stands for. A variable that `read` fills inside a loop holds every line
/// read, one per line (see `listing.rs`): each line is one value the loop reaches (`while read
/// -r p; do rm -rf "$p"; done < list` deletes each path of the list). At most
/// [`MAX_WORD_VALUES`] of them; a word of one line is itself.
///
/// ```
/// let v: Vec<&str> = riskgate_shell::word_values("/var/cache/apt\n/usr/lib\n").collect();
/// assert_eq!(v, ["/var/cache/apt", "/usr/lib"]);
/// assert_eq!(riskgate_shell::word_values(" a b ").collect::<Vec<_>>(), [" a b "]);
/// ```
pub fn word_values(text: &str) -> impl Iterator<Item = &str> {
    let several = text.contains('\n');
    let lines = text
        .lines()
        .filter(move |_| several)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(MAX_WORD_VALUES);
    (!several).then_some(text).into_iter().chain(lines)
}

/// How many values of a word holding several lines are looked at.
pub const MAX_WORD_VALUES: usize = 16;

/// Whether `program` is a shell that runs script files and `-c` strings (`bash`, `zsh`, `fish`,
/// `nu`, `xonsh` …): one list for the normalizer and the rules.
pub fn is_shell(program: &str) -> bool {
    unwrap::is_shell(program)
}

/// Whether `c` is a shell that runs the script its standard input holds (`bash -s`, `sh`):
/// the normalizer's own test for here-documents and pipes fed to shells, for the rules that
/// ask whether a file given as input is a script or data. Other readers of commands (`at`,
/// `parallel`) are not shells: a file they read is still what the rules see.
pub fn runs_stdin_as_script(c: &SimpleCommand) -> bool {
    unwrap::is_shell(&c.program)
        && interp::stdin_reader(&c.program, &c.raw_argv) == Some(interp::Reader::Shell)
}

/// Whether `c` writes data received from elsewhere to its standard output: a downloader
/// (`curl`, `wget` …), or a copy from a bucket, another host, a remote repository or a
/// container to stdout (`aws s3 cp s3://b/k -`, `gsutil cat`, `git archive --remote`,
/// `docker cp c:/f -`). A command run on another host (`ssh h cat f`) has
/// [`SimpleCommand::remote`] instead.
pub fn is_download(c: &SimpleCommand) -> bool {
    payload::is_downloader(c)
}

/// The file names a `find` selects, from its words (`-name '*.conf'` → `*.conf`; a path
/// pattern's last part, `-path '*wp-admin/index.php'` → `index.php`): the last part of the
/// glob its matches are written as (`ROOT/**/NAME`). None when it selects every file.
pub fn find_name_pattern<'a>(words: &[&'a str]) -> Option<&'a str> {
    let value = |flags: &[&str]| {
        words
            .windows(2)
            .find(|w| flags.contains(&w[0]))
            .map(|w| w[1])
    };
    if let Some(n) = value(&["-name", "-iname"]) {
        return (!n.contains('/')).then_some(n);
    }
    value(&["-path", "-ipath", "-wholename", "-iwholename"])
        .and_then(|p| p.rsplit('/').next())
        .filter(|n| !n.is_empty())
}

/// Whether `program` is a database client that runs the SQL it is given (`psql`, `mysql`,
/// `sqlite3`, `clickhouse-client` …, and PowerShell's SQL cmdlets).
pub fn is_sql_client(program: &str) -> bool {
    interp::language(program) == Some(NestedLanguage::Sql)
}

/// Bounds on normalization work. Every bound that is hit is reported as a
/// [`ParseIssue::Limit`] naming it (and the result is not [`ParsedCommand::fully_parsed`]);
/// what lies past it is still scanned by a linear splitter, so the commands that are visible
/// are found (see `fallback::split_flat`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest input given to the bash parser, in bytes. A larger input is split by the
    /// fallback splitters only.
    pub max_input_bytes: usize,
    /// Largest input read at all, in bytes (by the linear splitter); the rest is ignored.
    pub max_scan_bytes: usize,
    /// Deepest nesting of shells, substitutions and wrappers followed.
    pub max_depth: u32,
    /// Most simple commands fully analyzed; past it, only commands not seen before are
    /// recorded, up to twice this.
    pub max_commands: usize,
    /// Time budget (400 ms; 4 s in a debug build): past it the bash parser is no longer used
    /// and the input is scanned by the linear splitter.
    pub max_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 * 1024,
            max_scan_bytes: 16 * 1024 * 1024,
            max_depth: 16,
            max_commands: 4096,
            // Unoptimized builds (tests) are about ten times slower: the same margin.
            max_time: Duration::from_millis(if cfg!(debug_assertions) { 4000 } else { 400 }),
        }
    }
}

/// Normalize `input` with default [`Limits`], as bash (clearly PowerShell text is read as
/// PowerShell too: see [`parse_as`]).
pub fn parse(input: &str) -> ParsedCommand {
    parse_with(input, &Limits::default())
}

/// Normalize `input` within `limits`, as bash (clearly PowerShell text read as PowerShell
/// too). Never panics (a bug that would is contained: the result then says it is incomplete)
/// and never takes much longer than [`Limits::max_time`] (past it, the linear scan alone
/// answers: see [`watchdog`]); past a bound the result says so in [`ParsedCommand::issues`].
pub fn parse_with(input: &str, limits: &Limits) -> ParsedCommand {
    parse_as_with(input, None, limits)
}

/// Normalize `input` written for `shell`. `None` is bash, except that text which is clearly
/// PowerShell ([`looks_like_powershell`]: a cmdlet, a PowerShell-only alias, `$x = …`) is read
/// as PowerShell and as bash, and the commands of both readings are kept (whether it is
/// complete is the PowerShell reading's): reading it that way never loses what bash's reading
/// finds. `Some(Shell::Bash)` is bash only.
pub fn parse_as(input: &str, shell: Option<Shell>) -> ParsedCommand {
    parse_as_with(input, shell, &Limits::default())
}

/// [`parse_as`] within `limits`.
pub fn parse_as_with(input: &str, shell: Option<Shell>, limits: &Limits) -> ParsedCommand {
    match watchdog::run(input, limits, shell, guarded) {
        Ok(parsed) => parsed,
        Err(watchdog::Stopped::Deadline) => {
            let why = format!(
                "the parser did not finish within {} ms",
                watchdog::deadline(limits).as_millis()
            );
            flat_only(input, limits, why)
        }
        Err(watchdog::Stopped::Busy) => flat_only(
            input,
            limits,
            "earlier inputs still hold the parser past their time budget".into(),
        ),
    }
}

/// Normalization with a panic contained.
fn guarded(input: &str, limits: &Limits, shell: Option<Shell>) -> ParsedCommand {
    std::panic::catch_unwind(|| match shell {
        Some(Shell::Bash) => with_windows_reading(input, limits, parse_here(input, limits), true),
        Some(s) => parse_windows(input, limits, s),
        None if windows::looks_like_powershell(input) => {
            let ps = parse_windows(input, limits, Shell::PowerShell);
            merge_bash(ps, parse_here(input, limits))
        }
        None => with_windows_reading(input, limits, parse_here(input, limits), false),
    })
    .unwrap_or_else(|_| flat_only(input, limits, "internal error during normalization".into()))
}

/// PowerShell or cmd.exe text.
fn parse_windows(input: &str, limits: &Limits, shell: Shell) -> ParsedCommand {
    let mut n = Norm::new(input, *limits);
    let top = Frame::top();
    let mut text = input;
    if input.len() > limits.max_input_bytes {
        n.limit(format!(
            "input larger than {} bytes (only the first part was read)",
            limits.max_input_bytes
        ));
        text = input
            .get(..floor_char_boundary(input, limits.max_input_bytes))
            .unwrap_or("");
    }
    let _ = match shell {
        Shell::Cmd => n.cmd_text(text, &top),
        _ => n.ps_text(text, &top),
    };
    n.finish()
}

/// The PowerShell reading of clearly PowerShell text, with the commands bash's reading found
/// that are programs (not cmdlet names, PowerShell-only aliases or dynamic words, which are
/// bash misreading PowerShell); its signals and nested code with them. Complete when the
/// PowerShell reading is.
fn merge_bash(mut ps: ParsedCommand, bash: ParsedCommand) -> ParsedCommand {
    let mut map: Vec<Option<usize>> = Vec::with_capacity(bash.commands.len());
    let keep = |c: &SimpleCommand| {
        !c.program_dynamic
            && !c.program.is_empty()
            && !windows::cmdlets::is_cmdlet_name(&c.program)
            && windows::cmdlets::alias(&c.program)
                .is_none_or(|_| windows::cmdlets::UNIX_NAMES.contains(&c.program.as_str()))
            && !c
                .program
                .starts_with(['$', '[', '{', '}', '(', '@', '&', '.', '%', '?'])
    };
    let start = ps.commands.len();
    let mut kept: Vec<SimpleCommand> = Vec::new();
    for c in &bash.commands {
        if keep(c) {
            map.push(Some(start + kept.len()));
            kept.push(c.clone());
        } else {
            map.push(None);
        }
    }
    let re = |i: usize| map.get(i).copied().flatten();
    for mut c in kept {
        if let Some(StdinSource::Pipe { index }) = c.stdin {
            c.stdin = re(index).map(|index| StdinSource::Pipe { index });
        }
        ps.commands.push(c);
    }
    for s in bash.signals {
        let s = match s {
            Signal::DynamicProgram { index } => {
                re(index).map(|index| Signal::DynamicProgram { index })
            }
            Signal::DynamicEval { index } => re(index).map(|index| Signal::DynamicEval { index }),
            Signal::ShellFromStdin { index } => {
                re(index).map(|index| Signal::ShellFromStdin { index })
            }
            Signal::DownloadToShell { downloader, shell } => re(downloader)
                .zip(re(shell))
                .map(|(downloader, shell)| Signal::DownloadToShell { downloader, shell }),
            Signal::EncodedToShell {
                decoder,
                shell,
                decoded,
            } => re(decoder)
                .zip(re(shell))
                .map(|(decoder, shell)| Signal::EncodedToShell {
                    decoder,
                    shell,
                    decoded,
                }),
            Signal::RecursiveFork { name, index } => {
                re(index).map(|index| Signal::RecursiveFork { name, index })
            }
        };
        if let Some(s) = s
            && !ps.signals.contains(&s)
        {
            ps.signals.push(s);
        }
    }
    for mut n in bash.nested {
        if let Some(i) = re(n.command_index) {
            n.command_index = i;
            ps.nested.push(n);
        }
    }
    for s in bash.scripts {
        if !ps.scripts.contains(&s) && ps.scripts.len() < 64 {
            ps.scripts.push(s);
        }
    }
    ps
}

/// Bash's reading of text that is evidently cmd.exe ([`windows::looks_like_cmd`]: `del /s /q
/// C:\\x`, `rd /s /q D:\\Backups`) or, when the caller said bash (`powershell`: agents' hooks
/// on Windows send PowerShell as "bash" too), PowerShell: the other dialect's commands, signals
/// and nested code are added to bash's reading, which keeps all of its own (its completeness
/// included), so the rating is never lower than bash's alone.
fn with_windows_reading(
    input: &str,
    limits: &Limits,
    mut bash: ParsedCommand,
    powershell: bool,
) -> ParsedCommand {
    let dialect = if windows::looks_like_cmd(input) {
        Shell::Cmd
    } else if powershell && windows::looks_like_powershell(input) {
        Shell::PowerShell
    } else {
        return bash;
    };
    let win = parse_windows(input, limits, dialect);
    let off = bash.commands.len();
    let re = |i: usize| i + off;
    for mut c in win.commands {
        if let Some(StdinSource::Pipe { index }) = c.stdin {
            c.stdin = Some(StdinSource::Pipe { index: re(index) });
        }
        bash.commands.push(c);
    }
    for s in win.signals {
        let s = match s {
            Signal::DynamicProgram { index } => Signal::DynamicProgram { index: re(index) },
            Signal::DynamicEval { index } => Signal::DynamicEval { index: re(index) },
            Signal::ShellFromStdin { index } => Signal::ShellFromStdin { index: re(index) },
            Signal::DownloadToShell { downloader, shell } => Signal::DownloadToShell {
                downloader: re(downloader),
                shell: re(shell),
            },
            Signal::EncodedToShell {
                decoder,
                shell,
                decoded,
            } => Signal::EncodedToShell {
                decoder: re(decoder),
                shell: re(shell),
                decoded,
            },
            Signal::RecursiveFork { name, index } => Signal::RecursiveFork {
                name,
                index: re(index),
            },
        };
        bash.signals.push(s);
    }
    for mut n in win.nested {
        n.command_index = re(n.command_index);
        bash.nested.push(n);
    }
    for s in win.scripts {
        if !bash.scripts.contains(&s) && bash.scripts.len() < 64 {
            bash.scripts.push(s);
        }
    }
    bash
}

fn parse_here(input: &str, limits: &Limits) -> ParsedCommand {
    let mut n = Norm::new(input, *limits);
    let top = Frame::top();
    if input.len() > limits.max_input_bytes {
        n.limit(format!(
            "input larger than {} bytes (not given to the bash parser)",
            limits.max_input_bytes
        ));
        let cut = floor_char_boundary(input, limits.max_input_bytes);
        // The head split with quotes, then all of it (up to `max_scan_bytes`) linearly.
        let _ = n.fallback_only(input.get(..cut).unwrap_or(""), &top);
        let _ = n.flat_extract(input, &top);
        return n.finish();
    }
    let _ = n.parse_text(input, &top);
    n.walk_uncalled_functions();
    if n.limits_hit > 0 {
        // A bound was hit somewhere (out of time, a word refused, too deep …): the whole input
        // is scanned linearly too, so that nothing visible is lost.
        let _ = n.flat_extract(input, &top);
    }
    n.finish()
}

/// The linear split alone, itself guarded, with `why` as the bound that was hit: the result
/// when normalization panicked (a bug) or ran past its deadline.
fn flat_only(input: &str, limits: &Limits, why: String) -> ParsedCommand {
    let flat = std::panic::catch_unwind(|| {
        let mut n = Norm::new(input, *limits);
        n.brush_off = true;
        n.limit(why.clone());
        let _ = n.flat_extract(input, &Frame::top());
        n.finish()
    });
    flat.unwrap_or_else(|_| ParsedCommand {
        source: input.to_string(),
        commands: Vec::new(),
        nested: Vec::new(),
        signals: Vec::new(),
        scripts: Vec::new(),
        fully_parsed: false,
        issues: vec![ParseIssue::Limit { message: why }],
    })
}

/// The largest char boundary of `s` at or below `at`.
pub(crate) fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut cut = at.min(s.len());
    while cut > 0 && !s.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}
