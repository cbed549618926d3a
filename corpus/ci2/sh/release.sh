#!/usr/bin/env bash
set -euo pipefail

VERSION="${1:?usage: release.sh VERSION}"

git diff --quiet || { echo "working tree dirty"; exit 1; }
npm version "$VERSION" -m "release v%s"
npm run build
git push origin main --follow-tags
npm publish
