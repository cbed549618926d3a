#!/usr/bin/env bash
# Cut a release: ./scripts/release.sh 1.4.0
set -euo pipefail

VERSION="${1:?usage: release.sh VERSION}"

if [[ -n "$(git status --porcelain)" ]]; then
  echo "working tree not clean" >&2
  exit 1
fi

sed -i.bak "s/^version = \".*\"/version = \"${VERSION}\"/" pyproject.toml && rm pyproject.toml.bak
git add pyproject.toml
git commit -m "chore: release v${VERSION}"
git tag -a "v${VERSION}" -m "v${VERSION}"

python -m build
python -m twine check dist/*
git push origin main "v${VERSION}"
