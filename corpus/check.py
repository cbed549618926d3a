#!/usr/bin/env python3
"""Validate the labelled command corpus (stdlib only; never executes a command).

Checks: every non-blank, non-`#` line is a JSON object with a non-empty string
`command` and `category`; only known keys are used; no command appears twice in
the same file or in two files; minimum counts per file are met. Prints counts
per file, per category, per evasion technique and per safe-trap kind.

Usage: python3 corpus/check.py [--quiet]
Exit status: 0 when valid, 1 otherwise.
"""

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent

# file -> (label, minimum entries, allowed keys, required keys)
FILES = {
    "dangerous.jsonl": ("dangerous", 320, {"command", "category", "note", "id"}, {"command", "category", "note"}),
    "evasions.jsonl": ("dangerous", 160, {"command", "category", "technique", "note", "id"},
                       {"command", "category", "technique", "note"}),
    "safe.jsonl": ("safe", 560, {"command", "category", "trap", "note", "id"}, {"command", "category"}),
}
# Mixed files (a `label` per line) checked on their own: valid keys and labels, no duplicate
# inside the file, minimum entries per label. Lines shared with other files are counted, not
# rejected: each round was written blind and measured as it was written.
MIXED = {
    "round7.jsonl": (120, 120),
    "round6.jsonl": (150, 150),
    "round8.jsonl": (100, 45),
    "round9.jsonl": (150, 150),
    "flows.jsonl": (50, 40),
}
MIXED_KEYS = {"command", "label", "category", "note", "id"}
# Held-out blind sets (not in the corpus test: each is measured with round_measure.py), found
# by name so a new one is checked as soon as it is added: the same checks as MIXED, with the
# keys a blind set may carry (a dangerous line's `technique`, a safe line's `trap`, a line's
# own `shell`), at least one line of each label, and for PowerShell sets a dialect for every
# line (a `pwsh/` or `cmd/` category, or a `shell` field).
HELD_OUT_GLOBS = ("round1[0-9].jsonl", "round[2-9][0-9].jsonl", "pwsh*.jsonl")
HELD_OUT_KEYS = MIXED_KEYS | {"technique", "trap", "shell"}
SHELLS = ("bash", "powershell", "cmd")
MIN_TRAPS = 120
MIN_MULTILINE = 30


def load(path, allowed, required, errors, as_written=False):
    entries = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{where}: invalid JSON ({exc})")
            continue
        if not isinstance(obj, dict):
            errors.append(f"{where}: not a JSON object")
            continue
        unknown = set(obj) - allowed
        missing = required - set(obj)
        if unknown:
            errors.append(f"{where}: unknown keys {sorted(unknown)}")
        if missing:
            errors.append(f"{where}: missing keys {sorted(missing)}")
        for key, value in obj.items():
            if not isinstance(value, str) or not value.strip():
                errors.append(f"{where}: `{key}` must be a non-empty string")
        # a held-out set keeps its lines as written (a whole script may end with a newline)
        if not as_written and isinstance(obj.get("command"), str) and obj["command"] != obj["command"].strip():
            errors.append(f"{where}: command has leading or trailing whitespace")
        entries.append((where, obj))
    return entries


def main():
    quiet = "--quiet" in sys.argv[1:]
    errors = []
    seen = {}
    multiline = 0
    report = []
    for name, (label, minimum, allowed, required) in FILES.items():
        path = HERE / name
        if not path.is_file():
            errors.append(f"{name}: missing")
            continue
        entries = load(path, allowed, required, errors)
        if len(entries) < minimum:
            errors.append(f"{name}: {len(entries)} entries, at least {minimum} required")
        for where, obj in entries:
            cmd = obj.get("command")
            if not isinstance(cmd, str):
                continue
            if cmd in seen:
                errors.append(f"{where}: duplicate of {seen[cmd]}: {cmd!r}")
            else:
                seen[cmd] = where
            if "\n" in cmd:
                multiline += 1
        cats = Counter(obj.get("category") for _, obj in entries)
        report.append(f"{name}: {len(entries)} entries ({label})")
        report.extend(f"    {c:<22} {n}" for c, n in sorted(cats.items(), key=lambda kv: (-kv[1], kv[0])))
        if name == "evasions.jsonl":
            techniques = Counter(obj.get("technique") for _, obj in entries)
            report.append("  by technique:")
            report.extend(f"    {t:<22} {n}" for t, n in sorted(techniques.items(), key=lambda kv: (-kv[1], kv[0])))
        if name == "safe.jsonl":
            traps = Counter(obj["trap"] for _, obj in entries if "trap" in obj)
            total = sum(traps.values())
            if total < MIN_TRAPS:
                errors.append(f"{name}: {total} false-positive traps, at least {MIN_TRAPS} required")
            report.append(f"  false-positive traps: {total}")
            report.extend(f"    {t:<22} {n}" for t, n in sorted(traps.items(), key=lambda kv: (-kv[1], kv[0])))
    for name, (min_dangerous, min_safe) in MIXED.items():
        path = HERE / name
        if not path.is_file():
            errors.append(f"{name}: missing")
            continue
        entries = load(path, MIXED_KEYS, {"command", "label", "category"}, errors)
        inside = {}
        shared = 0
        labels = Counter()
        for where, obj in entries:
            cmd = obj.get("command")
            if obj.get("label") not in ("dangerous", "safe"):
                errors.append(f"{where}: label must be `dangerous` or `safe`")
            labels[obj.get("label")] += 1
            if cmd in inside:
                errors.append(f"{where}: duplicate of {inside[cmd]}: {cmd!r}")
            inside[cmd] = where
            shared += cmd in seen
        if labels["dangerous"] < min_dangerous or labels["safe"] < min_safe:
            errors.append(f"{name}: {labels['dangerous']} dangerous / {labels['safe']} safe, "
                          f"at least {min_dangerous} / {min_safe} required")
        report.append(f"{name}: {len(entries)} entries ({labels['dangerous']} dangerous, "
                      f"{labels['safe']} safe; {shared} also in the files above)")
    held_out = sorted({p for g in HELD_OUT_GLOBS for p in HERE.glob(g)} - {HERE / n for n in MIXED})
    for path in held_out:
        name = path.name
        entries = load(path, HELD_OUT_KEYS, {"command", "label", "category"}, errors, as_written=True)
        inside = {}
        labels = Counter()
        for where, obj in entries:
            cmd = obj.get("command")
            label = obj.get("label")
            if label not in ("dangerous", "safe"):
                errors.append(f"{where}: label must be `dangerous` or `safe`")
            labels[label] += 1
            if "technique" in obj and label != "dangerous":
                errors.append(f"{where}: `technique` on a line that is not dangerous")
            if "trap" in obj and label != "safe":
                errors.append(f"{where}: `trap` on a line that is not safe")
            if "shell" in obj and obj["shell"] not in SHELLS:
                errors.append(f"{where}: shell must be one of {', '.join(SHELLS)}")
            if name.startswith("pwsh") and "shell" not in obj and not str(
                obj.get("category", "")
            ).startswith(("pwsh/", "cmd/")):
                errors.append(f"{where}: no dialect (a `pwsh/` or `cmd/` category, or `shell`)")
            if cmd in inside:
                errors.append(f"{where}: duplicate of {inside[cmd]}: {cmd!r}")
            inside[cmd] = where
        if labels["dangerous"] < 1 or labels["safe"] < 1:
            errors.append(f"{name}: {labels['dangerous']} dangerous / {labels['safe']} safe, "
                          "at least one of each required")
        report.append(f"{name} (held out): {len(entries)} entries ({labels['dangerous']} dangerous, "
                      f"{labels['safe']} safe)")
    if multiline < MIN_MULTILINE:
        errors.append(f"{multiline} multi-line entries in total, at least {MIN_MULTILINE} required")
    report.append(f"multi-line entries (all files): {multiline}")
    if not quiet:
        print("\n".join(report))
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
