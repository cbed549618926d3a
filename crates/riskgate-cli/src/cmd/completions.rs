//! `riskgate completions SHELL` and `riskgate man`: generated from the same clap definitions
//! as the parser (`crate::cli_command`), so they never drift from the real flags.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap_complete::Shell;

use crate::exit::Code;

/// Arguments of `riskgate completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `riskgate man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write `riskgate.1` and one `riskgate-SUBCOMMAND.1` per subcommand into DIR instead of
    /// printing the main page.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Run `riskgate completions`.
pub fn run_completions(args: CompletionArgs) -> anyhow::Result<ExitCode> {
    let mut cmd = crate::cli_command();
    let mut buf: Vec<u8> = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "riskgate", &mut buf);
    out!("{}", String::from_utf8_lossy(&buf));
    Ok(Code::Allow.into())
}

fn render(cmd: clap::Command, title: &str) -> anyhow::Result<Vec<u8>> {
    let mut buf: Vec<u8> = Vec::new();
    clap_mangen::Man::new(cmd)
        .title(title.to_ascii_uppercase())
        .render(&mut buf)
        .context("cannot render the man page")?;
    Ok(buf)
}

/// Run `riskgate man`.
pub fn run_man(args: ManArgs) -> anyhow::Result<ExitCode> {
    let cmd = crate::cli_command();
    let Some(dir) = args.dir else {
        out!("{}", String::from_utf8_lossy(&render(cmd, "riskgate")?));
        return Ok(Code::Allow.into());
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut cmd = cmd;
    cmd.build();
    let mut written = 0usize;
    let mut write = |name: &str, page: Vec<u8>| -> anyhow::Result<()> {
        let path = dir.join(format!("{name}.1"));
        std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
        written += 1;
        Ok(())
    };
    write("riskgate", render(cmd.clone(), "riskgate")?)?;
    for sub in cmd.get_subcommands() {
        let name = format!("riskgate-{}", sub.get_name());
        write(&name, render(sub.clone(), &name)?)?;
    }
    outln!("wrote {written} man pages to {}", dir.display());
    Ok(Code::Allow.into())
}
