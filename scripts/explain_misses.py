#!/usr/bin/env python3
"""Print the misses of a labelled round file with the findings of each (stdlib only; never runs
a command: every line goes to `riskgate scan` as a JSON string).

Usage: python3 scripts/explain_misses.py BIN corpus/X.jsonl [fn|fp|both] [--shell-from-category]

A line's shell is its own `shell` field, else with --shell-from-category a `pwsh/` category is
PowerShell and a `cmd/` one cmd.exe (as corpus/round_measure.py reads them).
"""
import json
import subprocess
import sys

ORDER = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]
PREFIXES = {"pwsh/": "powershell", "powershell/": "powershell", "cmd/": "cmd"}

args = sys.argv[1:]
by_category = "--shell-from-category" in args
args = [a for a in args if a != "--shell-from-category"]
bin_, path = args[0], args[1]
want = args[2] if len(args) > 2 else "both"
items = [json.loads(l) for l in open(path) if l.strip()]


def shell_of(it):
    if it.get("shell"):
        return it["shell"]
    if by_category:
        for prefix, shell in PREFIXES.items():
            if it.get("category", "").startswith(prefix):
                return shell
    return None


def line(it):
    obj = {"command": it["command"]}
    shell = shell_of(it)
    if shell:
        obj["shell"] = shell
    return json.dumps(obj) + "\n"


inp = "".join(line(it) for it in items)
out = subprocess.run(
    [bin_, "scan", "--format", "jsonl"], input=inp.encode(), capture_output=True
).stdout.decode().splitlines()
for it, raw in zip(items, out):
    r = json.loads(raw)
    lv = r["level"].upper()
    miss = (it["label"] == "dangerous" and ORDER.index(lv) < 3) or (
        it["label"] == "safe" and ORDER.index(lv) >= 3
    )
    if not miss:
        continue
    if want == "fp" and it["label"] != "safe":
        continue
    if want == "fn" and it["label"] != "dangerous":
        continue
    print("==", it["label"], lv, it.get("category", ""), shell_of(it) or "-",
          it["command"][:300].replace("\n", "\\n"))
    for f in r.get("findings", [])[:4]:
        print("   ", f.get("rule_id") or f.get("id"), f.get("level"), f.get("score"), "|",
              (f.get("description") or f.get("message") or "")[:120])
