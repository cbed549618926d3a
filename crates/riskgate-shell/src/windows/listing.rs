//! What PowerShell listings pass on: the processes a `Get-Process` listing and its filters
//! select, the items a file listing gives (`P/**`, `P/*`, or the pattern itself), the
//! listing that feeds a command through assignments and filters (`$all = gci P | sort;
//! $all | Remove-Item`), and the URL of a download kept in memory (`$x = (iwr URL).Content`).

use crate::StdinSource;
use crate::ctx::{Norm, Range};

use super::expr::V;
use super::follow::{DOWNLOADERS, FILE_LISTINGS, FILTERS};

impl Norm<'_> {
    /// The processes a `Get-Process` listing (command `from`) and the `Where-Object` filters
    /// recorded after it select: the names given to `Get-Process`, else the names a filter
    /// compares `ProcessName`/`Name` with (`-match 'a|b'`, `-eq 'x'`, `-in 'a','b'`), else `*`.
    pub(crate) fn process_names(&self, from: usize) -> String {
        let Some(gp) = self.commands.get(from) else {
            return "*".into();
        };
        let mut names: Vec<String> = gp
            .args
            .iter()
            .filter_map(|w| {
                (!w.text.starts_with('-'))
                    .then_some(w.text.as_str())
                    .or_else(|| w.text.strip_prefix("-Name="))
                    .map(str::to_string)
            })
            .collect();
        if names.is_empty() {
            for c in self.commands.iter().skip(from + 1).take(8) {
                if c.program != "Where-Object" {
                    continue;
                }
                let text: Vec<&str> = c.args.iter().map(|w| w.text.as_str()).collect();
                let text = text.join(" ");
                let l = text.to_ascii_lowercase();
                if !(l.contains("processname") || l.contains(".name")) {
                    continue;
                }
                for op in [
                    "-match ", "-eq ", "-in ", "-like ", "-imatch ", "-ieq ", "-ilike ",
                ] {
                    let Some(k) = l.find(op) else { continue };
                    let rest = text.get(k + op.len()..).unwrap_or("");
                    for part in rest.split(['\'', '"']).skip(1).step_by(2).take(8) {
                        names.extend(
                            part.split(['|', ','])
                                .map(|n| n.trim_matches(['^', '$', '*', '(', ')', ' ']).to_string())
                                .filter(|n| !n.is_empty()),
                        );
                    }
                }
            }
        }
        if names.is_empty() {
            "*".into()
        } else {
            names.truncate(8);
            names.join(",")
        }
    }

    /// The items `foreach (… in LIST)` walks when LIST's value is not known: a file listing's
    /// (LIST a listing command, `r` its commands, or a variable assigned from one).
    pub(crate) fn listed_items(&self, list: &str, r: Option<Range>, v: &V) -> Vec<V> {
        if !matches!(v, V::Dyn) {
            return Vec::new();
        }
        let from_var = list
            .strip_prefix('$')
            .map(str::to_ascii_lowercase)
            .and_then(|n| self.ps.var_cmds.get(&n).copied())
            .and_then(
                |k| match self.commands.get(k).and_then(|c| c.stdin.clone()) {
                    Some(StdinSource::Pipe { index }) => Some(index),
                    _ => None,
                },
            );
        let src = r.map(|rg| rg.first).or(from_var);
        match src.map(|k| self.listing_source(k)) {
            Some((k, p)) if FILE_LISTINGS.contains(&p.as_str()) => self.listing_items(k),
            _ => Vec::new(),
        }
    }

    /// The URL of a download that commands `from..` made and kept in memory (no `-OutFile`),
    /// when one of them is a downloader and the last of them passes its output on.
    pub(crate) fn downloaded_by(&self, from: usize) -> Option<String> {
        let cmds = self.commands.get(from..)?;
        let last = cmds.last()?;
        if !(DOWNLOADERS.contains(&last.program.as_str())
            || FILTERS.contains(&last.program.as_str())
            || last.program == "ConvertFrom-Json")
        {
            return None;
        }
        let d = cmds.iter().rev().find(|c| {
            DOWNLOADERS.contains(&c.program.as_str())
                && !c.args.iter().any(|a| {
                    let l = a.text.to_ascii_lowercase();
                    l.starts_with("-outfile")
                        || l.starts_with("-o")
                        || l.starts_with("-destination")
                })
        })?;
        let url = d
            .args
            .iter()
            .find(|a| a.text.contains("://"))
            .map_or_else(|| "URL".to_string(), |a| a.text.clone());
        Some(url)
    }

    /// The listing command that feeds command `k` through assignments and filters (`$all =
    /// Get-ChildItem P | Sort-Object …; $all | Select-Object … | …`): its index and program, or
    /// `k` itself when nothing before it passes items on.
    pub(crate) fn listing_source(&self, k: usize) -> (usize, String) {
        let mut at = k;
        for _ in 0..16 {
            let Some(c) = self.commands.get(at) else {
                break;
            };
            if !c.program.is_empty() && !FILTERS.contains(&c.program.as_str()) {
                return (at, c.program.clone());
            }
            match c.stdin {
                Some(StdinSource::Pipe { index }) if index < at => at = index,
                _ => break,
            }
        }
        (k, String::new())
    }

    /// The items a file listing (command `i`, `Get-ChildItem P [-Recurse]`) passes on, as
    /// one path pattern per listed path: `P/**` when it recurses, else `P/*`.
    pub(crate) fn listing_items(&self, i: usize) -> Vec<V> {
        let Some(up) = self.commands.get(i) else {
            return Vec::new();
        };
        let tail = if up.has_flag("-Recurse") { "/**" } else { "/*" };
        let mut paths: Vec<V> = up
            .positionals()
            .filter(|w| !w.dynamic)
            .take(8)
            .map(|w| {
                // a pattern already names the items (`\\backup01\sql\*.bak`)
                let leaf = w.text.rsplit('/').next().unwrap_or("");
                if leaf.contains(['*', '?']) && !up.has_flag("-Recurse") {
                    V::Str(w.text.clone())
                } else {
                    V::Str(format!("{}{tail}", w.text.trim_end_matches('/')))
                }
            })
            .collect();
        if paths.is_empty() {
            paths.push(V::Str(format!(".{tail}")));
        }
        paths
    }
}
