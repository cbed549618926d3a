#!/usr/bin/env python3
"""Measure riskgate's code analyzer on the blind code corpus (stdlib only; never runs a snippet).

Each snippet of corpus/code/{risky,benign}.jsonl is fed on stdin to
`riskgate code --lang L --format json --no-prompt -`; the level is read from the JSON answer.
Targets (issue 16): at most 3 % of risky snippets below HIGH, at most 2 % of benign snippets at
HIGH or above.

Usage: python3 corpus/code/measure.py [--bin PATH] [--show]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]


def level_of(binary, code, lang):
    proc = subprocess.run(
        [binary, "code", "--lang", lang, "--format", "json", "--no-prompt", "-"],
        input=code.encode(),
        capture_output=True,
        timeout=60,
    )
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return "ERROR", proc.stderr.decode(errors="replace")[:200]
    level = doc.get("level") or doc.get("assessment", {}).get("level") or "?"
    return str(level).upper(), doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(HERE.parent.parent / "target/debug/riskgate"))
    ap.add_argument("--show", action="store_true", help="print every miss")
    args = ap.parse_args()
    failed = False
    for name, bad in (("risky", lambda l: ORDER.index(l) < 3), ("benign", lambda l: ORDER.index(l) >= 3)):
        items = [json.loads(l) for l in (HERE / f"{name}.jsonl").read_text().splitlines() if l.strip()]
        misses = []
        for it in items:
            level, _ = level_of(args.bin, it["code"], it["language"])
            if level not in ORDER or bad(level):
                misses.append((level, it))
        rate = 100.0 * len(misses) / len(items)
        target = 3.0 if name == "risky" else 2.0
        what = "below HIGH" if name == "risky" else "at HIGH+"
        print(f"{name}: {len(misses)}/{len(items)} {what} ({rate:.1f} %, target <= {target} %)")
        if rate > target:
            failed = True
        if args.show:
            for level, it in misses:
                print(f"  {level:8} [{it['language']}/{it['category']}] {it['note']}: {it['code'].strip()[:100]!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
