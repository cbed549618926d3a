#!/usr/bin/env bash
# Run the test suite against every supported Python.
set -euo pipefail
for py in 3.10 3.11 3.12; do
  echo "--- python $py"
  uv venv --python "$py" ".venv-$py"
  uv pip install --python ".venv-$py/bin/python" -e '.[test]'
  ".venv-$py/bin/python" -m pytest -q
done
rm -rf .venv-3.*
