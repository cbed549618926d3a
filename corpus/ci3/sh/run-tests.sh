#!/usr/bin/env bash
# Test entry point used by CI and by developers.
set -euo pipefail

MODE="${1:-unit}"
export PYTHONHASHSEED=0

case "$MODE" in
  unit)
    pytest -q tests/unit
    ;;
  integration)
    docker compose -f tests/compose.yml up -d --wait
    trap 'docker compose -f tests/compose.yml down -v' EXIT
    pytest -q tests/integration
    ;;
  lint)
    ruff check .
    mypy src
    ;;
  *)
    echo "unknown mode: $MODE" >&2
    exit 2
    ;;
esac

rm -rf .pytest_cache
