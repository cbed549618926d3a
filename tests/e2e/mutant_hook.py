#!/usr/bin/env python3
"""A deliberately broken adapter, for the end-to-end tests (`scripts/e2e.py --mutate`): runs
the real riskgate (`E2E_REAL_RISKGATE`) with the same arguments and standard input, then
misspells the decision field of its answer (`permissionDecision` → `permissionDecisoin`,
`decision` → `decisoin`, `permission` → `permisson`) and exits 0 without its standard error, as
an adapter with a typo would. The agent no longer sees riskgate's decision, so the harness must
fail for that agent: that failure is what shows the harness checks the answers the agents obey.
"""

import os
import subprocess
import sys

SWAPS = [
    (b'"permissionDecision"', b'"permissionDecisoin"'),
    (b'"decision"', b'"decisoin"'),
    (b'"permission"', b'"permisson"'),
]


def main():
    real = os.environ.get("E2E_REAL_RISKGATE")
    if not real:
        sys.stdout.write("{}\n")
        return 0
    data = sys.stdin.buffer.read()
    done = subprocess.run([real, *sys.argv[1:]], input=data, capture_output=True, check=False)
    out = done.stdout
    for old, new in SWAPS:
        out = out.replace(old, new)
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
