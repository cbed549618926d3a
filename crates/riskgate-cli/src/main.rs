//! `riskgate`: the command-line interface. Thin: argument parsing, reading input, printing;
//! everything else is the `riskgate` library.

#[macro_use]
mod output;
mod cmd;
mod exit;
mod progress;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Rate, explain and gate what an AI agent, a workflow or a CI job is about to run.
///
/// Exit codes: 0 allow (or success), 3 ask, 4 deny, 2 usage error, 1 any other error.
#[derive(Debug, Parser)]
#[command(name = "riskgate", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the normalized structure of a shell command (for rule authors and debugging).
    Parse(cmd::parse::Args),
    /// Assess a shell command and decide: allow, ask or deny.
    Check(cmd::check::Args),
    /// Assess many commands (JSON lines or raw lines) in one process.
    Scan(cmd::scan::Args),
    /// Show the effective configuration.
    Config(cmd::config::Args),
    /// Manage standing approvals and denials.
    Approvals(cmd::approvals::Args),
    /// Read the audit log of decisions.
    Log(cmd::log::Args),
    /// The rules database: list, show, test and lint rules.
    Rules(cmd::rules::Args),
    /// Assess code (Python, JavaScript/TypeScript, shell …) from a file or stdin, and decide.
    Code(cmd::analyze::CodeArgs),
    /// Assess SQL from a file or stdin, and decide.
    Sql(cmd::analyze::SqlArgs),
    /// Classify a change set A / B / C (seed 003): staged changes, since a revision, or a diff.
    Diff(cmd::analyze::DiffArgs),
    /// Assess a workflow (seed 000) and decide; approve a saved workflow's risks.
    Workflow(cmd::workflow::Args),
    /// The pre-tool hook of a coding agent: its JSON on stdin, its answer on stdout.
    Hook(cmd::hook::Args),
    /// The hook server: answers `riskgate hook` calls from a warm process (started by the
    /// hook on demand, gone after 10 idle minutes; RISKGATE_HOOK_SERVER=0 turns it off).
    HookServer(cmd::hook::ServerArgs),
    /// Register `riskgate hook <agent>` with an agent (its settings, a plugin or a hook file).
    Install(cmd::install::Args),
    /// Remove riskgate's hook from an agent's settings file.
    Uninstall(cmd::install::Args),
    /// Serve the Model Context Protocol on stdio: tools that assess a command, code, SQL, a
    /// diff or a workflow and decide under your policy (for any MCP-capable agent or IDE).
    Mcp(cmd::mcp::Args),
    /// Explain a rule (what, why, examples, safer alternative) or a command's assessment,
    /// finding by finding.
    Explain(cmd::explain::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(cmd::completions::CompletionArgs),
    /// Print the man page (roff), or write one page per subcommand into a directory.
    Man(cmd::completions::ManArgs),
    /// Repositories: rate what CI pipelines, build files and package scripts will run.
    Repo(cmd::repo::Args),
    /// The team database (`audit.url`): schema migrations, shipping the audit log, status.
    Admin(cmd::admin::Args),
    /// The friction report: decisions over time, asks and denies per rule, the rules people
    /// most often approve, approvals expiring soon, requests waiting for a reviewer.
    Report(cmd::report::Args),
    /// The reviewer's page: pending approval requests (grant, refuse), the audit trail with
    /// filters, the friction report. 127.0.0.1 by default; elsewhere only with a token.
    Serve(cmd::serve::Args),
    /// Check the set-up: agents and their hooks, the hook server, directories, policy files.
    Doctor(cmd::doctor::Args),
}

/// The command-line definition (for completions and the man page).
pub fn cli_command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

fn main() -> ExitCode {
    // approval requests go to the team's database when `audit.url` is set (opened only when
    // an action waits for a reviewer: nothing on the hook's usual path)
    riskgate::gate::queue_store::set_team_store(riskgate_team::pg_queue::open_for);
    if let Some(code) = cmd::hook::fast_path() {
        return code;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => cmd::parse::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Scan(args) => cmd::scan::run(args),
        Command::Config(args) => cmd::config::run(args),
        Command::Approvals(args) => cmd::approvals::run(args),
        Command::Log(args) => cmd::log::run(args),
        Command::Rules(args) => cmd::rules::run(args),
        Command::Code(args) => cmd::analyze::run_code(args),
        Command::Sql(args) => cmd::analyze::run_sql(args),
        Command::Diff(args) => cmd::analyze::run_diff(args),
        Command::Workflow(args) => cmd::workflow::run(args),
        Command::Hook(args) => cmd::hook::run_hook(args),
        Command::HookServer(args) => cmd::hook::run_server(args),
        Command::Install(args) => cmd::install::run_install(args),
        Command::Uninstall(args) => cmd::install::run_uninstall(args),
        Command::Mcp(args) => cmd::mcp::run(args),
        Command::Explain(args) => cmd::explain::run(args),
        Command::Completions(args) => cmd::completions::run_completions(args),
        Command::Man(args) => cmd::completions::run_man(args),
        Command::Repo(args) => cmd::repo::run(args),
        Command::Doctor(args) => cmd::doctor::run(args),
        Command::Admin(args) => cmd::admin::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if output::is_broken_pipe(&err) => exit::Code::Error.into(),
        Err(err) => {
            eprintln!("riskgate: error: {err:#}");
            exit::Code::Error.into()
        }
    }
}
