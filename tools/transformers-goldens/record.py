"""Records crates/runtime/tests/golden/transformers.jsonl: what Hugging Face
transformers' `apply_chat_template(tokenize=False)` renders, or the exception
it raises, for every chat template of llama.cpp's models/templates (b11312,
from the upstream cache) and of tests/corpus/golden/jinja.jsonl, over the
conversations below.

Runs the library's own code: a real `PreTrainedTokenizerFast` (an empty BPE
model from `tokenizers`, with the case's special tokens and chat template)
and its `apply_chat_template`, which calls `render_jinja_template`. The
clock `strftime_now` reads is fixed at the case's date, 00:00:00.

    python3 -m venv v && v/bin/pip install transformers==5.25.0 jinja2==3.1.6
    v/bin/python record.py > ../../crates/runtime/tests/golden/transformers.jsonl
"""
import datetime as _dt
import glob
import json
import os
import sys

import jinja2
import tokenizers
import transformers
from transformers import PreTrainedTokenizerFast
from transformers.utils import chat_template_utils

DATE = "2026-12-01"


class _FixedClock(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        y, m, d = map(int, DATE.split("-"))
        return cls(y, m, d, 0, 0, 0)


chat_template_utils.datetime = _FixedClock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UPSTREAM = os.environ.get("PROMPTSCOPE_UPSTREAM", os.path.expanduser("~/.cache/promptscope/upstream"))
LLAMA_TEMPLATES = os.path.join(UPSTREAM, "llama.cpp-b11312/models/templates")

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Get weather",
          "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City"},
                                                          "unit": {"type": "string", "enum": ["c", "f"]}},
                         "required": ["city"]}}}]

CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}

# (name, request): the request is the contract-v3 transformers request.
CONVERSATIONS = [
    ("multi-turn", {"messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Hello!"},
        {"role": "assistant", "content": "Hi there! How can I help?"},
        {"role": "user", "content": "What is 2+2?"}], "add_generation_prompt": True}),
    ("user-only", {"messages": [{"role": "user", "content": "Hello!"}]}),
    ("tools-round-trip", {"tools": TOOLS, "add_generation_prompt": True, "messages": [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "content": "{\"temp\": 20}", "tool_call_id": "call_1", "name": "get_weather"},
        {"role": "assistant", "content": "It is 20C.", "reasoning_content": "think think"},
        {"role": "user", "content": "thanks"}]}),
    ("parallel-calls-thinking", {"tools": TOOLS, "add_generation_prompt": True,
                                 "chat_template_kwargs": {"enable_thinking": True}, "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "ok", "reasoning_content": "hmm", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\"}"}},
            {"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
        {"role": "tool", "content": "sunny", "tool_call_id": "c1"},
        {"role": "tool", "content": "rain", "tool_call_id": "c2"}]}),
    ("content-parts", {"add_generation_prompt": True, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Describe"}, {"type": "image"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "A cat"}]},
        {"role": "user", "content": "more é ü 日本 <b>&amp;</b>"}]}),
    ("continue-final", {"continue_final_message": True, "messages": [
        {"role": "user", "content": "Write a haiku."},
        {"role": "assistant", "content": "Autumn moonlight -"}]}),
    ("thinking-off-none", {"add_generation_prompt": True, "chat_template_kwargs": {"enable_thinking": False},
                           "messages": [
        {"role": "system", "content": None},
        {"role": "user", "content": "Hi", "name": None},
        {"role": "assistant", "content": "Hello", "thinking": "greet back"},
        {"role": "user", "content": "Bye"}]}),
    ("documents", {"add_generation_prompt": True, "documents": [
        {"title": "Tides", "text": "The moon pulls the sea."},
        {"title": "Sun", "text": "The sun is a star."}], "messages": [
        {"role": "user", "content": "Why are there tides?"}]}),
    ("empty", {"messages": []}),
    ("both-flags", {"add_generation_prompt": True, "continue_final_message": True, "messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hel"}]}),
]


def tokenizer(template, special):
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    return PreTrainedTokenizerFast(tokenizer_object=tok, chat_template=template, **special)


def render(template, special, request):
    try:
        tok = tokenizer(template, special)
        kwargs = dict(request.get("chat_template_kwargs") or {})
        out = tok.apply_chat_template(
            request["messages"], tools=request.get("tools"), documents=request.get("documents"),
            add_generation_prompt=request.get("add_generation_prompt", False),
            continue_final_message=request.get("continue_final_message", False),
            tokenize=False, **kwargs)
        return {"prompt": out}
    except Exception as e:  # the exception as Python prints its last line
        return {"error": f"{type(e).__name__}: {e}"}


def templates():
    for path in sorted(glob.glob(os.path.join(LLAMA_TEMPLATES, "*.jinja"))):
        with open(path, encoding="utf-8") as f:
            yield {"chat_template_file": os.path.basename(path)}, f.read(), {"bos_token": "<s>", "eos_token": "</s>"}
    seen = set()
    with open(os.path.join(ROOT, "tests/corpus/golden/jinja.jsonl"), encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            model = case["model"]
            t = model["chat_template"]
            if t in seen:
                continue
            seen.add(t)
            special = {k: model[k] for k in ("bos_token", "eos_token") if model.get(k)}
            yield {"corpus_case": case["id"]}, t, special


def main():
    assert transformers.__version__ == "5.25.0", transformers.__version__
    assert jinja2.__version__ == "3.1.6", jinja2.__version__
    for source, template, special in templates():
        name = source.get("chat_template_file") or source["corpus_case"]
        for conv, request in CONVERSATIONS:
            row = {"id": f"{name}/{conv}", "model": dict(source, **special), "request": request, "date": DATE}
            row["expect"] = render(template, special, json.loads(json.dumps(request)))
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
