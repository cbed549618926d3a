set dotenv-load

default:
    @just --list

# Run all checks
check: fmt clippy test

fmt:
    cargo fmt --all

clippy:
    cargo clippy --workspace --all-targets -- -D warnings

test *ARGS:
    cargo nextest run --workspace {{ARGS}}

bench name="throughput":
    cargo bench --bench {{name}}

clean:
    cargo clean
