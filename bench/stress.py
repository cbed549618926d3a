#!/usr/bin/env python3
"""Stress measurement of the release `riskgate` binary on hostile input (issue 11).

Usage:
    cargo build --release -p riskgate-cli
    python3 bench/stress.py [--bin PATH] [--random 200000] [--hooks 20000] [--hook-procs 2500]
                            [--seed 11] [--quick]

Runs, each in its own process (exit code, decision, wall time, peak RSS from os.wait4):
  - `"$(`, `$(`, `(`, `{`, backquotes, `"` and `'` nested 10, 100, 1,000, 10,000 and
    100,000 deep around `rm -rf /` (closed and unclosed);
  - 1 MiB and 10 MiB commands (padding, then `rm -rf /`); a 100,000-stage pipeline; 65 and
    1,000 nested wrappers; 5,000 commands then `rm -rf /`; `cat <<\\r $(`; a quote then
    U+3000.
  `riskgate check` gets the command as its argument when it fits (128 KiB), else
  `riskgate scan` gets it as one JSON line on stdin.
Then:
  - --random inputs (nl2bash lines and fuzz/corpus/shell_parse, mutated with a fixed seed:
    byte flips, insertions of quotes, parens, `$(`, here-documents, control characters,
    U+3000, truncations, nesting) through ONE `riskgate scan` process; the time between
    output lines bounds each input's time;
  - --hooks payloads over the five agents (valid and mutated/malformed): --hook-procs of
    them as real `riskgate hook AGENT` processes (RISKGATE_HOOK_SERVER=0: each decides in
    its own process, so its time and memory are measured), the rest through the
    `hook_payload` fuzz target's binary (`-runs=0` over a directory: each input once, with
    -rss_limit_mb=256 -timeout=2) when it is built (scripts/fuzz-short.sh builds it).

Reports allows of dangerous cases (every structural case holds `rm -rf /`; printed, and
counted as failures only with --strict-allow), crashes (exit codes other than 0/3/4,
signals), `check` over 1 s, RSS over 256 MiB, hangs; exits non-zero on any crash, hang or
memory excess. State, config and audit log go to a temporary directory. Nothing assessed
is executed: riskgate only rates strings.
"""
import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RSS_LIMIT_KB = 256 * 1024
CHECK_LIMIT_S = 1.0
ARG_MAX = 120 * 1024
OK_CODES = (0, 3, 4)
RM = "rm -rf /"


def find_bin():
    """The release build (`cargo build --release -p riskgate-cli`), else the static one
    (`scripts/build-static.sh`)."""
    release = os.path.join(ROOT, "target/release/riskgate")
    static = os.path.join(ROOT, "target/static", host_triple(), "release/riskgate")
    for p in (release, static):
        if os.path.exists(p):
            return p
    return release


def host_triple():
    """The host's target triple, as `rustc -vV` names it (cargo-fuzz and the static build use it)."""
    try:
        out = subprocess.run(["rustc", "-vV"], capture_output=True, check=False).stdout.decode()
    except OSError:
        return "x86_64-unknown-linux-gnu"
    for line in out.splitlines():
        if line.startswith("host: "):
            return line[len("host: "):].strip()
    return "x86_64-unknown-linux-gnu"


TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def run(argv, env, stdin=b"", timeout=60.0, on_line=None):
    """Run argv; returns dict(rc, sig, wall, rss_kb, out, hung).

    Peak RSS: Linux carries a process's high-water mark across fork and exec, so a child of
    this (large) Python process would report at least Python's RSS. The child is therefore
    started by GNU time (small), whose own child's peak it reports (-f %M). Without
    /usr/bin/time, os.wait4's figure is used (an over-estimate)."""
    rss_file = None
    if TIME:
        fd, rss_file = tempfile.mkstemp(prefix="stress-rss-")
        os.close(fd)
        argv = [TIME, "-f", "%M", "-o", rss_file] + argv
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    hung = []

    def kill():
        hung.append(True)
        try:
            os.killpg(p.pid, signal.SIGKILL)  # GNU time and the program under it
        except ProcessLookupError:
            pass

    def write():
        try:
            p.stdin.write(stdin)
        except (BrokenPipeError, OSError):
            pass
        try:
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    w = threading.Thread(target=write)
    w.start()
    chunks = []
    if on_line is None:
        chunks.append(p.stdout.read())
    else:
        for line in p.stdout:
            on_line(line)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    timer.cancel()
    w.join()
    p.returncode = 0  # reaped by wait4; keep Popen quiet
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -sig
    rss_kb = ru.ru_maxrss
    if rss_file:
        with open(rss_file, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        os.unlink(rss_file)
        for line in lines:
            if "terminated by signal" in line:
                sig = int(line.rsplit(" ", 1)[-1])
                rc = -sig
            elif line.strip().isdigit():
                rss_kb = int(line.strip())
    return {"rc": rc, "sig": sig, "wall": wall, "rss_kb": rss_kb,
            "out": b"".join(chunks), "hung": bool(hung)}


def decision_of_json(out):
    for line in out.decode("utf-8", "replace").splitlines() or [""]:
        try:
            v = json.loads(line)
        except ValueError:
            try:
                v = json.loads(out)
            except ValueError:
                return "?"
        return v.get("decision", "?") if isinstance(v, dict) else "?"
    return "?"


def hook_decision(agent, out):
    text = out.decode("utf-8", "replace").strip()
    if not text:
        return "none"
    try:
        v = json.loads(text)
    except ValueError:
        return "?"
    if not isinstance(v, dict):
        return "?"
    if agent in ("claude", "codex"):
        d = (v.get("hookSpecificOutput") or {}).get("permissionDecision")
    elif agent == "gemini":
        d = v.get("decision")
    elif agent == "cursor":
        d = v.get("permission")
    else:
        d = v.get("permissionDecision")
    return d if isinstance(d, str) else "?"


# ---------------------------------------------------------------- structural cases

def structural_cases(quick):
    cases = []
    units = [('"$(', ')"'), ("$(", ")"), ("(", ")"), ("{ ", "; }"), ("`", "`"), ('"', '"'),
             ("'", "'")]
    depths = [10, 100, 1000] if quick else [10, 100, 1000, 10_000, 100_000]
    for open_, close in units:
        for n in depths:
            cases.append((f"{open_.strip()} x{n} unclosed", open_ * n + RM))
            cases.append((f"{open_.strip()} x{n} closed", open_ * n + RM + close * n))
    mib = 1 << 20
    sizes = [mib] if quick else [mib, 10 * mib]
    for size in sizes:
        label = f"{size // mib} MiB"
        cases.append((f"{label} word then rm", "echo " + "A" * size + "; " + RM))
        cases.append((f"{label} commands then rm", "true;" * (size // 5) + RM))
        cases.append((f"{label} comment then rm", "#" + " " * size + "\n" + RM))
    cases.append(("100000-stage pipeline", "true | " * 100_000 + RM))
    cases.append(("65 wrappers", "timeout 5 " * 65 + RM))
    cases.append(("1000 wrappers", "timeout 5 " * 1000 + RM))
    cases.append(("5000 commands then rm", "ls -la; " * 5000 + RM))
    cases.append(("5000 distinct commands then rm",
                  "".join(f"echo {k}; " for k in range(5000)) + RM))
    cases.append(("heredoc tag \\r", "cat <<\r $("))
    cases.append(("heredoc tag '' then rm", "cat <<'' $(" + RM))
    cases.append(("quote + U+3000", '"\u3000'))
    cases.append(("rm then quote + U+3000", RM + ' "\u3000'))
    cases.append(("eval x200", "eval " * 200 + RM))
    return cases


def run_structural(binary, env, quick):
    rows = []
    for name, text in structural_cases(quick):
        data = text.encode()
        dangerous = RM in text
        if len(data) < ARG_MAX:
            r = run([binary, "check", "--no-prompt", "--format", "json", text], env,
                    timeout=60)
            how = "check"
            decision = decision_of_json(r["out"])
        else:
            line = json.dumps({"command": text, "id": "1"}).encode() + b"\n"
            r = run([binary, "scan"], env, stdin=line, timeout=120)
            how = "scan"
            decision = decision_of_json(r["out"])
        rows.append({"name": name, "how": how, "bytes": len(data), "dangerous": dangerous,
                     "decision": decision, **r})
    return rows


# ---------------------------------------------------------------- random inputs

POOL = ['"', "'", "`", "$(", ")", "(", "{", "}", "${", "$((", "))", "<<", "<<'EOF'\n",
        "<<-", "<<<", "\r", "\x00", "\x0b", "\x0c", "\x1b", "\n", ";", "&&", "||", "|", "&",
        "\\", "\u3000", "\U0001F600", "e\u0301", "\u200b", "#", "*", "?", "[", "]", "!",
        "~", "=", "$", "\t", " ", "rm -rf /", "bash -c ", "eval ", "sudo ", "timeout 5 "]


def mutate(rng, s):
    k = rng.randrange(8)
    if not s:
        return rng.choice(POOL)
    i = rng.randrange(len(s) + 1)
    if k == 0:  # flip a character
        j = min(i, len(s) - 1)
        return s[:j] + chr(rng.choice([rng.randrange(1, 128), rng.randrange(128, 0x3100)])) + s[j + 1:]
    if k in (1, 2):  # insert a shell-significant piece
        return s[:i] + rng.choice(POOL) + s[i:]
    if k == 3:  # truncate
        return s[:i]
    if k == 4:  # nest
        o, c = rng.choice([('"$(', ')"'), ("$(", ")"), ("`", "`"), ("bash -c '", "'"),
                           ("(", ")"), ("{ ", "; }")])
        return o * rng.randrange(1, 40) + s + (c * rng.randrange(0, 40))
    if k == 5:  # repeat a slice
        j = rng.randrange(i, len(s) + 1)
        return s[:i] + s[i:j] * rng.randrange(2, 50) + s[j:]
    if k == 6:  # heredoc around it
        return "cat <<" + rng.choice(["EOF", "'EOF'", "\r", "''", "E\rF"]) + " | sh\n" + s + "\nEOF\n"
    return s + rng.choice([";", " && ", " | "]) + rng.choice(POOL)


def random_inputs(rng, count):
    seeds = []
    nl2bash = os.path.join(ROOT, "..", "shared", "corpora", "nl2bash", "all.cm")
    if os.path.exists(nl2bash):
        with open(nl2bash, encoding="utf-8", errors="replace") as f:
            seeds += [l.rstrip("\n") for l in f if l.strip()]
    corpus = os.path.join(ROOT, "fuzz", "corpus", "shell_parse")
    if os.path.isdir(corpus):
        for name in sorted(os.listdir(corpus)):
            with open(os.path.join(corpus, name), "rb") as f:
                seeds.append(f.read().decode("utf-8", "replace"))
    seeds = seeds or [RM, "ls -la", "git status"]
    out = []
    for _ in range(count):
        s = rng.choice(seeds)
        for _ in range(rng.randrange(0, 4)):
            s = mutate(rng, s)
        out.append(s[:20000])
    return out


def run_random(binary, env, inputs):
    stamps = []
    payload = b"".join(json.dumps({"command": s, "id": str(k)}).encode() + b"\n"
                       for k, s in enumerate(inputs))
    r = run([binary, "scan"], env, stdin=payload, timeout=3600,
            on_line=lambda _l: stamps.append(time.perf_counter()))
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    r["lines"] = len(stamps)
    r["max_gap"] = max(gaps) if gaps else 0.0
    r["median_gap"] = statistics.median(gaps) if gaps else 0.0
    worst = max(range(len(gaps)), key=gaps.__getitem__) + 1 if gaps else 0
    r["worst_input"] = inputs[worst][:120] if gaps else ""
    return r


# ---------------------------------------------------------------- hook payloads

AGENTS = ["claude", "gemini", "codex", "cursor", "copilot"]


def payload(agent, command):
    if agent == "claude":
        return {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp/p",
                "permission_mode": "default", "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1"}
    if agent == "gemini":
        return {"session_id": "s", "transcript_path": "/tmp/g.json", "cwd": "/tmp/p",
                "hook_event_name": "BeforeTool", "timestamp": "2026-11-22T10:00:00Z",
                "tool_name": "run_shell_command", "tool_input": {"command": command}}
    if agent == "codex":
        return {"session_id": "s", "turn_id": "t1", "transcript_path": None, "cwd": "/tmp/p",
                "hook_event_name": "PreToolUse", "model": "gpt-5",
                "permission_mode": "default", "tool_name": "Bash",
                "tool_input": {"command": ["bash", "-lc", command]}, "tool_use_id": "c1"}
    if agent == "cursor":
        return {"hook_event_name": "beforeShellExecution", "conversation_id": "c",
                "generation_id": "g", "model": "m", "cursor_version": "2.0",
                "workspace_roots": ["/tmp/p"], "user_email": "u@example.com",
                "command": command, "cwd": "/tmp/p"}
    return {"sessionId": "s", "timestamp": 1704614600000, "cwd": "/tmp/p",
            "toolName": "bash", "toolArgs": json.dumps({"command": command})}


def hook_inputs(rng, commands, count):
    """(agent, bytes, dangerous) — about a third valid, the rest mutated or malformed."""
    out = []
    for k in range(count):
        agent = AGENTS[k % len(AGENTS)]
        cmd = rng.choice(commands)
        body = json.dumps(payload(agent, cmd)).encode()
        kind = rng.randrange(6)
        if kind >= 2:  # valid (commands themselves may be mutated)
            data = body
        elif kind == 0:  # byte-level damage
            b = bytearray(body)
            for _ in range(rng.randrange(1, 8)):
                op = rng.randrange(3)
                i = rng.randrange(len(b) + 1)
                if op == 0 and b:
                    b[min(i, len(b) - 1)] = rng.randrange(256)
                elif op == 1:
                    b[i:i] = rng.choice([b"{", b"[", b'"', b"\\", b"\x00", b"\xff", b",", b"}"])
                else:
                    del b[i:]
            data = bytes(b)
        else:  # structural: wrong types, missing fields, deep nesting
            v = payload(agent, cmd)
            key = rng.choice(list(v))
            v[key] = rng.choice([None, 1, [], {}, "x" * rng.randrange(100), [cmd], {"command": cmd}])
            data = json.dumps(v).encode()
            if rng.randrange(4) == 0:
                data = b"[" * rng.randrange(1, 3000) + data
        out.append((agent, data, RM in cmd and data == body))
    return out


def run_hooks(binary, env, items):
    rows = []
    henv = dict(env, RISKGATE_HOOK_SERVER="0")
    for agent, data, dangerous in items:
        r = run([binary, "hook", agent], henv, stdin=data, timeout=30)
        r["agent"] = agent
        r["dangerous"] = dangerous
        r["decision"] = hook_decision(agent, r["out"])
        rows.append(r)
    return rows


def run_hooks_fuzz(items, tmp):
    exe = None
    for p in (f"fuzz/target/{host_triple()}/release/hook_payload",):
        if os.path.exists(os.path.join(ROOT, p)):
            exe = os.path.join(ROOT, p)
    if exe is None:
        return None
    d = os.path.join(tmp, "hook-corpus")
    os.makedirs(d, exist_ok=True)
    for k, (agent, data, _) in enumerate(items):
        with open(os.path.join(d, f"{k:06d}"), "wb") as f:
            f.write(bytes([AGENTS.index(agent)]) + data)
    r = run([exe, "-runs=0", "-rss_limit_mb=256", "-timeout=2", "-max_len=4194304", d],
            dict(os.environ), timeout=3600)
    r["inputs"] = len(items)
    return r


# ---------------------------------------------------------------- report

def crashed(r):
    return r["hung"] or r["sig"] != 0 or r["rc"] not in OK_CODES


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=find_bin())
    ap.add_argument("--random", type=int, default=200_000)
    ap.add_argument("--hooks", type=int, default=20_000)
    ap.add_argument("--hook-procs", type=int, default=2_500)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="smaller structural cases")
    ap.add_argument("--strict-allow", action="store_true",
                    help="an allow of a dangerous case is a failure too")
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"no binary at {args.bin}: cargo build --release -p riskgate-cli")
    rng = random.Random(args.seed)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CONFIG_HOME=tmp + "/config", XDG_DATA_HOME=tmp + "/data",
                   XDG_STATE_HOME=tmp + "/state", HOME=tmp, RISKGATE_HOOK_SERVER="0")
        print(f"binary: {args.bin}\n")
        print(f"{'case':34} {'via':5} {'bytes':>9} {'exit':>4} {'decision':8} {'wall s':>7} {'RSS MiB':>8}")
        allows = []
        rows = run_structural(args.bin, env, args.quick)
        for r in rows:
            flag = ""
            if crashed(r):
                flag = " CRASH/HANG"
                failures.append(f"{r['name']}: exit {r['rc']} signal {r['sig']} hung {r['hung']}")
            if r["rss_kb"] > RSS_LIMIT_KB:
                flag += " RSS>256MiB"
                failures.append(f"{r['name']}: RSS {r['rss_kb'] // 1024} MiB")
            if r["how"] == "check" and r["wall"] > CHECK_LIMIT_S:
                flag += " SLOW>1s"
                failures.append(f"{r['name']}: check took {r['wall']:.2f} s")
            if r["dangerous"] and r["decision"] == "allow":
                flag += " ALLOWED"
                allows.append(r["name"])
            print(f"{r['name'][:34]:34} {r['how']:5} {r['bytes']:>9} {r['rc']:>4} "
                  f"{r['decision'][:8]:8} {r['wall']:>7.3f} {r['rss_kb'] / 1024:>8.1f}{flag}")
        walls = [r["wall"] for r in rows]
        print(f"\nstructural: {len(rows)} cases, wall median {statistics.median(walls):.3f} s, "
              f"max {max(walls):.3f} s, peak RSS {max(r['rss_kb'] for r in rows) / 1024:.1f} MiB, "
              f"dangerous allowed {len(allows)}")
        for a in allows:
            print(f"  allowed: {a}")
        if args.strict_allow:
            failures += [f"allowed: {a}" for a in allows]

        if args.random:
            inputs = random_inputs(rng, args.random)
            r = run_random(args.bin, env, inputs)
            print(f"\nrandom: {len(inputs)} mutated inputs through one `riskgate scan`: "
                  f"exit {r['rc']}, {r['lines']} answers, wall {r['wall']:.1f} s, "
                  f"per input median {r['median_gap'] * 1e3:.3f} ms, max {r['max_gap'] * 1e3:.1f} ms, "
                  f"peak RSS {r['rss_kb'] / 1024:.1f} MiB")
            print(f"  slowest input: {r['worst_input']!r}")
            if crashed(r) or r["lines"] != len(inputs):
                failures.append(f"random scan: exit {r['rc']} signal {r['sig']} hung {r['hung']}, "
                                f"{r['lines']}/{len(inputs)} answers")
            if r["rss_kb"] > RSS_LIMIT_KB:
                failures.append(f"random scan: RSS {r['rss_kb'] // 1024} MiB")
            if r["max_gap"] > CHECK_LIMIT_S:
                failures.append(f"random scan: one input took {r['max_gap']:.2f} s")

        if args.hooks:
            commands = [RM, "ls -la", "git status", '"$(' * 30 + RM, "cat <<\r $(", '"\u3000',
                        "timeout 5 " * 70 + RM] + random_inputs(rng, 500)
            items = hook_inputs(rng, commands, args.hooks)
            procs = items[:args.hook_procs]
            rows = run_hooks(args.bin, env, procs)
            walls = [r["wall"] for r in rows]
            bad = [r for r in rows if crashed(r)]
            fat = [r for r in rows if r["rss_kb"] > RSS_LIMIT_KB]
            slow = [r for r in rows if r["wall"] > CHECK_LIMIT_S]
            allowed = [r for r in rows if r["dangerous"] and r["decision"] in ("allow", "none")]
            print(f"\nhooks: {len(rows)} `riskgate hook AGENT` processes (5 agents, "
                  f"RISKGATE_HOOK_SERVER=0): crashes {len(bad)}, wall median "
                  f"{statistics.median(walls) * 1e3:.1f} ms, max {max(walls) * 1e3:.1f} ms, "
                  f"peak RSS {max(r['rss_kb'] for r in rows) / 1024:.1f} MiB, over 1 s {len(slow)}, "
                  f"valid dangerous payloads allowed {len(allowed)}")
            failures += [f"hook {r['agent']}: exit {r['rc']} signal {r['sig']}" for r in bad[:10]]
            failures += [f"hook {r['agent']}: RSS {r['rss_kb'] // 1024} MiB" for r in fat[:10]]
            rest = items[args.hook_procs:]
            if rest:
                f = run_hooks_fuzz(rest, tmp)
                if f is None:
                    print(f"  the other {len(rest)} payloads: not run (build the fuzz targets: "
                          "scripts/fuzz-short.sh)")
                else:
                    print(f"  the other {f['inputs']} payloads through the hook_payload fuzz "
                          f"target (-runs=0): exit {f['rc']}, wall {f['wall']:.1f} s, peak RSS "
                          f"{f['rss_kb'] / 1024:.1f} MiB")
                    if f["rc"] != 0 or f["hung"]:
                        failures.append(f"hook_payload fuzz target: exit {f['rc']}")

    print()
    if failures:
        print(f"FAILED: {len(failures)}")
        for f in failures:
            print(f"  {f}")
        sys.exit(1)
    print("no crash, hang or memory excess")


if __name__ == "__main__":
    main()
