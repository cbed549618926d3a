#!/usr/bin/env bash
# Usage: scripts/release.sh 1.2.3
set -euo pipefail

VERSION="${1:?usage: release.sh VERSION}"

if [[ -n "$(git status --porcelain)" ]]; then
  echo "working tree is dirty" >&2
  exit 1
fi

sed -i.bak "s/^version = \".*\"/version = \"${VERSION}\"/" Cargo.toml && rm Cargo.toml.bak
cargo update -w
git commit -am "release: v${VERSION}"
git tag -s "v${VERSION}" -m "v${VERSION}"
git push origin main "v${VERSION}"
goreleaser release --clean
