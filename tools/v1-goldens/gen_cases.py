#!/usr/bin/env python3
"""Writes the request bodies that record.py sends through Ollama's
compatibility middlewares, one JSON object a line:

    {"id": "<route>-<n>", "route": ..., "source": ..., "body": "...", "raw": true?, "env": {...}?}

    python3 tools/v1-goldens/gen_cases.py CASES.jsonl

Two kinds of case:

- ported from Ollama v0.33.0-rc2's tests (source "DIR/FILE_test.go:TestName/subtest"):
  every request body, and every request struct built in Go (written as
  the JSON a client would send), of openai/openai_test.go,
  openai/responses_test.go, anthropic/anthropic_test.go,
  middleware/openai_test.go, middleware/anthropic_test.go and
  middleware/responses_web_search_test.go that goes through one of the
  four conversions (the tests that unmarshal one piece of a request, an
  input item or a tool, have it wrapped in a minimal request);
- generated (source "generated:<what>"): SDK-like bodies and variations
  meant to reach every branch and every error return of the middlewares
  and of openai.FromChatRequest, FromCompleteRequest,
  FromResponsesRequest and anthropic.FromMessagesRequest, plus random
  (seeded, so deterministic) SDK-like conversations.

Bodies built from Python values are written with canonical numbers:
integers with neither exponent nor decimal point, other numbers with a
decimal point and no exponent. Bodies that are not one JSON object that
serde_json reads (not JSON, a top-level array or null or string, trailing
data, a lone surrogate escape) are given as text and flagged "raw".
"""

import json
import random
import sys
from decimal import Decimal

ROUTES = ["openai-chat", "openai-completions", "openai-responses", "anthropic-messages"]
CHAT, COMPL, RESP, MSGS = ROUTES

# 1x1 PNG of openai/openai_test.go (`image`) and anthropic/anthropic_test.go (`testImage`).
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII="
# 1x1 red PNG of openai/responses_test.go (`pngBase64`).
PNG_RED = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q=="
WEBP = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="
GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
MP3 = "SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4Ljc2LjEwMAAAAAAAAAAAAAAA"

CASES = []


# ---------------------------------------------------------------- writing


def num(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("not a JSON number")
    if v == 0 and str(v).startswith("-"):
        return "-0"
    if v == int(v):
        return str(int(v))
    s = format(Decimal(repr(v)), "f")
    assert "e" not in s.lower() and "." in s, s
    return s


def dump(v, style="compact", ascii=False, _ind=0):
    """JSON text of v with canonical numbers. style: compact ({"a":1}),
    spaced (Python's json.dumps default: {"a": 1}) or pretty (indent 2)."""
    if v is None:
        return "null"
    if isinstance(v, (bool, int, float)):
        return num(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=ascii)
    comma, colon = {"compact": (",", ":"), "spaced": (", ", ": "), "pretty": (",", ": ")}[style]
    pad = "\n" + "  " * (_ind + 1) if style == "pretty" else ""
    end = "\n" + "  " * _ind if style == "pretty" else ""
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = [json.dumps(k, ensure_ascii=ascii) + colon + dump(x, style, ascii, _ind + 1) for k, x in v.items()]
        return "{" + pad + (comma + pad).join(items) + end + "}"
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        items = [dump(x, style, ascii, _ind + 1) for x in v]
        return "[" + pad + (comma + pad).join(items) + end + "]"
    raise TypeError(type(v))


def add(route, source, body, raw=False, env=None, style="compact", ascii=False):
    assert route in ROUTES, route
    if not isinstance(body, str):
        body = dump(body, style, ascii)
    elif not raw:
        v = json.loads(body)  # a text body that is meant to be JSON must be
        assert isinstance(v, dict), source
    case = {"route": route, "source": source, "body": body}
    if raw:
        case["raw"] = True
    if env:
        case["env"] = env
    CASES.append(case)


def port(route, source, text, **kw):
    """A body as written in an Ollama test (a Go raw string), re-written
    with canonical numbers (3.0 in a test is 3 here)."""
    add(route, source, json.loads(text), **kw)


def user(text):
    return {"role": "user", "content": text}


def msg(role, content):
    return {"role": role, "content": content}


def tc(id, name, args, **extra):
    call = {"id": id, "type": "function", "function": {"name": name, "arguments": args}}
    call.update(extra)
    return call


WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather",
        "parameters": {
            "type": "object",
            "required": ["location"],
            "properties": {
                "location": {"type": "string", "description": "The city and state"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
        },
    },
}

TEXTS = [
    "Hello",
    "What's the weather like in Paris today?",
    "Summarize: <b>bold</b> & <i>italic</i> > plain",
    "Ünïcödé — ça va? 日本語のテキスト 😀",
    "line one\nline two\n\ttabbed\r\nwindows",
    "quote \" backslash \\ slash /",
    "separators \u2028 and \u2029 here",
    "nul \u0000 and bell \u0007 controls",
    "",
    "   ",
    "Write a haiku about JSON.",
    "x" * 300,
]


def pick(rng, xs):
    return xs[rng.randrange(len(xs))]


# ------------------------------------------------------------ openai-chat


def chat_ported():
    S = "openai/openai_test.go:"
    add(CHAT, S + "TestFromChatRequest_Basic", {"model": "test-model", "messages": [user("Hello")]})
    for name, effort in [("unset", None), ("high", "high"), ("medium", "medium"), ("low", "low"), ("max", "max"),
                         ("minimal clamps to low", "minimal"), ("xhigh clamps to max", "xhigh"),
                         ("ultra clamps to max", "ultra"), ("none disables", "none"), ("invalid", "extreme")]:
        body = {"model": "test-model", "messages": [user("hi")]}
        if effort is not None:
            body["reasoning_effort"] = effort
        add(CHAT, S + "TestFromChatRequest_ReasoningEffort/" + name, body)
    add(CHAT, S + "TestFromChatRequest_WithImage", {"model": "test-model", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Hello"},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + PNG}}]}]})
    add(CHAT, S + "TestFromChatRequest_WithLogprobs",
        {"model": "test-model", "messages": [user("Hello")], "logprobs": True, "top_logprobs": 5})
    add(CHAT, S + "TestFromChatRequest_LogprobsDefault", {"model": "test-model", "messages": [user("Hello")]})
    for n in (0, 1, 10, 20):
        add(CHAT, S + f"TestFromChatRequest_TopLogprobsRange/valid: {n}",
            {"model": "test-model", "messages": [user("Hello")], "logprobs": True, "top_logprobs": n})

    S = "middleware/openai_test.go:TestChatMiddleware/"
    W = '{"role": "user", "content": "What\'s the weather like in Paris Today?"}'
    CALL = '"tool_calls": [{"id": "id", "type": "function", "function": {"name": "get_current_weather", "arguments": "{\\"location\\": \\"Paris, France\\", \\"format\\": \\"celsius\\"}"}}]'
    port(CHAT, S + "chat handler", '{"model": "test-model", "messages": [{"role": "user", "content": "Hello"}]}', style="spaced")
    opts = '"max_tokens": 999, "seed": 123, "stop": ["\\n", "stop"], "temperature": 3.0, "frequency_penalty": 4.0, "presence_penalty": 5.0, "top_p": 6.0, "response_format": {"type": "json_object"}'
    port(CHAT, S + "chat handler with options",
         '{"model": "test-model", "messages": [{"role": "user", "content": "Hello"}], "stream": true, ' + opts + '}', style="spaced")
    port(CHAT, S + "chat handler with streaming usage",
         '{"model": "test-model", "messages": [{"role": "user", "content": "Hello"}], "stream": true, "stream_options": {"include_usage": true}, ' + opts + '}', style="spaced")
    add(CHAT, S + "chat handler with image content", {"model": "test-model", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Hello"},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + PNG}}]}]}, style="pretty")
    port(CHAT, S + "chat handler with tools",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", ' + CALL + '}]}', style="spaced")
    port(CHAT, S + "chat handler with tools and content",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", "content": "Let\'s see what the weather is like in Paris", ' + CALL + '}]}', style="spaced")
    port(CHAT, S + "chat handler with tools and empty content",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", "content": "", ' + CALL + '}]}', style="spaced")
    port(CHAT, S + "chat handler with tools and thinking content",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", "reasoning": "Let\'s see what the weather is like in Paris", ' + CALL + '}]}', style="spaced")
    port(CHAT, S + "tool response with call ID",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", ' + CALL.replace('"id": "id"', '"id": "id_abc"')
         + '}, {"role": "tool", "tool_call_id": "id_abc", "content": "The weather in Paris is 20 degrees Celsius"}]}', style="spaced")
    port(CHAT, S + "tool response with name",
         '{"model": "test-model", "messages": [' + W + ', {"role": "assistant", ' + CALL
         + '}, {"role": "tool", "name": "get_current_weather", "content": "The weather in Paris is 20 degrees Celsius"}]}', style="spaced")
    add(CHAT, S + "chat handler with streaming tools", {"model": "test-model", "messages": [
        user("What's the weather like in Paris?")], "stream": True, "tools": [WEATHER_TOOL]}, style="pretty")
    port(CHAT, S + "chat handler error forwarding",
         '{"model": "test-model", "messages": [{"role": "user", "content": 2}]}', style="spaced")


def chat_generated():
    G = "generated:"
    M = "llama3.2"

    def c(source, messages, **kw):
        body = {"model": kw.pop("model", M), "messages": messages}
        style = kw.pop("style", "compact")
        ascii = kw.pop("ascii", False)
        body.update(kw)
        add(CHAT, G + source, body, style=style, ascii=ascii)

    # -- basic shapes
    c("system and user", [msg("system", "You are a helpful assistant."), user("Hello!")])
    c("developer role", [msg("developer", "Answer in French."), user("Good morning")])
    c("multi-turn", [msg("system", "Be brief."), user("Hi"), msg("assistant", "Hello! How can I help?"), user("Tell me a joke.")])
    c("role case kept as sent", [msg("SYSTEM", "sys"), msg("User", "u"), msg("Assistant", "a"), msg("uSeR", "u2")])
    c("unknown role kept", [msg("narrator", "Once upon a time"), user("continue")])
    c("empty role", [msg("", "no role")])
    c("html characters in content (escaped by the encoder)", [user("<script>alert('x')</script> & <b>bold</b>")])
    c("unicode content, UTF-8 body", [user(TEXTS[3]), msg("assistant", TEXTS[6]), user(TEXTS[7])])
    c("unicode content, ASCII-escaped body (openai-python style)", [user(TEXTS[3]), msg("assistant", TEXTS[6])], ascii=True, style="spaced")
    c("control characters and escapes", [user(TEXTS[4]), user(TEXTS[5])])
    c("empty and blank content", [user(""), msg("assistant", "   "), user("ok")])
    c("long content", [user(("The quick brown fox jumps over the lazy dog. " * 120).strip())])
    c("model with tag and namespace", [user("hi")], model="hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M")
    c("empty model (not checked on this route)", [user("hi")], model="")
    add(CHAT, G + "model missing (not checked on this route)", {"messages": [user("hi")]})
    c("name on a user message (dropped)", [{"role": "user", "name": "alice", "content": "hi"}])
    c("stream true", [user("hi")], stream=True)
    c("stream false", [user("hi")], stream=False)
    c("stream_options without stream (dropped)", [user("hi")], stream=False, stream_options={"include_usage": True})
    c("_debug_render_only true", [user("hi")], _debug_render_only=True)
    c("_debug_render_only false", [user("hi")], _debug_render_only=False)
    c("unknown OpenAI fields (dropped)", [user("hi")], user="user-1234", n=1, logit_bias={"50256": -100},
      parallel_tool_calls=False, tool_choice="auto", store=True, metadata={"k": "v"}, service_tier="default",
      max_completion_tokens=64, modalities=["text"], prediction={"type": "content", "content": "x"},
      web_search_options={}, functions=[{"name": "f"}], function_call="none", verbosity="low")
    c("pretty-printed body", [msg("system", "sys"), user("pretty")], style="pretty", temperature=0.2)

    # -- content parts
    def part_text(t):
        return {"type": "text", "text": t}

    def part_img(url, **kw):
        return {"type": "image_url", "image_url": dict({"url": url}, **kw)}

    c("parts: several text parts become several messages", [{"role": "user", "content": [part_text("one"), part_text("two"), part_text("three")]}])
    for mime, data in [("jpeg", JPEG), ("jpg", JPEG), ("png", PNG), ("webp", WEBP)]:
        c(f"parts: image_url object, data:image/{mime}", [{"role": "user", "content": [part_text("What is this?"), part_img(f"data:image/{mime};base64,{data}")]}])
    c("parts: image_url object, blank mime data:;base64,", [{"role": "user", "content": [part_img("data:;base64," + PNG)]}])
    c("parts: image_url as a string", [{"role": "user", "content": [part_text("Describe"), {"type": "image_url", "image_url": "data:image/png;base64," + PNG_RED}]}])
    c("parts: image_url with detail", [{"role": "user", "content": [part_img("data:image/png;base64," + PNG, detail="high"), part_text("caption?")]}])
    c("parts: two images then text", [{"role": "user", "content": [part_img("data:image/png;base64," + PNG), part_img("data:image/webp;base64," + WEBP), part_text("compare")]}])
    c("parts: input_audio wav", [{"role": "user", "content": [part_text("Transcribe"), {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}}]}])
    c("parts: input_audio mp3", [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": MP3, "format": "mp3"}}]}])
    c("parts: extra keys on parts (cache_control)", [{"role": "user", "content": [{"type": "text", "text": "cached", "cache_control": {"type": "ephemeral"}}]}])
    c("parts: assistant parts with tool_calls and reasoning (on the last part's message)", [
        user("weather?"),
        {"role": "assistant", "content": [part_text("Let me check."), part_text("One moment.")], "reasoning": "need tool",
         "tool_calls": [tc("call_1", "get_weather", '{"location":"Paris"}')]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}])
    c("parts: tool message with parts loses tool_call_id and name", [
        user("weather?"), {"role": "assistant", "tool_calls": [tc("call_9", "get_weather", '{"location":"Oslo"}')]},
        {"role": "tool", "tool_call_id": "call_9", "name": "get_weather", "content": [part_text("cold"), part_text(" and dark")]}])
    c("parts: reasoning dropped without tool_calls", [{"role": "assistant", "reasoning": "hmm", "content": [part_text("answer")]}, user("next")])
    c("parts: empty array gives no message", [{"role": "user", "content": []}, user("after")])
    c("parts: the only message empty gives messages null", [{"role": "user", "content": []}])
    c("parts: empty array with tool_calls (dropped with it)", [{"role": "assistant", "content": [], "tool_calls": [tc("c1", "f", "{}")]}])
    # invalid parts
    c("parts: http image URL", [{"role": "user", "content": [part_img("http://example.com/cat.png")]}])
    c("parts: https image URL", [{"role": "user", "content": [part_text("look"), part_img("https://example.com/cat.jpg")]}])
    c("parts: gif data URI", [{"role": "user", "content": [part_img("data:image/gif;base64," + GIF)]}])
    c("parts: text/plain data URI", [{"role": "user", "content": [part_img("data:text/plain;base64,aGVsbG8=")]}])
    c("parts: upper-case mime", [{"role": "user", "content": [part_img("data:image/PNG;base64," + PNG)]}])
    c("parts: invalid base64", [{"role": "user", "content": [part_img("data:image/png;base64,not-valid-base64!")]}])
    c("parts: base64 without padding", [{"role": "user", "content": [part_img("data:image/png;base64,iVBORw0KGgoAAA")]}])
    c("parts: url-safe base64", [{"role": "user", "content": [part_img("data:image/jpeg;base64,_9j_4AAQ")]}])
    c("parts: image_url object without url", [{"role": "user", "content": [{"type": "image_url", "image_url": {"detail": "low"}}]}])
    c("parts: image_url null", [{"role": "user", "content": [{"type": "image_url", "image_url": None}]}])
    c("parts: image_url number", [{"role": "user", "content": [{"type": "image_url", "image_url": 7}]}])
    c("parts: url number", [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": 1}}]}])
    c("parts: text not a string", [{"role": "user", "content": [{"type": "text", "text": 42}]}])
    c("parts: text missing", [{"role": "user", "content": [{"type": "text"}]}])
    c("parts: part is a string", [{"role": "user", "content": ["hello"]}])
    c("parts: part without type", [{"role": "user", "content": [{"text": "hi"}]}])
    c("parts: unknown part type file", [{"role": "user", "content": [{"type": "file", "file": {"file_id": "f1"}}]}])
    c("parts: unknown part type refusal", [{"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]}])
    c("parts: input_audio not an object", [{"role": "user", "content": [{"type": "input_audio", "input_audio": WAV}]}])
    c("parts: input_audio without data", [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"format": "wav"}}]}])
    c("parts: input_audio invalid base64", [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "UklG RiQ=", "format": "wav"}}]}])
    c("parts: error after a good part", [{"role": "user", "content": [part_text("ok"), part_img("https://x.test/a.png")]}])

    # -- tool calls
    c("tool call: nested arguments", [user("book"), {"role": "assistant", "content": None, "tool_calls": [
        tc("call_a", "book_flight", '{"from":"SFO","to":"JFK","passengers":[{"name":"A","age":30},{"name":"B","age":null}],"options":{"class":"economy","refundable":false}}')]}])
    c("tool call: number formats in arguments", [{"role": "assistant", "tool_calls": [
        tc("n", "nums", '{"int":10,"float":1.5,"exp":1e3,"small":1e-7,"big":12345678901234567890,"neg":-0,"frac":0.1,"one":1.0}')]}])
    c("tool call: argument key order kept", [{"role": "assistant", "tool_calls": [tc("o", "order", '{"zeta":1,"alpha":2,"mid":{"z":true,"a":false}}')]}])
    c("tool call: duplicate key in arguments", [{"role": "assistant", "tool_calls": [tc("d", "dup", '{"a":1,"b":2,"a":3}')]}])
    c("tool call: html and unicode in arguments", [{"role": "assistant", "tool_calls": [tc("h", "html", '{"q":"<a href=\\"x\\">&amp;</a>","u":"\\u00e9\\ud83d\\ude00","raw":"ü"}')]}])
    c("tool call: empty object arguments", [{"role": "assistant", "tool_calls": [tc("e", "noop", "{}")]}])
    c("tool call: whitespace around arguments", [{"role": "assistant", "tool_calls": [tc("w", "ws", '  {\n  "a" : [ 1 , 2 ]\n}  ')]}])
    c("tool call: null arguments", [{"role": "assistant", "tool_calls": [tc("z", "nul", "null")]}])
    c("tool call: several calls, ids, index", [user("two things"), {"role": "assistant", "content": "", "tool_calls": [
        tc("call_1", "get_weather", '{"city":"Paris"}', index=0), tc("call_2", "get_time", '{"tz":"Europe/Paris"}', index=1)]},
        {"role": "tool", "tool_call_id": "call_2", "content": "12:00"}, {"role": "tool", "tool_call_id": "call_1", "content": "rain"}])
    c("tool call: no id and no type", [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{\"x\":1}"}}]}])
    c("tool result: name wins over tool_call_id", [{"role": "assistant", "tool_calls": [tc("c1", "lookup", "{}")]},
                                                   {"role": "tool", "name": "other", "tool_call_id": "c1", "content": "r"}])
    c("tool result: unmatched tool_call_id", [{"role": "assistant", "tool_calls": [tc("c1", "lookup", "{}")]},
                                              {"role": "tool", "tool_call_id": "nope", "content": "r"}])
    c("tool result: duplicate ids, last one wins", [
        {"role": "assistant", "tool_calls": [tc("same", "first", "{}")]}, {"role": "tool", "tool_call_id": "same", "content": "1"},
        {"role": "assistant", "tool_calls": [tc("same", "second", "{}")]}, {"role": "tool", "tool_call_id": "same", "content": "2"}])
    c("tool result: upper-case role TOOL still looks up the name", [{"role": "assistant", "tool_calls": [tc("c1", "lookup", "{}")]},
                                                                    {"role": "TOOL", "tool_call_id": "c1", "content": "r"}])
    c("tool result: name on a non-tool message (dropped)", [{"role": "assistant", "name": "bot", "tool_call_id": "c1", "content": "x"}])
    c("tool result: no name, no id", [{"role": "tool", "content": "orphan"}])
    c("tool call: content missing", [{"role": "assistant", "tool_calls": [tc("c", "f", "{}")]}])
    c("tool call: reasoning with null content", [{"role": "assistant", "content": None, "reasoning": "think", "tool_calls": [tc("c", "f", "{}")]}])
    c("tool call: empty tool_calls with null content", [{"role": "assistant", "content": None, "tool_calls": []}, user("hi")])
    c("reasoning on a string message", [user("q"), {"role": "assistant", "content": "a", "reasoning": "because"}])
    c("tool_calls null on a string message", [{"role": "assistant", "content": "plain", "tool_calls": None}])
    # invalid
    c("tool call: invalid JSON arguments", [{"role": "assistant", "tool_calls": [tc("c", "f", "{bad json")]}])
    c("tool call: empty arguments", [{"role": "assistant", "tool_calls": [tc("c", "f", "")]}])
    c("tool call: array arguments", [{"role": "assistant", "tool_calls": [tc("c", "f", "[1,2]")]}])
    c("tool call: string arguments", [{"role": "assistant", "tool_calls": [tc("c", "f", '"just text"')]}])
    c("tool call: number arguments", [{"role": "assistant", "tool_calls": [tc("c", "f", "42")]}])
    c("tool call: arguments truncated", [{"role": "assistant", "content": "x", "tool_calls": [tc("c", "f", '{"a":')]}])
    c("tool call: arguments as an object, not a string", [{"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]}])
    c("tool call: bad arguments in parts message", [{"role": "assistant", "content": [part_text("x")], "tool_calls": [tc("c", "f", "nope")]}])
    c("content null without tool_calls", [{"role": "user", "content": None}])
    c("content missing without tool_calls", [{"role": "user"}])
    c("content bool", [{"role": "user", "content": True}])
    c("content object", [{"role": "user", "content": {"type": "text", "text": "hi"}}])

    # -- options
    for label, stop in [("string", "END"), ("array", ["\n\n", "User:"]), ("empty string", ""),
                        ("mixed array keeps strings", ["a", 1, None, True, "b", {"x": 1}]),
                        ("empty array", []), ("array without strings", [1, 2]), ("number (ignored)", 5),
                        ("null", None), ("object (ignored)", {"a": "b"})]:
        c("stop " + label, [user("count")], stop=stop)
    for label, v in [("0", 0), ("-1", -1), ("4096", 4096), ("null", None), ("max int64", 9223372036854775807)]:
        c("max_tokens " + label, [user("hi")], max_tokens=v)
    for label, v in [("0", 0), ("0.7", 0.7), ("2", 2), ("null (default 1)", None), ("1e-7 written out", 0.0000001),
                     ("-0", -0.0), ("0.30000000000000004", 0.30000000000000004)]:
        body_t = v
        c("temperature " + label, [user("hi")], temperature=body_t)
    for label, v in [("0.9", 0.9), ("0", 0), ("null (default 1)", None), ("1e23 written out", 1e23)]:
        c("top_p " + label, [user("hi")], top_p=v)
    c("seed", [user("hi")], seed=42)
    c("seed negative", [user("hi")], seed=-7, temperature=0)
    c("seed null", [user("hi")], seed=None)
    c("penalties", [user("hi")], frequency_penalty=0.5, presence_penalty=-0.5)
    c("frequency_penalty only", [user("hi")], frequency_penalty=1.25)
    c("presence_penalty zero", [user("hi")], presence_penalty=0)
    c("penalties null", [user("hi")], frequency_penalty=None, presence_penalty=None)
    c("all options", [msg("system", "s"), user("u")], max_tokens=256, seed=7, stop=["###"], temperature=0.25,
      frequency_penalty=0.1, presence_penalty=0.2, top_p=0.95, logprobs=True, top_logprobs=2, stream=True)
    SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "description": "a <name> & more"},
                                               "age": {"type": "integer", "minimum": 0}}, "required": ["name", "age"],
              "additionalProperties": False}
    for label, rf in [("json_object", {"type": "json_object"}), ("JSON_OBJECT upper case", {"type": "JSON_OBJECT"}),
                      ("json_object with spaces", {"type": "  json_object\t"}),
                      ("json_schema", {"type": "json_schema", "json_schema": {"name": "person", "strict": True, "schema": SCHEMA}}),
                      ("json_schema without json_schema", {"type": "json_schema"}),
                      ("json_schema without schema", {"type": "json_schema", "json_schema": {"name": "x"}}),
                      ("json_schema with schema null", {"type": "json_schema", "json_schema": {"schema": None}}),
                      ("json_schema with a string schema", {"type": "json_schema", "json_schema": {"schema": "json"}}),
                      ("text", {"type": "text"}), ("type missing", {}), ("null", None),
                      ("unknown type", {"type": "xml"})]:
        c("response_format " + label, [user("give json")], response_format=rf)
    add(CHAT, G + "response_format json_schema, pretty-printed (compacted on output)",
        {"model": M, "messages": [user("give json")], "response_format": {"type": "json_schema", "json_schema": {"name": "p", "schema": SCHEMA}}},
        style="pretty")
    for effort in ["none", "minimal", "low", "medium", "high", "max", "xhigh", "ultra", "", "HIGH", "extreme", "auto"]:
        c(f"reasoning.effort {effort!r}", [user("think")], reasoning={"effort": effort})
    for effort in ["minimal", "xhigh", "none", "", "Medium"]:
        c(f"reasoning_effort {effort!r}", [user("think")], reasoning_effort=effort)
    c("reasoning {} wins over reasoning_effort", [user("think")], reasoning={}, reasoning_effort="high")
    c("reasoning null falls back to reasoning_effort", [user("think")], reasoning=None, reasoning_effort="low")
    c("reasoning_effort null", [user("think")], reasoning_effort=None)
    c("reasoning with summary (ignored)", [user("think")], reasoning={"effort": "high", "summary": "auto"})
    c("logprobs false keeps top_logprobs", [user("hi")], logprobs=False, top_logprobs=3)
    c("logprobs null", [user("hi")], logprobs=None, top_logprobs=0)
    c("top_logprobs without logprobs", [user("hi")], top_logprobs=4)

    # -- tools
    c("tools: several tools", [user("plan")], tools=[WEATHER_TOOL, {"type": "function", "function": {
        "name": "search", "description": "Search the web", "parameters": {"type": "object", "properties": {
            "query": {"type": "string"}, "limit": {"type": "integer", "description": "max results"}}, "required": ["query"]}}}])
    c("tools: anyOf, type arrays, enums of numbers, items, nested properties", [user("x")], tools=[{"type": "function", "function": {
        "name": "complex", "description": "Complex <schema> & co", "strict": True, "parameters": {
            "type": "object", "$defs": {"pos": {"type": "integer"}}, "properties": {
                "maybe": {"type": ["string", "null"]}, "choice": {"anyOf": [{"type": "string"}, {"type": "number"}]},
                "level": {"type": "integer", "enum": [1, 2, 3.5]}, "tags": {"type": "array", "items": {"type": "string"}},
                "obj": {"type": "object", "properties": {"z": {"type": "boolean"}, "a": {"type": "string"}}, "required": ["z"]},
                "free": {}},
            "required": ["choice"], "additionalProperties": False}}}])
    c("tools: parameters missing", [user("x")], tools=[{"type": "function", "function": {"name": "ping"}}])
    c("tools: parameters without properties", [user("x")], tools=[{"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}}])
    c("tools: items on the tool and on the parameters", [user("x")], tools=[{"type": "function", "items": {"type": "string"}, "function": {
        "name": "list", "parameters": {"type": "array", "items": {"type": "number"}}}}])
    c("tools: custom type kept", [user("x")], tools=[{"type": "custom", "function": {"name": "free_text"}}])
    c("tools: empty array", [user("x")], tools=[])
    c("tools: null", [user("x")], tools=None)
    c("tools: type missing", [user("x")], tools=[{"function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}])
    # invalid tools
    c("tools: property type number", [user("x")], tools=[{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"a": {"type": 5}}}}}])
    c("tools: properties an array", [user("x")], tools=[{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": ["a"]}}}])
    c("tools: required a string", [user("x")], tools=[{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "required": "a"}}}])
    c("tools: an object, not an array", [user("x")], tools=WEATHER_TOOL)
    c("tools: function name a number", [user("x")], tools=[{"type": "function", "function": {"name": 3}}])

    # -- wrong types at every level
    for label, body in [
        ("model number", {"model": 1, "messages": [user("hi")]}),
        ("messages object", {"model": M, "messages": {"role": "user", "content": "hi"}}),
        ("messages string", {"model": M, "messages": "hi"}),
        ("message a number", {"model": M, "messages": [1]}),
        ("role number", {"model": M, "messages": [{"role": 1, "content": "hi"}]}),
        ("name number", {"model": M, "messages": [{"role": "tool", "name": 2, "content": "x"}]}),
        ("tool_call_id number", {"model": M, "messages": [{"role": "tool", "tool_call_id": 3, "content": "x"}]}),
        ("reasoning number on a message", {"model": M, "messages": [{"role": "assistant", "content": "x", "reasoning": 1}]}),
        ("tool_calls object", {"model": M, "messages": [{"role": "assistant", "tool_calls": {"id": "x"}}]}),
        ("tool_calls entry a string", {"model": M, "messages": [{"role": "assistant", "tool_calls": ["x"]}]}),
        ("tool call id number", {"model": M, "messages": [{"role": "assistant", "tool_calls": [{"id": 1, "function": {"name": "f", "arguments": "{}"}}]}]}),
        ("tool call index 1.5", {"model": M, "messages": [{"role": "assistant", "tool_calls": [{"id": "a", "index": 1.5, "function": {"name": "f", "arguments": "{}"}}]}]}),
        ("tool call function a string", {"model": M, "messages": [{"role": "assistant", "tool_calls": [{"id": "a", "function": "f"}]}]}),
        ("stream string", {"model": M, "messages": [user("hi")], "stream": "true"}),
        ("stream_options.include_usage string", {"model": M, "messages": [user("hi")], "stream_options": {"include_usage": "yes"}}),
        ("stream_options an array", {"model": M, "messages": [user("hi")], "stream_options": []}),
        ("max_tokens 1.5", {"model": M, "messages": [user("hi")], "max_tokens": 1.5}),
        ("max_tokens string", {"model": M, "messages": [user("hi")], "max_tokens": "100"}),
        ("max_tokens past int64", {"model": M, "messages": [user("hi")], "max_tokens": 99999999999999999999}),
        ("seed 1.5", {"model": M, "messages": [user("hi")], "seed": 1.5}),
        ("temperature string", {"model": M, "messages": [user("hi")], "temperature": "hot"}),
        ("top_p bool", {"model": M, "messages": [user("hi")], "top_p": True}),
        ("frequency_penalty string", {"model": M, "messages": [user("hi")], "frequency_penalty": "0.5"}),
        ("response_format string", {"model": M, "messages": [user("hi")], "response_format": "json_object"}),
        ("response_format.type number", {"model": M, "messages": [user("hi")], "response_format": {"type": 1}}),
        ("reasoning string", {"model": M, "messages": [user("hi")], "reasoning": "high"}),
        ("reasoning_effort number", {"model": M, "messages": [user("hi")], "reasoning_effort": 2}),
        ("logprobs string", {"model": M, "messages": [user("hi")], "logprobs": "yes"}),
        ("top_logprobs 1.5", {"model": M, "messages": [user("hi")], "top_logprobs": 1.5}),
        ("_debug_render_only number", {"model": M, "messages": [user("hi")], "_debug_render_only": 1}),
    ]:
        add(CHAT, G + "wrong type: " + label, body)
    add(CHAT, G + "messages null", {"model": M, "messages": None})
    add(CHAT, G + "messages missing", {"model": M})
    add(CHAT, G + "messages empty (with other fields)", {"model": M, "messages": [], "stream": True, "tools": [WEATHER_TOOL]})

    # -- case-variant and case-folded keys (encoding/json matches field names without regard to case, with Unicode folding)
    add(CHAT, G + "keys: Model, MESSAGES", {"Model": M, "MESSAGES": [{"Role": "user", "CONTENT": "hi"}]})
    add(CHAT, G + "keys: Max_Tokens, TEMPERATURE, Top_P, Stream", {"model": M, "messages": [user("hi")], "Max_Tokens": 5, "TEMPERATURE": 0.5, "Top_P": 0.5, "Stream": True})
    add(CHAT, G + "keys: Tool_Calls, Function, ARGUMENTS", {"model": M, "messages": [{"role": "assistant", "Tool_Calls": [{"ID": "x", "Function": {"NAME": "f", "ARGUMENTS": "{}"}}]}]})
    add(CHAT, G + "keys: long s (U+017F) folds to s", {"model": M, "me\u017f\u017fages": [user("hi")], "\u017ftream": True})
    add(CHAT, G + "keys: Kelvin sign (U+212A) folds to k", {"model": M, "messages": [user("hi")], "max_to\u212aens": 12})
    add(CHAT, G + "keys: near misses are unknown fields", {"model": M, "messages": [user("hi")], "max-tokens": 5, "maxTokens": 6, "top p": 0.1})

    # -- realistic SDK conversations (seeded)
    rng = random.Random(1001)
    for i in range(60):
        msgs = []
        if rng.random() < 0.6:
            msgs.append(msg(pick(rng, ["system", "developer"]), pick(rng, ["You are a helpful assistant.", "Answer concisely.", "Réponds en français.", TEXTS[2]])))
        turns = rng.randrange(1, 4)
        for t in range(turns):
            if rng.random() < 0.25:
                msgs.append({"role": "user", "content": [part_text(pick(rng, TEXTS[:8])), part_img("data:image/png;base64," + PNG)]})
            else:
                msgs.append(user(pick(rng, TEXTS)))
            if t < turns - 1:
                if rng.random() < 0.4:
                    cid = f"call_{rng.randrange(10**6):06d}"
                    msgs.append({"role": "assistant", "content": None, "tool_calls": [tc(cid, "get_weather", json.dumps({"location": pick(rng, ["Paris", "Tōkyō", "São Paulo"]), "unit": "celsius"}))]})
                    msgs.append({"role": "tool", "tool_call_id": cid, "content": json.dumps({"temp": rng.randrange(-10, 35)})})
                msgs.append(msg("assistant", pick(rng, ["Sure!", "Here you go: <ok>", "Voilà.", ""])))
        body = {"model": pick(rng, ["gpt-oss:20b", "llama3.2", "qwen3:8b", "gemma3"]), "messages": msgs}
        for k, gen in [("temperature", lambda: pick(rng, [0, 0.2, 0.7, 1, 1.3])), ("top_p", lambda: pick(rng, [0.1, 0.9, 1])),
                       ("max_tokens", lambda: pick(rng, [16, 512, 4096])), ("seed", lambda: rng.randrange(1000)),
                       ("stop", lambda: pick(rng, ["\n", ["</s>", "User:"]])), ("stream", lambda: rng.random() < 0.5),
                       ("tools", lambda: [WEATHER_TOOL]), ("reasoning_effort", lambda: pick(rng, ["low", "medium", "high", "minimal"])),
                       ("response_format", lambda: {"type": "json_object"}), ("n", lambda: 1), ("user", lambda: "u-1")]:
            if rng.random() < 0.35:
                body[k] = gen()
        if body.get("stream") and rng.random() < 0.5:
            body["stream_options"] = {"include_usage": True}
        add(CHAT, G + f"sdk conversation {i + 1}", body, style=pick(rng, ["compact", "spaced"]), ascii=rng.random() < 0.5)


# ----------------------------------------------------- openai-completions


def completions_ported():
    S = "openai/openai_test.go:"
    add(COMPL, S + "TestFromCompleteRequest_Basic", {"model": "test-model", "prompt": "Hello", "temperature": 0.8})
    add(COMPL, S + "TestFromCompleteRequest_WithLogprobs", {"model": "test-model", "prompt": "Hello", "logprobs": 5})
    S = "middleware/openai_test.go:TestCompletionsMiddleware/"
    port(COMPL, S + "completions handler",
         '{"model": "test-model", "prompt": "Hello", "temperature": 0.8, "stop": ["\\n", "stop"], "suffix": "suffix"}', style="spaced")
    port(COMPL, S + "completions handler stream",
         '{"model": "test-model", "prompt": "Hello", "stream": true, "temperature": 0.8, "stop": ["\\n", "stop"], "suffix": "suffix"}', style="spaced")
    port(COMPL, S + "completions handler stream with usage",
         '{"model": "test-model", "prompt": "Hello", "stream": true, "stream_options": {"include_usage": true}, "temperature": 0.8, "stop": ["\\n", "stop"], "suffix": "suffix"}', style="spaced")
    port(COMPL, S + "completions handler error forwarding",
         '{"model": "test-model", "prompt": "Hello", "temperature": null, "stop": [1, 2], "suffix": "suffix"}', style="spaced")


def completions_generated():
    G = "generated:"
    M = "qwen2.5-coder:1.5b"

    def c(source, prompt="def fib(n):", **kw):
        body = {"model": kw.pop("model", M)}
        if prompt is not None:
            body["prompt"] = prompt
        style = kw.pop("style", "compact")
        body.update(kw)
        add(COMPL, G + source, body, style=style)

    c("minimal")
    c("empty prompt", prompt="")
    c("prompt missing", prompt=None)
    add(COMPL, G + "prompt null", {"model": M, "prompt": None})
    c("unicode and html prompt", prompt="<|fim_prefix|>é 😀 & <tag>\u2028")
    c("long prompt", prompt="lorem ipsum " * 400)
    c("fill in the middle: suffix", prompt="def add(a, b):\n    ", suffix="\n    return result\n")
    c("empty model", model="")
    c("stream true", stream=True)
    c("stream with include_usage", stream=True, stream_options={"include_usage": True})
    c("stream_options include_usage false", stream=True, stream_options={"include_usage": False})
    c("_debug_render_only", _debug_render_only=True)
    for label, stop in [("string", "\n\n"), ("array", ["\ndef ", "\nclass "]), ("empty array", []), ("null", None),
                        ("number (ignored)", 3), ("object (ignored)", {"a": 1}), ("empty string", "")]:
        c("stop " + label, stop=stop)
    for label, stop in [("array with a number", ["a", 1]), ("array with null", [None]), ("array with bool", [True]),
                        ("array with an object", ["x", {"k": "v"}]), ("array with an array", [["nested"]])]:
        c("stop " + label, stop=stop)
    for label, v in [("0", 0), ("-5", -5), ("128", 128), ("null", None)]:
        c("max_tokens " + label, max_tokens=v)
    for label, v in [("0", 0), ("0.1 (float32)", 0.1), ("0.7 (float32)", 0.7), ("1.1 (float32)", 1.1),
                     ("0.333 (float32)", 0.333), ("1e-7 written out (float32)", 0.0000001), ("2", 2), ("null", None),
                     ("3.4028235e38 written out", 340282350000000000000000000000000000000)]:
        c("temperature " + label, temperature=v)
    for label, v in [("0 (default 1)", 0), ("0.5", 0.5), ("0.95 (float32)", 0.95), ("null", None), ("-1", -1)]:
        c("top_p " + label, top_p=v)
    c("penalties (float32, always sent)", frequency_penalty=0.1, presence_penalty=1.7)
    c("penalties null", frequency_penalty=None, presence_penalty=None)
    c("seed", seed=1234, temperature=0)
    c("seed null", seed=None)
    for label, v in [("0", 0), ("-1", -1), ("1", 1), ("null", None)]:
        c("logprobs " + label, logprobs=v)
    c("unknown fields (echo, best_of, n, logit_bias, user)", echo=True, best_of=2, n=1, logit_bias={"1": 2}, user="u")
    c("all options", max_tokens=64, temperature=0.2, top_p=0.9, seed=3, stop=["\n"], frequency_penalty=0.5,
      presence_penalty=0.5, logprobs=2, suffix="x", stream=True, stream_options={"include_usage": True}, style="pretty")
    add(COMPL, G + "keys: PROMPT, Model, \u017fuffix (long s)", {"Model": M, "PROMPT": "p", "\u017fuffix": "s", "Max_Tokens": 3})
    # wrong types
    for label, body in [
        ("prompt array (only strings are supported)", {"model": M, "prompt": ["a", "b"]}),
        ("prompt tokens", {"model": M, "prompt": [1, 2, 3]}),
        ("prompt number", {"model": M, "prompt": 5}),
        ("model number", {"model": 5, "prompt": "p"}),
        ("suffix number", {"model": M, "prompt": "p", "suffix": 1}),
        ("temperature string", {"model": M, "prompt": "p", "temperature": "0.5"}),
        ("temperature past float32", {"model": M, "prompt": "p", "temperature": 1000000000000000000000000000000000000000}),
        ("top_p string", {"model": M, "prompt": "p", "top_p": "1"}),
        ("frequency_penalty bool", {"model": M, "prompt": "p", "frequency_penalty": False}),
        ("max_tokens 2.5", {"model": M, "prompt": "p", "max_tokens": 2.5}),
        ("logprobs bool", {"model": M, "prompt": "p", "logprobs": True}),
        ("seed string", {"model": M, "prompt": "p", "seed": "1"}),
        ("stream number", {"model": M, "prompt": "p", "stream": 1}),
    ]:
        add(COMPL, G + "wrong type: " + label, body)

    # -- SDK-like (editor completion, FIM) requests, seeded
    rng = random.Random(1501)
    prefixes = ["def fib(n):\n    ", "<|fim_prefix|>fn main() {\n    <|fim_suffix|>\n}<|fim_middle|>", "// Sort <T> & return\nfunction sort(xs) {",
                "SELECT * FROM users WHERE name = '", "Once upon a time, in Zürich, ", "import numpy as np\n\n"]
    for i in range(20):
        body = {"model": pick(rng, [M, "codellama:7b-code", "starcoder2:3b", "deepseek-coder-v2:16b"]), "prompt": pick(rng, prefixes)}
        for k, gen in [("suffix", lambda: pick(rng, ["\n    return a\n", "}\n", ""])), ("max_tokens", lambda: pick(rng, [16, 64, 256])),
                       ("temperature", lambda: pick(rng, [0, 0.2, 0.6, 1])), ("top_p", lambda: pick(rng, [0.5, 0.95, 1])),
                       ("stop", lambda: pick(rng, ["\n\n", ["\ndef ", "\nclass "], []])), ("stream", lambda: rng.random() < 0.5),
                       ("seed", lambda: rng.randrange(100)), ("frequency_penalty", lambda: pick(rng, [0, 0.5])),
                       ("presence_penalty", lambda: pick(rng, [0, 0.25])), ("logprobs", lambda: pick(rng, [0, 1, 5])),
                       ("n", lambda: 1), ("echo", lambda: False), ("user", lambda: "editor")]:
            if rng.random() < 0.4:
                body[k] = gen()
        if body.get("stream") and rng.random() < 0.5:
            body["stream_options"] = {"include_usage": True}
        add(COMPL, G + f"sdk completion {i + 1}", body, style=pick(rng, ["compact", "spaced"]), ascii=rng.random() < 0.5)


# ------------------------------------------------------- openai-responses


def resp_ported():
    S = "openai/responses_test.go:"

    def wrap_item(source, item, model="test-model"):
        add(RESP, S + source, {"model": model, "input": [json.loads(item)]})

    for name, item in [
        ("text content", '{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}'),
        ("image content", '{"type": "message", "role": "user", "content": [{"type": "input_image", "detail": "auto", "image_url": "https://example.com/img.png"}]}'),
        ("multiple content items", '{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}, {"type": "input_text", "text": "world"}]}'),
        ("unknown content type", '{"type": "message", "role": "user", "content": [{"type": "unknown"}]}'),
    ]:
        wrap_item("TestResponsesInputMessage_UnmarshalJSON/" + name, item)
    for name, inp in [
        ("plain string", '"hello world"'),
        ("array with one message", '[{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}]'),
        ("array with multiple messages", '[{"type": "message", "role": "system", "content": [{"type": "input_text", "text": "you are helpful"}]}, {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}]'),
        ("invalid input", "123"),
    ]:
        add(RESP, S + "TestResponsesInput_UnmarshalJSON/" + name, {"model": "test-model", "input": json.loads(inp)})
    for name, item in [
        ("message item", '{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}'),
        ("function_call item", '{"type": "function_call", "call_id": "call_abc123", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}'),
        ("function_call_output item", '{"type": "function_call_output", "call_id": "call_abc123", "output": "the result"}'),
        ("function_call_output item with content array", '{"type": "function_call_output", "call_id": "call_abc123", "output": [{"type": "input_text", "text": "the result"}]}'),
        ("web_search_call item", '{"type":"web_search_call","id":"ws_123","status":"completed","action":{"type":"search","query":"Parth Sareen"}}'),
        ("unknown item type", '{"type": "unknown_type"}'),
        ("missing type field", '{"content": "hello"}'),
        ("empty type field", '{"type": ""}'),
    ]:
        wrap_item("TestUnmarshalResponsesInputItem/" + name, item)
    add(RESP, S + "TestFromResponsesRequestIgnoresReplayedWebSearchCall", {"model": "test", "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Who is Parth Sareen?"}]},
        {"type": "web_search_call", "id": "ws_123", "status": "completed", "action": {"type": "search", "query": "Parth Sareen"}},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "He works at Ollama."}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What do you think of him?"}]}]})
    port(RESP, S + "TestFromResponsesRequestMergesMessageAfterFunctionCall", '{"model": "kimi-k3:cloud", "input": [{"role": "user", "content": "Find Ollama and inspect the current directory."}, {"type": "web_search_call", "id": "ws_test", "status": "completed", "action": {"type": "search", "query": "Ollama"}}, {"type": "function_call", "call_id": "call_test", "name": "exec_command", "arguments": "{\\"cmd\\":\\"pwd\\"}"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I found Ollama and will inspect the directory."}]}, {"type": "function_call_output", "call_id": "call_test", "output": "/tmp"}]}', style="pretty")
    port(RESP, S + "TestResponsesRequest_UnmarshalJSON/simple string input", '{"model": "gpt-oss:20b", "input": "hello"}', style="spaced")
    port(RESP, S + "TestResponsesRequest_UnmarshalJSON/array input with messages", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}]}', style="spaced")
    port(RESP, S + "TestResponsesRequest_UnmarshalJSON/with temperature", '{"model": "gpt-oss:20b", "input": "hello", "temperature": 0.5}', style="spaced")
    port(RESP, S + "TestFromResponsesRequest_Tools", '{"model": "gpt-oss:20b", "input": "hello", "tools": [{"type": "function", "name": "shell", "description": "Runs a shell command", "strict": false, "parameters": {"type": "object", "properties": {"command": {"type": "array", "items": {"type": "string"}, "description": "The command to execute"}}, "required": ["command"]}}]}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_WebSearchTool", '{"model": "gpt-oss:20b", "input": "latest news", "tools": [{"type": "web_search"}, {"type": "function", "name": "web_search", "description": "client collision", "parameters": {"type": "object"}}, {"type": "function", "name": "weather", "description": "weather", "parameters": {"type": "object"}}]}')
    for decl in ['{"type":"web_search","filters":{"allowed_domains":["example.com"]}}',
                 '{"type":"web_search","user_location":{"type":"approximate"}}',
                 '{"type":"web_search","search_context_size":"high"}']:
        add(RESP, S + "TestFromResponsesRequest_WebSearchIgnoresUnknownControls/" + decl,
            {"model": "test", "input": "hi", "tools": [json.loads(decl)]})
    port(RESP, S + "TestFromResponsesRequest_NamespaceTools", '{"model": "gpt-oss:20b", "input": "hello", "tools": [{"type": "namespace", "name": "muse", "description": "Muse Code tool set.", "tools": [{"type": "function", "name": "bash", "description": "Runs a shell command", "strict": true, "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}, {"type": "function", "name": "muse.read_file", "description": "Reads a file", "strict": true, "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]}, {"type": "function", "name": "plain", "description": "A non-namespaced tool", "strict": false, "parameters": {"type": "object"}}]}', style="pretty")
    for name, effort in [("unset", ""), ("low", "low"), ("medium", "medium"), ("high", "high"), ("max", "max"),
                         ("minimal clamps to low", "minimal"), ("xhigh clamps to max", "xhigh"),
                         ("ultra clamps to max", "ultra"), ("none", "none"), ("invalid", "extreme")]:
        body = {"model": "deepseek-v4-flash", "input": "hi"}
        if effort:
            body["reasoning"] = {"effort": effort}
        add(RESP, S + "TestFromResponsesRequest_ReasoningEffort/" + name, body)
    port(RESP, S + "TestFromResponsesRequest_FunctionCallOutput", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is the weather?"}]}, {"type": "function_call", "call_id": "call_abc123", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}, {"type": "function_call_output", "call_id": "call_abc123", "output": "sunny, 72F"}]}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_FunctionCallOutputContentArray", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is the weather?"}]}, {"type": "function_call", "call_id": "call_abc123", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}, {"type": "function_call_output", "call_id": "call_abc123", "output": [{"type": "input_text", "text": "sunny"}, {"type": "input_text", "text": ", 72F"}]}]}')
    port(RESP, S + "TestFromResponsesRequest_FunctionCallOutputContentArrayWithImage", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "inspect the image"}]}, {"type": "function_call", "call_id": "call_abc123", "name": "inspect_image", "arguments": "{}"}, {"type": "function_call_output", "call_id": "call_abc123", "output": [{"type": "input_text", "text": "attached image"}, {"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,' + PNG_RED + '"}]}]}')
    T = S + "TestFromResponsesRequest_FunctionCallMerge/"
    port(RESP, T + "function call merges with preceding assistant message", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is the weather?"}]}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I\'ll check the weather for you."}]}, {"type": "function_call", "call_id": "call_abc123", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}]}')
    port(RESP, T + "function call without preceding assistant creates new message", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is the weather?"}]}, {"type": "function_call", "call_id": "call_abc123", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}]}')
    port(RESP, T + "multiple function calls merge into same assistant message", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "check weather and time"}]}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I\'ll check both."}]}, {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}, {"type": "function_call", "call_id": "call_2", "name": "get_time", "arguments": "{\\"city\\":\\"Paris\\"}"}]}')
    port(RESP, T + "new assistant message starts fresh tool call group", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "do multiple things"}]}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "First batch."}]}, {"type": "function_call", "call_id": "call_1", "name": "func_a", "arguments": "{}"}, {"type": "function_call", "call_id": "call_2", "name": "func_b", "arguments": "{}"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Second batch."}]}, {"type": "function_call", "call_id": "call_3", "name": "func_c", "arguments": "{}"}]}')
    port(RESP, T + "function call merges with assistant that has thinking", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "think and act"}]}, {"type": "reasoning", "id": "rs_1", "encrypted_content": "Let me think...", "summary": []}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I thought about it."}]}, {"type": "function_call", "call_id": "call_1", "name": "do_thing", "arguments": "{}"}]}')
    port(RESP, T + "mixed thinking and content with multiple tool calls", '{"model": "gpt-oss:20b", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "complex task"}]}, {"type": "reasoning", "id": "rs_1", "encrypted_content": "Thinking first...", "summary": []}, {"type": "message", "role": "assistant", "content": ""}, {"type": "function_call", "call_id": "call_1", "name": "think_action", "arguments": "{}"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Now doing more."}]}, {"type": "function_call", "call_id": "call_2", "name": "action_a", "arguments": "{}"}, {"type": "function_call", "call_id": "call_3", "name": "action_b", "arguments": "{}"}]}')
    for name, url in [("valid png", "data:image/png;base64," + PNG_RED), ("valid jpeg", "data:image/jpeg;base64,/9j/4AAQSkZJRg=="),
                      ("blank mime type", "data:;base64,dGVzdA=="), ("invalid mime type", "data:image/gif;base64," + GIF),
                      ("invalid base64", "data:image/png;base64,not-valid-base64!"), ("not a data url", "https://example.com/image.png")]:
        add(RESP, S + "TestDecodeImageURL/" + name, {"model": "llava", "input": [{"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "What is this?"}, {"type": "input_image", "detail": "auto", "image_url": url}]}]})
    port(RESP, S + "TestFromResponsesRequest_Images", '{"model": "llava", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is in this image?"}, {"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,' + PNG_RED + '"}]}]}', style="pretty")
    T = S + "TestFromResponsesRequest_ReasoningMerge/"
    port(RESP, T + "reasoning merged with following message", '{"model": "qwen3", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "solve 2+2"}]}, {"type": "reasoning", "id": "rs_123", "encrypted_content": "Let me think about this math problem...", "summary": [{"type": "summary_text", "text": "Thinking about math"}]}, {"type": "message", "role": "assistant", "content": [{"type": "input_text", "text": "The answer is 4"}]}]}')
    port(RESP, T + "reasoning merged with following function call", '{"model": "qwen3", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is the weather?"}]}, {"type": "reasoning", "id": "rs_123", "encrypted_content": "I need to call a tool for this...", "summary": []}, {"type": "function_call", "call_id": "call_abc", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}]}')
    port(RESP, T + "multi-turn conversation with reasoning", '{"model": "qwen3", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}, {"type": "reasoning", "id": "rs_001", "encrypted_content": "This is a simple arithmetic problem. 2+2=4.", "summary": [{"type": "summary_text", "text": "Calculating 2+2"}]}, {"type": "message", "role": "assistant", "content": [{"type": "input_text", "text": "The answer is 4."}]}, {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Now multiply that by 3"}]}]}')
    port(RESP, T + "multi-turn with tool calls and reasoning", '{"model": "qwen3", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is the weather in Paris?"}]}, {"type": "reasoning", "id": "rs_001", "encrypted_content": "I need to call the weather API for Paris.", "summary": []}, {"type": "function_call", "call_id": "call_abc", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}, {"type": "function_call_output", "call_id": "call_abc", "output": "Sunny, 72°F"}, {"type": "reasoning", "id": "rs_002", "encrypted_content": "The weather API returned sunny and 72°F. I should format this nicely.", "summary": []}, {"type": "message", "role": "assistant", "content": [{"type": "input_text", "text": "It\'s sunny and 72°F in Paris!"}]}, {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What about London?"}]}]}', style="pretty")
    port(RESP, T + "trailing reasoning creates separate message", '{"model": "qwen3", "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "think about this"}]}, {"type": "reasoning", "id": "rs_123", "encrypted_content": "Still thinking...", "summary": []}]}')
    port(RESP, S + "TestFromResponsesRequest_Instructions", '{"model": "gpt-oss:20b", "instructions": "You are a helpful pirate. Always respond in pirate speak.", "input": "Hello"}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_MaxOutputTokens", '{"model": "gpt-oss:20b", "input": "Write a story", "max_output_tokens": 100}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_TextFormatJsonSchema", '{"model": "gpt-oss:20b", "input": "Give me info about John who is 30", "text": {"format": {"type": "json_schema", "name": "person", "strict": true, "schema": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name", "age"]}}}}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_TextFormatText", '{"model": "gpt-oss:20b", "input": "Hello", "text": {"format": {"type": "text"}}}', style="pretty")
    wrap_item("TestResponsesInputMessage_ShorthandFormats/string content shorthand", '{"type": "message", "role": "user", "content": "Hello world"}')
    wrap_item("TestResponsesInputMessage_ShorthandFormats/output_text content type", '{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I am an assistant"}]}')
    wrap_item("TestUnmarshalResponsesInputItem_ShorthandMessage/message without type field", '{"role": "user", "content": "Hello"}')
    wrap_item("TestUnmarshalResponsesInputItem_ShorthandMessage/message with both type and role", '{"type": "message", "role": "system", "content": "You are helpful"}')
    port(RESP, S + "TestFromResponsesRequest_ShorthandFormats/shorthand message without type", '{"model": "gpt-4.1", "input": [{"role": "user", "content": "What is the weather in Tokyo?"}]}', style="pretty")
    port(RESP, S + "TestFromResponsesRequest_ShorthandFormats/conversation with output_text from previous response", '{"model": "gpt-4.1", "input": [{"role": "user", "content": "Hello"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi there!"}]}, {"role": "user", "content": "How are you?"}]}', style="pretty")

    port(RESP, "middleware/openai_test.go:TestResponsesMiddlewareZstd/plain JSON", '{"model": "test-model", "input": "Hello"}', style="spaced")
    port(RESP, "middleware/responses_web_search_test.go:TestResponsesMiddlewareWebSearchStatusOnlyResponse",
         '{"model":"test-model", "input":"hello", "tools":[{"type":"web_search"}]}', style="pretty")
    W = "middleware/responses_web_search_test.go:"
    add(RESP, W + "TestWebSearchResponsesWriterNonStreaming", {"model": "test-model", "tools": [{"type": "web_search"}]})
    add(RESP, W + "TestWebSearchResponsesWriterStreamingNoSearchStreamsImmediately", {"model": "test-model", "stream": True, "tools": [{"type": "web_search"}]})
    add(RESP, W + "TestWebSearchResponsesWriterStreamingAuthorizationError", {"model": "test-model:cloud", "stream": True, "tools": [{"type": "web_search"}]})


def resp_generated():
    G = "generated:"
    M = "gpt-oss:20b"

    def r(source, input=..., **kw):
        body = {"model": kw.pop("model", M)}
        if input is not ...:
            body["input"] = input
        style = kw.pop("style", "compact")
        body.update(kw)
        add(RESP, G + source, body, style=style)

    def im(role, *parts, type="message"):
        m = {"type": type, "role": role} if type else {"role": role}
        m["content"] = list(parts) if len(parts) != 1 or not isinstance(parts[0], str) else parts[0]
        return m

    def it(t):
        return {"type": "input_text", "text": t}

    def ot(t):
        return {"type": "output_text", "text": t, "annotations": []}

    def img(url, **kw):
        return dict({"type": "input_image", "detail": "auto", "image_url": url}, **kw)

    def fc(call_id, name, args, **kw):
        return dict({"type": "function_call", "call_id": call_id, "name": name, "arguments": args}, **kw)

    def fco(call_id, output):
        return {"type": "function_call_output", "call_id": call_id, "output": output}

    def rs(enc=None, summary=None, id="rs_1"):
        x = {"type": "reasoning", "id": id}
        if summary is not None:
            x["summary"] = summary
        if enc is not None:
            x["encrypted_content"] = enc
        return x

    FN = {"type": "function", "name": "get_weather", "description": "Get the weather", "strict": True,
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}}

    # -- input shapes
    r("string input with options", "Hello <there> & you", instructions="Be terse.", temperature=0.3, top_p=0.8, max_output_tokens=256)
    r("empty string input with instructions", "", instructions="Only a system message.")
    r("input missing")
    r("input null", None)
    r("input empty array", [])
    r("instructions empty", "hi", instructions="")
    r("roles: developer, system, assistant, user kept as sent", [im("developer", "dev"), im("system", "sys"), im("assistant", ot("asst")), im("User", "upper")])
    r("message with empty role", [{"type": "message", "content": "no role"}])
    r("content null gives an empty text part", [{"type": "message", "role": "user", "content": None}])
    r("content empty array", [{"type": "message", "role": "user", "content": []}, im("user", "next")])
    r("content missing", [{"type": "message", "role": "user"}])
    r("text parts are concatenated without separator", [im("user", it("one"), it(" two"), ot("three"))])
    for mime, data in [("jpg", JPEG), ("webp", WEBP), ("jpeg", JPEG)]:
        r(f"input_image data:image/{mime}", [im("user", it("see"), img(f"data:image/{mime};base64,{data}"))])
    r("input_image blank mime", [im("user", img("data:;base64," + PNG))])
    r("input_image without image_url (file_id, skipped)", [im("user", it("file"), {"type": "input_image", "detail": "low", "file_id": "file-123"})])
    r("input_image with empty image_url (skipped)", [im("user", img(""))])
    r("images only, no text", [im("user", img("data:image/png;base64," + PNG), img("data:image/png;base64," + PNG_RED))])
    r("output_text in a user message", [im("user", ot("quoted"))])
    r("keys: INPUT, Instructions, TYPE/ROLE/CONTENT in items", **{"INPUT": [{"TYPE": "message", "ROLE": "user", "CONTENT": [{"TYPE": "input_text", "TEXT": "hi"}]}], "Instructions": "sys", "Max_Output_Tokens": 9})
    # -- function calls
    r("function_call with empty arguments", [im("user", "go"), fc("call_1", "noop", "")])
    r("function_call with id and status", [im("user", "go"), fc("call_1", "ls", '{"path":"."}', id="fc_123", status="completed")])
    r("function_call without name", [fc("call_1", "", "{}")])
    r("function_call argument formats", [fc("c", "nums", '{"z":1,"a":1.50,"e":2E2,"big":123456789012345678901234567890,"s":"<&>","n":null,"l":[true,{}]}')])
    r("function_call_output output missing", [fc("c1", "f", "{}"), {"type": "function_call_output", "call_id": "c1"}])
    r("function_call_output output null", [fc("c1", "f", "{}"), fco("c1", None)])
    r("function_call_output output empty array", [fc("c1", "f", "{}"), fco("c1", [])])
    r("function_call_output output_text and image", [fc("c1", "shot", "{}"), fco("c1", [ot("see "), it("image"), img("data:image/png;base64," + PNG)])])
    r("function_call_output without a call", [im("user", "x"), fco("orphan", "result")])
    r("replay: assistant message between call and output is merged", [im("user", "run it"), fc("call_1", "exec", '{"cmd":"ls"}'),
                                                                      im("assistant", ot("Running ls.")), fco("call_1", "a\nb")])
    r("replay: merge appends with a newline", [im("user", "x"), im("assistant", ot("First.")), fc("call_1", "f", "{}"),
                                               im("assistant", ot("Second.")), fco("call_1", "ok")])
    r("replay: merge carries images and reasoning", [im("user", "x"), fc("call_1", "f", "{}"), rs("replayed thought"),
                                                     im("assistant", ot("with image"), img("data:image/png;base64," + PNG)), fco("call_1", "ok")])
    r("replay: output for another call is not merged", [im("user", "x"), fc("call_1", "f", "{}"), im("assistant", ot("between")), fco("call_2", "other")])
    r("replay: user message between is not merged", [im("user", "x"), fc("call_1", "f", "{}"), im("user", "wait"), fco("call_1", "ok")])
    r("parallel calls then outputs", [im("user", "both"), fc("a", "f1", '{"i":1}'), fc("b", "f2", '{"i":2}'), fco("a", "1"), fco("b", "2"), im("assistant", ot("done"))])
    # -- reasoning
    r("reasoning: summary only (thinking comes from encrypted_content)", [im("user", "q"), rs(summary=[{"type": "summary_text", "text": "visible summary"}]), im("assistant", ot("a"))])
    r("reasoning: the later of two wins", [im("user", "q"), rs("first", id="rs_1"), rs("second", id="rs_2"), im("assistant", ot("a"))])
    r("reasoning: carried past a user message to the next assistant", [rs("early"), im("user", "q"), im("assistant", ot("a"))])
    r("reasoning: onto an assistant that already has calls", [im("user", "q"), im("assistant", ot("plan")), rs("late thought"), fc("c", "f", "{}")])
    r("reasoning: before a function_call_output stays pending to the end", [fc("c", "f", "{}"), rs("pending"), fco("c", "r")])
    r("reasoning: empty encrypted_content", [im("user", "q"), rs(""), im("assistant", ot("a"))])
    r("web_search_call items only", [{"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}])
    # -- tools
    r("tools: function with null description, strict and parameters", "hi", tools=[{"type": "function", "name": "bare", "description": None, "strict": None, "parameters": None}])
    r("tools: function without parameters", "hi", tools=[{"type": "function", "name": "ping", "description": "Ping"}])
    r("tools: rich parameters", "hi", tools=[FN, {"type": "function", "name": "search", "parameters": {"type": "object", "properties": {
        "q": {"type": ["string", "null"], "description": "query <text>"}, "n": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "filters": {"type": "object", "properties": {"site": {"type": "string", "enum": ["a.com", "b.org"]}}}}, "required": ["q"]}}])
    r("tools: namespace without a name", "hi", tools=[{"type": "namespace", "name": "", "tools": [FN]}])
    r("tools: nested namespaces", "hi", tools=[{"type": "namespace", "name": "outer", "tools": [{"type": "namespace", "name": "inner", "tools": [FN]}]}])
    r("tools: empty namespace", "hi", tools=[{"type": "namespace", "name": "ns", "tools": []}, FN])
    r("tools: namespace member web_search is qualified, kept", "hi", tools=[{"type": "web_search"}, {"type": "namespace", "name": "ns", "tools": [dict(FN, name="web_search")]}])
    r("tools: web_search twice", "hi", tools=[{"type": "web_search"}, FN, {"type": "web_search"}])
    r("tools: other built-in types pass through as tools", "hi", tools=[{"type": "web_search_preview"}, {"type": "file_search", "vector_store_ids": ["vs_1"]},
                                                                         {"type": "code_interpreter", "container": {"type": "auto"}},
                                                                         {"type": "mcp", "server_label": "x", "server_url": "https://x"},
                                                                         {"type": "custom", "name": "freeform", "description": "grammar tool", "format": {"type": "text"}}])
    r("tools: empty array", "hi", tools=[])
    # -- other controls
    r("unknown and unsupported controls (dropped)", "hi", tool_choice="required", parallel_tool_calls=False, store=True, metadata={"a": "b"},
      previous_response_id="resp_abc", truncation="auto", include=["reasoning.encrypted_content"], background=False,
      conversation={"id": "conv_1"}, user="u", prompt_cache_key="k", service_tier="auto", top_logprobs=2, safety_identifier="s",
      prompt={"id": "pmpt_1"}, max_tool_calls=3)
    for label, text in [("json_schema without schema", {"format": {"type": "json_schema", "name": "x"}}),
                        ("json_schema with schema null", {"format": {"type": "json_schema", "schema": None}}),
                        ("json_object (not converted)", {"format": {"type": "json_object"}}),
                        ("verbosity only", {"verbosity": "low"}), ("empty", {}), ("null", None),
                        ("json_schema pretty schema is compacted", {"format": {"type": "json_schema", "name": "p", "schema": {
                            "type": "object", "properties": {"a": {"type": "string", "description": "<a> & b"}}}}})]:
        r("text " + label, "hi", text=text, style="pretty" if "pretty" in label else "compact")
    for effort in ["", "low", "medium", "high"]:
        r(f"reasoning.effort {effort!r} with summary", "hi", reasoning={"effort": effort, "summary": "auto", "generate_summary": "concise"})
    r("reasoning null", "hi", reasoning=None)
    r("temperature null (default 1), top_p 0", "hi", temperature=None, top_p=0)
    r("top_p null (absent)", "hi", top_p=None)
    r("max_output_tokens 0", "hi", max_output_tokens=0)
    r("max_output_tokens null", "hi", max_output_tokens=None)
    r("stream true", "hi", stream=True)
    r("stream false", "hi", stream=False)
    r("stream null", "hi", stream=None)
    # -- errors
    for label, body in [
        ("input object", {"model": M, "input": {"role": "user", "content": "hi"}}),
        ("input bool", {"model": M, "input": True}),
        ("item a string", {"model": M, "input": ["hello"]}),
        ("item type item_reference", {"model": M, "input": [im("user", "x"), {"type": "item_reference", "id": "msg_1"}]}),
        ("item type computer_call", {"model": M, "input": [{"type": "computer_call", "call_id": "c"}]}),
        ("item without type or role", {"model": M, "input": [{"content": [it("x")]}]}),
        ("content a number", {"model": M, "input": [{"type": "message", "role": "user", "content": 5}]}),
        ("content part a string", {"model": M, "input": [{"type": "message", "role": "user", "content": ["hi"]}]}),
        ("content part type refusal", {"model": M, "input": [im("assistant", {"type": "refusal", "refusal": "no"})]}),
        ("content part without type", {"model": M, "input": [im("user", {"text": "hi"})]}),
        ("output_text with a number", {"model": M, "input": [im("assistant", {"type": "output_text", "text": 5})]}),
        ("input_file filename a number", {"model": M, "input": [im("user", {"type": "input_file", "filename": 5})]}),
        ("function_call_output call_id a number", {"model": M, "input": [{"type": "function_call_output", "call_id": 1, "output": "x"}]}),
        ("input_text with a number", {"model": M, "input": [im("user", {"type": "input_text", "text": 5})]}),
        ("input_image detail a number", {"model": M, "input": [im("user", {"type": "input_image", "detail": 1, "image_url": "data:;base64,"})]}),
        ("input_file", {"model": M, "input": [im("user", it("read"), {"type": "input_file", "filename": "a.txt", "file_data": "data:text/plain;base64,aGk="})]}),
        ("input_image http URL", {"model": M, "input": [im("user", img("http://example.com/a.png"))]}),
        ("input_image bad base64", {"model": M, "input": [im("user", img("data:image/png;base64,@@@@"))]}),
        ("function_call invalid arguments", {"model": M, "input": [fc("c", "f", "{bad")]}),
        ("function_call array arguments", {"model": M, "input": [fc("c", "f", "[1]")]}),
        ("function_call arguments an object", {"model": M, "input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {"a": 1}}]}),
        ("function_call call_id a number", {"model": M, "input": [{"type": "function_call", "call_id": 1, "name": "f", "arguments": "{}"}]}),
        ("function_call_output output a number", {"model": M, "input": [fco("c", 42)]}),
        ("function_call_output output object", {"model": M, "input": [fco("c", {"type": "input_text", "text": "x"})]}),
        ("function_call_output output item unknown", {"model": M, "input": [fco("c", [{"type": "audio"}])]}),
        ("function_call_output output input_file", {"model": M, "input": [fco("c", [{"type": "input_file", "file_id": "f"}])]}),
        ("function_call_output output image http", {"model": M, "input": [fco("c", [img("https://x.test/i.png")])]}),
        ("reasoning summary a string", {"model": M, "input": [{"type": "reasoning", "summary": "text"}]}),
        ("web_search_call action a string", {"model": M, "input": [{"type": "web_search_call", "id": "w", "action": "search"}]}),
        ("model number", {"model": 4, "input": "hi"}),
        ("instructions an array", {"model": M, "input": "hi", "instructions": [im("system", "sys")]}),
        ("temperature string", {"model": M, "input": "hi", "temperature": "0.5"}),
        ("max_output_tokens 1.5", {"model": M, "input": "hi", "max_output_tokens": 1.5}),
        ("reasoning a string", {"model": M, "input": "hi", "reasoning": "high"}),
        ("reasoning.effort a number", {"model": M, "input": "hi", "reasoning": {"effort": 3}}),
        ("reasoning.effort HIGH", {"model": M, "input": "hi", "reasoning": {"effort": "HIGH"}}),
        ("tools an object", {"model": M, "input": "hi", "tools": FN}),
        ("tool a string", {"model": M, "input": "hi", "tools": ["get_weather"]}),
        ("tool parameters an array", {"model": M, "input": "hi", "tools": [dict(FN, parameters=[])]}),
        ("tool description a number", {"model": M, "input": "hi", "tools": [dict(FN, description=1)]}),
        ("tool parameters with a bad property type", {"model": M, "input": "hi", "tools": [dict(FN, parameters={"type": "object", "properties": {"a": {"type": 1}}})]}),
        ("tool parameters type an array", {"model": M, "input": "hi", "tools": [dict(FN, parameters={"type": ["object"]})]}),
        ("namespace member with bad parameters", {"model": M, "input": "hi", "tools": [{"type": "namespace", "name": "ns", "tools": [dict(FN, parameters={"properties": "x"})]}]}),
        ("stream a string", {"model": M, "input": "hi", "stream": "true"}),
        ("text a string", {"model": M, "input": "hi", "text": "json"}),
        ("text.format a string", {"model": M, "input": "hi", "text": {"format": "json_schema"}}),
        ("include a string", {"model": M, "input": "hi", "include": "x"}),
        ("background a string", {"model": M, "input": "hi", "background": "no"}),
        ("truncation a number", {"model": M, "input": "hi", "truncation": 0}),
    ]:
        add(RESP, G + "error: " + label, body)

    # -- SDK-like (Codex style) conversations, seeded
    rng = random.Random(2002)
    for i in range(40):
        items = []
        if rng.random() < 0.5:
            items.append(im("developer", it(pick(rng, ["You are Codex, a coding agent.", "Follow the repo's AGENTS.md.", TEXTS[2]]))))
        for t in range(rng.randrange(1, 4)):
            items.append(im("user", it(pick(rng, TEXTS[:8]))) if rng.random() < 0.7 else {"role": "user", "content": pick(rng, TEXTS)})
            if rng.random() < 0.5:
                items.append(rs(pick(rng, ["gAAAAAB...", "thinking about <it> & more"]), summary=[], id=f"rs_{t}"))
            if rng.random() < 0.6:
                cid = f"call_{rng.randrange(10**8):08d}"
                items.append(fc(cid, pick(rng, ["shell", "apply_patch", "read_file"]), json.dumps({"cmd": ["bash", "-lc", pick(rng, ["ls", "cat a.txt", "rg foo"])]})))
                items.append(fco(cid, pick(rng, ["ok", "Exit code: 0\nOutput:\nfoo\n", json.dumps({"output": "é"})])))
            items.append(im("assistant", ot(pick(rng, ["Done.", "Here is the diff.", "Voilà <3"]))))
        body = {"model": pick(rng, ["gpt-oss:20b", "qwen3-coder", "gpt-oss:120b"]), "input": items}
        if rng.random() < 0.6:
            body["instructions"] = "You are a coding agent running in a terminal."
        if rng.random() < 0.6:
            body["tools"] = [dict(FN, name=pick(rng, ["shell", "exec_command"]), parameters={"type": "object", "properties": {"cmd": {"type": "array", "items": {"type": "string"}}}, "required": ["cmd"]})]
        for k, gen in [("reasoning", lambda: {"effort": pick(rng, ["low", "medium", "high", "minimal"]), "summary": "auto"}),
                       ("stream", lambda: True), ("store", lambda: False), ("tool_choice", lambda: "auto"),
                       ("parallel_tool_calls", lambda: False), ("include", lambda: ["reasoning.encrypted_content"]),
                       ("prompt_cache_key", lambda: "abc"), ("temperature", lambda: pick(rng, [0, 0.5, 1])),
                       ("max_output_tokens", lambda: pick(rng, [1024, 32000]))]:
            if rng.random() < 0.4:
                body[k] = gen()
        add(RESP, G + f"sdk conversation {i + 1}", body, style=pick(rng, ["compact", "spaced"]), ascii=rng.random() < 0.5)


# ------------------------------------------------------ anthropic-messages

ANTHROPIC_MIDDLEWARE_WEB_SEARCH_BODIES = [
    ("TestWebSearchNoWebSearchTool", "{\"model\":\"test-model\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}"),
    ("TestWebSearchToolPresent_ModelDoesNotCallIt_NonStreaming", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"What is 2+2?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchToolPresent_ModelDoesNotCallIt_Streaming", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchToolPresent_ModelCallsIt_NonStreaming", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"What is the meaning of life?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchToolPresent_ModelCallsIt_Streaming", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"What is the latest news?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/local model allowed when web_search is not called", "{\"model\":\"llama3.2\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/local model emits web_search and gets results", "{\"model\":\"llama3.2\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/model ending in cloud without cloud suffix treated as local", "{\"model\":\"notreallycloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/cloud model with size tag allowed", "{\"model\":\"gpt-oss:120b-cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/cloud model allowed", "{\"model\":\"kimi-k2.5:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchCloudModelGating/cloud disabled blocks web search for cloud model", "{\"model\":\"kimi-k2.5:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}", {'OLLAMA_NO_CLOUD': '1'}),
    ("TestWebSearchCloudModelGating/cloud disabled does not block local model if web_search is not called", "{\"model\":\"llama3.2\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}", {'OLLAMA_NO_CLOUD': '1'}),
    ("TestWebSearchDoesNotRequireAuthorizationHeaderForMockEndpoint", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"test auth\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchSearchAPIError", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"test\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchStreamingImmediateTakeover", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Find updates\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchStreamingUsageUsesObservedChunkMetrics", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Find updates\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchMixedToolCallsPreferWebSearch", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"Weather?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"},{\"type\":\"custom\",\"name\":\"get_weather\",\"input_schema\":{\"type\":\"object\"}}]}"),
    ("TestWebSearchFollowupClientToolStopReasonToolUse", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"Do I need an umbrella?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"},{\"type\":\"custom\",\"name\":\"get_weather\",\"input_schema\":{\"type\":\"object\"}}]}"),
    ("TestWebSearchMultiIterationLoop", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"do multiple searches\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchLoopMaxLimit", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"keep searching\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
    ("TestWebSearchStreamingFinalStopReasonToolUse", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Should I take a jacket?\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"},{\"type\":\"custom\",\"name\":\"get_weather\",\"input_schema\":{\"type\":\"object\"}}]}"),
    ("TestWebSearchFollowupNon200ReturnsApiError", "{\"model\":\"test-model:cloud\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"test\"}],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}"),
]


def msgs_ported():
    S = "anthropic/anthropic_test.go:"
    B = {"model": "test-model", "max_tokens": 1024}

    def a(source, **kw):
        body = dict(B)
        body.update(kw)
        add(MSGS, S + source, body)

    def txt(t):
        return {"type": "text", "text": t}

    a("TestFromMessagesRequest_Basic", messages=[user("Hello")])
    a("TestFromMessagesRequest_WithSystemPrompt", system="You are a helpful assistant.", messages=[user("Hello")])
    a("TestFromMessagesRequest_WithSystemPromptArray", system=[txt("You are helpful."), txt(" Be concise.")], messages=[user("Hello")])
    add(MSGS, S + "TestFromMessagesRequest_WithOptions", {"model": "test-model", "max_tokens": 2048, "messages": [user("Hello")],
                                                          "temperature": 0.7, "top_p": 0.9, "top_k": 40, "stop_sequences": ["\n", "END"]})
    a("TestFromMessagesRequest_WithImage", messages=[{"role": "user", "content": [txt("What's in this image?"), {
        "type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]}])
    a("TestFromMessagesRequest_WithToolUse", messages=[user("What's the weather in Paris?"), {"role": "assistant", "content": [
        {"type": "tool_use", "id": "call_123", "name": "get_weather", "input": {"location": "Paris"}}]}])
    a("TestFromMessagesRequest_WithToolResult", messages=[{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_123", "content": "The weather in Paris is sunny, 22°C"}]}])
    a("TestFromMessagesRequest_WithToolResultImage", messages=[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_img", "content": [
        txt("Attached image"), {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]}]}])
    a("TestFromMessagesRequest_WithToolResultFollowedByUserText", messages=[
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_read", "name": "Read", "input": {"file_path": "/Users/hoyyeva/Desktop/aaa.png"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_read", "content": "Read image (311.5KB)"}, txt("Please describe it.")]}])
    G4 = {"model": "gemma4", "max_tokens": 32000, "messages": [user("Describe the image.")]}
    add(MSGS, S + "TestFromMessagesRequest_WithOutputConfigEffort", dict(G4, output_config={"effort": "high"}))
    add(MSGS, S + "TestFromMessagesRequest_WithOutputConfigEffortXHighMapsToHigh", dict(G4, output_config={"effort": "xhigh"}))
    add(MSGS, S + "TestFromMessagesRequest_ThinkingDisabledOverridesOutputConfigEffort", dict(G4, thinking={"type": "disabled"}, output_config={"effort": "high"}))
    add(MSGS, S + "TestFromMessagesRequest_ThinkingAdaptiveUsesOutputConfigEffort", dict(G4, thinking={"type": "adaptive"}, output_config={"effort": "high"}))
    a("TestFromMessagesRequest_WithTools", messages=[user("Hello")], tools=[{"name": "get_weather", "description": "Get current weather",
                                                                           "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}])
    a("TestFromMessagesRequest_DropsCustomWebSearchWhenBuiltinPresent", messages=[user("Hello")], tools=[
        {"type": "web_search_20250305", "name": "web_search"},
        {"type": "custom", "name": "web_search", "description": "User-defined web search that should be dropped", "input_schema": {"type": "invalid"}},
        {"type": "custom", "name": "get_weather", "description": "Get current weather", "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}])
    a("TestFromMessagesRequest_KeepsCustomWebSearchWhenBuiltinAbsent", messages=[user("Hello")], tools=[
        {"type": "custom", "name": "web_search", "description": "User-defined web search", "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}])
    a("TestFromMessagesRequest_WithThinking", messages=[user("Hello")], thinking={"type": "enabled", "budget_tokens": 1000})
    a("TestFromMessagesRequest_ThinkingOnlyBlock", messages=[user("Hello"), {"role": "assistant", "content": [{"type": "thinking", "thinking": "Let me think about this..."}]}])
    a("TestFromMessagesRequest_ToolUseMissingID", messages=[{"role": "assistant", "content": [{"type": "tool_use", "name": "get_weather"}]}])
    a("TestFromMessagesRequest_ToolUseMissingName", messages=[{"role": "assistant", "content": [{"type": "tool_use", "id": "call_123"}]}])
    # The test's input_schema is the raw bytes `{invalid json`, which no JSON
    # body can carry; the nearest a client can send is that text as a JSON
    # string, which fails to unmarshal into ToolFunctionParameters the same way.
    a("TestFromMessagesRequest_InvalidToolSchema", messages=[user("Hello")], tools=[{"name": "bad_tool", "input_schema": "{invalid json"}])
    a("TestConvertTool_WebSearch", messages=[user("Hello")], tools=[{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}])
    a("TestConvertTool_RegularTool", messages=[user("Hello")], tools=[{"type": "custom", "name": "get_weather", "description": "Get the weather",
                                                                       "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}}}])
    a("TestConvertMessage_ServerToolUse", messages=[{"role": "assistant", "content": [{"type": "server_tool_use", "id": "srvtoolu_123", "name": "web_search", "input": {"query": "test query"}}]}])
    a("TestConvertMessage_WebSearchToolResult", messages=[{"role": "user", "content": [{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_123", "content": [
        {"type": "web_search_result", "title": "Test Result", "url": "https://example.com"}]}]}])
    a("TestConvertMessage_WebSearchToolResultEmptyStillCreatesToolMessage", messages=[{"role": "user", "content": [{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_empty", "content": []}]}])
    a("TestConvertMessage_WebSearchToolResultErrorStillCreatesToolMessage", messages=[{"role": "user", "content": [{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_error",
                                                                                                                     "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}]}])

    S = "middleware/anthropic_test.go:"
    T = S + "TestAnthropicMessagesMiddleware/"
    port(MSGS, T + "basic message", '{"model": "test-model", "max_tokens": 1024, "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "with system prompt", '{"model": "test-model", "max_tokens": 1024, "system": "You are helpful.", "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "with options", '{"model": "test-model", "max_tokens": 2048, "temperature": 0.7, "top_p": 0.9, "top_k": 40, "stop_sequences": ["\\n", "END"], "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "streaming", '{"model": "test-model", "max_tokens": 1024, "stream": true, "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "with tools", '{"model": "test-model", "max_tokens": 1024, "messages": [{"role": "user", "content": "What\'s the weather?"}], "tools": [{"name": "get_weather", "description": "Get current weather", "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}]}', style="pretty")
    port(MSGS, T + "with tool result", '{"model": "test-model", "max_tokens": 1024, "messages": [{"role": "user", "content": "What\'s the weather?"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "call_123", "name": "get_weather", "input": {"location": "Paris"}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_123", "content": "Sunny, 22°C"}]}]}', style="pretty")
    port(MSGS, T + "with thinking enabled", '{"model": "test-model", "max_tokens": 1024, "thinking": {"type": "enabled", "budget_tokens": 1000}, "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "missing model error", '{"max_tokens": 1024, "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "missing max_tokens error", '{"model": "test-model", "messages": [{"role": "user", "content": "Hello"}]}', style="pretty")
    port(MSGS, T + "missing messages error", '{"model": "test-model", "max_tokens": 1024}', style="pretty")
    port(MSGS, T + "tool_use missing id error", '{"model": "test-model", "max_tokens": 1024, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "test"}]}]}', style="pretty")
    port(MSGS, S + "TestAnthropicMessagesMiddleware_Headers/streaming sets correct headers", '{"model": "test", "max_tokens": 100, "stream": true, "messages": [{"role": "user", "content": "Hi"}]}', style="spaced")
    add(MSGS, S + "TestAnthropicMessagesMiddleware_InvalidJSON", "{invalid json", raw=True)
    port(MSGS, S + "TestAnthropicWriter_NonStreaming", '{"model": "test-model", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}]}', style="spaced")
    port(MSGS, S + "TestAnthropicMessagesMiddleware_SetsRelaxThinkingFlag", '{"model": "test-model", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}]}', style="spaced")
    for name, tools in [("no tools", None), ("regular tool only", [{"type": "custom", "name": "get_weather"}]),
                        ("web search tool", [{"type": "web_search_20250305", "name": "web_search"}]),
                        ("mixed tools", [{"type": "custom", "name": "get_weather"}, {"type": "web_search_20250305", "name": "web_search"}])]:
        body = {"model": "test-model", "max_tokens": 100, "messages": [user("Hello")]}
        if tools is not None:
            body["tools"] = tools
        add(MSGS, S + "TestHasWebSearchTool/" + name, body)
    for row in ANTHROPIC_MIDDLEWARE_WEB_SEARCH_BODIES:
        name, text = row[0], row[1]
        add(MSGS, S + name, json.loads(text), env=row[2] if len(row) > 2 else None)


CLAUDE_CODE_SYSTEM = [
    {"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude.", "cache_control": {"type": "ephemeral"}},
    {"type": "text", "text": "\n".join([
        "You are an interactive CLI tool that helps users with software engineering tasks.",
        "IMPORTANT: Assist with defensive security tasks only. Refuse to create malicious code.",
        "",
        "# Tone and style",
        "You should be concise, direct, and to the point. Use `backticks` for code & paths.",
        "<example>",
        "user: what command should I run to list files?",
        "assistant: ls",
        "</example>",
        "",
        "# Doing tasks",
        "- Use the TodoWrite tool to plan the task if required",
        "- Use the available search tools to understand the codebase & the user's query.",
        "- Implement the solution using all tools available to you",
        "",
        "<env>",
        "Working directory: /home/user/project",
        "Is directory a git repo: Yes",
        "Platform: linux",
        "Today's date: 2026-05-20",
        "</env>",
    ] * 6), "cache_control": {"type": "ephemeral"}},
    {"type": "text", "text": "<system-reminder>As you answer, use the context above.</system-reminder>"},
]

CLAUDE_CODE_TOOLS = [
    {"name": "Bash", "description": "Executes a given bash command in a persistent shell session with optional timeout.",
     "input_schema": {"type": "object", "properties": {
         "command": {"type": "string", "description": "The command to execute"},
         "timeout": {"type": "number", "description": "Optional timeout in milliseconds (max 600000)"},
         "description": {"type": "string", "description": "Clear, concise description of what this command does in 5-10 words."},
         "run_in_background": {"type": "boolean", "description": "Set to true to run this command in the background."}},
         "required": ["command"], "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Read", "description": "Reads a file from the local filesystem.",
     "input_schema": {"type": "object", "properties": {
         "file_path": {"type": "string", "description": "The absolute path to the file to read"},
         "offset": {"type": "number"}, "limit": {"type": "number"}},
         "required": ["file_path"], "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Edit", "description": "Performs exact string replacements in files.",
     "input_schema": {"type": "object", "properties": {
         "file_path": {"type": "string"}, "old_string": {"type": "string"}, "new_string": {"type": "string"},
         "replace_all": {"type": "boolean", "default": False}},
         "required": ["file_path", "old_string", "new_string"], "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Glob", "description": "Fast file pattern matching tool that works with any codebase size",
     "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}}, "required": ["pattern"]}},
    {"name": "Grep", "description": "A powerful search tool built on ripgrep",
     "input_schema": {"type": "object", "properties": {
         "pattern": {"type": "string"}, "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"]},
         "-A": {"type": "number"}, "-i": {"type": "boolean"}, "head_limit": {"type": "number"}}, "required": ["pattern"]}},
    {"name": "TodoWrite", "description": "Use this tool to create and manage a structured task list.",
     "input_schema": {"type": "object", "properties": {"todos": {"type": "array", "items": {
         "type": "object", "properties": {"content": {"type": "string", "minLength": 1},
                                          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                                          "activeForm": {"type": "string"}},
         "required": ["content", "status", "activeForm"], "additionalProperties": False}}},
         "required": ["todos"], "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "WebFetch", "description": "Fetches content from a specified URL & processes it <html>",
     "input_schema": {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}, "prompt": {"type": "string"}},
                      "required": ["url", "prompt"]}, "cache_control": {"type": "ephemeral"}},
]


def msgs_generated():
    G = "generated:"
    M = "qwen3-coder:30b"

    def a(source, messages=..., **kw):
        body = {"model": kw.pop("model", M)}
        mt = kw.pop("max_tokens", 1024)
        if mt is not ...:
            body["max_tokens"] = mt
        if messages is not ...:
            body["messages"] = messages
        style = kw.pop("style", "compact")
        ascii = kw.pop("ascii", False)
        env = kw.pop("env", None)
        body.update(kw)
        add(MSGS, G + source, body, style=style, ascii=ascii, env=env)

    def txt(t, **kw):
        return dict({"type": "text", "text": t}, **kw)

    def img64(data, media="image/png"):
        return {"type": "image", "source": {"type": "base64", "media_type": media, "data": data}}

    def tu(id, name, input=...):
        b = {"type": "tool_use", "id": id, "name": name}
        if input is not ...:
            b["input"] = input
        return b

    def tr(id, content=..., **kw):
        b = {"type": "tool_result", "tool_use_id": id}
        if content is not ...:
            b["content"] = content
        b.update(kw)
        return b

    def m(role, *blocks):
        return {"role": role, "content": list(blocks)}

    # -- Claude Code style
    a("claude code: first turn", [m("user", txt("<system-reminder>\nContext: CLAUDE.md says use tabs & <b>no</b> emojis\n</system-reminder>"), txt("list the files here", cache_control={"type": "ephemeral"}))],
      system=CLAUDE_CODE_SYSTEM, tools=CLAUDE_CODE_TOOLS, max_tokens=32000, stream=True, metadata={"user_id": "user_abc_account__session_123"},
      temperature=1, thinking={"type": "enabled", "budget_tokens": 31999})
    a("claude code: tool round trip", [
        m("user", txt("run the tests")),
        m("assistant", {"type": "thinking", "thinking": "I should run the tests.", "signature": "EqQBCkYIBxgCKkB..."}, txt("Running tests."),
          tu("toolu_01A", "Bash", {"command": "cargo test", "description": "Run tests", "timeout": 120000})),
        m("user", tr("toolu_01A", [txt("test result: ok. 12 passed; 0 failed")]), txt("<system-reminder>todo list is empty</system-reminder>")),
        m("assistant", tu("toolu_01B", "TodoWrite", {"todos": [{"content": "Fix lint", "status": "pending", "activeForm": "Fixing lint"}]})),
        m("user", tr("toolu_01B", "Todos have been modified successfully.", is_error=False))],
      system=CLAUDE_CODE_SYSTEM, tools=CLAUDE_CODE_TOOLS, max_tokens=32000, stream=True, style="spaced")
    a("claude code: parallel tool uses and results", [
        m("user", txt("read both")),
        m("assistant", tu("t1", "Read", {"file_path": "/a.rs"}), tu("t2", "Read", {"file_path": "/b.rs", "limit": 20})),
        m("user", tr("t2", "b contents"), tr("t1", [txt("a "), txt("contents")]))],
      system=CLAUDE_CODE_SYSTEM[:1], tools=CLAUDE_CODE_TOOLS[:2])
    # -- system
    a("system empty string", [user("hi")], system="")
    a("system blocks: non-text and non-object entries ignored", [user("hi")], system=[txt("A"), {"type": "image", "source": {}}, "plain", 5, txt("B"), {"type": "Text", "text": "case"}, {"type": "text"}, {"type": "text", "text": 7}])
    a("system blocks all empty", [user("hi")], system=[txt(""), {"type": "text"}])
    a("system empty array", [user("hi")], system=[])
    a("system number (ignored)", [user("hi")], system=42)
    a("system object (ignored)", [user("hi")], system={"type": "text", "text": "obj"})
    a("system null", [user("hi")], system=None)
    a("system with html and unicode", [user("hi")], system="<rules> & «règles» 😀 \u2028")
    # -- content
    a("content: text blocks concatenated", [m("user", txt("Hello "), txt("world"), {"type": "text"}, txt(""))])
    a("content: text block with null text", [m("user", {"type": "text", "text": None}, txt("after"))])
    a("content: empty string message dropped", [user(""), user("kept")])
    a("content: null message dropped", [{"role": "user", "content": None}, user("kept")])
    a("content: empty blocks message dropped", [m("user"), user("kept")])
    a("role case is lowered", [{"role": "User", "content": "u"}, {"role": "ASSISTANT", "content": "a"}, {"role": "uSeR", "content": [tr("x", "r")]}])
    a("role system in messages kept", [{"role": "system", "content": "sys in messages"}, user("hi")])
    a("unknown role", [{"role": "narrator", "content": "once"}])
    for media, data in [("image/png", PNG), ("image/jpeg", JPEG), ("image/webp", WEBP), ("image/gif", GIF), ("", PNG), ("application/pdf", PNG)]:
        a(f"image base64 media_type {media!r} (not checked)", [m("user", txt("what is it?"), img64(data, media))])
    a("image without media_type", [m("user", {"type": "image", "source": {"type": "base64", "data": PNG}})])
    a("images only", [m("user", img64(PNG), img64(PNG_RED))])
    a("document block ignored", [m("user", {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}}, txt("summarize"))])
    a("document alone gives no message", [m("user", {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}}), user("then")])
    a("unknown blocks ignored (redacted_thinking, search_result, container_upload)", [m("assistant", {"type": "redacted_thinking", "data": "xyz"}, txt("visible")),
                                                                                     m("user", {"type": "search_result", "source": "s", "title": "t", "content": []}, txt("q"))])
    # -- tool_use
    a("tool_use: nested input keeps key order", [m("assistant", tu("t", "f", {"z": 1, "a": {"y": [1, 2.5, "x"], "b": None}, "m": True}))])
    a("tool_use: input numbers", [m("assistant", tu("t", "f", {"i": 7, "f": 0.5, "big": 12345678901234567890, "tiny": 0.0000001}))])
    a("tool_use: input missing", [m("assistant", tu("t", "f"))])
    a("tool_use: input empty", [m("assistant", tu("t", "f", {}))])
    a("tool_use: html in input", [m("assistant", tu("t", "f", {"html": "<a href='x'>&</a>"}))])
    a("tool_use with text and thinking", [m("assistant", {"type": "thinking", "thinking": "plan", "signature": "sig"}, txt("Let me look."), tu("t", "Read", {"file_path": "/x"}))])
    a("tool_use in a user message", [m("user", txt("odd"), tu("t", "f", {}))])
    # -- tool_result
    a("tool_result: text blocks concatenated, non-objects skipped", [m("user", tr("t", [txt("a"), "skip", 3, txt("b"), {"type": "unknown"}]))])
    a("tool_result: is_error dropped", [m("user", tr("t", "boom", is_error=True))])
    a("tool_result: content null", [m("user", tr("t", None))])
    a("tool_result: content missing", [m("user", tr("t"))])
    a("tool_result: content number", [m("user", tr("t", 5))])
    a("tool_result: content object", [m("user", tr("t", {"type": "text", "text": "obj"}))])
    a("tool_result: without tool_use_id", [m("user", {"type": "tool_result", "content": "x"})])
    a("tool_result: several, then text", [m("user", txt("before"), tr("a", "1"), tr("b", [img64(PNG)]), txt(" after"))])
    a("tool_result: in an assistant message comes after it", [m("assistant", txt("here"), tr("a", "r"))])
    a("tool_result: image with media_type ignored", [m("user", tr("a", [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": PNG}}]))])
    # -- thinking blocks
    a("thinking: the last block wins", [m("assistant", {"type": "thinking", "thinking": "one"}, {"type": "thinking", "thinking": "two"}, txt("ans"))])
    a("thinking: block without thinking", [m("assistant", {"type": "thinking", "signature": "s"}, txt("x"))])
    a("thinking: empty thinking only gives no message", [m("assistant", {"type": "thinking", "thinking": ""}), user("next")])
    # -- server tools
    a("server_tool_use and results list", [
        user("news?"),
        m("assistant", {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "news"}},
          {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
              {"type": "web_search_result", "title": "A & B", "url": "https://a.example/?q=<1>", "encrypted_content": "x", "page_age": "1 day"},
              {"type": "other"}, "skip", {"type": "web_search_result", "url": "https://no-title.example"}]},
          txt("Here is the news."))])
    for label, content in [("error object without code", {"type": "web_search_tool_result_error"}),
                           ("error inside the list", [{"type": "web_search_result", "title": "t", "url": "u"}, {"type": "web_search_tool_result_error", "error_code": "too_many_requests"}]),
                           ("error inside the list without code", [{"type": "web_search_tool_result_error"}]),
                           ("string", "plain results"), ("number", 5), ("null", None), ("missing", ...),
                           ("other object (marshalled, keys sorted)", {"zeta": 1, "alpha": "<x>"})]:
        b = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_9"}
        if content is not ...:
            b["content"] = content
        a("web_search_tool_result content " + label, [m("user", b)])
    # -- thinking and effort
    for label, th in [("enabled without budget", {"type": "enabled"}), ("disabled", {"type": "disabled"}),
                      ("adaptive alone", {"type": "adaptive"}), ("ENABLED (case matters)", {"type": "ENABLED"}),
                      ("unknown type", {"type": "auto"}), ("null", None), ("empty", {})]:
        a("thinking " + label, [user("hi")], thinking=th)
    for effort in ["medium", "low", "max", " XHigh ", "HIGH", "minimal", "none", ""]:
        a(f"output_config effort {effort!r}", [user("hi")], output_config={"effort": effort})
    a("output_config effort with thinking enabled (thinking wins)", [user("hi")], thinking={"type": "enabled", "budget_tokens": 2048}, output_config={"effort": "low"})
    a("output_config empty", [user("hi")], output_config={})
    a("output_config with format (ignored)", [user("hi")], output_config={"effort": "medium", "format": {"type": "json_schema", "schema": {"type": "object"}}})
    # -- options
    a("stop_sequences empty", [user("hi")], stop_sequences=[])
    a("stop_sequences null", [user("hi")], stop_sequences=None)
    a("stop_sequences several", [user("hi")], stop_sequences=["\n\nHuman:", "</answer>", "&&"])
    a("top_k 0, temperature 0, top_p 1", [user("hi")], top_k=0, temperature=0, top_p=1)
    a("temperature 1e-7 written out, top_p 0.999", [user("hi")], temperature=0.0000001, top_p=0.999)
    a("max_tokens large", [user("hi")], max_tokens=9223372036854775807)
    a("max_tokens 1", [user("hi")], max_tokens=1)
    a("stream false", [user("hi")], stream=False)
    a("unknown and dropped fields", [user("hi")], metadata={"user_id": "u"}, tool_choice={"type": "tool", "name": "f", "disable_parallel_tool_use": True},
      service_tier="auto", container="c", mcp_servers=[], context_management={"edits": []}, anthropic_version="2023-06-01")
    for tc_ in [{"type": "auto"}, {"type": "any"}, {"type": "none"}]:
        a(f"tool_choice {tc_['type']} (dropped)", [user("hi")], tools=CLAUDE_CODE_TOOLS[3:4], tool_choice=tc_)
    # -- tools
    a("tools: no input_schema", [user("hi")], tools=[{"name": "ping", "description": "Ping"}])
    a("tools: input_schema null", [user("hi")], tools=[{"name": "ping", "input_schema": None}])
    a("tools: built-in client tools become functions", [user("hi")], tools=[{"type": "bash_20250124", "name": "bash"},
                                                                            {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool", "max_characters": 10000},
                                                                            {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768}])
    a("tools: web_fetch is not web search", [user("hi")], tools=[{"type": "web_fetch_20250910", "name": "web_fetch", "max_uses": 2}])
    a("tools: web_search with options, newer version", [user("hi")], tools=[{"type": "web_search_20260209", "name": "web_search", "max_uses": 3, "allowed_domains": ["a.com"], "user_location": {"type": "approximate", "city": "Paris"}}])
    a("tools: web_search type without version", [user("hi")], tools=[{"type": "web_search", "name": "search"}])
    a("tools: custom web_search dropped after the built-in too", [user("hi")], tools=[{"type": "custom", "name": "web_search", "input_schema": {"type": "object"}}, {"type": "web_search_20250305", "name": "web_search"}])
    a("tools: schema with defs, items, anyOf, enum, nested properties", [user("hi")], tools=[{"name": "complex", "description": "<complex> & co", "input_schema": {
        "type": "object", "$defs": {"Pos": {"type": "integer", "minimum": 0}},
        "properties": {"mode": {"type": "string", "enum": ["a", "b", 3]}, "maybe": {"type": ["string", "null"]},
                       "either": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Pos"}]},
                       "list": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "number"}}}},
                       "obj": {"type": "object", "properties": {"inner": {"type": "boolean", "description": "d"}}, "required": ["inner"]}},
        "required": ["mode"]}}])
    a("cloud model without web search, cloud disabled", [user("hi")], model="kimi-k2.5:cloud", env={"OLLAMA_NO_CLOUD": "1"})
    a("cloud -cloud model with web search, cloud disabled", [user("hi")], model="gpt-oss:120b-cloud", tools=[{"type": "web_search_20260209", "name": "web_search"}], env={"OLLAMA_NO_CLOUD": "1"})
    a("local model with web search, cloud disabled", [user("hi")], model="llama3.2", tools=[{"type": "web_search_20250305", "name": "web_search"}], env={"OLLAMA_NO_CLOUD": "1"})
    a("cloud model with web search, cloud disabled by env value true", [user("hi")], model="x:cloud", tools=[{"type": "web_search_20250305", "name": "web_search"}], env={"OLLAMA_NO_CLOUD": "true"})
    a("cloud model with web search, OLLAMA_NO_CLOUD=0", [user("hi")], model="x:cloud", tools=[{"type": "web_search_20250305", "name": "web_search"}], env={"OLLAMA_NO_CLOUD": "0"})
    # -- keys
    add(MSGS, G + "keys: Model, MAX_TOKENS, Messages, Role, CONTENT, System", {"Model": M, "MAX_TOKENS": 10, "Messages": [{"Role": "user", "CONTENT": "hi"}], "System": "sys"})
    add(MSGS, G + "keys: Kelvin sign top_\u212a and long s \u017ftop_sequences", {"model": M, "max_tokens": 10, "messages": [user("hi")], "top_\u212a": 5, "\u017ftop_\u017fequences": ["x"]})
    add(MSGS, G + "keys: block keys TYPE, Text, Tool_Use_ID", {"model": M, "max_tokens": 10, "messages": [{"role": "user", "content": [{"TYPE": "text", "Text": "hi"}, {"Type": "tool_result", "Tool_Use_ID": "t", "Content": "r"}]}]})
    # -- middleware errors
    a("error: model empty", [user("hi")], model="")
    a("error: model null", [user("hi")], model=None)
    for label, v in [("0", 0), ("-1", -1), ("null", None)]:
        a("error: max_tokens " + label, [user("hi")], max_tokens=v)
    a("error: messages empty", [])
    a("error: messages null", None)
    a("error: model checked before max_tokens and messages", ..., model="", max_tokens=0)
    a("error: max_tokens checked before messages", ..., max_tokens=0)
    # -- conversion errors
    a("error: image url source", [m("user", txt("look"), {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}})])
    a("error: image file source", [m("user", {"type": "image", "source": {"type": "file", "file_id": "file_1"}})])
    a("error: image without source", [m("user", {"type": "image"})])
    a("error: image source null", [m("user", {"type": "image", "source": None})])
    a("error: image bad base64", [m("user", img64("iVBOR w0KGgo="))])
    a("error: image base64 with a data: prefix", [m("user", img64("data:image/png;base64," + PNG))])
    a("error: tool_use id empty", [m("assistant", tu("", "f", {}))])
    a("error: tool_use name empty", [m("assistant", tu("t", "", {}))])
    a("error: tool_result image without source", [m("user", tr("t", [{"type": "image"}]))])
    a("error: tool_result image url source", [m("user", tr("t", [{"type": "image", "source": {"type": "url", "url": "https://x"}}]))])
    a("error: tool_result image bad base64", [m("user", tr("t", [{"type": "image", "source": {"type": "base64", "data": "%%%"}}]))])
    a("error: tool_result image source type missing", [m("user", tr("t", [{"type": "image", "source": {"data": PNG}}]))])
    a("error: input_schema properties an array", [user("hi")], tools=[{"name": "bad", "input_schema": {"type": "object", "properties": ["a"]}}])
    a("error: input_schema property type a number", [user("hi")], tools=[{"name": "bad", "input_schema": {"type": "object", "properties": {"a": {"type": 1}}}}])
    a("error: input_schema type an array", [user("hi")], tools=[{"name": "bad", "input_schema": {"type": ["object"]}}])
    a("error: input_schema a number", [user("hi")], tools=[{"name": "n", "input_schema": 5}])
    a("error: the first bad message wins", [m("assistant", tu("", "x")), m("user", {"type": "image"})])
    # -- decoding errors (wrong types)
    for label, body in [
        ("model number", {"model": 1, "max_tokens": 5, "messages": [user("hi")]}),
        ("max_tokens 1.5", {"model": M, "max_tokens": 1.5, "messages": [user("hi")]}),
        ("max_tokens string", {"model": M, "max_tokens": "1024", "messages": [user("hi")]}),
        ("max_tokens past int64", {"model": M, "max_tokens": 99999999999999999999, "messages": [user("hi")]}),
        ("messages object", {"model": M, "max_tokens": 5, "messages": {"role": "user", "content": "hi"}}),
        ("message a string", {"model": M, "max_tokens": 5, "messages": ["hi"]}),
        ("message role a number", {"model": M, "max_tokens": 5, "messages": [{"role": 1, "content": "hi"}]}),
        ("message content missing", {"model": M, "max_tokens": 5, "messages": [{"role": "user"}]}),
        ("message content a number", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": 5}]}),
        ("message content an object", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}),
        ("block a string", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": ["hi"]}]}),
        ("block type a number", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": 1}]}]}),
        ("text a number", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "text", "text": 1}]}]}),
        ("tool_use id a number", {"model": M, "max_tokens": 5, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": 1, "name": "f"}]}]}),
        ("tool_use input a string", {"model": M, "max_tokens": 5, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]}]}),
        ("tool_use input an array", {"model": M, "max_tokens": 5, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": [1]}]}]}),
        ("tool_use input null", {"model": M, "max_tokens": 5, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": None}]}]}),
        ("is_error a string", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}]}]}),
        ("image source a string", {"model": M, "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "image", "source": "https://x/a.png"}]}]}),
        ("citations an object", {"model": M, "max_tokens": 5, "messages": [{"role": "assistant", "content": [{"type": "text", "text": "x", "citations": {}}]}]}),
        ("temperature a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "temperature": "0.5"}),
        ("top_k 1.5", {"model": M, "max_tokens": 5, "messages": [user("hi")], "top_k": 1.5}),
        ("stop_sequences a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "stop_sequences": "END"}),
        ("stop_sequences with a number", {"model": M, "max_tokens": 5, "messages": [user("hi")], "stop_sequences": ["a", 1]}),
        ("tools an object", {"model": M, "max_tokens": 5, "messages": [user("hi")], "tools": {"name": "f"}}),
        ("tool name a number", {"model": M, "max_tokens": 5, "messages": [user("hi")], "tools": [{"name": 1}]}),
        ("tool max_uses a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": "5"}]}),
        ("thinking a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "thinking": "enabled"}),
        ("thinking budget_tokens 1.5", {"model": M, "max_tokens": 5, "messages": [user("hi")], "thinking": {"type": "enabled", "budget_tokens": 1.5}}),
        ("metadata a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "metadata": "u"}),
        ("tool_choice a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "tool_choice": "auto"}),
        ("output_config.effort a number", {"model": M, "max_tokens": 5, "messages": [user("hi")], "output_config": {"effort": 1}}),
        ("stream a string", {"model": M, "max_tokens": 5, "messages": [user("hi")], "stream": "true"}),
    ]:
        add(MSGS, G + "wrong type: " + label, body)

    # -- SDK-like conversations (seeded)
    rng = random.Random(3003)
    for i in range(40):
        msgs = []
        for t in range(rng.randrange(1, 4)):
            if rng.random() < 0.5:
                msgs.append(user(pick(rng, TEXTS)))
            else:
                msgs.append(m("user", txt(pick(rng, TEXTS[:8])), *([img64(PNG)] if rng.random() < 0.3 else [])))
            blocks = []
            if rng.random() < 0.4:
                blocks.append({"type": "thinking", "thinking": pick(rng, ["Let me think.", "Considering <options> & trade-offs"]), "signature": "sig"})
            blocks.append(txt(pick(rng, ["Sure.", "Voilà!", "Here: <code>x</code>"])))
            if rng.random() < 0.4:
                tid = f"toolu_{rng.randrange(10**8):08d}"
                blocks.append(tu(tid, "Bash", {"command": pick(rng, ["ls -la", "git status", "echo 'é'"])}))
                msgs.append(m("assistant", *blocks))
                msgs.append(m("user", tr(tid, pick(rng, ["ok", [txt("total 0")], "é ü"]))))
            else:
                msgs.append(m("assistant", *blocks))
        msgs.append(user(pick(rng, ["continue", "thanks", "and then?"])))
        body = {"model": pick(rng, ["qwen3-coder:30b", "gpt-oss:20b", "glm-4.6"]), "max_tokens": pick(rng, [1024, 4096, 32000]), "messages": msgs}
        if rng.random() < 0.6:
            body["system"] = pick(rng, ["You are helpful.", CLAUDE_CODE_SYSTEM[:2]])
        if rng.random() < 0.5:
            body["tools"] = CLAUDE_CODE_TOOLS[:rng.randrange(1, len(CLAUDE_CODE_TOOLS) + 1)]
        for k, gen in [("stream", lambda: True), ("temperature", lambda: pick(rng, [0, 0.5, 1])), ("top_p", lambda: 0.9), ("top_k", lambda: 40),
                       ("thinking", lambda: pick(rng, [{"type": "enabled", "budget_tokens": 1024}, {"type": "disabled"}, {"type": "adaptive"}])),
                       ("stop_sequences", lambda: ["\n\nHuman:"]), ("metadata", lambda: {"user_id": "u1"})]:
            if rng.random() < 0.4:
                body[k] = gen()
        add(MSGS, G + f"sdk conversation {i + 1}", body, style=pick(rng, ["compact", "spaced"]), ascii=rng.random() < 0.5)


# ---------------------------------------------------------------- raw bodies


def raw_cases():
    G = "generated:raw: "
    ok_chat = '{"model":"llama3.2","messages":[{"role":"user","content":"hi"}]}'
    for route, label, body in [
        (CHAT, "empty body", ""),
        (CHAT, "whitespace only", " \n\t "),
        (CHAT, "truncated object", '{"model":"llama3.2","messages":[{"role":"user","content":"hi"'),
        (CHAT, "truncated after key", '{"model"'),
        (CHAT, "trailing garbage after the object (ignored by the decoder)", ok_chat + " garbage"),
        (CHAT, "two objects (the first is used)", ok_chat + '{"model":"other"}'),
        (CHAT, "top-level array", "[" + ok_chat + "]"),
        (CHAT, "null", "null"),
        (CHAT, "byte order mark", "\ufeff" + ok_chat),
        (CHAT, "NaN number", '{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":NaN}'),
        (CHAT, "lone surrogate escape (decoded as U+FFFD)", '{"model":"m","messages":[{"role":"user","content":"a\\ud800b"}]}'),
        (CHAT, "single quotes", "{'model':'m'}"),
        (COMPL, "trailing comma", '{"model":"m","prompt":"p",}'),
        (COMPL, "a JSON string", '"just a string"'),
        (COMPL, "empty body", ""),
        (COMPL, "number", "42"),
        (RESP, "trailing garbage after the object", '{"model":"m","input":"hi"} trailing'),
        (RESP, "top-level array", '[{"model":"m","input":"hi"}]'),
        (RESP, "invalid json", "{invalid json"),
        (RESP, "lone surrogate escape in input (decoded as U+FFFD)", '{"model":"m","input":"\\udc00 x"}'),
        (RESP, "null", "null"),
        (MSGS, "empty body", ""),
        (MSGS, "null (model is required)", "null"),
        (MSGS, "number", "123"),
        (MSGS, "truncated", '{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":"hi'),
        (MSGS, "trailing garbage after the object", '{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}}'),
    ]:
        add(route, G + label, body, raw=True)


def main():
    chat_ported()
    chat_generated()
    completions_ported()
    completions_generated()
    resp_ported()
    resp_generated()
    msgs_ported()
    msgs_generated()
    raw_cases()
    seen = {}
    out = []
    for route in ROUTES:
        n = 0
        for case in CASES:
            if case["route"] != route:
                continue
            n += 1
            key = (route, case["body"], json.dumps(case.get("env"), sort_keys=True))
            if key in seen:
                print(f"note: {route}-{n} ({case['source']}) repeats {seen[key]}", file=sys.stderr)
            else:
                seen[key] = f"{route}-{n}"
            out.append(dict({"id": f"{route}-{n}"}, **case))
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        for case in out:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    counts = {r: sum(1 for c in out if c["route"] == r) for r in ROUTES}
    print(f"{len(out)} cases: " + ", ".join(f"{r} {n}" for r, n in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
