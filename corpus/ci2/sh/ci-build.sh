#!/usr/bin/env bash
# CI entry point: lint, test, package.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

echo "==> lint"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

echo "==> test"
cargo test --workspace --locked

echo "==> package"
rm -rf dist
mkdir -p dist
cargo build --release
cp target/release/tool dist/
tar -C dist -czf "dist/tool-$(uname -s)-$(uname -m).tar.gz" tool
