#!/usr/bin/env python3
"""Measure `riskgate repo scan` on the CI/build corpus (corpus/ci/): every labeled step
(`labels.jsonl`: file, line, dangerous|safe) is looked up in the scan of its file; a step's
level is the highest level of the findings placed on its line. Prints the dangerous steps below
HIGH (false negatives) and the safe steps at HIGH or above (false positives).

    python3 corpus/ci_measure.py [--bin target/debug/riskgate] [--verbose]

Each file is copied into a temporary tree under the name its tool reads
(`.github/workflows/NAME.yml`, `package.json`, `Makefile` …) and scanned there; the files are
data, never run.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LEVELS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]


def canonical(rel):
    """The path a corpus file is scanned under."""
    d, name = rel.split("/", 1)
    if d == "gha":
        return ".github/workflows/" + name
    if d == "gitlab":
        return ".gitlab-ci.yml"
    if d == "docker":
        return "Dockerfile"
    if d == "make":
        return "Makefile"
    if d == "npm":
        return "package.json"
    if d == "py":
        return "setup.py" if name.endswith(".py") else "pyproject.toml"
    if d == "precommit":
        return ".pre-commit-config.yaml"
    if d == "devcontainer":
        return ".devcontainer/devcontainer.json"
    if d == "just":
        return "justfile"
    if d == "task":
        return "Taskfile.yml"
    return name


def scan(binary, src, rel):
    tmp = tempfile.mkdtemp(prefix="riskgate-ci-corpus-")
    try:
        dest = os.path.join(tmp, canonical(rel))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        p = subprocess.run(
            [binary, "repo", "scan", "--format", "json", "--fail-on", "never", "--no-config", tmp],
            capture_output=True,
            check=False,
        )
        if p.returncode != 0:
            sys.exit(f"{rel}: riskgate exited {p.returncode}: {p.stderr.decode(errors='replace')}")
        return json.loads(p.stdout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def line_levels(report):
    """line -> (level index, [rule ids at HIGH+ or the top ones])."""
    out = {}
    for f in report["files"]:
        for r in f["results"]:
            for fd in r["findings"]:
                loc = fd.get("location") or {}
                line = loc.get("line", r["line"])
                lv = LEVELS.index(fd["level"])
                # a finding over several lines (a flow) is placed on its first and last line
                for at in {line, loc.get("end_line", line)}:
                    cur = out.get(at, (0, []))
                    ids = cur[1] + [f"{fd['rule_id']}:{fd['level']}"]
                    out[at] = (max(cur[0], lv), ids)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "riskgate"))
    ap.add_argument("--dir", default=os.path.join(HERE, "ci"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    labels = [json.loads(l) for l in open(os.path.join(args.dir, "labels.jsonl"), encoding="utf-8") if l.strip()]
    by_file = {}
    for lb in labels:
        by_file.setdefault(lb["file"], []).append(lb)
    fn, fp, dangerous, safe = [], [], 0, 0
    for rel, lbs in sorted(by_file.items()):
        path = os.path.join(args.dir, rel)
        levels = line_levels(scan(args.bin, path, rel))
        text = open(path, encoding="utf-8").read().split("\n")
        for lb in lbs:
            # a step is its line and the continuation lines of the command that starts there
            lv, ids = 0, []
            line = lb["line"]
            while True:
                l_lv, l_ids = levels.get(line, (0, []))
                lv, ids = max(lv, l_lv), ids + l_ids
                if line > len(text) or not text[line - 1].rstrip().endswith("\\"):
                    break
                line += 1
            if lb["label"] == "dangerous":
                dangerous += 1
                if lv < 3:
                    fn.append((rel, lb, LEVELS[lv], ids))
            else:
                safe += 1
                if lv >= 3:
                    fp.append((rel, lb, LEVELS[lv], ids))
    print(f"dangerous steps below HIGH: {len(fn)}/{dangerous} ({100 * len(fn) / max(dangerous, 1):.1f} %)")
    print(f"safe steps at HIGH or above: {len(fp)}/{safe} ({100 * len(fp) / max(safe, 1):.1f} %)")
    if args.verbose:
        for name, items in (("FN", fn), ("FP", fp)):
            for rel, lb, lv, ids in items:
                print(f"{name} {rel}:{lb['line']} {lv} [{lb.get('kind', '')}] {lb.get('note', '')} :: {' '.join(ids[:6])}")


if __name__ == "__main__":
    main()
