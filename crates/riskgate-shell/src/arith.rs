//! Bash arithmetic (`$((KEEP + 1))`, `$(( 0x72 ))`) over integers and variables the script set
//! to integers: `+ - * / %`, unary minus, parentheses. Anything else (an assignment `x++`,
//! `=`, a comparison, a variable with no known integer value, overflow, division by zero) is
//! unknown, as it was before: the value stays a run-time value.

use std::collections::HashMap;

/// Longest expression read.
const MAX_LEN: usize = 256;
/// Deepest parenthesis nesting read.
const MAX_DEPTH: usize = 16;

/// The value of `expr`, when every part of it is known.
pub(crate) fn eval(expr: &str, vars: &HashMap<String, Option<String>>) -> Option<i64> {
    if expr.len() > MAX_LEN {
        return None;
    }
    let toks = lex(expr, vars)?;
    let mut p = Parser { toks, at: 0 };
    let v = p.sum(0)?;
    (p.at == p.toks.len()).then_some(v)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Num(i64),
    Op(char),
}

fn lex(expr: &str, vars: &HashMap<String, Option<String>>) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let b = expr.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\n' => i += 1,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'(' | b')' => {
                // `++`, `--`, `**`, `*=` … assign or do what is not read here
                if matches!(b.get(i + 1), Some(n) if *n == c && c != b'(' && c != b')')
                    || b.get(i + 1) == Some(&b'=')
                {
                    return None;
                }
                out.push(Tok::Op(char::from(c)));
                i += 1;
            }
            b'0'..=b'9' => {
                let s = i;
                while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
                    i += 1;
                }
                out.push(Tok::Num(number(&expr[s..i])?));
            }
            b'$' | b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let s = if c == b'$' { i + 1 } else { i };
                let braced = b.get(s) == Some(&b'{');
                let start = if braced { s + 1 } else { s };
                let mut j = start;
                while b
                    .get(j)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    j += 1;
                }
                let name = &expr[start..j];
                if name.is_empty() {
                    return None;
                }
                if braced {
                    if b.get(j) != Some(&b'}') {
                        return None;
                    }
                    j += 1;
                }
                let value = vars.get(name)?.as_deref()?;
                out.push(Tok::Num(number(value.trim())?));
                i = j;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A bash integer literal: decimal, `0x` hex, leading-zero octal.
fn number(s: &str) -> Option<i64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if s.len() > 1 && s.starts_with('0') {
        return i64::from_str_radix(&s[1..], 8).ok();
    }
    s.parse().ok()
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.at).copied()
    }

    fn sum(&mut self, depth: usize) -> Option<i64> {
        let mut v = self.product(depth)?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek() {
            self.at += 1;
            let r = self.product(depth)?;
            v = if op == '+' {
                v.checked_add(r)?
            } else {
                v.checked_sub(r)?
            };
        }
        Some(v)
    }

    fn product(&mut self, depth: usize) -> Option<i64> {
        let mut v = self.unary(depth)?;
        while let Some(Tok::Op(op @ ('*' | '/' | '%'))) = self.peek() {
            self.at += 1;
            let r = self.unary(depth)?;
            v = match op {
                '*' => v.checked_mul(r)?,
                '/' => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
        }
        Some(v)
    }

    fn unary(&mut self, depth: usize) -> Option<i64> {
        match self.peek()? {
            Tok::Op('-') => {
                self.at += 1;
                self.unary(depth)?.checked_neg()
            }
            Tok::Op('+') => {
                self.at += 1;
                self.unary(depth)
            }
            Tok::Op('(') if depth < MAX_DEPTH => {
                self.at += 1;
                let v = self.sum(depth + 1)?;
                (self.peek()? == Tok::Op(')')).then_some(())?;
                self.at += 1;
                Some(v)
            }
            Tok::Num(n) => {
                self.at += 1;
                Some(n)
            }
            Tok::Op(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::eval;
    use std::collections::HashMap;

    #[test]
    fn known_integers_are_computed_the_rest_is_unknown() {
        let mut vars = HashMap::new();
        vars.insert("KEEP".to_string(), Some("0".to_string()));
        vars.insert("x".to_string(), None);
        assert_eq!(eval("KEEP + 1", &vars), Some(1));
        assert_eq!(eval("$KEEP+1", &vars), Some(1));
        assert_eq!(eval("(${KEEP} + 3) * 2 - 0x10 % 7", &vars), Some(4));
        assert_eq!(eval("-010", &vars), Some(-8));
        assert_eq!(eval("x + 1", &vars), None);
        assert_eq!(eval("y + 1", &vars), None);
        assert_eq!(eval("KEEP++", &vars), None);
        assert_eq!(eval("1 / 0", &vars), None);
        assert_eq!(eval("9223372036854775807 + 1", &vars), None);
        assert_eq!(eval("1 < 2", &vars), None);
        assert_eq!(eval(&"(".repeat(40), &vars), None);
    }
}
