//! Folding of the calls an expression may start with: decoders (hex, base64, rot13, char
//! codes), home and temporary directories, environment reads and path joins.

use base64::Engine as _;

use super::super::calls::{Scope, Walker, norm_module, resolve};
use super::super::token::Token;
use super::Fv;

/// Environment variables read as paths.
pub(super) fn env_path(var: &str) -> Option<&'static str> {
    match var {
        "HOME" | "USERPROFILE" => Some("~"),
        "TMPDIR" | "TEMP" | "TMP" => Some("/tmp"),
        _ => None,
    }
}

pub(super) fn utf8(b: Vec<u8>) -> Option<String> {
    String::from_utf8(b).ok()
}

pub(super) fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => char::from(c as u8 + 13),
            'n'..='z' | 'N'..='Z' => char::from(c as u8 - 13),
            _ => c,
        })
        .collect()
}

pub(super) fn hex(s: &str) -> Option<Vec<u8>> {
    let clean: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !clean.len().is_multiple_of(2) {
        return None;
    }
    clean
        .chunks(2)
        .map(|p| {
            let t = std::str::from_utf8(p).ok()?;
            u8::from_str_radix(t, 16).ok()
        })
        .collect()
}

pub(super) fn b64(s: &str, url: bool) -> Option<Vec<u8>> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let clean = clean.trim_end_matches('=');
    let engine = if url {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
    } else {
        base64::engine::general_purpose::STANDARD_NO_PAD
    };
    engine.decode(clean.as_bytes()).ok()
}

pub(super) fn char_of(n: i64) -> Option<char> {
    u32::try_from(n).ok().and_then(char::from_u32)
}

pub(super) fn num(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        return i64::from_str_radix(o, 8).ok();
    }
    t.parse().ok()
}

impl Walker<'_> {
    /// A primary that starts with a name: a known call, or an environment read.
    pub(super) fn call_primary(
        &self,
        from: usize,
        to: usize,
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<(Fv, usize)> {
        // the dotted name; `require('os').homedir` is `os.homedir`
        let mut k = from;
        let mut name = String::new();
        while let Some(w) = self.toks.get(k).and_then(Token::ident) {
            if name.is_empty() {
                let (n, _, _) = resolve(scope, w, self.lang);
                name = n;
            } else {
                name.push('.');
                name.push_str(w);
            }
            k += 1;
            if matches!(
                name.as_str(),
                "require" | "__import__" | "importlib.import_module"
            ) && self.toks.get(k).is_some_and(|t| t.is_punct("("))
            {
                let close = self.skip_group(k);
                name = norm_module(&self.known_str(k + 1, close, scope, decoded)?);
                k = close + 1;
            }
            if self.toks.get(k).is_some_and(|t| t.is_punct(".")) && k + 1 < to {
                k += 1;
            } else {
                break;
            }
        }
        // `process.env.HOME`, `os.environ['HOME']`, `process.env['HOME']`
        if let Some(var) = name.strip_prefix("process.env.") {
            return Some((Fv::Str(env_path(var)?.to_string()), k));
        }
        if (name == "os.environ" || name == "process.env")
            && self.toks.get(k).is_some_and(|t| t.is_punct("["))
        {
            let close = self.skip_group(k);
            let var = self.known_str(k + 1, close, scope, decoded)?;
            return Some((Fv::Str(env_path(&var)?.to_string()), close + 1));
        }
        let open = k;
        if !self.toks.get(open).is_some_and(|t| t.is_punct("(")) {
            return None;
        }
        let (args, next) = self.arg_ranges(open)?;
        let arg = |i: usize, decoded: &mut bool| -> Option<String> {
            let (a, b) = *args.get(i)?;
            self.known_str(a, b, scope, decoded)
        };
        let v = match name.as_str() {
            "os.homedir"
            | "os.userInfo().homedir"
            | "pathlib.Path.home"
            | "pathlib.PurePath.home" => Fv::Str("~".into()),
            "os.tmpdir" | "tempfile.gettempdir" => Fv::Str("/tmp".into()),
            "os.getenv" | "os.environ.get" | "Deno.env.get" => {
                Fv::Str(env_path(&arg(0, decoded)?)?.to_string())
            }
            "os.path.expanduser" | "pathlib.Path" | "pathlib.PurePath" | "os.path.abspath"
            | "os.path.normpath" | "os.path.realpath" | "str" | "String" => {
                if args.len() != 1 {
                    return None;
                }
                Fv::Str(arg(0, decoded)?)
            }
            "os.path.join" | "path.join" | "path.resolve" | "path.posix.join" => {
                let mut out = String::new();
                for i in 0..args.len() {
                    let p = arg(i, decoded)?;
                    if p.starts_with('/') || out.is_empty() {
                        out = p;
                    } else {
                        if !out.ends_with('/') {
                            out.push('/');
                        }
                        out.push_str(&p);
                    }
                }
                Fv::Str(out)
            }
            "chr" => {
                *decoded = true;
                let n = match self.known(args.first()?.0, args.first()?.1, scope, decoded)? {
                    Fv::Num(n) => n,
                    _ => return None,
                };
                Fv::Str(char_of(n)?.to_string())
            }
            "String.fromCharCode" | "String.fromCodePoint" => {
                *decoded = true;
                let mut s = String::new();
                for &(a, b) in &args {
                    match self.known(a, b, scope, decoded)? {
                        Fv::Num(n) => s.push(char_of(n)?),
                        _ => return None,
                    }
                }
                Fv::Str(s)
            }
            "bytes.fromhex" | "bytearray.fromhex" | "binascii.unhexlify" | "binascii.a2b_hex" => {
                *decoded = true;
                Fv::Bytes(hex(&arg(0, decoded)?)?)
            }
            "base64.b64decode"
            | "base64.standard_b64decode"
            | "base64.decodebytes"
            | "base64.decodestring"
            | "atob"
            | "base64.urlsafe_b64decode" => {
                *decoded = true;
                let url = name.contains("urlsafe");
                let b = b64(&arg(0, decoded)?, url)?;
                if name == "atob" {
                    Fv::Str(utf8(b)?)
                } else {
                    Fv::Bytes(b)
                }
            }
            "base64.b16decode" => {
                *decoded = true;
                Fv::Bytes(hex(&arg(0, decoded)?)?)
            }
            "Buffer.from" => {
                let s = arg(0, decoded)?;
                let enc = match args.get(1) {
                    Some(_) => arg(1, decoded)?,
                    None => "utf8".into(),
                };
                match enc.as_str() {
                    "base64" | "base64url" => {
                        *decoded = true;
                        Fv::Bytes(b64(&s, enc == "base64url")?)
                    }
                    "hex" => {
                        *decoded = true;
                        Fv::Bytes(hex(&s)?)
                    }
                    "utf8" | "utf-8" | "ascii" | "latin1" | "binary" => Fv::Bytes(s.into_bytes()),
                    _ => return None,
                }
            }
            "codecs.decode" | "codecs.encode" => {
                let s = arg(0, decoded)?;
                let enc = arg(1, decoded)?.to_ascii_lowercase().replace('-', "_");
                *decoded = true;
                match enc.as_str() {
                    "rot13" | "rot_13" => Fv::Str(rot13(&s)),
                    "hex" | "hex_codec" if name == "codecs.decode" => Fv::Bytes(hex(&s)?),
                    "base64" | "base64_codec" if name == "codecs.decode" => {
                        Fv::Bytes(b64(&s, false)?)
                    }
                    _ => return None,
                }
            }
            "map" => {
                // map(chr, [..])
                let (a, b) = *args.first()?;
                if b != a + 1 || self.toks.get(a).and_then(Token::ident) != Some("chr") {
                    return None;
                }
                let (la, lb) = *args.get(1)?;
                *decoded = true;
                match self.known(la, lb, scope, decoded)? {
                    Fv::List(items) => Fv::List(
                        items
                            .iter()
                            .map(|i| num(i).and_then(char_of).map(String::from))
                            .collect::<Option<Vec<_>>>()?,
                    ),
                    _ => return None,
                }
            }
            "reversed" | "list" => {
                let (a, b) = *args.first()?;
                if name == "reversed" {
                    *decoded = true;
                }
                let items: Vec<String> = match self.known(a, b, scope, decoded)? {
                    Fv::Str(s) => s.chars().map(String::from).collect(),
                    Fv::List(l) => l,
                    _ => return None,
                };
                if name == "reversed" {
                    Fv::List(items.into_iter().rev().collect())
                } else {
                    Fv::List(items)
                }
            }
            _ => return None,
        };
        Some((v, next))
    }

    /// `chr(c) for c in [..]` (a generator given to `join`): the characters.
    pub(super) fn chr_generator(
        &self,
        from: usize,
        to: usize,
        scope: &Scope,
        decoded: &mut bool,
    ) -> Option<Vec<String>> {
        let t = |k: usize| self.toks.get(k);
        if t(from)?.ident()? != "chr" || !t(from + 1)?.is_punct("(") {
            return None;
        }
        let var = t(from + 2)?.ident()?;
        if !t(from + 3)?.is_punct(")")
            || t(from + 4)?.ident()? != "for"
            || t(from + 5)?.ident()? != var
            || t(from + 6)?.ident()? != "in"
        {
            return None;
        }
        *decoded = true;
        match self.known(from + 7, to, scope, decoded)? {
            Fv::List(items) => items
                .iter()
                .map(|i| num(i).and_then(char_of).map(String::from))
                .collect(),
            _ => None,
        }
    }
}
