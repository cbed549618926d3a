//! Hostile PowerShell and cmd.exe text through the whole engine: deep nesting, 1 MB, unclosed
//! here-strings, 10,000 `iex` layers. Each assessment ends, and a text that cannot be read
//! fully is rated HIGH or above (the incomplete-analysis guarantee), never allowed silently.
//! The texts are data; nothing is run.

use riskgate::{Engine, RiskLevel, Shell};

fn at_least_high(engine: &Engine, text: &str, shell: Shell, what: &str) {
    let a = engine.assess_command_as(text, Some(shell));
    assert!(
        a.level >= RiskLevel::High,
        "{what} ({shell:?}): {:?}",
        a.level
    );
}

#[test]
fn hostile_windows_text_is_bounded_and_never_below_high() {
    let engine = Engine::builtin();
    let iex_layers = format!("{}'Get-Date'{}", "iex (".repeat(10_000), ")".repeat(10_000));
    // an odd number of quotes: the last one never closes
    let quoted_layers = format!("{}Get-Date", "iex '".repeat(10_001));
    let nested_blocks = format!("{}Get-Date{}", "& { ".repeat(5_000), " }".repeat(5_000));
    let subexpressions = format!("{}Get-Date{}", "$(".repeat(20_000), ")".repeat(20_000));
    let unclosed_here = "$s = @'\nGet-ChildItem\n".repeat(2).to_string();
    let unclosed_double_here = "Write-Output @\"\n$(Get-Date)\n".to_string();
    let one_mb = "Get-ChildItem -Path .\\src -Recurse; ".repeat(1_048_576 / 36 + 1);
    for (what, text) in [
        ("10,000 iex layers", &iex_layers),
        ("10,001 iex with an unclosed quote", &quoted_layers),
        ("5,000 nested script blocks", &nested_blocks),
        ("20,000 nested subexpressions", &subexpressions),
        ("an unclosed here-string", &unclosed_here),
        ("an unclosed expandable here-string", &unclosed_double_here),
        ("1 MB of statements", &one_mb),
    ] {
        at_least_high(&engine, text, Shell::PowerShell, what);
    }
    let cmd_nested = format!("{}dir{}", "cmd /c \"".repeat(5_000), "\"".repeat(5_000));
    let cmd_big = "dir /b src & ".repeat(1_048_576 / 13 + 1);
    // carets read fully (each pair a literal caret, the last one continues the line): it ends
    let cmd_carets = format!("dir {}", "^".repeat(200_001));
    assert!(
        engine
            .assess_command_as(&cmd_carets, Some(Shell::Cmd))
            .level
            <= RiskLevel::Low
    );
    for (what, text) in [
        ("5,000 nested cmd /c", &cmd_nested),
        ("1 MB of cmd.exe", &cmd_big),
    ] {
        at_least_high(&engine, text, Shell::Cmd, what);
    }
}
