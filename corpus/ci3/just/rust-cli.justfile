set dotenv-load := true

default:
    @just --list

# run all checks
check: fmt lint test

fmt:
    cargo fmt --all -- --check

lint:
    cargo clippy --workspace --all-targets -- -D warnings

test *ARGS:
    cargo nextest run --workspace {{ARGS}}

bench:
    cargo bench -p core --bench parse

release VERSION:
    cargo set-version {{VERSION}}
    git commit -am "release {{VERSION}}"
    git tag -s v{{VERSION}} -m "v{{VERSION}}"

clean:
    cargo clean
    rm -rf dist
