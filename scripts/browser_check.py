#!/usr/bin/env python3
"""The reviewer's page in a real browser: Debian's chromium, headless, driven over
--remote-debugging-pipe (the DevTools protocol, Python's standard library only).

Usage: python3 scripts/browser_check.py [--bin target/debug/riskgate] [--screenshot docs/report.png]

In a temporary home (never the real one): unattended-agent hook calls make decisions and
approval requests (the commands are strings in hook payloads: riskgate rates them, nothing
runs them); `riskgate serve` starts on a free loopback port; the browser logs in as a
reviewer, loads the pending page (the request and its underlined risky span must be in the
DOM), grants the first request with the page's own form, and checks the answer; then
`riskgate approvals pending` must no longer list it, and the agent's identical next call must
be allowed. With --screenshot, the friction report page is saved as a PNG. Exits 1 on any
failure, 2 when no chromium is installed.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

PUSH = "git push --force origin main"


def chromium_binary():
    for c in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "",
              shutil.which("chromium-browser") or "", shutil.which("google-chrome") or ""):
        if c and os.path.exists(c):
            return c
    return None


class Env:
    """A temporary home for riskgate (state, data, config under one directory)."""

    def __init__(self, root, binary):
        self.root = root
        self.bin = binary
        self.project = os.path.join(root, "proj")
        os.makedirs(os.path.join(self.project, ".git"), exist_ok=True)
        self.env = dict(os.environ)
        for k in ("RISKGATE_STATE_DIR", "RISKGATE_DATA_DIR", "RISKGATE_CONFIG_DIR",
                  "RISKGATE_SERVE_TOKEN", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"):
            self.env.pop(k, None)
        self.env.update({
            "HOME": os.path.join(root, "home"),
            "XDG_CONFIG_HOME": os.path.join(root, "config"),
            "XDG_DATA_HOME": os.path.join(root, "data"),
            "XDG_STATE_HOME": os.path.join(root, "state"),
            "RISKGATE_MANAGED_POLICY": os.path.join(root, "managed"),
            "RISKGATE_HOOK_SERVER": "0",
            "NO_COLOR": "1",
        })

    def run(self, args, stdin=None):
        return subprocess.run([self.bin] + args, input=stdin, capture_output=True,
                              env=self.env, cwd=self.project, timeout=60, check=False)

    def codex(self, command):
        """One Codex PreToolUse hook call for the shell command `command` (a string)."""
        payload = {"session_id": "browser-check", "turn_id": "t1", "transcript_path": None,
                   "cwd": self.project, "hook_event_name": "PreToolUse", "model": "gpt-5",
                   "permission_mode": "default", "tool_name": "Bash",
                   "tool_input": {"command": command}, "tool_use_id": "call_1"}
        out = self.run(["hook", "codex"], json.dumps(payload).encode())
        return out.stdout.decode()

    def pending(self):
        out = self.run(["approvals", "pending", "--format", "json"])
        return json.loads(out.stdout.decode() or "[]")


class Browser:
    """Chromium headless with the DevTools protocol on fds 3 (in) and 4 (out)."""

    def __init__(self, binary, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.evt_r, evt_w = os.pipe()

        def fds():
            os.dup2(cmd_r, 3)
            os.dup2(evt_w, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "--window-size=1280,1600", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(cmd_r)
        os.close(evt_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self.evt_r, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_load(self, timeout=30):
        deadline = time.time() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == "Page.loadEventFired":
                    del self.events[: i + 1]
                    return
            self.events.append(self._read(deadline))

    def goto(self, url):
        self.events.clear()
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_load()

    def js(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                      session=True)
        return r.get("result", {}).get("value")

    def submit(self, expression):
        """Run `expression` (which submits a form) and wait for the next page."""
        self.events.clear()
        self.js(expression)
        self.wait_load()

    def dom(self):
        return self.js("document.documentElement.outerHTML") or ""

    def screenshot(self, path):
        height = self.js("document.documentElement.scrollHeight") or 1600
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1100, "height": min(int(height) + 40, 4000), "deviceScaleFactor": 1,
                   "mobile": False}, session=True)
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f"ok: {what}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join("target", "debug", "riskgate"))
    ap.add_argument("--screenshot", default=None, help="save the report page as this PNG")
    args = ap.parse_args()
    chromium = chromium_binary()
    if chromium is None:
        print("browser check: no chromium installed (apt-get install chromium)", file=sys.stderr)
        return 2
    binary = os.path.abspath(args.bin)
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        e = Env(tmp, binary)
        # decisions and requests of an unattended agent (strings only: nothing is executed)
        for i in range(12):
            e.codex(f"cargo test -p crate-{i % 3}")
        for cmd in ("git status", "ls -la src", "cat README.md"):
            e.codex(cmd)
        answer = e.codex(PUSH)
        check("Approval requested: request " in answer, "the push is denied with a request")
        e.codex("git reset --hard HEAD~3")
        # an earlier request, granted for a day: an approval expiring soon, a most-approved rule
        first = e.codex("git push --force origin release")
        rid = first.split("Approval requested: request ", 1)[1][:6]
        e.run(["approvals", "grant", rid, "--ttl", "1d", "--reviewer", "alice"])
        e.codex("git push --force origin release")
        pending = e.pending()
        check(len(pending) == 2, "two requests wait for a reviewer")
        target = next(p for p in pending if p["input"] == PUSH)

        server = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  env=e.env, cwd=e.project)
        browser = None
        try:
            line = server.stdout.readline().decode().strip()
            base = line.rsplit(" ", 1)[-1].rstrip("/")
            check(base.startswith("http://127.0.0.1:"), f"riskgate serve listens ({base})")
            browser = Browser(chromium, os.path.join(tmp, "profile"))
            browser.goto(base + "/pending")
            check("/login" in browser.js("location.pathname"), "the browser is sent to the login")
            browser.submit("document.querySelector('input[name=reviewer]').value='browser-check';"
                           "document.querySelector('form[action=\"/login\"]').submit()")
            dom = browser.dom()
            check(target["id"] in dom, f"the pending page renders request {target['id']}")
            check('<u class="risk">git push --force' in dom, "its risky span is underlined")
            check("reviewer: browser-check" in dom, "the reviewer's name is shown")
            browser.submit(
                f"document.querySelector('#req-{target['id']} form[action=\"/grant\"]').submit()")
            dom = browser.dom()
            check(f"request {target['id']}: granted once (by browser-check)" in dom,
                  "the grant through the page is confirmed")
            left = [p["id"] for p in e.pending()]
            check(target["id"] not in left, "approvals pending no longer lists it")
            again = e.codex(PUSH)
            check('"permissionDecision":"deny"' not in again.replace(" ", ""),
                  "the agent's identical next call is allowed")
            log = e.run(["log", "--format", "json", "--limit", "100"]).stdout.decode()
            check("reviewer:browser-check" in log, "the grant is audited with the reviewer's name")
            browser.goto(base + "/report")
            dom = browser.dom()
            check("<svg" in dom and "Most often approved" in dom, "the report page renders")
            if args.screenshot:
                browser.screenshot(args.screenshot)
                print(f"ok: screenshot {args.screenshot}")
        finally:
            if browser is not None:
                browser.close()
            server.kill()
            server.wait()
    print(f"browser check passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, RuntimeError, TimeoutError) as err:
        print(f"browser check FAILED: {err}", file=sys.stderr)
        sys.exit(1)
