#!/usr/bin/env python3
"""A broken riskgate, for the end-to-end tests: the harness puts it where the agent's hook runs
`riskgate`, so the agent meets a hook that fails. `E2E_BROKEN` says how:

- `crash`: prints half an answer and exits 1 (a crash, a missing library, a panic);
- `garbage`: prints half an answer (JSON cut off) and exits 0 (an answer that cannot be read);
- `slow`: sleeps past every agent's hook time limit (`E2E_BROKEN_SLEEP`, default 45 s), then
  prints half an answer and exits 0.

It reads (and ignores) the payload, like a hook, and touches nothing.
"""

import os
import sys
import time


def main():
    mode = os.environ.get("E2E_BROKEN", "crash")
    try:
        sys.stdin.read()
    except (OSError, ValueError):
        pass
    if mode == "slow":
        time.sleep(float(os.environ.get("E2E_BROKEN_SLEEP", "45")))
    sys.stdout.write('{"hookSpecificOutput": {"permissionDec')  # cut off: not valid JSON
    sys.stdout.flush()
    return 1 if mode == "crash" else 0


if __name__ == "__main__":
    sys.exit(main())
