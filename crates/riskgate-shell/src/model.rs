//! The normalized structure of a shell script: [`ParsedCommand`] (seed 004's `ParsedCommand`).
//!
//! These types are the contract between normalization and the rules engine. Fields may be
//! added; renaming or removing one changes every consumer.

use riskgate_model::Span;
use serde::{Deserialize, Serialize};

/// One word of a canonical argv.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Word {
    /// The word after quote removal and literal expansion. `~` and `$HOME` are rewritten to a
    /// leading `~` (so `$HOME/.ssh` reads `~/.ssh`). A dynamic part keeps its source text
    /// (`$1`, `$(date)`).
    pub text: String,
    /// True when part of the word is only known at run time (an unresolved variable, a command
    /// substitution, a glob that the shell will expand is *not* dynamic).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dynamic: bool,
}

/// A wrapper that was unwrapped to reach a command, outermost first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wrapper {
    /// The wrapper's canonical name: `sudo`, `env`, `timeout`, `bash -c`, `eval`, `xargs`,
    /// `find -exec`, `ssh`, `heredoc`, `$(…)`, `base64 -d` …
    pub name: String,
    /// The wrapper's own arguments that were skipped (e.g. `5` for `timeout 5`, the host for ssh).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// A redirection attached to a simple command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redirect {
    /// The operator: `>`, `>>`, `<`, `>|`, `&>`, `2>`, `<<`, `<<<` …
    pub op: String,
    /// The target (file path, fd, or here-doc/here-string body), canonicalized like a [`Word`].
    pub target: Word,
}

/// What feeds a command's standard input, when that matters for risk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StdinSource {
    /// A pipe from the command at `index` in [`ParsedCommand::commands`].
    Pipe {
        /// Index of the producing command.
        index: usize,
    },
    /// A here-document or here-string.
    Heredoc,
    /// A file redirect (`< file`).
    File {
        /// The file.
        path: String,
    },
}

/// Where a simple command was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Directly in the script.
    Script,
    /// Inside `$(…)` or backticks.
    CommandSubstitution,
    /// Inside `<(…)` or `>(…)`.
    ProcessSubstitution,
    /// Inside a string given to a shell (`bash -c`, `eval`, `su -c`, `ssh host CMD`, watch …).
    ShellString,
    /// Inside a here-document or here-string fed to a shell.
    Heredoc,
    /// Inside a decoded payload (`echo … | base64 -d | sh`).
    Decoded,
    /// Inside a function body.
    Function,
}

/// One simple command that would run, with canonical argv.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimpleCommand {
    /// Canonical program name: basename, no leading backslash, quotes removed (`/usr/bin/rm`,
    /// `\rm`, `r''m` → `rm`). Empty for a bare assignment or redirection.
    pub program: String,
    /// True when the program name is not a literal (`$x -rf /` with `x` unknown).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub program_dynamic: bool,
    /// Canonical arguments after the program: flag clusters expanded (`-rf` → `-r`, `-f`) and
    /// per-program aliases mapped to one canonical spelling (rm `-R`/`-r`/`--recursive` →
    /// `--recursive`; git push `+main` adds `--force`).
    pub args: Vec<Word>,
    /// The argv as written (after quote removal and literal expansion, before flag
    /// canonicalization), program included.
    pub raw_argv: Vec<Word>,
    /// Wrappers unwrapped to reach this command, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrappers: Vec<Wrapper>,
    /// Runs with elevated privileges (under sudo, doas, su, pkexec, run0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub privileged: bool,
    /// Runs on a remote host (`ssh host CMD`): the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    /// Environment assignments before the command (`FOO=1 cmd`, `env FOO=1 cmd`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assignments: Vec<(String, Word)>,
    /// Redirections.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<Redirect>,
    /// What feeds standard input, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<StdinSource>,
    /// Where it was found.
    pub origin: Origin,
    /// Byte span in [`ParsedCommand::source`] of the text that produced this command (for a
    /// nested command, the span of the outermost enclosing word, e.g. the whole `bash -c '…'`).
    pub span: Span,
    /// Nesting depth (0 at the top of the script).
    pub depth: u32,
    /// Runs once for every entry of a listing: a loop or `xargs` over the output of `ps`,
    /// `pgrep`, `docker ps -q`, `kubectl get -o name`, `ls`, `find` … ("every matching
    /// process / resource / file").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterates: Option<Listing>,
    /// Variables set earlier in the script that name the environment a command works in
    /// (`export RAILS_ENV=test`, `DATABASE_URL=…`, `AWS_PROFILE=prod`), with their values
    /// (see [`ENV_CONTEXT_VARS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_env: Vec<(String, String)>,
    /// A call of a function the script defined (its body's commands follow it): the name is
    /// not a program, and its words are the function's arguments.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub function_call: bool,
}

/// Variables whose value names the environment the commands after them work in.
pub const ENV_CONTEXT_VARS: &[&str] = &[
    "RAILS_ENV",
    "RACK_ENV",
    "MIX_ENV",
    "NODE_ENV",
    "APP_ENV",
    "FLASK_ENV",
    "ASPNETCORE_ENVIRONMENT",
    "SPRING_PROFILES_ACTIVE",
    "ENV",
    "ENVIRONMENT",
    "STAGE",
    "DEPLOY_ENV",
    "TARGET_ENV",
    "DATABASE_URL",
    "PGDATABASE",
    "PGHOST",
    "REDIS_URL",
    "AWS_PROFILE",
    "KUBE_CONTEXT",
    // set by `az account set` and `gcloud config set project` (see `clictx`)
    "AZURE_SUBSCRIPTION",
    "CLOUDSDK_CORE_PROJECT",
];

/// The listing a command iterates over (see [`SimpleCommand::iterates`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The listing program (`ps`, `pgrep`, `docker`, `kubectl`, `ls`, `find`, `aws` …).
    pub program: String,
    /// The listing as written, canonical (`ps -e -o pid`, `kubectl get pods -o name`).
    pub command: String,
    /// True when nothing narrows the listing: every process (`ps -e`, `ps aux` with no
    /// `grep`), every container, every file of the directory.
    pub every: bool,
    /// The directory a file listing (`ls`, `find`) reads, when known (resolved against a
    /// literal `cd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The entries of a file listing as one glob, when its directory is known
    /// (`find /var/log -name '*.log'` → `/var/log/**/*.log`, `ls /srv` → `/srv/*`): what a
    /// variable read from it stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<String>,
    /// What selects the entries, when something does: the patterns of `pgrep` / `pidof` and
    /// of the `grep`s after the listing (`ps aux | grep '[p]ytest-watch'` → `[p]ytest-watch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

impl SimpleCommand {
    /// The canonical one-line form: program and canonical args joined by spaces
    /// (`rm --recursive --force /`). Rules match regexes against this.
    pub fn canonical(&self) -> String {
        let mut s = self.program.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(&a.text);
        }
        s
    }

    /// True when the canonical args contain `flag` (e.g. `--force`), alone or with a value
    /// (`--grace-period` matches `--grace-period=0`: value-taking options canonicalize to one
    /// `NAME=VALUE` word).
    pub fn has_flag(&self, flag: &str) -> bool {
        self.args.iter().any(|a| {
            a.text == flag
                || a.text
                    .strip_prefix(flag)
                    .is_some_and(|r| r.starts_with('='))
        })
    }

    /// The value of a value-taking option (`flag_value("--namespace")` on
    /// `kubectl -n prod …` is `Some("prod")`). The first occurrence wins.
    pub fn flag_value(&self, flag: &str) -> Option<&str> {
        self.args
            .iter()
            .find_map(|a| a.text.strip_prefix(flag).and_then(|r| r.strip_prefix('=')))
    }

    /// Whether a grep prints the lines that do not match (`-v`, `-vw`, `--invert-match`):
    /// every line but those, which narrows nothing.
    pub fn inverts_match(&self) -> bool {
        self.raw_argv.iter().skip(1).any(|w| {
            let t = w.text.as_str();
            t == "--invert-match"
                || t.starts_with('-')
                    && !t.starts_with("--")
                    && t[1..].bytes().all(|b| b.is_ascii_alphabetic())
                    && t.contains('v')
        })
    }

    /// Positional (non-flag) arguments, in order.
    pub fn positionals(&self) -> impl Iterator<Item = &Word> {
        self.args
            .iter()
            .filter(|a| !a.text.starts_with('-') || a.text == "-")
    }

    /// The first `n` positionals: the subcommand path of programs that have subcommands
    /// (`git -C /r push -f` → `["push"]`; `docker system prune` with n=2 →
    /// `["system", "prune"]`). Global options never appear here (they are moved after the
    /// subcommand during canonicalization).
    pub fn subcommand_path(&self, n: usize) -> Vec<&str> {
        self.positionals()
            .take(n)
            .map(|w| w.text.as_str())
            .collect()
    }

    /// The canonical args as text.
    pub fn arg_texts(&self) -> Vec<&str> {
        self.args.iter().map(|w| w.text.as_str()).collect()
    }

    /// The wrapper names, outermost first (`["sudo", "bash -c"]`).
    pub fn wrapper_names(&self) -> Vec<&str> {
        self.wrappers.iter().map(|w| w.name.as_str()).collect()
    }

    /// True when a wrapper named `name` was unwrapped to reach this command.
    pub fn wrapped_by(&self, name: &str) -> bool {
        self.wrappers.iter().any(|w| w.name == name)
    }
}

/// The language of a nested piece of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NestedLanguage {
    /// Python (`python -c`, heredoc to python).
    Python,
    /// JavaScript (`node -e`).
    Js,
    /// Perl (`perl -e`).
    Perl,
    /// Ruby (`ruby -e`).
    Ruby,
    /// PHP (`php -r`).
    Php,
    /// SQL (`psql -c`, `mysql -e`, `sqlite3 db SQL`, heredocs to them).
    Sql,
    /// Redis commands (`redis-cli CMD`).
    Redis,
    /// MongoDB shell JavaScript (`mongosh --eval`).
    Mongo,
}

/// A piece of code or SQL found inside a command, for the analyzers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NestedInput {
    /// Its language.
    pub language: NestedLanguage,
    /// The text.
    pub text: String,
    /// The program that would run it (`python3`, `psql` …).
    pub program: String,
    /// Index in [`ParsedCommand::commands`] of the command that runs it.
    pub command_index: usize,
    /// Whether that text is literal (false when it contains unresolved expansions).
    pub literal: bool,
}

/// A risk-relevant fact noticed during normalization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Signal {
    /// A program name that stays dynamic (`$x -rf /`).
    DynamicProgram {
        /// Index of the command.
        index: usize,
    },
    /// `eval` of text that is not a literal.
    DynamicEval {
        /// Index of the command.
        index: usize,
    },
    /// A download (curl, wget, …) piped or substituted into a shell or interpreter.
    DownloadToShell {
        /// Index of the downloader.
        downloader: usize,
        /// Index of the shell or interpreter.
        shell: usize,
    },
    /// An encoded payload (base64 -d, xxd -r, printf '\x..', rev …) fed to a shell.
    EncodedToShell {
        /// Index of the decoder.
        decoder: usize,
        /// Index of the shell.
        shell: usize,
        /// Whether the payload could be decoded and parsed.
        decoded: bool,
    },
    /// A shell or interpreter reads a script from stdin whose content is unknown.
    ShellFromStdin {
        /// Index of the shell.
        index: usize,
    },
    /// A function that calls itself two or more times (a fork bomb under any name).
    RecursiveFork {
        /// The function's name.
        name: String,
        /// Index of its first call to itself.
        index: usize,
    },
}

/// Why a result is incomplete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ParseIssue {
    /// The bash parser rejected the input (unterminated quote, bad syntax); the result is a
    /// best-effort split.
    Syntax {
        /// The parser's message.
        message: String,
    },
    /// A word could not be expanded (bad parameter expansion …).
    Word {
        /// The message.
        message: String,
    },
    /// A bound was hit: input size, nesting depth or total work.
    Limit {
        /// Which bound and its value.
        message: String,
    },
}

/// Seed 004's `ParsedCommand`: every simple command a script would run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParsedCommand {
    /// The input text.
    pub source: String,
    /// Every simple command that would run, in source order, nested ones included.
    pub commands: Vec<SimpleCommand>,
    /// Code and SQL found in interpreter one-liners, database clients and heredocs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nested: Vec<NestedInput>,
    /// Risk-relevant facts noticed while normalizing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signals: Vec<Signal>,
    /// Shell texts that run besides `source` itself, after quote removal: the strings of
    /// `bash -c`, `eval`, `su -c`, heredocs and process substitutions read by a shell,
    /// `parallel` inputs, a timed pipeline without its `time`. Raw text rules see them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
    /// False when anything stopped full analysis (see `issues`).
    pub fully_parsed: bool,
    /// What stopped full analysis.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<ParseIssue>,
}
