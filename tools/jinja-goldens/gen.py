#!/usr/bin/env python3
"""Record crates/ollama/tests/golden/jinja-extra.jsonl: native-mode (GGUF
Jinja chat template) cases for more model templates, in the case shape of
tests/corpus/golden/jinja.jsonl.

The reference renderer is Python jinja2 (pip install jinja2), set up with
the context llama-server gives a chat template (shared/spec/jinja-native.md)
rather than plain Hugging Face jinja2 behaviour. Where llama.cpp and jinja2
differ, this script records what llama.cpp would give:

- the environment: sandboxed, trim_blocks, lstrip_blocks, loopcontrols,
  llama.cpp's chainable undefined (``a.b`` on an undefined ``a`` is
  undefined), ``raise_exception``, ``strftime_now`` pinned to 2026-11-30;
- ``tojson``: llama.cpp's ``value_to_json`` (key order kept, ``", "`` /
  ``": "`` separators or ``","`` with an indent, non-ASCII kept, floats as
  C++ ``%g``, ``ensure_ascii=True`` / ``sort_keys=True`` not implemented);
- llama.cpp's capability probes, emulated by rendering probe conversations
  whose dicts record which keys the template reads: a template that never
  reads a leading system message's content gets that message merged into
  the next one; a template that reads a key of a tool call's arguments
  object (``tojson`` and ``|string`` count as reading all of it) gets the
  arguments as objects instead of the JSON string Ollama sends; a template
  whose string content never shows while typed content does gets typed
  content;
- the messages as llama-server rebuilds them from Ollama's request (key
  order role, content, name, tool_call_id, tool_calls; tool calls as
  {type, function{name, arguments}, id}); role developer becomes system;
- the per-model rewrites of llama.cpp's dedicated handlers that reshape
  messages (old Gemma 4 tool responses, Ministral 3 content blocks,
  DeepSeek V4 tool-result order, StepFun trimming) and the Gemma 4 turn
  reopening;
- the globals: bos/eos tokens, enable_thinking, tools (only when there are
  some), datetime, date_string, preserve_reasoning and the variables it
  sets, reasoning_effort / reasoning_strength for a think level,
  add_generation_prompt.

Templates that read ``enable_thinking`` get an explicit ``think`` in every
case (suffix ``+think-false``), so no case depends on llama-server's
thinking default.

Usage:
  python3 gen.py [--templates DIR]   # DIR: llama.cpp's models/templates

The templates are llama.cpp's files (by default the b11312 tree that
scripts/fetch-upstream.sh takes out of the llama-cpp-python 0.3.36 sdist);
each case names its template by file (`model.chat_template_file`), so the
golden holds none of them.
"""

import argparse
import datetime
import json
import math
import os
import sys

import jinja2
from jinja2 import ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "crates", "ollama", "tests", "golden", "jinja-extra.jsonl")
NOW = datetime.datetime(2026, 11, 30, 0, 0, 0)
DATE = "2026-11-30"

# (id, file in models/templates, bos_token, eos_token)
TEMPLATES = [
    ("qwen2.5-instruct", "Qwen-Qwen2.5-7B-Instruct.jinja", "<|endoftext|>", "<|im_end|>"),
    ("qwq-32b", "Qwen-QwQ-32B.jinja", "<|endoftext|>", "<|im_end|>"),
    ("qwen3-0.6b", "Qwen-Qwen3-0.6B.jinja", "<|endoftext|>", "<|im_end|>"),
    ("llama3.1-8b-instruct", "meta-llama-Llama-3.1-8B-Instruct.jinja", "<|begin_of_text|>", "<|eot_id|>"),
    ("llama3.2-3b-instruct", "meta-llama-Llama-3.2-3B-Instruct.jinja", "<|begin_of_text|>", "<|eot_id|>"),
    ("llama3.3-70b-instruct", "meta-llama-Llama-3.3-70B-Instruct.jinja", "<|begin_of_text|>", "<|eot_id|>"),
    ("mistral-nemo-instruct-2407", "mistralai-Mistral-Nemo-Instruct-2407.jinja", "<s>", "</s>"),
    ("mistral-small-3.2-24b", "Mistral-Small-3.2-24B-Instruct-2506.jinja", "<s>", "</s>"),
    ("devstral-small-2507", "unsloth-mistral-Devstral-Small-2507.jinja", "<s>", "</s>"),
    ("phi-3.5-mini-instruct", "microsoft-Phi-3.5-mini-instruct.jinja", "<s>", "<|endoftext|>"),
    ("gemma-2-2b-it", "google-gemma-2-2b-it.jinja", "<bos>", "<eos>"),
    ("granite-3.3-2b-instruct", "ibm-granite-granite-3.3-2B-Instruct.jinja", "<|end_of_text|>", "<|end_of_text|>"),
    ("granite-4.0", "ibm-granite-granite-4.0.jinja", "<|end_of_text|>", "<|end_of_text|>"),
    ("command-r7b", "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", "<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>"),
    ("command-r-plus-tool-use", "CohereForAI-c4ai-command-r-plus-tool_use.jinja", "<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>"),
    ("smollm3-3b", "HuggingFaceTB-SmolLM3-3B.jinja", "<|im_start|>", "<|im_end|>"),
    ("hermes-3-llama3.1-8b", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", "<|begin_of_text|>", "<|im_end|>"),
    ("hermes-2-pro-llama3-8b", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja", "<|begin_of_text|>", "<|im_end|>"),
    ("deepseek-r1-distill-llama-8b", "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("deepseek-r1-distill-qwen-32b", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("deepseek-v3.1", "deepseek-ai-DeepSeek-V3.1.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("functionary-medium-v3.1", "meetkai-functionary-medium-v3.1.jinja", "<|begin_of_text|>", "<|eot_id|>"),
    ("nemotron-nano-v2", "NVIDIA-Nemotron-Nano-v2.jinja", "<SPECIAL_10>", "<SPECIAL_11>"),
    ("apertus-8b-instruct", "Apertus-8B-Instruct.jinja", "<s>", "</s>"),
    ("bielik-11b-v3", "Bielik-11B-v3.0-Instruct.jinja", "<s>", "<|im_end|>"),
    ("gemma-4-31b-it", "google-gemma-4-31B-it.jinja", "<bos>", "<eos>"),
    ("ministral-3-14b-reasoning", "mistralai-Ministral-3-14B-Reasoning-2512.jinja", "<s>", "</s>"),
    ("gpt-oss-120b", "openai-gpt-oss-120b.jinja", "<|startoftext|>", "<|return|>"),
    ("qwen3-coder", "Qwen3-Coder.jinja", "<|endoftext|>", "<|im_end|>"),
    ("solar-open-100b", "upstage-Solar-Open-100B.jinja", "<s>", "</s>"),
]

# ---------------------------------------------------------------------------
# Conversations (the shapes of jinja.jsonl)

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city",
        "parameters": {
            "type": "object",
            "required": ["city"],
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "unit": {"type": "string", "description": "Temperature unit", "enum": ["celsius", "fahrenheit"]},
            },
        },
    },
}
SYSTEM = {"role": "system", "content": "You are a helpful assistant."}
Q1 = {"role": "user", "content": "What's the weather in Paris?"}
A1 = {"role": "assistant", "content": "It is sunny and 22\u00b0C in Paris."}
Q2 = {"role": "user", "content": "And in Tokyo tomorrow?"}
CALL = {
    "role": "assistant",
    "content": "",
    "tool_calls": [{"id": "call_1", "function": {"index": 0, "name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}}],
}
RESULT = {"role": "tool", "content": "{\"temperature\": 18, \"condition\": \"cloudy\"}", "tool_name": "get_weather", "tool_call_id": "call_1"}
Q3 = {"role": "user", "content": "Thanks. Summarize it."}

SHAPES = [
    ("user", [Q1], None),
    ("system-user", [SYSTEM, Q1], None),
    ("multi-turn", [SYSTEM, Q1, A1, Q2], None),
    ("empty-assistant", [Q1, {"role": "assistant", "content": ""}, Q2], None),
    ("tools-defs", [Q1], [WEATHER_TOOL]),
    ("tools-roundtrip", [Q2, CALL, RESULT, Q3], [WEATHER_TOOL]),
]
THINK_SHAPES = [
    ("think-true", [SYSTEM, Q1], True),
    ("think-false", [SYSTEM, Q1], False),
    ("think-high", [SYSTEM, Q1], "high"),
    ("think-false-multi", [Q1, A1, Q2], False),
]

# ---------------------------------------------------------------------------
# Go encoding/json of the tool-call arguments (what Ollama sends)


def go_float(f):
    if f == int(f) and abs(f) < 1e21:
        return str(int(f))
    a = abs(f)
    if a < 1e-6 or a >= 1e21:
        s = repr(f)
        mant, _, exp = ("%r" % f).partition("e")
        if not exp:
            s = "%e" % f
            mant, _, exp = s.partition("e")
        e = int(exp)
        return "%se%s%d" % (mant, "-" if e < 0 else "+", abs(e))
    return repr(f)


def go_str(s):
    out = json.dumps(s, ensure_ascii=False)
    return out.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def go_any(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return go_float(float(v))
    if isinstance(v, str):
        return go_str(v)
    if isinstance(v, list):
        return "[" + ",".join(go_any(x) for x in v) + "]"
    return "{" + ",".join(go_str(k) + ":" + go_any(v[k]) for k in sorted(v)) + "}"


def go_args(args):
    if args is None:
        return "{}"
    return "{" + ",".join(go_str(k) + ":" + go_any(v) for k, v in args.items()) + "}"


# ---------------------------------------------------------------------------
# llama.cpp's tojson


def cpp_double(f):
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return "%g" % f


def cpp_json(v, indent=None, item_sep=None, key_sep=": ", level=0):
    if item_sep is None:
        item_sep = ", " if indent is None else ","
    nl = "\n" if indent is not None else ""

    def pad(lvl):
        return " " * (lvl * indent) if indent else ""

    if v is None or isinstance(v, jinja2.Undefined):
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return cpp_double(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        parts = [pad(level + 1) + cpp_json(x, indent, item_sep, key_sep, level + 1) for x in v]
        return "[" + nl + (item_sep + nl).join(parts) + nl + pad(level) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        parts = [pad(level + 1) + json.dumps(str(k), ensure_ascii=False) + key_sep
                 + cpp_json(dict.__getitem__(v, k), indent, item_sep, key_sep, level + 1) for k in dict.keys(v)]
        return "{" + nl + (item_sep + nl).join(parts) + nl + pad(level) + "}"
    return "null"


# ---------------------------------------------------------------------------
# Read tracking for the probes


class Tracked(dict):
    """A dict that records the keys a template reads."""

    def __init__(self, data, path, log):
        super().__init__()
        self._path = path
        self._log = log
        for k, v in data.items():
            dict.__setitem__(self, k, track(v, "%s.%s" % (path, k), log))

    def __getitem__(self, k):
        v = dict.__getitem__(self, k)
        self._log.add("%s.%s" % (self._path, k))
        return v

    def get(self, k, default=None):
        if dict.__contains__(self, k):
            return self[k]
        return default

    def items(self):
        return [(k, self[k]) for k in dict.keys(self)]

    def values(self):
        return [self[k] for k in dict.keys(self)]


def track(v, path, log):
    if isinstance(v, dict):
        return Tracked(v, path, log)
    if isinstance(v, list):
        return [track(x, "%s[%d]" % (path, i), log) for i, x in enumerate(v)]
    return v


def mark_all(v):
    if isinstance(v, Tracked):
        for k in dict.keys(v):
            v._log.add("%s.%s" % (v._path, k))
            mark_all(dict.__getitem__(v, k))
    elif isinstance(v, list):
        for x in v:
            mark_all(x)


# ---------------------------------------------------------------------------
# The environment


class Raised(Exception):
    pass


def make_env():
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[ext.loopcontrols],
        undefined=jinja2.ChainableUndefined)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        if ensure_ascii:
            raise jinja2.TemplateError("tojson ensure_ascii=true not implemented")
        if sort_keys:
            raise jinja2.TemplateError("tojson sort_keys=true not implemented")
        mark_all(x)
        item_sep, key_sep = None, ": "
        if separators:
            item_sep = separators[0]
            if len(separators) > 1:
                key_sep = separators[1]
        return cpp_json(x, indent if isinstance(indent, int) and not isinstance(indent, bool) else None,
                        item_sep, key_sep)

    def string(x):
        mark_all(x)
        return x if isinstance(x, str) else jinja2.filters.soft_str(x)

    def raise_exception(msg):
        raise Raised(msg)

    env.filters["tojson"] = tojson
    env.filters["string"] = string
    # llama.cpp's |safe is a no-op: no markup strings, so no escaping when
    # a "safe" string is concatenated with a plain one
    env.filters["safe"] = lambda x: x if isinstance(x, str) else jinja2.filters.soft_str(x)
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: NOW.strftime(fmt)
    return env


def parse(env, src):
    src = src.replace("\r\n", "\n").replace("\r", "\n")
    if "<|channel|>" in src and "in message.content or" in src:
        src = src.replace(
            '{%- if "<|channel|>analysis<|message|>" in message.content or "<|channel|>final<|message|>" in message.content %}',
            "{%- if false %}")
    if "[TOOL_CALLS]" in src and "if (message['content'] is none or" in src:
        src = src.replace(
            "{%- if (message['content'] is none or message['content'] == '' or message['content']|length == 0) and "
            "(message['tool_calls'] is not defined or message['tool_calls'] is none or message['tool_calls']|length == 0) %}",
            "{%- if false %}")
    return src, env.from_string(src)


def probe(tmpl, messages, tools):
    log = set()
    ctx = {"messages": track(messages, "messages", log), "tools": track(tools, "tools", log),
           "bos_token": "", "eos_token": "", "add_generation_prompt": True}
    try:
        out = tmpl.render(**ctx)
        return True, out, log
    except Exception:
        return False, "", log


def tool_conversation(arguments):
    return [
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call00001", "type": "function", "function": {"name": "tool1", "arguments": arguments}}]},
        {"role": "tool", "content": "Tool response", "tool_call_id": "call00001"},
        {"role": "assistant", "content": "The tool response was 'tool response'"},
        {"role": "user", "content": "User message"},
    ]


PROBE_TOOLS = [{"name": "tool", "type": "function", "function": {
    "name": "tool1", "description": "Tool description", "parameters": {
        "type": "object", "properties": {"arg": {"type": "string", "description": "Arg description"}},
        "required": ["arg"]}}}]


def caps(tmpl):
    c = {}
    ok, out, _ = probe(tmpl, [{"role": "user", "content": "STRING_MARKER"}], [])
    c["string"], c["typed"] = ok, False
    if not ok or "STRING_MARKER" not in out:
        tok, tout, _ = probe(tmpl, [{"role": "user", "content": [{"type": "text", "text": "STRING_MARKER"}]}], [])
        if tok and "STRING_MARKER" in tout:
            c["string"], c["typed"] = False, True
    _, _, log = probe(tmpl, [{"role": "system", "content": "System message"},
                             {"role": "user", "content": "User message"}], [])
    c["system"] = "messages[0].content" in log
    ok, _, log = probe(tmpl, tool_conversation({"arg": "value"}), PROBE_TOOLS)
    c["object_args"] = ok and "messages[1].tool_calls[0].function.arguments.arg" in log
    return c


# ---------------------------------------------------------------------------
# Messages as llama-server hands them to the template


def llama_messages(msgs, c, src):
    out = []
    for m in msgs:
        j = {"role": m["role"], "content": m.get("content") or ""}
        if m.get("tool_name"):
            j["name"] = m["tool_name"]
        if m.get("tool_call_id"):
            j["tool_call_id"] = m["tool_call_id"]
        if m.get("tool_calls"):
            calls = []
            for tc in m["tool_calls"]:
                f = tc["function"]
                call = {"type": "function", "function": {"name": f["name"], "arguments": go_args(f.get("arguments"))}}
                if tc.get("id"):
                    call["id"] = tc["id"]
                calls.append(call)
            j["tool_calls"] = calls
        out.append(j)
    if "You have access to the following functions in JSONSchema format" in src:
        for j in out:
            j["content"] = j["content"].strip(" \t\n\r\v\f")
    if c["typed"] and not c["string"]:
        for j in out:
            j["content"] = [{"type": "text", "text": j["content"]}]
    if "<|channel|>" not in src:
        for j in out:
            if j["role"] == "developer":
                j["role"] = "system"
    if not c["system"] and out and out[0]["role"] == "system":
        first = out.pop(0)
        if out:
            out[0]["content"] = first["content"] + "\n" + out[0]["content"]
    if c["object_args"]:
        for j in out:
            for call in j.get("tool_calls", []):
                if isinstance(call["function"]["arguments"], str):
                    call["function"]["arguments"] = json.loads(call["function"]["arguments"])
    if "[SYSTEM_PROMPT]" in src and "[TOOL_CALLS]" in src and "[ARGS]" in src and "[CALL_ID]" not in src:
        for j in out:
            if j["role"] in ("system", "assistant"):
                j["content"] = [{"type": "text", "text": j["content"]}]
    elif "'<|tool_call>call:'" in src and "{#- OpenAI Chat Completions:" not in src and "<|channel|>" not in src:
        out = fold_gemma4(out)
    return out


def fold_gemma4(msgs):
    out, i = [], 0
    while i < len(msgs):
        m = msgs[i]
        if m["role"] != "assistant" or not m.get("tool_calls"):
            out.append(m)
            i += 1
            continue
        calls, responses, content = list(m["tool_calls"]), [], None
        i += 1
        while i < len(msgs) and msgs[i]["role"] == "tool":
            r = msgs[i]
            try:
                resp = json.loads(r["content"])
            except ValueError:
                resp = r["content"]
            name = ""
            if len(responses) < len(calls):
                name = calls[len(responses)]["function"].get("name", "")
            responses.append({"name": name or r.get("tool_call_id", ""), "response": resp})
            i += 1
        if i < len(msgs) and msgs[i]["role"] == "assistant" and not msgs[i].get("tool_calls") and msgs[i]["content"]:
            content = msgs[i]["content"]
            i += 1
        built = {"role": "assistant", "tool_calls": calls}
        if responses:
            built["tool_responses"] = responses
        if content is not None:
            built["content"] = content
        out.append(built)
    return out


def llama_tools(tools):
    out = []
    for t in tools:
        f = t["function"]
        out.append({"type": "function", "function": {
            "name": f["name"], "description": f.get("description", ""), "parameters": f.get("parameters", {})}})
    return out


def render(env, template, bos, eos, request):
    src, tmpl = parse(env, template)
    c = caps(tmpl)
    msgs = llama_messages(request["messages"], c, src)
    think = request.get("think")
    ctx = {"messages": msgs, "bos_token": bos, "eos_token": eos,
           "enable_thinking": bool(think) if think is not None else False}
    if request.get("tools"):
        ctx["tools"] = llama_tools(request["tools"])
    ctx["datetime"] = NOW.strftime("%b %d %Y")
    ctx["date_string"] = NOW.strftime("%d %b %Y")
    ctx.update(preserve_reasoning=True, preserve_thinking=True, clear_thinking=False,
               truncate_history_thinking=False, drop_thinking=False)
    if isinstance(think, str):
        ctx["reasoning_effort"] = think
        ctx["reasoning_strength"] = think
    ctx["add_generation_prompt"] = True
    try:
        out = tmpl.render(**ctx)
    except Raised as e:
        return {"error": "Jinja Exception: %s" % e}
    if "'<|tool_call>call:'" in src and out.endswith("<turn|>\n"):
        out += "<|turn>model\n"
    return {"prompt": out}


def cases_for(name, template, bos, eos):
    thinking = "enable_thinking" in template or "reasoning_effort" in template
    out = []
    for shape, msgs, tools in SHAPES:
        req = {"model": "demo", "messages": msgs}
        if tools:
            req["tools"] = tools
        sid = shape
        if thinking:
            req["think"] = False
            sid += "+think-false"
        out.append((sid, req))
    if thinking:
        for shape, msgs, think in THINK_SHAPES:
            out.append((shape, {"model": "demo", "messages": msgs, "think": think}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--templates", default=os.path.join(
        os.environ.get("PROMPTSCOPE_UPSTREAM", os.path.expanduser("~/.cache/promptscope/upstream")),
        "llama.cpp-b11312", "models", "templates"),
        help="llama.cpp's models/templates directory (default: the upstream cache's b11312, "
             "scripts/fetch-upstream.sh)")
    args = ap.parse_args()
    sources = {}
    for name, fname, bos, eos in TEMPLATES:
        with open(os.path.join(args.templates, fname), encoding="utf-8") as f:
            sources[name] = (f.read(), bos, eos, fname)
    env = make_env()
    lines = []
    for name, _, _, _ in TEMPLATES:
        if name not in sources:
            continue
        template, bos, eos, fname = sources[name]
        for sid, req in cases_for(name, template, bos, eos):
            try:
                expect = render(env, template, bos, eos, req)
            except Exception as e:  # a template jinja2 cannot run is left out
                print("skip %s/%s: %s: %s" % (name, sid, type(e).__name__, e), file=sys.stderr)
                continue
            case = {"id": "jinja-extra-%s/%s" % (name, sid), "endpoint": "chat",
                    "model": {"name": "demo", "chat_template_file": fname, "bos_token": bos, "eos_token": eos},
                    "request": req, "date": DATE, "expect": expect}
            lines.append(json.dumps(case, ensure_ascii=False))
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")
    print("%d cases, %d templates" % (len(lines), len({l.split('"')[3].split("/")[0] for l in lines})))


if __name__ == "__main__":
    main()
