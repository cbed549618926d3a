//! The engine: assesses any [`Action`] by routing it to the shell normalizer and rules engine,
//! or to the code, SQL and change-set analyzers, and combining their findings.

use std::path::Path;
use std::sync::Arc;

use riskgate_analyzers::code::{CodeAction, RiskAssessor};
use riskgate_analyzers::sql::{Dialect, SqlOptions, mongo_findings, redis_findings, sql_findings};
use riskgate_model::{Action, ActionKind, Assessment, Finding, Language, Location, Shell};
use riskgate_rules::{CommandEngine, RuleSet};
use riskgate_shell::{NestedInput, NestedLanguage, ParsedCommand};

/// Options of an [`Engine`].
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {
    /// Extra rule packs (YAML, TOML or JSON files) loaded over the built-in ones.
    pub rule_packs: Vec<std::path::PathBuf>,
    /// The policy's environment is production (SQL data changes rate one level higher).
    pub environment_production: bool,
}

/// Assesses actions. Build once, use for many actions.
pub struct Engine {
    commands: Arc<CommandEngine>,
    /// Built on first use: most actions are shell commands without code in them.
    code: std::sync::OnceLock<RiskAssessor>,
    sql: SqlOptions,
    warnings: Vec<String>,
    /// Where commands run: when set, the files a command writes or removes are rated by the
    /// path classes too (see [`crate::verdict`]).
    scope: Option<crate::verdict::Scope>,
}

impl Engine {
    /// An engine with the built-in rules only.
    pub fn builtin() -> Engine {
        Engine::from_parts(CommandEngine::new(RuleSet::builtin()), false, Vec::new())
    }

    /// An engine with the built-in rules and the user's packs. A pack that cannot be loaded, or
    /// a rule in it that is invalid, is skipped and reported in [`Engine::warnings`].
    pub fn new(options: &EngineOptions) -> Engine {
        let (rules, errors) = if options.rule_packs.is_empty() {
            (RuleSet::builtin(), Vec::new())
        } else {
            RuleSet::with_user_packs(&options.rule_packs)
        };
        let warnings = errors.iter().map(ToString::to_string).collect();
        Engine::from_parts(
            CommandEngine::new(rules),
            options.environment_production,
            warnings,
        )
    }

    fn from_parts(commands: CommandEngine, production: bool, warnings: Vec<String>) -> Engine {
        let commands = Arc::new(commands);
        let sql = SqlOptions {
            environment: if production {
                riskgate_analyzers::Environment::Production
            } else {
                riskgate_analyzers::Environment::default()
            },
        };
        Engine {
            commands,
            code: std::sync::OnceLock::new(),
            sql,
            warnings,
            scope: None,
        }
    }

    /// Rate the files commands write or remove by the path classes of `scope` (riskgate's own
    /// files, agents' settings, system files, outside the project), in every assessment of a
    /// command: `check`, `scan`, workflows' shell nodes, the hook.
    pub fn with_scope(mut self, scope: crate::verdict::Scope) -> Engine {
        self.scope = Some(scope);
        self
    }

    /// The scope set by [`Engine::with_scope`].
    pub fn scope(&self) -> Option<&crate::verdict::Scope> {
        self.scope.as_ref()
    }

    /// Problems met while building the engine (skipped packs and rules).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The command engine (rules and scoring for shell commands).
    pub fn commands(&self) -> &CommandEngine {
        &self.commands
    }

    /// Assess a shell command line (with the path classes of the engine's scope, if set).
    pub fn assess_command(&self, command: &str) -> Assessment {
        self.assess_command_full(command).0
    }

    /// [`Engine::assess_command`] and the files the command writes and removes, with one
    /// parse (see [`Targets`]).
    pub fn assess_command_full(&self, command: &str) -> (Assessment, Targets) {
        self.assess_command_full_as(command, None)
    }

    /// [`Engine::assess_command_full`] for a command written for `shell`.
    pub fn assess_command_full_as(
        &self,
        command: &str,
        shell: Option<Shell>,
    ) -> (Assessment, Targets) {
        let cwd = self.scope.as_ref().map(|s| s.cwd().to_path_buf());
        self.assess_command_in_as(
            command,
            shell,
            self.scope.as_ref(),
            cwd.as_deref().unwrap_or(Path::new("/")),
        )
    }

    /// [`Engine::assess_command_full`] in `scope` (if any) with `cwd` as working directory.
    /// In a scope, a command that runs what a project file defines (`npm install`, `make T`,
    /// `docker build .`, `./x.sh` …) is rated with what it will run (see [`crate::project`]).
    pub fn assess_command_in(
        &self,
        command: &str,
        scope: Option<&crate::verdict::Scope>,
        cwd: &Path,
    ) -> (Assessment, Targets) {
        self.assess_command_in_as(command, None, scope, cwd)
    }

    /// Assess a command line written for `shell` (`None`: bash, with clearly PowerShell text
    /// read as PowerShell too; see [`riskgate_shell::parse_as`]), with the path classes of the
    /// engine's scope.
    pub fn assess_command_as(&self, command: &str, shell: Option<Shell>) -> Assessment {
        self.assess_command_full_as(command, shell).0
    }

    /// [`Engine::assess_command_in`] for a command written for `shell`.
    pub fn assess_command_in_as(
        &self,
        command: &str,
        shell: Option<Shell>,
        scope: Option<&crate::verdict::Scope>,
        cwd: &Path,
    ) -> (Assessment, Targets) {
        self.assess_command_depth(command, shell, scope, cwd, 0)
    }

    /// [`Engine::assess_command_in_as`] for a command that is itself a definition `depth`
    /// levels deep (definitions are followed up to [`crate::project::MAX_DEPTH`]).
    pub(crate) fn assess_command_depth(
        &self,
        command: &str,
        shell: Option<Shell>,
        scope: Option<&crate::verdict::Scope>,
        cwd: &Path,
        depth: u32,
    ) -> (Assessment, Targets) {
        let run = || {
            let parsed = riskgate_shell::parse_kept(command, shell);
            let mut targets = Targets {
                writes: write_targets_of(&parsed),
                removals: removal_targets_of(&parsed),
                settings_appends: settings_appends_of(&parsed),
                template_copies: template_copies_of(&parsed),
                hook_installs: hook_installs_of(&parsed),
                definitions: Vec::new(),
            };
            let mut a = self.assess_parsed(command, &parsed);
            if let Some(lang) = shebang_language(command) {
                a = self.script_in_its_language(a, command, lang, &parsed);
            }
            if let Some(scope) = scope
                && (!targets.writes.is_empty() || !targets.removals.is_empty())
            {
                let extra = crate::verdict::target_findings(&scope.project_in(cwd), &targets);
                a = crate::verdict::with_extra(a, extra);
            }
            if depth == 0 {
                a = crate::written::rate_written_content(self, command, cwd, a);
            }
            if let Some(scope) = scope {
                let defs = crate::project::definitions(self, &parsed, scope, cwd, depth);
                targets.definitions = defs.files;
                a = crate::verdict::with_extra(a, defs.findings);
                if let Some(why) = defs.incomplete {
                    a.mark_incomplete(&why);
                }
            }
            (a, targets)
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
            Ok(out) => out,
            Err(_) => (
                internal_error(ActionKind::Command, command),
                Targets::default(),
            ),
        }
    }

    fn assess_parsed(&self, command: &str, parsed: &ParsedCommand) -> Assessment {
        let (mut findings, effects) = self.commands.findings_and_effects(parsed);
        findings.extend(self.nested_findings(parsed));
        rolled_back_sql(parsed, &mut findings);
        let mut assessment = Assessment::from_findings(ActionKind::Command, command, findings);
        assessment.effects = effects;
        if let Some(why) = self.commands.incomplete_reason(parsed) {
            assessment.mark_incomplete(&why);
        }
        assessment
    }

    /// A script whose first line names another language (`#!/usr/bin/env python3`) that bash
    /// cannot parse: bash would run its lines up to the syntax error (the shebang is a comment
    /// to it), the script's author meant the language. When what the bash reading found
    /// besides the parse failure is at most LOW, and the code analyzer reads the whole text in
    /// that language fully, the assessment is the code's, with the bash findings kept; a
    /// script bash can parse keeps the bash reading whatever its shebang says (a shebang is
    /// never a way around the shell rules).
    fn script_in_its_language(
        &self,
        a: Assessment,
        command: &str,
        lang: Language,
        parsed: &ParsedCommand,
    ) -> Assessment {
        let syntax_only = !parsed.issues.is_empty()
            && parsed
                .issues
                .iter()
                .all(|i| matches!(i, riskgate_shell::ParseIssue::Syntax { .. }));
        let incomplete = |f: &Finding| {
            f.rule_id == riskgate_model::INCOMPLETE_RULE
                || f.rule_id == "heuristic.incomplete-analysis"
        };
        if !syntax_only
            || a.findings
                .iter()
                .any(|f| !incomplete(f) && f.level > riskgate_model::RiskLevel::Low)
        {
            return a;
        }
        let code = self
            .code()
            .assess(&CodeAction::new(command.to_string(), Some(lang)));
        if code.degraded {
            return a;
        }
        let effects = a.effects;
        let mut findings: Vec<Finding> =
            a.findings.into_iter().filter(|f| !incomplete(f)).collect();
        findings.extend(code.findings);
        let mut out = Assessment::from_findings(ActionKind::Command, command, findings);
        out.effects = effects;
        out
    }

    /// [`Engine::assess_command`] and [`Engine::write_targets`] with one parse.
    pub fn assess_command_and_targets(&self, command: &str) -> (Assessment, Vec<String>) {
        let (a, t) = self.assess_command_full(command);
        (a, t.writes)
    }

    /// Files a command line writes: write redirections, `tee` arguments, the destination of
    /// `cp`/`mv`/`install`/`rsync`, `dd of=`. The gate checks them against blocked paths.
    pub fn write_targets(&self, command: &str) -> Vec<String> {
        std::panic::catch_unwind(|| write_targets_of(&riskgate_shell::parse(command)))
            .unwrap_or_default()
    }

    /// Assess any action. Never panics: an internal error is an assessment that is not fully
    /// analyzed (HIGH, needs a person).
    pub fn assess(&self, action: &Action) -> Assessment {
        guarded(action.kind(), &action.subject(), || {
            self.assess_unguarded(action)
        })
    }

    fn assess_unguarded(&self, action: &Action) -> Assessment {
        match action {
            Action::Command { command, shell } => self.assess_command_as(command, *shell),
            Action::Code { code, language } => match language {
                Some(Language::Sh) => {
                    let mut a = self.assess_command(code);
                    a.kind = ActionKind::Code;
                    a
                }
                _ => self
                    .code()
                    .assess(&CodeAction::new(code.clone(), *language)),
            },
            Action::Sql { sql, dialect } => {
                let dialect = dialect
                    .as_deref()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(Dialect::Generic);
                riskgate_analyzers::sql::assess_sql(sql, dialect, &self.sql)
            }
            other => Assessment::safe(other.kind(), other.subject()),
        }
    }

    /// The code assessor (seed 001), with the shell engine plugged in.
    pub fn code(&self) -> &RiskAssessor {
        self.code.get_or_init(|| {
            let mut code = RiskAssessor::new();
            let shell = Arc::clone(&self.commands);
            code.set_command_assessor(Box::new(move |cmd: &str| shell.assess(cmd)));
            code
        })
    }

    /// Findings of the analyzers for code and SQL found inside a command, placed on the
    /// command that runs them.
    fn nested_findings(&self, parsed: &ParsedCommand) -> Vec<Finding> {
        let mut out = Vec::new();
        for nested in &parsed.nested {
            let command = parsed.commands.get(nested.command_index);
            // SQL, Redis and Mongo sent to a development or test database are at most MEDIUM
            // (the client's own shell escapes are rated as commands, unscoped).
            // ... and data changes sent to a production one (`psql -h db.prod…`, `redis-cli
            // -h redis-prod`) rate one level higher, as under a production policy.
            let env = command.map(riskgate_rules::command_environment);
            let development = env == Some(riskgate_model::effect::Environment::Dev);
            let production = env == Some(riskgate_model::effect::Environment::Prod);
            let mut found = self.analyze_nested(nested, development, production);
            // statements the query writes, run by a client its output reaches (`psql -Atc
            // "select 'DROP TABLE ' || tablename …" | psql`): rated as SQL, one per row
            if nested.language == NestedLanguage::Sql
                && let Some(statements) = crate::gensql::generated_statements(&nested.text)
                && crate::gensql::output_run_by_client(parsed, nested.command_index)
            {
                let generated = NestedInput {
                    text: statements,
                    ..nested.clone()
                };
                for mut f in self.analyze_nested(&generated, development, production) {
                    f.description.push_str(
                        " (statements a query writes and a database client then runs, one per row)",
                    );
                    found.push(f);
                }
            }
            for mut f in found {
                f.span = command.map(|c| c.span);
                f.location = Some(Location {
                    context: Some(
                        format!("{:?} run by `{}`", nested.language, nested.program).to_lowercase(),
                    ),
                    ..f.location.unwrap_or_default()
                });
                out.push(f);
            }
        }
        out
    }

    fn analyze_nested(
        &self,
        nested: &NestedInput,
        development: bool,
        production: bool,
    ) -> Vec<Finding> {
        let prod_opts = SqlOptions {
            environment: riskgate_analyzers::Environment::Production,
        };
        let sql_opts = if production { &prod_opts } else { &self.sql };
        let scoped = |mut found: Vec<Finding>| {
            if development {
                // a file written on the server, a program run, data sent elsewhere: not data
                // of the development store, so not lowered by its name
                found
                    .iter_mut()
                    .filter(|f| riskgate_rules::may_be_lowered(&f.tags))
                    .for_each(riskgate_rules::cap_for_development);
            }
            found
        };
        let code = |language| {
            self.code()
                .assess(&CodeAction::new(nested.text.clone(), Some(language)))
                .findings
        };
        match nested.language {
            NestedLanguage::Sql => {
                let dialect = client_dialect(&nested.program);
                let mut found = scoped(sql_findings(&nested.text, dialect, sql_opts));
                // `\\! CMD`, `.shell CMD`: the client runs a shell command
                for cmd in riskgate_analyzers::sql::shell_escapes(&nested.text) {
                    found.extend(self.assess_command(&cmd).findings);
                }
                found
            }
            NestedLanguage::Python => code(Language::Python),
            NestedLanguage::Js => code(Language::Js),
            NestedLanguage::Perl => code(Language::Perl),
            NestedLanguage::Ruby => code(Language::Ruby),
            NestedLanguage::Php => code(Language::Php),
            NestedLanguage::Redis => scoped(redis_findings(&nested.text, sql_opts)),
            NestedLanguage::Mongo => scoped(mongo_findings(&nested.text, sql_opts)),
        }
    }
}

/// The SQL dialect of a database client.
fn client_dialect(program: &str) -> Dialect {
    match program {
        "psql" => Dialect::Postgres,
        "mysql" | "mariadb" => Dialect::MySql,
        "sqlite3" | "sqlite" => Dialect::Sqlite,
        _ => Dialect::Generic,
    }
}

/// SQL a client runs inside a transaction that its own `ROLLBACK` undoes (`psql -c 'BEGIN;
/// DELETE …; ROLLBACK'`) changes nothing: the SQL rules that matched that command's text
/// (pack `db`, tag `sql`) are at most LOW, as the analyzer's own ratings of those statements
/// are. Anything else the command does keeps its level.
fn rolled_back_sql(parsed: &ParsedCommand, findings: &mut [Finding]) {
    for nested in &parsed.nested {
        if nested.language != NestedLanguage::Sql
            || !riskgate_analyzers::sql::rolled_back(&nested.text, client_dialect(&nested.program))
        {
            continue;
        }
        let Some(span) = parsed.commands.get(nested.command_index).map(|c| c.span) else {
            continue;
        };
        for f in findings.iter_mut() {
            if f.span == Some(span)
                && f.rule_id.starts_with("db.")
                && f.tags.iter().any(|t| t == "sql")
                && f.level > riskgate_model::RiskLevel::Low
            {
                f.level = riskgate_model::RiskLevel::Low;
                f.score = f.score.min(28);
                f.reversible = true;
                f.description
                    .push_str(" — inside a transaction its own ROLLBACK undoes");
            }
        }
    }
}

/// What a command touches on disk, for the path classes and the policy's paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    /// Files written: write redirections, `tee`, `truncate`, `shred`, the destination of
    /// `cp`/`mv`/`install`/`rsync`/`ln`, `dd of=`.
    pub writes: Vec<String>,
    /// Files deleted or moved away: the operands of `rm`, `rmdir`, `unlink`, `shred`, `srm`,
    /// the sources of `mv`.
    pub removals: Vec<String>,
    /// Files (among `writes`) that only get settings appended (`echo 'alias k=kubectl' >>
    /// ~/.bashrc`): a start-up file changed this way is MEDIUM, not HIGH.
    pub settings_appends: Vec<String>,
    /// Files (among `writes`) that are only filled from their template (`cp .env.example
    /// .env`): an environment file written this way is MEDIUM, not HIGH.
    pub template_copies: Vec<String>,
    /// Files (among `writes`) that are only hooks of the project installed into its own
    /// `.git/hooks` (`cp scripts/pre-commit .git/hooks/`): at most MEDIUM, not HIGH.
    pub hook_installs: Vec<String>,
    /// Project files whose definitions the command runs and that were read to rate it
    /// (`package.json` for `npm install`); an assessment that read any depends on their
    /// content, not only on the command.
    pub definitions: Vec<String>,
}

/// Run `f`; a panic becomes [`internal_error`]. The panic's message is not shown (it may quote
/// the input, secrets included).
fn guarded(kind: ActionKind, input: &str, f: impl FnOnce() -> Assessment) -> Assessment {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| internal_error(kind, input))
}

/// The assessment of an input whose analysis failed inside riskgate: not fully analyzed.
fn internal_error(kind: ActionKind, input: &str) -> Assessment {
    let mut a = Assessment::safe(kind, input);
    a.mark_incomplete("riskgate failed while analyzing it (an internal error)");
    a
}

/// The files `parsed` deletes or moves away (see [`Targets::removals`]).
fn removal_targets_of(parsed: &ParsedCommand) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &parsed.commands {
        let positionals: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
        match c.program.as_str() {
            "rm" | "rmdir" | "unlink" | "shred" | "srm" | "Remove-Item" => {
                out.extend(positionals.iter().map(|s| s.to_string()));
            }
            "Move-Item" if !positionals.is_empty() => {
                out.extend(positionals.first().map(|s| s.to_string()));
            }
            "mv" if positionals.len() >= 2 => {
                out.extend(
                    positionals[..positionals.len() - 1]
                        .iter()
                        .map(|s| s.to_string()),
                );
            }
            _ => {}
        }
    }
    out.dedup();
    out
}

/// The files `parsed` only appends settings to, when every write to them does (see
/// [`Targets::settings_appends`]).
fn settings_appends_of(parsed: &ParsedCommand) -> Vec<String> {
    let mut settings: Vec<String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for c in &parsed.commands {
        let only = riskgate_rules::appends_only_settings(c);
        for t in writes_of(std::slice::from_ref(c)) {
            if only {
                settings.push(t)
            } else {
                other.push(t)
            }
        }
    }
    settings.retain(|t| !other.contains(t));
    settings.dedup();
    settings
}

/// The files `parsed` only fills from their templates (see [`Targets::template_copies`]).
fn template_copies_of(parsed: &ParsedCommand) -> Vec<String> {
    let mut copies: Vec<String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for c in &parsed.commands {
        let positionals: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
        let copy = (c.program == "cp" || c.program == "Copy-Item")
            && c.redirects.is_empty()
            && matches!(positionals.as_slice(), [src, dst] if crate::paths::is_template_copy(src, dst));
        for t in writes_of(std::slice::from_ref(c)) {
            if copy { copies.push(t) } else { other.push(t) }
        }
    }
    copies.retain(|t| !other.contains(t));
    copies.dedup();
    copies
}

/// The files `parsed` only installs as hooks from the project (see
/// [`Targets::hook_installs`]).
fn hook_installs_of(parsed: &ParsedCommand) -> Vec<String> {
    let mut hooks: Vec<String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for c in &parsed.commands {
        let own = riskgate_rules::installs_project_hook(c);
        for t in writes_of(std::slice::from_ref(c)) {
            if own { hooks.push(t) } else { other.push(t) }
        }
    }
    hooks.retain(|t| !other.contains(t));
    hooks.dedup();
    hooks
}

/// The files `parsed` writes (see [`Engine::write_targets`]).
fn write_targets_of(parsed: &ParsedCommand) -> Vec<String> {
    writes_of(&parsed.commands)
}

fn writes_of(commands: &[riskgate_shell::SimpleCommand]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in commands {
        for r in &c.redirects {
            if matches!(
                r.op.as_str(),
                ">" | ">>" | ">|" | "&>" | "&>>" | "1>" | "2>"
            ) && !r.target.text.starts_with("/dev/")
            {
                out.push(r.target.text.clone());
            }
        }
        let positionals: Vec<&str> = c.positionals().map(|w| w.text.as_str()).collect();
        match c.program.as_str() {
            "tee" | "truncate" | "shred" => out.extend(positionals.iter().map(|s| s.to_string())),
            // PowerShell (paths in canonical Windows form; the path classes read them)
            "Set-Content" | "Add-Content" | "Out-File" | "Tee-Object" | "Clear-Content"
            | "New-Item" => out.extend(positionals.first().map(|s| s.to_string())),
            // a share on another host (`\\fileserver\releases\`, canonical `//fileserver/releases/`)
            // is not a path of this machine: a copy there is a send, rated by the effect model
            "Copy-Item" | "Move-Item" if positionals.len() >= 2 => out.extend(
                positionals
                    .last()
                    .filter(|s| !is_remote_share(s))
                    .map(|s| s.to_string()),
            ),
            "Invoke-WebRequest" | "Invoke-RestMethod" => out.extend(
                c.args
                    .iter()
                    .filter_map(|a| a.text.strip_prefix("-OutFile="))
                    .map(str::to_string),
            ),
            // a dry run of rsync (`-n`, `--dry-run`) writes nothing
            "rsync" if c.args.iter().any(|a| a.text == "--dry-run") => {}
            "cp" | "mv" | "install" | "rsync" | "ln" if positionals.len() >= 2 => {
                out.extend(positionals.last().map(|s| s.to_string()));
            }
            // the device a `tar` writes its archive to (`tar -cf /dev/sda …` writes over the disk)
            "tar" | "bsdtar" | "gtar" if c.args.iter().any(|a| a.text == "--create") => out.extend(
                c.args
                    .iter()
                    .filter_map(|a| a.text.strip_prefix("--file="))
                    // a device (a new archive file is no overwrite)
                    .filter(|f| {
                        f.starts_with("/dev/") && !matches!(*f, "/dev/null" | "/dev/stdout")
                    })
                    .map(str::to_string),
            ),
            "dd" => out.extend(
                c.args
                    .iter()
                    .filter_map(|a| a.text.strip_prefix("of="))
                    .map(str::to_string),
            ),
            _ => {}
        }
    }
    out.dedup();
    out
}

/// Whether `path` is a UNC path to a share on some host (not a device path `//./…`, `//?/…`).
fn is_remote_share(path: &str) -> bool {
    let Some(rest) = path
        .strip_prefix("//")
        .or_else(|| path.strip_prefix("\\\\"))
    else {
        return false;
    };
    let host = rest.split(['/', '\\']).next().unwrap_or("");
    !host.is_empty() && host != "." && host != "?"
}

/// The language a script's shebang names, when it is not a shell (`#!/usr/bin/env python3`,
/// `#!/usr/bin/node`, `#!/usr/bin/env -S deno run`).
fn shebang_language(text: &str) -> Option<Language> {
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let mut prog = first.rsplit('/').next().unwrap_or(first);
    if prog == "env" {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    let prog = prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match prog {
        "python" | "pypy" => Some(Language::Python),
        "node" | "nodejs" | "deno" | "bun" | "ts-node" | "tsx" => Some(Language::Js),
        "ruby" => Some(Language::Ruby),
        "perl" => Some(Language::Perl),
        "php" => Some(Language::Php),
        _ => None,
    }
}
