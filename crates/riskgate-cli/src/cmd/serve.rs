//! `riskgate serve [--listen ADDR] [--token-file FILE]`: the reviewer's page
//! ([`riskgate_team::web`]): pending approval requests with grant and refuse buttons, the
//! audit trail with filters, and the friction report.
//!
//! It listens on 127.0.0.1:8700 by default. Any other address needs an access token:
//! `RISKGATE_SERVE_TOKEN`, else the first line of `--token-file`, else a fresh one printed
//! once at start. Never from a policy file.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use riskgate::model::{Action, Span};
use riskgate_team::web::{Config, Highlighter, Server};

use crate::cmd::common::PolicyArgs;

/// The token's environment variable.
pub const TOKEN_ENV: &str = "RISKGATE_SERVE_TOKEN";

/// Arguments of `riskgate serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The address to listen on (port 0: any free port). Anything but a loopback address
    /// requires an access token.
    #[arg(long, default_value = "127.0.0.1:8700")]
    listen: SocketAddr,
    /// Read the access token from the first line of this file (else `RISKGATE_SERVE_TOKEN`,
    /// else a fresh token is printed once when one is needed).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Ask for the token even on a loopback address.
    #[arg(long)]
    require_token: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// The token: the environment, the file, or a fresh one (`true`: fresh, to be printed).
fn token(args: &Args) -> anyhow::Result<Option<(String, bool)>> {
    if let Ok(t) = std::env::var(TOKEN_ENV)
        && !t.trim().is_empty()
    {
        return Ok(Some((t.trim().to_string(), false)));
    }
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--token-file {}", path.display()))?;
        let t = text.lines().next().unwrap_or("").trim().to_string();
        anyhow::ensure!(
            t.len() >= 16,
            "--token-file {}: the token must be at least 16 characters",
            path.display()
        );
        return Ok(Some((t, false)));
    }
    if args.require_token || !args.listen.ip().is_loopback() {
        let t = riskgate_team::web::auth::new_token()
            .map_err(|e| anyhow::anyhow!("no random token: {e}"))?;
        return Ok(Some((t, true)));
    }
    Ok(None)
}

/// The risky spans of a request's text: a command is assessed again (its text as stored,
/// secrets redacted), other kinds are underlined whole.
fn highlighter(policy: &riskgate::gate::Policy) -> Highlighter {
    let engine = crate::cmd::common::engine_for(policy);
    Arc::new(move |r| {
        if r.kind != "command" {
            return Vec::new();
        }
        let assessment = engine.assess(&Action::command(r.input.clone()));
        assessment
            .findings
            .iter()
            .filter_map(|f| f.span)
            .filter(|s: &Span| s.end <= r.input.len())
            .collect()
    })
}

/// Run `riskgate serve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let policy = args.policy.load()?;
    let token = token(&args)?;
    let server = Server::bind(Config {
        listen: args.listen,
        token: token.as_ref().map(|(t, _)| t.clone()),
        highlight: highlighter(&policy),
        policy,
    })?;
    let addr = server.local_addr()?;
    outln!("riskgate serve: listening on http://{addr}/");
    if let Some((t, true)) = &token {
        outln!("access token (shown once): {t}");
    }
    server.run()?;
    Ok(ExitCode::SUCCESS)
}
