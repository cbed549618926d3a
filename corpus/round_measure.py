#!/usr/bin/env python3
"""Measure a labelled round file through `riskgate scan` (stdlib only; never runs a command).

Usage: python3 corpus/round_measure.py BIN corpus/roundN.jsonl [--shell SHELL] [--shell-from-category]
Prints every miss, then FN (dangerous below HIGH) and FP (safe at HIGH or above).

Each line is read as the shell its own `shell` field names; else, with --shell-from-category,
a category starting `pwsh/` is PowerShell and one starting `cmd/` is cmd.exe; else --shell
(default: bash, riskgate's own default).
"""
import json, subprocess, sys
ORDER = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]
PREFIXES = {"pwsh/": "powershell", "powershell/": "powershell", "cmd/": "cmd"}
args = sys.argv[1:]
by_category = "--shell-from-category" in args
args = [a for a in args if a != "--shell-from-category"]
default_shell = None
if "--shell" in args:
    i = args.index("--shell")
    default_shell = args[i + 1]
    del args[i:i + 2]
bin_, path = args[0], args[1]
items = [json.loads(l) for l in open(path) if l.strip()]


def shell_of(it):
    if it.get("shell"):
        return it["shell"]
    if by_category:
        for prefix, shell in PREFIXES.items():
            if it.get("category", "").startswith(prefix):
                return shell
    return default_shell


def line(it):
    obj = {"command": it["command"]}
    shell = shell_of(it)
    if shell:
        obj["shell"] = shell
    return json.dumps(obj) + "\n"


inp = "".join(line(it) for it in items)
out = subprocess.run([bin_, "scan", "--format", "jsonl"], input=inp.encode(), capture_output=True).stdout.decode().splitlines()
assert len(out) == len(items), (len(out), len(items))
fn = fp = nd = ns = 0
for it, line in zip(items, out):
    lv = json.loads(line)["level"].upper()
    if it["label"] == "dangerous":
        nd += 1
        if ORDER.index(lv) < 3:
            fn += 1; print("FN", lv, it["category"], it["command"][:110].replace("\n", "\\n"))
    else:
        ns += 1
        if ORDER.index(lv) >= 3:
            fp += 1; print("FP", lv, it["category"], it["command"][:110].replace("\n", "\\n"))
print(f"FN {fn}/{nd} ({100*fn/nd:.1f} %), FP {fp}/{ns} ({100*fp/ns:.1f} %)")
