#!/usr/bin/env python3
"""Throughput of `riskgate repo scan`: a generated tree of 10,000 files, 500 of them CI and
build files (GitHub workflows, GitLab CI, Dockerfiles, Makefiles, package.json, justfiles,
Taskfiles, devcontainers, shell scripts), scanned several times; prints the median wall time.

    python3 bench/repo_scan.py                 # builds the release binary if needed
    python3 bench/repo_scan.py --bin PATH --runs 7 --files 10000 --ci 500

The tree is written to a temporary directory and removed afterwards. The files are data for
riskgate: nothing in them is ever run.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORKFLOW = """name: ci-{i}
on:
  push:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683
      - uses: actions/setup-node@v4
      - name: Install
        run: |
          npm ci
          npm run build --if-present
      - name: Test
        run: npm test -- --shard={i}
      - name: Upload
        run: curl -fsS -H "Authorization: Bearer ${{{{ secrets.TOKEN }}}}" https://api.example.com/r/{i}
"""

GITLAB = """stages: [test, deploy]
test:
  script:
    - cargo test --workspace
    - cargo clippy -- -D warnings
deploy-{i}:
  stage: deploy
  script:
    - rsync -av dist/ deploy@host{i}.example.com:/srv/app/
"""

DOCKERFILE = """FROM python:3.12-slim
RUN apt-get update && \\
    apt-get install -y --no-install-recommends gcc && \\
    rm -rf /var/lib/apt/lists/*
COPY . /app
RUN pip install --no-cache-dir -r /app/requirements-{i}.txt
CMD ["python", "-m", "app"]
"""

MAKEFILE = """OUT := build
.PHONY: all test clean
all:
\tmkdir -p $(OUT)
\tgcc -O2 -o $(OUT)/app{i} main.c
test: all
\t./$(OUT)/app{i} --self-test
clean:
\trm -rf $(OUT)
"""

PACKAGE = """{{
  "name": "pkg-{i}",
  "scripts": {{
    "build": "tsc -p .",
    "test": "vitest run",
    "postinstall": "node scripts/setup-{i}.js",
    "clean": "rimraf dist"
  }}
}}
"""

JUSTFILE = """test:
    cargo test -p crate{i}
fmt:
    cargo fmt --all
"""

TASKFILE = """version: '3'
tasks:
  build:
    cmds:
      - go build -o bin/app{i} ./cmd/app
  clean:
    cmds:
      - rm -rf bin
"""

DEVCONTAINER = """{{
  // dev container {i}
  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",
  "postCreateCommand": "npm ci",
}}
"""

SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in src/*.c; do gcc -c "$f" -o "$tmp/$(basename "$f" .c).o"; done
tar czf dist/build-{i}.tar.gz -C "$tmp" .
"""

KINDS = [
    (".github/workflows/ci.yml", WORKFLOW),
    (".gitlab-ci.yml", GITLAB),
    ("Dockerfile", DOCKERFILE),
    ("Makefile", MAKEFILE),
    ("package.json", PACKAGE),
    ("justfile", JUSTFILE),
    ("Taskfile.yml", TASKFILE),
    (".devcontainer/devcontainer.json", DEVCONTAINER),
    ("scripts/build.sh", SCRIPT),
]


def generate(root, files, ci):
    """`files` files in total under `root`, `ci` of them CI/build files."""
    written = 0
    for i in range(ci):
        name, template = KINDS[i % len(KINDS)]
        path = os.path.join(root, f"pkg{i:04d}", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(template.format(i=i))
        written += 1
    i = 0
    while written < files:
        d = os.path.join(root, f"pkg{i % max(ci, 1):04d}", "src", f"m{i // 500}")
        os.makedirs(d, exist_ok=True)
        ext = ("rs", "py", "md", "ts", "json")[i % 5]
        with open(os.path.join(d, f"file{i}.{ext}"), "w", encoding="utf-8") as f:
            f.write(f"// file {i}\n" * 20)
        written += 1
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", help="riskgate binary (default: target/release/riskgate, built if missing)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--ci", type=int, default=500)
    args = ap.parse_args()
    binary = args.bin
    if not binary:
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        binary = os.path.join(target, "release", "riskgate")
        if not os.path.exists(binary):
            subprocess.run(["cargo", "build", "--release", "-p", "riskgate-cli"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="riskgate-repo-bench-")
    try:
        generate(tmp, args.files, args.ci)
        times = []
        report = None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            p = subprocess.run(
                [binary, "repo", "scan", "--format", "json", "--fail-on", "never", "--no-config", tmp],
                capture_output=True,
                check=False,
            )
            times.append(time.perf_counter() - t0)
            if p.returncode != 0:
                sys.exit(f"riskgate exited {p.returncode}: {p.stderr.decode(errors='replace')}")
            report = p.stdout
        import json

        r = json.loads(report)
        print(
            f"repo scan of {r['files_seen']} files ({r['files_read']} CI/build files read): "
            f"median {statistics.median(times):.3f} s over {args.runs} runs "
            f"(min {min(times):.3f} s, max {max(times):.3f} s); results {r['counts']}"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
