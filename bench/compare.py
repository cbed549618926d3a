#!/usr/bin/env python3
"""Compare the pipeline benchmark of two revisions in one run (issue 12: "no slowdown past 1.2x").

Builds `cargo bench -p riskgate --bench pipeline` at BASE and at HEAD (each a git revision
checked out in a temporary worktree beside the repository, so edits in progress do not
disturb it), then runs the two bench executables alternately
(ROUNDS times each, so machine noise hits both alike) and prints, per benchmark, the median of
each side and the ratio HEAD/BASE.

Usage: python3 bench/compare.py BASE [--head REV] [--filter REGEX] [--rounds N] [--target-dir DIR]
  BASE        a revision (e.g. 3fcef43^, the commit before the effect model)
  --head      the revision compared with it (default HEAD)
  --filter    criterion filter (default: 'assess|nl2bash')
  --rounds    alternations (default 3)
Needs git, cargo and the nl2bash corpus beside the repository (../shared/corpora/nl2bash).
Nothing it measures is executed as a command: the benchmark only assesses strings.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^test (\S+)\s+\.\.\. bench:\s+([\d,]+) ns/iter")


def bench_exe(src, target_dir):
    """Build the pipeline bench in `src`; return its executable's path."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "riskgate", "--bench", "pipeline", "--no-run",
         "--message-format=json", "--target-dir", target_dir],
        cwd=src, capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        # the compiler's messages are in the JSON on stdout
        rendered = []
        for line in out.stdout.splitlines():
            try:
                msg = json.loads(line)
            except json.JSONDecodeError:
                continue
            if msg.get("reason") == "compiler-message":
                rendered.append(msg.get("message", {}).get("rendered") or "")
        sys.exit(f"build failed in {src}:\n{''.join(rendered)[-4000:]}\n{out.stderr[-2000:]}")
    exe = None
    for line in out.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == "pipeline" \
                and msg.get("executable"):
            exe = msg["executable"]
    if not exe:
        sys.exit(f"no bench executable found for {src}")
    # keep a copy: the next build in the same target directory replaces the file
    keep = os.path.join(target_dir, f"pipeline-{abs(hash(src))}")
    with open(exe, "rb") as f_in, open(keep, "wb") as f_out:
        f_out.write(f_in.read())
    os.chmod(keep, 0o755)
    return keep


def run(exe, src, flt):
    out = subprocess.run(
        [exe, "--bench", "--output-format", "bencher", flt],
        cwd=os.path.join(src, "crates", "riskgate"), capture_output=True, text=True, check=False,
    )
    res = {}
    for line in out.stdout.splitlines():
        m = LINE.match(line.strip())
        if m:
            res[m.group(1)] = int(m.group(2).replace(",", ""))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--head", default="HEAD")
    ap.add_argument("--filter", default="assess|nl2bash")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--target-dir", default=os.path.join(ROOT, "target", "bench-compare"))
    args = ap.parse_args()
    def short(r):
        return subprocess.run(["git", "rev-parse", "--short", r], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    rev, head_rev = short(args.base), short(args.head)
    # beside the repository, so each side finds ../shared like the working tree does
    parent = os.path.dirname(ROOT)
    with tempfile.TemporaryDirectory(prefix=".riskgate-bench-", dir=parent) as wt, \
            tempfile.TemporaryDirectory(prefix=".riskgate-bench-", dir=parent) as wt_head:
        for path, r in ((wt, rev), (wt_head, head_rev)):
            subprocess.run(["git", "worktree", "add", "--detach", path, r], cwd=ROOT,
                           capture_output=True, check=True)
        try:
            # one target directory per side: cargo hashes a workspace member by its path
            # relative to the workspace root, so the two checkouts would share (and clobber)
            # each other's build-script outputs in one directory
            base_exe = bench_exe(wt, os.path.join(args.target_dir, "base"))
            head_exe = bench_exe(wt_head, os.path.join(args.target_dir, "head"))
            base, head = {}, {}
            for _ in range(args.rounds):
                for name, ns in run(base_exe, wt, args.filter).items():
                    base.setdefault(name, []).append(ns)
                for name, ns in run(head_exe, wt_head, args.filter).items():
                    head.setdefault(name, []).append(ns)
        finally:
            for path in (wt, wt_head):
                subprocess.run(["git", "worktree", "remove", "--force", path], cwd=ROOT,
                               capture_output=True, check=False)
    print(f"{'benchmark':40} {'base ' + rev:>14} {head_rev:>14} {'ratio':>7}")
    ratios = []
    for name in sorted(set(base) & set(head)):
        b, h = statistics.median(base[name]), statistics.median(head[name])
        ratio = h / b if b else float("nan")
        ratios.append(ratio)
        print(f"{name:40} {b:>12,.0f}ns {h:>12,.0f}ns {ratio:>6.2f}x")
    if ratios:
        print(f"median ratio {statistics.median(ratios):.2f}x over {len(ratios)} benchmarks, "
              f"{args.rounds} alternations")


if __name__ == "__main__":
    main()
