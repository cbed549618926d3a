#!/usr/bin/env bash
# CI entry point: build and test everything.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

echo "::group::toolchain"
rustc --version
cargo --version
echo "::endgroup::"

export CARGO_INCREMENTAL=0
export RUSTFLAGS="${RUSTFLAGS:-} -D warnings"

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked
cargo test --workspace --locked

if [[ "${CI:-}" == "true" ]]; then
  rm -rf target/debug/incremental
fi
