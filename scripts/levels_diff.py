#!/usr/bin/env python3
"""Which commands two riskgate binaries rate differently (stdlib only; never runs a command).

Usage: python3 scripts/levels_diff.py OLD_BIN NEW_BIN FILE...

Each FILE is either JSONL with a `command` (and an optional `label`, `shell`; a category
starting `pwsh/` or `cmd/` names the dialect when `shell` is absent) per line, or
plain text with one command per line (nl2bash's all.cm). Both binaries read every command
through `riskgate scan`; the lines whose level moved are printed as
`OLD -> NEW  [label]  file:line  command`, with a mark when the move goes against the label
(a dangerous line falling below HIGH, a safe line rising to HIGH or above), then a count.
Exit status 1 when some line moved against its label, else 0.
"""
import json
import subprocess
import sys

ORDER = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]
# a line without a `shell` field is read as the dialect its category names (round_measure's
# --shell-from-category), else as bash
PREFIXES = {"pwsh/": "powershell", "powershell/": "powershell", "cmd/": "cmd"}


def items_of(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if path.endswith(".jsonl"):
                obj = json.loads(line)
                shell = obj.get("shell") or next(
                    (sh for prefix, sh in PREFIXES.items()
                     if obj.get("category", "").startswith(prefix)), None)
                out.append((n, obj["command"], obj.get("label"), shell))
            else:
                out.append((n, line, None, None))
    return out


def levels(bin_, items):
    inp = []
    for _, cmd, _, shell in items:
        obj = {"command": cmd}
        if shell:
            obj["shell"] = shell
        inp.append(json.dumps(obj) + "\n")
    res = subprocess.run([bin_, "scan", "--format", "jsonl", "--quiet"],
                         input="".join(inp).encode(), capture_output=True)
    lines = res.stdout.decode().splitlines()
    if len(lines) != len(items):
        sys.exit(f"{bin_}: {len(lines)} answers for {len(items)} commands")
    return [json.loads(l).get("level", "ERROR").upper() for l in lines]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    old_bin, new_bin, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    moved = against = total = 0
    for path in files:
        items = items_of(path)
        total += len(items)
        old, new = levels(old_bin, items), levels(new_bin, items)
        for (n, cmd, label, _), a, b in zip(items, old, new):
            if a == b:
                continue
            moved += 1
            bad = (label == "dangerous" and ORDER.index(b) < 3 <= ORDER.index(a)) or (
                label == "safe" and ORDER.index(a) < 3 <= ORDER.index(b))
            against += bad
            mark = "!!" if bad else "  "
            text = cmd[:120].replace("\n", "\\n")
            print(f"{mark} {a:>8} -> {b:<8} [{label or '-'}] {path}:{n}  {text}")
    print(f"{moved} of {total} lines moved, {against} against their label")
    sys.exit(1 if against else 0)


if __name__ == "__main__":
    main()
