//! Programs that read a script from their standard input (a heredoc, a here-string, a pipe)
//! or from a file the script wrote, and whose script is translated into the commands it runs:
//! jshell, groovysh and kotlinc, Lua, R, diskpart, and the languages read by `anycode`
//! (`echo CODE | ocaml -stdin`, `go run FILE.go`).

use super::{anycode, called_strings, jvm, lua, rlang, unread};
use crate::model::Word;

/// Programs whose script on standard input (a heredoc, a here-string, a pipe) is translated
/// into commands by [`stdin_commands`]: jshell and groovysh with no script file, Lua and R
/// reading `-` or no script.
pub(crate) fn translates_stdin(program: &str, argv: &[Word]) -> bool {
    let positional = argv
        .iter()
        .skip(1)
        .any(|w| !w.text.starts_with('-') || w.dynamic);
    match program {
        "jshell" | "groovysh" => !positional,
        // `kotlinc -script /dev/stdin <<'KTS'`, `groovy /dev/stdin`
        "kotlinc" | "kotlin" | "groovy" => argv
            .iter()
            .skip(1)
            .any(|w| matches!(w.text.as_str(), "/dev/stdin" | "-")),
        // `"select disk 1`nclean all" | diskpart`: diskpart reads its script from stdin
        "diskpart" => !argv.iter().any(|w| w.text.eq_ignore_ascii_case("-s")),
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" => {
            !positional && !argv.iter().any(|w| w.text == "-e")
        }
        "Rscript" | "rscript" => argv.iter().skip(1).any(|w| w.text == "-"),
        p if unread::reads_stdin(
            p,
            &argv
                .iter()
                .skip(1)
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>(),
        ) =>
        {
            true
        }
        "R" => !argv
            .iter()
            .any(|w| w.text == "-e" || w.text == "-f" || w.text.starts_with("--file")),
        _ => false,
    }
}

/// Programs whose script file [`stdin_commands`] reads as it reads their standard input
/// (`lua deploy.lua`, `Rscript wipe.R`), when the script wrote that file.
pub(crate) fn translates_script_file(program: &str) -> bool {
    matches!(
        program,
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" | "Rscript" | "rscript" | "R"
    ) || matches!(
        program,
        "go" | "dotnet" | "kotlinc" | "kotlin" | "groovy" | "runghc" | "runhaskell" | "scala"
    ) || unread::reads_script_files(program)
}

/// Where the script file of `program` is in its operands: `go run FILE`, `dotnet script
/// FILE`, `kotlinc -script FILE` name it after a word of their own; others first.
pub(crate) fn script_file_operand(program: &str, raw: &[&str]) -> usize {
    match (program, raw.get(1).copied()) {
        ("go", Some("run")) | ("dotnet", Some("script")) => 2,
        ("kotlinc" | "kotlin", _) => raw
            .iter()
            .position(|w| *w == "-script")
            .map_or(1, |k| k + 1),
        _ => 1,
    }
}

/// The commands a script read from standard input by `program` runs (see
/// [`translates_stdin`]).
pub(crate) fn stdin_commands(program: &str, script: &str) -> Vec<String> {
    let mut out = match program {
        "jshell" | "groovysh" | "kotlinc" | "kotlin" | "groovy" => jvm::commands(script),
        "Rscript" | "rscript" | "R" => rlang::r_commands(script),
        "diskpart" => return crate::windows::cmd::diskpart_commands(script),
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" => {
            let mut out = called_strings(script, &["os.execute", "io.popen"]);
            out.extend(lua::lua_commands(script));
            out
        }
        _ => unread::commands(script),
    };
    // the language-neutral reading too (`unread::commands` is that reading already)
    if matches!(
        program,
        "jshell" | "groovysh" | "kotlinc" | "kotlin" | "groovy" | "Rscript" | "rscript" | "R"
    ) || program.starts_with("lua")
    {
        for c in anycode::commands(script) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}
