#!/usr/bin/env python3
"""The person at the agent's prompt, for the end-to-end tests: a minimal MCP server (stdio,
newline-delimited JSON-RPC) with one tool, `approve`, that Claude Code calls through
`--permission-prompt-tool mcp__e2e__approve` when a tool call needs a person's decision (a
hook's `ask` included). It approves every call and appends what it was asked to the file named
by `E2E_APPROVALS` (one JSON object per line), so the harness can check the prompt was reached.
"""

import json
import os
import sys


def reply(msg_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def main():
    log = os.environ.get("E2E_APPROVALS")
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method = msg.get("method")
        msg_id = msg.get("id")
        if msg_id is None:
            continue  # a notification
        if method == "initialize":
            reply(msg_id, {
                "protocolVersion": (msg.get("params") or {}).get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "e2e-approver", "version": "1.0.0"},
            })
        elif method == "tools/list":
            reply(msg_id, {"tools": [{
                "name": "approve",
                "description": "Approve a tool call (end-to-end tests).",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "tool_name": {"type": "string"},
                        "input": {"type": "object"},
                        "tool_use_id": {"type": "string"},
                    },
                },
            }]})
        elif method == "tools/call":
            args = (msg.get("params") or {}).get("arguments") or {}
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps(args) + "\n")
            answer = {"behavior": "allow", "updatedInput": args.get("input") or {}}
            reply(msg_id, {"content": [{"type": "text", "text": json.dumps(answer)}]})
        else:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id,
                                         "error": {"code": -32601, "message": "unknown method"}}) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
