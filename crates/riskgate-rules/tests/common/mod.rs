//! Hand-built parsed commands, so engine tests do not depend on the shell normalizer.
#![allow(dead_code)]

use riskgate_model::Span;
use riskgate_shell::{Origin, ParsedCommand, Redirect, SimpleCommand, StdinSource, Word, Wrapper};

pub fn word(t: &str) -> Word {
    Word {
        text: t.to_string(),
        dynamic: t.starts_with('$') || t.starts_with('`'),
    }
}

/// A simple command with canonical args as given.
pub fn sc(program: &str, args: &[&str]) -> SimpleCommand {
    let mut raw = vec![word(program)];
    raw.extend(args.iter().map(|a| word(a)));
    let text = std::iter::once(program)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    SimpleCommand {
        program: program.to_string(),
        program_dynamic: false,
        args: args.iter().map(|a| word(a)).collect(),
        raw_argv: raw,
        wrappers: Vec::new(),
        privileged: false,
        remote: None,
        assignments: Vec::new(),
        redirects: Vec::new(),
        stdin: None,
        origin: Origin::Script,
        span: Span::new(0, text.len()),
        depth: 0,
        iterates: None,
        context_env: Vec::new(),
        function_call: false,
    }
}

/// Under sudo.
pub fn sudo(mut c: SimpleCommand) -> SimpleCommand {
    c.privileged = true;
    c.wrappers.push(Wrapper {
        name: "sudo".into(),
        args: Vec::new(),
    });
    c
}

/// With a redirect.
pub fn redirect(mut c: SimpleCommand, op: &str, target: &str) -> SimpleCommand {
    c.redirects.push(Redirect {
        op: op.into(),
        target: word(target),
    });
    c
}

/// Stdin piped from command `index`.
pub fn piped_from(mut c: SimpleCommand, index: usize) -> SimpleCommand {
    c.stdin = Some(StdinSource::Pipe { index });
    c
}

/// A fully parsed script of these commands; the source is their texts joined by ` | `/`; `.
pub fn parsed(source: &str, commands: Vec<SimpleCommand>) -> ParsedCommand {
    let mut commands = commands;
    for c in &mut commands {
        c.span = Span::new(0, source.len());
    }
    ParsedCommand {
        source: source.to_string(),
        commands,
        nested: Vec::new(),
        signals: Vec::new(),
        scripts: Vec::new(),
        fully_parsed: true,
        issues: Vec::new(),
    }
}

/// One command whose source is its own text.
pub fn one(program: &str, args: &[&str]) -> ParsedCommand {
    let c = sc(program, args);
    let text = std::iter::once(program)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    parsed(&text, vec![c])
}
