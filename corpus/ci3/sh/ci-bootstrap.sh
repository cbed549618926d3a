#!/usr/bin/env bash
# CI bootstrap for the monorepo. Called from every pipeline.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

echo "::group::toolchain"
rustup show active-toolchain
node --version
echo "::endgroup::"

if [[ "${CI:-}" == "true" ]]; then
  git config --global --add safe.directory "$ROOT"
fi

# Install deps
npm ci --prefer-offline --no-audit
cargo fetch --locked

# Build everything
cargo build --workspace --locked
npm run build --workspaces --if-present

# Clean stale artefacts from previous runs
rm -rf "$ROOT/target/tmp" "$ROOT/dist"
