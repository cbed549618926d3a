//! Word expansion: a raw brush word → canonical [`Word`]s. Quote removal and concatenation,
//! `$'…'` decoding, literal variables from the script's environment (`$D`, `${D}`, `${D:-x}`),
//! substrings, case changes and literal removals (`${x:0:1}`, `${x,,}`, `${x//p/r}`, in
//! `paramops`), `~`/`$HOME` → leading `~`, word splitting of unquoted literal expansions,
//! and command substitutions (`$(…)`, backticks, `$((…))` bodies) parsed as nested scripts.

use brush_parser::word::{
    Parameter, ParameterExpr, SpecialParameter, SubstringMatchKind, TildeExpr, WordPiece,
    WordPieceWithSource,
};
use riskgate_model::Span;

use crate::ctx::{Feed, Frame, Norm, XWord};
use crate::paramops::{self, At, Case};
use crate::{Origin, ParseIssue, Word, escapes, fallback};

/// Deepest nesting of `${x:-${y:-…}}` defaults followed.
const MAX_DEFAULT_DEPTH: u32 = 4;

/// A piece of an expanded word.
struct Seg {
    text: String,
    dynamic: bool,
    /// Unquoted literal expansion: subject to word splitting.
    split: bool,
    /// The elements of an array, one per line (`"${arr[@]}"`): each line is a word of its
    /// own, with its blanks kept.
    elems: bool,
}

/// The field separators bash uses when the script sets no `IFS`.
pub(crate) const DEFAULT_IFS: &str = " \t\n";

pub(crate) fn parser_options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions::default()
}

impl Norm<'_> {
    /// Expand `raw` into zero or more words (unquoted literal expansions are split), appended
    /// to `out`. `span` is where nested commands found in the word are reported.
    pub(crate) fn expand_into(
        &mut self,
        raw: &str,
        frame: &Frame,
        span: Span,
        out: &mut Vec<XWord>,
    ) {
        // brace expansion comes first: one word per alternative
        if let Some(words) = crate::braces::expand(raw) {
            for w in words {
                self.expand_plain(&w, frame, span, out);
            }
            return;
        }
        self.expand_plain(raw, frame, span, out);
    }

    /// [`Norm::expand_into`] after brace expansion.
    fn expand_plain(&mut self, raw: &str, frame: &Frame, span: Span, out: &mut Vec<XWord>) {
        let mut feed = Feed::default();
        let segs = self.segments(raw, frame, span, &mut feed, false);
        // Field splitting uses the script's IFS when it set one literally (`IFS=,; $c`).
        let ifs = match self.env.get("IFS") {
            Some(Some(v)) => v.clone(),
            _ => DEFAULT_IFS.to_string(),
        };
        assemble(segs, feed, out, &ifs);
    }

    /// Expand `raw` into exactly one word (no splitting: assignments, redirect targets,
    /// here-strings, `case` subjects).
    pub(crate) fn expand_one(&mut self, raw: &str, frame: &Frame, span: Span) -> XWord {
        let mut feed = Feed::default();
        let segs = self.segments(raw, frame, span, &mut feed, false);
        let mut w = Word {
            text: String::new(),
            dynamic: false,
        };
        for s in segs {
            w.text.push_str(&s.text);
            w.dynamic |= s.dynamic;
        }
        XWord { w, feed }
    }

    /// Expand a here-document body that requires expansion (`$x`, `$(…)` but not quotes).
    pub(crate) fn expand_heredoc(&mut self, body: &str, frame: &Frame, span: Span) -> Word {
        let mut w = Word {
            text: String::new(),
            dynamic: false,
        };
        match self.parse_word(body, true, frame, span) {
            Ok(pieces) => {
                let mut feed = Feed::default();
                let mut segs = Vec::new();
                self.pieces(&pieces, body, true, frame, span, &mut feed, &mut segs, 0);
                for s in segs {
                    w.text.push_str(&s.text);
                    w.dynamic |= s.dynamic;
                }
            }
            Err(e) => {
                self.issue(ParseIssue::Word {
                    message: e.to_string(),
                });
                w.text = body.to_string();
                w.dynamic = true;
            }
        }
        w
    }

    fn segments(
        &mut self,
        raw: &str,
        frame: &Frame,
        span: Span,
        feed: &mut Feed,
        quoted: bool,
    ) -> Vec<Seg> {
        let mut segs = Vec::new();
        // Fast path: plain words need no parser.
        if is_plain(raw) {
            segs.push(Seg {
                text: raw.to_string(),
                dynamic: false,
                split: false,
                elems: false,
            });
            return segs;
        }
        match self.parse_word(raw, false, frame, span) {
            Ok(pieces) => self.pieces(&pieces, raw, quoted, frame, span, feed, &mut segs, 0),
            Err(e) => {
                self.issue(ParseIssue::Word {
                    message: e.to_string(),
                });
                let text = fallback::unquote(raw);
                let dynamic = raw.contains('$') || raw.contains('`');
                segs.push(Seg {
                    text,
                    dynamic,
                    split: false,
                    elems: false,
                });
            }
        }
        segs
    }

    #[allow(clippy::too_many_arguments)]
    fn pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        raw: &str,
        quoted: bool,
        frame: &Frame,
        span: Span,
        feed: &mut Feed,
        segs: &mut Vec<Seg>,
        level: u32,
    ) {
        // `${(s: :)${:-…}}`: an expansion bash's word parser does not know, cut into text
        // pieces `$`, `{(s: :)` …; what zsh makes of it when it is a literal's, else unknown
        // — never the raw text taken for a name
        if level == 0 && raw.contains("${") && unparsed_expansion(pieces) {
            segs.push(match crate::othershell::zsh_literal_expansion(raw) {
                Some(v) => Seg {
                    text: v,
                    dynamic: false,
                    split: !quoted,
                    elems: false,
                },
                None => Seg {
                    text: raw.to_string(),
                    dynamic: true,
                    split: false,
                    elems: false,
                },
            });
            return;
        }
        // Where a substitution's body was re-cut (`$(case x in x) …;; esac)`): pieces before
        // this index of `raw` belong to it.
        let mut taken = 0usize;
        for p in pieces {
            if p.end_index <= taken {
                continue;
            }
            if p.start_index < taken {
                if let WordPiece::Text(_) = &p.piece {
                    segs.push(lit(raw.get(taken..p.end_index).unwrap_or("")));
                }
                continue;
            }
            let src = raw.get(p.start_index..p.end_index).unwrap_or("$…");
            if let WordPiece::CommandSubstitution(body) = &p.piece
                && let Some((body, end)) = recut_substitution(raw, p.start_index, p.end_index, body)
            {
                let src = raw.get(p.start_index..end).unwrap_or("$…");
                segs.push(self.substitution(&body, src, quoted, frame, span, feed));
                taken = end;
                continue;
            }
            match &p.piece {
                // an expansion bash's word parser left as text (zsh's `${(s: :)${:-…}}`):
                // what zsh makes of it when that is a literal, else unknown — never the raw
                // text taken for a name
                WordPiece::Text(t) if t.contains("${") => {
                    segs.push(match crate::othershell::zsh_literal_expansion(t) {
                        Some(v) => Seg {
                            text: v,
                            dynamic: false,
                            split: !quoted,
                            elems: false,
                        },
                        None => Seg {
                            text: t.clone(),
                            dynamic: true,
                            split: false,
                            elems: false,
                        },
                    })
                }
                WordPiece::Text(t) => segs.push(lit(t)),
                WordPiece::SingleQuotedText(t) => segs.push(lit(t)),
                WordPiece::AnsiCQuotedText(t) => segs.push(lit(&escapes::ansi_c(t))),
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    // An empty "" still makes a word.
                    segs.push(lit(""));
                    self.pieces(inner, raw, true, frame, span, feed, segs, level);
                }
                WordPiece::TildeExpansion(t) => segs.push(lit(&tilde(t))),
                WordPiece::EscapeSequence(e) => segs.push(lit(&unescape(e, quoted))),
                WordPiece::ParameterExpansion(expr) => {
                    let seg = self.parameter(expr, src, quoted, frame, span, feed, level);
                    segs.push(seg);
                }
                WordPiece::CommandSubstitution(body) => {
                    segs.push(self.substitution(body, src, quoted, frame, span, feed));
                }
                WordPiece::BackquotedCommandSubstitution(body) => {
                    let body = unescape_backquoted(body);
                    segs.push(self.substitution(&body, src, quoted, frame, span, feed));
                }
                WordPiece::ArithmeticExpression(e) => {
                    // integers and variables set to integers (`$((KEEP + 1))`): the value
                    if let Some(v) = crate::arith::eval(&e.value, &self.env) {
                        segs.push(Seg {
                            text: v.to_string(),
                            dynamic: false,
                            split: !quoted,
                            elems: false,
                        });
                        continue;
                    }
                    // arithmetic may assign (`$((x++))`): no variable stays certain
                    self.script.certain.clear();
                    if e.value.contains("$(") || e.value.contains('`') {
                        let mut f2 = Feed::default();
                        let _ = self.segments(&e.value, frame, span, &mut f2, true);
                        feed.merge(f2);
                    }
                    segs.push(Seg {
                        text: src.to_string(),
                        dynamic: true,
                        split: false,
                        elems: false,
                    });
                }
            }
        }
    }

    /// The expansion of a parameter's default word `d` (`${x:-~/.ssh}`), or `None` when it
    /// is nested too deep or does not parse (the caller then has a dynamic word).
    fn default_word(
        &mut self,
        d: &str,
        quoted: bool,
        frame: &Frame,
        span: Span,
        feed: &mut Feed,
        level: u32,
    ) -> Option<Seg> {
        if level >= MAX_DEFAULT_DEPTH {
            return None;
        }
        let ps = self.parse_word(d, false, frame, span).ok()?;
        let mut inner = Vec::new();
        self.pieces(&ps, d, quoted, frame, span, feed, &mut inner, level + 1);
        Some(Seg {
            text: inner.iter().map(|s| s.text.as_str()).collect(),
            dynamic: inner.iter().any(|s| s.dynamic),
            split: !quoted,
            elems: false,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn parameter(
        &mut self,
        expr: &ParameterExpr,
        src: &str,
        quoted: bool,
        frame: &Frame,
        span: Span,
        feed: &mut Feed,
        level: u32,
    ) -> Seg {
        let dynamic = || Seg {
            text: src.to_string(),
            dynamic: true,
            split: false,
            elems: false,
        };
        match expr {
            ParameterExpr::Parameter {
                parameter: Parameter::Named(n),
                indirect: false,
            } => {
                // `x=$(curl …); bash -c "$x"`: the value is still downloaded text.
                if let Some(f) = self.script.var_feed.get(n.as_str()) {
                    feed.merge(*f);
                }
                self.lookup(n, quoted).unwrap_or_else(dynamic)
            }
            // `${!ref}`: the variable whose name `ref` holds.
            ParameterExpr::Parameter {
                parameter: Parameter::Named(n),
                indirect: true,
            } => match self.env.get(n.as_str()) {
                Some(Some(target)) if crate::unwrap::is_name(target) => {
                    let target = target.clone();
                    self.lookup(&target, quoted).unwrap_or_else(dynamic)
                }
                _ => dynamic(),
            },
            // `"${arr[@]}"`, `"$@"`: every element is a word of its own, quoted or not.
            ParameterExpr::Parameter {
                parameter:
                    Parameter::NamedWithAllIndices {
                        name,
                        concatenate: false,
                    },
                indirect: false,
            } => self
                .elements(&format!("{name}[@]"), quoted)
                .unwrap_or_else(dynamic),
            // `${arr[*]}`: the elements joined, split again when unquoted.
            ParameterExpr::Parameter {
                parameter:
                    Parameter::NamedWithAllIndices {
                        name,
                        concatenate: true,
                    },
                indirect: false,
            } => {
                // quoted, the elements are joined with the first character of IFS
                let sep = match self.env.get("IFS") {
                    Some(Some(ifs)) if quoted => ifs.chars().next(),
                    Some(Some(_)) | None => Some(' '),
                    Some(None) => None,
                };
                match (self.env.get(&format!("{name}[@]")), sep) {
                    (Some(Some(v)), Some(c)) => Seg {
                        text: array_items(v).join(&c.to_string()),
                        split: !quoted,
                        dynamic: false,
                        elems: false,
                    },
                    _ => dynamic(),
                }
            }
            ParameterExpr::Parameter {
                parameter:
                    Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate: false }),
                indirect: false,
            } => self.elements("@", quoted).unwrap_or_else(dynamic),
            ParameterExpr::Parameter {
                parameter: Parameter::NamedWithIndex { name, index },
                indirect: false,
            } => index
                .parse::<usize>()
                .ok()
                .and_then(|i| self.element(&format!("{name}[@]"), i, quoted))
                .unwrap_or_else(dynamic),
            ParameterExpr::Parameter {
                parameter: Parameter::Positional(n @ 1..),
                indirect: false,
            } => self
                .element("@", *n as usize - 1, quoted)
                .unwrap_or_else(dynamic),
            // `$0`: known only inside `sh -c SCRIPT NAME …`.
            ParameterExpr::Parameter {
                parameter: Parameter::Special(SpecialParameter::ShellName),
                indirect: false,
            } => self.lookup("0", quoted).unwrap_or_else(dynamic),
            // `${1:-/dev/sdb}`: a script's argument, or its default when none is given (the
            // informative reading: what the script acts on when run as written)
            ParameterExpr::UseDefaultValues {
                parameter: Parameter::Positional(n @ 1..),
                indirect: false,
                default_value,
                ..
            } => {
                if let Some(seg) = self.element("@", *n as usize - 1, quoted) {
                    return seg;
                }
                let Some(d) = default_value else {
                    return dynamic();
                };
                self.default_word(d, quoted, frame, span, feed, level)
                    .unwrap_or_else(dynamic)
            }
            ParameterExpr::UseDefaultValues {
                parameter: Parameter::Named(n),
                indirect: false,
                default_value,
                ..
            }
            | ParameterExpr::AssignDefaultValues {
                parameter: Parameter::Named(n),
                indirect: false,
                default_value,
                ..
            } => {
                if let Some(seg) = self
                    .lookup(n, quoted)
                    .filter(|s| !s.text.is_empty() || s.dynamic)
                {
                    return seg;
                }
                if self.env.contains_key(n.as_str()) {
                    return dynamic();
                }
                // Unset in the script: assume the default (the informative reading for risk).
                let Some(d) = default_value else {
                    return lit("");
                };
                let Some(seg) = self.default_word(d, quoted, frame, span, feed, level) else {
                    return dynamic();
                };
                if matches!(expr, ParameterExpr::AssignDefaultValues { .. }) && !seg.dynamic {
                    self.set_var(n, Some(seg.text.clone()));
                }
                seg
            }
            // `${x:?}` / `${x?msg}`: the value, or the script stops (it then runs nothing
            // more, so the value is the informative reading)
            ParameterExpr::IndicateErrorIfNullOrUnset {
                parameter: Parameter::Named(n),
                indirect: false,
                ..
            } => {
                if let Some(f) = self.script.var_feed.get(n.as_str()) {
                    feed.merge(*f);
                }
                self.lookup(n, quoted).unwrap_or_else(dynamic)
            }
            // `${x:1:3}`, `${PATH:0:1}`: a substring of a known value, or the `/` that
            // starts a well-known path variable.
            // `${arr[@]:1:2}`: a slice of a known array's elements
            ParameterExpr::Substring {
                parameter: Parameter::NamedWithAllIndices { name, .. },
                indirect: false,
                offset,
                length,
            } => {
                let off = offset.value.trim().parse::<usize>().ok();
                let len = match length {
                    Some(l) => l.value.trim().parse::<usize>().ok().map(Some),
                    None => Some(None),
                };
                match (self.env.get(&format!("{name}[@]")), off, len) {
                    (Some(Some(v)), Some(off), Some(len)) => {
                        let items = array_items(v);
                        let end =
                            len.map_or(items.len(), |l| off.saturating_add(l).min(items.len()));
                        let slice = items.get(off.min(end)..end).unwrap_or(&[]);
                        // quoted, a slice keeps its elements whole, as the array does
                        if quoted && v.ends_with('\n') {
                            Seg {
                                text: slice.join("\n"),
                                dynamic: false,
                                split: false,
                                elems: true,
                            }
                        } else {
                            Seg {
                                text: slice.join(" "),
                                dynamic: false,
                                split: true,
                                elems: false,
                            }
                        }
                    }
                    _ => dynamic(),
                }
            }
            ParameterExpr::Substring {
                parameter: Parameter::Named(n),
                indirect: false,
                offset,
                length,
            } => {
                self.merge_var_feed(n, feed);
                let length = length.as_ref().map(|l| l.value.as_str());
                match self.known(n) {
                    Some(v) => paramops::substring(&v, &offset.value, length),
                    None if !self.env.contains_key(n.as_str()) => {
                        paramops::rooted_substring(n, &offset.value, length)
                    }
                    None => None,
                }
                .map(|text| Seg {
                    text,
                    dynamic: false,
                    split: !quoted,
                    elems: false,
                })
                .unwrap_or_else(dynamic)
            }
            // `${x#p}`, `${x%p}`, `${x/p/r}`, `${x//p/r}` with a literal pattern.
            ParameterExpr::RemoveSmallestPrefixPattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::RemoveLargestPrefixPattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::RemoveSmallestSuffixPattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::RemoveLargestSuffixPattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            } => {
                self.merge_var_feed(n, feed);
                let at = match expr {
                    ParameterExpr::RemoveSmallestPrefixPattern { .. }
                    | ParameterExpr::RemoveLargestPrefixPattern { .. } => At::Prefix,
                    _ => At::Suffix,
                };
                self.known(n)
                    .and_then(|v| paramops::replace(&v, pattern.as_deref().unwrap_or(""), None, at))
                    .map(|text| Seg {
                        text,
                        dynamic: false,
                        split: !quoted,
                        elems: false,
                    })
                    .unwrap_or_else(dynamic)
            }
            ParameterExpr::ReplaceSubstring {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
                replacement,
                match_kind,
            } => {
                self.merge_var_feed(n, feed);
                let at = match match_kind {
                    SubstringMatchKind::Prefix => At::Prefix,
                    SubstringMatchKind::Suffix => At::Suffix,
                    SubstringMatchKind::FirstOccurrence => At::First,
                    SubstringMatchKind::Anywhere => At::All,
                };
                self.known(n)
                    .and_then(|v| paramops::replace(&v, pattern, replacement.as_deref(), at))
                    .map(|text| Seg {
                        text,
                        dynamic: false,
                        split: !quoted,
                        elems: false,
                    })
                    .unwrap_or_else(dynamic)
            }
            // `${x,,}`, `${x^^}`, `${x^}`, `${x,}` of a known value.
            ParameterExpr::UppercasePattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::UppercaseFirstChar {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::LowercasePattern {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            }
            | ParameterExpr::LowercaseFirstChar {
                parameter: Parameter::Named(n),
                indirect: false,
                pattern,
            } => {
                self.merge_var_feed(n, feed);
                let case = match expr {
                    ParameterExpr::UppercasePattern { .. } => Case::UpperAll,
                    ParameterExpr::UppercaseFirstChar { .. } => Case::UpperFirst,
                    ParameterExpr::LowercasePattern { .. } => Case::LowerAll,
                    _ => Case::LowerFirst,
                };
                self.known(n)
                    .and_then(|v| paramops::change_case(&v, case, pattern.as_deref()))
                    .map(|text| Seg {
                        text,
                        dynamic: false,
                        split: !quoted,
                        elems: false,
                    })
                    .unwrap_or_else(dynamic)
            }
            _ => dynamic(),
        }
    }

    /// The literal value of a named variable (through a nameref), if the script set one.
    fn known(&self, name: &str) -> Option<String> {
        let name = match self.script.namerefs.get(name) {
            Some(target) => target.as_str(),
            None => name,
        };
        match self.env.get(name) {
            Some(Some(v)) => Some(v.clone()),
            _ => None,
        }
    }

    /// A variable holding downloaded text passes it on to what is made of it.
    fn merge_var_feed(&self, name: &str, feed: &mut Feed) {
        if let Some(f) = self.script.var_feed.get(name) {
            feed.merge(*f);
        }
    }

    /// All elements of a known array (`arr[@]`, or `@` for the positional parameters).
    /// Quoted (`"${arr[@]}"`), each element is one word with its blanks kept; unquoted, the
    /// elements are split like any unquoted value.
    fn elements(&self, key: &str, quoted: bool) -> Option<Seg> {
        match self.env.get(key) {
            Some(Some(v)) => {
                let items = array_items(v);
                Some(if quoted && v.ends_with('\n') {
                    Seg {
                        text: items.join("\n"),
                        dynamic: false,
                        split: false,
                        elems: true,
                    }
                } else {
                    Seg {
                        text: items.join(" "),
                        dynamic: false,
                        split: true,
                        elems: false,
                    }
                })
            }
            _ => None,
        }
    }

    /// Element `i` of a known array.
    fn element(&self, key: &str, i: usize, quoted: bool) -> Option<Seg> {
        match self.env.get(key) {
            // a line of a line-separated array is split like any unquoted value; an element
            // of a blank-separated one has no blank to split on
            Some(Some(v)) => Some(Seg {
                text: array_items(v).get(i).copied().unwrap_or("").to_string(),
                dynamic: false,
                split: v.ends_with('\n') && !quoted,
                elems: false,
            }),
            _ => None,
        }
    }

    /// The value of a named variable, if the script made it known.
    fn lookup(&self, name: &str, quoted: bool) -> Option<Seg> {
        // `declare -n ref=cmd`: `$ref` is `$cmd`.
        let name = match self.script.namerefs.get(name) {
            Some(target) => target.as_str(),
            None => name,
        };
        match self.env.get(name) {
            Some(Some(v)) => Some(Seg {
                text: v.clone(),
                dynamic: false,
                split: !quoted,
                elems: false,
            }),
            // partly known text: its known parts still name a host or an environment
            Some(None) => self.script.var_shape.get(name).map(|shape| Seg {
                text: shape.clone(),
                dynamic: true,
                split: false,
                elems: false,
            }),
            None if name == "HOME" => Some(lit("~")),
            None => None,
        }
    }

    fn substitution(
        &mut self,
        body: &str,
        src: &str,
        quoted: bool,
        frame: &Frame,
        span: Span,
        feed: &mut Feed,
    ) -> Seg {
        let start = self.commands.len();
        let issues = self.issues.len();
        let inner = frame.nested(Origin::CommandSubstitution, span);
        // a substitution runs in a subshell: what it assigns (`$(IFS=/; echo …)`) is gone after
        self.begin_branch();
        let _ = self.parse_text(body, &inner);
        self.end_scope();
        if self.commands.len() == start && self.issues.len() == issues {
            // Runs nothing, so outputs nothing: ``` ``rm -rf / ``` is `rm -rf /`.
            return lit("");
        }
        let mut f = self.feed_since(start);
        f.subst = true;
        feed.merge(f);
        match self.output_since(start) {
            Some(out) => {
                let text = out.trim_end_matches('\n').to_string();
                Seg {
                    text,
                    dynamic: false,
                    split: !quoted,
                    elems: false,
                }
            }
            None => Seg {
                text: src.to_string(),
                dynamic: true,
                split: false,
                elems: false,
            },
        }
    }
}

/// The word parser ends `$(…)` at the first `)`, even the one closing a `case` pattern
/// (`$(case x in x) rm -rf / ;; esac)`), where bash reads on. When the body it found is not a
/// complete script, the first longer body up to a later `)` that is one: the body and the
/// index just past its `)`.
fn recut_substitution(raw: &str, start: usize, end: usize, body: &str) -> Option<(String, usize)> {
    const MAX_TRIES: usize = 16;
    if !raw.get(start..)?.starts_with("$(") || raw.get(start..)?.starts_with("$((") {
        return None;
    }
    if !body.contains("case") || complete_script(body) {
        return None;
    }
    let open = start + 2;
    raw.get(end..)?
        .match_indices(')')
        .take(MAX_TRIES)
        .map(|(k, _)| end + k)
        .find_map(|close| {
            let candidate = raw.get(open..close)?;
            complete_script(candidate).then(|| (candidate.to_string(), close + 1))
        })
}

/// Whether `text` parses as a whole script.
fn complete_script(text: &str) -> bool {
    if !crate::watchdog::admit(text, 0) {
        return false;
    }
    let opts = parser_options();
    let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text.as_bytes()), &opts);
    parser.parse_program().is_ok()
}

fn lit(s: &str) -> Seg {
    Seg {
        text: s.to_string(),
        dynamic: false,
        split: false,
        elems: false,
    }
}

/// True when `raw` has nothing for the word parser to do.
/// Whether brush left a `${…}` as text pieces (`$` then `{…`): an expansion it does not know.
fn unparsed_expansion(pieces: &[WordPieceWithSource]) -> bool {
    pieces.windows(2).any(|w| {
        matches!((&w[0].piece, &w[1].piece),
            (WordPiece::Text(a), WordPiece::Text(b)) if a.ends_with('$') && b.starts_with('{'))
    })
}

fn is_plain(raw: &str) -> bool {
    !raw.is_empty()
        && !raw.starts_with('~')
        && !raw
            .bytes()
            .any(|b| matches!(b, b'\'' | b'"' | b'\\' | b'$' | b'`'))
}

fn tilde(t: &TildeExpr) -> String {
    match t {
        TildeExpr::Home => "~".to_string(),
        TildeExpr::UserHome(u) => format!("~{u}"),
        TildeExpr::WorkingDir => "~+".to_string(),
        TildeExpr::OldWorkingDir => "~-".to_string(),
        TildeExpr::NthDirFromTopOfDirStack { n, .. } => format!("~+{n}"),
        TildeExpr::NthDirFromBottomOfDirStack { n } => format!("~-{n}"),
    }
}

fn unescape(e: &str, quoted: bool) -> String {
    let mut chars = e.chars();
    let (Some('\\'), Some(c)) = (chars.next(), chars.next()) else {
        return e.to_string();
    };
    if c == '\n' {
        return String::new();
    }
    if quoted && !matches!(c, '$' | '`' | '"' | '\\') {
        return e.to_string();
    }
    c.to_string()
}

/// Inside backquotes, `\\`, `` \` `` and `\$` stand for the character.
fn unescape_backquoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\'
            && let Some(&n) = it.peek()
            && matches!(n, '\\' | '`' | '$')
        {
            out.push(n);
            it.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// An array's elements as the script's variables hold them (under `NAME[@]`): separated by
/// blanks when no element has a blank in it, else one per line with a newline after each (the
/// form `mapfile` makes).
pub(crate) fn array_value(items: &[String]) -> String {
    if items
        .iter()
        .any(|i| i.is_empty() || i.contains(char::is_whitespace))
    {
        // a line break inside an element separates commands, as `;` does
        items
            .iter()
            .map(|i| format!("{}\n", i.replace('\n', "; ")))
            .collect()
    } else {
        items.join(" ")
    }
}

/// The elements of an array value (see [`array_value`]).
pub(crate) fn array_items(v: &str) -> Vec<&str> {
    if v.ends_with('\n') {
        v.lines().collect()
    } else {
        v.split_whitespace().collect()
    }
}

/// Join segments into words, splitting unquoted literal expansions on the IFS characters.
fn assemble(segs: Vec<Seg>, feed: Feed, out: &mut Vec<XWord>, ifs: &str) {
    let mut cur = Word {
        text: String::new(),
        dynamic: false,
    };
    let mut has = false;
    let push = |cur: &mut Word, has: &mut bool, out: &mut Vec<XWord>| {
        if *has {
            out.push(XWord {
                w: std::mem::replace(
                    cur,
                    Word {
                        text: String::new(),
                        dynamic: false,
                    },
                ),
                feed,
            });
        }
        *has = false;
    };
    for s in segs {
        if s.elems && !s.dynamic {
            // one word per element, even an empty one (`"${a[@]}"` of `a=('' x)`)
            has = true;
            for c in s.text.chars() {
                if c == '\n' {
                    push(&mut cur, &mut has, out);
                    has = true;
                } else {
                    cur.text.push(c);
                }
            }
        } else if s.split && !s.dynamic {
            for c in s.text.chars() {
                if ifs.contains(c) {
                    push(&mut cur, &mut has, out);
                } else {
                    cur.text.push(c);
                    has = true;
                }
            }
        } else {
            cur.text.push_str(&s.text);
            cur.dynamic |= s.dynamic;
            has = true;
        }
    }
    push(&mut cur, &mut has, out);
}
