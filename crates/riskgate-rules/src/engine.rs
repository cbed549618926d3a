//! [`CommandEngine`]: the seed-004 pipeline for shell commands. Parse (riskgate-shell), match
//! the rules (structured rules by program name, pattern rules through the prefilter), then the
//! generic stages (executable, arguments, privilege, data exposure), the effects of each command
//! (effect × target × scope) and the heuristics; every
//! factor that contributes is a [`Finding`], aggregated by [`Assessment::from_findings`].

use std::collections::HashMap;

use riskgate_model::effect::{Effect, Environment};
use riskgate_model::{ActionKind, Assessment, Finding, Location, RiskLevel, Span};
use riskgate_shell::ParsedCommand;

use crate::credscope;
use crate::effects;
use crate::envscope;
use crate::exposure;
use crate::gitscope;
use crate::heuristics;
use crate::hookscope;
use crate::matcher::{self, CommandView, Hit};
use crate::ownfiles;
use crate::rcappend;
use crate::rule::{Matcher, Rule, Target};
use crate::ruleset::RuleSet;
use crate::scoring::{self, ExecClass};
use crate::sinks;

/// At most this many resources per finding.
const MAX_FINDING_RESOURCES: usize = 10;

/// Assesses shell commands with a [`RuleSet`].
///
/// ```no_run
/// use riskgate_model::RiskLevel;
/// use riskgate_rules::CommandEngine;
///
/// let engine = CommandEngine::builtin();
/// assert_eq!(engine.assess("ls -la").level, RiskLevel::Safe);
/// assert_eq!(engine.assess("sudo rm -rf /").level, RiskLevel::Critical);
/// // Obfuscation does not help: the normalizer sees through quotes and variables.
/// assert!(engine.assess("x=rm; \"$x\" -r''f ~").requires_approval());
/// ```
#[derive(Debug, Clone, Default)]
pub struct CommandEngine {
    rules: RuleSet,
}

impl CommandEngine {
    /// An engine over `rules`.
    pub fn new(rules: RuleSet) -> CommandEngine {
        CommandEngine { rules }
    }

    /// An engine over the built-in rules.
    pub fn builtin() -> CommandEngine {
        CommandEngine::new(RuleSet::builtin())
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// True when the rules database is missing or incomplete (every command is then at least
    /// MEDIUM).
    pub fn is_degraded(&self) -> bool {
        self.rules.is_degraded()
    }

    /// Parse and assess a command line (kind [`ActionKind::Command`]).
    pub fn assess(&self, command: &str) -> Assessment {
        let parsed = riskgate_shell::parse(command);
        self.assess_parsed(&parsed)
    }

    /// Assess an already parsed command.
    pub fn assess_parsed(&self, parsed: &ParsedCommand) -> Assessment {
        let (findings, effects) = self.findings_and_effects(parsed);
        let mut a = Assessment::from_findings(ActionKind::Command, parsed.source.clone(), findings);
        a.effects = effects;
        if let Some(why) = self.incomplete_reason(parsed) {
            a.mark_incomplete(&why);
        }
        a
    }

    /// Why the assessment of `parsed` is not complete, if it is not: a bound was hit, the bash
    /// parser rejected the text (the best-effort split may misread it), a word could not be
    /// expanded, or the rules database is degraded.
    pub fn incomplete_reason(&self, parsed: &ParsedCommand) -> Option<String> {
        use riskgate_shell::ParseIssue;
        let mut why: Vec<String> = parsed
            .issues
            .iter()
            .map(|i| match i {
                ParseIssue::Limit { message } => format!("past an analysis bound ({message})"),
                ParseIssue::Syntax { message } => {
                    format!("the shell syntax could not be parsed ({message})")
                }
                ParseIssue::Word { message } => format!("a word could not be expanded ({message})"),
            })
            .collect();
        if !parsed.fully_parsed && why.is_empty() {
            why.push("the command could not be fully parsed".to_string());
        }
        if self.rules.is_degraded() {
            why.push("the rules database is degraded".to_string());
        }
        why.truncate(3);
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// Every finding for a parsed command: matched rules, generic scores and heuristics.
    /// The facade adds the findings of the code and SQL analyzers for `parsed.nested`.
    pub fn findings(&self, parsed: &ParsedCommand) -> Vec<Finding> {
        self.findings_and_effects(parsed).0
    }

    /// The effects of every simple command of `parsed` (see [`riskgate_model::effect`]).
    pub fn effects(&self, parsed: &ParsedCommand) -> Vec<Effect> {
        let views = views_of(parsed);
        effects::effects(&views, &[])
            .into_iter()
            .map(|(e, _)| e)
            .collect()
    }

    /// [`CommandEngine::findings`] and the effects they were partly scored from, in one pass.
    pub fn findings_and_effects(&self, parsed: &ParsedCommand) -> (Vec<Finding>, Vec<Effect>) {
        let views = views_of(parsed);
        let mut known = Vec::new();
        let mut readers = Vec::new();
        let mut out = self.rule_findings(parsed, &views, &mut known, &mut readers);
        let scored = effects::effects(&views, &known);
        out.extend(effects::findings(&scored, &views));
        let effects: Vec<Effect> = scored.into_iter().map(|(e, _)| e).collect();

        let mut privileged: Option<(String, Span)> = None;
        for v in &views {
            if let Some(f) = scoring::executable_finding(v) {
                out.push(f);
            }
            if privileged.is_none()
                && let Some(w) = scoring::privilege_wrapper(v)
            {
                privileged = Some((format!("`{}` runs under {w}", v.cmd.program), v.cmd.span));
            }
        }
        if let Some((what, span)) = privileged {
            out.push(
                Finding::new(
                    "score.privilege",
                    RiskLevel::Low,
                    25,
                    format!("Runs with elevated privileges ({what})"),
                )
                .with_match(span_text(parsed, span), Some(span)),
            );
        }
        out.extend(exposure::exposure_finding(&views));
        out.extend(heuristics::signal_findings(parsed, &views));
        out.extend(crate::flow::flow_findings(parsed, &readers));
        out.extend(heuristics::parse_issue_finding(parsed));
        out.extend(heuristics::ip_finding(&views));
        out.extend(heuristics::obfuscation_finding(parsed));
        out.extend(heuristics::empty_variable_finding(&views, &parsed.source));
        if let Some(reason) = self.rules.degraded_reason() {
            out.push(Finding::new(
                "rules.unavailable",
                RiskLevel::Medium,
                45,
                format!("The rules database is unavailable or incomplete, so the command is rated at least MEDIUM: {reason}"),
            ));
        }
        (out, effects)
    }

    /// Ids of the rules (not heuristics) that trigger on `parsed`, in database order.
    pub fn matched_rule_ids(&self, parsed: &ParsedCommand) -> Vec<String> {
        let views: Vec<CommandView<'_>> = parsed
            .commands
            .iter()
            .enumerate()
            .map(|(i, c)| CommandView::new(parsed, i, c))
            .collect();
        self.rule_findings(parsed, &views, &mut Vec::new(), &mut Vec::new())
            .into_iter()
            .map(|f| f.rule_id)
            .collect()
    }

    /// The findings of matching rules; `known` receives the indexes of commands that a rule
    /// written for their program matched, or a pattern naming the program (their subcommands
    /// are known, not guessed). `readers` receives the indexes of commands that a rule about
    /// printing secrets matched (the taint sources of the flow analysis).
    fn rule_findings(
        &self,
        parsed: &ParsedCommand,
        views: &[CommandView<'_>],
        known: &mut Vec<usize>,
        readers: &mut Vec<usize>,
    ) -> Vec<Finding> {
        let mut hits: Vec<(&Rule, Hit)> = Vec::new();
        for v in views {
            self.rules.for_program(&v.cmd.program, |r| {
                if let Some(h) = matcher::rule_matches_command(r, v) {
                    hits.push((r, h));
                    let floor = r.tags().iter().any(|t| t == "release");
                    if !floor && !known.contains(&v.index) {
                        known.push(v.index);
                    }
                }
            });
            if !v.help {
                self.rules
                    .for_patterns(Target::Canonical, &v.canonical, |r| {
                        if let Some(h) = matcher::rule_matches_command(r, v) {
                            hits.push((r, h));
                            // A pattern that names the program knows its subcommands; a
                            // generic floor (`production`, the `release` pack's "deployments
                            // and migrations are at least MEDIUM") does not.
                            let floor = r.tags().iter().any(|t| t == "release");
                            let names_program = !floor
                                && match &r.matcher {
                                    Matcher::Pattern(p) => {
                                        !v.cmd.program.is_empty()
                                            && p.text.contains(v.cmd.program.as_str())
                                    }
                                    Matcher::Command(_) => true,
                                };
                            if names_program && !known.contains(&v.index) {
                                known.push(v.index);
                            }
                        }
                    });
            }
        }
        // heredoc bodies that only write a file are data (what runs them is matched below)
        let raw_text = crate::rawtext::without_file_heredocs(&parsed.source);
        self.rules.for_patterns(Target::Raw, &raw_text, |r| {
            if let Some(h) = matcher::rule_matches_raw(r, &raw_text)
                && !matches!(h, Hit::Raw((s, e))
                    if inside_shown_text(parsed, s, e) || crate::psdata::in_data(&raw_text, s, e))
            {
                hits.push((r, h));
            }
        });
        // The same raw patterns over the shell texts nested in it (`bash -c '…'`, `eval`, a
        // heredoc read by `sh`): wrapping a command never hides it from a raw rule.
        for (k, text) in parsed.scripts.iter().enumerate() {
            self.rules.for_patterns(Target::Raw, text, |r| {
                if let Some(Hit::Raw(span)) = matcher::rule_matches_raw(r, text) {
                    hits.push((r, Hit::Script(k, span)));
                }
            });
        }

        // One finding per rule id; resources of every hit.
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        let mut out: Vec<Finding> = Vec::new();
        // Per finding: whether every command it matched is aimed at a development resource.
        let mut development: Vec<bool> = Vec::new();
        // Per deleting data or infrastructure rule: whether every command it matched is aimed
        // at a production resource.
        let mut production: Vec<bool> = Vec::new();
        // Per finding that prints secrets: the reducer every matched command's output reaches.
        let mut reduced: Vec<Option<String>> = Vec::new();
        // Per start-up file rule: whether every matched command appends settings only.
        let mut settings_only: Vec<bool> = Vec::new();
        // Per file-deletion rule: whether every matched command deletes entries of a listing
        // of project paths.
        let mut project_listed: Vec<bool> = Vec::new();
        // Per file-deletion rule: whether every matched command deletes only files the script
        // wrote before it.
        let mut own_output: Vec<bool> = Vec::new();
        // Per credential rule: whether every matched command carries only throwaway credentials.
        let mut throwaway: Vec<bool> = Vec::new();
        // Per hook rule: whether every matched command installs a hook of the project.
        let mut project_hook: Vec<bool> = Vec::new();
        // Per rule about pushing the current branch: whether every matched push follows a
        // step of the script that put a topic branch there.
        let mut topic_branch: Vec<bool> = Vec::new();
        // Per rule that does not print secrets: whether every matched command is a dry run of
        // a program whose dry run stops the change.
        let mut dry_run: Vec<bool> = Vec::new();
        for (rule, hit) in hits {
            let prints_secrets = sinks::prints_secrets(rule.tags())
                && rule
                    .tags()
                    .iter()
                    .any(|t| t == "credentials" || t == "secrets");
            if let Hit::Command(i) = hit
                && prints_secrets
                && !readers.contains(&i)
            {
                readers.push(i);
            }
            let resources = hit_resources(rule, &hit, views);
            // a raw pattern's match inside one command (`DATABASE_URL=postgres://localhost/app
            // npx prisma migrate reset`) is aimed where that command is
            let env = match hit {
                // a wrapper's (`npx`, `sudo`) is the environment of the command it runs, which
                // holds the assignments (`DATABASE_URL=… npx prisma …`)
                Hit::Command(i) => views
                    .get(i)
                    .map(|v| envscope::command_environment(wrapped_view(views, v).cmd)),
                Hit::Raw((s, e)) => {
                    innermost_view(views, s, e).map(|v| envscope::command_environment(v.cmd))
                }
                Hit::Script(..) => None,
            };
            let prod = env == Some(Environment::Prod);
            let (dev, reducer, settings) = match hit {
                Hit::Command(i) => (
                    env == Some(Environment::Dev),
                    sinks::reducer(views, i)
                        .or_else(|| views.get(i).and_then(sinks::own_field))
                        .or_else(|| views.get(i).and_then(sinks::shows_no_content)),
                    views
                        .get(i)
                        .is_some_and(|v| rcappend::appends_only_settings(v.cmd)),
                ),
                Hit::Raw(_) | Hit::Script(..) => (false, None, false),
            };
            let listed = match hit {
                Hit::Command(i) => views
                    .get(i)
                    .is_some_and(|v| envscope::iterates_project_listing(v.cmd)),
                Hit::Raw(_) | Hit::Script(..) => false,
            };
            let own = match hit {
                Hit::Command(i) => ownfiles::deletes_only_own_output(parsed, i),
                Hit::Raw(_) | Hit::Script(..) => false,
            };
            let own_resource = !own
                && match hit {
                    Hit::Command(i) => ownfiles::deletes_only_own_resources(parsed, i),
                    Hit::Raw(_) | Hit::Script(..) => false,
                };
            let dry = !prints_secrets
                && match hit {
                    Hit::Command(i) => views.get(i).is_some_and(scoring::is_honoured_dry_run),
                    Hit::Raw(_) | Hit::Script(..) => false,
                };
            let topic = rule.tags().iter().any(|t| t == "current-branch")
                && match hit {
                    Hit::Command(i) => gitscope::head_is_topic_branch(&parsed.commands, i),
                    Hit::Raw(_) | Hit::Script(..) => false,
                };
            let own_hook = match hit {
                Hit::Command(i) => views
                    .get(i)
                    .is_some_and(|v| hookscope::installs_project_hook(v.cmd)),
                Hit::Raw(_) | Hit::Script(..) => false,
            };
            let placeholder = match hit {
                Hit::Command(i) => views
                    .get(i)
                    .is_some_and(|v| credscope::only_throwaway_credentials(v.cmd)),
                // every credential URL of the whole text, not only the one matched first
                Hit::Raw(_) => credscope::parsed_only_throwaway(parsed),
                Hit::Script(k, _) => parsed
                    .scripts
                    .get(k)
                    .is_some_and(|t| credscope::text_only_throwaway_urls(t)),
            };
            if let Some(&i) = by_id.get(rule.id())
                && let Some(f) = out.get_mut(i)
            {
                if let Some(d) = development.get_mut(i) {
                    *d &= dev;
                }
                if let Some(p) = production.get_mut(i) {
                    *p &= prod;
                }
                if let Some(st) = settings_only.get_mut(i) {
                    *st &= settings;
                }
                if let Some(p) = project_listed.get_mut(i) {
                    *p &= listed;
                }
                if let Some(o) = own_output.get_mut(i) {
                    *o &= own || own_resource;
                }
                if let Some(t) = throwaway.get_mut(i) {
                    *t &= placeholder;
                }
                if let Some(h) = project_hook.get_mut(i) {
                    *h &= own_hook;
                }
                if let Some(d) = dry_run.get_mut(i) {
                    *d &= dry;
                }
                if let Some(t) = topic_branch.get_mut(i) {
                    *t &= topic;
                }
                if let Some(r) = reduced.get_mut(i)
                    && reducer.is_none()
                {
                    *r = None;
                }
                for r in resources {
                    if f.resources.len() < MAX_FINDING_RESOURCES && !f.resources.contains(&r) {
                        f.resources.push(r);
                    }
                }
                continue;
            }
            by_id.insert(rule.id(), out.len());
            out.push(rule_finding(rule, &hit, parsed, views, resources));
            // a secret store's development secrets (`vault kv get secret/dev/app`) are
            // throwaway values; files of keys and credentials are never lowered by a name
            let dev_secret = prints_secrets && rule.tags().iter().any(|t| t == "secrets");
            development.push(dev && (envscope::is_scoped(rule.tags()) || dev_secret));
            production.push(prod && envscope::deletes_data(rule.id(), rule.tags()));
            reduced.push(reducer.filter(|_| sinks::prints_secrets(rule.tags())));
            settings_only.push(settings && rule.tags().iter().any(|t| t == "shell-rc"));
            throwaway.push(placeholder && credscope::is_credential_rule(rule.tags()));
            project_hook.push(own_hook && rule.tags().iter().any(|t| t == "hooks"));
            dry_run.push(dry);
            topic_branch.push(topic);
            own_output.push(
                own && rule.tags().iter().any(|t| t == "filesystem")
                    && rule.tags().iter().any(|t| t == "destructive")
                    || own_resource && envscope::may_be_lowered(rule.tags()),
            );
            project_listed.push(
                listed
                    && rule
                        .tags()
                        .iter()
                        .any(|t| t == "filesystem" || t == "containers")
                    && rule.tags().iter().any(|t| t == "destructive"),
            );
        }
        for (f, _) in out.iter_mut().zip(&production).filter(|(_, p)| **p) {
            envscope::raise_for_production(f);
        }
        for (f, _) in out.iter_mut().zip(&topic_branch).filter(|(_, t)| **t) {
            gitscope::cap_for_topic_branch(f);
        }
        for (f, _) in out.iter_mut().zip(&dry_run).filter(|(_, d)| **d) {
            envscope::cap_for_dry_run(f);
        }
        for (f, _) in out.iter_mut().zip(&project_listed).filter(|(_, p)| **p) {
            envscope::cap_for_project_listing(f);
        }
        for (f, _) in out.iter_mut().zip(&own_output).filter(|(_, o)| **o) {
            envscope::cap_for_own_output(f);
        }
        for (f, _) in out.iter_mut().zip(&project_hook).filter(|(_, h)| **h) {
            hookscope::cap_for_project_hook(f);
        }
        for (f, _) in out.iter_mut().zip(&throwaway).filter(|(_, t)| **t) {
            credscope::cap_for_throwaway(f);
        }
        for (f, _) in out.iter_mut().zip(&settings_only).filter(|(_, s)| **s) {
            rcappend::cap_for_settings(f);
        }
        for ((f, dev), reducer) in out.iter_mut().zip(development).zip(reduced) {
            if dev {
                envscope::cap_for_development(f);
            }
            if let Some(r) = reducer {
                sinks::cap_for_reducer(f, &r);
            }
        }
        out
    }
}

fn views_of(parsed: &ParsedCommand) -> Vec<CommandView<'_>> {
    parsed
        .commands
        .iter()
        .enumerate()
        .map(|(i, c)| CommandView::new(parsed, i, c))
        .collect()
}

fn span_text(parsed: &ParsedCommand, span: Span) -> String {
    parsed
        .source
        .get(span.start..span.end)
        .unwrap_or("")
        .to_string()
}

fn rule_finding(
    rule: &Rule,
    hit: &Hit,
    parsed: &ParsedCommand,
    views: &[CommandView<'_>],
    resources: Vec<String>,
) -> Finding {
    let mut f = Finding::new(rule.id(), rule.level(), rule.score(), rule.description())
        .reversible(rule.reversible());
    if let Some(a) = rule.alternative() {
        f = f.with_mitigation(a);
    }
    f.tags = rule.tags().iter().map(ToString::to_string).collect();
    if let Matcher::Pattern(p) = &rule.matcher {
        f = f.with_pattern(p.text.to_string());
    }
    match hit {
        Hit::Command(i) => {
            if let Some(v) = views.get(*i) {
                f = f.with_match(v.canonical.clone(), Some(v.cmd.span));
                if !v.cmd.wrappers.is_empty() {
                    let chain: Vec<&str> = v.cmd.wrappers.iter().map(|w| w.name.as_str()).collect();
                    f = f.with_location(Location {
                        context: Some(chain.join(" > ")),
                        ..Location::default()
                    });
                }
            }
        }
        Hit::Raw((s, e)) => {
            let span = Span::new(*s, *e);
            f = f.with_match(span_text(parsed, span), Some(span));
        }
        Hit::Script(k, (s, e)) => {
            let text = parsed.scripts.get(*k).and_then(|t| t.get(*s..*e));
            f = f.with_match(text.unwrap_or("").to_string(), None);
        }
    }
    f.with_resources(resources)
}

/// The view of the innermost command whose span holds `s..e` (a raw pattern's match), seen
/// through its wrappers (see [`wrapped_view`]).
fn innermost_view<'v, 'a>(
    views: &'v [CommandView<'a>],
    s: usize,
    e: usize,
) -> Option<&'v CommandView<'a>> {
    let v = views
        .iter()
        .filter(|v| v.cmd.span.start <= s && e <= v.cmd.span.end)
        .min_by_key(|v| v.cmd.span.end - v.cmd.span.start)?;
    Some(wrapped_view(views, v))
}

/// The command a wrapper view runs (`npx` → `prisma` in `DATABASE_URL=… npx prisma …`, which
/// holds the assignments): the view of the same span that names `v`'s program among its
/// wrappers; `v` itself when there is none.
fn wrapped_view<'v, 'a>(
    views: &'v [CommandView<'a>],
    v: &'v CommandView<'a>,
) -> &'v CommandView<'a> {
    views
        .iter()
        .rev()
        .find(|w| {
            w.cmd.span == v.cmd.span
                && !v.cmd.program.is_empty()
                && w.cmd.wrappers.iter().any(|x| x.name == v.cmd.program)
        })
        .unwrap_or(v)
}

/// Programs that only show or search the text they are given (their words are data).
const SHOWS_TEXT: &[&str] = &[
    "echo",
    "printf",
    "Write-Host",
    "Write-Output",
    "Get-Help",
    "Get-Command",
    "Write-Verbose",
    "Write-Warning",
    "Write-Information",
    "Write-Debug",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "Select-String",
    "findstr",
];

/// Whether the raw match `s..e` lies in a command that only shows or searches text (`Write-Host
/// "never run: vssadmin delete shadows"`, `rg 'iwr .* | iex' scripts`) and whose output no
/// other command reads or is written to a file: the text is data, as bash's `echo` words are.
/// Every command whose span covers the match must be one.
fn inside_shown_text(parsed: &ParsedCommand, s: usize, e: usize) -> bool {
    let mut any = false;
    for (i, c) in parsed.commands.iter().enumerate() {
        if !(c.span.start <= s && e <= c.span.end) {
            continue;
        }
        // read on by a command that may run it (`… | sh`, `… | xargs`); readers that only
        // count, search, sort or hash text (`echo '…' | wc -c`) pass nothing on that runs, and
        // a PowerShell writer of a data file (`Write-Output '…' | Out-File notes.txt`) is read
        // like a redirect to that file (below)
        let read_on = output_may_run(parsed, i, 0);
        // written to a file that something may run later (`echo 'curl … | sh' > x.sh; sh
        // x.sh`); a file only read, added or shown afterwards (`> notes/bad.txt`) is data
        let to_file = writes_runnable_file(parsed, c);
        // an interpreter whose code only prints the text (`python3 -c 'print("…")'`) shows it
        let shows = SHOWS_TEXT.contains(&c.program.as_str())
            || parsed
                .source
                .get(s..e)
                .is_some_and(|t| crate::printed::only_printed(parsed, i, t));
        if !shows || read_on || to_file || c.program_dynamic {
            return false;
        }
        any = true;
    }
    any
}

/// Readers of text that run nothing of it: they count, search, cut, sort, hash or page it.
/// What they print may still go on (`| wc -l | sh` is followed), so each one's own readers
/// are asked in turn.
const INERT_READERS: &[&str] = &[
    "wc",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "head",
    "tail",
    "sort",
    "uniq",
    "cut",
    "tr",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "od",
    "hexdump",
    "less",
    "more",
    "cat",
    "column",
    "fold",
    "nl",
    "rev",
    "diff",
    "cmp",
    "fmt",
    // linters and formatters of shell text: they read a script, they never run it
    "shellcheck",
    "shfmt",
    "checkbashisms",
    "bashate",
];

/// An encoder or compressor that is not decoding (`base64`, `gzip -9`, not `base64 -d`): its
/// output is no longer the text (a decoder after it is followed as any reader).
fn encodes_only(d: &riskgate_shell::SimpleCommand) -> bool {
    matches!(
        d.program.as_str(),
        "base64" | "base32" | "basenc" | "xxd" | "gzip" | "bzip2" | "xz" | "zstd"
    ) && !d.raw_argv.iter().skip(1).any(|w| {
        let t = w.text.as_str();
        matches!(t, "--decode" | "--decompress" | "-revert" | "--stdout")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['d', 'D', 'r']))
    })
}

/// Whether what command `i` prints may reach something that runs it: a reader that is not
/// one of [`INERT_READERS`] (nor a PowerShell writer of a data file), or an inert reader whose
/// own output may, or that writes a file something may run.
fn output_may_run(parsed: &ParsedCommand, i: usize, depth: usize) -> bool {
    if depth > 8 {
        return true;
    }
    parsed.commands.iter().enumerate().any(|(j, d)| {
        matches!(d.stdin, Some(riskgate_shell::StdinSource::Pipe { index }) if index == i)
            && !writes_data_file(parsed, j, d)
            && (!(INERT_READERS.contains(&d.program.as_str()) || encodes_only(d))
                || d.program_dynamic
                || writes_runnable_file(parsed, d)
                || output_may_run(parsed, j, depth + 1))
    })
}

/// Whether `c` writes its output to a file that something may run later (`> x.sh; sh x.sh`),
/// or that runs by being where it is; a file only read, added or shown afterwards is data.
fn writes_runnable_file(parsed: &ParsedCommand, c: &riskgate_shell::SimpleCommand) -> bool {
    c.redirects.iter().any(|r| {
        r.op.contains('>')
            && r.target.text != "/dev/null"
            && (r.op.contains('&')
                || parsed
                    .source
                    .get(c.span.end..)
                    .is_none_or(|rest| crate::rawtext::named_by_a_runner(rest, &r.target.text))
                || is_runnable_place(&r.target.text))
    })
}

/// Whether command `j` is a PowerShell cmdlet that writes its input to a file (`Out-File`,
/// `Set-Content`, `Add-Content`), is read on by nothing, and writes a file nothing runs later
/// and that does not run by being where it is.
fn writes_data_file(parsed: &ParsedCommand, j: usize, d: &riskgate_shell::SimpleCommand) -> bool {
    if !matches!(
        d.program.as_str(),
        "Out-File" | "Set-Content" | "Add-Content"
    ) {
        return false;
    }
    let piped_on = parsed.commands.iter().any(
        |x| matches!(x.stdin, Some(riskgate_shell::StdinSource::Pipe { index }) if index == j),
    );
    let Some(target) = d.args.iter().find(|a| !a.text.starts_with('-')) else {
        return false;
    };
    let base = target
        .text
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&target.text);
    !piped_on
        && !target.dynamic
        && !base.is_empty()
        && !is_runnable_place(&target.text)
        && parsed
            .source
            .get(d.span.end..)
            .is_some_and(|rest| !crate::rawtext::named_by_a_runner(rest, base))
}

/// A file that runs by being where it is (a start-up file, a hook, a cron table, a unit), or
/// a script by its name: text written there is code, not data.
fn is_runnable_place(path: &str) -> bool {
    let class = riskgate_model::effect::classify_path(path);
    matches!(
        class,
        riskgate_model::effect::TargetClass::Persistence
            | riskgate_model::effect::TargetClass::System
            | riskgate_model::effect::TargetClass::Credentials
    ) || path.contains(".git/hooks/")
        || [
            ".sh", ".bash", ".zsh", ".py", ".pl", ".rb", ".js", ".ps1", ".bat", ".cmd", ".yml",
            ".yaml",
        ]
        .iter()
        .any(|x| path.ends_with(x))
        || !path.rsplit('/').next().unwrap_or(path).contains('.')
}

fn is_pathlike(w: &str) -> bool {
    w.starts_with(['/', '~', '.', '*']) || w.contains('/')
}

/// Resources a hit touches: URLs, hosts, written files, and path arguments of commands that
/// modify or delete.
fn hit_resources(rule: &Rule, hit: &Hit, views: &[CommandView<'_>]) -> Vec<String> {
    let i = match hit {
        Hit::Command(i) => *i,
        Hit::Raw(_) | Hit::Script(..) => return Vec::new(),
    };
    let Some(v) = views.get(i) else {
        return Vec::new();
    };
    let class = scoring::executable(&v.cmd.program).class;
    let file_args = matches!(
        class,
        ExecClass::Destroy | ExecClass::Write | ExecClass::System
    ) && v.cmd.program != "git";
    let destructive = rule.tags().iter().any(|t| t == "destructive");
    let mut out = Vec::new();
    for p in &v.positionals {
        let t: &str = &p.text;
        if t.contains("://") {
            out.push(format!("url:{t}"));
        } else if (file_args || destructive) && (is_pathlike(t) || class == ExecClass::Destroy) {
            out.push(format!("file:{t}"));
        }
    }
    for t in &v.write_targets {
        out.push(format!("file:{t}"));
    }
    if let Some(h) = &v.cmd.remote {
        out.push(format!("host:{h}"));
    }
    out.dedup();
    out.truncate(MAX_FINDING_RESOURCES);
    out
}
