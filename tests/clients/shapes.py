#!/usr/bin/env python3
"""The compatibility routes' answers, read by the official SDK clients.

A stub HTTP server on loopback answers each request with given bytes, and
the `openai` and `anthropic` Python clients (PyPI, pinned in
scripts/python-clients.sh) call it as they call Ollama: non-streamed
through their response models, streamed through their SSE decoders and
stream accumulators (`responses.stream(...).get_final_response()`,
`messages.stream(...).get_final_message()`). Each answer's text, tool
calls, stop reason and usage, as the client reads them, must equal what the
bytes say. Nothing goes to the network.

The bytes are:
1. every 200 answer of crates/ollama/tests/golden/v1-responses.jsonl:
   Ollama's own, which crates/ollama/tests/compat_reply_golden.rs shows
   Promptscope writes byte for byte;
2. live answers of `promptscope generate` on SmolLM2 for each route,
   streamed and not.

Also each non-streamed body and streamed event is validated strictly by the
SDK's pydantic model; Ollama's shapes lack fields the newest models
require, listed in STRICT_GAPS (counted and printed, not failures).

    python tests/clients/shapes.py PROMPTSCOPE_BIN SMOLLM2_GGUF
"""

import json
import subprocess
import types
import typing
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anthropic
import openai
from pydantic import TypeAdapter, ValidationError
from openai.types import Completion
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseStreamEvent
from anthropic.types import Message, RawMessageStreamEvent

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "crates/ollama/tests/golden/v1-responses.jsonl"

# Ollama v0.33.0-rc2's own streamed Responses answers that the openai
# client's stream accumulator refuses (Promptscope writes the same bytes).
CLIENT_REFUSES = {
    "openai-responses/stream/content-then-thinking": "thinking after text reuses the open message's output_index",
    "openai-responses/stream/thinking-twice": "a second thinking item reuses an output_index",
    "openai-responses/stream/content-tool": "a tool call after text reuses the message's output_index",
    "openai-responses/stream/tool-empty-ids": "two function calls in one chunk, item ids drawn alike",
    "openai-responses/stream/tool-same-id": "two function calls with one call_id",
}

# Fields the newest SDK models require and Ollama v0.33.0-rc2 never writes.
STRICT_GAPS = {
    "signature": "Anthropic thinking blocks carry no signature",
    "cache_write_tokens": "Responses usage has no input_tokens_details.cache_write_tokens",
    "finish_reason": "a streamed text_completion chunk has finish_reason null",
    "content": "an empty Anthropic answer has content null",
    "tools": "the Responses tools echo repeats tools as the request gave them (types the model does not know)",
    "name": "a Responses json_schema text format without a name is echoed without one",
}


class Stub:
    """Answers every POST with the next queued (content type, body)."""

    def __init__(self):
        self.queue = []
        stub = self

        class H(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                ctype, body = stub.queue.pop(0)
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{self.server.server_port}"
        self.openai = openai.OpenAI(base_url=url + "/v1", api_key="ollama", max_retries=0)
        self.anthropic = anthropic.Anthropic(base_url=url, api_key="ollama", max_retries=0)


def sse(text):
    out = []
    for block in text.split("\n\n"):
        if not block:
            continue
        name, data = None, None
        for line in block.split("\n"):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        out.append((name, data))
    return out


def members(t):
    """The classes of a (possibly annotated) union of event models."""
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Annotated:
        return members(args[0])
    if origin in (typing.Union, types.UnionType):
        return [m for a in args for m in members(a)]
    return [t]


def by_type(union):
    return {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in members(union)}


EVENTS = {"openai-responses": by_type(ResponseStreamEvent), "anthropic-messages": by_type(RawMessageStreamEvent)}


def strict(route, stream, text, gaps):
    """Strict pydantic validation of each body or event by the model its
    type names; counts the known gaps."""
    items = [(None, text)] if not stream else [(n, d) for n, d in sse(text) if d != "[DONE]"]
    for name, item in items:
        if not stream:
            model = {"openai-chat": ChatCompletion, "openai-completions": Completion,
                     "openai-responses": Response, "anthropic-messages": Message}[route]
        elif route in EVENTS:
            model = EVENTS[route].get(name)
            if model is None:
                raise ValueError(f"the SDK has no event type {name!r}")
        else:
            model = ChatCompletionChunk if route == "openai-chat" else Completion
        try:
            model.model_validate_json(item)
        except ValidationError as e:
            fields = {str(x) for err in e.errors() for x in err["loc"]}
            known = fields & set(STRICT_GAPS)
            if not known:
                raise
            for k in known:
                gaps[k] = gaps.get(k, 0) + 1


def args_of(s):
    return json.loads(s) if s else {}


def read(stub, route, stream, ctype, text):
    """Calls the route with the SDK, the stub answering `text`; returns what
    the client read, and what the bytes say, as comparable dicts."""
    stub.queue.append((ctype, text))
    msgs = [{"role": "user", "content": "hi"}]
    if route == "openai-chat":
        if not stream:
            r = stub.openai.chat.completions.create(model="m", messages=msgs)
            c = r.choices[0]
            got = {"text": c.message.content, "finish": c.finish_reason, "usage": r.usage.prompt_tokens,
                   "tools": [(t.function.name, args_of(t.function.arguments)) for t in (c.message.tool_calls or [])]}
            j = json.loads(text)["choices"][0]
            want = {"text": j["message"]["content"], "finish": j["finish_reason"],
                    "usage": json.loads(text)["usage"]["prompt_tokens"],
                    "tools": [(t["function"]["name"], args_of(t["function"]["arguments"]))
                              for t in j["message"].get("tool_calls", [])]}
            return got, want
        text_parts, tools, finish = [], [], None
        for ch in stub.openai.chat.completions.create(model="m", messages=msgs, stream=True):
            for c in ch.choices:
                if c.delta.content:
                    text_parts.append(c.delta.content)
                for t in c.delta.tool_calls or []:
                    tools.append((t.function.name, args_of(t.function.arguments)))
                finish = c.finish_reason or finish
        want_text, want_tools, want_finish = [], [], None
        for _, d in sse(text):
            if d == "[DONE]":
                continue
            for c in json.loads(d)["choices"]:
                want_text.append(c["delta"].get("content") or "")
                for t in c["delta"].get("tool_calls", []):
                    want_tools.append((t["function"]["name"], args_of(t["function"]["arguments"])))
                want_finish = c.get("finish_reason") or want_finish
        return ({"text": "".join(text_parts), "tools": tools, "finish": finish},
                {"text": "".join(want_text), "tools": want_tools, "finish": want_finish})
    if route == "openai-completions":
        if not stream:
            r = stub.openai.completions.create(model="m", prompt="p")
            j = json.loads(text)
            return ({"text": r.choices[0].text, "finish": r.choices[0].finish_reason, "usage": r.usage.total_tokens},
                    {"text": j["choices"][0]["text"], "finish": j["choices"][0]["finish_reason"],
                     "usage": j["usage"]["total_tokens"]})
        got = "".join(c.choices[0].text for c in stub.openai.completions.create(model="m", prompt="p", stream=True)
                      if c.choices)
        want = "".join(json.loads(d)["choices"][0]["text"] for _, d in sse(text)
                       if d != "[DONE]" and json.loads(d)["choices"])
        return {"text": got}, {"text": want}
    if route == "openai-responses":
        def summary(r):
            return {"text": r.output_text, "status": r.status, "usage": r.usage.total_tokens if r.usage else None,
                    "calls": [(o.name, args_of(o.arguments)) for o in r.output if o.type == "function_call"]}
        if not stream:
            return summary(stub.openai.responses.create(model="m", input="hi")), summary(Response.model_construct(
                **json.loads(text)) if False else stub_response(text))
        with stub.openai.responses.stream(model="m", input="hi") as s:
            final = s.get_final_response()
        done = [json.loads(d) for n, d in sse(text) if n == "response.completed"][0]["response"]
        return summary(final), summary(stub_response(json.dumps(done)))
    # anthropic-messages
    def summary(m):
        return {"text": "".join(b.text for b in m.content or [] if b.type == "text"),
                "thinking": "".join(b.thinking for b in m.content or [] if b.type == "thinking"),
                "tools": [(b.name, b.input) for b in m.content or [] if b.type == "tool_use"],
                "stop": m.stop_reason, "out": m.usage.output_tokens}
    if not stream:
        return summary(stub.anthropic.messages.create(model="m", max_tokens=5, messages=msgs)), \
            summary(anthropic_message(text))
    with stub.anthropic.messages.stream(model="m", max_tokens=5, messages=msgs) as s:
        final = s.get_final_message()
    return summary(final), summary(anthropic_from_events(text))


def stub_response(text):
    """The Response the bytes describe, read without the SDK's models."""
    j = json.loads(text)

    class O:
        def __init__(self, d):
            self.__dict__.update(d)
    out = [O(o) for o in j["output"] or []]
    text = "".join(c["text"] for o in j["output"] or [] if o["type"] == "message" for c in o["content"]
                   if c["type"] == "output_text")
    r = O({"output_text": text, "status": j["status"], "output": out,
           "usage": O(j["usage"]) if j.get("usage") else None})
    return r


def anthropic_message(text):
    j = json.loads(text)

    class O:
        def __init__(self, d):
            self.__dict__.update(d)
    return O({"content": [O(b) for b in j["content"] or []], "stop_reason": j.get("stop_reason"),
              "usage": O(j["usage"])})


def anthropic_from_events(text):
    blocks, stop, out = {}, None, 0
    for n, d in sse(text):
        e = json.loads(d)
        if n == "content_block_start":
            b = dict(e["content_block"])
            if b["type"] == "tool_use":
                b["partial"] = ""
            blocks[e["index"]] = b
        elif n == "content_block_delta":
            b, dl = blocks[e["index"]], e["delta"]
            if dl["type"] == "text_delta":
                b["text"] += dl["text"]
            elif dl["type"] == "thinking_delta":
                b["thinking"] += dl["thinking"]
            elif dl["type"] == "input_json_delta":
                b["partial"] += dl["partial_json"]
        elif n == "message_delta":
            stop, out = e["delta"].get("stop_reason"), e["usage"]["output_tokens"]
    for b in blocks.values():
        if b["type"] == "tool_use":
            b["input"] = json.loads(b.pop("partial") or "{}")
    return anthropic_message(json.dumps({"content": [blocks[k] for k in sorted(blocks)], "stop_reason": stop,
                                         "usage": {"output_tokens": out}}))


def run_case(stub, name, route, stream, ctype, text, failures, gaps):
    try:
        strict(route, stream, text, gaps)
        got, want = read(stub, route, stream, ctype, text)
        if got != want:
            failures.append(f"{name}: the client reads {got}, the bytes say {want}")
        elif name in CLIENT_REFUSES:
            failures.append(f"{name}: listed in CLIENT_REFUSES ({CLIENT_REFUSES[name]}) but the client reads it now")
    except Exception as e:  # noqa: BLE001 - any failure of the client is reported
        if name not in CLIENT_REFUSES:
            failures.append(f"{name}: {type(e).__name__}: {str(e)[:500]}")
    finally:
        stub.queue.clear()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, gguf = sys.argv[1:]
    stub, failures, gaps = Stub(), [], {}
    recorded = 0
    for line in GOLDEN.read_text().splitlines():
        c = json.loads(line)
        if c["status"] != 200 or "midstream-error" in c["id"]:
            continue
        stream = c["content_type"] == "text/event-stream"
        run_case(stub, c["id"], c["route"], stream, c["content_type"], c["written"], failures, gaps)
        recorded += 1
    bodies = {
        "openai-chat": {"messages": [{"role": "user", "content": "What is the capital of Japan?"}],
                        "temperature": 0, "max_tokens": 12},
        "openai-completions": {"prompt": "The capital of Japan is", "temperature": 0, "max_tokens": 8},
        "openai-responses": {"input": "What is the capital of Japan?", "temperature": 0,
                             "max_output_tokens": 12, "instructions": "Answer briefly."},
        "anthropic-messages": {"max_tokens": 12, "system": [{"type": "text", "text": "Answer briefly."}],
                               "messages": [{"role": "user", "content": "What is the capital of Japan?"}]},
    }
    live = 0
    for route, body in bodies.items():
        for stream in (False, True):
            b = dict(body, model="smollm2", stream=stream)
            if stream and route.startswith("openai-c"):
                b["stream_options"] = {"include_usage": True}
            case = {"endpoint": route, "model": {"name": "smollm2"}, "request": b}
            p = subprocess.run([binary, "generate", "--gguf", gguf, "-"], input=json.dumps(case),
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                failures.append(f"live {route} stream={stream}: exit {p.returncode}: {p.stderr[:300]}")
                continue
            ctype = "text/event-stream" if stream else "application/json"
            run_case(stub, f"live {route} stream={stream}", route, stream, ctype, p.stdout, failures, gaps)
            live += 1
    for f in failures:
        print("FAIL", f)
    for k, n in sorted(gaps.items()):
        print(f"strict model gap ({n}x): {STRICT_GAPS[k]}")
    print(f"{len(CLIENT_REFUSES)} recorded Ollama answers that the openai client refuses, as listed")
    print(f"{recorded} recorded and {live} live answers read by the openai {openai.__version__} and anthropic "
          f"{anthropic.__version__} clients; {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
