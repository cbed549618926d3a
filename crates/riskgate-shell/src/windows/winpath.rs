//! Windows paths in one spelling, so that rules, path classes and policy patterns see one form
//! whatever was written: `C:\Windows\System32` and `c:/windows/system32\` are
//! `C:/windows/system32/`-style (drive upper case, `/` separators, case kept otherwise),
//! `\\.\PhysicalDrive0` is `//./PhysicalDrive0`, every registry spelling
//! (`HKLM:\Software`, `HKLM\Software`, `HKEY_LOCAL_MACHINE\Software`,
//! `Registry::HKEY_LOCAL_MACHINE\Software`) is `HKLM:/Software`, and the well-known
//! environment variables (`$env:SystemRoot`, `%windir%`, `$env:USERPROFILE`, `$HOME`, `~`,
//! `$env:TEMP` …) are replaced by what they stand for (`C:/Windows`, `~`, `~/AppData/Local/Temp`).

/// Well-known environment variables (lower case) and what they stand for, in canonical form.
const KNOWN_ENV: &[(&str, &str)] = &[
    ("systemroot", "C:/Windows"),
    ("windir", "C:/Windows"),
    ("systemdrive", "C:"),
    ("homedrive", "C:"),
    ("userprofile", "~"),
    ("home", "~"),
    ("homepath", "~"),
    ("onedrive", "~/OneDrive"),
    ("appdata", "~/AppData/Roaming"),
    ("localappdata", "~/AppData/Local"),
    ("temp", "~/AppData/Local/Temp"),
    ("tmp", "~/AppData/Local/Temp"),
    ("programfiles", "C:/Program Files"),
    ("programfiles(x86)", "C:/Program Files (x86)"),
    ("programw6432", "C:/Program Files"),
    ("commonprogramfiles", "C:/Program Files/Common Files"),
    ("programdata", "C:/ProgramData"),
    ("allusersprofile", "C:/ProgramData"),
    ("public", "C:/Users/Public"),
    ("comspec", "C:/Windows/System32/cmd.exe"),
    ("pshome", "C:/Windows/System32/WindowsPowerShell/v1.0"),
];

/// What the environment variable `name` stands for, when it is a well-known one.
pub(crate) fn known_env(name: &str) -> Option<&'static str> {
    let l = name.to_ascii_lowercase();
    KNOWN_ENV.iter().find(|(n, _)| *n == l).map(|(_, v)| *v)
}

/// Registry hives: every spelling (lower case) → the short name.
const HIVES: &[(&str, &str)] = &[
    ("hkey_local_machine", "HKLM"),
    ("hkey_current_user", "HKCU"),
    ("hkey_classes_root", "HKCR"),
    ("hkey_users", "HKU"),
    ("hkey_current_config", "HKCC"),
    ("hklm", "HKLM"),
    ("hkcu", "HKCU"),
    ("hkcr", "HKCR"),
    ("hku", "HKU"),
    ("hkcc", "HKCC"),
];

/// `s` with its first `n` bytes compared case-insensitively to `prefix`: the rest.
fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| s.get(prefix.len()..))
        .flatten()
}

/// A registry path in canonical form (`HKLM:/Software/…`), if `s` is one.
fn registry(s: &str) -> Option<String> {
    let mut rest = s;
    for p in ["microsoft.powershell.core\\registry::", "registry::"] {
        if let Some(r) = strip_ci(rest, p) {
            rest = r;
        }
    }
    for (long, short) in HIVES {
        let Some(r) = strip_ci(rest, long) else {
            continue;
        };
        let r = r.strip_prefix(':').unwrap_or(r);
        if !(r.is_empty() || r.starts_with(['\\', '/'])) {
            continue;
        }
        // A short hive name without `:` or `\` is an ordinary word (`hku` alone is not a path).
        if r.is_empty() && !s.contains(':') && long.len() <= 4 {
            return None;
        }
        return Some(format!("{short}:{}", slashes(r)));
    }
    None
}

/// `\` → `/`, repeated separators collapsed (a leading `//` kept).
fn slashes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev = false;
    for (i, c) in s.chars().enumerate() {
        let sep = c == '\\' || c == '/';
        if sep && prev && i > 1 {
            continue;
        }
        out.push(if sep { '/' } else { c });
        prev = sep;
    }
    out
}

/// Replace a leading well-known variable (`$env:X`, `${env:X}`, `%X%`, `$HOME`, `~`).
fn expand_head(s: &str) -> Option<String> {
    let (name, rest) = if let Some(r) = strip_ci(s, "${env:") {
        let end = r.find('}')?;
        (r.get(..end)?, r.get(end + 1..)?)
    } else if let Some(r) = strip_ci(s, "$env:") {
        let end = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '(' || c == ')'))
            .unwrap_or(r.len());
        (r.get(..end)?, r.get(end..)?)
    } else if let Some(r) = s.strip_prefix('%') {
        let end = r.find('%')?;
        (r.get(..end)?, r.get(end + 1..)?)
    } else if let Some(r) = strip_ci(s, "$home") {
        ("home", r)
    } else if let Some(r) = strip_ci(s, "$pshome") {
        ("pshome", r)
    } else if let Some(r) = s.strip_prefix('~') {
        if !(r.is_empty() || r.starts_with(['\\', '/'])) {
            return None;
        }
        ("home", r)
    } else {
        return None;
    };
    if !(rest.is_empty() || rest.starts_with(['\\', '/'])) {
        return None;
    }
    let base = known_env(name)?;
    Some(format!("{base}{}", slashes(rest)))
}

/// Whether `s` reads as a Windows path: a drive (`C:\`, `c:/x`), a UNC or device path, a
/// registry path, a well-known variable followed by a path, or `.\x`, `..\x`, `~\x`.
pub(crate) fn is_windows_path(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b.len() == 2 || b[2] == b'\\' || b[2] == b'/'))
        || s.starts_with("\\\\")
        || s.starts_with(".\\")
        || s.starts_with("..\\")
        || s.starts_with("~\\")
        || registry(s).is_some()
        || expand_head(s).is_some() && !s.starts_with('~')
}

/// The canonical spelling of a path written for Windows (see the module documentation).
/// Anything else is returned with `\` read as a separator: PowerShell and cmd.exe have no
/// escape character there (`dist\x` → `dist/x`).
pub(crate) fn canonical(s: &str) -> String {
    if s.is_empty() || s.contains("://") {
        return s.to_string();
    }
    if let Some(r) = registry(s) {
        return r;
    }
    if let Some(e) = expand_head(s) {
        return e;
    }
    let b = s.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        let drive = b[0].to_ascii_uppercase() as char;
        return format!("{drive}:{}", slashes(s.get(2..).unwrap_or("")));
    }
    slashes(s)
}

/// [`canonical`] for words that are clearly Windows paths, the word unchanged otherwise (the
/// arguments of native programs, which may be regexes or URLs).
pub(crate) fn canonical_if_path(s: &str) -> String {
    if is_windows_path(s) {
        canonical(s)
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        for (w, c) in [
            ("C:\\Windows\\System32", "C:/Windows/System32"),
            ("c:/windows\\\\system32\\", "C:/windows/system32/"),
            ("C:\\", "C:/"),
            ("d:", "D:"),
            ("\\\\.\\PhysicalDrive0", "//./PhysicalDrive0"),
            ("\\\\srv\\share\\x", "//srv/share/x"),
            (
                "HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
                "HKLM:/Software/Microsoft/Windows/CurrentVersion/Run",
            ),
            ("HKCU\\Software\\x", "HKCU:/Software/x"),
            (
                "HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet",
                "HKLM:/SYSTEM/CurrentControlSet",
            ),
            (
                "Registry::HKEY_CURRENT_USER\\Environment",
                "HKCU:/Environment",
            ),
            ("$env:SystemRoot\\System32", "C:/Windows/System32"),
            ("${env:windir}", "C:/Windows"),
            (
                "%SystemRoot%\\system32\\config",
                "C:/Windows/system32/config",
            ),
            ("$env:USERPROFILE\\.ssh", "~/.ssh"),
            ("$HOME\\Documents", "~/Documents"),
            ("~\\AppData", "~/AppData"),
            ("%TEMP%\\x.ps1", "~/AppData/Local/Temp/x.ps1"),
            ("$env:ProgramFiles(x86)\\App", "C:/Program Files (x86)/App"),
            (".\\dist", "./dist"),
            ("dist\\out", "dist/out"),
            ("https://x.example/a\\b", "https://x.example/a\\b"),
        ] {
            assert_eq!(canonical(w), c, "{w}");
        }
        assert!(is_windows_path("C:\\x"));
        assert!(is_windows_path("HKLM\\Software"));
        assert!(is_windows_path("%APPDATA%\\x"));
        assert!(!is_windows_path("hku"));
        assert!(!is_windows_path("\\d+"));
        assert!(!is_windows_path("a:b"));
        assert_eq!(canonical_if_path("\\d+\\s"), "\\d+\\s");
        assert_eq!(known_env("SYSTEMROOT"), Some("C:/Windows"));
    }
}
