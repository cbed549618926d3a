//! The analyzed form of a code snippet that rules match on: calls with resolved qualified names
//! and parsed arguments, assignments to well-known targets, string literals, and what the code
//! hands to other interpreters (shell commands, SQL, code passed to `exec`/`eval`).
//!
//! Names are resolved through imports and aliases, so `from shutil import rmtree as rt; rt(p)`
//! is a call of `shutil.rmtree`, `const { rmSync } = require('fs')` makes `rmSync(p)` a call of
//! `fs.rmSync`, and `p = Path('/x'); p.unlink()` is `pathlib.Path().unlink`. A call on a
//! receiver that cannot be resolved keeps the receiver's own name (`f.write`), or `?` when the
//! receiver is an arbitrary expression.

use riskgate_model::{Language, Span};
use serde::Serialize;

use super::{calls, embedded, lex_js, lex_python, shell_words};

/// A literal or partly known argument value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum ArgValue {
    /// A string literal (after implicit concatenation and constant propagation).
    Str(String),
    /// A string built at run time: the literal parts, `{}` where values are interpolated.
    Dynamic(String),
    /// A list or tuple literal.
    List(Vec<ArgValue>),
    /// A number literal.
    Num(String),
    /// `True` / `true` / `False` / `false`.
    Bool(bool),
    /// `None`, `null`, `undefined`.
    Null,
    /// A (resolved) name or attribute path.
    Name(String),
    /// The result of a call of this (resolved) name.
    Call(String),
    /// An object / dict literal (its source text).
    Object(String),
    /// Anything else (its source text).
    Other(String),
}

impl ArgValue {
    /// The string value, when literal.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ArgValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The string or the literal parts of a dynamic string.
    pub fn text(&self) -> Option<&str> {
        match self {
            ArgValue::Str(s) | ArgValue::Dynamic(s) => Some(s),
            _ => None,
        }
    }
}

/// One argument of a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arg {
    /// The keyword, for `name=value` (Python).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// The value.
    pub value: ArgValue,
    /// Source text (truncated).
    pub text: String,
}

/// One call site.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Call {
    /// Resolved qualified name (`shutil.rmtree`, `fs.rmSync`, `pathlib.Path().unlink`, `f.write`,
    /// `str.format`, `?.write`).
    pub name: String,
    /// Further names the call may stand for (names from `from m import *`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
    /// The last segment of the name (`rmtree`, `write`).
    pub method: String,
    /// True when the receiver could not be resolved to an import or a known value.
    pub unresolved_receiver: bool,
    /// The arguments.
    pub args: Vec<Arg>,
    /// From the callee's first token to the closing parenthesis.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
    /// Source text of the call (truncated).
    pub text: String,
    /// Where the call was found when it is not in the top-level code (`code passed to exec`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

impl Call {
    /// True when the call's name, or one of its candidates, is one of `names`.
    pub fn is(&self, names: &[&str]) -> bool {
        names.contains(&self.name.as_str())
            || self.candidates.iter().any(|c| names.contains(&c.as_str()))
    }

    /// True when the name or a candidate starts with `prefix`.
    pub fn starts_with(&self, prefix: &str) -> bool {
        self.name.starts_with(prefix) || self.candidates.iter().any(|c| c.starts_with(prefix))
    }

    /// The `i`-th positional argument.
    pub fn arg(&self, i: usize) -> Option<&Arg> {
        self.args.iter().filter(|a| a.keyword.is_none()).nth(i)
    }

    /// The keyword argument `name`.
    pub fn kwarg(&self, name: &str) -> Option<&Arg> {
        self.args
            .iter()
            .find(|a| a.keyword.as_deref() == Some(name))
    }

    /// The `i`-th positional argument, or else the keyword argument `name`.
    pub fn param(&self, i: usize, name: &str) -> Option<&Arg> {
        self.kwarg(name).or_else(|| self.arg(i))
    }

    /// The literal string value of the `i`-th positional argument.
    pub fn str_arg(&self, i: usize) -> Option<&str> {
        self.arg(i).and_then(|a| a.value.as_str())
    }

    /// True when any argument's source text contains `needle` (case-sensitive).
    pub fn args_contain(&self, needle: &str) -> bool {
        self.args.iter().any(|a| a.text.contains(needle))
    }
}

/// An assignment to an attribute or item path (`os.environ['X'] = …`, `process.env.X = …`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assignment {
    /// Resolved target path (`os.environ[]`, `process.env.PATH`).
    pub target: String,
    /// Span of the target.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
}

/// A string literal that is evaluated (not a comment, not a docstring).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StringLit {
    /// The value (interpolations as `{}`).
    pub value: String,
    /// True when interpolated.
    pub dynamic: bool,
    /// Span in the code.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
}

/// A shell command the code runs (a subprocess argv, an `os.system` string …).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbeddedCommand {
    /// The argv, when the code gives one (dynamic words are `$ARG`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argv: Option<Vec<String>>,
    /// The command as shell text (the argv quoted and joined, or the string given).
    pub text: String,
    /// True when part of the command is only known at run time.
    pub dynamic: bool,
    /// The call that runs it (`subprocess.run`).
    pub via: String,
    /// The call's span.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
}

/// One simple command of the commands the code runs, as argv (after quote removal).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShellCommand {
    /// The words (`$ARG` for run-time values).
    pub words: Vec<String>,
    /// Redirections (operator, target).
    pub redirects: Vec<(String, String)>,
    /// True when its standard input is a pipe.
    pub piped: bool,
    /// Heredoc bodies fed to it.
    pub heredocs: Vec<String>,
    /// The call that runs it (`subprocess.run`, `sh`).
    pub via: String,
    /// Span of that call.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
}

/// What kind of data store a statement is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Store {
    /// SQL.
    Sql,
    /// Redis commands.
    Redis,
    /// Mongo shell code.
    Mongo,
}

/// An SQL statement (or Redis command, Mongo shell code) the code sends to a database.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbeddedSql {
    /// Which store.
    pub store: Store,
    /// The SQL (interpolations replaced by a placeholder identifier).
    pub text: String,
    /// True when built at run time (f-string, template, concatenation).
    pub dynamic: bool,
    /// The call that runs it (`?.execute`).
    pub via: String,
    /// The call's span.
    pub span: Span,
    /// 1-based line.
    pub line: u32,
}

/// Everything the rules match on.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The language the code was analyzed as.
    pub language: Language,
    /// Calls, in source order (calls inside code passed to `exec` follow, with a context).
    pub calls: Vec<Call>,
    /// Assignments to attribute/item paths.
    pub assignments: Vec<Assignment>,
    /// Modules imported or required.
    pub imports: Vec<String>,
    /// Evaluated string literals.
    pub strings: Vec<StringLit>,
    /// Shell commands run by the code.
    pub commands: Vec<EmbeddedCommand>,
    /// The commands split into simple commands.
    pub shell: Vec<ShellCommand>,
    /// SQL (and Redis, Mongo) sent by the code or by database clients it runs.
    pub sql: Vec<EmbeddedSql>,
    /// Code run through `exec`/`eval` whose text is not literal (calls carrying it).
    pub dynamic_code: Vec<Call>,
    /// Byte spans of comments, docstrings and other text that is never executed.
    pub inert: Vec<(usize, usize)>,
    /// True when tokenizing or splitting hit unbalanced quoting or a bound.
    pub incomplete: bool,
    /// The code with comments and docstrings blanked out (what regex rules see).
    pub executable: String,
}

/// Maximum depth of code-in-code (`exec("exec('…')")`, `python -c` in a subprocess).
pub const MAX_DEPTH: usize = 4;

impl Analysis {
    /// Analyze `code` as `language`. Never panics; bounded in size and depth.
    pub fn new(code: &str, language: Language) -> Analysis {
        Analysis::at_depth(code, language, 0)
    }

    pub(crate) fn at_depth(code: &str, language: Language, depth: usize) -> Analysis {
        let mut a = Analysis {
            language,
            calls: Vec::new(),
            assignments: Vec::new(),
            imports: Vec::new(),
            strings: Vec::new(),
            commands: Vec::new(),
            shell: Vec::new(),
            sql: Vec::new(),
            dynamic_code: Vec::new(),
            inert: Vec::new(),
            incomplete: false,
            executable: String::new(),
        };
        match language {
            Language::Python | Language::Js => {
                let lexed = if language == Language::Python {
                    lex_python::lex(code)
                } else {
                    lex_js::lex(code)
                };
                a.inert = lexed.inert.clone();
                a.incomplete = lexed.incomplete;
                calls::collect(&lexed.tokens, language, code, &mut a);
            }
            Language::Sh => {
                let split = shell_words::split(code);
                a.incomplete = split.incomplete;
                a.inert = shell_comment_spans(code);
                for cmd in split.commands {
                    let line = cmd.line;
                    if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
                        a.shell.push(ShellCommand {
                            words: cmd.words.clone(),
                            redirects: cmd.redirects.clone(),
                            piped: cmd.piped,
                            heredocs: cmd.heredocs.clone(),
                            via: "sh".into(),
                            span: Span::new(0, code.len()),
                            line,
                        });
                        let mut text = shell_words::join_argv(&cmd.words);
                        for (op, target) in &cmd.redirects {
                            text.push_str(&format!(
                                " {op} {}",
                                shell_words::join_argv(std::slice::from_ref(target))
                            ));
                        }
                        if cmd.piped {
                            text.insert_str(0, "| ");
                        }
                        a.commands.push(EmbeddedCommand {
                            dynamic: cmd.words.first().is_some_and(|w| w.starts_with('$')),
                            argv: Some(cmd.words.clone()),
                            text,
                            via: "sh".into(),
                            span: Span::new(0, code.len()),
                            line,
                        });
                    }
                    for body in cmd.heredocs {
                        a.strings.push(StringLit {
                            value: body,
                            dynamic: false,
                            span: Span::new(0, code.len()),
                            line,
                        });
                    }
                }
            }
            // Perl, Ruby, PHP: their effects are translated into the equivalent commands.
            Language::Perl | Language::Ruby | Language::Php => {
                a.inert = foreign_comment_spans(code, language);
                super::foreign::extract(&mut a, code, language);
            }
        }
        embedded::extract(&mut a, code, depth);
        a.executable = a.executable_text(code);
        a
    }

    /// The code with comments and docstrings blanked out (same length, line breaks kept): what
    /// regex rules are matched against.
    pub fn executable_text(&self, code: &str) -> String {
        let mut bytes = code.as_bytes().to_vec();
        for &(s, e) in &self.inert {
            for b in bytes.get_mut(s..e.min(code.len())).into_iter().flatten() {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        // blanking whole UTF-8 sequences keeps this valid UTF-8 except when a span cuts one
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// `#` comments (and `//` in PHP) of Perl, Ruby and PHP, outside quotes.
fn foreign_comment_spans(code: &str, language: Language) -> Vec<(usize, usize)> {
    let mut spans = shell_comment_spans(code);
    if language == Language::Php {
        let bytes = code.as_bytes();
        let mut i = 0;
        let mut quote: Option<u8> = None;
        while let Some(&b) = bytes.get(i) {
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (Some(_), b'\\') => i += 1,
                (Some(_), _) => {}
                (None, b'\'' | b'"') => quote = Some(b),
                (None, b'/') if bytes.get(i + 1) == Some(&b'/') => {
                    let start = i;
                    while bytes.get(i).is_some_and(|c| *c != b'\n') {
                        i += 1;
                    }
                    spans.push((start, i));
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
    spans
}

/// `#` comments in shell text (a `#` at the start of a word, outside quotes).
fn shell_comment_spans(code: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while let Some(&b) = bytes.get(i) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(b'"'), b'\\') => i += 1,
            (Some(_), _) => {}
            (None, b'\\') => i += 1,
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'#')
                if i == 0
                    || bytes
                        .get(i - 1)
                        .is_some_and(|p| p.is_ascii_whitespace() || *p == b';') =>
            {
                let start = i;
                while bytes.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
                spans.push((start, i));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    spans
}

/// Guess the language of a snippet: shebangs first, then telltale syntax; Python by default
/// (seed 001's actions are Python).
pub fn detect_language(code: &str) -> Language {
    let first = code.trim_start().lines().next().unwrap_or("");
    if let Some(shebang) = first.strip_prefix("#!") {
        if shebang.contains("python") {
            return Language::Python;
        }
        if shebang.contains("node") || shebang.contains("deno") || shebang.contains("bun") {
            return Language::Js;
        }
        if ["sh", "bash", "zsh", "dash", "ksh"]
            .iter()
            .any(|s| shebang.ends_with(s) || shebang.contains(&format!("{s} ")))
        {
            return Language::Sh;
        }
    }
    let mut py = 0i32;
    let mut js = 0i32;
    let mut sh = 0i32;
    for line in code.lines().take(400) {
        let t = line.trim_start();
        if t.starts_with("import ")
            && !t.contains(" from ")
            && !t.contains('\'')
            && !t.contains('"')
        {
            py += 2;
        }
        if t.starts_with("from ") && t.contains(" import ") {
            py += 3;
        }
        if t.starts_with("def ")
            || t.starts_with("elif ")
            || t.ends_with(':')
                && (t.starts_with("if ")
                    || t.starts_with("for ")
                    || t.starts_with("with ")
                    || t.starts_with("class "))
        {
            py += 2;
        }
        if t.starts_with("print(") || t.contains("self.") || t.contains("__name__") {
            py += 1;
        }
        if t.starts_with("const ")
            || t.starts_with("let ")
            || t.starts_with("var ")
            || t.starts_with("function ")
            || t.starts_with("export ")
        {
            js += 2;
        }
        if t.contains("require(")
            || t.contains("=>")
            || t.contains("console.")
            || t.contains("===")
            || t.ends_with(';')
            || t.contains(" from '")
            || t.contains(" from \"")
        {
            js += 1;
        }
        if t.starts_with("#") && !t.starts_with("#!") {
            py += 0;
        }
        let first_word = t.split_whitespace().next().unwrap_or("");
        if [
            "sudo",
            "rm",
            "cd",
            "ls",
            "echo",
            "export",
            "apt-get",
            "apt",
            "git",
            "curl",
            "wget",
            "chmod",
            "chown",
            "mkdir",
            "cp",
            "mv",
            "cat",
            "npm",
            "pip",
            "docker",
            "kubectl",
            "make",
            "yum",
            "brew",
            "tar",
            "dd",
            "mkfs",
            "systemctl",
            "fi",
            "then",
            "done",
            "do",
            "esac",
        ]
        .contains(&first_word)
            && !t.contains('(')
        {
            sh += 2;
        }
        if t.contains(" && ")
            || t.contains(" | ")
            || t.contains("$(")
            || t.starts_with("[[")
            || t.contains("${") && !t.contains('`')
        {
            sh += 1;
        }
    }
    if sh > py && sh > js {
        Language::Sh
    } else if js > py {
        Language::Js
    } else {
        Language::Python
    }
}
