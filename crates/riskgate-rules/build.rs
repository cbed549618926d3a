//! Build script: reads the rule packs `rules/*.yaml` and the executable table
//! `data/executables.yaml` (and the effect model's `data/effects.yaml`), validates them (a malformed rule is a build error naming the file,
//! the line and the rule id), and generates Rust source with static tables: the rules, the
//! program-name index, the literal prefilter inputs and the executable scores. At run time the
//! database then costs nothing to load, however many rules it has.

#[path = "build/codegen.rs"]
mod codegen;
#[path = "build/effects.rs"]
mod effects_data;
#[path = "build/literals.rs"]
mod literals;
#[path = "src/spec.rs"]
#[allow(dead_code)]
mod spec;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codegen::{BuiltPack, BuiltRule, Executable};
use spec::{Entry, MatcherData, PackSpec, PatternKindData, PredData};

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    // RISKGATE_RULES_DIR builds with another pack directory (e.g. to bisect a broken pack).
    println!("cargo:rerun-if-env-changed=RISKGATE_RULES_DIR");
    let rules_dir = match std::env::var_os("RISKGATE_RULES_DIR") {
        Some(d) => PathBuf::from(d),
        None => manifest.join("../../rules"),
    };
    let exe_file = manifest.join("data/executables.yaml");
    println!("cargo:rerun-if-changed={}", rules_dir.display());
    println!("cargo:rerun-if-changed={}", exe_file.display());
    let effects_file = manifest.join("data/effects.yaml");
    println!("cargo:rerun-if-changed={}", effects_file.display());
    println!("cargo:rerun-if-changed=build");

    let mut files: Vec<PathBuf> = match std::fs::read_dir(&rules_dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect(),
        Err(e) => {
            println!(
                "cargo:warning=no rule packs: cannot read {}: {e}",
                rules_dir.display()
            );
            Vec::new()
        }
    };
    files.sort();

    let mut packs = Vec::new();
    let mut errors = Vec::new();
    for file in &files {
        match build_pack(file) {
            Ok(p) => packs.push(p),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(format!(
            "{} malformed rule(s) in rules/ (see rules/README.md):\n  {}",
            errors.len(),
            errors.join("\n  ")
        ));
    }
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for p in &packs {
        for r in &p.rules {
            if let Some(other) = seen.insert(&r.data.id, &p.source) {
                println!(
                    "cargo:warning=duplicate rule id `{}` in {} and {} (riskgate rules lint)",
                    r.data.id, other, p.source
                );
            }
        }
    }

    let executables = read_executables(&exe_file)?;
    let mut code = codegen::generate(&packs, &executables);
    code.push_str(&predicate_literals(&packs));
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    std::fs::write(out.join("builtin_rules.rs"), code)
        .map_err(|e| format!("cannot write generated rules: {e}"))?;
    let effects = effects_data::generate(&effects_file)?;
    std::fs::write(out.join("effects_data.rs"), effects)
        .map_err(|e| format!("cannot write generated effect tables: {e}"))?;
    Ok(())
}

fn build_pack(file: &Path) -> Result<BuiltPack, Vec<String>> {
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = format!(
        "rules/{}",
        file.file_name()
            .map(|s| s.to_string_lossy())
            .unwrap_or_default()
    );
    let text =
        std::fs::read_to_string(file).map_err(|e| vec![format!("{source}: cannot read: {e}")])?;
    let spec: PackSpec = serde_saphyr::from_str(&text).map_err(|e| {
        let line = e.location().map(|l| l.line()).unwrap_or(0);
        let rule = spec::id_before_line(&text, usize::try_from(line).unwrap_or(usize::MAX))
            .map(|id| format!(" (in rule `{id}`)"))
            .unwrap_or_default();
        let msg = e.to_string();
        let first = msg.lines().next().unwrap_or("invalid YAML");
        vec![format!("{source}:{line}{rule}: {first}")]
    })?;
    if let Some(p) = &spec.pack
        && *p != name
    {
        println!(
            "cargo:warning={source}: `pack: {p}` differs from the file stem `{name}`; using `{name}`"
        );
    }
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for rs in spec.rules {
        let id = rs.id.clone();
        let line = spec::line_of_id(&text, &id);
        let at = format!("{source}:{line}: rule `{id}`");
        match spec::validate(rs, false) {
            Ok(Entry::Rule(data)) => match prepare(&data) {
                Ok((regex, lits)) => rules.push(BuiltRule {
                    data: *data,
                    line,
                    regex,
                    literals: lits,
                }),
                Err(e) => errors.push(format!("{at}: {e}")),
            },
            Ok(Entry::Override(_)) => errors.push(format!("{at}: has no condition")),
            Err(e) => errors.push(format!("{at}: {e}")),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(BuiltPack {
        name,
        description: spec.description.unwrap_or_default().trim().to_string(),
        source,
        rules,
    })
}

/// Validate the rule's patterns; return the regex to compile for a text pattern and its
/// prefilter literals.
fn prepare(rule: &spec::RuleData) -> Result<(String, Vec<String>), String> {
    match &rule.matcher {
        MatcherData::Command(c) => {
            for (key, list) in [
                ("args_any", &c.args_any),
                ("args_all", &c.args_all),
                ("args_none", &c.args_none),
                ("args_except", &c.args_except),
                ("args_first", &c.args_first),
                ("args_last", &c.args_last),
                ("redirect_to", &c.redirect_to),
            ] {
                for p in list {
                    match p {
                        PredData::Exact(_) => {}
                        PredData::Glob(g) => {
                            globset::GlobBuilder::new(g)
                                .literal_separator(true)
                                .build()
                                .map_err(|e| format!("`{key}`: invalid glob `{g}`: {e}"))?;
                        }
                        PredData::Regex(r) => {
                            parse_regex(r)
                                .map_err(|e| format!("`{key}`: invalid regex `{r}`: {e}"))?;
                        }
                    }
                }
            }
            Ok((String::new(), Vec::new()))
        }
        MatcherData::Pattern(p) => {
            let regex = match p.kind {
                PatternKindData::Regex => p.text.clone(),
                PatternKindData::Glob => globset::GlobBuilder::new(&p.text)
                    .literal_separator(false)
                    .build()
                    .map_err(|e| format!("invalid glob `{}`: {e}", p.text))?
                    .regex()
                    .to_string(),
                PatternKindData::Exact => format!("^{}$", regex_syntax::escape(&p.text)),
            };
            let hir =
                parse_regex(&regex).map_err(|e| format!("invalid pattern `{}`: {e}", p.text))?;
            let lits = if p.literals.is_empty() {
                literals::required(&hir).unwrap_or_default()
            } else {
                p.literals.iter().map(|l| l.to_ascii_lowercase()).collect()
            };
            Ok((regex, lits))
        }
    }
}

/// `PRED_LITERALS`: for each argument-predicate regex of the built-in rules that has one, the
/// lowercase literals of which every match contains one, sorted by regex source. At run time
/// a predicate whose word contains none of them is false without compiling the regex.
fn predicate_literals(packs: &[BuiltPack]) -> String {
    let mut table: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for r in packs.iter().flat_map(|p| &p.rules) {
        let MatcherData::Command(c) = &r.data.matcher else {
            continue;
        };
        for list in [
            &c.args_any,
            &c.args_all,
            &c.args_none,
            &c.args_except,
            &c.args_first,
            &c.args_last,
            &c.redirect_to,
        ] {
            for p in list {
                if let PredData::Regex(re) = p
                    && !table.contains_key(re.as_str())
                    && let Ok(hir) = parse_regex(re)
                    && let Some(lits) = literals::required(&hir)
                {
                    table.insert(re, lits);
                }
            }
        }
    }
    let mut out = String::from("pub(crate) static PRED_LITERALS: &[(&str, &[&str])] = &[\n");
    for (re, lits) in table {
        out.push_str(&format!("    ({re:?}, &{lits:?}),\n"));
    }
    out.push_str("];\n");
    out
}

fn parse_regex(re: &str) -> Result<regex_syntax::hir::Hir, String> {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(re)
        .map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or("invalid")
                .trim()
                .to_string()
        })
}

fn read_executables(file: &Path) -> Result<Vec<Executable>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let table: BTreeMap<String, BTreeMap<String, u8>> =
        serde_saphyr::from_str(&text).map_err(|e| format!("data/executables.yaml: {e}"))?;
    let mut out: BTreeMap<String, Executable> = BTreeMap::new();
    for (class, programs) in table {
        if !codegen::EXEC_CLASSES.contains(&class.as_str()) {
            return Err(format!(
                "data/executables.yaml: unknown class `{class}` (expected one of {:?})",
                codegen::EXEC_CLASSES
            ));
        }
        for (program, base) in programs {
            if base > 100 {
                return Err(format!(
                    "data/executables.yaml: `{program}`: base {base} above 100"
                ));
            }
            if out.contains_key(&program) {
                return Err(format!(
                    "data/executables.yaml: `{program}` is listed twice"
                ));
            }
            out.insert(
                program.clone(),
                Executable {
                    program,
                    class: class.clone(),
                    base,
                },
            );
        }
    }
    Ok(out.into_values().collect())
}
