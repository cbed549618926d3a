//! Human output: an assessment rendered like a compiler diagnostic, with the risky span of the
//! input underlined and the rule id beside it.

use std::fmt::Write as _;

use riskgate_model::{Assessment, Decision, Finding, RiskLevel};

/// Rendering options.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    /// Use ANSI colors.
    pub color: bool,
}

struct Paint {
    color: bool,
}

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn level(&self, level: RiskLevel) -> String {
        let code = match level {
            RiskLevel::Safe => "32",
            RiskLevel::Low => "36",
            RiskLevel::Medium => "33",
            RiskLevel::High => "1;31",
            RiskLevel::Critical => "1;35",
        };
        self.wrap(code, level.as_str())
    }
    fn dim(&self, text: &str) -> String {
        self.wrap("2", text)
    }
    fn bold(&self, text: &str) -> String {
        self.wrap("1", text)
    }
}

/// Render `assessment` (and the gate's `decision`, when there is one) for a person.
pub fn render(assessment: &Assessment, decision: Option<Decision>, opts: RenderOptions) -> String {
    let p = Paint { color: opts.color };
    let mut out = String::new();
    let verdict = match decision {
        Some(d) => format!(" → {}", p.bold(d.as_str())),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "{} (score {}){}: {}",
        p.level(assessment.level),
        assessment.score,
        verdict,
        summary_tail(assessment)
    );
    let source = assessment.input.as_str();
    // Findings on the same span share one snippet: the first is written under the carets,
    // the others below it.
    let mut groups: Vec<(Option<riskgate_model::Span>, Vec<&Finding>)> = Vec::new();
    for f in &assessment.findings {
        let span = f.span.filter(|s| line_of(source, s.start, s.end).is_some());
        match groups
            .iter_mut()
            .find(|(s, _)| *s == span && span.is_some())
        {
            Some((_, members)) => members.push(f),
            None => groups.push((span, vec![f])),
        }
    }
    let mut shown_source = false;
    for (span, members) in &groups {
        match span.and_then(|s| line_of(source, s.start, s.end)) {
            Some((line_no, line, col_start, col_end)) => {
                render_snippet(&mut out, &p, members, line_no, line, col_start, col_end);
                shown_source = true;
            }
            None => {
                for f in members {
                    let _ = writeln!(
                        out,
                        "  {} {} {}: {}",
                        p.dim("="),
                        p.bold(&f.rule_id),
                        p.level(f.level),
                        f.description
                    );
                }
            }
        }
    }
    if !shown_source && !assessment.findings.is_empty() && !source.contains('\n') {
        let _ = writeln!(out, "  {} {}", p.dim("|"), source);
    }
    for m in &assessment.explanation.mitigations {
        let _ = writeln!(out, "  {} {}", p.wrap("36", "help:"), m);
    }
    if assessment.degraded {
        let _ = writeln!(
            out,
            "  {} the input could not be fully analyzed; rated at least MEDIUM",
            p.wrap("33", "note:")
        );
    }
    out
}

fn summary_tail(a: &Assessment) -> String {
    // A level the findings do not explain was set by the policy: its reason comes first.
    if a.findings.first().is_none_or(|f| f.level < a.level)
        && let Some(r) = a.reasons.first()
    {
        return r.clone();
    }
    match a.findings.first() {
        None => "nothing risky found".to_string(),
        Some(top) if a.findings.len() == 1 => top.description.clone(),
        Some(top) => format!(
            "{} (+{} more finding{})",
            top.description,
            a.findings.len() - 1,
            if a.findings.len() == 2 { "" } else { "s" }
        ),
    }
}

/// The 1-based line number, the line's text, and the underline's char columns within it.
fn line_of(source: &str, start: usize, end: usize) -> Option<(usize, &str, usize, usize)> {
    if start > source.len() || !source.is_char_boundary(start) {
        return None;
    }
    let line_start = source.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = source
        .get(start..)?
        .find('\n')
        .map_or(source.len(), |i| start + i);
    let line = source.get(line_start..line_end)?;
    let line_no = source.get(..line_start)?.matches('\n').count() + 1;
    let end = end.clamp(start, line_end);
    let col_start = source.get(line_start..start)?.chars().count();
    let width = source
        .get(start..end)
        .map_or(1, |s| s.chars().count())
        .max(1);
    Some((line_no, line, col_start, col_start + width))
}

fn render_snippet(
    out: &mut String,
    p: &Paint,
    findings: &[&Finding],
    line_no: usize,
    line: &str,
    col_start: usize,
    col_end: usize,
) {
    let num = line_no.to_string();
    let pad = " ".repeat(num.len());
    let _ = writeln!(out, "{} {}", pad, p.dim("|"));
    let _ = writeln!(out, "{} {} {}", p.dim(&num), p.dim("|"), line);
    let width = col_end.saturating_sub(col_start).max(1);
    for (i, f) in findings.iter().enumerate() {
        let marks = if i == 0 {
            p.wrap("1;31", &"^".repeat(width))
        } else {
            " ".repeat(width)
        };
        let _ = writeln!(
            out,
            "{} {} {}{} {} {}: {}",
            pad,
            p.dim("|"),
            " ".repeat(col_start),
            marks,
            p.bold(&f.rule_id),
            p.level(f.level),
            f.description
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::{ActionKind, Span};

    #[test]
    fn underlines_the_span_with_the_rule_id() {
        let f = Finding::new("fs.rm-root", RiskLevel::Critical, 100, "deletes everything")
            .with_match("rm -rf /", Some(Span::new(5, 13)));
        let a = Assessment::from_findings(ActionKind::Command, "sudo rm -rf /", vec![f]);
        let text = render(&a, Some(Decision::Deny), RenderOptions::default());
        assert!(text.starts_with("CRITICAL (score 100) → deny: deletes everything"));
        assert!(text.contains("1 | sudo rm -rf /\n"), "{text}");
        assert!(
            text.contains("  |      ^^^^^^^^ fs.rm-root CRITICAL"),
            "{text}"
        );
    }

    #[test]
    fn findings_on_one_span_share_a_snippet() {
        let span = Some(Span::new(0, 8));
        let a = Assessment::from_findings(
            ActionKind::Command,
            "rm -rf /",
            vec![
                Finding::new("a", RiskLevel::Critical, 100, "first").with_match("rm -rf /", span),
                Finding::new("b", RiskLevel::High, 70, "second").with_match("rm -rf /", span),
            ],
        );
        let text = render(&a, None, RenderOptions::default());
        assert_eq!(text.matches("1 | rm -rf /").count(), 1, "{text}");
        assert!(
            text.contains("  | ^^^^^^^^ a CRITICAL: first\n  |          b HIGH: second\n"),
            "{text}"
        );
    }

    #[test]
    fn second_line_and_out_of_range_spans() {
        let f =
            Finding::new("x", RiskLevel::High, 70, "bad").with_match("b", Some(Span::new(5, 6)));
        let g =
            Finding::new("y", RiskLevel::Low, 30, "odd").with_match("?", Some(Span::new(99, 120)));
        let a = Assessment::from_findings(ActionKind::Command, "ls\n  b", vec![f, g]);
        let text = render(&a, None, RenderOptions::default());
        assert!(text.contains("2 |   b\n"), "{text}");
        assert!(text.contains("  |   ^ x HIGH: bad"), "{text}");
        assert!(text.contains("= y LOW: odd"), "{text}");
    }
}
