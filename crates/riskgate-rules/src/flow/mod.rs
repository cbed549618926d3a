//! Flow findings: what a script does across its steps, named by both steps.
//!
//! - [`bulk`]: a command the normalizer marked as run once per entry of a listing
//!   ([`SimpleCommand::iterates`]): `kill` of every process `ps`/`pgrep` list (CRITICAL when
//!   the listing is every process), deletes of every container, pod, branch, database or file
//!   a listing names.
//! - [`taint`]: a secret or a database dump ([`sources`]) that is read, copied, encoded or
//!   archived (through pipes, files and variables) and then sent over the network ([`sinks`]).
//! - [`download`]: received code later run: files and directories a fetch wrote ([`fetch`]),
//!   run by path, by name from `PATH` or as a build (`curl -o f URL; bash f`, `scp h:/x . &&
//!   ./x`, `curl … | tar xz -C /opt && /opt/t/setup`), loaded as a library (`LD_PRELOAD`), or
//!   written where it runs later by itself ([`loads`]: Git hooks, start-up files, cron).
//!
//! Linear in the number of commands (file and variable tables are bounded).

use riskgate_model::{Finding, Span};
use riskgate_shell::{ParsedCommand, SimpleCommand};

mod bulk;
mod download;
mod fetch;
mod loads;
mod sinks;
mod sources;
mod taint;
mod verify;

pub(crate) use sinks::unc_host;
pub(crate) use verify::download_verified;

/// Most tainted files and variables remembered.
pub(super) const MAX_TRACKED: usize = 256;

pub(super) fn span_text(parsed: &ParsedCommand, span: Span) -> String {
    parsed
        .source
        .get(span.start..span.end)
        .unwrap_or("")
        .to_string()
}

pub(super) fn both(a: Span, b: Span) -> Span {
    Span::new(a.start.min(b.start), a.end.max(b.end))
}

pub(super) fn raw(c: &SimpleCommand) -> impl Iterator<Item = &str> {
    c.raw_argv.iter().skip(1).map(|w| w.text.as_str())
}

pub(super) fn pos(c: &SimpleCommand, n: usize) -> &str {
    c.positionals().nth(n).map_or("", |w| w.text.as_str())
}

pub(super) fn norm_path(p: &str) -> &str {
    let p = p.trim_matches(['"', '\'']);
    p.strip_prefix("./").unwrap_or(p)
}

pub(super) fn same_file(a: &str, b: &str) -> bool {
    let (a, b) = (norm_path(a), norm_path(b));
    if a == b {
        return true;
    }
    // Windows paths: `\` is a separator and case does not matter (`~/AppData/Local/Temp\a.bat`
    // is `~/appdata/local/temp/a.bat`).
    if (a.contains('\\') || b.contains('\\') || windows_like(a) || windows_like(b))
        && a.replace('\\', "/")
            .eq_ignore_ascii_case(&b.replace('\\', "/"))
    {
        return true;
    }
    // A relative name and an absolute one: the same when the base names agree.
    let rel = |p: &str| !p.starts_with(['/', '~', '$']);
    (rel(a) || rel(b)) && a.rsplit('/').next() == b.rsplit('/').next() && !a.is_empty()
}

/// A path written for Windows: a drive (`C:/…`) or a profile directory (`~/AppData/…`).
fn windows_like(p: &str) -> bool {
    let b = p.as_bytes();
    (b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
        || p.get(..10)
            .is_some_and(|h| h.eq_ignore_ascii_case("~/appdata/"))
}

/// Every flow finding of `parsed`; `readers` are the commands a rule about printing secrets
/// matched (`sops -d …`, `op read …`): sources of secret data like the ones known here.
pub(crate) fn flow_findings(parsed: &ParsedCommand, readers: &[usize]) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(bulk::bulk_findings(parsed));
    out.extend(taint::taint_findings(parsed, readers));
    out.extend(download::download_exec_findings(parsed));
    out
}
