#!/usr/bin/env python3
"""Records what a real agent sends its hook, for the end-to-end tests (`scripts/e2e.py
--capture DIR`): saves the payload on standard input as `DIR/<agent>-<scenario>-<event>-<n>.json` (with the
answer riskgate gave, in `<same>.answer`), then answers exactly as the real riskgate
(`E2E_REAL_RISKGATE`) does: same standard output, standard error and exit status. The saved
payloads are what adapter tests replay (`crates/riskgate-cli/tests/fixtures/agents/`).
"""

import json
import os
import subprocess
import sys


def main():
    real = os.environ.get("E2E_REAL_RISKGATE", "")
    data = sys.stdin.buffer.read()
    done = subprocess.run([real, *sys.argv[1:]], input=data, capture_output=True, check=False)
    out_dir = os.environ.get("E2E_CAPTURE_DIR")
    if out_dir and sys.argv[1:2] == ["hook"]:
        agent = sys.argv[2] if len(sys.argv) > 2 else "unknown"
        try:
            event = json.loads(data).get("hook_event_name") or json.loads(data).get("hookEventName") or "event"
        except (ValueError, AttributeError):
            event = "event"
        os.makedirs(out_dir, exist_ok=True)
        n = len(os.listdir(out_dir))
        scenario = os.environ.get("E2E_SCENARIO", "turn")
        base = os.path.join(out_dir, f"{agent}-{scenario}-{event}-{n:03d}")
        with open(base + ".json", "wb") as f:
            f.write(data)
        with open(base + ".answer", "wb") as f:
            f.write(done.stdout)
    sys.stdout.buffer.write(done.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
