//! What a file is, from its path: documentation, dependency manifest or lockfile, CI/CD,
//! container, environment or configuration file, infrastructure, migration, API specification,
//! key material, vendored code, production-specific.

use std::sync::LazyLock;

use regex::Regex;

fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

fn lower(p: &str) -> String {
    p.to_ascii_lowercase()
}

/// Documentation only (README, docs/, *.md …).
pub fn is_doc(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    let ext_doc = [".md", ".markdown", ".rst", ".adoc", ".txt"]
        .iter()
        .any(|e| b.ends_with(e))
        && !b.starts_with("requirements")
        && !b.contains("constraints");
    ext_doc
        || l.starts_with("docs/")
        || l.contains("/docs/")
        || b.starts_with("readme")
        || b.starts_with("changelog")
        || b.starts_with("license")
        || b.starts_with("authors")
        || b == "notice"
}

/// Dependency manifests.
pub fn is_manifest(p: &str) -> bool {
    let b = base(p);
    let l = lower(b);
    matches!(
        b,
        "package.json"
            | "Pipfile"
            | "pyproject.toml"
            | "setup.py"
            | "setup.cfg"
            | "Cargo.toml"
            | "go.mod"
            | "Gemfile"
            | "composer.json"
            | "pom.xml"
            | "build.gradle"
            | "build.gradle.kts"
            | "mix.exs"
            | "pubspec.yaml"
            | "environment.yml"
            | "environment.yaml"
            | "deno.json"
            | "packages.config"
            | "Package.swift"
            | "Podfile"
            | "vcpkg.json"
            | "conanfile.txt"
            | "DESCRIPTION"
            | "project.clj"
            | "deps.edn"
            | "stack.yaml"
            | "cabal.project"
    ) || (l.starts_with("requirements") && (l.ends_with(".txt") || l.ends_with(".in")))
        || l.ends_with(".csproj")
        || l.ends_with(".gemspec")
        || l.ends_with(".cabal")
}

/// Lockfiles.
pub fn is_lockfile(p: &str) -> bool {
    matches!(
        base(p),
        "package-lock.json"
            | "yarn.lock"
            | "pnpm-lock.yaml"
            | "bun.lockb"
            | "bun.lock"
            | "Pipfile.lock"
            | "poetry.lock"
            | "uv.lock"
            | "Cargo.lock"
            | "go.sum"
            | "Gemfile.lock"
            | "composer.lock"
            | "mix.lock"
            | "pubspec.lock"
            | "Podfile.lock"
            | "packages.lock.json"
            | "gradle.lockfile"
            | "npm-shrinkwrap.json"
            | "flake.lock"
            | "deno.lock"
    )
}

/// CI/CD pipelines.
pub fn is_ci(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    l.starts_with(".github/workflows/")
        || l.starts_with(".github/actions/")
        || b == ".gitlab-ci.yml"
        || l.starts_with(".circleci/")
        || b == "jenkinsfile"
        || b == "azure-pipelines.yml"
        || b == ".travis.yml"
        || b == "bitbucket-pipelines.yml"
        || l.starts_with(".buildkite/")
        || b == ".drone.yml"
        || b == "cloudbuild.yaml"
        || b == "cloudbuild.yml"
        || b == "buildspec.yml"
        || l.starts_with(".ci/")
        || l.starts_with(".tekton/")
        || b == "appveyor.yml"
        || b == ".gitlab-ci.yaml"
        || l.starts_with(".woodpecker")
}

/// Container definitions.
pub fn is_docker(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    b == "dockerfile"
        || b.starts_with("dockerfile.")
        || b.ends_with(".dockerfile")
        || b == "containerfile"
        || (b.starts_with("docker-compose") && (b.ends_with(".yml") || b.ends_with(".yaml")))
        || b == "compose.yml"
        || b == "compose.yaml"
}

/// Environment files (`.env`, `.env.production`, `prod.env`).
pub fn is_env(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    (b == ".env" || b.starts_with(".env.") || b.ends_with(".env"))
        && !b.ends_with(".example")
        && !b.ends_with(".sample")
        && !b.ends_with(".template")
        || b == ".envrc"
}

/// Example environment files (`.env.example`): configuration documentation.
pub fn is_env_example(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    b.starts_with(".env")
        && (b.ends_with(".example")
            || b.ends_with(".sample")
            || b.ends_with(".template")
            || b.ends_with(".dist"))
}

/// Configuration files.
pub fn is_config(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    let stem = b.split('.').next().unwrap_or("");
    let config_ext = [
        ".yaml",
        ".yml",
        ".json",
        ".toml",
        ".ini",
        ".properties",
        ".conf",
        ".cfg",
        ".xml",
        ".hcl",
    ]
    .iter()
    .any(|e| b.ends_with(e));
    (config_ext
        && (matches!(
            stem,
            "config"
                | "settings"
                | "application"
                | "appsettings"
                | "app"
                | "values"
                | "secrets"
                | "default"
                | "production"
                | "staging"
                | "development"
        ) || l.starts_with("config/")
            || l.contains("/config/")
            || l.starts_with("conf/")
            || l.contains("/conf/")
            || l.starts_with("etc/")))
        || b == "settings.py"
        || b.ends_with(".conf")
        || b.ends_with(".ini")
        || b == "nginx.conf"
        || b == ".npmrc"
        || b == ".yarnrc.yml"
        || b == "web.config"
        || b == ".htaccess"
}

/// Infrastructure as code and deployment manifests.
pub fn is_infra(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    b.ends_with(".tf")
        || b.ends_with(".tfvars")
        || b.ends_with(".bicep")
        || l.starts_with("k8s/")
        || l.contains("/k8s/")
        || l.starts_with("kubernetes/")
        || l.contains("/kubernetes/")
        || l.starts_with("helm/")
        || l.contains("/helm/")
        || b == "chart.yaml"
        || l.starts_with("deploy/")
        || l.contains("/deploy/")
        || l.starts_with("ansible/")
        || b == "serverless.yml"
        || b == "template.yaml" && l.contains("sam")
        || b.ends_with(".pulumi.yaml")
        || b == "pulumi.yaml"
        || b == "fly.toml"
        || b == "app.yaml"
        || b == "procfile"
        || b == "vercel.json"
        || b == "netlify.toml"
}

static MIGRATION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)(^|/)(migrations?|migrate|alembic/versions|db/migrate|flyway|liquibase|changelogs?)/|(^|/)V\d+(_\d+)*__\w+\.sql$|(^|/)(schema\.rb|structure\.sql|schema\.prisma|schema\.sql)$").ok()
});

/// Database migrations and schema files.
pub fn is_migration(p: &str) -> bool {
    MIGRATION.as_ref().is_some_and(|r| r.is_match(p))
}

/// API specifications (OpenAPI, protobuf, GraphQL …).
pub fn is_api_spec(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    b.ends_with(".proto")
        || b.ends_with(".graphql")
        || b.ends_with(".gql")
        || b.ends_with(".raml")
        || b.ends_with(".avsc")
        || b.ends_with(".thrift")
        || ((b.starts_with("openapi") || b.starts_with("swagger") || b.starts_with("asyncapi"))
            && (b.ends_with(".yaml") || b.ends_with(".yml") || b.ends_with(".json")))
}

/// Key material and credential files: private keys and key stores (the model's credential
/// table), password databases, PuTTY keys, exported GPG keys, and credential files.
pub fn is_key_file(p: &str) -> bool {
    let l = lower(p);
    let b = base(&l);
    riskgate_model::credentials::is_private_key_file(b)
        || [".kdbx", ".ppk", ".asc", ".gpg"]
            .iter()
            .any(|e| b.ends_with(e))
        || b == "credentials"
        || b == "credentials.json"
        || b.starts_with("service-account") && b.ends_with(".json")
        || b == ".htpasswd"
        || b == ".netrc"
        || b == ".git-credentials"
        || b == ".pgpass"
}

/// Vendored third-party code.
pub fn is_vendored(p: &str) -> bool {
    let l = lower(p);
    [
        "vendor/",
        "third_party/",
        "third-party/",
        "thirdparty/",
        "node_modules/",
        "external/",
    ]
    .iter()
    .any(|v| l.starts_with(v) || l.contains(&format!("/{v}")))
}

static PRODUCTION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)(^|[/._-])(prod|production|live)([/._-]|$)").ok());

/// Paths specific to the production environment.
pub fn is_production(p: &str) -> bool {
    PRODUCTION.as_ref().is_some_and(|r| r.is_match(p))
}

/// The comment marker of lines in this file's language, if any.
pub fn is_comment_line(p: &str, line: &str) -> bool {
    let t = line.trim_start();
    let l = lower(p);
    let hash = [
        ".py",
        ".sh",
        ".bash",
        ".zsh",
        ".rb",
        ".yml",
        ".yaml",
        ".toml",
        ".pl",
        ".r",
        ".tf",
        ".ps1",
        ".conf",
        ".ini",
        ".cfg",
        ".env",
        "makefile",
        "dockerfile",
        ".mk",
    ]
    .iter()
    .any(|e| l.ends_with(e))
        || is_env(p)
        || is_docker(p);
    if hash && t.starts_with('#') && !t.starts_with("#!") {
        return true;
    }
    if l.ends_with(".sql") && t.starts_with("--") {
        return true;
    }
    t.starts_with("//")
        || t.starts_with("/*")
        || (t.starts_with('*') && !t.starts_with("**"))
        || t.starts_with("<!--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(
            is_doc("README.md") && is_doc("docs/guide/intro.rst") && !is_doc("requirements.txt")
        );
        assert!(
            is_manifest("package.json")
                && is_manifest("api/requirements-dev.txt")
                && is_lockfile("yarn.lock")
        );
        assert!(
            is_ci(".github/workflows/ci.yml")
                && is_docker("services/api/Dockerfile")
                && is_docker("docker-compose.prod.yml")
        );
        assert!(
            is_env(".env")
                && is_env(".env.production")
                && !is_env(".env.example")
                && is_env_example(".env.example")
        );
        assert!(
            is_config("config/app.yaml") && is_config("settings.py") && !is_config("src/app.py")
        );
        assert!(
            is_migration("db/migrate/20240101_add_age.rb")
                && is_migration("migrations/0002_add.sql")
                && is_migration("sql/V2__add_col.sql")
        );
        assert!(is_api_spec("api/openapi.yaml") && is_api_spec("proto/user.proto"));
        assert!(is_key_file("certs/server.key") && is_key_file("deploy/id_rsa"));
        // a public key is not a secret; a PuTTY key and a pgpass file are
        assert!(!is_key_file("deploy/id_rsa.pub"));
        assert!(is_key_file("keys/prod.ppk") && is_key_file("home/.pgpass"));
        assert!(
            is_production(".env.production")
                && is_production("k8s/prod/deploy.yaml")
                && !is_production("src/product.py")
        );
        assert!(is_vendored("vendor/github.com/x/y.go") && !is_vendored("src/vendors.py"));
    }
}
