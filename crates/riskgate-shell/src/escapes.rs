//! Backslash-escape decoding that brush-parser leaves to us: `$'…'` ANSI-C strings, `echo -e`
//! and `printf` format strings (used to decode payloads such as `printf '\x72\x6d'`).

/// Decode the body of an ANSI-C quoted string (`$'…'`), as bash does.
pub(crate) fn ansi_c(s: &str) -> String {
    decode(s, Mode::AnsiC)
}

/// Decode an `echo -e` argument (`\c` stops output; octal is `\0nnn`).
pub(crate) fn echo_e(s: &str) -> (String, bool) {
    let mut stop = false;
    let out = decode_inner(s, Mode::Echo, &mut stop);
    (out, stop)
}

/// Decode a `printf` format string's escapes (conversions such as `%s` are left alone).
pub(crate) fn printf(s: &str) -> String {
    decode(s, Mode::Printf)
}

/// True when `s` contains a hex or octal escape (`\x41`, `\101`, `\0101`), the mark of an
/// encoded payload.
pub(crate) fn has_byte_escapes(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(2)
        .any(|w| w[0] == b'\\' && (w[1] == b'x' || w[1].is_ascii_digit() || w[1] == b'u'))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    AnsiC,
    Echo,
    Printf,
}

fn decode(s: &str, mode: Mode) -> String {
    let mut stop = false;
    decode_inner(s, mode, &mut stop)
}

fn decode_inner(s: &str, mode: Mode, stop: &mut bool) -> String {
    let mut bytes: Vec<u8> = Vec::with_capacity(s.len());
    let src = s.as_bytes();
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        if c != b'\\' || i + 1 >= src.len() {
            bytes.push(c);
            i += 1;
            continue;
        }
        let e = src[i + 1];
        i += 2;
        match e {
            b'a' => bytes.push(0x07),
            b'b' => bytes.push(0x08),
            b'e' | b'E' => bytes.push(0x1b),
            b'f' => bytes.push(0x0c),
            b'n' => bytes.push(b'\n'),
            b'r' => bytes.push(b'\r'),
            b't' => bytes.push(b'\t'),
            b'v' => bytes.push(0x0b),
            b'\\' => bytes.push(b'\\'),
            b'\'' if mode == Mode::AnsiC => bytes.push(b'\''),
            b'"' if mode != Mode::Echo => bytes.push(b'"'),
            b'?' if mode == Mode::AnsiC => bytes.push(b'?'),
            b'c' if mode == Mode::Echo => {
                *stop = true;
                break;
            }
            b'c' if mode == Mode::AnsiC && i < src.len() => {
                bytes.push(src[i] & 0x1f);
                i += 1;
            }
            b'x' => {
                let (v, n) = hex_run(&src[i..], 2);
                if n == 0 {
                    bytes.extend_from_slice(b"\\x");
                } else {
                    bytes.push(v as u8);
                    i += n;
                }
            }
            b'u' | b'U' => {
                let max = if e == b'u' { 4 } else { 8 };
                let (v, n) = hex_run(&src[i..], max);
                match char::from_u32(v).filter(|_| n > 0) {
                    Some(ch) => {
                        let mut buf = [0u8; 4];
                        bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        i += n;
                    }
                    None => {
                        bytes.push(b'\\');
                        bytes.push(e);
                    }
                }
            }
            b'0'..=b'7' => {
                // echo: \0nnn (the leading 0 is the marker); ansi-c/printf: \nnn.
                let (start, max) = if mode == Mode::Echo {
                    if e != b'0' {
                        bytes.push(b'\\');
                        bytes.push(e);
                        continue;
                    }
                    (i, 3)
                } else {
                    (i - 1, 3)
                };
                let (v, n) = oct_run(&src[start..], max);
                bytes.push((v & 0xff) as u8);
                i = start + n;
            }
            _ => {
                bytes.push(b'\\');
                bytes.push(e);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn hex_run(s: &[u8], max: usize) -> (u32, usize) {
    let mut v = 0u32;
    let mut n = 0;
    while n < max && n < s.len() {
        let d = match s[n] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        v = v * 16 + u32::from(d);
        n += 1;
    }
    (v, n)
}

fn oct_run(s: &[u8], max: usize) -> (u32, usize) {
    let mut v = 0u32;
    let mut n = 0;
    while n < max && n < s.len() && (b'0'..=b'7').contains(&s[n]) {
        v = v * 8 + u32::from(s[n] - b'0');
        n += 1;
    }
    (v, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_decodes_hex_octal_and_named() {
        assert_eq!(ansi_c(r"\x72\x6d"), "rm");
        assert_eq!(ansi_c(r"\162\155"), "rm");
        assert_eq!(ansi_c(r"a\tb\n"), "a\tb\n");
        assert_eq!(ansi_c(r"\u0041\'"), "A'");
    }

    #[test]
    fn echo_and_printf() {
        assert_eq!(echo_e(r"\x72m\c ignored").0, "rm");
        assert_eq!(echo_e(r"\0162m").0, "rm");
        assert_eq!(printf(r"\162\155 -rf /\n"), "rm -rf /\n");
        assert!(has_byte_escapes(r"\x72"));
        assert!(!has_byte_escapes(r"plain\n"));
    }
}
