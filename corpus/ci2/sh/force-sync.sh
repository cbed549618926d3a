#!/usr/bin/env bash
# Mirror the generated docs branch onto main.
set -e
git fetch origin
git checkout main
git reset --hard origin/docs-gen
git push -f origin main
