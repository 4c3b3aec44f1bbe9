#!/usr/bin/env python3
"""`promptscope serve` driven by the official clients, not by our own HTTP
code: the `ollama`, `openai` and `anthropic` Python packages (pinned in
scripts/python-clients.sh) against a server on a free loopback port over a
copy of the fixture store (crates/store/tests/fixture/models, written by
Ollama's own create code) plus SmolLM2-135M, stored as Ollama stores a
model (a manifest, a config, a TEMPLATE layer and the GGUF blob).

Checks chat and generate (streamed and not, greedy text and counts equal to
llama.cpp's), show and list, the three dry-run modes (`num_predict: 0`,
`_debug_render_only`, `"debug": {"include": ["prompt"]}`), the /v1 routes
through the OpenAI and Anthropic clients, and errors with Ollama's status
codes and texts; `prompt_eval_count` equals `promptscope render --json`'s.

    python tests/clients/serve.py PROMPTSCOPE_BIN SMOLLM2_GGUF
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anthropic
import httpx
import ollama
import openai

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "crates/store/tests/fixture/models"
CHATML = ("{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}"
          "<|im_start|>assistant\n")
SYSTEM = "You are a helpful assistant."
QUESTION = "What is the capital of Japan?"
ANSWER = "The capital of Japan is Tokyo."
# llama.cpp's counts for this prompt (crates/inference/tests/golden/smollm2-greedy.jsonl)
PROMPT_TOKENS, EVAL_TOKENS = 27, 8

failures = []


# A Hermes-style TEMPLATE and a conversation that steers SmolLM2 into a
# tool call (crates/cli/tests/generate_cli.rs generation_answers_with_tool_calls)
TOOLS_TEMPLATE = ("{{- if .Tools }}<|im_start|>system\nYou can call tools. To call one, answer with <tool_call> and a JSON object.\n<tools>\n"
                  "{{- range .Tools }}\n{{ json .Function }}\n{{- end }}\n</tools><|im_end|>\n{{ end }}\n{{- range .Messages }}\n"
                  "{{- if eq .Role \"tool\" }}<|im_start|>user\n<tool_response>\n{{ .Content }}\n</tool_response><|im_end|>\n"
                  "{{ else }}<|im_start|>{{ .Role }}\n{{ if .Content }}{{ .Content }}{{ end }}\n{{- if .ToolCalls }}<tool_call>\n"
                  "{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}\n{{ end }}</tool_call>\n"
                  "{{- end }}<|im_end|>\n{{ end }}\n{{- end }}<|im_start|>assistant\n")
WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Get the weather in a city",
           "parameters": {"type": "object", "required": ["city"],
                          "properties": {"city": {"type": "string", "description": "The city"}}}}}


def steer(openai_shape=False):
    def call(c):
        if openai_shape:
            return [{"id": f"call_{c.lower()}", "type": "function",
                     "function": {"name": "get_weather", "arguments": json.dumps({"city": c})}}]
        return [{"function": {"name": "get_weather", "arguments": {"city": c}}}]

    def tool(text, c):
        return {"role": "tool", "content": text, **({"tool_call_id": f"call_{c.lower()}"} if openai_shape else {})}
    return [
        {"role": "user", "content": "What is the weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": call("Paris")},
        tool("18 C, cloudy", "Paris"),
        {"role": "assistant", "content": "It is 18 C and cloudy in Paris."},
        {"role": "user", "content": "What is the weather in Berlin?"},
        {"role": "assistant", "content": "", "tool_calls": call("Berlin")},
        tool("12 C, rain", "Berlin"),
        {"role": "assistant", "content": "It is 12 C and rainy in Berlin."},
        {"role": "user", "content": "What is the weather in Tokyo?"},
    ]


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def blob(store, data):
    digest = hashlib.sha256(data).hexdigest()
    (store / "blobs" / f"sha256-{digest}").write_bytes(data)
    return {"digest": f"sha256:{digest}", "size": len(data)}


def add_smollm2(store, gguf, name="smollm2", template=None):
    h = hashlib.sha256()
    with open(gguf, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            h.update(piece)
    digest = h.hexdigest()
    target = store / "blobs" / f"sha256-{digest}"
    if not target.exists():
        try:
            os.link(gguf, target)
        except OSError:
            shutil.copyfile(gguf, target)
    config = blob(store, json.dumps({"model_format": "gguf", "model_family": "llama", "model_families": ["llama"],
                                     "model_type": "134.52M", "file_type": "Q4_1"}).encode())
    template = blob(store, (template or CHATML).encode())
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json", **config},
        "layers": [
            {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}",
             "size": os.path.getsize(gguf)},
            {"mediaType": "application/vnd.ollama.image.template", **template},
        ],
    }
    d = store / f"manifests/registry.ollama.ai/library/{name}"
    d.mkdir(parents=True)
    (d / "latest").write_text(json.dumps(manifest))


def start(binary, store, log):
    p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--models", str(store)],
                         stdout=subprocess.DEVNULL, stderr=open(log, "w"), text=True)
    for _ in range(200):
        # (a warning about the store may come first)
        listening = [l for l in log.read_text().splitlines() if l.startswith("Listening on ")]
        if listening:
            return p, listening[0].split()[2]
        time.sleep(0.05)
    p.kill()
    sys.exit(f"the server did not start: {log.read_text()}")


def render_count(binary, store, request, endpoint="chat"):
    case = {"endpoint": endpoint, "model": {"store": str(store), "name": request["model"]}, "request": request}
    out = subprocess.run([binary, "render", "--json"], input=json.dumps(case), capture_output=True, text=True)
    return json.loads(out.stdout).get("prompt_eval_count")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, gguf = sys.argv[1:]
    tmp = Path(tempfile.mkdtemp(prefix="promptscope-serve-"))
    store = tmp / "models"
    shutil.copytree(FIXTURE, store)
    add_smollm2(store, gguf)
    add_smollm2(store, gguf, "smollm2-tools", TOOLS_TEMPLATE)
    log = tmp / "serve.log"
    server, addr = start(binary, store, log)
    url = f"http://{addr}"
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
    greedy = {"temperature": 0, "num_predict": 64}
    try:
        c = ollama.Client(host=url)
        # list and show
        names = [m.model for m in c.list().models]
        check("list has smollm2", "smollm2:latest" in names, True)
        check("list has the fixture's models", "smol-go:latest" in names, True)
        check("show template", c.show("smollm2").template, CHATML)
        # chat, unstreamed and streamed: llama.cpp's greedy text and counts
        r = c.chat(model="smollm2", messages=messages, options=greedy)
        check("chat content", r.message.content, ANSWER)
        check("chat prompt_eval_count", r.prompt_eval_count, PROMPT_TOKENS)
        check("chat eval_count", r.eval_count, EVAL_TOKENS)
        check("chat done_reason", r.done_reason, "stop")
        parts = list(c.chat(model="smollm2", messages=messages, options=greedy, stream=True))
        check("streamed content", "".join(p.message.content for p in parts), ANSWER)
        check("streamed final", (parts[-1].done, parts[-1].prompt_eval_count), (True, PROMPT_TOKENS))
        check("render --json agrees", render_count(binary, store, {"model": "smollm2", "messages": messages}),
              PROMPT_TOKENS)
        # generate: the template's legacy path
        g = c.generate(model="smollm2", prompt=QUESTION, system=SYSTEM, options=greedy)
        check("generate response", g.response, ANSWER)
        check("generate prompt_eval_count", g.prompt_eval_count, PROMPT_TOKENS)
        # dry runs: num_predict 0 counts without running
        d = c.chat(model="smollm2", messages=messages, options={"num_predict": 0})
        check("num_predict 0", (d.message.content, d.prompt_eval_count, d.done_reason), ("", PROMPT_TOKENS, "length"))
        d = c.chat(model="smol-go", messages=[{"role": "user", "content": "hi"}], options={"num_predict": 0})
        check("num_predict 0 on a fixture model",
              d.prompt_eval_count, render_count(binary, store, {"model": "smol-go", "messages": [{"role": "user", "content": "hi"}]}))
        h = httpx.Client(base_url=url, timeout=120)
        raw = h.post("/api/chat", json={"model": "smollm2", "messages": messages, "_debug_render_only": True}).json()
        prompt = (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{QUESTION}<|im_end|>\n"
                  "<|im_start|>assistant\n")
        check("_debug_render_only", raw.get("_debug_info", {}).get("rendered_template"), prompt)
        lines = [json.loads(x) for x in h.post("/api/chat", json={
            "model": "smollm2", "messages": messages, "options": {"num_predict": 0},
            "debug": {"include": ["prompt"]}}).text.splitlines()]
        check("debug include prompt", lines[0].get("debug"),
              {"include": ["prompt"], "prompt": prompt, "prompt_eval_count": PROMPT_TOKENS})
        # tools: the qwen3 renderer's tools block, counted without running
        tools = [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather",
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
        tmsgs = [{"role": "user", "content": "weather in Paris?"}]
        t = c.chat(model="qwen3:0.6b", messages=tmsgs, tools=tools, options={"num_predict": 0})
        check("tools counted", t.prompt_eval_count,
              render_count(binary, store, {"model": "qwen3:0.6b", "messages": tmsgs, "tools": tools}))
        shown = h.post("/api/chat", json={"model": "qwen3:0.6b", "messages": tmsgs, "tools": tools,
                                           "_debug_render_only": True}).json()["_debug_info"]["rendered_template"]
        check("tools rendered", '"name": "get_weather"' in shown, True)
        oc = openai.OpenAI(base_url=url + "/v1", api_key="ollama", max_retries=0).chat.completions.create(
            model="qwen3:0.6b", messages=tmsgs, tools=tools, max_tokens=0)
        check("openai tools counted", oc.usage.prompt_tokens, t.prompt_eval_count)
        # errors, with Ollama's status codes and texts
        try:
            c.chat(model="nope", messages=messages)
            failures.append("unknown model: no error")
        except ollama.ResponseError as e:
            check("unknown model", (e.status_code, e.error), (404, "model 'nope' not found"))
        try:
            c.chat(model="smol-go", messages=messages, tools=[{"type": "function", "function": {"name": "f"}}])
            failures.append("tools: no error")
        except ollama.ResponseError as e:
            check("tools", (e.status_code, e.error), (400, "registry.ollama.ai/library/smol-go:latest does not support tools"))
        bad = h.post("/api/chat", content=b'{"model": "smollm2", "messages": 5}')
        check("bad body", (bad.status_code, bad.json()),
              (400, {"error": "json: cannot unmarshal number into Go struct field ChatRequest.messages of type []api.Message"}))
        check("missing body", h.post("/api/chat", content=b"").json(), {"error": "missing request body"})
        # generation answers with tool_calls: the TEMPLATE's tool parser
        tc = c.chat(model="smollm2-tools", messages=steer(), tools=[WEATHER],
                    options={"temperature": 0, "num_predict": 40})
        calls = tc.message.tool_calls or []
        check("tool call", [(t.function.name, dict(t.function.arguments)) for t in calls],
              [("get_weather", {"city": "Tokyo"})])
        check("tool call content", tc.message.content, "")
        parts = list(c.chat(model="smollm2-tools", messages=steer(), tools=[WEATHER], stream=True,
                            options={"temperature": 0, "num_predict": 40}))
        check("streamed tool call", [t.function.name for p in parts for t in (p.message.tool_calls or [])],
              ["get_weather"])
        # /v1/chat/completions through the openai client
        o = openai.OpenAI(base_url=url + "/v1", api_key="ollama", max_retries=0)
        cc = o.chat.completions.create(model="smollm2", messages=messages, temperature=0, max_tokens=64)
        check("openai content", cc.choices[0].message.content, ANSWER)
        check("openai usage", (cc.usage.prompt_tokens, cc.usage.completion_tokens), (PROMPT_TOKENS, EVAL_TOKENS))
        text = "".join(ch.choices[0].delta.content or "" for ch in o.chat.completions.create(
            model="smollm2", messages=messages, temperature=0, max_tokens=64, stream=True) if ch.choices)
        check("openai stream", text, ANSWER)
        check("openai models", "smollm2:latest" in [m.id for m in o.models.list().data], True)
        otc = o.chat.completions.create(model="smollm2-tools", messages=steer(True), tools=[WEATHER],
                                        temperature=0, max_tokens=40)
        ch = otc.choices[0]
        check("openai tool call", (ch.finish_reason, [(t.function.name, json.loads(t.function.arguments))
                                                        for t in ch.message.tool_calls or []]),
              ("tool_calls", [("get_weather", {"city": "Tokyo"})]))
        try:
            o.chat.completions.create(model="nope", messages=messages)
            failures.append("openai unknown model: no error")
        except openai.NotFoundError as e:
            check("openai unknown model", e.body.get("message") if isinstance(e.body, dict) else e.body,
                  "model 'nope' not found")
        # /v1/messages through the anthropic client
        a = anthropic.Anthropic(base_url=url, api_key="ollama", max_retries=0)
        m = a.messages.create(model="smollm2", max_tokens=64, system=SYSTEM, extra_body={"temperature": 0},
                              messages=[{"role": "user", "content": QUESTION}])
        check("anthropic text", m.content[0].text, ANSWER)
        check("anthropic usage", m.usage.input_tokens, PROMPT_TOKENS)
        with a.messages.stream(model="smollm2", max_tokens=64, system=SYSTEM, extra_body={"temperature": 0},
                               messages=[{"role": "user", "content": QUESTION}]) as s:
            final = s.get_final_message()
        check("anthropic stream", final.content[0].text, ANSWER)
        # a client that goes away mid-stream stops its generation
        with h.stream("POST", "/api/chat", json={"model": "smollm2", "options": {"num_predict": 2000, "temperature": 0},
                                                  "messages": [{"role": "user", "content": "Tell me a long story."}]}) as r:
            next(r.iter_lines())
        stopped = False
        for _ in range(100):
            if "client disconnected, generation stopped" in log.read_text():
                stopped = True
                break
            time.sleep(0.1)
        check("generation stops when the client goes", stopped, True)
        # the access and template-selection lines
        text = log.read_text()
        check("template selection logged", 'msg="template selection" model=registry.ollama.ai/library/smollm2:latest selected=go_template' in text, True)
    finally:
        server.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print(f"serve: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
