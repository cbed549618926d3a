//! Human renderings of assessments: the verdict line, one line per finding with its location,
//! affected resources, and recommendations.

use riskgate_model::Assessment;

/// Render an assessment as a few lines of text.
pub fn render_assessment(a: &Assessment) -> String {
    let mut out = format!(
        "{} (score {}){}{}\n",
        a.level,
        a.score,
        if a.reversible { "" } else { ", irreversible" },
        if a.degraded {
            ", not fully analyzed"
        } else {
            ""
        }
    );
    if a.findings.is_empty() {
        out.push_str("  nothing risky found\n");
    }
    for f in &a.findings {
        let mut loc = String::new();
        if let Some(l) = &f.location {
            if let Some(file) = &l.file {
                loc.push_str(file);
            }
            if let Some(line) = l.line {
                if loc.is_empty() {
                    loc.push_str("line ");
                } else {
                    loc.push(':');
                }
                loc.push_str(&line.to_string());
            }
        }
        out.push_str(&format!(
            "  {:<8} {:<24} {}",
            f.level.as_str(),
            f.rule_id,
            f.description
        ));
        if !loc.is_empty() {
            out.push_str(&format!("  [{loc}]"));
        }
        out.push('\n');
        if let Some(m) = &f.matched {
            let one_line: String = m.lines().next().unwrap_or("").chars().take(100).collect();
            if !one_line.is_empty() {
                out.push_str(&format!("           `{one_line}`\n"));
            }
        }
        if let Some(ctx) = f.location.as_ref().and_then(|l| l.context.as_ref()) {
            out.push_str(&format!("           ({ctx})\n"));
        }
    }
    if !a.affected_resources.is_empty() {
        out.push_str(&format!("affected: {}\n", a.affected_resources.join(", ")));
    }
    out.push_str(&format!("impact: {}\n", a.estimated_impact));
    for r in &a.recommendations {
        out.push_str(&format!("- {r}\n"));
    }
    out
}
