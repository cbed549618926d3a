//! Windows shells: PowerShell and cmd.exe text normalized into the same model as bash's
//! (simple commands with canonical argv), so that the rules, the effect model and policy
//! patterns apply unchanged.
//!
//! Modules: `lex` (PowerShell's quoting, comments, groups, statements), `tokens` (the
//! argument-mode tokens of one command),
//! `expr` (expressions read as far as literals go, base64 and downloads included; .NET calls
//! that act like cmdlets, in `dotnet`), `ps` (the walk: statements, pipelines, keywords), `pscmd` (one
//! command: its name resolved, its arguments, recorded), `syntax` (small syntax readings),
//! `bind` (cmdlet parameter binding into canonical argv), `follow` (what cmdlets run in turn
//! and take from the pipeline; `listing` what listings pass on), `cmdlets` (aliases and parameter tables), `cmd` (cmd.exe; `cmdtext` its loops, variable edits and diskpart scripts),
//! `winpath` (one spelling for Windows paths, registry keys and well-known variables).
//!
//! The canonical form of a PowerShell command: the cmdlet's name as documented
//! (`ri`, `del`, `rm`, `Remove-Item`, `remove-item` → `Remove-Item`; script-defined aliases
//! followed), positional parameters' values as positionals in position order, other values
//! as `-Name=value` and switches as `-Name` with the parameter's full name (`-rec` →
//! `-Recurse`), paths as `C:/Windows/System32`, `HKLM:/Software/…`, `~/…`. Windows programs'
//! `/x` switches are `-x` (`vssadmin delete shadows /all /quiet` → `vssadmin delete shadows
//! -all -quiet`), their plain words lower case.

pub(crate) mod bind;
pub(crate) mod cmd;
pub(crate) mod cmdlets;
pub(crate) mod cmdtext;
pub(crate) mod dotnet;
pub(crate) mod expr;
pub(crate) mod follow;
pub(crate) mod lex;
pub(crate) mod listing;
pub(crate) mod ps;
pub(crate) mod pscmd;
pub(crate) mod syntax;
pub(crate) mod tokens;
pub(crate) mod winpath;

use std::collections::{HashMap, HashSet};

use crate::Word;

/// What a PowerShell or cmd.exe text defined so far.
#[derive(Debug, Default)]
pub(crate) struct PsState {
    /// Variables (lower case names, `env:` prefixed for the environment).
    pub vars: HashMap<String, expr::V>,
    /// Aliases set by `Set-Alias`/`New-Alias` (lower case).
    pub aliases: HashMap<String, String>,
    /// Functions defined (lower case).
    pub functions: HashSet<String>,
    /// cmd.exe variables set by `set` (lower case).
    pub cmd_vars: HashMap<String, String>,
    /// The text of the pipeline element being walked.
    pub elem_text: String,
    /// Variables assigned from a command's output: the assignment's index (lower case names).
    pub var_cmds: HashMap<String, usize>,
    /// Variables assigned a hashtable literal (`$p = @{ Path = 'C:\'; Recurse = $true }`):
    /// its entries, for splatting (`Remove-Item @p`). Lower case names.
    pub splats: HashMap<String, Vec<(String, expr::V)>>,
}

/// Programs that exist only on Windows: their `/x` switches are switches, not paths, and
/// their names and plain words are case-insensitive.
const WINDOWS_PROGRAMS: &[&str] = &[
    "attrib",
    "auditpol",
    "bcdboot",
    "bcdedit",
    "bitsadmin",
    "bootrec",
    "cacls",
    "certreq",
    "certutil",
    "chkdsk",
    "cipher",
    "cleanmgr",
    "cmdkey",
    "compact",
    "cscript",
    "defrag",
    "diskpart",
    "dism",
    "dsquery",
    "esentutl",
    "forfiles",
    "format",
    "fsutil",
    "gpupdate",
    "icacls",
    "klist",
    "logoff",
    "manage-bde",
    "mountvol",
    "mpcmdrun",
    "msiexec",
    "mshta",
    "net",
    "net1",
    "netsh",
    "nltest",
    "ntdsutil",
    "pnputil",
    "powercfg",
    "reagentc",
    "reg",
    "regedit",
    "regini",
    "regsvr32",
    "robocopy",
    "rundll32",
    "sc",
    "schtasks",
    "sdelete",
    "secedit",
    "setx",
    "sfc",
    "shutdown",
    "systeminfo",
    "takeown",
    "taskkill",
    "tasklist",
    "tskill",
    "vssadmin",
    "wbadmin",
    "wevtutil",
    "winrm",
    "wmic",
    "wscript",
    "wusa",
    "xcopy",
];

/// cmd.exe builtins that no Unix system has as a program (`rd`, `del`, …); `dir`, `type` and
/// `rmdir` are only cmd.exe's with a `/x` switch.
const CMD_BUILTINS: &[&str] = &[
    "del", "erase", "rd", "rmdir", "copy", "move", "ren", "rename", "md", "mklink", "dir", "type",
    "attrib",
];

/// Unix top directories, which a `/x` word may be rather than a switch.
const UNIX_TOPS: &[&str] = &[
    "bin", "etc", "usr", "var", "tmp", "dev", "opt", "srv", "mnt", "sys", "lib", "run", "net",
];

/// Whether `w` is evidently a cmd.exe word: a `/x` switch (`/s`, `/q`, `/f:x`, `/all`), a drive
/// path (`C:\…`) or a `%VAR%` expansion.
fn cmd_evidence(w: &str) -> bool {
    let w = w.trim_matches('"');
    // Git Bash writes `//c` for `/c` (MSYS leaves a doubled slash alone)
    let switch = w
        .strip_prefix("//")
        .or_else(|| w.strip_prefix('/'))
        .is_some_and(|r| {
            let name = r.split(':').next().unwrap_or("");
            (1..=3).contains(&name.len())
                && name.chars().all(|c| c.is_ascii_alphabetic() || c == '?')
                && !UNIX_TOPS.contains(&name.to_ascii_lowercase().as_str())
        });
    let b = w.as_bytes();
    let drive = b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\';
    let var = w.matches('%').count() >= 2;
    switch || drive || var
}

/// Whether `text` (given as bash) is evidently cmd.exe: a command whose program is a cmd.exe
/// builtin or a Windows-only program (`del`, `rd`, `vssadmin`, `bcdedit` …) with a `/x`
/// switch, a `C:\` path or a `%VAR%` among its words.
pub fn looks_like_cmd(text: &str) -> bool {
    let head = &text[..crate::floor_char_boundary(text, 64 * 1024)];
    // a here-document's body is data bash hands to a program (a Dockerfile's `COPY ./dist
    // /app`), not commands of either dialect
    let head = without_heredoc_bodies(head);
    head.split(['\n', '&', '|', ';', '(']).take(512).any(|cmd| {
        let mut words = cmd.split_whitespace();
        let Some(first) = words.next() else {
            return false;
        };
        let l = first.trim_start_matches('@').to_ascii_lowercase();
        let l = l.strip_suffix(".exe").unwrap_or(&l);
        let known = CMD_BUILTINS.contains(&l) || is_windows_program(l) || l == "cmd";
        known && words.take(32).any(cmd_evidence)
    })
}

/// `text` without the bodies of bash here-documents (`<<TAG` … `TAG`, `<<-TAG`, quoted tags).
fn without_heredoc_bodies(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("<<") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut tag: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if let Some(t) = &tag {
            if line.trim() == t {
                tag = None;
            }
            continue;
        }
        out.push_str(line);
        if let Some((_, rest)) = line.split_once("<<")
            && !rest.starts_with('<')
        {
            let name: String = rest
                .trim_start_matches('-')
                .trim_start()
                .trim_start_matches(['\'', '"', '\\'])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                tag = Some(name);
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `program` is PowerShell or cmd.exe (any case, with or without `.exe`).
pub(crate) fn is_windows_shell(program: &str) -> bool {
    let l = program.to_ascii_lowercase();
    let l = l.strip_suffix(".exe").unwrap_or(&l);
    matches!(l, "pwsh" | "powershell" | "cmd")
}

/// Whether PowerShell or cmd.exe started with `argv` reads its commands from stdin: `pwsh -`,
/// `powershell -Command -`, or no command, script or `/c` at all (`… | pwsh -NoProfile`,
/// `… | cmd`).
pub(crate) fn reads_stdin(program: &str, argv: &[Word]) -> bool {
    let cmd = program.to_ascii_lowercase().starts_with("cmd");
    let mut words = argv.iter().skip(1);
    while let Some(w) = words.next() {
        let l = w.text.to_ascii_lowercase();
        if l == "-" {
            return true;
        }
        if cmd {
            if matches!(l.as_str(), "/c" | "/k" | "/r") || !l.starts_with('/') {
                return false;
            }
            continue;
        }
        if !l.starts_with('-') && !l.starts_with('/') {
            // a script file or a command
            return false;
        }
        let name = l.trim_start_matches(['-', '/']);
        if [
            "command",
            "file",
            "encodedcommand",
            "c",
            "f",
            "e",
            "ec",
            "enc",
        ]
        .contains(&name)
            || (name.len() >= 3
                && ("command".starts_with(name) || "encodedcommand".starts_with(name)))
        {
            // `-Command -` reads stdin; `-Command TEXT` does not
            return words.next().is_some_and(|n| n.text == "-");
        }
        if matches!(
            name,
            "executionpolicy"
                | "ep"
                | "ex"
                | "exec"
                | "windowstyle"
                | "w"
                | "configurationname"
                | "workingdirectory"
                | "wd"
                | "outputformat"
                | "of"
                | "inputformat"
                | "if"
                | "settingsfile"
                | "version"
                | "v"
        ) {
            let _ = words.next();
        }
    }
    true
}

/// Whether `program` (canonical, lower case, no `.exe`) is a Windows-only program.
pub(crate) fn is_windows_program(program: &str) -> bool {
    WINDOWS_PROGRAMS.contains(&program)
}

/// Canonical args of a Windows program: `/x` and `/x:v` switches as `-x` and `-x=v` (lower
/// case), `-x` switches lower case, paths in canonical Windows form, plain words lower case.
pub(crate) fn windows_args(args: &[Word]) -> Vec<Word> {
    args.iter()
        .map(|w| {
            if w.dynamic {
                return w.clone();
            }
            let t = w.text.as_str();
            let text = if syntax::is_cmd_switch(t) {
                let body = t.get(1..).unwrap_or("");
                match body.split_once([':', '=']) {
                    Some((n, v)) => format!(
                        "-{}={}",
                        n.to_ascii_lowercase(),
                        winpath::canonical_if_path(v)
                    ),
                    None => format!("-{}", body.to_ascii_lowercase()),
                }
            } else if (t.starts_with('-')
                && t.len() > 1
                && t.chars()
                    .skip(1)
                    .all(|c| c.is_ascii_alphanumeric() || c == '-'))
                || (!t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-'))
            {
                t.to_ascii_lowercase()
            } else {
                winpath::canonical_if_path(t)
            };
            Word {
                text,
                dynamic: false,
            }
        })
        .collect()
}

/// Whether `text` is clearly PowerShell: a statement whose command is a cmdlet (`Verb-Noun`
/// with an approved verb, or one of the table's), a PowerShell-only alias (`iex`, `iwr`,
/// `gci` …), a variable assignment (`$x = …`), a static .NET call (`[IO.File]::…`) or the call
/// operator `& {`.
pub fn looks_like_powershell(text: &str) -> bool {
    const PS_ONLY: &[&str] = &[
        "iex", "iwr", "irm", "gci", "saps", "spps", "icm", "sal", "gps", "gsv", "sasv", "spsv",
        "ri", "rni", "gcm", "gwmi",
    ];
    let head = &text[..crate::floor_char_boundary(text, 64 * 1024)];
    if !may_be_powershell(head, PS_ONLY) {
        return false;
    }
    let head = without_heredoc_bodies(head);
    let s = lex::Src::new(&head);
    let (stmts, _) = lex::statements(&s, 0, s.len());
    for st in stmts.iter().take(256) {
        for &(a, b) in st.elems.iter().take(8) {
            let mut i = a;
            while i < b && (lex::is_space(s.at(i)) || matches!(s.at(i), '\r' | '\n')) {
                i += 1;
            }
            let mut e = i;
            while e < b && !lex::is_space(s.at(e)) && !matches!(s.at(e), '(' | '\r' | '\n') {
                e += 1;
            }
            let word = s.text(i, e);
            let lw = word.to_ascii_lowercase();
            if cmdlets::is_cmdlet_name(&word)
                || PS_ONLY.contains(&lw.as_str())
                || (word.starts_with('[') && word.contains("]::"))
                || (word == "&" && matches!(s.at(e + 1), '{' | '(' | '\'' | '"' | '$'))
            {
                return true;
            }
            if word.starts_with('$') && word.len() > 1 {
                let rest = s.text(e, (e + 4).min(b));
                if word.ends_with('=')
                    || rest.trim_start().starts_with('=') && !rest.trim_start().starts_with("==")
                {
                    return true;
                }
            }
        }
    }
    false
}

/// A quick look for what [`looks_like_powershell`] needs, without lexing: a cmdlet name or a
/// PowerShell-only alias as a word, a `$variable` assigned, a static member (`[X]::`), a call
/// operator before a block or a string. Most bash lines have none of them and are done here.
fn may_be_powershell(text: &str, aliases: &[&str]) -> bool {
    if text.contains("]::") {
        return true;
    }
    let b = text.as_bytes();
    let call = b.iter().enumerate().any(|(i, &c)| {
        c == b'&'
            && b.get(i + 1..)
                .and_then(|r| r.iter().find(|x| !x.is_ascii_whitespace()))
                .is_some_and(|n| matches!(n, b'{' | b'(' | b'\'' | b'"' | b'$'))
    });
    if call {
        return true;
    }
    let mut words = text
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ';' | '|' | '{' | '}'))
        .filter(|w| !w.is_empty())
        .peekable();
    while let Some(w) = words.next() {
        if w.starts_with('$')
            && (w.contains('=') || words.peek().is_some_and(|n| n.starts_with('=')))
        {
            return true;
        }
        if w.len() <= 4 && aliases.iter().any(|a| a.eq_ignore_ascii_case(w)) {
            return true;
        }
        if w.contains('-') && !w.starts_with('-') && cmdlets::is_cmdlet_name(w) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert!(looks_like_powershell("Remove-Item -Recurse -Force C:\\x"));
        assert!(looks_like_powershell("cd src; Get-ChildItem -Recurse"));
        assert!(looks_like_powershell("iex (iwr https://x.example/a.ps1)"));
        assert!(looks_like_powershell("$p = 'C:\\x'; rm $p"));
        assert!(looks_like_powershell("[IO.File]::Delete('C:\\x')"));
        assert!(!looks_like_powershell("rm -rf /"));
        assert!(!looks_like_powershell("git push --force"));
        assert!(!looks_like_powershell("pre-commit run --all-files"));
        assert!(!looks_like_powershell("echo $x == 1"));
        assert!(!looks_like_powershell("for x in a b; do echo $x; done"));
    }

    #[test]
    fn cmd_detection_and_stdin() {
        assert!(looks_like_cmd("rd /s /q D:\\Backups"));
        assert!(looks_like_cmd("cd x && del /f /q *.log"));
        assert!(looks_like_cmd("@echo off\nrmdir /s /q build"));
        assert!(looks_like_cmd("cmd //c rd /s /q %USERPROFILE%"));
        assert!(looks_like_cmd("vssadmin.exe delete shadows /all"));
        assert!(!looks_like_cmd("rmdir build"));
        assert!(!looks_like_cmd("dir /tmp"));
        assert!(!looks_like_cmd("type ls"));
        assert!(!looks_like_cmd("net ads join -U admin"));
        assert!(!looks_like_cmd("shutdown -h now"));
        assert!(!looks_like_cmd("rm -rf /s"));
        let w = |t: &str| -> Vec<Word> {
            t.split_whitespace()
                .map(|x| Word {
                    text: x.into(),
                    dynamic: false,
                })
                .collect()
        };
        assert!(reads_stdin("pwsh", &w("pwsh -")));
        assert!(reads_stdin("pwsh", &w("pwsh -NoProfile")));
        assert!(reads_stdin(
            "powershell",
            &w("powershell -ep bypass -Command -")
        ));
        assert!(!reads_stdin("pwsh", &w("pwsh -Command Get-Date")));
        assert!(!reads_stdin("pwsh", &w("pwsh -File x.ps1")));
        assert!(!reads_stdin("pwsh", &w("pwsh ./x.ps1")));
        assert!(reads_stdin("cmd", &w("cmd")));
        assert!(!reads_stdin("cmd", &w("cmd /c dir")));
    }

    #[test]
    fn windows_program_args() {
        let w = |t: &str| Word {
            text: t.into(),
            dynamic: false,
        };
        let out: Vec<String> = windows_args(&[
            w("Delete"),
            w("Shadows"),
            w("/All"),
            w("/Quiet"),
            w("/for:C:\\"),
        ])
        .into_iter()
        .map(|w| w.text)
        .collect();
        assert_eq!(out, ["delete", "shadows", "-all", "-quiet", "-for=C:/"]);
    }
}
