//! Endless loops that exhaust the machine: `while True:`, `while 1`, `while (true)`,
//! `for (;;)`, `loop { … }` / `loop do … end`, whose body keeps allocating (`append`, `push`,
//! `<<`, `Buffer.alloc`, `bytearray`, `str_repeat`) or starting processes (`fork`, `spawn`,
//! `Popen`, `Thread`) and has no way out (`break`, `return`, `exit`, `raise`/`throw`). Read on
//! the executable text (comments and docstrings blanked), any language.

use riskgate_model::RiskLevel;

use super::analysis::Analysis;
use super::rule::{Hit, RiskRule};

/// At most this many loop headers are looked at per snippet.
const MAX_LOOPS: usize = 200;
/// A loop body is read at most this far.
const MAX_BODY: usize = 4 * 1024;

const HEADERS: [&str; 10] = [
    "while True:",
    "while 1:",
    "while true",
    "while(true)",
    "while (true)",
    "while(1)",
    "while (1)",
    "for(;;)",
    "for (;;)",
    "loop ",
];

const GROWTH: [&str; 25] = [
    "fork {",
    "fork do",
    "fork\n",
    ".append(",
    ".extend(",
    ".push(",
    "push(",
    "push @",
    " << ",
    "Buffer.alloc",
    "new Array(",
    "bytearray(",
    "str_repeat(",
    "array_push(",
    "[] =",
    "fork(",
    "fork;",
    "fork}",
    ".spawn(",
    "spawn(",
    "Popen(",
    "Process(",
    "Thread(",
    "Thread.new",
    "pcntl_fork",
];

/// A body that waits on each pass (a connection, a queue, input, a timer) is a server or a
/// worker, not an exhaustion loop.
const WAITS: [&str; 16] = [
    "accept(",
    "recv(",
    "read(",
    "readline(",
    "input(",
    "sleep(",
    "wait(",
    ".get(",
    "select(",
    "poll(",
    "await ",
    "gets",
    "getline",
    "STDIN",
    "<>",
    ".next(",
];

const EXITS: [&str; 8] = [
    "break", "return", "exit", "raise", "throw", "last;", "last ", "die",
];

/// The rule.
pub(crate) fn rules() -> Vec<RiskRule> {
    vec![
        RiskRule::analysis(
            "resource_exhaustion",
            endless_growth,
            RiskLevel::High,
            "An endless loop keeps allocating memory or starting processes with no way out: it exhausts the machine",
        )
        .reversible(true)
        .score(74)
        .tags(&["system", "exhaustion"])
        .mitigation("Bound the loop (a counter, a time limit) or break out of it"),
    ]
}

fn endless_growth(a: &Analysis) -> Vec<Hit> {
    let text = a.executable.as_str();
    let mut out = Vec::new();
    let mut seen = 0;
    for header in HEADERS {
        for (k, _) in text.match_indices(header) {
            seen += 1;
            if seen > MAX_LOOPS {
                return out;
            }
            // a whole word: not `dowhile(1)` or `myloop `
            if k > 0
                && text[..k]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            if header == "loop "
                && !text[k + header.len()..]
                    .trim_start()
                    .starts_with(['{', 'd'])
            {
                continue;
            }
            let body = body_of(text, k, header.len());
            let grows = GROWTH.iter().any(|g| body.contains(g));
            let exits = EXITS.iter().any(|e| contains_word(body, e));
            let waits = WAITS.iter().any(|w| body.contains(w));
            if grows && !exits && !waits {
                let line = text[..k].matches('\n').count() as u32 + 1;
                let end = (k + header.len() + body.len()).min(text.len());
                let matched = text
                    .get(k..end)
                    .unwrap_or("")
                    .chars()
                    .take(120)
                    .collect::<String>();
                out.push(Hit::new(matched).at(riskgate_model::Span::new(k, end), line));
            }
        }
    }
    // Perl's statement modifier: `push @a, "x" x 1e8 while 1`, `fork while 1`
    for (k, _) in text
        .match_indices(" while 1")
        .chain(text.match_indices(" while(1)"))
    {
        let stmt_start = text[..k].rfind([';', '{', '\n']).map_or(0, |s| s + 1);
        let stmt = &text[stmt_start..k];
        if GROWTH
            .iter()
            .any(|g| stmt.contains(g.trim_end_matches(['(', ' '])))
            && !stmt.contains("last")
        {
            let line = text[..k].matches('\n').count() as u32 + 1;
            out.push(
                Hit::new(text[stmt_start..k + 8.min(text.len() - k)].to_string())
                    .at(riskgate_model::Span::new(stmt_start, k), line),
            );
        }
    }
    out
}

/// The loop's body: an indented Python block, a `{ … }` block, `do … end`, or the rest of the
/// statement.
fn body_of(text: &str, k: usize, header_len: usize) -> &str {
    let after = k + header_len;
    let rest = text.get(after..).unwrap_or("");
    let limit = |s: &str| -> usize {
        let mut n = s.len().min(MAX_BODY);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        n
    };
    // Python: the same line after the colon, then lines indented deeper than the header
    if text[..after].ends_with(':') {
        let indent = text[..k]
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.len() - l.trim_start().len());
        let mut end = rest.find('\n').unwrap_or(rest.len());
        let same_line = rest[..end].trim();
        if same_line.is_empty() {
            for line in rest[end..].split_inclusive('\n').skip(1) {
                let t = line.trim_start();
                let ind = line.len() - t.len();
                if !t.trim().is_empty() && ind <= indent {
                    break;
                }
                end += line.len();
                if end > MAX_BODY {
                    break;
                }
            }
            end = (end + 1).min(rest.len());
        }
        return &rest[..end.min(limit(rest))];
    }
    let trimmed = rest.trim_start();
    let off = rest.len() - trimmed.len();
    // `while (true) {`, `loop {`, `while true do`, `loop do`
    if trimmed.starts_with('{') || trimmed.starts_with("do") {
        let b = trimmed.as_bytes();
        let mut depth = 0i32;
        for (i, &c) in b.iter().enumerate().take(MAX_BODY) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth <= 0 {
                        return &rest[..off + i + 1];
                    }
                }
                _ => {}
            }
        }
        return &rest[..limit(rest)];
    }
    // a single statement
    let end = rest.find([';', '\n']).map_or(rest.len(), |e| e + 1);
    &rest[..end.min(limit(rest))]
}

fn contains_word(body: &str, w: &str) -> bool {
    body.match_indices(w).any(|(k, _)| {
        let before = body[..k].chars().next_back();
        let after = body[k + w.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            || w.ends_with([';', ' '])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskgate_model::Language;

    fn hits(code: &str, lang: Language) -> usize {
        endless_growth(&Analysis::new(code, lang)).len()
    }

    #[test]
    fn endless_growth_is_found() {
        let py = Language::Python;
        assert_eq!(
            hits("x = []\nwhile True:\n    x.append(' ' * 10**9)\n", py),
            1
        );
        assert_eq!(hits("import os\nwhile 1: os.fork()", py), 1);
        assert_eq!(
            hits(
                "import subprocess\nwhile True:\n    subprocess.Popen(['sleep', '1000'])",
                py
            ),
            1
        );
        let js = Language::Js;
        assert_eq!(
            hits(
                "const a = []; while (true) a.push(new Array(1e7).fill(0));",
                js
            ),
            1
        );
        assert_eq!(
            hits(
                "for (;;) { require('child_process').spawn('node', ['-e', '1']) }",
                js
            ),
            1
        );
        assert_eq!(
            hits("let b = []; while(1) { b.push(Buffer.alloc(1e9)) }", js),
            1
        );
        assert_eq!(hits("a = []; loop { a << 'x' * 10**8 }", Language::Ruby), 1);
        assert_eq!(hits("loop do\n  fork { sleep }\nend", Language::Ruby), 1);
        assert_eq!(
            hits(
                "$a = []; while (true) { $a[] = str_repeat('x', 1e8); }",
                Language::Php
            ),
            1
        );
        assert_eq!(hits("push @a, 'x' x 1e8 while 1;", Language::Perl), 1);
    }

    #[test]
    fn bounded_or_exiting_loops_are_not() {
        let py = Language::Python;
        assert_eq!(
            hits(
                "while True:\n    line = input()\n    if not line:\n        break\n    items.append(line)\n",
                py
            ),
            0
        );
        assert_eq!(hits("while True:\n    time.sleep(1)\nprint('x')", py), 0);
        assert_eq!(hits("for i in range(10):\n    x.append(i)", py), 0);
        assert_eq!(hits("# while True: x.append(1)\nprint(1)", py), 0);
        let js = Language::Js;
        assert_eq!(
            hits(
                "while (true) { const m = q.shift(); if (!m) break; out.push(m) }",
                js
            ),
            0
        );
        assert_eq!(hits("for (let i = 0; i < 10; i++) a.push(i)", js), 0);
        assert_eq!(
            hits(
                "function f() { while (true) { if (done()) return r; r.push(1) } }",
                js
            ),
            0
        );
        assert_eq!(
            hits("loop { l = gets; break unless l; a << l }", Language::Ruby),
            0
        );
        // servers and workers wait on each pass
        assert_eq!(
            hits(
                "while True:\n    conn, addr = srv.accept()\n    threading.Thread(target=h, args=(conn,)).start()\n",
                py
            ),
            0
        );
        assert_eq!(
            hits(
                "while True:\n    item = q.get()\n    done.append(item)\n",
                py
            ),
            0
        );
        assert_eq!(
            hits("while (true) { const m = await next(); out.push(m) }", js),
            0
        );
        assert_eq!(
            hits(
                "while True:\n    samples.append(read_sensor())\n    time.sleep(60)\n",
                py
            ),
            0
        );
    }
}
