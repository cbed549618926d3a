//! Where secrets live on disk: the one table of well-known credential files and what kind of
//! secret each holds. The rules rate a read of one ([`sensitive_kind`]); the shell normalizer
//! resolves glob arguments against them (`cat ~/.s*/id_rsa` reads `~/.ssh/id_rsa`).
//!
//! ```
//! use riskgate_model::credentials::sensitive_kind;
//! assert_eq!(sensitive_kind("~/.ssh/id_ed25519"), Some("an SSH private key"));
//! assert_eq!(sensitive_kind("~/.ssh/id_ed25519.pub"), None);
//! ```

/// SSH private key file names (in `~/.ssh/`, or as prefixes: `id_rsa_work`).
pub const SSH_KEYS: &[&str] = &["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"];

/// System files with password hashes or sudo rights.
pub const SYSTEM_SECRETS: &[&str] = &[
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/master.passwd",
    "/etc/sudoers",
];

/// Credential and token stores under the home directory (a trailing `/`: a whole directory).
pub const HOME_CREDENTIALS: &[&str] = &[
    ".aws/credentials",
    ".aws/config",
    ".config/gcloud/",
    ".azure/",
    ".kube/config",
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".gnupg/",
    ".password-store",
    ".vault-token",
    ".terraform.d/credentials",
    ".config/gh/hosts.yml",
    ".cargo/credentials",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    ".Renviron",
    ".s3cfg",
    ".config/rclone/rclone.conf",
    ".gem/credentials",
    ".config/solana/id.json",
    ".ethereum/keystore",
    ".bitcoin/wallet.dat",
];

/// Extensions of private keys and certificate stores.
pub const KEY_EXTENSIONS: &[&str] = &[".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"];

/// Whether a file name is an environment file with secrets: `.env`, `.env.production`,
/// `prod.env`, `.envrc`; not a template (`.env.example`, `.env.sample` …).
pub fn is_env_file(base: &str) -> bool {
    let template = ["example", "sample", "template", "dist", "defaults"]
        .iter()
        .any(|t| base.ends_with(t));
    !template
        && (base == ".env"
            || base.starts_with(".env.")
            || base.ends_with(".env")
            || base == ".envrc")
}

/// Whether a file name is a private key (an SSH key, not its `.pub`) or a key store.
pub fn is_private_key_file(base: &str) -> bool {
    !base.ends_with(".pub")
        && (SSH_KEYS.iter().any(|k| base.starts_with(k))
            || (KEY_EXTENSIONS.iter().any(|e| base.ends_with(e)) && base.len() > 4))
}

/// Shell history files (under the home directory).
pub const HISTORY: &[&str] = &[".bash_history", ".zsh_history"];

/// What kind of secret a path holds, if it looks sensitive.
pub fn sensitive_kind(path: &str) -> Option<&'static str> {
    let p = path.trim_matches(['"', '\'']);
    let base = p.rsplit('/').next().unwrap_or(p);
    // every secret file below has a dot or a directory in its name but the SSH keys' own
    // names (`id_rsa`, `ssh_host_ed25519_key`): most words of a command are none of them
    if !p.contains(['.', '/', '\\']) && !base.starts_with("id_") && !base.starts_with("ssh_host_") {
        return None;
    }
    if base.ends_with(".pub") {
        return None;
    }
    if SSH_KEYS.iter().any(|k| base.starts_with(k)) || p.contains("/.ssh/id_") {
        return Some("an SSH private key");
    }
    if SYSTEM_SECRETS.contains(&p) || p.starts_with("/etc/sudoers.d/") {
        return Some("system password or sudo data");
    }
    // the machine's own SSH host keys (`/etc/ssh/ssh_host_ed25519_key`)
    if base.starts_with("ssh_host_") && base.ends_with("_key") {
        return Some("an SSH private key");
    }
    // saved Wi-Fi and VPN connections hold their passwords in clear
    if p.starts_with("/etc/NetworkManager/system-connections")
        || p.starts_with("/etc/wpa_supplicant")
    {
        return Some("Wi-Fi and VPN passwords");
    }
    // Terraform state: every resource's attributes, secrets included, in clear
    if base.ends_with(".tfstate") || base.ends_with(".tfstate.backup") {
        return Some("Terraform state (every resource's secrets)");
    }
    if HOME_CREDENTIALS
        .iter()
        .any(|c| p.contains(c) || p.ends_with(c.trim_end_matches('/')))
    {
        return Some("credentials or tokens");
    }
    if is_env_file(base) {
        return Some("an environment file with secrets");
    }
    if KEY_EXTENSIONS.iter().any(|e| base.ends_with(e)) && base.len() > 4 {
        return Some("a private key or certificate store");
    }
    if p.starts_with("/proc/") && p.ends_with("/environ") {
        return Some("a process environment");
    }
    if HISTORY.contains(&base) {
        return Some("shell history");
    }
    if named_for_secrets(base) {
        return Some("a data file named for the secrets it holds");
    }
    windows_secret(p, base)
}

/// A data file whose name says it holds secrets (`prod-secrets.json`, `db-secret.yaml`,
/// `credentials.json`, `secrets.auto.tfvars`), not a template of one (`secrets.example.yaml`).
fn named_for_secrets(base: &str) -> bool {
    let b = base.to_ascii_lowercase();
    let Some((stem, ext)) = b.rsplit_once('.') else {
        return false;
    };
    let data = matches!(
        ext,
        "json" | "yaml" | "yml" | "toml" | "ini" | "txt" | "csv" | "tfvars" | "properties"
    );
    let words: Vec<&str> = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let secret = words.iter().any(|w| {
        matches!(
            *w,
            "secret" | "secrets" | "credential" | "credentials" | "creds" | "passwords"
        )
    });
    let template = words.iter().any(|w| {
        matches!(
            *w,
            "example"
                | "sample"
                | "template"
                | "tmpl"
                | "schema"
                | "dist"
                | "default"
                | "test"
                | "fake"
                | "dummy"
                | "mock"
                | "spec"
        )
    });
    data && secret && !template
}

/// Windows files that hold passwords: PowerShell's history (PSReadLine), unattended setup
/// answers (`C:\Windows\Panther\Unattend.xml`), Group Policy Preferences on SYSVOL
/// (`Groups.xml` with its `cpassword`), the SAM and SECURITY hives' backups.
fn windows_secret(p: &str, base: &str) -> Option<&'static str> {
    let b = base.to_ascii_lowercase();
    if b == "consolehost_history.txt" || b.ends_with("host_history.txt") {
        return Some("shell history");
    }
    if matches!(
        b.as_str(),
        "unattend.xml" | "autounattend.xml" | "sysprep.xml" | "sysprep.inf"
    ) {
        return Some("setup answers with passwords");
    }
    // an IIS site's configuration: connection strings, machine keys
    if b == "web.config" && p.to_ascii_lowercase().contains("inetpub/") {
        return Some("a web site's connection strings and keys");
    }
    let l = p.to_ascii_lowercase();
    if (l.contains("/sysvol/") || l.contains("/policies/"))
        && matches!(
            b.as_str(),
            "groups.xml"
                | "services.xml"
                | "scheduledtasks.xml"
                | "datasources.xml"
                | "drives.xml"
                | "printers.xml"
        )
    {
        return Some("Group Policy Preferences passwords");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_paths() {
        assert!(sensitive_kind("~/.ssh/id_rsa").is_some());
        assert!(sensitive_kind("~/.ssh/id_rsa.pub").is_none());
        assert!(sensitive_kind("~/.aws/credentials").is_some());
        assert!(sensitive_kind(".env").is_some());
        assert!(sensitive_kind(".env.production").is_some());
        assert!(sensitive_kind(".env.example").is_none());
        assert!(sensitive_kind("/etc/shadow").is_some());
        assert!(sensitive_kind("/etc/passwd").is_none());
        assert!(sensitive_kind("server.key").is_some());
        assert!(sensitive_kind("README.md").is_none());
        assert!(sensitive_kind("deploy/prod.env").is_some());
        assert!(sensitive_kind(".envrc").is_some());
        assert!(sensitive_kind(".env.defaults").is_none());
        assert!(sensitive_kind("prod-secrets.json").is_some());
        assert!(sensitive_kind("k8s/prod/db-secret.yaml").is_some());
        assert!(sensitive_kind("credentials.json").is_some());
        assert!(sensitive_kind("secrets.example.yaml").is_none());
        assert!(sensitive_kind("secret_test.json").is_none());
        assert!(sensitive_kind("secretary.json").is_none());
        assert!(sensitive_kind("secrets.rs").is_none());
        assert!(sensitive_kind("/etc/ssh/ssh_host_ed25519_key").is_some());
        assert!(sensitive_kind("/etc/ssh/ssh_host_ed25519_key.pub").is_none());
        assert!(
            sensitive_kind("/etc/NetworkManager/system-connections/home.nmconnection").is_some()
        );
        assert!(sensitive_kind("infra/terraform.tfstate").is_some());
        assert!(sensitive_kind("main.tf").is_none());
    }

    #[test]
    fn windows_password_files() {
        let h = "~/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt";
        assert_eq!(sensitive_kind(h), Some("shell history"));
        assert!(sensitive_kind("C:/Windows/Panther/Unattend.xml").is_some());
        assert!(
            sensitive_kind(
                "//corp.local/SYSVOL/corp.local/Policies/{X}/Machine/Preferences/Groups/Groups.xml"
            )
            .is_some()
        );
        assert!(sensitive_kind("C:/src/app/groups.xml").is_none());
        assert!(sensitive_kind("C:/Windows/Panther/setupact.log").is_none());
    }

    #[test]
    fn key_files() {
        assert!(is_private_key_file("id_ed25519"));
        assert!(is_private_key_file("server.pem"));
        assert!(!is_private_key_file("id_ed25519.pub"));
        assert!(!is_private_key_file(".key"));
        assert!(!is_private_key_file("keys.txt"));
    }
}
