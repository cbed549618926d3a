//! Cloud SDKs called from Perl, Ruby and PHP: a destroying method of an SDK object
//! (`Aws::S3::Client.new.delete_bucket(…)`, `ec2.instances.each(&:terminate)`,
//! `$s3->deleteBucket([…])`, `Google::Cloud::Storage.new.bucket(b).delete`) is read as the
//! provider's CLI command with that verb (`aws s3api delete-bucket`, `aws ec2 terminate`), which
//! the shell engine rates as a deletion of a cloud resource.

use riskgate_model::Span;

use super::super::analysis::EmbeddedCommand;

/// At most this many SDK deletions are read per snippet.
const MAX: usize = 8;

/// Verbs of methods that destroy what the SDK object stands for.
const VERBS: [&str; 5] = ["delete", "terminate", "destroy", "purge", "remove"];

/// The provider CLI and service the code's SDK names (`Aws::EC2::` → `aws ec2`).
fn provider(code: &str) -> Option<(&'static str, String)> {
    let service_after = |marker: &str, sep: &str| {
        code.find(marker).map(|k| {
            code[k + marker.len()..]
                .split(sep)
                .next()
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
        })
    };
    if let Some(s) = service_after("Aws::", "::").or_else(|| service_after("Aws\\", "\\")) {
        let s = if s == "s3" { "s3api".to_string() } else { s };
        return Some(("aws", s));
    }
    if let Some(s) =
        service_after("Google::Cloud::", "::").or_else(|| service_after("Google\\Cloud\\", "\\"))
    {
        return Some(("gcloud", s));
    }
    if let Some(s) = service_after("Azure::", "::") {
        return Some(("az", s));
    }
    None
}

/// `delete_bucket` / `deleteBucket` / `terminate` as a CLI verb (`delete-bucket`).
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(if c == '_' {
            '-'
        } else {
            c.to_ascii_lowercase()
        });
    }
    out
}

/// The destroying SDK calls of `code`, as the CLI commands that do the same.
pub(super) fn deletes(code: &str) -> Vec<EmbeddedCommand> {
    let mut out: Vec<EmbeddedCommand> = Vec::new();
    let Some((cli, service)) = provider(code) else {
        return out;
    };
    if service.is_empty() {
        return out;
    }
    for marker in [".", "&:", "->"] {
        for (k, _) in code.match_indices(marker) {
            if out.len() >= MAX {
                return out;
            }
            let rest = &code[k + marker.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let lower = name.to_ascii_lowercase();
            if !VERBS.iter().any(|v| lower.starts_with(v)) {
                continue;
            }
            // `remove` alone is a collection's (`list.remove(x)`); `remove_…` names a resource
            if lower == "remove" {
                continue;
            }
            let text = format!("{cli} {service} {}", kebab(&name));
            if out.iter().any(|c| c.text == text) {
                continue;
            }
            let line = code[..k].matches('\n').count() as u32 + 1;
            out.push(EmbeddedCommand {
                argv: Some(vec![cli.to_string(), service.clone(), kebab(&name)]),
                text,
                dynamic: false,
                via: format!("{cli} SDK"),
                span: Span::new(k, k + marker.len() + name.len()),
                line,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::deletes;

    #[test]
    fn sdk_deletions_become_cli_commands() {
        let t = |code: &str| -> Vec<String> { deletes(code).into_iter().map(|c| c.text).collect() };
        assert_eq!(
            t("Aws::EC2::Resource.new(region: 'us-east-1').instances.each(&:terminate)"),
            ["aws ec2 terminate"]
        );
        assert_eq!(
            t("Aws::S3::Client.new.delete_bucket(bucket: 'acme-prod')"),
            ["aws s3api delete-bucket"]
        );
        assert_eq!(
            t("$s3 = new Aws\\S3\\S3Client([]); $s3->deleteBucket(['Bucket' => 'b']);"),
            ["aws s3api delete-bucket"]
        );
        assert!(t("Aws::S3::Client.new.list_buckets").is_empty());
        assert!(t("files.delete('x')").is_empty());
    }
}
