//! Windows places, classed like their Unix counterparts: a drive's root is [`Root`], `C:\Windows`
//! and `C:\Program Files` are [`System`], the registry hives and `C:\Windows\System32\config`
//! (SAM, SECURITY) hold [`Credentials`], Run keys, services, scheduled tasks and Startup
//! folders are [`Persistence`], event logs are [`Logs`], `\\.\PhysicalDrive0` is a [`Device`],
//! `C:\Users\NAME` a [`Home`] and what is inside it is read like a Unix home (`.ssh`, the
//! PowerShell profile, caches).
//!
//! Paths are read in any spelling: `C:\x`, `c:/x`, `\\.\PhysicalDrive0`, `HKLM:\Software`,
//! `HKEY_LOCAL_MACHINE\Software`, `Registry::HKLM\…`; case does not matter (Windows paths
//! are case-insensitive). The PowerShell and cmd.exe normalizers write them as
//! `C:/Windows/System32`, `//./PhysicalDrive0` and `HKLM:/Software/…`.
//!
//! [`Root`]: TargetClass::Root
//! [`System`]: TargetClass::System
//! [`Credentials`]: TargetClass::Credentials
//! [`Persistence`]: TargetClass::Persistence
//! [`Logs`]: TargetClass::Logs
//! [`Device`]: TargetClass::Device
//! [`Home`]: TargetClass::Home

use super::TargetClass;

/// Registry hive prefixes (long and short names, lower case) and their short name.
const HIVES: &[(&str, &str)] = &[
    ("hkey_local_machine", "hklm"),
    ("hkey_current_user", "hkcu"),
    ("hkey_classes_root", "hkcr"),
    ("hkey_users", "hku"),
    ("hkey_current_config", "hkcc"),
    ("hklm", "hklm"),
    ("hkcu", "hkcu"),
    ("hkcr", "hkcr"),
    ("hku", "hku"),
    ("hkcc", "hkcc"),
];

/// Registry keys (under a hive, lower case, `/`-separated) whose values run programs at logon,
/// at boot or when another program starts.
const REG_PERSISTENCE: &[&str] = &[
    "software/microsoft/windows/currentversion/run",
    "software/microsoft/windows/currentversion/runonce",
    "software/microsoft/windows/currentversion/runonceex",
    "software/microsoft/windows/currentversion/runservices",
    "software/microsoft/windows/currentversion/policies/explorer/run",
    "software/wow6432node/microsoft/windows/currentversion/run",
    "software/wow6432node/microsoft/windows/currentversion/runonce",
    "software/microsoft/windows nt/currentversion/winlogon",
    "software/microsoft/windows nt/currentversion/image file execution options",
    "software/microsoft/windows nt/currentversion/windows",
    "software/microsoft/windows nt/currentversion/silentprocessexit",
    "software/microsoft/active setup/installed components",
    "software/classes/exefile/shell",
    "software/classes/ms-settings/shell",
    "software/microsoft/command processor",
    "system/currentcontrolset/services",
    "system/controlset001/services",
    "system/currentcontrolset/control/session manager",
    "system/currentcontrolset/control/print/monitors",
    "system/currentcontrolset/control/lsa/security packages",
    "environment",
];

/// Registry keys with secrets or the machine's authentication configuration.
const REG_CREDENTIALS: &[&str] = &[
    "sam",
    "security",
    "system/currentcontrolset/control/lsa",
    "system/currentcontrolset/control/securityproviders",
    "software/microsoft/windows nt/currentversion/winlogon/autoadminlogon",
];

/// Registry keys that hold the machine's security controls (UAC, Defender and firewall policy,
/// Remote Desktop's switch, WDigest's clear-text logons): classed with the authentication data,
/// as changing them changes who can do what on the machine.
const REG_SECURITY: &[&str] = &[
    "software/microsoft/windows/currentversion/policies/system",
    "software/policies/microsoft/windows defender",
    "software/microsoft/windows defender",
    "software/policies/microsoft/windowsfirewall",
    "system/currentcontrolset/services/sharedaccess/parameters/firewallpolicy",
    "system/currentcontrolset/control/terminal server",
    "software/policies/microsoft/windows nt/terminal services",
];

/// Directories under a drive (lower case, `/`-separated) and their class, most specific first.
const DRIVE_PLACES: &[(&str, TargetClass)] = &[
    ("windows/system32/config", TargetClass::Credentials),
    ("windows/system32/winevt", TargetClass::Logs),
    ("windows/system32/logfiles", TargetClass::Logs),
    ("windows/logs", TargetClass::Logs),
    ("windows/system32/tasks", TargetClass::Persistence),
    ("windows/tasks", TargetClass::Persistence),
    ("windows/system32/grouppolicy", TargetClass::Persistence),
    ("windows/system32/wbem/repository", TargetClass::Persistence),
    (
        "programdata/microsoft/windows/start menu/programs/startup",
        TargetClass::Persistence,
    ),
    (
        "programdata/microsoft/windows/start menu/programs/start up",
        TargetClass::Persistence,
    ),
    ("windows/system32/drivers", TargetClass::Boot),
    ("windows/boot", TargetClass::Boot),
    ("boot", TargetClass::Boot),
    ("bootmgr", TargetClass::Boot),
    ("efi", TargetClass::Boot),
    ("recovery", TargetClass::Boot),
    ("windows/temp", TargetClass::Temp),
    ("temp", TargetClass::Temp),
    ("tmp", TargetClass::Temp),
    ("windows", TargetClass::System),
    // IIS's web root and configuration (`web.config`): the sites it serves
    ("inetpub", TargetClass::System),
    ("program files", TargetClass::System),
    ("program files (x86)", TargetClass::System),
    // sshd's configuration, host keys and `administrators_authorized_keys`
    ("programdata/ssh", TargetClass::Credentials),
    ("programdata", TargetClass::System),
    ("system volume information", TargetClass::System),
    ("$recycle.bin", TargetClass::UserData),
    ("pagefile.sys", TargetClass::System),
    ("hiberfil.sys", TargetClass::System),
    ("users", TargetClass::System),
];

/// Top folders of a drive that hold people's files (lower case): file shares, data, documents,
/// profiles.
const DATA_DIRS: &[&str] = &[
    "shares",
    "share",
    "shared",
    "data",
    "documents",
    "docs",
    "files",
    "fileshare",
    "profiles",
    "home",
    "homes",
    "userdata",
    "finance",
    "hr",
    "departments",
    "public",
];

/// Places inside a Windows home directory (lower case, relative to it).
const HOME_PLACES: &[(&str, TargetClass)] = &[
    (
        "appdata/roaming/microsoft/windows/start menu/programs/startup",
        TargetClass::Persistence,
    ),
    (
        "appdata/roaming/microsoft/windows/powershell/psreadline",
        TargetClass::Logs,
    ),
    ("documents/windowspowershell", TargetClass::Persistence),
    ("documents/powershell", TargetClass::Persistence),
    (
        "appdata/roaming/microsoft/credentials",
        TargetClass::Credentials,
    ),
    (
        "appdata/local/microsoft/credentials",
        TargetClass::Credentials,
    ),
    (
        "appdata/roaming/microsoft/protect",
        TargetClass::Credentials,
    ),
    ("appdata/roaming/microsoft/vault", TargetClass::Credentials),
    ("appdata/local/microsoft/vault", TargetClass::Credentials),
    (
        "appdata/local/google/chrome/user data",
        TargetClass::Credentials,
    ),
    (
        "appdata/local/microsoft/edge/user data",
        TargetClass::Credentials,
    ),
    (
        "appdata/roaming/mozilla/firefox/profiles",
        TargetClass::Credentials,
    ),
    ("appdata/local/temp", TargetClass::Temp),
    ("appdata/local/npm-cache", TargetClass::BuildOutput),
    ("appdata/local/pip/cache", TargetClass::BuildOutput),
    (
        "appdata/local/microsoft/windows/inetcache",
        TargetClass::BuildOutput,
    ),
];

/// The path with `\` as `/`, repeated separators collapsed, lower case.
fn folded(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let mut prev_sep = false;
    for (i, c) in p.chars().enumerate() {
        let sep = c == '\\' || c == '/';
        // A UNC or device prefix keeps its two leading separators.
        if sep && prev_sep && i > 1 {
            continue;
        }
        out.push(if sep { '/' } else { c.to_ascii_lowercase() });
        prev_sep = sep;
    }
    out
}

/// `key` is `dir` or below it.
fn below(key: &str, dir: &str) -> bool {
    key.strip_prefix(dir)
        .is_some_and(|r| r.is_empty() || r.starts_with('/'))
}

/// The class of a registry path (`hklm:/software/…`, folded), if it is one.
fn registry(p: &str) -> Option<TargetClass> {
    let p = p.strip_prefix("registry::").unwrap_or(p);
    let (hive, rest) = HIVES.iter().find_map(|(long, short)| {
        let r = p.strip_prefix(long)?;
        let r = r.strip_prefix(':').unwrap_or(r);
        (r.is_empty() || r.starts_with('/')).then(|| (*short, r.trim_start_matches('/')))
    })?;
    let rest = rest.trim_end_matches(['/', '*']);
    if hive == "hku" {
        // HKU/<SID>/…: the same places as under HKCU.
        let inner = rest.split_once('/').map_or("", |(_, r)| r);
        return Some(reg_class(inner, TargetClass::UserData));
    }
    let default = match hive {
        "hkcu" => TargetClass::UserData,
        _ => TargetClass::System,
    };
    Some(reg_class(rest, default))
}

fn reg_class(rest: &str, default: TargetClass) -> TargetClass {
    if rest.is_empty() {
        // A whole hive.
        return TargetClass::System;
    }
    if REG_CREDENTIALS.iter().any(|k| below(rest, k)) || REG_SECURITY.iter().any(|k| below(rest, k))
    {
        return TargetClass::Credentials;
    }
    if !rest.contains('/') {
        // One of a hive's top keys (`HKCU\Software`: every program's settings).
        return TargetClass::System;
    }
    if REG_PERSISTENCE.iter().any(|k| below(rest, k))
        || rest.starts_with("software/classes/") && rest.contains("/shell/open/command")
    {
        return TargetClass::Persistence;
    }
    if rest.starts_with("software/policies/microsoft/windows defender")
        || rest.starts_with("software/microsoft/windows defender")
    {
        return TargetClass::System;
    }
    default
}

/// Inside a Windows home directory (`rest` relative to it, folded).
fn home_place(rest: &str) -> TargetClass {
    let rest = rest.trim_end_matches('/');
    if matches!(rest, "" | "*" | "." | "*.*") {
        return TargetClass::Home;
    }
    if let Some((_, c)) = HOME_PLACES.iter().find(|(d, _)| below(rest, d)) {
        return *c;
    }
    if rest.starts_with(".ssh") || rest.starts_with(".aws") || rest.starts_with(".azure") {
        return TargetClass::Credentials;
    }
    TargetClass::UserData
}

/// Certificate stores whose certificates are trusted to vouch for others (a root removed, or
/// one added, changes whom the machine trusts).
const TRUST_STORES: &[&str] = &[
    "root",
    "authroot",
    "ca",
    "trustedpublisher",
    "trustedpeople",
    "disallowed",
];

/// WinRM settings that say who may connect and how (`TrustedHosts`, authentication,
/// unencrypted traffic).
const WSMAN_ACCESS: &[&str] = &[
    "client/trustedhosts",
    "client/auth",
    "client/allowunencrypted",
    "service/auth",
    "service/allowunencrypted",
    "service/rootsddl",
    "listener",
];

/// PowerShell's provider drives that hold security settings: `Cert:` (the trust stores are
/// authentication data, personal stores the user's) and `WSMan:` (who may connect remotely).
fn provider_drive(path: &str) -> Option<TargetClass> {
    let head = path.get(..path.len().min(6))?.to_ascii_lowercase();
    if !head.starts_with("cert:") && !head.starts_with("wsman:") {
        return None;
    }
    let p = folded(path);
    if let Some(rest) = p.strip_prefix("cert:") {
        let mut parts = rest.split('/').filter(|s| !s.is_empty());
        let _location = parts.next();
        return Some(match parts.next() {
            Some(store) if !TRUST_STORES.contains(&store) && store != "*" => TargetClass::UserData,
            _ => TargetClass::Credentials,
        });
    }
    let rest = p.strip_prefix("wsman:")?.trim_start_matches('/');
    let inner = rest.split_once('/').map_or("", |(_, r)| r);
    Some(if WSMAN_ACCESS.iter().any(|k| below(inner, k)) {
        TargetClass::Credentials
    } else {
        TargetClass::System
    })
}

/// What a file's extension says it is (folded path): a virtual machine's disk image (the
/// machine itself), a database's data or log file or backup (`.mdf`, `.ldf`, `.bak`, `.trn`).
fn file_kind(p: &str) -> Option<TargetClass> {
    let name = p.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let (_, ext) = name.rsplit_once('.')?;
    match ext {
        "vhdx" | "vhd" | "avhdx" | "avhd" | "vmdk" | "qcow2" | "vdi" => Some(TargetClass::Device),
        "mdf" | "ndf" | "ldf" => Some(TargetClass::System),
        "bak" | "trn" | "bacpac" | "dmp" | "vbk" | "vib" | "vrb" => Some(TargetClass::Backups),
        _ => None,
    }
}

/// The class of a Windows path, or `None` when `path` is not one (then the Unix reading
/// applies). `~/…` paths are the Unix reading's.
pub(crate) fn classify(path: &str) -> Option<TargetClass> {
    if let Some(c) = provider_drive(path) {
        return Some(c);
    }
    let b = path.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    let unc = path.starts_with("\\\\") || path.starts_with("//");
    let reg_like = !drive && {
        let l = path
            .get(..path.len().min(24))
            .unwrap_or("")
            .to_ascii_lowercase();
        l.starts_with("hk") || l.starts_with("registry::")
    };
    if !drive && !unc && !reg_like {
        return None;
    }
    let p = folded(path);
    if reg_like {
        return registry(&p);
    }
    if unc {
        // `\\.\PhysicalDrive0`, `\\.\C:`, `\\?\Volume{…}`: raw devices; other UNC paths are
        // shares on some host.
        let rest = p.trim_start_matches('/');
        if let Some(dev) = rest.strip_prefix("./").or_else(|| rest.strip_prefix("?/")) {
            if dev.starts_with("physicaldrive")
                || dev.starts_with("harddisk")
                || dev.starts_with("volume")
                || dev.starts_with("globalroot")
                || (dev.len() <= 3 && dev.as_bytes().get(1) == Some(&b':'))
            {
                return Some(TargetClass::Device);
            }
            return Some(TargetClass::System);
        }
        // `\\host\share\…`: a share on some host. The domain's SYSVOL and NETLOGON shares
        // hold the logon scripts and policies every machine runs; other shares hold people's
        // files, disk images and backups like a drive's folders do.
        let mut segs = rest.split('/').skip(1);
        let share = segs.next().unwrap_or("");
        let inner = rest.splitn(3, '/').nth(2).unwrap_or("");
        if matches!(share, "sysvol" | "netlogon") {
            return Some(TargetClass::Persistence);
        }
        if let Some(c) = file_kind(inner) {
            return Some(c);
        }
        if super::is_backup_dir(inner) || share.contains("backup") {
            return Some(TargetClass::Backups);
        }
        return Some(if share.ends_with('$') || share.is_empty() {
            TargetClass::System
        } else {
            TargetClass::UserData
        });
    }
    // A drive: `C:`, `C:/`, `C:/*`, `C:/…`.
    let rest = p.get(2..).unwrap_or("").trim_start_matches('/');
    let trimmed = rest.trim_end_matches('/');
    // the drive, or matches anywhere on it (`C:/**/*.docx`)
    if matches!(trimmed, "" | "*" | "*.*" | "." | "..") || trimmed.starts_with("**") {
        return Some(TargetClass::Root);
    }
    if let Some(home) = trimmed.strip_prefix("users/") {
        let (user, inner) = home.split_once('/').unwrap_or((home, ""));
        if user == "*" {
            return Some(TargetClass::System);
        }
        if user == "public" || user == "default" {
            return Some(if inner.is_empty() {
                TargetClass::UserData
            } else {
                home_place(inner)
            });
        }
        // Inside someone's home: read like `~/…` (keys, caches, backups, start-up files).
        let place = home_place(inner);
        if place != TargetClass::UserData {
            return Some(place);
        }
        return Some(super::classify_path(&format!(
            "~/{}",
            inner.trim_end_matches('/')
        )));
    }
    let class = DRIVE_PLACES
        .iter()
        .find(|(d, _)| below(trimmed, d))
        .map(|(_, c)| *c)
        .unwrap_or_else(|| {
            // Elsewhere on a drive, the words of the path say what it holds, as on Unix.
            if let Some(c) = file_kind(trimmed) {
                c
            } else if super::is_backup_dir(trimmed) {
                TargetClass::Backups
            } else if super::has_segment(trimmed, super::BUILD_OUTPUTS) {
                TargetClass::BuildOutput
            } else if trimmed
                .split('/')
                .next()
                .is_some_and(|top| DATA_DIRS.contains(&top))
            {
                // a drive's shared or data folder: people's files
                TargetClass::UserData
            } else {
                TargetClass::Unknown
            }
        });
    Some(class)
}

/// Whether `path` (folded or not) is below one of the persistence points of a Windows home
/// (`~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup`, PowerShell profiles).
pub(crate) fn home_relative_class(rest: &str) -> Option<TargetClass> {
    let f = folded(rest);
    let c = home_place(&f);
    (c != TargetClass::UserData && c != TargetClass::Home).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TargetClass::*;

    #[test]
    fn windows_places() {
        for (p, c) in [
            ("C:\\", Root),
            ("C:/", Root),
            ("c:", Root),
            ("D:\\*", Root),
            ("C:\\Windows", System),
            ("C:/Windows/System32", System),
            ("c:\\windows\\system32\\config\\SAM", Credentials),
            ("C:\\Windows\\System32\\winevt\\Logs\\Security.evtx", Logs),
            ("C:\\Windows\\Temp\\x.log", Temp),
            ("C:\\Program Files\\App", System),
            ("C:\\Users", System),
            ("C:\\Users\\alice", Home),
            ("C:\\Users\\alice\\Documents\\report.docx", UserData),
            ("C:\\Users\\alice\\.ssh\\id_rsa", Credentials),
            (
                "C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.lnk",
                Persistence,
            ),
            (
                "C:\\Users\\bob\\Documents\\WindowsPowerShell\\profile.ps1",
                Persistence,
            ),
            ("C:\\Users\\bob\\AppData\\Local\\Temp\\x", Temp),
            ("C:\\Projects\\app\\dist", BuildOutput),
            ("C:\\Projects\\app\\src", Unknown),
            ("D:\\Backups\\db", Backups),
            ("D:\\Shares\\Finance", UserData),
            ("C:/**/*.docx", Root),
            ("E:\\Data", UserData),
            ("D:\\tools\\ffmpeg", Unknown),
            ("C:\\Users\\bob\\.aws\\credentials", Credentials),
            ("C:\\Users\\bob\\.kube\\config", Credentials),
            ("C:\\Users\\bob\\project\\node_modules", BuildOutput),
            ("C:\\Users\\bob\\Documents", UserData),
            ("\\\\.\\PhysicalDrive0", Device),
            ("//./PhysicalDrive1", Device),
            ("\\\\.\\C:", Device),
            ("\\\\fileserver\\share\\x", UserData),
            (
                "HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
                Persistence,
            ),
            (
                "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce",
                Persistence,
            ),
            (
                "HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\evil",
                Persistence,
            ),
            (
                "Registry::HKEY_LOCAL_MACHINE\\SAM\\SAM\\Domains",
                Credentials,
            ),
            ("HKLM:/SYSTEM/CurrentControlSet/Control/Lsa", Credentials),
            ("HKCU:\\Software\\Acme\\Settings", UserData),
            ("HKCU\\Software", System),
            ("HKLM\\SYSTEM\\", System),
            ("HKLM:\\Software\\Acme", System),
            (
                "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System",
                Credentials,
            ),
            (
                "HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows Defender\\Real-Time Protection",
                Credentials,
            ),
            ("hklm", System),
            ("Cert:\\LocalMachine\\Root\\*", Credentials),
            ("cert:/CurrentUser/CA", Credentials),
            ("Cert:\\LocalMachine", Credentials),
            ("Cert:\\CurrentUser\\My\\0123ABCD", UserData),
            ("WSMan:\\localhost\\Client\\TrustedHosts", Credentials),
            ("WSMan:\\localhost\\Service\\AllowUnencrypted", Credentials),
            ("WSMan:\\localhost\\Shell\\MaxMemoryPerShellMB", System),
            (
                "C:\\ProgramData\\ssh\\administrators_authorized_keys",
                Credentials,
            ),
        ] {
            assert_eq!(classify(p), Some(c), "{p}");
        }
        assert_eq!(classify("src/main.rs"), None);
        assert_eq!(classify("/etc/passwd"), None);
        assert_eq!(classify("hello"), None);
    }

    #[test]
    fn shares_web_roots_disk_images_and_databases() {
        for (p, c) in [
            (
                "\\\\corp.example\\SYSVOL\\corp.example\\scripts",
                Persistence,
            ),
            ("//dc01/NETLOGON/logon.bat", Persistence),
            ("\\\\fs01\\finance\\2025", UserData),
            ("\\\\nas\\backups\\db", Backups),
            ("\\\\srv\\sql\\*.bak", Backups),
            ("\\\\srv\\c$\\Windows", System),
            ("E:\\Hyper-V\\dc01.vhdx", Device),
            ("D:\\vm\\web.vmdk", Device),
            ("D:\\SQLData\\sales.mdf", System),
            ("D:\\SQLData\\sales_log.ldf", System),
            ("F:\\dumps\\sales.bak", Backups),
            ("C:\\inetpub\\wwwroot\\web.config", System),
            ("C:\\Projects\\app\\appsettings.json", Unknown),
        ] {
            assert_eq!(classify(p), Some(c), "{p}");
        }
    }
}
