#!/usr/bin/env python3
"""Records what a real llama-server answers on POST /apply-template for a model whose GGUF has a second
template, `tokenizer.chat_template.tool_use` (common_chat_templates_init reads it; requests with tools
render with it; it is the default template when the GGUF has no other; one that does not parse is ignored).

For each pair (default template, tool_use template) it writes a copy of SmolLM2-135M's GGUF with
`tokenizer.chat_template` set (or removed) and `tokenizer.chat_template.tool_use` set, starts
build/bin/llama-server on it (`--jinja`, as Ollama starts it), and POSTs four bodies (no tools, one tool,
an empty tool list, a tool round trip). One JSONL row per request:

    {"default": "<file in models/templates>" | null, "tool_use": "<file>" | "{% if %}",
     "bos_token": ..., "eos_token": ..., "body": {...}, "status": 200, "prompt": "..."}

The server runs with this folder's fixed clock LD_PRELOADed (fixed_clock.c, built here as fixed_clock.so;
PROMPTSCOPE_NOW's default, 2026-01-15 10:20:30 UTC) and TZ=UTC, since some templates print the date.

usage: tool_use.py OUT.jsonl   (env LLAMA: the llama.cpp tree built by build-llama.sh; MODEL; TEMPLATES)
"""
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

LLAMA = Path(os.environ["LLAMA"])
UPSTREAM = Path(os.environ.get("PROMPTSCOPE_UPSTREAM", Path.home() / ".cache/promptscope/upstream"))
TEMPLATES = Path(os.environ.get("TEMPLATES", UPSTREAM / "llama.cpp-b11312/models/templates"))
MODEL = os.environ.get("MODEL", str(Path.home() / ".cache/promptscope/models/SmolLM2-135M-Instruct.Q4_1.gguf"))
BROKEN = "{% if %}"
PAIRS = [
    ("Qwen-Qwen3-0.6B.jinja", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja"),
    (None, "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja"),
    ("mistralai-Mistral-Nemo-Instruct-2407.jinja", "CohereForAI-c4ai-command-r-plus-tool_use.jinja"),
    ("google-gemma-2-2b-it.jinja", "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja"),
    ("meta-llama-Llama-3.3-70B-Instruct.jinja", BROKEN),
]
TOOL = {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
BODIES = [
    {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]},
    {"messages": [{"role": "user", "content": "Weather in Paris?"}], "tools": [TOOL]},
    {"messages": [{"role": "user", "content": "Hi"}], "tools": []},
    {"messages": [{"role": "user", "content": "Weather in Paris?"},
                  {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
                   "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
                  {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}], "tools": [TOOL]},
]
SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def set_strings(src: bytes, sets: dict) -> bytes:
    """The GGUF `src` with string keys set (a value of None removes the key); tensors unchanged."""
    p = 4

    def rd(fmt):
        nonlocal p
        v = struct.unpack_from("<" + fmt, src, p)[0]
        p += struct.calcsize("<" + fmt)
        return v

    def skip(t):
        nonlocal p
        if t == 8:
            n = rd("Q")
            p += n
        elif t == 9:
            et, n = rd("I"), rd("Q")
            for _ in range(n):
                skip(et)
        else:
            p += SIZES[t]

    assert src[:4] == b"GGUF"
    ver, nt, nkv = rd("I"), rd("Q"), rd("Q")
    kvs, align = [], 32
    for _ in range(nkv):
        k = src[p + 8:p + 8 + struct.unpack_from("<Q", src, p)[0]]
        p += 8 + len(k)
        t = rd("I")
        s0 = p
        skip(t)
        if k == b"general.alignment":
            align = struct.unpack_from("<I", src, s0)[0]
        kvs.append((k, t, src[s0:p]))
    ti0 = p
    for _ in range(nt):
        n = rd("Q")
        p += n
        nd = rd("I")
        p += 8 * nd + 4 + 8
    infos = src[ti0:p]
    data = src[(p + align - 1) // align * align:]
    kvs = [kv for kv in kvs if kv[0].decode() not in sets]
    for k, v in sets.items():
        if v is not None:
            kvs.append((k.encode(), 8, struct.pack("<Q", len(v)) + v))
    out = bytearray(b"GGUF" + struct.pack("<IQQ", ver, nt, len(kvs)))
    for k, t, raw in kvs:
        out += struct.pack("<Q", len(k)) + k + struct.pack("<I", t) + raw
    out += infos
    out += b"\0" * ((len(out) + align - 1) // align * align - len(out))
    return bytes(out + data)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(port, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, {"Content-Type": "application/json"},
                                 method=method)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def main():
    out = open(sys.argv[1], "w", encoding="utf-8")
    model = Path(MODEL).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        clock = Path(tmp) / "fixed_clock.so"
        subprocess.check_call(["cc", "-O1", "-shared", "-fPIC", str(Path(__file__).parent / "fixed_clock.c"),
                               "-o", str(clock)])
        for i, (default, tool_use) in enumerate(PAIRS):
            text = lambda f: (TEMPLATES / f).read_bytes()
            gguf = Path(tmp) / f"pair{i}.gguf"
            gguf.write_bytes(set_strings(model, {
                "tokenizer.chat_template": None if default is None else text(default),
                "tokenizer.chat_template.tool_use": BROKEN.encode() if tool_use == BROKEN else text(tool_use),
            }))
            port = free_port()
            srv = subprocess.Popen([str(LLAMA / "build/bin/llama-server"), "-m", str(gguf), "--jinja",
                                    "--port", str(port), "-c", "512", "--no-webui"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=dict(os.environ, LLAMA_MEDIA_MARKER="<__media__>", TZ="UTC",
                                            LD_PRELOAD=str(clock)))
            try:
                for _ in range(600):
                    try:
                        if call(port, "GET", "/health")[0] == 200:
                            break
                    except OSError:
                        pass
                    time.sleep(0.1)
                props = json.loads(call(port, "GET", "/props")[1])
                for body in BODIES:
                    status, resp = call(port, "POST", "/apply-template", body)
                    row = {"default": default, "tool_use": tool_use, "bos_token": props.get("bos_token", ""),
                           "eos_token": props.get("eos_token", ""), "body": body, "status": status}
                    row["prompt" if status == 200 else "error"] = json.loads(resp).get("prompt") if status == 200 else resp
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
            finally:
                srv.terminate()
                srv.wait()


if __name__ == "__main__":
    main()
