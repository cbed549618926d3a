#!/usr/bin/env python3
"""A scripted model server for the end-to-end tests of riskgate with the real agents.

It speaks just enough of four model APIs for an agent to run one turn: Anthropic Messages
(Claude Code, Factory Droid with a custom model), OpenAI Responses (Codex), OpenAI Chat
Completions (Qwen Code, OpenCode, Copilot with a custom provider) and Gemini generateContent
(Gemini CLI), streamed (SSE) when the client asks for it; and of Augment's backend (Auggie,
whose session names this server as its tenant): `get-models` and the other calls of a
`--print` turn, and `chat-stream` (one JSON object per line). Loopback only.

Per turn: a request whose conversation ends with the user's text is answered with one call of
the agent's shell tool proposing the scenario's command; a request whose conversation ends with
a tool result (or a refusal, which agents send back as a tool result) is answered with a short
final text, which ends the turn. Requests without tools (titles, summaries, quota checks) get a
short text. The scenario is read from `STATE/scenario.json` on every request
(`{"id": "...", "command": "...", "cwd": "..."}`), so one server serves a whole run; every request is
appended to `STATE/requests.jsonl` with what was answered and, for a tool result, its text, so
the harness can check that the agent saw riskgate's reason.

Usage: mockmodel.py --state DIR   (prints `PORT <n>` on stdout once listening)
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = "."
LOCK = threading.Lock()
COUNTER = [0]

# The shell tool of each agent and how it takes the command (by tool name).
SHELL_TOOLS = {
    "Bash": lambda c, sc: {"command": c, "description": "Run the scenario command"},
    "run_shell_command": lambda c, sc: {"command": c, "description": "Run the scenario command"},
    "bash": lambda c, sc: {"command": c, "description": "Run the scenario command"},
    "shell": lambda c, sc: {"command": ["bash", "-lc", c]},
    "shell_command": lambda c, sc: {"command": c},
    "exec_command": lambda c, sc: {"cmd": c},
    "execute_command": lambda c, sc: {"command": c},
    "run_commands": lambda c, sc: {"commands": [c]},
    "run_in_terminal": lambda c, sc: {"command": c, "explanation": "scenario", "isBackground": False},
    # Factory Droid: the risk fields are required by its schema; "low" keeps Droid's own
    # autonomy gate out of the way (riskgate must be the only gate).
    "Execute": lambda c, sc: {"command": c, "riskLevelReason": "The test scenario needs it.", "riskLevel": "low"},
    # Auggie: `cwd` is required (the scenario's project directory).
    "launch-process": lambda c, sc: {"command": c, "wait": True, "max_wait_seconds": 60, "cwd": sc.get("cwd") or "."},
}


# Augment's backend (Auggie with `AUGMENT_SESSION_AUTH` naming this server as its tenant): the
# calls a `--print` turn makes besides `chat-stream`, answered with the least they accept.
AUGMENT_ANSWERS = {
    "/get-models": {"default_model": "mock", "models": [{"name": "mock", "suggested_prefix_char_count": 0,
                                                          "suggested_suffix_char_count": 0}],
                    # Auggie runs hooks only for a tenant with the `enableHooks` flag on.
                    "languages": [], "feature_flags": {"enable_hooks": True}},
    "/settings/get-mcp-user-configs": {"configs": []},
    "/settings/get-mcp-tenant-configs": {"configs": []},
    "/agents/list-remote-tools": {"tools": []},
    "/report-error": {},
    "/record-request-events": {},
    "/record-session-events": {},
    "/record-user-events": {},
    "/client-metrics": {},
}


def scenario():
    try:
        with open(os.path.join(STATE, "scenario.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"id": "none", "command": "true"}


def next_id(prefix):
    with LOCK:
        COUNTER[0] += 1
        return f"{prefix}_{COUNTER[0]:04d}"


def record(entry):
    entry["time"] = time.time()
    with LOCK:
        with open(os.path.join(STATE, "requests.jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def text_of(value):
    """The text inside a tool result of any API (strings, lists of blocks, nested objects)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(text_of(v) for v in value)
    if isinstance(value, dict):
        for key in ("text", "content", "output", "response", "error", "result", "llmContent"):
            if key in value:
                return text_of(value[key])
        return json.dumps(value)
    return str(value)


def pick_tool(names):
    for name in SHELL_TOOLS:
        if name in names:
            return name
    return None


# --- reading a request: (tool names, the tool result ending the conversation or None) --------


def anthropic_view(body):
    names = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    msgs = body.get("messages") or []
    last = msgs[-1] if msgs else {}
    result = None
    if last.get("role") == "user" and isinstance(last.get("content"), list):
        blocks = [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
        if blocks:
            result = "\n".join(text_of(b.get("content")) for b in blocks)
    return names, result


def responses_view(body):
    names = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            names.append(t.get("name") or t.get("type"))
    items = body.get("input") or []
    result = None
    if isinstance(items, list) and items:
        last = items[-1]
        if isinstance(last, dict) and str(last.get("type", "")).endswith("_output"):
            result = text_of(last.get("output"))
    return names, result


def chat_view(body):
    names = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            names.append((t.get("function") or {}).get("name") or t.get("name"))
    msgs = body.get("messages") or []
    result = None
    tail = []
    for m in reversed(msgs):
        if m.get("role") == "tool":
            tail.append(text_of(m.get("content")))
        else:
            break
    if tail:
        result = "\n".join(reversed(tail))
    return names, result


def gemini_view(body):
    names = []
    for t in body.get("tools") or []:
        for d in (t or {}).get("functionDeclarations") or []:
            names.append(d.get("name"))
    contents = body.get("contents") or []
    result = None
    if contents:
        parts = contents[-1].get("parts") or []
        responses = [p["functionResponse"] for p in parts if isinstance(p, dict) and "functionResponse" in p]
        if responses:
            result = "\n".join(text_of(r.get("response")) for r in responses)
    return names, result


def augment_view(body):
    """Augment's `chat-stream` request (Auggie 0.36.0): `tool_definitions[].name`; the request's
    `nodes` carry tool results as `{type: 1, tool_result_node: {tool_use_id, content}}`."""
    names = [t.get("name") for t in body.get("tool_definitions") or [] if isinstance(t, dict)]
    results = [n["tool_result_node"] for n in body.get("nodes") or []
               if isinstance(n, dict) and isinstance(n.get("tool_result_node"), dict)]
    result = "\n".join(text_of(r.get("content")) for r in results) if results else None
    return names, result


# --- the answer --------------------------------------------------------------------------------


def instance(schema, depth=0):
    """A minimal value of a JSON schema (side requests that want structured output)."""
    if not isinstance(schema, dict) or depth > 8:
        return "ok"
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        keys = schema.get("required") or list(props)
        return {k: instance(props.get(k), depth + 1) for k in keys}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return "ok"


def wanted_schema(body):
    """The JSON schema a side request asks its answer to follow, if any."""
    gen = body.get("generationConfig") or {}
    for key in ("responseJsonSchema", "responseSchema"):
        if isinstance(gen.get(key), dict):
            return gen[key]
    fmt = body.get("response_format") or (body.get("text") or {}).get("format") or {}
    if isinstance(fmt, dict):
        inner = fmt.get("json_schema") or fmt
        if isinstance(inner.get("schema"), dict):
            return inner["schema"]
    return None


def plan(api, body, path):
    view = {"anthropic": anthropic_view, "responses": responses_view, "chat": chat_view, "gemini": gemini_view,
            "augment": augment_view}[api]
    names, result = view(body)
    sc = scenario()
    tool = pick_tool(names)
    if result is not None:
        kind, text = "final", "Done: the tool call ended."
    elif tool is None:
        schema = wanted_schema(body)
        kind, text = "side", json.dumps(instance(schema)) if schema else "ok"
    else:
        kind, text = "tool_call", None
    record({
        "api": api,
        "path": path,
        "scenario": sc.get("id"),
        "kind": kind,
        "tool": tool if kind == "tool_call" else None,
        "tools": [n for n in names if n][:80],
        "tool_result": result,
        "model": body.get("model"),
        "excerpt": json.dumps(body)[-600:] if kind == "side" else None,
    })
    if kind == "tool_call":
        return {"tool": tool, "args": SHELL_TOOLS[tool](sc.get("command", "true"), sc)}
    return {"text": text}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet; requests.jsonl is the log
        pass

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.streaming = True

    def sse(self, data, event=None):
        chunk = ""
        if event:
            chunk += f"event: {event}\n"
        chunk += "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"
        raw = chunk.encode()
        self.wfile.write(b"%x\r\n" % len(raw) + raw + b"\r\n")
        self.wfile.flush()

    def end_sse(self):
        if getattr(self, "streaming", False):
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            self.streaming = False

    def do_GET(self):
        path = self.path.split("?")[0]
        record({"api": "get", "path": self.path, "kind": "get"})
        if path.endswith("/models"):
            self.send_json({"object": "list", "data": [{"id": "mock-model", "object": "model", "created": 0, "owned_by": "e2e"}], "models": []})
        else:
            self.send_json({"error": {"message": "not found", "type": "not_found"}}, 404)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        try:
            self.dispatch_post()
        finally:
            self.end_sse()

    def dispatch_post(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens") or path.endswith(":countTokens"):
            record({"api": "count", "path": self.path, "kind": "count"})
            return self.send_json({"input_tokens": 10, "totalTokens": 10})
        if path.endswith("/messages"):
            return self.anthropic(body)
        if path.endswith("/responses"):
            return self.openai_responses(body)
        if path.endswith("/chat/completions"):
            return self.chat(body)
        if ":streamGenerateContent" in path or ":generateContent" in path:
            return self.gemini(body, ":streamGenerateContent" in path)
        if path == "/chat-stream":
            return self.augment_chat(body)
        if path in AUGMENT_ANSWERS:
            record({"api": "augment", "path": self.path, "kind": "side"})
            return self.send_json(AUGMENT_ANSWERS[path])
        record({"api": "unknown", "path": self.path, "kind": "404"})
        self.send_json({"error": {"message": "not found", "type": "not_found"}}, 404)

    # Anthropic Messages
    def anthropic(self, body):
        p = plan("anthropic", body, self.path)
        mid = next_id("msg")
        usage = {"input_tokens": 10, "output_tokens": 5}
        if "tool" in p:
            block = {"type": "tool_use", "id": next_id("toolu"), "name": p["tool"], "input": p["args"]}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": p["text"]}
            stop = "end_turn"
        model = body.get("model") or "claude-mock"
        if not body.get("stream"):
            return self.send_json({"id": mid, "type": "message", "role": "assistant", "model": model,
                                   "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage})
        self.start_sse()
        self.sse({"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant", "model": model,
                  "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}},
                 "message_start")
        if block["type"] == "tool_use":
            self.sse({"type": "content_block_start", "index": 0,
                      "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}},
                     "content_block_start")
            self.sse({"type": "content_block_delta", "index": 0,
                      "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}},
                     "content_block_delta")
        else:
            self.sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                     "content_block_start")
            self.sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}},
                     "content_block_delta")
        self.sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        self.sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                  "usage": {"output_tokens": 5}}, "message_delta")
        self.sse({"type": "message_stop"}, "message_stop")

    # OpenAI Responses
    def openai_responses(self, body):
        p = plan("responses", body, self.path)
        rid = next_id("resp")
        if "tool" in p:
            args = json.dumps(p["args"])
            item = {"type": "function_call", "id": next_id("fc"), "call_id": next_id("call"), "name": p["tool"],
                    "arguments": args, "status": "completed"}
        else:
            item = {"type": "message", "id": next_id("msg"), "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": p["text"], "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        resp = {"id": rid, "object": "response", "created_at": int(time.time()), "status": "completed",
                "model": body.get("model") or "mock-model", "output": [item], "usage": usage}
        if not body.get("stream"):
            return self.send_json(resp)
        self.start_sse()
        created = dict(resp, status="in_progress", output=[])
        self.sse({"type": "response.created", "response": created}, "response.created")
        self.sse({"type": "response.output_item.added", "output_index": 0, "item": item}, "response.output_item.added")
        self.sse({"type": "response.output_item.done", "output_index": 0, "item": item}, "response.output_item.done")
        self.sse({"type": "response.completed", "response": resp}, "response.completed")

    # OpenAI Chat Completions
    def chat(self, body):
        p = plan("chat", body, self.path)
        cid = next_id("chatcmpl")
        model = body.get("model") or "mock-model"
        now = int(time.time())
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if "tool" in p:
            call = {"id": next_id("call"), "type": "function",
                    "function": {"name": p["tool"], "arguments": json.dumps(p["args"])}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": p["text"]}
            finish = "stop"
        if not body.get("stream"):
            return self.send_json({"id": cid, "object": "chat.completion", "created": now, "model": model,
                                   "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                                   "usage": usage})
        self.start_sse()
        base = {"id": cid, "object": "chat.completion.chunk", "created": now, "model": model}
        if "tool" in p:
            delta = {"role": "assistant", "content": None,
                     "tool_calls": [dict(message["tool_calls"][0], index=0)]}
        else:
            delta = {"role": "assistant", "content": p["text"]}
        self.sse(dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]))
        self.sse(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage))
        self.sse("[DONE]")

    # Augment's backend chat-stream: one JSON object per line
    def augment_chat(self, body):
        p = plan("augment", body, self.path)
        if "tool" in p:
            tool_use = {"tool_use_id": next_id("toolu"), "tool_name": p["tool"], "input_json": json.dumps(p["args"])}
            lines = [{"text": "", "nodes": [{"id": 1, "type": 5, "content": "", "tool_use": tool_use}]},
                     {"text": "", "nodes": [], "stop_reason": "TOOL_USE_REQUESTED"}]
        else:
            lines = [{"text": p["text"], "nodes": [{"id": 1, "type": 0, "content": p["text"]}]},
                     {"text": "", "nodes": [], "stop_reason": "END_TURN"}]
        data = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    # Gemini generateContent
    def gemini(self, body, stream):
        p = plan("gemini", body, self.path)
        if "tool" in p:
            part = {"functionCall": {"id": next_id("fc"), "name": p["tool"], "args": p["args"]}}
        else:
            part = {"text": p["text"]}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                 "modelVersion": "gemini-mock"}
        if not stream:
            return self.send_json(chunk)
        self.start_sse()
        self.sse(chunk)


def main():
    global STATE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", required=True, help="directory of scenario.json and requests.jsonl")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    STATE = args.state
    os.makedirs(STATE, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
