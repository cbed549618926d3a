//! Build step for the effect model's program knowledge: reads `data/effects.yaml`, validates
//! it, and generates static, sorted tables (binary-searched at run time).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramSpec {
    kind: String,
    #[serde(default)]
    targets: Option<String>,
    #[serde(default)]
    skip: u8,
    #[serde(default)]
    only_with: Vec<String>,
    #[serde(default)]
    unless_with: Vec<String>,
    #[serde(default)]
    append: Vec<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectsSpec {
    programs: BTreeMap<String, ProgramSpec>,
    local: Vec<String>,
    services: Vec<String>,
    verbs: BTreeMap<String, Vec<String>>,
    verb_flags: BTreeMap<String, Vec<String>>,
    forced_flags: Vec<String>,
    bulk_flags: Vec<String>,
    resource_nouns: Vec<String>,
    dry_run_programs: Vec<String>,
    apply_flags: BTreeMap<String, Vec<String>>,
}

const KINDS: [(&str, &str); 8] = [
    ("delete", "Delete"),
    ("overwrite", "Overwrite"),
    ("modify", "Modify"),
    ("permissions", "Permissions"),
    ("stop", "Stop"),
    ("power", "Power"),
    ("security", "Security"),
    ("publish", "Publish"),
];

fn kind(k: &str) -> Result<&'static str, String> {
    if k == "install" {
        return Ok("Install");
    }
    KINDS
        .iter()
        .find(|(n, _)| *n == k)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("data/effects.yaml: unknown effect kind `{k}`"))
}

fn strs(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|s| format!("{s:?}")).collect();
    format!("&[{}]", items.join(", "))
}

fn sorted_unique(mut v: Vec<String>, what: &str) -> Result<Vec<String>, String> {
    v.sort();
    let n = v.len();
    v.dedup();
    if v.len() != n {
        return Err(format!("data/effects.yaml: `{what}` lists a word twice"));
    }
    Ok(v)
}

/// The generated Rust source for `data/effects.yaml`.
pub fn generate(file: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let spec: EffectsSpec =
        serde_saphyr::from_str(&text).map_err(|e| format!("data/effects.yaml: {e}"))?;
    let mut out = String::new();
    out.push_str("pub(crate) static PROGRAMS: &[(&str, ProgramEffect)] = &[\n");
    for (name, p) in &spec.programs {
        let targets = match p.targets.as_deref().unwrap_or("all") {
            "all" => "All",
            "last" => "Last",
            "first" => "First",
            "all_but_last" => "AllButLast",
            "none" => "None",
            t => {
                return Err(format!(
                    "data/effects.yaml: `{name}`: unknown targets `{t}`"
                ));
            }
        };
        let _ = writeln!(
            out,
            "    ({name:?}, ProgramEffect {{ kind: EffectKind::{}, targets: TargetArgs::{targets}, skip: {}, only_with: {}, unless_with: {}, append: {} }}),",
            kind(&p.kind)?,
            p.skip,
            strs(&p.only_with),
            strs(&p.unless_with),
            strs(&p.append)
        );
    }
    out.push_str("];\n\n");
    let local = sorted_unique(spec.local, "local")?;
    let _ = writeln!(
        out,
        "pub(crate) static LOCAL: &[&str] = {};\n",
        strs(&local)
    );
    let services = sorted_unique(spec.services, "services")?;
    let _ = writeln!(
        out,
        "pub(crate) static SERVICES: &[&str] = {};\n",
        strs(&services)
    );
    let mut verbs: Vec<(String, &'static str)> = Vec::new();
    for (k, words) in &spec.verbs {
        let v = kind(k)?;
        verbs.extend(words.iter().map(|w| (w.clone(), v)));
    }
    verbs.sort();
    if verbs.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err("data/effects.yaml: a verb is listed under two kinds".into());
    }
    out.push_str("pub(crate) static VERBS: &[(&str, EffectKind)] = &[\n");
    for (w, v) in &verbs {
        let _ = writeln!(out, "    ({w:?}, EffectKind::{v}),");
    }
    out.push_str("];\n\n");
    out.push_str("pub(crate) static VERB_FLAGS: &[(&str, EffectKind)] = &[\n");
    for (k, flags) in &spec.verb_flags {
        let v = kind(k)?;
        for f in flags {
            let _ = writeln!(out, "    ({f:?}, EffectKind::{v}),");
        }
    }
    out.push_str("];\n\n");
    let _ = writeln!(
        out,
        "pub(crate) static FORCED_FLAGS: &[&str] = {};\n",
        strs(&sorted_unique(spec.forced_flags, "forced_flags")?)
    );
    let _ = writeln!(
        out,
        "pub(crate) static BULK_FLAGS: &[&str] = {};\n",
        strs(&sorted_unique(spec.bulk_flags, "bulk_flags")?)
    );
    let _ = writeln!(
        out,
        "pub(crate) static RESOURCE_NOUNS: &[&str] = {};\n",
        strs(&sorted_unique(spec.resource_nouns, "resource_nouns")?)
    );
    let _ = writeln!(
        out,
        "pub(crate) static DRY_RUN_PROGRAMS: &[&str] = {};\n",
        strs(&sorted_unique(spec.dry_run_programs, "dry_run_programs")?)
    );
    // a BTreeMap iterates in key order: the table is sorted for binary search
    out.push_str("pub(crate) static APPLY_FLAGS: &[(&str, &[&str])] = &[\n");
    for (program, flags) in &spec.apply_flags {
        if flags.is_empty() {
            return Err(format!(
                "data/effects.yaml: `apply_flags` of `{program}` lists no flag"
            ));
        }
        let _ = writeln!(out, "    ({program:?}, {}),", strs(flags));
    }
    out.push_str("];\n");
    Ok(out)
}
