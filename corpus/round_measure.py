#!/usr/bin/env python3
"""Measure a labelled round file through `riskgate scan` (stdlib only; never runs a command).

Usage: python3 corpus/round_measure.py BIN corpus/roundN.jsonl
Prints every miss, then FN (dangerous below HIGH) and FP (safe at HIGH or above).
"""
import json, subprocess, sys
ORDER = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]
bin_ = sys.argv[1]
path = sys.argv[2]
items = [json.loads(l) for l in open(path) if l.strip()]
inp = "".join(json.dumps({"command": it["command"]}) + "\n" for it in items)
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
