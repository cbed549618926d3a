version := `git describe --tags --abbrev=0`
cache_dir := env_var_or_default("ARTIFACT_CACHE", "")

# Tag and publish a release
tag new:
    git tag -a v{{new}} -m "release v{{new}}"
    git push origin v{{new}}

# Overwrite main with the current branch (use when main is broken)
force-main:
    git push --force origin HEAD:main

# Remove cached artifacts
clean-cache:
    rm -rf {{cache_dir}}/

changelog:
    git cliff --tag {{version}} -o CHANGELOG.md
