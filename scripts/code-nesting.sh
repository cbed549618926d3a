#!/usr/bin/env bash
# Time `riskgate code` on nested calls `f(` × N `0` `)` × N (issue 11's fuzz timeout) for
# doubling N, Python and JavaScript: the time must grow linearly (×2 per step), not ×6-8.
#
#   scripts/code-nesting.sh [BIN]     # default target/release/riskgate, else target/debug
#
# Prints the median of 3 runs per size. Nothing is executed but riskgate itself.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-}"
if [ -z "$BIN" ]; then
  if [ -x target/release/riskgate ]; then BIN=target/release/riskgate; else BIN=target/debug/riskgate; fi
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$BIN" "$work" <<'PY'
import json, statistics, subprocess, sys, time
binary, work = sys.argv[1], sys.argv[2]
for lang in ("python", "js"):
    for n in (1000, 2000, 4000, 8000):
        path = f"{work}/nest.{lang}"
        with open(path, "w") as f:
            f.write("f(" * n + "0" + ")" * n)
        times = []
        for _ in range(3):
            t = time.perf_counter()
            out = subprocess.run([binary, "code", "--lang", lang, "--format", "json", "--no-prompt", path],
                                 capture_output=True)
            times.append(time.perf_counter() - t)
        doc = json.loads(out.stdout)
        print(f"{lang:6} n={n:5}  median {statistics.median(times):.3f}s  level {doc['level']}  degraded {doc['degraded']}")
PY
