#!/usr/bin/env python3
"""Turn the payloads captured by `scripts/e2e.py --capture DIR` into the adapter fixtures of
`crates/riskgate-cli/tests/hooks_real_payloads.rs`: one file per agent and version,
`crates/riskgate-cli/tests/fixtures/agents/<agent>-<version>.json`, a list of
`{scenario, event, payload, decision}` where `decision` is what riskgate answered the real agent
(`allow`, `ask`, `deny`, or `none` for no opinion). The scratch directory of the run is replaced
by `{ROOT}` and its project by `{PROJECT}`, which the test puts back with its own directories.

    python3 tests/e2e/fixtures.py CAPTURE_DIR MATRIX_JSON
"""

import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO, "crates", "riskgate-cli", "tests", "fixtures", "agents")
# Scenarios whose payloads carry riskgate's real answers (the broken ones answered nothing).
KEEP = {"safe", "deny", "ask", "approve"}


def decision_of(answer):
    """The decision in an answer of any agent's format; `none` for an empty answer."""
    text = answer.strip()
    if not text:
        return "none"
    try:
        value = json.loads(text)
    except ValueError:
        return "unreadable"
    found = []

    def walk(v):
        if isinstance(v, dict):
            for key in ("permissionDecision", "decision", "permission"):
                if isinstance(v.get(key), str):
                    found.append(v[key])
            if isinstance(v.get("cancel"), bool):  # Cline
                found.append("deny" if v["cancel"] else "allow")
            for child in v.values():
                walk(child)

    walk(value)
    d = found[0] if found else "none"
    return {"block": "deny", "approve": "allow"}.get(d, d)


def scrub(text, root):
    text = text.replace(os.path.join(root, "project"), "{PROJECT}")
    return text.replace(root, "{ROOT}")


def main():
    capture, matrix = sys.argv[1], sys.argv[2]
    with open(matrix, encoding="utf-8") as f:
        agents = json.load(f)["agents"]
    os.makedirs(OUT, exist_ok=True)
    for agent in sorted(os.listdir(capture)):
        folder = os.path.join(capture, agent)
        package = agents.get(agent, {}).get("package", agent)
        version = package.rsplit("@", 1)[-1]
        cases = []
        seen = set()
        # in the order the agent sent them: a session approval needs its PostToolUse first
        for name in sorted(os.listdir(folder), key=lambda n: n.rsplit("-", 1)[-1]):
            if not name.endswith(".json"):
                continue
            m = re.match(rf"{re.escape(agent)}-([a-z]+)-(.+)-\d+\.json$", name)
            if not m or m.group(1) not in KEEP:
                continue
            scenario, event = m.group(1), m.group(2)
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                raw = f.read()
            with open(os.path.join(folder, name[:-5] + ".answer"), encoding="utf-8") as f:
                answer = f.read()
            payload = json.loads(raw)
            roots = re.findall(r"(/[^\"\s]*/riskgate-e2e-[a-z]+-[A-Za-z0-9_]+)", raw)
            if roots:
                payload = json.loads(scrub(raw, roots[0]))
            if event == "event":  # Copilot names no event: a result makes it postToolUse
                event = "postToolUse" if "toolResult" in payload else "preToolUse"
            key = (scenario, event, json.dumps(payload, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            cases.append({"scenario": scenario, "event": event, "payload": payload,
                          "decision": decision_of(answer)})
        path = os.path.join(OUT, f"{agent}-{version}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"agent": agent, "package": package, "cases": cases}, f, indent=1)
            f.write("\n")
        print(f"{path}: {len(cases)} payloads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
