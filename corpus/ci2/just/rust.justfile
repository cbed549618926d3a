set dotenv-load

default:
    @just --list

# run all checks
check: fmt lint test

fmt:
    cargo fmt --all -- --check

lint:
    cargo clippy --workspace --all-targets -- -D warnings

test *ARGS:
    cargo nextest run {{ARGS}}

clean:
    cargo clean
    rm -rf dist
